"""A run's results, made whole: its raw pytest report normalised (``normalize``), whether the run
gave a whole result, the settings it ran with, what produced it (package, tools), the standard's
text for what failed and each failure's attribution to a rule of the policy.

Called by the subcommands after the runner: the main job's runs (and ``--from-raw``'s stored raw
reports) and each draw of a library's or a storage's report.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import normalize, provenance, spec
from .attribution import attribute

PROMOTION_SECTIONS = ("Rules", "Notes", "Mixing arrays with Python scalars")


def collect_spec_text(results: dict, spec_dir: Path) -> dict:
    """The standard's summary of every function that failed, and the type promotion sections."""
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


def attribute_all(results: dict, policy: Any) -> None:
    """Each failure's attribution to a rule of ``policy`` (replacing any earlier one)."""
    for e in results["tests"]:
        e.pop("attribution", None)
        a = attribute(policy, e) if policy is not None else None
        if a:
            e["attribution"] = a


def read_raw(report: Path, log: Path) -> tuple[dict, str]:
    """A run's pytest-json-report (empty when missing or cut short while writing) and its log."""
    text = log.read_text(errors="replace") if log.exists() else ""
    try:
        raw = json.loads(report.read_text()) if report.exists() else {}
    except ValueError:
        raw = {}
    return raw, text


def of_run(raw: dict, log: str, meta: dict, target, version: str, *, library: bool = False) -> dict:
    """One run's normalised results: ``meta`` holds its settings (max_examples, seed, shrink,
    pytest_args, speed_plugin), the suite's path and commits, pytest's exit status and how many tests
    it collected; ``incomplete`` lists why the run is not a whole result. ``library``: a draw of a
    library's or a storage's report (a module that could not be imported fails collection as its
    finding, and a run cut short keeps the end of its log for the report)."""
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
    if meta.get("speed_plugin") is False:
        results["speed_plugin"] = False
    collected = meta.get("collected", 0)
    if library:
        tail = normalize.trim(normalize.scrub("\n".join(log.splitlines()[-30:]), [suite_path]), 3000)
        if raw.get("tests") and ("INTERNALERROR" in log or collected > len(raw["tests"])):
            results["run_incomplete"] = {"collected": collected, "reported": len(raw["tests"]), "log_tail": tail}
        results["_log_tail"] = None if raw.get("tests") else tail
    problems = normalize.run_problems(
        raw,
        log,
        meta.get("returncode", 0),
        collected,
        collection_errors_allowed=library and not meta.get("strict_collection", True),
    )
    if problems:
        results["incomplete"] = problems
    results["spec_text"] = collect_spec_text(results, suite_path / "array-api")
    return results


def finish(results: dict, target, policy: Any) -> dict:
    """Our own results made whole: what produced them (package version, source hash), the policy's
    environment, and each dtype failure attributed to a rule of ``policy`` (the target's, as the plan
    resolved it)."""
    spec_text = results.pop("spec_text", None)
    results["package"] = provenance.package_provenance()
    if target.env:
        results["namespace_env"] = dict(sorted(target.env.items()))
    if spec_text is not None:
        results["spec_text"] = spec_text
    attribute_all(results, policy)
    return results


def report_results(draws: list, earlier: list, lib: dict, *, explain_with, timeout) -> dict:
    """A library's (or a storage's) report results: this job's draws (each ``of_run(library=True)``)
    merged with ``earlier`` ones (``--merge-with``, as if all had run in seed order), finished with the
    library's facts and, with ``explain_with``, each failure replayed through that policy. Draws that
    were not whole are not merged with earlier ones: ``incomplete`` says why."""
    from . import library
    from .plan import UsageError

    problems = [f"seed {normalize.draw_seeds(d)[0]}: {why}" for d in draws for why in d.pop("incomplete", ())]
    if not problems:
        for e in earlier:
            for key in ("module", "suite_commit", "spec_commit", "numpy", "python", "tools"):
                if e.get(key) != draws[0].get(key):
                    raise UsageError(
                        f"--merge-with {e['_merged_from']}: its {key} is {e.get(key)!r}, this run's "
                        f"{draws[0].get(key)!r}; nothing was merged (the new draws' raw reports are in the work folder)"
                    )
        draws = sorted(
            [{k: v for k, v in e.items() if k != "_merged_from"} for e in earlier] + draws,
            key=lambda r: min(normalize.draw_seeds(r)),
        )
    merged = normalize.merge_draws(draws)
    log_tail = merged.pop("_log_tail", None)
    for d in draws:
        d.pop("_log_tail", None)
    if problems:
        merged["incomplete"] = problems
    library.finish(merged, lib, explain_with=explain_with, timeout=timeout, collection_log=log_tail)
    return merged
