"""The per-call paths of the non-elementwise functions answer exactly as the general path does.

A namespace of a fresh user policy starts with empty caches, so its first call of a signature
takes the general path; a second namespace, warmed up with another call of the same signature,
takes the fast one. Both must give the same array (dtype, device, NumPy dtype, shape, bytes)
or the same error (type and message) and the same warnings, under every policy, on the special
values. Where a path has no memory (tuple keys, zeros(n), concat, permute_dims) it is compared
with the general path's spelling of the same call. Runs on the compiled and the pure-Python
paths alike (CI runs the suite both ways).
"""

from __future__ import annotations

import contextlib
import math
import warnings

import numpy as np
import pytest
from fast_path_helpers import (  # tests/ is on sys.path (rootdir-relative import mode)
    fresh_namespace,
    outcome,
    special_values,
)
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import array_api_promo as xp
from array_api_promo import DEVICE1, promotion
from array_api_promo._array import _REAL

POLICIES = promotion.available_policies()


_fresh = fresh_namespace


def _outcome(call):
    return outcome(call, _describe)


def _describe(out):
    if isinstance(out, tuple) and not hasattr(out, "_fields"):
        return tuple(_describe(o) for o in out)
    if out is None or not hasattr(out, "_data"):
        return out  # a dtype, an finfo
    data = np.asarray(out._data)
    return ("array", out.dtype, out.device, data.dtype, data.shape, data.tobytes(), data.flags.writeable)


def _special(ns, dtype):
    return special_values(dtype)


def _dtypes(ns):
    return list(ns.__array_namespace_info__().dtypes().values())


def _general_then_fast(policy, call, warm):
    """(general outcome, fast outcome) of ``call(ns)``: a fresh namespace's first call, and a
    namespace warmed up by ``warm(ns)`` (the same signature, other values)."""
    general = _outcome(lambda: call(_fresh(policy)))
    ns = _fresh(policy)
    with contextlib.suppress(Exception):  # a signature refused: nothing to remember
        warm(ns)
    return general, _outcome(lambda: call(ns))


# -- clip ------------------------------------------------------------------------------------------
_BOUNDS = [0, 1, -1, 2**70, -(2**70), 0.5, -0.0, 0.0, math.nan, math.inf, -math.inf, True, 1 + 0j, 255, 127]


@pytest.mark.parametrize("policy", POLICIES)
def test_clip_with_python_bounds_answers_as_the_general_path(policy):
    for dtype in _dtypes(_fresh(policy)):
        for lo in _BOUNDS:
            for hi in (_BOUNDS[0], _BOUNDS[5], lo):
                if type(lo) is not type(hi):
                    continue

                def call(ns, lo=lo, hi=hi, dtype=dtype):
                    return ns.clip(ns.asarray(_special(ns, dtype)), lo, hi)

                def warm(ns, lo=lo, dtype=dtype):
                    one = type(lo)(1)
                    return ns.clip(ns.asarray(_special(ns, dtype)), one, one)

                general, fast = _general_then_fast(policy, call, warm)
                assert fast == general, (policy, dtype, lo, hi)


# -- where -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
def test_where_of_two_arrays_answers_as_the_general_path(policy):
    dtypes = _dtypes(_fresh(policy))
    for d1 in dtypes:
        for d2 in (d1, dtypes[-1], dtypes[1]):
            for shapes in [
                ((4,), (4,), (4,)),
                ((4,), (), (4,)),
                ((2, 1), (1, 4), (4,)),
                ((4,), (3,), (4,)),
                ((), (), ()),
            ]:

                def call(ns, d1=d1, d2=d2, shapes=shapes):
                    c = ns.asarray(np.resize(np.array([True, False]), shapes[0]))
                    a = ns.asarray(np.resize(_special(ns, d1), shapes[1]))
                    b = ns.asarray(np.resize(_special(ns, d2), shapes[2]))
                    return ns.where(c, a, b)

                general, fast = _general_then_fast(policy, call, call)
                assert fast == general, (policy, d1, d2, shapes)


# Python scalars of where: in and out of each dtype's range, special values, every type
_WHERE_SCALARS = [0.0, -0.0, 1.5, 1e300, -1e300, 3.4e38, math.nan, math.inf, -math.inf, 0, 7, 2**70, True, 1j]


@pytest.mark.parametrize("policy", POLICIES)
def test_where_of_an_array_and_a_python_scalar_answers_as_the_general_path(policy):
    for dtype in _dtypes(_fresh(policy)):
        for value in _WHERE_SCALARS:
            for first, shape in ((True, (4,)), (False, (4,)), (True, ()), (False, (3,))):

                def call(ns, dtype=dtype, value=value, first=first, shape=shape):
                    c = ns.asarray(np.resize(np.array([True, False]), (4,)))
                    a = ns.asarray(np.resize(_special(ns, dtype), shape))
                    return ns.where(c, a, value) if first else ns.where(c, value, a)

                def warm(ns, dtype=dtype, value=value, first=first, shape=shape):
                    return call(ns, dtype, type(value)(1), first, shape)

                general, fast = _general_then_fast(policy, call, warm)
                assert fast == general, (policy, dtype, value, first, shape)


@pytest.mark.parametrize("policy", POLICIES)
def test_where_remembers_no_value_of_a_python_int(policy):
    """A plan made by a huge int (a value class of its own for some policies) answers a small
    one as the general path does, and the other way round."""
    for dtype in _dtypes(_fresh(policy)):
        for warm_value, value in ((2**70, 1), (1, 2**70), (2**63, 5), (5, 2**63), (-(2**63) - 1, 3)):

            def call(ns, dtype=dtype, value=value):
                return ns.where(ns.asarray([True, False, True]), ns.asarray(_special(ns, dtype)[:3]), value)

            def warm(ns, dtype=dtype, warm_value=warm_value):
                return call(ns, dtype, warm_value)

            general, fast = _general_then_fast(policy, call, warm)
            assert fast == general, (policy, dtype, warm_value, value)


