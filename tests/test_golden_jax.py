"""The ``jax`` and ``jax_x64`` policies against golden tables generated from real JAX.

``tests/data/jax_promotion.json`` comes from ``tools/gen_jax_golden.py`` (JAX version
recorded; 32-bit and x64 mode each in their own subprocess).  No JAX needed here.

* ``jnp.result_type`` looks at types only -> compared with the policy's signature
  resolution (no value checks);
* ``jnp.add`` also checks Python int values (OverflowError beyond the default integer)
  -> compared with ``policy.result_type`` of the values.
"""

from __future__ import annotations

import ast
import json
import pathlib
from collections import defaultdict

import pytest

from array_api_promo import promotion
from array_api_promo._dtypes import dtype_by_name
from array_api_promo.promotion import Operand, OperandKind, scalar_type

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "jax_promotion.json").read_text())
MODES = {"32bit": "jax", "x64": "jax_x64"}


def operand(spec):
    kind, _, val = spec.partition(":")
    if kind == "py":
        return ast.literal_eval(val)
    return (promotion.nd if kind == "nd" else promotion.zero_d)(dtype_by_name(val))


def type_only(op):
    return op if isinstance(op, Operand) else Operand(OperandKind.SCALAR, scalar_type(op))


def outcome(fn):
    try:
        return fn().name
    except OverflowError:
        return "OverflowError"
    except TypeError:
        return "TypeError"


def expected(rec):
    if isinstance(rec, str):
        return rec
    if "dtype" in rec:
        return rec["dtype"]
    return "OverflowError" if rec["error"] == "OverflowError" else "TypeError"


def test_metadata():
    assert GOLDEN["generator"] == "tools/gen_jax_golden.py"
    assert GOLDEN["jax_version"]
    for mode, name in MODES.items():
        data = GOLDEN["modes"][mode]
        assert sorted(d.name for d in promotion.get_policy(name).dtypes) == sorted(data["dtypes"])
        n = 2 * len(data["dtypes"]) + len(GOLDEN["py_literals"])
        assert len(data["cases"]) == n * n


_PAIRS = defaultdict(list)
for _mode in MODES:
    for _case in GOLDEN["modes"][_mode]["cases"]:
        _PAIRS[(_mode, _case["operands"][0])].append(_case)


@pytest.mark.parametrize("mode,first", sorted(_PAIRS), ids=str)
def test_pairs(mode, first):
    pol = promotion.get_policy(MODES[mode])
    bad = []
    for case in _PAIRS[(mode, first)]:
        ops = [operand(s) for s in case["operands"]]
        sig = tuple(type_only(o) for o in ops)
        got, want = outcome(lambda: pol.resolve(sig)), expected(case["result_type"])
        if got != want:
            bad.append(f"jnp.result_type{tuple(case['operands'])}: JAX {want}, policy {got}")
        got, want = outcome(lambda: _add_dtype(pol, ops)), expected(case["add"])
        if got != want:
            bad.append(f"jnp.add{tuple(case['operands'])}: JAX {want}, policy {got}")
    assert not bad, "\n".join(bad[:40])


def _add_dtype(pol, ops):
    """The dtype ``jnp.add`` gives: ``result_type``'s, its Python ints checked (result_type checks none)."""
    result = pol.result_type(*ops)
    for v in ops:
        if not isinstance(v, Operand):
            pol.check_scalar(v, result, "add")
    return result


def _op_result(pol, name, ops):
    sig, scalars = pol.signature(ops)
    d = pol.decide(promotion.op_spec(name), sig)
    for v in scalars:
        pol.check_scalar(v, d.compute, name)
    return d.result


_OPS = defaultdict(list)
for _mode in MODES:
    for _case in GOLDEN["modes"][_mode]["ops"]:
        _OPS[(_mode, _case["op"])].append(_case)

# x64 mode: JAX's floating functions of bool/int8/int16 give float32 and bool->int ops give
# int32 even under x64 (weak-type promotion inside jnp); not modelled yet.


