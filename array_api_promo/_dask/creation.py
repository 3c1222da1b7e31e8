"""Creation: dask's own functions, in the dtype and on the device the host decides.

``asarray`` of a dask array keeps it (cast if the policy says so); of anything else it is the
host's array, chunked.  Constants (``zeros``, ``full``, the ``*_like`` functions) are dask's of
the host's dtype; ``arange``, ``linspace`` and ``eye`` of at most ``SMALL`` elements are the
host's, chunked, larger ones dask's after the host has checked their ends.  Every function takes
``chunks=`` (any of dask's forms).  Part of :class:`runtime.DaskRuntime`.
"""

from __future__ import annotations

import math

import dask.array as da
import numpy as np

from .. import _dtypes as D
from .._array import Array
from .._creation_functions import check_shape
from .base import DaskBase, standard_signatures
from .blocks import chunks_for, known, meta_shape

__all__ = ["DaskCreation", "SMALL"]

SMALL = 1 << 20  # a creation of at most this many elements is made by the host, then chunked


@standard_signatures
class DaskCreation(DaskBase):
    """Creation functions (and ``meshgrid``, ``tril``, ``triu``, ``from_dlpack``, the FFT frequencies)."""

    def asarray(self, obj, /, *, dtype=None, device=None, copy=None, chunks="auto"):
        func = "asarray"
        if type(obj) is Array and getattr(obj._runtime, "storage", "") == "dask":
            self._check_array(obj, func, "obj")
            result = self._decide("asarray", (obj,), {"dtype": dtype, "device": device, "copy": copy}, func, ("obj",))
            if result._dtype is not obj._dtype:
                return self.astype(obj, result._dtype, device=result._device)
            if not copy and result._device is obj._device:
                return obj  # no copy: the array itself, whose later writes (copy-on-write) it then sees
            return self._wrap(obj._data, obj._dtype, result._device)
        if isinstance(obj, da.Array):
            meta = np.ones(meta_shape(obj.shape), dtype=obj.dtype)
            result = self._host.asarray(meta, dtype=dtype, device=device, copy=copy)
            data = obj if obj.dtype == result._data.dtype else obj.astype(result._data.dtype)
            return self._wrap(data, result._dtype, result._device)
        return self._from_host(self._host.asarray(obj, dtype=dtype, device=device, copy=copy), chunks)

    def _constant(self, maker, shape, dtype, device, chunks, func, fill=None):
        shape = check_shape(shape, func)
        chunks = chunks_for(shape, chunks)
        kwargs = {"dtype": dtype, "device": device}
        probe = self._host.full((), fill, **kwargs) if maker == "full" else getattr(self._host, maker)((), **kwargs)
        rnp = probe._data.dtype
        if maker == "full":
            data = da.full(shape, probe._data[()], dtype=rnp, chunks=chunks)
        else:
            data = getattr(da, maker)(shape, dtype=rnp, chunks=chunks)
        return self._wrap(data, probe._dtype, probe._device)

    def zeros(self, shape, *, dtype=None, device=None, chunks="auto"):
        return self._constant("zeros", shape, dtype, device, chunks, "zeros")

    def ones(self, shape, *, dtype=None, device=None, chunks="auto"):
        return self._constant("ones", shape, dtype, device, chunks, "ones")

    def empty(self, shape, *, dtype=None, device=None, chunks="auto"):
        return self._constant("empty", shape, dtype, device, chunks, "empty")

    def full(self, shape, fill_value, *, dtype=None, device=None, chunks="auto"):
        return self._constant("full", shape, dtype, device, chunks, "full", fill_value)

    def _like(self, maker, x, dtype, device, chunks, fill=None):
        x = self._check_array(x, f"{maker}_like")
        probe = self._decide(
            f"{maker}_like",
            (x,),
            {"dtype": dtype, "device": device} | ({"fill_value": fill} if maker == "full" else {}),
            f"{maker}_like",
        )
        rnp = probe._data.dtype
        chunks = x._data.chunks if chunks is None else chunks
        if not known(x._data.shape):
            raise ValueError(f"{maker}_like: x has an unknown shape {x.shape}; compute it first")
        if maker == "full":
            data = da.full(x._data.shape, probe._data.ravel()[0] if probe._data.size else 0, dtype=rnp, chunks=chunks)
        else:
            data = getattr(da, maker)(x._data.shape, dtype=rnp, chunks=chunks)
        return self._wrap(data, probe._dtype, probe._device)

    def zeros_like(self, x, /, *, dtype=None, device=None, chunks=None):
        return self._like("zeros", x, dtype, device, chunks)

    def ones_like(self, x, /, *, dtype=None, device=None, chunks=None):
        return self._like("ones", x, dtype, device, chunks)

    def empty_like(self, x, /, *, dtype=None, device=None, chunks=None):
        return self._like("empty", x, dtype, device, chunks)

    def full_like(self, x, /, fill_value, *, dtype=None, device=None, chunks=None):
        return self._like("full", x, dtype, device, chunks, fill_value)

    def arange(self, start, /, stop=None, step=1, *, dtype=None, device=None, chunks="auto"):
        first, last, n = self._arange_extent(start, stop, step)
        if n <= SMALL:
            return self._from_host(self._host.arange(start, stop, step, dtype=dtype, device=device), chunks)
        # The host's checks (types, dtype, the range of the values) on the first and last values.
        half = any(type(v) is float for v in (start, stop, step))
        self._host.arange(last, last + step / 2 if half else last + step, step, dtype=dtype, device=device)
        probe = self._host.arange(first, first + step / 2 if half else first + step, step, dtype=dtype, device=device)
        rnp = probe._data.dtype
        data = da.arange(first, first + n * step, step, dtype=rnp, chunks=chunks)[:n]
        return self._wrap(data, probe._dtype, probe._device)

    @staticmethod
    def _arange_extent(start, stop, step):
        """The first and last values and the length of ``arange`` (or ``(start, start, 0)`` when the
        arguments are not plain numbers: the host refuses them in its words)."""
        if stop is None:
            start, stop = 0, start
        if not all(type(v) in (int, float) for v in (start, stop, step)) or step == 0:
            return start, start, 0
        if all(type(v) is int for v in (start, stop, step)):
            n = max(0, -((start - stop) // step))
        elif not all(math.isfinite(v) for v in (start, stop, step)):
            return start, start, 0
        else:
            n = max(0, math.ceil((stop - start) / step))
        return start, start + (n - 1) * step, n

    def linspace(self, start, stop, /, num, *, dtype=None, device=None, endpoint=True, chunks="auto"):
        if type(num) is not int or num <= SMALL:
            return self._from_host(
                self._host.linspace(start, stop, num, dtype=dtype, device=device, endpoint=endpoint), chunks
            )
        probe = self._host.linspace(start, stop, 2, dtype=dtype, device=device, endpoint=endpoint)
        rnp = probe._data.dtype
        if probe._dtype.category == D.CATEGORY_COMPLEX:
            start, stop = complex(start), complex(stop)
            real = da.linspace(start.real, stop.real, num, endpoint=endpoint, chunks=chunks, dtype=np.float64)
            imag = da.linspace(start.imag, stop.imag, num, endpoint=endpoint, chunks=chunks, dtype=np.float64)
            data = (real + 1j * imag).astype(rnp)
        else:
            data = da.linspace(start, stop, num, endpoint=endpoint, chunks=chunks, dtype=np.float64)
            data = (da.floor(data) if probe._dtype.category == D.CATEGORY_INTEGER else data).astype(rnp)
        return self._wrap(data, probe._dtype, probe._device)

    def eye(self, n_rows, n_cols=None, /, *, k=0, dtype=None, device=None, chunks="auto"):
        cols = n_rows if n_cols is None else n_cols
        if type(n_rows) is not int or type(cols) is not int or n_rows * cols <= SMALL:
            return self._from_host(self._host.eye(n_rows, n_cols, k=k, dtype=dtype, device=device), chunks)
        probe = self._host.eye(min(n_rows, 1), min(cols, 1), k=k, dtype=dtype, device=device)
        data = da.eye(n_rows, M=cols, k=k, dtype=probe._data.dtype, chunks=chunks)
        return self._wrap(data, probe._dtype, probe._device)

    def _triangle(self, x, k, numpy_func, func):
        result = self._decide(func, (x,), {"k": k}, func)
        data = x._data
        rows, cols = data.shape[-2], data.shape[-1]
        keep = da.tri(rows, cols, k=k if func == "tril" else k - 1, dtype=bool, chunks=data.chunks[-2:])
        if func == "triu":
            keep = ~keep
        out = da.where(keep, data, da.zeros((), dtype=data.dtype))
        return self._wrap(out.astype(result._data.dtype), result._dtype, result._device)

    def meshgrid(self, *arrays, indexing="xy"):
        results = self._decide("meshgrid", arrays, {"indexing": indexing}, "meshgrid", ["arrays"] * len(arrays))
        datas = da.meshgrid(*(a._data for a in arrays), indexing=indexing)
        return type(results)(self._wrap(d, r._dtype, r._device) for d, r in zip(datas, results))

    def from_dlpack(self, x, /, *, device=None, copy=None):
        if type(x) is Array:
            x = np.asarray(x)  # our own arrays (of either storage) export through NumPy's buffer
        return self._from_host(self._host.from_dlpack(x, device=device, copy=copy))

    def fft_fftfreq(self, n, /, *, d=1.0, dtype=None, device=None):
        return self._from_host(self._host.fft_fftfreq(n, d=d, dtype=dtype, device=device))

    def fft_rfftfreq(self, n, /, *, d=1.0, dtype=None, device=None):
        return self._from_host(self._host.fft_rfftfreq(n, d=d, dtype=dtype, device=device))
