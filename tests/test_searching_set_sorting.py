"""Searching, set, sorting and utility functions: index dtypes, NaN rules, stability, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import array_api_promo as xp
import array_api_promo.torch as tx
from array_api_promo import namespace


# -- searching ----------------------------------------------------------------------------
@pytest.mark.parametrize("ns", [xp, tx])
def test_index_results_use_default_index(ns):
    x = ns.asarray([[3, 1], [1, 3]], dtype=ns.int8)
    index = ns._runtime.policy.default_index
    for out in (
        ns.argmax(x),
        ns.argmin(x, axis=0),
        ns.count_nonzero(x),
        ns.argsort(x),
        *ns.nonzero(x),
        ns.searchsorted(ns.asarray([1, 2]), ns.asarray([1])),
    ):
        assert out.dtype is index


def test_argmax_argmin():
    x = xp.asarray([[1, 5, 5], [7, 0, 7]])
    assert int(xp.argmax(x)) == 3
    assert xp.argmax(x, axis=1)._data.tolist() == [1, 0]  # first occurrence
    assert xp.argmin(x, axis=0, keepdims=True).shape == (1, 3)
    assert xp.argmax(x, keepdims=True).shape == (1, 1)
    assert xp.argmax(xp.asarray(4.0)).shape == ()
    with pytest.raises(ValueError, match="argmax.*empty"):
        xp.argmax(xp.ones((0,)))
    with pytest.raises(ValueError, match="argmin.*empty"):
        xp.argmin(xp.ones((2, 0)), axis=1)
    with pytest.raises(IndexError, match="argmax"):
        xp.argmax(x, axis=2)
    assert xp.argmax(x, keepdims=1).shape == (1, 1)  # by its truth, as NumPy (the array_api policy)
    with pytest.raises(TypeError, match="keepdims"):
        tx.argmax(tx.asarray([1, 2]), keepdims=1)


def test_count_nonzero():
    x = xp.asarray([[0.0, 1.0], [math.nan, 0.0]])
    assert int(xp.count_nonzero(x)) == 2
    assert xp.count_nonzero(x, axis=(0, 1), keepdims=True).shape == (1, 1)
    assert xp.count_nonzero(x, axis=0)._data.tolist() == [1, 1]
    assert xp.count_nonzero(x, keepdims=True).shape == (1, 1)
    c = xp.asarray([0j, 1j, 0j])
    assert int(xp.count_nonzero(c)) == 1
    with pytest.raises(ValueError, match="repeated"):
        xp.count_nonzero(x, axis=(0, 0))


def test_nonzero():
    x = xp.asarray([[0, 2], [3, 0]])
    rows, cols = xp.nonzero(x)
    assert rows._data.tolist() == [0, 1] and cols._data.tolist() == [1, 0]
    with pytest.raises(ValueError, match="nonzero.*0-d"):
        xp.nonzero(xp.asarray(1))


def test_searchsorted():
    x1 = xp.asarray([1.0, 2.0, 2.0, 3.0])
    assert xp.searchsorted(x1, xp.asarray([2.0]))._data.tolist() == [1]
    assert xp.searchsorted(x1, xp.asarray([2.0]), side="right")._data.tolist() == [3]
    out = xp.searchsorted(x1, 2.5)
    assert out.shape == () and int(out) == 3
    assert int(xp.searchsorted(x1, 2)) == 1  # an int with a floating array
    unsorted = xp.asarray([3.0, 1.0, 2.0])
    assert int(xp.searchsorted(unsorted, 2.5, sorter=xp.argsort(unsorted))) == 2
    with pytest.raises(ValueError, match="side"):
        xp.searchsorted(x1, 1.0, side="middle")
    with pytest.raises(ValueError, match="one-dimensional"):
        xp.searchsorted(xp.ones((2, 2)), 1.0)
    # int64 with float64: the standard asks real-valued arguments, no promotion (array-api-strict compares them)
    assert xp.searchsorted(xp.asarray([1, 2]), xp.asarray([1.5]))._data.tolist() == [1]
    with pytest.raises(TypeError, match="searchsorted.*array_api"):
        xp.searchsorted(xp.asarray([1, 2]), 1.5)  # a Python float with an integer array: no promotion
    for a, v in (([True, False], [True]), ([1j, 2j], [1j]), ([1.0], [1j])):
        with pytest.raises(TypeError, match="searchsorted.*real-valued.*array_api"):
            xp.searchsorted(xp.asarray(a), xp.asarray(v))
    with pytest.raises(TypeError, match="sorter"):
        xp.searchsorted(x1, 1.0, sorter=xp.asarray([0.0, 1.0, 2.0, 3.0]))
    old = namespace("array_api", "2024.12")
    with pytest.raises(TypeError, match="x2 must be an array"):
        old.searchsorted(old.asarray([1.0]), 1.0)


def test_searchsorted_torch_promotes_across_kinds():
    out = tx.searchsorted(tx.asarray([1, 2, 3], dtype=tx.int8), tx.asarray([1.5], dtype=tx.float32))
    assert out._data.tolist() == [1]


# -- sets -----------------------------------------------------------------------------------
def test_unique_nan_distinct_signed_zeros_merged():
    x = xp.asarray([math.nan, 0.0, -0.0, 1.0, math.nan, 1.0])
    values, indices, inverse, counts = xp.unique_all(x)
    v = values._data
    assert np.isnan(v).sum() == 2
    assert (v == 0).sum() == 1
    assert counts._data[v == 1].tolist() == [2] and counts._data[v == 0].tolist() == [2]
    assert counts._data[np.isnan(v)].tolist() == [1, 1]
    assert int(xp.sum(counts)) == 6
    # the first occurrence of 1.0 is index 3
    assert indices._data[v == 1].tolist() == [3]
    rebuilt = v[inverse._data]
    assert np.array_equal(rebuilt, x._data, equal_nan=True)
    for a in (indices, inverse, counts):
        assert a.dtype is xp.int64


def test_unique_fields_and_shapes():
    x = xp.reshape(xp.asarray([3, 1, 3, 2]), (2, 2))
    r = xp.unique_inverse(x)
    assert r.values._data.tolist() == [1, 2, 3]
    assert r.inverse_indices.shape == (2, 2)
    c = xp.unique_counts(x)
    assert c.counts._data.tolist() == [1, 1, 2]
    a = xp.unique_all(xp.asarray(5))
    assert a.values.shape == (1,) and a.inverse_indices.shape == ()
    assert xp.unique_values(xp.ones((0, 3))).shape == (0,)
    cplx = xp.asarray([complex(math.nan, 0), complex(math.nan, 0), 1j])
    assert xp.unique_values(cplx).shape == (3,)


def test_unique_values_is_new_memory():
    x = xp.asarray([1, 2, 3])
    assert not np.shares_memory(xp.unique_values(x)._data, x._data)


def test_isin():
    x = xp.asarray([1, 2, 3, 4], dtype=xp.int16)
    assert xp.isin(x, xp.asarray([2, 4], dtype=xp.int8))._data.tolist() == [False, True, False, True]
    assert xp.isin(x, 3, invert=True)._data.tolist() == [True, True, False, True]
    out = xp.isin(2, x)
    assert out.shape == () and bool(out)
    with pytest.raises(TypeError, match="at least one"):
        xp.isin(1, 2)
    with pytest.raises(TypeError, match="isin.*float64 input.*integer.*array_api"):
        xp.isin(x, xp.asarray([1.0]))  # the standard: "Should have an integer data type"
    with pytest.raises(TypeError, match="isin.*bool input"):
        xp.isin(xp.asarray([True]), xp.asarray([True]))
    assert namespace("numpy").isin(namespace("numpy").asarray([1.0]), 1)._data.tolist() == [True]  # NumPy's own
    with pytest.raises(TypeError, match="x2"):
        xp.isin(x, [1, 2])
    ns = namespace("numpy")  # (floating isin: not under array_api)
    nan = ns.asarray([math.nan])
    assert not bool(ns.isin(nan, nan)[0])


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "int64", "float32", "float64", "complex64", "complex128"])
def test_isin_kernel_is_numpys_isin(dtype):
    """isin's kernel (a table of equalities for small operands) gives np.isin's array: dtype, shape
    and values, on special values (NaN, signed zeros, infinities, NaN components, integer extremes),
    0-d, empty and stacked operands, on both sides of the table's size limit, inverted or not."""
    from array_api_promo._set_functions import ISIN_TABLE_MAX, _isin

    rng = np.random.default_rng(51)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        special = np.array([True, False])
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        special = np.array([info.min, info.max, 0, 1, info.max - 1], dtype=dt)
    else:
        special = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5, -1e-300], dtype=dt)
        if dt.kind == "c":
            nan, inf = math.nan, math.inf
            parts = [(nan, 0.0), (-0.0, nan), (0.0, 1.0), (inf, -0.0), (-inf, inf), (1.5, 2.0), (0.0, -0.0)]
            special = np.concatenate([special, np.array([complex(re, im) for re, im in parts], dtype=dt)])
    pool = np.concatenate([special, rng.integers(-3, 4, 20).astype(dt)])
    side = int(ISIN_TABLE_MAX**0.5)
    shapes = [(), (0,), (1,), (7,), (3, 4), (2, 0, 3), (side,), (side + 1,)]
    answered = 0
    for s1 in shapes:
        for s2 in shapes:
            x1, x2 = (rng.choice(pool, size=s).astype(dt) for s in (s1, s2))
            for invert in (False, True):
                # (NumPy's sort: its default lookup table overflows on uint64 past int64 in NumPy 2.0)
                got, expected = np.asarray(_isin(x1, x2, invert)), np.isin(x1, x2, invert=invert, kind="sort")
                assert (got.dtype, got.shape, got.tobytes()) == (expected.dtype, expected.shape, expected.tobytes())
                answered += x1.size * x2.size <= ISIN_TABLE_MAX
    assert answered > 50


