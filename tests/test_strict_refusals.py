"""What the standard leaves undefined and array-api-strict refuses, the ``array_api`` policy refuses
too (and what array-api-strict accepts there, it accepts); other policies keep their libraries'
answers. Found by ``tests/test_strict_differential.py``; each case here on its own, in both builds
(CI runs the suite with ``ARRAY_API_PROMO_PURE_PYTHON=1`` too), the fast paths' second call included."""

from __future__ import annotations

import numpy as np
import pytest

import array_api_promo as xp
from array_api_promo import namespace, promotion

np_ns = namespace("numpy")
tx = namespace("torch")


def _twice(call):
    """``call()`` twice: the first call fills the plan caches the compiled paths read, the second takes them."""
    for _ in range(2):
        call()


@pytest.mark.parametrize("func", ["bitwise_left_shift", "bitwise_right_shift"])
def test_negative_shift_is_a_value_error(func):
    f = getattr(xp, func)
    x = xp.asarray([1, 2, 3], dtype=xp.int8)
    for amount in (-1, xp.asarray([1, -1, 0], dtype=xp.int8), xp.asarray(-2, dtype=xp.int16)):
        with pytest.raises(ValueError, match=rf"{func}: a shift by a negative amount .*policy 'array_api'"):
            _twice(lambda: f(x, amount))
    with pytest.raises(ValueError, match="negative amount"):
        _twice(lambda: x << xp.asarray([-1, 0, 0], dtype=xp.int8))
    assert f(x, 1).dtype == xp.int8 and f(x, xp.asarray([0, 1, 2], dtype=xp.int8)).shape == (3,)
    assert f(xp.asarray([1], dtype=xp.uint8), xp.asarray([1], dtype=xp.uint8)).dtype == xp.uint8
    assert getattr(np_ns, func)(np_ns.asarray([4]), -1)._data.tolist() == [0]  # NumPy's value, as before


def test_negative_integer_power_is_a_value_error():
    x = xp.asarray([1, 2], dtype=xp.int32)
    for call in (lambda: x**-1, lambda: xp.pow(x, -1), lambda: xp.pow(2, xp.asarray([1, -1]))):
        with pytest.raises(ValueError, match="negative integer power"):
            _twice(call)
    assert (tx.asarray([2]) ** tx.asarray([-1]))._data.tolist() == [0]  # torch's truncation, as before


def test_imag_takes_complex_input_only():
    for dtype in (xp.float64, xp.float32, xp.int8, xp.bool):
        with pytest.raises(TypeError, match=r"imag: .* is not allowed; the standard requires complex floating-point"):
            _twice(lambda: xp.imag(xp.asarray([1], dtype=dtype)))
    assert xp.imag(xp.asarray([1 + 2j]))._data.tolist() == [2.0]
    assert xp.real(xp.asarray([1.5]))._data.tolist() == [1.5]  # real stays numeric (2024.12)
    assert np_ns.imag(np_ns.asarray([1.5]))._data.tolist() == [0.0]  # NumPy's zeros, as before


@pytest.mark.parametrize("func", ["argmax", "argmin", "sort", "argsort"])
def test_ordering_takes_real_input_only(func):
    f = getattr(xp, func)
    for values in ([True, False], [1j, 2j]):
        x = xp.asarray(values)
        with pytest.raises(TypeError, match=rf"{func}: \w+ input is not allowed; the standard requires real-valued"):
            _twice(lambda: f(x))
        with pytest.raises(TypeError, match="real-valued"):
            f(x, axis=0)
    assert f(xp.asarray([2, 1])).dtype in (xp.int64, xp.int64 if func != "sort" else xp.int64)
    assert getattr(np_ns, func)(np_ns.asarray([True, False])).shape in ((), (2,))  # NumPy orders bools


