"""Rendering DEVIATIONS.md from the normalised results (deterministically:
the same results, namespace and engine give the same bytes)."""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from . import DEFAULT_API_VERSION, DRAWS_PLUGIN, INTENTIONAL_POLICIES, reproduce
from .normalize import (
    FAILING,
    KINDS,
    MISSING_NAME,
    SPECIAL_CASE,
    UNEXPECTED_EXCEPTION,
    WRONG_DTYPE,
    WRONG_SIGNATURE,
    elementwise_name,
)
from .spec import quote

MAX_MESSAGES = 3
MAX_IDS_INLINE = 0  # test ids always go into a <details> block

TITLE = "Array API conformance of `array_api_promo`: deviations"


def policy_order(names) -> list:
    first = [n for n in ("array_api", "torch") if n in names]
    return first + sorted(n for n in set(names) if n not in first)


def _sorted_results(results: list) -> list:
    order = {n: i for i, n in enumerate(policy_order([r["policy"] for r in results]))}
    return sorted(results, key=lambda r: (order[r["policy"]], r["api_version"]))


def _short(commit: str) -> str:
    return commit[:7] if commit and commit != "unknown" else "unknown"


def _uniq(values) -> list:
    return sorted({v for v in values if v is not None}, key=str)


TOOL_NAMES = {"hypothesis": "Hypothesis", "pytest": "pytest", "pytest-xdist": "pytest-xdist"}


def tools_line(results: list) -> str:
    """``Hypothesis 6.170.17, pytest 9.2.0, pytest-xdist 3.8.0`` (several sets, ``;``-separated), and
    what made results that did not record them."""
    sets = _uniq(
        ", ".join(f"{TOOL_NAMES.get(k, k)} {v}" for k, v in sorted(r["tools"].items()))
        for r in results
        if r.get("tools")
    )
    unrecorded = [r for r in results if not r.get("tools")]
    if unrecorded:
        which = (
            ""
            if len(unrecorded) == len(results)
            else " for " + ", ".join(f"`{r['policy']}` {r['api_version']}" for r in unrecorded)
        )
        sets.append(f"not recorded{which} (made before the harness recorded them)")
    speed = [r for r in results if r.get("speed_plugin") is False]
    text = "; ".join(sets)
    if speed:
        text += "; without the speed plugin (`--no-speed-plugin`)"
    return text


# ---------------------------------------------------------------------------
# grouping
# ---------------------------------------------------------------------------
class Group:
    def __init__(self, key, kind, title):
        self.key = key
        self.kind = kind
        self.title = title
        self.items = []  # (result, entry)

    @property
    def policies(self):
        return policy_order({r["policy"] for r, _ in self.items})

    def items_pv(self):
        return {(r["policy"], r["api_version"]) for r, _ in self.items}


def _dtype_category(entry: dict) -> str:
    d = entry.get("dtype") or {}
    ins = d.get("inputs") or []
    ranks = set((d.get("ranks") or {}).values())
    if (
        any(i in ("bool", "int", "float", "complex") for i in ins)
        or "(x, s)" in entry["nodeid"]
        or "with_scalars" in entry["nodeid"]
    ):
        return "Python scalar operands"
    if "0-d" in ranks:
        return "0-d array operands"
    kinds = {("bool" if i == "bool" else "int" if "int" in i else "float") for i in ins}
    if len(kinds) > 1:
        return "mixed-kind operands"
    if len(ins) == 1:
        return f"result dtype of {elementwise_name(d.get('function', '?'))}"
    return "same-kind operands"


