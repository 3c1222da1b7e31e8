"""The report model every conformance report is built on (DEVIATIONS.md, a library's report, a
report of the namespace over another storage): failures grouped by kind and spec function (wrong
dtypes by the policy rule that explains them), each group's section (what the standard says, what
the namespace does, the ``explain`` trace, a reproducer and the tests it covers), and the small
words every report and the command's closing lines share (seeds, tools, run lines).

Called by ``render`` (DEVIATIONS.md), ``library_report`` (a library's report) and ``publish``
(the lines a job prints); it reads results and writes nothing.
"""

from __future__ import annotations

import re

from . import DRAWS_PLUGIN, reproduce
from .normalize import (
    MISSING_NAME,
    SPECIAL_CASE,
    UNEXPECTED_EXCEPTION,
    WRONG_DTYPE,
    WRONG_SIGNATURE,
    elementwise_name,
)
from .spec import quote

MAX_MESSAGES = 3


def policy_order(names) -> list:
    first = [n for n in ("array_api", "torch") if n in names]
    return first + sorted(n for n in set(names) if n not in first)


def sorted_results(results: list) -> list:
    order = {n: i for i, n in enumerate(policy_order([r["policy"] for r in results]))}
    return sorted(results, key=lambda r: (order[r["policy"]], r["api_version"]))


def short(commit: str) -> str:
    return commit[:7] if commit and commit != "unknown" else "unknown"


def uniq(values) -> list:
    return sorted({v for v in values if v is not None}, key=str)


TOOL_NAMES = {"hypothesis": "Hypothesis", "pytest": "pytest", "pytest-xdist": "pytest-xdist"}


def tools_line(results: list) -> str:
    """``Hypothesis 6.170.17, pytest 9.2.0, pytest-xdist 3.8.0`` (several sets, ``;``-separated), and
    what made results that did not record them."""
    sets = uniq(
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


def dtype_category(entry: dict) -> str:
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
        return (kind, "cat:" + dtype_category(entry))
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
            return (kind, "refused:" + generic_refusal(m.group(1)))
    if name.startswith("array.") and name[6:].startswith("__"):
        name = name[6:]
    base = elementwise_name(name)
    return (kind, base)


def generic_refusal(text: str) -> str:
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


# ---------------------------------------------------------------------------
# a group's section
# ---------------------------------------------------------------------------
def spec_text(group: Group) -> list:
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
    cases = uniq(e.get("spec_case") for _, e in group.items)
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
def group_reproducer(group: Group) -> str | None:
    return reproduce_group(group)[0]


def reproduce_group(group: Group) -> tuple[str | None, dict | None]:
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


def suite_command(group: Group) -> str:
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


def seed_ranges(seeds) -> list:
    """Seeds as written on a command line: a run of three or more consecutive ones as ``A-B``."""
    out: list = []
    for s in seeds:
        if out and isinstance(out[-1], list) and s == out[-1][1] + 1:
            out[-1][1] = s
        else:
            out.append([s, s])
    words = []
    for a, b in out:
        words += [f"{a}-{b}"] if b - a >= 2 else [str(x) for x in range(a, b + 1)]
    return words


def draws_tag(entry: dict) -> str:
    d = entry["draws"]
    return f"fails on {d['failed']} of {d['of']} draws (seeds {', '.join(map(str, d['seeds']))})"


def group_section(n: int, group: Group, reproducer_output: dict) -> list:
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
        lines += spec_text(group)
    lines += ["**What this namespace does**", ""]
    for p, v in runs:
        msgs = uniq(e.get("message") for r, e in group.items if r["policy"] == p and r["api_version"] == v)
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
    code, reproduced = reproduce_group(group)
    traces = uniq((e.get("attribution") or {}).get("trace") for _, e in group.items)
    trace = ((reproduced or {}).get("attribution") or {}).get("trace") or (traces[0] if traces else None)
    headings = uniq((e.get("attribution") or {}).get("heading") for _, e in group.items)
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
        examples = uniq(e.get("example") for _, e in group.items)
        lines += [
            "No standalone snippet could be derived; re-run the upstream test:",
            "",
            "```bash",
            suite_command(group),
            "```",
            "",
        ]
        if examples:
            lines += ["Falsifying example reported by Hypothesis:", "", "```text", examples[0], "```", ""]
    lines += [f"<details><summary>Upstream tests covered ({len(ids)})</summary>", ""]
    for nid in ids:
        tags = sorted({f"{r['policy']} {r['api_version']}" for r, e in group.items if e["nodeid"] == nid})
        tags += sorted({draws_tag(e) for _, e in group.items if e["nodeid"] == nid and e.get("draws")})
        lines.append(f"- `{nid}` ({', '.join(tags)})")
    lines += ["", "</details>", ""]
    return lines


def run_line(title: str, results: dict, where, *, elapsed: float | None = None, note: str = "") -> str:
    """The line a job prints for each result it made: ``torch @ 2025.12: 1307 passed, 72 failed, 0 errors,
    5 skipped [over seeds 0-3 (2 failing on some draws only)] [in 112 s] -> path``."""
    s = results["summary"]
    seeds = results["hypothesis"].get("seeds") or []
    flaky = sum(1 for e in results["tests"] if e.get("draws"))
    return (
        f"{title}: {s['passed']} passed, {s['failed']} failed, {s.get('error', 0)} errors, {s['skipped']} skipped"
        + (
            f" over seeds {', '.join(seed_ranges(seeds))} ({flaky} failing on some draws only)"
            if len(seeds) > 1
            else ""
        )
        + (f" in {elapsed:.0f} s" if elapsed is not None else "")
        + f" -> {where}"
        + (f"  {note}" if note else "")
    )
