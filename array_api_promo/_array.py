"""The array object: a NumPy array, its dtype, its namespace's runtime and its device.

Operators hand their work to the runtime of the namespace the array belongs to
(``_runtime``), which asks its policy; the array itself knows no promotion rule.
This module imports no other module of the package but ``_devices``, ``_dtypes`` and
``_core`` (the compiled fast paths): the runtime is reached through the array's
``_runtime`` slot, never imported.
"""

from __future__ import annotations

import operator as _operator
import sys
from typing import Any

import numpy as np

from . import _core
from ._core import fast_path
from ._devices import CPU, Device
from ._dtypes import CATEGORY_BOOL, CATEGORY_COMPLEX, CATEGORY_FLOATING, CATEGORY_INTEGER, DType, bool_

__all__ = ["Array", "OPERATORS", "new_array"]

_new_object = object.__new__
_make_array = _core.make_array  # new_array in C, or None
_ndarray = np.ndarray
_BASIC_KEYS = frozenset((int, slice, type(Ellipsis), type(None)))  # the entries of a basic tuple key
_REAL = (CATEGORY_BOOL, CATEGORY_INTEGER, CATEGORY_FLOATING)


def _basic_tuple(key: tuple) -> bool:
    """Whether a tuple key holds only ints, slices, Ellipsis and None (NumPy's basic indexing)."""
    return all(type(k) in _BASIC_KEYS for k in key)


def _slice_in(s: slice, n) -> bool:
    """Whether a slice's bounds are None or ints within ``-n..n``, for an axis of size ``n``."""
    start, stop = s.start, s.stop
    return (start is None or (type(start) is int and -n <= start <= n)) and (
        stop is None or (type(stop) is int and -n <= stop <= n)
    )


def _plain_key(shape: tuple, key, setitem: bool) -> bool:
    """Whether an int, a slice or a basic tuple key is plain for an array of ``shape``: it names every
    axis (or has one ellipsis), its slices are within bounds and, in ``__setitem__``, it holds no None.
    No policy refuses a plain key; another one the runtime checks (``Policy.undefined_refusals``)."""
    t = type(key)
    if t is int:
        return len(shape) == 1
    if t is slice:
        return len(shape) == 1 and _slice_in(key, shape[0])
    ndim = len(shape)
    count = 0  # the entries that name an axis
    for k in key:
        if k is None:
            if setitem:
                return False
        elif k is not Ellipsis:
            count += 1
    axis, ellipsis = 0, False
    for k in key:
        if k is None:
            continue
        if k is Ellipsis:
            if ellipsis:
                return False
            ellipsis = True
            after = ndim - (count - axis)  # the entries after it name the last axes
            if after < axis:
                return False
            axis = after
            continue
        if type(k) is slice and (axis >= ndim or not _slice_in(k, shape[axis])):
            return False
        axis += 1
    return ellipsis or count == ndim


# NumPy's ufuncs behind Python's binary operators, and the standard's names for them.
_UFUNC_OPERATORS = {
    "add": "add",
    "subtract": "subtract",
    "multiply": "multiply",
    "true_divide": "divide",
    "divide": "divide",
    "floor_divide": "floor_divide",
    "remainder": "remainder",
    "power": "pow",
    "matmul": "matmul",
    "equal": "equal",
    "not_equal": "not_equal",
    "less": "less",
    "less_equal": "less_equal",
    "greater": "greater",
    "greater_equal": "greater_equal",
    "bitwise_and": "bitwise_and",
    "bitwise_or": "bitwise_or",
    "bitwise_xor": "bitwise_xor",
    "left_shift": "bitwise_left_shift",
    "right_shift": "bitwise_right_shift",
}


