"""The namespace under each policy: values, errors, in-place safety, identity, pickling."""

import os
import pickle

import numpy as np
import pytest

import array_api_promo as xp
import array_api_promo.torch as tx
from array_api_promo import namespace, promotion


# -- namespaces and identity ---------------------------------------------------------------
def test_default_namespace_is_the_package():
    x = xp.asarray([1.0, 2.0])
    assert x.__array_namespace__() is xp
    assert xp.__array_api_version__ == "2025.12"
    assert namespace() is xp
    assert namespace("torch") is tx
    assert tx.asarray([1]).__array_namespace__() is tx


def test_array_namespace_takes_api_version_without_side_effects():
    x = xp.asarray([1, 2])
    before = dict(vars(xp))
    ns = x.__array_namespace__(api_version="2023.12")
    assert ns.__array_api_version__ == "2023.12"
    assert ns is namespace("array_api", "2023.12")
    assert x.__array_namespace__() is xp  # unchanged
    assert dict(vars(xp)).keys() == before.keys()
    assert xp.__array_api_version__ == "2025.12"
    # Arrays of two versions of one policy combine; the result belongs to the callee.
    y = ns.asarray([3, 4])
    assert ns.add(x, y).__array_namespace__() is ns


def test_version_gating():
    old = namespace("array_api", "2021.12")
    assert not hasattr(old, "conj") and not hasattr(old, "complex64")
    assert not hasattr(old, "clip") and not hasattr(old, "isin")
    assert hasattr(namespace("array_api", "2022.12"), "conj")
    assert not hasattr(namespace("array_api", "2024.12"), "isin")
    assert hasattr(xp, "clip") and hasattr(xp, "nextafter")


def test_bad_namespace_arguments():
    with pytest.raises(ValueError, match="unknown promotion policy 'nope'"):
        namespace("nope")
    with pytest.raises(ValueError, match="unsupported api_version '2020.01'"):
        namespace("array_api", "2020.01")
    with pytest.raises(TypeError, match="a promotion policy is a Policy"):
        namespace(42)


def test_mixing_namespaces_is_a_type_error():
    a = xp.asarray([1, 2], dtype=xp.int8)
    b = tx.asarray([1, 2], dtype=tx.int8)
    with pytest.raises(TypeError, match="cannot mix arrays of array_api_promo \\(policy 'torch'"):
        a + b
    with pytest.raises(TypeError, match="cannot mix"):
        xp.add(a, b)


def test_device_of_a_name_is_the_one_device():
    import copy

    assert xp.Device("cpu") is xp.CPU and xp.Device() is xp.CPU and xp.Device("CPU_DEVICE") is xp.CPU
    assert xp.Device("device1") is xp.DEVICE1 is tx.Device("device1")
    assert copy.deepcopy(xp.DEVICE1) is xp.DEVICE1 and pickle.loads(pickle.dumps(xp.CPU)) is xp.CPU
    with pytest.raises(ValueError, match="unknown device 'gpu'; devices are 'cpu', 'device1'"):
        xp.Device("gpu")
    with pytest.raises(TypeError, match="device name must be a str"):
        xp.Device(1)
    # Device(...) and x.device work wherever device= is taken, and combine.
    a = xp.asarray([1.0, 2.0], device=xp.Device("device1"))
    ones = xp.ones(2, device=a.device)
    assert (a + ones).device is xp.DEVICE1
    for make in (
        lambda d: xp.zeros(1, device=d),
        lambda d: xp.full(1, 2.0, device=d),
        lambda d: xp.arange(2, device=d),
        lambda d: xp.linspace(0, 1, 3, device=d),
        lambda d: xp.eye(2, device=d),
        lambda d: xp.empty(1, device=d),
        lambda d: xp.zeros_like(a, device=d),
        lambda d: xp.astype(a, xp.float32, device=d),
        lambda d: xp.fft.fftfreq(4, device=d),
        lambda d: a.to_device(d),
    ):
        assert make(xp.Device("CPU_DEVICE")).device is xp.CPU
        assert make(a.device).device is xp.DEVICE1
    with pytest.raises(ValueError, match=r"zeros: device must be a Device, not its name 'device1'"):
        xp.zeros(1, device="device1")  # names only where the standard has no device object to give