def group_key(entry: dict):
    kind = entry.get("kind") or "unexpected exception"
    if kind == WRONG_DTYPE:
        attr = entry.get("attribution") or {}
        if attr.get("rule"):
            return (kind, "rule:" + attr["rule"])
        return (kind, "cat:" + _dtype_category(entry))
    name = entry["spec_function"]
    if kind == MISSING_NAME:
        if name.startswith(("linalg.", "fft.")):
            return (kind, name.split(".")[0] + " extension")
        if name.startswith("array."):
            return (kind, "array object")
        return (kind, "namespace")
    if kind == UNEXPECTED_EXCEPTION:
        m = re.search(r"PromotionError: (?:[\w.]+: )?([^\n]*)", entry.get("message", ""))
        if m:
            return (kind, "refused:" + _generic(m.group(1)))
    if name.startswith("array.") and name[6:].startswith("__"):
        name = name[6:]
    base = elementwise_name(name)
    return (kind, base)


_DTYPE_WORD = re.compile(
    r"\b(bool|u?int(8|16|32|64)|float(16|32|64)|bfloat16|complex(64|128)|"
    r"Byte|Char|Short|Int|Long|UInt16|UInt32|UInt64|Half|BFloat16|Float|Double|"
    r"ComplexFloat|ComplexDouble|Bool)\b"
)


def _generic(text: str) -> str:
    text = re.sub(r"\(policy '[^']*'\)", "", text)
    text = re.sub(r"attempted to promote \w+ and \w+", "attempted to promote T and T", text)
    text = re.sub(r"(0-d )?\b(bool|u?int\d+|float\d+|bfloat16|complex\d+) array\b", "T array", text)
    return re.sub(r"\s+", " ", text).strip().rstrip(".")


# Section headings in words for the rules that policies' ``explain`` names (the generic rule
# text, dtypes as T, is the key; a rule not listed here is shown as the engine words it).
RULE_HEADINGS = {
    "rule:accumulation dtype of sum/prod-like reductions": (
        "Sums and products of integers accumulate in int64, unsigned integers too"
    ),
    "rule:combine n-d T with 0-d/wrapped T: 0-d/wrapped is not of a higher category: n-d wins": (
        "A 0-d array or Python scalar of the same or a lower category leaves an n-d array's dtype as it is"
    ),
    "rule:combine n-d T with 0-d/wrapped T: n-d is complex: it wins": (
        "A complex n-d array keeps its dtype against any 0-d array or Python scalar"
    ),
    "rule:combine n-d T with 0-d/wrapped T: n-d is floating: it wins": (
        "A floating-point n-d array keeps its dtype against an integer or floating 0-d array or scalar"
    ),
    "refused:Promotion for uint16, uint32, uint64 types is not supported, attempted to promote T and T": (
        "uint16, uint32 and uint64 do not promote with other integer dtypes (refused)"
    ),
    "refused:torch does not support T array (complex floating-point input)": (
        "Functions that torch does not support for complex input (refused)"
    ),
    "refused:torch does not support uint8 input (integer)": "Functions that torch does not support for uint8 input (refused)",
}


def group_title(key) -> str:
    kind, what = key
    if what in RULE_HEADINGS:
        return RULE_HEADINGS[what]
    if kind == MISSING_NAME:
        return f"Missing names: {what}"
    if what.startswith("refused:"):
        return f"Promotion refused: {what[8:]}"
    if kind == WRONG_DTYPE:
        if what.startswith("rule:"):
            return f"Type promotion: {what[5:]}"
        return f"Type promotion: {what[4:]}"
    return f"`{what}`: {kind}"


def policy_explained(entry: dict) -> bool:
    """Is this failure the policy's doing (a dtype its rules give, or a promotion it refuses)?"""
    if (entry.get("attribution") or {}).get("explained"):
        return True
    return group_key(entry)[1].startswith("refused:")


