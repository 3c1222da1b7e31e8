"""Views, creation and manipulation: the plain cases answer exactly as the general path does.

``real``/``imag``, ``linalg.diagonal``, ``x.T``/``x.mT``, ``squeeze`` and ``unstack`` return
views of their input, as NumPy's and array-api-strict's do (a view aliases its base);
``meshgrid``, ``tile`` and the creation functions return new data. Each plain case is
compared with the general path's spelling of the same call: the same array (dtype, device,
NumPy dtype, shape, bytes, writeability) or the same error (type and message) and warnings,
under every policy where the policy decides. Runs on the compiled and the pure-Python paths
alike (CI runs the suite both ways).
"""

from __future__ import annotations

import contextlib
import math

import numpy as np
import pytest
from fast_path_helpers import (  # tests/ is on sys.path (rootdir-relative import mode)
    fresh_namespace,
    outcome,
    special_values,
)

import array_api_promo as xp
from array_api_promo import DEVICE1, _dtypes as D, promotion

POLICIES = promotion.available_policies()
_fresh = fresh_namespace


def _describe(out):
    if isinstance(out, (tuple, list)):
        return (type(out).__name__, *(_describe(o) for o in out))
    data = np.asarray(out._data)
    return ("array", out.dtype, out.device, data.dtype, data.shape, data.tobytes(), data.flags.writeable)


def _outcome(call):
    return outcome(call, _describe)


def _shares(a, b) -> bool:
    return np.shares_memory(np.asarray(a._data), np.asarray(b._data))


class _Int(int):
    """An int the plain cases do not take (``type(axis) is int``): the general path's."""

    def __repr__(self):
        return repr(int(self))

    __str__ = __repr__


class _Float(float):
    """A float the plain cases do not take (``type(value) is float``): the general path's."""


def _numbers(ns, dtype):
    return special_values(dtype)


# -- real and imag ----------------------------------------------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("func", ["real", "imag"])
def test_real_and_imag_answer_as_the_general_path(policy, func):
    """A fresh namespace's first call builds the plan (the general path); the next takes the fast one."""
    for dtype in _fresh(policy).__array_namespace_info__().dtypes().values():
        for shape in ((8,), (2, 2), ()):

            def call(ns, dtype=dtype, shape=shape):
                return getattr(ns, func)(ns.asarray(np.resize(_numbers(ns, dtype), shape)))

            general = _outcome(lambda call=call: call(_fresh(policy)))
            ns = _fresh(policy)
            with contextlib.suppress(Exception):  # a dtype the policy refuses: nothing remembered
                call(ns)
            assert _outcome(lambda call=call, ns=ns: call(ns)) == general, (policy, dtype, shape)


@pytest.mark.parametrize("ns", [xp, xp.torch], ids=["array_api", "torch"])
def test_real_and_imag_of_a_complex_array_are_views(ns):
    for _ in range(2):  # the plan's first call and the fast path
        z = ns.asarray(np.array([1 + 2j, -3 - 4j], dtype=np.complex64))
        re, im = ns.real(z), ns.imag(z)
        assert re.dtype == im.dtype == ns.float32
        assert np.asarray(re).tolist() == [1.0, -3.0] and np.asarray(im).tolist() == [2.0, -4.0]
        assert _shares(re, z) and _shares(im, z)
        re[0] = 7.0  # a view aliases its base, as NumPy's and array-api-strict's
        assert complex(z[0]) == 7 + 2j
    x = ns.asarray(np.array([1.5, -0.0], dtype=np.float32))
    assert ns.real(x).dtype == ns.float32 and _shares(ns.real(x), x)  # a real array's real part: itself
    if ns is xp:  # the standard's imag takes complex input (array-api-strict refuses a real one; so does torch)
        with pytest.raises(TypeError, match="imag: float32 array is not allowed"):
            ns.imag(x)
    numpy_ns = xp.namespace("numpy")  # NumPy's imag of a real array: new zeros
    y = numpy_ns.asarray(np.array([1.5, -0.0], dtype=np.float32))
    assert np.asarray(numpy_ns.imag(y)).tolist() == [0.0, 0.0] and not _shares(numpy_ns.imag(y), y)