def test_where_on_other_devices_and_namespaces_answers_as_before():
    ns = _fresh("array_api")
    c, a, b = ns.asarray([True, False]), ns.asarray([1.0, 2.0]), ns.asarray([3.0, 4.0])
    ns.where(c, a, b)  # remembered
    with pytest.raises(ValueError, match="different devices"):
        ns.where(c, a.to_device(DEVICE1), b)
    other = _fresh("torch")
    with pytest.raises(TypeError):
        ns.where(c, a, other.asarray([3.0, 4.0]))
    assert ns.where(c.to_device(DEVICE1), a.to_device(DEVICE1), b.to_device(DEVICE1)).device == DEVICE1


# -- __setitem__ -------------------------------------------------------------------------------------
_VALUES = [0, 1, -1, 2**63 - 1, -(2**63), 2**63, 2**70, 300, -129, 1.5, -0.0, math.nan, math.inf, True, False, 1j]
_VALUES += [1e300, 1e-45]  # (float32's and float16's overflow and underflow)


# Keys of each kind the plain path takes or hands back: ints, slices, basic tuples, and masks
# ("mask": of x's own shape; "short mask": of another shape; "empty mask": selecting nothing).
_STORE_KEYS = [1, slice(0, 2), -1, 7, slice(None, None, -1), (1,), (Ellipsis, 0), (None, slice(0, 2)), (0, 0)]
_STORE_KEYS += [(), Ellipsis, "mask", "short mask", "empty mask"]


def _store_key(ns, x, key):
    """The key itself, or the mask its name stands for (built for x, in ns)."""
    if key == "mask":
        return ns.asarray(np.arange(x.shape[0]) % 2 == 0)
    if key == "short mask":
        return ns.asarray(np.ones(x.shape[0] - 1, dtype=bool))
    if key == "empty mask":
        return ns.asarray(np.zeros(x.shape[0], dtype=bool))
    return key


def _assign(x, key, value, by_path):
    """``x[key] = value`` by the runtime's general path, or by the array's own item assignment."""
    if by_path:
        x._runtime._setitem(x, key, value)
    else:
        x[key] = value
    return x


def _stored_alike(store, general_ns, plain_ns, case):
    """``store(ns, by_path)`` gives the same outcome by the general path (in ``general_ns``) and by
    the plain one (in ``plain_ns``)."""
    general = _outcome(lambda: store(general_ns, True))
    assert _outcome(lambda: store(plain_ns, False)) == general, case


@pytest.mark.parametrize("policy", POLICIES)
def test_storing_a_python_scalar_answers_as_the_general_path(policy):
    for dtype in _dtypes(_fresh(policy)):
        for value in _VALUES:
            namespaces = _fresh(policy), _fresh(policy)  # the general path's and the plain path's
            for key in _STORE_KEYS:

                def store(ns, by_path, value=value, key=key, dtype=dtype):
                    # warmed up alike: the namespace's own allowed-store cache is in the same state
                    with contextlib.suppress(Exception):  # a store refused: nothing to remember
                        ns.asarray(_special(ns, dtype))[0] = type(value)(0)
                    x = ns.asarray(_special(ns, dtype))
                    k = _store_key(ns, x, key)
                    return _assign(x, k, value, by_path)

                _stored_alike(store, *namespaces, (policy, dtype, value, key))


