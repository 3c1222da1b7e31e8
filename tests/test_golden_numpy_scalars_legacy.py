"""NumPy scalars as operands under ``numpy_legacy``, against real NumPy 1.26.4.

The table (``tests/data/numpy_1.26.4_numpy_scalars.json``) comes from
``tools/gen_numpy_scalar_golden.py`` run under NumPy 1.26.4: a NumPy scalar of each dtype
(small and large values) with n-d arrays, Python scalars, valued 0-d arrays and other NumPy
scalars, in both orders, through ``np.result_type``, ``+`` and ``/``.  The operands enter the
namespace by the policy's own ``numpy_scalars`` rule (a 0-d array of the scalar's dtype), as the
NumPy audit and the namespace's operators take them.  ``object`` (a Python int NumPy 1.x holds
only in an object array) is our ``OverflowError``.
"""

from __future__ import annotations

import ast
import json
import math
import operator
import pathlib

import numpy as np
import pytest

import array_api_promo as xp

DATA = pathlib.Path(__file__).parent / "data"
GOLDEN = json.loads((DATA / "numpy_1.26.4_numpy_scalars.json").read_text())
NS = xp.namespace("numpy_legacy")
OPS = {"result_type": NS.result_type, "add": operator.add, "divide": operator.truediv}


def _literal(text):
    return math.nan if text == "nan" else ast.literal_eval(text)


def operand(spec):
    """The namespace's operand: a NumPy scalar as the policy takes it, an array of ones, a valued 0-d array."""
    kind, _, rest = spec.partition(":")
    if kind == "py":
        return _literal(rest)
    if kind == "nd":
        return NS.ones(2, dtype=getattr(NS, rest))
    name, _, value = rest.partition("=")
    if kind == "0d":
        return NS.asarray(np.array(_literal(value), dtype=name))
    return NS._runtime._from_numpy_scalar(np.dtype(name).type(_literal(value)))


def outcome(op, a, b):
    try:
        result = op(a, b)
    except (TypeError, ValueError, OverflowError) as exc:
        return type(exc)
    return result.name if op is NS.result_type else result.dtype.name


def test_metadata():
    assert GOLDEN["generator"] == "tools/gen_numpy_scalar_golden.py"
    assert GOLDEN["numpy_version"] == "1.26.4"
    assert NS._runtime.policy.numpy_scalars == "array"


@pytest.mark.parametrize("name", sorted(OPS))
def test_numpy_scalars_promote_as_in_numpy_1_26(name):
    bad = []
    with np.errstate(all="ignore"):
        for case, results in GOLDEN["cases"].items():
            want = results[name]
            a, b = case.split(" ")
            got = outcome(OPS[name], operand(a), operand(b))
            if want == "object":
                ok = got is OverflowError
            elif isinstance(want, dict):
                ok = isinstance(got, type) and got.__name__ in (want["error"], "TypeError")
            else:
                ok = got == want
            if not ok:
                bad.append(f"{name}({a}, {b}): NumPy 1.26.4 {want}, numpy_legacy {getattr(got, '__name__', got)}")
    assert not bad, f"{len(bad)} of {len(GOLDEN['cases'])} differ:\n" + "\n".join(bad[:40])
