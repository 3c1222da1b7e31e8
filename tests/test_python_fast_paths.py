"""The per-call fast paths (astype's remembered casts, asarray of a list) answer exactly as the
general path does: every value, dtype, device, warning and error, under every policy."""

from __future__ import annotations

import contextlib
import math
import threading
import warnings
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from fast_path_helpers import fresh_namespace, outcome  # tests/ is on sys.path (rootdir-relative import mode)

import array_api_promo as xp
import array_api_promo.torch as tx
from array_api_promo import CPU, DEVICE1, namespace, promotion

POLICIES = promotion.available_policies()


_fresh = fresh_namespace


def _array_outcome(out):
    """An array's dtype, device, NumPy data and flags."""
    data = out._data
    flags = (data.flags.c_contiguous, data.flags.f_contiguous, data.flags.writeable, data.flags.owndata)
    return ("array", out.dtype, out.device, data.dtype, data.shape, repr(data.tolist()), flags)


def _outcome(call):
    """What a call gives: its array (dtype, device, NumPy data and flags) or its error, and its warnings."""
    return outcome(call, _array_outcome)


# -- astype ------------------------------------------------------------------------------------
def _values(dtype):
    if dtype.kind == "bool":
        return [True, False]
    if dtype.name.startswith(("int", "uint")):
        info = np.iinfo(dtype.numpy)
        return [int(info.min), int(info.max), 0, 1]
    if dtype.name.startswith("complex"):
        big = 1e300 if dtype.numpy.itemsize == 16 else 1e38
        return [complex(math.nan, 1.0), complex(big, -big), 1.5 - 2j, 0j]
    return [math.nan, math.inf, -math.inf, 1e300 if dtype.numpy.itemsize == 8 else 6e4, 1.5, 5e-324]


def _arrays(ns):
    """Per dtype: edge values on the CPU, on the other device, and as a strided 2-d view."""
    arrays = []
    for d in ns.__array_namespace_info__().dtypes().values():
        x = ns.asarray(np.array(_values(d), dtype=d.numpy), dtype=d)
        arrays += [x, x.to_device(DEVICE1), ns.reshape(ns.concat([x, x]), (2, -1)).mT[::2, :]]
    return arrays


def _astype_outcomes(ns, arrays, general=False):
    """Each cast of each array; ``general``: by the general path (a device given takes it)."""
    out = {}
    for i, x in enumerate(arrays):
        kwargs = {"device": x.device} if general else {}
        for target in ns.__array_namespace_info__().dtypes().values():
            out[i, target] = _outcome(lambda: ns.astype(x, target, **kwargs))
    return out


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("errstate", ["default", "raise"])
def test_astype_repeats_its_first_answer_for_every_cast(policy, errstate):
    # The first call of a cast takes the general path; later ones the remembered cast.
    reference = _fresh(policy)
    ns = _fresh(policy)
    arrays = _arrays(ns)
    with np.errstate(all="raise") if errstate == "raise" else np.errstate():
        general = _astype_outcomes(reference, _arrays(reference), general=True)
        first = _astype_outcomes(ns, arrays)
        again = _astype_outcomes(ns, arrays)
        other_thread = {}
        thread = threading.Thread(target=lambda: other_thread.update(_astype_outcomes(ns, arrays)))
        thread.start()
        thread.join()
    assert first == general
    assert again == general
    if errstate == "default":  # a new thread starts with NumPy's default error state
        assert other_thread == general


@pytest.mark.parametrize("ns", [xp, tx], ids=["array_api", "torch"])
def test_astype_quiet_casts_are_quiet_in_a_new_thread(ns):
    # A thread whose first quiet cast takes the remembered cast still casts quietly.
    x = ns.asarray([1e300, math.nan, 1.5], dtype=ns.float64)
    ns.astype(x, ns.float32)
    ns.astype(x, ns.int32)
    results = []

    def cast():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            results.append((ns.astype(x, ns.float32)._data.tolist(), ns.astype(x, ns.int32).dtype, list(caught)))

    thread = threading.Thread(target=cast)
    thread.start()
    thread.join()
    values, dtype, caught = results[0]
    assert values[0] == math.inf and math.isnan(values[1]) and values[2] == 1.5
    assert dtype is ns.int32 and caught == []