def test_devices_do_not_combine_and_to_device_copies():
    a = xp.asarray([1.0, 2.0])
    b = a.to_device(xp.DEVICE1)
    assert b.device is xp.DEVICE1 and a.device is xp.CPU
    b[0] = 5.0
    assert float(a[0]) == 1.0  # a copy, not a view
    with pytest.raises(ValueError, match="different devices \\(cpu and device1\\)"):
        a + b
    assert (b + b).device is xp.DEVICE1
    with pytest.raises(ValueError, match="unknown device 'gpu'"):
        a.to_device("gpu")


@pytest.mark.parametrize("policy", promotion.available_policies())
def test_to_device_of_the_arrays_own_device_is_the_array_itself_and_still_checks_stream(policy):
    ns = xp.namespace(policy)
    for device in (xp.CPU, xp.DEVICE1):
        a = ns.asarray([1.0, 2.0]).to_device(device)
        assert a.to_device(device) is a and a.to_device(a.device, stream=None) is a
        with pytest.raises(ValueError, match="stream is not supported"):
            a.to_device(device, stream=1)


def test_array_api_compat_recognises_our_arrays():
    array_api_compat = pytest.importorskip("array_api_compat")
    assert array_api_compat.array_namespace(xp.asarray([1])) is xp
    assert array_api_compat.array_namespace(tx.asarray([1])) is tx


# -- policy-specific values ----------------------------------------------------------------
def test_torch_wraps_out_of_range_python_ints():
    u = tx.asarray([0, 1, 2], dtype=tx.uint8)
    r = u + 1000
    assert r.dtype is tx.uint8
    assert np.asarray(r).tolist() == [232, 233, 234]  # (x + 1000) mod 256, as torch
    assert np.asarray(tx.asarray([0], dtype=tx.int8) + (2**63 - 1)).tolist() == [-1]


def test_torch_float16_overflow_gives_inf():
    h = tx.asarray(1.0, dtype=tx.float16)  # 0-d
    r = h + 100000
    assert r.dtype is tx.float16 and np.isinf(np.asarray(r))


def test_array_api_refuses_out_of_range_python_ints():
    u = xp.asarray([0, 1], dtype=xp.uint8)
    with pytest.raises(
        OverflowError, match="Python int 1000 is out of bounds for uint8 \\[0, 255\\] \\(policy 'array_api'\\)"
    ):
        u + 1000
    assert (u + 255).dtype is xp.uint8


def test_torch_integer_division_and_float_functions_take_the_default_float():
    i = tx.asarray([1, 2, 3], dtype=tx.int32)
    assert (i / 2).dtype is tx.float32
    assert tx.divide(i, i).dtype is tx.float32
    assert tx.sqrt(i).dtype is tx.float32
    t64 = namespace(promotion.get_policy("torch").with_default_dtype(tx.float64))
    j = t64.asarray([1, 2], dtype=t64.int32)
    assert (j / 2).dtype is t64.float64
    assert (j + 1.5).dtype is t64.float64
    assert t64.asarray(1.5).dtype is t64.float64
    assert tx.asarray(1.5).dtype is tx.float32


def test_torch_priority_tiers():
    a = tx.asarray([1, 2], dtype=tx.int32)
    assert (a + tx.asarray(1, dtype=tx.int64)).dtype is tx.int32  # 0-d of the same category does not join
    assert (a + tx.asarray(1.0, dtype=tx.float64)).dtype is tx.float64  # higher category joins
    assert (a + 1.5).dtype is tx.float32  # a wrapped float takes the default dtype
    assert (tx.asarray([1.0], dtype=tx.float16) + 1j).dtype is tx.complex64  # complex32, stored as complex64


