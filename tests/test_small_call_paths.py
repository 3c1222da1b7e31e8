"""The plain cases of nonzero, stack, take, full_like, linspace, ones and the fft transforms
answer exactly as the general path does (issue 32's 10-element cases).

Each plain case takes only arguments of the calling namespace itself; the general path is the
same call with one argument it does not take: an array of the same policy's namespace at
another standard version (which the namespace accepts), an explicit device, an axis that is an
int subclass. Both must give the same array (dtype, device, NumPy dtype, shape, bytes) or the
same error (type and message) and the same warnings, under every policy, on the special values.
Runs on the compiled and the pure-Python paths alike (CI runs the suite both ways).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from fast_path_helpers import (
    outcome,
    special_values,
)  # tests/ is on sys.path (rootdir-relative import mode)

import array_api_promo as xp
from array_api_promo import CPU, DEVICE1, promotion

POLICIES = promotion.available_policies()


def _describe(out):
    if isinstance(out, (tuple, list)):
        return (type(out),) + tuple(_describe(o) for o in out)
    data = np.asarray(out._data)
    return ("array", out.dtype, out.device, data.dtype, data.shape, data.tobytes(), data.flags.writeable)


def _outcome(call):
    return outcome(call, _describe)


def _pair(policy):
    """(the namespace, another namespace of its policy): arrays of the second take the general path."""
    return xp.namespace(policy, "2025.12"), xp.namespace(policy, "2024.12")


def _dtypes(ns):
    return list(ns.__array_namespace_info__().dtypes().values())


class _Int(int):
    """An int the plain cases do not take (``type(axis) is int``): the general path's."""

    def __repr__(self):
        return repr(int(self))

    __str__ = __repr__


@pytest.mark.parametrize("policy", POLICIES)
def test_nonzero_answers_as_the_general_path(policy):
    ns, other = _pair(policy)
    for dtype in _dtypes(ns):
        values = special_values(dtype)
        for data in (values, values[:0], values[:1], np.resize(values, (2, 3)), values[0]):
            fast = _outcome(lambda data=data: ns.nonzero(ns.asarray(data)))
            general = _outcome(lambda data=data: ns.nonzero(other.asarray(data)))
            assert fast == general, (policy, dtype, data.shape)
    on_device = ns.asarray([True, False, True], device=DEVICE1)
    assert _describe(ns.nonzero(on_device)) == _describe(ns.nonzero(other.asarray(on_device._data, device=DEVICE1)))


@pytest.mark.parametrize("policy", POLICIES)
def test_stack_answers_as_the_general_path(policy):
    ns, other = _pair(policy)
    dtypes = _dtypes(ns)
    for dtype in dtypes:
        a = ns.asarray(special_values(dtype)[:3])
        m = ns.asarray(np.resize(special_values(dtype), (2, 3)))
        cases = [([a, a], 0), ([a, a], 1), ((a, a, a), -1), ([a, a], -2), ([a, a], 2), ([a, a], -3), ([a], 0)]
        cases += [([m, m], 0), ([m, m], 1), ([m, m], 2), ([m, m], -1), ([m, m], 3), ([a, m], 0), ([a, a[:2]], 0)]
        cases += [([ns.asarray(a[0]), ns.asarray(a[1])], 0), ([a[0], a[1]], -1), ([a[0], a[1]], 1)]
        cases += [([a, ns.asarray(np.zeros(3, dtypes[-1].numpy))], 0), ([a, a.to_device(DEVICE1)], 0), ([], 0)]
        cases += [([a, other.asarray(a._data)], 0), ([a, a._data], 0), ([m.mT, m.mT], 1)]
        for arrays, axis in cases:
            fast = _outcome(lambda arrays=arrays, axis=axis: ns.stack(arrays, axis=axis))
            general = _outcome(lambda arrays=arrays, axis=axis: ns.stack(arrays, axis=_Int(axis)))
            assert fast == general, (policy, dtype, [getattr(x, "shape", x) for x in arrays], axis)


@pytest.mark.parametrize("policy", POLICIES)
def test_take_answers_as_the_general_path(policy):
    ns, other = _pair(policy)
    dtypes = _dtypes(ns)
    index_dtypes = [d for d in dtypes if d.name.startswith(("int", "uint"))]
    for dtype in dtypes:
        values = special_values(dtype)
        for index in ([0, -1, 2, 1], [], [3], [-4], [2**7 - 1], [0, 0, 0]):
            for index_dtype in index_dtypes + [dtypes[-1]]:
                try:
                    raw = np.asarray(index, dtype=index_dtype.numpy)
                except OverflowError:
                    continue
                if raw.dtype.kind in "iu" and not np.array_equal(raw.astype(np.int64), index):
                    continue  # (-1 into an unsigned dtype)
                for x_data in (values[:3], np.resize(values, (2, 3))):
                    for idx_data in (raw, raw.reshape(1, -1)):

                        def call(make_x, x_data=x_data, idx_data=idx_data):
                            return ns.take(make_x(x_data), ns.asarray(idx_data))

                        fast = _outcome(lambda call=call: call(ns.asarray))
                        general = _outcome(lambda call=call: call(other.asarray))
                        assert fast == general, (policy, dtype, index, index_dtype, x_data.shape, idx_data.shape)
    x, i = ns.asarray([1.0, 2.0, 3.0]), ns.asarray([2, 0])
    assert _describe(ns.take(x.to_device(DEVICE1), i.to_device(DEVICE1))) == _describe(
        ns.take(other.asarray(x._data, device=DEVICE1), i.to_device(DEVICE1))
    )
    assert _outcome(lambda: ns.take(x, i.to_device(DEVICE1)))[0][0] == "error"


