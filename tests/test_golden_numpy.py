"""The ``numpy`` and ``numpy@2.4`` policies against golden tables generated from real NumPy 2.5.5 and 2.4.6.

The tables (``tests/data/numpy_<version>_promotion.json``, ``numpy_<version>_ops.json``) are
produced by ``tools/gen_numpy_golden.py``, which records the NumPy version.  The pair and
operation records of each release are replayed under the policy that follows it
(``RELEASES``).  The ``test_live_*`` tests also compare with the installed NumPy when it is
one of those releases.

Mapping of NumPy outcomes to ours: a dtype name -> the policy gives that dtype; a
``TypeError`` (``UFuncTypeError`` and friends are subclasses) -> a ``TypeError``;
``OverflowError`` -> ``OverflowError``.
"""

from __future__ import annotations

import ast
import json
import pathlib
from collections import defaultdict

import numpy as np
import pytest
from golden_helpers import SCALAR_CALLS, decide, note  # tests/ is on sys.path (rootdir-relative import mode)

from array_api_promo import promotion
from array_api_promo._dtypes import dtype_by_name

DATA = pathlib.Path(__file__).parent / "data"
# policy -> the NumPy release it follows
RELEASES = {"numpy": "2.5.5", "numpy@2.4": "2.4.6"}
TABLES = {
    name: tuple(json.loads((DATA / f"numpy_{version}_{kind}.json").read_text()) for kind in ("promotion", "ops"))
    for name, version in RELEASES.items()
}
GOLDEN, OPS_GOLDEN = TABLES["numpy"]
POLICY = promotion.get_policy("numpy")

_ERRORS = {"OverflowError": OverflowError}


def operand(spec: str):
    kind, _, val = spec.partition(":")
    if kind == "py":
        return ast.literal_eval(val)
    return (promotion.nd if kind == "nd" else promotion.zero_d)(dtype_by_name(val))


def expected(record):
    """(dtype name or None, exception class or None)"""
    if isinstance(record, str):
        return record, None
    return None, _ERRORS.get(record["error"], TypeError)


def outcome(fn, *args):
    try:
        return fn(*args).name, None, ""
    except (TypeError, OverflowError) as exc:
        return None, type(exc), str(exc)


def mismatch(record, got) -> str | None:
    want, want_exc = expected(record)
    name, exc, msg = got
    if want_exc is not None:
        if exc is None:
            return f"NumPy raises {record['error']}: {record['message']!r}; policy gave {name}"
        if not issubclass(exc, want_exc):
            return f"NumPy raises {record['error']}; policy raised {exc.__name__}: {msg}"
        return None
    if exc is not None:
        return f"NumPy gives {want}; policy raised {exc.__name__}: {msg}"
    return None if name == want else f"NumPy gives {want}; policy gave {name}"


def report(bad, total, what, version=None):
    if bad:
        shown = "\n".join(bad[:60])
        pytest.fail(f"{len(bad)} of {total} {what} differ from NumPy {version or GOLDEN['numpy_version']}:\n{shown}")


# -- table sanity --------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(RELEASES))
def test_metadata_and_size(name):
    golden, ops_golden = TABLES[name]
    assert golden["generator"] == ops_golden["generator"] == "tools/gen_numpy_golden.py"
    assert golden["numpy_version"] == ops_golden["numpy_version"] == RELEASES[name]
    assert sorted(d.name for d in promotion.get_policy(name).dtypes) == sorted(golden["dtypes"])
    n = 2 * len(golden["dtypes"]) + len(golden["py_literals"])
    assert len(golden["cases"]) == n * n


def test_promote_types_table_is_numpys():
    bad = []
    for a, row in GOLDEN["promote_types"].items():
        for b, want in row.items():
            got = POLICY.table.join(dtype_by_name(a), dtype_by_name(b))
            if got is None or got.name != want:
                bad.append(f"promote_types({a}, {b}): NumPy {want}, policy {got}")
    report(bad, len(GOLDEN["dtypes"]) ** 2, "promote_types entries")


