"""The standard's searching functions: argmax, argmin, count_nonzero, nonzero, searchsorted.

(``where`` is elementwise and lives in ``_elementwise_functions``.)  Every
index result has the policy's ``default_index`` dtype.  ``searchsorted``
compares ``x1`` and ``x2`` in the dtype the policy promotes them to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import _core, _dtypes as D
from ._array import Array
from ._core import fast_path
from ._devices import CPU
from ._errors import ArgumentError
from ._runtime import RuntimeBase, describe_value, is_one_of, new_array
from .promotion import PromotionError

if TYPE_CHECKING:
    from typing import Literal

__all__ = ["SearchingFunctions"]

_asarray = np.asarray
_ndarray = np.ndarray
try:  # the C count of a whole array, which np.count_nonzero(x) reaches through a Python layer
    from numpy._core.multiarray import count_nonzero as _count_nonzero
except ImportError:  # pragma: no cover (NumPy moves it)
    _count_nonzero = np.count_nonzero
_new_object = object.__new__
_COMPILED = _core.COMPILED


def _promotion_key(runtime, x1: Array, x2: Array) -> tuple:
    """The key of two arrays' promotion in ``runtime._result_types`` (see ``result_type``)."""
    dt1, dt2 = x1._dtype, x2._dtype
    if runtime._flat_keys or dt1 is dt2:
        return (dt1, dt2)
    return (dt1, dt2, (x1._data.ndim == 0) | ((x2._data.ndim == 0) << 1))