@pytest.mark.parametrize("policy", POLICIES)
def test_storing_an_array_answers_as_the_general_path(policy):
    """An array value of x's dtype (any shape: one that does not fit is refused alike), of
    another dtype (the policy decides), 0-d, of another namespace and on another device."""
    dtypes = _dtypes(_fresh(policy))
    for dtype in dtypes:
        for other in {dtype, dtypes[0], dtypes[-1], dtypes[len(dtypes) // 2]}:
            namespaces = _fresh(policy), _fresh(policy)  # the general path's and the plain path's
            for key in _STORE_KEYS:
                for shape in ((2,), (), (5,), "selected"):

                    def store(ns, by_path, dtype=dtype, other=other, key=key, shape=shape):
                        x = ns.asarray(_special(ns, dtype))
                        k = _store_key(ns, x, key)
                        if shape == "selected":  # as many values as the key selects
                            shape = np.asarray(x._data)[k._data if type(k) is xp.Array else k].shape
                        value = ns.asarray(np.resize(_special(ns, other), shape))
                        return _assign(x, k, value, by_path)

                    _stored_alike(store, *namespaces, (policy, dtype, other, key, shape))


def test_storing_an_array_of_another_namespace_or_device_is_refused_as_before():
    ns, other = _fresh("array_api"), _fresh("torch")
    x = ns.asarray([1.0, 2.0, 3.0])
    x[0:2] = ns.asarray([5.0, 6.0])  # plain
    general = _outcome(lambda: x._runtime._setitem(x, slice(0, 2), ns.asarray([5.0, 6.0]).to_device(DEVICE1)))
    assert general[0][0] == "error"
    assert _outcome(lambda: x.__setitem__(slice(0, 2), ns.asarray([5.0, 6.0]).to_device(DEVICE1))) == general
    general = _outcome(lambda: x._runtime._setitem(x, slice(0, 2), other.asarray([5.0, 6.0])))
    assert _outcome(lambda: x.__setitem__(slice(0, 2), other.asarray([5.0, 6.0]))) == general
    mask = other.asarray([True, False, True])
    assert _outcome(lambda: x.__setitem__(mask, 1.0)) == _outcome(lambda: x._runtime._setitem(x, mask, 1.0))
    assert np.asarray(x).tolist() == [5.0, 6.0, 3.0]


def test_storing_into_a_matrix_answers_as_the_general_path():
    for policy in ("array_api", "torch"):
        for key in [(1, slice(2, 5)), (0, 0), (-1, -1), (2, 0), (0, 9), (slice(None), 1), (Ellipsis, 0), (None, 1, 2)]:
            for value in (1.5, 2, True, math.nan, 2**70, "mask value"):

                def store(ns, by_path, key=key, value=value):
                    x = ns.asarray(np.arange(12.0).reshape(2, 6))
                    x[0, 0] = 1.0  # remembered
                    if value == "mask value":
                        value = ns.asarray(np.full(np.asarray(x._data)[key].shape, 7.0))
                    return _assign(x, key, value, by_path)

                _stored_alike(store, _fresh(policy), _fresh(policy), (policy, key, value))


def test_plain_stores_and_integer_array_keys_skip_the_general_path():
    """Once a store of a Python float into float64 is allowed, plain keys (every axis named, slices in
    bounds), masks of x's shape and arrays of x's dtype are stored without the general path, and an
    integer array key of a vector is read without it; what the plain path cannot word (a refusal, out
    of bounds, a key the policy checks) still goes there."""
    ns = _fresh("array_api")
    x = ns.asarray(np.zeros((2, 5)))
    expected = np.zeros((2, 5))
    x[0, 0] = expected[0, 0] = 1.0  # allowed: remembered

    def general(*args):
        raise AssertionError("the general path")

    x._runtime._setitem = x._runtime._getitem = general
    try:
        for key, value in [((1, slice(2, 5)), 2.0), ((0, ...), 3.0), ((slice(0, 1), slice(None)), 4.0), (np.eye(2, 5, dtype=bool), 5.0)]:  # fmt: skip
            x[ns.asarray(key) if type(key) is np.ndarray else key] = value
            expected[key] = value
        x[1, 0:2] = ns.asarray([6.0, 7.0])
        expected[1, 0:2] = [6.0, 7.0]
        x[...] = x[::-1, :]
        expected[...] = expected[::-1]
        assert np.asarray(x).tolist() == expected.tolist()
        assert np.asarray(x[1, ...][ns.asarray([1, 0, -1])]).tolist() == expected[1][[1, 0, -1]].tolist()
        with pytest.raises(AssertionError, match="the general path"):
            x[0] = 1.0  # a key that leaves an axis implicit: the policy's check
        with pytest.raises(AssertionError, match="the general path"):
            x[ns.asarray([1, 0])]  # (the same: an integer array of a matrix)
        with pytest.raises(AssertionError, match="the general path"):
            x[0, 0] = 1  # an int: not allowed before
        with pytest.raises(AssertionError, match="the general path"):
            x[0, 9] = 1.0  # out of bounds: worded by the general path
        with pytest.raises(AssertionError, match="the general path"):
            x[ns.asarray([2])]  # out of bounds: worded by the general path
    finally:
        del x._runtime._setitem, x._runtime._getitem


@pytest.mark.parametrize("policy", ["array_api", "torch", "numpy", "jax"])
def test_an_integer_array_key_answers_as_the_general_path(policy):
    ns = _fresh(policy)
    for dtype in _dtypes(ns):
        x = ns.asarray(_special(ns, dtype))
        n = x.shape[0]
        keys = [ns.asarray(np.array(k, dtype=d)) for d in (np.int64, np.int8) for k in ([0, n - 1], -1, [])]
        keys += [ns.asarray(np.array([n - 1, 0], dtype=np.uint8))]
        keys += [ns.asarray([n]), ns.asarray([-n - 1]), ns.asarray([[0, 1], [1, 0]]), ns.asarray([0.0])]
        keys += [ns.asarray([0]).to_device(DEVICE1), _fresh("torch").asarray([0])]
        for key in keys:
            general = _outcome(lambda key=key: x._runtime._getitem(x, key))
            assert _outcome(lambda key=key: x[key]) == general, (policy, dtype, key)
        matrix = ns.reshape(x, (2, -1)) if n % 2 == 0 else ns.reshape(x, (1, n))
        for key in (ns.asarray([0, 0]), ns.asarray(0), ns.asarray([[0]])):
            general = _outcome(lambda key=key: matrix._runtime._getitem(matrix, key))
            assert _outcome(lambda key=key: matrix[key]) == general, (policy, dtype, key)


def test_float_of_a_0d_array_answers_as_before():
    for ns in (xp, xp.torch):
        cases = [ns.asarray(v) for v in (1.5, -0.0, math.nan, math.inf, 5e-324, 2**53 + 1, True, 1j)]
        cases += [ns.asarray(1.5, dtype=ns.float32), ns.asarray([1.0]), ns.asarray(np.array(2.5).astype(">f8"))]
        cases += [ns.asarray(np.arange(3.0))[1], ns.asarray(np.arange(3.0))[::2][1]]
        for x in cases:
            general = outcome(lambda x=x: x._scalar(float, "__float__", _REAL), repr)
            assert outcome(lambda x=x: float(x), repr) == general, x


def test_storing_into_a_read_only_view_or_a_0d_array_is_refused_as_before():
    ns = _fresh("array_api")
    x = ns.asarray([1.0, 2.0, 3.0])
    x[0] = 5.0  # remembered
    view = ns.broadcast_to(x, (2, 3))
    with pytest.raises(ValueError, match="read-only view"):
        view[0, :] = 1.0
    zero_d = ns.asarray(1.0)
    with pytest.raises(IndexError):
        zero_d[0] = 2.0
    with pytest.raises(IndexError, match="out of bounds"):
        x[3] = 1.0


def test_the_audit_sees_every_store():
    from array_api_promo.audit import PromotionDifferenceWarning, audit

    audited = audit("torch", against="array_api")
    audited.__audit__.clear()
    x = audited.asarray([1, 2, 3], dtype=audited.int8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PromotionDifferenceWarning)
        x[0] = 5  # the same under both (nothing recorded), and no plain path remembered for the next
        x[1] = 1000  # torch wraps it; the standard refuses it: recorded
    assert np.asarray(x).tolist() == [5, -24, 3]
    assert [r.op for r in audited.__audit__.records] == ["__setitem__"]


# -- __getitem__ with a tuple ------------------------------------------------------------------------
_KEYS = [(1, slice(2, 5)), (0, 0), (-1, -1), (2, 0), (0, 9), (slice(None), 1), (Ellipsis, 0), (None, 1, 2), (1,)]
_KEYS += [(0, slice(None, None, 0)), (0, 0, 0), (1, Ellipsis, None), (0, 2**70)]


@pytest.mark.parametrize("ns", [xp, xp.torch, _fresh("jax")], ids=["array_api", "torch", "jax"])
def test_a_tuple_key_answers_as_the_namespaces_path(ns):
    x = ns.asarray(np.arange(12, dtype=np.float32).reshape(2, 6))
    for key in _KEYS:
        fast = _outcome(lambda key=key: x[key])
        general = _outcome(lambda key=key: x._runtime._getitem(x, key))
        assert fast == general, key


# -- creation ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
def test_creation_of_a_length_answers_as_of_a_shape(policy):
    ns = _fresh(policy)
    for n in (0, 1, 10, 1000):
        assert _outcome(lambda n=n: ns.zeros(n)) == _outcome(lambda n=n: ns.zeros((n,)))
        assert _outcome(lambda n=n: ns.ones(n)) == _outcome(lambda n=n: ns.ones((n,)))
        assert _describe(ns.empty(n))[:5] == _describe(ns.empty((n,)))[:5]
        assert _outcome(lambda n=n: ns.arange(n)) == _outcome(lambda n=n: ns.arange(0, n, 1))
        for value in (1.5, 2, True, 2**70, -(2**63), math.nan, 1e300, -0.0):
            assert _outcome(lambda n=n, v=value: ns.full(n, v)) == _outcome(lambda n=n, v=value: ns.full((n,), v))
    for bad in (-1, 2**70, 1.0, True):
        for func in ("zeros", "ones", "empty"):
            assert _outcome(lambda f=func, b=bad: getattr(ns, f)(b))[0][0] == "error", (func, bad)
        assert _outcome(lambda b=bad: ns.arange(b)) == _outcome(lambda b=bad: ns.arange(0, b, 1))


_ARANGE_BOUNDS = [
    (0.0, 10, 1.0),
    (0.5,),
    (1, 2.5, 0.25),
    (10.0, 0, -0.7),
    (0.0, 1.0, 0.1),
    (-0.0, 3, 1.0),
    (2**53, 2**53 + 4, 1.0),
    (2**53 + 1, 2**53 + 4, 1.0),
    (0.0, 2**70, 1.0),
    (0.0, 1.0, 0.0),
    (0.0, math.inf, 1.0),
    (math.nan, 1.0, 0.5),
    (0.0, 1.0, math.inf),
    (True, 2.5, 1.0),
    (0.0, 1e300, 1e-300),
    (1e300, -1e300, -1e299),
    (0.0, None, 1.0),
    (3.0, 1.0),
]


@pytest.mark.parametrize("policy", POLICIES)
def test_arange_of_float_bounds_answers_as_the_general_path(policy):
    """arange's plain float case (no dtype, no device) against the general path, reached by
    naming the default device; bounds at the edges of what a float holds exactly."""
    ns = _fresh(policy)
    device = ns.__array_namespace_info__().default_device()
    for bounds in _ARANGE_BOUNDS:
        plain = _outcome(lambda b=bounds: ns.arange(*b))
        assert plain == _outcome(lambda b=bounds: ns.arange(*b, device=device)), bounds


# -- reductions and cumulative_sum --------------------------------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("func", ["max", "min", "mean", "cumulative_sum", "cumulative_prod", "count_nonzero", "diff"])
@pytest.mark.parametrize("errstate", ["default", "raise"])
def test_whole_array_reductions_answer_as_the_general_path(policy, func, errstate):
    for dtype in _dtypes(_fresh(policy)):
        for shape in ((8,), (2, 4), (), (2, 0)):
            if func.startswith("cumulative") and shape != (8,):
                continue

            def call(ns, dtype=dtype, shape=shape):
                data = np.resize(_special(ns, dtype), shape)
                with np.errstate(all="raise" if errstate == "raise" else "warn"):
                    return getattr(ns, func)(ns.asarray(data))

            general, fast = _general_then_fast(policy, call, call)
            assert fast == general, (policy, dtype, shape)


@pytest.mark.parametrize("policy", POLICIES)
def test_count_nonzero_of_the_whole_array_answers_as_the_general_path(policy):
    """count_nonzero(x), again after its first call remembered the plan (in C: the compiled unary
    path), against the general path's spelling of it, axis= every axis; on both devices."""
    ns = _fresh(policy)
    for dtype in _dtypes(ns):
        for shape in ((8,), (2, 4), (), (2, 0)):
            for device in (None, DEVICE1):
                x = ns.asarray(np.resize(_special(ns, dtype), shape))
                if device is not None:
                    x = x.to_device(device)
                general = _outcome(lambda x=x: ns.count_nonzero(x, axis=tuple(range(x.ndim))))
                for _ in range(2):
                    assert _outcome(lambda x=x: ns.count_nonzero(x)) == general, (policy, dtype, shape, device)
    assert _outcome(lambda: ns.count_nonzero(np.ones(3)))[0][0] == "error"  # not an array: as before


def test_cumulative_prod_underflows_silently_as_prod_does():
    ns = _fresh("array_api")
    tiny = ns.asarray([1e-200, 1e-200, 1e-200])
    for _ in range(2):  # the general path, then the remembered one
        with np.errstate(all="raise"):
            assert ns.cumulative_prod(tiny)._data.tolist() == [1e-200, 0.0, 0.0]
            assert float(ns.prod(tiny)) == 0.0


@pytest.mark.parametrize("policy", POLICIES)
def test_searchsorted_of_two_arrays_answers_as_the_general_path(policy):
    dtypes = _dtypes(_fresh(policy))
    for dt1 in dtypes:
        for dt2 in dtypes:
            for zero_d in (False, True):
                for side in ("left", "right"):

                    def call(ns, dt1=dt1, dt2=dt2, zero_d=zero_d, side=side, values=None):
                        with np.errstate(all="ignore"):
                            x1 = np.sort(_special(ns, dt1)) if values is None else values[0]
                            x2 = _special(ns, dt2) if values is None else values[1]
                        x2 = x2[:1].reshape(()) if zero_d else x2
                        return ns.searchsorted(ns.asarray(x1), ns.asarray(x2), side=side)

                    def warm(ns, dt1=dt1, dt2=dt2, call=call):  # (other values, x2 as 0-d or not as below)
                        return call(ns, values=(np.ones(2, dt1.numpy), np.ones(3, dt2.numpy)))

                    general, fast = _general_then_fast(policy, call, warm)
                    assert fast == general, (policy, dt1, dt2, zero_d, side)


@pytest.mark.parametrize("policy", POLICIES)
def test_clip_with_array_bounds_answers_as_the_general_path(policy):
    dtypes = _dtypes(_fresh(policy))
    for dtype in dtypes:
        for bound_dtype in {dtype, dtypes[-1], dtypes[0]}:
            for zero_d in ((False, False), (True, False), (False, True), (True, True)):
                for shift in (0, 1, 3):

                    def call(ns, dtype=dtype, bound_dtype=bound_dtype, zero_d=zero_d, shift=shift, fill=None):
                        x = _special(ns, dtype) if fill is None else np.full(8, fill, dtype.numpy)
                        lo = (
                            np.roll(_special(ns, bound_dtype), shift)
                            if fill is None
                            else np.zeros(8, bound_dtype.numpy)
                        )
                        hi = np.roll(lo, 2)
                        lo, hi = (b[:1].reshape(()) if z else b for b, z in zip((lo, hi), zero_d))
                        return ns.clip(ns.asarray(x), ns.asarray(lo), ns.asarray(hi))

                    def warm(ns, call=call):
                        return call(ns, fill=1)

                    general, fast = _general_then_fast(policy, call, warm)
                    assert fast == general, (policy, dtype, bound_dtype, zero_d, shift)
    ns = _fresh(policy)
    x = ns.asarray([1.0, 2.0, 3.0])
    ns.clip(x, x, x)
    assert _outcome(lambda: ns.clip(x, x, ns.asarray([1.0, 2.0])))[0][0] == "error"  # shapes, in our words
    assert _outcome(lambda: ns.clip(x, x, x.to_device(DEVICE1)))[0][0] == "error"  # devices


@pytest.mark.parametrize("policy", POLICIES)
def test_finfo_result_type_and_can_cast_of_two_dtypes_answer_as_the_general_path(policy):
    dtypes = _dtypes(_fresh(policy))
    for dtype in dtypes:
        general, fast = _general_then_fast(policy, lambda ns, d=dtype: ns.finfo(d), lambda ns, d=dtype: ns.finfo(d))
        floating = dtype.kind in ("real floating", "complex floating")
        assert fast == general and (general[0][0] == "error") != floating, (policy, dtype)
        for other in dtypes:
            for func in ("result_type", "can_cast"):

                def call(ns, d1=dtype, d2=other, func=func):
                    return getattr(ns, func)(d1, d2)

                general, fast = _general_then_fast(policy, call, call)
                assert fast == general, (policy, func, dtype, other)
    for version in ("2022.12", "2025.12"):  # a dtype another namespace took is checked by this one
        ns = xp.namespace(policy, version)
        assert _outcome(lambda ns=ns: ns.finfo(xp.float32)) == _outcome(lambda: xp.finfo(xp.float32))
    old, new = xp.namespace(policy, "2021.12"), xp.namespace(policy, "2025.12")  # (2021.12: no complex dtypes)
    refused = _outcome(lambda: old.can_cast(xp.complex64, xp.complex128))
    with contextlib.suppress(ValueError):  # (a policy without complex128)
        new.can_cast(xp.complex64, xp.complex128)  # remembered by the namespace that has them, not by the other
    assert refused[0][0] == "error" and _outcome(lambda: old.can_cast(xp.complex64, xp.complex128)) == refused


def test_an_empty_array_is_refused_by_max_after_a_remembered_call():
    ns = _fresh("array_api")
    ns.max(ns.asarray([1.0, 2.0]))
    with pytest.raises(ValueError, match="empty"):
        ns.max(ns.asarray(np.zeros(0)))
    assert math.isnan(float(ns.mean(ns.asarray(np.zeros(0)))))


def _reduction_inputs(ns, dtype):
    """NumPy arrays of ``dtype`` for the reductions: special values in several shapes, a
    transposed view, empty ones, and (floating) values whose squares underflow."""
    special = _special(ns, dtype)
    inputs = [np.resize(special, shape) for shape in ((8,), (2, 4), (4, 2), (), (1,), (2, 0), (0, 3))]
    inputs.append(np.resize(special, (4, 4)).T)
    plain = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3]).astype(dtype.numpy)  # no NaN to hide a wrong value
    inputs += [plain, plain.reshape(2, 5), plain[::-3], plain[2].reshape(()), np.roll(special, 3)]
    if dtype.kind == "real floating":
        inputs.append(np.array([1e-200, 3e-200, -2e-200, 0.0], dtype=dtype.numpy))
    return inputs