def test_searchsorted_compares_kinds_without_promotion():
    x1 = xp.asarray([1, 2, 3])
    _twice(lambda: xp.searchsorted(x1, xp.asarray([1.5, 2.5])))
    assert xp.searchsorted(x1, xp.asarray([1.5, 2.5]))._data.tolist() == [1, 2]
    assert xp.searchsorted(xp.asarray([0.5, 2.5]), xp.asarray([1], dtype=xp.uint8))._data.tolist() == [1]
    with pytest.raises(TypeError, match="real-valued"):
        _twice(lambda: xp.searchsorted(xp.asarray([1j, 2j]), xp.asarray([1j, 2j])))
    xp.result_type(xp.asarray([True]), xp.asarray([True]))  # fills the promotion cache the fast path reads
    with pytest.raises(TypeError, match="real-valued"):
        _twice(lambda: xp.searchsorted(xp.asarray([False, True]), xp.asarray([True])))


def test_crossed_clip_bounds_are_a_value_error():
    x = xp.asarray([1.0, 2.0, 3.0])
    for lo, hi in ((2.0, 1.0), (2, 1), (xp.asarray([0.0, 3.0, 0.0]), xp.asarray([1.0, 1.0, 1.0]))):
        with pytest.raises(ValueError, match=r"clip: min must not exceed max.*policy 'array_api'"):
            _twice(lambda: xp.clip(x, lo, hi))
    assert xp.clip(x, 1.5, 1.5)._data.tolist() == [1.5, 1.5, 1.5]
    assert xp.clip(x, float("nan"), 1.0).shape == (3,)  # a NaN bound crosses nothing
    assert np_ns.clip(np_ns.asarray([1.0, 2.0]), 2.0, 1.0)._data.tolist() == [1.0, 1.0]  # NumPy's, as before
    # refused exactly where (lo > hi).any(): 0-d and n-d bounds, broadcast, NaN, every real dtype
    nan = float("nan")
    pairs = [([2.0], [1.0]), ([nan, 2.0], [1.0, 3.0]), ([1.0, nan], [nan, 0.5]), ([[0.0], [2.0]], [1.0, 3.0])]
    pairs += [([-0.0], [0.0]), ([0.0], [-0.0]), ([nan], [nan]), ([1.0], [1.0]), ([[0.0, 0.0]], [[1.0], [-1.0]])]
    for lo, hi in pairs:
        for dtype in ("float32", "float64", "int8", "uint8"):
            with np.errstate(invalid="ignore"):
                lo_data, hi_data = np.array(lo).astype(dtype), np.array(hi).astype(dtype)
            for lo_b, hi_b in ((lo_data, hi_data), (lo_data[..., :1], hi_data), (lo_data[0], hi_data[0])):
                lo_b, hi_b = xp.asarray(np.asarray(lo_b)), xp.asarray(np.asarray(hi_b))
                x = xp.asarray(np.zeros((2, 2), dtype))
                crossed = bool(np.any(np.asarray(lo_b._data) > np.asarray(hi_b._data)))
                for _ in range(2):  # the general path, then the remembered one
                    if crossed:
                        with pytest.raises(ValueError, match="clip: min must not exceed max"):
                            xp.clip(x, lo_b, hi_b)
                    else:
                        assert xp.clip(x, lo_b, hi_b).shape == (2, 2)


def test_fill_value_is_a_python_scalar():
    for call in (lambda: xp.full((2,), xp.asarray(1.5)), lambda: xp.full_like(xp.asarray([1.0]), xp.asarray(2.0))):
        with pytest.raises(TypeError, match=r"fill_value must be a Python bool, int, float or complex, got an array"):
            _twice(call)
    assert xp.full((2,), 1.5)._data.tolist() == [1.5, 1.5]
    assert tx.full((2,), tx.asarray(1.5)).shape == (2,)  # torch takes a 0-d tensor, as before


