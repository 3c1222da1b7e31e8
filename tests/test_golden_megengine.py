"""The ``megengine`` policy against golden tables generated from real MegEngine 1.13.0 (CPU).

``tests/data/megengine_1.13.0_promotion.json`` comes from ``tools/gen_megengine_golden.py``
(MegEngine needs Python 3.10 and NumPy 1.x; no MegEngine needed here).  Every record is
replayed through the namespace itself (``namespace("megengine")``) and compared by dtype,
values and refusal:

* MegEngine's refusals (different signedness, no bool kernel, no uint16 kernel, ``F.where``
  of a Python number) must be refusals here (a ``TypeError``);
* a process killed by SIGFPE (an integer divided by a Python number that converts to 0) is
  a crash of MegEngine's kernel, not a dtype rule: not compared.
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

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "megengine_1.13.0_promotion.json").read_text())
xp = namespace("megengine")
BINARY = {"add": operator.add, "multiply": operator.mul, "divide": operator.truediv, "floor_divide": operator.floordiv}
# megengine.functional.arange's default dtype is float32 (arange(3) holds 0., 1., 2.); the
# standard's arange of ints gives the default integer, and a policy decides promotion, not
# the defaults of one creation function.
NOT_MODELLED = {("arange(3)", None)}


def make(spec):
    kind, _, val = spec.partition(":")
    if kind == "py":
        return eval(val)  # noqa: S307 - the table's own literals
    return xp.ones((2,) if kind == "nd" else (), dtype=dtype_by_name(val))


def _same_values(got, want) -> bool:
    got = np.asarray(got).tolist()
    if isinstance(want, list) != isinstance(got, list):
        return False
    if isinstance(want, list):
        return len(got) == len(want) and all(_same_values(g, w) for g, w in zip(got, want))
    if isinstance(want, float) or isinstance(got, float):
        return (math.isnan(want) and math.isnan(got)) or math.isclose(got, want, rel_tol=1e-3, abs_tol=1e-6)
    return got == want


def mismatch(record, fn):
    want = record["result"]
    if want.get("error") == "signal":
        return None  # MegEngine's integer kernel died dividing by zero: no dtype rule to compare
    try:
        with np.errstate(all="ignore"):
            got = fn()
    except (TypeError, ValueError, OverflowError) as exc:
        if "error" in want:
            return None if isinstance(exc, TypeError) else f"MegEngine refuses, ours {type(exc).__name__}: {exc}"
        return f"MegEngine gives {want}, ours raised {type(exc).__name__}: {exc}"
    if "error" in want:
        return f"MegEngine refuses ({want['error']}: {want['message'][:70]}), ours gave {got.dtype.name}"
    if got.dtype.name != want["dtype"]:
        return f"MegEngine gives {want['dtype']}, ours {got.dtype.name}"
    if not _same_values(np.asarray(got), want["values"]):
        return f"MegEngine holds {want['values']}, ours {np.asarray(got).tolist()}"
    return None


def report(bad, total, what):
    if bad:
        shown = "\n".join(bad[:40])
        pytest.fail(f"{len(bad)} of {total} {what} differ from MegEngine {GOLDEN['megengine_version']}:\n{shown}")


def test_metadata():
    assert GOLDEN["generator"] == "tools/gen_megengine_golden.py"
    assert GOLDEN["megengine_version"] == "1.13.0"
    assert {d.name for d in promotion.get_policy("megengine").dtypes} == set(GOLDEN["dtypes"])


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
            fn = {"ones(2)": lambda: xp.ones(2), "zeros(2)": lambda: xp.zeros(2)}[r["call"]]
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