@pytest.mark.parametrize("policy", POLICIES)
def test_take_along_axis_answers_as_the_general_path(policy):
    """Signed indices of x's own shape along an int axis (the plain case: NumPy's take_along_axis key)
    against an axis the plain case does not take: every dtype and index dtype, indices out of bounds,
    shapes that broadcast or do not, other devices and namespaces."""
    ns, other = _pair(policy)
    dtypes = _dtypes(ns)
    index_dtypes = [d for d in dtypes if d.name.startswith(("int", "uint"))] + [dtypes[0], dtypes[-1]]
    for dtype in dtypes:
        values = special_values(dtype)
        for x_data in (
            values[:4],
            np.resize(values, (2, 3)),
            np.resize(values, (3, 2)).T,
            np.resize(values, (2, 1, 3)),
        ):
            shape = x_data.shape
            picks = [np.zeros(shape, np.int64), np.resize([1, -1, 0], shape), np.full(shape, shape[-1])]
            picks += [np.full(shape, -5), np.zeros(shape[:-1] + (1,), np.int64), np.zeros((1,) * len(shape), np.int64)]
            picks += [np.zeros(shape + (1,), np.int64), np.zeros(shape[::-1], np.int64)]
            for pick in picks:
                for index_dtype in index_dtypes:
                    with np.errstate(all="ignore"):
                        idx_data = pick.astype(index_dtype.numpy)
                    for axis in range(-len(shape) - 1, len(shape) + 1):

                        def call(make, axis, x_data=x_data, idx_data=idx_data):
                            return ns.take_along_axis(make(x_data), ns.asarray(idx_data), axis=axis)

                        fast = _outcome(lambda call=call, axis=axis: call(ns.asarray, axis))
                        general = _outcome(lambda call=call, axis=axis: call(other.asarray, _Int(axis)))
                        assert fast == general, (policy, dtype, shape, pick.shape, index_dtype, axis)
    x, i = ns.asarray([[1.0, 2.0, 3.0]]), ns.asarray([[2, 0, 1]])
    assert _describe(ns.take_along_axis(x.to_device(DEVICE1), i.to_device(DEVICE1))) == _describe(
        ns.take_along_axis(other.asarray(x._data, device=DEVICE1), i.to_device(DEVICE1), axis=_Int(-1))
    )
    assert _outcome(lambda: ns.take_along_axis(x, i.to_device(DEVICE1)))[0][0] == "error"
    assert _outcome(lambda: ns.take_along_axis(x, other.asarray(i._data))) == _outcome(
        lambda: ns.take_along_axis(x, other.asarray(i._data), axis=_Int(-1))
    )


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("func", ["all", "any"])
def test_all_and_any_answer_as_the_general_path(policy, func):
    """The plain case (None or an int axis in range, a bool keepdims: the logical ufunc's reduce, as np.all
    and np.any call it) against x of the other namespace of the policy (the general path): every dtype,
    shape and axis, keepdims spelled otherwise."""
    ns, other = _pair(policy)
    for dtype in _dtypes(ns):
        values = special_values(dtype)
        for data in (values, values[:0], values[0], np.resize(values, (2, 3)), np.resize(values, (3, 2, 0))):
            for axis in [None, *range(-data.ndim - 1, data.ndim + 1), (0,), 1.0, True]:
                for keepdims in (False, True, 1, None):
                    kwargs = {"axis": axis, "keepdims": keepdims}

                    def call(make, data=data, kwargs=kwargs):
                        return getattr(ns, func)(make(data), **kwargs)

                    fast = _outcome(lambda call=call: call(ns.asarray))
                    assert fast == _outcome(lambda call=call: call(other.asarray)), (policy, dtype, data.shape, kwargs)
    on_device = ns.asarray(special_values(_dtypes(ns)[0]), device=DEVICE1)
    assert _describe(getattr(ns, func)(on_device)) == _describe(
        getattr(ns, func)(other.asarray(on_device._data, device=DEVICE1))
    )


_FILLS = [0, 1, -1, 2**70, -(2**63), 255, 0.5, -0.0, 1e300, -1e300, math.nan, math.inf, True, False, 1 + 2j]


@pytest.mark.parametrize("policy", POLICIES)
def test_full_like_answers_as_the_general_path(policy):
    ns, _ = _pair(policy)
    for dtype in _dtypes(ns):
        for shape in ((3,), (), (2, 0)):
            x = ns.asarray(np.resize(special_values(dtype), shape))
            for value in _FILLS + [np.float64(2.5)]:
                fast = _outcome(lambda x=x, value=value: ns.full_like(x, value))
                general = _outcome(lambda x=x, value=value: ns.full_like(x, value, device=x.device))
                assert fast == general, (policy, dtype, shape, value)


_BOUNDS = [0, 1, -1, 2**70, 0.5, -0.0, 1e308, -1e308, math.nan, math.inf, -math.inf, True, 1j]


@pytest.mark.parametrize("policy", POLICIES)
def test_linspace_answers_as_the_general_path(policy):
    ns, _ = _pair(policy)
    for start in _BOUNDS:
        for stop in (10.0, 3, -math.inf, start):
            for num in (0, 1, 2, 10, -1, 2**70, True):
                for endpoint in (True, False, 1):
                    fast = _outcome(lambda a=start, b=stop, n=num, e=endpoint: ns.linspace(a, b, n, endpoint=e))
                    general = _outcome(
                        lambda a=start, b=stop, n=num, e=endpoint: ns.linspace(a, b, n, endpoint=e, device=CPU)
                    )
                    assert fast == general, (policy, start, stop, num, endpoint)