def test_array_api_is_strict_about_kinds():
    a = xp.asarray([1, 2], dtype=xp.int8)
    f = xp.asarray([1.0], dtype=xp.float32)
    with pytest.raises(TypeError, match="add: int8 and float32 do not promote.*policy 'array_api'"):
        a + f
    with pytest.raises(TypeError, match="divide: .* floating-point input"):
        a / a
    with pytest.raises(TypeError, match="sqrt"):
        xp.sqrt(a)
    assert (xp.asarray(2, dtype=xp.int16) + a).dtype is xp.int16  # 0-d arrays are ordinary arrays
    assert (f + 1j).dtype is xp.complex64


# -- in-place operators ------------------------------------------------------------------------
def test_array_api_inplace_refusal_leaves_x1_unchanged():
    a = xp.asarray([1, 2, 3], dtype=xp.int8)
    with pytest.raises(TypeError, match="would change the dtype of x1 from int8 to int16"):
        a += xp.asarray([1, 1, 1], dtype=xp.int16)
    assert np.asarray(a).tolist() == [1, 2, 3] and a.dtype is xp.int8
    f = xp.asarray([1.0, 2.0], dtype=xp.float32)
    with pytest.raises(TypeError):
        f *= 1j
    assert np.asarray(f).tolist() == [1.0, 2.0]
    a += 1
    assert np.asarray(a).tolist() == [2, 3, 4]


def test_torch_inplace_casts_within_a_category_and_refuses_across():
    a = tx.asarray([1, 2], dtype=tx.int8)
    a += tx.asarray([300, 1], dtype=tx.int64)
    assert a.dtype is tx.int8 and np.asarray(a).tolist() == [45, 3]  # 301 wraps like torch
    with pytest.raises(TypeError, match="result type float32 can't be cast to the desired output type int8"):
        a += 1.5
    assert np.asarray(a).tolist() == [45, 3]
    b = tx.asarray([True, False])
    with pytest.raises(TypeError, match="result type int64 can't be cast to the desired output type bool"):
        b += 1


def test_inplace_cannot_change_shape():
    a = xp.asarray([1.0, 2.0])
    with pytest.raises(ValueError, match="broadcasting would change the shape of x1"):
        a += xp.ones((2, 2))


# -- scalars and conversions ------------------------------------------------------------------
def test_python_scalar_conversions():
    assert int(xp.asarray(3)) == 3 and float(xp.asarray(2.5)) == 2.5
    assert bool(xp.asarray(True)) and complex(xp.asarray(1j)) == 1j
    assert [1, 2, 3][xp.asarray(1)] == 2
    with pytest.raises(TypeError, match="only 0-d arrays"):
        bool(xp.asarray([1, 2]))
    with pytest.raises(TypeError, match="__index__: not defined for an array of dtype float64"):
        [1][xp.asarray(0.0)]
    with pytest.raises(ValueError, match="NaN"):
        int(xp.asarray(float("nan")))
    with pytest.raises(OverflowError, match="infinity"):
        int(xp.asarray(float("inf")))


def test_operands_of_other_types_are_refused():
    a = xp.asarray([1.0])
    with pytest.raises(TypeError):
        a + "1"
    with pytest.raises(TypeError, match=r"add: x2 is a NumPy scalar \(float32"):
        a + np.float32(1.0)
    with pytest.raises(TypeError, match=r"multiply: x1 is a NumPy scalar \(int64"):
        np.int64(2) * a
    with pytest.raises(TypeError):
        a + np.ones(1)
    with pytest.raises(TypeError, match="add: x2 must be an array or a Python scalar"):
        xp.add(a, None)
    with pytest.raises(TypeError, match="two Python scalars"):
        xp.add(1.0, 2.0)


