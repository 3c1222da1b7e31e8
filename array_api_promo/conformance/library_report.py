"""Rendering one array library's conformance report (``conformance/reports/<lib>/README.md``)
from its normalised results, in the form of DEVIATIONS.md: summary, per test
module table, failures grouped by kind and spec function with the standard's
text and a reproducer executed against that library, and, with
``--explain-with POLICY``, each wrong-dtype failure replayed through the policy. A report of
``array_api_promo`` itself over another storage (``--storage dask``) is rendered the same way,
its wrong-dtype failures replayed through its own policy."""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable

from . import DEFAULT_API_VERSION, crosscheck, reproduce
from .normalize import FAILING, KINDS, TIMEOUT, UNEXPECTED_EXCEPTION, WRONG_DTYPE
from .report import (
    Group,
    dtype_category,
    group_key,
    group_reproducer,
    group_section,
    group_title,
    seed_ranges,
    short,
    tools_line,
)

MAX_SKIP_REASONS = 15

#: The causes a report counts, in its order: whether the policy reproduces a failure (a promotion
#: rule) or the failure is outside promotion.
PROMOTION = "promotion rule"
NOT_PREDICTED = "promotion rule the policy does not reproduce"
MISSING = "missing name"
KERNEL = "kernel"
SPECIAL_VALUE = "special-case value"
EXCEPTION = "exception"
CAUSES = (PROMOTION, NOT_PREDICTED, MISSING, KERNEL, SPECIAL_VALUE, EXCEPTION)


def library_name(results: dict) -> str:
    if "library" not in results:  # our own results, under a policy
        return f"`array_api_promo` (policy `{results['policy']}`)"
    lib = results.get("library") or {}
    name = f"`{lib.get('library', results.get('module'))}` {lib.get('version', '')}".strip()
    wrapper = lib.get("wrapper")
    if wrapper:
        name += f" (through `{wrapper['module']}` {wrapper['version']})"
    store = lib.get("storage")
    if store:
        name += f" (policy `{lib.get('policy')}`, on `{store['name']}` {store['version']})"
    return name


def storage(results: dict) -> str | None:
    """The storage of a report of ``array_api_promo`` itself (``--storage``); None for a library's."""
    return ((results.get("library") or {}).get("storage") or {}).get("name")


def made_by(results: dict) -> str:
    """The subcommand that makes this kind of report: ``library`` or ``storage dask``."""
    return f"storage {storage(results)}" if storage(results) else "library"


def explain_policy(results: dict):
    return (results.get("explained_with") or {}).get("policy")


def library_group_key(entry: dict, policy) -> tuple:
    """Failures by kind and spec function; wrong dtypes, when replayed through a policy,
    by the rule that predicts them or as not predicted."""
    if entry.get("kind") == WRONG_DTYPE and policy:
        attr = entry.get("attribution") or {}
        if attr.get("explained"):
            return (WRONG_DTYPE, "predicted:" + attr["rule"])
        return (WRONG_DTYPE, "unpredicted:" + dtype_category(entry))
    attr = entry.get("attribution") or {}
    if attr.get("explained") and attr.get("heading"):  # a cause other than a policy rule (unknown sizes)
        return (entry.get("kind") or UNEXPECTED_EXCEPTION, "explained:" + attr["rule"])
    return group_key(entry)


def library_group_title(key: tuple, policy) -> str:
    what = key[1]
    if what.startswith("predicted:"):
        return f"Type promotion predicted by policy `{policy}`: {what[len('predicted:') :]}"
    if what.startswith("unpredicted:"):
        return f"Type promotion not predicted by policy `{policy}`: {what[len('unpredicted:') :]}"
    if what.startswith("explained:"):
        return f"Explained: {what[len('explained:') :]}"
    return group_title(key)


def build_groups(results: dict) -> list:
    policy = explain_policy(results)
    groups = OrderedDict()
    for e in results["tests"]:
        if e["outcome"] not in FAILING:
            continue
        key = library_group_key(e, policy)
        if key not in groups:
            groups[key] = Group(key, key[0], library_group_title(key, policy))
        groups[key].items.append((results, e))
    order = {k: i for i, k in enumerate(KINDS)}
    return sorted(groups.values(), key=lambda g: (order.get(g.kind, 99), g.title))


def _count(tests, *outcomes) -> int:
    return sum(e["outcome"] in outcomes for e in tests)