def _all_axes_spelled(axis, ndim):
    """``axis`` as the tuple the general path of a reduction takes (a tuple never takes a fast path)."""
    return tuple(range(ndim)) if axis is None else (axis,)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("func", ["sum", "prod", "max", "min", "mean"])
@pytest.mark.parametrize("errstate", ["default", "raise"])
def test_reductions_along_an_axis_answer_as_the_general_path(policy, func, errstate):
    reference, ns = _fresh(policy), _fresh(policy)
    for dtype in _dtypes(ns):
        for data in _reduction_inputs(ns, dtype):
            for axis in (None, 0, 1, -1, -2, 2):
                for keepdims in (False, True):

                    def call(ns, general, data=data, axis=axis, keepdims=keepdims):
                        x = ns.asarray(data)
                        spelled = _all_axes_spelled(axis, data.ndim) if general else axis
                        with np.errstate(all="raise" if errstate == "raise" else "warn"):
                            return getattr(ns, func)(x, axis=spelled, keepdims=keepdims)

                    general = _outcome(lambda call=call: call(reference, True))
                    first = _outcome(lambda call=call: call(ns, False))  # (the first of a dtype: general)
                    again = _outcome(lambda call=call: call(ns, False))  # remembered
                    if axis is not None and not -data.ndim <= axis < data.ndim:
                        general = first  # (an int and a tuple are out of bounds in words of their own)
                    assert first == general and again == general, (policy, dtype, data.shape, axis, keepdims)
    with pytest.raises(TypeError, match=f"^{func}: keepdims must be a bool"):  # (1 is NumPy's reading: taken)
        getattr(ns, func)(ns.asarray([1.0, 2.0]), axis=0, keepdims=None)
    if func != "mean":  # (mean reads True as NumPy's mean does where the policy reads arguments as NumPy)
        with pytest.raises(TypeError, match=f"^{func}: axis must be"):
            getattr(ns, func)(ns.asarray([1.0, 2.0]), axis=True)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("func", ["var", "std"])