def build_groups(results: list):
    """-> (intentional groups, defect groups), each an ordered list."""
    failing_default = set()  # (version, nodeid) failing under a non-intentional policy
    for r in results:
        if r["policy"] not in INTENTIONAL_POLICIES:
            for e in r["tests"]:
                if e["outcome"] in FAILING:
                    failing_default.add((r["api_version"], e["nodeid"]))
    parts: dict[str, OrderedDict] = {"intentional": OrderedDict(), "defect": OrderedDict()}
    for r in _sorted_results(results):
        for e in r["tests"]:
            if e["outcome"] not in FAILING:
                continue
            intentional = (
                r["policy"] in INTENTIONAL_POLICIES
                and (r["api_version"], e["nodeid"]) not in failing_default
                and policy_explained(e)
            )
            part = parts["intentional" if intentional else "defect"]
            key = group_key(e)
            if key not in part:
                part[key] = Group(key, key[0], group_title(key))
            part[key].items.append((r, e))
    kind_order = {k: i for i, k in enumerate(KINDS)}

    def order(groups):
        return sorted(groups.values(), key=lambda g: (kind_order.get(g.kind, 99), g.title))

    return order(parts["intentional"]), order(parts["defect"])


# ---------------------------------------------------------------------------
# spec text for a group
# ---------------------------------------------------------------------------
def _spec_text(group: Group) -> list:
    r0, e0 = group.items[0]
    spec = r0.get("spec_text") or {}
    lines = []
    if group.kind == WRONG_DTYPE and "accumulation" not in group.key[1]:
        ranks = set()
        for _, e in group.items:
            d = e.get("dtype") or {}
            ranks |= {o["rank"] for o in (d.get("call") or {}).get("operands", [])}
            ranks |= set((d.get("ranks") or {}).values())
            if "(x, s)" in e["nodeid"] or "with_scalars" in e["nodeid"]:
                ranks.add("scalar")
        sections = []
        if "scalar" in ranks:
            sections.append("type_promotion:Mixing arrays with Python scalars")
        if "0-d" in ranks:
            sections.append("type_promotion:Notes")
        if not sections:
            sections.append("type_promotion:Rules")
        for s in sections:
            if spec.get(s):
                lines += [f"From *{s.split(':', 1)[1]}* (`type_promotion.rst`):", "", quote(spec[s]), ""]
    fn = e0["spec_function"]
    text = spec.get(fn)
    if text:
        lines += [f"`{fn}` (spec stubs, {r0['api_version']}):", "", quote(text), ""]
    cases = _uniq(e.get("spec_case") for _, e in group.items)
    if group.kind == SPECIAL_CASE and cases:
        lines += ["Special cases exercised:", ""]
        lines += [f"- {c}" for c in cases[:12]]
        if len(cases) > 12:
            lines.append(f"- … and {len(cases) - 12} more")
        lines.append("")
    if not lines:
        lines = ["_No spec text was recorded for this function._", ""]
    return lines


# ---------------------------------------------------------------------------
# reproducers
# ---------------------------------------------------------------------------
def _reproducer(group: Group) -> str | None:
    return _reproduce(group)[0]


def _reproduce(group: Group) -> tuple[str | None, dict | None]:
    """A runnable snippet for the group and the failure it reproduces (whose ``explain``
    trace the section shows beside it, so that example and explanation are one call)."""
    code: str | None
    if group.kind == MISSING_NAME:
        r = group.items[0][0]
        code = reproduce.missing_names_snippet(
            r.get("module", "array_api_promo"),
            sorted({e["spec_function"] for _, e in group.items}),
            r.get("namespace_env"),
        )
        return code, group.items[0][1]
    for r, e in sorted(group.items, key=lambda re_: (len(re_[1].get("failing_code") or "z" * 9999), re_[1]["nodeid"])):
        module, env = r.get("module", "array_api_promo"), r.get("namespace_env")
        if group.kind != WRONG_SIGNATURE and e.get("failing_code"):
            code = reproduce.failing_code_snippet(module, e["failing_code"], env)
            if code:
                return code, e
    for r, e in group.items:
        module, env = r.get("module", "array_api_promo"), r.get("namespace_env")
        if group.kind == WRONG_DTYPE and e.get("dtype"):
            code = reproduce.dtype_snippet(module, e["dtype"], e["nodeid"], env)
        elif group.kind == MISSING_NAME:
            code = reproduce.missing_name_snippet(module, e["spec_function"], env)
        elif group.kind == WRONG_SIGNATURE:
            code = reproduce.signature_snippet(module, e["spec_function"], env)
        else:
            code = reproduce.value_snippet(module, e, env)
        if code:
            return code, e
    return None, None