def _refused_use(x, kind: str) -> BaseException:
    """The TypeError of ``len(x)`` (``kind`` "len": refused by the policy, or x 0-d), of iterating a 0-d x
    ("iter_0d") or of iterating x of more than one dimension ("nd_iteration", refused by the policy)."""
    policy, ndim = x._runtime.policy, x._data.ndim
    if kind == "len" and "len" in policy.undefined_refusals:
        words = f"__len__: the standard's array has no len(); use x.shape[0] (policy {policy.name!r})"
    elif kind == "len":
        return TypeError("__len__: len() of a 0-d array is not defined")
    elif kind == "iter_0d":
        words = "__iter__: iteration over a 0-d array is not defined"
    else:
        words = (
            f"__iter__: iteration over an array of {ndim} dimensions is not defined by the standard (only a 1-d "
            f"array's, element by element); iterate over range(x.shape[0]) and take x[i, ...] (policy {policy.name!r})"
        )
    return x._runtime._refusal(TypeError(words), kind)


# -- operators ------------------------------------------------------------------------------------
# Each factory gives the operator's Python function, in C where the compiled fast paths are
# built (``_core.fast_path``: the C code does this function's plain case and calls it for the rest).
# Each operator looks its signature up in the runtime's fast table (plans that any operands of
# these dtypes meet and that need one plain kernel call; filled by the runtime's one elementwise
# path, ``ElementwiseFunctions._apply2``) and otherwise hands the call to that path.  The
# factories give every operator its real name, in tracebacks too.  The few lines that wrap the
# result are written out in each fast path (here and in the elementwise functions) on purpose:
# a helper call there would cost about a tenth of ``a + b`` in pure Python (measured by
# ``ARRAY_API_PROMO_PURE_PYTHON=1 python -m benchmarks.surface -k "op "``).
_asarray = np.asarray
_ufunc = np.ufunc  # a fast-table kernel that is one takes out= (the in-place operators)
_INT64_MAX = 2**63 - 1  # a larger Python int has a key of its own (promotion.LargeInt)


# dunder -> (the standard's function behind it, "binary" | "reflected" | "inplace" | "unary"):
# filled by the factories below (the audit names the operator a user wrote).
OPERATORS: dict[str, tuple[str, str]] = {}


def _named(function, dunder: str, name: str, form: str):
    OPERATORS[dunder] = (name, form)
    function.__name__ = dunder
    function.__qualname__ = f"Array.{dunder}"
    names = {"co_name": dunder}
    if sys.version_info >= (3, 11):  # code objects carry a qualified name from 3.11 on
        names["co_qualname"] = f"Array.{dunder}"
    function.__code__ = function.__code__.replace(**names)
    return function


def _binary_operator(dunder: str, name: str):
    """``x <op> other``: the elementwise function ``name`` (NotImplemented for foreign operands)."""

    def operator(self, other, /):
        runtime = self._runtime
        t = type(other)
        if t is Array:
            if other._runtime is not runtime or other._device is not self._device:
                return runtime._apply2(name, self, other, True)
            fast = runtime._fast.get((name, self._dtype, other._dtype))
            if fast is None:
                if runtime._flat_keys:  # not met yet, or more than one plain call
                    return runtime._apply2(name, self, other, True)
                # a policy that tells 0-d apart: the key _binary_key gives two arrays of two dtypes
                fast = runtime._fast.get(
                    (name, self._dtype, other._dtype, (self._data.ndim == 0) | ((other._data.ndim == 0) << 1))
                )
                if fast is None:
                    return runtime._apply2(name, self, other, True)
            try:
                out = fast[0](self._data, other._data)
            except ValueError:  # shapes that do not broadcast: the full path says so in our words
                return runtime._apply2(name, self, other, True)
        elif t is float or t is bool or (t is int and other <= _INT64_MAX):
            fast = runtime._fast.get((name, self._dtype, t))
            if fast is None:
                return runtime._apply2(name, self, other, True)
            out = fast[0](self._data, fast[2](other))
        else:
            return runtime._apply2(name, self, other, True)
        result = fast[1]
        if type(out) is not _ndarray:  # NumPy scalars from 0-d operands
            out = _asarray(out)
        device = self._device
        if device is not CPU:
            device.admit(result, runtime)
        array = _new_object(Array)
        array._data = out
        array._dtype = result
        array._runtime = runtime
        array._device = device
        return array

    return fast_path(_core.BINARY_OPERATOR, name, _named(operator, dunder, name, "binary"))