def test_astype_of_a_cast_it_remembers_keeps_its_checks():
    ns = _fresh("torch")
    x = ns.asarray([1.0, 2.0], dtype=ns.float64)
    ns.astype(x, ns.float32)  # remembered from here on
    assert ns.astype(x, ns.float32, device=DEVICE1).device is DEVICE1
    assert ns.astype(x, ns.float32, device=CPU).device is CPU
    out = ns.astype(x, ns.float32, copy=False)
    assert out.dtype is ns.float32 and out is not x
    assert ns.astype(x, ns.float64, copy=False) is x
    for copy in (1, None, "yes", np.ones(2)):
        with pytest.raises(TypeError, match=r"^astype: copy must be True or False, got "):
            ns.astype(x, ns.float32, copy=copy)
    with pytest.raises(ValueError, match="astype: unknown device"):
        ns.astype(x, ns.float32, device="gpu")
    with pytest.raises(TypeError, match=r"^astype: dtype must be a dtype of"):
        ns.astype(x, np.float32)
    with pytest.raises(TypeError, match=r"^astype: dtype must be a dtype of"):
        ns.astype(x, [ns.float32])  # unhashable: still our words
    with pytest.raises(TypeError, match=r"^astype: x must be an array of"):
        ns.astype(np.ones(2), ns.float32)
    with pytest.raises(TypeError, match="cannot mix arrays of"):
        ns.astype(xp.asarray([1.0, 2.0]), ns.float32)
    with pytest.raises(ValueError, match="float16 does not exist under"):
        xp.astype(xp.asarray([1.0]), tx.float16)
    assert ns.astype(ns.asarray([1, 0], dtype=ns.int8), bool).dtype is ns.bool


@pytest.mark.parametrize("ns", [xp, tx], ids=["array_api", "torch"])
def test_astype_of_data_that_is_not_an_ndarray_answers_as_before(ns):
    # Arrays hold exact ndarrays; one holding a NumPy scalar (a bug elsewhere) still casts as
    # the general path casts it, through the scalar's own astype.
    x = ns.asarray([1.5], dtype=ns.float64)
    ns.astype(x, ns.float32)  # remembered
    odd = type(x)._new(np.float64(1e300), ns.float64, x._runtime, CPU)
    for _ in range(2):
        out = ns.astype(odd, ns.float32)
        assert out.dtype is ns.float32 and type(out._data) is np.float32 and out._data == np.inf


def test_astype_of_an_array_of_another_version_of_the_policy():
    old = namespace("array_api", "2023.12")
    x = old.asarray([1.0, 2.0])
    for _ in range(2):
        out = xp.astype(x, xp.float32)
        assert out.__array_namespace__() is xp and out.dtype is xp.float32
        out = old.astype(xp.asarray([1.0]), old.float32)
        assert out.__array_namespace__() is old
    v2021 = namespace("array_api", "2021.12")
    y = v2021.asarray([1.0])
    for _ in range(2):
        with pytest.raises(ValueError, match="complex64 does not exist under"):
            v2021.astype(y, xp.complex64)
        assert xp.astype(xp.asarray([1.0]), xp.complex64).dtype is xp.complex64


# -- asarray of a list ---------------------------------------------------------------------------
class _OddFloat(float):
    def __float__(self):
        return 5.0


_LISTS = {
    "floats": [0.5, 1.5, -2.25, 1e-300, 3.0],
    "one float": [2.5],
    "nan inf": [math.nan, math.inf, -math.inf, -0.0],
    "huge": [1e300, -1e300, 1.0],
    "float then int": [1.0, 2],
    "int then float": [1, 2.0],
    "float and bool": [1.5, True],
    "bool and float": [False, 1.5],
    "ints": [1, 2, 3],
    "bools": [True, False],
    "float and big int": [1.0, 2**70],
    "float and huge int": [1.0, 2**1100],
    "float and np.float64": [1.0, np.float64(2.5)],
    "np.float64": [np.float64(1.5), np.float64(2.5)],
    "float and np.float32": [1.0, np.float32(2.5)],
    "np.float32": [np.float32(1.5)],
    "float and np.int64": [1.0, np.int64(3)],
    "float and np.bool_": [1.0, np.bool_(True)],
    "float and 0-d ndarray": [1.0, np.array(2.0)],
    "float and 1-d ndarray": [1.0, np.array([2.0])],
    "float and 0-d xp array": [1.0, xp.asarray(2.0)],
    "float and 0-d tx array": [1.0, tx.asarray(2.0)],
    "float and None": [1.0, None],
    "float and str": [1.0, "2.0"],
    "float and complex": [1.0, 1j],
    "float and Decimal": [1.0, Decimal("2.5")],
    "float and Fraction": [1.0, Fraction(1, 2)],
    "float subclass": [1.0, _OddFloat(2.0)],
    "ragged": [1.0, [2.0]],
    "nested": [[1.0, 2.0], [3.0, 4.0]],
    "nested ragged": [[1.0], [2.0, 3.0]],
    "float and tuple": [1.0, (2.0,)],
    "empty": [],
    "empty nested": [[]],
}


