"""The hostile-input fuzzer: the public surface, the hostile pool and the properties of one call.

The surface is found by introspection, so a function is covered the day it is
added: every bound function of a namespace module (``linalg.*`` and ``fft.*``
included), the methods of ``__array_namespace_info__()``, ``namespace()``, and
every method, operator and property defined on ``Array``.

Each argument is drawn either *plausibly* (arrays of the namespace of every
dtype and small shape, small ints, the namespace's dtypes: so calls get past
their first check) or from the *hostile pool*: one of the classes in
``HOSTILE_CLASSES``.  :func:`call_and_check` then checks the properties of the
call:

- it returns a result the standard allows (our arrays of this namespace, Python
  scalars, dtypes, devices, tuples of those ...; never a NumPy array or scalar),
- or it raises TypeError, ValueError, IndexError, OverflowError or RuntimeError
  (BufferError for DLPack) whose message names the operation in our words, and
  carries no NumPy wording;
- within a per-call time limit, without MemoryError;
- every input array is byte-identical afterwards (for in-place operators and
  ``__setitem__``, the target may change only when the call succeeds).
"""

from __future__ import annotations

import dataclasses
import fractions
import inspect
import math
import operator
import os
import re
import signal
import time
import types

import numpy as np

import array_api_promo as xp
import array_api_promo.torch as tx
from array_api_promo import Array, namespace, promotion
from array_api_promo._dtypes import DType

try:  # arrays and dtypes of another array API library, where installed
    import array_api_strict as strict

    _STRICT_ARRAY = type(strict.ones(1))
except ImportError:  # pragma: no cover
    strict = _STRICT_ARRAY = None

# -- the surface --------------------------------------------------------------------------------
BINARY_SYMBOLS = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "truediv": "/",
    "floordiv": "//",
    "mod": "%",
    "pow": "**",
    "matmul": "@",
    "and": "&",
    "or": "|",
    "xor": "^",
    "lshift": "<<",
    "rshift": ">>",
}
# The standard's function behind each operator (its errors name the function).
OPERATOR_FUNCTIONS = {
    "add": "add",
    "sub": "subtract",
    "mul": "multiply",
    "truediv": "divide",
    "floordiv": "floor_divide",
    "mod": "remainder",
    "pow": "pow",
    "matmul": "matmul",
    "and": "bitwise_and",
    "or": "bitwise_or",
    "xor": "bitwise_xor",
    "lshift": "bitwise_left_shift",
    "rshift": "bitwise_right_shift",
    "eq": "equal",
    "ne": "not_equal",
    "lt": "less",
    "le": "less_equal",
    "gt": "greater",
    "ge": "greater_equal",
    "neg": "negative",
    "pos": "positive",
    "abs": "abs",
    "invert": "bitwise_invert",
}
COMPARISON_SYMBOLS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
# Members of Array that are not operations (data, the constructor's slot, NumPy's protocol flags).
_NOT_CALLABLE_MEMBERS = {
    "__slots__",
    "__doc__",
    "__module__",
    "__weakref__",
    "__array_priority__",
    "__array_ufunc__",
    "__hash__",
    "__dict__",
    "__annotations__",
    "__firstlineno__",
    "__static_attributes__",
}


@dataclasses.dataclass(frozen=True)
class Target:
    """One public operation: how to call it and which names its errors may give."""

    key: str  # e.g. "xp.add", "tx.linalg.solve", "xp.Array.__iadd__"
    kind: str  # "function" | "method" | "property" | "operator"
    name: str  # the attribute name
    names: tuple  # words an error message may start with
    params: tuple = ()  # inspect.Parameter objects (self excluded for methods)
    inplace: bool = False
    symbol: str | None = None


def _op_words(name: str) -> tuple:
    """The words an error of operation ``name`` may name it by."""
    words = {name}
    if name.startswith("__") and name.endswith("__"):
        bare = name[2:-2]
        words.add(bare)
        for prefix in ("r", "i"):
            if bare.startswith(prefix) and bare[1:] in BINARY_SYMBOLS:
                words.add(bare[1:])
        words |= {OPERATOR_FUNCTIONS[w] for w in words if w in OPERATOR_FUNCTIONS}
    return tuple(sorted(words, key=len, reverse=True))


def _params(func, skip_self=False):
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return ()
    params = tuple(sig.parameters.values())
    return params[1:] if skip_self else params


