"""``python -m conformance``: run the upstream suite per policy x API version,
store normalised results and xfails, and regenerate DEVIATIONS.md; with ``--library``,
any array namespace, and with ``--storage dask``, the namespace over Dask, each as a
report under ``conformance/reports/``."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from array_api_promo._namespace import STORAGES

from . import (
    API_VERSIONS,
    CACHE_DIR,
    DEFAULT_API_VERSION,
    DEVIATIONS_MD,
    IN_CHECKOUT,
    INTENTIONAL_POLICIES,
    RESULTS_DIR,
    SUITE_COMMIT,
    XFAILS_DIR,
    crosscheck,
    library,
    normalize,
    provenance,
    render,
    runner,
    spec,
    suite as suite_mod,
)
from .attribution import attribute
from .xfails import write_xfails

DEFAULT_POLICIES = ("array_api", "torch", "paddle", "mlx")  # the policies whose results DEVIATIONS.md holds
DEFAULT_STORAGE_POLICIES = ("array_api",)  # --storage dask: the standard policy's report
DEFAULT_MAX_EXAMPLES = 200
DEFAULT_SEED = 0

PROMOTION_SECTIONS = ("Rules", "Notes", "Mixing arrays with Python scalars")


#: Seeds are non-negative and below 2**32 (Hypothesis hashes larger ones); a range of more than
#: MAX_DRAWS seeds is a typo, not a plan (each seed is one run of the whole suite).
MAX_SEED = 2**32 - 1
MAX_DRAWS = 1000


def _seeds_arg(text: str) -> list:
    """``--seed 5`` or ``--seed 0-47`` (both ends included), each seed in 0..MAX_SEED."""
    first, dash, last = text.strip().partition("-")
    try:
        lo, hi = (int(first), int(last)) if dash else (int(text), int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a seed is a non-negative integer or a range A-B (e.g. 0-3), got {text!r}"
        ) from None
    if lo < 0 or hi > MAX_SEED:
        raise argparse.ArgumentTypeError(f"seeds go from 0 to {MAX_SEED}, got {text!r}")
    if hi < lo:
        raise argparse.ArgumentTypeError(f"the range {text!r} is empty (give A-B with A <= B)")
    if hi - lo >= MAX_DRAWS:
        raise argparse.ArgumentTypeError(f"the range {text!r} has {hi - lo + 1} seeds, at most {MAX_DRAWS} a range")
    return list(range(lo, hi + 1))


def _count_arg(what: str, minimum: int):
    """An argparse type: an integer of at least ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} is an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{what} is at least {minimum}, got {value}")
        return value

    return parse