def test_can_cast_is_safe_casting():
    for a, row in GOLDEN["can_cast_safe"].items():
        for b, want in row.items():
            assert POLICY.can_cast(dtype_by_name(a), dtype_by_name(b)) is want, (a, b)


def test_inplace_rule_is_same_kind_casting():
    for a, row in GOLDEN["can_cast_same_kind"].items():
        for b, want in row.items():
            try:
                POLICY.inplace_result("iadd", dtype_by_name(a), dtype_by_name(b))
                got = True
            except TypeError:
                got = False
            assert got is want, f"same_kind {a} -> {b}: NumPy {want}"


def test_ufunc_loops_are_numpys():
    """The policy's loop data is ``np.<ufunc>.types`` restricted to our dtypes."""
    from array_api_promo.promotion import numpy as npmod

    for op, loops in OPS_GOLDEN["ufunc_loops"].items():
        if loops is None:
            assert op not in npmod._LOOPS, op
            continue
        ours = [[[d.name for d in ins], out.name] for ins, out in npmod._LOOPS[op]]
        # NumPy lists a few loops twice (float/double inner loops); order is what matters
        theirs = []
        for rec in loops:
            if rec not in theirs:
                theirs.append(rec)
        assert ours == theirs, op


# -- pairs ---------------------------------------------------------------------------------
_BY_FIRST = defaultdict(list)
for _name, (_golden, _) in TABLES.items():
    for _case in _golden["cases"]:
        _BY_FIRST[(_name, _case["operands"][0])].append(_case)


def add_dtype(policy, *operands):
    """The dtype ``np.add`` gives (its Python int operands checked against it)."""
    sig, scalars = policy.signature(operands)
    result = policy.resolve(sig)
    for value in scalars:
        policy.check_scalar(value, result, "add")
    return result


@pytest.mark.parametrize("name,first", sorted(_BY_FIRST), ids=str)
def test_pairs(name, first):
    """``np.result_type`` (types only) and ``np.add`` (values checked) for every pair."""
    policy = promotion.get_policy(name)
    bad = []
    cases = _BY_FIRST[(name, first)]
    for case in cases:
        ops = [operand(s) for s in case["operands"]]
        label = f"({', '.join(case['operands'])})"
        note(bad, f"np.result_type{label}", mismatch(case["result_type"], outcome(policy.result_type, *ops)))
        note(bad, f"np.add{label}", mismatch(case["add"], outcome(lambda *a: add_dtype(policy, *a), *ops)))
    report(bad, 2 * len(cases), "cases", RELEASES[name])


def test_nep50_headline_rules():
    d = dtype_by_name
    nd, zd = promotion.nd, promotion.zero_d
    assert POLICY.result_type(nd(d("int64")), nd(d("float32"))) is d("float64")
    assert POLICY.result_type(nd(d("uint64")), zd(d("int64"))) is d("float64")
    assert POLICY.result_type(nd(d("float32")), zd(d("float64"))) is d("float64")  # 0-d is strong
    assert POLICY.result_type(nd(d("float32")), 1.5) is d("float32")  # Python float is weak
    assert POLICY.result_type(nd(d("int8")), 1.5) is d("float64")
    assert POLICY.result_type(nd(d("float32")), 1j) is d("complex64")
    assert POLICY.result_type(nd(d("bool")), 1) is d("int64")
    assert POLICY.result_type(nd(d("uint8")), 1000) is d("uint8")  # np.result_type checks no value
    with pytest.raises(OverflowError, match="numpy"):
        add_dtype(POLICY, nd(d("int8")), 1000)  # np.add does


# -- operations ------------------------------------------------------------------------------
def policy_op(name, operands, inplace=False, policy=POLICY):
    decision = decide(policy, name, operands)
    if inplace:
        policy.inplace_result(f"{name} (in-place)", decision.result, operands[0].dtype)
        return operands[0].dtype
    return decision.result


_OP_CASES = defaultdict(list)
for _name, (_, _ops_golden) in TABLES.items():
    for _section in ("unary", "binary", "inplace"):
        for _case in _ops_golden[_section]:
            _OP_CASES[(_name, _section, _case["op"])].append(_case)


