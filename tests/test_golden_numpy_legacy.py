"""The ``numpy_legacy`` policy against golden tables generated from real NumPy 1.26.4.

The tables (``tests/data/numpy_1.26.4_promotion.json``, ``..._ops.json``) come from
``tools/gen_numpy_legacy_golden.py`` run under NumPy 1.26.4; these tests read them and need
no NumPy 1.x.  Mapping of NumPy outcomes to ours: a dtype name -> that dtype; ``object``
(a Python int outside [-2**63, 2**64)) -> ``OverflowError`` (this namespace has no object
dtype); a ``TypeError`` (``UFuncTypeError`` included) -> ``TypeError``.
"""

from __future__ import annotations

import ast
import json
import math
import pathlib
import warnings
from collections import defaultdict

import numpy as np
import pytest
from golden_helpers import decide, note  # tests/ is on sys.path (rootdir-relative import mode)

import array_api_promo as xp
from array_api_promo import promotion
from array_api_promo._dtypes import dtype_by_name
from array_api_promo.promotion.numpy_legacy import min_scalar_type

DATA = pathlib.Path(__file__).parent / "data"
GOLDEN = json.loads((DATA / "numpy_1.26.4_promotion.json").read_text())
OPS_GOLDEN = json.loads((DATA / "numpy_1.26.4_ops.json").read_text())
POLICY = promotion.get_policy("numpy_legacy")
NS = xp.namespace("numpy_legacy")
_SPECIAL = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def literal(text):
    return _SPECIAL[text] if text in _SPECIAL else ast.literal_eval(text)


def operand(spec: str):
    """A promotion operand: ``nd(dtype)``, ``zero_d(dtype, value)`` or a Python scalar."""
    kind, _, val = spec.partition(":")
    if kind == "py":
        return literal(val)
    if kind == "nd":
        return promotion.nd(dtype_by_name(val))
    name, _, value = val.partition("=")
    return promotion.zero_d(dtype_by_name(name), literal(value) if value else 1)


def array(spec: str):
    """The namespace's own operand: an array of ones, a valued 0-d array or a Python scalar."""
    kind, _, val = spec.partition(":")
    if kind == "py":
        return literal(val)
    if kind == "nd":
        return NS.ones(2, dtype=dtype_by_name(val))
    name, _, value = val.partition("=")
    return NS.asarray(np.array(literal(value) if value else 1, dtype=name))


def expected(record):
    if isinstance(record, str):
        return (None, OverflowError) if record == "object" else (record, None)
    return None, ValueError if record["error"] == "ValueError" else TypeError


def value_error(record) -> bool:
    """NumPy's kernel refusing a value (``int_array ** -1``): no dtype decision to check."""
    return isinstance(record, dict) and record["error"] == "ValueError"


def outcome(fn, *args):
    try:
        return fn(*args).name, None, ""
    except (TypeError, OverflowError, ValueError) as exc:
        return None, type(exc), str(exc)


def mismatch(record, got):
    want, want_exc = expected(record)
    name, exc, msg = got
    if want_exc is not None:
        if exc is None:
            return f"NumPy 1.26 gives {record}; policy gave {name}"
        return None if issubclass(exc, want_exc) else f"NumPy 1.26 gives {record}; policy raised {exc.__name__}: {msg}"
    if exc is not None:
        return f"NumPy 1.26 gives {want}; policy raised {exc.__name__}: {msg}"
    return None if name == want else f"NumPy 1.26 gives {want}; policy gave {name}"


def report(bad, total, what):
    if bad:
        pytest.fail(
            f"{len(bad)} of {total} {what} differ from NumPy {GOLDEN['numpy_version']}:\n" + "\n".join(bad[:60])
        )


def test_metadata():
    assert GOLDEN["generator"] == OPS_GOLDEN["generator"] == "tools/gen_numpy_legacy_golden.py"
    assert GOLDEN["numpy_version"] == OPS_GOLDEN["numpy_version"] == "1.26.4"
    assert sorted(d.name for d in POLICY.dtypes) == sorted(GOLDEN["dtypes"])
    n = 2 * len(GOLDEN["dtypes"]) + len(GOLDEN["zero_d_values"]) + len(GOLDEN["py_literals"])
    assert len(GOLDEN["cases"]) == n * n


def test_min_scalar_type():
    bad = []
    for spec, want in GOLDEN["min_scalar_type"].items():
        op = operand(spec)
        if isinstance(op, promotion.ValueOperand):
            cls = min_scalar_type(op.dtype, op.value)
        else:
            cls = POLICY.value_operand(promotion.classify(op)[0], op).value
        got = "object" if cls.dtype is None else cls.dtype.name
        if got != want:
            bad.append(f"min_scalar_type({spec}): NumPy {want}, policy {got}")
    report(bad, len(GOLDEN["min_scalar_type"]), "min_scalar_type values")