def _seconds_arg(zero_allowed: bool):
    """An argparse type: a number of seconds, positive (or 0 when ``zero_allowed``: none)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a number of seconds, got {text!r}") from None
        if not (value > 0 or (zero_allowed and value == 0)) or value != value or value == float("inf"):
            raise argparse.ArgumentTypeError(
                f"a number of seconds {'of 0 or more' if zero_allowed else 'above 0'}, got {text!r}"
            )
        return value

    return parse


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors on one line (``prog: error: ...``) and exit code 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def parse_args(argv=None, prog: str = suite_mod.PROG):
    p = _Parser(
        prog=prog,
        description="Run the upstream array-api-tests suite against array_api_promo per promotion "
        "policy and API version; write conformance/results/*.json, "
        "conformance/xfails/*.txt and DEVIATIONS.md.",
    )
    p.add_argument(
        "--suite",
        metavar="PATH",
        help=f"array-api-tests checkout (default: ${suite_mod.ENV_SUITE_DIR}, else a clone "
        "in conformance/.cache/array-api-tests)",
    )
    p.add_argument(
        "--policy",
        action="append",
        metavar="NAME",
        help="policy to run: array_api, torch, a module path or module:attr "
        f"(repeatable; default: {' '.join(DEFAULT_POLICIES)}; with --storage dask: "
        f"{' '.join(DEFAULT_STORAGE_POLICIES)})",
    )
    p.add_argument(
        "--api-version",
        action="append",
        metavar="YYYY.MM",
        help=f"API version (repeatable; default {DEFAULT_API_VERSION}; known: {', '.join(API_VERSIONS)})",
    )
    p.add_argument(
        "--max-examples",
        type=_count_arg("--max-examples", 1),
        default=None,
        help=f"Hypothesis max examples per test (default {DEFAULT_MAX_EXAMPLES}; "
        f"{library.REPORT_MAX_EXAMPLES} with --storage dask, as the committed library reports)",
    )
    p.add_argument(
        "--seed",
        type=_seeds_arg,
        action="extend",
        metavar="SEED",
        help="Hypothesis seed (default 0). With --library or --storage dask, repeatable, or a range A-B: "
        "the suite runs once per seed and the report lists every test that failed on any draw, marking "
        "those that failed on some only",
    )
    p.add_argument(
        "--workers",
        type=_count_arg("--workers", 1),
        default=os.cpu_count() or 1,
        metavar="N",
        help="processes the suite may use in all (default: the CPU count, here %(default)s). Runs go side by "
        "side, one process each, N at a time; fewer runs than N share the N as pytest-xdist workers. "
        "1: one run at a time, in one process (no xdist)",
    )
    p.add_argument(
        "--render-only",
        action="store_true",
        help="do not run the suite; re-render DEVIATIONS.md (and xfails) from stored results",
    )
    p.add_argument(
        "--module-map",
        action="append",
        default=[],
        metavar="POLICY=MODULE",
        help="override the namespace module for a policy name, e.g. strict=array_api_strict",
    )
    p.add_argument(
        "--pytest-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra argument passed to pytest (repeatable), e.g. --pytest-arg=-k --pytest-arg=add",
    )
    p.add_argument(
        "--results-dir",
        type=Path,
        metavar="DIR",
        help="where results, xfails (DIR/xfails) and the report (DIR/DEVIATIONS.md) go. Default: the "
        "committed conformance/results, conformance/xfails and DEVIATIONS.md for a run with the default "
        "settings from a checkout; a new scratch folder, named at the end, for any other run",
    )
    p.add_argument("--xfails-dir", type=Path, metavar="DIR", help="xfails folder (default: see --results-dir)")
    p.add_argument("--output", type=Path, help="report path (default: see --results-dir)")
    p.add_argument(
        "--work-dir",
        type=Path,
        default=CACHE_DIR / "runs",
        help=f"raw reports and logs (default {CACHE_DIR / 'runs'})",
    )
    p.add_argument(
        "--from-raw",
        action="store_true",
        help="do not run pytest: re-normalise the raw reports of the last runs in --work-dir "
        "(after changing the classification or report code)",
    )
    p.add_argument("--no-clone", action="store_true", help="never clone the suite (no network use)")
    p.add_argument("--no-progress", action="store_true", help="no live progress display")
    p.add_argument(
        "--no-shrink",
        action="store_true",
        help="skip Hypothesis' shrink phase for every policy (much faster when many tests fail; failing "
        "examples are then not minimal). By default only the standard policy's runs shrink: an intentional "
        "policy (torch) fails some 70 tests by design, and shrinking them takes over 25 minutes",
    )
    p.add_argument(
        "--shrink-all",
        action="store_true",
        help="shrink failing examples under the intentional policies too (slow: see --no-shrink)",
    )
    p.add_argument("--timeout", type=_seconds_arg(False), default=None, help="seconds allowed per run")
    p.add_argument("--strict", action="store_true", help="exit 1 when a non-intentional policy has failures (defects)")
    st = p.add_argument_group(
        "another storage",
        "Run the suite against array_api_promo over another storage (array_api_promo.from_env with "
        "ARRAY_API_PROMO_STORAGE) and render a report like --library's into "
        "conformance/reports/array_api_promo-<storage>[-<policy>][-api<version>]/ (README.md, "
        "results.json, xfails.txt, skips.txt); conformance/results, conformance/xfails and "
        "DEVIATIONS.md (the NumPy storage's) are not touched.",
    )
    st.add_argument(
        "--storage",
        choices=STORAGES,
        default="numpy",
        help="where the arrays' data live (default numpy). dask: under --policy (default array_api only) "
        f"and --api-version (default {DEFAULT_API_VERSION}), {library.REPORT_MAX_EXAMPLES} examples and a "
        f"{library.DASK_TEST_TIMEOUT:g} s per-test timeout unless given, each wrong-dtype failure "
        "replayed through the run's own policy, the suite run with DASK_SCHEDULER=synchronous unless "
        "the variable is set",
    )
    lib = p.add_argument_group(
        "any array library",
        "Run the suite against an importable namespace instead of array_api_promo and render its "
        "report into conformance/reports/<library>-<version>/ (README.md, results.json, xfails.txt, "
        "skips.txt).",
    )
    lib.add_argument(
        "--library",
        action="append",
        metavar="MODULE",
        help="namespace module for ARRAY_API_TESTS_MODULE, e.g. array_api_strict, "
        "array_api_compat.torch (repeatable). Without --api-version, the version "
        "the library declares",
    )
    lib.add_argument(
        "--explain-with",
        metavar="POLICY",
        help="replay each wrong-dtype failure through this array_api_promo policy "
        "(array_api, torch, module:attr) and group it by the rule that predicts it",
    )
    lib.add_argument(
        "--out",
        type=Path,
        metavar="PATH",
        help="report folder (default conformance/reports/<library>-<version>; one --library only; "
        "with --storage, one --policy only)",
    )
    lib.add_argument(
        "--per-test-timeout",
        type=_seconds_arg(True),
        default=None,
        metavar="S",
        help=f"seconds per test before pytest-timeout fails it as a timeout (default "
        f"{library.DEFAULT_TEST_TIMEOUT:g}, {library.DASK_TEST_TIMEOUT:g} with --storage dask; 0 = none)",
    )
    lib.add_argument(
        "--merge-with",
        type=Path,
        action="append",
        metavar="REPORT",
        help="add this run's draws (its --seed values) to an earlier report of the same library or "
        "storage (its folder or results.json; repeatable): same suite, versions and settings, other "
        "seeds; the earlier draws are not run again",
    )
    lib.add_argument(
        "--render-reports",
        action="store_true",
        help="re-render every conformance/reports/*/ from its results.json, and the "
        "side-by-side conformance/reports/README.md",
    )
    lib.add_argument(
        "--rerun-reproducers",
        action="store_true",
        help="with --render-reports: execute the reproducers again against the installed "
        "libraries (otherwise their recorded output is used)",
    )
    lib.add_argument(
        "--cross-check",
        type=Path,
        metavar="RESULTS_JSON",
        help="compare, test by test, with our results under a policy (e.g. "
        "conformance/results/torch-2025.12.json); with --render-reports, applied to the "
        "reports explained with that policy",
    )
    lib.add_argument("--reports-dir", type=Path, default=library.REPORTS_DIR, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.seeds = args.seed or [DEFAULT_SEED]
    args.seed = args.seeds[0]
    storage_mode = args.storage != "numpy"
    if len(args.seeds) > 1 and not (args.library or storage_mode):
        p.error("several --seed values are for --library and --storage runs (our own results use one seed)")
    if args.out and len(args.library or []) > 1:
        p.error("--out takes one --library")
    if args.merge_with and not (args.library or storage_mode):
        p.error("--merge-with adds draws to a --library or --storage report")
    if args.merge_with and (
        len(args.library or []) > 1 or len(args.policy or []) > 1 or len(args.api_version or []) > 1
    ):
        p.error("--merge-with takes one --library (or one --policy with --storage) at one --api-version")
    library_mode = bool(args.library or args.render_reports)
    if library_mode:
        for opt in ("policy", "module_map", "strict", "render_only", "from_raw"):
            if getattr(args, opt):
                p.error(f"--{opt.replace('_', '-')} does not apply to --library/--render-reports")
        if storage_mode:
            p.error("--storage does not apply to --library/--render-reports")
    if storage_mode:
        for opt in (
            "module_map",
            "strict",
            "render_only",
            "from_raw",
            "results_dir",
            "xfails_dir",
            "output",
            "explain_with",
            "cross_check",
        ):
            if getattr(args, opt):
                p.error(
                    f"--{opt.replace('_', '-')} does not apply to --storage {args.storage} (its report goes to "
                    "--out; its wrong-dtype failures are replayed through the run's own policy)"
                )
        if args.out and len(args.policy or []) > 1:
            p.error(f"--out takes one --policy with --storage {args.storage}")
    if args.max_examples is None:
        args.max_examples = library.REPORT_MAX_EXAMPLES if storage_mode else DEFAULT_MAX_EXAMPLES
    if args.per_test_timeout is None:
        args.per_test_timeout = library.DASK_TEST_TIMEOUT if storage_mode else library.DEFAULT_TEST_TIMEOUT
    args.policy = args.policy or (
        [] if library_mode else list(DEFAULT_STORAGE_POLICIES if storage_mode else DEFAULT_POLICIES)
    )
    args.api_version = args.api_version or ([] if library_mode else [DEFAULT_API_VERSION])
    mm = {}
    for item in args.module_map:
        name, sep, module = item.partition("=")
        if not sep or not name or not module:
            p.error(f"--module-map expects POLICY=MODULE, got {item!r}")
        mm[name] = module
    args.module_map = mm
    return args


def collect_spec_text(results: dict, spec_dir: Path) -> dict:
    out = {}
    version = results["api_version"]
    for e in results["tests"]:
        if e["outcome"] in normalize.FAILING and e["spec_function"] not in out:
            text = spec.summary_and_returns(spec_dir, version, e["spec_function"])
            if text:
                out[e["spec_function"]] = text
    for heading in PROMOTION_SECTIONS:
        text = spec.rst_section(spec_dir, version, "type_promotion.rst", heading)
        if text:
            out[f"type_promotion:{heading}"] = text
    return out


def finish_results(results: dict, *, spec_dir: Path | None, target: runner.PolicyTarget) -> dict:
    """Add what produced them (package version, source hash), spec quotes, dtype
    attributions and the policy env to normalised results."""
    results["package"] = provenance.package_provenance()
    if target.env:
        results["namespace_env"] = dict(sorted(target.env.items()))
    if spec_dir is not None:
        results["spec_text"] = collect_spec_text(results, spec_dir)
    attribute_all(results, engine_policy(target))
    return results


def engine_policy(target: runner.PolicyTarget) -> Any:
    """The policy (a name, or the object a ``module:attr`` names) that explains the target's failures;
    None when it does not load."""
    policy: Any = target.policy_env or target.label
    if target.policy_env and ":" in target.policy_env:
        try:
            policy = runner.load_policy_object(target.policy_env)
            if isinstance(policy, type):
                policy = policy()
        except (ImportError, AttributeError, TypeError):  # attribution is optional: no policy, no attribution
            policy = None
    return policy


def attribute_all(results: dict, policy: Any) -> None:
    """Each failure's attribution to a rule of ``policy`` (replacing any earlier one)."""
    for e in results["tests"]:
        e.pop("attribution", None)
        a = attribute(policy, e) if policy is not None else None
        if a:
            e["attribution"] = a


