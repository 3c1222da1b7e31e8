"""Statistical functions: policy-specific dtypes and bad input (beyond the upstream suite)."""

import math
import warnings

import numpy as np
import pytest

import array_api_promo as xp
import array_api_promo.torch as tx
from array_api_promo import namespace


def test_sum_accumulation_dtypes_array_api():
    assert xp.sum(xp.asarray([1, 2], dtype=xp.int8)).dtype is xp.int64
    assert xp.sum(xp.asarray([1, 2], dtype=xp.uint8)).dtype is xp.uint64
    assert xp.prod(xp.asarray([1, 2], dtype=xp.uint32)).dtype is xp.uint64
    assert xp.sum(xp.asarray([1.0], dtype=xp.float32)).dtype is xp.float32
    assert xp.cumulative_sum(xp.asarray([1, 2], dtype=xp.int16)).dtype is xp.int64


def test_sum_accumulation_dtypes_torch():
    # torch.sum/prod/cumsum/cumprod: bool and every integer type give int64
    assert tx.sum(tx.asarray([1, 2], dtype=tx.int8)).dtype is tx.int64
    assert tx.sum(tx.asarray([1, 2], dtype=tx.uint8)).dtype is tx.int64
    assert tx.prod(tx.asarray([True, False])).dtype is tx.int64
    assert int(tx.sum(tx.asarray([True, True, False]))) == 2
    assert tx.cumulative_prod(tx.asarray([1, 2], dtype=tx.uint16)).dtype is tx.int64


def test_bool_sum_refused_by_standard():
    with pytest.raises(TypeError, match="sum.*bool.*array_api"):
        xp.sum(xp.asarray([True, False]))


def test_explicit_dtype_honoured():
    x = xp.asarray([100, 100], dtype=xp.int8)
    out = xp.sum(x, dtype=xp.int16)
    assert out.dtype is xp.int16 and int(out) == 200
    assert xp.prod(xp.asarray([2.0, 3.0], dtype=xp.float32), dtype=xp.float64).dtype is xp.float64
    with pytest.raises(TypeError, match="imaginary"):
        xp.sum(xp.asarray([1j]), dtype=xp.float64)
    with pytest.raises(TypeError, match="dtype"):
        xp.sum(xp.asarray([1.0]), dtype="float64")


@pytest.mark.parametrize("func", ["mean", "std", "var"])
def test_moments_need_floating_input(func):
    x = xp.asarray([1, 2, 3])
    with pytest.raises(TypeError, match=f"{func}.*int64.*policy 'array_api'"):
        getattr(xp, func)(x)
    # torch refuses integer input too (torch.mean(int) raises)
    with pytest.raises(TypeError, match=f"{func}.*policy 'torch'"):
        getattr(tx, func)(tx.asarray([1, 2, 3]))


def test_std_var_of_complex():
    z = tx.asarray([1 + 1j, 3 - 1j], dtype=tx.complex64)
    v = tx.var(z)
    assert v.dtype is tx.float32  # torch.var of complex is real
    assert math.isclose(float(v), 2.0, rel_tol=1e-6)
    with pytest.raises(TypeError, match="var.*complex"):
        xp.var(xp.asarray([1 + 1j]))
    m = xp.mean(xp.asarray([1 + 1j, 3 - 1j]))
    assert m.dtype is xp.complex128 and complex(m) == 2 + 0j


def test_max_min_domains():
    with pytest.raises(TypeError, match="max.*complex"):
        xp.max(xp.asarray([1j]))
    with pytest.raises(TypeError, match="min.*bool"):
        xp.min(xp.asarray([True]))
    assert tx.max(tx.asarray([True, False])).dtype is tx.bool  # torch.amax(bool) is bool
    with pytest.raises(TypeError, match="max.*torch"):
        tx.max(tx.asarray([1j]))
    with pytest.raises(ValueError, match="empty"):
        xp.max(xp.asarray([], dtype=xp.float64))


def test_special_values():
    e = xp.asarray([], dtype=xp.float64)
    assert math.isnan(float(xp.mean(e)))
    assert float(xp.sum(e)) == 0.0 and float(xp.prod(e)) == 1.0
    x = xp.asarray([1.0, 2.0])
    assert math.isnan(float(xp.var(x, correction=2)))
    assert float(xp.var(x, correction=1)) == 0.5
    assert math.isnan(float(xp.std(xp.asarray([1.0, float("nan")]))))
    assert math.isnan(float(xp.max(xp.asarray([1.0, float("nan")]))))


