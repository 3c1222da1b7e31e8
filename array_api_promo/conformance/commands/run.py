"""``run`` (the default subcommand): the upstream suite against ``array_api_promo`` once per
promotion policy and API version; writes each run's results and xfails and renders DEVIATIONS.md
from every result stored beside them.

Its trip: the plan (policies, versions, destinations: the committed files only for a complete run
with the default settings from a checkout, else a scratch folder), the runs side by side
(``runner``), each run's results made whole (``results``), then everything written at once and the
closing table printed (``publish``).
"""

from __future__ import annotations

import json
from pathlib import Path

from .. import INTENTIONAL_POLICIES, normalize, plan, publish, results, runner
from .options import add_suite_options, one_seed_arg

HELP = "the suite per policy and API version -> DEVIATIONS.md"
DESCRIPTION = (
    "Run the upstream array-api-tests suite against array_api_promo per promotion policy and API version; "
    "write conformance/results/*.json, conformance/xfails/*.txt and DEVIATIONS.md (a complete run with the "
    "default settings from a checkout), or the same files in a scratch folder (any other run)."
)


def add_arguments(p) -> None:
    add_suite_options(p, max_examples_default=str(plan.DEFAULT_MAX_EXAMPLES))
    p.add_argument(
        "--policy",
        action="append",
        metavar="NAME",
        help="policy to run: a registered name (array_api, torch, ...), a module path or module:attr "
        f"(repeatable; default: {' '.join(plan.DEFAULT_POLICIES)})",
    )
    p.add_argument(
        "--seed",
        type=one_seed_arg,
        action="extend",
        metavar="SEED",
        help=f"Hypothesis seed (default {plan.DEFAULT_SEED})",
    )
    p.add_argument(
        "--module-map",
        action="append",
        default=[],
        metavar="POLICY=MODULE",
        help="override the namespace module for a policy name, e.g. strict=array_api_strict",
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
        "--from-raw",
        action="store_true",
        help="do not run pytest: re-normalise the raw reports of the last runs in --work-dir "
        "(after changing the classification or report code)",
    )
    p.add_argument(
        "--shrink-all",
        action="store_true",
        help="shrink failing examples under the intentional policies too (by default only the standard "
        "policy's runs shrink: torch fails some 70 tests by design, and shrinking them takes over 25 minutes)",
    )
    p.add_argument("--strict", action="store_true", help="exit 1 when a non-intentional policy has failures (defects)")


def module_map(args) -> dict:
    mm = {}
    for item in args.module_map:
        name, sep, module = item.partition("=")
        if not sep or not name or not module:
            raise plan.UsageError(f"--module-map expects POLICY=MODULE, got {item!r}")
        mm[name] = module
    return mm


def default_settings(args, metas=()) -> bool:
    """The settings the committed results are made with: built-in policies, default examples,
    seed and shrinking, no extra pytest arguments, the speed plugin. ``metas``: the settings of raw runs."""
    from array_api_promo import promotion

    runs = list(metas) or [
        {
            "max_examples": args.max_examples,
            "seed": args.seed,
            "pytest_args": args.pytest_arg,
            "speed_plugin": not args.no_speed_plugin,
        }
    ]
    return (
        all(p in promotion.available_policies() for p in args.policy)
        and not args.module_map
        and not args.no_shrink
        and not args.shrink_all
        and args.timeout is None
        and all(
            m["max_examples"] == plan.DEFAULT_MAX_EXAMPLES
            and m["seed"] == plan.DEFAULT_SEED
            and not m["pytest_args"]
            and m.get("speed_plugin", True)
            for m in runs
        )
    )


def settle(args) -> None:
    """The defaults of the options left out."""
    args.max_examples = args.max_examples or plan.DEFAULT_MAX_EXAMPLES
    if args.seed and len(args.seed) > 1:
        raise plan.UsageError(
            "several --seed values are for the library and storage subcommands (our own results use one)"
        )
    args.seed = (args.seed or [plan.DEFAULT_SEED])[0]
    args.policy = args.policy or list(plan.DEFAULT_POLICIES)
    args.api_version = args.api_version or [plan.DEFAULT_API_VERSION]