def _asarray_outcomes(ns, dtype, device, copy):
    out = {}
    for name, values in _LISTS.items():
        # A tuple takes the general path, as a list did before it had a fast path.
        out[name] = (
            _outcome(lambda values=values: ns.asarray(list(values), dtype=dtype, device=device, copy=copy)),
            _outcome(lambda values=values: ns.asarray(tuple(values), dtype=dtype, device=device, copy=copy)),
        )
    return out


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("device", [None, CPU, DEVICE1], ids=["none", "cpu", "device1"])
@pytest.mark.parametrize("copy", [None, True, False])
def test_asarray_of_a_list_answers_as_of_a_tuple(policy, device, copy):
    ns = namespace(policy)
    dtypes = [None, *ns.__array_namespace_info__().dtypes().values()]
    for dtype in dtypes:
        for name, (of_list, of_tuple) in _asarray_outcomes(ns, dtype, device, copy).items():
            assert of_list == of_tuple, (name, dtype)


@pytest.mark.parametrize("ns", [xp, tx], ids=["array_api", "torch"])
def test_asarray_of_a_list_of_floats_is_a_new_array(ns):
    values = [1.0, 2.0, 3.0]
    a = ns.asarray(values)
    values[0] = 9.0
    assert a._data.tolist() == [1.0, 2.0, 3.0] and a._data.flags.owndata and a._data.flags.writeable
    assert a.dtype is (ns.float64 if ns is xp else ns.float32) and a.device is CPU
    assert ns.asarray([1.0, 2.0], dtype=ns.float32).dtype is ns.float32


def test_asarray_of_a_list_with_numpy_scalars_follows_the_policy():
    assert xp.asarray([1.0, np.float64(2.0)]).dtype is xp.float64
    with pytest.raises(TypeError, match="asarray: cannot make an array from float32"):
        xp.asarray([1.0, np.float32(2.0)])
    assert tx.asarray([np.float64(2.0)]).dtype is tx.float64  # torch.asarray: the scalar's own dtype
    assert tx.asarray([1.0, np.float64(2.0)]).dtype is tx.float64
    assert tx.asarray([1.0, np.float32(2.0)]).dtype is tx.float32
    assert tx.asarray([1.0, 2.0]).dtype is tx.float32


@pytest.mark.parametrize("copy", [1, "yes", np.True_])
def test_asarray_of_a_list_of_floats_refuses_a_copy_that_is_no_bool(copy):
    # (the list fast path once took any copy but False: a silent pass of bad input); the array_api
    # policy reads it as NumPy does (copy=1 copies, a string is refused), the torch policy refuses it
    for obj in ([1.0, 2.0], (1.0, 2.0)):
        with pytest.raises(TypeError, match="asarray: copy must be"):
            xp.torch.asarray(obj, copy=copy)
        if isinstance(copy, str):
            with pytest.raises(TypeError, match="asarray: copy must be"):
                xp.asarray(obj, copy=copy)
        else:
            assert xp.asarray(obj, copy=copy).shape == (2,)


def test_quiet_casts_do_not_keep_the_error_state_of_their_first_call():
    """The quiet context is made on a thread's first quiet call: inside the caller's
    np.errstate(under="raise") it once made every later quiet cast of that thread raise."""
    outcome = []

    def run():
        tiny = xp.asarray([5e-324])
        # (NumPy's own answer inside the caller's block is not ours to judge)
        with np.errstate(under="raise"), contextlib.suppress(FloatingPointError):
            xp.astype(tiny, xp.float32)
        outcome.append(xp.astype(tiny, xp.float32)._data.tolist())

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert outcome == [[0.0]]


# -- sum and prod of a whole array ---------------------------------------------------------------
def _reduction_arrays(ns):
    """Per dtype: 0-d, 1-d (edge values), empty, 2-d strided, and 1-d on the other device."""
    arrays = []
    for d in ns.asarray(0.0)._runtime.dtypes:  # (no __array_namespace_info__ before 2023.12)
        x = ns.asarray(_values(d), dtype=d)
        square = ns.reshape(ns.concat([x, x, x, x]), (4, -1))
        arrays += [x[0], x, x[:0], square.mT[::2, :], x.to_device(DEVICE1)]
        if d.name.startswith(("float", "bfloat", "complex")):  # overflow, and inf - inf
            big = float(np.finfo(d.numpy).max) if d.name != "bfloat16" else 3e38
            arrays += [ns.asarray([big, big, -1.5], dtype=d), ns.asarray([math.inf, -math.inf], dtype=d)]
    return arrays


