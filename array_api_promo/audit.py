"""Audit a program: every line of it whose result another promotion policy would change.

    python -m array_api_promo.audit --policy array_api --against torch,numpy [--json FILE] -- pytest -k "array_api and strict"

The program runs with ``import array_api_strict`` giving an audited stand-in
(``array_api_promo.standin``'s mechanism: the program and every Python
subprocess it starts, pytest-xdist workers included): it computes exactly as the
``--policy`` namespace, and each call of the program's whose outcome (result
dtype, refusal, or a Python scalar's conversion) an ``--against`` policy would
change is recorded at the program's own line.  At exit the runner merges the
records of every process, prints the sites worst first and writes ``--json``
(and ``--markdown``: the sites grouped by rule, with the command that made it).

In Python, ``array_api_promo.audit(policy, against=[...], api_version=None)``
gives the audited namespace itself (this module is callable: it is that function).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import types

from ._audit import Audit, Outcome, Record, _sorted, audit as _audit
from ._namespace import API_VERSIONS
from .from_env import policy_from_spec
from .promotion._policy import PromotionDifferenceWarning
from .standin import _PACKAGE_ROOT, SITE_DIR

__all__ = ["Audit", "Outcome", "PromotionDifferenceWarning", "Record", "audit", "main", "merge", "render_markdown"]

audit = _audit


def merge(reports) -> list[Record]:
    """The records of several processes' reports as one list (counts of a site summed), worst first."""
    merged: dict = {}
    for report in reports:
        for data in report["records"]:
            record = Record.from_json(data)
            key = record.key
            if key in merged:
                merged[key].count += record.count
            else:
                merged[key] = record
    return _sorted(merged.values())


def _site(path: str) -> str:
    marker = f"site-packages{os.sep}"
    if marker in path:
        return path.split(marker, 1)[1]
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    return path if relative.startswith("..") else relative


SITES_PER_RULE = 20  # the Markdown report's sites under one rule, most frequent first


def render_markdown(records: list[Record], policy: str, against: list[str], command: str, title: str = "") -> str:
    """A report of ``records`` grouped by rule (operation, operands and outcomes), each rule's sites below it."""
    rules: dict = {}
    for r in records:
        rules.setdefault((r.op, r.operands, r.policy_outcome, tuple(r.against.items())), []).append(r)
    ordered = sorted(rules.items(), key=lambda item: (-item[1][0].severity, -sum(r.count for r in item[1])))
    heading = title or f"Audit: {policy} against {', '.join(against)}"
    lines = [f"# {heading}", ""]
    lines += [
        f"Every call of the program whose outcome under policy `{policy}` differs under "
        f"{', '.join(f'`{a}`' for a in against)}, grouped by rule. Regenerate with:",
        "",
        "```sh",
        command,
        "```",
        "",
        f"{len(records)} sites, {len(ordered)} rules, {sum(r.count for r in records):,} calls.",
        "",
    ]
    if not records:
        lines.append("No call differs.")
    for (op, operands, mine, theirs), sites in ordered:
        outcomes = "; ".join([f"`{policy}`: {mine.text()}"] + [f"`{n}`: {o.text()}" for n, o in theirs])
        lines += [f"## `{op}({operands})`", "", outcomes, ""]
        ranked = sorted(sites, key=lambda r: (-r.count, r.file, r.line))
        for r in ranked[:SITES_PER_RULE]:
            example = f", values {r.values}" if r.values else ""
            lines.append(f"- `{_site(r.file)}:{r.line}` ({r.function}), {r.count:,} calls{example}")
        if len(ranked) > SITES_PER_RULE:
            rest = ranked[SITES_PER_RULE:]
            lines.append(f"- ... and {len(rest)} more sites ({sum(r.count for r in rest):,} calls; all in the JSON)")
        lines.append("")
    return "\n".join(lines)


def print_table(records: list[Record], policy: str, against: list[str], limit: int = 50, file=None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=file or sys.stdout, width=200)
    if not records:
        console.print(f"audit: no call differs between policy {policy!r} and {', '.join(against)}")
        return
    table = Table(title=f"Calls whose outcome differs: {policy} against {', '.join(against)}", show_lines=False)
    table.add_column("calls", justify="right")
    table.add_column("site")
    table.add_column("call")
    table.add_column(policy)
    for name in against:
        table.add_column(name)
    for r in records[:limit]:
        table.add_row(
            f"{r.count:,}",
            f"{_site(r.file)}:{r.line}",
            f"{r.op}({r.operands})" + (f" [{r.values}]" if r.values else ""),
            r.policy_outcome.text(),
            *[r.against[n].text() if n in r.against else "" for n in against],
        )
    console.print(table)
    if len(records) > limit:
        console.print(f"... and {len(records) - limit} more sites (all in --json)")


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
    against = [a for a in args.against.split(",") if a]
    extra_env = {}
    for item in args.env:
        name, sep, value = item.partition("=")
        if not sep or not name:
            parser.error(f"--env takes NAME=VALUE, got {item!r}")
        extra_env[name] = value
    for flag, path in (("--json", args.json), ("--markdown", args.markdown)):
        problem = _unwritable(path) if path else None
        if problem:  # before the program runs: a run whose report cannot be written is not started
            print(f"{parser.prog}: error: {flag} {path}: {problem}", file=sys.stderr)
            return 2
    if args.numpy:
        if args.policy is not None or args.api_version is not None:
            parser.error("--numpy runs the program on the installed NumPy: --policy and --api-version do not apply")
        return _numpy_main(args, argv, command, against, extra_env, parser)
    if args.include:
        parser.error("--include applies to --numpy")
    args.policy = args.policy or "array_api"
    try:
        main_policy = policy_from_spec(args.policy)
        others = [policy_from_spec(a) for a in against]
        from ._audit import _policies

        _policies(main_policy, others)
    except (ImportError, TypeError, ValueError) as exc:
        parser.error(str(exc))
    if shutil.which(command[0]) is None:
        parser.error(f"program not found: {command[0]}")
    env = dict(os.environ, **extra_env)
    env["ARRAY_API_PROMO_STANDIN"] = "1"
    env["ARRAY_API_PROMO_STANDIN_ROOT"] = _PACKAGE_ROOT
    env["ARRAY_API_PROMO_POLICY"] = args.policy
    env["ARRAY_API_PROMO_AUDIT_AGAINST"] = ",".join(against)
    if args.api_version:
        env["ARRAY_API_STRICT_API_VERSION"] = args.api_version
    returncode, reports = _run_collecting(command, env)
    _report(args, argv, merge(reports), main_policy.name, [p.name for p in others])
    return returncode


