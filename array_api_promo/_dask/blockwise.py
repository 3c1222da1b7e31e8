"""Blockwise: the host's own function on each block (elementwise functions, operators, ``where``,
``clip``, ``astype``).

Each block of the result is the NumPy namespace's result on the operands' blocks, so every
special value, scalar conversion and quiet cast is the NumPy namespace's.  The elementwise
functions of the NumPy runtime call ``_apply1`` and ``_apply2`` (the array's operators too), which
this class overrides; ``_blockwise`` is also used by the other groups for a call that reduces
nothing (``sum`` over no axis, ``isin`` of a scalar).
"""

from __future__ import annotations

import dask
import dask.array as da
import numpy as np

from .._array import Array
from .._elementwise_functions import check_broadcast
from .base import DaskBase, standard_signatures
from .blocks import Block, known, letters

__all__ = ["DaskBlockwise"]


@standard_signatures
class DaskBlockwise(DaskBase):
    """Elementwise functions, operators, ``where``, ``clip`` and ``astype``: the host's function per block."""

    def _blockwise(self, method, args, kwargs, result: Array, func, shapes=None) -> Array:
        """The host's ``method`` of ``args`` on each block, broadcast; ``result`` is the host's on the metas."""
        template, datas = self._template(args)
        if shapes is None:
            shapes = [d.shape for d in datas]
        for i in range(1, len(shapes)):
            if known(shapes[0]) and known(shapes[i]):
                check_broadcast(func, shapes[0], shapes[i])
        rnp = result._data.dtype
        if not datas:  # Python scalars only: the host's 0-d result
            return self._from_host(result)
        ndim = max(d.ndim for d in datas)
        pairs = []
        for d in datas:
            pairs += [d, letters(d.ndim, ndim - d.ndim)]
        block = Block(self, method, template, kwargs, rnp)
        out = da.blockwise(
            block,
            letters(ndim),
            *pairs,
            dtype=rnp,
            align_arrays=True,
            meta=np.empty((0,) * ndim, rnp),
            name=f"{func}-{dask.base.tokenize(block, *datas)}",
        )
        return self._wrap(out, result._dtype, result._device)

    def _apply2(self, name, x1, x2, operator):
        if name == "matmul" and type(x1) is Array and type(x2) is Array:
            return self.matmul(x1, x2)
        result = self._decide("_apply2", (name, x1, x2, operator), {}, name, ("name", "x1", "x2", "operator"))
        if result is NotImplemented:
            return result
        return self._blockwise("_apply2", (name, x1, x2, operator), {}, result, name)

    def _apply1(self, name, x):
        result = self._decide("_apply1", (name, x), {}, name, ("name", "x"))
        return self._blockwise("_apply1", (name, x), {}, result, name)

    def _apply_scalar_pair(self, name, x1, x2):
        return self._from_host(self._host._apply_scalar_pair(name, x1, x2))

    def _inplace(self, name, x1, x2):
        """``x1 <op>= x2``: the host's checks on the metas, then ``x1`` holds the new lazy result."""
        x1 = self._check_array(x1, name, "x1")
        result = self._apply2(name, x1, x2, True)  # the result's dtype, refusals and broadcasting
        if result is NotImplemented:
            return result
        if result._dtype is not x1._dtype:  # the cast back, as the host asks its policy
            self.policy.inplace_result(f"{name} (in-place)", result._dtype, x1._dtype)
        if type(x2) is Array and known(x1.shape) and known(x2.shape):
            shape = np.broadcast_shapes(x1._data.shape, x2._data.shape)
            if shape != x1._data.shape:
                raise ValueError(
                    f"{name} (in-place): broadcasting would change the shape of x1 from {x1._data.shape} to {shape}"
                )
        data = result._data
        if result._dtype is not x1._dtype:
            data = self.astype(result, x1._dtype)._data
        x1._data = data  # copy-on-write: views taken before keep the old values
        return x1

    def clip(self, x, /, min=None, max=None):
        result = self._decide("clip", (x, min, max), {}, "clip", ("x", "min", "max"))
        return self._blockwise("clip", (x, min, max), {}, result, "clip")

    def where(self, condition, x1, x2, /):
        args = (condition, x1, x2)
        result = self._decide("where", args, {}, "where", ("condition", "x1", "x2"))
        shapes = [a._data.shape for a in args if type(a) is Array]
        for s in shapes[1:]:
            if known(s) and known(shapes[0]):
                try:
                    np.broadcast_shapes(*[t for t in shapes if known(t)])
                except ValueError:
                    raise ValueError(f"where: shapes {', '.join(map(str, shapes))} do not broadcast") from None
        return self._blockwise("where", args, {}, result, "where", shapes=[])

    def astype(self, x, dtype, /, *, copy=True, device=None):
        result = self._decide("astype", (x, dtype), {"copy": copy, "device": device}, "astype", ("x", "dtype"))
        if result._dtype is x._dtype and result._device is x._device and not copy:
            return x
        if result._dtype is x._dtype:
            return self._wrap(x._data, x._dtype, result._device)  # dask arrays are never written in place
        block_device = x._device
        out = self._blockwise("astype", (x, dtype), {"copy": True}, result, "astype")
        return self._wrap(out._data, result._dtype, result._device if device is not None else block_device)

    def result_type(self, *arrays_and_dtypes):
        return self._host.result_type(*(self._metas(a, "result_type", "arrays_and_dtypes") for a in arrays_and_dtypes))