def test_shape_and_repetitions_are_tuples():
    x = xp.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for call in (lambda: xp.reshape(x, [3, 2]), lambda: xp.reshape(x, 6), lambda: xp.tile(x, [2, 1])):
        with pytest.raises(TypeError, match=r"must be a tuple of ints.*policy 'array_api'"):
            _twice(call)
    assert xp.reshape(x, (3, 2)).shape == (3, 2) and xp.tile(x, (2, 1)).shape == (4, 3)
    assert tx.reshape(tx.asarray([1, 2]), [2, 1]).shape == (2, 1)  # torch takes a list, as before
    assert np_ns.tile(np_ns.asarray([1]), [2]).shape == (2,)


def test_comparing_with_a_foreign_object_is_a_type_error():
    x = xp.asarray([1.0, 2.0])
    for other in (None, object(), "auto", [1.0, 2.0]):
        with pytest.raises(TypeError, match="comparing with it undefined"):
            x == other  # noqa: B015
        with pytest.raises(TypeError, match="undefined"):
            x != other  # noqa: B015
    with pytest.raises(TypeError):
        None == x  # noqa: B015, E711, SIM300  (NoneType's == gives way to the array's)
    assert (np_ns.asarray([1.0]) == None) is False  # noqa: E711  (Python's identity, as before)


def test_bool_ranges():
    assert xp.linspace(0, 1, 2, dtype=xp.bool)._data.tolist() == [False, True]
    assert xp.linspace(0, 3, 4, dtype=xp.bool)._data.tolist() == [False, True, True, True]
    assert xp.arange(2, dtype=xp.bool)._data.tolist() == [False, True]
    assert xp.arange(1, dtype=xp.bool)._data.tolist() == [False]
    with pytest.raises(TypeError, match="at most two values"):
        xp.arange(3, dtype=xp.bool)
    with pytest.raises(TypeError, match="complex start or stop"):
        xp.linspace(0j, 1j, 2, dtype=xp.bool)
    with pytest.raises(TypeError, match="numeric"):
        tx.linspace(0, 1, 2, dtype=tx.bool)  # torch refuses, as before


def test_undefined_refusals_are_checked():
    from array_api_promo.promotion import ArrayAPIPolicy

    class Odd(ArrayAPIPolicy):
        name = "odd_refusals"
        undefined_refusals = frozenset({"no_such_rule"})

    with pytest.raises(ValueError, match="no_such_rule"):
        Odd()


# -- arguments of types the standard does not name: read as NumPy reads them (array-api-strict's) -------------
def test_flags_are_read_as_numpy_reads_them():
    x = xp.asarray([3.0, 1.0, 2.0])
    assert xp.sum(x, keepdims=1).shape == (1,) and xp.max(x, keepdims=0).shape == ()
    for bad in (None, "yes", 1.5):  # NumPy's reductions take an int flag, not these
        with pytest.raises(TypeError, match="sum: keepdims must be a bool"):
            _twice(lambda bad=bad: xp.sum(x, keepdims=bad))
    assert xp.argmax(x, keepdims="yes").shape == (1,)  # by its truth, as NumPy's argmax
    assert xp.count_nonzero(x, keepdims=None).shape == ()
    assert xp.sort(x, descending=1)._data.tolist() == [3.0, 2.0, 1.0]
    assert xp.cumulative_sum(x, include_initial=1).shape == (4,)
    assert xp.linspace(0, 1, 3, endpoint=0)._data.tolist() == [0.0, 1 / 3, 2 / 3]
    assert xp.astype(x, xp.float32, copy=None).dtype == xp.float32
    assert xp.asarray([1.0], copy=1).dtype == xp.float64
    with pytest.raises(ValueError, match="copy must be True, False or None"):  # NumPy's ValueError (and TypeError)
        xp.asarray([1.0], copy="yes")
    for ns in (tx, np_ns):  # the other policies keep refusing what their type checks refuse
        with pytest.raises(TypeError, match="keepdims must be a bool"):
            ns.sum(ns.asarray([1.0]), keepdims=1)


