"""The standard's statistical functions (cumulative_sum, cumulative_prod, max, mean, min,
prod, std, sum, var) and ``diff``.

Every dtype decision is the policy's: ``policy.function_dtype(op, dtype)`` says
whether the input is allowed and what the result is (for ``sum``, ``prod`` and
the cumulative functions through ``policy.accumulation_dtype``); an explicit
``dtype=`` is honoured (the input is cast to it before computing).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _dtypes as D
from ._array import Array
from ._devices import CPU
from ._runtime import RuntimeBase, quiet_context, quietly
from .promotion import PromotionError

if TYPE_CHECKING:
    from ._dtypes import DType

__all__ = ["StatisticalFunctions"]

_asarray = np.asarray
_ndarray = np.ndarray
_add_reduce: Callable[..., Any] = np.add.reduce  # np.sum's kernel (its overloads match no Context.run call for mypy)
_new_object = object.__new__
_NUMBER_TYPES = (int, float)
_ALL_AXES: dict = {}  # ndim -> (0, ..., ndim - 1)


def _fast_axes(ndim, axis, keepdims):
    """The axes a reduction's fast path passes to its kernel (all of them for None, else the int
    ``axis``), or None where the general path's checks of ``axis`` and ``keepdims`` must speak."""
    if keepdims is not False and keepdims is not True:
        return None
    if axis is None:
        axes = _ALL_AXES.get(ndim)
        if axes is None:
            axes = _ALL_AXES[ndim] = tuple(range(ndim))
        return axes
    if type(axis) is int and -ndim <= axis < ndim:
        return axis
    return None


def _accumulating(func: str, kernel, doc: str):
    """The method ``func`` (``sum`` or ``prod``): the reduction ``kernel`` with the standard's signature."""

    def accumulate(
        self,
        x: Array,
        /,
        *,
        axis: int | tuple[int, ...] | None = None,
        dtype: DType | None = None,
        keepdims: bool = False,
    ) -> Array:
        return self._accumulate(func, kernel, x, axis, dtype, keepdims)

    accumulate.__name__ = func
    accumulate.__qualname__ = f"StatisticalFunctions.{func}"
    accumulate.__doc__ = doc
    # its code named so too: a refusal names the operation by the frames on the stack (operation_name)
    accumulate.__code__ = accumulate.__code__.replace(co_name=func)
    return accumulate


def _variance_of(data, axes, count, correction, keepdims, real):
    """The variance of ``data`` over ``axes`` (``count`` elements each), divisor ``count -
    correction`` (NaN when not positive, of 0 / 0's bits), in the real dtype ``real``: NumPy's var's steps, the
    deviations squared in place. Run in the quiet context: IEEE's inf and NaN, and an underflow,
    pass silently (as sum, prod and mean)."""
    if count:  # (np.add.reduce: np.sum's own call, without its Python layer)
        dev = data - np.add.reduce(data, axis=axes, keepdims=True) / data.dtype.type(count)
        if dev.dtype.kind == "c":
            squares = dev.real * dev.real + dev.imag * dev.imag
        elif type(dev) is _ndarray:  # this function's own: squared in place, as NumPy's var does
            squares = np.multiply(dev, dev, out=dev)
        else:  # a NumPy scalar (x is 0-d)
            squares = dev * dev
        total = np.add.reduce(squares, axis=axes, keepdims=keepdims).astype(real, copy=False)
    else:
        total = np.zeros_like(np.sum(data.real, axis=axes, keepdims=keepdims), dtype=real)
    divisor = count - correction
    if divisor > 0:
        return total / real.type(divisor)
    # NaN (the standard's; NumPy's total / 0 is inf where total > 0), made as NumPy makes it where total is
    # 0 (one element and correction 1): 0 / 0, the machine's NaN (its sign bit set on x86), not np.nan
    zero = real.type(0)
    return total * zero / zero


def _divisor(dtype, count: int):
    """The count a mean divides a sum by, as ``numpy.mean`` divides (array-api-strict's mean is it): a
    complex sum by an ``intp``, so the quotient is complex128's, rounded once to complex64 (a complex64
    division by ``complex64(count)`` differs in the last place); a real sum by its own dtype's count,
    the same value (a float64 quotient of float32 operands rounds to float32's)."""
    return np.intp(count) if dtype.kind == "c" else dtype.type(count)


