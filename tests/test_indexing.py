"""Indexing (__getitem__, __setitem__, take, take_along_axis): errors, policy rules, aliasing."""

from __future__ import annotations

import numpy as np
import pytest

import array_api_promo as xp
import array_api_promo.torch as tx
from array_api_promo import DEVICE1, namespace


def _grid():
    return xp.reshape(xp.arange(12), (3, 4))


# -- __getitem__ ----------------------------------------------------------------------------
def test_single_element_is_a_new_zero_d_array():
    x = xp.asarray([1, 2, 3])
    for v in (x[1], x[-1], _grid()[1, 2], x[(1,)]):
        assert type(v._data) is np.ndarray and v.shape == ()
    v = x[0]
    x[0] = 10
    assert int(v) == 1  # not a view of x


def test_empty_tuple_and_ellipsis_on_zero_d():
    x = xp.asarray(3.5)
    assert x[()].shape == () and type(x[()]._data) is np.ndarray
    assert x[...].shape == ()
    assert x[None].shape == (1,)


def test_basic_indexing():
    g = _grid()
    assert g[1:, ::2].shape == (2, 2)
    assert g[..., 0]._data.tolist() == [0, 4, 8]
    assert g[None, 1, :].shape == (1, 4)
    assert g[::-1, -1]._data.tolist() == [11, 7, 3]
    assert g[np.int64(1), 0].shape == ()  # objects with __index__


@pytest.mark.parametrize(
    "key, match",
    [
        ([0, 1], "list"),
        (1.0, "float"),
        (True, "bool"),
        ((0, 1, 2), "too many indices"),
        ((..., 0, ...), "ellipsis"),
        (np.array([0, 1]), "NumPy ndarray"),
        ((0, [1]), "list"),
        ("a", "not a valid index"),
        ((5, 0), "out of bounds"),
    ],
)
def test_getitem_bad_keys_raise_index_error(key, match):
    with pytest.raises(IndexError, match=match):
        _grid()[key]


def test_out_of_bounds_int_fast_path():
    with pytest.raises(IndexError):
        xp.asarray([1, 2])[2]


def test_boolean_mask():
    g = _grid()
    m = g > 5
    assert g[m]._data.tolist() == [6, 7, 8, 9, 10, 11]
    assert g[xp.asarray([True, False, True])].shape == (2, 4)
    assert g[xp.asarray(True)].shape == (1, 3, 4)
    assert g[xp.asarray(False)].shape == (0, 3, 4)
    # The standard allows a 0 size in the mask's shape: nothing is selected.
    assert g[xp.zeros((0,), dtype=xp.bool)].shape == (0, 4)
    assert g[xp.zeros((3, 0), dtype=xp.bool)].shape == (0,)
    with pytest.raises(IndexError, match="more dimensions"):
        xp.ones(3)[xp.ones((3, 1), dtype=xp.bool)]
    with pytest.raises(IndexError, match="does not match"):
        g[xp.ones((2,), dtype=xp.bool)]


def test_integer_array_indexing():
    g = _grid()
    assert g[xp.asarray([0, 2]), xp.asarray([1, 3])]._data.tolist() == [1, 11]
    assert g[xp.asarray([[0], [2]]), xp.asarray([1, 3])].shape == (2, 2)
    assert g[xp.asarray([-1]), 0]._data.tolist() == [8]
    assert g[xp.asarray(1), xp.asarray(2)].shape == ()
    np_ns = namespace("numpy")  # (an integer array beside a slice: NumPy's; the array_api policy refuses it)
    assert np_ns.reshape(np_ns.arange(12), (3, 4))[np_ns.asarray([0, 0], dtype=np_ns.uint8), :].shape == (2, 4)
    with pytest.raises(IndexError, match="out of bounds"):
        g[xp.asarray([3]), 0]


def test_index_arrays_are_checked():
    g = _grid()
    with pytest.raises(IndexError, match="float64"):
        g[xp.asarray([0.0]), 0]
    with pytest.raises(TypeError, match="cannot mix"):
        g[tx.asarray([0]), 0]
    with pytest.raises(ValueError, match="device"):
        g[xp.asarray([0], device=DEVICE1), 0]


def test_getitem_keeps_dtype_under_torch():
    x = tx.asarray([1.0, 2.0], dtype=tx.bfloat16)
    assert x[0].dtype is tx.bfloat16 and x[tx.asarray([1])].dtype is tx.bfloat16