@pytest.mark.parametrize("policy", ["array_api", "torch", "mlx"])
def test_linspace_of_random_bounds_answers_as_the_general_path(policy):
    """The float32 of a default float32 policy is the float64 values rounded, bit for bit."""
    ns, _ = _pair(policy)
    rng = np.random.default_rng(32)
    for _ in range(300):
        start, stop = (float(v) for v in rng.standard_normal(2) * 10.0 ** rng.integers(-40, 40, 2))
        num = int(rng.integers(0, 50))
        endpoint = bool(rng.integers(0, 2))
        fast = _outcome(lambda: ns.linspace(start, stop, num, endpoint=endpoint))
        general = _outcome(lambda: ns.linspace(start, stop, num, endpoint=endpoint, device=CPU))
        assert fast == general, (policy, start, stop, num, endpoint)


@pytest.mark.parametrize("policy", POLICIES)
def test_ones_answers_as_the_general_path(policy):
    ns, _ = _pair(policy)
    for shape in (0, 1, 10, 1000, (2, 3), (), (0, 4)):
        assert _outcome(lambda s=shape: ns.ones(s)) == _outcome(lambda s=shape: ns.ones(s, device=CPU)), shape
        for dtype in _dtypes(ns):
            expected = _describe(ns.asarray(np.ones(shape, dtype.numpy), dtype=dtype))
            assert _describe(ns.ones(shape, dtype=dtype)) == expected, (shape, dtype)


@pytest.mark.parametrize("ns", [xp, xp.torch], ids=["array_api", "torch"])
def test_nd_transforms_over_every_axis_are_numpys_with_the_axes_named(ns):
    """fftn, ifftn, rfftn and irfftn over all axes (NumPy's default axes, taken without naming
    them) give NumPy's result for those axes named, bit for bit, and so do other axes and sizes."""
    rng = np.random.default_rng(3)
    for shape in ((2, 8), (3, 4, 5), (6,), (1, 2), (2, 1, 3)):
        real = rng.standard_normal(shape)
        for data in (real, real.astype(np.float32), real + 1j * rng.standard_normal(shape), real.astype(np.complex64)):
            x = ns.asarray(data)
            every = tuple(range(data.ndim))
            for name in ("fftn", "ifftn", "rfftn", "irfftn"):
                for axes, s in ((None, None), (every, None), (every[::-1], None), (every[-1:], None), (every, shape)):
                    if name == "irfftn" and s is None and data.shape[(axes or every)[-1]] == 1:
                        continue  # (an empty output: refused)
                    got = _outcome(lambda n=name, a=axes, s=s: getattr(ns.fft, n)(x, s=s, axes=a))
                    if got[0][0] == "error":  # a dtype the policy's transform refuses
                        continue
                    decision = x._runtime.policy.function_dtype(name, x.dtype)
                    compute = data.real if data.dtype.kind == "c" and decision.compute.numpy.kind != "c" else data
                    kernel = getattr(np.fft, name)
                    expected = kernel(compute.astype(decision.compute.numpy), s=s, axes=axes or every)
                    expected = np.asarray(expected, dtype=decision.result.numpy)
                    assert got[0][3:6] == (expected.dtype, expected.shape, expected.tobytes()), (
                        name,
                        data.dtype,
                        shape,
                        axes,
                        s,
                    )


@pytest.mark.parametrize("ns", [xp, xp.torch], ids=["array_api", "torch"])
@pytest.mark.parametrize("errstate", ["warn", "raise"])
def test_fft_of_special_values_is_numpys_without_a_warning(ns, errstate):
    """The transforms run quietly: NaN and infinities give NaN, whatever the caller's errstate."""
    for dtype in (ns.float64, ns.float32, ns.complex128, ns.complex64):
        data = np.resize(special_values(dtype), (2, 8))
        x = ns.asarray(data)
        for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "rfftn", "irfftn"):
            func = getattr(ns.fft, name)
            kernel = getattr(np.fft, name)
            with np.errstate(all=errstate):
                got = _outcome(lambda func=func: func(x))
            if got[0][0] == "error":  # a dtype the policy's transform refuses
                continue
            decision = x._runtime.policy.function_dtype(name.rstrip("n") if name.endswith("fftn") else name, x.dtype)
            compute = data.real if data.dtype.kind == "c" and decision.compute.numpy.kind != "c" else data
            with np.errstate(all="ignore"):
                expected = np.asarray(kernel(compute.astype(decision.compute.numpy)), dtype=decision.result.numpy)
            assert got[1] == [], (name, dtype, got[1])
            assert got[0][3:5] == (expected.dtype, expected.shape), (name, dtype)
            # (the sign of a NaN NumPy's transform makes is not one of its results: NaNs compare equal)
            np.testing.assert_array_equal(np.frombuffer(got[0][5], expected.dtype).reshape(expected.shape), expected)