def test_ints_are_read_by_index():
    x = xp.asarray([1.0, 2.0, 4.0, 7.0])
    assert xp.diff(x, n=True).shape == (3,) and xp.diff(x, n=np.int64(2)).shape == (2,)
    assert xp.eye(np.int64(2), k=True)._data.tolist() == [[0.0, 1.0], [0.0, 0.0]]
    with pytest.raises(TypeError, match="eye: n_rows must be an int"):  # NumPy's eye refuses a bool size
        xp.eye(True)
    assert xp.linalg.matrix_power(xp.eye(2), np.int64(3)).shape == (2, 2)
    assert xp.fft.rfft(x, n=True).shape == (1,)
    with pytest.raises(TypeError, match="fft.fft: n must be an int"):  # as NumPy's C transform
        xp.fft.fft(xp.asarray([1j, 2j]), n=True)
    assert xp.fft.fft(xp.asarray([1j, 2j]), norm=None).shape == (2,)  # None is NumPy's "backward"
    assert xp.roll(x, (1, 2), axis=0)._data.tolist() == xp.roll(x, 3)._data.tolist()
    with pytest.raises(TypeError, match="diff: n must be an int"):
        tx.diff(tx.asarray([1.0, 2.0]), n=True)


def test_axes_read_as_numpy_reads_them():
    x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    assert xp.mean(x, axis=True).shape == (2,)  # NumPy's mean takes True as 1
    for call in (lambda: xp.sum(x, axis=True), lambda: xp.concat([x, x], axis=True), lambda: xp.argsort(x, axis=True)):
        with pytest.raises(TypeError, match="axis must be"):  # NumPy's C axis converter refuses a bool
            _twice(call)
    assert xp.sort(xp.asarray([[2, 1], [0, 3]]), axis=None)._data.tolist() == [0, 1, 2, 3]  # flattened
    assert xp.permute_dims(xp.zeros((2, 3)), None).shape == (3, 2)  # reversed
    assert xp.expand_dims(xp.zeros(3), [0]).shape == (1, 3)
    assert xp.meshgrid(xp.zeros(3), xp.zeros((2, 2)))[0].shape == (4, 3)  # flattened
    with pytest.raises(ValueError, match="meshgrid: every array must be one-dimensional"):
        tx.meshgrid(tx.zeros(3), tx.zeros((2, 2)))


def test_refusal_classes_are_array_api_stricts_too():
    x = xp.asarray([1.0, 2.0])
    with pytest.raises(IndexError):
        xp.sum(x, axis=1)
    with pytest.raises(ValueError, match="sum: axis 1 is out of bounds"):  # NumPy's AxisError: both classes
        _twice(lambda: xp.sum(x, axis=1))
    for call in (lambda: xp.zeros(2, dtype=float), lambda: xp.finfo(xp.int8), lambda: xp.iinfo(xp.float32)):
        for cls in (TypeError, ValueError):
            with pytest.raises(cls):
                call()
    with pytest.raises(ValueError, match="meshgrid: all arrays must have the same dtype"):
        xp.meshgrid(xp.zeros(2), xp.zeros(2, dtype=xp.float32))
    with pytest.raises(ValueError, match="fftfreq"):
        xp.fft.fftfreq(4, dtype=xp.int8)
    with pytest.raises(IndexError, match="take_along_axis: indices must have an integer dtype"):
        xp.take_along_axis(x, xp.asarray([0.0]))
    with pytest.raises(TypeError, match="in-place operation would change the dtype"):  # before its values
        a = xp.asarray([1, 2], dtype=xp.int8)
        a <<= xp.asarray([-1, 1], dtype=xp.int16)
    with pytest.raises(TypeError, match="matmul"):  # the dtype before the shapes, as array-api-strict
        xp.matmul(xp.ones((2, 3), dtype=xp.bool), xp.ones((2, 3), dtype=xp.bool))


