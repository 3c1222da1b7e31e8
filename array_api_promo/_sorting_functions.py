"""The standard's sorting functions ``sort`` and ``argsort``.

Both are stable in either direction: a descending sort keeps equal elements
in their original order, as the standard requires.  ``argsort`` returns the
policy's ``default_index`` dtype; ``sort`` keeps the dtype of ``x``.
"""

from __future__ import annotations

import numpy as np

from ._array import Array, new_array
from ._runtime import RuntimeBase

__all__ = ["SortingFunctions"]

_UNSTABLE_MIN = 4096  # elements; below it the stable sort costs no more


def _ascending(data, axis):
    """``numpy.sort(data, axis, kind="stable")``, by NumPy's faster unstable sort where that gives
    the same bits: always for integers and bools (equal values are the same bits), for real floats
    when no two equal values can differ (no zero, whose sign may, and no NaN); else stably."""
    kind = data.dtype.kind
    if data.size < _UNSTABLE_MIN or kind not in "biuf":
        out = data.copy("K")  # np.sort's own steps, without its Python layer
        out.sort(axis, "stable")
        return out
    out = np.sort(data, axis=axis)
    if kind == "f" and (np.isnan(np.take(out, -1, axis=axis)).any() or not out.all()):  # NaNs sort last
        return np.sort(data, axis=axis, kind="stable")
    return out


class SortingFunctions(RuntimeBase):
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""

    def _plain_sort(self, x, axis, descending, stable):
        """``x``'s data where the arguments are this namespace's array of at least one dimension,
        the last axis, ascending and a bool ``stable`` (the general path's checks pass), else None."""
        if (
            type(x) is Array
            and x._runtime is self
            and descending is False
            and (stable is True or stable is False)
            and type(axis) is int
            and axis == -1
            and x._data.ndim
            and x._dtype not in self.policy.unordered_dtypes
        ):
            return x._data
        return None

    def _sort_args(self, func, x, axis, descending, stable):
        x = self._ordered_array(x, func)
        if type(descending) is not bool:
            descending = self._flag(descending, func, "descending")
        if type(stable) is not bool:
            stable = self._flag(stable, func, "stable")
        data = x._data
        # NumPy's (array-api-strict's) readings: axis=None sorts the flattened x, argsort of a 0-d x its one
        # element; a bool axis is an int (but to argsort)
        if self.policy.numpy_argument_reading and (
            axis is None or func == "argsort" and data.ndim == 0 and type(axis) is int and axis in (0, -1)
        ):
            return x, data.reshape(-1), 0, descending
        if type(axis) is bool and (func == "argsort" or not self.policy.numpy_argument_reading):  # (as NumPy's)
            raise TypeError(f"{func}: axis must be an int, got bool")
        return x, data, self._normalize_axis(axis, data.ndim, func), descending

    @staticmethod
    def _descending_order(data, axis):
        """Stable descending argsort: equal elements keep their original order."""
        n = data.shape[axis]
        flipped = np.flip(data, axis=axis)
        order = np.argsort(flipped, axis=axis, kind="stable")
        return (n - 1) - np.flip(order, axis=axis)

    def argsort(self, x: Array, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Array:
        """Indices that sort ``x`` along ``axis`` (stable, ascending or descending)."""
        data = self._plain_sort(x, axis, descending, stable)
        if data is not None:
            out = data.argsort(-1, "stable")  # (np.argsort's own call)
            index = self.policy.default_index
            if out.dtype is not index.numpy:
                out = out.astype(index.numpy)
            return Array._new(out, index, self, x._device)
        x, data, axis, descending = self._sort_args("argsort", x, axis, descending, stable)
        if descending:
            out = self._descending_order(data, axis)
        else:
            out = np.argsort(data, axis=axis, kind="stable")
        index = self.policy.default_index
        if out.dtype != index.numpy:
            out = out.astype(index.numpy)
        return Array._new(out, index, self, x._device)

    def sort(self, x: Array, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Array:
        """A sorted copy of ``x`` along ``axis`` (stable, ascending or descending)."""
        data = self._plain_sort(x, axis, descending, stable)
        if data is not None:  # (x's device holds x's dtype)
            return new_array(_ascending(data, -1), x._dtype, self, x._device)
        x, data, axis, descending = self._sort_args("sort", x, axis, descending, stable)
        if not descending:
            out = _ascending(data, axis)
        elif data.dtype.kind in "biu":
            # Equal integers are indistinguishable: reversing the ascending sort is exact.
            out = np.flip(_ascending(data, axis), axis=axis)
        else:
            # Floating point: equal values may differ (signed zeros), keep their order.
            out = np.take_along_axis(data, self._descending_order(data, axis), axis=axis)
        return Array._new(out, x._dtype, self, x._device)
