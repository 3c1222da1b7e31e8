"""Linear algebra and FFT: dtypes kept, policy rules and bad input (beyond the upstream suite)."""

import cmath

import numpy as np
import pytest

import array_api_promo as xp
import array_api_promo.torch as tx
from array_api_promo import namespace


def rand(ns, shape, dtype):
    data = np.random.default_rng(0).standard_normal(shape)
    return ns.asarray(data.astype(dtype.numpy))


@pytest.mark.parametrize("name", ["inv", "det", "pinv", "svdvals", "matrix_norm", "eigvalsh", "cholesky"])
def test_float32_stays_float32(name):
    a = rand(xp, (2, 3, 3), xp.float32)
    a = a @ xp.matrix_transpose(a) + xp.asarray(3 * np.eye(3, dtype=np.float32))
    assert getattr(xp.linalg, name)(a).dtype is xp.float32


def test_complex_results():
    z = xp.asarray(np.eye(3, dtype=np.complex64) * (1 + 1j))
    assert xp.linalg.eigvalsh(z @ xp.conj(xp.matrix_transpose(z))).dtype is xp.float32
    sign, logabs = xp.linalg.slogdet(z)
    assert sign.dtype is xp.complex64 and logabs.dtype is xp.float32
    assert xp.linalg.svd(z).S.dtype is xp.float32
    assert xp.linalg.vector_norm(z).dtype is xp.float32
    assert xp.linalg.eig(xp.asarray(np.eye(2, dtype=np.float32))).eigenvalues.dtype is xp.complex64


def test_namedtuples():
    a = rand(xp, (3, 3), xp.float64)
    q, r = xp.linalg.qr(a)
    assert xp.linalg.qr(a, mode="complete").Q.shape == (3, 3)
    assert xp.linalg.svd(a).Vh.shape == (3, 3)
    assert xp.linalg.eigh(a + a.mT)._fields == ("eigenvalues", "eigenvectors")
    assert xp.linalg.slogdet(a)._fields == ("sign", "logabsdet")
    assert np.allclose(np.asarray(q @ r), np.asarray(a))


def test_integer_input_refused_where_floating_is_required():
    i = xp.asarray([[1, 2], [3, 4]])
    for name in ("inv", "det", "svd", "qr", "matrix_power", "vector_norm"):
        args = (i, 2) if name == "matrix_power" else (i,)
        with pytest.raises(TypeError, match="policy 'array_api'"):
            getattr(xp.linalg, name)(*args)
    # torch.linalg.matrix_power accepts integer matrices; torch.linalg.inv does not
    ti = tx.asarray([[1, 2], [3, 4]], dtype=tx.int8)
    assert tx.linalg.matrix_power(ti, 2).dtype is tx.int8
    with pytest.raises(TypeError, match="policy 'torch'"):
        tx.linalg.inv(ti)
    # torch.linalg.vecdot refuses integers, the standard allows them
    with pytest.raises(TypeError, match="vecdot.*torch"):
        tx.vecdot(ti, ti)
    assert xp.vecdot(i, i).dtype is xp.int64


def test_trace_accumulates_like_sum():
    assert xp.linalg.trace(xp.asarray([[1, 2], [3, 4]], dtype=xp.int8)).dtype is xp.int64
    assert xp.linalg.trace(xp.asarray([[1, 2], [3, 4]], dtype=xp.uint8)).dtype is xp.uint64
    assert tx.linalg.trace(tx.asarray([[1, 2], [3, 4]], dtype=tx.uint8)).dtype is tx.int64
    assert int(xp.linalg.trace(xp.asarray([[1, 2], [3, 4]]), offset=1)) == 2
    assert xp.linalg.trace(xp.asarray([[1.0]]), dtype=xp.float32).dtype is xp.float32