# -- linalg.diagonal ----------------------------------------------------------------------------------
@pytest.mark.parametrize("ns", [xp, xp.torch], ids=["array_api", "torch"])
def test_diagonal_is_a_read_only_view(ns):
    s = ns.asarray(np.arange(18.0).reshape(2, 3, 3))
    for offset in (0, 1, -2, 5):
        d = ns.linalg.diagonal(s, offset=offset)
        assert np.array_equal(np.asarray(d), np.diagonal(np.arange(18.0).reshape(2, 3, 3), offset, -2, -1))
        assert d.dtype == s.dtype and (d.size == 0 or _shares(d, s))
    d = ns.linalg.diagonal(s)
    with pytest.raises(ValueError, match="__setitem__: x is a read-only view .*linalg.diagonal"):
        d[0, 0] = 1.0
    assert float(s[0, 0, 0]) == 0.0


# -- x.T and x.mT ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("ns", [xp, xp.torch, _fresh("jax")], ids=["array_api", "torch", "jax"])
def test_transposes_answer_as_the_python_properties(ns):
    cls = type(ns.asarray(1.0))
    shapes = [(), (3,), (2, 3), (0, 4), (2, 3, 4), (1, 2, 3, 4)]
    for shape in shapes:
        for dtype in (np.float32, np.int8, np.complex128, np.bool_):
            x = ns.asarray(np.arange(math.prod(shape)).reshape(shape).astype(dtype))
            for name, python in (("T", cls._transposed), ("mT", cls._matrix_transposed)):
                fast = _outcome(lambda x=x, name=name: getattr(x, name))
                assert fast == _outcome(lambda x=x, python=python: python(x)), (shape, name)
                if fast[0][0] == "array":
                    view = getattr(x, name)
                    assert view.size == 0 or _shares(view, x)
                    expected = np.swapaxes(np.asarray(x), -1, -2)
                    assert fast[0][4:6] == (expected.shape, expected.tobytes())
    on_device = ns.asarray(np.ones((2, 3))).to_device(DEVICE1)
    assert on_device.T.device == on_device.mT.device == DEVICE1


@pytest.mark.parametrize("policy", POLICIES)
def test_matrix_transpose_answers_as_its_general_path(policy):
    ns = xp.namespace(policy)
    runtime_class = type(ns.asarray(1.0)._runtime)
    other = xp.namespace("torch" if policy == "array_api" else "array_api")
    for shape in [(), (3,), (2, 3), (0, 4), (2, 3, 4), (1, 2, 3, 4)]:
        for dtype in (np.float32, np.int8, np.complex128, np.bool_):
            data = np.arange(math.prod(shape)).reshape(shape).astype(dtype)
            try:
                arrays = (ns.asarray(data), ns.asarray(data).to_device(DEVICE1), other.asarray(data), data)
            except TypeError:  # a dtype the policy lacks
                continue
            for x in arrays:
                for name in ("matrix_transpose", "linalg_matrix_transpose"):
                    public = ns.linalg.matrix_transpose if name.startswith("linalg") else ns.matrix_transpose
                    fast = _outcome(lambda x=x, public=public: public(x))
                    runtime = ns.asarray(1.0)._runtime
                    general = getattr(getattr(runtime_class, name), "__wrapped__", getattr(runtime_class, name))
                    assert fast == _outcome(lambda x=x, general=general: general(runtime, x)), (shape, name)
                    if fast[0][0] == "array":
                        view = public(x)
                        assert view.size == 0 or _shares(view, x)
                        assert view.device == x.device
                        expected = np.swapaxes(np.asarray(x._data), -1, -2)
                        assert fast[0][4:6] == (expected.shape, expected.tobytes())