# -- issue 51: creation with a dtype, manipulation, where, astype, fft, linalg ----------------------------
_ARANGE_BOUNDS = [(10,), (0,), (1,), (128,), (129,), (256,), (257,), (65536,), (1 << 22,), ((1 << 22) + 1,), (-1,)]
_ARANGE_BOUNDS += [(True,), (2.5,), (10, None), (10, None, 1), (10, None, 2), (0, 10), (0, 10, 3), (10, 0, -3)]
_ARANGE_BOUNDS += [(-5, 5), (-129, -120), (120, 130), (250, 260), (0, 1 << 22), (0, (1 << 22) + 1), (3, 3), (5, 2)]
_ARANGE_BOUNDS += [(2**53, 2**53 + 2), (2**53 + 1, 2**53 + 3), (-(2**53), -(2**53) + 2), (0, 10, 0), (0, 2**40, 2**38)]
_ARANGE_BOUNDS += [(2**31 - 2, 2**31 + 1), (-(2**31) - 1, -(2**31) + 1), (2**32 - 1, 2**32 + 1), (0.0, 10, 1.0)]
_ARANGE_BOUNDS += [(0.0, 1.0, 0.1), (1, 2.5, 0.25), (10.0, 0, -0.7), (0.0, 1.0, 0.0), (0.0, math.inf, 1.0)]
_ARANGE_BOUNDS += [(math.nan, 1.0, 0.5), (0.0, 1e300, 1e-300), (0.0, float(1 << 22) + 1, 1.0), (0, 1, True)]
_ARANGE_BOUNDS += [(np.int64(3),), (0, np.int64(3)), (0.0, np.float64(3.0)), (0.0, "3")]


@pytest.mark.parametrize("policy", POLICIES)
def test_arange_with_a_dtype_answers_as_the_general_path(policy):
    """arange of every argument form with and without a dtype, of every dtype, at the edges of the
    dtypes' ranges, of the plain length and of 2**53; the general path is the call with device=CPU."""
    ns, _ = _pair(policy)
    for bounds in _ARANGE_BOUNDS:
        big = any(type(b) is int and abs(b) >= 1 << 22 for b in bounds[:2]) and bounds != (2**32 - 1, 2**32 + 1)
        dtypes = [None, bool, "float64", *_dtypes(ns)]
        if big:  # (millions of values: a few dtypes)
            dtypes = [d for d in dtypes if d is None or getattr(d, "name", "") in ("float32", "int32", "uint64")]
        for dtype in dtypes:
            kwargs = {} if dtype is None else {"dtype": dtype}
            fast = _outcome(lambda b=bounds, k=kwargs: ns.arange(*b, **k))
            general = _outcome(lambda b=bounds, k=kwargs: ns.arange(*b, **k, device=CPU))
            assert fast == general, (policy, bounds, dtype)
            again = _outcome(lambda b=bounds, k=kwargs: ns.arange(*b, **k, device=None))  # (None: the plain case)
            assert again == general, (policy, bounds, dtype)
        if len(bounds) >= 2:  # stop and step by keyword
            fast = _outcome(lambda b=bounds: ns.arange(b[0], stop=b[1], dtype=ns.float64))
            general = _outcome(lambda b=bounds: ns.arange(b[0], stop=b[1], dtype=ns.float64, device=CPU))
            assert fast == general, (policy, bounds)


@pytest.mark.parametrize("policy", POLICIES)
def test_zeros_ones_and_empty_with_a_dtype_answer_as_the_general_path(policy):
    ns, _ = _pair(policy)
    for name in ("zeros", "ones", "empty"):
        func = getattr(ns, name)
        for shape in (0, 1, 10, (2, 3), (), (0, 4), (1 << 22,), ((1 << 22) + 1,), (2, -1), -1, [2, 3], True, (2.0,)):
            dtypes = [None, bool, "float32", *_dtypes(ns)]
            if shape in ((1 << 22,), ((1 << 22) + 1,)):  # (millions of elements: a few dtypes)
                dtypes = [d for d in dtypes if d is None or getattr(d, "name", "") in ("bool", "complex128")]
            for dtype in dtypes:
                kwargs = {} if dtype is None else {"dtype": dtype}
                fast = _outcome(lambda s=shape, k=kwargs: func(s, **k))
                general = _outcome(lambda s=shape, k=kwargs: func(s, **k, device=CPU))
                if name == "empty" and fast[0][0] == "array":  # (uninitialised values)
                    fast, general = (fast[0][:5], fast[1]), (general[0][:5], general[1])
                assert fast == general, (policy, name, shape, dtype)


def _views_of(ns, dtype):
    """Arrays of ``dtype`` of several shapes and layouts: 0-d, 1-d, 2-d, a transposed and a strided view."""
    values = special_values(dtype)
    grid = np.resize(values, (2, 3))
    return [values[0], values[:1], np.resize(values, 6), grid, grid.T, np.resize(values, (3, 4))[:, ::2], values[:0]]


_RESHAPES = [(6,), (-1,), (2, 3), (3, -1), (-1, 2), (1, 6, 1), (6, 1), (), (1,), (0,), (0, -1), (-1, 0), (2, -2)]
_RESHAPES += [(-1, -1), (4,), (2**70,), (-(2**70),), [2, 3], (2, True), (np.int64(2), 3), (2.0, 3), "6", 6, None]
_RESHAPES += [(1,) * 64, (1,) * 65, (2, 3, 0), (0, 3)]


@pytest.mark.parametrize("policy", POLICIES)
def test_reshape_answers_as_the_general_path(policy):
    ns, other = _pair(policy)
    for dtype in _dtypes(ns):
        for data in _views_of(ns, dtype):
            for shape in _RESHAPES:
                for copy in ({}, {"copy": None}):
                    fast = _outcome(lambda d=data, s=shape, c=copy: ns.reshape(ns.asarray(d), s, **c))
                    general = _outcome(lambda d=data, s=shape, c=copy: ns.reshape(other.asarray(d), s, **c))
                    assert fast == general, (policy, dtype, data.shape, shape, copy)
    x = ns.asarray(np.arange(6.0))
    view = ns.reshape(x, (2, 3))
    assert view._data.base is x._data  # a view, as before
    on_device = x.to_device(DEVICE1)
    assert _outcome(lambda: ns.reshape(on_device, (3, 2))) == _outcome(
        lambda: ns.reshape(other.asarray(x._data, device=DEVICE1), (3, 2))
    )


