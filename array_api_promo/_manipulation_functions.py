"""The standard's manipulation functions (concat, stack and unstack come from the _joining mixin).

Shape-only functions (``broadcast_to``, ``expand_dims``, ``flip``,
``moveaxis``, ``permute_dims``, ``reshape``, ``squeeze``, ``unstack``) return
views of their input, as NumPy does and the standard allows; the functions
that build new data (``concat``, ``stack``, ``repeat``, ``roll``, ``tile``)
always return new arrays.  ``concat`` and ``stack`` take their result dtype
from the policy.
"""

from __future__ import annotations

import itertools
import operator
import sys
from typing import TYPE_CHECKING

import numpy as np

from . import _core, _dtypes as D
from ._array import Array
from ._errors import ArgumentError, AxisError
from ._info import MAX_DIMENSIONS as _MAX_DIMS
from ._joining import JoiningFunctions
from ._runtime import PLAIN_LENGTH, check_fits, describe_value, is_one_of, new_array

if TYPE_CHECKING:
    pass

__all__ = ["ManipulationFunctions", "rolled"]

_ndarray = np.ndarray
_broadcast_to = np.broadcast_to
_broadcast_view = _core.broadcast_view
_MAX_INDEX = sys.maxsize  # the most elements (their nonzero sizes' product) NumPy indexes: check_fits' bound

_RESHAPE_TAKES_COPY = np.lib.NumpyVersion(np.__version__) >= "2.1.0"


def _reshape_without_copy(data, shape):
    """``np.reshape(data, shape, copy=False)``: a view, or ValueError where that needs a copy."""
    if _RESHAPE_TAKES_COPY:
        return np.reshape(data, shape, copy=False)
    out = data.view()  # NumPy < 2.1 has no copy=: setting the shape of a view never copies
    try:
        out.shape = shape
    except AttributeError:  # "Incompatible shape for in-place modification"
        raise ValueError(f"cannot reshape {data.shape} into {shape} without a copy") from None
    return out


_index = operator.index
_empty_like = np.empty_like
_product = itertools.product
_WHOLE_AXIS = ((slice(None), slice(None)),)


def _broadcast_data(data, shape: tuple):
    """``data`` itself for its own shape, else its read-only view broadcast to ``shape`` (which it fits)."""
    if data.shape == shape:
        return data
    if type(data) is _ndarray and type(shape) is tuple:
        out = _broadcast_view(data, shape)
        if out is not NotImplemented:
            return out
    return _broadcast_to(data, shape)


def rolled(data: np.ndarray, offsets) -> np.ndarray:
    """``np.roll``'s result for ``offsets``, one per axis of ``data`` (ndim >= 1), each in ``[0, size)``:
    its own steps (an ``empty_like`` filled by a slice copy per block), without its argument handling."""
    rolls = [
        ((slice(None, -k), slice(k, None)), (slice(-k, None), slice(None, k))) if k else _WHOLE_AXIS for k in offsets
    ]
    out = _empty_like(data)
    for indices in _product(*rolls):
        source, target = zip(*indices)
        out[target] = data[source]
    return out


_new_object = object.__new__
_FORWARD, _BACKWARD = slice(None), slice(None, None, -1)


def _reversed_at(axis: int, ndim: int) -> tuple:
    """flip's key for ``axis`` of ``ndim`` (both known valid): what its general path indexes with."""
    return (_FORWARD,) * axis + (_BACKWARD,) + (_FORWARD,) * (ndim - axis - 1) + (Ellipsis,)


# flip's key for every axis of an array of 0, 1, ... dimensions (_fastpath.c's flip makes the same)
_REVERSED_KEYS = tuple((_BACKWARD,) * ndim + (Ellipsis,) for ndim in range(_MAX_DIMS + 1))


def _owner(data):
    """The object at the end of ``data``'s chain of bases: what holds its memory."""
    while data.base is not None:
        data = data.base
    return data


