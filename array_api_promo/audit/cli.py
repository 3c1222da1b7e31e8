"""``python -m array_api_promo.audit``: run a program under the audit and report what differs.

Two modes over one runner (:func:`run_collecting`: the program in a subprocess, every Python
process of it writing its records into a folder, merged at the end):

* array-API code (default): the program runs with ``import array_api_strict`` giving an audited
  stand-in (:func:`.namespace.make_standin_module`, through :mod:`array_api_promo.standin`'s hook);
* ``--numpy``: plain NumPy code, rewritten at import (:mod:`.program` in each process) and
  compared with the ``--against`` policies (:mod:`.numpy_compare`).

Called by ``python -m array_api_promo.audit`` (:mod:`.__main__`); :mod:`array_api_promo.nep50`
uses its runner.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

from .._namespace import API_VERSIONS
from ..promotion import get_policy
from .records import ENV_RECORDS_DIR, check_against, merge, read_folder
from .reports import plural, print_table, unwritable, write_reports

__all__ = ["PACKAGE_ROOT", "SITE_DIR", "default_include", "load_policy", "main", "run_collecting", "run_numpy_tool"]

# The folder holding the array_api_promo package (the site hook puts it on a program's path)
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The site hook's folder, put first on the program's PYTHONPATH: its sitecustomize starts the tools
SITE_DIR = os.path.join(PACKAGE_ROOT, "array_api_promo", "_site")


def load_policy(spec: str):
    """A policy by name, or ``module:attribute`` (the command line's loader, imported only for those)."""
    if ":" not in spec:
        return get_policy(spec)
    from .._cli import load_policy as load

    return load(spec)


def _refusal(exc: Exception) -> str:
    text = str(exc)
    return text.replace("unknown promotion policy", "unknown policy") if isinstance(exc, ValueError) else text


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(
        prog="python -m array_api_promo.audit",
        description="Run a program with `import array_api_strict` giving an audited namespace of --policy, and list "
        "every line of it whose outcome (result dtype, refusal, a scalar's conversion) an --against policy changes.",
    )
    parser.add_argument(
        "--numpy",
        action="store_true",
        help="audit a plain NumPy program: it runs on the installed NumPy, and each NumPy operation of its own "
        "code is compared with the --against policies",
    )
    parser.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="PATTERN",
        help="with --numpy: the user's code, a directory, a file or a module name pattern such as 'sklearn.*' "
        "(repeatable; default: the program's directory)",
    )
    parser.add_argument("--policy", default=None, help="the policy the program runs under (default array_api)")
    parser.add_argument("--against", required=True, help="the policies to compare with, separated by commas")
    parser.add_argument("--api-version", choices=API_VERSIONS, default=None, help="the standard's version")
    parser.add_argument("--json", metavar="FILE", help="write the records as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="write a report grouped by rule")
    parser.add_argument("--title", default="", help="the Markdown report's title")
    parser.add_argument("--limit", type=int, default=50, help="sites shown in the table (default 50)")
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an environment variable for the program (repeatable; kept in the report's command, e.g. SCIPY_ARRAY_API=1)",
    )
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the program and its arguments (after --)")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no program given: python -m array_api_promo.audit --against Q [options] -- PROGRAM [ARGS...]")
    if args.numpy:
        if args.policy is not None or args.api_version is not None:
            parser.error("--numpy runs the program on the installed NumPy: --policy and --api-version do not apply")
        return run_numpy_tool(parser, args, argv, warns=False)
    against = [a for a in args.against.split(",") if a]
    extra_env = _extra_env(parser, args.env)
    if _reports_unwritable(parser, args):  # before the program runs: a run whose report cannot be written
        return 2
    invocation = shlex.join(["python", "-m", "array_api_promo.audit", *argv])
    if args.include:
        parser.error("--include applies to --numpy")
    from .namespace import check_policies

    args.policy = args.policy or "array_api"
    try:
        main_policy = load_policy(args.policy)
        others = [load_policy(a) for a in against]
        check_policies(main_policy, others)
    except Exception as exc:  # (the command line's UsageError too)
        parser.error(_refusal(exc))
    if shutil.which(command[0]) is None:
        parser.error(f"program not found: {command[0]}")
    env = dict(os.environ, **extra_env)
    env["ARRAY_API_PROMO_STANDIN"] = "1"
    env["ARRAY_API_PROMO_STANDIN_ROOT"] = PACKAGE_ROOT
    env["ARRAY_API_PROMO_POLICY"] = args.policy
    env["ARRAY_API_PROMO_AUDIT_AGAINST"] = ",".join(against)
    if args.api_version:
        env["ARRAY_API_STRICT_API_VERSION"] = args.api_version
    returncode, reports = run_collecting(command, env)
    records = merge(reports)
    names = [p.name for p in others]
    print_table(records, main_policy.name, names, args.limit, file=sys.stderr)  # stdout is the program's
    write_reports(args, invocation, records, main_policy.name, names)
    return returncode