class StatisticalFunctions(RuntimeBase):
    """Mixin: statistical functions under the namespace's policy."""

    # -- helpers -----------------------------------------------------------------------------
    def _reduction_args(self, x, axis, keepdims, func, bool_axis=False):
        x = self._check_array(x, func)
        if type(keepdims) is not bool:
            keepdims = self._flag(keepdims, func, "keepdims", integer=True)  # (NumPy's reductions: 1, not None)
        if (
            axis is not None
            and not isinstance(axis, (int, np.integer, tuple))
            or type(axis) is bool
            and not (bool_axis and self.policy.numpy_argument_reading)  # (NumPy's mean, std, var: True is 1)
        ):
            raise TypeError(f"{func}: axis must be None, an int or a tuple of ints, got {type(axis).__name__}")
        axes = self._normalize_axes(axis, x._data.ndim, func)
        return x, axes, keepdims

    def _result_dtype(self, func, x, dtype):
        """The policy's result dtype of ``func`` on ``x``, or the explicit ``dtype``."""
        try:
            decision = self.policy.function_dtype(func, x._dtype)
        except PromotionError as exc:
            raise self._refusal(exc, "function_domain", func, x._dtype) from None
        if dtype is None:
            return self.policy.versioned_accumulation(func, decision.result, self.api_version)
        dtype = self._check_dtype(dtype, func)
        if x._dtype.category == D.CATEGORY_COMPLEX and dtype.category != D.CATEGORY_COMPLEX:
            raise TypeError(
                f"{func}: dtype={dtype.name} would discard the imaginary part of {D.a_dtype(x._dtype.name)} "
                f"array; take real() first (policy {self.policy.name!r})"
            )
        return dtype

    def _cast(self, x, dtype):
        if x._dtype is dtype:
            return x._data
        return quietly(x._data.astype, dtype.numpy)  # an explicit dtype= may narrow

    # -- sum and prod --------------------------------------------------------------------------
    def _accumulate(self, func, kernel, x, axis, dtype, keepdims):
        if dtype is None and type(x) is Array and x._runtime is self:
            result = self._accumulations.get((func, x._dtype))  # the general path's answer before
            axes = _fast_axes(x._data.ndim, axis, keepdims) if result is not None else None
            if axes is not None:
                # What the general path does once its checks and dtype decision are known to pass.
                data = x._data
                context = quiet_context()
                if x._dtype is not result:
                    data = context.run(data.astype, result.numpy)
                out = context.run(kernel, data, axis=axes, keepdims=keepdims, dtype=result.numpy)
                device = x._device
                if device is not CPU:
                    device.admit(result, self)
                array = _new_object(Array)
                array._data = _asarray(out, dtype=result.numpy)
                array._dtype = result
                array._runtime = self
                array._device = device
                return array
        x, axes, keepdims = self._reduction_args(x, axis, keepdims, func)
        result = self._result_dtype(func, x, dtype)
        if dtype is None and x._runtime is self:  # (the same answer for every axis and keepdims)
            self._accumulations[func, x._dtype] = result
        data = self._cast(x, result)
        out = quietly(kernel, data, axis=axes, keepdims=keepdims, dtype=result.numpy)
        return Array._new(_asarray(out, dtype=result.numpy), result, self, x._device)

    sum = _accumulating("sum", np.add.reduce, "Sum of ``x``; integers accumulate in the policy's accumulation dtype.")
    prod = _accumulating(
        "prod", np.multiply.reduce, "Product of ``x``; integers accumulate in the policy's accumulation dtype."
    )

    # -- cumulative functions (the kernel: np.cumsum's and np.cumprod's own ufunc.accumulate) ----------
    def _cumulative(self, func, kernel, identity, x, axis, dtype, include_initial):
        plain = axis is None and dtype is None and include_initial is False
        if plain and type(x) is Array and x._runtime is self and x._data.ndim == 1:
            result = self._accumulations.get((func, x._dtype))  # the general path's answer before
            if result is not None:
                data = x._data if x._dtype is result else self._cast(x, result)
                out = quiet_context().run(kernel, data, 0, result.numpy)
                device = x._device
                if device is not CPU:
                    device.admit(result, self)
                array = _new_object(Array)
                array._data = (
                    out if type(out) is _ndarray and out.dtype is result.numpy else _asarray(out, result.numpy)
                )
                array._dtype = result
                array._runtime = self
                array._device = device
                return array
        x = self._check_array(x, func)
        if type(include_initial) is not bool:
            include_initial = self._flag(include_initial, func, "include_initial")
        result = self._result_dtype(func, x, dtype)  # (x's dtype before its shape, as array-api-strict checks)
        ndim = x._data.ndim
        if ndim == 0:
            # the standard: x "Should have one or more dimensions"; array-api-strict's cumulative_sum
            # (not its cumulative_prod) gives NumPy's cumsum of a 0-d x: its one element
            if func != "cumulative_sum" or include_initial or not self.policy.numpy_argument_reading:
                raise self._refusal(
                    ValueError(f"{func}: x must have at least one dimension, got a 0-d array"), "cumulative_0d", func
                )
            self._normalize_axis(0 if axis is None else axis, 1, func)
            x = Array._new(x._data.reshape(1), x._dtype, self, x._device)
            ndim, axis = 1, 0
        if axis is None:
            if ndim > 1:
                raise self._refusal(
                    ValueError(
                        f"{func}: axis is required for an array of {ndim} dimensions (it may be "
                        "omitted only for a one-dimensional array)"
                    ),
                    "cumulative_axis",
                    func,
                )
            axis = 0
        elif type(axis) is bool:
            raise TypeError(f"{func}: axis must be an int, got bool")
        axis = self._normalize_axis(axis, ndim, func)
        data = self._cast(x, result)
        if include_initial:
            # the identity first, then the accumulation over it, as array-api-strict computes it: the values
            # are the same but for NumPy's complex multiply, whose last place depends on the loop (a
            # complex128 cumulative_prod differed on 5 of 150 random draws of marray's distribution),
            # and a sum's first -0, which 0 + -0 makes +0
            shape = list(data.shape)
            shape[axis] = 1
            data = np.concatenate([np.full(shape, identity, dtype=data.dtype), data], axis=axis)
        # IEEE's inf and NaN of an overflow, inf - inf or 0 * inf, silently; an underflow silently
        # too (the quiet context's, as prod's): never a division
        out = quiet_context().run(kernel, data, axis=axis, dtype=result.numpy)
        if plain and ndim == 1 and x._runtime is self:
            self._accumulations[func, x._dtype] = result
        return Array._new(_asarray(out, dtype=result.numpy), result, self, x._device)

    def cumulative_sum(
        self, x: Array, /, *, axis: int | None = None, dtype: DType | None = None, include_initial: bool = False
    ) -> Array:
        """Cumulative sum of ``x`` along ``axis`` (optionally starting with 0)."""
        return self._cumulative("cumulative_sum", np.add.accumulate, 0, x, axis, dtype, include_initial)

    def cumulative_prod(
        self, x: Array, /, *, axis: int | None = None, dtype: DType | None = None, include_initial: bool = False
    ) -> Array:
        """Cumulative product of ``x`` along ``axis`` (optionally starting with 1)."""
        return self._cumulative("cumulative_prod", np.multiply.accumulate, 1, x, axis, dtype, include_initial)

    # -- max and min ------------------------------------------------------------------------------
    def _extreme(self, func, kernel, x, axis, keepdims):
        if type(x) is Array and x._runtime is self:
            result = self._accumulations.get((func, x._dtype))  # the general path's answer before
            if result is not None:  # (only where it is x's dtype: no cast)
                data = x._data
                axes = _fast_axes(data.ndim, axis, keepdims)
                if axes is not None and (data.shape[axis] if type(axis) is int else data.size):  # not empty
                    out = kernel(data, axis=axes, keepdims=keepdims)
                    return Array._new(_asarray(out, dtype=result.numpy), result, self, x._device)
        x, axes, keepdims = self._reduction_args(x, axis, keepdims, func)
        try:
            result = self.policy.function_dtype(func, x._dtype).result
        except PromotionError as exc:
            raise self._refusal(exc, "function_domain", func, x._dtype) from None
        data = self._cast(x, result)
        shape = data.shape
        if any(shape[a] == 0 for a in axes):
            raise ValueError(
                f"{func}: cannot reduce an empty set of elements (shape {shape}, axes {axes}); "
                "the result would be undefined"
            )
        out = kernel(data, axis=axes, keepdims=keepdims)
        if result is x._dtype and x._runtime is self:  # (the same answer for every axis and keepdims)
            self._accumulations[func, x._dtype] = result
        return Array._new(_asarray(out, dtype=result.numpy), result, self, x._device)

    def max(self, x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
        """Maximum of ``x`` (NaN propagates)."""
        return self._extreme("max", np.maximum.reduce, x, axis, keepdims)  # (np.max's own kernel)

    def min(self, x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
        """Minimum of ``x`` (NaN propagates)."""
        return self._extreme("min", np.minimum.reduce, x, axis, keepdims)  # (np.min's own kernel)

    # -- mean, var, std ---------------------------------------------------------------------------
    def _moment_args(self, func, x, axis, keepdims):
        x, axes, keepdims = self._reduction_args(x, axis, keepdims, func, bool_axis=True)
        try:
            decision = self.policy.function_dtype(func, x._dtype)
        except PromotionError as exc:
            raise self._refusal(exc, "function_domain", func, x._dtype) from None
        data = x._data.astype(D.working_numpy(decision.compute), copy=False)
        count = math.prod(data.shape[a] for a in axes)
        return x, axes, decision.result, data, count, keepdims

    def mean(self, x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
        """Arithmetic mean of ``x`` (NaN when there are no elements)."""
        if type(x) is Array and x._runtime is self:
            result = self._accumulations.get(("mean", x._dtype))  # the general path's answer before
            if result is not None:  # (only where x's dtype is the working one: no cast)
                data = x._data
                axes = _fast_axes(data.ndim, axis, keepdims)
                if axes is not None and (count := data.shape[axis] if type(axis) is int else data.size):
                    # the general path's sum (np.sum's own call) and division by the count, without its checks
                    context = quiet_context()
                    total = context.run(_add_reduce, data, axes, keepdims=keepdims)
                    out = context.run(np.true_divide, total, _divisor(data.dtype, count))
                    return Array._new(_asarray(out, dtype=result.numpy), result, self, x._device)
        x, axes, result, data, count, keepdims = self._moment_args("mean", x, axis, keepdims)
        if data is x._data and result is x._dtype and x._runtime is self:  # (the same for every axis and keepdims)
            self._accumulations["mean", x._dtype] = result
        # IEEE's inf and NaN of an overflow or inf - inf, silently; an underflow of the division too (the
        # quiet context's, as the remembered path above and sum, prod, var: the same answer every call);
        # a division by a count that is never 0
        context = quiet_context()
        total = context.run(_add_reduce, data, axes, keepdims=keepdims)  # (np.sum's own call)
        out = context.run(np.true_divide, total, _divisor(data.dtype, count)) if count else total * np.nan
        return Array._new(_asarray(out, dtype=result.numpy), result, self, x._device)

    def _variance(self, func, x, axis, correction, keepdims):
        if type(correction) not in _NUMBER_TYPES:
            if not (self.policy.numpy_argument_reading and isinstance(correction, (int, float))):
                raise TypeError(f"{func}: correction must be an int or a float, got {type(correction).__name__}")
            correction = float(correction) if isinstance(correction, float) else int(correction)  # True, np.float64
        if type(x) is Array and x._runtime is self:
            result = self._accumulations.get((func, x._dtype))  # the general path's answer before
            if result is not None:  # (only where x's dtype is the working and the result one: no cast)
                # the general path's kernel below, without its checks: over all of x or one axis
                data = x._data
                axes = _fast_axes(data.ndim, axis, keepdims)
                if axes is not None and (count := data.shape[axis] if type(axis) is int else data.size):
                    out = quiet_context().run(_variance_of, data, axes, count, correction, keepdims, data.dtype)
                    return _asarray(out, dtype=result.numpy), result, x._device
        x, axes, result, data, count, keepdims = self._moment_args(func, x, axis, keepdims)
        real = np.dtype(D.working_numpy(result))
        if data is x._data and real is data.dtype and result.numpy is real and x._runtime is self:
            self._accumulations[func, x._dtype] = result  # (a fact of x's dtype: no cast, for every axis)
        out = quiet_context().run(_variance_of, data, axes, count, correction, keepdims, real)
        return _asarray(out, dtype=real), result, x._device

    def var(
        self, x: Array, /, *, axis: int | tuple[int, ...] | None = None, correction: float = 0.0, keepdims: bool = False
    ) -> Array:
        """Variance of ``x`` with divisor ``N - correction`` (NaN when it is not positive)."""
        out, result, device = self._variance("var", x, axis, correction, keepdims)
        return Array._new(_asarray(out, dtype=result.numpy), result, self, device)

    def std(
        self, x: Array, /, *, axis: int | tuple[int, ...] | None = None, correction: float = 0.0, keepdims: bool = False
    ) -> Array:
        """Standard deviation of ``x`` with divisor ``N - correction``."""
        out, result, device = self._variance("std", x, axis, correction, keepdims)
        with np.errstate(invalid="ignore"):
            out = np.sqrt(out)
        return Array._new(_asarray(out, dtype=result.numpy), result, self, device)

    # -- diff ---------------------------------------------------------------------------------------
    def diff(
        self, x: Array, /, *, axis: int = -1, n: int = 1, prepend: Array | None = None, append: Array | None = None
    ) -> Array:
        """``n``-th forward difference along ``axis``, after adding ``prepend``/``append``.

        ``prepend`` and ``append`` promote with ``x`` by the policy; a boolean
        difference (where the policy allows one) is ``x[i+1] != x[i]``.
        """
        plain = type(n) is int and type(axis) is int and n == 1 and axis == -1 and prepend is None and append is None
        if plain and type(x) is Array and x._runtime is self and x._data.ndim and x._data.shape[-1]:
            result = self._accumulations.get(("diff", x._dtype))  # the general path's answer before
            if result is not None:  # (only where it is x's dtype: no cast)
                data = x._data
                kernel = np.not_equal if result.category == D.CATEGORY_BOOL else np.subtract
                # a difference overflows or meets inf - inf, nothing else: the quiet context's (as below)
                out = quiet_context().run(kernel, data[..., 1:], data[..., :-1])
                return Array._new(out, result, self, x._device)
        func = "diff"
        x = self._check_array(x, func)
        try:  # x's dtype before its shape, as array-api-strict checks
            self.policy.function_dtype(func, x._dtype)
        except PromotionError as exc:
            raise self._refusal(exc, "function_domain", func, x._dtype) from None
        ndim = x._data.ndim
        if ndim == 0:
            raise ValueError(f"{func}: x must have at least one dimension, got a 0-d array")
        if type(axis) is bool and not self.policy.numpy_argument_reading:
            raise TypeError(f"{func}: axis must be an int, got bool")
        axis = self._normalize_axis(axis, ndim, func)
        if type(n) is not int:
            n = self._int(n, func, "n")
        if n < 0:
            raise ValueError(f"{func}: n must be non-negative, got {n}")
        parts = []
        for value, arg in ((prepend, "prepend"), (x, None), (append, "append")):
            if value is None:
                continue
            if arg is not None:
                value = self._check_array(value, func, arg)
                if value._data.ndim == 0 and self.policy.numpy_argument_reading:
                    # NumPy's (array-api-strict's): a 0-d prepend or append is one value along axis
                    along = x._data.shape[:axis] + (1,) + x._data.shape[axis + 1 :]
                    value = Array._new(np.broadcast_to(value._data, along), value._dtype, self, value._device)
                shape, xshape = value._data.shape, x._data.shape
                if len(shape) != ndim or any(s != t for i, (s, t) in enumerate(zip(shape, xshape)) if i != axis):
                    raise ValueError(
                        f"{func}: {arg} must have the shape of x {xshape} except along axis {axis}, got {shape}"
                    )
            parts.append(value)
        device = self._same_device(func, *parts)
        dtype = self._promote(func, *parts) if len(parts) > 1 else x._dtype
        try:
            result = self.policy.function_dtype(func, dtype).result
        except PromotionError as exc:
            raise self._refusal(exc, "function_domain", func, dtype) from None
        arrays = [self._cast(p, result) for p in parts]
        data = np.concatenate(arrays, axis=axis) if len(arrays) > 1 else arrays[0]
        kernel = np.not_equal if result.category == D.CATEGORY_BOOL else np.subtract
        if n == 0:
            out = data.copy() if data is x._data else data
        else:
            out = data
            lo = [slice(None)] * ndim
            hi = [slice(None)] * ndim
            lo[axis] = slice(None, -1)
            hi[axis] = slice(1, None)
            lo, hi = tuple(lo), tuple(hi)  # type: ignore[assignment]  # (index tuples from here)
            with np.errstate(over="ignore", invalid="ignore"):
                for _ in range(n):
                    if out.shape[axis] == 0:
                        break
                    out = kernel(out[hi], out[lo])  # type: ignore[index]
        if plain and len(parts) == 1 and result is x._dtype and x._runtime is self:
            self._accumulations["diff", x._dtype] = result
        return Array._new(_asarray(out, dtype=result.numpy), result, self, device)
