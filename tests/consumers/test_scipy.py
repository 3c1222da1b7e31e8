"""SciPy (SCIPY_ARRAY_API=1, set by conftest.py) on array_api_promo arrays.

Each case says what SciPy does with a non-NumPy namespace, checked on CPU
and on the package's second logical device ``device1`` (host memory with
its own identity: it stands for a GPU):

- ``native``: written against the array API; our array in, our array out,
  on the input's device.
- ``cpu_only``: compiled code; SciPy converts with ``np.asarray`` and wraps
  the result back in our namespace. Works on CPU; on device1 our
  ``__array__`` refuses, as a CUDA array would.
- ``cpu_only_device_bug``: ``native`` on CPU, but SciPy creates a helper
  array without ``device=`` (a CPU array), so device1 fails with our
  mixed-device error. A SciPy bug (array-api-strict's devices refuse too);
  torch tolerates 0-d CPU tensors next to CUDA ones, which hides it there.
- ``numpy_out``: not array-API aware: converts to NumPy and returns NumPy.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("scipy")

import scipy.cluster.hierarchy as hierarchy  # noqa: E402
import scipy.cluster.vq as vq  # noqa: E402
import scipy.fft as sfft  # noqa: E402
import scipy.integrate as integrate  # noqa: E402
import scipy.linalg as slinalg  # noqa: E402
import scipy.ndimage as ndimage  # noqa: E402
import scipy.signal as signal  # noqa: E402
import scipy.spatial.distance as distance  # noqa: E402
import scipy.special as special  # noqa: E402
import scipy.stats as stats  # noqa: E402
from _consumer_check import CPU_ONLY_ERROR, DEVICES, MIXED_DEVICE_ERROR, NAMESPACES, assert_ours  # noqa: E402

import array_api_promo as xp  # noqa: E402
import array_api_promo.torch as tx  # noqa: E402

_rng = np.random.default_rng(0)
M = _rng.standard_normal((20, 4))
A = _rng.standard_normal(30)
B = _rng.standard_normal(30) + 0.5
POS = np.abs(A) + 0.1
UNIT = POS / (POS.max() + 1)
K = B[:5].copy()

NATIVE, CPU_ONLY, DEVICE_BUG, NUMPY_OUT = "native", "cpu_only", "cpu_only_device_bug", "numpy_out"

# name -> (kind, workload(ns, arrays...), inputs). ``ns`` is numpy for the reference run.
CASES = {
    # special
    "special.erf": (CPU_ONLY, lambda ns, a: special.erf(a), (A,)),
    "special.erfc": (CPU_ONLY, lambda ns, a: special.erfc(a), (A,)),
    "special.gammaln": (CPU_ONLY, lambda ns, a: special.gammaln(a), (POS,)),
    "special.expit": (CPU_ONLY, lambda ns, a: special.expit(a), (A,)),
    "special.logit": (CPU_ONLY, lambda ns, a: special.logit(a), (UNIT,)),
    "special.ndtr": (CPU_ONLY, lambda ns, a: special.ndtr(a), (A,)),
    "special.ndtri": (CPU_ONLY, lambda ns, a: special.ndtri(a), (UNIT,)),
    "special.i0": (CPU_ONLY, lambda ns, a: special.i0(a), (A,)),
    "special.entr": (CPU_ONLY, lambda ns, a: special.entr(a), (POS,)),
    "special.gammainc": (CPU_ONLY, lambda ns, a, b: special.gammainc(a, b), (POS, POS[::-1])),
    "special.betainc": (CPU_ONLY, lambda ns, a, b: special.betainc(a, a, b), (POS, UNIT)),
    "special.xlogy": (NATIVE, lambda ns, a, b: special.xlogy(a, b), (POS, POS[::-1])),
    "special.rel_entr": (NATIVE, lambda ns, a, b: special.rel_entr(a, b), (POS, POS[::-1])),
    "special.logsumexp(axis=1)": (NATIVE, lambda ns, m: special.logsumexp(m, axis=1), (M,)),
    "special.logsumexp(b=)": (NATIVE, lambda ns, a, b: special.logsumexp(a, b=b), (A, POS)),
    "special.softmax": (NATIVE, lambda ns, m: special.softmax(m, axis=1), (M,)),
    "special.log_softmax": (NATIVE, lambda ns, m: special.log_softmax(m, axis=0), (M,)),
    # stats
    "stats.zscore": (NATIVE, lambda ns, m: stats.zscore(m, axis=0), (M,)),
    "stats.moment(3)": (NATIVE, lambda ns, m: stats.moment(m, order=3, axis=0), (M,)),
    "stats.skew": (NATIVE, lambda ns, m: stats.skew(m, axis=0), (M,)),
    "stats.kurtosis": (NATIVE, lambda ns, m: stats.kurtosis(m, axis=0), (M,)),
    "stats.variation": (NATIVE, lambda ns, a: stats.variation(a), (POS,)),
    "stats.sem": (NATIVE, lambda ns, m: stats.sem(m, axis=0), (M,)),
    "stats.gmean": (NATIVE, lambda ns, a: stats.gmean(a), (POS,)),
    "stats.hmean": (NATIVE, lambda ns, a: stats.hmean(a), (POS,)),
    "stats.pmean": (NATIVE, lambda ns, a: stats.pmean(a, 2.5), (POS,)),
    "stats.describe(mean,var,skew,kurt)": (NATIVE, lambda ns, a: tuple(stats.describe(a))[2:], (A,)),
    "stats.tmean": (NATIVE, lambda ns, a: stats.tmean(a, (-1, 1)), (A,)),
    "stats.trim_mean": (NATIVE, lambda ns, a: stats.trim_mean(a, 0.1), (A,)),
    "stats.kstat": (NATIVE, lambda ns, a: stats.kstat(a, 2), (A,)),
    "stats.quantile": (NATIVE, lambda ns, a, p: stats.quantile(a, p), (A, np.array([0.1, 0.5, 0.9]))),
    "stats.ttest_ind": (DEVICE_BUG, lambda ns, a, b: tuple(stats.ttest_ind(a, b)), (A, B)),
    "stats.ttest_1samp": (DEVICE_BUG, lambda ns, a: tuple(stats.ttest_1samp(a, 0.2)), (A,)),
    "stats.ttest_rel": (DEVICE_BUG, lambda ns, a, b: tuple(stats.ttest_rel(a, b)), (A, B)),
    "stats.chisquare": (DEVICE_BUG, lambda ns, a, e: tuple(stats.chisquare(a, e)), (POS, np.full(30, POS.mean()))),
    "stats.rankdata": (DEVICE_BUG, lambda ns, a: stats.rankdata(a), (A,)),
    "stats.pearsonr": (CPU_ONLY, lambda ns, a, b: tuple(stats.pearsonr(a, b))[:2], (A, B)),
    "stats.entropy": (CPU_ONLY, lambda ns, a: stats.entropy(a), (POS,)),
    "stats.skewtest": (CPU_ONLY, lambda ns, a: tuple(stats.skewtest(a)), (A,)),
    "stats.normaltest": (CPU_ONLY, lambda ns, a: tuple(stats.normaltest(a)), (A,)),
    "stats.jarque_bera": (CPU_ONLY, lambda ns, a: tuple(stats.jarque_bera(a)), (A,)),
    "stats.Normal().cdf": (NUMPY_OUT, lambda ns, a: stats.Normal().cdf(a), (A,)),
    # fft
    "fft.fft": (NATIVE, lambda ns, a: sfft.fft(a), (A,)),
    "fft.ifft(fft)": (NATIVE, lambda ns, a: sfft.ifft(sfft.fft(a)), (A,)),
    "fft.rfft": (NATIVE, lambda ns, a: sfft.rfft(a), (A,)),
    "fft.irfft(rfft)": (NATIVE, lambda ns, a: sfft.irfft(sfft.rfft(a)), (A,)),
    "fft.fft2": (NATIVE, lambda ns, m: sfft.fft2(m), (M,)),
    "fft.rfftn": (NATIVE, lambda ns, m: sfft.rfftn(m), (M,)),
    "fft.fftshift": (NATIVE, lambda ns, a: sfft.fftshift(a), (A,)),
    "fft.dct": (CPU_ONLY, lambda ns, a: sfft.dct(a), (A,)),
    # signal
    "signal.fftconvolve": (NATIVE, lambda ns, a, k: signal.fftconvolve(a, k), (A, K)),
    "signal.oaconvolve": (NATIVE, lambda ns, a, k: signal.oaconvolve(a, k), (A, K)),
    "signal.hilbert": (NATIVE, lambda ns, a: signal.hilbert(a), (A,)),
    "signal.convolve": (CPU_ONLY, lambda ns, a, k: signal.convolve(a, k), (A, K)),
    "signal.correlate(same)": (CPU_ONLY, lambda ns, a, k: signal.correlate(a, k, mode="same"), (A, K)),
    "signal.convolve2d": (CPU_ONLY, lambda ns, m, k: signal.convolve2d(m, k), (M, M[:2, :2].copy())),
    "signal.lfilter": (
        CPU_ONLY,
        lambda ns, b, a, x: signal.lfilter(b, a, x),
        (np.array([1.0, 0.5]), np.array([1.0, -0.2]), A),
    ),
    "signal.detrend": (CPU_ONLY, lambda ns, a: signal.detrend(a), (A,)),
    "signal.medfilt": (CPU_ONLY, lambda ns, a: signal.medfilt(a), (A,)),
    "signal.welch": (NUMPY_OUT, lambda ns, a: tuple(signal.welch(a, nperseg=8)), (A,)),
    # cluster
    "cluster.vq.whiten": (NATIVE, lambda ns, m: vq.whiten(m), (M,)),
    "cluster.vq.vq": (CPU_ONLY, lambda ns, m, c: vq.vq(m, c)[0], (M, M[:3].copy())),
    "cluster.vq.kmeans2": (CPU_ONLY, lambda ns, m, c: vq.kmeans2(m, c, minit="matrix", iter=5)[1], (M, M[:3].copy())),
    "cluster.hierarchy.linkage(ward)": (CPU_ONLY, lambda ns, m: hierarchy.linkage(m, "ward"), (M,)),
    "cluster.hierarchy.fcluster": (
        CPU_ONLY,
        lambda ns, m: hierarchy.fcluster(hierarchy.linkage(m, "single"), 3, "maxclust"),
        (M,),
    ),
    # spatial
    "spatial.distance.pdist": (CPU_ONLY, lambda ns, m: distance.pdist(m), (M,)),
    "spatial.distance.cdist": (NUMPY_OUT, lambda ns, m: distance.cdist(m, m), (M,)),
    # ndimage
    "ndimage.gaussian_filter": (CPU_ONLY, lambda ns, m: ndimage.gaussian_filter(m, 1.0), (M,)),
    "ndimage.uniform_filter": (CPU_ONLY, lambda ns, m: ndimage.uniform_filter(m, 3), (M,)),
    "ndimage.median_filter": (CPU_ONLY, lambda ns, m: ndimage.median_filter(m, 3), (M,)),
    "ndimage.zoom": (CPU_ONLY, lambda ns, m: ndimage.zoom(m, 2), (M,)),
    "ndimage.sobel": (CPU_ONLY, lambda ns, m: ndimage.sobel(m), (M,)),
    "ndimage.label": (CPU_ONLY, lambda ns, m: ndimage.label(m)[0], ((M > 0).astype(np.int64),)),
    # integrate
    "integrate.trapezoid": (NATIVE, lambda ns, a: integrate.trapezoid(a), (A,)),
    "integrate.cumulative_trapezoid": (NATIVE, lambda ns, a: integrate.cumulative_trapezoid(a), (A,)),
    "integrate.simpson": (NUMPY_OUT, lambda ns, a: integrate.simpson(a), (A,)),
    # linalg: NumPy/LAPACK only
    "linalg.expm": (NUMPY_OUT, lambda ns, m: slinalg.expm(m), (0.1 * M[:4],)),
    "linalg.solve": (NUMPY_OUT, lambda ns, m, b: slinalg.solve(m, b), (M[:4] + 4 * np.eye(4), A[:4])),
}


# Results that SciPy builds in the namespace's default real floating dtype: float32 under
# the torch policy (torch.get_default_dtype()), float64 under array_api and NumPy.
TX_DEFAULT_FLOAT32 = {"stats.rankdata"}


def _reference(f, inputs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(np, *inputs)


def _tuple(x):
    return x if isinstance(x, tuple) else (x,)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("ns", NAMESPACES)
@pytest.mark.parametrize("name", list(CASES))
def test_scipy(name, ns, device):
    kind, f, inputs = CASES[name]
    expected = _reference(f, inputs)
    args = [ns.asarray(a, device=device, copy=True) for a in inputs]
    if device is xp.DEVICE1 and kind in (CPU_ONLY, NUMPY_OUT):
        with pytest.raises(CPU_ONLY_ERROR[0], match=CPU_ONLY_ERROR[1]):
            f(ns, *args)
        return
    if device is xp.DEVICE1 and kind == DEVICE_BUG:
        with pytest.raises(MIXED_DEVICE_ERROR[0], match=MIXED_DEVICE_ERROR[1]):
            f(ns, *args)
        return
    out = f(ns, *args)
    outs, refs = _tuple(out), _tuple(expected)
    assert len(outs) == len(refs)
    for o, r in zip(outs, refs):
        if ns is tx and name in TX_DEFAULT_FLOAT32:
            # Built from Python scalars without dtype=: torch's default float32, as in torch.
            r = np.asarray(r, dtype=np.float32)
            assert_ours(o, ns, device, r, rtol=1e-6, atol=1e-6)
        elif kind == NUMPY_OUT:
            assert isinstance(o, (np.ndarray, np.generic)), type(o)
            np.testing.assert_allclose(o, r, rtol=1e-10, atol=1e-12)
        else:
            assert_ours(o, ns, device, r, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("ns", NAMESPACES)
def test_creation_with_xp_argument(ns):
    """Functions without array input take the namespace (and device) explicitly.

    They create floats in the namespace's default real floating dtype (float32 for tx).
    """
    dt = ns.__array_namespace_info__().default_dtypes()["real floating"]
    exp = np.float64 if dt == ns.float64 else np.float32
    tol = dict(rtol=1e-6, atol=1e-7)
    assert_ours(sfft.fftfreq(8, xp=ns), ns, xp.CPU, sfft.fftfreq(8).astype(exp), **tol)
    assert_ours(sfft.rfftfreq(9, d=0.5, xp=ns), ns, xp.CPU, sfft.rfftfreq(9, d=0.5).astype(exp), **tol)
    assert_ours(sfft.fftfreq(8, xp=ns, device=xp.DEVICE1), ns, xp.DEVICE1, sfft.fftfreq(8).astype(exp), **tol)
    # get_window asks for float64 explicitly.
    assert_ours(signal.get_window("hann", 8, xp=ns), ns, xp.CPU, signal.get_window("hann", 8))