def _console():
    from rich.console import Console

    return Console(soft_wrap=True)  # stdout: a pipe or file gets the progress lines and the summary too


def _print_summary(console, results: list) -> None:
    from rich.table import Table

    t = Table(title="array-api-tests results")
    for col in ("policy", "API version", "passed", "failed", "errors", "skipped", "total"):
        t.add_column(col, justify="right" if col not in ("policy",) else "left")
    for r in render._sorted_results(results):
        s = r["summary"]
        t.add_row(
            r["policy"],
            r["api_version"],
            str(s["passed"]),
            str(s["failed"]),
            str(s.get("error", 0)),
            str(s["skipped"]),
            str(s["total"]),
        )
    console.print(t)


class UsageError(Exception):
    """A bad name or a missing piece, found before any run: one line, exit code 2."""


#: What running the suite needs (module, distribution), from the ``conformance`` extra.
RUN_REQUIREMENTS = (
    ("pytest", "pytest"),
    ("hypothesis", "hypothesis"),
    ("pytest_jsonreport", "pytest-json-report"),
    ("rich", "rich"),
)


def check_requirements(workers: int) -> None:
    import importlib.util

    needed = RUN_REQUIREMENTS + ((("xdist", "pytest-xdist"),) if workers > 1 else ())
    missing = [dist for module, dist in needed if importlib.util.find_spec(module) is None]
    if missing:
        raise UsageError(
            f"missing {', '.join(missing)}: install the harness's extra with pip install 'array_api_promo[conformance]'"
        )