def surface(ns, prefix: str) -> list[Target]:
    """Every public operation of namespace module ``ns`` and of its arrays."""
    targets = []

    def add_module(mod, dotted):
        for name in sorted(vars(mod)):
            value = getattr(mod, name)
            if name not in mod.__all__:  # the namespace's own names (the package module has others)
                continue
            if isinstance(value, types.FunctionType):
                words = _op_words(name) + ((f"{dotted}{name}", value.__name__) if dotted else ())
                targets.append(Target(f"{prefix}.{dotted}{name}", "function", f"{dotted}{name}", words, _params(value)))
            elif isinstance(value, types.ModuleType) and name in ("linalg", "fft"):
                add_module(value, f"{dotted}{name}.")

    add_module(ns, "")
    info = ns.__array_namespace_info__()
    for name in sorted(dir(info)):
        if not name.startswith("_") and callable(getattr(info, name)):
            targets.append(
                Target(f"{prefix}.info.{name}", "function", f"info.{name}", (name,), _params(getattr(info, name)))
            )
    if ns is xp:
        targets.append(Target("namespace", "function", "namespace", ("namespace",), _params(namespace)))
    for name, value in sorted(vars(Array).items()):
        if name in _NOT_CALLABLE_MEMBERS or (name.startswith("_") and not name.startswith("__")):
            continue
        key = f"{prefix}.Array.{name}"
        if isinstance(value, (property, types.GetSetDescriptorType)):  # (the compiled build's getters)
            targets.append(Target(key, "property", name, (name,)))
            continue
        if not callable(value) and not isinstance(value, (classmethod, staticmethod)):
            continue
        bare = name[2:-2] if name.startswith("__") else ""
        base = bare[1:] if bare[:1] in "ri" and bare[1:] in BINARY_SYMBOLS else bare
        symbol = BINARY_SYMBOLS.get(base) or COMPARISON_SYMBOLS.get(bare)
        kind = "operator" if symbol else "method"
        words = _op_words(name) + (value.__name__,) + (("Array",) if name == "__init__" else ())
        targets.append(
            Target(
                key,
                kind,
                name,
                words,
                _params(value, skip_self=True),
                inplace=bare.startswith("i") and base in BINARY_SYMBOLS and bare != base,
                symbol=symbol,
            )
        )
    return targets


# -- the hostile pool ----------------------------------------------------------------------------
class _Opaque:
    """An arbitrary object."""

    def __repr__(self):
        return "<opaque>"


class _HugeIndex:
    """An object whose __index__ is far beyond any dtype."""

    def __index__(self):
        return 2**100


class _RaisingIndex:
    """An object whose __index__ / __len__ / __float__ raise (a careless user type)."""

    def __index__(self):
        raise ZeroDivisionError("user __index__ failed")

    def __len__(self):
        raise ZeroDivisionError("user __len__ failed")

    def __float__(self):
        raise ZeroDivisionError("user __float__ failed")


class _FakeArray:
    """Looks like an array (dtype, shape, ndim) but is nothing of the kind."""

    dtype = xp.float64
    shape = (3,)
    ndim = 1
    device = xp.CPU

    def __array_namespace__(self, api_version=None):
        return xp


def _int_edges():
    values = {0, 1, -1, 2, 3, 2**63, 2**64, -(2**63) - 1, 10**100, -(10**100), 2**62, 2**40, 10**10}
    for name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
        info = np.iinfo(name)
        values.update({int(info.min) - 1, int(info.min), int(info.max), int(info.max) + 1})
    return sorted(values)


INT_EDGES = _int_edges()
SPECIAL_FLOATS = [math.nan, math.inf, -math.inf, -0.0, 1.5, -2.5, 1e308, 5e-324, 3.0]


def _byteswapped():
    a = np.arange(3, dtype=">i4")
    return a


def _readonly_numpy():
    a = np.arange(6.0).reshape(2, 3)
    a.flags.writeable = False
    return a


def _make_device(name):
    try:
        return xp.Device(name)
    except (TypeError, ValueError) as exc:  # issue 14: Device(name) may refuse an unknown name
        return exc