# -- __setitem__ -----------------------------------------------------------------------------
def test_setitem_array_api_value_must_promote_into_x():
    x = xp.zeros(3, dtype=xp.int16)
    x[0:2] = xp.asarray([1, 2], dtype=xp.int8)
    assert x._data.tolist() == [1, 2, 0] and x.dtype is xp.int16
    with pytest.raises(TypeError, match="__setitem__.*int16.*int32.*array_api"):
        x[0] = xp.asarray(1, dtype=xp.int32)
    with pytest.raises(TypeError, match="__setitem__.*array_api"):
        x[0] = xp.asarray(1.0)
    f = xp.zeros(2, dtype=xp.float32)
    with pytest.raises(TypeError, match="__setitem__"):
        f[0] = xp.asarray(1.0, dtype=xp.float64)


def test_setitem_array_api_scalars():
    x = xp.zeros(2, dtype=xp.int8)
    x[0] = 5
    assert int(x[0]) == 5
    with pytest.raises(OverflowError, match="__setitem__.*128.*int8"):
        x[0] = 128
    with pytest.raises(TypeError, match="__setitem__.*float"):
        x[0] = 1.5
    b = xp.zeros(2, dtype=xp.bool)
    with pytest.raises(TypeError, match="__setitem__"):
        b[0] = 1
    b[0] = True
    f = xp.zeros(2, dtype=xp.float32)
    f[1] = 2  # an int with a floating array is allowed
    assert float(f[1]) == 2.0
    with pytest.raises(TypeError, match="__setitem__"):
        f[1] = "2"


def test_setitem_torch_rules():
    x = tx.zeros(3, dtype=tx.int8)
    x[0] = 300  # torch's scalar conversion wraps
    assert int(x[0]) == 44
    x[1] = tx.asarray(7, dtype=tx.int64)  # int64 into int8: an integral cast
    assert int(x[1]) == 7
    with pytest.raises(TypeError, match="__setitem__.*torch"):
        x[2] = tx.asarray([1.5], dtype=tx.float32)[0]
    f = tx.zeros(2, dtype=tx.float16)
    f[:] = tx.asarray([1.0, 2.0], dtype=tx.float64)
    assert f.dtype is tx.float16 and f._data.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("policy", ["numpy", "numpy_legacy"])
def test_setitem_numpy_refusal_names_the_dtypes_in_our_words(policy):
    # NumPy would store 0.5 as 0; the policy refuses with the operation, both dtypes and itself,
    # not NumPy's "ufunc output ... casting rule" words
    ns = xp.namespace(policy)
    n = ns.asarray([-1, 2, 3])
    with pytest.raises(TypeError) as info:
        n[n < 0] = 0.5
    assert str(info.value) == (
        "__setitem__: cannot store float64 in an int64 array: the policy stores values with "
        "casting='same_kind' (NumPy would cast silently), which does not go from real floating to "
        f"signed integer; convert with astype() first (policy '{policy}')"
    )
    with pytest.raises(TypeError) as info:
        n += 0.5
    assert "ufunc" not in str(info.value)
    assert str(info.value).startswith("add (in-place): cannot store float64 in an int64 array: NumPy casts")
    assert n._data.tolist() == [-1, 2, 3]


def test_setitem_integer_arrays_numpy_style():
    ns = namespace("numpy")  # (the array_api policy refuses integer arrays in __setitem__, as the standard has none)
    g = ns.reshape(ns.arange(12), (3, 4))
    g[ns.asarray([0, 2]), ns.asarray([1, 3])] = ns.asarray([-1, -2])
    assert int(g[0, 1]) == -1 and int(g[2, 3]) == -2
    g[ns.asarray([1])] = 0  # rows, NumPy-style
    assert g[1, ...]._data.tolist() == [0, 0, 0, 0]
    g[:, ns.asarray([0])] = ns.asarray([[5], [6], [7]])
    assert g[..., 0]._data.tolist() == [5, 6, 7]


def test_setitem_mask():
    x = xp.asarray([1.0, 2.0, 3.0])
    x[x > 1.5] = 0.0
    assert x._data.tolist() == [1.0, 0.0, 0.0]
    x[xp.zeros((0,), dtype=xp.bool)] = 9.0  # selects nothing
    assert x._data.tolist() == [1.0, 0.0, 0.0]


def test_setitem_shape_mismatch_is_value_error():
    x = xp.zeros((2, 3))
    with pytest.raises(ValueError, match="__setitem__"):
        x[0, ...] = xp.ones(2)


