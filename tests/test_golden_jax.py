"""The ``jax``, ``jax_x64`` and ``jax_explicit_x64`` policies against golden tables generated from real JAX.

``tests/data/jax_promotion.json`` (32-bit and x64 mode) and
``tests/data/jax_explicit_x64_<version>_promotion.json`` (``jax_enable_x64=False,
jax_explicit_x64_dtypes="allow"``) come from ``tools/gen_jax_golden.py`` (JAX version recorded;
each mode in its own subprocess).  No JAX needed here.

* ``jnp.result_type`` looks at types only -> compared with the policy's signature
  resolution (no value checks);
* ``jnp.add`` also checks Python int values (OverflowError beyond the default integer)
  -> compared with ``policy.result_type`` of the values.
"""

from __future__ import annotations

import ast
import json
import math
import pathlib
from collections import defaultdict

import numpy as np
import pytest
from golden_helpers import SCALAR_CALLS, decide  # tests/ is on sys.path (rootdir-relative import mode)

from array_api_promo import promotion
from array_api_promo._dtypes import dtype_by_name
from array_api_promo.promotion import Operand, OperandKind, scalar_type

DATA = pathlib.Path(__file__).parent / "data"
GOLDEN = json.loads((DATA / "jax_promotion.json").read_text())
EXPLICIT = json.loads(next(DATA.glob("jax_explicit_x64_*_promotion.json")).read_text())
MODES = {"32bit": "jax", "x64": "jax_x64", "explicit_x64": "jax_explicit_x64"}
# mode -> the table holding it
TABLES = {"32bit": GOLDEN, "x64": GOLDEN, "explicit_x64": EXPLICIT}


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


def check(mode, cases, compare):
    """No differences: ``compare(policy, case, operands)`` lists them for each case under ``mode``'s policy."""
    pol = promotion.get_policy(MODES[mode])
    bad = [why for case in cases for why in compare(pol, case, [operand(s) for s in case["operands"]])]
    assert not bad, "\n".join(bad[:40])


def differs(call, operands, fn, rec) -> list[str]:
    """``[call(operands): JAX ..., policy ...]`` where the policy's ``fn()`` is not JAX's ``rec``, else ``[]``."""
    got, want = outcome(fn), expected(rec)
    return [] if got == want else [f"{call}{tuple(operands)}: JAX {want}, policy {got}"]


def test_metadata():
    assert GOLDEN["generator"] == EXPLICIT["generator"] == "tools/gen_jax_golden.py"
    assert GOLDEN["jax_version"] == EXPLICIT["jax_version"] == "0.12.0.1"
    assert EXPLICIT["modes"]["explicit_x64"]["config"] == {"jax_enable_x64": False, "jax_explicit_x64_dtypes": "allow"}
    for mode, name in MODES.items():
        table = TABLES[mode]
        data = table["modes"][mode]
        assert sorted(d.name for d in promotion.get_policy(name).dtypes) == sorted(data["dtypes"])
        n = 2 * len(data["dtypes"]) + len(table["py_literals"])
        assert len(data["cases"]) == n * n


_PAIRS = defaultdict(list)
for _mode in MODES:
    for _case in TABLES[_mode]["modes"][_mode]["cases"]:
        _PAIRS[(_mode, _case["operands"][0])].append(_case)


@pytest.mark.parametrize("mode,first", sorted(_PAIRS), ids=str)
def test_pairs(mode, first):
    def compare(pol, case, ops):
        sig = tuple(type_only(o) for o in ops)
        return [
            *differs("jnp.result_type", case["operands"], lambda: pol.resolve(sig), case["result_type"]),
            *differs("jnp.add", case["operands"], lambda: _add_dtype(pol, ops), case["add"]),
        ]

    check(mode, _PAIRS[(mode, first)], compare)


def _add_dtype(pol, ops):
    """The dtype ``jnp.add`` gives: ``result_type``'s, its Python ints checked (result_type checks none)."""
    result = pol.result_type(*ops)
    for v in ops:
        if not isinstance(v, Operand):
            pol.check_scalar(v, result, "add")
    return result


_OPS = defaultdict(list)
for _mode in MODES:
    for _case in TABLES[_mode]["modes"][_mode]["ops"]:
        _OPS[(_mode, _case["op"])].append(_case)

# x64 mode: JAX's floating functions of bool/int8/int16 give float32 and bool->int ops give
# int32 even under x64 (weak-type promotion inside jnp); not modelled yet.


