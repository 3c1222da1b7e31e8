"""Two Python scalars through the namespace (``add(True, 1)``, ``where(c, 1, 2.5)``) under the
policies whose libraries compute them: NumPy 2, NumPy 1.26 and JAX (both modes), replayed from
the golden tables their generators took from the real libraries (``tools/gen_numpy_golden.py``,
``tools/gen_numpy_legacy_golden.py``, ``tools/gen_jax_golden.py``): every record with two Python
scalar operands, each function called as a user would, at 2025.12 (Python scalars in
elementwise functions are 2024.12's).  The result is a 0-d array of the library's dtype, or
the library's kind of refusal."""

from __future__ import annotations

import ast
import json
import pathlib

import numpy as np
import pytest

import array_api_promo

DATA = pathlib.Path(__file__).parent / "data"
NUMPY = json.loads((DATA / "numpy_2.5.5_ops.json").read_text())
LEGACY = json.loads((DATA / "numpy_1.26.4_ops.json").read_text())
JAX = json.loads((DATA / "jax_promotion.json").read_text())
JAX_EXPLICIT = json.loads((DATA / "jax_explicit_x64_0.12.0.1_promotion.json").read_text())


def _pairs(records):
    return [r for r in records if all(o.startswith("py:") for o in r["operands"])]


TABLES = {
    "numpy": (NUMPY["numpy_version"], _pairs(NUMPY["binary"])),
    "numpy_legacy": (LEGACY["numpy_version"], _pairs(LEGACY["binary"])),
    "jax": (JAX["jax_version"], _pairs(JAX["modes"]["32bit"]["ops"])),
    "jax_x64": (JAX["jax_version"], _pairs(JAX["modes"]["x64"]["ops"])),
    "jax_explicit_x64": (JAX_EXPLICIT["jax_version"], _pairs(JAX_EXPLICIT["modes"]["explicit_x64"]["ops"])),
}


def _expected(record) -> str:
    result = record["result"]
    if isinstance(result, str):
        return result
    if "dtype" in result:
        return result["dtype"]
    if result["error"] in ("OverflowError", "ValueError"):
        return result["error"]
    return "TypeError"


# A refusal of the library's kernel, not of its promotion: NumPy raises ValueError for an
# integer to a negative integer power (1.26: pow(1, -1)); the namespace's pow kernel, shared by
# every policy, gives the value the standard leaves unspecified (torch's, _special_values._pow_int).
KERNEL_REFUSALS = {("pow", "ValueError")}


def _call(ns, op, a, b):
    if op == "where":
        return ns.where(ns.asarray(True), a, b)
    return getattr(ns, op)(a, b)


@pytest.mark.parametrize("policy", sorted(TABLES))
def test_two_python_scalars_follow_the_library(policy):
    version, records = TABLES[policy]
    assert len(records) >= 140, policy  # the generators record every pair of their Python scalars
    ns = array_api_promo.namespace(policy)
    bad = []
    for record in records:
        if (record["op"], _expected(record)) in KERNEL_REFUSALS:
            continue
        a, b = (ast.literal_eval(o[3:]) for o in record["operands"])
        try:
            with np.errstate(all="ignore"):  # (-1) ** 1.5 is NaN, as in the library
                out = _call(ns, record["op"], a, b)
            got = out.dtype.name
            assert out.ndim == 0
        except OverflowError:
            got = "OverflowError"
        except TypeError:
            got = "TypeError"
        want = _expected(record)
        if got != want:
            bad.append(f"{record['op']}({a!r}, {b!r}): {policy} library {version} gives {want}, namespace {got}")
    assert not bad, f"{len(bad)} of {len(records)} differ:\n" + "\n".join(bad[:40])


def test_values_are_the_librarys():
    ns = array_api_promo.namespace("numpy")
    assert np.asarray(ns.add(True, 1)).item() == 2 and ns.add(True, 1).dtype == ns.int64
    assert np.asarray(ns.where(ns.asarray([True, False]), 1, 2.5)).tolist() == [1.0, 2.5]
    jx = array_api_promo.namespace("jax")
    assert jx.divide(1, 2).dtype == jx.float32 and float(jx.divide(1, 2)) == 0.5


def test_the_standard_still_refuses_two_scalars():
    with pytest.raises(TypeError, match="at least one of x1 and x2 must be an array"):
        array_api_promo.add(True, 1)
    with pytest.raises(TypeError, match="at least one of x1 and x2 must be an array"):
        array_api_promo.where(array_api_promo.asarray([True]), 1, 2.5)