@pytest.mark.parametrize("mode,op", sorted(_OPS), ids=str)
def test_ops(mode, op):
    pol = promotion.get_policy(MODES[mode])
    bad = []
    for case in _OPS[(mode, op)]:
        ops = [operand(s) for s in case["operands"]]
        got, want = outcome(lambda: _op_result(pol, op, ops)), expected(case["result"])
        if got != want:
            bad.append(f"{op}{tuple(case['operands'])}: JAX {want}, policy {got}")
    assert not bad, "\n".join(bad[:40])


def test_live_jax_if_importable():
    jax = pytest.importorskip("jax")
    if jax.__version__ != GOLDEN["jax_version"]:
        pytest.skip(f"table from jax {GOLDEN['jax_version']}, found {jax.__version__}")
    import jax.numpy as jnp

    pol = promotion.get_policy("jax_x64" if jax.config.jax_enable_x64 else "jax")
    mode = "x64" if jax.config.jax_enable_x64 else "32bit"
    for case in GOLDEN["modes"][mode]["cases"][::41]:
        a, b = (
            ast.literal_eval(s[3:]) if s.startswith("py:") else jnp.ones(2 if s.startswith("nd") else (), dtype=s[3:])
            for s in case["operands"]
        )
        try:
            got = str(jnp.result_type(a, b))
        except Exception as exc:  # noqa: BLE001
            got = {"error": type(exc).__name__}
        assert expected(got) == expected(case["result_type"]), case
    assert pol.name in MODES.values()


# -- NumPy scalars at every entry point -------------------------------------------------------
_SCALAR_CALLS = {
    "operator": lambda ns, x, s: x + s,
    "reflected": lambda ns, x, s: s + x,
    "function": lambda ns, x, s: ns.add(x, s),
    "result_type": lambda ns, x, s: ns.result_type(x, s),
    "where": lambda ns, x, s: ns.where(ns.asarray([True, False]), x, s),
    "clip_min": lambda ns, x, s: ns.clip(x, s, None),
    "asarray": lambda ns, x, s: ns.asarray(s),
    "full": lambda ns, x, s: ns.full(2, s),
}


@pytest.mark.parametrize("mode", sorted(MODES))
def test_numpy_scalars_at_every_entry_point(mode):
    """``x + np.float32(1)``, ``add``, ``result_type``, ``where``, ``clip``, ``asarray`` and ``full`` of a
    NumPy scalar of every NumPy dtype with an array of every dtype: JAX takes the scalar as a typed,
    non-weak operand (``jnp.add(x_f64, np.float32(1))`` is float64), 64-bit made 32-bit in 32-bit mode."""
    import numpy as np

    import array_api_promo as xp

    ns = xp.namespace(MODES[mode])
    records = GOLDEN["modes"][mode]["numpy_scalars"]
    assert {r["entry"] for r in records} == set(_SCALAR_CALLS) == set(GOLDEN["numpy_scalar_calls"])
    bad = []
    for rec in records:
        x, s = ns.ones(2, dtype=dtype_by_name(rec["dtype"])), np.dtype(rec["scalar"]).type(1)
        try:
            out = _SCALAR_CALLS[rec["entry"]](ns, x, s)
            got = out.name if rec["entry"] == "result_type" else out.dtype.name
        except OverflowError:
            got = "OverflowError"
        except (TypeError, ValueError):
            got = "refused"
        want = rec["result"].get("dtype") or rec["result"]["error"]
        if want not in (got, "OverflowError") and "error" in rec["result"]:
            want = "refused"  # (JAX's ValueError or TypeError; the namespace refuses with either)
        if got != want:
            bad.append(
                f"{GOLDEN['numpy_scalar_calls'][rec['entry']]} with x {rec['dtype']}, s np.{rec['scalar']}: JAX {want}, ours {got}"
            )
    assert not bad, f"{len(bad)} of {len(records)} differ from JAX {GOLDEN['jax_version']}:\n" + "\n".join(bad[:60])