def test_numpy_float64_and_complex128_operands_are_python_numbers():
    # The standard's Python scalars are "instances of bool, int, float, complex"; np.float64
    # and np.complex128 are such instances (SciPy's lp2bp multiplies an array by one).
    a = xp.asarray([1.0, 2.0], dtype=xp.float32)
    assert (np.float64(2.0) * a).dtype is xp.float32
    assert (a + np.float64(1e300)).dtype is xp.float32  # as a Python float: weak
    assert (a * np.complex128(1j)).dtype is xp.complex64
    assert xp.multiply(a, np.float64(3.0)).dtype is xp.float32
    assert float((np.float64(0.5) - a)[1]) == -1.5
    with pytest.raises(TypeError, match="array_api"):
        xp.asarray([1, 2]) + np.float64(1.0)  # a Python float with an integer array
    old = namespace("array_api", "2023.12")
    with pytest.raises(TypeError, match="x2 must be an array of"):
        old.add(old.asarray([1.0]), np.float64(1.0))


def test_scalar_arguments_follow_the_version():
    old = namespace("array_api", "2023.12")
    a = old.asarray([1.0])
    with pytest.raises(TypeError, match="x2 must be an array of"):
        old.add(a, 1.0)
    assert (a + 1.0).dtype is old.float64  # operators always took scalars
    assert xp.add(xp.asarray([1.0]), 1.0).dtype is xp.float64


def test_result_type_bad_input():
    with pytest.raises(ValueError, match="at least one array or dtype"):
        xp.result_type()
    # Python scalars alone: a ValueError as from NumPy and array-api-strict (SciPy's _logspace
    # catches it), and still the PromotionError (a TypeError) it was.
    with pytest.raises(ValueError, match="result_type: at least one array or dtype.*Python scalars alone"):
        xp.result_type(-2, 1)
    with pytest.raises(promotion.PromotionError):
        xp.result_type(1.0)
    with pytest.raises(TypeError, match="result_type: expected"):
        xp.result_type("float32")
    with pytest.raises(TypeError):
        xp.result_type(None)
    with pytest.raises(TypeError):
        xp.result_type(np.float32)
    assert xp.result_type(xp.int8, 1) is xp.int8
    assert xp.result_type(xp.float32, 1j) is xp.complex64
    with pytest.raises(OverflowError):
        xp.result_type(xp.int8, 1000)


def test_asarray_bad_input_and_defaults():
    assert xp.asarray(1).dtype is xp.int64 and xp.asarray(1.0).dtype is xp.float64
    assert tx.asarray(1.0).dtype is tx.float32 and tx.asarray([1, 2.0]).dtype is tx.float32
    with pytest.raises(OverflowError, match="out of bounds for int64"):
        xp.asarray(2**63)
    with pytest.raises(OverflowError, match="out of bounds for uint8"):
        xp.asarray([1, 256], dtype=xp.uint8)
    with pytest.raises(TypeError, match="cannot make an array from"):
        xp.asarray({"a": 1})
    with pytest.raises(TypeError, match="has no counterpart"):
        xp.asarray(np.array(["a"]))
    with pytest.raises(TypeError, match="dtype must be a dtype of"):
        xp.asarray([1], dtype="int8")
    with pytest.raises(ValueError, match="float16 does not exist"):
        xp.asarray([1], dtype=tx.float16)
    assert tx.asarray([1], dtype=tx.bfloat16).dtype is tx.bfloat16


def test_asarray_of_ndarray_does_not_copy_unless_asked():
    data = np.arange(3.0)
    a = xp.asarray(data)
    assert np.shares_memory(np.asarray(a), data)
    b = xp.asarray(data, copy=True)
    assert not np.shares_memory(np.asarray(b), data)
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(data, dtype=xp.float32, copy=False)


# -- pickling and repr -------------------------------------------------------------------------
@pytest.mark.parametrize("ns", [xp, tx], ids=["array_api", "torch"])
def test_pickle_round_trip(ns):
    a = ns.asarray([[1, 2], [3, 4]], dtype=ns.int16)
    b = pickle.loads(pickle.dumps(a))
    assert b.__array_namespace__() is ns
    assert b.dtype is a.dtype and b.shape == (2, 2)
    assert np.asarray(b).tolist() == [[1, 2], [3, 4]]
    d = pickle.loads(pickle.dumps(a.to_device(xp.DEVICE1)))
    assert d.device is xp.DEVICE1
    assert pickle.loads(pickle.dumps(ns.float32)) is ns.float32