def test_vector_matmul_in_place_never_fills_a_vector():
    b = xp.asarray([1.0, 2.0, 3.0])
    for _ in range(3):  # the second and third calls: the fast paths (np.matmul's out= would broadcast)
        a = xp.asarray([1.0, 2.0, 3.0])
        with pytest.raises(ValueError, match="matmul \\(in-place\\): broadcasting would change the shape"):
            a @= b
        assert a._data.tolist() == [1.0, 2.0, 3.0]
    m = xp.eye(2)
    for _ in range(3):
        m @= xp.asarray([[2.0, 0.0], [0.0, 2.0]])
    assert m._data.tolist() == [[8.0, 0.0], [0.0, 8.0]]


def test_new_undefined_refusals():
    with pytest.raises(TypeError, match="asarray: a sequence holding arrays is not allowed"):
        xp.asarray([xp.asarray(1.0), xp.asarray(2.0)])
    assert np_ns.asarray([np_ns.asarray(1.0), np_ns.asarray(2.0)]).shape == (2,)  # NumPy's values, as before
    with pytest.raises(ValueError, match="to_device: device must be a Device, got None"):
        xp.asarray([1.0]).to_device(None)
    with pytest.raises(TypeError, match="__setitem__: value must be an array or a Python"):
        _twice(lambda: xp.asarray([1, 2]).__setitem__(0, np.int64(1)))
    x = xp.asarray([1.0, 2.0])
    x[0] = np.float64(5.0)  # a Python float
    assert x._data.tolist() == [5.0, 2.0]
    with pytest.raises(TypeError, match="squeeze: axis must be an int or a tuple"):
        xp.squeeze(xp.zeros((1, 3)), [0])
    assert xp.squeeze(xp.asarray(1.0), 0).shape == ()  # a 0-d x's axis 0 (NumPy's, torch's)


def test_what_array_api_strict_accepts_without_loss():
    assert xp.linalg.matrix_rank(xp.asarray([[3, 1], [1, 3]]))._data.tolist() == 2  # computed in float64
    assert xp.arange(0, 5, float("inf")).shape == (0,)  # the standard's length ceil(5 / inf)
    assert xp.fft.fftn(xp.asarray(1j))._data.tolist() == 1j  # over no axis: x
    assert xp.cumulative_sum(xp.asarray(2.0))._data.tolist() == [2.0]
    assert xp.diff(xp.asarray([1.0, 3.0]), prepend=xp.asarray(0.0))._data.tolist() == [1.0, 2.0]
    assert xp.tril(xp.ones((2, 2)), k=np.int64(0))._data.tolist() == [[1.0, 0.0], [1.0, 1.0]]
    assert xp.repeat(xp.asarray([1, 2]), xp.asarray(2))._data.tolist() == [1, 1, 2, 2]
    assert xp.searchsorted(xp.asarray([1.0, 2.0]), np.float64(1.5))._data.tolist() == 1


# -- indexing keys the standard leaves undefined (implicit_axes, slice_bounds, setitem_keys, index_mixes) -------
def _matrix(ns):
    return ns.reshape(ns.arange(6.0), (2, 3))


def _store(x, key, value=1.0):
    x[key] = value


