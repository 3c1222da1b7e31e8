"""The ``paddle`` policy against golden tables generated from real PaddlePaddle 3.3.1 (CPU).

``tests/data/paddle_3.3.1_promotion.json`` comes from ``tools/gen_paddle_golden.py`` (no
Paddle needed here).  Every record is replayed through the namespace itself
(``namespace("paddle")``) and compared by dtype, values and refusal:

* Paddle's refusals of promotion (``InvalidType``: tensors of different dtypes that are not
  both floating, nor one complex) must be refusals here (a ``TypeError``);
* a missing CPU kernel (``(NotFound) The kernel with key (CPU, ..., float16) of kernel
  `add` is not registered``) is not a promotion rule: the namespace computes in the dtype
  Paddle's promotion gives, and the record is not compared.
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

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "paddle_3.3.1_promotion.json").read_text())
xp = namespace("paddle")
# Paddle's kernels that do not exist on CPU: no dtype rule to compare.
_NO_KERNEL = ("(NotFound)", "(Unimplemented)")
BINARY = {"add": operator.add, "multiply": operator.mul, "divide": operator.truediv, "floor_divide": operator.floordiv}
# paddle.to_tensor of a NumPy uint16 array reinterprets its bits as bfloat16 (1 becomes
# 9.18e-41): a storage accident, refused here (the namespace has no uint16).
NOT_MODELLED = {("to_tensor", "np:uint16")}


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


def _infinity_floor_divided(record, got) -> bool:
    """Paddle's floor_divide of an infinity by a finite number is NaN; the standard's special
    cases (and NumPy) give an infinity: a kernel's special case, not promotion."""
    values = np.ravel(np.asarray(record["result"]["values"], dtype=float))
    return (
        record.get("op") == "floor_divide"
        and bool(np.isnan(values).all())
        and bool(np.isinf(np.asarray(got, dtype=float)).all())
    )


def mismatch(record, fn):
    want = record["result"]
    if want.get("message", "").startswith(_NO_KERNEL) or "Integer division by zero" in want.get("message", ""):
        return None  # no CPU kernel; an integer divided by a number that converts to 0: no dtype rule
    try:
        with np.errstate(all="ignore"):
            got = fn()
    except (TypeError, ValueError, OverflowError) as exc:
        if "error" in want:
            return None if isinstance(exc, TypeError) else f"Paddle refuses, ours {type(exc).__name__}: {exc}"
        return f"Paddle gives {want}, ours raised {type(exc).__name__}: {exc}"
    if "error" in want:
        return f"Paddle refuses ({want['error']}: {want['message'][:70]}), ours gave {got.dtype.name}"
    if got.dtype.name != want["dtype"]:
        return f"Paddle gives {want['dtype']}, ours {got.dtype.name}"
    # (Paddle's divide of a 0-d tensor by a Python complex has shape [1]: compared by values)
    if _infinity_floor_divided(record, got):
        return None
    if not _same_values(
        np.ravel(np.asarray(got)),
        np.ravel(np.asarray(want["values"])).tolist()
        if np.asarray(got).dtype.kind != "c"
        else np.reshape(want["values"], (-1, 2)).tolist(),
    ):
        return f"Paddle holds {want['values']}, ours {np.asarray(got).tolist()}"
    return None


def report(bad, total, what):
    if bad:
        shown = "\n".join(bad[:40])
        pytest.fail(f"{len(bad)} of {total} {what} differ from Paddle {GOLDEN['paddle_version']}:\n{shown}")


def test_metadata():
    assert GOLDEN["generator"] == "tools/gen_paddle_golden.py"
    assert GOLDEN["paddle_version"] == "3.3.1" and GOLDEN["default_dtype"] == "float32"
    assert {d.name for d in promotion.get_policy("paddle").dtypes} == set(GOLDEN["dtypes"])


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
            fn = {"ones([2])": lambda: xp.ones(2), "arange(3)": lambda: xp.arange(3)}[r["call"]]
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