def _reflected_operator(dunder: str, name: str):
    """``other <op> x``: ``name(other, x)``."""

    def operator(self, other, /):
        runtime = self._runtime
        t = type(other)
        if t is float or t is bool or (t is int and other <= _INT64_MAX):
            fast = runtime._fast.get((name, self._dtype, t))
            if fast is not None:
                run, result, convert = fast
                out = run(convert(other), self._data)
                if type(out) is not _ndarray:
                    out = _asarray(out)
                device = self._device
                if device is not CPU:
                    device.admit(result, runtime)
                array = _new_object(Array)
                array._data = out
                array._dtype = result
                array._runtime = runtime
                array._device = device
                return array
        return runtime._apply2(name, other, self, True)

    return fast_path(_core.REFLECTED_OPERATOR, name, _named(operator, dunder, name, "reflected"))


def _inplace_operator(dunder: str, name: str):
    """``x <op>= other``: computed by ``name``, stored into ``x`` if the policy allows the cast back."""

    def operator(self, other, /):
        runtime = self._runtime
        t = type(other)
        fast = None
        if t is Array:
            if other._runtime is runtime and other._device is self._device:
                fast = runtime._fast.get((name, self._dtype, other._dtype))
                value = other._data
        elif t is float or t is bool or (t is int and other <= _INT64_MAX):
            fast = runtime._fast.get((name, self._dtype, t))
            if fast is not None:
                value = fast[2](other)
        if fast is not None and fast[1] is self._dtype and type(fast[0]) is _ufunc:  # (a special-value kernel: no out=)
            try:  # straight into x's data; a shape or a read-only x that refuses it takes the full path
                fast[0](self._data, value, out=self._data)
                return self
            except ValueError:
                pass
        return runtime._inplace(name, self, other)

    return fast_path(_core.INPLACE_OPERATOR, name, _named(operator, dunder, name, "inplace"))


def _unary_operator(dunder: str, name: str):
    def operator(self, /):
        runtime = self._runtime
        fast = runtime._fast.get((name, self._dtype))
        if fast is None:
            return runtime._apply1(name, self)
        out = fast[0](self._data)
        result = fast[1]
        if type(out) is not _ndarray:
            out = _asarray(out)
        device = self._device
        if device is not CPU:
            device.admit(result, runtime)
        array = _new_object(Array)
        array._data = out
        array._dtype = result
        array._runtime = runtime
        array._device = device
        return array

    return fast_path(_core.UNARY_OPERATOR, name, _named(operator, dunder, name, "unary"))