def _reduction_outcomes(ns, arrays, func, general=False):
    """``func`` of each array; ``general``: by the general path (all axes named take it)."""
    out = {}
    for i, x in enumerate(arrays):
        kwargs = {"axis": tuple(range(x.ndim))} if general else {}
        out[i] = _outcome(lambda: getattr(ns, func)(x, **kwargs))
    return out


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("version", ["2022.12", "2025.12"])  # float32 sums widened before 2023.12
@pytest.mark.parametrize("func", ["sum", "prod"])
@pytest.mark.parametrize("errstate", ["default", "raise"])
def test_sum_of_a_whole_array_repeats_the_general_answer(policy, version, func, errstate):
    reference = _fresh(policy, version)
    ns = _fresh(policy, version)
    arrays = _reduction_arrays(ns)
    with np.errstate(all="raise") if errstate == "raise" else np.errstate():
        general = _reduction_outcomes(reference, _reduction_arrays(reference), func, general=True)
        first = _reduction_outcomes(ns, arrays, func)
        again = _reduction_outcomes(ns, arrays, func)
    assert first == general
    assert again == general


def test_sum_of_a_whole_array_keeps_its_checks():
    ns = _fresh("array_api")
    x = ns.asarray([1.0, 2.0])
    for _ in range(2):
        assert ns.sum(x).dtype is ns.float64
        assert ns.sum(x, dtype=ns.float32).dtype is ns.float32
        assert ns.sum(x, keepdims=True).shape == (1,)
        with pytest.raises(TypeError, match="^sum: keepdims must be a bool"):
            ns.sum(x, keepdims=None)  # (0 is NumPy's reading, which the array_api policy takes)
        with pytest.raises(TypeError, match="^sum: x must be an array of"):
            ns.sum(np.ones(2))
        with pytest.raises(TypeError, match="cannot mix arrays of"):
            ns.sum(tx.asarray([1.0]))
        other_version = namespace(x._runtime.policy, "2023.12")
        assert ns.sum(other_version.asarray([1.0, 2.0])).__array_namespace__() is ns
        with pytest.raises(TypeError, match="^sum: bool input is not allowed"):
            ns.sum(ns.asarray([True, False]))


# -- reshape --------------------------------------------------------------------------------------
@pytest.mark.parametrize("ns", [xp, tx], ids=["array_api", "torch"])
def test_reshape_takes_and_refuses_what_it_did(ns):
    x = ns.reshape(ns.arange(6), (2, 3))
    lists = ns is tx  # the array_api policy takes tuples only, as array-api-strict (test_strict_refusals.py)
    for shape in ((3, 2), [3, 2], (np.int64(3), 2), (-1, 2), [np.int8(-1), 2]):
        if type(shape) is list and not lists:
            with pytest.raises(TypeError, match=r"^reshape: shape must be a tuple of ints, got list"):
                ns.reshape(x, shape)
            continue
        out = ns.reshape(x, shape)
        assert out.shape == (3, 2) and out.dtype is x.dtype and out.__array_namespace__() is ns
    if lists:
        assert ns.reshape(x, 6).shape == (6,)
    assert ns.reshape(ns.ones(1), ()).shape == ()
    assert ns.reshape(x.to_device(DEVICE1), (6,)).device is DEVICE1
    for shape, exc, words in (
        ((True, 6), TypeError, r"^reshape: each entry of shape must be an int, got Python bool True"),
        ((2.0, 3), TypeError, r"^reshape: each entry of shape must be an int"),
        ("ab", TypeError, r"^reshape: shape must be a tuple of ints"),
        ((4, -1), ValueError, r"^reshape: cannot reshape an array of size 6"),
        ((-1, -1), ValueError, r"^reshape: shape \(-1, -1\) may contain -1 at most once"),
        ((0, -1), ValueError, r"^reshape: shape \(0, -1\) is ambiguous"),
    ):
        with pytest.raises(exc, match=words):
            ns.reshape(x, shape)
    for copy in (1, 0, "yes", np.ones(2), np.True_):
        if ns.__name__ == "array_api_promo" and not isinstance(copy, np.ndarray):
            assert ns.reshape(x, (6,), copy=copy).shape == (6,)  # by its truth, as array-api-strict reads it
            continue
        with pytest.raises(TypeError, match=r"^reshape: copy must be True, False or None, got "):
            ns.reshape(x, (6,), copy=copy)
    with pytest.raises(TypeError, match=r"^reshape: x must be an array of"):
        ns.reshape(np.ones(6), (6,))
    other = tx if ns is xp else xp
    with pytest.raises(TypeError, match=r"^reshape: cannot mix arrays of"):
        ns.reshape(other.ones(6), (6,))
    old = x.__array_namespace__(api_version="2023.12")
    assert ns.reshape(old.ones(6), (2, 3)).__array_namespace__() is ns
