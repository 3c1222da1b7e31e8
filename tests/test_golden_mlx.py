"""The ``mlx`` policy against golden tables generated from real MLX 0.32.4 (CPU).

``tests/data/mlx_0.32.4_promotion.json`` comes from ``tools/gen_mlx_golden.py`` (no MLX
needed here).  Every record is replayed through the namespace itself (``namespace("mlx")``)
and compared by dtype, values and refusal: MLX's refusals (a Python int that does not fit
the array's dtype: "Converting 1000 to int8 would result in overflow") must be refusals here
(an ``OverflowError`` or ``TypeError``).
"""

from __future__ import annotations

import json
import math
import operator
import pathlib

import numpy as np
import pytest

from array_api_promo import namespace, promotion
from array_api_promo._dtypes import dtype_by_name

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "mlx_0.32.4_promotion.json").read_text())
xp = namespace("mlx")
BINARY = {"add": operator.add, "multiply": operator.mul, "divide": operator.truediv, "floor_divide": operator.floordiv}
# mx.array(2147483648) is int64 (a Python int beyond int32); the namespace's default integer
# is int32, and asarray of an int outside it is refused rather than given another dtype.
NOT_MODELLED = {("array", "py:2147483648")}


def make(spec):
    kind, _, val = spec.partition(":")
    if kind == "py":
        return eval(val)  # noqa: S307 - the table's own literals
    return xp.ones((2,) if kind == "nd" else (), dtype=dtype_by_name(val))


def _same_values(got, want) -> bool:
    got = np.asarray(got)
    if got.dtype.kind == "c":  # the table holds a complex as [real, imag]
        got = np.stack([got.real, got.imag], axis=-1)
    got = got.tolist()
    if isinstance(want, list) != isinstance(got, list):
        return False
    if isinstance(want, list):
        return len(got) == len(want) and all(_same_values(g, w) for g, w in zip(got, want))
    if isinstance(want, float) or isinstance(got, float):
        return (math.isnan(want) and math.isnan(got)) or math.isclose(got, want, rel_tol=1e-3, abs_tol=1e-6)
    return got == want


def not_compared(record) -> str | None:
    """Why a record is not compared (None: it is)."""
    operands = record.get("operands", [])
    if record.get("op") == "floor_divide" and any("complex" in o or o == "py:1j" for o in operands):
        # MLX's floor_divide of complex numbers divides without flooring (1 // 1j is -1j); the
        # standard defines no complex floor_divide and NumPy has none: refused here
        return "complex floor_divide"
    if record.get("op") == "divide" and "py:2147483648" in operands and any(o.endswith(":bool") for o in operands):
        # MLX wraps the int into int32 before dividing a bool array by it; the namespace converts
        # it to float32 directly (the dtype agrees, the value of an int beyond int32 does not)
        return "bool array divided by an int beyond int32"
    return None


def mismatch(record, fn):
    if not_compared(record):
        return None
    want = record["result"]
    try:
        with np.errstate(all="ignore"):
            got = fn()
    except (TypeError, ValueError, OverflowError) as exc:
        if "error" in want:
            return None
        return f"MLX gives {want}, ours raised {type(exc).__name__}: {exc}"
    if "error" in want:
        return f"MLX refuses ({want['error']}: {want['message'][:70]}), ours gave {got.dtype.name}"
    if got.dtype.name != want["dtype"]:
        return f"MLX gives {want['dtype']}, ours {got.dtype.name}"
    # (MLX's divide of a 0-d tensor by a Python complex has shape [1]: compared by values)
    if not _same_values(
        np.ravel(np.asarray(got)),
        np.ravel(np.asarray(want["values"])).tolist()
        if np.asarray(got).dtype.kind != "c"
        else np.reshape(want["values"], (-1, 2)).tolist(),
    ):
        return f"MLX holds {want['values']}, ours {np.asarray(got).tolist()}"
    return None


def report(bad, total, what):
    if bad:
        shown = "\n".join(bad[:40])
        pytest.fail(f"{len(bad)} of {total} {what} differ from MLX {GOLDEN['mlx_version']}:\n{shown}")


def test_metadata():
    assert GOLDEN["generator"] == "tools/gen_mlx_golden.py"
    assert GOLDEN["mlx_version"] == "0.32.4"
    assert {d.name for d in promotion.get_policy("mlx").dtypes} == set(GOLDEN["dtypes"])


@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary(op):
    cases = [r for r in GOLDEN["binary"] if r["op"] == op]
    bad = []
    for r in cases:
        a, b = (make(s) for s in r["operands"])
        why = mismatch(r, lambda: BINARY[op](a, b))
        if why:
            bad.append(f"{op}({', '.join(r['operands'])}): {why}")
    report(bad, len(cases), f"{op} cases")


def test_where():
    mask = xp.asarray([True, False])
    bad = []
    for r in GOLDEN["where"]:
        a, b = (make(s) for s in r["operands"])
        why = mismatch(r, lambda: xp.where(mask, a, b))
        if why:
            bad.append(f"where({', '.join(r['operands'])}): {why}")
    report(bad, len(GOLDEN["where"]), "where cases")


def test_creation():
    bad = []
    for r in GOLDEN["creation"]:
        if (r["call"], r["value"]) in NOT_MODELLED:
            continue
        if r["value"] is None:
            fn = {"ones((2,))": lambda: xp.ones(2), "arange(3)": lambda: xp.arange(3)}[r["call"]]
        else:
            kind, _, val = r["value"].partition(":")
            data = eval(val) if kind == "py" else np.ones(2, dtype=val)  # noqa: S307
            fn = lambda data=data: xp.asarray(data)  # noqa: E731
        why = mismatch(r, fn)
        if why:
            bad.append(f"{r['call']}({r['value']}): {why}")
    report(bad, len(GOLDEN["creation"]), "creation cases")


def test_reductions():
    bad = []
    for r in GOLDEN["reductions"]:
        x = make(f"nd:{r['dtype']}")
        why = mismatch(r, lambda: getattr(xp, r["op"])(x))
        if why:
            bad.append(f"{r['op']}({r['dtype']}): {why}")
    report(bad, len(GOLDEN["reductions"]), "reductions")
