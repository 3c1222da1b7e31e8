"""The compiled fast paths (``_fastpath.c``) give what the Python functions they mirror give.

Each compiled path is checked against its own Python function (``path.fallback``),
called on the same operands: the same result (dtype, values, shape, namespace,
device) or the same error, type and message.  The operands cover the plain cases the
C code takes and the ones it must hand back (other namespaces and devices, shapes that
do not broadcast, read-only arrays, large ints, NumPy operands, keywords, 0-d arrays
under the torch policy, masks of other shapes).  The whole suite also runs without the
compiled paths (``ARRAY_API_PROMO_PURE_PYTHON=1``, see ``.ci/run``).
"""

from __future__ import annotations

import itertools
import math
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import array_api_promo as xp
from array_api_promo import DEVICE1, _core
from array_api_promo._array import Array

tx = xp.torch

pytestmark = pytest.mark.skipif(not _core.COMPILED, reason="the compiled fast paths are not built or turned off")

BINARY = ["__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__", "__pow__", "__matmul__"]
BINARY += ["__and__", "__or__", "__xor__", "__lshift__", "__rshift__"]
BINARY += ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"]
REFLECTED = ["__r" + d[2:] for d in BINARY[:13]]
INPLACE = ["__i" + d[2:] for d in BINARY[:13]]
UNARY = ["__neg__", "__pos__", "__abs__", "__invert__"]