def _suite_command(group: Group) -> str:
    r, e = group.items[0]
    env = " ".join(f"{k}={v}" for k, v in sorted((r.get("namespace_env") or {}).items()))
    env = (env + " " if env else "") + (
        f"ARRAY_API_TESTS_MODULE={r.get('module')} ARRAY_API_TESTS_VERSION={r['api_version']}"
    )
    h = r.get("hypothesis") or {}
    seed = (e.get("draws") or {}).get("seeds", [h.get("seed")])[0]  # a seed it failed under
    return (
        f"{env} pytest '{e['nodeid']}' --max-examples {h.get('max_examples')} "
        f"--hypothesis-seed {seed} -p {DRAWS_PLUGIN} --disable-deadline   # from the suite checkout"
    )


# ---------------------------------------------------------------------------
# document
# ---------------------------------------------------------------------------
def _header(results: list) -> list:
    r = results
    suites = _uniq(x.get("suite_commit") for x in r)
    specs = _uniq(x.get("spec_commit") for x in r)
    nps = _uniq(x.get("numpy") for x in r)
    sources = _uniq(
        f"{x['package']['package_version']} (source hash `{x['package']['source_sha256'][:12]}`)"
        for x in r
        if x.get("package")
    )
    pys = _uniq(x.get("python") for x in r)
    hyp = _uniq(
        f"max_examples={x['hypothesis']['max_examples']}, seed={x['hypothesis']['seed']}"
        + ("" if x["hypothesis"].get("shrink", True) else ", no shrinking")
        for x in r
    )
    return (
        [
            f"# {TITLE}",
            "",
            "<!-- Generated by `python -m conformance` from conformance/results/*.json; do not edit. -->",
            "",
            "This documents every deviation from the Python array API standard that the upstream "
            "test suite (`array-api-tests`) finds in `array_api_promo`, per promotion policy and "
            "API version, followed by a comparison of each policy's promotion rules with the "
            "standard's tables.",
            "",
            f"- array-api-tests commit: {', '.join('`' + _short(c) + '`' for c in suites)}",
            f"- Array API specification commit: {', '.join('`' + _short(c) + '`' for c in specs)}",
            f"- NumPy {', '.join(nps)}; Python {', '.join(pys)}",
            f"- Produced by array_api_promo {', '.join(sources) or 'unknown'}",
            f"- Hypothesis: {'; '.join(hyp)}",
            f"- Tools: {tools_line(r)}",
        ]
        + [
            f"- Partial run of `{x['policy']}` {x['api_version']}: extra pytest arguments "
            f"`{' '.join(x['pytest_args'])}`"
            for x in r
            if x.get("pytest_args")
        ]
        + [
            f"- **Incomplete run** of `{x['policy']}` {x['api_version']}: {'; '.join(x['incomplete'])}. "
            "Its counts below are not the whole suite's."
            for x in r
            if x.get("incomplete")
        ]
        + [
            "",
        ]
    )


def _module_display(r: dict) -> str:
    module = r.get("module", "")
    env = r.get("namespace_env") or {}
    if env:
        return f"`{module}` (" + ", ".join(f"`{k}={env[k]}`" for k in sorted(env)) + ")"
    return f"`{module}`"