def check_policy(name: str, module_map: dict) -> None:
    """A registered policy name, a ``--module-map`` name, or an importable ``module:attribute``
    (or module defining ``POLICY``) naming a Policy."""
    from array_api_promo import promotion

    if name in module_map or name in promotion.available_policies():
        return
    if ":" not in name and "." not in name:
        raise UsageError(
            f"unknown policy {name!r}: registered policies are {', '.join(promotion.available_policies())}; "
            "or give module:attribute"
        )
    spec = name if ":" in name else f"{name}:POLICY"
    try:
        obj = runner.load_policy_object(spec)
    except (ImportError, AttributeError) as exc:
        raise UsageError(f"policy {name!r}: cannot load {spec}: {exc}") from None
    if not (isinstance(obj, promotion.Policy) or (isinstance(obj, type) and issubclass(obj, promotion.Policy))):
        raise UsageError(f"policy {name!r}: {spec} is a {type(obj).__name__}, not a promotion Policy")


def check_suite_imports(name: str, version: str, module_map: dict) -> None:
    """Refuse, before any run, a policy and version whose namespace the pinned suite cannot import
    (no float64, or no complex dtype: ``suite.import_blockers``), rather than fail at collection."""
    if name in module_map:  # a module of the user's: the suite itself will say
        return
    policy = engine_policy(runner.resolve_policy(name, module_map, version))  # a name, or the object named
    missing = suite_mod.namespace_blockers(policy, version) if policy is not None else []
    if not missing:
        return
    if version == "2021.12":
        why, instead = "the 2021.12 standard has no complex dtypes", "Run it at 2022.12 or later."
    else:
        why = f"policy {name!r} has no {' and no '.join(missing)}"
        instead = (
            "Its promotion rules are compared with the standard in DEVIATIONS.md, Part 3, and by "
            f"`array-api-promo compare array_api {name}`."
        )
    raise UsageError(
        f"policy {name!r} at {version} cannot be run against the pinned array-api-tests "
        f"({SUITE_COMMIT[:7]}): on import its dtype_helpers.py takes float32, float64 and a complex dtype "
        f"from the namespace and calls asarray(complex()), and {why}. {instead}"
    )


def _creatable(path: Path, flag: str, *, folder: bool) -> None:
    """``path`` can be written by this run: a folder (or file) that exists as such, or whose nearest
    existing parent is a writable folder. Checked before anything runs."""
    what = "folder" if folder else "file"
    if path.exists():
        if folder and not path.is_dir():
            raise UsageError(f"{flag} {path}: a file is there; give a folder")
        if not folder and path.is_dir():
            raise UsageError(f"{flag} {path}: a folder is there; give a file path")
        if not os.access(path if folder else path.parent, os.W_OK):
            raise UsageError(f"{flag} {path}: not writable")
        return
    parent = path.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise UsageError(f"{flag} {path}: cannot create the {what}, {parent} is a file")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"{flag} {path}: cannot create the {what}, {parent} is not writable")


def check_paths(args) -> None:
    """Every path option names something usable, before anything runs or is written: the folders and
    files the run writes can be created, the files it reads are there."""
    for flag, path, folder in (
        ("--results-dir", args.results_dir, True),
        ("--xfails-dir", args.xfails_dir, True),
        ("--output", args.output, False),
        ("--work-dir", args.work_dir, True),
        ("--out", args.out, True),
    ):
        if path is not None:
            _creatable(Path(path), flag, folder=folder)
    if args.cross_check is not None and not Path(args.cross_check).is_file():
        raise UsageError(
            f"--cross-check {args.cross_check}: no such file (give a results JSON, e.g. "
            "conformance/results/torch-2025.12.json)"
        )
    for path in args.merge_with or ():
        if not Path(path).exists():
            raise UsageError(f"--merge-with {path}: no such report folder or results.json")


def check_api_versions(versions) -> None:
    for version in versions:
        if version not in API_VERSIONS:
            raise UsageError(f"unknown API version {version!r}: known are {', '.join(API_VERSIONS)}")


def default_settings(args, metas=()) -> bool:
    """The settings the committed results are made with: built-in policies, default examples,
    seed and shrinking, no extra pytest arguments. ``metas``: the settings of raw runs."""
    from array_api_promo import promotion

    runs = list(metas) or [
        {"max_examples": args.max_examples, "seed": args.seed, "shrink": None, "pytest_args": args.pytest_arg}
    ]
    return (
        args.storage == "numpy"
        and all(p in promotion.available_policies() for p in args.policy)
        and not args.module_map
        and not args.no_shrink
        and not args.shrink_all
        and args.timeout is None
        and all(
            m["max_examples"] == DEFAULT_MAX_EXAMPLES and m["seed"] == DEFAULT_SEED and not m["pytest_args"]
            for m in runs
        )
    )


def destinations(args, *, committed: bool) -> tuple[Path, Path, Path]:
    """(results dir, xfails dir, report path). The committed files only for ``committed`` runs
    from a checkout; explicit options win; anything else goes to a new scratch folder."""
    if args.results_dir is None and committed and IN_CHECKOUT:
        base = None
        results, xfails, report = RESULTS_DIR, XFAILS_DIR, DEVIATIONS_MD
    else:
        base = args.results_dir or scratch_dir()
        results, xfails, report = base, base / "xfails", base / "DEVIATIONS.md"
    return results, args.xfails_dir or xfails, args.output or report


def scratch_dir() -> Path:
    """A new folder name for one run's results (time and process: two harnesses never share one)."""
    root = (CACHE_DIR if IN_CHECKOUT else Path.cwd() / "conformance-runs") / "scratch"
    return root / f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"


class IncompleteRun(Exception):
    """A run of the suite that did not give a whole result: exit code 3, one line; nothing
    committed is written (the run's own results go to a scratch folder, marked incomplete)."""


#: Exit code of a run that could not do its whole job (a usage error is 2, --strict's defects 1).
EXIT_INCOMPLETE = 3


