"""The stand-in against the real array-api-strict: the same answers for every flag and device.

``tests/standin_probe.py`` asks both modules the same questions (flags, the
five devices with their dtype sets and defaults, creation and operations on
each device, refusals and the words consumers match in them) and the answers
must agree, but for the differences listed here, each with its reason.
"""

from __future__ import annotations

import types

import pytest
from standin_conversions import conversions  # tests/ is on sys.path (rootdir-relative import mode)
from standin_probe import probe
from standin_process import TESTS, through_standin

from array_api_promo import namespace
from array_api_promo._dtypes import STANDARD_DTYPES
from array_api_promo.promotion import available_policies
from array_api_promo.standin import MIRRORED_VERSION, SHAPE, make_module

array_api_strict = pytest.importorskip("array_api_strict")

# A module's names as the shape table lists them: public ones and the dunders it defines itself.
_MODULE_DUNDERS = {
    "__name__", "__doc__", "__file__", "__loader__", "__spec__", "__package__", "__builtins__",
    "__cached__", "__path__", "__annotations__", "__all__",
    "__warningregistry__",  # Python adds it to a module a warning was raised from (earlier tests do)
}  # fmt: skip


def _names(module) -> list[str]:
    return sorted(
        n
        for n in vars(module)
        if not n.startswith("_") or (n.startswith("__") and n.endswith("__") and n not in _MODULE_DUNDERS)
    )


def _through_standin(code: str, policy: str = "array_api"):
    """What ``code`` (Python that prints one JSON document) prints in a process run by the stand-in."""
    return through_standin(code, "--policy", policy, path=(TESTS,))


# array-api-strict 2.6.1 computes fftfreq in float64 on device2 and converts only when the device
# cannot hold float64, though its own default_dtypes(device=device2) says float32: the stand-in
# takes the device's default, as the standard asks of a default dtype.
KNOWN = {
    "[device2] fft.fftfreq(4)": (
        "float64 on array_api_strict.Device('device2') shape (4,)",
        "float32 on array_api_strict.Device('device2') shape (4,)",
    )
}


def test_mirrors_the_installed_release():
    assert array_api_strict.__version__ == MIRRORED_VERSION


def test_same_answers_as_array_api_strict():
    """The probe in a process run by the stand-in, as a consumer's suite meets it: devices print
    as array-api-strict's there (``array_api_strict.Device('CPU_DEVICE')``)."""
    real = probe(array_api_strict)
    ours = _through_standin(
        "import json, array_api_strict, standin_probe; print(json.dumps(standin_probe.probe(array_api_strict)))"
    )
    assert real.keys() == ours.keys()
    differ = {k: (real[k], ours[k]) for k in real if real[k] != ours[k]}
    assert differ == KNOWN
    assert len(real) > 270
    assert real["repr(Device())"] == "array_api_strict.Device('CPU_DEVICE')" == ours["str(Device())"]


def test_devices_print_as_this_package_s_outside_the_standin():
    """In-process namespaces (no stand-in installed) keep this package's names; hashes are array-api-strict's."""
    ns = make_module("array_api", name="array_api_strict_devices")
    cpu = ns.Device()
    assert (repr(cpu), str(cpu)) == ("array_api_promo.Device('cpu')", "cpu")
    assert cpu == ns.Device("CPU_DEVICE") and cpu != ns.Device("device1") and cpu != "cpu"
    assert hash(cpu) == hash(("Device", "CPU_DEVICE")) and hash(ns.Device("no_x64")) == hash(("Device", "no_x64"))
    assert type(ns.asarray(1)).__module__ == "array_api_promo._array"


def test_shape_table_is_array_api_strict_s():
    """The committed table (tools/gen_standin_shape.py) lists the installed release's modules and names."""
    import importlib
    import pkgutil

    real = {
        info.name: _names(importlib.import_module(f"array_api_strict.{info.name}"))
        for info in pkgutil.iter_modules(array_api_strict.__path__)
        if not info.ispkg
    }
    assert {short: sorted(names) for short, names in SHAPE.items()} == real


