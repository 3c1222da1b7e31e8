"""Creation functions of the standard: those from data (asarray, from_dlpack) here, and the
class that composes them with the fills (_creation_fills) and the ranges (_creation_ranges).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import _core, _dtypes as D
from ._array import Array
from ._core import fast_path
from ._creation_fills import FillCreation, check_shape
from ._creation_ranges import RangeCreation
from ._devices import CPU
from ._errors import ArgumentError
from ._runtime import describe_value, is_one_of

if TYPE_CHECKING:
    from ._devices import Device
    from ._dtypes import DType
    from ._typing import NestedSequence, SupportsBufferProtocol

__all__ = ["CreationFunctions", "check_shape"]  # (check_shape: for the Dask runtime's creation)

_new_object = object.__new__


class CreationFunctions(FillCreation, RangeCreation):
    """Mixin: array creation under the namespace's policy and defaults (from data here; fills and ranges inherited)."""

    # -- helpers -------------------------------------------------------------------------------
    def _default_dtype_of_scalar(self, value, device):
        t = type(value)
        if t is bool:
            return D.bool_
        if t is int:
            return self._default("integral", device)
        if t is float:
            return self._default("real floating", device)
        return self._default("complex floating", device)

    def _infer_dtype(self, obj, func, device):
        """The default dtype for nested Python scalars (bool < int < float < complex)."""
        kinds = set()
        numpy_dtypes = set()
        by_dtype = self.policy.sequence_numpy_scalars

        def walk(o, depth):
            t = type(o)
            if t in D.PY_SCALARS:
                kinds.add(t)
            elif by_dtype and isinstance(o, np.generic) and id(o.dtype) in self._native_dtypes:
                numpy_dtypes.add(self._native_dtypes[id(o.dtype)])
            elif isinstance(o, (float, complex)):  # np.float64 and np.complex128 are Python scalars
                kinds.add(complex if isinstance(o, complex) else float)
            elif t is Array:
                if "nested_arrays" in self.policy.undefined_refusals:
                    raise TypeError(
                        f"{func}: a sequence holding arrays is not allowed; the standard takes nested Python "
                        f"scalars; join arrays with stack() (policy {self.policy.name!r})"
                    )
                kinds.add(o._dtype)
            elif isinstance(o, (list, tuple)):
                if depth > 64:
                    raise ValueError(f"{func}: nesting is too deep")
                for item in o:
                    walk(item, depth + 1)
            else:
                raise self._refusal(
                    TypeError(f"{func}: cannot make an array from {type(o).__name__} {o!r}"), "no_such_dtype", obj
                )

        walk(obj, 0)
        dtypes = {k for k in kinds if type(k) is D.DType}
        if dtypes:
            if len(dtypes) == 1 and not (kinds - dtypes) and not numpy_dtypes:
                return dtypes.pop()
            raise TypeError(f"{func}: nested sequences mixing arrays and other values need an explicit dtype")
        if numpy_dtypes:
            # torch's inferScalarType: each NumPy scalar by its dtype, each Python scalar by its
            # default dtype, joined by promoteTypes (torch.asarray([np.float64(1.), 2.]) is float64)
            python = [self._python_kinds_dtype(kinds, device)] if kinds else []
            return self.policy.result_type(*sorted(numpy_dtypes, key=lambda d: d.name), *python)
        return self._python_kinds_dtype(kinds, device)

    def _python_kinds_dtype(self, kinds, device):
        """The default dtype for a set of Python scalar types (bool < int < float < complex)."""
        if complex in kinds:
            return self._default("complex floating", device)
        if float in kinds:
            return self._default("real floating", device)
        if int in kinds:
            return self._default("integral", device)
        if bool in kinds or not kinds:
            return D.bool_ if kinds else self._default("real floating", device)
        raise AssertionError

    # -- the standard's functions ----------------------------------------------------------------
    def asarray(
        self,
        obj: Array | complex | NestedSequence[complex] | SupportsBufferProtocol,
        /,
        *,
        dtype: DType | None = None,
        device: Device | None = None,
        copy: bool | None = None,
    ) -> Array:
        """Converts ``obj`` (an array, a Python scalar, a nested sequence or a buffer) to an array."""
        t = type(obj)
        if t is Array and obj._runtime is self and dtype is None and device is None:
            if copy is None:  # an array of this namespace, as it is (what _from_array answers)
                return obj
            if copy is True and type(obj._data) is np.ndarray:
                array = _new_object(Array)  # the device holds the dtype: obj is on it
                array._data = obj._data.copy()
                array._dtype = obj._dtype
                array._runtime = self
                array._device = obj._device
                return array
        if t is np.ndarray:
            if dtype is None and device is None and copy is None:
                # Fast path: wrap a NumPy array of one of our dtypes without a copy.
                ours = self._native_dtypes.get(id(obj.dtype))
                if ours is not None:
                    array = _new_object(Array)
                    array._data = obj  # type: ignore[assignment]  # (an ndarray: t is np.ndarray)
                    array._dtype = ours
                    array._runtime = self
                    array._device = CPU
                    return array
        elif (
            t is list
            and device is None
            and (copy is None or copy is True)  # anything else is the general path's TypeError
            and obj
            and (
                dtype is None
                or (type(dtype) is D.DType and dtype in self._dtype_set and dtype.category >= D.CATEGORY_FLOATING)
            )
        ):
            # Fast path: a flat list of Python floats into the default or a floating dtype (exactly
            # what the general path below does for it, without walking the list twice).
            for item in obj:
                if type(item) is not float:
                    break
            else:
                dtype = self.policy.default_float if dtype is None else dtype
                array = _new_object(Array)  # Array._new inlined: its call costs a tenth of the whole
                array._data = np.array(obj, dtype.numpy)
                array._dtype = dtype
                array._runtime = self
                array._device = CPU
                return array
        func = "asarray"
        if dtype is not None:
            dtype = self._check_dtype(dtype, func)
        if device is not None:
            device = self._check_device(device, func)
        if not is_one_of(copy, (None, True, False)):
            copy = self._copy_flag(copy, func)
        if t is Array:
            return self._from_array(obj, dtype, device, copy, func)
        device = CPU if device is None else device
        if t in D.PY_SCALARS:
            if copy is False:
                raise ValueError("asarray: copy=False is impossible for a Python scalar")
            given, dtype = dtype, self._default_dtype_of_scalar(obj, device) if dtype is None else dtype
            try:
                return Array._new(self._exact_scalar(obj, dtype, func), dtype, self, device)
            except OverflowError as exc:
                raise self._refusal(exc, "asarray_int", obj, given) from None
        if isinstance(obj, type):  # np.float64 the class has __array__, but is no array
            raise TypeError(f"asarray: cannot make an array from the type {obj.__name__}; pass a value")
        if t is np.ndarray or (t is not list and t is not tuple and _has_buffer(obj)):
            data = np.asarray(obj) if t is not np.ndarray else obj
            return self._from_numpy(data, dtype, device, copy, func)
        if isinstance(obj, (list, tuple)):
            if copy is False:
                raise ValueError("asarray: copy=False is impossible for a Python sequence")
            if dtype is None:
                dtype = self._infer_dtype(obj, func, device)
            data = _nested_to_numpy(obj, dtype, func, self.policy.create_scalar)
            return Array._new(data, dtype, self, device)
        if hasattr(obj, "__dlpack__"):
            return self.from_dlpack(obj, device=device, copy=copy)
        if hasattr(obj, "__array__") or hasattr(obj, "__array_interface__"):
            return self._from_numpy(np.asarray(obj), dtype, device, copy, func)
        raise self._refusal(
            TypeError(f"asarray: cannot make an array from {describe_value(obj)}"), "no_such_dtype", obj
        )

    asarray = fast_path(_core.ASARRAY, "asarray", asarray)  # one of ours, an ndarray, a list of floats: in C

    def _from_array(self, obj, dtype, device, copy, func):
        """``obj`` (an array) in this namespace, on ``device`` and of ``dtype``: itself when nothing changes."""
        if obj._runtime is not self:
            self._check_array(obj, func, "obj")
        target = obj._device if device is None else device
        if dtype is None or dtype is obj._dtype:
            if copy or target is not obj._device:
                if copy is False:
                    raise ValueError(f"{func}: copy=False but a copy is needed to change device")
                return Array._new(obj._data.copy(), obj._dtype, self, target)
            return obj if obj._runtime is self else Array._new(obj._data, obj._dtype, self, target)
        if copy is False:
            raise ValueError(f"{func}: copy=False but converting {obj._dtype.name} to {dtype.name} needs a copy")
        return Array._new(obj._data.astype(dtype.numpy), dtype, self, target)

    def _exact_scalar(self, value, dtype, func):
        """A Python scalar as a 0-d array of ``dtype``, by the policy's creation rule."""
        return self.policy.create_scalar(value, dtype, func)

    def _from_numpy(self, data, dtype, device, copy, func):
        if not data.dtype.isnative:  # byte-swapped data: our arrays are native-endian
            if copy is False:
                raise ValueError(f"{func}: copy=False but byte-swapped {data.dtype} data needs a copy")
            data = data.astype(data.dtype.newbyteorder("="))
            copy = None
        try:
            source = D.dtype_of_numpy(data.dtype)
        except TypeError:
            source = None
        if source is None and data.dtype.kind not in "biufc":  # objects, strings, dates, float8: no counterpart
            raise self._refusal(
                TypeError(f"{func}: NumPy dtype {data.dtype} has no counterpart under {self.label}"),
                "no_such_dtype",
                data,
            )
        if dtype is None:
            narrowed = self.policy.numpy_array_dtypes.get(data.dtype.name)
            if narrowed is not None:  # the policy's library converts this NumPy dtype (float64 -> float32)
                source = None
                dtype = D.dtype_by_name(narrowed)
            elif source is None or source not in self._dtype_set:
                raise self._refusal(
                    TypeError(f"{func}: NumPy dtype {data.dtype} has no counterpart under {self.label}"),
                    "no_such_dtype",
                    data,
                )
            else:
                dtype = source
        if source is dtype:
            if copy:
                data = data.copy()
        else:
            if copy is False:
                raise ValueError(f"{func}: copy=False but converting {data.dtype} to {dtype.name} needs a copy")
            data = data.astype(dtype.numpy)
        return Array._new(data, dtype, self, device)

    def _copy_flag(self, copy, func):
        """``copy`` that is not True, False or None: by its truth under a policy that reads arguments as NumPy
        does (``copy=1``), but a string, which NumPy refuses (a ValueError there: ours is both); else our
        TypeError."""
        if isinstance(copy, str):
            raise ArgumentError(f"{func}: copy must be True, False or None, got {copy!r}")
        if not self.policy.numpy_argument_reading:
            raise TypeError(f"{func}: copy must be True, False or None, got {copy!r}")
        try:
            return bool(copy)
        except (TypeError, ValueError):
            raise TypeError(f"{func}: copy must be True, False or None, got {describe_value(copy)}") from None

    def from_dlpack(self, x: object, /, *, device: Device | None = None, copy: bool | None = None) -> Array:
        """Returns an array holding the data of ``x``, an object with a ``__dlpack__`` method."""
        if device is None and copy is None and type(x) is Array and x._runtime is self:
            return x  # (_from_array's answer: nothing changes)
        if device is not None:
            device = self._check_device(device, "from_dlpack")
        if type(x) is Array:
            if not is_one_of(copy, (None, True, False)):
                copy = self._copy_flag(copy, "from_dlpack")
            return self._from_array(x, None, device, copy, "from_dlpack")
        if not hasattr(x, "__dlpack__"):
            raise TypeError(f"from_dlpack: {type(x).__name__} does not support DLPack (no __dlpack__)")
        try:
            try:
                data = np.from_dlpack(x, copy=copy) if copy is not None else np.from_dlpack(x)
            except TypeError:
                data = np.from_dlpack(x)
                if copy:
                    data = data.copy()
        except (BufferError, TypeError, ValueError) as exc:  # the producer's or NumPy's refusal
            raise type(exc)(f"from_dlpack: cannot import {type(x).__name__}: {exc}") from None
        if data.dtype.name == "bfloat16" or data.dtype.kind == "V":
            raise TypeError(f"from_dlpack: dtype {data.dtype} is not supported through DLPack")
        return self._from_numpy(data, None, device or CPU, False if copy is None else None, "from_dlpack")