def _seeds(h: dict) -> str:
    seeds = h.get("seeds") or [h["seed"]]
    return f"seed={seeds[0]}" if len(seeds) == 1 else f"seeds {', '.join(seed_ranges(seeds))}"


def regenerate_command(r: dict) -> str:
    """The command that makes this report again (with the suite pointed to by $ARRAY_API_TESTS_DIR)."""
    h = r["hypothesis"]
    lib = r.get("library") or {}
    if storage(r):
        parts = ["python -m conformance", f"storage {storage(r)}"]
        if lib.get("policy") != "array_api":
            parts.append(f"--policy {lib.get('policy')}")
        if r["api_version"] != DEFAULT_API_VERSION:
            parts.append(f"--api-version {r['api_version']}")
    else:
        parts = ["python -m conformance", f"library {r['module']}"]
        if r["api_version"] != lib.get("api_version"):
            parts.append(f"--api-version {r['api_version']}")
    parts.append(f"--max-examples {h['max_examples']}")
    parts += [f"--seed {s}" for s in seed_ranges(h.get("seeds") or [h["seed"]])]
    if not h.get("shrink", True):
        parts.append("--no-shrink")
    if r.get("per_test_timeout"):
        parts.append(f"--per-test-timeout {r['per_test_timeout']:g}")
    if explain_policy(r) and not storage(r):  # a storage's report: always its own policy
        parts.append(f"--explain-with {explain_policy(r)}")
    if r.get("cross_check"):
        c = r["cross_check"]
        parts.append(f"--cross-check conformance/results/{c['policy']}-{c['api_version']}.json")
    parts += [f"--pytest-arg={a}" for a in r.get("pytest_args") or ()]
    return " ".join(parts)


def _header(r: dict) -> list:
    lib = r.get("library") or {}
    h = r["hypothesis"]
    ext = lib.get("extensions") or {}
    env = r.get("namespace_env") or {}
    lines = [
        f"# Array API conformance of {library_name(r)}",
        "",
        f"<!-- Generated by `python -m conformance {made_by(r)}` from results.json; do not edit. -->",
        "",
        f"Every test of the upstream suite (`array-api-tests`) that fails for `{r['module']}`, "
        "grouped by failure kind and spec function, with what the standard says and a "
        "reproducer executed against the library.",
        "",
        f"- Namespace module: `{r['module']}` (`ARRAY_API_TESTS_MODULE`)"
        + (" with " + ", ".join(f"`{k}={env[k]}`" for k in sorted(env)) if env else ""),
        f"- API version tested: {r['api_version']} (the library declares {lib.get('api_version') or 'none'})",
        f"- array-api-tests commit: `{short(r.get('suite_commit', ''))}`; spec commit "
        f"`{short(r.get('spec_commit', ''))}`",
        f"- NumPy {r.get('numpy')}; Python {r.get('python')}",
        f"- Hypothesis: max_examples={h['max_examples']}, {_seeds(h)}"
        + ("" if h.get("shrink", True) else ", no shrinking")
        + (
            f" (one run per seed: a test is listed if it failed on any draw, and marked when it "
            f"failed on some draws only; {sum(1 for e in r['tests'] if e.get('draws'))} such test(s))"
            if len(h.get("seeds", ())) > 1
            else ""
        ),
        "- Extensions: "
        + (
            ", ".join(
                f"`{k}` {'present' if v else '**absent** (its tests are skipped)'}" for k, v in sorted(ext.items())
            )
            or "unknown"
        ),
    ]
    lines.append(f"- Tools: {tools_line([r])}")
    if lib.get("absent_dtypes"):
        lines.append(
            f"- Dtypes the namespace lacks: {', '.join(lib['absent_dtypes'])} (optional in the draft standard; "
            f"the suite skipped them, and the {r['summary'].get('not_applicable', 0)} tests that need them are "
            "not applicable)"
        )
    if r.get("per_test_timeout"):
        lines.append(f"- Per-test timeout: {r['per_test_timeout']:g} s (pytest-timeout)")
    pkg = r.get("package")
    if pkg:
        lines.append(
            f"- Produced by array_api_promo {pkg.get('package_version')} (source hash "
            f"`{pkg.get('source_sha256', '')[:12]}`, Python {pkg.get('source_python')})"
        )
    lines.append(f"- Made by: `{regenerate_command(r)}`")
    if r.get("pytest_args"):
        lines.append(f"- Partial run: extra pytest arguments `{' '.join(r['pytest_args'])}`")
    policy = explain_policy(r)
    if policy:
        ew = r["explained_with"]
        lines.append(
            f"- Wrong-dtype failures replayed through `array_api_promo` policy `{policy}` "
            f"(package {ew.get('package_version')}, source `{ew.get('source_sha256', '')[:12]}`)"
        )
    causes = Counter(e["cause"]["cause"] for e in r["tests"] if e.get("cause"))
    if causes:
        lines.append(
            f"- Failures by cause (policy `{policy}`): "
            + ", ".join(f"{_cause_label(c, policy)} {causes.get(c, 0)}" for c in CAUSES)
            + " (section *Promotion or not*)"
        )
    return lines + [""]


