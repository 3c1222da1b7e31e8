"""Indexing: ``take``, ``take_along_axis`` and the array's ``__getitem__`` / ``__setitem__``.

Keys follow the standard's indexing rules: integers, slices, an ellipsis,
``None``, a boolean array mask, and integer arrays (2024.12 integer array
indexing; NumPy's vectorised semantics also for mixes the standard leaves
implementation-defined, e.g. with slices).  Index arrays must be arrays of
this namespace's policy, on the indexed array's device.  Python lists,
NumPy arrays, floats and bools are refused with an ``IndexError``: the
standard does not define them as indices.

Basic indexing returns a view (as the standard allows); an index selecting a
single element returns a new 0-d array.  ``__setitem__`` values are checked by
the policy: an array value must promote to the target's dtype and the policy
must allow storing that result in place (``policy.inplace_result``); a
Python scalar is converted with ``policy.convert_scalar``.
"""

from __future__ import annotations

import functools
import operator

import numpy as np

from . import _dtypes as D
from ._array import Array
from ._dtypes import PY_SCALARS
from ._errors import IndexTypeError
from ._runtime import RuntimeBase, describe_value, new_array
from .promotion import PromotionError, scalar_type

__all__ = ["IndexingFunctions"]

_ndarray = np.ndarray
_new_object = object.__new__
_arange = np.arange


def _taken_along_plainly(x: Array, indices: Array, axis):
    """take_along_axis's data for signed indices of x's own shape on x's device along an int axis of x
    (two arrays of one namespace): what its checks let through to NumPy's take_along_axis unchanged, by
    NumPy's own key (its _make_along_axis_idx: the indices at the axis, an arange along each other axis);
    else None (the general path; an index out of bounds too, for its words)."""
    data, idx = x._data, indices._data
    if (
        type(axis) is not int
        or indices._device is not x._device
        or type(data) is not _ndarray
        or type(idx) is not _ndarray
        or idx.shape != data.shape
        or idx.dtype.kind != "i"
        or not -data.ndim <= axis < data.ndim
    ):
        return None
    axis %= data.ndim
    ones = (1,) * data.ndim
    key = tuple(
        idx if d == axis else _arange(n).reshape(ones[:d] + (-1,) + ones[d + 1 :]) for d, n in enumerate(data.shape)
    )
    try:
        out = data[key]
    except IndexError:
        return None
    return out if out.base is None or not np.shares_memory(out, data) else None


_ELLIPSIS = type(Ellipsis)
_NONE = type(None)
_BASIC = frozenset((int, slice, _ELLIPSIS, _NONE))


def _convert_stored(convert, dtype, value):
    return convert(value, dtype, "__setitem__")


