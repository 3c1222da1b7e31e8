"""Cross-checking a policy against its real library, test by test: the failures
``array_api_promo`` shows under a policy (``conformance/results/<policy>-*.json``)
against the failures the real library shows (a ``--library`` report), with the
reason for every disagreement.

The comparison is snapshotted into the library's results.json (``cross_check``),
so the report re-renders without either run being repeated."""

from __future__ import annotations

import re

from . import reproduce
from .normalize import (
    FAILING,
    MISSING_NAME,
    SPECIAL_CASE,
    TIMEOUT,
    UNEXPECTED_EXCEPTION,
    WRONG_DTYPE,
    WRONG_VALUE,
    elementwise_name,
    spec_function,
)

_NOT_IMPORTABLE = re.compile(r"(ModuleNotFoundError|ImportError)\b")
_REFUSED = re.compile(r"PromotionError: (?:[\w.]+: )?([^\n]*)")
NO_KERNEL = re.compile(r"not implemented for '(\w+)'|not supported for (\w+)")


def _side(e: dict | None) -> dict | None:
    """What the comparison keeps of one side's test entry (failing ones only)."""
    if e is None or e["outcome"] not in FAILING:
        return None
    out = {"kind": e.get("kind"), "message": (e.get("message") or "").splitlines()[0][:200]}
    if (e.get("dtype") or {}).get("got"):
        out["got"] = e["dtype"]["got"]
    attr = e.get("attribution")
    if attr:
        out["rule"] = attr.get("rule")
        out["predicted"] = bool(attr.get("explained"))
    return out


class ReplayUnavailable(RuntimeError):
    """The real library cannot be imported here: no failing call of ours can be replayed on it."""


def replay_snippet(module: str, code: str):
    """Our failing call, run against the real library: its result's dtype, or its error."""
    snippet = reproduce.failing_code_snippet(module, code)
    if snippet is None:
        return None
    return snippet.replace("print(repr(out))", "print(getattr(out, 'dtype', out))")


def snapshot(ours: dict, theirs: dict, execute=None) -> dict:
    """The cross-check data to store in the library's results (``theirs``). Each failing call
    of ours that the library passed is replayed against the library (``execute``)."""
    ours_by_id = {e["nodeid"]: e for e in ours["tests"]}
    theirs_by_id = {e["nodeid"]: e for e in theirs["tests"]}
    rows = {}
    for nid in sorted(set(ours_by_id) | set(theirs_by_id)):
        o, t = ours_by_id.get(nid), theirs_by_id.get(nid)
        if _side(o) is None and _side(t) is None:
            continue
        rows[nid] = {
            "ours": _side(o),
            "theirs": _side(t),
            "ours_outcome": o["outcome"] if o else "not run",
            "theirs_outcome": t["outcome"] if t else "not run",
        }
    replays = {}
    for nid, row in rows.items():
        code = ours_by_id[nid].get("failing_code") if row["ours"] and not row["theirs"] else None
        snippet = replay_snippet(theirs["module"], code) if code else None
        if snippet:
            replays[nid] = snippet
    outputs = (execute or reproduce.execute)(list(replays.values())) if replays else []
    last_lines = [(out.strip().splitlines() or [""])[-1] for out in outputs]
    if last_lines and all(_NOT_IMPORTABLE.match(line) for line in last_lines):
        raise ReplayUnavailable(
            f"--cross-check: none of the {len(last_lines)} failing calls of ours could be replayed on "
            f"{theirs['module']}, which does not import here ({last_lines[0][:120]}); install it as its "
            "report was made (for torch: pip install torch==2.13.0) and run again"
        )
    for (nid, snippet), out in zip(replays.items(), outputs):
        rows[nid]["replay"] = {
            "code": snippet.splitlines()[-2].removeprefix("out = "),
            "output": (out.strip().splitlines() or [""])[-1][:200],
        }
    pkg = ours.get("package") or {}
    return {
        "policy": ours["policy"],
        "api_version": ours["api_version"],
        "max_examples": ours["hypothesis"]["max_examples"],
        "source_sha256": pkg.get("source_sha256", "unknown"),
        "rows": rows,
    }


def _is_operator(nodeid: str) -> bool:
    return bool(re.search(r"\[__\w+__\(", nodeid))