def _unwritable(path: str) -> str | None:
    """Why a report cannot be written at ``path`` (None: it can)."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        return "is a directory"
    if not os.path.isdir(folder):
        return f"no such directory {folder}"
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        return "not writable"
    return None


def _report(args, argv, records: list[Record], policy: str, names: list[str], file=None, extra=None) -> None:
    """The table (on ``file``, default stdout), --json (with ``extra`` keys) and --markdown of the merged records."""
    print_table(records, policy, names, args.limit, file=file)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            # Sites as the table shows them (inside site-packages, or relative to the working directory):
            # a report does not name the machine it was made on.
            rows = [{**r.as_json(), "file": _site(r.file)} for r in records]
            payload = {"policy": policy, "against": names, "records": rows, **(extra or {})}
            json.dump(payload, f, indent=1)
            f.write("\n")
    if args.markdown:
        invocation = shlex.join(["python", "-m", "array_api_promo.audit", *argv])
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(render_markdown(records, policy, names, invocation, args.title))


def _run_collecting(command: list[str], env: dict) -> tuple[int, list]:
    """Run the program with ``env`` and a fresh records folder; its exit status and every process's reports."""
    with tempfile.TemporaryDirectory(prefix="array-api-promo-audit-") as folder:
        env = dict(env, ARRAY_API_PROMO_AUDIT_DIR=folder)
        env["PYTHONPATH"] = os.pathsep.join([SITE_DIR] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
        sys.stdout.flush()
        try:
            returncode = subprocess.call(command, env=env)
        except KeyboardInterrupt:
            returncode = 130
        reports = []
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                reports.extend(json.load(f))
    return returncode, reports


def _default_include(command: list[str]) -> str:
    """The program's directory: the first ``.py`` file of the command's, else the working directory."""
    for word in command[1:]:
        if word.endswith(".py") and os.path.isfile(word):
            return os.path.dirname(os.path.abspath(word))
    return os.getcwd()


def _numpy_main(args, argv, command, against, extra_env, parser) -> int:
    """``--numpy``: the program on the installed NumPy, its own NumPy operations compared."""
    import numpy as np

    from ._numpy_audit import ENV_AGAINST, ENV_INCLUDE, check_against

    try:
        others = check_against([policy_from_spec(a) for a in against])
    except (ImportError, TypeError, ValueError) as exc:
        parser.error(str(exc))
    if shutil.which(command[0]) is None:
        parser.error(f"program not found: {command[0]}")
    include = [os.path.abspath(p) if os.path.exists(p) else p for p in args.include] or [_default_include(command)]
    env = dict(os.environ, **extra_env)
    env[ENV_AGAINST] = ",".join(against)
    env[ENV_INCLUDE] = os.pathsep.join(include)
    env["ARRAY_API_PROMO_STANDIN_ROOT"] = _PACKAGE_ROOT
    returncode, reports = _run_collecting(command, env)
    uncompared: dict = {}
    for report in reports:
        for why, count in report.get("uncompared", {}).items():
            uncompared[why] = uncompared.get(why, 0) + count
    # On stderr: the audited run's stdout is the program's, byte for byte.
    _report(
        args,
        argv,
        merge(reports),
        f"numpy {np.__version__}",
        [p.name for p in others],
        file=sys.stderr,
        extra={"uncompared": uncompared},  # the calls the report does not cover, by operation and reason
    )
    if uncompared:  # said, not hidden: which calls the report could not cover, and why
        worst = sorted(uncompared.items(), key=lambda item: -item[1])
        listed = "; ".join(f"{why}: {count:,}" for why, count in worst[:5]) + ("; ..." if len(worst) > 5 else "")
        total = sum(uncompared.values())
        print(f"audit: {total:,} calls could not be compared ({listed})", file=sys.stderr)
    return returncode


class _CallableModule(types.ModuleType):
    """``array_api_promo.audit(...)`` is the function, whether or not this module was imported."""

    def __call__(self, policy="array_api", against=("torch",), api_version=None):
        return _audit(policy, against, api_version)


sys.modules[__name__].__class__ = _CallableModule

if __name__ == "__main__":
    sys.exit(main())