def _cause_label(cause: str, policy) -> str:
    if cause == PROMOTION:
        return f"promotion rule reproduced by policy `{policy}`"
    if cause == NOT_PREDICTED:
        return f"promotion rule policy `{policy}` does not reproduce (a defect of the policy)"
    return cause


def _causes(r: dict) -> list:
    """Every failure, promotion rule or not (the causes ``library.failure_cause`` gave at the run)."""
    entries = [e for e in r["tests"] if e.get("cause")]
    if not entries:
        return []
    policy = explain_policy(r)
    order = {c: i for i, c in enumerate(CAUSES)}
    lines = [
        "## Promotion or not: every failure",
        "",
        f"Whether policy `{policy}` reproduces each failure (a promotion rule: a wrong dtype it predicts, "
        "or operands it refuses as the library does) or the failure is outside promotion: a missing name "
        "or signature, a kernel (a value the library computes, a dtype it has no kernel for), a "
        "special-case value, another exception. A wrong dtype or a refusal the policy does not reproduce "
        "is a defect of the policy.",
        "",
        "| Cause | tests |",
        "|---|---:|",
    ]
    counts = Counter(e["cause"]["cause"] for e in entries)
    lines += [f"| {_cause_label(c, policy)} | {counts.get(c, 0)} |" for c in CAUSES]
    lines += ["", "| Test | Failure kind | Cause | Why |", "|---|---|---|---|"]
    for e in sorted(entries, key=lambda e: (order.get(e["cause"]["cause"], 99), e["nodeid"])):
        detail = e["cause"]["detail"].replace("|", "/").replace("\n", " ")
        lines.append(
            f"| `{e['nodeid'].replace('array_api_tests/', '')}` | {e.get('kind')} | {e['cause']['cause']} | {detail} |"
        )
    return lines + [""]


def _status(r: dict) -> list:
    lines = []
    lib = r.get("library") or {}
    if lib.get("error"):
        lines += [f"**The module could not be imported**: `{lib['error']}`", ""]
    stop = r.get("run_incomplete")
    if stop:
        lines += [
            f"**The run stopped early**: {stop['reported']} of {stop['collected']} collected tests "
            "reported (pytest or a worker crashed). End of the log:",
            "",
            "```text",
            stop["log_tail"],
            "```",
            "",
        ]
    errors = r.get("collection_errors") or []
    if errors:
        lines += [
            "## Collection errors",
            "",
            "These test modules (or the whole session) could not be collected; their tests "
            "did not run and are not counted below.",
            "",
        ]
        for c in errors:
            lines += [f"- `{c['nodeid']}`:", "", "```text", c["message"], "```", ""]
    timeouts = [e["nodeid"] for e in r["tests"] if e.get("kind") == TIMEOUT]
    if timeouts:
        lines += [
            f"**{len(timeouts)} test(s) hit the per-test timeout** (listed in `skips.txt`, "
            "for the suite's `--skips-file`).",
            "",
        ]
    return lines