def reason(nodeid: str, row: dict, cc: dict, theirs_examples: int) -> str:
    """Why the policy's namespace and the real library disagree on this test ('' if they agree)."""
    o, t = row["ours"], row["theirs"]
    if (o is None) == (t is None) and (o is None or o["kind"] == t["kind"]):
        return ""
    fn = elementwise_name(spec_function(nodeid))
    if o and t and NO_KERNEL.search(t["message"]):
        return (
            f"both fail: ours {o['kind']} (the policy's rule); the real library stops earlier, it has no "
            f"kernel for the drawn dtype (`{t['message'][:80]}`)"
        )
    if o and t:
        return (
            f"both fail, differently: ours {o['kind']}, real {t['kind']} (our namespace computes with "
            "NumPy kernels; only the dtypes follow the policy)"
        )
    if "not run" in (row["ours_outcome"], row["theirs_outcome"]):
        return "the test ran in only one of the runs (a skip, a collection error or a different API version)"
    if t:  # real library fails, our namespace under the policy passes
        kind = t["kind"]
        if kind == MISSING_NAME:
            return "the real namespace lacks this name; ours provides every name of the standard"
        if kind == TIMEOUT:
            return "the real library hung or exceeded the per-test timeout"
        if kind in (SPECIAL_CASE, WRONG_VALUE):
            return (
                "a value of the real library's kernel; the policy decides dtypes only and our "
                "namespace computes with NumPy"
            )
        if kind == UNEXPECTED_EXCEPTION and NO_KERNEL.search(t["message"]):
            return (
                "the real library has no kernel for this dtype (a missing kernel, not a promotion "
                "rule; the policy does not reproduce kernels the library lacks)"
            )
        if kind == WRONG_DTYPE and t.get("predicted"):
            return (
                f"the `{cc['policy']}` policy predicts this dtype, yet our run passed: the failing "
                f"operands were not drawn there (Hypothesis, {cc['max_examples']} vs "
                f"{theirs_examples} examples)"
            )
        if kind == WRONG_DTYPE:
            return (
                f"not a promotion rule of the `{cc['policy']}` policy ({t.get('rule') or 'no replay'}): "
                "array-api-compat's wrapper or the library's own function decides this dtype"
            )
        return f"the real library raises where ours does not: {t['message']}"
    # our namespace under the policy fails, the real library passes
    kind = o["kind"]
    replay = row.get("replay")
    if replay:
        out = replay["output"]
        shown = f"our failing call on the real library gives `{out}`"
        if re.match(r"(AttributeError|NameError|SyntaxError)\b", out) or _NOT_IMPORTABLE.match(out):
            return f"{shown}: the suite's printed call cannot be replayed as is; not compared"
        if re.match(r"\w*(Error|Exception)\b", out):
            return (
                f"{shown}: it fails there too; the real run ({theirs_examples} examples, ours "
                f"{cc['max_examples']}) did not draw these operands"
            )
        if o.get("got") and out.endswith(o["got"]):
            return (
                f"{shown}, the dtype our policy gives: the real run ({theirs_examples} examples, ours "
                f"{cc['max_examples']}) did not draw these operands"
            )
        if fn and not _is_operator(nodeid):
            return (
                f"{shown}: array-api-compat wraps `{fn}` (its `_fix_promotion` casts 0-d operands to "
                "the standard's `result_type` first), hiding torch's own rule"
            )
        return f"{shown}, not what our policy gives ({o.get('got') or o['kind']})"
    refused = _REFUSED.search(o["message"])
    if kind == WRONG_DTYPE and fn and not _is_operator(nodeid):
        return (
            f"array-api-compat wraps `{fn}`: its `_fix_promotion` casts 0-d operands to the "
            "standard's `result_type` before calling torch, hiding torch's rule (the operator form "
            "`__op__` is torch's own)"
        )
    if kind == WRONG_DTYPE and "result_type" in nodeid.lower():
        return "array-api-compat's `result_type` follows the standard's table, not torch's"
    if kind == UNEXPECTED_EXCEPTION and refused:
        return (
            f"the policy refuses what torch refuses ({refused.group(1)[:90]}); array-api-compat "
            "promotes these operands itself or the real run did not draw them"
        )
    if kind == WRONG_DTYPE and "accumulation" in (o.get("rule") or ""):
        return (
            "array-api-compat's reductions pass the standard's accumulation dtype to torch "
            "explicitly; the policy models torch's own default"
        )
    return (
        f"the real run did not hit these operands (Hypothesis, {theirs_examples} vs "
        f"{cc['max_examples']} examples) or array-api-compat patches this function"
    )


def render(theirs: dict) -> list:
    """The cross-check section of the library report (markdown lines)."""
    cc = theirs.get("cross_check")
    if not cc:
        return []
    rows = cc["rows"]
    n_theirs = theirs["hypothesis"]["max_examples"]
    lib = (theirs.get("library") or {}).get("library", theirs["module"])
    both = [n for n, r in rows.items() if r["ours"] and r["theirs"]]
    only_ours = [n for n, r in rows.items() if r["ours"] and not r["theirs"]]
    only_theirs = [n for n, r in rows.items() if r["theirs"] and not r["ours"]]
    lines = [
        f"## Cross-check: policy `{cc['policy']}` against real {lib}",
        "",
        f"Test by test, the failures of `array_api_promo` under the `{cc['policy']}` policy "
        f"(`conformance/results/{cc['policy']}-{cc['api_version']}.json`, {cc['max_examples']} "
        f"examples, source `{cc['source_sha256'][:12]}`) against those of real {lib} in this report "
        f"({n_theirs} examples). Both fail: {len(both)}; only ours: {len(only_ours)}; only the real "
        f"library: {len(only_theirs)}.",
        "",
        f"| Test | `{cc['policy']}` policy | real {lib} | Reason for a disagreement |",
        "|---|---|---|---|",
    ]

    def cell(side, outcome):
        if side is None:
            return outcome
        extra = " (predicted)" if side.get("predicted") else ""
        return f"{side['kind']}{extra}"

    for nid, r in rows.items():
        why = reason(nid, r, cc, n_theirs) or "agree"
        short = nid.replace("array_api_tests/", "")
        lines.append(
            f"| `{short}` | {cell(r['ours'], r['ours_outcome'])} | "
            f"{cell(r['theirs'], r['theirs_outcome'])} | {why.replace('|', '/')} |"
        )
    return lines + [""]
