"""Indexing: dask's own indexing, after the host's checks of the key.

``x[key]`` with a basic key (integers, slices, ``...``, ``None``) is checked by the host on a meta
of the real shape (no memory), then taken by dask; integer and boolean array keys are dask's
(several or n-d integer arrays: NumPy's vectorised semantics, dask's ``vindex``).  A boolean mask
gives a size known only when computed, as ``nonzero`` does.  ``x[key] = value`` replaces ``x``'s
dask array by a new one (copy-on-write: views taken before keep the old values).  Part of
:class:`runtime.DaskRuntime`.
"""

from __future__ import annotations

import operator

import dask.array as da
import numpy as np

from .._array import Array
from .._indexing_functions import key_repr
from .base import DaskBase, standard_signatures
from .blocks import known

__all__ = ["DaskIndexing"]

_BASIC = frozenset((int, slice, type(Ellipsis), type(None)))  # the types of a basic key's entries


@standard_signatures
class DaskIndexing(DaskBase):
    """``take``, ``nonzero``, ``x[key]`` and ``x[key] = value``."""

    def take(self, x, indices, /, *, axis=None):
        result = self._decide("take", (x, indices), {"axis": axis}, "take", ("x", "indices"))
        data = x._data
        ax = 0 if axis is None else self._normalize_axis(axis, data.ndim, "take")
        index = indices._data
        size = data.shape[ax]
        index = da.where(index < 0, index + size, index) if indices._dtype.name.startswith("int") else index
        out = da.take(data, index.astype(np.intp), axis=ax)
        return self._wrap(out, result._dtype, result._device)

    def nonzero(self, x, /):
        results = self._decide("nonzero", (x,), {}, "nonzero")
        return tuple(
            self._wrap(d.astype(r._data.dtype), r._dtype, r._device) for d, r in zip(da.nonzero(x._data), results)
        )

    def _getitem(self, x, key):
        func = "__getitem__"
        data = x._data
        if self._key_refusals:
            self._check_undefined_key(x, key, func)
        key = _plain_slices(key)
        keys = key if type(key) is tuple else (key,)
        if all(type(k) in _BASIC for k in keys) and known(data.shape):
            result = self._host._getitem(self._view_meta(x, func), key)  # the host's checks and words
            out = data[key]
            return self._wrap(
                out.reshape(result._data.shape) if out.shape != result._data.shape else out, x._dtype, x._device
            )
        np_key, mask = self._index_key(x, key, func)
        if (
            mask is not None
            and known(data.shape)
            and known(mask.shape)
            and (self._mask_shape_check(data, mask, func) or mask.size == 0)
        ):  # a mask that selects nothing by its size: a known empty result
            return self._wrap(da.zeros((0,) + data.shape[mask.ndim :], dtype=data.dtype), x._dtype, x._device)
        return self._indexed(x, np_key, key, func)

    def _indexed(self, x, np_key, key, func):
        data = x._data
        keys = np_key if type(np_key) is tuple else (np_key,)
        arrays = [k for k in keys if isinstance(k, da.Array)]
        try:
            if len(arrays) > 1 or any(k.ndim != 1 and k.dtype != bool for k in arrays):
                # NumPy's vectorised semantics for several or n-d integer arrays (dask's vindex).
                out = data.vindex[tuple(k.compute() if isinstance(k, da.Array) else k for k in keys)]
            else:
                out = data[np_key]
        except IndexError as exc:
            raise IndexError(f"{func}: {exc} (x has shape {x.shape})") from None
        except (TypeError, ValueError, OverflowError, NotImplementedError) as exc:
            raise IndexError(f"{func}: invalid index {key!r}: {exc}") from None
        return self._wrap(out, x._dtype, x._device)

    def _numpy_scalar_value(self, value, x, func):
        value = super()._numpy_scalar_value(value, x, func)
        if type(value) is Array:  # a 0-d array of the NumPy scalar's dtype, as a dask array
            return self._wrap(da.from_array(value._data), value._dtype, value._device)
        return value

    def _setitem(self, x, key, value):
        func = "__setitem__"
        data = x._data
        np_key, mask, v = self._store_operands(x, key, value, func)
        if mask is not None and known(mask.shape) and self._mask_shape_check(data, mask, func):
            return
        keys = key if type(key) is tuple else (key,)
        if all(type(k) in _BASIC for k in keys) and known(data.shape):
            self._host._getitem(self._view_meta(x, func), key)  # the key's checks, in the host's words
        new = data.copy()
        try:
            new[np_key] = v
        except IndexError as exc:
            raise IndexError(f"{func}: {exc} (x has shape {x.shape})") from None
        except ValueError as exc:
            raise ValueError(
                f"{func}: value of shape {np.shape(v)} cannot be stored into x{key_repr(key)} (x has shape {x.shape}): {exc}"
            ) from None
        except (TypeError, NotImplementedError) as exc:
            raise IndexError(f"{func}: invalid index {key!r}: {exc}") from None
        x._data = new  # copy-on-write: views taken before keep the old values


def _plain_slices(key):
    """``key`` with each slice's bounds as ints: 0-d integer arrays (``x[start:stop]``) have ``__index__``,
    which dask does not call."""
    if type(key) is slice:
        return slice(
            *(v if v is None or type(v) is int else operator.index(v) for v in (key.start, key.stop, key.step))
        )
    if type(key) is tuple:
        return tuple(_plain_slices(k) if type(k) is slice else k for k in key)
    return key