@pytest.mark.parametrize("errstate", ["default", "raise"])
def test_variance_of_a_whole_array_answers_as_the_general_path(policy, func, errstate):
    reference, ns = _fresh(policy), _fresh(policy)
    for dtype in _dtypes(ns):
        for data in _reduction_inputs(ns, dtype):
            for correction in (0, 0.0, 1, 1.5, 8, 9, -1, math.nan, math.inf, 10**400, True):

                def call(ns, general, data=data, correction=correction):
                    x = ns.asarray(data)
                    axis = _all_axes_spelled(None, data.ndim) if general else None
                    with np.errstate(all="raise" if errstate == "raise" else "warn"):
                        return getattr(ns, func)(x, axis=axis, correction=correction)

                general = _outcome(lambda call=call: call(reference, True))
                first = _outcome(lambda call=call: call(ns, False))
                again = _outcome(lambda call=call: call(ns, False))
                assert first == general and again == general, (policy, dtype, data.shape, correction)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("func", ["var", "std"])
def test_variance_along_an_axis_answers_as_the_general_path(policy, func):
    """The remembered path takes an int axis too; the general path's spelling: the same axis in a tuple."""
    reference, ns = _fresh(policy), _fresh(policy)
    for dtype in _dtypes(ns):
        for data in _reduction_inputs(ns, dtype):
            for axis in (0, -1, 1):
                for keepdims in (False, True):
                    for correction in (0, 1, 1.5, 9):

                        def call(ns, axis, data=data, correction=correction, keepdims=keepdims):
                            with np.errstate(all="raise"):
                                return getattr(ns, func)(
                                    ns.asarray(data), axis=axis, correction=correction, keepdims=keepdims
                                )

                        general = _outcome(lambda call=call, axis=axis: call(reference, (axis,)))
                        first = _outcome(lambda call=call, axis=axis: call(ns, axis))
                        again = _outcome(lambda call=call, axis=axis: call(ns, axis))
                        assert first == general and again == general, (policy, dtype, data.shape, axis, correction)


