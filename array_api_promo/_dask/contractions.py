"""Contractions: dask's own ``matmul``, ``tensordot``, ``vecdot`` and ``linalg.outer``, in the decided dtype.

The host decides on metas whose sizes keep the comparisons of the operands' sizes (a refusal is
asked again on views of the real shapes, for its words); the operands are cast to the result
dtype and dask contracts them.  ``linalg``'s ``matmul``, ``tensordot`` and ``vecdot`` are the NumPy
runtime's, which call these.  Part of :class:`runtime.DaskRuntime`.
"""

from __future__ import annotations

import dask.array as da
import numpy as np

from .._array import Array
from .base import standard_signatures
from .blockwise import DaskBlockwise

__all__ = ["DaskContractions"]


@standard_signatures
class DaskContractions(DaskBlockwise):
    """``matmul`` (and ``@``), ``tensordot``, ``vecdot`` and ``linalg.outer``."""

    def _contracted(self, func, x1, x2, kwargs, dask_func):
        result = self._decide(func.replace("linalg.", "linalg_"), (x1, x2), kwargs, func, ("x1", "x2"), shapes=True)
        rnp = result._data.dtype
        a, b = (v._data if v._data.dtype == rnp else self.astype(v, result._dtype)._data for v in (x1, x2))
        with np.errstate(all="ignore"):
            out = dask_func(a, b)
        return self._wrap(out.astype(rnp), result._dtype, result._device)

    def matmul(self, x1, x2, /):
        if type(x1) is not Array or type(x2) is not Array:
            return self._apply2("matmul", x1, x2, False)
        return self._contracted("matmul", x1, x2, {}, da.matmul)

    def tensordot(self, x1, x2, /, *, axes=2):
        return self._contracted("tensordot", x1, x2, {"axes": axes}, lambda a, b: da.tensordot(a, b, axes=axes))

    def vecdot(self, x1, x2, /, *, axis=-1):
        def dot(a, b):
            return da.sum(da.conj(a) * b if np.iscomplexobj(a) else a * b, axis=axis)

        return self._contracted("vecdot", x1, x2, {"axis": axis}, dot)

    def linalg_outer(self, x1, x2, /):
        return self._contracted("linalg.outer", x1, x2, {}, lambda a, b: a[:, None] * b[None, :])