def test_repr_is_readable():
    assert repr(xp.asarray([1, 2], dtype=xp.int8)) == "Array([1, 2], dtype=int8)"
    assert repr(tx.asarray([1.5], dtype=tx.float32)) == "Array([1.5], dtype=float32, policy=torch)"


def test_arrays_are_not_constructible_directly():
    with pytest.raises(TypeError, match="not created directly"):
        xp.Array(np.ones(2))


def test_clip_bounds_broadcast_with_x_and_keep_its_dtype():
    x = xp.asarray([1, 5, 9], dtype=xp.int16)
    out = xp.clip(x, xp.asarray([[2], [6]], dtype=xp.int16), 8)
    assert out.shape == (2, 3) and out.dtype is xp.int16
    assert np.asarray(out).tolist() == [[2, 5, 8], [6, 6, 8]]
    with pytest.raises(TypeError, match="would change the dtype of x from int16 to int32"):
        xp.clip(x, xp.asarray(0, dtype=xp.int32))
    # torch.clamp promotes x with its bounds
    t = tx.asarray([1, 5], dtype=tx.int16)
    assert tx.clip(t, tx.asarray([0.5, 0.5], dtype=tx.float32)).dtype is tx.float32


def test_torch_matmul_needs_one_dtype_and_linalg_names_follow_the_version():
    a = tx.ones((2, 2), dtype=tx.float32)
    with pytest.raises(TypeError, match="expected m1 and m2 to have the same dtype, got float32 and float64"):
        a @ tx.ones((2, 2), dtype=tx.float64)
    assert (a @ a).dtype is tx.float32
    assert (xp.ones((2, 2), dtype=xp.float32) @ xp.ones((2, 2))).dtype is xp.float64
    assert hasattr(xp.linalg, "eig") and not hasattr(namespace("array_api", "2024.12").linalg, "eig")


def test_python_bool_is_accepted_as_the_bool_dtype_and_nothing_else_is():
    # (the array_api policy refuses dtype=bool, as array-api-strict: test_python_bool_dtype_under_array_api)
    xp = namespace("numpy")
    assert xp.asarray([1, 0], dtype=bool).dtype is xp.bool
    # A lone number into bool is its truth value, as in a list (SciPy: asarray(1, dtype=out.dtype)).
    assert xp.asarray(1, dtype=xp.bool)._data.item() is True
    assert xp.asarray(0.0, dtype=xp.bool)._data.item() is False
    assert xp.full((2,), 2, dtype=xp.bool)._data.tolist() == [True, True]
    assert xp.asarray([[0], [3]], dtype=xp.bool)._data.tolist() == [[False], [True]]
    assert xp.zeros(2, dtype=bool).dtype is xp.bool
    assert xp.astype(xp.asarray([0.0, 2.0]), bool).dtype is xp.bool
    for alias in (int, float, complex, "bool", np.bool_):
        with pytest.raises(TypeError, match="must be a dtype of"):
            xp.zeros(2, dtype=alias)


def test_python_bool_dtype_under_array_api():
    with pytest.raises(TypeError, match="must be a dtype of"):
        namespace("array_api").zeros(2, dtype=bool)
    assert namespace("torch").zeros(2, dtype=bool).dtype is namespace("torch").bool


def test_shapes_take_numpy_integers():
    # Shapes computed with NumPy (SciPy's logsumexp: tuple(np.int64 ...)) are integers by __index__.
    assert xp.full((np.int64(2), np.intp(1)), 1.0).shape == (2, 1)
    assert xp.zeros(np.int64(3)).shape == (3,)
    for bad in ((True,), (1.0,), True, "3"):
        with pytest.raises(TypeError, match="zeros: shape"):
            xp.zeros(bad)


