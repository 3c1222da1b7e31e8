"""The ``numpy_legacy`` policy on NumPy's own calls, as the NEP 50 tools ask it, against real NumPy 1.26.4.

The table (``tests/data/numpy_1.26.4_calls.json``) comes from ``tools/gen_numpy_legacy_calls_golden.py``
run under NumPy 1.26.4: ``arange``, ``clip`` with NumPy-scalar bounds, ufuncs into ``out=``, shape
errors, longdouble operands and the values in-place operations and comparisons store or give.  Each
case is rebuilt here under NumPy 2 and put to ``against_outcome`` (and ``against_values``) exactly as
the NumPy audit and the warning mode do (stand-ins; the real operands where NumPy raised).  A call the
tools leave uncompared (``Skip``) must be one where NumPy 2 and 1.26.4 agree.  No NumPy 1.x needed.
"""

from __future__ import annotations

import ast
import json
import pathlib
import warnings

import numpy as np

from array_api_promo.audit.numpy_compare import Skip, against_outcome, against_values
from array_api_promo.promotion import get_policy

TABLE = json.loads((pathlib.Path(__file__).parent / "data" / "numpy_1.26.4_calls.json").read_text())
POLICY = get_policy("numpy_legacy")
_SPECIAL = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}


def literal(text: str):
    return _SPECIAL[text] if text in _SPECIAL else ast.literal_eval(text)


def operand(spec: str):
    """The generator's operand, built under NumPy 2."""
    if spec == "none":
        return None
    kind, _, rest = spec.partition(":")
    if kind == "py":
        return literal(rest)
    dtype, _, value = rest.partition("=")
    dtype, _, shape = dtype.partition("@")
    dtype = np.longdouble if dtype == "longdouble" else np.dtype(dtype)
    if kind == "nd":
        return np.array(literal(value), dtype=dtype) if value else np.ones(literal(shape) if shape else 3, dtype=dtype)
    if kind == "0d":
        return np.array(literal(value), dtype=dtype)
    return np.dtype(dtype).type(literal(value))


def text(outcome) -> str:
    if isinstance(outcome, dict):
        return f"raises {outcome['error']}"
    return "raises OverflowError" if outcome == "object" else outcome  # no object dtype: refused


def ours(kind, name, args, kwargs, real=False) -> str | None:
    """The policy's outcome as the tools get it (None: the tools do not compare the call)."""
    try:
        found = against_outcome(POLICY, kind, name, args, kwargs, real)
    except Skip:
        return None
    assert found is not None
    return f"raises {found.error}" if found.error else found.dtype


def numpy2(call) -> str:
    """NumPy 2's own outcome of the call (the tools' other side)."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            result = call()
    except Exception as exc:  # noqa: BLE001
        return f"raises {next(c for c in type(exc).__mro__ if c.__module__ == 'builtins').__name__}"
    dtype = np.asarray(result).dtype
    return "longdouble" if dtype == np.longdouble and dtype != np.float64 else dtype.name


def _check(cases, expected_and_got) -> None:
    mismatches = []
    for case in cases:
        want, got, call = expected_and_got(case)
        if got is None:  # not compared: only where NumPy 2 does what NumPy 1.26.4 did
            got = numpy2(call)
        if got != want:
            mismatches.append((case, want, got))
    assert not mismatches, f"{len(mismatches)} of {len(cases)} differ, e.g. {mismatches[:5]}"


def test_the_table_is_numpy_1_26_4s():
    assert TABLE["generator"] == "tools/gen_numpy_legacy_calls_golden.py" and TABLE["numpy_version"] == "1.26.4"
    assert {k: len(v) for k, v in TABLE.items() if isinstance(v, list)} == {
        "arange": 18408,
        "clip": 12240,
        "out": 2220,
        "shapes": 180,
        "longdouble": 384,
        "values": 126,
    }


def test_arange():
    def case(c):
        args = [literal(a) for a in c["args"]]
        kwargs = {} if c["dtype"] is None else {"dtype": np.dtype(c["dtype"])}
        return text(c["numpy"]), ours("function", "arange", tuple(args), kwargs), lambda: np.arange(*args, **kwargs)

    _check(TABLE["arange"], case)
    # the false reports: NumPy 1.26.4 and 2 agree, and so does the policy
    assert ours("function", "arange", (625,), {"dtype": np.dtype("uint8")}) == "uint8"
    assert ours("function", "arange", (2**63 - 1, 2**63 + 2), {}) == "float64"


def test_clip_with_numpy_scalar_and_0d_bounds():
    def case(c):
        x, low, high = operand(c["x"]), operand(c["min"]), operand(c["max"])
        if c["keywords"]:
            args, kwargs = (x,), {"a_min": low, "a_max": high}
        else:
            args, kwargs = (x, low, high), {}
        return text(c["numpy"]), ours("function", "clip", args, kwargs), lambda: np.clip(*args, **kwargs)

    _check(TABLE["clip"], case)


_UFUNC_TARGETS = {"true_divide": "divide"}


def test_ufuncs_into_out():
    def case(c):
        inputs = tuple(operand(s) for s in c["inputs"])
        out = np.zeros(3, dtype=c["out"])
        name = _UFUNC_TARGETS.get(c["ufunc"], c["ufunc"])
        ufunc = getattr(np, c["ufunc"])
        return text(c["numpy"]), ours("ufunc", name, inputs, {"out": out}), lambda: ufunc(*inputs, out=out)

    _check(TABLE["out"], case)


_KINDS = {"add": ("binary", "add"), "multiply": ("binary", "mul"), "less": ("compare", "lt")}
_KINDS.update({"where": ("function", "where"), "maximum": ("ufunc", "maximum")})


def test_shape_errors_are_errors_under_both():
    def case(c):
        a, b = operand(c["a"]), operand(c["b"])
        kind, name = _KINDS[c["op"]]
        args = (np.ones(a.shape[-1:], dtype=bool), a, b) if c["op"] == "where" else (a, b)
        # NumPy 2 raised: the tools put the real operands to the policy
        return text(c["numpy"]), ours(kind, name, args, {}, real=True), None

    assert all(c["numpy"] == {"error": "ValueError"} for c in TABLE["shapes"])
    _check(TABLE["shapes"], case)


def test_longdouble_operands():
    def case(c):
        a, b = operand(c["a"]), operand(c["b"])
        kind, name = _KINDS[c["op"]]
        operation = {"add": lambda: a + b, "multiply": lambda: a * b, "less": lambda: a < b}[c["op"]]
        return text(c["numpy"]), ours(kind, name, (a, b), {}), operation

    _check(TABLE["longdouble"], case)


_INPLACE = {"isub": "sub", "iadd": "add", "imul": "mul"}


def test_values_stored_in_place_and_compared():
    mismatches = []
    for c in TABLE["values"]:
        a, b = operand(c["a"]), operand(c["b"])
        kind, name = ("inplace", _INPLACE[c["op"]]) if c["op"] in _INPLACE else ("compare", c["op"])
        want = text(c["numpy"])
        got = ours(kind, name, (a, b), {})
        if got != want:
            mismatches.append((c, want, got))
            continue
        if c["values"] is not None:
            values = [repr(v) for v in against_values(POLICY, kind, name, (a, b), {}).tolist()]
            if values != c["values"]:
                mismatches.append((c, c["values"], values))
    assert not mismatches, mismatches[:5]
