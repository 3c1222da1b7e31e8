"""Creation functions that fill a shape with one value: full, zeros, ones, empty and their *_like forms.

Their plain cases (a shape of ints, a dtype of the runtime, the CPU) skip the general checks;
_fastpath.c's CONSTANT and FULL paths take the same cases in C.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as np

from . import _core, _dtypes as D
from ._array import Array
from ._core import fast_path
from ._devices import CPU
from ._runtime import PLAIN_LENGTH, RuntimeBase, check_fits, new_array

if TYPE_CHECKING:
    from ._devices import Device
    from ._dtypes import DType


def _plain_shape(shape) -> bool:
    """Whether ``shape`` is an int or a non-empty tuple of ints, each and their nonzero product in
    [0, PLAIN_LENGTH]: nothing for check_shape or check_fits to refuse (_fastpath.c's plain_shape)."""
    if type(shape) is int:
        return 0 <= shape <= PLAIN_LENGTH
    if type(shape) is not tuple or not shape:
        return False
    elements = 1
    for n in shape:
        if type(n) is not int or not 0 <= n <= PLAIN_LENGTH:
            return False
        elements *= n or 1
    return elements <= PLAIN_LENGTH


def _plain_like(x, runtime) -> bool:
    """Whether ``x`` is an array of ``runtime`` on NumPy storage (the *_like functions' plain case)."""
    return type(x) is Array and x._runtime is runtime and type(x._data) is np.ndarray


def check_shape(shape, func):
    if type(shape) is int:
        shape = (shape,)
    elif isinstance(shape, (tuple, list)):
        shape = tuple(shape)
        if any(type(n) is not int for n in shape):
            shape = tuple(_shape_entry(n, func) for n in shape)
    else:
        given = shape
        try:  # an integer that is not a Python int (np.int64): by __index__
            shape = (operator.index(given),) if type(given) is not bool else None
        except TypeError:
            shape = None
        if shape is None:
            raise TypeError(f"{func}: shape must be an int or a tuple of ints, got {type(given).__name__}")
    if any(n < 0 for n in shape):
        raise ValueError(f"{func}: negative dimensions are not allowed, got shape {shape}")
    return shape


def _shape_entry(n, func):
    # An integer that is not a Python int (np.int64 from a NumPy shape computation): its __index__.
    if type(n) is not bool and not isinstance(n, float):
        try:
            return operator.index(n)
        except TypeError:
            pass
    raise TypeError(f"{func}: shape entries must be ints, got {type(n).__name__} {n!r}")


class FillCreation(RuntimeBase):
    """Mixin: the creation functions that fill a shape (or another array's shape) with one value."""

    def _fill(self, shape, fill_value, dtype, device, func):
        shape = check_shape(shape, func)
        device = self._check_device(device, func)
        if self.policy.numpy_scalars != "refuse" and isinstance(fill_value, np.generic):
            # a NumPy scalar as the policy's library takes it; into a dtype asked for, at its own precision
            # under the "array" rule (jnp.full(2, np.int64(2**40), dtype=int64) holds 2**40 without x64,
            # where the scalar alone would be an int32)
            if dtype is not None and self.policy.numpy_scalars == "array" and self._is_numpy_number(fill_value):
                dtype = self._check_dtype(dtype, func)
                check_fits(shape, dtype.numpy.itemsize, func)
                return Array._new(np.full(shape, fill_value, dtype=dtype.numpy), dtype, self, device)
            fill_value = self._from_numpy_scalar(fill_value, func)
        if type(fill_value) is Array:  # a 0-d array as fill value (NumPy users rely on it)
            if "array_fill" in self.policy.undefined_refusals:
                raise self._refusal(
                    TypeError(
                        f"{func}: fill_value must be a Python bool, int, float or complex, got an array; the standard "
                        f"takes a Python scalar (policy {self.policy.name!r}); use float(), int() or bool() of a 0-d "
                        "array"
                    ),
                    "fill_value",
                    Array,
                )
            self._check_array(fill_value, func, "fill_value")
            if fill_value._data.ndim != 0:
                raise ValueError(f"{func}: fill_value must be a scalar or a 0-d array, got shape {fill_value.shape}")
            dtype = fill_value._dtype if dtype is None else self._check_dtype(dtype, func)
            check_fits(shape, dtype.numpy.itemsize, func)
            return Array._new(np.full(shape, fill_value._data, dtype=dtype.numpy), dtype, self, device)
        if type(fill_value) not in D.PY_SCALARS and isinstance(fill_value, (float, complex)):
            # np.float64 and np.complex128 are Python floats and complexes (subclasses), as in
            # asarray's nested sequences and __setitem__ (array-api-strict takes them too)
            fill_value = complex(fill_value) if isinstance(fill_value, complex) else float(fill_value)
        if type(fill_value) not in D.PY_SCALARS:
            raise self._refusal(
                TypeError(
                    f"{func}: fill_value must be a Python bool, int, float or complex, got {type(fill_value).__name__}"
                ),
                "fill_value",
                type(fill_value),
            )
        if dtype is None:
            dtype = self._default_dtype_of_scalar(fill_value, device)
        else:
            dtype = self._check_dtype(dtype, func)
        value = self._exact_scalar(fill_value, dtype, func)
        check_fits(shape, dtype.numpy.itemsize, func)
        return Array._new(np.full(shape, value, dtype=dtype.numpy), dtype, self, device)

    def full(
        self,
        shape: int | tuple[int, ...],
        fill_value: complex,
        *,
        dtype: DType | None = None,
        device: Device | None = None,
    ) -> Array:
        """Returns a new array of the given ``shape`` filled with ``fill_value``."""
        if device is None and _plain_shape(shape):
            # A Python scalar into the default dtype of its type (on the CPU) or a dtype of ours, few
            # elements: what _fill below does with it (_fastpath.c's full does the same)
            t = type(fill_value)
            if dtype is None:
                if t is float or t is int or t is bool:
                    dtype = self._default_dtype_of_scalar(fill_value, CPU)
                    value = self._exact_scalar(fill_value, dtype, "full")
                    return new_array(np.full(shape, value, dtype=dtype.numpy), dtype, self)
            elif (t is float or t is int or t is bool or t is complex) and (
                type(dtype) is D.DType and dtype in self._dtype_set
            ):
                value = self._exact_scalar(fill_value, dtype, "full")
                return new_array(np.full(shape, value, dtype=dtype.numpy), dtype, self)
        return self._fill(shape, fill_value, dtype, device, "full")

    full = fast_path(_core.FULL, "full", full)  # a Python scalar: in C

    def _constant(self, shape, dtype, device, maker, func):
        if (
            device is None
            and (dtype is None or (type(dtype) is D.DType and dtype in self._dtype_set))
            and _plain_shape(shape)
        ):  # the default float (the CPU has no defaults of its own) or a dtype of ours, few elements
            if dtype is None:
                dtype = self.policy.default_float
            return new_array(maker(shape, dtype=dtype.numpy), dtype, self)
        shape = check_shape(shape, func)
        device = self._check_device(device, func)
        dtype = self._default("real floating", device) if dtype is None else self._check_dtype(dtype, func)
        check_fits(shape, dtype.numpy.itemsize, func)
        return Array._new(maker(shape, dtype=dtype.numpy), dtype, self, device)

    def zeros(self, shape: int | tuple[int, ...], *, dtype: DType | None = None, device: Device | None = None) -> Array:
        """Returns a new array of the given ``shape`` filled with zeros."""
        return self._constant(shape, dtype, device, np.zeros, "zeros")

    zeros = fast_path(_core.CONSTANT, "zeros", zeros)  # zeros(n): in C

    def ones(self, shape: int | tuple[int, ...], *, dtype: DType | None = None, device: Device | None = None) -> Array:
        """Returns a new array of the given ``shape`` filled with ones."""
        return self._constant(shape, dtype, device, np.ones, "ones")

    ones = fast_path(_core.CONSTANT, "ones", ones)  # ones(n): in C

    def empty(self, shape: int | tuple[int, ...], *, dtype: DType | None = None, device: Device | None = None) -> Array:
        """Returns a new, uninitialized array of the given ``shape``."""
        return self._constant(shape, dtype, device, np.empty, "empty")

    empty = fast_path(_core.CONSTANT, "empty", empty)  # empty(n): in C

    def _like(self, x, dtype, device, func):
        x = self._check_array(x, func)
        dtype = x._dtype if dtype is None else self._check_dtype(dtype, func)
        device = x._device if device is None else self._check_device(device, func)
        return x._data.shape, dtype, device

    def _made_like(self, x, dtype, device, maker, func):
        shape, dtype, device = self._like(x, dtype, device, func)
        return Array._new(maker(shape, dtype=dtype.numpy), dtype, self, device)

    # The plain case of the *_like functions, x of this namespace and nothing else given: x's dtype
    # on x's device (which holds it), only the data new. Inline: a call costs a fifth of it.
    def zeros_like(self, x: Array, /, *, dtype: DType | None = None, device: Device | None = None) -> Array:
        """Returns a new array of zeros with the shape of ``x`` (and its dtype and device unless given)."""
        if _plain_like(x, self) and dtype is None and device is None:
            return new_array(np.zeros(x._data.shape, x._dtype.numpy), x._dtype, self, x._device)
        return self._made_like(x, dtype, device, np.zeros, "zeros_like")

    zeros_like = fast_path(_core.CONSTANT, "zeros_like", zeros_like)  # x of this namespace alone: in C

    def ones_like(self, x: Array, /, *, dtype: DType | None = None, device: Device | None = None) -> Array:
        """Returns a new array of ones with the shape of ``x`` (and its dtype and device unless given)."""
        if _plain_like(x, self) and dtype is None and device is None:
            return new_array(np.ones(x._data.shape, x._dtype.numpy), x._dtype, self, x._device)
        return self._made_like(x, dtype, device, np.ones, "ones_like")

    ones_like = fast_path(_core.CONSTANT, "ones_like", ones_like)  # x of this namespace alone: in C

    def empty_like(self, x: Array, /, *, dtype: DType | None = None, device: Device | None = None) -> Array:
        """Returns a new, uninitialized array with the shape of ``x`` (and its dtype and device unless given)."""
        if _plain_like(x, self) and dtype is None and device is None:
            return new_array(np.empty(x._data.shape, x._dtype.numpy), x._dtype, self, x._device)
        return self._made_like(x, dtype, device, np.empty, "empty_like")

    empty_like = fast_path(_core.CONSTANT, "empty_like", empty_like)  # x of this namespace alone: in C

    def full_like(
        self, x: Array, /, fill_value: complex, *, dtype: DType | None = None, device: Device | None = None
    ) -> Array:
        """Returns a new array with the shape of ``x`` filled with ``fill_value``."""
        if _plain_like(x, self) and device is None:
            t = type(fill_value)
            if t is float or t is int or t is bool or t is complex:  # as below, without _like's checks
                if dtype is None:
                    dtype_ = x._dtype
                    value = self._exact_scalar(fill_value, dtype_, "full_like")
                    return new_array(np.full(x._data.shape, value, dtype=dtype_.numpy), x._dtype, self, x._device)
                if (
                    type(dtype) is D.DType
                    and dtype in self._dtype_set
                    and x._device is CPU
                    and x._data.size <= PLAIN_LENGTH  # (nothing for _fill's check_fits to refuse)
                ):
                    value = self._exact_scalar(fill_value, dtype, "full_like")
                    return new_array(np.full(x._data.shape, value, dtype=dtype.numpy), dtype, self)
        shape, dtype_, device = self._like(x, dtype, device, "full_like")
        if type(fill_value) in D.PY_SCALARS and dtype is None:
            # The fill value must be representable in x's dtype (no promotion).
            value = self._exact_scalar(fill_value, dtype_, "full_like")
            return Array._new(np.full(shape, value, dtype=dtype_.numpy), dtype_, self, device)
        return self._fill(shape, fill_value, dtype_, device, "full_like")

    full_like = fast_path(_core.FULL, "full_like", full_like)  # a Python scalar: in C
