"""The faster paths of the data-bound functions give what the general path gives, bit for bit.

- ``unique_*`` without a first index sort without keeping equal values in order (NumPy's hash
  table for the unique integer values alone); the general path sorts stably. Compared on the
  special values of every dtype (signed zeros, NaNs of both signs, infinities, subnormals,
  the integer bounds) and on hypothesis' arrays, through ``_unique`` itself and the namespace.
- ``var``/``std`` square the deviations in place; the general formula is re-computed here.
- ``clip`` with two 0-d bounds is NumPy's one-pass ``clip`` where that equals
  ``minimum(maximum(x, min), max)`` bit for bit, else those two passes.
- ``a * 2.0 + b`` computes into the buffer of a temporary that only the expression holds
  (compiled paths only): never into an array anyone else can see.

Every test here runs on the compiled and the pure-Python paths alike (CI runs the suite both ways).
"""

from __future__ import annotations

import gc
import math
import sys
import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import array_api_promo as xp
import array_api_promo.torch as tx
from array_api_promo import _core, promotion
from array_api_promo._set_functions import _unique

NAMESPACES = pytest.mark.parametrize("ns", [xp, tx], ids=["array_api", "torch"])


class _CrossedClip(promotion.ArrayAPIPolicy):
    """The standard's rules with clip's crossed bounds computed (the array_api policy refuses them:
    test_strict_refusals.py), so that the kernel's bits are compared on any bounds."""

    name = "array_api_crossed_clip"
    undefined_refusals = promotion.ArrayAPIPolicy.undefined_refusals - {"crossed_clip"}


def _crossed_clip_allowed(ns):
    return xp.namespace(_CrossedClip()) if "crossed_clip" in ns._runtime.policy.undefined_refusals else ns


