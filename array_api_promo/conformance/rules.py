"""Every deviation from the standard that one of a policy's rules can cause in a suite test, derived
from the policy itself, not from what a run happened to draw: each operation the suite checks the
dtype of, over every pair of dtypes the standard promotes and every form the suite draws (two arrays,
an array and a 0-d array, an array and a Python scalar), replayed through the policy's ``explain``
and the standard's; where they differ, the policy's deciding rule, the suite tests that draw that
form of that operation, and a reproducer that shows it on the namespace itself. The policy's other
rules that change what the suite sees are listed with them: the accumulation dtype of sums and
products, and torch's ``clamp`` overloads for ``clip`` (a Python number bound with an n-d array
bound is refused).

Called by ``render`` (DEVIATIONS.md, Part 4) with the suite's test ids from the results it renders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .model import FAILING, elementwise_name, generic_rule, spec_function, split_nodeid
from .report import RULE_HEADINGS, generic_refusal, group_title

#: The binary functions whose result dtype the suite checks against the standard's promotion.
BINARY = (
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow", "atan2", "hypot", "copysign",
    "logaddexp", "nextafter", "maximum", "minimum", "equal", "not_equal", "greater", "greater_equal", "less",
    "less_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
    "bitwise_left_shift", "bitwise_right_shift", "where",
)  # fmt: skip
#: The dtypes the suite draws.
SUITE_DTYPES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
    "complex64", "complex128",
)  # fmt: skip
REDUCTIONS = ("sum", "prod", "cumulative_sum", "cumulative_prod")
#: Functions of several arrays that promote them (their tests draw arrays of two dtypes).
PROMOTING = ("result_type", "concat", "stack", "isin", "matmul", "tensordot", "vecdot", "cross", "outer")
_SCALAR = {"bool": "True", "int": "1", "float": "1.0", "complex": "1j"}
FORMS = {
    "arrays": "two n-d arrays",
    "0-d": "an n-d array and a 0-d array",
    "scalar": "an array and a Python scalar",
    "one": "one array",
    "bounds": "an array with a Python number bound and an n-d array bound",
}


@dataclass
class Entry:
    """One rule of a policy that makes a suite test fail, with every test it can fail."""

    policy: str
    key: str  # the rule as DEVIATIONS.md groups it: "rule:<generic step>", "refused:<message>", "clip:..."
    heading: str
    example: str  # the call, in words
    snippet: str  # a reproducer: the call under the policy's namespace and the standard's
    ops: list = field(default_factory=list)
    forms: list = field(default_factory=list)
    tests: list = field(default_factory=list)


def _kind(name: str) -> str:
    return "bool" if name == "bool" else "complex" if "complex" in name else "float" if "float" in name else "int"


def _operand(promotion, dtype_by_name, form_part: str, name: str):
    if form_part == "scalar":
        return eval(_SCALAR[_kind(name)])  # noqa: S307 (a literal of _SCALAR)
    dt = dtype_by_name(name)
    # a 0-d array holding 1, as the reproducer's ones(()): a value-dependent policy (NumPy 1.x) decides by it
    return promotion.zero_d(dt, True if name == "bool" else 1) if form_part == "0-d" else promotion.nd(dt)


def _outcome(policy, operands, op):
    trace = policy.explain(*operands, op=op)
    return trace, (None if trace.error is not None else trace.result.name)


def _binary_snippet(policy: str, op: str, form: str, a: str, b: str) -> str:
    x2 = {"arrays": f"ns.ones((2,), dtype=ns.{b})", "0-d": f"ns.ones((), dtype=ns.{b})"}.get(form, _SCALAR[_kind(a)])
    return "\n".join(
        [
            "import array_api_promo",
            f"for name in ({policy!r}, 'array_api'):",
            "    ns = array_api_promo.namespace(name)",
            "    try:",
            f"        out = ns.{op}({'ns.ones((2,), dtype=ns.bool), ' if op == 'where' else ''}"
            f"ns.ones((2,), dtype=ns.{a}), {x2})",
            "        print(name, '->', out.dtype)",
            "    except Exception as exc:",
            "        print(name, '->', type(exc).__name__ + ':', exc)",
        ]
    )


def _call_snippet(policy: str, call: str) -> str:
    return "\n".join(
        [
            "import array_api_promo",
            f"for name in ({policy!r}, 'array_api'):",
            "    ns = array_api_promo.namespace(name)",
            "    try:",
            f"        out = {call}",
            "        print(name, '->', out.dtype)",
            "    except Exception as exc:",
            "        print(name, '->', type(exc).__name__ + ':', exc)",
        ]
    )


def _checks_results(nodeid: str) -> bool:
    """A test that calls the function on drawn arrays and checks what it returns (not the names, the
    signatures, nor the one-value special cases)."""
    return not any(m in nodeid for m in ("test_has_names", "test_signatures", "test_special_cases"))


def _tests_for(op: str, form: str, nodeids: list) -> list:
    """The suite tests that draw ``form`` of ``op``."""
    out = []
    for nodeid in nodeids:
        if elementwise_name(spec_function(nodeid)) != op or not _checks_results(nodeid):
            continue
        _, _, func, param = split_nodeid(nodeid)
        scalar = func.startswith("test_binary_with_scalars") or bool(param and re.search(r"\(x, s\)", param))
        if (form == "scalar") == scalar:
            out.append(nodeid)
    return out


def derive(policy_name: str, nodeids: list) -> list:
    """Every rule of ``policy_name`` that makes one of ``nodeids`` (the suite's tests) deviate from the
    standard, grouped by rule, in a stable order."""
    from array_api_promo import promotion
    from array_api_promo._dtypes import dtype_by_name

    pol, std = promotion.get_policy(policy_name), promotion.get_policy("array_api")
    names = [n for n in SUITE_DTYPES if n in {d.name for d in pol.dtypes} and n in {d.name for d in std.dtypes}]
    every_name = sorted({d.name for d in pol.dtypes} | {d.name for d in std.dtypes})
    entries: dict[str, Entry] = {}

    def add(key, heading, example, snippet, op, form, tests):
        if not tests:
            return
        e = entries.get(key)
        if e is None:
            e = entries[key] = Entry(policy_name, key, heading, example, snippet)
        if op not in e.ops:
            e.ops.append(op)
        if form not in e.forms:
            e.forms.append(form)
        e.tests.extend(t for t in tests if t not in e.tests)

    def refusal_or_rule(trace, got):
        if got is None:
            text = re.sub(r"^[\w.]+: ", "", str(trace.error))
            key = "refused:" + generic_refusal(text)
            if key not in RULE_HEADINGS:  # dtypes in other words than torch's: each as T
                key = "refused:" + generic_refusal(generic_rule(text, every_name))
            return key, group_title(("unexpected exception", key))
        steps = list(trace.steps)
        key = "rule:" + (generic_rule(steps[-1], every_name) if steps else "plain table lookup")
        return key, group_title(("wrong dtype", key))

    for op in BINARY:
        for form in ("arrays", "0-d", "scalar"):
            tests = _tests_for(op, form, nodeids)
            if not tests:
                continue
            for a in names:
                for b in names if form != "scalar" else [a]:
                    ops = [_operand(promotion, dtype_by_name, "nd", a), _operand(promotion, dtype_by_name, form, b)]
                    _, want = _outcome(std, ops, op)
                    if want is None:  # the standard refuses it: the suite does not draw it
                        continue
                    trace, got = _outcome(pol, ops, op)
                    if got == want:
                        continue
                    key, heading = refusal_or_rule(trace, got)
                    what = {"arrays": f"{b} array", "0-d": f"0-d {b} array", "scalar": f"Python {_kind(a)}"}[form]
                    example = f"{op}({a} array, {what}): {got or type(trace.error).__name__}, the standard {want}"
                    add(key, heading, example, _binary_snippet(policy_name, op, form, a, b), op, form, tests)
    base = {n: spec_function(n).removeprefix("linalg.") for n in nodeids if _checks_results(n)}
    for op in PROMOTING:
        tests = sorted(n for n, f in base.items() if f == op)
        if not tests:
            continue
        known = _outcome(std, [promotion.nd(dtype_by_name("int8"))] * 2, op)[0].error is None
        for a in names:
            for b in names:
                ops = [promotion.nd(dtype_by_name(a)), promotion.nd(dtype_by_name(b))]
                _, want = _outcome(std, ops, op if known else "result_type")
                if want is None:
                    continue
                trace, got = _outcome(pol, ops, op if known else "result_type")
                if got == want:
                    continue
                key, heading = refusal_or_rule(trace, got)
                example = f"{op}({a} array, {b} array): {got or type(trace.error).__name__}, the standard {want}"
                call = (
                    f"ns.{op}([ns.ones((2,), dtype=ns.{a}), ns.ones((2,), dtype=ns.{b})])"
                    if op in ("concat", "stack")
                    else f"ns.{op}(ns.ones((3,), dtype=ns.{a}), ns.ones((3,), dtype=ns.{b}))"
                    if op in ("cross", "vecdot", "isin", "outer", "result_type")
                    else f"ns.{op}(ns.ones((2, 2), dtype=ns.{a}), ns.ones((2, 2), dtype=ns.{b}))"
                )
                add(key, heading, example, _call_snippet(policy_name, call), op, "arrays", tests)
    unary = sorted(
        {f for f in base.values() if "." not in f and "(" not in f} - set(BINARY) - set(PROMOTING) - set(REDUCTIONS)
    )
    for op in unary:
        probe = _outcome(pol, [promotion.nd(dtype_by_name("float32"))], op)[0]
        if isinstance(probe.error, ValueError) and "unknown operation" in str(probe.error):
            continue
        for a in names:
            ops = [promotion.nd(dtype_by_name(a))]
            _, want = _outcome(std, ops, op)
            trace, got = _outcome(pol, ops, op)
            if want is None or got == want:
                continue
            key, heading = refusal_or_rule(trace, got)
            complex_input = _kind(a) == "complex"
            tests = sorted(
                n
                for n in nodeids
                if spec_function(n).removeprefix("linalg.") == op
                and "test_has_names" not in n
                and "test_signatures" not in n
                and ("test_special_cases" not in n or ("real(x_i)" in n or "imag(x_i)" in n) == complex_input)
            )
            example = f"{op}({a} array): {got or type(trace.error).__name__}, the standard {want}"
            shape = "(2, 2)" if op in ("trace", "matrix_transpose", "det", "inv", "diagonal") else "(2,)"
            where = "ns.linalg" if op in ("trace", "det", "inv", "diagonal") else "ns"
            snippet = _call_snippet(policy_name, f"{where}.{op}(ns.ones({shape}, dtype=ns.{a}))")
            add(key, heading, example, snippet, op, "one", tests)
    for op in REDUCTIONS:
        tests = [n for n in nodeids if spec_function(n) == op and _checks_results(n)]
        for a in names:
            if _kind(a) != "int":
                continue
            try:
                got = pol.accumulation_dtype(op, dtype_by_name(a)).name
                want = std.accumulation_dtype(op, dtype_by_name(a)).name
            except (TypeError, ValueError):
                continue
            if got != want and tests:
                key = "rule:accumulation dtype of sum/prod-like reductions"
                example = f"{op}({a} array): {got}, the standard {want}"
                snippet = _call_snippet(policy_name, f"ns.{op}(ns.ones((2,), dtype=ns.{a}))")
                heading = "Sums and products of integers accumulate in another dtype than the standard's"
                add(key, heading, example, snippet, op, "one", tests)
    if getattr(pol, "clip_number_bounds", False):
        tests = [n for n in nodeids if spec_function(n) == "clip" and _checks_results(n)]
        if tests:
            key = "clip:an n-d array bound cannot be combined with a Python number bound"
            heading = "`clip` with a Python number bound and an n-d array bound is refused (torch.clamp's overloads)"
            example = "clip(x, min=0.0, max=<n-d array>): TypeError, the standard the dtype of x"
            call = "ns.clip(ns.asarray([1.0, 2.0]), min=0.0, max=ns.asarray([1.0, 1.5]))"
            add(key, heading, example, _call_snippet(policy_name, call), "clip", "bounds", tests)
    for e in entries.values():
        e.tests.sort()
    return sorted(entries.values(), key=lambda e: e.heading)


def confirmed(entry: Entry, output: str) -> bool:
    """The reproducer's output shows the deviation: the policy's line and the standard's differ."""
    lines = [ln.split(" -> ", 1) for ln in output.strip().splitlines() if " -> " in ln]
    got = {name: rest for name, rest in lines}
    return entry.policy in got and "array_api" in got and got[entry.policy] != got["array_api"]


def hit(entry: Entry, results: list) -> list:
    """The entry's tests that failed in ``results`` of its policy (what the committed draws hit)."""
    failing = {
        e["nodeid"] for r in results if r["policy"] == entry.policy for e in r["tests"] if e["outcome"] in FAILING
    }
    return [t for t in entry.tests if t in failing]