@pytest.mark.parametrize("mode,op", sorted(_OPS), ids=str)
def test_ops(mode, op):
    def compare(pol, case, ops):
        return differs(op, case["operands"], lambda: decide(pol, op, ops).result, case["result"])

    check(mode, _OPS[(mode, op)], compare)


def test_live_jax_if_importable():
    jax = pytest.importorskip("jax")
    if jax.__version__ != GOLDEN["jax_version"]:
        pytest.skip(f"table from jax {GOLDEN['jax_version']}, found {jax.__version__}")
    import jax.numpy as jnp

    if jax.config.jax_enable_x64:
        mode = "x64"
    else:
        mode = "explicit_x64" if str(jax.config.jax_explicit_x64_dtypes).lower().endswith("allow") else "32bit"
    pol = promotion.get_policy(MODES[mode])
    for case in TABLES[mode]["modes"][mode]["cases"][::41]:
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


def _numpy_scalar(name):
    """A NumPy scalar of ``name`` holding 1: NumPy's, or ml_dtypes' (bfloat16, float8_*)."""
    import numpy as np

    if name in ("bool", *np.sctypeDict) and not name.startswith(("bfloat", "float8")):
        return np.dtype(name).type(1)
    import ml_dtypes

    return getattr(ml_dtypes, name)(1)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_numpy_scalars_at_every_entry_point(mode):
    """``x + np.float32(1)``, ``add``, ``result_type``, ``where``, ``clip``, ``asarray`` and ``full`` of a NumPy
    scalar of every NumPy dtype and of ml_dtypes' bfloat16 and float8 types with an array of every dtype: JAX
    takes the scalar as a typed, non-weak operand (``jnp.add(x_f64, np.float32(1))`` is float64,
    ``x_int8 + bfloat16(1)`` is bfloat16), 64-bit made 32-bit without x64. A float8 scalar promotes to its
    own dtype only, which the namespace does not have: refused, where JAX refuses or gives a float8 array."""
    import array_api_promo as xp

    ns, table = xp.namespace(MODES[mode]), TABLES[mode]
    ours = {d.name for d in promotion.get_policy(MODES[mode]).dtypes}
    records = table["modes"][mode]["numpy_scalars"]
    assert {r["entry"] for r in records} == set(SCALAR_CALLS) == set(table["numpy_scalar_calls"])
    assert {r["scalar"] for r in records} >= {"bfloat16", "float8_e4m3fn", "float8_e5m2"}
    bad = []
    for rec in records:
        x, s = ns.ones(2, dtype=dtype_by_name(rec["dtype"])), _numpy_scalar(rec["scalar"])
        try:
            out = SCALAR_CALLS[rec["entry"]](ns, x, s)
            got = out.name if rec["entry"] == "result_type" else out.dtype.name
        except OverflowError:
            got = "OverflowError"
        except (TypeError, ValueError):
            got = "refused"
        want = rec["result"].get("dtype") or rec["result"]["error"]
        if want not in (got, "OverflowError") and ("error" in rec["result"] or want not in ours):
            want = "refused"  # (JAX's ValueError or TypeError, or a dtype the namespace does not have)
        if got != want:
            call = table["numpy_scalar_calls"][rec["entry"]]
            bad.append(f"{call} with x {rec['dtype']}, s {rec['scalar']}: JAX {rec['result']}, ours {got}")
    assert not bad, f"{len(bad)} of {len(records)} differ from JAX {table['jax_version']}:\n" + "\n".join(bad[:60])


# -- the values scalars take, and creation ---------------------------------------------------------
_VALUE_CALLS = {
    "operator": lambda ns, d, v: ns.zeros(2, dtype=d) + v,
    "where": lambda ns, d, v: ns.where(ns.asarray([True, False]), ns.zeros(2, dtype=d), v),
    "clip_min": lambda ns, d, v: ns.clip(ns.zeros(2, dtype=d), v, None),
    "asarray": lambda ns, d, v: ns.asarray(v, dtype=d),
    "full": lambda ns, d, v: ns.full(2, v, dtype=d),
}


def _same_values(got, want) -> bool:
    data = np.asarray(got._data)
    if data.dtype.kind not in "biufc":  # bfloat16: its values as float32, as the table holds them
        data = data.astype("float32")
    flat = data.reshape(-1).tolist()
    if data.dtype.kind == "c":
        flat = [[v.real, v.imag] for v in flat]

    def same(a, b):
        if isinstance(b, list):
            return same(a[0], b[0]) and same(a[1], b[1])
        if isinstance(b, float) and math.isnan(b):
            return math.isnan(a)
        return a == b and math.copysign(1, a) == math.copysign(1, b)

    return len(flat) == len(want) and all(same(a, b) for a, b in zip(flat, want))