_UNDEFINED_KEYS = [  # (call on (ns, 2-d x, 1-d x of 5), the words of our refusal)
    (lambda ns, m, v: m[0], r"__getitem__: the key \[0\] names 1 of the 2 axes .* write x\[0, \.\.\.\]"),
    (lambda ns, m, v: m[(slice(None),)], r"names 1 of the 2 axes"),
    (lambda ns, m, v: m[None, 0, None], r"names 1 of the 2 axes"),
    (lambda ns, m, v: m[ns.asarray([0, 1])], r"names 1 of the 2 axes"),
    (lambda ns, m, v: v[None], r"the key \[None\] names 0 of the 1 axes .* write x\[None, \.\.\.\]"),
    (lambda ns, m, v: _store(m, 0), r"__setitem__: the key \[0\] names 1 of the 2 axes"),
    (lambda ns, m, v: v[0:10], r"__getitem__: the slice 0:10 has stop 10, out of bounds for axis 0 of size 5"),
    (lambda ns, m, v: v[-6:], r"the slice -6: has start -6, out of bounds .* from -5 to 5 only"),
    (lambda ns, m, v: m[0, 1:4], r"the slice 1:4 has stop 4, out of bounds for axis 1 of size 3"),
    (lambda ns, m, v: m[..., 0:4], r"out of bounds for axis 1 of size 3"),
    (lambda ns, m, v: m[0:3, ...], r"out of bounds for axis 0 of size 2"),
    (lambda ns, m, v: ns.zeros(0)[1:], r"out of bounds for axis 0 of size 0"),
    (lambda ns, m, v: _store(v, slice(0, 10)), r"__setitem__: the slice 0:10 has stop 10"),
    (lambda ns, m, v: _store(v, None), r"__setitem__: None \(a new axis\) in the key \[None\] is not defined"),
    (lambda ns, m, v: _store(m, (None, 0, 0)), r"None \(a new axis\)"),
    (lambda ns, m, v: _store(v, ns.asarray([0, 1])), r"__setitem__: an integer array in the key .* not defined"),
    (lambda ns, m, v: _store(v, ns.asarray(0)), r"an integer array in the key"),  # (0-d too, as array-api-strict)
    (lambda ns, m, v: _store(m, (0, ns.asarray([0, 1]))), r"an integer array in the key"),
    (lambda ns, m, v: m[ns.asarray([0, 1]), :], r"integer index arrays beside a slice, an ellipsis or a mask"),
    (lambda ns, m, v: m[ns.asarray([0]), ...], r"integer index arrays beside"),
    (lambda ns, m, v: v[ns.asarray([True, False, True, True, False]), ...], r"a boolean mask beside other entries"),
    (lambda ns, m, v: m[None, ns.asarray([True, False])], r"a boolean mask beside other entries"),
]


@pytest.mark.parametrize(("call", "words"), _UNDEFINED_KEYS)
def test_undefined_keys_are_refused(call, words):
    m, v = _matrix(xp), xp.arange(5.0)
    with pytest.raises(IndexError, match=words):
        _twice(lambda: call(xp, m, v))
    with pytest.raises(IndexError, match=r"\(policy 'array_api'\)"):
        call(xp, m, v)
    assert m._data.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and v._data.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


@pytest.mark.parametrize("ns", [tx, np_ns], ids=["torch", "numpy"])
@pytest.mark.parametrize(("call", "words"), _UNDEFINED_KEYS)
def test_other_policies_take_the_keys_their_libraries_take(ns, call, words):
    m, v = _matrix(ns), ns.arange(5.0)
    for _ in range(2):  # the second call: the fast paths
        call(ns, m, v)


def test_what_array_api_strict_takes_stays_taken():
    m, v = _matrix(xp), xp.arange(5.0)
    for _ in range(2):
        assert m[0, ...]._data.tolist() == [0.0, 1.0, 2.0] and m[0, :].shape == (3,) and m[..., 0].shape == (2,)
        assert m[1, 2]._data.tolist() == 5.0 and m[None, 0, :].shape == (1, 3) and m[:, None, 1:3].shape == (2, 1, 2)
        assert v[0:5].shape == (5,) and v[-5:5].shape == (5,) and v[5:].shape == (0,) and v[::-1].shape == (5,)
        assert v[None, ...].shape == (1, 5) and xp.asarray(1.0)[None].shape == (1,)
        assert m[xp.asarray([0, 1]), xp.asarray([2, 0])]._data.tolist() == [2.0, 3.0]
        assert m[xp.asarray([1]), 0]._data.tolist() == [3.0] and v[xp.asarray([4, 0])]._data.tolist() == [4.0, 0.0]
        assert m[xp.asarray([True, False])].shape == (1, 3)  # a sole mask may leave axes implicit
        assert m[m > 2.0]._data.tolist() == [3.0, 4.0, 5.0] and v[(v > 3.0,)].shape == (1,)
        assert xp.zeros(0)[0:0].shape == (0,) and xp.zeros((2, 0))[:, 0:].shape == (2, 0)
        w = xp.zeros((2, 3))
        w[0, ...] = 1.0
        w[1, 0:3] = xp.asarray([2.0, 3.0, 4.0])
        w[w > 3.0] = 9.0
        w[...] = w
        assert w._data.tolist() == [[1.0, 1.0, 1.0], [2.0, 3.0, 9.0]]
    assert [r._data.tolist() for r in v] == [0.0, 1.0, 2.0, 3.0, 4.0] and len(list(v)) == 5  # a 1-d array's elements


