"""Reductions and cumulative functions under the library policies, against golden records
generated from the real libraries (the ``reductions`` sections written by
``tools/gen_numpy_golden.py``, ``tools/gen_numpy_legacy_golden.py`` and ``tools/gen_jax_golden.py``):
each record's call runs through the namespace and must return the library's dtype, or raise
where it raises. ``sum`` of a bool array, for one, is the default integer in all three.
"""

from __future__ import annotations

import json
import pathlib
import warnings

import pytest

import array_api_promo

DATA = pathlib.Path(__file__).parent / "data"
_JAX = json.loads((DATA / "jax_promotion.json").read_text())
_JAX_EXPLICIT = json.loads((DATA / "jax_explicit_x64_0.12.0.1_promotion.json").read_text())
SOURCES = {
    "numpy": json.loads((DATA / "numpy_2.5.5_ops.json").read_text())["reductions"],
    "numpy_legacy": json.loads((DATA / "numpy_1.26.4_ops.json").read_text())["reductions"],
    "jax": _JAX["modes"]["32bit"]["reductions"],
    "jax_x64": _JAX["modes"]["x64"]["reductions"],
    "jax_explicit_x64": _JAX_EXPLICIT["modes"]["explicit_x64"]["reductions"],
}


def run(xp, op, dtype_name):
    x = xp.ones(2, dtype=getattr(xp, dtype_name))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return getattr(xp, op)(x).dtype.name
    except (TypeError, ValueError) as exc:
        return type(exc).__name__


@pytest.mark.parametrize("policy", sorted(SOURCES))
def test_reductions_follow_the_library(policy):
    xp = array_api_promo.namespace(policy)
    records = SOURCES[policy]
    assert len(records) >= 9 * 11
    wrong = []
    for rec in records:
        (operand,) = rec["operands"]
        got = run(xp, rec["op"], operand.partition(":")[2])
        want = rec["result"] if isinstance(rec["result"], str) else "TypeError"
        if got != want:
            wrong.append(f"{rec['op']}({operand}): namespace {got}, library {rec['result']}")
    assert not wrong, f"{len(wrong)} of {len(records)}:\n" + "\n".join(wrong)


def test_sum_of_bool_is_the_default_integer():
    for policy, default in (("numpy", "int64"), ("numpy_legacy", "int64"), ("jax", "int32"), ("jax_x64", "int64")):
        xp = array_api_promo.namespace(policy)
        assert xp.sum(xp.asarray([True, True, False])).dtype.name == default
        assert int(xp.sum(xp.asarray([True, True, False]))) == 2
