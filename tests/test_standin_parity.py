"""The stand-in against the real array-api-strict: the same answers for every flag and device.

``tests/standin_probe.py`` asks both modules the same questions (flags, the
five devices with their dtype sets and defaults, creation and operations on
each device, refusals and the words consumers match in them) and the answers
must agree, but for the differences listed here, each with its reason.
"""

from __future__ import annotations

import pytest
from standin_probe import probe  # tests/ is on sys.path (rootdir-relative import mode)

from array_api_promo import namespace
from array_api_promo.standin import MIRRORED_VERSION, make_module

array_api_strict = pytest.importorskip("array_api_strict")

# array-api-strict 2.6.1 computes fftfreq in float64 on device2 and converts only when the device
# cannot hold float64, though its own default_dtypes(device=device2) says float32: the stand-in
# takes the device's default, as the standard asks of a default dtype.
KNOWN = {"[device2] fft.fftfreq(4)": ("float64 on device2 shape (4,)", "float32 on device2 shape (4,)")}


def test_mirrors_the_installed_release():
    assert array_api_strict.__version__ == MIRRORED_VERSION


def test_same_answers_as_array_api_strict():
    real = probe(array_api_strict)
    ours = probe(make_module("array_api", name="array_api_strict_parity"))
    assert real.keys() == ours.keys()
    differ = {k: (real[k], ours[k]) for k in real if real[k] != ours[k]}
    assert differ == KNOWN
    assert len(real) > 250


@pytest.mark.parametrize("policy", ["torch", "numpy", "jax", "jax_x64", "numpy_legacy"])
def test_device_limits_compose_with_any_policy(policy):
    """A device's dtype set and defaults under another policy: the policy decides, the device refuses."""
    xp = namespace(policy)
    info = xp.__array_namespace_info__()
    no_float64, no_x64 = xp.Device("no_float64"), xp.Device("no_x64")
    assert "float64" not in info.dtypes(device=no_float64) and "int64" not in info.dtypes(device=no_x64)
    assert info.default_dtypes(device=no_x64)["integral"] == xp.int32
    assert xp.asarray([1.5], device=no_float64).dtype == xp.float32
    # int32 / int32: what the policy gives on the CPU, or, where that is float64, a refusal
    on_cpu = (xp.ones(3, dtype=xp.int32) / xp.ones(3, dtype=xp.int32)).dtype
    i32 = xp.ones(3, dtype=xp.int32, device=no_float64)
    if on_cpu.name == "float64":
        with pytest.raises(
            ValueError, match=rf"__truediv__: Device\('no_float64'\) does not support dtype=float64.*'{policy}'"
        ):
            i32 / i32
    else:
        assert (i32 / i32).dtype == on_cpu and (i32 / i32).device is no_float64
    if "int64" in info.dtypes():
        with pytest.raises(ValueError, match=r"astype: Device\('no_x64'\) does not support dtype=int64"):
            xp.astype(xp.ones(2, dtype=xp.int32, device=no_x64), xp.int64)


def test_device_refusal_names_the_operation_and_policy():
    xp = namespace("array_api")
    x = xp.ones(3, dtype=xp.int32, device=xp.Device("no_x64"))
    with pytest.raises(
        ValueError,
        match=r"^sum: Device\('no_x64'\) does not support dtype=int64, the result's dtype "
        r"under policy 'array_api'",
    ):
        xp.sum(x)
    assert xp.sum(x, dtype=xp.int32).dtype == xp.int32  # a dtype the device holds


def test_boolean_indexing_flag_in_every_path():
    """The flag reaches the compiled mask path, the Python one and setitem."""
    ns = make_module("array_api", name="array_api_strict_flags")
    x = ns.asarray([1, 2, 3])
    mask = ns.asarray([True, False, True])
    assert x[mask].shape == (2,)  # the mask fast path, met once
    with ns.ArrayAPIStrictFlags(boolean_indexing=False):
        assert ns.__array_namespace_info__().capabilities()["boolean indexing"] is False
        for attempt in (lambda: x[mask], lambda: x.__setitem__(mask, 0), lambda: x[(mask,)]):
            with pytest.raises(RuntimeError, match="boolean indexing is disabled"):
                attempt()
    assert x[mask].shape == (2,)
    # Other namespaces are untouched by the stand-in's flags.
    xp = namespace("array_api")
    with ns.ArrayAPIStrictFlags(boolean_indexing=False):
        assert xp.asarray([1, 2])[xp.asarray([True, False])].shape == (1,)


def test_numpy_warnings_name_array_api_strict():
    """NumPy's floating-point warnings from the stand-in's elementwise kernels come from a
    module named array_api_strict..., so consumers' filters by module hold (array-api-extra's
    ``ignore:invalid value encountered:RuntimeWarning:array_api_strict``)."""
    import warnings

    ns = make_module("array_api", name="array_api_strict_warnings")
    x = ns.asarray([float("inf")])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", "invalid value encountered", RuntimeWarning, "array_api_strict")
        for compute in (lambda: x - x, lambda: ns.subtract(x, x), lambda: ns.abs(x - x)):
            assert bool(ns.isnan(compute())[0])
    # other namespaces keep NumPy's attribution to the caller
    xp = namespace("array_api")
    y = xp.asarray([float("inf")])
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        y - y
    assert seen and seen[0].category is RuntimeWarning