def main(argv=None, *, cloner=suite_mod.git_clone, prog: str | None = None) -> int:
    """The command line; ``prog`` is how the user ran it (each ``__main__`` passes its own)."""
    prog = prog or suite_mod.PROG
    args = parse_args(argv, prog)
    args.prog = prog
    try:
        return _main(args, cloner)
    except (UsageError, suite_mod.SuiteNotFound) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except IncompleteRun as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return EXIT_INCOMPLETE


def check_suite_requirements(info) -> None:
    """The suite's own requirements (its requirements.txt, and what its modules import) import in the
    environment the runs get, in the versions it asks for; else one line naming them and the pip command."""
    missing = suite_mod.missing_requirements(info.path, runner.with_repo_on_path(os.environ))
    if missing:
        pip = " ".join(f"'{r.pip}'" if set(r.pip) & set("<>=!~ ;") else r.pip for r, _ in missing)
        whys = "; ".join(f"{r.module}: {why}" for r, why in missing)
        raise UsageError(f"the suite at {info.path} needs what does not import here ({whys}): pip install {pip}")


def _main(args, cloner) -> int:
    if args.no_clone:
        cloner = None
    check_paths(args)
    if not args.render_only and not args.render_reports:
        check_requirements(args.workers)
    check_api_versions(args.api_version)
    if args.library or args.render_reports:
        return library_main(args, _console(), cloner)
    if args.storage != "numpy":
        return storage_main(args, _console(), cloner)
    for policy in args.policy:
        check_policy(policy, args.module_map)
        if not (args.render_only or args.from_raw):
            for version in args.api_version:
                check_suite_imports(policy, version, args.module_map)
    targets = [
        (runner.resolve_policy(policy, args.module_map, version), version)
        for policy in args.policy
        for version in args.api_version
    ]
    raws = {}
    if args.from_raw:
        for target, version in targets:
            files = runner.latest_run(args.work_dir, f"{target.label}-{version}")
            if files is None:
                raise UsageError(f"--from-raw: no finished run of {target.label} @ {version} in {args.work_dir}")
            raws[(target.label, version)] = (files, json.loads(files.meta.read_text()))
    info = None
    if args.render_only:
        if args.results_dir is None and not IN_CHECKOUT:
            raise UsageError("--render-only outside a checkout needs --results-dir (the results to render)")
        results_dir, xfails_dir, output = destinations(args, committed=True)
        if not normalize.load_all(results_dir):
            raise UsageError(f"no results to render in {results_dir}")
    else:
        committed = default_settings(args, [meta for _, meta in raws.values()])
        results_dir, xfails_dir, output = destinations(args, committed=committed)
        if not args.from_raw:
            info = suite_mod.locate(args.suite, cloner=cloner, prog=args.prog)
            check_suite_requirements(info)
    console = _console()
    incomplete = []
    if not args.render_only:
        if info is not None:
            for w in info.warnings:
                console.print(f"[yellow]warning:[/] {w}", highlight=False)
        if args.from_raw:
            done = [_from_raw(*raws[(target.label, version)], target, version) for target, version in targets]
        else:
            done = run_all(args, console, info, targets)
        incomplete = [(results, log) for results, _, log in done if results.get("incomplete")]
        if incomplete and {results_dir, xfails_dir, output} & {RESULTS_DIR, XFAILS_DIR, DEVIATIONS_MD}:
            # nothing committed from a job that did not finish: all its results go to a scratch folder
            results_dir, xfails_dir, output = destinations(args, committed=False)
        for results, elapsed, _ in done:
            version = results["api_version"]
            stem = f"{results['policy']}-{version}"
            normalize.dump(results, results_dir / f"{stem}.json")
            write_xfails(results, xfails_dir / f"{stem}.txt")
            s = results["summary"]
            console.print(
                f"{results['policy']} @ {version}: {s['passed']} passed, {s['failed']} failed, "
                f"{s.get('error', 0)} errors, {s['skipped']} skipped in "
                f"{elapsed:.0f} s -> {results_dir / (stem + '.json')}"
                + ("  INCOMPLETE: " + "; ".join(results["incomplete"]) if results.get("incomplete") else ""),
                highlight=False,
            )

    all_results = normalize.load_all(results_dir)
    if args.render_only:
        for r in all_results:
            write_xfails(r, xfails_dir / f"{r['policy']}-{r['api_version']}.txt")
    start = time.monotonic()
    output.parent.mkdir(parents=True, exist_ok=True)
    render.write(all_results, output)
    console.print(f"wrote {output} ({time.monotonic() - start:.1f} s)", highlight=False)
    if all_results:
        _print_summary(console, all_results)
    if results_dir != RESULTS_DIR:
        console.print(
            f"results, xfails and report of this run are in {results_dir} (the committed files are written "
            "only by complete runs with the default settings)",
            highlight=False,
        )
    if incomplete:
        first, log = incomplete[0]
        raise IncompleteRun(
            f"{len(incomplete)} of {len(targets)} run(s) incomplete, {first['policy']} @ {first['api_version']}: "
            f"{'; '.join(first['incomplete'])}; nothing committed was written, this job's results are in "
            f"{results_dir} (pytest's log: {log})"
        )
    if args.strict:
        bad = [
            r
            for r in all_results
            if r["policy"] not in INTENTIONAL_POLICIES and any(e["outcome"] in normalize.FAILING for e in r["tests"])
        ]
        if bad:
            return 1
    return 0