def run_collecting(command: list[str], env: dict) -> tuple[int, list]:
    """Run the program with ``env`` and a fresh records folder; its exit status and every process's reports."""
    with tempfile.TemporaryDirectory(prefix="array-api-promo-audit-") as folder:
        env = dict(env, **{ENV_RECORDS_DIR: folder})
        env["PYTHONPATH"] = os.pathsep.join([SITE_DIR] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
        sys.stdout.flush()
        try:
            returncode = subprocess.call(command, env=env)
        except KeyboardInterrupt:
            returncode = 130
        reports = read_folder(folder)
    return returncode, reports


def default_include(command: list[str]) -> str:
    """The program's directory: the first ``.py`` file of the command's, else the working directory."""
    for word in command[1:]:
        if word.endswith(".py") and os.path.isfile(word):
            return os.path.dirname(os.path.abspath(word))
    return os.getcwd()


def run_numpy_tool(parser, args, argv: list[str], warns: bool) -> int:
    """The program on the installed NumPy, its own NumPy operations compared with ``args.against``: the
    audit (``--numpy``, records) or the warning mode (``warns``: python -m array_api_promo.nep50).
    Returns the program's exit status, or a failure of the tool's own (2: bad arguments, nothing ran)."""
    from .program import ENV_AGAINST, ENV_INCLUDE, ENV_WARN, against_names

    numpy_version = sys.modules["numpy"].__version__  # (the package imported it)

    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error(f"no program given: {parser.prog} [options] -- PROGRAM [ARGS...]")
    extra_env = _extra_env(parser, args.env)
    if _reports_unwritable(parser, args):
        return 2
    names = against_names(args.against)
    try:
        others = check_against([load_policy(a) for a in names])
    except Exception as exc:  # (the command line's UsageError too)
        parser.error(_refusal(exc))
    if shutil.which(command[0]) is None:
        parser.error(f"program not found: {command[0]}")
    include = [os.path.abspath(p) if os.path.exists(p) else p for p in args.include] or [default_include(command)]
    env = dict(os.environ, **extra_env)
    env.pop(ENV_WARN if not warns else ENV_AGAINST, None)
    env[ENV_WARN if warns else ENV_AGAINST] = ",".join(names)
    env[ENV_INCLUDE] = os.pathsep.join(include)
    env["ARRAY_API_PROMO_STANDIN_ROOT"] = PACKAGE_ROOT
    returncode, reports = run_collecting(command, env)
    tool = parser.prog.rpartition(" ")[2]
    processes = [r for r in reports if "uncompared" in r]
    missing = [r["missing"] for r in processes if "missing" in r]
    uncompared: dict = {}
    for report in processes:
        for why, count in report.get("uncompared", {}).items():
            uncompared[why] = uncompared.get(why, 0) + count
    records = merge(processes)
    invocation = shlex.join(["python", "-m", parser.prog.rpartition(" ")[2], *argv])
    # On stderr: the run's stdout is the program's, byte for byte.
    if (not warns or getattr(args, "table", False)) and processes and not missing:
        print_table(records, f"numpy {numpy_version}", [p.name for p in others], args.limit, file=sys.stderr)
    write_reports(
        args,
        invocation,
        records,
        f"numpy {numpy_version}",
        [p.name for p in others],
        extra={"uncompared": uncompared},  # the calls the report does not cover, by operation and reason
    )
    if missing:  # Python said it cannot open the file; so does the tool, and nothing was compared
        print(f"{tool}: program not found: {missing[0]} (nothing was compared)", file=sys.stderr)
        return returncode or 2
    if not processes:
        print(f"{tool}: no Python process of the program ran under the tool (nothing was compared)", file=sys.stderr)
        return returncode or 1
    if uncompared:  # said, not hidden: which calls the report could not cover, and why
        worst = sorted(uncompared.items(), key=lambda item: -item[1])
        listed = "; ".join(f"{why}: {count:,}" for why, count in worst[:5]) + ("; ..." if len(worst) > 5 else "")
        total = sum(uncompared.values())
        print(f"{tool}: {total:,} calls could not be compared ({listed})", file=sys.stderr)
    if warns:
        calls = sum(r.count for r in records if r.kind is None)
        sites = len({(r.file, r.line) for r in records if r.kind is None})
        print(
            f"{tool}: {plural(sites, 'line')}, {plural(calls, 'call')} differ from {', '.join(names)}", file=sys.stderr
        )
    return returncode


def _extra_env(parser, items) -> dict:
    extra_env = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            parser.error(f"--env takes NAME=VALUE, got {item!r}")
        extra_env[name] = value
    return extra_env


def _reports_unwritable(parser, args) -> bool:
    """Whether --json or --markdown cannot be written (said on one line): then the program is not started."""
    for flag, path in (("--json", args.json), ("--markdown", args.markdown)):
        problem = unwritable(path) if path else None
        if problem:
            print(f"{parser.prog}: error: {flag} {path}: {problem}", file=sys.stderr)
            return True
    return False
