"""The standard's utility functions ``all`` and ``any`` (``diff`` lives with the statistical functions).

Both accept every dtype: an element is true when it is non-zero (NaN and
infinities included; a complex element when either component is non-zero),
and both always return ``bool``.
"""

from __future__ import annotations

import numpy as np

from . import _dtypes as D
from ._array import Array
from ._runtime import RuntimeBase

__all__ = ["UtilityFunctions"]

_ndarray = np.ndarray
_asarray = np.asarray
_BOOL = bool  # the dtype np.all and np.any reduce in (never passed on as an argument of theirs)


class UtilityFunctions(RuntimeBase):
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""

    def _truth_reduction(self, func, kernel, x, axis, keepdims, ufunc):
        """``kernel`` (np.all or np.any) of x along ``axis``; ``ufunc``: the logical ufunc np.all or np.any reduces
        an ndarray by, which the plain case calls as they do (an int axis in range or None, a bool keepdims)."""
        if type(x) is Array and x._runtime is self and (keepdims is False or keepdims is True):
            data = x._data
            ndim = data.ndim
            if type(data) is _ndarray and (axis is None or (type(axis) is int and -ndim <= axis < ndim)):
                out = ufunc.reduce(data, axis, _BOOL, None, keepdims)
                return Array._new(out if type(out) is _ndarray else _asarray(out), D.bool_, self, x._device)
        x = self._check_array(x, func)
        if type(keepdims) is not bool:
            keepdims = self._flag(keepdims, func, "keepdims", integer=True)  # (NumPy's reductions: 1, not None)
        data = x._data
        if axis is None:
            out = kernel(data, axis=None, keepdims=keepdims)
        else:
            if type(axis) is bool or not isinstance(axis, (int, np.integer, tuple)):  # (NumPy refuses a bool axis)
                raise TypeError(f"{func}: axis must be None, an int or a tuple of ints, got {type(axis).__name__}")
            out = kernel(data, axis=self._normalize_axes(axis, data.ndim, func), keepdims=keepdims)
        if type(out) is not np.ndarray:
            out = np.asarray(out)
        return Array._new(out, D.bool_, self, x._device)

    def all(self, x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
        """Whether every element of ``x`` is true (non-zero) along ``axis``; ``True`` when empty."""
        return self._truth_reduction("all", np.all, x, axis, keepdims, np.logical_and)

    def any(self, x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
        """Whether some element of ``x`` is true (non-zero) along ``axis``; ``False`` when empty."""
        return self._truth_reduction("any", np.any, x, axis, keepdims, np.logical_or)