FLOATS = ["float16", "float32", "float64"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
_NAN_BITS = {"float16": np.uint16(0xFE00), "float32": np.uint32(0xFFC00000), "float64": np.uint64(0xFFF8000000000000)}


def _special(dtype: str) -> np.ndarray:
    """The special values of a dtype, repeated and shuffled so that equal values meet."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        values = np.array([True, False, True], dtype=dt)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        values = np.array([info.min, info.max, 0, 1, info.max - 1, info.min + 1], dtype=dt)
    elif dt.kind == "f":
        info = np.finfo(dt)
        values = np.array(
            [
                math.nan,
                math.inf,
                -math.inf,
                0.0,
                -0.0,
                1.5,
                -1.5,
                float(info.max),
                float(info.min),
                float(info.smallest_subnormal),
            ],
            dtype=dt,
        )
        minus_nan = _NAN_BITS[dtype].view(dt)  # a NaN with its sign bit set: other bits than NaN's
        values = np.append(values, minus_nan)
    else:  # complex
        parts = [math.nan, math.inf, 0.0, -0.0, 1.5]
        values = np.array([complex(a, b) for a in parts for b in parts], dtype=dt)
    rng = np.random.default_rng(0)
    return rng.permutation(np.tile(values, 7))


def _bits(a) -> bytes:
    a = np.asarray(a)
    return a.dtype.str.encode() + repr(a.shape).encode() + a.tobytes()


ALL_DTYPES = ["bool", *INTS, *FLOATS, "complex64", "complex128"]


# -- unique ----------------------------------------------------------------------------------------
def _assert_unique_like_stable(flat):
    for index, inverse, counts in [
        (False, False, False),
        (False, False, True),
        (False, True, False),
        (True, True, True),
    ]:
        fast = _unique(flat, index=index, inverse=inverse, counts=counts)
        general = _unique(flat, index=index, inverse=inverse, counts=counts, stable=True)
        assert [_bits(a) for a in fast] == [_bits(a) for a in general], (flat, index, inverse, counts)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_unique_without_index_is_the_stable_sorts_answer_on_special_values(dtype):
    values = _special(dtype)
    for flat in (values, values[:0], values[:1], values[::-1].copy(), np.tile(values, 40)):
        _assert_unique_like_stable(flat)


def test_unique_keeps_the_sign_of_the_first_zero_and_every_nan():
    for first in (0.0, -0.0):
        flat = np.array([3.0, first, 1.0, -first, 0.0, -0.0] * 20)
        values = _unique(flat, index=False, inverse=False, counts=True)[0]
        assert values.tolist() == [0.0, 1.0, 3.0] and math.copysign(1, values[0]) == math.copysign(1, first)
    nan = np.array([np.nan, 1.0, _NAN_BITS["float64"].view(np.float64), np.nan])
    values, counts = _unique(nan, index=False, inverse=False, counts=True)
    assert np.isnan(values[1:]).all() and counts.tolist() == [1, 1, 1, 1]  # NaNs distinct
    assert _bits(values) == _bits(_unique(nan, index=False, inverse=False, counts=True, stable=True)[0])


@settings(max_examples=300, deadline=None)
@given(
    hnp.arrays(
        st.sampled_from(ALL_DTYPES).map(np.dtype),
        st.integers(0, 300),
        elements=None,
    )
)
def test_unique_without_index_matches_the_stable_sort_on_hypothesis_arrays(flat):
    _assert_unique_like_stable(flat)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0.0, -0.0, 1.0, -1.0, math.inf, math.nan, 2.5]), max_size=200))
def test_unique_of_few_float_values_matches_the_stable_sort(values):
    for dtype in FLOATS:
        _assert_unique_like_stable(np.array(values, dtype=dtype))


@NAMESPACES
@pytest.mark.parametrize("dtype", ["int64", "uint8", "float64", "float32", "bool"])
def test_unique_functions_answer_as_the_stable_sort(ns, dtype):
    data = _special(dtype).reshape(-1, 7)
    x = ns.asarray(data)
    flat = data.reshape(-1)
    v, i, inv, c = _unique(flat, index=True, inverse=True, counts=True, stable=True)
    assert _bits(ns.unique_values(x)._data) == _bits(v)
    counts = ns.unique_counts(x)
    assert _bits(counts.values._data) == _bits(v) and counts.counts._data.tolist() == c.tolist()
    inverse = ns.unique_inverse(x)
    assert _bits(inverse.values._data) == _bits(v)
    assert inverse.inverse_indices._data.tolist() == inv.reshape(data.shape).tolist()
    everything = ns.unique_all(x)
    assert everything.indices._data.tolist() == i.tolist()
    assert (
        counts.counts.dtype
        == inverse.inverse_indices.dtype
        == ns.__array_namespace_info__().default_dtypes()["indexing"]
    )


# -- var and std -----------------------------------------------------------------------------------
def _general_variance(data, axes, correction, keepdims, working):
    """The general formula (deviations, their squares in a new array, their sum), as before."""
    count = math.prod(data.shape[a] for a in axes)
    with np.errstate(all="ignore"):
        if not count:
            return None
        dev = data - np.sum(data, axis=axes, keepdims=True) / data.dtype.type(count)
        squares = dev.real * dev.real + dev.imag * dev.imag if dev.dtype.kind == "c" else dev * dev
        total = np.sum(squares, axis=axes, keepdims=keepdims).astype(working, copy=False)
        divisor = count - correction
        zero = working.type(0)  # no degrees of freedom: 0 / 0's NaN, as NumPy's var (total's own where it is NaN)
        return total / working.type(divisor) if divisor > 0 else total * zero / zero


@NAMESPACES
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("correction", [0, 1, 1.5, 40])
@pytest.mark.parametrize("keepdims", [False, True])
def test_var_and_std_give_the_general_formulas_bits(ns, dtype, axis, correction, keepdims):
    if dtype == "complex128" and ns is xp:
        pytest.skip("the standard's var takes real input only (torch's takes complex)")
    data = _special(dtype)[:35].reshape(5, 7)
    data = np.concatenate([data, np.linspace(-3, 3, 35, dtype=dtype).reshape(5, 7)])
    x = ns.asarray(data)
    axes = tuple(range(2)) if axis is None else (axis,) if isinstance(axis, int) else axis
    working = np.dtype("float64" if dtype != "float32" else "float32")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the standard's NaN/inf results come quietly
        var = ns.var(x, axis=axis, correction=correction, keepdims=keepdims)
        std = ns.std(x, axis=axis, correction=correction, keepdims=keepdims)
    expected = _general_variance(data, axes, correction, keepdims, working)
    assert _bits(var._data) == _bits(np.asarray(expected, dtype=var._data.dtype))
    with np.errstate(invalid="ignore"):
        assert _bits(std._data) == _bits(np.asarray(np.sqrt(expected), dtype=std._data.dtype))


@NAMESPACES
def test_var_of_a_0d_and_an_empty_array(ns):
    zero_d = ns.asarray(2.5)
    assert float(ns.var(zero_d)) == 0.0 and float(ns.std(zero_d)) == 0.0
    assert math.isnan(float(ns.var(zero_d, correction=1)))
    assert math.isnan(float(ns.var(ns.asarray(np.zeros(0)))))
    x = ns.asarray(np.arange(6.0).reshape(2, 3))
    before = x._data.copy()
    ns.var(x, axis=0)
    assert (x._data == before).all()  # the input is never squared in place


@settings(max_examples=150, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=6)), st.sampled_from([0, 1, 2.5]))
def test_var_matches_the_general_formula_on_hypothesis_arrays(data, correction):
    x = xp.asarray(data)
    for axis in [None, 0, data.ndim - 1]:
        axes = tuple(range(data.ndim)) if axis is None else (axis,)
        expected = _general_variance(data, axes, correction, False, np.dtype("float64"))
        got = xp.var(x, axis=axis, correction=correction)._data
        if expected is None:
            continue
        assert _bits(got) == _bits(np.asarray(expected, dtype=np.float64))


# -- clip ------------------------------------------------------------------------------------------
def _two_passes(data, lo, hi):
    out = data
    if lo is not None:
        out = np.maximum(out, lo)
    if hi is not None:
        out = np.minimum(out, hi)
    return out


def _bounds(dtype):
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return [int(info.min), int(info.max), 0, 1, -1 if dt.kind == "i" else 2]
    return [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.5, -1.5, 5e-324]


@NAMESPACES
@pytest.mark.parametrize("dtype", [*INTS, *FLOATS])
def test_clip_with_two_bounds_gives_the_two_passes_bits(ns, dtype):
    if dtype == "float16" and ns is xp:
        pytest.skip("no float16 in the standard")
    data = _special(dtype)
    x = ns.asarray(data)
    policy = x._runtime.policy
    bounds = _bounds(dtype) + [None]
    for lo in bounds:
        for hi in bounds:
            try:
                out = ns.clip(x, lo, hi)
            except (TypeError, OverflowError, ValueError):  # a bound the policy refuses for this dtype
                continue
            lo_, hi_ = (
                None if v is None else policy.convert_bound(v, x.dtype, which)
                for v, which in ((lo, "min"), (hi, "max"))
            )
            with np.errstate(all="ignore"):
                expected = _two_passes(data, lo_, hi_)
            assert _bits(out._data) == _bits(np.asarray(expected, dtype=data.dtype)), (lo, hi)
            assert out._data is not data and not np.shares_memory(out._data, data)


@NAMESPACES
def test_clip_of_integers_saturates_and_copies(ns):
    x = ns.asarray(np.array([0, 100, 255], dtype=np.uint8))
    assert ns.clip(x, -5, 300)._data.tolist() == [0, 100, 255]
    assert ns.clip(x, 50, 60)._data.tolist() == [50, 60, 60]
    y = ns.clip(x, 0, 255)
    assert y._data is not x._data and not np.shares_memory(y._data, x._data)


@settings(max_examples=300, deadline=None)
@given(
    hnp.arrays(st.sampled_from(["float32", "float64", "int16", "int64"]).map(np.dtype), st.integers(0, 40)),
    st.floats(allow_nan=True, width=32),
    st.floats(allow_nan=True, width=32),
)
def test_clip_matches_two_passes_on_hypothesis_arrays(data, lo, hi):
    if data.dtype.kind in "iu":
        lo, hi = (int(v) if math.isfinite(v) else 0 for v in (lo, hi))
    ns = _crossed_clip_allowed(xp)
    try:
        out = ns.clip(ns.asarray(data), lo, hi)._data
    except (TypeError, OverflowError):
        return
    with np.errstate(all="ignore"):
        if data.dtype.kind == "f":
            expected = _two_passes(data, data.dtype.type(lo), data.dtype.type(hi))
        else:
            info = np.iinfo(data.dtype)
            expected = _two_passes(data, np.clip(lo, info.min, info.max), np.clip(hi, info.min, info.max)).astype(
                data.dtype
            )
    assert _bits(out) == _bits(expected)


@NAMESPACES
def test_clip_with_array_bounds_takes_one_result_of_the_final_shape(ns):
    ns = _crossed_clip_allowed(ns)
    n = 1 << 17
    rng = np.random.default_rng(5)
    data, lo, hi = rng.random(n), rng.random(n) - 0.5, rng.random(n) + 0.5
    lo[::7], hi[::11] = np.nan, -0.0
    x, a, b = ns.asarray(data), ns.asarray(lo), ns.asarray(hi)
    with np.errstate(all="ignore"):
        assert _bits(ns.clip(x, a, b)._data) == _bits(_two_passes(data, lo, hi))
    # minimum's pass goes into maximum's result: one array of n float64s at the peak, not two
    assert _peak(lambda: ns.clip(x, a, b)) < 1.5 * 8 * n
    # a bound that broadcasts the result larger cannot take it in place
    rows = np.stack([hi, hi - 1.0])
    wide = ns.clip(x, a, ns.asarray(rows))
    with np.errstate(all="ignore"):
        assert _bits(wide._data) == _bits(_two_passes(data, lo, rows)) and wide.shape == (2, n)
    both, corner = np.stack([data, data]), hi[:1].reshape(1, 1)
    column = ns.clip(ns.asarray(both), a, ns.asarray(corner))
    with np.errstate(all="ignore"):
        assert column.shape == (2, n) and _bits(column._data) == _bits(_two_passes(both, lo, corner))
    # below _ONE_PASS_MIN an n-d bound takes a fresh result (cheaper than the shape check): same bits
    small, small_lo, small_hi = data[:10], lo[:10], hi[:10]
    fresh = ns.clip(ns.asarray(small), ns.asarray(small_lo), ns.asarray(small_hi))
    with np.errstate(all="ignore"):
        assert _bits(fresh._data) == _bits(_two_passes(small, small_lo, small_hi))


# -- temporary elision -------------------------------------------------------------------------------
N = 1 << 16  # 512 KiB of float64: above NumPy's (and the compiled path's) 256 KiB threshold
compiled = pytest.mark.skipif(not _core.COMPILED, reason="elision is the compiled operators'")


def _big(ns, dtype=np.float64, seed=0):
    return ns.asarray((np.random.default_rng(seed).random(N) + 0.5).astype(dtype))


def _peak(expression) -> int:
    """The memory an expression's evaluation takes at its peak (after one call: the plans are found)."""
    expression()
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        result = expression()
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    del result
    return peak


@compiled
@pytest.mark.skipif(
    sys.version_info < (3, 11), reason="temporaries are reused from Python 3.11 (one BINARY_OP instruction)"
)
@NAMESPACES
def test_a_temporary_only_the_expression_holds_is_reused(ns):
    a, b = _big(ns), _big(ns, seed=1)
    nbytes = a._data.nbytes
    # one 512 KiB buffer for two operations, as NumPy's own operators
    assert _peak(lambda: a * 2.0 + b) < 1.5 * nbytes
    assert _peak(lambda: (a - 1.0) / 3.0 - b * 2.0) < 2.5 * nbytes
    np_a, np_b = a._data, b._data
    assert _peak(lambda: np_a * 2.0 + np_b) < 1.5 * nbytes  # (NumPy's, for scale)
    expected = a._data * 2.0 + b._data
    assert _bits((a * 2.0 + b)._data) == _bits(expected)
    assert _bits((b + a * 2.0)._data) == _bits(b._data + a._data * 2.0)
    assert _bits((1.0 / (a * 2.0))._data) == _bits(1.0 / (a._data * 2.0))


@compiled
@NAMESPACES
def test_no_array_anyone_can_see_is_written(ns):
    a, b = _big(ns), _big(ns, seed=1)
    keep_a, keep_b = a._data.copy(), b._data.copy()
    # operands with names
    t = a * 2.0
    t_before = t._data.copy()
    u = t + b
    assert _bits(t._data) == _bits(t_before) and _bits(u._data) == _bits(t_before + keep_b)
    # an array wrapping the user's ndarray (asarray does not copy): its buffer is shared
    nd = keep_a.copy()
    r = ns.asarray(nd) + 1.0
    assert _bits(nd) == _bits(keep_a) and _bits(r._data) == _bits(keep_a + 1.0)
    # views: a slice, a reshape, a transpose (their buffers belong to another array)
    r = a[:] * 3.0
    r = a[::2] + 1.0
    r = ns.reshape(a, (2, -1)) - 1.0
    r = ns.reshape(a, (2, -1)).mT + 1.0
    r = ns.reshape(a * 2.0, (2, -1)) + 1.0  # a view of a temporary: its base is not the array's own
    assert _bits(r._data) == _bits((keep_a * 2.0).reshape(2, -1) + 1.0)
    # a temporary with a view taken of it before (via a container), and one with a weak reference
    views = []
    r = (lambda s: (views.append(s[1:]), s)[1])(a * 2.0) + 1.0
    assert _bits(views[0]._data) == _bits((keep_a * 2.0)[1:])
    assert _bits(a._data) == _bits(keep_a) and _bits(b._data) == _bits(keep_b)
    # an array returned by a function is held by nothing else either: reusing it is right
    assert _bits((ns.exp(a) * 2.0)._data) == _bits(np.exp(keep_a) * 2.0)
    del r, u


@compiled
def test_a_temporary_with_a_weak_reference_or_a_dlpack_export_is_not_written():
    import weakref

    a = _big(xp)
    refs = []

    def keep_weakly(s):
        refs.append(weakref.ref(s))
        return s

    before = (a._data * 2.0).copy()
    kept = []

    def export(s):
        kept.append(np.from_dlpack(s))
        return s

    r = export(a * 2.0) + 1.0
    assert _bits(kept[0]) == _bits(before) and _bits(r._data) == _bits(before + 1.0)
    r = keep_weakly(a * 2.0) + 1.0
    assert _bits(r._data) == _bits(before + 1.0)


@compiled
@NAMESPACES
def test_no_elision_where_the_result_dtype_or_shape_differs(ns):
    f = _big(ns, np.float32)
    d = _big(ns, np.float64, seed=1)
    if ns is xp:
        r = (f * 2.0) + d  # float32 temporary, float64 result
        assert r.dtype == ns.float64 and _bits(r._data) == _bits(
            (f._data * np.float32(2.0)).astype(np.float64) + d._data
        )
    col = ns.reshape(d, (-1, 1))
    r = (f[:256] * 2.0) + col[:256, :]  # broadcasting to a larger shape than the temporary's
    assert r.shape == (256, 256)
    i = ns.asarray(np.arange(N, dtype=np.int64))
    if ns is tx:
        r = (i * 2) / 3  # int64 temporary, float result (torch's true division)
        assert r.dtype == ns.float32 and r._data[3] == 2.0
    r = (i * 2) > 5  # bool result
    assert r.dtype == ns.bool


@compiled
def test_no_elision_for_matmul_or_from_a_function_call():
    m = xp.asarray(np.random.default_rng(0).random((256, 256)))
    expected = (m._data * 2.0) @ m._data
    assert np.allclose(((m * 2.0) @ m)._data, expected)
    a, b = _big(xp), _big(xp, seed=1)
    r = xp.add(a * 2.0, b)
    assert _bits(r._data) == _bits(a._data * 2.0 + b._data)
    import operator

    assert _bits(operator.add(a * 2.0, b)._data) == _bits(a._data * 2.0 + b._data)
    assert _bits(sum([a * 2.0, b, b])._data) == _bits(a._data * 2.0 + b._data + b._data)


@compiled
def test_elision_keeps_floating_point_errors_and_warnings():
    a = _big(xp)
    zero = xp.asarray(np.zeros(N))
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        r = (a * 2.0) / zero
    assert np.isinf(r._data).all()
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
        (a * 2.0) / zero


def test_refcounts_are_what_the_compiled_path_assumes():
    # the Python side of the assumption: a named array is held twice while an operator runs
    a = _big(xp)
    assert sys.getrefcount(a) >= 2