def _outcome(call):
    """What a call gives: ("ok", dtype, namespace, device, shape, values) or ("error", type, message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = call()
    except Exception as e:  # noqa: BLE001 - the error itself is compared
        return ("error", type(e), str(e))
    if out is NotImplemented or type(out) is not Array:
        return ("value", out)
    data = np.asarray(out._data)
    return ("ok", out._dtype, out._runtime, out._device, data.shape, data.tobytes())


def _operands(ns):
    dev = ns.__array_namespace_info__().devices()
    other_device = dev[1] if len(dev) > 1 else None
    arrays = [
        ns.asarray([1.5, -2.0, 3.0]),
        ns.asarray([1.0, 2.0, 3.0], dtype=ns.float32),
        ns.asarray([1, 2, 3], dtype=ns.int8),
        ns.asarray([4, 5, 6], dtype=ns.int64),
        ns.asarray([7, 8, 9], dtype=ns.uint8),
        ns.asarray([True, False, True]),
        ns.asarray([1 + 2j, 3j, -1.0]),
        ns.asarray(2.5),  # 0-d
        ns.asarray(3, dtype=ns.int16),  # 0-d
        ns.asarray([[1.0, 2.0], [3.0, 4.0]]),  # does not broadcast with the 3-element ones
        ns.reshape(ns.arange(9.0), (3, 3)),  # matmul with the 3-element ones
        xp.asarray([1.0, 2.0, 3.0]) if ns is tx else tx.asarray([1.0, 2.0, 3.0]),  # another namespace
    ]
    if other_device is not None:
        arrays.append(ns.asarray([1.0, 2.0, 3.0], device=other_device))
    scalars = [2, -3, True, 1.5, float("nan"), float("inf"), -1e300, 3e38, 300, -129, 2**63 - 1, 2**63, 2**64]
    scalars += [-(2**70), 1j, "a", None, [1, 2]]
    scalars += [np.float64(2.0), np.float32(2.0), np.int64(3), np.ones(3)]
    return arrays, scalars


def _fast_paths(ns, *names):
    """``ns``'s operands and runtime, and the runtime's compiled paths ``names`` (each checked to be one)."""
    runtime = ns._runtime
    paths = [getattr(type(runtime), name) for name in names]
    assert all(isinstance(path, _core.FastPath) for path in paths), names
    return (*_operands(ns), runtime, *paths)


def _same_as_python(path, *args, **kwargs):
    """The compiled ``path`` gives what its Python function gives (returned); that one is called
    first, as it fills the tables the C path reads."""
    slow = _outcome(lambda: path.fallback(*args, **kwargs))
    assert _outcome(lambda: path(*args, **kwargs)) == slow, (path, args, kwargs)
    return slow


def _fresh(x):
    """A copy for an in-place call (the C and the Python call each mutate their own)."""
    if type(x) is not Array:
        return x
    return Array._new(x._data.copy(), x._dtype, x._runtime, x._device)


@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_operators_match_their_python_functions(ns):
    arrays, scalars = _operands(ns)
    checked = 0
    for dunder in BINARY + REFLECTED + UNARY:
        path = vars(Array)[dunder]
        assert isinstance(path, _core.FastPath)
        for x in arrays:
            others = [()] if dunder in UNARY else [(o,) for o in arrays + scalars]
            for rest in others:
                _same_as_python(path, x, *rest)  # first: it fills the tables the C path reads
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_inplace_operators_match_their_python_functions(ns):
    arrays, scalars = _operands(ns)
    read_only = ns.asarray([1.0, 2.0, 3.0])
    read_only._data.flags.writeable = False
    for dunder in INPLACE:
        path = vars(Array)[dunder]
        for x in arrays + [read_only]:
            for other in arrays + scalars:
                x1, x2 = _fresh(x), _fresh(x)
                if x is read_only:
                    x1._data.flags.writeable = x2._data.flags.writeable = False
                slow = _outcome(lambda: path.fallback(x2, other))
                fast = _outcome(lambda: path(x1, other))
                assert fast == slow, (dunder, x, other)
                assert np.array_equal(x1._data, x2._data, equal_nan=True)


@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_functions_match_their_python_functions(ns):
    arrays, scalars = _operands(ns)
    runtime = ns._runtime
    for name in ["add", "multiply", "greater", "atan2", "logaddexp", "bitwise_and", "divide", "pow", "matmul"]:
        path = vars(type(runtime))[name] if name in vars(type(runtime)) else getattr(type(runtime), name)
        assert isinstance(path, _core.FastPath)
        for x1, x2 in itertools.product(arrays + scalars[:5], repeat=2):
            _same_as_python(path, runtime, x1, x2)
        # keywords and a wrong number of arguments go to the Python function's own error
        assert _outcome(lambda: path(runtime, arrays[0])) == _outcome(lambda: path.fallback(runtime, arrays[0]))
        assert _outcome(lambda: path(runtime, x1=arrays[0], x2=arrays[0]))[0] == "error"
    for name in ["sin", "negative", "abs", "isnan", "sqrt", "bitwise_invert", "real"]:
        path = getattr(type(runtime), name)
        for x in arrays + scalars[:5]:
            _same_as_python(path, runtime, x)


@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_getitem_and_result_type_match_their_python_functions(ns):
    arrays, scalars = _operands(ns)
    x = ns.asarray([1.0, 2.0, 3.0])
    keys = [0, 2, -1, 3, -4, 2**70, True, slice(None), slice(1, None), slice(None, None, -1), slice(0, 3, 0)]
    keys += [x > 1.5, ns.asarray([True, False]), tx.asarray([True, True, False]), ns.asarray([0, 1]), (0,), ...]
    keys += [None, 1.0, np.int64(1), [0, 1]]
    keys += [ns.asarray([5]), ns.asarray(1), ns.asarray([[0, 2]], dtype=ns.uint8), ns.asarray([0.0])]  # integer arrays
    keys += [tx.asarray([0]) if ns is xp else xp.asarray([0]), ns.asarray([0], device=DEVICE1)]
    getitem = vars(Array)["__getitem__"]
    for a in [x, ns.asarray(2.0), ns.reshape(ns.arange(6), (2, 3))]:
        for key in keys:
            slow = _same_as_python(getitem, a, key)
            assert _outcome(lambda: a[key]) == slow, (a, key)  # the class's subscript slot
    runtime = ns._runtime
    path = vars(type(runtime)).get("result_type") or type(runtime).result_type
    for x1, x2 in itertools.product(arrays + [xp.float32, 1.5], repeat=2):
        _same_as_python(path, runtime, x1, x2)  # first: it fills the table the C path reads


@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_setitem_and_float_match_their_python_functions(ns):
    """x[key] = value through the class's slot and through the compiled __setitem__, against its
    Python function on a copy of x: the same outcome and the same bytes stored, for basic keys,
    masks, integer arrays and bad keys, Python scalars of every kind, arrays of x's dtype and of
    others, into vectors, matrices, 0-d and read-only arrays."""
    arrays, scalars = _operands(ns)
    setitem = vars(Array)["__setitem__"]
    targets = [a for a in arrays if a._runtime is ns._runtime] + [ns.broadcast_to(ns.asarray([1.0, 2.0, 3.0]), (2, 3))]
    for x in targets:
        n = x.shape[0] if x.ndim else 1
        keys = [0, -1, n, 2**70, True, slice(None), slice(1, None), slice(None, None, -1), slice(0, 3, 0), (0,), ()]
        keys += [..., (..., 0), (0, 0), None, 1.0, np.int64(1), [0, 1], ns.asarray([0, n - 1])]
        keys += [ns.asarray(np.arange(n) % 2 == 0) if x.ndim == 1 else ns.asarray(x._data > 2), ns.asarray([True])]
        keys += [tx.asarray([True, False, True]) if ns is xp else xp.asarray([True, False, True])]
        for value in scalars + arrays + [x, x[0:1, ...] if x.ndim else x]:
            for key in keys:
                # copies (a read-only view stays itself: it must be refused alike)
                slow_x, fast_x, slot_x = (_fresh(x) if x._data.flags.writeable else x for _ in range(3))
                fast = _outcome(lambda: setitem(fast_x, key, value))  # first: before or after a remembered store
                slow = _outcome(lambda: setitem.fallback(slow_x, key, value))  # it fills the table the C path reads
                assert fast == slow, (x, key, value)

                def assign(slot_x=slot_x, key=key, value=value):
                    slot_x[key] = value  # the class's item assignment slot

                slot = _outcome(assign)
                assert slot == slow, (x, key, value)
                assert fast_x._data.tobytes() == slow_x._data.tobytes() == slot_x._data.tobytes(), (x, key, value)
    to_float = vars(Array)["__float__"]
    for x in arrays + [ns.asarray(np.array(2.5).astype(">f8")), ns.asarray(float("nan")), ns.asarray(-0.0)]:
        slow = repr(_outcome(lambda: to_float.fallback(x)))  # (repr: NaN is NaN)
        assert repr(_outcome(lambda: to_float(x))) == slow, x
        assert repr(_outcome(lambda: float(x))) == slow, x  # the class's number slot


def _slots(x):
    return x._data, x._dtype, x._runtime, x._device


def test_the_item_assignment_and_float_slots_follow_the_class():
    """As the subscript slot: a subclass without its own __setitem__/__float__ takes the Python
    function for its instances, Array once they are replaced takes the new ones, and del x[key]
    still finds no __delitem__."""
    x = xp.asarray([1.0, 2.0, 3.0])

    class Plain(Array):
        __slots__ = ()

    plain = Plain._new(x._data.copy(), x._dtype, x._runtime, x._device)
    plain[0] = 5.0
    with pytest.raises(TypeError, match="__setitem__: value must be"):
        plain[1] = "a"  # refused by the Python function
    assert plain._data.tolist() == [5.0, 2.0, 3.0] and float(Plain._new(np.asarray(2.5), *_slots(x)[1:])) == 2.5
    with pytest.raises(AttributeError, match="__delitem__"):
        del x[0]
    with pytest.raises(AttributeError, match="__delitem__"):
        del plain[0]
    originals = vars(Array)["__setitem__"], vars(Array)["__float__"]
    try:
        Array.__setitem__ = lambda self, key, value: self._data.__setitem__(key, -value)
        Array.__float__ = lambda self: 42.0
        x[0] = 5.0
        assert x._data.tolist() == [-5.0, 2.0, 3.0] and float(x[0]) == 42.0
    finally:
        Array.__setitem__, Array.__float__ = originals
    x[0] = 5.0
    assert x._data.tolist() == [5.0, 2.0, 3.0] and float(x[0]) == 5.0


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")  # the overflow is the case under test
@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_astype_and_asarray_match_their_python_functions(ns):
    arrays, scalars = _operands(ns)
    runtime = ns._runtime
    astype = type(runtime).astype
    assert isinstance(astype, _core.FastPath)
    big = ns.asarray([1e300, -1e300, float("nan")])  # a quiet cast: overflow to inf is the answer
    targets = [d for d in runtime.dtypes] + [xp.float32, np.float32, "float32", None, [1]]
    for x in arrays + [big, 1.5]:
        for dtype in targets:
            for _ in range(2):  # the first call fills the table of allowed casts, the second reads it
                _same_as_python(astype, runtime, x, dtype)
        for kwargs in ({"copy": False}, {"copy": 1}, {"device": None}):
            _same_as_python(astype, runtime, x, ns.float64, **kwargs)
    with np.errstate(over="raise", invalid="raise"):  # the caller's error state does not reach a quiet cast
        assert _outcome(lambda: astype(runtime, big, ns.float32)) == _outcome(
            lambda: astype.fallback(runtime, big, ns.float32)
        )
    asarray = type(runtime).asarray
    assert isinstance(asarray, _core.FastPath)
    lists = [[1.0, 2.5], [1.0, 2], [1.0, True], [1e308, -0.0, float("nan")], [], [[1.0], [2.0]], [1.0, np.float64(2)]]
    lists += [[1.0, np.float32(2)], (1.0, 2.0), [1.0, "a"], [float("inf")], [1.0] * 100]
    read_only = np.arange(3.0)
    read_only.flags.writeable = False
    lists += [np.arange(3.0), np.arange(3, dtype=np.int8), np.arange(3, dtype=">f8"), np.array([1, "a"], dtype=object)]
    lists += [np.zeros(2, dtype=[("a", "f8")]), np.float64(1.0), np.arange(4.0)[::2], read_only, np.ma.arange(3.0)]
    lists += [np.arange(3.0, dtype=np.float16), np.array([True]), np.array(2.5), np.zeros((2, 0))]
    for obj in lists:
        assert _outcome(lambda: asarray(runtime, obj)) == _outcome(lambda: asarray.fallback(runtime, obj))
        for kwargs in ({"dtype": ns.float32}, {"copy": True}, {"copy": False}, {"copy": 1}, {"device": None}):
            _same_as_python(asarray, runtime, obj, **kwargs)
        for copy in (None, True, False):  # as CPython 3.11's forwarding function passes keywords
            kwargs = {"dtype": None, "device": None, "copy": copy}
            _same_as_python(asarray, runtime, obj, **kwargs)
    for x in arrays:
        for kwargs in ({"copy": True}, {"dtype": None, "device": None, "copy": True}, {"copy": None}):
            _same_as_python(asarray, runtime, x, **kwargs)


_ARANGE_CALLS = [(10,), (0,), (1 << 22,), ((1 << 22) + 1,), (-1,), (True,), (2**70,), (2.5,), (10, None)]
_ARANGE_CALLS += [(0.0, 10, 1.0), (0.0, 10), (1, 2.5), (1, 2.5, 0.25), (10.0, 0, -0.7), (0.0, 1.0, 0.1)]
_ARANGE_CALLS += [(-0.0, 3, 1.0), (0.1, 0.4, 0.1), (1.0, 1.3, 0.1), (0, 1, 0.1), (3, 1.0), (0.0, -5.0)]
_ARANGE_CALLS += [(2**53, 2**53 + 4, 1.0), (2**53 + 1, 2**53 + 4, 1.0), (-(2**53), 0.5, 2**52), (0, 10, 1)]
_ARANGE_CALLS += [(0.0, 1.0, 0.0), (0.0, math.inf, 1.0), (math.nan, 1.0, 0.5), (0.0, 1.0, math.inf), (0.0, 1.0, 0)]
_ARANGE_CALLS += [(True, 2.5, 1.0), (0.0, 1e300, 1e-300), (1e300, -1e300, -1e299), (0.0, float(1 << 22), 1.0)]
_ARANGE_CALLS += [(0.0, float(1 << 22) + 1, 1.0), (np.float64(0.0), 3.0), (0.0, 3.0, np.float64(1.0)), (0.0, "3")]


@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_arange_matches_its_python_function(ns):
    """arange's compiled plain cases (n; float bounds) against the Python function, bit for bit,
    at the edges: 2**53, lengths where NumPy overshoots, the length limit, and what they hand back."""
    runtime = ns._runtime
    path = type(runtime).arange
    assert isinstance(path, _core.FastPath)
    rng = np.random.default_rng(15)
    drawn = [
        (float(a), float(a + n * s), float(s))
        for a, n, s in zip(rng.normal(0, 50, 300), rng.integers(0, 40, 300), rng.choice([-1, 1], 300) * rng.random(300))
    ]
    for bounds in _ARANGE_CALLS + drawn:
        slow = _outcome(lambda b=bounds: path.fallback(runtime, *b))
        assert _outcome(lambda b=bounds: path(runtime, *b)) == slow, bounds
    for keywords in ({"dtype": ns.float32}, {"step": 0.5}, {"device": ns.__array_namespace_info__().default_device()}):
        slow = _outcome(lambda k=keywords: path.fallback(runtime, 0.0, 3.0, **k))
        assert _outcome(lambda k=keywords: path(runtime, 0.0, 3.0, **k)) == slow, keywords
    # with a dtype, in the call's own form and as CPython 3.11 forwards it (every parameter given)
    dtypes = [None, bool, "int8", xp.float64 if ns is tx else xp.float32, *runtime.dtypes]
    for bounds in _ARANGE_CALLS + [(128,), (129,), (-129, -120), (250, 260), (0, 10, 3), (2**31 - 2, 2**31 + 1)]:
        for dtype in dtypes:
            for forwarded in (False, True):
                if forwarded:
                    b = (bounds + (None, 1)[len(bounds) - 1 :]) if len(bounds) < 3 else bounds
                    kwargs = {"dtype": dtype, "device": None}
                else:
                    b, kwargs = bounds, ({} if dtype is None else {"dtype": dtype})
                slow = _outcome(lambda b=b, k=kwargs: path.fallback(runtime, *b, **k))
                assert _outcome(lambda b=b, k=kwargs: path(runtime, *b, **k)) == slow, (bounds, dtype, forwarded)
    for keywords in ({"stop": 3.0}, {"stop": 3, "step": 2}, {"step": 2}, {"stop": None, "step": 1}, {"start": 1}):
        for start in (0, 0.0):
            slow = _outcome(lambda k=keywords, s=start: path.fallback(runtime, s, **k, dtype=runtime.dtypes[-1]))
            assert _outcome(lambda k=keywords, s=start: path(runtime, s, **k, dtype=runtime.dtypes[-1])) == slow
    assert _outcome(lambda: path(runtime, 1, 2, stop=3))[0] == "error"


@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_zeros_ones_and_empty_like_match_their_python_functions(ns):
    arrays, scalars = _operands(ns)
    runtime = ns._runtime
    for name in ("zeros_like", "ones_like", "empty_like"):
        path = getattr(type(runtime), name)
        assert isinstance(path, _core.FastPath)
        for x in arrays + scalars[:4] + [np.ones(3)]:
            for kwargs in ({}, {"dtype": None, "device": None}, {"dtype": runtime.dtypes[0]}, {"device": DEVICE1}):
                slow = _outcome(lambda: path.fallback(runtime, x, **kwargs))
                fast = _outcome(lambda: path(runtime, x, **kwargs))
                if name == "empty_like" and fast[0] == "ok":  # (uninitialised values)
                    slow, fast = slow[:5], fast[:5]
                assert fast == slow, (name, x, kwargs)


@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_zeros_ones_and_empty_match_their_python_functions(ns):
    runtime = ns._runtime
    shapes = [0, 3, (2, 3), (), (0, 4), 1 << 22, (1 << 22) + 1, (2, -1), -1, [2, 3], True, (2.0,), np.int64(2)]
    dtypes = [None, bool, "float32", xp.float64 if ns is tx else xp.float32, *runtime.dtypes]
    for name in ("zeros", "ones", "empty"):
        path = getattr(type(runtime), name)
        assert isinstance(path, _core.FastPath)
        for shape in shapes:
            for dtype in dtypes if shape not in (1 << 22, (1 << 22) + 1) else [None, runtime.dtypes[0]]:
                for kwargs in ({} if dtype is None else {"dtype": dtype}, {"dtype": dtype, "device": None}):
                    slow = _outcome(lambda s=shape, k=kwargs: path.fallback(runtime, s, **k))
                    fast = _outcome(lambda s=shape, k=kwargs: path(runtime, s, **k))
                    if name == "empty" and fast[0] == "ok":  # (uninitialised values)
                        slow, fast = slow[:5], fast[:5]
                    assert fast == slow, (name, shape, dtype, kwargs)
        assert _outcome(lambda path=path: path(runtime, 3, order="C"))[0] == "error"
        assert _outcome(lambda path=path: path(runtime, 3, device=DEVICE1)) == _outcome(
            lambda path=path: path.fallback(runtime, 3, device=DEVICE1)
        )
    assert (
        _outcome(lambda: path(runtime))[0] == "error"
        and _outcome(lambda: path(runtime, 0.0, 1.0, 1.0, 1.0))[0] == "error"
    )


def test_half_made_arrays_and_odd_runtimes_go_to_the_python_functions():
    """An Array made by object.__new__ (no slots set) or with a slot deleted, or a runtime whose
    table is no dict: the compiled path reads nothing it cannot, the Python function answers."""
    empty = object.__new__(Array)
    no_device = xp.asarray([1.0, 2.0])
    del no_device._device
    odd = xp.asarray([1.0, 2.0])

    class OddRuntime:
        _fast = []

    odd._runtime = OddRuntime()
    x = xp.asarray([1.0, 2.0])
    runtime = x._runtime
    for bad in (empty, no_device, odd):
        for dunder in ("__add__", "__radd__", "__iadd__", "__gt__", "__neg__", "__getitem__"):
            path = vars(Array)[dunder]
            rest = () if dunder == "__neg__" else (x if dunder != "__getitem__" else 0,)
            assert _outcome(lambda: path(bad, *rest)) == _outcome(lambda: path.fallback(bad, *rest))
        assert _outcome(lambda: x + bad) == _outcome(lambda: vars(Array)["__add__"].fallback(x, bad))
        assert _outcome(lambda: x[bad]) == _outcome(lambda: vars(Array)["__getitem__"].fallback(x, bad))
        for name, args in (("add", (bad, x)), ("add", (x, bad)), ("sin", (bad,)), ("result_type", (x, bad))):
            path = getattr(type(runtime), name)
            assert _outcome(lambda: path(runtime, *args)) == _outcome(lambda: path.fallback(runtime, *args))


def test_a_slice_is_a_view_and_an_element_a_copy_as_before():
    x = xp.asarray([1.0, 2.0, 3.0])
    view, element = x[0:2], x[0]
    x[...] = 9.0 * xp.ones(3)
    assert view._data.tolist() == [9.0, 9.0] and float(element) == 1.0


def test_the_compiled_paths_are_built_where_ci_asks_for_them():
    """``.ci/run`` sets ARRAY_API_PROMO_REQUIRE_COMPILED: a build that silently failed there is an error."""
    if os.environ.get("ARRAY_API_PROMO_REQUIRE_COMPILED") != "1":
        pytest.skip("only where the compiled paths are required")
    assert _core.COMPILED


def test_pure_python_mode_turns_them_off():
    code = "import array_api_promo._core as c, array_api_promo as xp; print(c.COMPILED, xp.asarray([1.0]) + 1.0)"
    env = dict(os.environ, ARRAY_API_PROMO_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split()[0] == "False" and "2." in out


def _dtypes_of(ns):
    info = ns.__array_namespace_info__()
    return list(info.dtypes().values())


@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_an_element_of_a_vector_is_a_copy_of_its_bytes_in_every_dtype(ns):
    """x[i] of a 1-d array (made in C from the element's bytes): the Python function's result, a
    0-d array that owns a copy, for every dtype (bfloat16 under torch), strided and reversed views,
    a column of a matrix, and NaN payloads."""
    getitem = vars(Array)["__getitem__"]
    nan_payload = np.array([0x7FF8_0000_0000_0001, 0xFFF0_0000_0000_0002], dtype=np.uint64).view(np.float64)
    for dtype in _dtypes_of(ns):
        base = ns.astype(ns.reshape(ns.arange(12), (3, 4)), dtype)
        vectors = [ns.reshape(base, (12,)), base[0, :], base[:, 1], ns.reshape(base, (12,))[::-3]]
        for x in vectors:
            n = x.shape[0]
            for i in [0, 1, n - 1, -1, -n]:
                fast, slow = getitem(x, i), getitem.fallback(x, i)
                assert _outcome(lambda: fast) == _outcome(lambda: slow), (dtype, i)
                assert fast._data.flags.owndata and fast._data.flags.writeable and fast._data.base is None
                assert fast._data.dtype == slow._data.dtype and fast._data.shape == ()
    x = ns.asarray(nan_payload)
    assert getitem(x, 0)._data.tobytes() == nan_payload[:1].tobytes()
    assert getitem(x, -1)._data.tobytes() == nan_payload[1:].tobytes()


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")  # the overflow is the case under test
@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_a_python_float_with_a_float64_array_gives_the_bytes_of_its_numpy_float64(ns):
    """A float64 array with a Python float: the C path hands NumPy the float itself (no
    numpy.float64 made), which NumPy computes as the float64 scalar.  Every operator, forward,
    reflected and in place, 1-d and 0-d arrays, signed zeros, subnormals, the largest finite
    double, ints that convert by float() and floats just outside the range (the policy's
    conversion): the Python function's result, byte for byte, or its error."""
    arrays = [ns.asarray([1.5, -0.0, 0.0, 5e-324, -1.7976931348623157e308, 3.0]), ns.asarray(-0.0), ns.asarray(7.25)]
    floats = [0.0, -0.0, 1.0, -2.5, 1 / 3, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308]
    floats += [-1.7976931348623157e308, 1e300, float("inf"), float("nan"), 2, -7, True, 2**53 + 1, 2**63 - 1]
    checked = 0
    for dunder in BINARY + REFLECTED:
        path = vars(Array)[dunder]
        for x in arrays:
            for value in floats:
                slow = _same_as_python(path, x, value)
                assert _outcome(lambda: path(x, value)) == slow, (dunder, x, value)  # the plan remembered
                checked += 1
    for dunder in INPLACE:
        path = vars(Array)[dunder]
        for x in arrays:
            for value in floats:
                x1, x2 = _fresh(x), _fresh(x)
                assert _outcome(lambda: path(x1, value)) == _outcome(lambda: path.fallback(x2, value)), (dunder, value)
                assert x1._data.tobytes() == x2._data.tobytes()
    assert checked > 1000


def test_the_last_plan_a_path_found_is_for_its_runtime_only():
    """Each compiled path remembers the plan it found last: alternating namespaces whose policies
    decide differently (int8 + 1.5: refused by the standard, float32 under torch), and operand
    dtypes, gives what the Python function gives every time."""
    user = xp.namespace(type("UserPolicy", (xp.promotion.TorchPolicy,), {"name": "user_torch"})())
    spaces = [xp, tx, user, tx, xp]
    add = vars(Array)["__add__"]
    sin = vars(type(xp._runtime))["sin"] if "sin" in vars(type(xp._runtime)) else type(xp._runtime).sin
    for dtype in ("int8", "float32"):
        for other in (1.5, 2, "itself", "int8"):
            for ns in spaces:  # the same key, one runtime after another
                x = ns.asarray([1, 2], dtype=getattr(ns, dtype))
                y = x if other == "itself" else ns.asarray([3, 4], dtype=ns.int8) if other == "int8" else other
                slow = _same_as_python(add, x, y)
                assert _outcome(lambda: x + y) == slow, (ns, dtype, other)
            for ns in spaces:
                x = ns.asarray([1, 2], dtype=getattr(ns, dtype))
                assert _outcome(lambda: sin(ns._runtime, x)) == _outcome(lambda: sin.fallback(ns._runtime, x))
    # result_type under torch depends on which operand is 0-d: float32 with a 0-d float64 is float32
    result_type = type(tx._runtime).result_type
    f32, f64, f64_0d = (
        tx.asarray(v, dtype=d) for v, d in [([1.0], tx.float32), ([1.0], tx.float64), (1.0, tx.float64)]
    )
    for x1, x2 in [(f32, f64_0d), (f32, f64), (f32, f64_0d), (f64_0d, f32), (f64, f32), (f32, f64_0d)] * 2:
        for runtime in (tx._runtime, xp._runtime, tx._runtime):
            _same_as_python(result_type, runtime, x1, x2)
    assert result_type(tx._runtime, f32, f64_0d) is tx.float32 and result_type(tx._runtime, f32, f64) is tx.float64
    # and so does x + y: the plan remembered for float32 + 0-d float64 is not the one for two 1-d arrays
    add = vars(Array)["__add__"]
    for x1, x2 in [(f32, f64_0d), (f32, f64), (f32, f64_0d), (f64_0d, f32), (f64, f32), (f32, f64_0d)] * 2:
        slow = _outcome(lambda: add.fallback(x1, x2))
        assert _outcome(lambda: x1 + x2) == _outcome(lambda: add(x1, x2)) == slow, (x1, x2)
    assert (f32 + f64_0d).dtype is tx.float32 and (f32 + f64).dtype is tx.float64


def test_a_remembered_plan_keeps_no_namespace_alive():
    import gc
    import weakref

    from array_api_promo import namespace, promotion

    policy = type("Dropped", (promotion.ArrayAPIPolicy,), {"name": "dropped"})()
    ns = namespace(policy, "2024.12")
    a = ns.asarray([1.0, 2.0])
    assert ((a + a) + 1.0)[0] > 0 and ns.sin(a)[0] >= 0
    refs = weakref.ref(ns), weakref.ref(ns._runtime), weakref.ref(policy)
    del ns, a, policy
    gc.collect()
    assert [r() for r in refs] == [None, None, None]


@pytest.mark.skipif(not getattr(_core, "UNTRACKED_ARRAYS", False), reason="arrays are tracked on this Python")
def test_arrays_are_untracked_and_released_in_full():
    """Where arrays are out of the garbage collector (CPython 3.10 and 3.11): weak references
    still work and die with the array, a subclass's instances are tracked and released, and
    nothing an array held keeps a reference after many arrays come and go."""
    import gc
    import weakref

    a = xp.asarray([1.0, 2.0]) + 1.0
    assert not gc.is_tracked(a)
    ref = weakref.ref(a)
    del a
    assert ref() is None

    class Sub(Array):
        pass

    s = Sub._new(np.ones(2), xp.float64, xp._runtime, xp.asarray(1.0)._device)
    s.extra = [s]  # a cycle through the subclass's own dict: the collector frees it
    ref = weakref.ref(s)
    del s
    gc.collect()
    assert ref() is None

    x, y = xp.asarray([1.0, 2.0]), tx.asarray([1, 2], dtype=tx.int8)
    held = [x._data, x._dtype, x._runtime, x._device, y._dtype, y._runtime, xp.float64, tx.float32]

    def use(n):  # the first round fills the tables and each path's last plan
        for _ in range(n):
            (x + x, x + 1.0, 2.0 * x, -x, x[0], x[0:1], x > x, xp.sin(x), xp.add(x, x))
            (y + 1.5, y[1], tx.astype(y, tx.float32), y[y > 1])
            x.__iadd__(1.0)

    use(2)
    before = [sys.getrefcount(o) for o in held]
    use(2000)
    assert [sys.getrefcount(o) for o in held] == before


def test_make_array_is_new_array_in_c():
    """The compiled new_array (also Array._new's for the class itself): an exact Array of the four
    slots given (the CPU by default), holding a reference to each, released with it; a subclass's
    _new makes an instance of the subclass; a wrong call says what it takes."""
    from array_api_promo import _array

    assert _array.new_array is _core.make_array
    data, dtype, runtime, cpu = np.arange(3.0), xp.float64, xp.asarray(1.0)._runtime, xp.asarray(1.0)._device
    device = xp.asarray(1.0).to_device(xp.DEVICE1)._device
    held = [data, dtype, runtime, cpu, device]
    before = [sys.getrefcount(o) for o in held]
    made = [_core.make_array(data, dtype, runtime), _core.make_array(data, dtype, runtime, device)]
    made.append(Array._new(data, dtype, runtime, device))
    for a, on in zip(made, (cpu, device, device)):
        assert type(a) is Array and a._data is data and a._dtype is dtype and a._runtime is runtime and a._device is on
    del made, a, on
    assert [sys.getrefcount(o) for o in held] == before

    class Sub(Array):
        pass

    assert type(Sub._new(data, dtype, runtime)) is Sub
    with pytest.raises(TypeError, match=r"make_array\(data, dtype, runtime\[, device\]\)"):
        _core.make_array(data, dtype)


def test_the_array_attributes_read_in_c_are_the_properties():
    """x.dtype, x.device, x.ndim, x.size, x.shape, x.T and x.mT, read by the compiled build's
    getters (where the class has them), give what the Python properties give: the same values,
    the same views, the same refusals, for a subclass's instance and when set or deleted."""

    class Sub(Array):
        pass

    def outcome(f):
        try:
            value = f()
        except Exception as e:
            return type(e), str(e)
        if type(value) is Array or type(value) is Sub:
            data = value._data
            return data.shape, data.strides, data.__array_interface__["data"], value._dtype, value._device
        return value

    views = {"T": Array._transposed, "mT": Array._matrix_transposed}
    for ns in (xp, tx):
        for shape in ((), (3,), (2, 3), (2, 3, 4), (0, 2)):
            base = ns.reshape(ns.arange(math.prod(shape), dtype=ns.float32), shape)
            for x in (base, Sub._new(base._data, base._dtype, base._runtime, base._device)):
                expected = {
                    "dtype": lambda: x._dtype,
                    "device": lambda: x._device,
                    "ndim": lambda: x._data.ndim,
                    "size": lambda: x._data.size,
                    "shape": lambda: x._data.shape,
                    **{name: (lambda view=view: view(x)) for name, view in views.items()},
                }
                for name, general in expected.items():
                    assert outcome(lambda: getattr(x, name)) == outcome(general), (ns, shape, name)
                    for change in (lambda: setattr(x, name, 1), lambda: delattr(x, name)):
                        with pytest.raises(AttributeError, match=name):
                            change()


@pytest.mark.skipif(not getattr(_core, "UNTRACKED_ARRAYS", False), reason="arrays are tracked on this Python")
def test_a_released_0d_array_is_reused_only_when_nothing_else_can_see_it():
    """The 0-d data of a released array is kept for the next 0-d result (x[i], a 0-d operation)
    only when the array alone held it and it is as NumPy made it: data that the user still
    holds, holds by a weak reference, or made read-only is never written again."""
    import weakref

    for ns, dtype in ((xp, xp.float64), (xp, xp.int8), (tx, tx.complex64), (tx, tx.bool)):
        x = ns.asarray(np.arange(6) % 2 if dtype == ns.bool else np.arange(6), dtype=dtype)
        values = [x[i] for i in range(6)]
        assert [np.asarray(v)[()] for v in values] == list(np.asarray(x))
        held = np.asarray(x[1])  # the user's reference to the data of a released array
        watched = np.asarray(x[2])
        ref = weakref.ref(watched)
        frozen = np.asarray(x[3])
        frozen.flags.writeable = False
        del watched, frozen
        fresh = [x[i] for i in (4, 5, 0, 4, 5, 0)] + [x[0] + x[4] * x[5] for _ in range(3)]
        assert held[()] == np.asarray(x)[1]
        assert ref() is None or ref()[()] == np.asarray(x)[2]
        for f in fresh:
            data = np.asarray(f)
            assert data.flags.writeable and data.flags.owndata and data.base is None and data.ndim == 0
        assert [np.asarray(f)[()] for f in fresh[:6]] == list(np.asarray(x)[[4, 5, 0, 4, 5, 0]])
        y = x[1]
        y[()] = x[2]  # writing into one result changes no other
        assert np.asarray(x[1])[()] == np.asarray(x)[1] and held[()] == np.asarray(x)[1]


def test_a_matrix_product_is_numpys_matmul_bit_for_bit():
    """x @ y of two float or complex matrices (a small one by matmul's own loop, without the
    generalized ufunc's set-up) is bit for bit NumPy's matmul, for every shape around BLAS's
    blocking, special values included, and on strided, transposed and repeated operands."""
    rng = np.random.default_rng(12)
    sizes = [1, 2, 3, 5, 8, 17, 32, 33, 64, 65]
    for dtype in (np.float32, np.float64, np.complex64, np.complex128):
        for m, k, n in itertools.product(sizes, repeat=3):
            if rng.random() > 0.25:  # a quarter of the 1,000 shapes per dtype, a different quarter per dtype
                continue
            a = rng.standard_normal((m, k)).astype(dtype)
            b = rng.standard_normal((k, n)).astype(dtype)
            if dtype in (np.complex64, np.complex128):
                a = a + 1j * rng.standard_normal((m, k)).astype(dtype)
            flat = a.reshape(-1)
            flat[rng.integers(0, flat.size, 2)] = [np.nan, np.inf]
            b.reshape(-1)[0] = np.finfo(dtype).tiny / 3  # a subnormal
            x, y = xp.asarray(a), xp.asarray(b)
            with np.errstate(invalid="ignore", over="ignore"):  # NaN times inf: the warning is not compared
                assert (x @ y)._data.tobytes() == np.matmul(a, b).tobytes(), (dtype, m, k, n)
    m = rng.standard_normal((6, 6))
    x = xp.asarray(m)
    for left, right in [(x, x), (x, x.mT), (x.mT, x), (x[::2, :], x[:, ::2]), (x[:, :1].mT, x[:, :1])]:
        assert (left @ right)._data.tobytes() == np.matmul(left._data, right._data).tobytes()


def test_the_subscript_slot_follows_the_class():
    """x[key] goes from CPython's subscript slot straight to the __getitem__ fast path; a subclass
    without its own __getitem__ takes the Python function for its instances, one with its own
    __getitem__ uses it, and so does Array itself once __getitem__ is replaced."""
    x = xp.asarray([1.0, 2.0, 3.0])

    class Plain(Array):
        __slots__ = ()

    class Own(Array):
        __slots__ = ()

        def __getitem__(self, key):
            return "own"

    plain = Plain._new(x._data, x._dtype, x._runtime, x._device)
    own = Own._new(x._data, x._dtype, x._runtime, x._device)
    assert _outcome(lambda: plain[1]) == _outcome(lambda: Array.__getitem__.fallback(plain, 1))
    assert own[1] == "own"
    original = vars(Array)["__getitem__"]
    try:
        Array.__getitem__ = lambda self, key: "replaced"
        assert x[1] == "replaced"
    finally:
        Array.__getitem__ = original
    assert float(x[1]) == 2.0 and x[1:]._data.tolist() == [2.0, 3.0]


@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_reshape_and_flip_match_their_python_functions(ns):
    arrays, scalars, runtime, reshape, flip = _fast_paths(ns, "reshape", "flip")
    grid = ns.reshape(ns.arange(12.0), (3, 4))
    read_only = ns.asarray(np.arange(6.0))
    read_only._data.flags.writeable = False
    arrays = arrays + [grid, grid.mT, grid[:, ::2], read_only, ns.asarray(np.zeros((2, 0)))] + scalars[:3]
    shapes = [(3,), (-1,), (3, 1), (1, -1), (), (-2, 3), (-1, -1), (0, -1), (2**63,), [3], (3.0,), (True,), 3, None]
    shapes += [(2, 2), (4, 3), (2, 6), (2, -1, 2), (2, 0, 3), (1,) * 64, (1,) * 65]
    for x in arrays:
        for shape in shapes:
            for kwargs in ({}, {"copy": None}, {"copy": True}, {"copy": False}, {"order": "C"}):
                _same_as_python(reshape, runtime, x, shape, **kwargs)
        for axis in (None, 0, 1, -1, -2, 2, 2**70, True, (0,), np.int64(0)):
            for kwargs in ({} if axis is None else {"axis": axis}, {"axis": axis}, {"axes": axis}):
                _same_as_python(flip, runtime, x, **kwargs)
    assert _outcome(lambda: reshape(runtime, grid))[0] == "error" and _outcome(lambda: flip(runtime))[0] == "error"


@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_concat_and_where_match_their_python_functions(ns):
    arrays, scalars, runtime, concat, where = _fast_paths(ns, "concat", "where")
    read_only = ns.asarray(np.arange(3.0))
    read_only._data.flags.writeable = False
    pool = arrays + [read_only]
    for a, b in itertools.product(pool, repeat=2):
        for sequence in ([a, b], (a, b), [a], [a, b, a]):
            for kwargs in ({}, {"axis": 0}, {"axis": -1}, {"axis": 1}, {"axis": None}, {"axis": 2**70}, {"axis": 0.0}):
                _same_as_python(concat, runtime, sequence, **kwargs)
    assert _outcome(lambda: concat(runtime, [])) == _outcome(lambda: concat.fallback(runtime, []))
    assert _outcome(lambda: concat(runtime, [arrays[0]], axes=0))[0] == "error"
    masks = [ns.asarray([True, False, True]), ns.asarray(True), ns.asarray([1, 0, 1]), read_only > 1.0]
    masks += [xp.asarray([True, False, True]) if ns is tx else tx.asarray([True, False, True])]
    for _ in range(2):  # the first round fills the plans the second one reads
        for condition in masks:
            for x1, x2 in itertools.product(pool + scalars[:6], repeat=2):
                _same_as_python(where, runtime, condition, x1, x2)


@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_full_and_full_like_match_their_python_functions(ns):
    arrays, scalars, runtime, full, full_like = _fast_paths(ns, "full", "full_like")
    values = scalars[:16] + [np.float64(1.0), ns.asarray(2.0)]
    dtypes = [None, bool, "int8", xp.float64 if ns is tx else xp.float32, *runtime.dtypes]
    for dtype in dtypes:
        for forwarded in (False, True):
            kwargs = {"dtype": dtype, "device": None} if forwarded else ({} if dtype is None else {"dtype": dtype})
            for value in values:
                for shape in (3, (2, 2), (), 0, -1, [2], (1 << 22) + 1):
                    _same_as_python(full, runtime, shape, value, **kwargs)
                for x in arrays + [1.5]:
                    _same_as_python(full_like, runtime, x, value, **kwargs)
    assert _outcome(lambda: full(runtime, 3, 1.0, order="C"))[0] == "error"
    assert _outcome(lambda: full(runtime, 3, 1.0, device=DEVICE1)) == _outcome(
        lambda: full.fallback(runtime, 3, 1.0, device=DEVICE1)
    )


@pytest.mark.parametrize("policy", ["array_api", "torch", "numpy", "jax"])
def test_a_python_scalar_with_an_array_of_its_kind_gives_the_bytes_of_its_numpy_scalar(policy):
    """An array with a Python scalar of its dtype's kind (an int with an integer array, a float with
    a float array, ...), to a ufunc: the C path hands NumPy the scalar itself, which NumPy converts
    to the array's dtype (NEP 50).  Every operator, forward, reflected and in place, 1-d and 0-d, each
    dtype, the values at its bounds and just outside (the policy's conversion): the Python
    function's result, byte for byte, or its error."""
    ns = xp.namespace(policy)
    checked = 0
    for name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32"):
        if not hasattr(ns, name):
            continue
        dtype = getattr(ns, name)
        numpy_dtype = np.dtype(name)
        if numpy_dtype.kind == "f":
            info = np.finfo(numpy_dtype)
            values = [0.0, -0.0, 1.5, float(info.max), float(-info.max), float(info.max) * 2, float(info.tiny) / 4]
            values += [float("nan"), float("inf"), 3, True]
        else:
            info = np.iinfo(numpy_dtype)
            values = [0, 1, -1, 7, int(info.min), int(info.max), int(info.min) - 1, int(info.max) + 1, True, 2.5]
        arrays = [ns.asarray([1, 2, 3], dtype=dtype), ns.asarray(5, dtype=dtype)]
        for x in arrays:
            for value in values:
                for dunder in BINARY[:13] + REFLECTED:
                    path = vars(Array)[dunder]
                    _same_as_python(path, x, value)
                    checked += 1
                for dunder in INPLACE:
                    path = vars(Array)[dunder]
                    x1, x2 = _fresh(x), _fresh(x)
                    assert _outcome(lambda: path(x1, value)) == _outcome(lambda: path.fallback(x2, value))
                    assert x1._data.tobytes() == x2._data.tobytes(), (dunder, x, value)
    complex_x = ns.asarray([1 + 2j, -0.0j])
    for value in (1j, -2.5 + 0j, complex("nan+infj"), 3.0, 2):
        for dunder in ("__add__", "__mul__", "__radd__", "__rtruediv__", "__eq__"):
            _same_as_python(vars(Array)[dunder], complex_x, value)
    bools = ns.asarray([True, False])
    for value in (True, False, 1, 1.0):
        for dunder in ("__and__", "__or__", "__rxor__", "__eq__", "__add__"):
            _same_as_python(vars(Array)[dunder], bools, value)
    assert checked > 2000


def test_a_guarded_kernel_is_its_python_code_where_the_fact_holds_and_elsewhere():
    """The special-value kernels that call their ufunc in C when a fact about the operands holds
    (no zero divisor, no negative shift or exponent, finite operands, an exponent not 0-d) give
    what their Python code gives: values, dtype, warnings and errors, for operands where the fact
    holds, where it fails, and where the C code cannot read them (non-contiguous, byte-swapped)."""
    from array_api_promo import _special_values as special

    guarded = [k for k in special.UFUNC_OF if type(k) is not type(special.floor_divide)]
    guarded += [special.special_kernel(name, "int64", xp._runtime.policy) for name in ("pow", "bitwise_left_shift")]
    guarded += [special.special_kernel("floor_divide", "int32", tx._runtime.policy)]
    assert len(guarded) >= 9 and all(hasattr(k, "__wrapped__") for k in guarded), guarded
    ints = [np.array([7, -3, 0, 5], dtype=t) for t in ("int8", "int16", "int32", "int64")]
    ints += [np.array([7, 250, 0, 5], dtype=t) for t in ("uint8", "uint64")]
    ints += [np.array([7, 3, 2, 5], dtype=t) for t in ("int8", "int64", "uint16")]
    ints += [np.array(2, dtype="int64"), np.array(0, dtype="int32"), np.array([6, 0, 4, 2, 9, 1, 3, 8])[::2]]
    ints += [np.array([2, 3, 1, 4], dtype=">i8")]
    floats = [np.array([1.5, -2.0, 0.0, 4.0], dtype=t) for t in ("float32", "float64")]
    floats += [np.array([np.inf, 1.0, -0.0, 2.0]), np.array([np.nan, 1.0, 2.0, 3.0], dtype="float32")]
    floats += [np.array(0.5), np.array(-0.0), np.array([1.0, 5.0, 2.0, 8.0, 3.0, 1.0, 7.0, 1.0])[::2]]
    checked = 0
    for kernel in guarded:
        for a, b in itertools.product(ints + floats, repeat=2):
            fast, slow = _numpy_outcome(lambda: kernel(a, b)), _numpy_outcome(lambda: kernel.__wrapped__(a, b))
            assert fast == slow, (kernel, a, b)
            checked += 1
    assert checked > 1000


def test_a_guarded_kernel_tests_every_element_of_an_operand_of_any_length():
    """The facts' tests read a short operand without their vector accumulators and a longer one
    through them, then the elements left over, in one block or several: at every length around
    those edges, the ufunc is called exactly where NumPy finds the fact true (no zero divisor, no
    negative amount, no NaN or infinity in either operand), wherever the failing element is."""
    facts = {
        "nonzero_second": lambda x1, x2: bool(np.all(x2 != 0)),
        "nonnegative_second": lambda x1, x2: bool(np.all(x2 >= 0)),
        "finite_operands": lambda x1, x2: bool(np.all(np.isfinite(x1)) and np.all(np.isfinite(x2))),
    }
    guarded = {fact: _core.Guarded(np.add, lambda x1, x2: "kernel", fact) for fact in facts}
    rng = np.random.default_rng(7)
    checked = 0
    for n in [*range(0, 140), 255, 256, 257, 1000, 5000]:
        places = sorted({0, n // 2, n - 1, int(rng.integers(0, n))}) if n else []
        for t in ("int8", "int16", "int32", "int64", "uint8", "uint64", "float32", "float64"):
            integer = not t.startswith("float")
            a, b = np.ones(n, t), (np.arange(n) % 5 + 1).astype(t)
            operands = [(a, b)]
            for place in places:
                for bad in ((0, -1) if t[0] == "i" else (0,)) if integer else (np.nan, np.inf):
                    y = b.copy()
                    y[place] = bad
                    operands += [(a, y), (y, a)]
            for fact in ("nonzero_second", "nonnegative_second") if integer else ("finite_operands",):
                for x1, x2 in operands:
                    called_ufunc = not isinstance(guarded[fact](x1, x2), str)
                    assert called_ufunc == facts[fact](x1, x2), (fact, t, n, x1, x2)
                    checked += 1
    assert checked > 10000


def test_a_guarded_kernel_on_large_operands_is_its_python_code_block_by_block():
    """From 128 KiB, two operands of one shape and type are tested block by block, each block then
    given to the ufunc's own loop (run_blocks): the same outcome as the Python code where the fact
    holds, where it fails in the first or the last block only, and where the loop raises a
    floating-point flag (a zero divisor: NumPy's warning, from NumPy's own call)."""
    from array_api_promo import _special_values as special

    guarded = [k for k in special.UFUNC_OF if type(k) is not type(special.floor_divide)]
    guarded += [special.special_kernel(name, "int64", xp._runtime.policy) for name in ("pow", "bitwise_left_shift")]
    guarded += [special.special_kernel("floor_divide", "int32", tx._runtime.policy)]
    rng = np.random.default_rng(5)
    n = 3 * 65536 + 7  # several blocks of every element size, and a short last one
    pairs = []
    for t in ("int8", "int16", "int32", "int64", "uint8", "uint64"):
        a = rng.integers(1, 100, n).astype(t)
        for where, bad in ((None, None), (3, 0), (n - 1, 0), (n - 2, -1), (0, -3)):
            b = rng.integers(1, 7, n).astype(t)
            if where is not None and (bad >= 0 or t[0] == "i"):
                b[where] = bad
            pairs.append((a, b))
    for t in ("float32", "float64"):
        a, b = rng.standard_normal(n).astype(t), rng.standard_normal(n).astype(t) + 3
        for where, bad in ((None, None), (n - 1, np.inf), (5, np.nan), (n // 2, 0.0)):
            y = b.copy()
            if where is not None:
                y[where] = bad
            pairs.append((a, y))
            pairs.append((y, a))
    checked = 0
    for kernel in guarded:
        for a, b in pairs:
            if a.dtype != b.dtype:
                continue
            fast, slow = _numpy_outcome(lambda: kernel(a, b)), _numpy_outcome(lambda: kernel.__wrapped__(a, b))
            assert fast == slow, (kernel, a.dtype, b)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "int16", "int32", "int64", "uint8", "uint64"])
def test_clip_arrays_is_maximum_then_minimum_bit_for_bit(dtype):
    """clip_arrays (clip's three plain arrays of 128 KiB or more, block by block): minimum(maximum(x, lo),
    hi) bit for bit (signed zeros, infinities), None for crossed bounds in any block when asked to
    test them, and NotImplemented where the caller's code must answer (shapes or dtypes that differ,
    a non-contiguous operand, a small one, a floating-point flag left up)."""
    rng = np.random.default_rng(6)
    n = 3 * 65536 + 7
    x = (rng.standard_normal(n) * 40).astype(dtype)
    lo = (-np.abs(rng.standard_normal(n)) * 40).astype(dtype)
    hi = (np.abs(rng.standard_normal(n)) * 40).astype(dtype)
    if dtype.startswith("float"):
        x[::97], x[1::97], lo[::89], hi[::83], lo[3::89], hi[4::83] = 0.0, -0.0, -0.0, 0.0, 0.0, -0.0
        x[5::7], lo[6::11], x[8::13] = np.inf, -np.inf, -np.inf
    lo = np.where(lo > hi, hi, lo)
    clip = _core.clip_arrays
    for check in (True, False):
        out = clip(np.maximum, np.minimum, x, lo, hi, check)
        ref = np.minimum(np.maximum(x, lo), hi)
        assert type(out) is np.ndarray and out.dtype == ref.dtype and out.tobytes() == ref.tobytes()
    for where in (0, n // 2, n - 1):
        crossed = lo.copy()
        crossed[where] = hi[where] + 1 if hi[where] < 100 else crossed[where]
        assert clip(np.maximum, np.minimum, x, crossed, hi, True) is None
        assert (
            clip(np.maximum, np.minimum, x, crossed, hi, False).tobytes()
            == np.minimum(np.maximum(x, crossed), hi).tobytes()
        )
    if dtype.startswith("float"):
        nan = lo.copy()
        nan[7] = np.nan  # (where the comparison's flag outlives NumPy's loops: the caller's code)
        out = clip(np.maximum, np.minimum, x, nan, hi, True)
        assert out is NotImplemented or out.tobytes() == np.minimum(np.maximum(x, nan), hi).tobytes()
    assert clip(np.maximum, np.minimum, x, lo[:-1], hi[:-1], True) is NotImplemented  # (the shapes differ)
    assert clip(np.maximum, np.minimum, x, lo.astype("float16"), hi, True) is NotImplemented
    assert clip(np.maximum, np.minimum, x[::-1], lo, hi, True) is NotImplemented
    assert clip(np.maximum, np.minimum, x[:100], lo[:100], hi[:100], True) is NotImplemented  # (small: two calls)


def _numpy_outcome(call):
    """A NumPy call's result (dtype, shape, bytes) or error, with its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = np.asarray(call())
            result = ("ok", out.dtype, out.shape, out.tobytes())
        except Exception as exc:  # noqa: BLE001 - the error is the outcome
            result = ("error", type(exc), str(exc))
    return result, [(w.category, str(w.message)) for w in caught]


def test_a_quiet_kernel_is_its_python_code_in_every_error_state_and_thread():
    """vecdot's kernel, NumPy's vecdot entered into the thread's quiet context in C, gives what its
    Python code (``quiet_context().run``) gives: overflow and invalid silent whatever the caller's
    error state, divide-by-zero and underflow as the quiet context has them, in a new thread too,
    and the same error where the quiet context is already entered."""
    import threading

    from array_api_promo import _linear_algebra_functions as linalg
    from array_api_promo._runtime import quiet_context

    kernel = linalg._vecdot_kernel
    assert type(kernel) is _core.Quiet and kernel.__wrapped__ is np.vecdot
    operands = [np.array([1e200, 1e200]), np.array([np.inf, 1.0]), np.array([1e-200, 1e-200]), np.array([1.0, 2.0])]
    operands += [np.array([[1e38, 3e38]], dtype=np.float32), np.array([2**62, 2**62]), np.ones(3)]
    outcomes = []

    def compare():
        for mode in ("raise", "warn", "ignore"):
            with np.errstate(all=mode):
                for a, b in itertools.product(operands, repeat=2):
                    fast, slow = (
                        _numpy_outcome(lambda: kernel(a, b)),
                        _numpy_outcome(lambda: linalg._quiet_vecdot(a, b)),
                    )
                    outcomes.append(fast == slow)
                    assert fast == slow, (mode, a, b)

    compare()
    thread = threading.Thread(target=compare)
    thread.start()
    thread.join()
    assert len(outcomes) == 2 * 3 * len(operands) ** 2 and all(outcomes)
    a = operands[0]
    nested = _numpy_outcome(lambda: quiet_context().run(kernel, a, a))
    assert nested == _numpy_outcome(lambda: quiet_context().run(linalg._quiet_vecdot, a, a))
    assert nested[0][0] == "error"


_LOOP_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
_LOOP_DTYPES += ["float32", "float64", "complex64", "complex128"]


def _loop_values(dtype):
    """Seven elements of dtype with its edges: zeros, signs, extremes, NaN and infinities."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return np.array([True, False, True, True, False, False, True])
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return np.array([0, 1, 3, 7, info.max, info.min, info.max // 2 + 1], dtype=dt)
    big = np.finfo(dt).max / 2
    values = np.array([0.0, -0.0, 1.5, -2.25, np.inf, np.nan, big], dtype=dt)
    if dt.kind == "c":
        values.imag = [1, -0.0, np.nan, 2, -np.inf, 0, big]
    return values


def test_a_small_ufunc_call_runs_numpys_own_loop_and_gives_numpys_result():
    """``loop_call``, the compiled paths' small call of a NumPy ufunc by its inner loop, gives
    NumPy's own call's result (dtype, shape, bytes, a new C-contiguous array) wherever it gives one,
    for every NumPy ufunc of one output and every dtype of the standard, on arrays of one shape, a
    0-d array with another, and Python and NumPy scalars; and it gives one only where NumPy's call
    neither warns nor raises, in every error state (elsewhere it hands the call back, so that the
    warning is NumPy's)."""
    loop_call = _core.loop_call
    ufuncs = sorted({f for f in vars(np).values() if isinstance(f, np.ufunc) and f.nout == 1 and f.nin <= 2}, key=str)
    direct = total = 0
    for ufunc, dtype, mode in itertools.product(ufuncs, _LOOP_DTYPES, ("raise", "warn")):
        edges = _loop_values(dtype)
        tame = np.array([1, 2, 3, 1, 2, 3, 1], dtype=dtype)  # (where the edges raise a flag in most ufuncs)
        v, w = np.concatenate([edges, tame]), np.concatenate([tame, edges[::-1]])
        scalars = [v[2], 1, -1, 300, 2**63, 2.5, 1e300, -1e-300, float("nan"), 1.5 - 2j, True]
        if ufunc.nin == 1:
            cases = [(v,), (tame,), (v.reshape(7, 2),), (np.asarray(v[3]),), (v[:0],)]
        else:
            cases = [
                (v, w),
                (tame, tame),
                (v, np.asarray(w[2])),
                (np.asarray(v[4]), w),
                (v.reshape(2, 7), w.reshape(2, 7)),
            ]
            cases += [(np.asarray(v[1]), np.asarray(w[1])), (v[:0], w[:0])]
            cases += [(v, s) for s in scalars] + [(s, w) for s in scalars] + [(tame, s) for s in scalars]
        for operands in cases:
            with np.errstate(all=mode):
                expected, caught = _numpy_outcome(lambda: ufunc(*operands))
                got = loop_call(ufunc, *operands)
            total += 1
            if got is NotImplemented:
                continue
            direct += 1
            assert type(got) is np.ndarray and got.flags.c_contiguous and got.flags.owndata, (ufunc, operands)
            assert not caught and expected[0] == "ok", (ufunc, dtype, mode, operands, caught, expected)
            assert ("ok", got.dtype, got.shape, got.tobytes()) == expected, (ufunc, dtype, operands)
    assert direct > total // 10, (direct, total)
    # every call on tame operands NumPy resolves without a cast is made by the loop
    for ufunc, dtype in itertools.product(ufuncs, _LOOP_DTYPES):
        tame = np.array([1, 2, 3], dtype=dtype)
        if ufunc.signature not in (None, "(n),(n)->()", "(n?,k),(k,m?)->(n?,m?)"):  # (vecdot's and matmul's taken)
            assert loop_call(ufunc, *(tame,) * ufunc.nin) is NotImplemented, ufunc
            continue
        try:
            resolved = ufunc.resolve_dtypes((tame.dtype,) * ufunc.nin + (None,))
        except TypeError:
            continue
        with np.errstate(all="raise"):
            try:
                ufunc(*(tame,) * ufunc.nin)
            except FloatingPointError:
                continue
        uncast = all(d == tame.dtype for d in resolved[: ufunc.nin])
        assert (loop_call(ufunc, *(tame,) * ufunc.nin) is not NotImplemented) == uncast, (ufunc, dtype)
    x = np.arange(10.0)
    assert type(loop_call(np.add, x, x)) is np.ndarray and type(loop_call(np.sin, x)) is np.ndarray
    assert loop_call(np.add, x, 1.0) is not NotImplemented and loop_call(np.less, 2.0, x) is not NotImplemented
    # not taken: a cast operand, a foreign or strided or large array, a generalized ufunc, a mixed scalar
    assert loop_call(np.add, x, x.astype(np.float32)) is NotImplemented
    assert loop_call(np.add, x[::2], x[::2]) is NotImplemented
    assert loop_call(np.add, np.arange(10**5.0), np.arange(10**5.0)) is NotImplemented
    assert (
        loop_call(np.matmul, x.reshape(1, 2, 5), x[:5]) is NotImplemented and loop_call(np.add, x, 1) is NotImplemented
    )
    assert type(loop_call(np.vecdot, x, x)) is np.ndarray and loop_call(np.vecdot, x, 1.0) is NotImplemented
    assert loop_call(np.true_divide, np.arange(3), np.arange(3)) is NotImplemented  # (NumPy casts to float64)
    with np.errstate(all="raise"):
        assert loop_call(np.divide, x, x) is NotImplemented  # 0/0: NumPy's own call raises


def _computes_in(ufunc, a, b) -> bool:
    """Whether NumPy resolves ufunc(a, b) to a loop whose output is a's dtype (x op= y without a
    cast of the result; b a Python scalar by its type, as NEP 50 weighs it)."""
    second = type(b) if type(b) in (int, float, complex) else np.asarray(b).dtype  # (a Python bool is no weak scalar)
    try:
        return ufunc.resolve_dtypes((a.dtype, second, None))[-1] == a.dtype
    except (TypeError, ValueError, OverflowError):
        return False


def test_a_small_inplace_ufunc_call_runs_numpys_own_loop_on_x_and_leaves_numpys_bytes():
    """``loop_call_inplace``, the compiled ``x op= y``'s small call of a NumPy ufunc by its loop on x's
    own memory, leaves in x what NumPy's ``ufunc(x, y, out=x)`` leaves (bytes), for every binary NumPy
    ufunc of one output and every dtype of the standard, on arrays of one shape, a 0-d one, x itself
    and Python and NumPy scalars, in every error state, wherever it makes the call; and it makes it
    only where NumPy's call neither warns nor raises, leaving x as it was otherwise (NumPy's call then
    runs on the x it was given)."""
    loop_call_inplace = _core.loop_call_inplace
    ufuncs = sorted({f for f in vars(np).values() if isinstance(f, np.ufunc) and f.nout == 1 and f.nin == 2}, key=str)
    made = total = 0
    for ufunc, dtype, mode in itertools.product(ufuncs, _LOOP_DTYPES, ("raise", "warn")):
        edges = _loop_values(dtype)
        tame = np.array([1, 2, 3, 1, 2, 3, 1], dtype=dtype)
        v, w = np.concatenate([edges, tame]), np.concatenate([tame, edges[::-1]])
        scalars = [v[2], 1, -1, 300, 2**63, 2.5, 1e300, -1e-300, float("nan"), 1.5 - 2j, True]
        cases = [(v, w), (tame, tame), (v, np.asarray(w[2])), (v.reshape(2, 7), w.reshape(2, 7)), (v, "itself")]
        cases += [(tame, "itself"), (v[:0], w[:0])] + [(v, s) for s in scalars] + [(tame, s) for s in scalars]
        for a, b in cases:
            mine, numpys = a.copy(), a.copy()
            mine_b, numpys_b = (mine, numpys) if isinstance(b, str) else (b, b)
            with np.errstate(all=mode):
                got = loop_call_inplace(ufunc, mine, mine_b)
                if not _computes_in(ufunc, a, numpys_b):  # (NumPy 2.0 crashes on some: equal(x, 2.5, out=x))
                    assert got is NotImplemented and mine.tobytes() == a.tobytes(), (ufunc, dtype, b)
                    continue
                expected, caught = _numpy_outcome(lambda: ufunc(numpys, numpys_b, out=numpys))
            total += 1
            if got is NotImplemented:
                assert mine.tobytes() == a.tobytes(), (ufunc, dtype, mode, b)  # untouched
                continue
            made += 1
            assert got is mine and not caught and expected[0] == "ok", (ufunc, dtype, mode, b, caught, expected)
            assert mine.tobytes() == numpys.tobytes(), (ufunc, dtype, mode, b)
    assert made > total // 10, (made, total)
    # random values, whose last bits tell loops apart (NumPy's in-place complex multiply of one
    # element differs from its loop's: a single element is left to NumPy's call)
    rng = np.random.default_rng(57)
    random_made = 0
    for ufunc, dtype in itertools.product(ufuncs, ("float32", "float64", "complex64", "complex128", "int64")):
        for shape, kind in itertools.product(
            [(1,), (2,), (3,), (17,), (2, 3), (1, 5)], ("array", "0-d", "py", "itself")
        ):
            a, b = (
                rng.standard_normal(shape) * 3 + (1j * rng.standard_normal(shape) if "c" in dtype else 0) for _ in "ab"
            )
            a, b = a.astype(dtype), b.astype(dtype)
            b = {"array": b, "0-d": np.asarray(b.flat[0]), "py": b.flat[0].item(), "itself": None}[kind]
            mine, numpys = a.copy(), a.copy()
            if not _computes_in(ufunc, a, a if b is None else b):
                continue
            with np.errstate(all="ignore"):
                try:
                    ufunc(numpys, numpys if b is None else b, out=numpys)
                except (TypeError, ValueError):  # (no loop, or a cast NumPy refuses)
                    continue
                got = loop_call_inplace(ufunc, mine, mine if b is None else b)
            if got is not NotImplemented:
                random_made += 1
                assert mine.tobytes() == numpys.tobytes(), (ufunc, dtype, shape, kind)
            elif a.size == 1:
                assert mine.tobytes() == a.tobytes()
    assert random_made > 1000, random_made
    one = np.array([0.3 + 0.7j])
    assert loop_call_inplace(np.multiply, one, one) is NotImplemented  # (one element: NumPy's call)
    x = np.arange(10.0)
    for b in (x[::-1].copy(), 2.0, np.asarray(3.0), x):  # made: an array, a scalar, 0-d, x itself
        assert loop_call_inplace(np.add, x.copy(), b) is not NotImplemented
    not_made = [(x[::2], x[1::2]), (x, x[::-1]), (x[:5], x[5:].astype(np.float32)), (x, x[3:4].reshape(()))]
    not_made += [(np.arange(10**4.0), 1.0), (x.astype(np.int64), 1.5), (np.arange(3), np.arange(3)), (x[:0], 1.0)]
    read_only = x.copy()
    read_only.flags.writeable = False
    not_made += [(read_only, 1.0), (x.reshape(2, 5), x[:5].copy()), (x, np.ones((2, 10)))]
    for a, b in not_made:  # strided, shared memory (a view, a 0-d view), cast, large, int to float, empty, ...
        kept = a.tobytes()
        assert loop_call_inplace(np.add if a.dtype.kind == "f" else np.true_divide, a, b) is NotImplemented
        assert a.tobytes() == kept


def test_a_small_matmul_runs_numpys_own_loop_and_gives_numpys_result():
    """matmul, a generalized ufunc of (n?,k),(k,m?)->(n?,m?), by its loop: NumPy's call's array (dtype,
    shape, bytes) for matrices and vectors on either side, every dimension of 1 (where the loop picks
    another BLAS routine), an array times itself, on random values (their sums tell routines apart)
    and special values; handed back for stacks, strided or empty operands, mixed types and large ones."""
    rng = np.random.default_rng(58)
    shapes = [((2, 5), (5,)), ((5,), (5, 3)), ((5,), (5,)), ((3, 4), (4, 6)), ((1, 4), (4, 1)), ((4, 1), (1, 4))]
    shapes += [((1, 1), (1, 1)), ((7, 7), (7, 7)), ((1, 5), (5,)), ((5,), (5, 1)), ((30, 30), (30, 30)), ((1,), (1, 9))]
    answered = 0
    for dtype in ("float32", "float64", "complex64", "complex128", "int64", "int8", "bool", "uint16"):
        for sa, sb in shapes:
            a, b = rng.standard_normal(sa) * 3, rng.standard_normal(sb) * 3
            if dtype.startswith("complex"):
                a, b = a + 1j * rng.standard_normal(sa), b - 1j * rng.standard_normal(sb)
            with np.errstate(all="ignore"):
                a, b = a.astype(dtype), b.astype(dtype)
            pairs = [(a, b), (a, a)] if sa == sb and (len(sa) == 1 or sa[0] == sa[1]) else [(a, b)]
            if dtype.startswith("float") and a.size > 2:
                special = a.copy()
                special.reshape(-1)[:2] = [np.nan, np.inf]
                pairs.append((special, b))
            for x, y in pairs:
                with np.errstate(all="ignore"):
                    expected = np.matmul(x, y)
                got = _core.loop_call(np.matmul, x, y)
                if got is NotImplemented:
                    continue  # (a flag raised: NumPy's call warns)
                answered += 1
                assert (got.dtype, got.shape, got.tobytes()) == (expected.dtype, expected.shape, expected.tobytes())
    assert answered >= 8 * len(shapes)
    m = np.arange(12.0).reshape(3, 4)
    handed_back = [(m.reshape(1, 3, 4), m.T), (m[:, ::2], m[::2]), (m, m.T), (m, m.T.astype(np.float32))]
    handed_back += [(np.ones((3, 0)), np.ones((0, 2))), (np.ones((40, 40)), np.ones((40, 40))), (m, m)]
    for x, y in handed_back:  # a stack, strided, transposed, two types, an empty core, large, wrong sizes
        assert _core.loop_call(np.matmul, x, y) is NotImplemented, (x.shape, y.shape)


def test_a_small_vecdot_runs_numpys_own_loop_and_gives_numpys_result():
    """vecdot, a generalized ufunc of (n),(n)->(), by its loop: NumPy's call's bytes on random
    values (whose sums tell apart another order of summation) in every shape up to the size limit,
    and handed back wherever NumPy's call broadcasts, casts, strides or has an empty core."""
    rng = np.random.default_rng(51)
    answered = 0
    for dtype in ("float32", "float64", "complex64", "complex128", "int8", "int64", "uint16", "bool"):
        for shape in [(1,), (7,), (1000,), (3, 5), (2, 3, 17), (0, 4), (30, 33), (5, 1)]:
            a, b = (rng.standard_normal(shape) * 100 for _ in range(2))
            if dtype.startswith("complex"):
                a, b = a + 1j * rng.standard_normal(shape), b - 1j * rng.standard_normal(shape)
            a, b = a.astype(dtype), b.astype(dtype)
            got = _core.loop_call(np.vecdot, a, b)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # (the integer casts above)
                expected = np.vecdot(a, b)
            if got is NotImplemented:
                assert a.nbytes > 8192 or a.size == 0, (dtype, shape)
                continue
            answered += 1
            assert (got.dtype, got.shape, got.tobytes()) == (expected.dtype, expected.shape, expected.tobytes())
    assert answered > 40
    x = np.arange(12.0).reshape(3, 4)
    handed_back = [(x, x[0]), (x[:, ::2], x[:, ::2]), (x, x.astype(np.float32)), (x[0, 0], x[0, 0]), (x, x.copy("F"))]
    handed_back += [(x, 2.0), (np.ones((2, 0)), np.ones((2, 0))), (x.astype(">f8"), x.astype(">f8"))]
    for a, b in handed_back:  # broadcast, strided, cast, 0-d, Fortran order, a scalar, an empty core, swapped
        assert _core.loop_call(np.vecdot, a, b) is NotImplemented, (a, b)


def _view_facts(v):
    """What tells two views apart: type, dtype, shape, strides, first byte, flags, base, values."""
    flags = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY")
    return (
        type(v),
        v.dtype,
        v.shape,
        v.strides,
        v.__array_interface__["data"][0],
        tuple(v.flags[f] for f in flags),
        id(v.base),
        v.tobytes(),
    )


def test_a_plain_basic_key_makes_numpys_own_view():
    """``plain_view_of``, the compiled ``__getitem__``'s view for a plain basic key, is NumPy's
    view (type, dtype, shape, strides, data pointer, flags, base, values) for every key of slices,
    ints, None and one Ellipsis that names every axis, on contiguous, strided, transposed,
    read-only, byte-swapped, 0-d and empty arrays and views of views; it hands back every other key
    (ints alone, which NumPy answers with an element; out-of-bounds ints and slice bounds; a zero
    step; other entries) and a view of more than NumPy's 64 dimensions."""
    view_of = _core.plain_view_of
    base = np.arange(120.0).reshape(4, 5, 6)
    readonly = base.copy()
    readonly.flags.writeable = False
    arrays = [base, base[::2, 1:, ::-1], base.transpose(2, 0, 1), readonly, base.astype(">i4"), np.asarray(7.5)]
    arrays += [np.zeros((0, 3)), base[1], base[1][2:], np.arange(5, dtype=np.int8)]
    entries = [0, 1, -1, 3, slice(None), slice(1, 3), slice(None, None, -1), slice(-2, None), slice(3, 1)]
    entries += [slice(None, None, 2), slice(4, None, -2), None, Ellipsis]
    entries += [slice(None, None, 2**62), slice(-1, None, -(2**62)), slice(None, None, -(2**63)), slice(1, -1, 10**9)]
    made = handed = 0
    for a in arrays:
        keys = [Ellipsis, (), (Ellipsis, None), (None, Ellipsis, None)]
        keys += [e for e in entries if e is not Ellipsis]
        for n in range(1, a.ndim + 2):
            keys += [tuple(k) for k in itertools.islice(itertools.product(entries, repeat=n), 0, None, 7)]
        for key in keys:
            got = view_of(a, key)
            try:
                expected = a[key]
            except (IndexError, ValueError, TypeError):
                assert got is NotImplemented, (a.shape, key)
                continue
            if got is NotImplemented:
                handed += 1
                continue
            made += 1
            assert _view_facts(got) == _view_facts(expected), (a.shape, a.strides, key)
    assert made > 1000 and handed > 100, (made, handed)
    v = np.arange(10.0)
    assert view_of(base, (1, 2, 3)) is NotImplemented  # ints alone: NumPy's element, a copy
    assert view_of(base, (1, 2, 3, Ellipsis)) is not NotImplemented  # a 0-d view
    assert view_of(v, slice(0, 11)) is NotImplemented and view_of(v, 10) is NotImplemented  # out of bounds
    assert view_of(v, slice(None, None, 0)) is NotImplemented and view_of(v, 2**70) is NotImplemented
    assert view_of(v, (Ellipsis, Ellipsis)) is NotImplemented and view_of(v, (1.5,)) is NotImplemented
    assert view_of(v, (None,) * 64 + (Ellipsis,)) is NotImplemented  # 65 dimensions: NumPy's error
    assert view_of(v, (None,) * 63 + (Ellipsis,)).ndim == 64
    assert view_of(base, (1, 2)) is NotImplemented  # not every axis named: the policy's check first


def test_a_matrix_transpose_is_numpys_own_view():
    """x.T and x.mT, made by the compiled getters without NumPy's PyArray_Transpose, are the views
    NumPy's ndarray.T and .mT make (type, dtype, shape, strides, data pointer, flags, base, values)
    of the same data, on contiguous, Fortran-ordered, strided, read-only, empty and single-row
    arrays, views of views and stacks of 3 and 5 dimensions."""
    base = np.arange(120.0).reshape(4, 5, 6)
    readonly = base[0].copy()
    readonly.flags.writeable = False
    matrices = [base[0], base[0].copy("F"), base[::2, 1:, ::-1][1], readonly, base[1].astype(np.int32)]
    matrices += [np.zeros((0, 3)), np.zeros((3, 0), np.complex64), base[0][:1], base[0][:, :1], base[1].T]
    stacks = [base, base.transpose(2, 0, 1), base[:, ::2], np.arange(32, dtype=np.int8).reshape(2, 1, 2, 4, 2)]
    for a in matrices + stacks:
        x = xp.asarray(a)
        data = x._data  # (a itself, or its native-order copy)
        names = ("T", "mT") if a.ndim == 2 else ("mT",)
        for name in names:
            expected = _view_facts(getattr(data, name))
            assert _view_facts(getattr(x, name)._data) == expected, (a.shape, a.strides, name)
            assert getattr(x, name).dtype == x.dtype


@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_an_assignment_to_a_plain_key_stores_what_numpys_own_assignment_stores(ns):
    """x[key] = value for plain keys of slices, ints and an Ellipsis (the compiled path's copy into
    ``plain_view``'s view) stores what NumPy's own ``a[key] = value`` stores, byte for byte: values
    of the key's shape, broadcast ones, Python scalars, and views of x itself that overlap the
    destination (NumPy's copy first); a read-only x is refused in the Python path's words."""
    setitem = vars(Array)["__setitem__"]
    assert _core.plain_view_of(np.zeros((2, 3)), (None, 0, Ellipsis), True) is NotImplemented  # (None: not plain)
    base = np.arange(24.0).reshape(4, 6)
    keys = [(slice(1, 3), slice(None)), (Ellipsis, 0), (1, slice(None, None, -1)), (slice(None, None, 2), Ellipsis)]
    keys += [(slice(3, 1), 2), Ellipsis, (slice(-3, None), slice(1, 5, 3))]
    stores = 0
    for dtype in ("float64", "int16", "complex64"):
        a0 = base.astype(dtype)
        for key in keys:
            target = a0[key]
            values = [1, np.asarray(target) * 2 + 1, np.asarray(target)[..., :1] if target.ndim else target]
            values += ["self-overlap"]
            for value in values:
                a, x = a0.copy(), ns.asarray(a0.copy())
                if isinstance(value, str):
                    shifted = tuple(slice(None, None, -1) if isinstance(k, slice) else k for k in np.index_exp[key])
                    a[key] = a[shifted][tuple(slice(0, n) for n in a[key].shape)] if a[key].ndim else a[key]
                    x_value = x[shifted][tuple(slice(0, n) for n in x[key].shape)] if x[key].ndim else x[key]
                elif isinstance(value, int):
                    a[key] = value
                    x_value = value
                else:
                    a[key] = value
                    x_value = ns.asarray(value)
                setitem(x, key, x_value)
                stores += 1
                assert x._data.tobytes() == a.tobytes(), (dtype, key, value)
    assert stores == 3 * len(keys) * 4
    # a scalar into every dtype width, 1-d to 3-d views (the packed value copied to each element)
    cube = np.arange(60.0).reshape(3, 4, 5)
    cube_keys = [(slice(1, 3), slice(None), Ellipsis), (Ellipsis, 0), (1, slice(None, None, -1), Ellipsis), Ellipsis]
    cube_keys += [(slice(None), slice(1, 3), slice(None, None, -2)), (1, Ellipsis, slice(0, 0)), (2, 3, 4)]
    cube_keys += [(slice(None, None, 2), 0, Ellipsis), (slice(None, None, 2), Ellipsis)]
    scalars = {"bool": [True, False], "uint8": [255, 0], "int16": [-7], "float32": [2.5, 1e-45, -0.0]}
    scalars |= {"float64": [1e300, -0.0], "complex64": [1.5 - 2j, 3.0], "complex128": [complex(0, -1e-310)]}
    filled = 0
    for dtype, values in scalars.items():
        for value, key in itertools.product(values, cube_keys):
            a = cube.astype(dtype)
            x = ns.asarray(a.copy())
            a[key] = value
            setitem(x, key, value)
            filled += 1
            assert x._data.tobytes() == a.tobytes(), (dtype, key, value)
    assert filled == sum(map(len, scalars.values())) * len(cube_keys)
    readonly = ns.broadcast_to(ns.asarray([1.0, 2.0, 3.0]), (2, 3))
    fast = _outcome(lambda: setitem(readonly, (0, slice(None)), 1.0))
    assert fast == _outcome(lambda: setitem.fallback(readonly, (0, slice(None)), 1.0)) and fast[0] == "error"


def _assert_numpys_copy(got, expected, where):
    """got, a compiled copy, is NumPy's: a new array of its type, dtype, shape, strides, flags and bytes."""
    assert got is not NotImplemented, where
    facts, numpys = _view_facts(got), _view_facts(expected)  # (all but the data pointer and base)
    assert facts[:4] + facts[5:6] == numpys[:4] + numpys[5:6] and got.base is None, where
    assert got.tobytes() == expected.tobytes(), where


def test_a_boolean_mask_of_xs_own_shape_selects_what_numpys_boolean_indexing_selects():
    """``masked_copy_of``, the compiled ``__getitem__``'s copy for a mask of x's own shape, is NumPy's
    ``a[mask]`` (type, dtype, shape, strides, flags, bytes) on every dtype width, 0-d, empty, 1-d to
    3-d arrays, all-true, all-false and mask bytes other than 0 and 1; it hands back strided layouts,
    which NumPy's indexing then answers, and the namespaces' x[mask] is NumPy's too."""
    import ml_dtypes

    copy_of = _core.masked_copy_of
    rng = np.random.default_rng(55)
    dtypes = [bool, np.int8, np.int16, np.uint32, np.float32, np.float64, np.complex64, np.complex128]
    dtypes += [ml_dtypes.bfloat16, np.dtype((np.void, 24))]
    made = handed = 0
    for dtype in dtypes:
        for shape in [(), (0,), (10,), (3, 4), (2, 3, 5), (4, 0)]:
            kind = np.dtype(dtype).kind
            a = np.asarray(rng.integers(0, 100, shape)).astype(dtype) if kind != "V" else np.zeros(shape, dtype)
            raw = np.asarray(rng.integers(0, 3, shape), dtype=np.uint8)
            for mask in (raw.view(bool), np.ones(shape, bool), np.zeros(shape, bool), np.asarray(raw > 0)):
                _assert_numpys_copy(copy_of(a, mask), a[mask], (dtype, shape))
                made += 1
            if a.ndim == 2 and a.size:
                assert copy_of(a.T, mask.T) is NotImplemented and copy_of(a[:, ::2], mask[:, ::2]) is NotImplemented
                handed += 1
    assert made > 200 and handed >= 10
    with pytest.raises(TypeError, match="masked_copy_of"):
        copy_of(np.zeros(3), np.zeros(2, bool))
    for ns in (xp, tx):
        x = ns.asarray(np.arange(12.0).reshape(3, 4))
        mask = ns.asarray(np.arange(12).reshape(3, 4) % 3 == 0)
        assert ns.asarray(x[mask])._data.tolist() == [0.0, 3.0, 6.0, 9.0]
        assert ns.asarray(ns.matrix_transpose(x)[ns.matrix_transpose(mask)])._data.tolist() == [0.0, 9.0, 6.0, 3.0]


def test_an_integer_array_key_of_a_vector_takes_what_numpys_integer_indexing_takes():
    """``taken_copy_of``, the compiled ``__getitem__``'s copy for an integer array key of a vector, is
    NumPy's ``a[indices]`` (type, dtype, shape, strides, flags, bytes) on every dtype width, 1-d and
    2-d and empty indices, negative ones, and the ends; out of bounds, another index type, a strided
    layout, 0-d indices or too many it hands back (NumPy's call answers, or raises its IndexError)."""
    import ml_dtypes

    taken_of = _core.taken_copy_of
    rng = np.random.default_rng(56)
    dtypes = [bool, np.int8, np.int16, np.uint32, np.float32, np.float64, np.complex64, np.complex128]
    dtypes += [ml_dtypes.bfloat16, np.dtype((np.void, 24)), np.dtype(">f8")]
    made = 0
    for dtype in dtypes:
        for n in (1, 7, 300):
            kind = np.dtype(dtype).kind
            a = np.asarray(rng.integers(0, 100, n)).astype(dtype) if kind != "V" else np.zeros(n, dtype)
            for indices in ([0], [n - 1, -n, -1, 0], rng.integers(-n, n, (3, 4)), np.zeros(0, int), [[n // 2]]):
                indices = np.asarray(indices, dtype=np.intp)
                _assert_numpys_copy(taken_of(a, indices), a[indices], (dtype, n))
                made += 1
    assert made == len(dtypes) * 3 * 5
    a = np.arange(10.0)
    handed_back = [(a, np.array([10])), (a, np.array([-11])), (a, np.array([1, 2], np.int32)), (a[::2], np.array([1]))]
    handed_back += [(a, np.array([1, 2]).astype(">i8")), (a, np.zeros(8193, np.intp)), (a.reshape(2, 5), np.array([1]))]
    handed_back += [(a, np.arange(6)[::2]), (a, np.asarray(3))]  # (a 0-d key: NumPy's scalar)
    for array, indices in handed_back:
        assert taken_of(array, indices) is NotImplemented, (array.shape, indices.dtype)
    with pytest.raises(TypeError, match="taken_copy_of"):
        taken_of(a, np.zeros(2))
    for ns in (xp, tx):
        x = ns.asarray(np.arange(5.0))
        assert ns.asarray(x[ns.asarray([4, -5, 2])])._data.tolist() == [4.0, 0.0, 2.0]
        with pytest.raises(IndexError, match="out of bounds"):
            x[ns.asarray([5])]


@pytest.mark.parametrize("ns", [xp, tx], ids=["xp", "tx"])
def test_a_small_inplace_call_leaves_what_numpys_own_inplace_call_leaves(ns):
    """x op= y by NumPy's loop into a new array, then copied into x: what NumPy's own x op= y leaves in x
    (bytes), and its warnings and errors, on overlapping views of one buffer (NumPy reads the inputs before
    the write), x op= x, 0-d operands, and a floating-point error under errstate raise and warn (NumPy's own
    call then: its writes and its error)."""
    import operator

    base = np.array([1.5, -2.0, 1e308, 0.0, 3.0, -0.0, 7.0, 2.5])
    whole, first, last = slice(None), slice(None, -1), slice(1, None)
    cases = [(last, first), (first, last), (whole, whole), (slice(2, 5), slice(3, 6)), (slice(3, 4), "0-d")]
    cases += [(whole, "0-d"), (whole, "scalar")]
    checked = 0
    for op in (operator.iadd, operator.imul, operator.isub, operator.itruediv):
        for target, source in cases:
            for state in ("ignore", "warn", "raise"):
                mine, numpys = ns.asarray(base.copy()), base.copy()
                for _ in range(2):  # (the first call fills the table the compiled path reads)

                    def run(a, wrap, target=target, source=source, op=op, state=state):
                        other = {"0-d": wrap(base[2]), "scalar": 1e10}.get(source) if type(source) is str else a[source]
                        with np.errstate(all=state):
                            op(a[target], other)

                    got = _outcome(lambda mine=mine, run=run: run(mine, ns.asarray))
                    expected = _outcome(lambda numpys=numpys, run=run: run(numpys, np.asarray))
                    assert got == expected, (op, target, source, state)
                    assert mine._data.tobytes() == numpys.tobytes(), (op, target, source, state)
                    checked += 1
    assert checked >= 100