def main(args, console, cloner) -> int:
    # the plan: every name, path and requirement checked before anything runs
    mm = module_map(args)
    args.module_map = mm
    for flag, path, folder in (
        ("--results-dir", args.results_dir, True),
        ("--xfails-dir", args.xfails_dir, True),
        ("--output", args.output, False),
        ("--work-dir", args.work_dir, True),
    ):
        plan.check_creatable(path, flag, folder=folder)
    plan.check_requirements(args.workers)
    plan.check_api_versions(args.api_version)
    for policy in args.policy:
        plan.check_policy(policy, mm)
        if not args.from_raw:
            for version in args.api_version:
                plan.check_suite_imports(policy, version, mm)
    targets = [
        (plan.resolve_policy(policy, mm, version), version) for policy in args.policy for version in args.api_version
    ]
    plan.check_creatable(args.write_xfails, "--write-xfails", folder=len(targets) > 1)
    raws = {}
    if args.from_raw:
        for target, version in targets:
            files = runner.latest_run(args.work_dir, f"{target.label}-{version}")
            if files is None:
                raise plan.UsageError(f"--from-raw: no finished run of {target.label} @ {version} in {args.work_dir}")
            raws[(target.label, version)] = (files, json.loads(files.meta.read_text()))
    committed = default_settings(args, [meta for _, meta in raws.values()])
    results_dir, xfails_dir, output = plan.destinations(args, committed=committed)
    # where the job's results go if a run is incomplete: never the committed files
    committed_files = {results_dir, xfails_dir, output} & set(plan.committed_destinations())
    fallback = plan.destinations(args, committed=False) if committed_files else None
    policies = [plan.engine_policy(t) for t, _ in targets]  # what explains each target's failures
    shrink = [plan.shrinks(t.label, no_shrink=args.no_shrink, shrink_all=args.shrink_all) for t, _ in targets]
    info = None if args.from_raw else plan.locate_suite(args, cloner, console)

    # the runs
    if args.from_raw:
        runs = [(raws[(t.label, v)], t, v, 0.0) for t, v in targets]
    else:
        runs = run_all(args, console, info, targets, shrink)

    # their results
    made = []
    for ((files, meta), target, version, elapsed), policy in zip(runs, policies):  # runs: in the targets' order
        raw, log = results.read_raw(files.report, files.log)
        r = results.finish(results.of_run(raw, log, meta, target, version), target, policy)
        made.append((r, elapsed, files.log))
    incomplete = [(r, str(log)) for r, _, log in made if r.get("incomplete")]
    if incomplete and fallback is not None:
        # nothing committed from a job that did not finish: all its results go to a scratch folder
        results_dir, xfails_dir, output = fallback

    # written, and said
    notes = []
    if results_dir != plan.RESULTS_DIR:
        notes.append(
            f"results, xfails and report of this run are in {results_dir} (the committed files are written "
            "only by complete runs with the default settings)"
        )
    publish.publish(
        console,
        [
            publish.Made(
                f"{r['policy']} @ {r['api_version']}",
                r,
                results_path=results_dir / f"{r['policy']}-{r['api_version']}.json",
                xfails_path=xfails_dir / f"{r['policy']}-{r['api_version']}.txt",
                elapsed=elapsed,
                note=("INCOMPLETE: " + "; ".join(r["incomplete"])) if r.get("incomplete") else "",
            )
            for r, elapsed, _ in made
        ],
        deviations=publish.Deviations(results_dir, xfails_dir, output),
        annotated_xfails=args.write_xfails,
        made_by=f"{args.prog} run",
        notes=tuple(notes),
    )
    if incomplete:
        first, log = incomplete[0]
        raise plan.IncompleteRun(
            f"{len(incomplete)} of {len(targets)} run(s) incomplete, {first['policy']} @ {first['api_version']}: "
            f"{'; '.join(first['incomplete'])}; nothing committed was written, this job's results are in "
            f"{results_dir} (pytest's log: {log})"
        )
    if args.strict:
        stored = normalize.load_all(results_dir)
        if any(
            r["policy"] not in INTENTIONAL_POLICIES and any(e["outcome"] in normalize.FAILING for e in r["tests"])
            for r in stored
        ):
            return 1
    return 0


def run_all(args, console, info, targets: list, shrink: list) -> list:
    """Run the suite for every (target, version), side by side within ``--workers``:
    [((raw files, settings), target, version, seconds)]."""
    specs = [
        runner.RunSpec(
            target,
            version,
            args.max_examples,
            args.seed,
            tuple(args.pytest_arg),
            shrinks,
            not args.no_speed_plugin,
        )
        for (target, version), shrinks in zip(targets, shrink)
    ]
    outcomes = runner.run_with_options(args, console, info, specs)
    runs = []
    for spec, outcome in zip(specs, outcomes):
        meta = runner.settings_of(spec, outcome, info)
        files = runner.RunFiles.at(outcome.log_path.parent, outcome.log_path.name[: -len(".log")])
        files.meta.write_text(json.dumps(meta))
        runs.append(((files, meta), spec.target, spec.version, outcome.elapsed))
    return runs