class IndexingFunctions(RuntimeBase):
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""

    # -- keys ------------------------------------------------------------------------------
    def _index_key(self, x, key, func):
        """``key`` as a NumPy key for ``x._data`` (validated), and whether it is a sole mask.

        Returns ``(np_key, mask)`` where ``mask`` is the boolean ndarray when the
        key is a single boolean array, else None.
        """
        t = type(key)
        if t is Array:
            return self._array_index(x, key, func, sole=True)
        if t is not tuple:
            return self._single_index(x, key, func), None
        if len(key) == 1 and type(key[0]) is Array:
            return self._array_index(x, key[0], func, sole=True)
        # The common case: a tuple of ints, slices, Ellipsis and None.
        for k in key:
            if type(k) not in _BASIC:
                break
        else:
            return key, None
        return tuple(self._single_index(x, k, func) for k in key), None

    def _check_undefined_key(self, x, key, func):
        """Refuse ``key`` where the standard leaves it undefined and the policy refuses it (its
        ``undefined_refusals`` among ``INDEXING_REFUSALS``), with array-api-strict's checks in its
        order. An entry of a type the standard does not know is left to ``_single_index``'s refusal."""
        rules = self._key_refusals
        policy = self.policy.name
        entries = key if type(key) is tuple else (key,)
        setitem = func == "__setitem__"
        for k in entries:
            t = type(k)
            if t is Array:
                if setitem and k._dtype.category == D.CATEGORY_INTEGER and "setitem_keys" in rules:
                    raise self._refusal(
                        IndexError(
                            f"{func}: an integer array in the key {key_repr(key)} is not defined for __setitem__ "
                            f"by the standard (policy {policy!r}); store through a boolean mask, or compute the "
                            "new array with where()"
                        ),
                        "setitem_index_array",
                    )
            elif k is None:
                if setitem and "setitem_keys" in rules:
                    raise self._refusal(
                        IndexError(
                            f"{func}: None (a new axis) in the key {key_repr(key)} is not defined for __setitem__ "
                            f"by the standard (policy {policy!r}); leave it out"
                        ),
                        "index",
                        k,
                    )
            elif t is bool or not (t is slice or k is Ellipsis or hasattr(t, "__index__")):
                return  # no index of the standard: _single_index refuses it
        n_ellipsis, single, mask, index_arrays, slices = 0, [], None, False, False
        for k in entries:
            if k is None:
                continue
            if k is Ellipsis:
                n_ellipsis += 1
                continue
            t = type(k)
            if t is Array:
                category = k._dtype.category
                if category == D.CATEGORY_BOOL:
                    mask = k if mask is None else mask
                elif category == D.CATEGORY_INTEGER:
                    index_arrays = True
            elif t is slice:
                slices = True
            elif isinstance(k, _ndarray):
                return  # _single_index refuses it
            single.append(k)
        if n_ellipsis > 1:
            return  # NumPy's refusal
        shape = x.shape
        ndim = len(shape)
        if not n_ellipsis and mask is None and len(single) < ndim and "implicit_axes" in rules:
            raise self._refusal(
                IndexError(
                    f"{func}: the key {key_repr(key)} names {len(single)} of the {ndim} axes of x (shape "
                    f"{shape}); the standard leaves the others implicit only after an ellipsis (policy "
                    f"{policy!r}): write x{key_repr(entries + (Ellipsis,))}"
                ),
                "implicit_axes",
                ndim,
                len(single),
            )
        if index_arrays and (n_ellipsis or slices or mask is not None) and "index_mixes" in rules:
            raise self._refusal(
                IndexError(
                    f"{func}: integer index arrays beside a slice, an ellipsis or a mask (the key "
                    f"{key_repr(key)}) are not defined by the standard (policy {policy!r}); index with "
                    "integers and integer arrays only, then slice the result"
                ),
                "index_array_mix",
                key,
            )
        axes = tuple(range(ndim))
        if n_ellipsis:  # the entries after the ellipsis name the last axes
            start = next(i for i, k in enumerate(e for e in entries if e is not None) if k is Ellipsis)
            axes = axes[:start] + axes[ndim - (len(single) - start) :]
        for k, axis in zip(single, axes):
            if type(k) is slice:
                side = shape[axis]
                if "slice_bounds" not in rules or side is None:  # (lazy storage: a size not known yet)
                    continue
                for which, bound in (("start", k.start), ("stop", k.stop)):
                    try:
                        bound = operator.index(bound)
                    except TypeError:
                        continue  # None, or no int: NumPy's to read
                    if not -side <= bound <= side:
                        raise self._refusal(
                            IndexError(
                                f"{func}: the slice {_one_repr(k)} has {which} {bound}, out of bounds for axis "
                                f"{axis} of size {side}; the standard defines slice bounds from {-side} to "
                                f"{side} only (policy {policy!r})"
                            ),
                            "slice_bounds",
                            k,
                            which,
                            bound,
                            side,
                        )
            elif k is mask and len(entries) != 1 and "index_mixes" in rules:
                raise self._refusal(
                    IndexError(
                        f"{func}: a boolean mask beside other entries (the key {key_repr(key)}) is not defined "
                        f"by the standard (policy {policy!r}); a mask must be the sole index"
                    ),
                    "index_mask_in_tuple",
                    k,
                    len(entries),
                )

    def _single_index(self, x, k, func):
        t = type(k)
        if t in _BASIC:
            return k
        if t is Array:
            return self._array_index(x, k, func, sole=False)[0]
        if t is bool:
            raise self._refusal(
                IndexError(
                    f"{func}: a Python bool is not an index (a boolean index must be a boolean array of this namespace)"
                ),
                "index",
                k,
            )
        if t is slice:  # pragma: no cover - handled as basic
            return k
        if isinstance(k, (list, tuple)):
            raise self._refusal(
                IndexError(
                    f"{func}: a Python {t.__name__} is not an index in the array API standard; "
                    "use an integer array (asarray) for integer array indexing"
                ),
                "index",
                k,
            )
        if isinstance(k, _ndarray):
            raise self._refusal(
                IndexError(f"{func}: a NumPy ndarray is not an index; convert it with asarray() of this namespace"),
                "index",
                k,
            )
        if isinstance(k, slice):  # pragma: no cover - slice cannot be subclassed
            return k
        try:
            return operator.index(k)
        except TypeError:
            pass
        raise self._refusal(
            IndexError(
                f"{func}: {describe_value(k)} is not a valid index; indices are ints, slices, ..., None, "
                "boolean arrays and integer arrays"
            ),
            "index",
            k,
        )

    def _array_index(self, x, k, func, sole):
        if k._runtime is not self or k._device is not x._device:
            self._check_indexing_array(x, k, func, "key", "the index array", "index_devices", func)
        cat = k._dtype.category
        if cat == D.CATEGORY_BOOL:
            if not self.boolean_indexing:
                raise self._refusal(
                    RuntimeError(
                        f"{func}: boolean indexing is disabled for {self.label} "
                        "(set_array_api_strict_flags(boolean_indexing=False), as a lazy library has it)"
                    ),
                    "boolean_indexing",
                )
            return k._data, (k._data if sole else None)
        if cat == D.CATEGORY_INTEGER:
            return k._data, None
        raise IndexError(f"{func}: index arrays must have an integer or boolean dtype, got {k._dtype.name}")

    def _check_indexing_array(self, x, a, func, arg, named, kind, *facts):
        """An array a key or a store brings (the argument ``arg``, ``named`` so in the message): an array of
        this namespace, on x's device (else a refusal of ``kind`` with ``facts``)."""
        if a._runtime is not self:
            self._check_array(a, func, arg)
        if a._device is not x._device:
            raise self._refusal(
                ValueError(
                    f"{func}: {named} is on {a._device.name} but x is on {x._device.name}; move one with to_device()"
                ),
                kind,
                *facts,
            )

    def _mask_shape_check(self, data, mask, func):
        """The standard's rules for a sole boolean mask; True when it selects nothing by a 0 size."""
        mshape = mask.shape
        if mask.ndim > data.ndim:
            raise IndexError(
                f"{func}: a boolean mask of shape {mshape} has more dimensions than x (shape {data.shape})"
            )
        empty = False
        for i, (m, s) in enumerate(zip(mshape, data.shape)):
            if m == s:
                continue
            if m == 0:
                empty = True
                continue
            raise IndexError(
                f"{func}: boolean mask of shape {mshape} does not match x of shape {data.shape} "
                f"in dimension {i} ({m} against {s})"
            )
        return empty

    # -- __getitem__ ----------------------------------------------------------------------------
    def _getitem(self, x, key):
        func = "__getitem__"
        data = x._data
        if self._key_refusals:
            self._check_undefined_key(x, key, func)
        if type(key) is tuple:
            for k in key:
                if type(k) not in _BASIC:
                    break
            else:  # the common case: ints, slices, ... and None
                return self._indexed(x, key, key, func)
        np_key, mask = self._index_key(x, key, func)
        if mask is not None and self._mask_shape_check(data, mask, func):
            out = np.empty((0,) + data.shape[mask.ndim :], dtype=data.dtype)
            return Array._new(out, x._dtype, self, x._device)
        return self._indexed(x, np_key, key, func)

    def _indexed(self, x, np_key, key, func):
        """``x._data[np_key]`` as a new array; NumPy's index errors become ours, naming ``key``."""
        data = x._data
        try:
            out = data[np_key]
        except IndexError as exc:
            raise self._refusal(IndexError(f"{func}: {exc} (x has shape {data.shape})"), "index_error", key) from None
        except (TypeError, ValueError, OverflowError) as exc:
            raise IndexError(f"{func}: invalid index {key!r}: {exc}") from None
        if type(out) is not _ndarray:
            # A single element: a new 0-d array (never a NumPy scalar).
            out = np.asarray(out)
        return Array._new(out, x._dtype, self, x._device)

    # -- __setitem__ -----------------------------------------------------------------------------
    _setitem_allowed = None  # per-namespace set of (target, value) signatures already allowed

    def _check_setitem_value(self, x, value, key):
        """Raise unless the policy lets ``value`` be stored into ``x`` (allowed signatures are cached)."""
        allowed = self._setitem_allowed
        if allowed is None:
            allowed = self._setitem_allowed = set()
        elif key in allowed:
            return
        result = self._promote("__setitem__", x, value)
        try:
            self.policy.inplace_result("__setitem__", result, x._dtype)
        except PromotionError as exc:
            raise self._refusal(exc, "promotion", "__setitem__", x, value) from None
        allowed.add(key)

    def _setitem_value(self, x, value, func):
        """What ``x[key] = value`` stores: ``value`` in ``x``'s dtype, once the policy allows it (any storage)."""
        target = x._dtype
        t = type(value)
        if t not in PY_SCALARS and isinstance(value, np.generic):
            if self.policy.numpy_scalars == "refuse" and not isinstance(value, (float, complex)):
                # (np.float64 and np.complex128 are Python numbers; the others are no operand of the standard)
                raise TypeError(
                    f"{func}: value must be an array or a Python bool, int, float or complex, got "
                    f"{describe_value(value)}; convert it with asarray() or int()/float() (policy {self.policy.name!r})"
                )
            value = self._numpy_scalar_value(value, x, func)
            t = type(value)
        if t is Array:
            if value._runtime is not self or value._device is not x._device:
                self._check_indexing_array(x, value, func, "value", "value", "devices", func, x._device, value._device)
            vdtype = value._dtype
            if vdtype is target:
                return value._data
            self._check_setitem_value(x, value, (target, x._data.ndim == 0, vdtype, value._data.ndim == 0))
            return value._data.astype(target.numpy)
        if t in PY_SCALARS:
            self._check_setitem_value(x, value, (target, x._data.ndim == 0, scalar_type(value)))
            try:
                return self.policy.convert_scalar(value, target, func)
            except OverflowError as exc:
                raise self._refusal(exc, "int_range", value, target) from None
        allowed = "an array of this namespace or a Python bool, int, float or complex"
        raise TypeError(f"{func}: value must be {allowed}, got {describe_value(value)}")

    def _store_operands(self, x, key, value, func):
        """What ``x[key] = value`` checks before it stores (any storage): NumPy's key, the sole boolean mask
        (or None), and the value in x's dtype."""
        if self._key_refusals:
            self._check_undefined_key(x, key, func)
        np_key, mask = self._index_key(x, key, func)
        return np_key, mask, self._setitem_value(x, value, func)

    def _setitem(self, x, key, value):
        func = "__setitem__"
        data = x._data
        np_key, mask, v = self._store_operands(x, key, value, func)
        if mask is not None and self._mask_shape_check(data, mask, func):
            return  # a zero-size mask selects nothing
        if not data.flags.writeable:
            raise ValueError(
                f"{func}: x is a read-only view (from broadcast_to, broadcast_arrays or linalg.diagonal); copy it first "
                "(asarray(x, copy=True))"
            )
        try:
            data[np_key] = v
        except IndexError as exc:
            raise self._refusal(IndexError(f"{func}: {exc} (x has shape {data.shape})"), "index_error", key) from None
        except ValueError as exc:
            raise ValueError(
                f"{func}: value of shape {np.shape(v)} cannot be stored into x{key_repr(key)} "
                f"(x has shape {data.shape}): {exc}"
            ) from None
        except TypeError as exc:
            raise IndexError(f"{func}: invalid index {key!r}: {exc}") from None
        t = type(value)
        if (
            t in PY_SCALARS
            and scalar_type(value) is t  # (a LargeInt is decided apart)
            and data.ndim
            and x._runtime is self
            and not self._by_value
        ):
            # Allowed for this dtype and scalar type (a value-dependent policy decides by value; the
            # key plays no part in the value's check): the next such store under a basic key or a
            # mask of x's shape is Array.__setitem__'s, with the conversion the general path makes
            # (the fast converter of a float, convert_scalar's for the others: a policy may refuse
            # an int by its value, JAX one beyond its default integer).
            self._setitem_converters[x._dtype, t] = (
                self.policy.scalar_converter(t, x._dtype, func)
                if t is float
                else functools.partial(_convert_stored, self.policy.convert_scalar, x._dtype)
            )

    def _numpy_scalar_value(self, value, x, func):
        """A NumPy scalar as a ``__setitem__`` value: what it is in Python, or a 0-d array of its dtype.

        ``np.float64`` and ``np.complex128`` are Python ``float`` and ``complex``
        (subclasses): they are stored as those, as array-api-strict does.  Any
        other NumPy scalar keeps its dtype, as a 0-d array: the policy's in-place
        rule decides whether it may be stored (never a silent cast).
        """
        if isinstance(value, float):
            return float(value)
        if isinstance(value, complex):
            return complex(value)
        try:
            dtype = D.dtype_of_numpy(value.dtype)
        except (TypeError, ValueError, KeyError):
            dtype = None
        if dtype is None or dtype not in self._dtype_set:
            raise TypeError(f"{func}: value {describe_value(value)} has no dtype under {self.label}")
        return Array._new(np.asarray(value), dtype, self, x._device)

    # -- take and take_along_axis -----------------------------------------------------------------
    def _indices_arg(self, x, indices, func):
        indices = self._check_array(indices, func, "indices")
        self._same_device(func, x, indices)
        if indices._dtype.category != D.CATEGORY_INTEGER:  # (a TypeError and array-api-strict's IndexError)
            raise self._refusal(
                IndexTypeError(f"{func}: indices must have an integer dtype, got {indices._dtype.name}"),
                "take_dtype",
                func,
            )
        return indices._data

    def take(self, x: Array, indices: Array, /, *, axis: int | None = None) -> Array:
        """Elements of ``x`` at ``indices`` (one-dimensional, negative from the end) along ``axis``."""
        if (
            axis is None
            and type(x) is Array
            and type(indices) is Array
            and x._runtime is self
            and indices._runtime is self
            and indices._device is x._device
            and indices._dtype.category == D.CATEGORY_INTEGER
        ):
            data, idx = x._data, indices._data
            if type(data) is _ndarray and type(idx) is _ndarray and data.ndim == 1 and idx.ndim == 1:
                # two vectors of this namespace: np.take's own call (an index out of bounds is worded below)
                try:
                    out = data.take(idx)
                except IndexError:
                    pass
                else:
                    array = _new_object(Array)  # (x's device holds x's dtype)
                    array._data = out
                    array._dtype = x._dtype
                    array._runtime = self
                    array._device = x._device
                    return array
        func = "take"
        x = self._check_array(x, func)
        idx = self._indices_arg(x, indices, func)
        data = x._data
        if idx.ndim != 1:
            raise self._refusal(
                ValueError(f"{func}: indices must be one-dimensional, got shape {idx.shape}"), "take_indices_ndim"
            )
        if axis is None:
            if data.ndim != 1:
                raise self._refusal(
                    ValueError(
                        f"{func}: axis is required for an array of {data.ndim} dimensions (it may be "
                        "omitted only for a one-dimensional array)"
                    ),
                    "take_axis",
                )
            axis = 0
        elif type(axis) is bool:
            raise TypeError(f"{func}: axis must be an int, got bool")
        axis = self._normalize_axis(axis, data.ndim, func)
        try:
            out = np.take(data, idx, axis=axis)
        except IndexError as exc:
            raise IndexError(f"{func}: {exc} (x has shape {data.shape}, axis {axis})") from None
        return Array._new(out, x._dtype, self, x._device)

    def take_along_axis(self, x: Array, indices: Array, /, *, axis: int = -1) -> Array:
        """Elements of ``x`` at the per-position ``indices`` along ``axis``."""
        if type(x) is Array and type(indices) is Array and x._runtime is self and indices._runtime is self:
            out = _taken_along_plainly(x, indices, axis)
            if out is not None:
                return new_array(out, x._dtype, self, x._device)
        func = "take_along_axis"
        x = self._check_array(x, func)
        idx = self._indices_arg(x, indices, func)
        data = x._data
        if self.policy.numpy_argument_reading:  # NumPy's readings (array-api-strict's): True is 1, None flattens x
            if axis is None:
                if idx.ndim != 1:
                    raise ValueError(f"{func}: with axis=None, indices must be one-dimensional, got shape {idx.shape}")
                data, axis = data.reshape(-1), 0
        elif type(axis) is bool:
            raise TypeError(f"{func}: axis must be an int, got bool")
        axis = self._normalize_axis(axis, data.ndim, func)
        if idx.ndim != data.ndim:
            raise ValueError(f"{func}: indices must have as many dimensions as x ({data.ndim}), got shape {idx.shape}")
        for i, (a, b) in enumerate(zip(data.shape, idx.shape)):
            if i != axis and a != b and a != 1 and b != 1:
                raise ValueError(
                    f"{func}: shapes of x {data.shape} and indices {idx.shape} do not broadcast outside axis {axis}"
                )
        if idx.dtype.kind == "u":
            if idx.size and idx.max() > np.iinfo(np.intp).max:
                raise IndexError(f"{func}: index {idx.max()} is out of bounds for x of shape {data.shape}")
            idx = idx.astype(np.intp)
        # Broadcast x and indices against each other outside the axis.
        shape_x = list(data.shape)
        shape_i = list(idx.shape)
        for i, (a, b) in enumerate(zip(data.shape, idx.shape)):
            if i != axis:
                shape_x[i] = shape_i[i] = b if a == 1 else a
        shape_x, shape_i = tuple(shape_x), tuple(shape_i)  # type: ignore[assignment]
        if shape_x != data.shape:
            data = np.broadcast_to(data, shape_x)
        if shape_i != idx.shape:
            idx = np.broadcast_to(idx, shape_i)
        try:
            out = np.take_along_axis(data, idx, axis=axis)
        except IndexError as exc:
            raise IndexError(f"{func}: {exc} (x has shape {x._data.shape}, axis {axis})") from None
        if out.base is not None and np.shares_memory(out, x._data):
            out = out.copy()
        return Array._new(out, x._dtype, self, x._device)


def key_repr(key) -> str:
    if type(key) is tuple:
        return "[" + ", ".join(_one_repr(k) for k in key) + "]"
    return f"[{_one_repr(key)}]"


def _one_repr(k) -> str:
    if type(k) is slice:
        parts = ["" if p is None else str(p) for p in (k.start, k.stop, k.step)]
        return ":".join(parts[:2]) + (f":{parts[2]}" if k.step is not None else "")
    if k is Ellipsis:
        return "..."
    if type(k) is Array:
        return f"<{k._dtype.name} array of shape {k.shape}>"
    return repr(k)
