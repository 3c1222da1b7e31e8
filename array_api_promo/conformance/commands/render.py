"""``render deviations`` (the default) and ``render reports``: DEVIATIONS.md and the xfails of every
stored result, or every library report and the reports' index, rendered again from what is stored
(after a change to the report code), without running the suite.

``render reports --cross-check RESULTS`` also replays our failing calls on the installed release of
the library of each report explained with that policy.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import IN_CHECKOUT, crosscheck, library, library_report, normalize, plan, publish

HELP = "DEVIATIONS.md or the reports again from stored results"
DESCRIPTION = "Render again from stored results, without running the suite."


def add_arguments(p) -> None:
    sub = p.add_subparsers(dest="what", metavar="{deviations,reports}")
    dev = sub.add_parser(
        "deviations", help="DEVIATIONS.md and xfails from stored results (the default)", description=HELP
    )
    dev.add_argument("--results-dir", type=Path, metavar="DIR", help="the results to render (default: the committed)")
    dev.add_argument("--xfails-dir", type=Path, metavar="DIR", help="xfails folder (default: beside the results)")
    dev.add_argument("--output", type=Path, help="report path (default: beside the results)")
    dev.set_defaults(job=deviations)
    rep = sub.add_parser("reports", help="every conformance/reports/*/ from its results.json, and the index")
    rep.add_argument(
        "--rerun-reproducers",
        action="store_true",
        help="execute the reproducers again against the installed libraries (otherwise their recorded output is used)",
    )
    rep.add_argument(
        "--cross-check",
        type=Path,
        metavar="RESULTS_JSON",
        help="replay, for the reports explained with that results' policy, our failing calls on the installed "
        "release of the library",
    )
    rep.add_argument("--reports-dir", type=Path, default=library.REPORTS_DIR, help=argparse.SUPPRESS)
    rep.set_defaults(job=reports)


def main(args, console, cloner) -> int:  # not reached: ``render`` alone is ``render deviations``
    return deviations(args, console, cloner)


def deviations(args, console, cloner) -> int:
    if args.results_dir is None and not IN_CHECKOUT:
        raise plan.UsageError("render outside a checkout needs --results-dir (the results to render)")
    plan.check_creatable(args.xfails_dir, "--xfails-dir", folder=True)
    plan.check_creatable(args.output, "--output", folder=False)
    results_dir, xfails_dir, output = plan.destinations(args, committed=True)
    if not normalize.load_all(results_dir):
        raise plan.UsageError(f"no results to render in {results_dir}")
    publish.publish(console, [], deviations=publish.Deviations(results_dir, xfails_dir, output, rewrite_xfails=True))
    return 0


def reports(args, console, cloner) -> int:
    plan.check_file(args.cross_check, "--cross-check", "a results JSON, e.g. conformance/results/torch-2025.12.json")
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
            library.write_report(normalize.load(d / library.RESULTS_NAME), d)
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