def test_axes_and_keepdims():
    x = xp.asarray(np.arange(24.0).reshape(2, 3, 4))
    assert xp.sum(x, axis=(0, 2)).shape == (3,)
    assert xp.mean(x, axis=-1, keepdims=True).shape == (2, 3, 1)
    assert xp.std(x, axis=()).shape == (2, 3, 4)
    with pytest.raises(IndexError, match="sum: axis 3"):
        xp.sum(x, axis=3)
    with pytest.raises(ValueError, match="repeated"):
        xp.sum(x, axis=(0, 0))
    assert xp.sum(x, keepdims=1).shape == (1, 1, 1)  # NumPy's reductions read an int flag (the array_api policy)
    with pytest.raises(TypeError, match="keepdims"):
        xp.sum(x, keepdims=None)  # (as NumPy's reductions refuse it)
    with pytest.raises(TypeError, match="keepdims"):
        tx.sum(tx.ones(3), keepdims=1)
    with pytest.raises(TypeError):
        xp.sum(np.ones(3))


def test_cumulative():
    x = xp.asarray([[1, 2], [3, 4]])
    out = xp.cumulative_sum(x, axis=1, include_initial=True)
    assert out.shape == (2, 3) and np.array_equal(np.asarray(out), [[0, 1, 3], [0, 3, 7]])
    out = xp.cumulative_prod(x, axis=0, include_initial=True)
    assert np.array_equal(np.asarray(out), [[1, 1], [1, 2], [3, 8]])
    with pytest.raises(ValueError, match="axis is required"):
        xp.cumulative_sum(x)
    assert xp.cumulative_sum(xp.asarray(1))._data.tolist() == [1]  # NumPy's cumsum (the array_api policy)
    with pytest.raises(ValueError, match="0-d"):
        xp.cumulative_prod(xp.asarray(1))  # (array-api-strict refuses it there)
    with pytest.raises(ValueError, match="0-d"):
        tx.cumulative_sum(tx.asarray(1))


def test_diff():
    x = xp.asarray([1, 4, 9, 16])
    assert np.array_equal(np.asarray(xp.diff(x)), [3, 5, 7])
    assert np.array_equal(np.asarray(xp.diff(x, n=2)), [2, 2])
    assert xp.diff(x, n=10).shape == (0,)
    out = xp.diff(x, prepend=xp.asarray([0]), append=xp.asarray([25, 36]))
    assert np.array_equal(np.asarray(out), [1, 3, 5, 7, 9, 11])
    with pytest.raises(TypeError, match="diff.*policy 'array_api'"):
        xp.diff(x, prepend=xp.asarray([0.5]))  # int64 and float64 do not promote
    assert xp.diff(x, prepend=xp.asarray([0], dtype=xp.int8)).dtype is xp.int64
    with pytest.raises(ValueError, match="shape"):
        xp.diff(xp.ones((2, 2)), axis=0, prepend=xp.ones((1, 3)))
    with pytest.raises(ValueError, match="non-negative"):
        xp.diff(x, n=-1)
    with pytest.raises(TypeError, match="bool"):
        xp.diff(xp.asarray([True, False]))
    # torch.diff of bool is a logical xor; torch promotes prepend like torch.cat
    b = tx.diff(tx.asarray([True, False, False]))
    assert b.dtype is tx.bool and np.array_equal(np.asarray(b), [True, False])
    assert tx.diff(tx.asarray([1, 2], dtype=tx.int8), prepend=tx.asarray([1.5])).dtype is tx.float32


def test_devices_must_match():
    a = xp.asarray([1.0, 2.0])
    b = xp.asarray([0.0], device=xp.DEVICE1) if hasattr(xp, "DEVICE1") else None
    out = xp.sum(xp.asarray([1.0], device=xp.DEVICE1))
    assert out.device is xp.DEVICE1
    with pytest.raises(ValueError, match="devices"):
        xp.diff(a, prepend=b)


def test_older_versions():
    ns = namespace("array_api", "2023.12")
    assert ns.sum(ns.asarray([1, 2], dtype=ns.int8)).dtype is ns.int64
    assert not hasattr(ns, "cumulative_prod") and hasattr(ns, "cumulative_sum")


def test_float_accumulation_before_2023_12():
    # 2022.12: sum/prod/trace of float32 accumulate in the default float; 2023.12 keeps float32
    old = namespace("array_api", "2022.12")
    assert old.sum(old.asarray([1.0], dtype=old.float32)).dtype is old.float64
    assert old.prod(old.asarray([1j], dtype=old.complex64)).dtype is old.complex128
    assert old.linalg.trace(old.asarray([[1.0]], dtype=old.float32)).dtype is old.float64
    assert old.sum(old.asarray([1.0], dtype=old.float32), dtype=old.float32).dtype is old.float32
    new = namespace("array_api", "2023.12")
    assert new.sum(new.asarray([1.0], dtype=new.float32)).dtype is new.float32


