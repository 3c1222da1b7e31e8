"""Along an axis: the host's function on blocks that hold whole the axes it works along.

Sorting, ``searchsorted``, ``isin``, the ``unique_*`` functions, ``take_along_axis``,
``linalg.cross``, the matrix functions of ``linalg`` and the FFTs: the axes the host's function
needs whole are rechunked into one chunk (the other axes stay chunked) and the host's function
runs on each block.  The result's sizes along those axes are the host's on metas that keep those
axes' real sizes.  Part of :class:`runtime.DaskRuntime`.
"""

from __future__ import annotations

import operator

import dask
import dask.array as da
import numpy as np

from .._array import Array
from .base import standard_signatures
from .blocks import Block, filled, known, letters, size_classes
from .blockwise import DaskBlockwise

__all__ = ["DaskAlongAxis"]


# The methods of functions that share a signature, one per function: a method of its own (not one shared
# under several names), so that each namespace function has its own name and the NumPy one's summary.
def _one_matrix(name):
    """The method ``name(x, /)`` of a matrix function of one argument (``linalg.det`` ...)."""

    def method(self, x, /):
        return self._matrices(name, (x,), {})

    method.__name__ = method.__qualname__ = name
    return method


def _one_axis(name):
    """The method ``name`` of a transform along one axis (``fft.fft`` ...)."""

    def method(self, x, /, *, n=None, axis=-1, norm="backward"):
        return self._transform(name, x, {"n": n, "axis": axis, "norm": norm})

    method.__name__ = method.__qualname__ = name
    return method


def _some_axes(name):
    """The method ``name`` of a transform along several axes (``fft.fftn`` ...)."""

    def method(self, x, /, *, s=None, axes=None, norm="backward"):
        return self._transform(name, x, {"s": s, "axes": axes, "norm": norm})

    method.__name__ = method.__qualname__ = name
    return method


def _shift(name):
    """The method ``name`` of a shift of the zero frequency (``fft.fftshift``, ``fft.ifftshift``)."""

    def method(self, x, /, *, axes=None):
        return self._transform(name, x, {"axes": axes})

    method.__name__ = method.__qualname__ = name
    return method