def test_isin_torch():
    x = tx.asarray([1, 2], dtype=tx.int8)
    assert tx.isin(x, tx.asarray([2.0], dtype=tx.float32))._data.tolist() == [False, True]
    with pytest.raises(TypeError, match="torch"):
        tx.isin(tx.asarray([1], dtype=tx.uint8), tx.asarray([1], dtype=tx.uint16))


# -- sorting ---------------------------------------------------------------------------------
def test_argsort_descending_is_stable():
    x = xp.asarray([1, 3, 1, 3, 2])
    assert xp.argsort(x, descending=True)._data.tolist() == [1, 3, 4, 0, 2]
    assert xp.argsort(x)._data.tolist() == [0, 2, 4, 1, 3]
    m = xp.asarray([[0, 0, 1], [1, 1, 0]])
    assert xp.argsort(m, axis=0, descending=True)._data.tolist() == [[1, 1, 0], [0, 0, 1]]


def test_sort_descending_keeps_signed_zero_order():
    x = xp.asarray([0.0, -0.0, 1.0])
    out = xp.sort(x, descending=True)._data
    assert out.tolist() == [1.0, 0.0, -0.0]
    assert np.signbit(out).tolist() == [False, False, True]


def test_sort_is_a_copy_and_checks_args():
    x = xp.asarray([3, 1, 2])
    s = xp.sort(x)
    assert s._data.tolist() == [1, 2, 3] and not np.shares_memory(s._data, x._data)
    assert xp.sort(x, descending=True)._data.tolist() == [3, 2, 1]
    with pytest.raises(IndexError, match="sort"):
        xp.sort(x, axis=1)
    assert xp.argsort(xp.asarray(1))._data.tolist() == [0]  # NumPy's argsort of 0-d (the array_api policy)
    with pytest.raises(IndexError, match="sort"):
        xp.sort(xp.asarray(1))
    with pytest.raises(IndexError, match="argsort"):
        tx.argsort(tx.asarray(1))
    assert xp.sort(x, descending=None)._data.tolist() == [1, 2, 3]  # by its truth (the array_api policy)
    with pytest.raises(TypeError, match="descending"):
        tx.sort(tx.asarray([1, 2]), descending=None)


def test_sort_torch_bfloat16():
    x = tx.asarray([2.0, 1.0, 3.0], dtype=tx.bfloat16)
    out = tx.sort(x, descending=True)
    assert out.dtype is tx.bfloat16 and out._data.astype(float).tolist() == [3.0, 2.0, 1.0]


# -- utility -----------------------------------------------------------------------------------
def test_all_any():
    x = xp.asarray([[math.nan, 0.0], [math.inf, 1.0]])
    assert bool(xp.all(x[:, 0])) and not bool(xp.all(x))
    assert xp.any(x, axis=1)._data.tolist() == [True, True]
    assert xp.all(x, axis=(0, 1), keepdims=True).shape == (1, 1)
    assert bool(xp.all(xp.ones((0,))))
    assert not bool(xp.any(xp.ones((0,))))
    assert bool(xp.any(xp.asarray([0j, 1j])))
    out = xp.all(x)
    assert out.dtype is xp.bool and type(out._data) is np.ndarray
    with pytest.raises(IndexError, match="all"):
        xp.all(x, axis=2)
    with pytest.raises(TypeError, match="any"):
        xp.any(x, axis=1.0)