def test_numpy_integer_axis_taken_by_its_index():
    # SciPy's cumulative_simpson passes np.int64 axes (from a NumPy computation) to
    # cumulative_sum and diff; an integer with __index__ is an axis, as in NumPy.
    x = xp.reshape(xp.arange(6.0), (2, 3))
    assert xp.cumulative_sum(x, axis=np.int64(-1)).shape == (2, 3)
    assert xp.diff(x, axis=np.intp(0)).shape == (1, 3)
    assert xp.sum(x, axis=np.int32(1)).shape == (2,)
    assert xp.sum(x, axis=(np.int64(0), 1)).shape == ()
    assert xp.fft.fft(xp.astype(x, xp.complex128), axis=np.int64(0)).shape == (2, 3)
    assert xp.linalg.vector_norm(x, axis=np.int64(1)).shape == (2,)
    for bad in (1.0, np.float64(1.0), np.True_):
        with pytest.raises(TypeError, match="cumulative_sum: axis must be an int"):
            xp.cumulative_sum(x, axis=bad)
    with pytest.raises(IndexError, match="diff: axis 2 is out of bounds"):
        xp.diff(x, axis=np.int64(2))


@pytest.mark.parametrize("ns", [xp, tx], ids=["array_api", "torch"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32", "float64"])
def test_mean_is_numpys_bit_for_bit(ns, dtype):
    """``mean`` divides as ``numpy.mean`` (array-api-strict's mean) does: a complex64 sum by an intp count,
    in complex128, rounded once.  Dividing by ``complex64(n)`` differed in the last place on 147 of 300
    random complex64 arrays (marray's distribution, normal * 10), the general path and the whole-array
    path (the second call of a signature) alike."""
    rng = np.random.default_rng(7)
    for shape in [(7, 13), (19,), (3, 5, 11)]:
        data = (rng.standard_normal(shape) * 10 + 1j * rng.standard_normal(shape) * 10).astype(dtype)
        if dtype.startswith("float"):
            data = data.real.copy()
        x = ns.asarray(data)
        for axis in [None, None, 0, -1] + ([(0, -1)] if len(shape) > 1 else []):
            for keepdims in [False, True]:
                got = np.asarray(ns.mean(x, axis=axis, keepdims=keepdims))
                want = np.mean(data, axis=axis, keepdims=keepdims)
                assert got.dtype == want.dtype and got.tobytes() == np.asarray(want).tobytes(), (
                    f"mean of {dtype} {shape}, axis={axis}, keepdims={keepdims}: {got!r} != numpy's {want!r}"
                )


@pytest.mark.parametrize("ns", [xp, tx], ids=["array_api", "torch"])
def test_cumulative_include_initial_accumulates_over_the_identity(ns):
    """``include_initial=True``: the identity is put first and the accumulation runs over it, as in
    array-api-strict (``np.cumprod(concat([ones, x]))``): NumPy's complex multiply gives another last place
    when the identity is put after (5 of 150 random complex128 draws of marray's distribution), and a
    cumulative sum starting at ``-0.0`` starts ``0 + -0.0 = +0.0``."""
    rng = np.random.default_rng(90)
    for dtype in ("complex64", "complex128", "float64"):
        for shape in [(4, 9, 3), (17,), (2, 13)]:
            data = rng.standard_normal(shape) * 10 + 1j * rng.standard_normal(shape) * 10
            data = data.astype(dtype) if dtype.startswith("complex") else data.real.astype(dtype)
            for axis in range(len(shape)):
                ones = np.ones(shape[:axis] + (1,) + shape[axis + 1 :], dtype=dtype)
                for func, numpy_func, identity in [
                    ("cumulative_prod", np.cumprod, ones),
                    ("cumulative_sum", np.cumsum, 0 * ones),
                ]:
                    want = numpy_func(np.concatenate([identity, data], axis=axis), axis=axis)
                    got = np.asarray(getattr(ns, func)(ns.asarray(data), axis=axis, include_initial=True))
                    assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (func, dtype, shape, axis)
    negative_zero = ns.cumulative_sum(ns.asarray([-0.0, 1.0]), include_initial=True)
    assert np.signbit(np.asarray(negative_zero)).tolist() == [False, False, False]


@pytest.mark.parametrize("ns", [xp, tx], ids=["array_api", "torch"])
@pytest.mark.parametrize("func", ["std", "var"])
def test_variance_without_degrees_of_freedom_is_numpys_nan(ns, func):
    """One element per slice and ``correction=1``: NumPy's (array-api-strict's) ``0 / 0``, the machine's NaN
    bit for bit (sign bit set on x86; ``np.nan``'s is clear): the random draws of marray's distribution with
    a length-1 axis (10 of 150) differed only there."""
    data = np.random.default_rng(3).standard_normal((4, 1, 3))
    for dtype in ("float32", "float64"):
        x = data.astype(dtype)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = getattr(np, func)(x, axis=1, ddof=1)
        got = np.asarray(getattr(ns, func)(ns.asarray(x), axis=1, correction=1))
        assert np.isnan(got).all() and got.dtype == want.dtype and got.tobytes() == want.tobytes()
