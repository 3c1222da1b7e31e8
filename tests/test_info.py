"""__array_namespace_info__ under each policy and version."""

import pytest

import array_api_promo as xp
import array_api_promo.torch as tx
from array_api_promo import CPU, DEVICE1, DEVICE2, NO_FLOAT64, NO_X64, namespace


def test_capabilities():
    caps = xp.__array_namespace_info__().capabilities()
    assert caps == {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}
    old = namespace("array_api", "2023.12").__array_namespace_info__().capabilities()
    assert "max dimensions" not in old


def test_devices_by_version():
    # the devices that hold every dtype; no_float64 and no_x64 exist by name (the stand-in lists
    # all five, as array-api-strict does: tests/test_standin_parity.py)
    listed = (CPU, DEVICE1, DEVICE2)
    assert xp.__array_namespace_info__().devices() == listed
    assert namespace("array_api", "2024.12").__array_namespace_info__().devices() == list(listed)
    assert xp.Device("no_float64") is NO_FLOAT64 and xp.Device("no_x64") is NO_X64
    assert xp.__array_namespace_info__().default_device() is CPU
    assert not hasattr(namespace("array_api", "2022.12"), "__array_namespace_info__")


def test_default_dtypes_follow_policy():
    assert xp.__array_namespace_info__().default_dtypes() == {
        "real floating": xp.float64,
        "complex floating": xp.complex128,
        "integral": xp.int64,
        "indexing": xp.int64,
    }
    d = tx.__array_namespace_info__().default_dtypes(device=DEVICE1)
    assert d["real floating"] is tx.float32 and d["complex floating"] is tx.complex64
    with pytest.raises(ValueError, match="device"):
        xp.__array_namespace_info__().default_dtypes(device="gpu")


def test_dtypes():
    info = xp.__array_namespace_info__()
    assert list(info.dtypes(kind="real floating")) == ["float32", "float64"]
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {"bool", "complex64", "complex128"}
    assert len(info.dtypes(kind="numeric")) == 12
    # float16/bfloat16 exist under torch but are not the standard's dtypes
    assert "float16" not in tx.__array_namespace_info__().dtypes()
    assert "bfloat16" not in tx.__array_namespace_info__().dtypes(kind="real floating")
    with pytest.raises(ValueError, match="unknown kind"):
        info.dtypes(kind="floating")
    with pytest.raises(TypeError):
        info.dtypes(kind=["bool"])


def test_devices_accepted_as_values_and_names():
    info = xp.__array_namespace_info__()
    for device in (
        None,
        CPU,
        DEVICE1,
        xp.Device("cpu"),
        xp.Device("CPU_DEVICE"),
        xp.asarray(1).device,
        "cpu",
        "CPU_DEVICE",
        "device1",
    ):
        assert list(info.dtypes(device=device, kind="real floating")) == ["float32", "float64"]
        assert info.default_dtypes(device=device)["integral"] is xp.int64
    with pytest.raises(ValueError, match="dtypes: unknown device 'gpu'"):
        info.dtypes(device="gpu")
    assert list(info.dtypes(device="no_float64", kind="real floating")) == ["float32"]
    assert info.default_dtypes(device=DEVICE2)["real floating"] is xp.float32
    assert info.default_dtypes(device=NO_X64) == {
        "real floating": xp.float32,
        "complex floating": xp.complex64,
        "integral": xp.int32,
        "indexing": xp.int32,
    }
    with pytest.raises(ValueError, match="dtypes: unknown device"):
        info.dtypes(device=3)
