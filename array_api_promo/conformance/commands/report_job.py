"""What the two subcommands that make a report (``library``, ``storage``) share: their options, the
checks of their paths, where a report goes (never over a stronger committed one), and the suite run
once per seed (each draw's results made whole)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import library, normalize, plan, publish, results, runner
from .options import seconds_arg, seeds_arg


def add_report_options(p, *, timeout_default: float) -> None:
    """The options of the subcommands that make a report (``library``, ``storage``)."""
    p.add_argument(
        "--seed",
        type=seeds_arg,
        action="extend",
        metavar="SEED",
        help="Hypothesis seed (default 0), repeatable, or a range A-B: the suite runs once per seed and the "
        "report lists every test that failed on any draw, marking those that failed on some only",
    )
    p.add_argument("--out", type=Path, metavar="PATH", help="report folder (default: under conformance/reports/)")
    p.add_argument(
        "--per-test-timeout",
        type=seconds_arg(True),
        default=None,
        metavar="S",
        help=f"seconds per test before pytest-timeout fails it as a timeout (default {timeout_default:g}; 0 = none)",
    )
    p.add_argument(
        "--merge-with",
        type=Path,
        action="append",
        metavar="REPORT",
        help="add this run's draws (its --seed values) to an earlier report of the same library or "
        "storage (its folder or results.json; repeatable): same suite, versions and settings, other "
        "seeds; the earlier draws are not run again",
    )
    p.add_argument(
        "--replace",
        action="store_true",
        help="write over the committed report even when this run draws fewer seeds or examples than it "
        "(without it, such a run's report goes to a scratch folder)",
    )
    p.add_argument("--reports-dir", type=Path, default=library.REPORTS_DIR, help=argparse.SUPPRESS)


def check_report_paths(args, *, results_count: int) -> None:
    """The paths a report job writes and reads, before anything runs."""
    plan.check_creatable(args.out, "--out", folder=True)
    plan.check_creatable(args.work_dir, "--work-dir", folder=True)
    plan.check_creatable(args.write_xfails, "--write-xfails", folder=results_count > 1)
    for path in args.merge_with or ():
        if not Path(path).exists():
            raise plan.UsageError(f"--merge-with {path}: no such report folder or results.json")


def destination(args, default: Path, lib_title: str, stored_seeds_extra: list, notes: list) -> Path:
    """``--out``, else ``default`` unless the committed report there is stronger than this run (more
    seeds or examples): then a scratch folder, said in ``notes``, unless ``--replace``."""
    if args.out is not None:
        return default
    stored = default / library.RESULTS_NAME
    if not stored.is_file() or args.replace:
        return default
    why = plan.weaker_than(normalize.load(stored), args.max_examples, list(args.seeds) + stored_seeds_extra)
    if why is None:
        return default
    scratch = plan.scratch_dir() / default.name
    notes.append(
        f"{lib_title}: this run is weaker than the committed report in {default} ({why}): its report is in "
        f"{scratch}; --replace writes over the committed one"
    )
    return scratch


def report_timeouts(args, console) -> tuple[list, float | None]:
    """pytest's arguments for ``--per-test-timeout`` and the timeout the report records (None: none,
    as without pytest-timeout, which is said)."""
    args_ = library.timeout_args(args.per_test_timeout)
    if args.per_test_timeout and not args_:
        console.print(
            "[yellow]warning:[/] pytest-timeout is not installed: no per-test timeout (pip install pytest-timeout)",
            highlight=False,
        )
    return args_, (args.per_test_timeout if args_ else None)


def earlier_draws(args, lib: dict, version: str, *, shrink: bool, timeout) -> list:
    """The draws of the ``--merge-with`` reports, each checked against this run's settings."""
    return [
        plan.earlier_draws(
            path,
            lib,
            version,
            max_examples=args.max_examples,
            shrink=shrink,
            timeout=timeout,
            pytest_args=args.pytest_arg,
            seeds=args.seeds,
        )
        for path in args.merge_with or ()
    ]


def run_draws(
    args, console, info, target, version: str, timeout_args: list, *, shrink: bool, imports: bool, absent_dtypes=()
) -> list:
    """The suite against ``target`` once per seed, side by side within ``--workers``: each draw's results."""
    # --tb=native: pytest's own traceback formatter crashes (INTERNALERROR) on some
    # frames of compiled libraries (tb_lineno None), ending the whole run.
    extra = ("--continue-on-collection-errors", "--tb=native", *timeout_args, *args.pytest_arg)
    specs = [
        runner.RunSpec(
            target, version, args.max_examples, seed, extra, shrink, not args.no_speed_plugin, tuple(absent_dtypes)
        )
        for seed in args.seeds
    ]
    outcomes = runner.run_with_options(args, console, info, specs)
    draws = []
    for spec, outcome in zip(specs, outcomes):
        meta = runner.settings_of(spec, outcome, info)
        meta["pytest_args"] = list(args.pytest_arg)  # the report's: not the harness' own options
        meta["strict_collection"] = imports
        raw, log = results.read_raw(outcome.report_path, outcome.log_path)
        draws.append(results.of_run(raw, log, meta, target, version, library=True))
    return draws


def publish_reports(args, console, made: list, incomplete: list, notes: list, *, made_by: str) -> None:
    """Every report of the job written at once (``publish``), then the job refused as incomplete where a
    run was (its report written to a scratch folder)."""
    publish.publish(
        console,
        made,
        annotated_xfails=args.write_xfails,
        made_by=made_by,
        reports_dir=args.reports_dir,
        notes=tuple(notes),
    )
    _raise_incomplete(incomplete)


def _raise_incomplete(incomplete: list) -> None:
    if incomplete:
        title, problems, where = incomplete[0]
        raise plan.IncompleteRun(
            f"{len(incomplete)} report run(s) incomplete, {title}: {'; '.join(problems)}; no report was written "
            f"in its place, this run's report is in {where}"
        )