def test_numpy_friendly_inputs_array_api_strict_accepts():
    # A 0-d integer or real array as an arange bound (SciPy: arange(1, n + 1) with a 0-d n).
    n = xp.asarray(3.0)
    assert xp.arange(1, n + 1, dtype=xp.float64)._data.tolist() == [1.0, 2.0, 3.0]
    assert xp.arange(xp.asarray(3))._data.tolist() == [0, 1, 2]
    for bad in (xp.asarray([3]), xp.asarray(True), xp.asarray(1j)):
        with pytest.raises(TypeError, match="arange: stop"):
            xp.arange(0, bad)
    # A NumPy number as an arange bound (SciPy: arange(np.prod(shape) * 3)): its value.
    assert xp.arange(np.int64(3)).dtype is xp.int64
    assert xp.arange(np.float64(3.0))._data.tolist() == [0.0, 1.0, 2.0]
    assert xp.arange(np.float32(0.5), np.int8(2)).dtype is xp.float64
    # A 0-d array or NumPy number as a linspace bound (SciPy's _logspace): its value.
    assert xp.linspace(xp.asarray(-2.0), xp.asarray(1), 4)._data.tolist() == [-2.0, -1.0, 0.0, 1.0]
    assert xp.linspace(np.float64(0), np.int64(1), 3).dtype is xp.float64
    assert xp.linspace(xp.asarray(0j), 1, 2).dtype is xp.complex128
    for bad in (xp.asarray(True), np.bool_(True), "1"):
        with pytest.raises(TypeError, match="linspace: start must be a Python int, float or complex"):
            xp.linspace(bad, 2.0, 3)
    # An n-d bound: NumPy's rows of values, as array-api-strict gives them under the array_api policy
    # (which reads arguments as NumPy does); torch's linspace takes only numbers and 0-d tensors.
    assert xp.linspace(xp.asarray([1.0]), 2.0, 3)._data.tolist() == [[1.0], [1.5], [2.0]]
    with pytest.raises(TypeError, match="linspace: start must be a Python int, float or complex"):
        tx.linspace(tx.asarray([1.0]), 2.0, 3)
    # np.float64 in nested sequences is a Python float: the policy's rules still apply.
    assert xp.asarray([np.float64(1.5), 2.0]).dtype == xp.float64
    assert xp.asarray([np.float64(1.5)], dtype=xp.float32).dtype == xp.float32
    with pytest.raises(ValueError, match="asarray: the Python float 1.5 is not a whole number"):
        xp.asarray([np.float64(1.5)], dtype=xp.int64)
    assert tx.asarray([np.float64(1.5)]).dtype == tx.float64  # torch.asarray: its own dtype


def test_whole_floats_make_integer_arrays_exactly():
    # Every library makes asarray([1000.0], dtype=int64) and SciPy writes it; the standard
    # leaves the conversion to the library. Only a float that converts without loss is taken.
    out = xp.asarray([1000.0, -3.0], dtype=xp.int64)
    assert out.dtype == xp.int64 and out._data.tolist() == [1000, -3]
    assert xp.full((2,), 7.0, dtype=xp.uint8)._data.tolist() == [7, 7]
    assert xp.asarray(2.0**62, dtype=xp.int64)._data.item() == 2**62
    for bad in (1.5, -0.25, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="not a whole number.*int64.*policy 'array_api'.*astype"):
            xp.asarray([1.0, bad], dtype=xp.int64)
    for big, dtype in ((256.0, xp.uint8), (-1.0, xp.uint8), (2.0**63, xp.int64)):
        with pytest.raises(OverflowError, match=f"out of bounds for {dtype.name}"):
            xp.asarray([big], dtype=dtype)
    with pytest.raises(TypeError, match="a Python complex cannot make a float64 array"):
        xp.asarray([1.0, 1j], dtype=xp.float64)