def test_matmul_function_and_operator_agree():
    a = xp.asarray([[1, 2], [3, 4]], dtype=xp.int8)
    b = xp.asarray([[1, 0], [0, 1]], dtype=xp.int16)
    assert (a @ b).dtype is xp.matmul(a, b).dtype is xp.int16
    assert np.array_equal(np.asarray(a @ b), np.asarray(xp.matmul(a, b)))
    for ns in (xp, tx):
        s = ns.asarray(2.0)
        m = ns.asarray([[1.0]])
        with pytest.raises(ValueError, match="matmul"):
            ns.matmul(s, m)
        with pytest.raises(ValueError, match="matmul"):
            s @ m
    with pytest.raises(ValueError, match="inner dimensions"):
        xp.matmul(xp.ones((2, 3)), xp.ones((2, 3)))
    with pytest.raises(TypeError, match="policy 'array_api'"):
        xp.matmul(a, xp.ones((2, 2)))
    # torch's matmul does not promote at all (torch 2.13: "expected m1 and m2 to have the same dtype")
    with pytest.raises(TypeError, match="same dtype"):
        tx.matmul(tx.asarray([[1]], dtype=tx.int8), tx.asarray([[1.0]]))


def test_vecdot_conjugates_x1_and_axis_rules():
    out = xp.vecdot(xp.asarray([1j, 2j, 3j]), xp.asarray([1, 2j, 3]))
    assert cmath.isclose(complex(out), 4 - 10j)
    x = xp.ones((2, 3))
    assert xp.vecdot(x, x, axis=-1).shape == (2,)
    with pytest.raises(ValueError, match="negative"):
        xp.vecdot(x, x, axis=1)
    assert namespace("array_api", "2022.12").vecdot(
        namespace("array_api", "2022.12").ones((2, 3)), namespace("array_api", "2022.12").ones((2, 3)), axis=1
    ).shape == (2,)
    with pytest.raises(ValueError, match="different sizes"):
        xp.vecdot(xp.ones((3,)), xp.ones((1,)))


def test_tensordot_cross_outer():
    a = xp.ones((2, 3, 4))
    b = xp.ones((4, 3, 5))
    assert xp.tensordot(a, b, axes=([1, 2], [1, 0])).shape == (2, 5)
    assert xp.tensordot(a, b, axes=0).shape == (2, 3, 4, 4, 3, 5)
    with pytest.raises(ValueError, match="sizes"):
        xp.tensordot(a, b, axes=([1], [0]))
    with pytest.raises(ValueError, match="non-negative"):
        xp.tensordot(a, b, axes=-1)
    c = xp.linalg.cross(xp.asarray([1, 0, 0]), xp.asarray([0, 1, 0]))
    assert np.array_equal(np.asarray(c), [0, 0, 1])
    with pytest.raises(ValueError, match="size 3"):
        xp.linalg.cross(xp.ones((2,)), xp.ones((2,)))
    assert xp.linalg.outer(xp.asarray([1, 2]), xp.asarray([1, 2, 3])).shape == (2, 3)


def test_norms_and_rank():
    v = xp.asarray([3.0, -4.0])
    assert float(xp.linalg.vector_norm(v)) == 5.0
    assert float(xp.linalg.vector_norm(v, ord=1)) == 7.0
    assert float(xp.linalg.vector_norm(v, ord=float("inf"))) == 4.0
    assert float(xp.linalg.vector_norm(v, ord=0)) == 2.0
    with pytest.raises(ValueError, match="ord"):
        xp.linalg.matrix_norm(xp.eye(2), ord=3)
    assert xp.linalg.matrix_rank(xp.eye(3)).dtype is xp.int64
    assert int(xp.linalg.matrix_rank(xp.asarray([[1.0, 2.0], [2.0, 4.0]]))) == 1
    assert int(xp.linalg.matrix_rank(xp.eye(2), rtol=xp.asarray(2.0))) == 0


def test_solve_and_errors():
    a = xp.asarray([[2.0, 0.0], [0.0, 4.0]])
    assert np.allclose(np.asarray(xp.linalg.solve(a, xp.asarray([2.0, 4.0]))), [1.0, 1.0])
    assert xp.linalg.solve(xp.stack([a, a]) if hasattr(xp, "stack") else a, xp.ones((2, 1))).shape[-2:] == (2, 1)
    with pytest.raises(ValueError, match="linalg.inv"):
        xp.linalg.inv(xp.zeros((2, 2)))
    with pytest.raises(ValueError, match="square"):
        xp.linalg.det(xp.ones((2, 3)))
    with pytest.raises(ValueError, match="2 dimensions"):
        xp.linalg.inv(xp.ones((2,)))
    with pytest.raises(ValueError, match="mode"):
        xp.linalg.qr(xp.eye(2), mode="r")


