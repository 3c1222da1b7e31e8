"""``library MODULE ...``: the upstream suite against any importable array namespace, once per
seed, rendered as that library's report under ``conformance/reports/<library>-<version>/``.

Its trip: the plan (each library probed in a fresh interpreter, the policy to explain with, every
path and ``--merge-with`` report checked, and the folder: a run weaker than the committed report
there goes to a scratch folder unless ``--replace``), the draws side by side (``runner``), their
results merged and explained (``results``, ``library``), then every report written at once
(``publish``).
"""

from __future__ import annotations

from pathlib import Path

from .. import API_VERSIONS, DEFAULT_API_VERSION, crosscheck, library, normalize, plan, publish, results
from . import report_job
from .options import add_suite_options

HELP = "the suite against any array library -> its report"
DESCRIPTION = (
    "Run the suite against an importable namespace instead of array_api_promo and render its report into "
    "conformance/reports/<library>-<version>/ (README.md, results.json, xfails.txt, skips.txt)."
)


def add_arguments(p) -> None:
    p.add_argument("modules", nargs="*", metavar="MODULE", help="namespace module(s) for ARRAY_API_TESTS_MODULE")
    p.add_argument(
        "--library",
        action="append",
        default=[],
        metavar="MODULE",
        help="the same as MODULE (the spelling of before the subcommands; repeatable)",
    )
    add_suite_options(p, max_examples_default=str(plan.DEFAULT_MAX_EXAMPLES))
    report_job.add_report_options(p, timeout_default=plan.DEFAULT_TEST_TIMEOUT)
    p.add_argument(
        "--explain-with",
        metavar="POLICY",
        help="replay each wrong-dtype failure through this array_api_promo policy "
        "(array_api, torch, module:attr) and group it by the rule that predicts it",
    )
    p.add_argument(
        "--cross-check",
        type=Path,
        metavar="RESULTS_JSON",
        help="compare, test by test, with our results under a policy (e.g. conformance/results/torch-2025.12.json)",
    )


def settle(args) -> None:
    args.modules = list(args.modules) + list(args.library)
    args.seeds = args.seed or [plan.DEFAULT_SEED]
    args.max_examples = args.max_examples or plan.DEFAULT_MAX_EXAMPLES
    if args.per_test_timeout is None:
        args.per_test_timeout = plan.DEFAULT_TEST_TIMEOUT
    args.api_version = args.api_version or []
    if args.out and len(args.modules) > 1:
        raise plan.UsageError("--out takes one library")
    if args.merge_with and (len(args.modules) > 1 or len(args.api_version) > 1):
        raise plan.UsageError("--merge-with takes one library at one --api-version")


def main(args, console, cloner) -> int:
    # the plan (the defaults were settled as the command line was parsed)
    if not args.modules:
        raise plan.UsageError("library: give the namespace module(s) to test, e.g. library array_api_strict")
    report_job.check_report_paths(args, results_count=len(args.modules) * max(1, len(args.api_version)))
    plan.check_file(args.cross_check, "--cross-check", "a results JSON, e.g. conformance/results/torch-2025.12.json")
    plan.check_requirements(args.workers)
    plan.check_api_versions(args.api_version)
    if args.explain_with:
        plan.check_policy(args.explain_with, flag="explain-with")
    probes = {}
    for module in args.modules:
        probes[module] = lib = library.probe(module)
        top = module.split(".")[0]
        if str(lib.get("error", "")).startswith(f"ModuleNotFoundError: No module named '{top}'"):
            raise plan.UsageError(f"--library {module}: no module named {top!r} is installed")
    info = plan.locate_suite(args, cloner, console)
    timeout_args, timeout = report_job.report_timeouts(args, console)
    jobs: list = []
    notes: list = []
    for module in args.modules:
        lib = probes[module]
        versions = args.api_version or [
            lib.get("api_version") if lib.get("api_version") in API_VERSIONS else DEFAULT_API_VERSION
        ]
        for version in versions:
            label = library.report_label(lib)
            out_dir = args.out or args.reports_dir / label
            if len(versions) > 1:
                out_dir = out_dir.with_name(f"{out_dir.name}-api{version}")
            shrink = not args.no_shrink
            earlier = report_job.earlier_draws(args, lib, version, shrink=shrink, timeout=timeout)
            taken = [s for e in earlier for s in normalize.draw_seeds(e)]
            if len(set(taken)) != len(taken):
                raise plan.UsageError(f"--merge-with: the reports share seeds ({', '.join(map(str, sorted(taken)))})")
            out_dir = report_job.destination(args, out_dir, f"{module} @ {version}", taken, notes)
            jobs.append((module, version, lib, out_dir, earlier, shrink))
    for note in notes:  # said before the runs, and again at the end
        console.print(note, highlight=False)

    made = []
    incomplete = []
    for module, version, lib, out_dir, earlier, shrink in jobs:
        # the runs
        target = plan.PolicyTarget(library.report_label(lib), module)
        draws = report_job.run_draws(
            args,
            console,
            info,
            target,
            version,
            timeout_args,
            shrink=shrink,
            imports=not lib.get("error"),
            absent_dtypes=library.absent_dtypes(lib),
        )
        # their results
        r = results.report_results(draws, earlier, lib, explain_with=args.explain_with, timeout=timeout)
        if r.get("incomplete"):
            out_dir = plan.scratch_dir() / out_dir.name
            incomplete.append((f"{module} @ {version}", r["incomplete"], out_dir))
        elif args.cross_check:
            try:
                r["cross_check"] = crosscheck.snapshot(normalize.load(args.cross_check), r)
            except crosscheck.ReplayUnavailable as e:
                raise plan.UsageError(f"{e}; no report written") from None
        made.append(publish.Made(f"{module} @ {version}", r, folder=out_dir))

    # written, and said
    report_job.publish_reports(args, console, made, incomplete, notes, made_by=f"{args.prog} library")
    return 0