@pytest.mark.parametrize("name,section,op", sorted(_OP_CASES), ids=lambda v: str(v))
def test_ops(name, section, op):
    policy = promotion.get_policy(name)
    bad = []
    cases = _OP_CASES[(name, section, op)]
    for case in cases:
        ops = [operand(s) for s in case["operands"]]
        got = outcome(lambda *a: policy_op(op, a, section == "inplace", policy), *ops)
        note(bad, f"{section} {op}({', '.join(case['operands'])})", mismatch(case["result"], got))
    report(bad, len(cases), f"{section} {op} cases", RELEASES[name])


def test_op_surprises():
    """The rules the golden tables taught (each also covered above)."""
    d = dtype_by_name
    nd = promotion.nd
    sqrt, atan2, divide = (promotion.op_spec(n) for n in ("sqrt", "atan2", "divide"))
    assert POLICY.decide(sqrt, (nd(d("int8")),)).result is d("float16")
    assert POLICY.decide(sqrt, (nd(d("int16")),)).result is d("float32")
    assert POLICY.decide(sqrt, (nd(d("int32")),)).result is d("float64")
    assert POLICY.decide(atan2, (nd(d("int8")), nd(d("uint8")))).result is d("float16")
    assert POLICY.decide(divide, (nd(d("int8")), nd(d("int8")))).result is d("float64")
    with pytest.raises(TypeError, match="boolean subtract"):
        POLICY.decide(promotion.op_spec("subtract"), (nd(d("bool")), nd(d("bool"))))


# -- the namespace under the numpy policy ----------------------------------------------------
def test_namespace_values_follow_numpy():
    import array_api_promo as xp

    ns = xp.namespace("numpy")
    a = ns.asarray([1, 2], dtype=ns.int8)
    assert (a + 1).dtype is ns.int8
    assert (a / a).dtype is ns.float64
    assert np.asarray(a == 1000).tolist() == [False, False]  # exact comparison, no error
    assert np.asarray(a < 1000).tolist() == [True, True]
    with pytest.raises(OverflowError):
        a + 1000
    with pytest.raises(OverflowError):
        ns.where(a > 1, a, 1000)  # NumPy 2.5's np.where checks the int as + does
    old = xp.namespace("numpy@2.4")
    b = old.asarray([1, 2], dtype=old.int8)
    assert np.asarray(old.where(b > 1, b, 1000)).tolist() == [-24, 2]  # NumPy 2.4's wraps it
    u = ns.asarray([1], dtype=ns.uint64)
    assert (u + ns.asarray([1], dtype=ns.int64)).dtype is ns.float64


# -- live comparison with NumPy --------------------------------------------------------------
def _live():
    """The policy following the installed NumPy and its promotion table (skips for another NumPy)."""
    for name, version in RELEASES.items():
        if np.__version__ == version:
            return promotion.get_policy(name), TABLES[name][0]
    pytest.skip(f"tables are from NumPy {', '.join(RELEASES.values())}, found {np.__version__}")


def _np_operand(spec):
    kind, _, val = spec.partition(":")
    if kind == "py":
        return ast.literal_eval(val)
    return np.ones(2 if kind == "nd" else (), dtype=val)


def _np_outcome(fn):
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn()
    except Exception as exc:  # noqa: BLE001
        return {"error": type(exc).__name__, "message": str(exc).splitlines()[0] if str(exc) else ""}
    return str(getattr(out, "dtype", out))


def test_live_table_is_current():
    _, golden = _live()
    for case in golden["cases"][::37]:
        a, b = (_np_operand(s) for s in case["operands"])
        assert _np_outcome(lambda: np.add(a, b)) == case["add"], case


_LIVE_SCALARS = [0, 7, -3, 255, 256, -(2**31), 2**40, 2**63 - 1, 2**63, 2**64, 0.25, 1e300, True, False, 2j]