def run_all(args, console, info, targets: list) -> list:
    """Run the suite for every (target, version), side by side within ``--workers``:
    [(results, seconds, log file)]."""
    specs = []
    for target, version in targets:
        shrink = not args.no_shrink and (args.shrink_all or target.label not in INTENTIONAL_POLICIES)
        specs.append(runner.RunSpec(target, version, args.max_examples, args.seed, tuple(args.pytest_arg), shrink))
    outcomes = runner.run_many(
        info,
        specs,
        budget=args.workers,
        work_dir=args.work_dir,
        progress=not args.no_progress,
        console=console,
        timeout=args.timeout,
    )
    done = []
    for run, outcome in zip(specs, outcomes):
        meta = {
            "max_examples": run.max_examples,
            "seed": run.seed,
            "shrink": run.shrink,
            "pytest_args": list(run.extra_args),
            "suite": str(info.path),
            "suite_commit": info.suite_commit,
            "spec_commit": info.spec_commit,
            "returncode": outcome.returncode,
            "collected": outcome.total,
            "workers": outcome.workers,
        }
        files = runner.RunFiles.at(outcome.log_path.parent, outcome.log_path.name[: -len(".log")])
        files.meta.write_text(json.dumps(meta))
        done.append((_results_of(files, meta, run.target, run.version), outcome.elapsed, files.log))
    return done


def _from_raw(files, meta: dict, target: runner.PolicyTarget, version: str) -> tuple:
    """``--from-raw``: the last run's raw report normalised again, with that run's settings."""
    return _results_of(files, meta, target, version), 0.0, files.log


def _results_of(files, meta: dict, target: runner.PolicyTarget, version: str) -> dict:
    """A run's raw report normalised and finished; ``incomplete`` (the reasons) when the run did not
    give a whole result."""
    log = files.log.read_text(errors="replace") if files.log.exists() else ""
    try:
        raw = json.loads(files.report.read_text()) if files.report.exists() else {}
    except ValueError:  # cut short while writing
        raw = {}
    suite_path = Path(meta["suite"])
    results = normalize.normalise_report(
        raw,
        policy=target.label,
        module=target.module,
        api_version=version,
        suite_commit=meta["suite_commit"],
        spec_commit=meta["spec_commit"],
        max_examples=meta["max_examples"],
        seed=meta["seed"],
        roots=[suite_path],
    )
    results["hypothesis"]["shrink"] = meta["shrink"]
    if meta["pytest_args"]:
        results["pytest_args"] = list(meta["pytest_args"])
    problems = runner.run_problems(raw, log, meta.get("returncode", 0), meta.get("collected", 0))
    if problems:
        results["incomplete"] = problems
    finish_results(results, spec_dir=suite_path / "array-api", target=target)
    return results


def library_main(args, console, cloner) -> int:
    """``--library``/``--render-reports``: reports for any array library."""
    from . import library_report

    if args.render_reports:
        ours = normalize.load(args.cross_check) if args.cross_check else None
        checked = skipped = 0
        for d in library.report_dirs(args.reports_dir):
            if ours is not None:
                results = normalize.load(d / library.RESULTS_NAME)
                # a real library's report, not one of array_api_promo itself over another storage
                if library_report.explain_policy(results) == ours["policy"] and not library_report.storage(results):
                    made_with = (results.get("library") or {}).get("version")
                    installed = library.probe(results["module"]).get("version")  # None: does not import
                    if installed and installed != made_with:  # replays on another release are not this report's
                        console.print(
                            f"[yellow]not cross-checked:[/] {d.name} was made with {made_with}, "
                            f"{results['module']} here is {installed}; left as it was",
                            highlight=False,
                        )
                        library.render_dir(d)
                        skipped += 1
                        continue
                    checked += 1
                    try:
                        results["cross_check"] = crosscheck.snapshot(ours, results)
                    except crosscheck.ReplayUnavailable as e:
                        console.print(f"[red]error:[/] {e}; {d / library.RESULTS_NAME} left as it was", highlight=False)
                        return 2
                    normalize.dump(results, d / library.RESULTS_NAME)
            if args.rerun_reproducers:
                results = normalize.load(d / library.RESULTS_NAME)
                library.write_report(results, d)
            library.render_dir(d)
            console.print(f"re-rendered {d / library.REPORT_NAME}", highlight=False)
        index = library.write_index(args.reports_dir)
        console.print(f"wrote {index}", highlight=False)
        if skipped and not checked:
            console.print(
                "[red]error:[/] --cross-check: no report of its policy here is of an installed release of its library"
            )
            return 2
        return 0
    probes = {}
    for module in args.library:
        probes[module] = lib = library.probe(module)
        top = module.split(".")[0]
        if str(lib.get("error", "")).startswith(f"ModuleNotFoundError: No module named '{top}'"):
            raise UsageError(f"--library {module}: no module named {top!r} is installed")
    info, timeout_args = _report_setup(args, console, cloner)
    incomplete: list = []
    for module in args.library:
        lib = probes[module]
        versions = args.api_version or [
            lib.get("api_version") if lib.get("api_version") in API_VERSIONS else DEFAULT_API_VERSION
        ]
        for version in versions:
            label = library.report_label(lib)
            out_dir = args.out or args.reports_dir / label
            if len(versions) > 1:
                out_dir = out_dir.with_name(f"{out_dir.name}-api{version}")
            target = runner.PolicyTarget(label, module)
            results = _report_results(
                args, console, info, target, lib, version, timeout_args, explain_with=args.explain_with
            )
            if results.get("incomplete"):
                out_dir = _incomplete_report(results, out_dir, f"{module} @ {version}", incomplete)
            elif args.cross_check:
                try:
                    results["cross_check"] = crosscheck.snapshot(normalize.load(args.cross_check), results)
                except crosscheck.ReplayUnavailable as e:
                    console.print(f"[red]error:[/] {e}; no report written", highlight=False)
                    return 2
            library.write_report(results, out_dir)
            s = results["summary"]
            flaky = sum(1 for e in results["tests"] if e.get("draws"))
            console.print(
                f"{module} @ {version}: {s['passed']} passed, {s['failed']} failed, "
                f"{s.get('error', 0)} errors, {s['skipped']} skipped"
                + (
                    f" over seeds {', '.join(library_report.seed_ranges(seeds))} ({flaky} failing on some draws only)"
                    if len(seeds := normalize.draw_seeds(results)) > 1
                    else ""
                )
                + f" -> {out_dir / library.REPORT_NAME}",
                highlight=False,
            )
            if out_dir.parent.resolve() == Path(args.reports_dir).resolve():
                library.write_index(args.reports_dir)
    _raise_incomplete(incomplete)
    return 0