# (class, label, factory(ns) -> value). Factories build a fresh value for each call.
def _hostile_recipes():
    r = []

    def add(cls, label, factory):
        r.append((cls, label, factory))

    # NumPy arrays and scalars
    add("numpy_array", "np.ones(3)", lambda ns: np.ones(3))
    add("numpy_array", "np.ones(1)", lambda ns: np.ones(1))
    add("numpy_array", "np.int8 2x2", lambda ns: np.zeros((2, 2), dtype=np.int8))
    add("numpy_array", "np 0-d", lambda ns: np.array(1.5))
    add("numpy_array", "np bool", lambda ns: np.array([True, False, True]))
    add("numpy_array", "np object", lambda ns: np.array([1, "a", None], dtype=object))
    add("numpy_array", "np structured", lambda ns: np.zeros(2, dtype=[("a", "i4"), ("b", "f8")]))
    add("numpy_array", "np datetime", lambda ns: np.array(["2020-01-01"], dtype="datetime64[D]"))
    add("numpy_array", "np byteswapped", lambda ns: _byteswapped())
    add("numpy_array", "np readonly", lambda ns: _readonly_numpy())
    add("numpy_array", "np float16", lambda ns: np.ones(3, dtype=np.float16))
    add("numpy_array", "np str", lambda ns: np.array(["a", "b"]))
    add("numpy_scalar", "np.float64(2)", lambda ns: np.float64(2))
    add("numpy_scalar", "np.int8(3)", lambda ns: np.int8(3))
    add("numpy_scalar", "np.int64(1)", lambda ns: np.int64(1))
    add("numpy_scalar", "np.uint64(2**64-1)", lambda ns: np.uint64(2**64 - 1))
    add("numpy_scalar", "np.bool_(True)", lambda ns: np.bool_(True))
    add("numpy_scalar", "np.complex64(1j)", lambda ns: np.complex64(1j))
    add("numpy_scalar", "np.float16(nan)", lambda ns: np.float16("nan"))
    add("numpy_scalar", "np.datetime64", lambda ns: np.datetime64("2020-01-01"))
    # Python containers
    add("list", "[1, 2, 3]", lambda ns: [1, 2, 3])
    add("list", "[]", lambda ns: [])
    add("list", "ragged", lambda ns: [[1], [2, 3]])
    add("list", "[1.5, 'a']", lambda ns: [1.5, "a"])
    add("list", "[array]", lambda ns: [ns.ones(2)])
    add("list", "[2**70]", lambda ns: [2**70])
    add("list", "[nan, inf]", lambda ns: [math.nan, math.inf])
    add("list", "deep", lambda ns: [[[[[[[1]]]]]]])
    add("tuple", "(1, 2)", lambda ns: (1, 2))
    add("tuple", "()", lambda ns: ())
    add("tuple", "((1, 2),)", lambda ns: ((1, 2),))
    add("tuple", "(None,)", lambda ns: (None,))
    add("tuple", "(array, array)", lambda ns: (ns.ones(3), ns.zeros(3)))
    add("tuple", "(Ellipsis, Ellipsis)", lambda ns: (Ellipsis, Ellipsis))
    add("none", "None", lambda ns: None)
    # strings and bytes
    for s in ("", "abc", "cpu", "float32", "int64", "xy", "ij", "fro", "reduced", "ortho", "backward", "2025.12"):
        add("string", repr(s), lambda ns, s=s: s)
    add("string", "b'ab'", lambda ns: b"ab")
    add("string", "bytearray", lambda ns: bytearray(b"\x00\x01"))
    # arbitrary objects
    add("object", "object()", lambda ns: _Opaque())
    add("object", "huge __index__", lambda ns: _HugeIndex())
    add("object", "raising __index__", lambda ns: _RaisingIndex())
    add("object", "fake array", lambda ns: _FakeArray())
    add("object", "dict", lambda ns: {"a": 1})
    add("object", "set", lambda ns: {1, 2})
    add("object", "slice(None, None, 0)", lambda ns: slice(None, None, 0))
    add("object", "slice(1.5)", lambda ns: slice(1.5))
    add("object", "slice(2**70)", lambda ns: slice(None, 2**70, 2**70))
    add("object", "Ellipsis", lambda ns: Ellipsis)
    add("object", "lambda", lambda ns: lambda: 1)
    add("object", "type int", lambda ns: int)
    add("object", "type float", lambda ns: float)
    add("object", "type complex", lambda ns: complex)
    add("object", "Fraction", lambda ns: fractions.Fraction(1, 3))
    add("object", "generator", lambda ns: (i for i in range(3)))
    add("object", "range", lambda ns: range(3))
    add("object", "NotImplemented", lambda ns: NotImplemented)
    add("object", "module", lambda ns: ns)
    # arrays of the other policy, of another version, of array-api-strict
    add("foreign_array", "other policy", lambda ns: (tx if ns is not tx else xp).ones(3))
    add("foreign_array", "other policy 0-d", lambda ns: (tx if ns is not tx else xp).asarray(2, dtype=xp.int8))
    add("foreign_array", "2021.12 namespace", lambda ns: namespace(ns._runtime.policy, "2021.12").ones(3))
    add("foreign_array", "user policy", lambda ns: namespace(_user_policy()).ones((2, 2)))
    if strict is not None:
        add("foreign_array", "array_api_strict", lambda ns: strict.ones(3))
        add("foreign_array", "array_api_strict int", lambda ns: strict.asarray([1, 2], dtype=strict.int8))
        add("foreign_dtype", "strict.float32", lambda ns: strict.float32)
        add("foreign_dtype", "strict.int8", lambda ns: strict.int8)
    add("foreign_dtype", "np.dtype('float32')", lambda ns: np.dtype("float32"))
    add("foreign_dtype", "np.float64", lambda ns: np.float64)
    add("foreign_dtype", "np.int8", lambda ns: np.int8)
    add("foreign_dtype", "np.dtype('O')", lambda ns: np.dtype("O"))
    add("foreign_dtype", "float16 DType", lambda ns: _dtype_named("float16"))
    add("foreign_dtype", "bfloat16 DType", lambda ns: _dtype_named("bfloat16"))
    # ints at and beyond every dtype's range
    for v in INT_EDGES:
        add("big_int", str(v), lambda ns, v=v: v)
    add("big_int", "True", lambda ns: True)
    # NaN and infinities where integers are expected, non-integer values
    for v in SPECIAL_FLOATS:
        add("special_float", repr(v), lambda ns, v=v: v)
    add("special_float", "complex(nan, inf)", lambda ns: complex(math.nan, math.inf))
    add("special_float", "1e308j", lambda ns: 1e308j)
    # negative, huge and non-integer shapes and axes
    for shape in [
        (-1,),
        (2, -3),
        (10**10, 10**10),
        (2**62,),
        (2**63,),
        (2**64,),
        (2**31, 2**31, 2**31),
        (1.5,),
        (2.0, 3),
        (np.int64(3),),
        (True, 2),
        ("2",),
        (None,),
        (1,) * 65,
        (0, 2**63 - 1),
        (2**40, 2**40, 0),
        (10**10,),
    ]:
        add("bad_shape", repr(shape), lambda ns, s=shape: s)
    for axis in [(0, 0), (0, -1, 0), (-100,), (100,), (1.5,), (np.int64(0),), (0, None), 64, -65, 2**63]:
        add("bad_axis", repr(axis), lambda ns, a=axis: a)
    # wrong devices
    add("bad_device", "'cpu'", lambda ns: "cpu")
    add("bad_device", "'cuda:0'", lambda ns: "cuda:0")
    add("bad_device", "0", lambda ns: 0)
    add("bad_device", "Device('nowhere')", lambda ns: _make_device("nowhere"))
    add("bad_device", "Device('cpu') anew", lambda ns: _make_device("cpu"))
    add("bad_device", "device1", lambda ns: xp.DEVICE1)
    add("bad_device", "device1 array", lambda ns: ns.ones(3, device=xp.DEVICE1))
    if strict is not None:
        add("bad_device", "strict device", lambda ns: strict.ones(1).device)
    # bad copy= values
    for v in ("yes", 1, 0, np.bool_(True), 2.0):
        add("bad_copy", repr(v), lambda ns, v=v: v)
    # hostile arrays of the namespace itself: empty, NaN-filled, huge values, views, read-only
    add("edge_array", "empty (0,)", lambda ns: ns.zeros(0))
    add("edge_array", "empty (0, 3)", lambda ns: ns.zeros((0, 3), dtype=ns.int32))
    add("edge_array", "nan inf", lambda ns: ns.asarray([math.nan, math.inf, -math.inf]))
    add("edge_array", "uint64 max", lambda ns: ns.asarray([2**64 - 1, 0], dtype=ns.uint64))
    add("edge_array", "int8 min", lambda ns: ns.asarray([-128, 127], dtype=ns.int8))
    add("edge_array", "read-only", lambda ns: ns.asarray(_readonly_numpy()))
    add("edge_array", "view [::-2]", lambda ns: ns.arange(10)[::-2])
    add("edge_array", "complex nan", lambda ns: ns.asarray([complex(math.nan, 1.0), 1j]))
    add("edge_array", "bool mask", lambda ns: ns.asarray([True, False, True]))
    add("edge_array", "0-d float", lambda ns: ns.asarray(math.nan))
    add("edge_array", "big int index", lambda ns: ns.asarray([2**40, -(2**40)], dtype=ns.int64))
    add("edge_array", "5-d", lambda ns: ns.zeros((1, 2, 1, 2, 1)))
    return r


