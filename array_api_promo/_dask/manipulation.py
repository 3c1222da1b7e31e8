"""Manipulation: dask's own reshaping, joining and rearranging, after the host's checks.

The host checks each call on a meta of the real shape (a broadcast view of one value: no
memory), in its own words; dask then reshapes, joins or rearranges the data, already in the
decided dtype.  ``repeat`` by an array gives a size known only when computed.  Part of
:class:`runtime.DaskRuntime`.
"""

from __future__ import annotations

import dask.array as da
import numpy as np

from .._array import Array
from .base import DaskBase, standard_signatures
from .blocks import Block, known, letters

__all__ = ["DaskManipulation"]


@standard_signatures
class DaskManipulation(DaskBase):
    """Shapes, joining, ``flip``, ``roll``, ``tile``, ``repeat``, ``unstack``, ``diff``, ``linalg.diagonal``."""

    def broadcast_to(self, x, /, shape):
        result = self._host.broadcast_to(self._view_meta(x, "broadcast_to"), shape)
        return self._wrap(da.broadcast_to(x._data, result._data.shape), result._dtype, result._device)

    def broadcast_arrays(self, *arrays):
        results = self._host.broadcast_arrays(*(self._view_meta(a, "broadcast_arrays", "arrays") for a in arrays))
        return type(results)(
            self._wrap(da.broadcast_to(a._data, r._data.shape), r._dtype, r._device) for a, r in zip(arrays, results)
        )

    def expand_dims(self, x, /, axis):
        result = self._host.expand_dims(self._view_meta(x, "expand_dims"), axis)
        return self._wrap(x._data.reshape(result._data.shape), result._dtype, result._device)

    def squeeze(self, x, /, axis):
        result = self._host.squeeze(self._view_meta(x, "squeeze"), axis)
        return self._wrap(x._data.reshape(result._data.shape), result._dtype, result._device)

    def reshape(self, x, /, shape, *, copy=None):
        result = self._host.reshape(self._view_meta(x, "reshape"), shape, copy=copy)
        data, shape = x._data, result._data.shape
        try:
            out = data.reshape(shape)
        except NotImplementedError:  # dask splits dimensions only evenly: through one dimension first
            flat = data.rechunk({i: -1 for i in range(1, data.ndim)}) if data.ndim > 1 else data
            out = flat.reshape(-1).reshape(shape)
        return self._wrap(out, result._dtype, result._device)

    def permute_dims(self, x, /, axes):
        self._host.permute_dims(self._view_meta(x, "permute_dims"), axes)
        return self._wrap(da.transpose(x._data, tuple(a % x._data.ndim for a in axes)), x._dtype, x._device)

    def moveaxis(self, x, source, destination, /):
        self._host.moveaxis(self._view_meta(x, "moveaxis"), source, destination)
        return self._wrap(da.moveaxis(x._data, source, destination), x._dtype, x._device)

    def matrix_transpose(self, x, /):
        self._host.matrix_transpose(self._view_meta(x, "matrix_transpose"))
        return self._wrap(da.swapaxes(x._data, -1, -2), x._dtype, x._device)

    def flip(self, x, /, *, axis=None):
        self._host.flip(self._view_meta(x, "flip"), axis=axis)
        axes = self._normalize_axes(axis, x._data.ndim, "flip")
        return self._wrap(da.flip(x._data, axes) if axes else x._data, x._dtype, x._device)

    def unstack(self, x, /, *, axis=0):
        results = self._host.unstack(self._view_meta(x, "unstack"), axis=axis)
        axis = self._normalize_axis(axis, x._data.ndim, "unstack")
        index = (slice(None),) * axis
        return tuple(self._wrap(x._data[index + (i,)], r._dtype, r._device) for i, r in enumerate(results))

    def linalg_diagonal(self, x, /, *, offset=0):
        result = self._host.linalg_diagonal(self._view_meta(x, "linalg.diagonal"), offset=offset)
        out = da.diagonal(x._data, offset=offset, axis1=-2, axis2=-1)
        return self._wrap(out.reshape(result._data.shape), result._dtype, result._device)

    def roll(self, x, /, shift, *, axis=None):
        result = self._decide("roll", (x,), {"shift": shift, "axis": axis}, "roll")
        return self._wrap(da.roll(x._data, shift, axis=axis), result._dtype, result._device)

    def tile(self, x, repetitions, /):
        result = self._host.tile(self._meta(self._check_array(x, "tile")), repetitions)
        reps = tuple(repetitions)
        data = x._data
        if len(reps) > data.ndim:
            data = data.reshape((1,) * (len(reps) - data.ndim) + data.shape)
        return self._wrap(da.tile(data, reps), result._dtype, result._device)

    def repeat(self, x, repeats, /, *, axis=None):
        result = self._decide("repeat", (x, repeats), {"axis": axis}, "repeat", ("x", "repeats"))
        data = x._data if axis is not None else x._data.ravel()
        ax = 0 if axis is None else self._normalize_axis(axis, x._data.ndim, "repeat")
        if type(repeats) is not Array:
            if data.shape[ax] == 0 or repeats == 0:  # dask cannot repeat into nothing: an empty result
                shape = data.shape[:ax] + (data.shape[ax] * repeats,) + data.shape[ax + 1 :]
                return self._wrap(da.zeros(shape, dtype=data.dtype), result._dtype, result._device)
            return self._wrap(da.repeat(data, repeats, axis=ax), result._dtype, result._device)
        # Array repeats: the size depends on their values, so it is unknown until computed.
        whole = data.rechunk({ax: -1})
        count = repeats._data
        block = Block(
            self, "repeat", [(x._dtype, x._device), (repeats._dtype, repeats._device)], {"axis": ax}, result._data.dtype
        )
        out = da.blockwise(
            block,
            letters(whole.ndim, 0)[:ax] + (300,) + letters(whole.ndim)[ax + 1 :],
            whole,
            letters(whole.ndim),
            count.rechunk(-1),
            (500,),
            dtype=result._data.dtype,
            new_axes={300: np.nan},
            concatenate=True,
            meta=np.empty((0,) * whole.ndim, result._data.dtype),
        )
        return self._wrap(out, result._dtype, result._device)

    def _joined(self, arrays, func):
        if not isinstance(arrays, (list, tuple)):
            raise TypeError(f"{func}: arrays must be a list or tuple of arrays, got {type(arrays).__name__}")
        return [self._check_array(a, func, "arrays") for a in arrays]

    def concat(self, arrays, /, *, axis=0):
        arrays = self._joined(arrays, "concat")
        result = self._host.concat([self._meta(a) for a in arrays], axis=axis)
        datas = [a._data if a._data.dtype == result._data.dtype else a._data.astype(result._data.dtype) for a in arrays]
        if axis is None:
            datas = [d.ravel() for d in datas]
            axis = 0
        shapes = [d.shape for d in datas]
        ax = self._normalize_axis(axis, len(shapes[0]), "concat")
        for s in shapes[1:]:
            if known(s) and known(shapes[0]) and s[:ax] + s[ax + 1 :] != shapes[0][:ax] + shapes[0][ax + 1 :]:
                raise ValueError(
                    f"concat: shapes {', '.join(map(str, shapes))} differ outside axis {axis}; only the joined axis may"
                )
        return self._wrap(da.concatenate(datas, axis=ax), result._dtype, result._device)

    def stack(self, arrays, /, *, axis=0):
        arrays = self._joined(arrays, "stack")
        result = self._host.stack([self._meta(a) for a in arrays], axis=axis)
        shapes = {a._data.shape for a in arrays}
        if len(shapes) > 1:
            raise ValueError(f"stack: all arrays must have the same shape, got {', '.join(map(str, shapes))}")
        datas = [a._data if a._data.dtype == result._data.dtype else a._data.astype(result._data.dtype) for a in arrays]
        ax = self._normalize_axis(axis, arrays[0]._data.ndim + 1, "stack")
        return self._wrap(da.stack(datas, axis=ax), result._dtype, result._device)

    def diff(self, x, /, *, axis=-1, n=1, prepend=None, append=None):
        result = self._host.diff(
            self._metas(x, "diff", "x"),
            axis=axis,
            n=n,
            prepend=self._metas(prepend, "diff", "prepend"),
            append=self._metas(append, "diff", "append"),
        )
        rnp = result._data.dtype
        parts = [p._data.astype(rnp) for p in (prepend, x, append) if p is not None]
        ax = self._normalize_axis(axis, x._data.ndim, "diff")
        data = da.concatenate(parts, axis=ax) if len(parts) > 1 else parts[0]
        out = da.diff(data, n=n, axis=ax) if n else data
        return self._wrap(out.astype(rnp), result._dtype, result._device)