def _replay(ns, mode, call, rec, where) -> str | None:
    """Why ``call()`` differs from the record (None: it does not): the same dtype and values, or a refusal
    where JAX refuses or gives a dtype the namespace does not have (a ``ValueError`` for an explicitly
    requested 64-bit dtype, as JAX's under ``jax_explicit_x64_dtypes="error"``)."""
    ours = {d.name for d in promotion.get_policy(MODES[mode]).dtypes}
    want = rec["result"]
    refuses = "error" in want or want["dtype"] not in ours
    try:
        with np.errstate(all="ignore"):
            got = call()
    except (TypeError, ValueError, OverflowError) as exc:
        if refuses:
            if want.get("message", "").startswith("Explicitly requested dtype") and not isinstance(exc, ValueError):
                return f"{where}: JAX raises ValueError: {want['message'][:80]}; ours {type(exc).__name__}: {exc}"
            return None
        return f"{where}: JAX gives {want['dtype']} {want['values']}, ours raised {type(exc).__name__}: {exc}"
    if refuses:
        return f"{where}: JAX {want}, ours gave {got.dtype.name}"
    if got.dtype.name != want["dtype"]:
        return f"{where}: JAX gives {want['dtype']}, ours {got.dtype.name}"
    if "empty(" not in where and not _same_values(got, want["values"]):
        return f"{where}: JAX holds {want['values']}, ours {np.asarray(got._data).tolist()}"
    return None


@pytest.mark.parametrize("mode", sorted(MODES))
def test_values_at_every_entry_point(mode):
    """The value a Python or NumPy scalar takes (``zeros(2, dtype) + v``, ``where``, ``clip``, ``asarray(v,
    dtype=)``, ``full(2, v, dtype=)``): without x64 a Python float is a float32 first (explicit-x64:
    ``zeros(2, float64) + 0.1`` holds 0.10000000149011612, ``asarray(0.1, dtype=float64)`` 0.1)."""
    import array_api_promo as xp

    ns, table = xp.namespace(MODES[mode]), TABLES[mode]
    records = table["modes"][mode]["values"]
    assert {r["entry"] for r in records} == set(_VALUE_CALLS) == set(table["value_calls"])
    bad = []
    for rec in records:
        v = eval(rec["value"], {"np": np})  # noqa: S307 - the table's own literals
        call = _VALUE_CALLS[rec["entry"]]
        where = f"{table['value_calls'][rec['entry']]} with {rec['dtype']}, v={rec['value']}"
        why = _replay(ns, mode, lambda: call(ns, dtype_by_name(rec["dtype"]), v), rec, where)
        if why:
            bad.append(why)
    assert not bad, f"{len(bad)} of {len(records)} differ from JAX {table['jax_version']}:\n" + "\n".join(bad[:60])


def _creation(ns, text, dtype):
    """The namespace's call for a creation record's ``jnp`` source text (``x.astype(d)``: ``astype(x, d)``)."""
    scope = {"jnp": ns, "np": np, "dtype": dtype}
    if text.endswith(".astype(dtype)"):
        return ns.astype(eval(text[: -len(".astype(dtype)")], scope), dtype)  # noqa: S307 - the table's own text
    return eval(text, scope)  # noqa: S307


@pytest.mark.parametrize("mode", sorted(MODES))
def test_creation_with_and_without_a_dtype(mode):
    """Creation functions without a dtype (the mode's defaults: ``asarray(1.5)`` is float32 without x64) and
    with every dtype (explicit-x64: a 64-bit dtype asked for is honoured; 32-bit mode refuses it with a
    ``ValueError``, as JAX does under ``jax_explicit_x64_dtypes="error"``)."""
    import array_api_promo as xp

    ns, table = xp.namespace(MODES[mode]), TABLES[mode]
    records = table["modes"][mode]["creation"]
    assert {r["dtype"] for r in records} >= {None, "float64", "int64"}
    bad = []
    for rec in records:
        if rec["call"].startswith("jnp.linspace") and rec["dtype"] == "bool":
            continue  # not compared: the namespace's linspace takes numeric dtypes only, under every policy
        dtype = None if rec["dtype"] is None else dtype_by_name(rec["dtype"])
        where = rec["call"] + ("" if dtype is None else f" with dtype {rec['dtype']}")
        why = _replay(ns, mode, lambda: _creation(ns, rec["call"], dtype), rec, where)
        if why:
            bad.append(why)
    assert not bad, f"{len(bad)} of {len(records)} differ from JAX {table['jax_version']}:\n" + "\n".join(bad[:60])