# Every module path of array-api-strict, imported in the ways consumers do, and the arrays' type.
_SHAPE_CODE = """
import importlib, importlib.util, json
import array_api_strict as xp
from array_api_strict._array_object import Array
from array_api_strict._flags import set_array_api_strict_flags
from array_api_strict._info import __array_namespace_info__
import array_api_strict._elementwise_functions
x = xp.asarray([1.0, 2.0])
modules = {}
for short in SHAPE:
    module = importlib.import_module("array_api_strict." + short)
    assert importlib.util.find_spec("array_api_strict." + short) is not None
    modules[short] = sorted(n for n in vars(module) if not n.startswith("_") or (n.startswith("__") and n.endswith("__") and n not in DUNDERS))
holders = [s for s in SHAPE if "Array" in SHAPE[s]]
try:
    importlib.import_module("array_api_strict.nope")
    missing = "imported"
except ModuleNotFoundError as exc:
    missing = str(exc)
print(json.dumps({
    "modules": modules,
    "type": [type(x).__module__, type(x).__qualname__, type(x.dtype).__module__, type(x.device).__module__],
    "isinstance": [isinstance(x, xp.Array), isinstance(x, Array)] + [isinstance(x, getattr(importlib.import_module("array_api_strict." + s), "Array")) for s in holders],
    "elementwise": array_api_strict._elementwise_functions.add is xp.add,
    "flags": [set_array_api_strict_flags is xp.set_array_api_strict_flags, __array_namespace_info__ is xp.__array_namespace_info__],
    "missing": missing,
    "main namespace": type(__import__("array_api_promo").asarray(1)) is Array,
}))
"""


@pytest.mark.parametrize("policy", available_policies())
def test_package_shape_through_the_standin(policy):
    code = f"SHAPE = {dict((s, list(n)) for s, n in SHAPE.items())!r}\nDUNDERS = {sorted(_MODULE_DUNDERS)!r}\n"
    seen = _through_standin(code + _SHAPE_CODE, policy)
    # A policy without a dtype (jax: no float64 without x64) has no such name anywhere: its library has none.
    lacks = {d.name for d in STANDARD_DTYPES if not hasattr(namespace(policy), d.name)}
    assert seen["modules"] == {
        short: sorted(n for n, where in names.items() if not (where == ("ns",) and n in lacks))
        for short, names in SHAPE.items()
    }
    real_x = array_api_strict.asarray([1.0, 2.0])
    assert seen["type"] == [
        type(real_x).__module__,
        type(real_x).__qualname__,
        type(real_x.dtype).__module__,
        type(real_x.device).__module__,
    ]
    assert seen["type"][0] == "array_api_strict._array_object"
    assert seen["isinstance"] == [True] * (2 + sum("Array" in names for names in SHAPE.values()))
    assert seen["elementwise"] and seen["flags"] == [True, True]
    assert seen["missing"] == "No module named 'array_api_strict.nope'"
    assert seen["main namespace"]  # one class: the process's array_api_promo arrays are the same type


def test_submodules_follow_the_flags():
    """Names imported from a module are the bound version's, as the package's are."""
    ns = make_module("array_api", name="array_api_strict_submodules")
    flags, elementwise = ns._flags, ns._elementwise_functions
    assert isinstance(flags, types.ModuleType) and flags.__name__ == "array_api_strict_submodules._flags"
    assert elementwise.add is ns.add and flags.API_VERSION == "2025.12"
    with ns.ArrayAPIStrictFlags(api_version="2023.12", enabled_extensions=("fft",)):
        assert flags.API_VERSION == "2023.12" and flags.ENABLED_EXTENSIONS == ("fft",)
        assert elementwise.add is ns.add
        assert ns._linalg.cholesky is not None  # present while linalg is disabled, as in array-api-strict
    assert flags.API_VERSION == "2025.12"
    ns.set_array_api_strict_flags(boolean_indexing=False)  # (no rebinding: the flag is read at each call)
    assert flags.BOOLEAN_INDEXING is False
    ns.reset_array_api_strict_flags()
    assert flags.BOOLEAN_INDEXING is True and flags.ENABLED_EXTENSIONS == ("linalg", "fft")
    assert ns._creation_functions.Undef.UNDEF.value == 0
    assert ns._devices.get_default_dtypes(ns.Device("no_x64"))["integral"] == ns.int32
    assert ns._devices.device_supports_dtype(ns.Device("no_float64"), ns.float64) is False