def _tile_plainly(data, reps: tuple):
    """``np.tile(data, reps)`` by np.tile's own steps (each axis's rows repeated in turn), without its
    Python layers, where tile's checks pass and data is repeated: reps ints of at least 1, one
    more, data not empty, the result of at most PLAIN_LENGTH elements (nothing for check_fits to
    refuse); else None (the general path). Every repeat makes new C-ordered data, as np.tile's."""
    shape = data.shape
    extra = len(reps) - len(shape)
    if extra > 0:
        shape = (1,) * extra + shape  # (np.tile's array(x, ndmin=len(reps)))
    elif extra < 0:
        reps = (1,) * -extra + reps
    n = total = data.size
    for r in reps:
        if type(r) is not int or r < 1:
            return None
        total *= r
    if total == n or total > PLAIN_LENGTH or len(shape) > _MAX_DIMS:  # (total == n: empty, or no repeat)
        return None
    out = data
    for dim, r in zip(shape, reps):
        if r != 1:
            out = out.reshape(-1, n).repeat(r, 0)
        n //= dim
    return out.reshape(tuple(s * r for s, r in zip(shape, reps)))


def _as_int(value, func: str, what: str, bools: bool = False) -> int:
    """``value`` as a Python int (anything with ``__index__`` but a bool, unless ``bools``), else ``TypeError``."""
    if type(value) is int:
        return value
    if type(value) is not bool or bools:
        try:
            return _index(value)
        except TypeError:
            pass
    raise TypeError(f"{func}: {what} must be an int, got {describe_value(value)}")


def _as_shape(shape, func: str, arg: str = "shape") -> tuple[int, ...]:
    """A shape argument (a tuple of ints; a list or a single int is accepted) as a tuple."""
    if type(shape) is tuple:
        for s in shape:  # a loop, not all(): a generator's frame cost reshape a tenth of its time
            if type(s) is not int:
                break
        else:
            return shape
    if isinstance(shape, (tuple, list)):
        return tuple(_as_int(s, func, f"each entry of {arg}") for s in shape)
    if type(shape) is int:
        return (shape,)
    raise TypeError(f"{func}: {arg} must be a tuple of ints, got {describe_value(shape)}")


def _int_or_tuple(value, func: str, arg: str, bools: bool = False) -> tuple[int, ...]:
    if type(value) is int:
        return (value,)
    if isinstance(value, (tuple, list)):
        return tuple(_as_int(v, func, f"each entry of {arg}", bools) for v in value)
    return (_as_int(value, func, f"{arg} (an int or a tuple of ints)", bools),)


def _broadcast_shapes(shapes, func: str) -> tuple[int, ...]:
    out: tuple[int, ...] = ()
    for shape in shapes:
        if shape == out or not shape:
            continue
        if len(shape) > len(out):
            out = (1,) * (len(shape) - len(out)) + out
        merged = list(out)
        j = len(out) - len(shape)  # shape's first dimension in out
        for side in shape:
            cur = merged[j]
            if side != cur and side != 1:
                if cur != 1:
                    raise ValueError(
                        f"{func}: shapes {', '.join(str(tuple(s)) for s in shapes)} do not broadcast (size "
                        f"{cur} against size {side} in dimension {j - len(out)}: they cannot be broadcast together)"
                    )
                merged[j] = side
            j += 1
        out = tuple(merged)
    return out