def test_float16_under_torch():
    h = tx.asarray(np.eye(2, dtype=np.float16))
    assert tx.linalg.inv(h).dtype is tx.float16
    assert tx.linalg.vector_norm(h).dtype is tx.float16


# -- fft ---------------------------------------------------------------------------------------
def test_fft_dtypes():
    z = xp.asarray(np.ones(8, dtype=np.complex64))
    assert xp.fft.fft(z).dtype is xp.complex64
    assert xp.fft.ifftn(z).dtype is xp.complex64
    assert xp.fft.irfft(z).dtype is xp.float32 and xp.fft.irfft(z).shape == (14,)
    assert xp.fft.hfft(z, n=8).dtype is xp.float32
    r = xp.asarray(np.ones(8, dtype=np.float32))
    assert xp.fft.rfft(r).dtype is xp.complex64 and xp.fft.rfft(r).shape == (5,)
    assert xp.fft.ihfft(r).dtype is xp.complex64


def test_fft_input_rules():
    with pytest.raises(TypeError, match="fft.*complex.*array_api"):
        xp.fft.fft(xp.asarray([1.0, 2.0]))
    with pytest.raises(TypeError, match="rfft.*array_api"):
        xp.fft.rfft(xp.asarray([1j]))
    # torch.fft reads integers as the default float and real input as complex
    assert tx.fft.fft(tx.asarray([1, 2, 3])).dtype is tx.complex64
    assert tx.fft.fft(tx.asarray([1.0, 2.0], dtype=tx.float64)).dtype is tx.complex128
    assert tx.fft.irfft(tx.asarray([1.0, 2.0])).dtype is tx.float32
    with pytest.raises(TypeError, match="rfft.*torch"):
        tx.fft.rfft(tx.asarray([1j]))


def test_fft_arguments():
    z = xp.asarray(np.ones((4, 6), dtype=np.complex128))
    assert xp.fft.fftn(z, s=(2, 3), axes=(0, 1)).shape == (2, 3)
    assert xp.fft.fftn(z, s=(-1, 3), axes=(0, 1)).shape == (4, 3)
    assert xp.fft.irfftn(z, s=(4, -1), axes=(0, 1)).shape == (4, 10)
    with pytest.raises(ValueError, match="axes"):
        xp.fft.fftn(z, s=(2, 2))
    with pytest.raises(ValueError, match="norm"):
        xp.fft.fft(z, norm="none")
    with pytest.raises(ValueError, match="positive"):
        xp.fft.fft(z, n=0)
    with pytest.raises(IndexError):
        xp.fft.fft(z, axis=2)
    v = np.fft.fft(np.arange(4.0) + 0j, norm="ortho")
    assert np.allclose(np.asarray(xp.fft.fft(xp.asarray(np.arange(4.0) + 0j), norm="ortho")), v)


def test_fftfreq_and_shift():
    f = xp.fft.fftfreq(4, d=0.5)
    assert f.dtype is xp.float64 and np.allclose(np.asarray(f), [0, 0.5, -1, -0.5])
    assert tx.fft.fftfreq(4).dtype is tx.float32  # torch's default float
    assert xp.fft.rfftfreq(5, dtype=xp.float32, device=xp.DEVICE1).device is xp.DEVICE1
    with pytest.raises(TypeError, match="fftfreq.*array_api"):
        xp.fft.fftfreq(4, dtype=xp.int64)
    with pytest.raises(ValueError):
        xp.fft.fftfreq(0)
    s = xp.fft.fftshift(xp.asarray([0.0, 1.0, 2.0, -2.0, -1.0]))
    assert np.array_equal(np.asarray(s), [-2.0, -1.0, 0.0, 1.0, 2.0])
    assert np.array_equal(np.asarray(xp.fft.ifftshift(s)), [0.0, 1.0, 2.0, -2.0, -1.0])
    assert tx.fft.fftshift(tx.asarray([1, 2, 3])).dtype is tx.int64


def test_fft_version_gating():
    assert not hasattr(namespace("array_api", "2021.12"), "fft")
    assert hasattr(namespace("array_api", "2022.12"), "fft")
