"""``diff A B``: two reports or results files compared test by test (two versions of a library,
two suite commits, two policies): the tests fixed in B, newly failing in B, failing in both but of
another kind or with another message, and those only one of them ran; as text or Markdown.

A and B are each a report folder (``conformance/reports/torch-2.13``), its ``results.json``, or one
of our results files (``conformance/results/torch-2025.12.json``). The draws of the two need not be
the same: the header states each one's examples and seeds, since a test failing on some draws only
may differ by draw alone.
"""

from __future__ import annotations

from pathlib import Path

from .. import library, normalize, plan
from ..report import seed_ranges

HELP = "two reports or results compared, test by test"
DESCRIPTION = __doc__.split("\n\n")[0].replace("``", "`")

#: The sections of a diff, in order: (key, heading).
SECTIONS = (
    ("fixed", "Fixed in B (failing in A, passing in B)"),
    ("new", "Newly failing in B (passing in A, failing in B)"),
    ("kind", "Failing in both, of another kind"),
    ("message", "Failing in both, the same kind, another message"),
    ("only_a", "Run in A only"),
    ("only_b", "Run in B only"),
)


def add_arguments(p) -> None:
    p.add_argument("a", type=Path, metavar="A", help="a report folder, its results.json, or a results file")
    p.add_argument("b", type=Path, metavar="B", help="the same for the other side")
    p.add_argument("--format", choices=("text", "markdown"), default="text", help="output format (default text)")
    p.add_argument("--output", type=Path, metavar="PATH", help="write the diff there (default: stdout)")


def load(path: Path, flag: str) -> dict:
    """The results of a report folder or a results file; a UsageError naming the argument otherwise."""
    p = Path(path)
    file = p / library.RESULTS_NAME if p.is_dir() else p
    if not file.is_file():
        raise plan.UsageError(f"diff {flag} {path}: no such report folder or results file")
    try:
        r = normalize.load(file)
        r["tests"], r["hypothesis"]  # noqa: B018 (what a results file has)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise plan.UsageError(f"diff {flag} {path}: not a report's or a run's results ({type(exc).__name__})") from None
    return r


def describe(r: dict) -> str:
    """``torch 2.13.0+cpu (array_api_compat.torch), suite 55fcc60, API 2025.12, 10 examples, seeds 0-3``."""
    lib = r.get("library") or {}
    who = (
        f"{lib.get('library', r.get('module'))} {lib.get('version', '')}".strip() + f" ({r.get('module')})"
        if lib
        else f"array_api_promo under policy {r['policy']} ({r.get('module')})"
    )
    h = r["hypothesis"]
    seeds = seed_ranges(h.get("seeds") or [h["seed"]])
    return (
        f"{who}, suite {str(r.get('suite_commit', 'unknown'))[:7]}, API {r['api_version']}, "
        f"{h['max_examples']} examples, seed{'s' if len(seeds) > 1 or '-' in seeds[0] else ''} {', '.join(seeds)}"
    )


def compare(a: dict, b: dict) -> dict:
    """{section: [(nodeid, A's (outcome, kind, message), B's)]} for every section of ``SECTIONS``."""
    ta = {e["nodeid"]: e for e in a["tests"]}
    tb = {e["nodeid"]: e for e in b["tests"]}
    out: dict = {key: [] for key, _ in SECTIONS}
    for nodeid in sorted(set(ta) | set(tb)):
        ea, eb = ta.get(nodeid), tb.get(nodeid)
        if ea is None:
            out["only_b"].append((nodeid, None, eb))
            continue
        if eb is None:
            out["only_a"].append((nodeid, ea, None))
            continue
        fa, fb = ea["outcome"] in normalize.FAILING, eb["outcome"] in normalize.FAILING
        if fa and not fb:
            out["fixed"].append((nodeid, ea, eb))
        elif fb and not fa:
            out["new"].append((nodeid, ea, eb))
        elif fa and fb and ea.get("kind") != eb.get("kind"):
            out["kind"].append((nodeid, ea, eb))
        elif fa and fb and _first_line(ea) != _first_line(eb):
            out["message"].append((nodeid, ea, eb))
    return out