def _dtype_named(name):
    from array_api_promo import _dtypes as D

    found = getattr(D, name, None)
    return found if type(found) is DType else np.dtype("float16")


_USER_POLICY = []


def _user_policy():
    if not _USER_POLICY:

        class HostileUserPolicy(promotion.ArrayAPIPolicy):
            name = "hostile_user"

        _USER_POLICY.append(HostileUserPolicy())
    return _USER_POLICY[0]


HOSTILE = _hostile_recipes()
HOSTILE_CLASSES = tuple(sorted({c for c, _, _ in HOSTILE}))

# -- plausible arguments -----------------------------------------------------------------------
SHAPES = [(), (0,), (1,), (3,), (2, 3), (3, 3), (1, 3), (2, 2, 2), (4,)]


def plausible_array(ns, dtype, shape, fill):
    """An array of ``ns`` of ``dtype`` and ``shape``; ``fill`` picks the values."""
    n = math.prod(shape)
    rng = np.random.default_rng(fill)
    if dtype.name == "bool":
        data = rng.integers(0, 2, n).astype(bool)
    elif dtype.kind in ("signed integer", "unsigned integer"):
        lo = 0 if dtype.name.startswith("u") else -3
        data = rng.integers(lo, 6, n)
    else:
        data = rng.normal(size=n) * 3
        if fill % 5 == 0 and n:
            data[0] = (math.nan, math.inf, -math.inf, 0.0, -0.0)[fill % 25 // 5]
        if dtype.name.startswith("complex"):
            data = data + 1j * rng.normal(size=n)
    return ns.asarray(data.reshape(shape).astype(dtype.numpy))


# Parameter names that take something specific: a plausible value of that role.
_ROLES = {
    "shape": "shape",
    "dtype": "dtype",
    "device": "device",
    "copy": "copy",
    "axis": "axis",
    "axes": "axis",
    "source": "axis",
    "destination": "axis",
    "x1_axis": "axis",
    "start": "number",
    "stop": "number",
    "step": "number",
    "num": "count",
    "n": "count",
    "n_rows": "count",
    "n_cols": "count",
    "k": "small_int",
    "repetitions": "shape",
    "repeats": "count",
    "s": "shape",
    "d": "number",
    "fill_value": "number",
    "min": "number",
    "max": "number",
    "correction": "number",
    "ord": "ord",
    "keepdims": "bool",
    "descending": "bool",
    "stable": "bool",
    "endpoint": "bool",
    "upper": "bool",
    "hermitian": "bool",
    "full_matrices": "bool",
    "include_initial": "bool",
    "indexing": "indexing",
    "norm": "norm",
    "mode": "mode",
    "side": "side",
    "kind": "kind",
    "api_version": "api_version",
    "policy": "policy",
    "stream": "none",
    "max_version": "max_version",
    "dl_device": "none",
    "rtol": "number",
    "offset": "small_int",
    "shift": "small_int",
    "from_": "dtype_or_array",
    "to": "dtype",
    "type": "dtype",
    "obj": "array_like",
    "key": "key",
    "value": "value",
    "other": "value",
    "x2": "value",
    "arrays": "array",
    "arrays_and_dtypes": "dtype_or_array",
    "shapes": "shape",
    "invert": "bool",
    "condition": "array",
}


@dataclasses.dataclass
class Drawn:
    """One call's arguments and the hostile classes they came from."""

    args: list
    kwargs: dict
    classes: set
    labels: list
    via_operator: bool = False


def draw_call(data, ns, target: Target, st) -> Drawn:
    """Draw the arguments of one call of ``target`` on namespace ``ns`` (``data``: Hypothesis)."""
    classes: set = set()
    labels: list = []

    def value(role):
        hostile = data.draw(st.integers(0, 3), label="hostile?") == 0
        if hostile:
            cls, label, factory = data.draw(st.sampled_from(HOSTILE), label="hostile")
            classes.add(cls)
            labels.append(label)
            return factory(ns)
        return plausible(data, ns, role, st, labels)

    args, kwargs = [], {}
    for p in target.params:
        role = _ROLES.get(p.name, "array")
        if p.kind is p.VAR_POSITIONAL:
            for _ in range(data.draw(st.integers(0, 3), label=f"n {p.name}")):
                args.append(value(role))
        elif p.kind is p.VAR_KEYWORD:
            if data.draw(st.integers(0, 9), label="junk kw") == 0:
                kwargs["junk"] = value("array")
        elif p.default is p.empty:
            if data.draw(st.integers(0, 49), label=f"omit {p.name}") == 0:
                break  # a required argument left out: Python's TypeError naming the function
            if p.kind is p.KEYWORD_ONLY:
                kwargs[p.name] = value(role)
            else:
                args.append(value(role))
        elif data.draw(st.booleans(), label=f"give {p.name}"):
            if p.kind is p.KEYWORD_ONLY or kwargs or data.draw(st.booleans(), label="as keyword"):
                if p.kind is not p.POSITIONAL_ONLY:
                    kwargs[p.name] = value(role)
            else:
                args.append(value(role))
    if data.draw(st.integers(0, 49), label="extra arg") == 0:
        args.append(value("array"))
    return Drawn(args, kwargs, classes, labels)


def plausible(data, ns, role, st, labels):
    draw = data.draw
    if role in ("array", "value", "array_like", "dtype_or_array", "key"):
        choice = draw(st.integers(0, 9), label="array or scalar")
        if role == "key" and choice >= 7:
            return draw(
                st.sampled_from(
                    [0, -1, slice(None), slice(1, None, 2), Ellipsis, (0, Ellipsis), (None, 0), (slice(None), 0), ()]
                ),
                label="key",
            )
        if choice == 9:
            return draw(st.sampled_from([0, 1, -1, True, False, 2.5, -0.0, 1j, math.nan]), label="scalar")
        if role == "dtype_or_array" and choice == 8:
            return draw(st.sampled_from(ns._runtime.dtypes), label="dtype")
        if role == "array_like" and choice == 8:
            return draw(st.sampled_from([[1, 2], [[1.5, 2.0]], 3, 2.5, True, [True, False], []]), label="array_like")
        dtype = draw(st.sampled_from(ns._runtime.dtypes), label="dtype")
        shape = draw(st.sampled_from(SHAPES), label="shape")
        fill = draw(st.integers(0, 99), label="fill")
        labels.append(f"{dtype.name}{shape}")
        return plausible_array(ns, dtype, shape, fill)
    if role == "shape":
        return draw(st.sampled_from([(), 3, (2, 3), (0,), (3, 1), [2, 2], (1, 3)]), label="shape")
    if role == "dtype":
        return draw(st.sampled_from(ns._runtime.dtypes + (None,)), label="dtype")
    if role == "device":
        return draw(st.sampled_from([None, xp.CPU, xp.DEVICE1]), label="device")
    if role == "copy":
        return draw(st.sampled_from([None, True, False]), label="copy")
    if role == "axis":
        return draw(st.sampled_from([None, 0, 1, -1, -2, 2, (0,), (0, 1), (-1, 0), ()]), label="axis")
    if role == "number":
        return draw(st.sampled_from([0, 1, -1, 3, 2.5, -1.5, 0.5, True, None, 1j]), label="number")
    if role in ("count", "small_int"):
        return draw(st.sampled_from([0, 1, 2, 3, -1, 5, None]), label="count")
    if role == "bool":
        return draw(st.sampled_from([True, False]), label="bool")
    if role == "ord":
        return draw(st.sampled_from([None, 1, 2, -1, math.inf, -math.inf, "fro", "nuc", 0, 3]), label="ord")
    if role == "indexing":
        return draw(st.sampled_from(["xy", "ij"]), label="indexing")
    if role == "norm":
        return draw(st.sampled_from(["backward", "ortho", "forward"]), label="norm")
    if role == "mode":
        return draw(st.sampled_from(["reduced", "complete", "raise", "wrap", "clip"]), label="mode")
    if role == "side":
        return draw(st.sampled_from(["left", "right"]), label="side")
    if role == "kind":
        return draw(
            st.sampled_from(["bool", "integral", "real floating", "numeric", ("integral", "bool")]), label="kind"
        )
    if role == "api_version":
        return draw(st.sampled_from([None, "2021.12", "2023.12", "2025.12"]), label="api_version")
    if role == "policy":
        return draw(st.sampled_from(["array_api", "torch", "numpy"]), label="policy")
    if role == "max_version":
        return draw(st.sampled_from([None, (1, 0), (0, 8)]), label="max_version")
    return None


# -- one call and its properties -----------------------------------------------------------------
ALLOWED_ERRORS = (TypeError, ValueError, IndexError, OverflowError, RuntimeError)
# NumPy's own wording: a message with one of these leaked from NumPy.
NUMPY_WORDING = re.compile(
    r"ufunc|__array_ufunc__|arr\.size|Concatenation operation|could not be broadcast|"
    r"Unable to allocate|array is too big|did not contain a loop|output array is read-only|"
    r"assignment destination is read-only|setting an array element with a sequence|inhomogeneous|"
    r"only integers, slices|too many indices for array|cannot reshape array|maximum supported dimension|"
    r"could not convert string|invalid literal|Cannot cast|object arrays are not supported|"
    r"numpy\.|np\.|Python integer .* out of bounds|integer is required|'numpy\.|"
    r"AxisError|data type .* not understood|non-broadcastable|Maximum allowed dimension"
)
# Python's own protocol messages that name the operation (an operator symbol or the callable).
_PYTHON_WORDING = re.compile(
    r"^unsupported operand type\(s\) for (\S+)|^'(\S+)' not supported between|^bad operand type for"
)
# Python's sequence protocol, when a list, tuple or str meets an array in an operator
# (``[1] * x`` asks ``x.__index__``; ``"a" + x`` is str concatenation).
_SEQUENCE_WORDING = re.compile(r"^can only concatenate|^can't multiply sequence|^__index__: ")


_SIGNATURE_WORDING = re.compile(
    r"^(?:\w+\.)?(\w+)\(\) (?:takes|missing|got an unexpected|got multiple|got some positional)"
)


class Timeout(BaseException):
    """A call ran past its time limit (BaseException: no ``except Exception`` can swallow it)."""


_ALARM = hasattr(signal, "setitimer")


def _on_alarm(signum, frame):
    raise Timeout()


def snapshot(values) -> list:
    """``(object, bytes)`` of every array (ours, NumPy's, another library's) among ``values``."""
    out = []
    seen = set()
    stack = list(values)
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if type(v) is Array:
            out.append((v, _bytes(v._data)))
        elif isinstance(v, np.ndarray):
            out.append((v, _bytes(v)))
        elif strict is not None and type(v) is _STRICT_ARRAY:
            out.append((v, _bytes(v._array)))
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
    return out


def _bytes(a):
    return (a.shape, a.dtype.str, a.tobytes() if a.dtype != object else tuple(map(id, a.ravel())))


def _data_of(v):
    if type(v) is Array:
        return v._data
    if strict is not None and type(v) is _STRICT_ARRAY:
        return v._array
    return v


class Failure(AssertionError):
    pass


@dataclasses.dataclass
class Stats:
    calls: int = 0
    targets: set = dataclasses.field(default_factory=set)
    classes: set = dataclasses.field(default_factory=set)
    outcomes: dict = dataclasses.field(default_factory=dict)
    seconds: float = 0.0
    slowest: tuple = (0.0, "")


STATS = Stats()


def invoke(ns, target: Target, self_array, drawn: Drawn):
    """Perform the call (operators through the operator module, so Python's protocol runs)."""
    args, kwargs = drawn.args, drawn.kwargs
    if target.kind == "function":
        if target.name == "namespace":
            return namespace(*args, **kwargs)
        if target.name.startswith("info."):
            return getattr(ns.__array_namespace_info__(), target.name[5:])(*args, **kwargs)
        obj = ns
        for part in target.name.split("."):
            obj = getattr(obj, part)
        return obj(*args, **kwargs)
    if target.kind == "property":
        return getattr(self_array, target.name)
    if target.kind == "operator" and not kwargs and len(args) == 1 and drawn.via_operator:
        bare = target.name[2:-2]
        other = args[0]
        if target.inplace:
            return getattr(operator, f"i{bare[1:]}")(self_array, other)
        if bare in COMPARISON_SYMBOLS:
            return getattr(operator, bare)(self_array, other)
        if bare in BINARY_SYMBOLS:
            return getattr(operator, f"{bare}_" if bare in ("and", "or") else bare)(self_array, other)
        return getattr(operator, f"{bare[1:]}_" if bare[1:] in ("and", "or") else bare[1:])(other, self_array)
    if target.name == "__init__":
        return Array(*args, **kwargs)
    result = getattr(self_array, target.name)(*args, **kwargs)
    if target.name == "__iter__":
        result = list(result)
    return result


def check_result(ns, target: Target, result, direct_dunder: bool):
    runtime = ns._runtime

    def ok(v, depth=0):
        if depth > 4:
            return
        t = type(v)
        if t is Array:
            # A result belongs to the namespace that computed it (or one of its policy, another version).
            if v._runtime is not runtime and target.name != "namespace" and v._runtime.policy is not runtime.policy:
                raise Failure(f"result is an array of {v._runtime.label}, not of {runtime.label}")
            if type(v._data) is not np.ndarray or v._data.dtype != v._dtype.numpy:
                raise Failure(
                    f"result array's data {type(v._data).__name__} {getattr(v._data, 'dtype', '')} does not match its dtype {v._dtype}"
                )
            if v._dtype not in v._runtime._dtype_set:
                raise Failure(f"result dtype {v._dtype} does not exist in its namespace")
            if type(v._device) is not xp.Device:
                raise Failure(f"result device {v._device!r} is not a Device")
            return
        if t in (bool, int, float, complex, str, DType, xp.Device, types.NoneType):
            return
        if t in (tuple, list) or isinstance(v, tuple):
            for item in v:
                ok(item, depth + 1)
            return
        if t is dict:
            for item in v.values():
                ok(item, depth + 1)
            return
        if v is NotImplemented and direct_dunder:
            return
        if isinstance(v, types.ModuleType) and hasattr(v, "_runtime"):
            return
        if t.__name__ in ("finfo_object", "iinfo_object", "Info", "PyCapsule") or t.__module__.startswith(
            "array_api_promo"
        ):
            return
        if isinstance(v, np.ndarray) and target.name == "__array__":
            return
        if isinstance(v, types.FunctionType) and target.name == "__reduce__":
            return
        raise Failure(f"result of type {t.__module__}.{t.__qualname__} is not one the standard allows: {v!r:.200}")

    if target.name == "__reduce__":  # the pickle protocol: (callable, arguments incl. the NumPy data)
        if not (type(result) is tuple and callable(result[0])):
            raise Failure(f"__reduce__ gave {result!r:.200}")
        return
    ok(result)


def check_error(target: Target, exc: BaseException, via_operator: bool):
    if isinstance(exc, Timeout):
        raise Failure("the call did not finish within its time limit")
    allowed = ALLOWED_ERRORS + ((BufferError,) if "dlpack" in target.name else ())
    if any(word in target.name for word in ("floor_divide", "floordiv", "remainder", "mod__")):
        allowed += (ZeroDivisionError,)  # integer division by zero, where the policy's library refuses it
    if not isinstance(exc, allowed):
        raise Failure(f"raised {type(exc).__name__}: {exc}") from exc
    message = str(exc)
    if not names_operation(target, message, via_operator):
        kind = "in NumPy's words" if NUMPY_WORDING.search(message) else f"does not name the operation {target.name}"
        raise Failure(f"{type(exc).__name__} {kind}: {message}") from exc


def names_operation(target: Target, message: str, via_operator: bool) -> bool:
    """Whether ``message`` starts with a name of the operation (ours: ``"name: ..."``; Python's protocol wording)."""
    if _PYTHON_WORDING.match(message) or (via_operator and _SEQUENCE_WORDING.match(message)):
        return True
    for word in target.names:
        if message.startswith(word) and message[len(word) : len(word) + 1] in (":", " ", "(", ""):
            return True
    # Python's own signature errors name the callable: "SortingFunctions.argsort() missing ..."
    m = _SIGNATURE_WORDING.match(message)
    return bool(m) and m.group(1) in target.names


def call_and_check(ns, target: Target, self_array, drawn: Drawn, time_limit: float):
    STATS.calls += 1
    STATS.targets.add(target.key)
    STATS.classes.update(drawn.classes)
    before = snapshot(
        [self_array, *drawn.args, *drawn.kwargs.values()]
        if self_array is not None
        else [*drawn.args, *drawn.kwargs.values()]
    )
    direct = target.kind == "operator" and not drawn.via_operator
    if _ALARM:  # interrupt a call that runs Python code past its limit (the elapsed time is checked too)
        old = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, time_limit)
    start = time.perf_counter()
    error = None
    result = None
    try:
        result = invoke(ns, target, self_array, drawn)
    except BaseException as exc:  # noqa: BLE001 - every exception is judged below
        error = exc
    finally:
        if _ALARM:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    elapsed = time.perf_counter() - start
    STATS.seconds += elapsed
    if elapsed > STATS.slowest[0]:
        STATS.slowest = (elapsed, target.key)
    outcome = "ok" if error is None else type(error).__name__
    STATS.outcomes[outcome] = STATS.outcomes.get(outcome, 0) + 1
    if error is not None and isinstance(error, (KeyboardInterrupt, SystemExit)):
        raise error
    if elapsed > time_limit:
        raise Failure(f"the call took {elapsed:.1f} s, beyond its limit of {time_limit} s")
    # Inputs are untouched: the target of a successful in-place operation may change,
    # and so may anything sharing memory with it.
    mutable = None
    if error is None and (target.inplace or target.name == "__setitem__"):
        mutable = self_array._data
    for obj, saved in before:
        if mutable is not None and (obj is self_array or np.shares_memory(_data_of(obj), mutable)):
            continue
        if _bytes(_data_of(obj)) != saved:
            raise Failure(
                f"an input array changed: {type(obj).__name__} {saved[0]} {saved[1]}"
                + (f" (the call raised {type(error).__name__}: {error})" if error else "")
            )
    if error is not None:
        check_error(target, error, drawn.via_operator)
        return
    check_result(ns, target, result, direct)


def profile_settings() -> dict:
    """The profile: quick (CI) or deep (``HOSTILE_PROFILE=deep``)."""
    name = os.environ.get("HOSTILE_PROFILE", "quick")
    if name == "deep":
        return {"name": name, "examples": int(os.environ.get("HOSTILE_EXAMPLES", "200")), "time_limit": 10.0}
    return {"name": "quick", "examples": int(os.environ.get("HOSTILE_EXAMPLES", "8")), "time_limit": 10.0}