def test_live_random_triples():
    """Random triples (an array first, then arrays or Python scalars): policy vs ``np.result_type``.

    NumPy's promotion is not associative, so three operands check the policy's fold order."""
    policy, golden = _live()
    rng = np.random.default_rng(2024)
    names = golden["dtypes"]
    bad = []
    for _ in range(4000):
        np_ops, specs = [], []
        for k in range(3):
            r = int(rng.integers(3 if k else 2))  # 0: n-d, 1: 0-d, 2: Python scalar
            if r == 2:
                v = _LIVE_SCALARS[rng.integers(len(_LIVE_SCALARS))]
                np_ops.append(v)
                specs.append(f"py:{v!r}")
            else:
                name = names[rng.integers(len(names))]
                np_ops.append(np.ones(2 if r == 0 else (), dtype=name))
                specs.append(("nd:" if r == 0 else "0d:") + name)
        ops = [operand(s) for s in specs]
        rec = _np_outcome(lambda: np.result_type(*np_ops))
        note(bad, f"np.result_type({', '.join(specs)})", mismatch(rec, outcome(policy.result_type, *ops)))
    report(sorted(set(bad)), 4000, "random triples")


_NP_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
_NP_DTYPES += ["float32", "float64", "complex64", "complex128"]


@pytest.mark.skipif(np.__version__.split(".")[0] != "2", reason="the numpy policy is NumPy 2's rules")
@pytest.mark.parametrize("entry", ["result_type", "where"])
def test_numpy_scalars_at_every_entry_point(entry):
    """A NumPy scalar is a 0-d array of its dtype under ``numpy`` in ``result_type`` and ``where``
    too, not only in operators: every array dtype with every NumPy scalar type, against NumPy."""
    import array_api_promo as xp

    ns = xp.namespace("numpy")
    cond, cond_np = ns.asarray([True, False]), np.array([True, False])
    bad = []
    for a, b in [(a, b) for a in _NP_DTYPES for b in _NP_DTYPES]:
        x, x_np, s = ns.ones(2, dtype=dtype_by_name(a)), np.ones(2, dtype=a), np.dtype(b).type(1)
        if entry == "result_type":
            want, got = np.result_type(x_np, s).name, ns.result_type(x, s).name
        else:
            want, got = np.where(cond_np, x_np, s).dtype.name, ns.where(cond, x, s).dtype.name
        if want != got:
            bad.append(f"{entry}({a} array, np.{b}(1)): NumPy {want}, ours {got}")
    assert not bad, bad


# -- linear algebra ----------------------------------------------------------------------------
_LINALG_CALLS = {
    "solve": lambda ns, a: ns.linalg.solve(a, a),
    "matrix_power": lambda ns, a: ns.linalg.matrix_power(a, 2),
}


@pytest.mark.parametrize("name", sorted(RELEASES))
def test_linalg_of_every_dtype(name):
    """``np.linalg.<function>`` of ``[[2, 1], [1, 2]]`` of every dtype, replayed in the namespace:
    integer and bool input computes in float64 (``linalg.solve`` of int64 is float64), float16 is
    refused by the LAPACK functions; each part of a tuple result has NumPy's dtype."""
    import array_api_promo as xp

    ns = xp.namespace(name)
    bad = []
    records = TABLES[name][1]["linalg"]
    for rec in records:
        op, dtype = rec["op"], rec["operands"][0][3:]
        want = rec["result"]
        if name == "numpy@2.4" and op in ("eig", "eigvals") and "complex" not in str(want) and "error" not in want:
            continue  # NumPy 2.4: real eigenvalues give a real result (value-dependent; the policy is 2.5's)
        a = ns.asarray([[2, 1], [1, 2]], dtype=getattr(ns, dtype))
        try:
            out = _LINALG_CALLS.get(op, lambda ns, a, op=op: getattr(ns.linalg, op)(a))(ns, a)
        except (TypeError, ValueError) as exc:
            if not isinstance(want, dict):
                bad.append(f"linalg.{op}({dtype}): NumPy gives {want}, ours raised {exc}")
            continue
        got = [o.dtype.name for o in out] if isinstance(out, tuple) else out.dtype.name
        if got != want:
            bad.append(f"linalg.{op}({dtype}): NumPy gives {want}, ours {got}")
    report(bad, len(records), "linalg records", RELEASES[name])