def test_astype_repeats_the_first_decision(recwarn):
    # astype keeps the casts it has allowed; a repeat must give what the first call gave.
    x = xp.asarray([1e300, float("nan"), 1.5])
    first, again = xp.astype(x, xp.float32), xp.astype(x, xp.float32)
    assert first.dtype == again.dtype == xp.float32 and np.array_equal(first._data, again._data, equal_nan=True)
    assert xp.astype(x, xp.int32).dtype == xp.astype(x, xp.int32).dtype == xp.int32
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]  # IEEE results, quietly
    z = xp.asarray([1 + 2j])
    for _ in range(2):  # a refused cast is never remembered as allowed
        with pytest.raises(TypeError, match="astype: casting complex128 to float64"):
            xp.astype(z, xp.float64)
    for _ in range(2):  # an array of another namespace is checked every time
        with pytest.raises(TypeError, match="astype"):
            xp.astype(tx.asarray([1.0]), xp.float32)
    assert xp.astype(x, xp.float32, copy=False).dtype == xp.float32


def test_numpy_ufuncs_on_our_arrays():
    # NumPy-only code (SciPy's filtfilt tests: np.abs(zpk[1]).max()) gets NumPy's answer on
    # the CPU data, as with array-api-strict; an operator's ufunc stays the operator.
    x = xp.asarray([-1.0, 2.0])
    out = np.abs(x)
    assert type(out) is np.ndarray and out.tolist() == [1.0, 2.0]
    assert np.maximum.reduce(x) == 2.0
    assert type(np.float64(2.0) * x) is type(x)  # np.float64 is a Python float
    with pytest.raises(TypeError, match=r"^add: x1 is a NumPy ndarray"):
        np.ones(2) + x
    with pytest.raises(TypeError, match=r"^multiply: x1 is a NumPy scalar \(float32"):
        np.float32(2.0) * x
    a = np.ones(2)
    with pytest.raises(TypeError, match=r"^add: x1 is a NumPy ndarray"):
        a += x
    with pytest.raises(TypeError, match=r"^absolute: out= cannot be an array of array_api_promo"):
        np.abs(x, out=x)
    with pytest.raises(RuntimeError, match="__array__: the array is on"):
        np.abs(xp.asarray([1.0], device=xp.Device("device1")))


def test_format_of_a_0d_array_formats_its_value():
    # NumPy's assert_allclose writes f"atol={atol:g}"; SciPy's atol can be a 0-d array.
    assert f"{xp.asarray(0.5):g}" == "0.5"
    assert f"{xp.asarray(3, dtype=xp.int8):03d}" == "003"
    assert f"{xp.asarray([1.0])}" == str(xp.asarray([1.0]))
    with pytest.raises(TypeError, match=r"__format__: format spec 'g' needs a 0-d array, got shape \(2,\)"):
        f"{xp.ones(2):g}"
    with pytest.raises(ValueError, match=r"__format__: Unknown format code 'd'.*float64"):
        f"{xp.asarray(1.5):d}"
    with pytest.raises(TypeError, match="__format__: format spec must be a str, got int"):
        xp.asarray(1.5).__format__(3)


@pytest.mark.parametrize(
    "variable, value, words",
    [
        ("ARRAY_API_PROMO_POLICY", "torhc", "ARRAY_API_PROMO_POLICY='torhc': unknown promotion policy"),
        ("ARRAY_API_PROMO_API_VERSION", "2099", "ARRAY_API_PROMO_API_VERSION='2099': unsupported version"),
        ("ARRAY_API_PROMO_STORAGE", "dsk", "ARRAY_API_PROMO_STORAGE='dsk': unknown storage"),
    ],
)
def test_from_env_names_the_variable_it_cannot_use(variable, value, words):
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("ARRAY_API_PROMO_")}
    env[variable] = value
    proc = subprocess.run(
        [sys.executable, "-c", "import array_api_promo.from_env"], env=env, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 1
    assert f"ValueError: {words}" in proc.stderr.splitlines()[-1]