def _draws_note(a: dict, b: dict) -> list:
    """A's and B's draws differ: say what that means for the tests failing on some draws only."""
    ha, hb = a["hypothesis"], b["hypothesis"]
    if (ha["max_examples"], ha.get("seeds") or [ha["seed"]]) == (hb["max_examples"], hb.get("seeds") or [hb["seed"]]):
        return []
    return [
        "A and B were drawn with other examples or seeds: a test that fails on some draws only (marked *on N "
        "of M draws*) may be listed for its draws alone, not for a change of the library.",
        "",
    ]


def _first_line(e: dict | None) -> str:
    return ((e or {}).get("message") or "").strip().split("\n")[0] if e else ""


def _side(e: dict | None) -> str:
    if e is None:
        return "not run"
    if e["outcome"] not in normalize.FAILING:
        return e["outcome"]
    draws = e.get("draws")
    return f"{e.get('kind')}" + (f" (on {draws['failed']} of {draws['of']} draws)" if draws else "")


def render(a: dict, b: dict, *, names=("A", "B"), markdown: bool = False) -> str:
    """The diff as text or Markdown (the same for the same two inputs)."""
    sections = compare(a, b)
    counts = {key: len(rows) for key, rows in sections.items()}
    fa = sum(e["outcome"] in normalize.FAILING for e in a["tests"])
    fb = sum(e["outcome"] in normalize.FAILING for e in b["tests"])
    lines = []
    if markdown:
        lines += [
            f"# Conformance diff: {names[0]} → {names[1]}",
            "",
            "<!-- Generated by `python -m conformance diff A B --format markdown`; do not edit. -->",
            "",
            f"- **A**: {describe(a)}: {fa} failing of {len(a['tests'])}",
            f"- **B**: {describe(b)}: {fb} failing of {len(b['tests'])}",
            "",
            *(_draws_note(a, b)),
            "| | tests |",
            "|---|---:|",
        ]
        lines += [f"| {heading} | {counts[key]} |" for key, heading in SECTIONS]
        lines.append("")
        for key, heading in SECTIONS:
            rows = sections[key]
            if not rows:
                continue
            lines += [f"## {heading} ({len(rows)})", "", "| Test | A | B |", "|---|---|---|"]
            for nodeid, ea, eb in rows:
                lines.append(f"| `{nodeid.replace('array_api_tests/', '')}` | {_cell(ea)} | {_cell(eb)} |")
            lines.append("")
    else:
        lines += [
            f"A: {describe(a)}: {fa} failing of {len(a['tests'])}",
            f"B: {describe(b)}: {fb} failing of {len(b['tests'])}",
            "",
        ]
        lines += [f"{heading}: {counts[key]}" for key, heading in SECTIONS]
        for key, heading in SECTIONS:
            rows = sections[key]
            if not rows:
                continue
            lines += ["", f"{heading}:"]
            for nodeid, ea, eb in rows:
                lines.append(f"  {nodeid}")
                lines.append(f"    A: {_side(ea)}{_message(ea)}")
                lines.append(f"    B: {_side(eb)}{_message(eb)}")
    return "\n".join(lines).rstrip() + "\n"


def _message(e: dict | None) -> str:
    m = _first_line(e)
    if not m or e is None or e["outcome"] not in normalize.FAILING:
        return ""
    return ": " + (m if len(m) <= 140 else m[:139] + "…")


def _cell(e: dict | None) -> str:
    text = _side(e) + _message(e)
    return text.replace("|", "/").replace("`", "'")


def main(args, console, cloner) -> int:
    a, b = load(args.a, "A"), load(args.b, "B")
    plan.check_creatable(args.output, "--output", folder=False)
    names = tuple(p.name if p.name != library.RESULTS_NAME else p.parent.name for p in (args.a, args.b))
    text = render(a, b, names=names, markdown=args.format == "markdown")
    if args.output is None:
        print(text, end="")
    else:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
        console.print(f"wrote {args.output}", highlight=False)
    return 0