@standard_signatures
class DaskAlongAxis(DaskBlockwise):
    """Sorting, searching, sets, ``take_along_axis``, linalg's matrix functions and the FFTs, on whole axes."""

    def _along(self, method, args, kwargs, func, core, names=None):
        """The host's ``method`` on blocks whose ``core`` axes are whole.

        Axes count from the array argument of most dimensions; the others are aligned on the
        trailing axes (their batch axes broadcast).  The output keeps the batch axes, with core
        axes of the sizes the host gives on metas that keep the core axes' real sizes: in place
        when it has as many dimensions, else after the batch axes.  Returns the host's result
        structure.
        """
        arrays = [a for a in args if type(a) is Array]
        for a, n in zip(arrays, names or ["x"] * len(arrays)):
            self._check_array(a, func, n)
        ndim = max(a._data.ndim for a in arrays)
        core = tuple(sorted(c % ndim for c in core)) if ndim else ()
        for a in arrays:
            if not known(a._data.shape):
                raise ValueError(f"{func}: an array of unknown shape {a.shape}; compute it first")
        # Batch axes: 0 or 1 for one array; for several, sizes that keep their broadcasting.
        batch = size_classes([a._data.shape for a in arrays], keep=1) if len(arrays) > 1 else {}
        metas_args = []
        for a in args:
            if type(a) is Array:
                shape = tuple(
                    s if (i - (a._data.ndim - ndim)) in core else batch.get(s, 0 if s == 0 else 1)
                    for i, s in enumerate(a._data.shape)
                )
                block = filled(shape, a._dtype, matrices=method.startswith("linalg_"))
                metas_args.append(Array._new(block, a._dtype, self._host, a._device))
            else:
                metas_args.append(self._metas(a, func, "x"))
        result = getattr(self._host, method)(*metas_args, **kwargs)
        outs = result if isinstance(result, tuple) else (result,)
        template, _ = self._template(args)
        pairs = []
        for n, a in enumerate(arrays):
            offset = a._data.ndim - ndim
            own_core = [i for i in range(a._data.ndim) if i - offset in core or i - offset < 0]
            data = a._data.rechunk({i: -1 for i in own_core}) if own_core else a._data
            # Core axes: letters of their own (each block holds them whole); batch axes: aligned.
            pairs += [data, tuple(1000 * (n + 1) + i if i in own_core else i - offset for i in range(a._data.ndim))]
        batch = [i for i in range(ndim) if i not in core]
        pieces = []
        for k, out in enumerate(outs):
            oshape = out._data.shape
            if len(oshape) == ndim:  # core axes stay where they are, of the host's sizes
                out_ind = tuple(300 + i if i in core else i for i in range(ndim))
                new_axes = {300 + i: oshape[i] for i in core}
            else:  # the batch axes, then the host's core axes
                nb = len(batch)
                out_ind = tuple(batch) + tuple(300 + j for j in range(len(oshape) - nb))
                new_axes = {300 + j: oshape[nb + j] for j in range(len(oshape) - nb)}
            rnp = out._data.dtype
            block = Block(self, method, template, kwargs, rnp, pick=k if isinstance(result, tuple) else None)
            data = da.blockwise(
                block,
                out_ind,
                *pairs,
                dtype=rnp,
                new_axes=new_axes,
                concatenate=True,
                align_arrays=True,
                meta=np.empty((0,) * len(oshape), rnp),
            )
            pieces.append(self._wrap(data, out._dtype, out._device))
        if not isinstance(result, tuple):
            return pieces[0]
        return type(result)(*pieces) if hasattr(result, "_fields") else tuple(pieces)

    # -- shapes: the host checks on shape-faithful metas (broadcast views, no memory) ---------------

    def _on_whole(self, block, result, out_index, *pairs) -> Array:
        """``block`` on dask arrays and their indices ``pairs`` (an index of its own: an axis held whole)."""
        rnp = result._data.dtype
        out = da.blockwise(
            block, out_index, *pairs, dtype=rnp, concatenate=True, meta=np.empty((0,) * len(out_index), rnp)
        )
        return self._wrap(out, result._dtype, result._device)

    # -- sorting, searching, sets --------------------------------------------------------------------
    def sort(self, x, /, *, axis=-1, descending=False, stable=True):
        kwargs = {"axis": axis, "descending": descending, "stable": stable}
        x = self._check_array(x, "sort")
        return self._along("sort", (x,), kwargs, "sort", (axis,) if x._data.ndim else ())

    def argsort(self, x, /, *, axis=-1, descending=False, stable=True):
        kwargs = {"axis": axis, "descending": descending, "stable": stable}
        x = self._check_array(x, "argsort")
        return self._along("argsort", (x,), kwargs, "argsort", (axis,) if x._data.ndim else ())

    def take_along_axis(self, x, indices, /, *, axis=-1):
        x = self._check_array(x, "take_along_axis")
        indices = self._check_array(indices, "take_along_axis", "indices")
        return self._along(
            "take_along_axis", (x, indices), {"axis": axis}, "take_along_axis", (axis,), ("x", "indices")
        )

    def searchsorted(self, x1, x2, /, *, side="left", sorter=None):
        kwargs = {"side": side, "sorter": sorter}
        result = self._decide("searchsorted", (x1, x2), kwargs, "searchsorted", ("x1", "x2"), shapes=True)
        template, _ = self._template((x1, x2))
        block = Block(self, "searchsorted", template, {"side": side}, result._data.dtype)
        whole = x1._data.rechunk(-1)
        if sorter is not None:
            whole = da.take(whole, sorter._data.rechunk(-1).astype(np.intp))
        if type(x2) is not Array:  # a Python scalar: a 0-d result from the whole of x1
            return self._on_whole(block, result, (), whole, (900,))
        n = x2._data.ndim
        return self._on_whole(block, result, letters(n), whole, (900,), x2._data, letters(n))

    def isin(self, x1, x2, /, *, invert=False):
        result = self._decide("isin", (x1, x2), {"invert": invert}, "isin", ("x1", "x2"))
        if type(x2) is not Array:  # a Python scalar x2: the host on each block of x1
            return self._blockwise("isin", (x1, x2), {"invert": invert}, result, "isin", shapes=[])
        template, _ = self._template((x1, x2))
        block = Block(self, "isin", template, {"invert": invert}, result._data.dtype)
        other = letters(x2._data.ndim, 900)
        if type(x1) is not Array:  # a Python scalar x1: a 0-d result from the whole of x2
            return self._on_whole(block, result, (), x2._data, other)
        n = x1._data.ndim
        return self._on_whole(block, result, letters(n), x1._data, letters(n), x2._data, other)

    def _unique(self, method, x):
        x = self._check_array(x, method)
        results = self._decide(method, (x,), {}, method)
        outs = results if isinstance(results, tuple) else (results,)
        delayed = dask.delayed(Block(self, method, [(x._dtype, x._device)], {}, None, pick="all"))(x._data)
        pieces = []
        for k, r in enumerate(outs):
            shape = (
                x._data.shape
                if method == "unique_inverse" and k == 1 or (method == "unique_all" and k == 2)
                else (np.nan,)
            )
            item = dask.delayed(operator.getitem)(delayed, k)
            pieces.append(
                self._wrap(
                    da.from_delayed(
                        item, shape=shape, dtype=r._data.dtype, meta=np.empty((0,) * len(shape), r._data.dtype)
                    ),
                    r._dtype,
                    r._device,
                )
            )
        if not isinstance(results, tuple):
            return pieces[0]
        return type(results)(*pieces)

    def unique_values(self, x, /):
        return self._unique("unique_values", x)

    def unique_counts(self, x, /):
        return self._unique("unique_counts", x)

    def unique_inverse(self, x, /):
        return self._unique("unique_inverse", x)

    def unique_all(self, x, /):
        return self._unique("unique_all", x)

    # -- linalg: the host's function on blocks that hold the matrices whole -------------------------
    def linalg_cross(self, x1, x2, /, *, axis=-1):
        return self._along("linalg_cross", (x1, x2), {"axis": axis}, "linalg.cross", (axis,), ("x1", "x2"))

    def _matrices(self, name, args, kwargs, names=("x",)):
        """``linalg.<name>`` on blocks that hold the matrices (the last two axes) whole."""
        func = name.replace("linalg_", "linalg.", 1)
        # An array argument beside the matrices (pinv's or matrix_rank's rtol) is small: its values, computed.
        kwargs = {k: self.compute(self._check_array(v, func, k)) if type(v) is Array else v for k, v in kwargs.items()}
        axes = (-2, -1)
        if any(type(v) is Array and v.ndim for v in kwargs.values()) and type(args[0]) is Array:
            axes = tuple(range(-args[0].ndim, 0))  # an rtol per matrix of the stack: the whole stack in one block
        return self._along(name, args, kwargs, func, axes, names)

    def linalg_cholesky(self, x, /, *, upper=False):
        return self._matrices("linalg_cholesky", (x,), {"upper": upper})

    def linalg_matrix_norm(self, x, /, *, keepdims=False, ord="fro"):
        return self._matrices("linalg_matrix_norm", (x,), {"keepdims": keepdims, "ord": ord})

    def linalg_matrix_power(self, x, n, /):
        return self._matrices("linalg_matrix_power", (x, n), {})

    def linalg_matrix_rank(self, x, /, *, rtol=None):
        return self._matrices("linalg_matrix_rank", (x,), {"rtol": rtol})

    def linalg_pinv(self, x, /, *, rtol=None):
        return self._matrices("linalg_pinv", (x,), {"rtol": rtol})

    def linalg_qr(self, x, /, *, mode="reduced"):
        return self._matrices("linalg_qr", (x,), {"mode": mode})

    linalg_det = _one_matrix("linalg_det")
    linalg_eig = _one_matrix("linalg_eig")
    linalg_eigh = _one_matrix("linalg_eigh")
    linalg_eigvals = _one_matrix("linalg_eigvals")
    linalg_eigvalsh = _one_matrix("linalg_eigvalsh")
    linalg_inv = _one_matrix("linalg_inv")
    linalg_slogdet = _one_matrix("linalg_slogdet")
    linalg_svdvals = _one_matrix("linalg_svdvals")

    def linalg_solve(self, x1, x2, /):
        return self._matrices("linalg_solve", (x1, x2), {}, ("x1", "x2"))

    def linalg_svd(self, x, /, *, full_matrices=True):
        return self._matrices("linalg_svd", (x,), {"full_matrices": full_matrices})

    # -- fft: the host's function on blocks that hold the transformed axes whole ---------------------
    def _transform(self, name, x, kwargs):
        """``fft.<name>`` on blocks that hold the transformed axes whole (``axis``, or ``axes``: those of
        ``s``, or all)."""
        func = name.replace("fft_", "fft.", 1)
        x = self._check_array(x, func)
        ndim = x._data.ndim
        if "axes" in kwargs:
            axes = kwargs["axes"]
            if axes is None:
                s = kwargs.get("s")
                axes = tuple(range(-len(s), 0)) if s is not None else tuple(range(ndim))
            core = tuple(a for a in axes if type(a) is int and -ndim <= a < ndim)
        else:
            axis = kwargs["axis"]
            core = (axis,) if type(axis) is int and -max(ndim, 1) <= axis < max(ndim, 1) else ()
        if not ndim or len(core) != len(set(c % ndim for c in core)):
            self._decide(name, (x,), kwargs, func)  # the host's refusal, in its words
        return self._along(name, (x,), kwargs, func, core)

    fft_fft = _one_axis("fft_fft")
    fft_ifft = _one_axis("fft_ifft")
    fft_rfft = _one_axis("fft_rfft")
    fft_irfft = _one_axis("fft_irfft")
    fft_hfft = _one_axis("fft_hfft")
    fft_ihfft = _one_axis("fft_ihfft")
    fft_fftn = _some_axes("fft_fftn")
    fft_ifftn = _some_axes("fft_ifftn")
    fft_rfftn = _some_axes("fft_rfftn")
    fft_irfftn = _some_axes("fft_irfftn")
    fft_fftshift = _shift("fft_fftshift")
    fft_ifftshift = _shift("fft_ifftshift")