def test_len_and_iteration_beyond_one_dimension_are_refused_as_array_api_strict_refuses_them():
    """``len(x)`` (the standard's array has no ``__len__``) and iterating an array of more than one
    dimension (the standard defines a 1-d array's iteration only) are refused under ``array_api``,
    as array-api-strict refuses them; ``list(x)`` of a 1-d array still works (Python asks ``__len__``
    for a length hint only). Policies that do not refuse them give what their libraries give
    (``len(t)`` and ``list(t)`` of a torch tensor: its first axis)."""
    m, v = _matrix(xp), xp.arange(3.0)
    for _ in range(2):
        with pytest.raises(
            TypeError, match=r"__len__: the standard's array has no len\(\); use x.shape\[0\] \(policy 'array_api'\)"
        ):
            len(v)
        with pytest.raises(
            TypeError, match=r"__iter__: iteration over an array of 2 dimensions is not defined.*'array_api'"
        ):
            iter(m)
        with pytest.raises(TypeError, match="__iter__: iteration over a 0-d array is not defined"):
            iter(xp.asarray(1.0))
        assert [e._data.tolist() for e in v] == [0.0, 1.0, 2.0] and len(list(v)) == 3
    tm = _matrix(tx)
    assert (
        len(tm) == 2
        and len(tx.arange(3.0)) == 3
        and [r._data.tolist() for r in tm] == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    )
    with pytest.raises(TypeError, match="__len__: len\\(\\) of a 0-d array is not defined"):
        len(tx.asarray(1.0))

    class Sized(promotion.ArrayAPIPolicy):
        name = "array_api_sized"
        undefined_refusals = promotion.ArrayAPIPolicy.undefined_refusals - {"len", "nd_iteration"}

    ns = xp.namespace(Sized())
    assert len(ns.arange(4.0)) == 4 and [r.shape for r in _matrix(ns)] == [(3,), (3,)]


def test_indexing_refusals_one_at_a_time():
    class Flat(promotion.ArrayAPIPolicy):
        name = "array_api_flat_keys"
        undefined_refusals = promotion.ArrayAPIPolicy.undefined_refusals - {"implicit_axes"}

    ns = xp.namespace(Flat())
    m = _matrix(ns)
    for _ in range(2):
        assert m[0]._data.tolist() == [0.0, 1.0, 2.0]
        with pytest.raises(IndexError, match="out of bounds for axis 0 of size 2;.*policy 'array_api_flat_keys'"):
            m[0:5]
    assert promotion.INDEXING_REFUSALS.issubset(promotion.UNDEFINED_REFUSALS)
    assert not tx._runtime._key_refusals and xp._runtime._key_refusals == promotion.INDEXING_REFUSALS


def test_lazy_storage_refuses_the_same_keys():
    pytest.importorskip("dask")
    ns = namespace("array_api", storage="dask")
    m = ns.reshape(ns.arange(6.0), (2, 3))
    for call, words in _UNDEFINED_KEYS[:2] + [_UNDEFINED_KEYS[7], _UNDEFINED_KEYS[13], _UNDEFINED_KEYS[15]]:
        with pytest.raises(IndexError, match=words):
            call(ns, m, ns.arange(5.0))
    assert m[0, ...].shape == (3,) and m[:, 1:3].shape == (2, 2)
