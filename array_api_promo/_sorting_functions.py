"""The standard's sorting functions ``sort`` and ``argsort``.

Both are stable in either direction: a descending sort keeps equal elements
in their original order, as the standard requires.  ``argsort`` returns the
policy's ``default_index`` dtype; ``sort`` keeps the dtype of ``x``.
"""

from __future__ import annotations

import numpy as np

from ._array import Array
from ._runtime import RuntimeBase

__all__ = ["SortingFunctions"]


class SortingFunctions(RuntimeBase):
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""

    def _sort_args(self, func, x, axis, descending, stable):
        x = self._check_array(x, func)
        if type(descending) is not bool:
            raise TypeError(f"{func}: descending must be a bool, got {type(descending).__name__}")
        if type(stable) is not bool:
            raise TypeError(f"{func}: stable must be a bool, got {type(stable).__name__}")
        if type(axis) is bool:
            raise TypeError(f"{func}: axis must be an int, got bool")
        data = x._data
        return x, data, self._normalize_axis(axis, data.ndim, func)

    @staticmethod
    def _descending_order(data, axis):
        """Stable descending argsort: equal elements keep their original order."""
        n = data.shape[axis]
        flipped = np.flip(data, axis=axis)
        order = np.argsort(flipped, axis=axis, kind="stable")
        return (n - 1) - np.flip(order, axis=axis)

    def argsort(self, x, /, *, axis=-1, descending=False, stable=True):
        """Indices that sort ``x`` along ``axis`` (stable, ascending or descending)."""
        x, data, axis = self._sort_args("argsort", x, axis, descending, stable)
        if descending:
            out = self._descending_order(data, axis)
        else:
            out = np.argsort(data, axis=axis, kind="stable")
        index = self.policy.default_index
        if out.dtype != index.numpy:
            out = out.astype(index.numpy)
        return Array._new(out, index, self, x._device)

    def sort(self, x, /, *, axis=-1, descending=False, stable=True):
        """A sorted copy of ``x`` along ``axis`` (stable, ascending or descending)."""
        x, data, axis = self._sort_args("sort", x, axis, descending, stable)
        if not descending:
            out = np.sort(data, axis=axis, kind="stable")
        elif data.dtype.kind in "biu":
            # Equal integers are indistinguishable: reversing the ascending sort is exact.
            out = np.flip(np.sort(data, axis=axis, kind="stable"), axis=axis)
        else:
            # Floating point: equal values may differ (signed zeros), keep their order.
            out = np.take_along_axis(data, self._descending_order(data, axis), axis=axis)
        return Array._new(out, x._dtype, self, x._device)
