"""The standard's fft extension (methods named ``fft_<name>``).

``policy.function_dtype(name, dtype)`` decides what an input is converted to
and what the transform returns (the standard: complex input for the complex
transforms, real floating input for ``rfft``/``rfftn``/``ihfft``; torch reads
integer input as its default float).  Results keep the precision of the
input: complex64 stays complex64, whatever precision NumPy computes in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import _dtypes as D
from ._array import Array
from ._devices import CPU
from ._errors import ArgumentError, DtypeArgumentError
from ._manipulation_functions import rolled
from ._runtime import (
    PLAIN_LENGTH,
    BoundedTable,
    RuntimeBase,
    check_fits,
    index_int,
    is_one_of,
    new_array,
    quiet_context,
    quietly,
)
from .promotion import PromotionError

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Literal

    from ._devices import Device
    from ._dtypes import DType

__all__ = ["FFTFunctions"]

_ndarray = np.ndarray
_NORMS = ("backward", "ortho", "forward")


def _check_norm(norm, func, reading=False):
    if not is_one_of(norm, _NORMS) and not (reading and norm is None):  # (None: NumPy's "backward")
        raise ValueError(f"{func}: norm must be 'backward', 'ortho' or 'forward', got {norm!r}")


# The plain cases' shortest last axis: 1, or 2 where the output has 2 * (m - 1) elements (irfft, hfft,
# irfftn); the n-d transforms also want every other axis non-empty.
_LONG_ENOUGH_1 = {"fft": 1, "ifft": 1, "rfft": 1, "irfft": 2, "hfft": 2, "ihfft": 1}
_LONG_ENOUGH_N = {"fftn": 1, "ifftn": 1, "rfftn": 1, "irfftn": 2}
_FUNC_NAMES = {op: f"fft.{op}" for op in (*_LONG_ENOUGH_1, *_LONG_ENOUGH_N)}

# The plain cases' kernels: numpy.fft's functions with their defaults (n and s from x's shape, every axis or
# the last, norm "backward") as their own steps call pocketfft's ufuncs (_raw_fft, _raw_fftnd), without
# their Python layers; NumPy's functions for other dtypes (and where NumPy has moved its ufuncs).
try:
    from numpy.fft import _pocketfft_umath as _pocketfft
except ImportError:  # pragma: no cover
    _pocketfft = None
_REAL_OF, _COMPLEX_OF = D.NUMPY_REAL_OF, D.NUMPY_COMPLEX_OF  # result_type(a.real.dtype, 1.0), (a.dtype, 1j)
_INVERSE_SCALES = BoundedTable(4096)  # np.reciprocal(n, dtype=real): 1/n, the factor of norm "forward", by (n, real)
_empty_like = np.empty_like


def _pocketfft_call(a, axis: int, n: int, kind: str, scaled: bool):
    """np.fft's ``_raw_fft`` of ``a`` along ``axis`` (>= 0) for ``n`` points: the complex transform forward
    ("fft") or back ("ifft"), real to Hermitian ("rfft") or back ("irfft"), by 1/n where ``scaled``."""
    real = _REAL_OF[a.dtype]
    if scaled:
        scale = _INVERSE_SCALES.get((n, real))
        if scale is None:
            scale = _INVERSE_SCALES.keep((n, real), np.reciprocal(n, dtype=real))
    else:
        scale = 1
    n_out, out_dtype = n, _COMPLEX_OF[a.dtype]
    if kind == "fft":
        ufunc = _pocketfft.fft
    elif kind == "ifft":
        ufunc = _pocketfft.ifft
    elif kind == "rfft":
        ufunc = _pocketfft.rfft_n_even if n % 2 == 0 else _pocketfft.rfft_n_odd
        n_out = n // 2 + 1
    else:
        ufunc, out_dtype = _pocketfft.irfft, real
    out = _empty_like(a, shape=a.shape[:axis] + (n_out,) + a.shape[axis + 1 :], dtype=out_dtype)
    return ufunc(a, scale, axes=[(axis,), (), (axis,)], out=out)


def _plain_kernel(numpys, steps):
    """``steps(a)`` for an ndarray of float32, float64, complex64 or complex128, else ``numpys(a)``."""

    def kernel(a):
        if _pocketfft is None or type(a) is not _ndarray or a.dtype not in _REAL_OF:
            return numpys(a)
        return steps(a)

    return kernel


def _ihfft_steps(a):
    out = _pocketfft_call(a, a.ndim - 1, a.shape[-1], "rfft", True)
    return np.conjugate(out, out=out)


def _irfftn_steps(a):
    n = 2 * (a.shape[-1] - 1)
    for axis in range(a.ndim - 1):
        a = _pocketfft_call(a, axis, a.shape[axis], "ifft", True)
    return _pocketfft_call(a, a.ndim - 1, n, "irfft", True)


def _every_axis(kind: str, scaled: bool):
    def steps(a):
        for axis in range(a.ndim - 1, -1, -1):  # (_raw_fftnd: the last axis first)
            a = _pocketfft_call(a, axis, a.shape[axis], kind, scaled)
        return a

    return steps


def _rfftn_steps(a, other_axes=None):
    """np.fft.rfftn's steps: rfft along the last axis, then fft along the others, in ``other_axes``'
    order (NumPy's, found by :func:`_rfftn_order`, by default)."""
    if other_axes is None:
        other_axes = _RFFTN_OTHER_AXES
        if other_axes is None and a.ndim > 2:
            return np.fft.rfftn(a)  # (an order of NumPy's this does not know)
    a = _pocketfft_call(a, a.ndim - 1, a.shape[-1], "rfft", False)
    for axis in range(a.ndim - 2, -1, -1) if other_axes == "last first" else range(a.ndim - 1):
        a = _pocketfft_call(a, axis, a.shape[axis], "fft", False)
    return a


def _rfftn_order():
    """The order np.fft.rfftn transforms the axes before the last in: "first first" (NumPy 2.0) or
    "last first" (later), asked of NumPy once, on a 3-d input the two orders round apart; None where
    neither gives NumPy's bytes alone."""
    if _pocketfft is None:
        return None
    a = np.random.default_rng(0).standard_normal((4, 5, 6))
    expected = np.fft.rfftn(a).tobytes()
    matches = [order for order in ("first first", "last first") if _rfftn_steps(a, order).tobytes() == expected]
    return matches[0] if len(matches) == 1 else None


_RFFTN_OTHER_AXES = _rfftn_order()

_PLAIN_KERNELS = {
    "fft": _plain_kernel(np.fft.fft, lambda a: _pocketfft_call(a, a.ndim - 1, a.shape[-1], "fft", False)),
    "ifft": _plain_kernel(np.fft.ifft, lambda a: _pocketfft_call(a, a.ndim - 1, a.shape[-1], "ifft", True)),
    "rfft": _plain_kernel(np.fft.rfft, lambda a: _pocketfft_call(a, a.ndim - 1, a.shape[-1], "rfft", False)),
    "irfft": _plain_kernel(
        np.fft.irfft, lambda a: _pocketfft_call(a, a.ndim - 1, 2 * (a.shape[-1] - 1), "irfft", True)
    ),
    "hfft": _plain_kernel(
        np.fft.hfft, lambda a: _pocketfft_call(np.conjugate(a), a.ndim - 1, 2 * (a.shape[-1] - 1), "irfft", False)
    ),
    "ihfft": _plain_kernel(np.fft.ihfft, _ihfft_steps),
    "fftn": _plain_kernel(np.fft.fftn, _every_axis("fft", False)),
    "ifftn": _plain_kernel(np.fft.ifftn, _every_axis("ifft", True)),
    "rfftn": _plain_kernel(np.fft.rfftn, _rfftn_steps),
    "irfftn": _plain_kernel(np.fft.irfftn, _irfftn_steps),
}

_KEPT_FREQUENCIES = 1024  # (the most values kept per entry: 8 KiB, 256 entries at most)
_FREQUENCIES = BoundedTable(
    256
)  # fftfreq's and rfftfreq's few values by (op, n, d, NumPy dtype), where no flag was raised
_FUSED_FREQ_SIZE = 1 << 12  # below this, one ufunc call with out= costs more than the pass it saves


def _exact_in(dtype, val, n):
    """Whether every product ``i * val`` (``|i| <= n``) is 0 or a normal finite value of ``dtype``:
    rounding it into ``dtype`` then raises no floating-point flag."""
    info = np.finfo(dtype)
    size = abs(val)
    return size == 0 or (float(info.smallest_normal) <= size and size * n <= float(info.max))


def _one_dimensional(op: str, kernel, doc: str):
    """The method ``fft_<op>``: the one-dimensional transform ``kernel`` (a ``numpy.fft`` function)
    with the standard's signature, written once for the six of them."""

    def transform(
        self,
        x: Array,
        /,
        *,
        n: int | None = None,
        axis: int = -1,
        norm: Literal["backward", "ortho", "forward"] = "backward",
    ) -> Array:
        return self._fft1(op, kernel, x, n, axis, norm)

    return _as_method(op, transform, doc)


def _n_dimensional(op: str, kernel, doc: str):
    """The method ``fft_<op>``: the n-dimensional transform ``kernel`` (a ``numpy.fft`` function)
    with the standard's signature, written once for the four of them."""

    def transform(
        self,
        x: Array,
        /,
        *,
        s: Sequence[int] | None = None,
        axes: Sequence[int] | None = None,
        norm: Literal["backward", "ortho", "forward"] = "backward",
    ) -> Array:
        return self._fftn(op, kernel, x, s, axes, norm)

    return _as_method(op, transform, doc)


def _as_method(op: str, transform, doc: str):
    """``transform`` named and documented as the method ``fft_<op>``."""
    transform.__name__ = f"fft_{op}"
    transform.__qualname__ = f"FFTFunctions.fft_{op}"
    transform.__doc__ = doc
    return transform


class FFTFunctions(RuntimeBase):
    """Mixin: the fft extension under the namespace's policy."""

    def _fft_input(self, x, func, op, norm):
        """x checked, its data in the dtype the policy computes ``op`` in, the result dtype; and ``norm`` checked."""
        x = self._check_array(x, func)
        decision = self._function_plans.get((func, x._dtype))  # the policy's decision, met before
        if decision is None:
            try:
                decision = self._function_plans[func, x._dtype] = self.policy.function_dtype(op, x._dtype)
            except PromotionError as exc:
                raise self._refusal(exc, "function_domain", op, x._dtype) from None
        compute = decision.compute
        data = x._data
        if data.dtype.kind == "c" and compute.category != D.CATEGORY_COMPLEX:
            data = data.real  # a policy whose real transforms read complex input's real part (MLX)
        data = data if data.dtype == compute.numpy else data.astype(compute.numpy)
        _check_norm(norm, func, self.policy.numpy_argument_reading)
        return x, data, decision.result

    def _plain_transform(self, op, kernel, x, shortest, every_axis):
        """``kernel(x's data)`` quietly, as the general paths compute it with NumPy's defaults, for x of
        this namespace on NumPy storage in the dtype the policy's remembered decision computes in, of
        at least one dimension, its last axis of at least ``shortest`` elements (and, ``every_axis``, no
        axis empty); else None (the general path's)."""
        if type(x) is not Array or x._runtime is not self:
            return None
        decision = self._function_plans.get((_FUNC_NAMES[op], x._dtype))
        data = x._data
        if decision is None or type(data) is not np.ndarray or data.dtype is not decision.compute.numpy:
            return None
        shape = data.shape
        if not shape or shape[-1] < shortest or (every_axis and 0 in shape):
            return None
        out = quiet_context().run(_PLAIN_KERNELS.get(op, kernel), data)  # (quietly: inf and NaN give NaN, no warning)
        result = decision.result
        if out.dtype is not result.numpy:
            out = np.asarray(out, dtype=result.numpy)
        device = x._device
        if device is not CPU:
            return Array._new(out, result, self, device)
        return new_array(out, result, self)

    def _fft_result(self, out, result, device):
        return Array._new(np.asarray(out, dtype=result.numpy), result, self, device)

    def _fft1(self, op, kernel, x, n, axis, norm):
        if n is None and type(axis) is int and axis == -1 and type(norm) is str and norm == "backward":
            # x of this namespace in the dtype the policy computes it in, decided before, its last
            # axis long enough: NumPy's transform with its defaults (the same n, axis and norm)
            out = self._plain_transform(op, kernel, x, _LONG_ENOUGH_1[op], False)
            if out is not None:
                return out
        func = f"fft.{op}"
        x, data, result = self._fft_input(x, func, op, norm)
        if data.ndim == 0:
            raise ValueError(f"{func}: x must have at least one dimension, got a 0-d array")
        axis = self._normalize_axis(index_int(axis, func, "axis"), data.ndim, func)
        if n is not None:
            if type(n) is bool and op not in ("rfft", "ihfft"):  # (NumPy's C transforms refuse a bool n)
                n = index_int(n, func, "n")
            n = self._int(n, func, "n") if type(n) is not int else n
            if n < 1:
                raise ValueError(f"{func}: n must be a positive int, got {n}")
        elif op in ("irfft", "hfft"):
            if 2 * (data.shape[axis] - 1) < 1:
                raise ValueError(f"{func}: axis {axis} of size {data.shape[axis]} gives an empty output; pass n")
        elif data.shape[axis] < 1:
            raise ValueError(f"{func}: axis {axis} has size 0; pass a positive n")
        if n is not None:
            check_fits(data.shape[:axis] + (n,) + data.shape[axis + 1 :], 16, func)
        out = quietly(kernel, data, n=n, axis=axis, norm=norm)  # (inf and NaN give NaN, no warning)
        return self._fft_result(out, result, x._device)

    def _fftn(self, op, kernel, x, s, axes, norm):
        if s is None and axes is None and type(norm) is str and norm == "backward":
            # as _fft1's plain case: every axis, each long enough (the last as irfftn needs it)
            out = self._plain_transform(op, kernel, x, _LONG_ENOUGH_N[op], True)
            if out is not None:
                return out
        func = f"fft.{op}"
        x, data, result = self._fft_input(x, func, op, norm)
        ndim = data.ndim
        if s is not None and axes is None:
            raise ValueError(f"{func}: when s is given, axes must be given too")
        if axes is None:
            axes = tuple(range(ndim))
        else:
            try:
                axes = tuple(axes)
            except TypeError:
                raise TypeError(f"{func}: axes must be a sequence of ints, got {type(axes).__name__}") from None
            axes = tuple(self._normalize_axis(index_int(a, func, "axes"), ndim, func) for a in axes)
        if not axes and op in ("fftn", "ifftn"):  # over no axis (a 0-d x, axes=()): x itself, the standard's "all axes"
            return self._fft_result(data.copy(), result, x._device)
        if not axes:
            raise ValueError(f"{func}: at least one axis is required")
        if s is not None:
            try:
                s = tuple(s)
            except TypeError:
                raise TypeError(f"{func}: s must be a sequence of ints, got {type(s).__name__}") from None
            if len(s) != len(axes):
                raise ValueError(f"{func}: s and axes must have the same length, got {len(s)} and {len(axes)}")
            sizes = []
            for i, (size, axis) in enumerate(zip(s, axes)):
                size = index_int(size, func, "s")
                if size == -1:  # the whole axis
                    size = data.shape[axis]
                    if op == "irfftn" and i == len(axes) - 1:
                        size = 2 * (size - 1)
                if size < 1:
                    raise ValueError(f"{func}: sizes in s must be positive (or -1), got {s!r}")
                sizes.append(size)
            s = tuple(sizes)
            shape = list(data.shape)
            for size, axis in zip(s, axes):
                shape[axis] = size
            check_fits(tuple(shape), 16, func)
        elif any(data.shape[a] == 0 for a in axes):
            raise ValueError(f"{func}: a transformed axis has size 0 (shape {data.shape}); pass s")
        elif op == "irfftn" and data.shape[axes[-1]] == 1:
            raise ValueError(f"{func}: last axis of size 1 gives an empty output; pass s")
        # every axis in order, no sizes: NumPy's default axes, which it takes without np.take of the
        # shape (8 us on top of its 18 us for a 10-element irfftn); the same 1-d transforms, same order
        plain = s is None and axes == tuple(range(ndim))
        out = quietly(kernel, data, s=s, axes=None if plain else axes, norm=norm)
        return self._fft_result(out, result, x._device)

    # -- one-dimensional transforms ---------------------------------------------------------
    fft_fft = _one_dimensional("fft", np.fft.fft, "One-dimensional discrete Fourier transform.")
    fft_ifft = _one_dimensional("ifft", np.fft.ifft, "One-dimensional inverse discrete Fourier transform.")
    fft_rfft = _one_dimensional(
        "rfft", np.fft.rfft, "One-dimensional transform of real input (the non-negative frequencies)."
    )
    fft_irfft = _one_dimensional(
        "irfft", np.fft.irfft, "Inverse of ``rfft`` (real output of length ``n``, default ``2*(m-1)``)."
    )
    fft_hfft = _one_dimensional("hfft", np.fft.hfft, "Transform of a signal with Hermitian symmetry (real output).")
    fft_ihfft = _one_dimensional("ihfft", np.fft.ihfft, "Inverse of ``hfft`` (real input, complex output).")

    # -- n-dimensional transforms --------------------------------------------------------------
    fft_fftn = _n_dimensional("fftn", np.fft.fftn, "n-dimensional discrete Fourier transform.")
    fft_ifftn = _n_dimensional("ifftn", np.fft.ifftn, "n-dimensional inverse discrete Fourier transform.")
    fft_rfftn = _n_dimensional("rfftn", np.fft.rfftn, "n-dimensional transform of real input.")
    fft_irfftn = _n_dimensional("irfftn", np.fft.irfftn, "Inverse of ``rfftn`` (real output).")

    # -- frequencies and shifts -------------------------------------------------------------------
    def _freq(self, op, n, d, dtype, device):
        if type(n) is int and 1 <= n <= PLAIN_LENGTH and (type(d) is float or type(d) is int) and d and device is None:
            # few values, on the CPU, of the default float or a dtype of ours: the checks below pass
            if dtype is None:
                dtype = self.policy.default_float  # (the CPU has no defaults of its own)
            if type(dtype) is D.DType and dtype in self._dtype_set:
                return self._frequencies(op, n, d, self._frequency_dtype(op, dtype), CPU)
        func = f"fft.{op}"
        if type(n) is not int:
            try:
                if type(n) is bool and op == "fftfreq":  # (NumPy's fftfreq refuses a bool n, its rfftfreq not)
                    index_int(n, func, "n")
                n = self._int(n, func, "n")
            except TypeError as exc:  # (and the ValueError array-api-strict raises: "n should be an integer")
                raise ArgumentError(str(exc)) from None
        if n < 1:
            raise ValueError(f"{func}: n must be a positive int, got {n}")
        if type(d) not in (int, float) and self.policy.numpy_argument_reading:
            # NumPy's (array-api-strict's) reading of True, np.float64 or a 0-d real array; a complex d
            # stays refused: it would make the frequencies complex, not the dtype the standard returns
            if (
                type(d) is Array
                and d._data.ndim == 0
                and d._dtype.category in (D.CATEGORY_INTEGER, D.CATEGORY_FLOATING)
            ):
                d = float(d._data)
            elif isinstance(d, (int, float, np.integer, np.floating)) and not isinstance(d, np.bool_):
                d = float(d)
        if type(d) not in (int, float):
            raise TypeError(f"{func}: d must be a float, got {type(d).__name__}")
        if d == 0:
            raise ValueError(f"{func}: d must not be zero")
        device = self._check_device(device, func)
        if dtype is None:
            dtype = self._default("real floating", device)
        else:
            dtype = self._check_dtype(dtype, func)
        result = self._frequency_dtype(op, dtype)
        check_fits((n,), 8, func)
        return self._frequencies(op, n, d, result, device)

    def _frequency_dtype(self, op, dtype):
        """fftfreq's or rfftfreq's result dtype for a ``dtype`` of ours (its plain case and the general path)."""
        try:
            return self._function_result(op, dtype)
        except (
            PromotionError
        ) as exc:  # (and the ValueError array-api-strict raises: "must be a real floating-point type")
            raise DtypeArgumentError(str(exc)) from None

    def _frequencies(self, op, n, d, result, device):
        """fftfreq's or rfftfreq's ``n`` values for a spacing ``d``, of the dtype ``result``."""
        key = (op, n, d, result.numpy)
        known = _FREQUENCIES.get(key)
        if known is not None:
            return Array._new(known.copy(), result, self, device)
        # NumPy's formula (np.fft.fftfreq, rfftfreq): the integers 0, 1, ..., -2, -1 times
        # 1 / (n * d) in float64, in fewer passes (the integers made exactly in float64, in place).
        freq = np.arange(n if op == "fftfreq" else n // 2 + 1, dtype=np.float64)
        if op == "fftfreq":
            freq[(n - 1) // 2 + 1 :] -= n
        val = 1.0 / (n * float(d))
        target = result.numpy
        if target == freq.dtype:
            freq *= val
        elif freq.size >= _FUSED_FREQ_SIZE and target.kind == "f" and _exact_in(target, val, n):
            # The float64 products rounded into the narrower dtype as they are made: the values
            # of the cast below, one pass fewer, where no product can overflow or underflow it.
            freq = np.multiply(freq, val, out=np.empty(freq.shape, target), casting="unsafe")
        else:
            freq *= val
            freq = freq.astype(target)
        if n <= _KEPT_FREQUENCIES and target.kind == "f" and _exact_in(target, val, n):
            # (no floating-point flag was raised, so no warning to repeat: the values, kept for a copy)
            _FREQUENCIES.keep(key, freq.copy())
        return Array._new(freq, result, self, device)

    def fft_fftfreq(
        self, n: int, /, *, d: float = 1.0, dtype: DType | None = None, device: Device | None = None
    ) -> Array:
        """Sample frequencies of ``fft`` for a signal of ``n`` samples spaced ``d``."""
        return self._freq("fftfreq", n, d, dtype, device)

    def fft_rfftfreq(
        self, n: int, /, *, d: float = 1.0, dtype: DType | None = None, device: Device | None = None
    ) -> Array:
        """Sample frequencies of ``rfft`` (non-negative only)."""
        return self._freq("rfftfreq", n, d, dtype, device)

    def _shift(self, op, kernel, x, axes):
        if (
            axes is None
            and type(x) is Array
            and x._runtime is self
            and self._function_plans.get((f"fft.{op}", x._dtype))
        ):
            data = x._data
            if type(data) is _ndarray and data.ndim:  # np.fft's steps for it: np.roll by half of every axis
                half = [size // 2 for size in data.shape]
                if op == "ifftshift":
                    half = [-h % (size or 1) for h, size in zip(half, data.shape)]
                return new_array(rolled(data, half), x._dtype, self, x._device)
        func = f"fft.{op}"
        x = self._check_array(x, func)
        try:
            self._function_plans[func, x._dtype] = self.policy.function_dtype(op, x._dtype)  # (allowed: remembered)
        except PromotionError as exc:
            raise self._refusal(exc, "function_domain", op, x._dtype) from None
        ndim = x._data.ndim
        if axes is None:
            axes = tuple(range(ndim))
        elif isinstance(axes, int) and type(axes) is not bool:
            axes = (self._normalize_axis(axes, ndim, func),)
        else:
            try:
                axes = tuple(axes)
            except TypeError:
                raise TypeError(
                    f"{func}: axes must be None, an int or a sequence of ints, got {type(axes).__name__}"
                ) from None
            axes = tuple(self._normalize_axis(index_int(a, func, "axes"), ndim, func) for a in axes)
        out = kernel(x._data, axes=axes) if axes else x._data.copy()
        return Array._new(out, x._dtype, self, x._device)

    def fft_fftshift(self, x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
        """Shift the zero-frequency component to the centre."""
        return self._shift("fftshift", np.fft.fftshift, x, axes)

    def fft_ifftshift(self, x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
        """Inverse of ``fftshift``."""
        return self._shift("ifftshift", np.fft.ifftshift, x, axes)
