"""The array object: a NumPy array, its dtype, its namespace and its device.

Operators hand their work to the namespace the array belongs to, which asks
its policy; the array itself knows no promotion rule.
"""

from __future__ import annotations

import operator as _operator

import numpy as np

from ._devices import CPU, Device

__all__ = ["Array"]

_new_object = object.__new__
_ndarray = np.ndarray
_PY_SCALARS = (bool, int, float, complex)


class Array:
    """An array of an ``array_api_promo`` namespace.

    Create arrays with the namespace's functions (``asarray``, ``zeros`` ...);
    the constructor is private.
    """

    __slots__ = ("_data", "_dtype", "_ns", "_device", "__weakref__")
    __array_priority__ = 1000

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # NumPy asks us before it applies a ufunc to one of our arrays: ``ndarray + x``,
        # ``a += x`` with ``a`` a NumPy array, ``np.sin(x)``. Refuse in our words (never
        # let NumPy treat the array as an object scalar).
        self._ns._refuse_ufunc(ufunc, inputs + kwargs.get("out", ()))

    def __init__(self, *args, **kwargs):
        raise TypeError(
            "Array objects are not created directly; use asarray(), zeros() or another "
            "creation function of an array_api_promo namespace"
        )

    @classmethod
    def _new(cls, data: np.ndarray, dtype, ns, device: Device = CPU) -> "Array":
        self = _new_object(cls)
        self._data = data
        self._dtype = dtype
        self._ns = ns
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

    @property
    def shape(self) -> tuple[int, ...]:
        return self._data.shape

    @property
    def size(self) -> int:
        return self._data.size

    @property
    def T(self) -> "Array":
        if self._data.ndim != 2:
            raise ValueError(f"T: x.T requires a two-dimensional array, got {self._data.ndim} dimensions; use permute_dims() or matrix_transpose()")
        return Array._new(self._data.T, self._dtype, self._ns, self._device)

    @property
    def mT(self) -> "Array":
        if self._data.ndim < 2:
            raise ValueError(f"mT: x.mT requires at least two dimensions, got {self._data.ndim}")
        return Array._new(np.swapaxes(self._data, -1, -2), self._dtype, self._ns, self._device)

    def __array_namespace__(self, /, *, api_version: str | None = None):
        ns = self._ns
        if api_version is None or (type(api_version) is str and api_version == ns.api_version):
            return ns.module
        from ._namespace import API_VERSIONS, namespace

        if type(api_version) is not str or api_version not in API_VERSIONS:
            raise ValueError(
                f"__array_namespace__: unsupported api_version {api_version!r}; supported: {', '.join(API_VERSIONS)}"
            )

        return namespace(ns.policy, api_version)

    def to_device(self, device: Device, /, *, stream=None) -> "Array":
        if stream is not None:
            raise ValueError("to_device: stream is not supported for host devices; pass stream=None")
        device = self._ns._check_device(device, "to_device")
        if device is self._device:
            return self
        return Array._new(self._data.copy(), self._dtype, self._ns, device)

    # -- conversion -------------------------------------------------------------------
    def __repr__(self) -> str:
        body = np.array2string(self._data, separator=", ", prefix="Array(")
        extra = "" if self._device is CPU else f", device={self._device.name}"
        policy = self._ns.policy.name
        tail = "" if policy == "array_api" else f", policy={policy}"
        return f"Array({body}, dtype={self._dtype.name}{extra}{tail})"

    __str__ = __repr__

    def __array__(self, dtype=None, copy=None):
        if copy is not None and type(copy) is not bool:
            raise TypeError(f"__array__: copy must be True, False or None, got {type(copy).__name__}")
        # CPU conversion for NumPy-only code paths of consumers.
        if self._device is not CPU:
            raise RuntimeError(f"__array__: the array is on {self._device.name}; call to_device(CPU) first")
        data = self._data
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

    def __reduce__(self):
        from ._namespace import _unpickle_array

        ns = self._ns
        return (_unpickle_array, (self._data, ns.policy.name, ns.api_version, self._device))

    def _scalar(self, convert, name: str, allowed):
        data = self._data
        if data.ndim != 0:
            raise TypeError(f"{name}: only 0-d arrays convert to a Python scalar, got shape {data.shape}")
        if self._dtype.category not in allowed:
            raise TypeError(f"{name}: not defined for an array of dtype {self._dtype.name}")
        return convert(data[()])

    def __bool__(self) -> bool:
        return self._scalar(bool, "__bool__", (0, 1, 2, 3))

    def __int__(self) -> int:
        value = self._scalar(lambda v: v, "__int__", (0, 1, 2))
        if self._dtype.category == 2:
            f = float(value)
            if f != f:
                raise ValueError("__int__: cannot convert NaN to an integer")
            if f in (float("inf"), float("-inf")):
                raise OverflowError("__int__: cannot convert infinity to an integer")
        return int(value)

    def __float__(self) -> float:
        return self._scalar(float, "__float__", (0, 1, 2))

    def __complex__(self) -> complex:
        return self._scalar(complex, "__complex__", (0, 1, 2, 3))

    def __index__(self) -> int:
        return self._scalar(_operator.index, "__index__", (1,))

    # -- DLPack -------------------------------------------------------------------------
    def __dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
        if stream is not None:
            raise BufferError("__dlpack__: stream must be None for host arrays")
        if dl_device is not None and not (
            type(dl_device) is tuple and len(dl_device) == 2 and all(isinstance(v, int) for v in dl_device)
        ):
            raise TypeError(f"__dlpack__: dl_device must be None or a (device type, device id) tuple, got {dl_device!r}")
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
            try:
                data = self._data[key]
            except (IndexError, ValueError, OverflowError):  # out of bounds, x[::0], x[2**70]
                if tk is int and self._data.ndim:
                    raise IndexError(
                        f"__getitem__: index {key} is out of bounds for axis 0 with size {self._data.shape[0]}"
                    ) from None
                return self._ns._getitem(self, key)  # worded by the namespace's path
            if type(data) is not _ndarray:  # one element of a 1-d array: a new 0-d array
                data = np.asarray(data)
            array = _new_object(Array)
            array._data = data
            array._dtype = self._dtype
            array._ns = self._ns
            array._device = self._device
            return array
        return self._ns._getitem(self, key)

    def __setitem__(self, key, value, /):
        self._ns._setitem(self, key, value)

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("__iter__: iteration over a 0-d array is not defined")
        return (self[i] for i in range(self._data.shape[0]))

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("__len__: len() of a 0-d array is not defined")
        return self._data.shape[0]

    # The operators (__add__, __radd__, __iadd__, __eq__, __neg__ ...) are installed
    # by _elementwise_functions, which owns the one path of every elementwise operation.