def test_integer_linalg_is_float64():
    import array_api_promo as xp

    ns = xp.namespace("numpy")
    a = ns.asarray([[2, 1], [1, 2]])
    assert ns.linalg.solve(a, ns.asarray([3, 3])).dtype is ns.float64
    assert np.asarray(ns.linalg.inv(a)).tolist() == np.linalg.inv(np.asarray([[2, 1], [1, 2]])).tolist()
    assert float(ns.linalg.det(a)) == pytest.approx(3.0)
    with pytest.raises(TypeError, match="float16 is unsupported in linalg"):
        ns.linalg.inv(ns.asarray([[2, 1], [1, 2]], dtype=ns.float16))


# -- NumPy scalars (NumPy's and ml_dtypes') at every entry point ---------------------------------


def _scalar(name):
    if name in GOLDEN["ml_dtypes"]["types"]:
        import ml_dtypes

        return getattr(ml_dtypes, name)(1)
    return np.dtype(name).type(1)


@pytest.mark.parametrize("name", sorted(RELEASES))
def test_numpy_scalars_against_the_table(name):
    """``x + s``, ``s + x``, ``add``, ``result_type``, ``where``, ``clip``, ``asarray`` and ``full`` of a NumPy
    scalar ``s`` of every NumPy dtype and of ml_dtypes' bfloat16 and float8 types (each holding 1) with an array
    of every dtype, as NumPy gives them: the same dtype; a refusal where NumPy refuses, or where its result is a
    dtype the policy does not have (``int8 array + bfloat16(1)`` is bfloat16: NumPy computes in it)."""
    import array_api_promo as xp

    ns, policy, golden = xp.namespace(name), promotion.get_policy(name), TABLES[name][0]
    records = golden["numpy_scalars"]
    assert {r["entry"] for r in records} == set(SCALAR_CALLS) == set(golden["numpy_scalar_calls"])
    assert set(golden["numpy_scalar_types"]) >= set(golden["ml_dtypes"]["types"])
    ours = {d.name for d in policy.dtypes}
    bad = []
    for rec in records:
        x, s = ns.ones(2, dtype=dtype_by_name(rec["dtype"])), _scalar(rec["scalar"])
        want = rec["result"] if isinstance(rec["result"], str) and rec["result"] in ours else "refused"
        try:
            with np.errstate(all="ignore"):
                out = SCALAR_CALLS[rec["entry"]](ns, x, s)
            got = out.name if rec["entry"] == "result_type" else out.dtype.name
        except (TypeError, ValueError, OverflowError):
            got = "refused"
        if got != want:
            call = golden["numpy_scalar_calls"][rec["entry"]]
            bad.append(f"{call} with x {rec['dtype']}, s {rec['scalar']}: NumPy {rec['result']}, ours {got}")
    report(bad, len(records), "NumPy scalar records", RELEASES[name])


def test_ml_dtypes_casts_are_the_policys():
    """The policy's data on ml_dtypes' types is what NumPy reports of each (both releases, ml_dtypes recorded)."""
    from array_api_promo.promotion import numpy as npmod

    for golden, _ in TABLES.values():
        casts = golden["ml_dtypes"]["types"]
        assert set(casts) == npmod._ML_DTYPES
        for ml, rec in casts.items():
            assert {dtype_by_name(d) for d in rec["safe_to"]} == npmod._ML_CAST_TO, ml
            assert {dtype_by_name(d) for d in rec["safe_from"]} == npmod._ML_CAST_FROM, ml
            assert (rec["kind"] == "f") is (ml in npmod._ML_FLOAT_KIND), ml


# -- vecdot, tensordot, outer, cross, diff ---------------------------------------------------------
_FUNCTION_CALLS = {
    "vecdot": lambda ns, a, b: ns.vecdot(a, b),
    "tensordot": lambda ns, a, b: ns.tensordot(a, b, axes=1),
    "outer": lambda ns, a, b: ns.linalg.outer(a, b),
    "cross": lambda ns, a, b: ns.linalg.cross(a, b),
    "diff": lambda ns, a, b: ns.diff(a),
}