class ManipulationFunctions(JoiningFunctions):
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""

    # -- broadcasting ---------------------------------------------------------------------
    def _refuse_untupled(self, value, func: str, arg: str, kind: str, *facts) -> None:
        """Refuse a ``value`` that is not the tuple of ints the standard takes, where the policy
        refuses lists for them (``list_shape``); ``kind`` and ``facts``: the refusal's."""
        if type(value) is not tuple and "list_shape" in self.policy.undefined_refusals:
            raise self._refusal(
                TypeError(
                    f"{func}: {arg} must be a tuple of ints, got {describe_value(value)}; the standard takes a tuple "
                    f"(policy {self.policy.name!r})"
                ),
                kind,
                *facts,
            )

    def broadcast_arrays(self, *arrays: Array) -> tuple[Array, ...]:
        """Broadcasts one or more arrays against one another."""
        func = "broadcast_arrays"
        for i, a in enumerate(arrays):
            if type(a) is not Array or a._runtime is not self:
                self._check_array(a, func, f"arrays[{i}]")
        if not arrays:
            return () if self.api_version >= "2025.12" else []
        device = arrays[0]._device
        shapes = []
        for a in arrays:
            if a._device is not device:
                device = self._same_device(func, *arrays)
            shapes.append(a._data.shape)
        shape = shapes[0]
        if shapes.count(shape) != len(shapes):
            shape = _broadcast_shapes(shapes, func)
        # (each array's own device holds its dtype: one device for all, checked above)
        out = tuple([new_array(_broadcast_data(a._data, shape), a._dtype, self, device) for a in arrays])
        # The standard returns a tuple since 2025.12 and a list before.
        return out if self.api_version >= "2025.12" else list(out)

    def broadcast_to(self, x: Array, /, shape: tuple[int, ...]) -> Array:
        """Broadcasts ``x`` to the given ``shape``."""
        if type(x) is Array and x._runtime is self and type(shape) is tuple and type(x._data) is _ndarray:
            elements = 1
            for s in shape:
                if type(s) is not int or s < 0:
                    break
                elements *= s or 1
            else:  # sizes NumPy can index: NumPy's view, or x's own data for its own shape (as below)
                data = x._data
                if data.shape == shape:
                    return new_array(data, x._dtype, self, x._device)
                if elements <= _MAX_INDEX:
                    out = _broadcast_view(data, shape)
                    if out is not NotImplemented:  # (shapes that do not broadcast: worded below)
                        return new_array(out, x._dtype, self, x._device)
        func = "broadcast_to"
        x = self._check_array(x, func)
        if (
            self.policy.numpy_argument_reading
            and not isinstance(shape, (tuple, list, bool))
            and hasattr(shape, "__index__")
        ):
            shape = (_as_int(shape, func, "shape", True),)  # np.int64(2), a 0-d integer array: NumPy's reading
        shape = _as_shape(shape, func)
        data = x._data
        if data.shape == shape:
            return Array._new(data, x._dtype, self, x._device)
        if any(s < 0 for s in shape):
            raise ValueError(f"{func}: shape {shape} has a negative size")
        if len(shape) < data.ndim or _broadcast_shapes((data.shape, shape), func) != shape:
            raise ValueError(f"{func}: cannot broadcast an array of shape {data.shape} to shape {shape}")
        check_fits(shape, data.itemsize, func, view=True)
        return Array._new(np.broadcast_to(data, shape), x._dtype, self, x._device)

    def broadcast_shapes(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        """Returns the shape that one or more shapes broadcast to together."""
        for s in shapes:
            if type(s) is not tuple:
                break
            for side in s:
                if type(side) is not int or side < 0:
                    break
            else:
                continue
            break
        else:  # tuples of non-negative Python ints: what the checks below make of any shape
            return _broadcast_shapes(shapes, "broadcast_shapes")
        func = "broadcast_shapes"
        checked = []
        reading = self.policy.numpy_argument_reading
        for i, s in enumerate(shapes):
            if reading and not isinstance(s, (tuple, list)):
                # NumPy's (array-api-strict's) reading: an int is a 1-d shape, an array the shape its elements give
                if isinstance(s, int) or hasattr(s, "__index__") and not hasattr(s, "shape"):
                    s = (s,)
                elif type(s) is Array and s._data.ndim == 1 and s._dtype.category == D.CATEGORY_INTEGER:
                    s = tuple(int(v) for v in s._data)
            if not isinstance(s, (tuple, list)):
                raise TypeError(f"{func}: shapes[{i}] must be a tuple of ints, got {describe_value(s)}")
            s = tuple(_as_int(side, func, f"each entry of shapes[{i}]") for side in s)
            if any(side < 0 for side in s):
                raise ValueError(f"{func}: shapes[{i}] {s} has a negative size")
            checked.append(s)
        return _broadcast_shapes(checked, func)

    # -- shape changes (views) ------------------------------------------------------------------
    def expand_dims(self, x: Array, /, axis: int | tuple[int, ...]) -> Array:
        """Inserts new axes of size one into ``x`` at the positions ``axis``."""
        func = "expand_dims"
        x = self._check_array(x, func)
        data = x._data
        reading = self.policy.numpy_argument_reading
        if type(axis) is int:
            axes: tuple[int, ...] = (axis,)
        elif (isinstance(axis, tuple) or reading and type(axis) is list) and self.api_version >= "2025.12":
            axes = tuple(_as_int(a, func, "each entry of axis", reading) for a in axis)
        else:
            allowed = "an int or a tuple of ints" if self.api_version >= "2025.12" else "an int"
            axes = (_as_int(axis, func, f"axis ({allowed})", reading),)
        m = data.ndim + len(axes)
        positions = []
        for a in axes:
            if not -m <= a < m:  # (NumPy's class, array-api-strict's: an IndexError and a ValueError)
                raise AxisError(
                    f"{func}: axis {a} is out of bounds for the {m}-dimensional result (x has {data.ndim} dimensions)"
                )
            positions.append(a % m)
        if len(set(positions)) != len(positions):
            raise ValueError(f"{func}: axis {axis} names the same position more than once")
        shape = iter(data.shape)
        new_shape = tuple(1 if i in positions else next(shape) for i in range(m))
        return Array._new(data.reshape(new_shape), x._dtype, self, x._device)

    def squeeze(self, x: Array, /, axis: int | tuple[int, ...]) -> Array:
        """Removes the axes ``axis``, each of size one, from ``x``."""
        if type(x) is Array and x._runtime is self and type(axis) is int and type(x._data) is _ndarray:
            # one axis: the view of NumPy's squeeze, without the general path's checks; NumPy's
            # refusal (no such axis, not of size one) leaves the words to the general path
            out = _core.squeezed_view(x._data, axis)
            if out is not NotImplemented:
                return new_array(out, x._dtype, self, x._device)
        func = "squeeze"
        x = self._check_array(x, func)
        data = x._data
        if axis is None:  # a TypeError, and the ValueError array-api-strict raises ("axis=None is not supported")
            raise ArgumentError(f"{func}: axis must be an int or a tuple of ints, got None; name the axes to remove")
        if type(axis) is list and "list_shape" in self.policy.undefined_refusals:
            raise TypeError(
                f"{func}: axis must be an int or a tuple of ints, got {describe_value(axis)}; the standard takes a "
                f"tuple (policy {self.policy.name!r})"
            )
        requested = _int_or_tuple(axis, func, "axis")
        if data.ndim == 0 and requested and all(a in (0, -1) for a in requested):
            return Array._new(data, x._dtype, self, x._device)  # a 0-d x's axis 0 (NumPy's, torch's): x itself
        axes = self._normalize_axes(requested, data.ndim, func)
        shape = data.shape
        for a in axes:
            if shape[a] != 1:
                raise ValueError(
                    f"{func}: cannot squeeze axis {a} of size {shape[a]} (shape {shape}); only size-1 axes"
                )
        new_shape = tuple(s for i, s in enumerate(shape) if i not in axes)
        return Array._new(data.reshape(new_shape), x._dtype, self, x._device)

    squeeze = _core.fast_path(_core.SQUEEZE, "squeeze", squeeze)  # one int axis of size 1: in C

    def reshape(self, x: Array, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Array:
        """Gives ``x`` a new ``shape`` without changing its data."""
        if type(x) is Array and x._runtime is self and type(shape) is tuple and copy is None:
            data = x._data
            if type(data) is _ndarray:
                for s in shape:
                    if type(s) is not int or s < -1:
                        break
                else:  # sizes and -1: NumPy's reshape refuses what the checks below refuse (worded there)
                    try:
                        out = data.reshape(shape)
                    except ValueError:
                        pass
                    else:
                        return new_array(out, x._dtype, self, x._device)
        func = "reshape"
        if type(x) is not Array or x._runtime is not self:  # else _check_array's answer is x
            x = self._check_array(x, func)
        self._refuse_untupled(shape, func, "shape", "reshape_shape", shape)
        shape = _as_shape(shape, func)
        if copy is not None and not is_one_of(copy, (None, True, False)):
            if not self.policy.numpy_argument_reading:
                raise TypeError(f"{func}: copy must be True, False or None, got {copy!r}")
            try:  # (array-api-strict's reading: a true copy copies, a false one that is not False is None's)
                copy = True if copy else None
            except Exception:
                raise TypeError(f"{func}: copy must be True, False or None, got {describe_value(copy)}") from None
        data = x._data
        unknown = 0
        known = 1
        for s in shape:
            if s == -1 or s < 0 and self.policy.numpy_argument_reading:  # (NumPy reads any negative size as -1)
                unknown += 1
            elif s < 0:
                raise ValueError(f"{func}: shape {shape} has a negative size other than -1")
            else:
                known *= s
        if unknown > 1:
            raise ValueError(f"{func}: shape {shape} may contain -1 at most once")
        size = data.size
        if unknown and known == 0:
            raise ValueError(f"{func}: shape {shape} is ambiguous: -1 next to a zero size")
        if (size % known) if unknown else (known != size):
            raise self._refusal(
                ValueError(f"{func}: cannot reshape an array of size {size} (shape {data.shape}) into shape {shape}"),
                "reshape_size",
                size,
                shape,
            )
        if copy:
            out = data.reshape(shape).copy()
        elif copy is False:
            try:
                out = _reshape_without_copy(data, shape)
            except ValueError:
                raise ValueError(
                    f"{func}: copy=False but reshaping an array of shape {data.shape} with strides "
                    f"{data.strides} into {shape} needs a copy"
                ) from None
        else:
            out = data.reshape(shape)
        array = _new_object(Array)  # Array._new inlined
        array._data = out
        array._dtype = x._dtype
        array._runtime = self
        array._device = x._device
        return array

    reshape = _core.fast_path(_core.RESHAPE, "reshape", reshape)  # a tuple of ints: in C

    def permute_dims(self, x: Array, /, axes: tuple[int, ...]) -> Array:
        """Permutes the axes of ``x`` into the order ``axes``."""
        if type(x) is Array and x._runtime is self and type(axes) is tuple and type(x._data) is _ndarray:
            for a in axes:
                if type(a) is not int:
                    break
            else:  # NumPy's transpose takes the same permutations and refuses the same others
                try:
                    data = x._data.transpose(axes)
                except (ValueError, IndexError, TypeError):
                    pass  # worded below
                else:
                    return Array._new(data, x._dtype, self, x._device)
        func = "permute_dims"
        x = self._check_array(x, func)
        data = x._data
        ndim = data.ndim
        if axes is None and self.policy.numpy_argument_reading:  # NumPy's transpose (array-api-strict's): reversed
            axes = tuple(range(ndim - 1, -1, -1))
        if not isinstance(axes, (tuple, list)):
            raise TypeError(f"{func}: axes must be a tuple of ints, got {describe_value(axes)}")
        if len(axes) != ndim:
            raise ValueError(f"{func}: axes {tuple(axes)} must list each of the {ndim} axes of x exactly once")
        perm = tuple(self._normalize_axis(_as_int(a, func, "each entry of axes"), ndim, func) for a in axes)
        if len(set(perm)) != ndim:
            raise ValueError(f"{func}: axes {tuple(axes)} is not a permutation (repeated axis)")
        return Array._new(data.transpose(perm), x._dtype, self, x._device)

    def moveaxis(self, x: Array, source: int | tuple[int, ...], destination: int | tuple[int, ...], /) -> Array:
        """Moves the axes ``source`` of ``x`` to the positions ``destination``, the others keeping their order."""
        func = "moveaxis"
        x = self._check_array(x, func)
        data = x._data
        ndim = data.ndim
        reading = self.policy.numpy_argument_reading
        src = _int_or_tuple(source, func, "source", reading)
        dst = _int_or_tuple(destination, func, "destination", reading)
        if len(src) != len(dst):
            raise ValueError(f"{func}: source {source} and destination {destination} must have the same number of axes")
        src = tuple(self._normalize_axis(a, ndim, func) for a in src)
        dst = tuple(self._normalize_axis(a, ndim, func) for a in dst)
        if len(set(src)) != len(src):
            raise ValueError(f"{func}: repeated axis in source {source}")
        if len(set(dst)) != len(dst):
            raise ValueError(f"{func}: repeated axis in destination {destination}")
        order = [a for a in range(ndim) if a not in src]
        for d, s in sorted(zip(dst, src)):
            order.insert(d, s)
        return Array._new(data.transpose(order), x._dtype, self, x._device)

    def flip(self, x: Array, /, *, axis: int | tuple[int, ...] | None = None) -> Array:
        """Reverses the order of the elements of ``x`` along ``axis`` (every axis by default)."""
        if type(x) is Array and x._runtime is self and type(x._data) is _ndarray:
            data = x._data
            ndim = data.ndim
            if axis is None:  # every axis: the key below, made once per number of axes
                every = _REVERSED_KEYS[ndim] if ndim < len(_REVERSED_KEYS) else None
                if every is not None:
                    return new_array(data[every], x._dtype, self, x._device)
            elif type(axis) is int and -ndim <= axis < ndim:
                return new_array(data[_reversed_at(axis % ndim, ndim)], x._dtype, self, x._device)
        func = "flip"
        x = self._check_array(x, func)
        data = x._data
        if axis is None:
            axes: range | tuple[int, ...] = range(data.ndim)
        else:
            axes = self._normalize_axes(
                _int_or_tuple(axis, func, "axis", self.policy.numpy_argument_reading), data.ndim, func
            )
        key = [slice(None)] * data.ndim
        for a in axes:
            key[a] = slice(None, None, -1)
        return Array._new(data[tuple(key) + (Ellipsis,)], x._dtype, self, x._device)

    flip = _core.fast_path(_core.FLIP, "flip", flip)  # every axis, or one: in C

    # -- new data ----------------------------------------------------------------------
    def roll(self, x: Array, /, shift: int | tuple[int, ...], *, axis: int | tuple[int, ...] | None = None) -> Array:
        """Rolls the elements of ``x`` by ``shift`` along ``axis`` (over the flattened array by default)."""
        if type(x) is Array and x._runtime is self and type(shift) is int and axis is None:
            data = x._data
            if type(data) is _ndarray:  # np.roll's steps for it: the flattened data rolled, in x's shape
                flat = data.ravel()
                out = rolled(flat, (shift % (flat.size or 1),)).reshape(data.shape)
                return new_array(out, x._dtype, self, x._device)
        func = "roll"
        x = self._check_array(x, func)
        data = x._data
        reading = self.policy.numpy_argument_reading
        # (a TypeError, and the ValueError array-api-strict raises: "`shift` can only be an int or a tuple")
        try:
            if type(shift) is list and "list_shape" in self.policy.undefined_refusals:
                raise TypeError(f"{func}: shift must be an int or a tuple of ints, got {describe_value(shift)}")
            shifts = _int_or_tuple(shift, func, "shift")
        except TypeError as exc:
            raise self._refusal(ArgumentError(str(exc)), "roll_shift", shift) from None
        if axis is None:
            if isinstance(shift, (tuple, list)) and not reading:
                raise self._refusal(
                    ValueError(f"{func}: a tuple shift {shift} needs a tuple axis of the same length"),
                    "roll_shift",
                    shift,
                )
            # (NumPy's reading, array-api-strict's: the shifts of the flattened x add up)
            return Array._new(np.roll(data.reshape(-1), sum(shifts)).reshape(data.shape), x._dtype, self, x._device)
        axes = _int_or_tuple(axis, func, "axis", reading)
        axes = tuple(self._normalize_axis(a, data.ndim, func) for a in axes)
        if len(shifts) == 1 and len(axes) > 1:
            shifts = shifts * len(axes)
        elif len(axes) == 1 and len(shifts) > 1 and reading:
            axes = axes * len(shifts)  # NumPy's reading (array-api-strict's): each shift along the one axis
        elif len(shifts) != len(axes):
            raise ValueError(f"{func}: shift {shift} and axis {axis} must have the same length")
        return Array._new(np.roll(data, shifts, axis=axes), x._dtype, self, x._device)

    def repeat(self, x: Array, repeats: int | Array, /, *, axis: int | None = None) -> Array:
        """Repeats each element of ``x`` ``repeats`` times (per element, for an array) along ``axis``."""
        if type(x) is Array and x._runtime is self and type(repeats) is int and repeats >= 0:
            data = x._data
            if type(data) is _ndarray and data.size * repeats <= PLAIN_LENGTH:
                # a count of few elements: NumPy's repeat (np.repeat's own method) of the data as below
                if axis is None:
                    return new_array(data.reshape(-1).repeat(repeats, 0), x._dtype, self, x._device)
                ndim = data.ndim
                if type(axis) is int and -ndim <= axis < ndim:
                    return new_array(data.repeat(repeats, axis % ndim), x._dtype, self, x._device)
        func = "repeat"
        x = self._check_array(x, func)
        data = x._data
        if type(axis) is bool:  # NumPy's repeat (array-api-strict's) refuses a bool axis
            raise TypeError(f"{func}: axis must be an int or None, got bool")
        if axis is None:
            data = data.reshape(-1)
            axis = 0
            n = data.shape[0]
        else:
            axis = self._normalize_axis(axis, data.ndim, func)
            n = data.shape[axis]
        if type(repeats) is Array:
            self._check_array(repeats, func, "repeats")
            self._same_device(func, x, repeats)
            if repeats._dtype.category != D.CATEGORY_INTEGER:
                raise self._refusal(
                    TypeError(f"{func}: repeats must have an integer dtype, got {repeats._dtype.name}"), "repeats_dtype"
                )
            r = repeats._data
            if r.ndim == 0:  # one count for every element, as NumPy's repeat (and torch's) read it
                r = r.reshape(1)
            if r.ndim != 1 or r.shape[0] not in (1, n):
                raise ValueError(f"{func}: repeats must have shape (1,) or ({n},), got {r.shape}")
            if r.size and r.min() < 0:
                raise ValueError(f"{func}: repeats must be non-negative, got {r.min()}")
            if r.dtype.kind == "u" and r.size and r.max() > np.iinfo(np.intp).max:
                raise ValueError(f"{func}: repeats {r.max()} is too large")
            r = r.astype(np.intp, copy=False)
            if r.shape[0] == 1:
                r = int(r[0])  # type: ignore[assignment]  # (one count for every element)
        else:
            try:
                r = _as_int(  # type: ignore[assignment]
                    repeats, func, "repeats (an int or an integer array)", self.policy.numpy_argument_reading
                )
            except TypeError as exc:
                raise self._refusal(exc, "repeats_type", repeats) from None
            if r < 0:
                raise ValueError(f"{func}: repeats must be non-negative, got {r}")
        length = n * r if type(r) is int else sum(int(v) for v in r)
        check_fits(data.shape[:axis] + (length,) + data.shape[axis + 1 :], data.itemsize, func)
        return Array._new(np.repeat(data, r, axis=axis), x._dtype, self, x._device)

    def tile(self, x: Array, repetitions: tuple[int, ...], /) -> Array:
        """Constructs an array by repeating ``x`` as many times along each axis as ``repetitions`` says."""
        if type(x) is Array and x._runtime is self and type(repetitions) is tuple and type(x._data) is _ndarray:
            out = _tile_plainly(x._data, repetitions)
            if out is not None:
                return new_array(out, x._dtype, self, x._device)
        func = "tile"
        x = self._check_array(x, func)
        if not isinstance(repetitions, (tuple, list)):
            raise self._refusal(
                TypeError(f"{func}: repetitions must be a tuple of ints, got {describe_value(repetitions)}"),
                "tile_repetitions",
            )
        self._refuse_untupled(repetitions, func, "repetitions", "tile_repetitions")
        reps = tuple(
            _as_int(r, func, "each entry of repetitions", self.policy.numpy_argument_reading) for r in repetitions
        )
        if any(r < 0 for r in reps):
            raise ValueError(f"{func}: repetitions must be non-negative, got {reps}")
        data = x._data
        ndim = max(len(reps), data.ndim)
        if ndim > _MAX_DIMS:
            raise ValueError(f"{func}: the result would have {ndim} dimensions, more than NumPy's {_MAX_DIMS}")
        padded = (1,) * (ndim - data.ndim) + data.shape
        shape = tuple(s * r for s, r in zip(padded, (1,) * (ndim - len(reps)) + reps))
        check_fits(shape, data.itemsize, func)
        if 0 in shape:  # np.tile repeats axis by axis: (2**40, 2**40, 0) would allocate on the way
            out = np.empty(shape, dtype=data.dtype)
        else:
            out = np.tile(data, reps)
        if _owner(out) is _owner(data):  # np.tile copies today; keep it so
            out = out.copy()
        return Array._new(out, x._dtype, self, x._device)