class Array:
    """An array of an ``array_api_promo`` namespace.

    Create arrays with the namespace's functions (``asarray``, ``zeros`` ...);
    the constructor is private.
    """

    __slots__ = ("_data", "_dtype", "_runtime", "_device", "__weakref__")
    _data: np.ndarray
    _dtype: DType
    _runtime: Any  # the namespace's Runtime (imported by it, not here: the import chain runs one way)
    _device: Device
    __array_priority__ = 1000

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """NumPy's ufuncs with our arrays among the operands.

        The ufunc of a binary operator given a NumPy operand (``np.ones(3) + x``,
        ``np.float32(2) * x``: NumPy calls it for the operator) is that operator:
        a NumPy array is refused in our words (``a += x`` with ``a`` a NumPy array too)
        and a NumPy scalar goes by the policy (``ElementwiseFunctions._bad_operands``).
        Any other ufunc call (``np.abs(x)``, ``np.maximum.reduce(x)``, as SciPy's NumPy-only
        code makes) is NumPy code on the CPU data: our arrays convert by ``__array__`` and
        the result is NumPy's, as with array-api-strict.
        """
        name = _UFUNC_OPERATORS.get(ufunc.__name__)
        if (
            name is not None
            and method == "__call__"
            and len(inputs) == 2
            and any(isinstance(i, (_ndarray, np.generic)) for i in inputs)
        ):
            if kwargs:  # ``a += x`` with ``a`` a NumPy array: np.add(a, x, out=(a,))
                self._runtime._refuse_numpy_operands(name, inputs)
            out = self._runtime._apply2(name, inputs[0], inputs[1], True)
            if out is NotImplemented:
                raise TypeError(
                    f"{name}: unsupported operands {type(inputs[0]).__name__} and {type(inputs[1]).__name__}"
                )
            return out
        if any(type(o) is Array for o in kwargs.get("out") or ()):
            raise TypeError(
                f"{ufunc.__name__}: out= cannot be an array of {self._runtime.label}; NumPy cannot write into it"
            )
        inputs = tuple(i.__array__() if type(i) is Array else i for i in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __init__(self, *args, **kwargs):
        raise TypeError(
            "Array objects are not created directly; use asarray(), zeros() or another "
            "creation function of an array_api_promo namespace"
        )

    @classmethod
    def _new(cls, data: np.ndarray, dtype, runtime, device: Device = CPU) -> Array:
        if device is not CPU:
            device.admit(dtype, runtime)
        if cls is Array and _make_array is not None:
            return _make_array(data, dtype, runtime, device)
        self = _new_object(cls)
        self._data = data
        self._dtype = dtype
        self._runtime = runtime
        self._device = device
        return self

    # -- attributes -------------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def device(self) -> Device:
        return self._device

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def _shape(self) -> tuple[int | None, ...]:
        data = self._data
        if type(data) is _ndarray:
            return data.shape
        return tuple(None if s != s else s for s in data.shape)  # lazy storage: NaN is an unknown size

    shape = property(fast_path(_core.SHAPE, "shape", _shape), doc="The array's dimensions (``None``: not known yet).")

    @property
    def size(self) -> int | None:
        data = self._data
        if type(data) is _ndarray:
            return data.size
        size = data.size
        return None if size != size else size

    def _transposed(self) -> Array:
        """``x.T``: the transpose of a 2-d array (a view)."""
        data = self._data
        if data.ndim != 2:
            raise self._runtime._refusal(
                ValueError(
                    f"T: x.T requires a two-dimensional array, got {data.ndim} dimensions; use permute_dims() or matrix_transpose()"
                ),
                "transpose",
            )
        return self._view(data.T)

    def _matrix_transposed(self) -> Array:
        """``x.mT``: the transpose of each matrix (a view)."""
        data = self._data
        if data.ndim < 2:
            raise self._runtime._refusal(
                ValueError(f"mT: x.mT requires at least two dimensions, got {data.ndim}"), "min_2d", "matrix_transpose"
            )
        return self._view(np.swapaxes(data, -1, -2))

    # the plain case in C: NumPy's view, in an array of x's dtype, namespace and device
    T = property(fast_path(_core.MATRIX_VIEW, "T", _transposed))
    mT = property(fast_path(_core.MATRIX_VIEW, "mT", _matrix_transposed))

    def _view(self, data) -> Array:
        """A new array of ``data`` (a view of this one's) with this one's dtype, namespace and device."""
        return new_array(data, self._dtype, self._runtime, self._device)  # this array is on the device

    def __array_namespace__(self, /, *, api_version: str | None = None):
        runtime = self._runtime
        if api_version is None or (type(api_version) is str and api_version == runtime.api_version):
            return runtime.module
        return runtime.namespace_at(api_version)

    def to_device(self, device: Device, /, *, stream=None) -> Array:
        if device is self._device and stream is None:  # where it is (every check below passes): itself
            return self
        if stream is not None:
            raise self._runtime._refusal(
                ValueError("to_device: stream is not supported for host devices; pass stream=None"), "to_device_stream"
            )
        if device is None and "none_device" in self._runtime.policy.undefined_refusals:
            raise self._runtime._refusal(
                ValueError(
                    "to_device: device must be a Device, got None; the standard names the device to move to "
                    f"(policy {self._runtime.policy.name!r})"
                ),
                "device_arg",
                "to_device",
                device,
            )
        device = self._runtime._check_device(device, "to_device")
        if device is self._device:
            return self
        return Array._new(self._data.copy(), self._dtype, self._runtime, device)

    # -- conversion -------------------------------------------------------------------
    def __repr__(self) -> str:
        if type(self._data) is not _ndarray or self._runtime.own_repr:  # lazy storage; the stand-in's own
            return self._runtime._repr(self)
        body = np.array2string(self._data, separator=", ", prefix="Array(")
        extra = "" if self._device is CPU else f", device={self._device.name}"
        policy = self._runtime.policy.name
        tail = "" if policy == "array_api" else f", policy={policy}"
        return f"Array({body}, dtype={self._dtype.name}{extra}{tail})"

    __str__ = __repr__

    def __array__(self, dtype=None, copy=None):
        if copy is not None and type(copy) is not bool:
            raise TypeError(f"__array__: copy must be True, False or None, got {type(copy).__name__}")
        # CPU conversion for NumPy-only code paths of consumers.
        if self._device is not CPU:
            raise self._runtime._refusal(
                RuntimeError(f"__array__: the array is on {self._device.name}; call to_device(CPU) first"),
                "host_conversion",
                self._device,
            )
        data = self._data
        if type(data) is not _ndarray:  # lazy storage: computed here
            data = self._runtime._to_numpy(self)
        if dtype is not None:
            try:
                dtype = np.dtype(dtype)
            except (TypeError, ValueError):
                raise TypeError(f"__array__: dtype must be a NumPy dtype or None, got {type(dtype).__name__}") from None
        if dtype is not None and dtype != data.dtype:
            if copy is False:
                raise ValueError("__array__: a dtype change needs a copy, but copy=False")
            return data.astype(dtype)
        if copy:
            return data.copy()
        return data

    def __format__(self, spec: str) -> str:
        # f"{x:g}" of a 0-d array formats its value, as NumPy's 0-d arrays and scalars do
        # (NumPy's assert_allclose formats an atol that SciPy computes as one).
        if type(spec) is not str:
            raise TypeError(f"__format__: format spec must be a str, got {type(spec).__name__}")
        if not spec:
            return str(self)
        if self._data.ndim != 0:
            raise TypeError(f"__format__: format spec {spec!r} needs a 0-d array, got shape {self._data.shape}")
        value = (self._data if type(self._data) is _ndarray else self._runtime._to_numpy(self)).item()
        try:
            return format(value, spec)
        except (TypeError, ValueError) as exc:  # Python's words ("Unknown format code"), named
            raise type(exc)(f"__format__: {exc} (a 0-d {self._dtype.name} array)") from None

    def __reduce__(self):
        # By policy name and version: the unpickled array belongs to that namespace.
        return self._runtime.reduce_array(self)

    def _scalar(self, convert, name: str, allowed):
        data = self._data
        if data.ndim != 0:
            raise self._runtime._refusal(
                TypeError(f"{name}: only 0-d arrays convert to a Python scalar, got shape {data.shape}"),
                "scalar_conversion",
                name,
                self,
            )
        if self._dtype.category not in allowed:
            raise self._runtime._refusal(
                TypeError(f"{name}: not defined for an array of dtype {self._dtype.name}"),
                "scalar_conversion",
                name,
                self,
            )
        return convert(data[()])

    def __bool__(self) -> bool:
        return self._scalar(bool, "__bool__", _REAL + (CATEGORY_COMPLEX,))

    def __int__(self) -> int:
        value = self._scalar(lambda v: v, "__int__", _REAL)
        if self._dtype.category == CATEGORY_FLOATING:
            f = float(value)
            if f != f:
                raise ValueError("__int__: cannot convert NaN to an integer")
            if f in (float("inf"), float("-inf")):
                raise OverflowError("__int__: cannot convert infinity to an integer")
        return int(value)

    def __float__(self) -> float:
        return self._scalar(float, "__float__", _REAL)

    __float__ = fast_path(_core.FLOAT, "float", __float__)

    def __complex__(self) -> complex:
        return self._scalar(complex, "__complex__", _REAL + (CATEGORY_COMPLEX,))

    def __index__(self) -> int:
        return self._scalar(_operator.index, "__index__", (CATEGORY_INTEGER,))

    # -- DLPack -------------------------------------------------------------------------
    def __dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
        if stream is not None:
            raise BufferError("__dlpack__: stream must be None for host arrays")
        if dl_device is not None and not (
            type(dl_device) is tuple and len(dl_device) == 2 and all(isinstance(v, int) for v in dl_device)
        ):
            raise TypeError(
                f"__dlpack__: dl_device must be None or a (device type, device id) tuple, got {dl_device!r}"
            )
        if dl_device is not None and dl_device != (1, 0):
            raise BufferError(f"__dlpack__: cannot export to device {dl_device}; only the CPU (1, 0) is supported")
        kwargs = {}
        if max_version is not None:
            if type(max_version) is not tuple or len(max_version) != 2 or not all(type(v) is int for v in max_version):
                raise TypeError(f"__dlpack__: max_version must be None or a tuple of two ints, got {max_version!r}")
            kwargs["max_version"] = max_version
        if copy is not None:
            kwargs["copy"] = copy
        data = self._data
        if type(data) is not _ndarray:  # lazy storage: computed here
            data = self._runtime._to_numpy(self)
        if copy is True:
            data = data.copy()
            kwargs.pop("copy")
        try:
            return data.__dlpack__(**kwargs)
        except (BufferError, TypeError, ValueError) as exc:  # e.g. bool before DLPack 1.0
            raise type(exc)(f"__dlpack__: {exc}") from None

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU: every device of this package keeps host memory

    # -- indexing ---------------------------------------------------------------------------
    def __getitem__(self, key, /):
        tk = type(key)
        if tk is slice or tk is int:
            if (self._data.ndim != 1 or (tk is slice and not _slice_in(key, self._data.shape[0]))) and (
                self._runtime._key_refusals
            ):
                return self._runtime._getitem(self, key)  # a key that is not plain, which the policy may refuse
            try:
                data = self._data[key]
            except (IndexError, ValueError, OverflowError):  # out of bounds, x[::0], x[2**70]
                if tk is int and self._data.ndim:
                    raise IndexError(
                        f"__getitem__: index {key} is out of bounds for axis 0 with size {self._data.shape[0]}"
                    ) from None
                return self._runtime._getitem(self, key)  # worded by the namespace's path
            except TypeError:
                if type(self._data) is _ndarray:
                    raise
                return self._runtime._getitem(self, key)  # lazy storage: bounds that are 0-d arrays
            if type(data) is not _ndarray:  # one element of a 1-d array: a new 0-d array
                if not isinstance(data, np.generic):  # lazy storage: its runtime's path
                    return self._runtime._getitem(self, key)
                data = np.asarray(data)
            array = _new_object(Array)
            array._data = data
            array._dtype = self._dtype
            array._runtime = self._runtime
            array._device = self._device
            return array
        if (
            tk is tuple
            and type(self._data) is _ndarray
            and _basic_tuple(key)
            and (_plain_key(self._data.shape, key, False) or not self._runtime._key_refusals)
        ):
            # ints, slices, ... and None: NumPy's basic indexing, as the namespace's own path
            try:
                data = self._data[key]
            except (IndexError, ValueError, TypeError, OverflowError):
                return self._runtime._getitem(self, key)  # worded by the namespace's path
            if type(data) is not _ndarray:  # one element: a new 0-d array
                data = np.asarray(data)
            array = _new_object(Array)
            array._data = data
            array._dtype = self._dtype
            array._runtime = self._runtime
            array._device = self._device
            return array
        if tk is Array and type(self._data) is _ndarray:
            if self._own_mask(key):  # nothing to check but what was just checked (lazy storage: its runtime)
                data = self._data[key._data]
            elif (
                key._dtype.category == CATEGORY_INTEGER
                and key._runtime is self._runtime
                and key._device is self._device
                and type(key._data) is _ndarray
                and (self._data.ndim == 1 or not self._runtime._key_refusals)
            ):  # an integer array of this namespace: NumPy's integer array indexing, as the namespace's path
                try:
                    data = self._data[key._data]
                except (IndexError, ValueError, TypeError, OverflowError):
                    return self._runtime._getitem(self, key)  # worded by the namespace's path
                if type(data) is not _ndarray:  # a 0-d index of a 1-d array: one element, a new 0-d array
                    data = np.asarray(data)
            else:
                return self._runtime._getitem(self, key)
            array = _new_object(Array)
            array._data = data
            array._dtype = self._dtype
            array._runtime = self._runtime
            array._device = self._device
            return array
        return self._runtime._getitem(self, key)

    __getitem__ = fast_path(_core.GETITEM, "getitem", __getitem__)

    def _own_mask(self, key) -> bool:
        """Whether ``key`` (an Array) is a boolean mask of this array's own shape, namespace and
        device, where the namespace allows boolean indexing: nothing left for its path to check."""
        return (
            key._dtype is bool_
            and key._runtime is self._runtime
            and key._device is self._device
            and key._data.shape == self._data.shape
            and self._runtime.boolean_indexing
        )

    def __setitem__(self, key, value, /):
        data = self._data
        tk = type(key)
        if (
            type(data) is _ndarray
            and (
                tk is int
                or tk is slice
                or key is Ellipsis
                or (tk is tuple and _basic_tuple(key))
                or (tk is Array and self._own_mask(key) and type(key._data) is _ndarray)
            )
            and (
                tk is Array
                or key is Ellipsis
                or _plain_key(data.shape, key, True)
                or not self._runtime._key_refusals  # (another key: the policy's check)
            )
        ):
            runtime = self._runtime
            converters = runtime._setitem_converters
            t = type(value)
            if t is Array:
                # one of this namespace's arrays of x's dtype: the namespace's path checks nothing more
                # (an audited runtime's table is not a plain dict: each of its stores is audited)
                store = (
                    value._data
                    if value._dtype is self._dtype
                    and value._runtime is runtime
                    and value._device is self._device
                    and type(converters) is dict
                    else None
                )
            else:
                store = None
                # a Python scalar of a type whose store into this dtype the namespace's path allowed
                # before (into an x of dimensions: a 0-d x is allowed apart)
                convert = converters.get((self._dtype, t)) if data.ndim else None
                if convert is not None and (t is not int or -_INT64_MAX - 1 <= value <= _INT64_MAX):
                    try:
                        store = convert(value)
                    except (IndexError, ValueError, TypeError, OverflowError):
                        store = None  # a value out of range: worded by the namespace's path
            if store is not None:
                try:
                    data[key if tk is not Array else key._data] = store
                    return
                except (IndexError, ValueError, TypeError, OverflowError):
                    pass  # out of bounds, read-only, shapes that do not match: worded by the namespace's path
        self._runtime._setitem(self, key, value)

    __setitem__ = fast_path(_core.SETITEM, "setitem", __setitem__)

    def __iter__(self):
        ndim = self._data.ndim
        if ndim == 0 or (ndim > 1 and "nd_iteration" in self._runtime.policy.undefined_refusals):
            raise _refused_use(self, "iter_0d" if ndim == 0 else "nd_iteration")
        if ndim == 1:
            return (self[i] for i in range(self._data.shape[0]))
        return (self[i, ...] for i in range(self._data.shape[0]))  # (every axis named: x2d[0] may be refused)

    def __len__(self) -> int:
        if "len" in self._runtime.policy.undefined_refusals or self._data.ndim == 0:
            raise _refused_use(self, "len")
        n = self._data.shape[0]
        if n != n:
            raise TypeError("__len__: the length of this lazy array is unknown until computed; compute() it first")
        return n

    # -- operators (the standard's names; dunder -> elementwise function) --------------------
    __add__ = _binary_operator("__add__", "add")
    __sub__ = _binary_operator("__sub__", "subtract")
    __mul__ = _binary_operator("__mul__", "multiply")
    __truediv__ = _binary_operator("__truediv__", "divide")
    __floordiv__ = _binary_operator("__floordiv__", "floor_divide")
    __mod__ = _binary_operator("__mod__", "remainder")
    __pow__ = _binary_operator("__pow__", "pow")
    __matmul__ = _binary_operator("__matmul__", "matmul")
    __and__ = _binary_operator("__and__", "bitwise_and")
    __or__ = _binary_operator("__or__", "bitwise_or")
    __xor__ = _binary_operator("__xor__", "bitwise_xor")
    __lshift__ = _binary_operator("__lshift__", "bitwise_left_shift")
    __rshift__ = _binary_operator("__rshift__", "bitwise_right_shift")

    __radd__ = _reflected_operator("__radd__", "add")
    __rsub__ = _reflected_operator("__rsub__", "subtract")
    __rmul__ = _reflected_operator("__rmul__", "multiply")
    __rtruediv__ = _reflected_operator("__rtruediv__", "divide")
    __rfloordiv__ = _reflected_operator("__rfloordiv__", "floor_divide")
    __rmod__ = _reflected_operator("__rmod__", "remainder")
    __rpow__ = _reflected_operator("__rpow__", "pow")
    __rmatmul__ = _reflected_operator("__rmatmul__", "matmul")
    __rand__ = _reflected_operator("__rand__", "bitwise_and")
    __ror__ = _reflected_operator("__ror__", "bitwise_or")
    __rxor__ = _reflected_operator("__rxor__", "bitwise_xor")
    __rlshift__ = _reflected_operator("__rlshift__", "bitwise_left_shift")
    __rrshift__ = _reflected_operator("__rrshift__", "bitwise_right_shift")

    __iadd__ = _inplace_operator("__iadd__", "add")
    __isub__ = _inplace_operator("__isub__", "subtract")
    __imul__ = _inplace_operator("__imul__", "multiply")
    __itruediv__ = _inplace_operator("__itruediv__", "divide")
    __ifloordiv__ = _inplace_operator("__ifloordiv__", "floor_divide")
    __imod__ = _inplace_operator("__imod__", "remainder")
    __ipow__ = _inplace_operator("__ipow__", "pow")
    __imatmul__ = _inplace_operator("__imatmul__", "matmul")
    __iand__ = _inplace_operator("__iand__", "bitwise_and")
    __ior__ = _inplace_operator("__ior__", "bitwise_or")
    __ixor__ = _inplace_operator("__ixor__", "bitwise_xor")
    __ilshift__ = _inplace_operator("__ilshift__", "bitwise_left_shift")
    __irshift__ = _inplace_operator("__irshift__", "bitwise_right_shift")

    __eq__ = _binary_operator("__eq__", "equal")
    __ne__ = _binary_operator("__ne__", "not_equal")
    __lt__ = _binary_operator("__lt__", "less")
    __le__ = _binary_operator("__le__", "less_equal")
    __gt__ = _binary_operator("__gt__", "greater")
    __ge__ = _binary_operator("__ge__", "greater_equal")
    __hash__ = None  # type: ignore[assignment]  # arrays compare elementwise, so they are not hashable

    __neg__ = _unary_operator("__neg__", "negative")
    __pos__ = _unary_operator("__pos__", "positive")
    __abs__ = _unary_operator("__abs__", "abs")
    __invert__ = _unary_operator("__invert__", "bitwise_invert")


_core.register_array(Array, _ndarray, _asarray, bool_, np.array, CPU)


def new_array(data: np.ndarray, dtype, runtime, device: Device = CPU) -> Array:
    """``Array._new`` for a device known to hold ``dtype`` (the CPU holds every dtype): without the
    admission check, the call costs a third of a view's.  The operators above inline it (one call
    less on their Python path, which is the whole path without the compiled module).  Compiled:
    the same in C (``make_array``), a third of this function's time."""
    array = _new_object(Array)
    array._data = data
    array._dtype = dtype
    array._runtime = runtime
    array._device = device
    return array


if _core.make_array is not None:
    new_array = _core.make_array  # noqa: F811 - (the function above is the pure-Python build's)