def test_ufunc_loops_are_numpy_1_26s():
    """The loop lists the policy searches are ``np.<ufunc>.types`` of NumPy 1.26.4."""
    from array_api_promo.promotion import numpy_legacy

    for op, loops in OPS_GOLDEN["ufunc_loops"].items():
        if loops is None:
            assert op not in numpy_legacy._LOOPS, op
            continue
        assert [[[d.name for d in ins], out.name] for ins, out in numpy_legacy._LOOPS[op]] == loops, op


_BY_FIRST = defaultdict(list)
for _case in GOLDEN["cases"]:
    _BY_FIRST[_case["operands"][0]].append(_case)


@pytest.mark.parametrize("first", sorted(_BY_FIRST))
def test_pairs(first):
    """``np.result_type`` and ``np.add`` for every ordered pair of the operand grid."""
    bad = []
    cases = _BY_FIRST[first]
    for case in cases:
        ops = [operand(s) for s in case["operands"]]
        label = f"({', '.join(case['operands'])})"
        note(bad, f"np.result_type{label}", mismatch(case["result_type"], outcome(POLICY.result_type, *ops)))
        note(bad, f"np.add{label}", mismatch(case["add"], outcome(policy_op, "add", ops)))
    report(bad, 2 * len(cases), "cases")


def test_triples():
    """NumPy 1.x folds value-based promotion left to right: three operands check the order."""
    bad = []
    for case in GOLDEN["triples"]:
        ops = [operand(s) for s in case["operands"]]
        note(
            bad,
            f"np.result_type({', '.join(case['operands'])})",
            mismatch(case["result_type"], outcome(POLICY.result_type, *ops)),
        )
    report(bad, len(GOLDEN["triples"]), "triples")


def policy_op(name, operands):
    return decide(POLICY, name, operands).result


_OP_CASES = defaultdict(list)
for _section in ("unary", "binary"):
    for _case in OPS_GOLDEN[_section]:
        _OP_CASES[(_section, _case["op"])].append(_case)


@pytest.mark.parametrize("section,op", sorted(_OP_CASES), ids=lambda v: str(v))
def test_ops(section, op):
    bad = []
    cases = _OP_CASES[(section, op)]
    for case in cases:
        if value_error(case["result"]):
            continue  # a kernel's refusal of a value, not a promotion decision
        ops = [operand(s) for s in case["operands"]]
        note(bad, f"{op}({', '.join(case['operands'])})", mismatch(case["result"], outcome(policy_op, op, ops)))
    report(bad, len(cases), f"{section} {op} cases")


_NS_FUNCS = {"where": lambda a, b: NS.where(NS.asarray(True), a, b), "clip": lambda a, b: NS.clip(a, b, None)}