class SearchingFunctions(RuntimeBase):
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""

    def _index_result(self, out, device) -> Array:
        index = self.policy.default_index
        if type(out) is np.ndarray and out.dtype is index.numpy:
            return new_array(out, index, self) if device is CPU else Array._new(out, index, self, device)
        if type(out) is not np.ndarray:
            out = np.asarray(out, dtype=index.numpy)
        elif out.dtype != index.numpy:
            out = out.astype(index.numpy)
        return Array._new(out, index, self, device)

    def _arg_extreme(self, func, kernel, x, axis, keepdims):
        if (
            axis is None
            and keepdims is False
            and type(x) is Array
            and x._runtime is self
            and x._data.size
            and x._dtype not in self.policy.unordered_dtypes
        ):
            # the whole non-empty array: the method np.argmin(x) calls (axis None flattens in C order)
            out = getattr(x._data, func)()
            index = self.policy.default_index
            return Array._new(_asarray(out, dtype=index.numpy), index, self, x._device)
        x = self._ordered_array(x, func)
        if type(keepdims) is not bool:
            keepdims = self._flag(keepdims, func, "keepdims")
        data = x._data
        if axis is None:
            if data.size == 0:
                raise ValueError(f"{func}: x is empty (shape {data.shape}); there is no extreme to locate")
            out = kernel(data.reshape(-1))
            if keepdims:
                out = np.full((1,) * data.ndim, out)
        else:
            if type(axis) is bool:
                raise TypeError(f"{func}: axis must be an int or None, got bool")
            axis = self._normalize_axis(axis, data.ndim, func)
            if data.shape[axis] == 0:
                raise ValueError(
                    f"{func}: axis {axis} of x (shape {data.shape}) is empty; there is no extreme to locate"
                )
            out = kernel(data, axis=axis, keepdims=keepdims)
        return self._index_result(out, x._device)

    def argmax(self, x: Array, /, *, axis: int | None = None, keepdims: bool = False) -> Array:
        """Index of the first maximum of ``x`` (flattened when ``axis`` is None)."""
        return self._arg_extreme("argmax", np.argmax, x, axis, keepdims)

    def argmin(self, x: Array, /, *, axis: int | None = None, keepdims: bool = False) -> Array:
        """Index of the first minimum of ``x`` (flattened when ``axis`` is None)."""
        return self._arg_extreme("argmin", np.argmin, x, axis, keepdims)

    def count_nonzero(self, x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
        """Number of non-zero elements of ``x`` along ``axis`` (complex: either component)."""
        if axis is None and keepdims is False and type(x) is Array and x._runtime is self:
            # the whole array: one NumPy call (a Python int) and the 0-d index array
            index = self.policy.default_index
            device = x._device
            if device is not CPU:
                device.admit(index, self)
            array = _new_object(Array)
            out = _asarray(_count_nonzero(x._data))  # (NumPy's default int: the index dtype's, else cast)
            if out.dtype is not index.numpy:
                out = _asarray(out, index.numpy)
            elif _COMPILED:  # the compiled unary path's plan from here on: the count, made an array as here
                self._fast["count_nonzero", x._dtype] = (_count_nonzero, index)
            array._data = out
            array._dtype = index
            array._runtime = self
            array._device = device
            return array
        func = "count_nonzero"
        x = self._check_array(x, func)
        if type(keepdims) is not bool:
            # NumPy's count_nonzero: keepdims=None is False, else read as its reductions read it
            keepdims = (
                False
                if keepdims is None and self.policy.numpy_argument_reading
                else (self._flag(keepdims, func, "keepdims", integer=True))
            )
        data = x._data
        if axis is not None:
            if type(axis) is bool or not isinstance(axis, (int, np.integer, tuple)):
                raise TypeError(f"{func}: axis must be None, an int or a tuple of ints, got {type(axis).__name__}")
            axis = self._normalize_axes(axis, data.ndim, func)
        if axis is None and not keepdims:
            out = np.count_nonzero(data)  # type: ignore[assignment]  # a NumPy integer, as _index_result takes
        else:
            out = np.count_nonzero(data, axis=axis, keepdims=keepdims)
        return self._index_result(out, x._device)

    count_nonzero = fast_path(_core.UNARY_FUNCTION, "count_nonzero", count_nonzero)  # the whole array: in C

    def nonzero(self, x: Array, /) -> tuple[Array, ...]:
        """Indices of the non-zero elements of ``x``, one array per dimension, in C order."""
        if type(x) is Array and x._runtime is self and x._device is CPU:
            data = x._data
            if type(data) is _ndarray and data.ndim == 1:
                # a vector on the CPU: NumPy's own call, its one index array wrapped (NumPy's intp
                # is the index dtype's, else the general path casts)
                (out,) = data.nonzero()
                index = self.policy.default_index
                if out.dtype is index.numpy:
                    array = _new_object(Array)
                    array._data = out
                    array._dtype = index
                    array._runtime = self
                    array._device = CPU
                    return (array,)
        func = "nonzero"
        x = self._check_array(x, func)
        data = x._data
        if data.ndim == 0:
            raise self._refusal(
                ValueError(f"{func}: x must have at least one dimension, got a 0-d array"), "nonzero_0d"
            )
        device = x._device
        return tuple(self._index_result(i, device) for i in data.nonzero())  # (np.nonzero's own call)

    def searchsorted(
        self, x1: Array, x2: Array | float, /, *, side: Literal["left", "right"] = "left", sorter: Array | None = None
    ) -> Array:
        """Insertion indices of ``x2`` into the ascending ``x1`` (or ``x1[sorter]``)."""
        if type(x1) is Array and type(x2) is Array and sorter is None and x1._runtime is self and x2._runtime is self:
            # two arrays of this namespace whose dtypes (and x2's 0-d-ness) the general path allowed, x1 a vector
            d1, d2 = x1._data, x2._data
            dtype = self._function_pair_dtypes.get(("searchsorted", x1._dtype, x2._dtype, not d2.ndim))
            if (
                dtype is not None
                and d1.ndim == 1
                and x2._device is x1._device
                and type(side) is str
                and (side == "left" or side == "right")
            ):
                if x1._dtype is not dtype:
                    d1 = d1.astype(dtype.numpy)
                if x2._dtype is not dtype:
                    d2 = d2.astype(dtype.numpy)
                return self._index_result(d1.searchsorted(d2, side), x1._device)  # (np.searchsorted's own call)
        func = "searchsorted"
        x1 = self._check_array(x1, func, "x1")
        t2 = type(x2)
        if t2 is Array:
            self._check_array(x2, func, "x2")
            device = self._same_device(func, x1, x2)  # type: ignore[arg-type]  # (an Array: t2 is Array)
        elif (t2 in (int, float) or isinstance(x2, float)) and self.api_version >= "2025.12":
            device = x1._device  # (np.float64 is a Python float)
            if t2 is not float and t2 is not int:
                x2 = float(x2)
                t2 = float
        else:
            allowed = "an array, an int or a float" if self.api_version >= "2025.12" else "an array"
            raise self._refusal(
                TypeError(f"{func}: x2 must be {allowed}, got {describe_value(x2)}"), "searchsorted", x1, x2
            )
        if not is_one_of(side, ("left", "right")):  # (not a str: a TypeError too, as NumPy's)
            error = ValueError if isinstance(side, str) else ArgumentError
            raise error(f"{func}: side must be 'left' or 'right', got {side!r}")
        d1 = x1._data
        if d1.ndim != 1:
            raise ValueError(f"{func}: x1 must be one-dimensional, got shape {d1.shape}")
        unordered = self.policy.unordered_dtypes
        for a in (x1, x2):
            if type(a) is Array and a._dtype in unordered:
                try:
                    self.policy.refuse_ordering(func, a._dtype)
                except PromotionError as exc:
                    raise self._refusal(exc, "searchsorted", x1, x2) from None
        try:
            dtype = self._promote(func, x1, x2)
        except PromotionError:
            if not (t2 is Array and self.policy.search_mixed_kinds):
                raise
            dtype = None  # real values of kinds that do not promote: compared as NumPy compares them
        if dtype is not None and t2 is Array and x1._runtime is self and x2._runtime is self and not self._by_value:
            self._result_types[_promotion_key(self, x1, x2)] = dtype  # type: ignore[arg-type]  # result_type's answer too
            # (and searchsorted's plan for these dtypes, x2 0-d or not: no value decides it here)
            self._function_pair_dtypes["searchsorted", x1._dtype, x2._dtype, not x2._data.ndim] = dtype  # type: ignore[union-attr]
        if dtype is None:
            d2 = x2._data
        else:
            if x1._dtype is not dtype:
                d1 = d1.astype(dtype.numpy)
            if t2 is Array:
                d2 = x2._data if x2._dtype is dtype else x2._data.astype(dtype.numpy)
            else:
                try:
                    d2 = self.policy.convert_scalar(x2, dtype, func)
                except OverflowError as exc:
                    raise self._refusal(exc, "searchsorted", x1, x2) from None
        if sorter is not None:
            sorter = self._check_array(sorter, func, "sorter")
            self._same_device(func, x1, sorter)
            if sorter._dtype.category != D.CATEGORY_INTEGER:
                raise TypeError(f"{func}: sorter must have an integer dtype, got {sorter._dtype.name}")
            if sorter._data.shape != d1.shape:
                raise ValueError(f"{func}: sorter must have the shape of x1 {d1.shape}, got {sorter._data.shape}")
            try:
                d1 = d1[sorter._data]
            except IndexError as exc:
                raise IndexError(f"{func}: sorter holds an index out of bounds for x1: {exc}") from None
        return self._index_result(np.searchsorted(d1, d2, side=side), device)