def _summary(results: list) -> list:
    lines = [
        "## Summary",
        "",
        "| Policy | Module | API version | passed | failed | errors | skipped | total |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        s = r["summary"]
        lines.append(
            f"| `{r['policy']}` | {_module_display(r)} | {r['api_version']} | {s['passed']} | "
            f"{s['failed']} | {s.get('error', 0)} | {s['skipped']} | {s['total']} |"
        )
    lines += ["", *_not_run(results)]
    lines += ["### Per test module", "", "Each cell: passed / failed (incl. errors) / skipped.", ""]
    cols = [f"`{r['policy']}` {r['api_version']}" for r in results]
    lines.append("| Test module | " + " | ".join(cols) + " |")
    lines.append("|---|" + "---|" * len(cols))
    modules = sorted({e["test_module"] for r in results for e in r["tests"]})
    for m in modules:
        cells = []
        for r in results:
            es = [e for e in r["tests"] if e["test_module"] == m]
            p = sum(e["outcome"] in ("passed", "xpassed") for e in es)
            f = sum(e["outcome"] in FAILING for e in es)
            s = sum(e["outcome"] in ("skipped", "xfailed") for e in es)
            cells.append(f"{p} / {f} / {s}" if es else "–")
        lines.append(f"| `{m}` | " + " | ".join(cells) + " |")
    lines.append("")
    return lines


def _not_run(results: list) -> list:
    """The registered policies these results leave out: those the suite can run, and those whose
    namespace it cannot even import (``suite.import_blockers``)."""
    from array_api_promo import promotion

    from .suite import namespace_blockers

    done = {r["policy"] for r in results}
    runnable, blocked = [], []
    for name in promotion.available_policies():
        if name in done:
            continue
        missing = namespace_blockers(name, DEFAULT_API_VERSION)
        if missing:
            blocked.append(f"`{name}` (no {' and no '.join(missing)})")
        else:
            runnable.append(f"`{name}`")
    sentences = []
    if runnable:
        sentences.append(f"Not run here: {', '.join(runnable)} (`python -m conformance --policy NAME` runs one).")
    if blocked:
        sentences.append(
            f"Not runnable: {', '.join(blocked)}: the pinned suite cannot be imported against a namespace "
            "without float64 and a complex dtype (its dtype_helpers.py reads them on import)."
        )
    if not sentences:
        return []
    return [" ".join(sentences) + " Part 3 compares every policy's rules with the standard.", ""]


def _draws_tag(entry: dict) -> str:
    d = entry["draws"]
    return f"fails on {d['failed']} of {d['of']} draws (seeds {', '.join(map(str, d['seeds']))})"


def _group_section(n: int, group: Group, reproducer_output: dict) -> list:
    runs = sorted(
        {(r["policy"], r["api_version"]) for r, _ in group.items},
        key=lambda pv: (policy_order([p for p, _ in group.items_pv()]).index(pv[0]), pv[1]),
    )
    where = ", ".join(f"`{p}` ({v})" for p, v in runs)
    ids = sorted({e["nodeid"] for _, e in group.items})
    some_draws = len({e["nodeid"] for _, e in group.items if e.get("draws")})
    lines = [
        f"### {n}. {group.title}",
        "",
        f"Failure kind: **{group.kind}** · under {where} · {len(ids)} upstream test(s)"
        + (f", {some_draws} of them failing on some draws only" if some_draws else ""),
        "",
        "**What the standard stipulates**",
        "",
    ]
    if group.kind == MISSING_NAME:
        names = sorted({e["spec_function"] for _, e in group.items})
        lines += ["The standard specifies these names, which the namespace does not provide:", ""]
        lines += [f"- `{n}`" for n in names] + [""]
    else:
        lines += _spec_text(group)
    lines += ["**What this namespace does**", ""]
    for p, v in runs:
        msgs = _uniq(e.get("message") for r, e in group.items if r["policy"] == p and r["api_version"] == v)
        lines.append(f"Under `{p}` ({v}):")
        lines.append("")
        lines.append("```text")
        shown = msgs[:MAX_MESSAGES]
        for m in shown:
            lines.append(m)
        if len(msgs) > len(shown):
            lines.append(f"… and {len(msgs) - len(shown)} more distinct message(s)")
        lines.append("```")
        lines.append("")
    code, reproduced = _reproduce(group)
    traces = _uniq((e.get("attribution") or {}).get("trace") for _, e in group.items)
    trace = ((reproduced or {}).get("attribution") or {}).get("trace") or (traces[0] if traces else None)
    headings = _uniq((e.get("attribution") or {}).get("heading") for _, e in group.items)
    if trace:
        heading = headings[0] if headings else "Which policy rule (engine `explain`)"
        lines += [f"**{heading}**", "", "```text", trace, "```", ""]
    lines += ["**Reproducer**", ""]
    if code:
        lines += [
            "```python",
            code,
            "```",
            "",
            "Output:",
            "",
            "```text",
            reproducer_output.get(code, "").rstrip() or "(no output)",
            "```",
            "",
        ]
    else:
        examples = _uniq(e.get("example") for _, e in group.items)
        lines += [
            "No standalone snippet could be derived; re-run the upstream test:",
            "",
            "```bash",
            _suite_command(group),
            "```",
            "",
        ]
        if examples:
            lines += ["Falsifying example reported by Hypothesis:", "", "```text", examples[0], "```", ""]
    lines += [f"<details><summary>Upstream tests covered ({len(ids)})</summary>", ""]
    for nid in ids:
        tags = sorted({f"{r['policy']} {r['api_version']}" for r, e in group.items if e["nodeid"] == nid})
        tags += sorted({_draws_tag(e) for _, e in group.items if e["nodeid"] == nid and e.get("draws")})
        lines.append(f"- `{nid}` ({', '.join(tags)})")
    lines += ["", "</details>", ""]
    return lines


KERNELS_NOTE = (
    "A policy describes promotion and the conversion of Python scalars, not kernels: where torch 2.13 "
    "simply lacks a kernel (no CPU `add` for uint16/uint32/uint64, no `div` for complex32), the `torch` "
    "policy gives the dtype torch's promotion gives and computes it (NumPy has the kernel); that is "
    "not in scope and not listed as a deviation."
)


def render(results: list, *, execute: Callable = reproduce.execute, engine_part: Callable | None = None) -> str:
    """The full DEVIATIONS.md text for ``results``."""
    if engine_part is None:
        from .engine_table import render_engine_part

        engine_part = render_engine_part
    results = _sorted_results(results)
    intentional, defects = build_groups(results)
    codes = []
    for g in intentional + defects:
        c = _reproducer(g)
        if c and c not in codes:
            codes.append(c)
    outputs = dict(zip(codes, execute(codes))) if codes else {}

    lines = _header(results) if results else [f"# {TITLE}", "", "_No results yet._", ""]
    if results:
        lines += _summary(results)
    lines += [
        "## Part 1: Intentional policy deviations",
        "",
        "Failures under policies that deliberately differ from the standard "
        f"({', '.join('`' + p + '`' for p in sorted(INTENTIONAL_POLICIES))}) that the policy's "
        "own rules explain (a result dtype its engine gives, or a promotion it refuses), "
        "grouped by rule. Anything else, and any test that also fails under the standard "
        "policy, is listed as a defect.",
        "",
    ]
    if not intentional:
        lines += ["_None._", ""]
    for i, g in enumerate(intentional, 1):
        lines += _group_section(i, g, outputs)
    lines += [
        "## Part 2: Defects",
        "",
        "Failures under the standard policy (`array_api`), and under any policy where they are "
        "not explained by an intentional deviation. This part must be empty.",
        "",
    ]
    if not defects:
        lines += [
            "_None: no upstream test fails under the standard policy, and every failure "
            "under an intentional policy is explained by its rules._",
            "",
        ]
    for i, g in enumerate(defects, 1):
        lines += _group_section(i, g, outputs)
    lines += ["## Part 3: Promotion rules compared with the standard", "", KERNELS_NOTE, ""]
    lines += engine_part()
    text = "\n".join(lines).rstrip() + "\n"
    return text


def write(results: list, path: Path, **kw) -> str:
    text = render(results, **kw)
    Path(path).write_text(text, encoding="utf-8")
    return text
