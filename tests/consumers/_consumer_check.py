"""Shared checks of the consumer tests: our array type, our namespace, the device, NumPy's numbers."""

from __future__ import annotations

import numpy as np
import pytest

import array_api_promo as xp
import array_api_promo.torch as tx

ARRAY_TYPE = type(xp.asarray(1))
NAMESPACES = [pytest.param(xp, id="xp"), pytest.param(tx, id="tx")]
DEVICES = [pytest.param(xp.CPU, id="cpu"), pytest.param(xp.DEVICE1, id="device1")]

# The error our arrays raise when a consumer converts one that is not on the CPU
# through NumPy (``np.asarray`` -> ``Array.__array__``): what a CPU-only SciPy/
# scikit-learn code path meets with a GPU array of another library.
CPU_ONLY_ERROR = (RuntimeError, r"__array__: the array is on device1")
# The error of an operation mixing arrays of two devices: what a consumer meets
# when it creates a helper array without ``device=`` (it lands on the CPU).
MIXED_DEVICE_ERROR = (ValueError, r"arrays are on different devices")


def to_numpy(a):
    """NumPy copy of an array of ours, from any device."""
    return np.asarray(a.to_device(xp.CPU))


def assert_ours(out, ns, device, expected, *, rtol=1e-7, atol=1e-10, check_dtype=True):
    """``out`` is an array of namespace ``ns`` on ``device`` equal to NumPy's ``expected``."""
    assert type(out) is ARRAY_TYPE, f"expected an array_api_promo array, got {type(out)!r}"
    assert out.__array_namespace__() is ns, (out.__array_namespace__(), ns)
    assert out.device is device, (out.device, device)
    got = to_numpy(out)
    expected = np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if check_dtype:
        assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol)


def assert_scalar(out, expected, *, rtol=1e-7, atol=1e-10):
    """A metric that returns a Python float (sklearn converts 0-d results with float())."""
    assert isinstance(out, float), type(out)
    np.testing.assert_allclose(out, expected, rtol=rtol, atol=atol)