def _summary(r: dict) -> list:
    s = r["summary"]
    tests = r["tests"]
    if not tests:  # never a table of zeros: say why nothing ran
        why = (
            "the module could not be imported"
            if (r.get("library") or {}).get("error")
            else (
                "no test module could be collected (see *Collection errors*)"
                if r.get("collection_errors")
                else "the suite reported no test"
            )
        )
        return ["## Summary", "", f"**No test ran**: {why}.", ""]
    na = s.get("not_applicable", 0)
    lines = [
        "## Summary",
        "",
        "| passed | failed | errors | skipped | xfailed | total |",
        "|---:|---:|---:|---:|---:|---:|",
        f"| {s['passed']} | {s['failed']} | {s.get('error', 0)} | {s['skipped']} | {s.get('xfailed', 0)} "
        f"| {s['total']} |",
        "",
    ]
    if na:
        absent = (r.get("library") or {}).get("absent_dtypes") or []
        lines += [
            f"Of the skipped, **{na} not applicable**: they need {', '.join(absent)}, which the namespace does "
            "not have. The draft of the next standard makes supporting every dtype a *should*, so a library "
            f"without them can conform: {s['total'] - na} tests applied, {s['passed']} passed, "
            f"{s['failed'] + s.get('error', 0)} failed.",
            "",
        ]
    lines += [
        "### Per test module",
        "",
        "| Test module | passed | failed | errors | skipped |",
        "|---|---:|---:|---:|---:|",
    ]
    for m in sorted({e["test_module"] for e in tests}):
        es = [e for e in tests if e["test_module"] == m]
        lines.append(
            f"| `{m}` | {_count(es, 'passed', 'xpassed')} | {_count(es, 'failed')} | "
            f"{_count(es, 'error')} | {_count(es, 'skipped', 'xfailed')} |"
        )
    kinds = Counter(e.get("kind") for e in tests if e["outcome"] in FAILING)
    lines += ["", "### Failures by kind", "", "| Failure kind | tests |", "|---|---:|"]
    lines += [f"| {k} | {kinds[k]} |" for k in KINDS if kinds.get(k)] or ["| (none) | 0 |"]
    lines.append("")
    return lines


def _explained(r: dict, groups: list) -> list:
    policy = explain_policy(r)
    if not policy:
        return []
    dtype_groups = [g for g in groups if g.kind == WRONG_DTYPE]
    n_pred = sum(len(g.items) for g in dtype_groups if g.key[1].startswith("predicted:"))
    n_all = sum(len(g.items) for g in dtype_groups)
    lines = [
        f"## Wrong-dtype failures replayed through policy `{policy}`",
        "",
        f"Each wrong-dtype failure's operands (from the suite's failing call) are replayed through "
        f"`array_api_promo`'s `{policy}` policy (`Policy.explain`): **{n_pred} of {n_all}** are "
        "predicted by one of its rules, the rest are not.",
        "",
        "| Group | tests |",
        "|---|---:|",
    ]
    lines += [f"| {g.title} | {len(g.items)} |" for g in dtype_groups]
    return lines + [""]


def _skips(r: dict) -> list:
    reasons = Counter(e.get("reason") or "(no reason)" for e in r["tests"] if e["outcome"] == "skipped")
    if not reasons:
        return []
    lines = ["## Skipped tests by reason", "", "| Reason | tests |", "|---|---:|"]
    top = sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
    for reason, n in top[:MAX_SKIP_REASONS]:
        lines.append(f"| {reason.replace('|', '/').replace(chr(10), ' ')} | {n} |")
    if len(top) > MAX_SKIP_REASONS:
        lines.append(f"| … {len(top) - MAX_SKIP_REASONS} other reasons | {sum(n for _, n in top[MAX_SKIP_REASONS:])} |")
    return lines + [""]


def reproducer_codes(results: dict) -> list:
    """The reproducer snippet of every failure group, in report order."""
    codes = []
    for g in build_groups(results):
        c = group_reproducer(g)
        if c and c not in codes:
            codes.append(c)
    return codes


def record_reproducers(results: dict, execute: Callable = reproduce.execute) -> dict:
    """Execute the reproducers against the library (now, while it is installed) and keep
    their output in the results, so that the report re-renders from results.json alone."""
    codes = reproducer_codes(results)
    results["reproducer_outputs"] = dict(zip(codes, execute(codes))) if codes else {}
    return results


def render(results: dict) -> str:
    """The report text for one library's results (same results -> same bytes)."""
    groups = build_groups(results)
    outputs = results.get("reproducer_outputs") or {}
    lines = _header(results) + _status(results) + _summary(results) + _explained(results, groups) + _causes(results)
    lines += crosscheck.render(results)
    lines += ["## Failures", ""]
    if not groups:
        lines += ["_None: every test that ran passed._", ""]
    for i, g in enumerate(groups, 1):
        lines += group_section(i, g, outputs)
    lines += _skips(results)
    lines += [
        "## Files",
        "",
        "- `results.json`: the normalised results this report is rendered from "
        "(`python -m conformance render reports` re-renders it).",
        "- `xfails.txt`: every failing test, for the suite's `--xfails-file`.",
        "- `skips.txt`: tests that hit the per-test timeout, for the suite's `--skips-file`.",
        "- `xfails-annotated.txt`: the same as `xfails.txt` for the suite's `--xfails-file`, grouped by test "
        "module and failure kind, each test with why it fails and a seed it failed under.",
        "",
    ]
    return "\n".join(lines).rstrip() + "\n"