def test_mean_underflows_silently_as_its_remembered_path_does():
    ns = _fresh("array_api")
    for data in ([5e-324, 0.0], [[5e-324], [0.0]]):
        tiny = ns.asarray(data)
        for _ in range(2):  # the general path, then the remembered one
            with np.errstate(all="raise"):
                assert ns.mean(tiny, axis=0 if tiny.ndim == 2 else None)._data.tolist() in (0.0, [0.0])


def test_variance_underflows_silently_as_its_remembered_path_does():
    ns = _fresh("array_api")
    tiny = ns.asarray([1e-200, 3e-200, -2e-200, 0.0])
    for _ in range(2):  # the general path, then the remembered one
        with np.errstate(all="raise"):
            assert float(ns.var(tiny)) == 0.0
            assert float(ns.std(tiny)) == 0.0


def _general_namespace(ns):
    """A namespace of ``ns``'s policy at another version: ``ns`` takes its arrays by its general path."""
    return xp.namespace(ns.asarray(0)._runtime.policy, "2024.12")


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("func", ["argmin", "argmax", "argsort", "sort", "unique_values"])
def test_searching_sorting_and_unique_answer_as_the_general_path(policy, func):
    ns = _fresh(policy)
    other = _general_namespace(ns)
    if func in ("argmin", "argmax"):
        arguments = [{}, {"keepdims": True}, {"axis": 0}, {"keepdims": 0}]
    elif func in ("argsort", "sort"):
        arguments = [{}, {"stable": False}, {"axis": -1, "stable": True}, {"descending": True}, {"axis": 0}]
        arguments += [{"stable": 1}, {"descending": 0}, {"axis": True}, {"axis": -1.0}]
    else:
        arguments = [{}]
    for dtype in _dtypes(ns):
        inputs = _reduction_inputs(ns, dtype)
        inputs.append(np.resize(_special(ns, dtype)[::-1], 13))  # repeated values
        for data in inputs:
            for kwargs in arguments:
                fast = _outcome(lambda data=data, kwargs=kwargs: getattr(ns, func)(ns.asarray(data), **kwargs))
                general = _outcome(lambda data=data, kwargs=kwargs: getattr(ns, func)(other.asarray(data), **kwargs))
                assert fast == general, (policy, dtype, data.shape, kwargs)
    with pytest.raises(TypeError, match=f"^{func}: x must be an array of"):
        getattr(ns, func)(np.ones(3))


# -- roll and the fft shifts -----------------------------------------------------------------------
def _roll_inputs(dtype):
    base = np.resize(np.arange(24), 24).astype(dtype)
    return [base, base[:10], base.reshape(4, 6), base.reshape(4, 6)[:, ::-2], base.reshape(2, 3, 4).swapaxes(0, 2)]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "complex128"])
def test_rolled_is_numpys_roll(dtype):
    """np.roll's own steps for per-axis offsets: its array, shape, strides and bytes, on strided views too."""
    from array_api_promo._manipulation_functions import rolled

    for data in _roll_inputs(dtype) + [np.zeros((0, 3), dtype), np.ones(1, dtype)]:
        for shifts in ([0] * data.ndim, [1] * data.ndim, [-1] + [2] * (data.ndim - 1), [5] * data.ndim):
            offsets = [k % (size or 1) for k, size in zip(shifts, data.shape)]
            mine, numpys = rolled(data, offsets), np.roll(data, shifts, axis=tuple(range(data.ndim)))
            assert (mine.dtype, mine.shape, mine.strides, mine.tobytes()) == (
                numpys.dtype,
                numpys.shape,
                numpys.strides,
                numpys.tobytes(),
            ), (data.shape, shifts)