def test_setitem_overlapping_value():
    x = xp.arange(5)
    x[1:] = x[:-1]
    assert x._data.tolist() == [0, 0, 1, 2, 3]


def test_setitem_value_checks():
    x = xp.zeros(2)
    with pytest.raises(TypeError, match="cannot mix"):
        x[0] = tx.asarray(1.0, dtype=tx.float64)
    with pytest.raises(ValueError, match="device"):
        x[0] = xp.asarray(1.0, device=DEVICE1)
    with pytest.raises(TypeError, match="value"):
        x[0] = np.str_("1")
    with pytest.raises(IndexError, match="list"):
        x[[0]] = 1.0


def test_setitem_numpy_scalars():
    # np.float64 and np.complex128 are Python float and complex: stored as those (as array-api-strict).
    f = xp.zeros(2, dtype=xp.float32)
    f[0] = np.float64(1.5)
    assert f.dtype == xp.float32 and float(f[0]) == 1.5
    c = xp.zeros(1, dtype=xp.complex64)
    c[0] = np.complex128(1j)
    assert complex(c[0]) == 1j
    # Every other NumPy scalar is no operand of the standard: the array_api policy (numpy_scalars
    # "refuse") refuses it, as array-api-strict does (its device check).
    d = xp.zeros(2)
    i = xp.zeros(2, dtype=xp.int32)
    for bad in (np.float32(2.5), np.int8(3), np.int64(3), np.bool_(True)):
        for x in (d, i):
            with pytest.raises(TypeError, match="__setitem__: value must be an array or a Python.*array_api"):
                x[0] = bad
    # Under the numpy policy it keeps its dtype: the policy's in-place rule decides.
    n = namespace("numpy").zeros(2, dtype=namespace("numpy").int32)
    n[0] = np.int8(3)
    assert int(n[0]) == 3
    with pytest.raises(TypeError, match="__setitem__.*int32"):
        i[0] = np.float64(1.5)  # a Python float into an integer array
    # torch: same kind casts back in place, across kinds refuses (as for arrays).
    t = tx.zeros(2, dtype=tx.int32)
    t[0] = np.int64(7)
    assert int(t[0]) == 7 and t.dtype == tx.int32
    with pytest.raises(TypeError, match="__setitem__.*torch"):
        t[0] = np.float32(1.5)


# -- take and take_along_axis ------------------------------------------------------------------
def test_take():
    g = _grid()
    assert xp.take(g, xp.asarray([0, -1]), axis=1)._data.tolist() == [[0, 3], [4, 7], [8, 11]]
    assert xp.take(xp.asarray([5, 6, 7]), xp.asarray([2, 2]))._data.tolist() == [7, 7]
    with pytest.raises(ValueError, match="axis is required"):
        xp.take(g, xp.asarray([0]))
    with pytest.raises(TypeError, match="integer dtype"):
        xp.take(g, xp.asarray([0.0]), axis=0)
    with pytest.raises(ValueError, match="one-dimensional"):
        xp.take(g, xp.asarray([[0]]), axis=0)
    with pytest.raises(IndexError, match="take"):
        xp.take(g, xp.asarray([3]), axis=0)
    with pytest.raises(IndexError, match="take"):
        xp.take(g, xp.asarray([0]), axis=2)
    out = xp.take(g, xp.asarray([0, 1, 2]), axis=0)
    assert not np.shares_memory(out._data, g._data)


def test_take_along_axis():
    x = xp.asarray([[10, 30, 20], [60, 40, 50]])
    idx = xp.argsort(x, axis=1)
    assert xp.take_along_axis(x, idx, axis=1)._data.tolist() == [[10, 20, 30], [40, 50, 60]]
    assert xp.take_along_axis(x, xp.asarray([[-1]]), axis=1)._data.tolist() == [[20], [50]]
    assert xp.take_along_axis(x, xp.asarray([[0], [1]], dtype=xp.uint8), axis=0).shape == (2, 3)
    with pytest.raises(ValueError, match="dimensions"):
        xp.take_along_axis(x, xp.asarray([0]), axis=1)
    with pytest.raises(ValueError, match="broadcast"):
        xp.take_along_axis(x, xp.zeros((3, 1), dtype=xp.int64), axis=1)
    with pytest.raises(IndexError, match="take_along_axis"):
        xp.take_along_axis(x, xp.asarray([[3]]), axis=1)
    with pytest.raises(TypeError, match="integer dtype"):
        xp.take_along_axis(x, xp.asarray([[True]]), axis=1)
