"""array-api-extra on array_api_promo arrays (xp and tx, CPU and device1), against NumPy's equivalents."""

from __future__ import annotations

import numpy as np
import pytest

xpx = pytest.importorskip("array_api_extra")

from _consumer_check import (  # noqa: E402
    ARRAY_TYPE,
    CPU_ONLY_ERROR,
    DEVICES,
    MIXED_DEVICE_ERROR,
    NAMESPACES,
    assert_ours,
    to_numpy,
)

import array_api_promo as xp  # noqa: E402
import array_api_promo.torch as tx  # noqa: E402

_rng = np.random.default_rng(0)
M = _rng.standard_normal((5, 3))
A = _rng.standard_normal(6)
INTS = np.array([3, 1, 2, 3, 1, 0])
SPECIAL = np.array([np.nan, np.inf, -np.inf, 1.0])
IDX = np.arange(6)

# Results created in the namespace's default real floating dtype: float32 under torch.
TX_DEFAULT_FLOAT32 = {"one_hot"}
# Integer arrays in __setitem__, which the standard does not define: the array_api policy refuses them, as
# array-api-strict does ("Fancy indexing __setitem__ is not supported."); torch's takes them.
XP_REFUSES = {"at[int array].add", "at[int array].set(copy=True) leaves input"}

# name -> (workload(ns, arrays...), inputs, NumPy's result)
CASES = {
    "atleast_nd": (lambda ns, a: xpx.atleast_nd(a, ndim=3), (A,), A[None, None]),
    "cov": (lambda ns, m: xpx.cov(m), (M.T,), np.cov(M.T)),
    # xpx.expand_dims is deprecated for the standard's (2025.12) expand_dims with a tuple axis.
    "xp.expand_dims(tuple axis)": (lambda ns, m: ns.expand_dims(m, axis=(0, 2)), (M,), np.expand_dims(M, (0, 2))),
    "kron": (lambda ns, m, k: xpx.kron(m, k), (M, M[:2, :2].copy()), np.kron(M, M[:2, :2])),
    "nunique": (lambda ns, i: xpx.nunique(i), (INTS,), np.asarray(np.unique(INTS).size)),
    "pad": (lambda ns, m: xpx.pad(m, 2), (M,), np.pad(M, 2)),
    "pad(constant_values)": (
        lambda ns, m: xpx.pad(m, (1, 2), constant_values=3.5),
        (M,),
        np.pad(M, (1, 2), constant_values=3.5),
    ),
    "setdiff1d": (lambda ns, i, j: xpx.setdiff1d(i, j), (INTS, np.array([1, 5])), np.setdiff1d(INTS, [1, 5])),
    "union1d": (lambda ns, i, j: xpx.union1d(i, j), (INTS, np.array([7, 1])), np.union1d(INTS, [7, 1])),
    "isin": (lambda ns, i, j: xpx.isin(i, j), (INTS, np.array([1, 2])), np.isin(INTS, [1, 2])),
    "sinc": (lambda ns, a: xpx.sinc(a), (A,), np.sinc(A)),
    "isclose": (
        lambda ns, a, b: xpx.isclose(a, b),
        (A, A + 1e-9 * (IDX % 2) + 1e-3 * (IDX == 5)),
        np.isclose(A, A + 1e-9 * (IDX % 2) + 1e-3 * (IDX == 5)),
    ),
    "one_hot": (lambda ns, i: xpx.one_hot(i, 4), (INTS,), np.eye(4)[INTS]),
    "create_diagonal": (lambda ns, a: xpx.create_diagonal(a), (A,), np.diag(A)),
    "nan_to_num": (lambda ns, a: xpx.nan_to_num(a), (SPECIAL,), np.nan_to_num(SPECIAL)),
    "searchsorted": (lambda ns, s, a: xpx.searchsorted(s, a), (np.sort(A), A), np.searchsorted(np.sort(A), A)),
    "partition": (lambda ns, a: xpx.partition(a, 2)[2], (A,), np.asarray(np.sort(A)[2])),
    "apply_where": (
        lambda ns, a: xpx.apply_where(a > 0, a, ns.sqrt, fill_value=-1.0),
        (A,),
        np.where(A > 0, np.sqrt(np.abs(A)), -1.0),
    ),
    "at[slice].set": (lambda ns, a: xpx.at(a)[1:3].set(0.0), (A,), np.concatenate([A[:1], [0.0, 0.0], A[3:]])),
    "at[int array].add": (
        lambda ns, a, i: xpx.at(a)[i].add(1.0),
        (A, np.array([0, 2])),
        A + (IDX % 2 == 0) * (IDX < 3),
    ),
    "at[bool mask].multiply": (lambda ns, a: xpx.at(a)[a > 0].multiply(2.0), (A,), np.where(A > 0, 2 * A, A)),
    "at[...].set(array)": (lambda ns, a, b: xpx.at(a)[...].set(b), (A, A[::-1].copy()), A[::-1]),
    "at[int array].set(copy=True) leaves input": (
        lambda ns, a, i: (xpx.at(a)[i].set(-1.0, copy=True), a)[1],
        (A, np.array([1, 4])),
        A,
    ),
}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("ns", NAMESPACES)
@pytest.mark.parametrize("name", list(CASES))
def test_xpx(name, ns, device):
    f, inputs, expected = CASES[name]
    args = [ns.asarray(a, device=device, copy=True) for a in inputs]  # at() may write in place
    if ns is tx and name in TX_DEFAULT_FLOAT32:
        expected = np.asarray(expected, dtype=np.float32)
    if ns is xp and name in XP_REFUSES:
        with pytest.raises(IndexError, match="__setitem__: an integer array in the key"):
            f(ns, *args)
        return
    assert_ours(f(ns, *args), ns, device, expected, rtol=1e-12, atol=0)