@pytest.mark.parametrize("name", sorted(RELEASES))
def test_functions_of_every_dtype_pair(name):
    """``vecdot`` (``tensordot``, ``outer``, ``cross``) of every pair of dtypes and ``diff`` of every dtype, on
    ``[1, 0, 1]`` and ``[1, 1, 0]``: NumPy's dtype and values (``vecdot`` of two bool arrays is bool), or a refusal."""
    import array_api_promo as xp

    ns, ops_golden = xp.namespace(name), TABLES[name][1]
    assert set(ops_golden["function_calls"]) == set(_FUNCTION_CALLS)
    bad = []
    for rec in ops_golden["functions"]:
        a, b = (rec["operands"] * 2)[:2]
        x = ns.asarray([1, 0, 1], dtype=dtype_by_name(a[3:]))
        y = ns.asarray([1, 1, 0], dtype=dtype_by_name(b[3:]))
        want = rec["result"]
        where = f"{rec['op']}({', '.join(rec['operands'])})"
        try:
            out = _FUNCTION_CALLS[rec["op"]](ns, x, y)
        except (TypeError, ValueError) as exc:
            if "error" not in want:
                bad.append(f"{where}: NumPy gives {want['dtype']}, ours raised {type(exc).__name__}: {exc}")
            continue
        if "error" in want:
            bad.append(f"{where}: NumPy raises {want['error']}: {want['message']}; ours gave {out.dtype.name}")
        elif out.dtype.name != want["dtype"]:
            bad.append(f"{where}: NumPy gives {want['dtype']}, ours {out.dtype.name}")
        else:
            values = np.asarray(out._data).reshape(-1)
            expected = want["values"]
            got = [[v.real, v.imag] for v in values] if values.dtype.kind == "c" else values.tolist()
            if got != expected:
                bad.append(f"{where}: NumPy holds {expected}, ours {got}")
    report(bad, len(ops_golden["functions"]), "function records", RELEASES[name])


# -- creation with a dtype --------------------------------------------------------------------------
_CREATION_CALLS = {
    "asarray": lambda ns, v, d: ns.asarray(v, dtype=d),
    "full": lambda ns, v, d: ns.full(2, v, dtype=d),
}


@pytest.mark.parametrize("name", sorted(RELEASES))
def test_creation_values(name):
    """``asarray(v, dtype=...)`` and ``full(2, v, dtype=...)`` of Python ints in and out of range, floats,
    complex numbers, bools and NumPy scalars into every dtype: NumPy's values or refusal, whatever NumPy is
    installed (NumPy 2.0's ``np.full`` wraps ``300`` into int8 where 2.1 on raise; the policy checks it)."""
    import array_api_promo as xp

    ns, golden = xp.namespace(name), TABLES[name][0]
    records = golden["creation_values"]
    assert set(golden["creation_calls"]) == set(_CREATION_CALLS)
    bad = []
    for rec in records:
        v = eval(rec["value"], {"np": np})  # noqa: S307 - the table's own literals
        want = rec["result"]
        where = f"{golden['creation_calls'][rec['entry']]} with {rec['dtype']}, v={rec['value']}"
        try:
            with np.errstate(all="ignore"):
                out = _CREATION_CALLS[rec["entry"]](ns, v, dtype_by_name(rec["dtype"]))
        except (TypeError, ValueError, OverflowError) as exc:
            if "error" not in want:
                bad.append(f"{where}: NumPy gives {want['values']}, ours raised {type(exc).__name__}: {exc}")
            elif want["error"] == "OverflowError" and not isinstance(exc, OverflowError):
                bad.append(f"{where}: NumPy raises OverflowError, ours {type(exc).__name__}: {exc}")
            continue
        if "error" in want:
            bad.append(f"{where}: NumPy raises {want['error']}: {want['message']}; ours gave {out}")
            continue
        values = np.asarray(out._data).reshape(-1)
        got = [[v.real, v.imag] for v in values.tolist()] if values.dtype.kind == "c" else values.tolist()
        if out.dtype.name != want["dtype"] or got != want["values"]:
            bad.append(f"{where}: NumPy gives {want['dtype']} {want['values']}, ours {out.dtype.name} {got}")
    report(bad, len(records), "creation records", RELEASES[name])