@pytest.mark.parametrize("policy", POLICIES)
def test_flip_answers_as_the_general_path(policy):
    ns, other = _pair(policy)
    for dtype in _dtypes(ns):
        for data in _views_of(ns, dtype):
            for axis in (None, 0, 1, -1, -2, 2, -3, 5, 2**70, True, 1.0, (0,), (0, 1), [0], _Int(0), np.int64(0)):
                kwargs = {} if axis is None else {"axis": axis}
                for given in (kwargs, {"axis": axis}):
                    fast = _outcome(lambda d=data, k=given: ns.flip(ns.asarray(d), **k))
                    general = _outcome(lambda d=data, k=given: ns.flip(other.asarray(d), **k))
                    assert fast == general, (policy, dtype, data.shape, axis)
    x = ns.asarray(np.arange(6.0))
    assert ns.flip(x)._data.base is x._data  # a view, as before
    assert _outcome(lambda: ns.flip(x.to_device(DEVICE1))) == _outcome(
        lambda: ns.flip(other.asarray(x._data, device=DEVICE1))
    )


_TARGETS = [(6,), (2, 6), (1, 6), (6, 1), (3, 2, 3), (2, 3), (3, 2), (2, 1, 3), (), (0,), (0, 3), (2, 0, 3)]
_TARGETS += [(4, 1, 6), (-1,), (-1, 6), (2, -6), (2**40, 2**40, 0), (2**62, 0), (2**31, 2**31, 0), [2, 6], (2, True)]
_TARGETS += [(np.int64(2), 6), (2.0, 6), 6, None, (1,) * 64 + (6,)]


@pytest.mark.parametrize("policy", POLICIES)
def test_broadcast_to_answers_as_the_general_path(policy):
    ns, other = _pair(policy)
    for dtype in _dtypes(ns):
        values = special_values(dtype)
        for data in (values[0], values[:1], np.resize(values, 6), np.resize(values, (2, 3)), np.resize(values, (1, 3))):
            for shape in _TARGETS + [data.shape, (2,) + data.shape]:
                fast = _outcome(lambda d=data, s=shape: ns.broadcast_to(ns.asarray(d), s))
                general = _outcome(lambda d=data, s=shape: ns.broadcast_to(other.asarray(d), s))
                assert fast == general, (policy, dtype, data.shape, shape)
    x = ns.asarray(np.arange(3.0))
    assert ns.broadcast_to(x, (3,))._data is x._data  # its own shape: the data itself, as before
    assert not ns.broadcast_to(x, (2, 3))._data.flags.writeable


@pytest.mark.parametrize("policy", POLICIES)
def test_concat_answers_as_the_general_path(policy):
    """concat of arrays of one dtype and device (the plain case) and of others, every axis form; the
    general path is the same call with the axis as an int subclass (None: a first array of the other
    namespace)."""
    ns, other = _pair(policy)
    dtypes = _dtypes(ns)
    for dtype in dtypes:
        values = special_values(dtype)
        a, m = ns.asarray(values[:3]), ns.asarray(np.resize(values, (2, 3)))
        cases = [[a, a], (a, a, a), [a], [m, m], [m, m.mT], [a, m], [m, ns.asarray(np.resize(values, (1, 3)))]]
        cases += [[ns.asarray(values[0]), ns.asarray(values[1])], [a, ns.asarray(np.zeros(2, dtypes[-1].numpy))]]
        cases += [[a, a.to_device(DEVICE1)], [a.to_device(DEVICE1)] * 2, [a, a._data], [], [a, None], [m[:, :0], m]]
        for arrays in cases:
            for axis in (0, 1, -1, -2, 2, -3, None, 2**70):
                fast = _outcome(lambda arrays=arrays, axis=axis: ns.concat(arrays, axis=axis))
                if axis is None:
                    general = _outcome(
                        lambda arrays=arrays: ns.concat([other.asarray(arrays[0])] + list(arrays[1:]), axis=None)
                    )
                    if not arrays or type(arrays[0]) is not type(a):
                        continue
                else:
                    general = _outcome(lambda arrays=arrays, axis=axis: ns.concat(arrays, axis=_Int(axis)))
                assert fast == general, (policy, dtype, [getattr(x, "shape", x) for x in arrays], axis)
            assert _outcome(lambda arrays=arrays: ns.concat(arrays)) == _outcome(
                lambda arrays=arrays: ns.concat(arrays, axis=_Int(0))
            )


@pytest.mark.parametrize("policy", POLICIES)
def test_full_with_and_without_a_dtype_answers_as_the_general_path(policy):
    ns, _ = _pair(policy)
    for shape in (3, 0, (2, 3), (), (0, 2), 1 << 22, (1 << 22) + 1, -1, [2], (2.0,), True):
        for dtype in [None, bool, "float32", *_dtypes(ns)]:
            if shape in (1 << 22, (1 << 22) + 1) and dtype not in (None, ns.int8):
                continue  # (millions of elements: a few dtypes)
            kwargs = {} if dtype is None else {"dtype": dtype}
            for value in _FILLS + [np.float64(2.5), np.int8(3), ns.asarray(1.5), "1"]:
                fast = _outcome(lambda s=shape, v=value, k=kwargs: ns.full(s, v, **k))
                general = _outcome(lambda s=shape, v=value, k=kwargs: ns.full(s, v, **k, device=CPU))
                assert fast == general, (policy, shape, dtype, value)