def _incomplete_report(results: dict, out_dir: Path, title: str, incomplete: list) -> Path:
    """Where the report of a run that did not finish goes: a new scratch folder, never the committed
    reports (nor ``--out``); the run is noted in ``incomplete`` for the closing error."""
    scratch = scratch_dir() / out_dir.name
    incomplete.append((title, results["incomplete"], scratch))
    return scratch


def _raise_incomplete(incomplete: list) -> None:
    if incomplete:
        title, problems, where = incomplete[0]
        raise IncompleteRun(
            f"{len(incomplete)} report run(s) incomplete, {title}: {'; '.join(problems)}; no report was written "
            f"in its place, this run's report is in {where}"
        )


def _report_setup(args, console, cloner) -> tuple:
    """The suite and the per-test timeout's pytest arguments of a report run."""
    info = suite_mod.locate(args.suite, cloner=cloner, prog=args.prog)
    check_suite_requirements(info)
    for w in info.warnings:
        console.print(f"[yellow]warning:[/] {w}", highlight=False)
    timeout_args = library.timeout_args(args.per_test_timeout)
    if args.per_test_timeout and not timeout_args:
        console.print(
            "[yellow]warning:[/] pytest-timeout is not installed: no per-test timeout (pip install pytest-timeout)",
            highlight=False,
        )
    return info, timeout_args


def _report_results(
    args, console, info, target, lib: dict, version: str, timeout_args: list, *, explain_with, shrink=None
) -> dict:
    """The suite run once per seed against ``target``, merged and finished as a report's results."""
    # --tb=native: pytest's own traceback formatter crashes (INTERNALERROR) on some
    # frames of compiled libraries (tb_lineno None), ending the whole run.
    extra = ["--continue-on-collection-errors", "--tb=native", *timeout_args, *args.pytest_arg]
    earlier = [_earlier_draws(args, path, lib, version, shrink) for path in args.merge_with or ()]
    taken = [s for e in earlier for s in normalize.draw_seeds(e)]
    if len(set(taken)) != len(taken):
        raise UsageError(f"--merge-with: the reports share seeds ({', '.join(map(str, sorted(taken)))})")
    # A library that does not import fails every module's collection: that is its report's finding.
    imports = not lib.get("error")
    draws = [
        _run_library_draw(args, info, target, version, seed, extra, console, shrink=shrink, strict_collection=imports)
        for seed in args.seeds
    ]
    problems = [f"seed {seed}: {why}" for seed, d in zip(args.seeds, draws) for why in d.pop("incomplete", ())]
    if problems:  # not merged with earlier draws: this report goes to a scratch folder, marked
        results = normalize.merge_draws(draws)
        results["incomplete"] = problems
        library.finish(
            results,
            lib,
            explain_with=explain_with,
            timeout=args.per_test_timeout if timeout_args else None,
            collection_log=results.pop("_log_tail", None),
        )
        return results
    for path, e in zip(args.merge_with or (), earlier):
        _check_mergeable(path, e, draws[0], lib)
    draws = sorted(earlier + draws, key=lambda r: min(normalize.draw_seeds(r)))  # as if run in seed order
    results = normalize.merge_draws(draws)
    library.finish(
        results,
        lib,
        explain_with=explain_with,
        timeout=args.per_test_timeout if timeout_args else None,
        collection_log=results.pop("_log_tail", None),
    )
    for r in draws:
        r.pop("_log_tail", None)
    return results


def _earlier_draws(args, merge_with, lib: dict, version: str, shrink) -> dict:
    """``--merge-with``'s results, checked before anything runs against what can be known then
    (library version, API version, examples, shrinking, timeout, seeds), stripped of what a report
    adds to its draws (attributions, reproducer outputs, cross-check: made again for the merge)."""
    path = Path(merge_with)
    path = path / library.RESULTS_NAME if path.is_dir() else path
    if not path.is_file():
        raise UsageError(f"--merge-with {merge_with}: no {library.RESULTS_NAME} there")
    try:
        earlier = normalize.load(path)
        h = earlier["hypothesis"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"--merge-with {path}: not a report's results ({type(exc).__name__}: {exc})") from None
    timeout = args.per_test_timeout if library.timeout_args(args.per_test_timeout) else None
    expected = {
        "namespace module": (earlier.get("module"), lib.get("module")),
        "library version": ((earlier.get("library") or {}).get("version"), lib.get("version")),
        "storage": ((earlier.get("library") or {}).get("storage"), lib.get("storage")),
        "API version": (earlier.get("api_version"), version),
        "max_examples": (h.get("max_examples"), args.max_examples),
        "shrinking": (h.get("shrink", True), (not args.no_shrink) if shrink is None else shrink),
        "per-test timeout": (earlier.get("per_test_timeout"), timeout),
        "pytest arguments": (earlier.get("pytest_args") or [], list(args.pytest_arg)),
    }
    if lib.get("storage"):  # array_api_promo's own draws: of this very source
        expected["source hash"] = ((earlier.get("package") or {}).get("source_sha256"), provenance.source_hash())
    for what, (was, now) in expected.items():
        if was != now:
            raise UsageError(f"--merge-with {path}: its {what} is {was!r}, this run's {now!r}; draws must match")
    again = sorted(set(normalize.draw_seeds(earlier)) & set(args.seeds))
    if again:
        raise UsageError(
            f"--merge-with {path}: seed(s) {', '.join(map(str, again))} already drawn there "
            f"(seeds {', '.join(map(str, normalize.draw_seeds(earlier)))}); give other seeds"
        )
    for key in ("explained_with", "reproducer_outputs", "cross_check"):
        earlier.pop(key, None)
    earlier["tests"] = [{k: v for k, v in e.items() if k != "attribution"} for e in earlier["tests"]]
    return earlier