def _has_buffer(obj) -> bool:
    try:
        memoryview(obj)
    except TypeError:
        return False
    return not isinstance(obj, (bytes, bytearray, str))


def _nested_to_numpy(obj, dtype, func, create):
    def unwrap(o):
        if type(o) is Array:
            return o._data
        if type(o) is not float and isinstance(o, (float, complex)) and type(o) is not complex:
            return complex(o) if isinstance(o, complex) else float(o)  # np.float64, np.complex128
        if isinstance(o, (list, tuple)):
            return [unwrap(i) for i in o]
        return o

    values = unwrap(obj)
    _convert_misfits(values, dtype, func, create)
    try:
        data = np.array(values, dtype=dtype.numpy)
    except (OverflowError, ValueError, TypeError) as exc:
        raise type(exc)(f"{func}: cannot make {D.a_dtype(dtype.name)} array: {exc}") from None
    if data.dtype == object:
        raise ValueError(f"{func}: ragged nested sequences are not arrays")
    return data


def _convert_misfits(values, dtype, func, create):
    """Elements of nested lists that ``dtype`` does not take as they are (an int out of an
    integer dtype's range, a float into an integer dtype, a complex into a real dtype) go through the policy's creation rule ``create``, the one that converts a
    lone scalar: it raises under the standard, wraps or truncates where the policy's library
    does. Elements that fit are left to ``np.array``."""
    category = dtype.category
    if category == D.CATEGORY_COMPLEX:
        return
    if category == D.CATEGORY_INTEGER:
        lo, hi = D.iinfo_bounds(dtype)

        def misfit(t, item):
            return (t is int and not lo <= item <= hi) or t is float or t is complex

    elif category == D.CATEGORY_BOOL:
        return  # NumPy's truth values, as array-api-strict (`asarray([1, 0], dtype=bool)`)
    else:

        def misfit(t, item):
            return t is complex

    stack = [values]
    while stack:
        items = stack.pop()
        for i, item in enumerate(items):
            t = type(item)
            if t is list:
                stack.append(item)
            elif misfit(t, item):
                items[i] = create(item, dtype, func)[()]