@pytest.mark.parametrize("policy", POLICIES)
def test_full_like_with_a_dtype_answers_as_the_general_path(policy):
    ns, other = _pair(policy)
    dtypes = _dtypes(ns)
    for dtype in dtypes:
        for shape in ((3,), (), (2, 0)):
            x = ns.asarray(np.resize(special_values(dtype), shape))
            for target in (dtypes[0], dtypes[-1], dtype, bool, "float64"):
                for value in _FILLS[::2] + [np.float64(2.5)]:
                    fast = _outcome(lambda x=x, v=value, d=target: ns.full_like(x, v, dtype=d))
                    general = _outcome(lambda x=x, v=value, d=target: ns.full_like(x, v, dtype=d, device=x.device))
                    assert fast == general, (policy, dtype, shape, target, value)
    x = ns.asarray([1.0, 2.0])
    for on_device in (x.to_device(DEVICE1), ns.broadcast_to(x, ((1 << 22) + 2, 2))):
        for target in (None, dtypes[-1]):
            fast = _outcome(lambda x=on_device, d=target: ns.full_like(x, 1, dtype=d))
            general = _outcome(lambda x=on_device, d=target: ns.full_like(other.asarray(x), 1, dtype=d))
            if fast[0][0] == "array":  # (a big one: its size and first bytes)
                fast, general = (
                    (fast[0][:5] + (fast[0][5][:64],), fast[1]),
                    (general[0][:5] + (general[0][5][:64],), general[1]),
                )
            assert fast == general, (on_device.shape, target)


_TRANSFORMS_1 = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
_TRANSFORMS_N = ("fftn", "ifftn", "rfftn", "irfftn")


@pytest.mark.parametrize("policy", POLICIES)
def test_fft_transforms_with_their_defaults_answer_as_the_general_path(policy):
    """Each transform with its defaults (the plain case, once the policy's decision for the dtype is
    remembered) against the same call spelled out for the general path: an axis that is an int
    subclass, the n-d transforms' every axis named."""
    ns, _ = _pair(policy)
    for dtype in _dtypes(ns):
        values = special_values(dtype)
        shapes = [values, values[:1], values[:2], values[:0], values[0], np.resize(values, (2, 4))]
        for data in shapes + [np.resize(values, (3, 1)), np.resize(values, (1, 0)), np.resize(values, (0, 2))]:
            x = ns.asarray(data)
            for name in _TRANSFORMS_1 + _TRANSFORMS_N:
                func = getattr(ns.fft, name)
                first = _outcome(lambda func=func, x=x: func(x))  # (decides, where allowed)
                fast = _outcome(lambda func=func, x=x: func(x))
                if name in _TRANSFORMS_1:
                    general = _outcome(lambda func=func, x=x: func(x, axis=_Int(-1)))
                else:
                    general = _outcome(lambda func=func, x=x: func(x, axes=tuple(range(x.ndim))))
                assert fast == general == first, (policy, dtype, data.shape, name)
    x = ns.asarray(np.ones(4), dtype=_dtypes(ns)[-1])  # (a complex dtype where the policy has one)
    _outcome(lambda: ns.fft.fft(x))
    assert _outcome(lambda: ns.fft.fft(x.to_device(DEVICE1))) == _outcome(
        lambda: ns.fft.fft(x.to_device(DEVICE1), axis=_Int(-1))
    )


def _matrices(dtype):
    """Stacks of square matrices of ``dtype``: regular, singular, of special values, empty."""
    values = special_values(dtype)
    regular = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]])
    with np.errstate(all="ignore"):
        cast = [regular.astype(dtype.numpy), np.stack([regular, 2 * regular]).astype(dtype.numpy)]
    return (
        cast
        + [np.zeros((3, 3), dtype.numpy), np.resize(values, (3, 3)), np.resize(values, (2, 2, 2))]
        + [
            np.zeros((0, 2, 2), dtype.numpy),
            np.zeros((1, 1), dtype.numpy),
            np.resize(values, (2, 3)),
        ]
    )


@pytest.mark.parametrize("policy", POLICIES)
def test_linalg_solve_and_inv_answer_as_the_general_path(policy):
    """inv, det, slogdet, cholesky, trace and solve of stacks of one dtype's square matrices (the plain cases, once the general
    path has decided for the dtypes) against the general path's call: the first argument an array
    of the other namespace."""
    ns, other = _pair(policy)
    dtypes = _dtypes(ns)
    for dtype in dtypes:
        mats = _matrices(dtype)
        for a in mats:
            for name in ("inv", "det", "slogdet", "cholesky", "trace"):
                func = getattr(ns.linalg, name)
                for _ in range(2):  # the first call decides (where allowed), the second takes the plain case
                    fast = _outcome(lambda a=a, f=func: f(ns.asarray(a)))
                general = _outcome(lambda a=a, f=func: f(other.asarray(a)))
                assert fast == general, (policy, dtype, a.shape, name)
            for kwargs in ({"upper": True}, {"upper": False}):
                fast = _outcome(lambda a=a, k=kwargs: ns.linalg.cholesky(ns.asarray(a), **k))
                assert fast == _outcome(lambda a=a, k=kwargs: ns.linalg.cholesky(other.asarray(a), **k))
            for kwargs in ({"offset": 0}, {"offset": 1}, {"dtype": dtypes[-1]}, {"offset": _Int(0)}):
                fast = _outcome(lambda a=a, k=kwargs: ns.linalg.trace(ns.asarray(a), **k))
                assert fast == _outcome(lambda a=a, k=kwargs: ns.linalg.trace(other.asarray(a), **k))
            for b in [m for m in mats if m.ndim >= 1] + [a[..., 0], np.ones(a.shape, dtypes[-1].numpy)]:
                for _ in range(2):
                    fast = _outcome(lambda a=a, b=b: ns.linalg.solve(ns.asarray(a), ns.asarray(b)))
                general = _outcome(lambda a=a, b=b: ns.linalg.solve(other.asarray(a), ns.asarray(b)))
                assert fast == general, (policy, dtype, a.shape, b.dtype, b.shape)