@pytest.mark.parametrize(
    "op",
    [
        "add",
        "multiply",
        "divide",
        "floor_divide",
        "equal",
        "less",
        "bitwise_and",
        "bitwise_left_shift",
        "atan2",
        "where",
        "clip",
        "maximum",
        "remainder",
        "pow",
        "logical_and",
    ],
)
def test_namespace_executes_the_tables(op):
    """The namespace itself (plans, value-class cache, scalar conversion) gives NumPy 1.26's dtype."""
    fn = _NS_FUNCS.get(op) or getattr(NS, op)
    bad = []
    cases = [
        c
        for c in _OP_CASES[("binary", op)]
        if not value_error(c["result"])
        and (not c["operands"][1].startswith("nd") or not c["operands"][0].startswith("nd"))
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for case in cases:
            a, b = (array(s) for s in case["operands"])
            try:
                got = (fn(a, b).dtype.name, None, "")
            except (TypeError, OverflowError, ValueError) as exc:
                got = (None, type(exc), str(exc))
            note(bad, f"{op}({', '.join(case['operands'])})", mismatch(case["result"], got))
    report(bad, len(cases), f"namespace {op} cases")


def test_seed_examples():
    """The value-based rules the seeds quote (MEP 3, the PyTorch proposal)."""
    u8 = NS.ones(2, dtype=NS.uint8)
    assert (u8 + 50000).dtype == NS.uint16
    assert (u8 + 5).dtype == NS.uint8
    z = NS.asarray(1, dtype=NS.int8)
    assert (z + 1).dtype == NS.int64  # all scalars: by dtype
    assert (z + 1.0).dtype == NS.float64
    assert (NS.ones(2, dtype=NS.int8) + NS.asarray(200)).dtype == NS.int16  # 0-d by value
    assert (NS.ones(2, dtype=NS.float32) + 1e300).dtype == NS.float64
    assert NS.result_type(NS.ones(2, dtype=NS.int8), NS.asarray(300)) == NS.int16


def test_values_are_computed_in_the_promoted_dtype():
    a = NS.asarray([250, 1], dtype=NS.uint8)
    assert np.asarray(a + 1000).tolist() == [1250, 1001]
    assert np.asarray(a - 300).tolist() == [65486, 65237]  # uint16: 300 is a small unsigned value
    assert np.asarray(NS.where(a > 100, a, -1)).tolist() == [250, -1]


def test_value_dependent_plans_do_not_leak_between_values():
    """One signature, two value classes, in either order: the cache must keep them apart."""
    a = NS.ones(2, dtype=NS.int8)
    for _ in range(2):
        assert (a + 1).dtype == NS.int8
        assert (a + 1000).dtype == NS.int16
        assert (a + NS.asarray(1)).dtype == NS.int8
        assert (a + NS.asarray(1000)).dtype == NS.int16
        assert NS.result_type(a, NS.asarray(1)) == NS.int8
        assert NS.result_type(a, NS.asarray(1000)) == NS.int16


def test_object_ints_raise_clearly():
    with pytest.raises(OverflowError, match="numpy_legacy.*|object array"):
        NS.ones(2, dtype=NS.int8) + 2**64


def test_asarray_wraps_like_numpy_1_26():
    with pytest.warns(DeprecationWarning, match="wraps around"):
        x = NS.asarray(1000, dtype=NS.int8)
    assert int(np.asarray(x)) == -24


def test_creation_converts_like_numpy_1_26():
    assert int(np.asarray(NS.asarray(1.5, dtype=NS.int8))) == 1
    assert bool(np.asarray(NS.full((), 2.5, dtype=NS.bool)))
    with pytest.raises(TypeError, match="complex"):
        NS.asarray(1j, dtype=NS.float32)
    with pytest.raises(ValueError, match="nan"):
        NS.asarray(math.nan, dtype=NS.int8)


def test_value_independent_policies_keep_the_one_lookup_cache():
    for name in ("array_api", "torch", "numpy"):
        ns = xp.namespace(name)
        a = ns.ones(2, dtype=ns.int16)
        a + 100, a + ns.asarray(3, dtype=ns.int16)
        runtime = a._runtime
        assert not getattr(runtime, "_value_plans", None) and not runtime._by_value
        # (under some 0-d flag: an earlier test's 0-d operand may have made the plan first)
        assert any(key[:3] == ("add", ns.int16, int) for key in runtime._plans)


def test_numpy_scalars_count_as_0d_arrays():
    """NumPy 1.26: a NumPy scalar is a 0-d array, judged by its value; NumPy 2 (NEP 50): strong."""
    legacy, nep50 = NS, xp.namespace("numpy")
    assert (legacy.ones(2, dtype=legacy.float32) + np.float64(1.5)).dtype == legacy.float32
    assert (legacy.ones(2, dtype=legacy.int8) + np.int64(300)).dtype == legacy.int16
    assert (np.int64(3) + legacy.ones(2, dtype=legacy.int8)).dtype == legacy.int8
    assert (nep50.ones(2, dtype=nep50.float32) + np.float64(1.5)).dtype == nep50.float64
    assert (nep50.ones(2, dtype=nep50.int8) + np.int64(3)).dtype == nep50.int64
    with pytest.raises(TypeError):
        xp.ones(2) + np.float32(1.5)  # the standard has no NumPy-scalar operand
    # ... but np.float64 is an instance of float: the standard's Python scalar, weak
    assert (xp.ones(2, dtype=xp.float32) + np.float64(1.5)).dtype == xp.float32


@pytest.mark.parametrize("entry", ["result_type", "where"])
def test_numpy_scalars_at_every_entry_point(entry):
    """A NumPy scalar in ``result_type`` and ``where`` (not only in operators) is a 0-d array judged
    by its value, as NumPy 1.26 does: every array dtype with NumPy scalars of every type and several
    values, from the golden table (``numpy_scalars``, generated by NumPy 1.26.4 itself)."""
    cases = [c for c in OPS_GOLDEN["numpy_scalars"] if c["entry"] == entry]
    assert len(cases) > 700
    condition = NS.asarray([True, False])
    bad = []
    for case in cases:
        array_spec, scalar_spec = case["operands"]
        scalar_name, _, literal = scalar_spec[3:].partition("=")
        x = NS.ones(2, dtype=dtype_by_name(array_spec[3:]))
        scalar = np.dtype(scalar_name).type(ast.literal_eval(literal))
        try:
            got = (NS.result_type(x, scalar) if entry == "result_type" else NS.where(condition, x, scalar).dtype).name
        except TypeError:
            got = "TypeError"
        want = case["result"] if isinstance(case["result"], str) else "TypeError"
        if got != want:
            bad.append(f"{entry}({array_spec}, {scalar_spec}): NumPy 1.26 {want}, ours {got}")
    assert not bad, f"{len(bad)} of {len(cases)} differ:\n" + "\n".join(bad[:40])


def test_value_based_promotion_depends_on_operand_order():
    """NumPy 1.26 (checked live): np.result_type(bool, int8, 0) is int8 but
    np.result_type(0, bool, int8) is int16 -- a small unsigned value loses its flag against
    bool.  The policy folds in the same order."""
    b, i = promotion.nd(dtype_by_name("bool")), promotion.nd(dtype_by_name("int8"))
    assert POLICY.result_type(b, i, 0).name == "int8"
    assert POLICY.result_type(0, b, i).name == "int16"
    assert POLICY.result_type(b, 0, i).name == "int16"