@pytest.mark.parametrize("policy", POLICIES)
def test_roll_and_the_fft_shifts_answer_as_the_general_path(policy):
    ns = _fresh(policy)
    other = _general_namespace(ns)
    calls = [lambda n, x, k=k: n.roll(x, k) for k in (0, 1, -3, 7, 2**70, True)]
    calls += [lambda n, x: n.roll(x, 2, axis=0), lambda n, x: n.fft.fftshift(x), lambda n, x: n.fft.ifftshift(x)]
    calls += [lambda n, x: n.fft.fftshift(x, axes=0)]
    for dtype in _dtypes(ns):
        inputs = [_special(ns, dtype), np.asarray(_special(ns, dtype)[0]), np.zeros((2, 0), dtype.numpy)]
        inputs += [np.resize(_special(ns, dtype), (3, 4))[:, ::-1]]
        for data in inputs:
            for call in calls:
                for _ in range(2):  # the general path, then the remembered one
                    fast = _outcome(lambda data=data, call=call: call(ns, ns.asarray(data)))
                general = _outcome(lambda data=data, call=call: call(ns, other.asarray(data)))
                assert fast == general, (policy, dtype, data.shape)


# -- isin and meshgrid ------------------------------------------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
def test_isin_answers_as_the_general_path(policy):
    ns = _fresh(policy)
    other = _general_namespace(ns)
    dtypes = _dtypes(ns)
    for d1 in dtypes:
        for d2 in {d1, dtypes[0], dtypes[-1]}:
            values = np.resize(_special(ns, d2), 7)
            for data in (_special(ns, d1), np.resize(_special(ns, d1), (2, 3)), np.asarray(_special(ns, d1)[0])):
                for invert in (False, True, 1):
                    for _ in range(2):  # the general path, then the remembered one
                        fast = _outcome(lambda: ns.isin(ns.asarray(data), ns.asarray(values), invert=invert))
                    general = _outcome(lambda: ns.isin(other.asarray(data), other.asarray(values), invert=invert))
                    assert fast == general, (policy, d1, d2, data.shape, invert)


def _grids(grids):
    return type(grids).__name__, tuple(grids)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("version", ["2024.12", "2025.12"])
def test_meshgrid_answers_as_the_general_path(policy, version):
    ns = _fresh(policy) if version == "2025.12" else xp.namespace(_fresh(policy).asarray(0)._runtime.policy, version)
    other = _general_namespace(ns) if version == "2025.12" else xp.namespace(ns.asarray(0)._runtime.policy, "2023.12")
    dtypes = _dtypes(ns)
    for dtype in dtypes:
        a, b, c = _special(ns, dtype), _special(ns, dtype)[:2], _special(ns, dtype)[::-2]
        cases = [(a,), (a, b), (a, b, c), (b, a, c, a), (a, np.resize(a, (2, 2))), (a, b.astype(dtypes[0].numpy))]
        for arrays in cases:
            for indexing in ("xy", "ij", "XY"):
                fast = _outcome(lambda: _grids(ns.meshgrid(*[ns.asarray(v) for v in arrays], indexing=indexing)))
                general = _outcome(lambda: _grids(ns.meshgrid(*[other.asarray(v) for v in arrays], indexing=indexing)))
                assert fast == general, (policy, dtype, [v.shape for v in arrays], indexing)
    on_two_devices = (ns.asarray(a), ns.asarray(a).to_device(DEVICE1))
    with pytest.raises(ValueError, match="device"):
        ns.meshgrid(*on_two_devices)


# -- tril and triu ---------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["bool", "int16", "uint8", "float64", "complex64"])
def test_triangle_is_numpys_tril_and_triu(dtype):
    """np.tril's and np.triu's steps with the mask remembered: their arrays (dtype, shape, strides, bytes), on
    stacks, strided views and empty matrices, for every k, twice (the mask made, then remembered)."""
    from array_api_promo._creation_ranges import triangle

    base = np.arange(1, 61).astype(dtype).reshape(3, 4, 5)
    for data in (base, base[0], base[:, ::-1, ::2], base.swapaxes(-1, -2), base[:, :0], np.ones((1, 1), dtype)):
        for k in (0, 1, -1, 3, -7, 40, -(2**40)):
            for _ in range(2):
                for lower, numpys in ((True, np.tril(data, k)), (False, np.triu(data, k))):
                    mine = triangle(data, k, lower)
                    assert (mine.dtype, mine.shape, mine.strides, mine.tobytes()) == (
                        numpys.dtype,
                        numpys.shape,
                        numpys.strides,
                        numpys.tobytes(),
                    ), (data.shape, k, lower)
                    assert mine.flags.writeable


@pytest.mark.parametrize("policy", POLICIES)
def test_tril_and_triu_answer_as_the_general_path(policy):
    ns = _fresh(policy)
    other = _general_namespace(ns)
    for dtype in _dtypes(ns):
        for data in (
            np.resize(_special(ns, dtype), (3, 4)),
            np.resize(_special(ns, dtype), (2, 2, 3)),
            _special(ns, dtype),
        ):
            for k in (0, 2, -1, 1.0, True, 2**70):
                for func in ("tril", "triu"):
                    fast = _outcome(lambda: getattr(ns, func)(ns.asarray(data), k=k))
                    general = _outcome(lambda: getattr(ns, func)(other.asarray(data), k=k))
                    assert fast == general, (policy, dtype, data.shape, k, func)


