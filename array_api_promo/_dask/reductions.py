"""Reductions: over chunks, in the result dtype the host decides.

``sum``, ``prod``, ``max``, ``min``, ``all``, ``any`` and ``count_nonzero`` reduce each chunk with
the host's function, then the chunks' results (out of core, whatever the size).  ``mean``,
``var``, ``std``, ``argmax``, ``argmin``, ``linalg.trace``, ``linalg.vector_norm`` and the
cumulative functions are dask's own, on data in the decided dtype (their last bits may differ
from NumPy's).  Part of :class:`runtime.DaskRuntime`.
"""

from __future__ import annotations

import math

import dask.array as da
import numpy as np

from .base import standard_signatures
from .blocks import Block
from .blockwise import DaskBlockwise

__all__ = ["DaskReductions"]


@standard_signatures
class DaskReductions(DaskBlockwise):
    """Reductions over chunks, the moments, arg-extremes, norms and cumulative functions."""

    def _reduce(self, method, x, axis, keepdims, kwargs, aggregate=None, aggregate_kwargs=None):
        result = self._decide(method, (x,), {"axis": axis, "keepdims": keepdims, **kwargs}, method)
        axes = self._normalize_axes(axis, x._data.ndim, method)
        rnp = result._data.dtype
        if not axes:  # nothing to reduce: the host's function on each block
            return self._blockwise(method, (x,), {"axis": axis, "keepdims": keepdims, **kwargs}, result, method)
        chunk = Block(self, method, [(x._dtype, x._device)], kwargs, rnp)
        combine = Block(
            self,
            aggregate or method,
            [(result._dtype, result._device)],
            kwargs if aggregate_kwargs is None else aggregate_kwargs,
            rnp,
        )
        out = da.reduction(
            x._data,
            chunk,
            combine,
            axis=axes,
            keepdims=keepdims,
            dtype=rnp,
            concatenate=True,
            meta=np.empty((0,) * (x._data.ndim if keepdims else x._data.ndim - len(axes)), rnp),
            name=method,
        )
        return self._wrap(out, result._dtype, result._device)

    def sum(self, x, /, *, axis=None, dtype=None, keepdims=False):
        return self._reduce("sum", x, axis, keepdims, {"dtype": dtype}, aggregate_kwargs={"dtype": dtype})

    def prod(self, x, /, *, axis=None, dtype=None, keepdims=False):
        return self._reduce("prod", x, axis, keepdims, {"dtype": dtype}, aggregate_kwargs={"dtype": dtype})

    def max(self, x, /, *, axis=None, keepdims=False):
        return self._reduce("max", x, axis, keepdims, {})

    def min(self, x, /, *, axis=None, keepdims=False):
        return self._reduce("min", x, axis, keepdims, {})

    def all(self, x, /, *, axis=None, keepdims=False):
        return self._reduce("all", x, axis, keepdims, {})

    def any(self, x, /, *, axis=None, keepdims=False):
        return self._reduce("any", x, axis, keepdims, {})

    def count_nonzero(self, x, /, *, axis=None, keepdims=False):
        result = self._decide("count_nonzero", (x,), {"axis": axis, "keepdims": keepdims}, "count_nonzero")
        return self._reduce(
            "count_nonzero", x, axis, keepdims, {}, aggregate="sum", aggregate_kwargs={"dtype": result._dtype}
        )

    def _moments(self, method, x, axis, keepdims, correction=None):
        kwargs = {"axis": axis, "keepdims": keepdims}
        if correction is not None:
            kwargs["correction"] = correction
        result = self._decide(method, (x,), kwargs, method)
        axes = self._normalize_axes(axis, x._data.ndim, method)
        rnp = result._data.dtype
        data = x._data.astype(rnp) if x._data.dtype != rnp else x._data
        if not axes:
            return self._blockwise(method, (x,), kwargs, result, method)
        with np.errstate(all="ignore"):
            if method == "mean":
                out = da.mean(data, axis=axes, keepdims=keepdims, dtype=rnp)
            else:
                out = getattr(da, method)(data, axis=axes, keepdims=keepdims, ddof=correction, dtype=rnp)
        return self._wrap(out.astype(rnp), result._dtype, result._device)

    def mean(self, x, /, *, axis=None, keepdims=False):
        return self._moments("mean", x, axis, keepdims)

    def var(self, x, /, *, axis=None, correction=0.0, keepdims=False):
        return self._moments("var", x, axis, keepdims, correction)

    def std(self, x, /, *, axis=None, correction=0.0, keepdims=False):
        return self._moments("std", x, axis, keepdims, correction)

    def _arg_extreme(self, method, x, axis, keepdims):
        result = self._decide(method, (x,), {"axis": axis, "keepdims": keepdims}, method)
        data = x._data
        if data.ndim == 0:
            return self._blockwise(method, (x,), {"axis": axis, "keepdims": keepdims}, result, method)
        out = getattr(da, method)(data, axis=axis, keepdims=keepdims)
        if keepdims and axis is None:
            out = out.reshape((1,) * data.ndim)
        return self._wrap(out.astype(result._data.dtype), result._dtype, result._device)

    def argmax(self, x, /, *, axis=None, keepdims=False):
        return self._arg_extreme("argmax", x, axis, keepdims)

    def argmin(self, x, /, *, axis=None, keepdims=False):
        return self._arg_extreme("argmin", x, axis, keepdims)

    # -- cumulative functions --------------------------------------------------------------------
    def _cumulative_dask(self, func, x, axis, dtype, include_initial):
        kwargs = {"axis": axis, "dtype": dtype, "include_initial": include_initial}
        result = self._decide(func, (x,), kwargs, func)
        ndim = x._data.ndim
        ax = 0 if axis is None else self._normalize_axis(axis, ndim, func)
        rnp = result._data.dtype
        data = x._data if x._data.dtype == rnp else self.astype(x, result._dtype)._data
        with np.errstate(over="ignore", invalid="ignore"):
            out = (da.cumsum if func == "cumulative_sum" else da.cumprod)(data, axis=ax, dtype=rnp)
        if include_initial:
            shape = list(data.shape)
            shape[ax] = 1
            start = da.full(tuple(shape), 0 if func == "cumulative_sum" else 1, dtype=rnp)
            out = da.concatenate([start, out], axis=ax)
        return self._wrap(out, result._dtype, result._device)

    def cumulative_sum(self, x, /, *, axis=None, dtype=None, include_initial=False):
        return self._cumulative_dask("cumulative_sum", x, axis, dtype, include_initial)

    def cumulative_prod(self, x, /, *, axis=None, dtype=None, include_initial=False):
        return self._cumulative_dask("cumulative_prod", x, axis, dtype, include_initial)

    # -- linalg's reductions -------------------------------------------------------------------------
    def linalg_trace(self, x, /, *, offset=0, dtype=None):
        result = self._decide("linalg_trace", (x,), {"offset": offset, "dtype": dtype}, "linalg.trace")
        rnp = result._data.dtype
        diag = da.diagonal(x._data, offset=offset, axis1=-2, axis2=-1)
        return self._wrap(da.sum(diag.astype(rnp), axis=-1, dtype=rnp), result._dtype, result._device)

    def linalg_vector_norm(self, x, /, *, axis=None, keepdims=False, ord=2):
        kwargs = {"axis": axis, "keepdims": keepdims, "ord": ord}
        result = self._decide("linalg_vector_norm", (x,), kwargs, "linalg.vector_norm")
        axes = self._normalize_axes(axis, x._data.ndim, "linalg.vector_norm")
        rnp = result._data.dtype
        with np.errstate(all="ignore"):
            a = da.absolute(x._data).astype(rnp)
            if ord == math.inf:
                out = a.max(axis=axes, keepdims=keepdims) if a.size else da.zeros(result._data.shape, rnp)
            elif ord == -math.inf:
                out = a.min(axis=axes, keepdims=keepdims) if a.size else da.full(result._data.shape, np.inf, rnp)
            elif ord == 0:
                out = da.count_nonzero(a, axis=axes).astype(rnp)
                if keepdims:
                    out = out.reshape(tuple(1 if i in axes else s for i, s in enumerate(a.shape)))
            elif ord == 1:
                out = a.sum(axis=axes, keepdims=keepdims)
            elif ord == 2:
                out = da.sqrt((a * a).sum(axis=axes, keepdims=keepdims))
            else:
                p = rnp.type(ord)
                out = (a**p).sum(axis=axes, keepdims=keepdims) ** (1 / p)
        return self._wrap(out.astype(rnp), result._dtype, result._device)
