"""Joining and splitting arrays: concat, stack and unstack, and the reading of their sequences of arrays.

Their dtypes are the policy's: concat and stack promote all their arrays together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import _core
from ._array import Array
from ._devices import CPU
from ._runtime import RuntimeBase, describe_value, new_array
from .promotion import Operand, OperandKind, PromotionError

if TYPE_CHECKING:
    from ._devices import Device

_ndarray = np.ndarray
_concatenate = np.concatenate
_ARRAY = OperandKind.ARRAY
_wrap_each = _core.wrap_each  # the compiled loop of new_array, or None


class JoiningFunctions(RuntimeBase):
    """Mixin: concat, stack and unstack."""

    # -- helpers ----------------------------------------------------------------------
    def _array_sequence(self, arrays, func: str) -> Device:
        if not isinstance(arrays, (tuple, list)):
            raise TypeError(f"{func}: arrays must be a tuple or list of arrays, got {describe_value(arrays)}")
        if not arrays:
            raise self._refusal(ValueError(f"{func}: at least one array is required"), "no_dtype")
        for i, a in enumerate(arrays):
            if type(a) is not Array or a._runtime is not self:
                self._check_array(a, func, f"arrays[{i}]")
        device = self._same_device(func, *arrays)
        return device

    def _arrays_of(self, arrays):
        """``arrays`` as given, or an array of ours given where a sequence of arrays is asked as the sequence of
        its sub-arrays along axis 0, as NumPy (array-api-strict) iterates it, under a policy that reads
        arguments as NumPy does."""
        if type(arrays) is Array and self.policy.numpy_argument_reading and arrays._data.ndim:
            return list(self.unstack(arrays))
        return arrays

    def _joined(self, arrays, func: str):
        """The data of ``arrays`` cast to their joint dtype (by the policy) and that dtype."""
        first = arrays[0]._dtype
        if all(a._dtype is first for a in arrays):
            return [a._data for a in arrays], first
        # Joining has no 0-d "weak" operands: every array takes part as an array.
        try:
            dtype = self.policy.resolve(tuple(Operand(_ARRAY, a._dtype) for a in arrays), func)
        except PromotionError as exc:
            raise self._refusal(exc, "promotion", func, *arrays) from None
        target = dtype.numpy
        return [a._data if a._dtype is dtype else a._data.astype(target) for a in arrays], dtype

    # -- joining --------------------------------------------------------------------------
    def _plain_datas(self, arrays):
        """The data of ``arrays`` where it is a non-empty list or tuple of this namespace's arrays
        of one dtype and one device, on NumPy storage (the general checks would pass them to the
        kernel as they are), else None."""
        if (type(arrays) is not list and type(arrays) is not tuple) or not arrays:
            return None
        first = arrays[0]
        if type(first) is not Array:
            return None
        dtype, device = first._dtype, first._device
        datas = []
        for a in arrays:
            if (
                type(a) is not Array
                or a._runtime is not self
                or a._dtype is not dtype
                or a._device is not device
                or type(a._data) is not _ndarray
            ):
                return None
            datas.append(a._data)
        return datas

    def concat(self, arrays: tuple[Array, ...] | list[Array], /, *, axis: int | None = 0) -> Array:
        """Joins a sequence of arrays along an existing axis."""
        if (type(axis) is int or axis is None) and (datas := self._plain_datas(arrays)) is not None:
            # one dtype, one device: NumPy's own concatenation (its errors worded below;
            # axis=None flattens each in C order, as the general path's reshape(-1))
            try:
                out = _concatenate(datas, axis=axis)
            except (ValueError, IndexError, TypeError, OverflowError):  # (an axis beyond a C long: OverflowError)
                pass
            else:  # (the device holds the arrays' dtype)
                return new_array(out, arrays[0]._dtype, self, arrays[0]._device)
        func = "concat"
        if type(axis) is bool:  # NumPy's concatenate (array-api-strict's) refuses a bool axis
            raise TypeError(f"{func}: axis must be an int or None, got bool")
        arrays = self._arrays_of(arrays)
        device = self._array_sequence(arrays, func)
        datas, dtype = self._joined(arrays, func)
        if axis is None:
            out = np.concatenate([d.reshape(-1) for d in datas])
        else:
            ndim = datas[0].ndim
            if any(d.ndim != ndim for d in datas):
                raise ValueError(
                    f"{func}: arrays must have the same number of dimensions, got {[d.ndim for d in datas]}"
                )
            if ndim == 0:
                raise ValueError(f"{func}: zero-dimensional arrays cannot be concatenated along an axis; use axis=None")
            axis = self._normalize_axis(axis, ndim, func)
            shape = datas[0].shape
            for d in datas[1:]:
                s = d.shape
                if s[:axis] != shape[:axis] or s[axis + 1 :] != shape[axis + 1 :]:
                    raise ValueError(f"{func}: array shapes {[d.shape for d in datas]} differ outside axis {axis}")
            out = np.concatenate(datas, axis=axis)
        return Array._new(out, dtype, self, device)

    concat = _core.fast_path(_core.CONCAT, "concat", concat)  # one dtype, one device: in C

    def stack(self, arrays: tuple[Array, ...] | list[Array], /, *, axis: int = 0) -> Array:
        """Joins a sequence of arrays of one shape along a new axis."""
        if type(axis) is int and (datas := self._plain_datas(arrays)) is not None:
            shape = datas[0].shape
            ndim = len(shape)
            if -ndim - 1 <= axis <= ndim and all(d.shape == shape for d in datas):
                # one dtype, one device, one shape: np.stack's own steps (each array with a new
                # axis, then one concatenation) without its dispatch and checks
                if axis < 0:
                    axis += ndim + 1
                key = (slice(None),) * axis + (None,)
                out = _concatenate([d[key] for d in datas], axis=axis)
                return new_array(out, arrays[0]._dtype, self, arrays[0]._device)
        func = "stack"
        arrays = self._arrays_of(arrays)
        device = self._array_sequence(arrays, func)
        shape = arrays[0]._data.shape
        if any(a._data.shape != shape for a in arrays):
            raise ValueError(f"{func}: all arrays must have the same shape, got {[a._data.shape for a in arrays]}")
        axis = self._normalize_axis(axis, len(shape) + 1, func)
        datas, dtype = self._joined(arrays, func)
        return Array._new(np.stack(datas, axis=axis), dtype, self, device)

    def unstack(self, x: Array, /, *, axis: int = 0) -> tuple[Array, ...]:
        """Splits ``x`` into a tuple of arrays along ``axis``."""
        func = "unstack"
        x = self._check_array(x, func)
        data = x._data
        axis = self._normalize_axis(axis, data.ndim, func)
        if axis:
            data = np.moveaxis(data, axis, 0)
        dtype, device = x._dtype, x._device
        if device is not CPU:
            device.admit(dtype, self)
        if data.ndim > 1 and type(data) is _ndarray:
            if _wrap_each is not None:  # in C: a tenth of the Python loop's time per view
                return _wrap_each(data, dtype, self, device)
            return tuple(new_array(view, dtype, self, device) for view in data)
        # Iterating a 1-d array gives NumPy scalars: index instead, keeping 0-d arrays.
        return tuple(new_array(data[i, ...], dtype, self, device) for i in range(data.shape[0]))