@pytest.mark.parametrize("policy", POLICIES)
def test_matrix_power_and_matrix_norm_answer_as_the_general_path(policy):
    """matrix_power of a positive int power and matrix_norm's default (the plain cases: NumPy's own products,
    and norm's own steps for "fro") against the general path's call: the first argument an array of the other
    namespace; every dtype, stacks regular, singular, special-valued, empty and not square."""
    ns, other = _pair(policy)
    for dtype in _dtypes(ns):
        for a in _matrices(dtype) + [np.resize(special_values(dtype), (2, 3, 2)), np.zeros((2, 0, 3), dtype.numpy)]:
            for n in (1, 2, 3, 4, 5, 6, 7, 8, 13, 0, -1, -2, True, _Int(3)):
                for _ in range(2):  # the first call decides (where allowed), the second takes the plain case
                    fast = _outcome(lambda a=a, n=n: ns.linalg.matrix_power(ns.asarray(a), n))
                general = _outcome(lambda a=a, n=n: ns.linalg.matrix_power(other.asarray(a), n))
                assert fast == general, (policy, dtype, a.shape, n)
            for kwargs in ({}, {"keepdims": True}, {"ord": "fro"}, {"ord": 1}, {"ord": "nuc"}, {"ord": None}):
                for _ in range(2):
                    fast = _outcome(lambda a=a, k=kwargs: ns.linalg.matrix_norm(ns.asarray(a), **k))
                general = _outcome(lambda a=a, k=kwargs: ns.linalg.matrix_norm(other.asarray(a), **k))
                assert fast == general, (policy, dtype, a.shape, kwargs)
    x = ns.asarray(np.eye(3))
    for func in (lambda x: ns.linalg.matrix_power(x, 2), ns.linalg.matrix_norm):
        func(x)
        assert _describe(func(x.to_device(DEVICE1))) == _describe(func(other.asarray(x._data, device=DEVICE1)))
        assert _outcome(lambda f=func: f(ns.asarray(np.ones(3))))[0][0] == "error"


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int64", "uint8"])
def test_matrix_power_and_matrix_norm_are_numpys_bit_for_bit(dtype):
    """The plain cases give NumPy's np.linalg.matrix_power and matrix_norm, bytes and dtype (the namespace
    keeping a float or complex dtype: no cast after), on random, singular and special-valued stacks."""
    rng = np.random.default_rng(51)
    with np.errstate(all="ignore"):
        stacks = [
            (rng.standard_normal((3, 4, 4)) * 3).astype(dtype),
            np.resize(special_values(getattr(xp, dtype)), (2, 3, 3)),
        ]
        if dtype.startswith("complex"):
            stacks[0] = stacks[0] + 1j * rng.standard_normal((3, 4, 4)).astype(dtype)
        stacks += [stacks[0][0], stacks[0].swapaxes(-1, -2), np.zeros((0, 2, 2), dtype)]
    for ns in (xp, xp.torch, xp.namespace("numpy")):
        for a in stacks:
            x = ns.asarray(a)
            for n in (1, 2, 3, 4, 5, 11):
                with np.errstate(all="ignore"):
                    try:
                        for _ in range(2):  # the general path, then the plain case
                            out = ns.linalg.matrix_power(x, n)._data
                    except TypeError:  # (integer matrices: refused by the policy)
                        continue
                    expected = np.linalg.matrix_power(a, n)
                assert out.dtype == expected.dtype and out.tobytes() == expected.tobytes(), (dtype, a.shape, n)
            if dtype.startswith(("float", "complex")):
                with np.errstate(all="ignore"):
                    for _ in range(2):
                        out = ns.linalg.matrix_norm(x)._data
                    expected = np.asarray(np.linalg.matrix_norm(a))
                assert out.dtype == expected.dtype and out.tobytes() == expected.tobytes(), (dtype, a.shape)


@pytest.mark.parametrize("policy", POLICIES)
def test_fft_frequencies_answer_as_the_general_path(policy):
    ns, _ = _pair(policy)
    for name in ("fftfreq", "rfftfreq"):
        func = getattr(ns.fft, name)
        for n in (1, 2, 7, 10, 4096, 5000, 0, -1, 2**70, True, 3.0, np.int64(4), 1 << 22, (1 << 22) + 1):
            for d in (1.0, 0.5, 2, 0, 0.0, -1.5, math.nan, math.inf, 1e-300, True, np.float64(1.0), "1"):
                for dtype in [None, bool, "float32", *_dtypes(ns)]:
                    if (n in (1 << 22, (1 << 22) + 1) or n == 5000) and (d != 1.0 or dtype not in (None, ns.float32)):
                        continue  # (many values: a few cases)
                    kwargs = {} if dtype is None else {"dtype": dtype}
                    fast = _outcome(lambda n=n, d=d, k=kwargs: func(n, d=d, **k))
                    general = _outcome(lambda n=n, d=d, k=kwargs: func(n, d=d, **k, device=CPU))
                    assert fast == general, (policy, name, n, d, dtype)