def test_at_writes_in_place_with_copy_none():
    """at(x)[i].add(y) with copy=None may write into x: with our asarray sharing NumPy's memory
    (copy=None), it writes through to the NumPy array, as it does for NumPy input itself."""
    base = A.copy()
    x = xp.asarray(base)
    out = xpx.at(x)[0].add(1.0)
    assert_ours(out, xp, xp.CPU, A + (IDX == 0))
    assert base[0] == A[0] + 1.0


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("ns", NAMESPACES)
def test_argpartition(ns, device):
    a = ns.asarray(A, device=device)
    idx = xpx.argpartition(a, 2)
    assert type(idx) is ARRAY_TYPE and idx.__array_namespace__() is ns and idx.device is device
    got = to_numpy(idx)
    assert sorted(got) == list(range(6))
    assert A[got[2]] == np.sort(A)[2]
    assert np.all(A[got[:2]] <= A[got[2]]) and np.all(A[got[3:]] >= A[got[2]])


@pytest.mark.parametrize("ns", NAMESPACES)
def test_broadcast_shapes_and_default_dtype(ns):
    with pytest.warns(DeprecationWarning, match="broadcast_shapes"):
        assert xpx.broadcast_shapes((2, 1), (1, 3)) == (2, 3)
    assert ns.broadcast_shapes((2, 1), (1, 3)) == (2, 3)
    with pytest.warns(DeprecationWarning, match="expand_dims"):
        out = xpx.expand_dims(ns.asarray(M), axis=(0, 2))
    assert_ours(out, ns, xp.CPU, np.expand_dims(M, (0, 2)))
    assert xpx.default_dtype(ns) == ns.__array_namespace_info__().default_dtypes()["real floating"]


@pytest.mark.parametrize("ns", NAMESPACES)
def test_at_python_scalar_min_cpu(ns):
    out = xpx.at(ns.asarray(A))[:].min(0.0)
    assert_ours(out, ns, xp.CPU, np.minimum(A, 0.0))


@pytest.mark.parametrize("ns", NAMESPACES)
def test_at_python_scalar_min_device1(ns):
    """array-api-extra bug: at().min/max turn the Python scalar into xp.asarray(y) without device=."""
    with pytest.raises(MIXED_DEVICE_ERROR[0], match=MIXED_DEVICE_ERROR[1]):
        xpx.at(ns.asarray(A, device=xp.DEVICE1))[:].min(0.0)


@pytest.mark.parametrize("ns", NAMESPACES)
def test_lazy_apply(ns):
    """lazy_apply runs a NumPy function: eager namespaces hand it NumPy arrays via __array__."""
    out = xpx.lazy_apply(np.cumsum, ns.asarray(A), shape=(6,), dtype=ns.float64)
    assert_ours(out, ns, xp.CPU, np.cumsum(A))
    with pytest.raises(CPU_ONLY_ERROR[0], match=CPU_ONLY_ERROR[1]):
        xpx.lazy_apply(np.cumsum, ns.asarray(A, device=xp.DEVICE1), shape=(6,), dtype=ns.float64)