# -- x.shape ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("ns", [xp, xp.torch], ids=["array_api", "torch"])
def test_shape_answers_as_the_python_property(ns):
    cls = type(ns.asarray(1.0))
    base = np.arange(2 * 3 * 4 * 5, dtype=np.float64).reshape(2, 3, 4, 5)
    datas = [base, base[:, ::2], base[..., None, :], base.T, base[0, 0, 0, :0], base[0, 0, 0, 0], np.empty((0, 7))]
    datas += [np.empty((1,) * 32), np.empty((0, 2**40), dtype=np.int8)]  # NumPy's most dimensions; a size past 2**32
    for data in datas:
        x = ns.asarray(data)
        shape = x.shape
        assert shape == cls._shape(x) == data.shape and type(shape) is tuple, data.shape
        assert all(type(n) is int for n in shape)
    assert ns.asarray(np.ones((3, 2))).mT.shape == (2, 3)
    assert cls.shape.__doc__ and not hasattr(ns.asarray(1.0), "__dict__")  # still a read-only property
    with pytest.raises(AttributeError):
        ns.asarray(1.0).shape = (1,)


# -- squeeze ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
def test_squeeze_answers_as_its_general_path(policy):
    ns = xp.namespace(policy)
    for shape in [(1, 5), (5, 1), (1,), (1, 1, 3), (2, 3), (0, 1), ()]:
        on_cpu = ns.asarray(np.arange(math.prod(shape), dtype=np.float32).reshape(shape))
        for x in (on_cpu, on_cpu.to_device(DEVICE1)):
            for axis in range(-4, 4):
                fast = _outcome(lambda x=x, axis=axis: ns.squeeze(x, axis=axis))
                assert fast == _outcome(lambda x=x, axis=axis: ns.squeeze(x, axis=_Int(axis))), (shape, axis)
                assert fast == _outcome(lambda x=x, axis=axis: ns.squeeze(x, axis=(axis,))), (shape, axis)
                assert fast == _outcome(lambda x=x, axis=axis: ns.squeeze(x, axis)), (shape, axis)  # (positional)
                if fast[0][0] == "array" and x.size:
                    assert _shares(ns.squeeze(x, axis=axis), x)
    with pytest.raises(TypeError, match="squeeze"):
        ns.squeeze(np.ones((1, 2)), axis=0)


# -- unstack and meshgrid ----------------------------------------------------------------------------
@pytest.mark.parametrize("ns", [xp, xp.torch], ids=["array_api", "torch"])
def test_unstack_gives_views_of_each_slice(ns):
    data = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    x = ns.asarray(data)
    for axis in (0, 1, 2, -1):
        parts = ns.unstack(x, axis=axis)
        expected = np.moveaxis(data, axis, 0)
        assert type(parts) is tuple and len(parts) == expected.shape[0]
        for part, want in zip(parts, expected):
            assert part.dtype == ns.int16 and part.device == x.device and type(part._data) is np.ndarray
            assert part.shape == want.shape and np.array_equal(np.asarray(part), want) and _shares(part, x)
    vector = ns.unstack(ns.asarray(np.array([1.5, 2.5])))
    assert [(v.shape, float(v)) for v in vector] == [((), 1.5), ((), 2.5)]
    assert ns.unstack(ns.asarray(np.zeros((0, 3)))) == ()
    on_device = ns.unstack(ns.asarray(np.ones((2, 2))).to_device(DEVICE1))
    assert [p.device for p in on_device] == [DEVICE1, DEVICE1]


@pytest.mark.parametrize("ns", [xp, xp.torch], ids=["array_api", "torch"])
@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid_gives_new_writable_grids(ns, indexing):
    a, b = np.arange(3.0), np.arange(4.0) + 10
    x, y = ns.asarray(a), ns.asarray(b)
    grids = ns.meshgrid(x, y, indexing=indexing)
    for got, want in zip(grids, np.meshgrid(a, b, indexing=indexing)):
        assert got.shape == want.shape and np.array_equal(np.asarray(got), want)
        assert np.asarray(got).flags.writeable and not _shares(got, x) and not _shares(got, y)
    assert not _shares(grids[0], grids[1])
    grids[0][0, 0] = -1.0
    assert float(x[0]) == 0.0 and float(grids[1][0, 0]) != -1.0