def _check_mergeable(path, earlier: dict, draw: dict, lib: dict) -> None:
    """What only a run tells: the same module, suite, spec, NumPy and Python as the earlier draws."""
    for key in ("module", "suite_commit", "spec_commit", "numpy", "python", "tools"):
        if earlier.get(key) != draw.get(key):
            raise UsageError(
                f"--merge-with {path}: its {key} is {earlier.get(key)!r}, this run's {draw.get(key)!r}; "
                "nothing was merged (the new draws' raw reports are in the work folder)"
            )


def storage_out_dir(args, target: runner.PolicyTarget, version: str) -> Path:
    """Where ``--storage``'s report for one (policy, version) goes: ``--out``, else its own folder
    under conformance/reports/ (``array_api_promo-dask``; ``-api<version>`` added for a version other
    than the default, or for each of several versions with ``--out``)."""
    if args.out:
        return args.out.with_name(f"{args.out.name}-api{version}") if len(args.api_version) > 1 else args.out
    out = Path(args.reports_dir) / target.label
    return out if version == DEFAULT_API_VERSION else out.with_name(f"{out.name}-api{version}")


def storage_main(args, console, cloner) -> int:
    """``--storage dask``: array_api_promo itself over another storage, reported as a library is
    (its own folder under conformance/reports/; the committed results are the NumPy storage's)."""
    import importlib.util

    from . import library_report

    if importlib.util.find_spec(args.storage) is None:
        raise UsageError(f"--storage {args.storage}: no module named {args.storage!r} is installed")
    for policy in args.policy:
        check_policy(policy, {})
        for version in args.api_version:
            check_suite_imports(policy, version, {})
    info, timeout_args = _report_setup(args, console, cloner)
    incomplete: list = []
    for policy in args.policy:
        for version in args.api_version:
            target = runner.resolve_storage(policy, args.storage, version)
            lib = library.probe_storage(target, policy, args.storage)
            out_dir = storage_out_dir(args, target, version)
            shrink = not args.no_shrink and (args.shrink_all or policy not in INTENTIONAL_POLICIES)
            results = _report_results(
                args, console, info, target, lib, version, timeout_args, explain_with=policy, shrink=shrink
            )
            attribute_all(results, engine_policy(target))  # a module:attr policy by its object
            results["namespace_env"] = dict(sorted(target.env.items()))
            results["package"] = provenance.package_provenance()
            if results.get("incomplete"):
                out_dir = _incomplete_report(results, out_dir, f"{policy} @ {version} on {args.storage}", incomplete)
            library.write_report(results, out_dir)
            s = results["summary"]
            console.print(
                f"{policy} @ {version} on {args.storage}: {s['passed']} passed, {s['failed']} failed, "
                f"{s.get('error', 0)} errors, {s['skipped']} skipped"
                + (
                    f" over seeds {', '.join(library_report.seed_ranges(seeds))}"
                    if len(seeds := normalize.draw_seeds(results)) > 1
                    else ""
                )
                + f" -> {out_dir / library.REPORT_NAME}",
                highlight=False,
            )
            if out_dir.parent.resolve() == Path(args.reports_dir).resolve():
                library.write_index(args.reports_dir)
    _raise_incomplete(incomplete)
    return 0


def _run_library_draw(
    args,
    info,
    target,
    version: str,
    seed: int,
    extra: list,
    console,
    *,
    shrink: bool | None = None,
    strict_collection: bool = True,
) -> dict:
    """One run of the suite against a library under one Hypothesis seed, normalised
    (shrinking failures unless ``--no-shrink``, or as ``shrink`` says); ``incomplete``: why the
    run is not a whole result (collection errors count unless not ``strict_collection``)."""
    shrink = not args.no_shrink if shrink is None else shrink
    outcome = runner.run_suite(
        info,
        target,
        version,
        max_examples=args.max_examples,
        seed=seed,
        workers=args.workers,
        work_dir=args.work_dir,
        progress=not args.no_progress,
        console=console,
        extra_args=extra,
        timeout=args.timeout,
        shrink=shrink,
    )
    raw = json.loads(outcome.report_path.read_text()) if outcome.report_path.exists() else {}
    log = outcome.log_path.read_text(errors="replace")
    tail = normalize.trim(normalize.scrub("\n".join(log.splitlines()[-30:]), [info.path]), 3000)
    log_tail = None if raw.get("tests") else tail
    results = normalize.normalise_report(
        raw,
        policy=target.label,
        module=target.module,
        api_version=version,
        suite_commit=info.suite_commit,
        spec_commit=info.spec_commit,
        max_examples=args.max_examples,
        seed=seed,
        roots=[info.path],
    )
    results["hypothesis"]["shrink"] = shrink
    if args.pytest_arg:
        results["pytest_args"] = list(args.pytest_arg)
    results["spec_text"] = collect_spec_text(results, info.spec_dir)
    if raw.get("tests") and ("INTERNALERROR" in log or outcome.total > len(raw["tests"])):
        results["run_incomplete"] = {
            "collected": outcome.total,
            "reported": len(raw["tests"]),
            "log_tail": tail,
        }
    results["_log_tail"] = log_tail
    problems = runner.run_problems(
        raw, log, outcome.returncode, outcome.total, collection_errors_allowed=not strict_collection
    )
    if problems:
        results["incomplete"] = problems
    return results


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
