"""``storage dask``: the upstream suite against ``array_api_promo`` itself with its arrays in another
storage (``from_env`` with ``ARRAY_API_PROMO_STORAGE``), reported as a library is, in its own folder
under ``conformance/reports/`` (``array_api_promo-dask[-<policy>][-api<version>]``); the committed
results, xfails and DEVIATIONS.md are the NumPy storage's and are not touched.

Its trip is the library subcommand's: the plan, the draws, their results (each wrong-dtype failure
replayed through the run's own policy, what produced them recorded), then every report at once.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from array_api_promo._namespace import STORAGES

from .. import DEFAULT_API_VERSION, library, normalize, plan, provenance, publish, results
from . import report_job
from .options import add_suite_options

HELP = "the suite over another storage (dask) -> its report"
DESCRIPTION = (
    "Run the suite against array_api_promo over another storage (array_api_promo.from_env with "
    "ARRAY_API_PROMO_STORAGE) and render a report like a library's into "
    "conformance/reports/array_api_promo-<storage>[-<policy>][-api<version>]/; conformance/results, "
    "conformance/xfails and DEVIATIONS.md (the NumPy storage's) are not touched. Each wrong-dtype failure is "
    "replayed through the run's own policy; the suite runs with DASK_SCHEDULER=synchronous unless the variable "
    "is set."
)


def add_arguments(p) -> None:
    p.add_argument(
        "storage",
        nargs="?",
        default="dask",
        choices=[s for s in STORAGES if s != "numpy"],
        help="where the arrays' data live (default dask)",
    )
    add_suite_options(p, max_examples_default=f"{plan.REPORT_MAX_EXAMPLES}, as the committed library reports")
    report_job.add_report_options(p, timeout_default=plan.DASK_TEST_TIMEOUT)
    p.add_argument(
        "--policy",
        action="append",
        metavar="NAME",
        help=f"policy (repeatable; default {' '.join(plan.DEFAULT_STORAGE_POLICIES)}); --out takes one",
    )
    p.add_argument(
        "--shrink-all",
        action="store_true",
        help="shrink failing examples under the intentional policies too (by default only array_api's runs shrink)",
    )


def out_dir(args, target, version: str) -> Path:
    """Where the report for one (policy, version) goes: ``--out``, else its own folder under
    conformance/reports/ (``array_api_promo-dask``; ``-api<version>`` added for a version other
    than the default, or for each of several versions with ``--out``)."""
    if args.out:
        return args.out.with_name(f"{args.out.name}-api{version}") if len(args.api_version) > 1 else args.out
    out = Path(args.reports_dir) / target.label
    return out if version == DEFAULT_API_VERSION else out.with_name(f"{out.name}-api{version}")


def settle(args) -> None:
    args.seeds = args.seed or [plan.DEFAULT_SEED]
    args.max_examples = args.max_examples or plan.REPORT_MAX_EXAMPLES
    if args.per_test_timeout is None:
        args.per_test_timeout = plan.DASK_TEST_TIMEOUT
    args.policy = args.policy or list(plan.DEFAULT_STORAGE_POLICIES)
    args.api_version = args.api_version or [DEFAULT_API_VERSION]
    if args.out and len(args.policy) > 1:
        raise plan.UsageError(f"--out takes one --policy with storage {args.storage}")
    if args.merge_with and (len(args.policy) > 1 or len(args.api_version) > 1):
        raise plan.UsageError("--merge-with takes one --policy at one --api-version")


def main(args, console, cloner) -> int:
    # the plan (the defaults were settled as the command line was parsed)
    report_job.check_report_paths(args, results_count=len(args.policy) * len(args.api_version))
    plan.check_requirements(args.workers)
    plan.check_api_versions(args.api_version)
    if importlib.util.find_spec(args.storage) is None:
        raise plan.UsageError(f"storage {args.storage}: no module named {args.storage!r} is installed")
    for policy in args.policy:
        plan.check_policy(policy)
        for version in args.api_version:
            plan.check_suite_imports(policy, version)
    info = plan.locate_suite(args, cloner, console)
    timeout_args, timeout = report_job.report_timeouts(args, console)
    jobs: list = []
    notes: list = []
    for policy in args.policy:
        for version in args.api_version:
            target = plan.resolve_storage(policy, args.storage, version)
            lib = library.probe_storage(target, policy, args.storage)
            shrink = plan.shrinks(policy, no_shrink=args.no_shrink, shrink_all=args.shrink_all)
            earlier = report_job.earlier_draws(args, lib, version, shrink=shrink, timeout=timeout)
            taken = [s for e in earlier for s in normalize.draw_seeds(e)]
            title = f"{policy} @ {version} on {args.storage}"
            jobs.append(
                (
                    policy,
                    version,
                    target,
                    lib,
                    report_job.destination(args, out_dir(args, target, version), title, taken, notes),
                    earlier,
                    shrink,
                )
            )
    for note in notes:
        console.print(note, highlight=False)

    made, incomplete = [], []
    for policy, version, target, lib, folder, earlier, shrink in jobs:
        # the runs
        draws = report_job.run_draws(args, console, info, target, version, timeout_args, shrink=shrink, imports=True)
        # their results
        r = results.report_results(draws, earlier, lib, explain_with=policy, timeout=timeout)
        results.attribute_all(r, plan.engine_policy(target))  # a module:attr policy by its object
        r["namespace_env"] = dict(sorted(target.env.items()))
        r["package"] = provenance.package_provenance()
        title = f"{policy} @ {version} on {args.storage}"
        if r.get("incomplete"):
            folder = plan.scratch_dir() / folder.name
            incomplete.append((title, r["incomplete"], folder))
        made.append(publish.Made(title, r, folder=folder))

    # written, and said
    report_job.publish_reports(args, console, made, incomplete, notes, made_by=f"{args.prog} storage {args.storage}")
    return 0