# -- asarray of an array --------------------------------------------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
def test_asarray_of_an_array_answers_as_its_general_path(policy):
    ns = _fresh(policy)
    for dtype in ns.__array_namespace_info__().dtypes().values():
        x = ns.asarray(_numbers(ns, dtype))
        assert ns.asarray(x) is x
        for device in (None, DEVICE1):
            for copy in (None, True, False):
                y = x if device is None else x.to_device(device)
                fast = _outcome(lambda y=y, copy=copy: ns.asarray(y, copy=copy))
                # the general path: the same call with the dtype spelled out
                general = _outcome(lambda y=y, copy=copy: ns.asarray(y, dtype=y.dtype, copy=copy))
                assert fast == general, (policy, dtype, device, copy)
                if copy:
                    assert not _shares(ns.asarray(y, copy=True), y)
                else:
                    assert ns.asarray(y, copy=copy) is y
    other = _fresh(policy).asarray(np.ones(2))
    with pytest.raises(TypeError, match="asarray: cannot mix arrays"):
        ns.asarray(other)


# -- creation --------------------------------------------------------------------------------------------
_SHAPES = [(2, 3), (0, 4), (3, 0, 2), (1,), (4, 1, 1, 2), (2**70, 0), (0, 2**70), (-1, 2), (2, True)]
_SHAPES += [(2, 1.0), (2**22, 2**22), ((1 << 26) // 16, 2), ((1 << 26) // 16 + 1,), (np.int64(2), 3)]


@pytest.mark.parametrize("policy", POLICIES)
def test_creation_of_a_tuple_shape_answers_as_of_a_list(policy):
    ns = _fresh(policy)
    for shape in _SHAPES:
        for func in ("zeros", "ones"):
            fast = _outcome(lambda f=func, s=shape: getattr(ns, f)(s))
            assert fast == _outcome(lambda f=func, s=shape: getattr(ns, f)(list(s))), (func, shape)
        fast = _outcome(lambda s=shape: ns.empty(s))
        general = _outcome(lambda s=shape: ns.empty(list(s)))
        assert (fast[0][:5], fast[1]) == (general[0][:5], general[1]), shape


_BOUNDS = [
    (0.0, 10, 1.0),
    (1, 2.5, 0.5),
    (0, 1, 0.1),
    (5.0, 0, 1.0),
    (10.0, 0, -0.5),
    (0.0, 1.0, 0),
    (0.0, math.inf, 1.0),
    (math.nan, 1.0, 1.0),
    (0.0, 1e300, 1e-300),
    (-1e308, 1e308, 1.0),
    (2**60, 2**60 + 10, 1.5),
    (0.0, 2**54, 2**50),
    (0.0, 5e6, 1.0),
    (-0.0, 3, 1.0),
    (1.0, 1.0, 1.0),
    (0.0, 1.0, 1e-7),  # more values than the plain case takes
]


@pytest.mark.parametrize("policy", POLICIES)
def test_arange_of_float_bounds_answers_as_its_general_path(policy):
    ns = _fresh(policy)

    def numpy_number(v):  # the general path takes NumPy numbers by their Python value
        return np.float64(v) if type(v) is float else np.int64(v)

    for start, stop, step in _BOUNDS:
        fast = _outcome(lambda a=start, b=stop, s=step: ns.arange(a, b, s))
        general = _outcome(lambda a=start, b=stop, s=step: ns.arange(numpy_number(a), numpy_number(b), numpy_number(s)))
        assert fast == general, (policy, start, stop, step)
        assert _outcome(lambda a=start, s=step: ns.arange(a, step=s)) == _outcome(
            lambda a=start, s=step: ns.arange(0, numpy_number(a), numpy_number(s))
        ), (policy, start, step)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("func", ["zeros_like", "ones_like", "empty_like"])
def test_creation_like_an_array_answers_as_its_general_path(policy, func):
    ns = _fresh(policy)
    make = getattr(ns, func)
    for dtype in ns.__array_namespace_info__().dtypes().values():
        base = ns.asarray(np.resize(_numbers(ns, dtype), (3, 4)))
        for x in (base, base.T, base[:, ::2], base.to_device(DEVICE1), ns.asarray(_numbers(ns, dtype)[0])):
            fast = _outcome(lambda x=x: make(x))
            general = _outcome(lambda x=x: make(x, dtype=x.dtype, device=x.device))
            if func == "empty_like":  # no values to compare
                fast, general = (fast[0][:5], fast[1]), (general[0][:5], general[1])
            assert fast == general, (policy, dtype, x.shape)
            assert not _shares(make(x), x)
    with pytest.raises(TypeError, match=func):
        make(np.ones(3))


@pytest.mark.parametrize("ns", [xp, xp.torch], ids=["array_api", "torch"])
def test_concat_without_an_axis_answers_as_its_general_path(ns):
    a = ns.asarray(np.arange(6.0).reshape(2, 3))
    cases = [[a, a.T], [a, ns.asarray([1.0, 2.0])], [ns.asarray(1.0), ns.asarray(2.0)], [a], (a, a)]
    cases += [[a, ns.asarray(np.ones(2, dtype=np.float32))], [a, a.to_device(DEVICE1)], [a, np.ones(2)], []]
    for arrays in cases:
        fast = _outcome(lambda arrays=arrays: ns.concat(arrays, axis=None))
        runtime = a._runtime
        # the general path, by its own function: the plain case tests the sequence's type exactly
        general = _outcome(lambda arrays=arrays: type(runtime).concat(runtime, _List(arrays), axis=None))
        assert fast == general, arrays


class _List(list):
    """A list the plain cases do not take (``type(arrays) is list``): the general path's."""


@pytest.mark.parametrize("ns", [xp, xp.torch], ids=["array_api", "torch"])
def test_tile_never_returns_a_view(ns):
    x = ns.asarray(np.arange(6.0).reshape(2, 3))
    for reps in [(1,), (1, 1), (2,), (1, 2), (2, 1, 1), (0,), (1, 1, 1)]:
        out = ns.tile(x, reps)
        assert np.array_equal(np.asarray(out), np.tile(np.arange(6.0).reshape(2, 3), reps))
        assert not _shares(out, x) and np.asarray(out).flags.writeable
    empty = ns.asarray(np.zeros((0, 3)))
    assert not _shares(ns.tile(empty, (2,)), empty) and ns.tile(empty, (2, 1)).shape == (0, 3)


@pytest.mark.parametrize("policy", POLICIES)
def test_tile_answers_as_its_general_path(policy):
    """A tuple of ints (the plain case: np.tile's steps) against the same repetitions as ints the plain
    case does not take: the same array, and its layout, or the same error, for every dtype."""
    ns = xp.namespace(policy)
    reps_cases = [(2,), (3, 1), (1, 2), (2, 2), (2, 1, 3), (1,), (1, 1), (0,), (2, 0), (-1,), (2, True), ()]
    reps_cases += [(1,) * 70 + (2,), (1 << 20, 1 << 20), (2.0,)]
    for dtype in ns.__array_namespace_info__().dtypes().values():
        values = special_values(dtype)
        for data in (values[:3], values[0], values[:0], np.resize(values, (2, 3)), np.resize(values, (3, 2)).T):
            on_cpu = ns.asarray(data)
            for x in (on_cpu, on_cpu.to_device(DEVICE1)):
                for reps in reps_cases:
                    fast = _outcome(lambda x=x, reps=reps: ns.tile(x, reps))
                    spelled = tuple(_Int(r) if type(r) is int else r for r in reps)
                    assert fast == _outcome(lambda x=x, r=spelled: ns.tile(x, r)), (policy, dtype, data.shape, reps)
                    if fast[0][0] == "array":
                        out, general = ns.tile(x, reps), ns.tile(x, spelled)
                        assert out._data.strides == general._data.strides
                        assert not _shares(out, x)


# -- torch's checked conversion of a float (full, full_like, where, clip) ------------------------------
_FLOATS = [0.0, -0.0, 1.5, math.nan, -math.nan, math.inf, -math.inf, 5e-324, 1e-46, 1e300, -1e300]
_FLOATS += [float(np.finfo(np.float32).max), -float(np.finfo(np.float32).max), 3.4028235677973366e38, 3.5e38]
_FLOATS += [math.nextafter(float(np.finfo(np.float32).max), math.inf), float(np.finfo(np.float64).max)]


@pytest.mark.parametrize("version", ["torch", "torch@2.13"])
def test_torchs_checked_float_conversion_answers_as_its_general_path(version):
    policy = promotion.get_policy(version)
    for dtype in (D.float16, D.float32, D.float64, D.complex64, D.bool_):  # (ints take floats by type)
        for value in _FLOATS:
            for op in ("full", "full_like", "where", "clip"):

                def describe(out):
                    return (out.dtype, out.shape, out.tobytes())

                fast = outcome(lambda v=value, op=op: policy.create_scalar(v, dtype, op), describe)
                general = outcome(lambda v=value, op=op: policy.create_scalar(_Float(v), dtype, op), describe)
                assert fast == general, (version, dtype, value, op)
    tx = xp.torch
    assert float(tx.full(2, 3.4e38)[0]) == float(np.float32(3.4e38))
    with pytest.raises(OverflowError, match="full"):
        tx.full(2, 3.5e38)


# -- broadcasting --------------------------------------------------------------------------------------
def _view_facts(v):
    """What tells two views apart: type, dtype, shape, strides, first byte, flags, base, values."""
    flags = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY")
    start = v.__array_interface__["data"][0]
    return type(v), v.dtype, v.shape, v.strides, start, tuple(v.flags[f] for f in flags), id(v.base), v.tobytes()


def test_broadcast_view_is_numpys_broadcast_to():
    """``_core.broadcast_view`` (in C: the view np.broadcast_to's iterator makes) is NumPy's view of every
    shape the array broadcasts to, on strided, transposed, read-only, byte-swapped, 0-d and size-1 arrays
    and views of views; NotImplemented for every shape that does not broadcast (and, in C, a size of 0)."""
    from array_api_promo import _core

    base = np.arange(24.0).reshape(2, 3, 4)
    readonly = np.arange(3.0)
    readonly.flags.writeable = False
    arrays = [base, base[:, ::-2, 1:2], base.transpose(2, 0, 1)[:1], readonly, np.arange(4, dtype=">i4")]
    arrays += [np.asarray(2.5), np.ones((1, 1), np.int8), base[0, 0], np.zeros((3, 1), bool)]
    shapes = [(), (1,), (4,), (3,), (2, 3, 4), (5, 2, 3, 4), (2, 1), (3, 1), (1, 3, 4), (7, 3, 1), (2, 0), (0, 4)]
    shapes += [(6, 2, 2, 3, 4), (4, 4), (3, 3)]
    made = refused = 0
    for a in arrays:
        for shape in shapes + [a.shape, (2, *a.shape)]:
            got = _core.broadcast_view(a, shape)
            try:
                expected = np.broadcast_to(a, shape)
            except ValueError:
                assert got is NotImplemented, (a.shape, shape)
                refused += 1
                continue
            if got is NotImplemented:
                assert 0 in shape, (a.shape, shape)  # (a size of 0: NumPy's call)
                continue
            made += 1
            assert _view_facts(got) == _view_facts(expected), (a.shape, a.strides, shape)
    assert made > 60 and refused > 60, (made, refused)
    if _core.COMPILED:
        with pytest.raises(TypeError, match="broadcast_view"):
            _core.broadcast_view([1, 2], (2,))


@pytest.mark.parametrize("policy", POLICIES)
def test_broadcast_to_and_broadcast_arrays_answer_as_their_general_path(policy):
    ns = _fresh(policy)
    other = xp.namespace(ns.asarray(0)._runtime.policy, "2024.12")  # its arrays: ns's general path
    for dtype in list(ns.__array_namespace_info__().dtypes().values())[:4]:
        values = special_values(dtype)
        inputs = [values, values[:1], np.asarray(values[0]), np.resize(values, (2, 1, 3))[:, :, ::-1]]
        for data in inputs:
            for shape in [(3, 2, *data.shape), data.shape, (1, 1), (4, 2, 5, 3), (0, *data.shape), (2, 1.0)]:
                fast = _outcome(lambda data=data, shape=shape: ns.broadcast_to(ns.asarray(data), shape))
                general = _outcome(lambda data=data, shape=shape: ns.broadcast_to(other.asarray(data), shape))
                assert fast == general, (policy, dtype, data.shape, shape)
            for others in (
                [values],
                [data, values[:1]],
                [np.resize(values, (2, 2))],
                [np.ones((4, 1, 1), dtype.numpy)],
            ):
                fast = _outcome(lambda data=data, others=others: ns.broadcast_arrays(*map(ns.asarray, [data, *others])))
                general = _outcome(
                    lambda data=data, others=others: ns.broadcast_arrays(*map(other.asarray, [data, *others]))
                )
                assert fast == general, (policy, dtype, data.shape, [o.shape for o in others])
    with pytest.raises(ValueError, match="device"):
        ns.broadcast_arrays(ns.ones(2), ns.ones(2).to_device(DEVICE1))


@pytest.mark.parametrize("ns", [xp, xp.torch], ids=["array_api", "torch"])
def test_from_dlpack_of_an_array_answers_as_asarray_does(ns):
    """An array of this namespace with no device or copy asked: itself (its plain case); otherwise a copy,
    a move or an array of this namespace over the same data, as the general path gives."""
    x = ns.asarray([1.5, 2.5])
    assert ns.from_dlpack(x) is x
    assert ns.from_dlpack(x, copy=False) is x
    copied = ns.from_dlpack(x, copy=True)
    assert copied is not x and not np.shares_memory(copied._data, x._data) and copied._data.tolist() == [1.5, 2.5]
    moved = ns.from_dlpack(x, device=DEVICE1)
    assert moved.device == DEVICE1 and moved._data.tolist() == [1.5, 2.5]
    foreign = xp.namespace(x._runtime.policy, "2024.12").asarray([1.5, 2.5])
    taken = ns.from_dlpack(foreign)
    assert taken is not foreign and taken._runtime is x._runtime and taken._data is foreign._data
    with pytest.raises(ValueError, match="copy=False"):
        ns.from_dlpack(x, device=DEVICE1, copy=False)


def test_squeezed_view_is_numpys_squeeze():
    """``_core.squeezed_view`` (in C: NumPy's view without the axis) is ``a.squeeze(axis)`` (type, dtype,
    shape, strides, data pointer, flags, base, values) for every axis of size 1, on strided, transposed,
    read-only and empty arrays; NotImplemented for every other axis, which NumPy refuses."""
    from array_api_promo import _core

    base = np.arange(24.0).reshape(1, 2, 1, 3, 4, 1)
    readonly = base.copy()
    readonly.flags.writeable = False
    arrays = [base, base[:, ::-1, :, ::2], base.transpose(5, 4, 3, 2, 1, 0), readonly, np.ones(1), np.zeros((1, 0, 1))]
    made = refused = 0
    for a in arrays:
        for axis in range(-a.ndim - 1, a.ndim + 1):
            got = _core.squeezed_view(a, axis)
            try:
                expected = a.squeeze(axis)
            except ValueError:
                assert got is NotImplemented, (a.shape, axis)
                refused += 1
                continue
            made += 1
            assert _view_facts(got) == _view_facts(expected), (a.shape, a.strides, axis)
    assert made >= 20 and refused >= 20, (made, refused)
    if _core.COMPILED:
        with pytest.raises(TypeError, match="squeezed_view"):
            _core.squeezed_view(base, 0.0)