def _ids_file(results: dict, what: str, ids_by_kind: dict, use: str) -> str:
    lib = results.get("library") or {}
    lines = [
        f"# {what} for array-api-tests with {results['module']} "
        f"({lib.get('library', '')} {lib.get('version', '')}), API version {results['api_version']}",
        f"# Generated by `python -m conformance {made_by(results)}`; use with: pytest {use} <this file>",
        f"# suite {results.get('suite_commit', 'unknown')[:7]}, max-examples "
        f"{results['hypothesis']['max_examples']}, {_seeds(results['hypothesis']).replace('=', ' ')}",
        "",
    ]
    for kind in sorted(ids_by_kind):
        lines += [f"# {kind}"] + sorted(ids_by_kind[kind]) + [""]
    return "\n".join(lines).rstrip() + "\n"


def xfails_text(results: dict) -> str:
    by_kind: dict[str, list[str]] = {}
    for e in results["tests"]:
        if e["outcome"] in FAILING and e.get("kind") != TIMEOUT:
            kind = (e.get("kind") or "unexpected exception") + (" (fails on some draws only)" if e.get("draws") else "")
            by_kind.setdefault(kind, []).append(e["nodeid"])
    return _ids_file(results, "xfails", by_kind, "--xfails-file")


def skips_text(results: dict) -> str:
    ids = [e["nodeid"] for e in results["tests"] if e.get("kind") == TIMEOUT]
    return _ids_file(
        results, "skips (tests that hang or exceed the per-test timeout)", {TIMEOUT: ids} if ids else {}, "--skips-file"
    )


INDEX_NAME = "README.md"


def render_index(all_results: list, ours: tuple = ()) -> str:
    """conformance/reports/README.md: every reported library side by side, after ``ours``
    (this package's results at the default API version, linked to DEVIATIONS.md)."""
    all_results = list(ours) + sorted(all_results, key=lambda r: library_name(r))
    cols = [f"{library_name(r)} ({r['api_version']})" for r in all_results]
    head = "| | " + " | ".join(cols) + " |"
    rule = "|---|" + "---:|" * len(cols)
    lines = [
        "# Array API conformance of array libraries, side by side",
        "",
        "<!-- Generated by `python -m conformance render reports`; do not edit. -->",
        "",
        "Each column is one report in this folder (`python -m conformance library MODULE`, or "
        "`storage dask` for `array_api_promo` itself over Dask), after `array_api_promo` itself under "
        "each policy (`conformance/results/`, DEVIATIONS.md). "
        "Cells of the module table: passed / failed (incl. errors) / skipped.",
        "",
        "| Report | API version | max examples | passed | failed | errors | skipped | total |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in all_results:
        s = r["summary"]
        link = f"{r['_folder']}/README.md" if r.get("_folder") else "../../DEVIATIONS.md"
        lines.append(
            f"| [{library_name(r)}]({link}) | {r['api_version']} | "
            f"{r['hypothesis']['max_examples']} | {s['passed']} | {s['failed']} | {s.get('error', 0)} | "
            f"{s['skipped']} | {s['total']} |"
        )
    lines += ["", "## Per test module", "", head, rule]
    for m in sorted({e["test_module"] for r in all_results for e in r["tests"]}):
        cells = []
        for r in all_results:
            es = [e for e in r["tests"] if e["test_module"] == m]
            cells.append(
                f"{_count(es, 'passed', 'xpassed')} / {_count(es, 'failed', 'error')} / "
                f"{_count(es, 'skipped', 'xfailed')}"
                if es
                else "–"
            )
        lines.append(f"| `{m}` | " + " | ".join(cells) + " |")
    lines += ["", "## Failures per kind", "", head, rule]
    counts = [Counter(e.get("kind") for e in r["tests"] if e["outcome"] in FAILING) for r in all_results]
    for k in KINDS:
        if any(c.get(k) for c in counts):
            lines.append(f"| {k} | " + " | ".join(str(c.get(k, 0)) for c in counts) + " |")
    return "\n".join(lines).rstrip() + "\n"