# Conversions where array-api-strict 2.6.1 and the stand-in under array_api still differ, by rule
# (docs/guide/standin.md): a predicate on the probe's key, and how many keys it covers.
CONVERSION_DIFFERENCES = {
    # x[...] = np.float32(...): array-api-strict refuses every NumPy scalar but np.float64 and
    # np.complex128 (it reads their .device, "cpu", as another device: ValueError); ours take them by
    # the policy's in-place rule (same kind and dtype: stored; else a TypeError)
    "setitem of a NumPy scalar": (lambda k: "x[0] = np." in k, 24),
    # float x[0] = 2**64: NumPy makes an object array of the int (TypeError); ours stores the float
    "setitem of an int beyond int64 into floats": (lambda k: k.endswith("x[0] = 2**64"), 3),
    # asarray([np.complex128(1+1j), 1], dtype=real): NumPy drops the imaginary part of a NumPy
    # complex in a list (a ComplexWarning), not of a Python complex; ours refuses both alike
    "a NumPy complex in a list into a real dtype": (lambda k: k.startswith("asarray([np.complex128"), 6),
    # asarray([2**63]) is uint64, asarray([-1, 2**63]) float64: NumPy's inference beyond int64;
    # ours: an OverflowError, as for asarray(2**63)
    "Python ints beyond int64 in a list": (lambda k: "2**63]" in k and "dtype" not in k, 2),
    # asarray([np.float32(1), 2]) is float64, [np.int8(1), 2] int64 (NumPy drops a NumPy scalar's
    # precision in a list); ours refuses NumPy scalars other than float64/complex128 in a list
    "NumPy scalars in a list": (lambda k: k in ("asarray([np.float32(1), 2])", "asarray([np.int8(1), 2])"), 2),
}


def test_conversions_as_array_api_strict():
    """Where the standard leaves a conversion to the library, the stand-in under array_api gives
    array-api-strict's answer (asarray([2.1, 4], dtype=int64) is [2, 4]), but for the rules above."""
    real = conversions(array_api_strict)
    ours = _through_standin(
        "import json, array_api_strict, standin_conversions as c; print(json.dumps(c.conversions(array_api_strict)))"
    )
    assert real.keys() == ours.keys() and len(real) > 600
    assert real["asarray([2.1, 1], dtype=int64)"] == ours["asarray([2.1, 1], dtype=int64)"] == "int64 [2, 1]"
    differ = [k for k in real if real[k] != ours[k]]
    for rule, (covers, count) in CONVERSION_DIFFERENCES.items():
        assert sum(map(covers, differ)) == count, rule
    assert [k for k in differ if not any(covers(k) for covers, _ in CONVERSION_DIFFERENCES.values())] == []


def test_main_namespace_keeps_its_conversions():
    """Outside the stand-in, array_api refuses a conversion that loses data; numpy converts as NumPy."""
    xp = namespace("array_api")
    with pytest.raises(ValueError, match=r"asarray: the Python float 2\.1 is not a whole number.*'array_api'"):
        xp.asarray([2.1, 4], dtype=xp.int64)
    with pytest.raises(OverflowError, match="'array_api'"):
        xp.full(2, 300.0, dtype=xp.int8)
    np_ns = namespace("numpy")
    assert np_ns.asarray([2.1, -2.7], dtype=np_ns.int64).__array__().tolist() == [2, -2]
    assert np_ns.full(2, 300.0, dtype=np_ns.int8).__array__().tolist() == [44, 44]  # np.full's unchecked cast
    with pytest.raises(OverflowError, match=r"asarray: -2\.7 cannot make a uint8 array \(policy 'numpy'\)"):
        np_ns.asarray(-2.7, dtype=np_ns.uint8)
    # the stand-in under array_api, in process: array-api-strict's conversions
    ns = make_module("array_api", name="array_api_strict_conversions_check")
    assert ns.asarray([2.1, 4], dtype=ns.int64).__array__().tolist() == [2, 4]
    with pytest.warns(RuntimeWarning, match="discards the imaginary part"):  # NumPy's ComplexWarning, as there
        assert ns.full(2, 1.5 + 2j, dtype=ns.float64).__array__().tolist() == [1.5, 1.5]
    # a user's policy built on array_api keeps its own rules in the stand-in
    from array_api_promo.promotion import ArrayAPIPolicy

    class Mine(ArrayAPIPolicy):
        name = "mine"

    mine = Mine()
    assert make_module(mine, name="array_api_strict_mine")._standin.policy is mine
    # np.float64 is a Python float, as fill value too, in every namespace
    assert xp.full(2, __import__("numpy").float64(2.5), dtype=xp.float32).dtype == xp.float32


@pytest.mark.parametrize("policy", ["torch", "numpy", "jax", "jax_x64", "jax_explicit_x64", "numpy_legacy"])
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
