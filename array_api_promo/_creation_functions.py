"""Creation functions of the standard."""

from __future__ import annotations

import math
import operator
from typing import TYPE_CHECKING

import numpy as np

from . import _core, _dtypes as D
from ._array import Array
from ._core import fast_path
from ._devices import CPU
from ._errors import ArgumentError
from ._runtime import RuntimeBase, check_fits, describe_value, index_int, is_one_of

if TYPE_CHECKING:
    from typing import Literal

    from ._devices import Device
    from ._dtypes import DType
    from ._typing import NestedSequence, SupportsBufferProtocol

__all__ = ["CreationFunctions"]
_ARANGE_TYPES = frozenset((int, float, bool, type(None)))  # bounds taken as they are

_new_object = object.__new__


class CreationFunctions(RuntimeBase):
    """Mixin: array creation under the namespace's policy and defaults."""

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

    def _fill(self, shape, fill_value, dtype, device, func):
        shape = check_shape(shape, func)
        device = self._check_device(device, func)
        if self.policy.numpy_scalars != "refuse" and isinstance(fill_value, np.generic):
            # a NumPy scalar as the policy's library takes it; into a dtype asked for, at its own precision
            # under the "array" rule (jnp.full(2, np.int64(2**40), dtype=int64) holds 2**40 without x64,
            # where the scalar alone would be an int32)
            if dtype is not None and self.policy.numpy_scalars == "array" and self._is_numpy_number(fill_value):
                dtype = self._check_dtype(dtype, func)
                check_fits(shape, dtype.numpy.itemsize, func)
                return Array._new(np.full(shape, fill_value, dtype=dtype.numpy), dtype, self, device)
            fill_value = self._from_numpy_scalar(fill_value, func)
        if type(fill_value) is Array:  # a 0-d array as fill value (NumPy users rely on it)
            if "array_fill" in self.policy.undefined_refusals:
                raise self._refusal(
                    TypeError(
                        f"{func}: fill_value must be a Python bool, int, float or complex, got an array; the standard "
                        f"takes a Python scalar (policy {self.policy.name!r}); use float(), int() or bool() of a 0-d "
                        "array"
                    ),
                    "fill_value",
                    Array,
                )
            self._check_array(fill_value, func, "fill_value")
            if fill_value._data.ndim != 0:
                raise ValueError(f"{func}: fill_value must be a scalar or a 0-d array, got shape {fill_value.shape}")
            dtype = fill_value._dtype if dtype is None else self._check_dtype(dtype, func)
            check_fits(shape, dtype.numpy.itemsize, func)
            return Array._new(np.full(shape, fill_value._data, dtype=dtype.numpy), dtype, self, device)
        if type(fill_value) not in D.PY_SCALARS and isinstance(fill_value, (float, complex)):
            # np.float64 and np.complex128 are Python floats and complexes (subclasses), as in
            # asarray's nested sequences and __setitem__ (array-api-strict takes them too)
            fill_value = complex(fill_value) if isinstance(fill_value, complex) else float(fill_value)
        if type(fill_value) not in D.PY_SCALARS:
            raise self._refusal(
                TypeError(
                    f"{func}: fill_value must be a Python bool, int, float or complex, got {type(fill_value).__name__}"
                ),
                "fill_value",
                type(fill_value),
            )
        if dtype is None:
            dtype = self._default_dtype_of_scalar(fill_value, device)
        else:
            dtype = self._check_dtype(dtype, func)
        value = self._exact_scalar(fill_value, dtype, func)
        check_fits(shape, dtype.numpy.itemsize, func)
        return Array._new(np.full(shape, value, dtype=dtype.numpy), dtype, self, device)

    def full(
        self,
        shape: int | tuple[int, ...],
        fill_value: complex,
        *,
        dtype: DType | None = None,
        device: Device | None = None,
    ) -> Array:
        """Returns a new array of the given ``shape`` filled with ``fill_value``."""
        if device is None and _plain_shape(shape):
            # A Python scalar into the default dtype of its type (on the CPU) or a dtype of ours, few
            # elements: what _fill below does with it (_fastpath.c's full does the same)
            t = type(fill_value)
            if dtype is None:
                if t is float or t is int or t is bool:
                    dtype = self._default_dtype_of_scalar(fill_value, CPU)
                    value = self._exact_scalar(fill_value, dtype, "full")
                    return _on_cpu(np.full(shape, value, dtype=dtype.numpy), dtype, self)
            elif (t is float or t is int or t is bool or t is complex) and (
                type(dtype) is D.DType and dtype in self._dtype_set
            ):
                value = self._exact_scalar(fill_value, dtype, "full")
                return _on_cpu(np.full(shape, value, dtype=dtype.numpy), dtype, self)
        return self._fill(shape, fill_value, dtype, device, "full")

    full = fast_path(_core.FULL, "full", full)  # a Python scalar: in C

    def _constant(self, shape, dtype, device, maker, func):
        if (
            device is None
            and (dtype is None or (type(dtype) is D.DType and dtype in self._dtype_set))
            and _plain_shape(shape)
        ):  # the default float (the CPU has no defaults of its own) or a dtype of ours, few elements
            if dtype is None:
                dtype = self.policy.default_float
            return _on_cpu(maker(shape, dtype=dtype.numpy), dtype, self)
        shape = check_shape(shape, func)
        device = self._check_device(device, func)
        dtype = self._default("real floating", device) if dtype is None else self._check_dtype(dtype, func)
        check_fits(shape, dtype.numpy.itemsize, func)
        return Array._new(maker(shape, dtype=dtype.numpy), dtype, self, device)

    def zeros(self, shape: int | tuple[int, ...], *, dtype: DType | None = None, device: Device | None = None) -> Array:
        """Returns a new array of the given ``shape`` filled with zeros."""
        return self._constant(shape, dtype, device, np.zeros, "zeros")

    zeros = fast_path(_core.CONSTANT, "zeros", zeros)  # zeros(n): in C

    def ones(self, shape: int | tuple[int, ...], *, dtype: DType | None = None, device: Device | None = None) -> Array:
        """Returns a new array of the given ``shape`` filled with ones."""
        return self._constant(shape, dtype, device, np.ones, "ones")

    ones = fast_path(_core.CONSTANT, "ones", ones)  # ones(n): in C

    def empty(self, shape: int | tuple[int, ...], *, dtype: DType | None = None, device: Device | None = None) -> Array:
        """Returns a new, uninitialized array of the given ``shape``."""
        return self._constant(shape, dtype, device, np.empty, "empty")

    empty = fast_path(_core.CONSTANT, "empty", empty)  # empty(n): in C

    def _like(self, x, dtype, device, func):
        x = self._check_array(x, func)
        dtype = x._dtype if dtype is None else self._check_dtype(dtype, func)
        device = x._device if device is None else self._check_device(device, func)
        return x._data.shape, dtype, device

    def _made_like(self, x, dtype, device, maker, func):
        shape, dtype, device = self._like(x, dtype, device, func)
        return Array._new(maker(shape, dtype=dtype.numpy), dtype, self, device)

    # The plain case of the *_like functions, x of this namespace and nothing else given: x's dtype
    # on x's device (which holds it), only the data new. Inline: a call costs a fifth of it.
    def zeros_like(self, x: Array, /, *, dtype: DType | None = None, device: Device | None = None) -> Array:
        """Returns a new array of zeros with the shape of ``x`` (and its dtype and device unless given)."""
        if _plain_like(x, self) and dtype is None and device is None:
            return _like_array(np.zeros(x._data.shape, x._dtype.numpy), x, self)
        return self._made_like(x, dtype, device, np.zeros, "zeros_like")

    zeros_like = fast_path(_core.CONSTANT, "zeros_like", zeros_like)  # x of this namespace alone: in C

    def ones_like(self, x: Array, /, *, dtype: DType | None = None, device: Device | None = None) -> Array:
        """Returns a new array of ones with the shape of ``x`` (and its dtype and device unless given)."""
        if _plain_like(x, self) and dtype is None and device is None:
            return _like_array(np.ones(x._data.shape, x._dtype.numpy), x, self)
        return self._made_like(x, dtype, device, np.ones, "ones_like")

    ones_like = fast_path(_core.CONSTANT, "ones_like", ones_like)  # x of this namespace alone: in C

    def empty_like(self, x: Array, /, *, dtype: DType | None = None, device: Device | None = None) -> Array:
        """Returns a new, uninitialized array with the shape of ``x`` (and its dtype and device unless given)."""
        if _plain_like(x, self) and dtype is None and device is None:
            return _like_array(np.empty(x._data.shape, x._dtype.numpy), x, self)
        return self._made_like(x, dtype, device, np.empty, "empty_like")

    empty_like = fast_path(_core.CONSTANT, "empty_like", empty_like)  # x of this namespace alone: in C

    def full_like(
        self, x: Array, /, fill_value: complex, *, dtype: DType | None = None, device: Device | None = None
    ) -> Array:
        """Returns a new array with the shape of ``x`` filled with ``fill_value``."""
        if _plain_like(x, self) and device is None:
            t = type(fill_value)
            if t is float or t is int or t is bool or t is complex:  # as below, without _like's checks
                if dtype is None:
                    dtype_ = x._dtype
                    value = self._exact_scalar(fill_value, dtype_, "full_like")
                    return _like_array(np.full(x._data.shape, value, dtype=dtype_.numpy), x, self)
                if (
                    type(dtype) is D.DType
                    and dtype in self._dtype_set
                    and x._device is CPU
                    and x._data.size <= _PLAIN_LENGTH  # (nothing for _fill's check_fits to refuse)
                ):
                    value = self._exact_scalar(fill_value, dtype, "full_like")
                    return _on_cpu(np.full(x._data.shape, value, dtype=dtype.numpy), dtype, self)
        shape, dtype_, device = self._like(x, dtype, device, "full_like")
        if type(fill_value) in D.PY_SCALARS and dtype is None:
            # The fill value must be representable in x's dtype (no promotion).
            value = self._exact_scalar(fill_value, dtype_, "full_like")
            return Array._new(np.full(shape, value, dtype=dtype_.numpy), dtype_, self, device)
        return self._fill(shape, fill_value, dtype_, device, "full_like")

    full_like = fast_path(_core.FULL, "full_like", full_like)  # a Python scalar: in C

    def arange(
        self,
        start: float,
        /,
        stop: float | None = None,
        step: float = 1,
        *,
        dtype: DType | None = None,
        device: Device | None = None,
    ) -> Array:
        """Returns evenly spaced values in the half-open interval ``[start, stop)`` as a one-dimensional array."""
        t0, t1, t2 = type(start), type(stop), type(step)
        if device is None and (
            dtype is None or (type(dtype) is D.DType and dtype in _RANGE_BOUNDS and dtype in self._dtype_set)
        ):
            # The plain cases, few values of an integer or real floating dtype (the default one of
            # the bounds' kind, or one given that holds every value): what the general path below
            # computes, with its checks known to pass (_fastpath.c's arange does the same)
            if t0 is int and stop is None and t2 is int and step == 1:
                # arange(n): 0, 1, ... n - 1
                if 0 <= start <= _PLAIN_LENGTH:
                    if dtype is None:
                        dtype = self.policy.default_int
                    bounds = _RANGE_BOUNDS[dtype]
                    if bounds is None or start <= bounds[1] + 1:
                        return _on_cpu(_arange(0, start, 1, dtype.numpy), dtype, self)  # type: ignore[call-overload]  # (an int here; as below)
            elif t0 is int and t1 is int and t2 is int:
                # integer bounds: NumPy's exact values, each within the dtype's range
                if (
                    step != 0
                    and -_EXACT_INT <= start <= _EXACT_INT
                    and -_EXACT_INT <= stop <= _EXACT_INT  # type: ignore[operator]  # (an int here)
                    and -_EXACT_INT <= step <= _EXACT_INT
                ):
                    n = -((start - stop) // step)  # type: ignore[operator]
                    if n <= _PLAIN_LENGTH:
                        if dtype is None:
                            dtype = self.policy.default_int
                        bounds = _RANGE_BOUNDS[dtype]
                        if (
                            bounds is None
                            or n <= 0
                            or (bounds[0] <= start <= bounds[1] and bounds[0] <= start + (n - 1) * step <= bounds[1])
                        ):
                            return _on_cpu(_arange(start, stop, step, dtype.numpy), dtype, self)  # type: ignore[call-overload]
            elif (
                (t0 is float or t1 is float or t2 is float)
                and (dtype is None or _RANGE_BOUNDS[dtype] is None)  # a real floating dtype
                and (t0 is float or (t0 is int and -_EXACT_INT <= start <= _EXACT_INT))
                and (t1 is float or (t1 is int and -_EXACT_INT <= stop <= _EXACT_INT))  # type: ignore[operator]
                and (t2 is float or (t2 is int and -_EXACT_INT <= step <= _EXACT_INT))
                and step - step == 0  # finite (then a finite n means finite bounds)
                and step != 0
            ):  # floating bounds, few values: cut to the standard's length, as below
                n = (stop - start) / step  # type: ignore[operator]  # (stop is a number here)
                if n - n == 0 and n <= _PLAIN_LENGTH:
                    n = _ceil(n) if n > 0 else 0
                    if dtype is None:
                        dtype = self.policy.default_float
                    data = _arange(start, stop, step, dtype.numpy)  # type: ignore[call-overload]
                    return _on_cpu(data[:n] if data.shape[0] > n else data, dtype, self)
        func = "arange"
        if step is None and self.policy.numpy_argument_reading:
            step = 1  # NumPy's (array-api-strict's) reading of step=None
        if not (type(start) in _ARANGE_TYPES and type(stop) in _ARANGE_TYPES and type(step) in _ARANGE_TYPES):
            start, stop, step = (
                _number_bound(v, func, arg) for v, arg in ((start, "start"), (stop, "stop"), (step, "step"))
            )
        for value, arg in ((start, "start"), (stop, "stop"), (step, "step")):
            if (value is not None or arg != "stop") and type(value) not in (int, float, bool):
                raise TypeError(f"arange: {arg} must be a Python int or float, got {type(value).__name__}")
        if step == 0:
            raise ValueError("arange: step must not be zero")
        device = self._check_device(device, func)
        if stop is None:
            start, stop = 0, start
        if dtype is None:
            is_float = any(type(v) is float for v in (start, stop, step))
            dtype = self._default("real floating" if is_float else "integral", device)
        else:
            dtype = self._check_dtype(dtype, func)
        if dtype.category == D.CATEGORY_BOOL and not self.policy.bool_ranges:
            raise self._refusal(TypeError("arange: dtype must be numeric, got bool"), "arange_bool", start, stop, step)
        # The standard: the length is ceil((stop - start) / step), which NumPy
        # can overshoot by one with floating steps.
        if all(type(v) is not float for v in (start, stop, step)):
            n = max(0, -((start - stop) // step))  # exact for any Python int
        else:
            if not (math.isfinite(start) and math.isfinite(stop) and not math.isnan(step)):
                raise ValueError(f"arange: start, stop and step must be finite, got {start}, {stop}, {step}")
            n = max(0, math.ceil((stop - start) / step))  # (the standard's length: 0 for an infinite step)
        check_fits((n,), dtype.numpy.itemsize, func)
        if dtype.category == D.CATEGORY_BOOL and n > 2:  # (the policy's bool_ranges) NumPy's limit
            raise self._refusal(
                TypeError(
                    f"arange: a bool range holds at most two values (False then True, or one of them), got {n} values "
                    f"from {start} to {stop} by {step}"
                ),
                "arange_bool",
                start,
                stop,
                step,
            )
        if n and dtype.category == D.CATEGORY_INTEGER:
            lo, hi = D.iinfo_bounds(dtype)
            last = start + (n - 1) * step
            if not (lo <= start <= hi and lo <= last <= hi):
                raise OverflowError(f"arange: values from {start} to {last} do not fit in {dtype.name} [{lo}, {hi}]")
        data = np.arange(start, stop, step, dtype=dtype.numpy)
        if data.shape[0] > n:
            data = data[:n]
        return Array._new(data, dtype, self, device)

    arange = fast_path(_core.ARANGE, "arange", arange)  # its two plain cases: in C

    def linspace(
        self,
        start: complex,
        stop: complex,
        /,
        num: int,
        *,
        dtype: DType | None = None,
        device: Device | None = None,
        endpoint: bool = True,
    ) -> Array:
        """Returns ``num`` evenly spaced numbers from ``start`` to ``stop`` (included unless ``endpoint`` is false)."""
        t0, t1 = type(start), type(stop)
        if (
            (t0 is float or t0 is int)
            and (t1 is float or t1 is int)
            and type(num) is int
            and 0 <= num <= _PLAIN_LENGTH
            and dtype is None
            and device is None
            and type(endpoint) is bool
        ):  # real bounds, few values: the default float on the CPU, NumPy's values as below
            dtype = self.policy.default_float
            data = np.linspace(start, stop, num, endpoint=endpoint)
            if data.dtype is not dtype.numpy:  # float32: what np.linspace(..., dtype=) itself does last,
                data = data.astype(dtype.numpy)  # without its check of the dtype for an integer one
            return _on_cpu(data, dtype, self)
        func = "linspace"
        reading = self.policy.numpy_argument_reading
        if type(num) is not int and reading and type(num) is not float and hasattr(num, "__index__"):
            num = self._int(num, func, "num")  # True, np.int64(3): NumPy's (array-api-strict's) reading
        if type(num) is not int or num < 0:
            raise ValueError(f"linspace: num must be a non-negative int, got {num!r}")
        if type(endpoint) is not bool:
            endpoint = self._flag(endpoint, func, "endpoint")
        if reading:
            if type(start) is bool or type(stop) is bool:
                start, stop = int(start) if type(start) is bool else start, int(stop) if type(stop) is bool else stop
            if any(type(v) is Array and v._data.ndim and v._runtime is self for v in (start, stop)):
                return self._linspace_arrays(start, stop, num, dtype, device, endpoint)
        start, stop = _number_bound(start, func, "start", True), _number_bound(stop, func, "stop", True)
        for value, arg in ((start, "start"), (stop, "stop")):
            if type(value) not in (int, float, complex):
                raise TypeError(f"linspace: {arg} must be a Python int, float or complex, got {type(value).__name__}")
        device = self._check_device(device, func)
        if dtype is None:
            is_complex = type(start) is complex or type(stop) is complex
            dtype = self._default("complex floating" if is_complex else "real floating", device)
        else:
            dtype = self._check_dtype(dtype, func)
        if dtype.category == D.CATEGORY_BOOL and not self.policy.bool_ranges:
            raise TypeError("linspace: dtype must be numeric, got bool")
        if dtype.category != D.CATEGORY_COMPLEX and (type(start) is complex or type(stop) is complex):
            raise TypeError(f"linspace: complex start or stop needs a complex dtype, got {dtype.name}")
        if dtype.category == D.CATEGORY_BOOL:  # (the policy's bool_ranges) NumPy's values: whether each is nonzero
            check_fits((num,), 1, func)
            return Array._new(np.linspace(start, stop, num, dtype=bool, endpoint=endpoint), dtype, self, device)
        if dtype.category == D.CATEGORY_INTEGER:
            # The standard: dtype "should be" floating-point; an integer one is implementation-
            # defined. NumPy's values (rounded toward -inf), as array-api-strict gives them
            # (SciPy's signal tests ask for int8), once every value is known to fit.
            if not (math.isfinite(start) and math.isfinite(stop)):  # type: ignore[arg-type]  # (real: not complex)
                raise ValueError(f"linspace: start and stop must be finite for {dtype.name}, got {start}, {stop}")
            lo, hi = D.iinfo_bounds(dtype)
            low, high = math.floor(min(start, stop)), math.floor(max(start, stop))  # type: ignore[call-overload]
            if num and not (lo <= low and high <= hi):
                raise OverflowError(f"linspace: values from {start} to {stop} do not fit in {dtype.name} [{lo}, {hi}]")
        check_fits((num,), dtype.numpy.itemsize, func)
        data = np.linspace(start, stop, num, dtype=dtype.numpy, endpoint=endpoint)
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

    def _linspace_arrays(self, start, stop, num, dtype, device, endpoint):
        """linspace with an n-d array bound: NumPy's (array-api-strict's) values, one row per step, under a
        policy that reads arguments as NumPy does; real bounds only (a complex one needs its dtype)."""
        func = "linspace"
        bounds = []
        for value, arg in ((start, "start"), (stop, "stop")):
            if type(value) is Array:
                value = self._check_array(value, func, arg)
                if value._dtype.category not in (D.CATEGORY_INTEGER, D.CATEGORY_FLOATING):
                    raise TypeError(f"{func}: {arg} must have a real numeric dtype, got {value._dtype.name}")
                bounds.append(value._data)
            elif type(value) in (int, float):
                bounds.append(value)
            else:
                raise TypeError(f"{func}: {arg} must be a Python int or float, or an array, got {type(value).__name__}")
        device = self._check_device(device, func)
        dtype = self._default("real floating", device) if dtype is None else self._check_dtype(dtype, func)
        if dtype.category != D.CATEGORY_FLOATING:
            raise TypeError(f"{func}: array bounds need a real floating-point dtype, got {dtype.name}")
        shape = (num,) + np.broadcast_shapes(*(np.shape(b) for b in bounds))
        check_fits(shape, dtype.numpy.itemsize, func)
        data = np.linspace(bounds[0], bounds[1], num, dtype=dtype.numpy, endpoint=endpoint)
        return Array._new(data, dtype, self, device)

    def eye(
        self,
        n_rows: int,
        n_cols: int | None = None,
        /,
        *,
        k: int = 0,
        dtype: DType | None = None,
        device: Device | None = None,
    ) -> Array:
        """Returns a two-dimensional array with ones on the ``k``-th diagonal and zeros elsewhere."""
        if (
            type(n_rows) is int
            and (n_cols is None or type(n_cols) is int)
            and type(k) is int
            and device is None
            and (dtype is None or (type(dtype) is D.DType and dtype in self._dtype_set))
            and 0 <= n_rows <= _PLAIN_LENGTH
            and (n_cols is None or 0 <= n_cols <= _PLAIN_LENGTH)
            and n_rows * (n_rows if n_cols is None else n_cols) <= _PLAIN_LENGTH
        ):  # few elements, on the CPU: the checks below pass
            if dtype is None:
                dtype = self.policy.default_float  # (the CPU has no defaults of its own)
            return _on_cpu(np.eye(n_rows, n_cols, k=k, dtype=dtype.numpy), dtype, self)
        func = "eye"
        # (np.int64 sizes by __index__; a bool size stays refused, as NumPy's eye refuses it)
        if type(n_rows) is not int:
            n_rows = index_int(n_rows, func, "n_rows")
        if n_cols is not None and type(n_cols) is not int:
            n_cols = index_int(n_cols, func, "n_cols")
        if type(k) is not int:
            k = self._int(k, func, "k")
        if n_rows < 0 or (n_cols is not None and n_cols < 0):
            raise ValueError("eye: n_rows and n_cols must be non-negative")
        device = self._check_device(device, func)
        dtype = self._default("real floating", device) if dtype is None else self._check_dtype(dtype, func)
        check_fits((n_rows, n_rows if n_cols is None else n_cols), dtype.numpy.itemsize, func)
        return Array._new(np.eye(n_rows, n_cols, k=k, dtype=dtype.numpy), dtype, self, device)

    def _triangle(self, x, k, numpy_func, func):
        x = self._check_array(x, func)
        if type(k) is not int:
            if not (
                self.policy.numpy_argument_reading
                and isinstance(k, (int, float, np.integer, np.floating))
                and math.isfinite(k)
            ):
                raise TypeError(f"{func}: k must be an int, got {type(k).__name__}")
            k = float(k) if isinstance(k, (float, np.floating)) else int(k)  # NumPy's reading of a real k (strict's)
        if x._data.ndim < 2:
            raise self._refusal(
                ValueError(f"{func}: x must have at least two dimensions, got {x._data.ndim}"), "min_2d", func
            )
        return Array._new(numpy_func(x._data, k=k), x._dtype, self, x._device)

    def tril(self, x: Array, /, *, k: int = 0) -> Array:
        """Returns the lower triangular part of the matrix (or stack of matrices) ``x``, from the ``k``-th diagonal down."""
        return self._triangle(x, k, np.tril, "tril")

    def triu(self, x: Array, /, *, k: int = 0) -> Array:
        """Returns the upper triangular part of the matrix (or stack of matrices) ``x``, from the ``k``-th diagonal up."""
        return self._triangle(x, k, np.triu, "triu")

    def meshgrid(self, *arrays: Array, indexing: Literal["xy", "ij"] = "xy") -> tuple[Array, ...]:
        """Returns coordinate matrices made from the one-dimensional coordinate vectors ``arrays``."""
        if not is_one_of(indexing, ("xy", "ij")):
            raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
        arrays = [self._check_array(a, "meshgrid", "arrays") for a in arrays]  # type: ignore[assignment]
        # A list until 2024.12, a tuple since 2025.12.
        sequence = tuple if self.api_version >= "2025.12" else list
        if not arrays:
            return sequence()
        dtype = arrays[0]._dtype
        if any(a._dtype is not dtype for a in arrays):
            # a TypeError, and the ValueError array-api-strict raises ("must all have the same dtype")
            raise self._refusal(
                ArgumentError(
                    "meshgrid: all arrays must have the same dtype, got " + ", ".join(a._dtype.name for a in arrays)
                ),
                "meshgrid_dtypes",
            )
        for a in arrays:
            # (NumPy's meshgrid, array-api-strict's, flattens each array: under a policy that reads
            # arguments as NumPy does, an n-d array stands for its elements)
            if a._data.ndim != 1 and not self.policy.numpy_argument_reading:
                raise ValueError(f"meshgrid: every array must be one-dimensional, got {a._data.ndim} dimensions")
        device = self._same_device("meshgrid", *arrays)
        # np.meshgrid copies (copy=True): writable grids that share nothing, as array-api-strict's
        grids = np.meshgrid(*(a._data for a in arrays), indexing=indexing)
        return sequence(Array._new(g, dtype, self, device) for g in grids)

    def from_dlpack(self, x: object, /, *, device: Device | None = None, copy: bool | None = None) -> Array:
        """Returns an array holding the data of ``x``, an object with a ``__dlpack__`` method."""
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


# The length of a 1-d creation whose plain case skips the general checks: its bytes stay below
# check_fits' threshold for every dtype, and its values within every integer dtype's range.
_PLAIN_LENGTH = (1 << 26) // 16


# arange's floating case: Python float bounds, or ints that a float holds exactly
_EXACT_INT = 2**53
# The dtypes of arange's plain cases: the integer ones, by their (min, max), and the real floating
# ones NumPy computes natively (None); _fastpath.c's arange takes the same by their NumPy types.
_RANGE_BOUNDS = {**D.INT_BOUNDS, D.float32: None, D.float64: None}
_arange = np.arange
_ceil = math.ceil


def _plain_shape(shape) -> bool:
    """Whether ``shape`` is an int or a non-empty tuple of ints, each and their nonzero product in
    [0, _PLAIN_LENGTH]: nothing for check_shape or check_fits to refuse (_fastpath.c's plain_shape)."""
    if type(shape) is int:
        return 0 <= shape <= _PLAIN_LENGTH
    if type(shape) is not tuple or not shape:
        return False
    elements = 1
    for n in shape:
        if type(n) is not int or not 0 <= n <= _PLAIN_LENGTH:
            return False
        elements *= n or 1
    return elements <= _PLAIN_LENGTH


def _plain_like(x, runtime) -> bool:
    """Whether ``x`` is an array of ``runtime`` on NumPy storage (the *_like functions' plain case)."""
    return type(x) is Array and x._runtime is runtime and type(x._data) is np.ndarray


def _like_array(data, x, runtime) -> Array:
    """A new array of ``data`` with ``x``'s dtype and device (which holds it: x is on it)."""
    array = _new_object(Array)
    array._data = data
    array._dtype = x._dtype
    array._runtime = runtime
    array._device = x._device
    return array


def _on_cpu(data, dtype, runtime) -> Array:
    """A new array of ``data`` on the CPU (which holds every dtype: nothing to admit)."""
    array = _new_object(Array)
    array._data = data
    array._dtype = dtype
    array._runtime = runtime
    array._device = CPU
    return array


def check_shape(shape, func):
    if type(shape) is int:
        shape = (shape,)
    elif isinstance(shape, (tuple, list)):
        shape = tuple(shape)
        if any(type(n) is not int for n in shape):
            shape = tuple(_shape_entry(n, func) for n in shape)
    else:
        given = shape
        try:  # an integer that is not a Python int (np.int64): by __index__
            shape = (operator.index(given),) if type(given) is not bool else None
        except TypeError:
            shape = None
        if shape is None:
            raise TypeError(f"{func}: shape must be an int or a tuple of ints, got {type(given).__name__}")
    if any(n < 0 for n in shape):
        raise ValueError(f"{func}: negative dimensions are not allowed, got shape {shape}")
    return shape


def _number_bound(value, func, arg, complex_ok=False):
    """A bound of ``arange``/``linspace`` that is a number without being a Python one: its
    Python int, float (or, for ``linspace``, complex) value; anything else as it is.

    A 0-d integer or floating array (SciPy's ``arange(1, n + 1)`` with a 0-d ``n``, its
    ``_logspace`` passing 0-d ``start``/``stop`` to ``linspace``) or a NumPy number
    (``arange(np.prod(shape) * 3)``): array-api-strict accepts them, as NumPy does.
    """
    t = type(value)
    if t is Array:
        category = value._dtype.category
        allowed = (D.CATEGORY_INTEGER, D.CATEGORY_FLOATING) + ((D.CATEGORY_COMPLEX,) if complex_ok else ())
        if value._data.ndim != 0 or category not in allowed:
            kinds = "int, float or complex" if complex_ok else "int or float"
            kinds_0d = "integer or floating" if complex_ok else "integer or real floating"
            raise TypeError(
                f"{func}: {arg} must be a Python {kinds} (or a 0-d {kinds_0d} array), "
                f"got an array of shape {value._data.shape} and dtype {value._dtype.name}"
            )
        if category == D.CATEGORY_INTEGER:
            return int(value)
        return float(value) if category == D.CATEGORY_FLOATING else complex(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if complex_ok and isinstance(value, np.complexfloating):
        return complex(value)
    return value


def _shape_entry(n, func):
    # An integer that is not a Python int (np.int64 from a NumPy shape computation): its __index__.
    if type(n) is not bool and not isinstance(n, float):
        try:
            return operator.index(n)
        except TypeError:
            pass
    raise TypeError(f"{func}: shape entries must be ints, got {type(n).__name__} {n!r}")


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