@pytest.mark.parametrize("policy", POLICIES)
def test_zeros_ones_and_empty_like_answer_as_the_general_path(policy):
    """x of this namespace alone (the plain case) against the call naming x's device (the general path)."""
    ns, other = _pair(policy)
    for dtype in _dtypes(ns):
        values = special_values(dtype)
        for data in (values, values[0], values[:0], np.resize(values, (2, 3)).T, np.resize(values, (3, 4))[:, ::2]):
            x = ns.asarray(data)
            for name in ("zeros_like", "ones_like", "empty_like"):
                func = getattr(ns, name)
                for kwargs in ({}, {"dtype": None, "device": None}, {"dtype": dtype}):
                    fast = _outcome(lambda f=func, x=x, k=kwargs: f(x, **k))
                    general = _outcome(lambda f=func, x=x, k=kwargs: f(other.asarray(x), **k))
                    if name == "empty_like" and fast[0][0] == "array":  # (uninitialised values)
                        fast, general = (fast[0][:5], fast[1]), (general[0][:5], general[1])
                    assert fast == general, (policy, dtype, data.shape, name, kwargs)
                    assert _outcome(lambda f=func, x=x: f(x))[0][3:5] == (x._data.dtype, x._data.shape)
    x = ns.asarray([1.0, 2.0]).to_device(DEVICE1)
    for name in ("zeros_like", "ones_like", "empty_like"):
        assert getattr(ns, name)(x).device is DEVICE1
        assert _outcome(lambda n=name: getattr(ns, n)(np.ones(2)))[0][0] == "error"


@pytest.mark.parametrize("policy", POLICIES)
def test_repeat_eye_and_the_matmul_function_answer_as_the_general_path(policy):
    ns, other = _pair(policy)
    dtypes = _dtypes(ns)
    for dtype in dtypes:
        values = special_values(dtype)
        for data in (values, values[0], values[:0], np.resize(values, (2, 3))):
            edges = ((1 << 22), (1 << 22) + 1) if data.size == 1 and dtype is dtypes[0] else ()  # the plain length's
            for repeats in (0, 1, 3, -1, True, 2**70, np.int64(2), *edges):
                for axis in (None, 0, 1, -1, -2, 2, True, _Int(0)):
                    kwargs = {} if axis is None else {"axis": axis}
                    fast = _outcome(lambda d=data, r=repeats, k=kwargs: ns.repeat(ns.asarray(d), r, **k))
                    general = _outcome(lambda d=data, r=repeats, k=kwargs: ns.repeat(other.asarray(d), r, **k))
                    assert fast == general, (policy, dtype, data.shape, repeats, axis)
        square = ns.asarray(np.resize(values, (3, 3)))
        for x2 in (square, ns.asarray(np.resize(values, (3, 2))), ns.asarray(values[:3]), ns.asarray(values[0])):
            for x1 in (square, x2, ns.asarray(np.ones((3, 3), dtypes[-1].numpy))):
                fast = _outcome(lambda a=x1, b=x2: ns.matmul(a, b))
                general = _outcome(lambda a=x1, b=x2: ns.matmul(other.asarray(a), b))
                assert fast == general, (policy, dtype, x1.shape, x2.shape)
    for n_rows in (0, 1, 3, -1, 2**70, True, 3.0, 2048, 4096):
        for n_cols in (None, 0, 2, 4096, -2, 2.0):
            for k in (0, 1, -2, 5, True):
                for dtype in (None, dtypes[0], dtypes[-1], "float32"):
                    if (n_rows == 4096 or n_cols == 4096) and (k or dtype is not None):
                        continue  # (millions of elements: a few cases)
                    kwargs = {} if dtype is None else {"dtype": dtype}
                    fast = _outcome(lambda n=n_rows, m=n_cols, k=k, kw=kwargs: ns.eye(n, m, k=k, **kw))
                    general = _outcome(lambda n=n_rows, m=n_cols, k=k, kw=kwargs: ns.eye(n, m, k=k, **kw, device=CPU))
                    assert fast == general, (policy, n_rows, n_cols, k, dtype)


@pytest.mark.parametrize("policy", POLICIES)
def test_linalg_diagonal_answers_as_the_general_path(policy):
    """x of this namespace and an int offset (the plain case: NumPy's read-only view) against the general
    path's call: x an array of the other namespace; every dtype, stacks, empty and not square, on both devices."""
    ns, other = _pair(policy)
    for dtype in _dtypes(ns):
        values = special_values(dtype)
        for data in (values, values[0], np.resize(values, (3, 3)), np.resize(values, (2, 3, 2)), values[:0, None]):
            for offset in (0, 1, -1, 2, -5, 99, True, _Int(1), 1.0, np.int64(1)):
                fast = _outcome(lambda d=data, k=offset: ns.linalg.diagonal(ns.asarray(d), offset=k))
                general = _outcome(lambda d=data, k=offset: ns.linalg.diagonal(other.asarray(d), offset=k))
                assert fast == general, (policy, dtype, data.shape, offset)
    x = ns.asarray(np.eye(3)).to_device(DEVICE1)
    assert _describe(ns.linalg.diagonal(x)) == _describe(ns.linalg.diagonal(other.asarray(x._data, device=DEVICE1)))
    assert _outcome(lambda: ns.linalg.diagonal(np.eye(3)))[0][0] == "error"