# -- concat and permute_dims -----------------------------------------------------------------------
@pytest.mark.parametrize("ns", [xp, xp.torch], ids=["array_api", "torch"])
def test_concat_answers_as_its_general_path(ns):
    a = ns.asarray(np.arange(6.0).reshape(2, 3))
    b = ns.asarray(np.arange(3.0).reshape(1, 3))
    cases = [([a, b], 0), ([a, b], 1), ([a, a], 1), ([a, a], -1), ([a, a], 2), ([a, a], -3), ((a, b), 0)]
    cases += [([ns.asarray(1.0), ns.asarray(2.0)], 0), ([a, ns.asarray([1.0, 2.0])], 0), ([a], 0)]
    cases += [([a, b.to_device(DEVICE1)], 0), ([a, ns.asarray(np.ones((1, 3), dtype=np.float32))], 0)]
    for arrays, axis in cases:
        fast = _outcome(lambda arrays=arrays, axis=axis: ns.concat(arrays, axis=axis))
        runtime = a._runtime
        # the general path: the same call with the axis as the int subclass the plain case refuses
        general = _outcome(
            lambda arrays=arrays, axis=axis: type(runtime).concat(runtime, list(arrays), axis=_Int(axis))
        )
        assert fast == general, (axis, [x.shape for x in arrays])


class _Int(int):
    """An int the plain cases do not take (``type(axis) is int``): the general path's."""

    def __repr__(self):
        return repr(int(self))

    __str__ = __repr__


@pytest.mark.parametrize("ns", [xp, xp.torch], ids=["array_api", "torch"])
def test_permute_dims_answers_as_its_general_path(ns):
    x = ns.asarray(np.arange(24.0).reshape(2, 3, 4))
    for axes in [(2, 0, 1), (0, 1, 2), (-1, 0, 1), (0, 0, 1), (0, 1), (0, 1, 3), (0, 1, 2, 3), (True, False, 2)]:
        fast = _outcome(lambda axes=axes: ns.permute_dims(x, axes))
        general = _outcome(lambda axes=axes: ns.permute_dims(x, list(axes)))
        if axes == (True, False, 2):
            assert fast[0][0] == "error" and fast == general
        assert fast == general, axes


# -- sort ------------------------------------------------------------------------------------------
_NUMPY_NS = xp.namespace("numpy")  # orders bools (the array_api policy refuses them: test_strict_refusals.py)


@settings(max_examples=60, deadline=None)
@given(
    hnp.arrays(
        st.sampled_from(["float64", "float32"]).map(np.dtype),
        st.integers(4096, 6000),
        elements=st.sampled_from([0.0, -0.0, 1.0, -1.0, math.inf, math.nan, 2.5, 3.0]),
    )
    | hnp.arrays(st.sampled_from(["int64", "uint8", "bool"]).map(np.dtype), st.integers(4096, 6000)),
    st.booleans(),
)
def test_sort_gives_the_stable_sorts_bits(data, descending):
    xp = _NUMPY_NS  # (sorting bools: not under array_api, whose standard requires real-valued input)
    x = xp.asarray(data)
    out = xp.sort(x, descending=descending)._data
    if descending:
        expected = np.take_along_axis(data, xp.argsort(x, descending=True)._data, axis=-1)
    else:
        expected = np.sort(data, kind="stable")
    assert out.dtype == expected.dtype and out.tobytes() == expected.tobytes()


def test_sort_of_large_arrays_without_zeros_or_nans_is_the_stable_sort():
    rng = np.random.default_rng(0)
    for data in (rng.random(10000) + 0.5, rng.integers(-5, 5, (3, 5000)), rng.random((5000, 3)).astype(np.float32) + 1):
        x = xp.asarray(data)
        for axis in (-1, 0):
            assert xp.sort(x, axis=axis)._data.tobytes() == np.sort(data, axis=axis, kind="stable").tobytes()


def _positional_only_table(flat):  # NumPy 2.3's: no keyword
    return np.unique_values(flat)


def _changed_signature_table(flat):  # a later NumPy's, taking other arguments
    raise TypeError("_unique_hash() takes exactly 2 arguments")


@pytest.mark.parametrize("table", [None, _positional_only_table, _changed_signature_table, lambda flat: NotImplemented])
def test_unique_values_of_integers_whatever_numpys_private_hash_table_does(monkeypatch, table):
    """unique_values of integers calls NumPy's private C hash table (2.3 and later): absent (NumPy
    2.0-2.2), NumPy 2.3's (positional only), one whose signature changed or one that declines the
    dtype, the answer is np.unique's, sorted."""
    from array_api_promo import _set_functions

    monkeypatch.setattr(_set_functions, "_unique_hash", table)
    for dtype in (np.int8, np.uint16, np.int64, np.uint64):
        data = np.array([3, 1, 3, 0, 7, 1], dtype=dtype)
        out = xp.unique_values(xp.asarray(data))
        assert out._data.dtype == data.dtype and out._data.tolist() == np.unique(data).tolist()


# -- the tables of computed values ------------------------------------------------------------------
def test_the_modules_tables_of_computed_values_stay_bounded():
    """Each table a module keeps of values it computed (tri masks, zeros, 1/n scales, frequencies,
    default pinv tolerances) is a BoundedTable: past its limit it starts again, whatever keys a
    program asks for, and the answers stay the same."""
    from array_api_promo import _creation_ranges, _fft, _linalg_decompositions
    from array_api_promo._runtime import BoundedTable

    tables = [_creation_ranges._MASKS, _creation_ranges._ZEROS, _fft._INVERSE_SCALES, _fft._FREQUENCIES]
    tables.append(_linalg_decompositions._DEFAULT_RTOLS)
    assert all(type(t) is BoundedTable for t in tables)
    table = BoundedTable(3)
    for k in range(10):
        assert table.keep(k, str(k)) == str(k) and len(table) <= 3 and table.get(k) == str(k)
    for n in range(1, 300):  # more shapes than the masks' limit
        x = xp.asarray(np.ones((2, n)))
        assert np.array_equal(np.asarray(xp.triu(x)), np.triu(np.ones((2, n))))
        assert np.array_equal(np.asarray(xp.fft.rfftfreq(n)), np.fft.rfftfreq(n))
    assert len(_creation_ranges._MASKS) <= _creation_ranges._MASKS.limit
    assert len(_fft._FREQUENCIES) <= _fft._FREQUENCIES.limit
