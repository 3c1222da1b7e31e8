"""Kernels for the standard's special cases that NumPy does not follow.

Each kernel takes NumPy arrays already in the computation dtype and returns
the values the standard specifies (IEEE 754 special cases, signed zeros,
infinities and NaNs), delegating to NumPy everywhere else.

The pattern is the same everywhere: call the NumPy ufunc first, then run one
cheap guard (``isfinite(...).all()`` on an input or on the result, or a
scalar test); only when the guard trips are the fix-up masks computed.  Integer
and boolean inputs never reach the guards -- their kernels are the raw ufunc
(plus, for division by zero, a silenced warning).

Floating dtypes are recognised as "not integer/bool" (``dtype.kind not in
"biu"``) because ml_dtypes' bfloat16 reports ``kind == "V"``.

Where the standard and NumPy disagree (checked against the 2025.12 stubs):

* ``floor_divide``: ``±inf // finite`` is ``±inf`` (NumPy: NaN) and
  ``finite // ±inf`` is the signed zero ``x1 / x2`` (NumPy: ``-1.0`` when the
  signs differ).  These are the primary values of the standard (it notes that
  libraries *may* return Python's NaN / ``-1.0``); array-api-tests checks the
  primary ones.
* ``pow``: for a 0-d exponent equal to ``0.5`` NumPy takes a ``sqrt`` fast path,
  so ``(-inf) ** 0.5`` is NaN (standard: ``+inf``) and ``(-0) ** 0.5`` is
  ``-0`` (standard: ``+0``).
* complex ``expm1``: NumPy returns NaN for most non-finite inputs; the standard
  gives ``exp(z) - 1`` there (e.g. ``expm1(-inf + nan j) = -1 + 0j``), and
  ``expm1(-0 + 0j)`` is ``+0 + 0j``.
* complex ``tanh``: ``tanh(±inf + y j)`` for finite ``y`` is ``±1 + 0j`` with the
  zero carrying the sign of ``y`` (NumPy follows C99's ``0 * sin(2y)``).
* complex ``sign``: any NaN component gives ``NaN + NaN j`` (NumPy: e.g.
  ``sign(inf + nan j) = 1 + 0j``).
* complex ``acosh`` before NumPy 2.3 (its own npymath): ``acosh(+-0 + NaN j)`` is
  ``NaN + NaN j``; the standard says ``NaN + pi/2 j``.  Taken only where the NumPy
  in use is wrong (probed once at import).
* ``nextafter`` in float16: NumPy returns ``x1`` instead of ``x2`` for
  ``(-0, +0)`` and ``(+0, -0)``.
* real ``sign`` in bfloat16 (ml_dtypes): ``sign(-0)`` is ``-0``, the standard
  says ``0``.
* integer ``pow`` with a negative exponent (unspecified by the standard): NumPy
  raises ValueError for the whole array; we return torch's truncated
  ``1 / x1 ** -x2`` (0, or +-1 for x1 = +-1), or, where the policy refuses it
  (``Policy.undefined_refusals``: ``array_api``), NumPy's ValueError in our words.
  The raw ufunc runs first; the fix-up only runs after NumPy's ValueError.  Shifts
  by a negative amount: NumPy's value, or a ValueError where the policy refuses it.
* complex ``pow`` with a large integral exponent: NumPy gives NaN where the
  result under/overflows (``(3+3j) ** -58``); recomputed as ``exp(x2 log x1)``
  where finite nonzero inputs gave a non-finite value.
* integer ``floor_divide`` / ``remainder`` by zero (unspecified by the standard):
  the policy's library's rule (``Policy.integer_division_by_zero``, the kernels in
  ``_ZERO_DIVISION``): NumPy's value (0) silently -- its "divide by zero"
  RuntimeWarning silenced only when a zero divisor is present (``np.errstate``
  costs several microseconds per call) -- or with NumPy's warning (the raw ufunc),
  or a ZeroDivisionError, or XLA's or MLX's values.
"""

from __future__ import annotations

import functools

import numpy as np

from ._core import all_finite, guarded
from .promotion._policy import ZERO_DIVISION_RULES

__all__ = ["SPECIAL_KERNELS", "UFUNC_OF", "special_kernel"]

_INTEGRAL = frozenset("biu")
_inf = np.inf
_nan = np.nan

# NumPy's functions as module globals (one lookup on the kernels' per-call paths): tests and helpers,
_isfinite, _isinf, _isnan, _where, _errstate = np.isfinite, np.isinf, np.isnan, np.where, np.errstate
_count_nonzero = np.count_nonzero  # public API only (NumPy's private C entry point is not ours to import)
# and the ufuncs the kernels call
_floor_divide, _remainder, _power, _nextafter = np.floor_divide, np.remainder, np.power, np.nextafter
_expm1, _exp, _tanh, _sign, _copysign, _arccosh = np.expm1, np.exp, np.tanh, np.sign, np.copysign, np.arccosh
_F16 = np.dtype(np.float16)


_all_finite = all_finite  # (float64 and float32 in C)


# The kernels that give their ufunc's result (dtype and shape) when both operands have their
# computation dtype: ElementwiseFunctions lets the operators' fast paths call them for two such
# arrays (never with a Python scalar: the compiled paths pass a Python float as it is).
UFUNC_OF: dict = {}


def _kernel_of(ufunc, fact: str | None = None):
    """Records the kernel it decorates in UFUNC_OF as ``ufunc``'s; with ``fact``, the kernel is
    ``ufunc``'s own call, in C, for operands of which the fact holds (``_core.guarded``)."""

    def record(kernel):
        kernel = kernel if fact is None else guarded(ufunc, kernel, fact)
        UFUNC_OF[kernel] = ufunc
        return kernel

    return record


def _has_zero(a) -> bool:
    """Whether an integer array has a zero element (count_nonzero is the cheapest test)."""
    return _count_nonzero(a) != a.size


# -- per-dtype kernels (each assumes its computation dtype; no dtype test inside) --------------
def _silent_division_by_zero(ufunc):
    """Integer ``ufunc`` (floor_divide, remainder) with NumPy's value, 0, for a zero divisor, silently: its
    "divide by zero" warning silenced only where a zero divisor is present."""

    def kernel(x1, x2):
        if _has_zero(x2):
            with _errstate(divide="ignore"):
                return ufunc(x1, x2)
        return ufunc(x1, x2)

    return _kernel_of(ufunc, "nonzero_second")(kernel)


_floor_divide_int = _silent_division_by_zero(_floor_divide)
# (NumPy's float remainder already follows the standard: it matches Python's %.)
_remainder_int = _silent_division_by_zero(_remainder)


@_kernel_of(_floor_divide, "finite_operands")
def _floor_divide_float(x1, x2):
    if _all_finite(x1) and _all_finite(x2):
        return _floor_divide(x1, x2)
    # Exactly one operand infinite: +-inf // finite -> +-inf and finite // +-inf -> the
    # signed zero; both are x1 / x2 (NumPy: NaN and -1.0).  NumPy's "invalid value"
    # warning would describe a value we replace, so it is silenced on this path.
    with _errstate(divide="ignore", invalid="ignore"):
        return _where(_isinf(x1) != _isinf(x2), x1 / x2, _floor_divide(x1, x2))


@functools.cache  # one kernel per policy and operation (UFUNC_OF holds each)
def _refusing_division_by_zero(ufunc, name: str, policy_name: str):
    """``ufunc`` refusing a zero integer divisor, as PyTorch does (``RuntimeError: ZeroDivisionError``)."""

    def kernel(x1, x2):
        if _has_zero(x2):
            raise ZeroDivisionError(
                f"{name}: integer division by zero ({x2.dtype} divisor holds 0) (policy {policy_name!r})"
            )
        return ufunc(x1, x2)

    return _kernel_of(ufunc, "nonzero_second")(kernel)


@functools.cache
def _refusing_negative_shift(ufunc, name: str, policy_name: str):
    """``ufunc`` (a shift) refusing a negative shift amount, as array-api-strict does (the standard: "only
    defined for x2 >= 0"); signed integer kinds only (an unsigned amount is never negative)."""

    def kernel(x1, x2):
        if (x2 < 0).any():
            raise ValueError(
                f"{name}: a shift by a negative amount ({x2.min()}) is undefined; the standard defines "
                f"{name} only for x2 >= 0 (policy {policy_name!r})"
            )
        return ufunc(x1, x2)

    return _kernel_of(ufunc, "nonnegative_second")(kernel)


@functools.cache
def _refusing_negative_power(policy_name: str):
    """Integer ``pow`` refusing a negative exponent (the standard leaves it undefined; NumPy and
    array-api-strict raise ValueError), in our words."""

    def kernel(x1, x2):
        try:
            return _power(x1, x2)
        except ValueError:  # "Integers to negative integer powers are not allowed."
            pass
        raise ValueError(
            f"pow: an {x1.dtype} base to a negative integer power ({x2.min()}) has no integer result, and the "
            f"standard leaves it undefined; convert to a floating-point dtype with astype() (policy {policy_name!r})"
        )

    return _kernel_of(_power, "nonnegative_second")(kernel)


@_kernel_of(_floor_divide, "nonzero_second")
def _floor_divide_int_xla(x1, x2):
    # XLA's integer division by zero is -1 (unsigned: all ones); jnp.floor_divide then takes
    # one off where the signs differ and x1 (XLA's remainder by zero) is nonzero: -2.
    if not _has_zero(x2):
        return _floor_divide(x1, x2)
    with _errstate(divide="ignore"):
        out = _floor_divide(x1, x2)
    zero = x2 == 0
    if x1.dtype.kind == "u":
        return _where(zero, x1.dtype.type(-1 % (1 << (8 * x1.dtype.itemsize))), out)
    return _where(zero, _where(x1 == 0, x1.dtype.type(-1), x1.dtype.type(-2)), out)


@_kernel_of(_remainder, "nonzero_second")
def _remainder_int_mlx(x1, x2):
    # MLX (on CPU) leaves x1 where the divisor is zero.
    if not _has_zero(x2):
        return _remainder(x1, x2)
    with _errstate(divide="ignore"):
        return _where(x2 == 0, x1, _remainder(x1, x2))


# Integer floor_divide and remainder by zero, by Policy.integer_division_by_zero: the two kernels
# (None: NumPy's ufunc as it is, warning included).
_ZERO_DIVISION = {
    "zero": (_floor_divide_int, _remainder_int),  # NumPy's 0, silently (the standard says nothing)
    "warn": (None, None),  # NumPy's 0 with its "divide by zero" RuntimeWarning
    "raise": None,  # ZeroDivisionError, made per policy (its name is in the message)
    "xla": (_floor_divide_int_xla, _remainder_int),  # JAX: -1/-2 (unsigned: all ones), remainder 0
    "mlx": (_floor_divide_int, _remainder_int_mlx),  # MLX: 0, remainder x1
}
assert tuple(_ZERO_DIVISION) == ZERO_DIVISION_RULES


@_kernel_of(_power, "second_not_0d")
def _pow_real(x1, x2):
    if x2.ndim == 0 and x2.item() == 0.5:
        # NumPy's power(x, 0.5) with a scalar exponent is sqrt(x): wrong at -inf (NaN,
        # standard +inf) and -0 (-0, standard +0).  "+ 0" turns -0 into +0 only.
        zero = x1.dtype.type(0)
        if _all_finite(x1):
            return _power(x1, x2) + zero
        with _errstate(invalid="ignore"):
            return _where(x1 == -_inf, _inf, _power(x1, x2)) + zero
    return _power(x1, x2)


@_kernel_of(_power, "nonnegative_second")
def _pow_int(x1, x2):
    try:
        return _power(x1, x2)
    except ValueError:  # "Integers to negative integer powers are not allowed."
        pass
    # The standard leaves a negative integer exponent unspecified; NumPy raises for the
    # whole array.  Give torch's answer instead, the truncated 1 / x1 ** -x2: 1 for
    # x1 == 1, +-1 for x1 == -1 (by the parity of x2), 0 otherwise (0 ** negative too).
    negative = x2 < 0
    out = _power(x1, _where(negative, 0, x2).astype(x2.dtype, copy=False))
    one = x1.dtype.type(1)
    fixed = _where(x1 == 1, one, _where(x1 == -1, _where(x2 & 1, -one, one), x1.dtype.type(0)))
    return _where(negative, fixed, out).astype(out.dtype, copy=False)


@_kernel_of(_power)
def _pow_complex(x1, x2):
    out = _power(x1, x2)
    if _all_finite(out):
        return out
    # NumPy's complex power with an integral exponent multiplies out z ** |n| and
    # inverts: z ** -58 overflows to inf and the quotient is NaN although the result
    # is tiny.  Where finite, nonzero inputs gave a NaN, recompute as exp(x2 * log(x1)),
    # which under/overflows the way the result does.  An infinite part without a NaN
    # is a real overflow: NumPy's value is kept (array-api-strict gives it too).
    with _errstate(invalid="ignore", over="ignore", divide="ignore", under="ignore"):
        redo = _isnan(out) & _isfinite(x1) & _isfinite(x2) & (x1 != 0)
        if redo.any():
            out = _where(redo, _exp(x2 * np.log(x1)), out).astype(out.dtype, copy=False)
    return out


def _expm1_complex(x):
    if _all_finite(x):
        out = _expm1(x)
    else:
        # At every non-finite input the standard's value is exp(z) - 1 (the "cis" and
        # "-1 + 0j" cases); NumPy's complex expm1 gives NaN + NaN j there.
        with _errstate(invalid="ignore", over="ignore"):
            out = _where(_isfinite(x), _expm1(x), _exp(x) - 1)
    if _count_nonzero(x) != x.size:
        # expm1(+-0 +- 0j) is +0 +- 0j (NumPy: -0 for a -0 real part).
        out = np.asarray(out)
        real = out.real
        real[x == 0] = 0
    return out


def _tanh_complex(x):
    if _all_finite(x):
        return _tanh(x)
    with _errstate(invalid="ignore"):
        out = _tanh(x)
    a = x.real
    b = x.imag
    fix = _isinf(a) & _isfinite(b)
    if fix.any():
        # tanh(+-inf + y j) for finite y is +-1 + 0j with the zero taking y's sign
        # (tanh(conj(x)) == conj(tanh(x))); NumPy follows C99's 0 * sin(2y).
        fixed = np.empty(fix.shape, x.dtype)
        fixed.real = _copysign(1, a)
        fixed.imag = _copysign(0, b)
        out = _where(fix, fixed, out)
    return out


def _sign_complex(x):
    if _all_finite(x):
        return _sign(x)
    with _errstate(invalid="ignore"):
        # Any NaN component: NaN + NaN j (NumPy: e.g. sign(inf + nan j) = 1 + 0j).
        return _where(_isnan(x), x.dtype.type(complex(_nan, _nan)), _sign(x))


def _sign_bfloat16(x):
    # ml_dtypes' bfloat16 sign(-0) is -0; the standard says 0 ("+ 0" turns -0 into +0 only).
    return _sign(x) + x.dtype.type(0)


def _acosh_complex(x):
    out = _arccosh(x)
    if _all_finite(x):
        return out
    # acosh(+-0 + NaN j) is NaN + pi/2 j (NumPy < 2.3: NaN + NaN j).
    return _where((x.real == 0) & _isnan(x.imag), x.dtype.type(complex(_nan, np.pi / 2)), out)


# Whether the NumPy in use needs _acosh_complex (NumPy 2.3 and later do not).
_ACOSH_NEEDS_FIX = bool(_isnan(_arccosh(np.complex128(complex(0.0, _nan))).imag))


def _nextafter_float16(x1, x2):
    # NumPy's float16 nextafter(-0, +0) is -0 (and (+0, -0) is +0); IEEE says x2.
    return _where(x1 == x2, x2, _nextafter(x1, x2))


_SHIFTS = {"bitwise_left_shift": np.left_shift, "bitwise_right_shift": np.right_shift}


def special_kernel(name: str, dtype, policy=None):
    """The kernel of ``name`` at the computation dtype ``dtype`` (a NumPy dtype), or ``None``.

    ``policy``: its ``integer_division_by_zero`` rule picks the integer ``floor_divide`` and
    ``remainder`` kernels (without a policy: NumPy's value, silently).

    ``None`` means NumPy's ufunc is already right for that dtype: the dispatch
    should then call the raw ufunc.  Meant to be called once per plan (signature),
    so the per-call path pays no dtype test at all.
    """
    dtype = np.dtype(dtype)
    kind = dtype.kind
    if name in ("floor_divide", "remainder") and kind in "iu":
        rule = "zero" if policy is None else policy.integer_division_by_zero
        kernels = _ZERO_DIVISION[rule]
        if kernels is None:
            ufunc = _floor_divide if name == "floor_divide" else _remainder
            return _refusing_division_by_zero(ufunc, name, policy.name)
        return kernels[name == "remainder"]
    if name == "floor_divide":
        return None if kind == "b" else _floor_divide_float
    if name == "remainder":
        return None
    if name in _SHIFTS and kind == "i" and policy is not None and "negative_shift" in policy.undefined_refusals:
        return _refusing_negative_shift(_SHIFTS[name], name, policy.name)
    if name == "pow":
        if kind == "f":
            return _pow_real  # NumPy's scalar 0.5 exponent takes a sqrt fast path
        if kind == "i":
            if policy is not None and "negative_power" in policy.undefined_refusals:
                return _refusing_negative_power(policy.name)
            return _pow_int  # negative exponents: NumPy raises ValueError
        return _pow_complex if kind == "c" else None
    if name == "expm1":
        return _expm1_complex if kind == "c" else None
    if name == "tanh":
        return _tanh_complex if kind == "c" else None
    if name == "sign":
        if kind == "c":
            return _sign_complex
        return _sign_bfloat16 if kind == "V" else None
    if name == "nextafter":
        return _nextafter_float16 if dtype == _F16 else None
    if name == "acosh":
        return _acosh_complex if kind == "c" and _ACOSH_NEEDS_FIX else None
    if name == "atan2":
        return _atan2_complex if kind == "c" else None
    if name == "positive":
        return _positive_bool if kind == "b" else None
    return None


def _atan2_complex(x1, x2):
    # NumPy has no complex arctan2; JAX (the one policy that computes it) defines it as atan(y / x).
    with _errstate(divide="ignore", invalid="ignore"):
        return np.arctan(x1 / x2)


def _positive_bool(x):
    return x.copy()  # NumPy's positive has no bool loop; +x of a bool is x (JAX)


# -- dtype-generic kernels, for a dispatch that keeps one kernel per operation ---------------------
def floor_divide(x1, x2):
    if x1.dtype.kind in _INTEGRAL:
        return _floor_divide_int(x1, x2)
    return _floor_divide_float(x1, x2)


def remainder(x1, x2):
    if x1.dtype.kind in _INTEGRAL:
        return _remainder_int(x1, x2)
    return _remainder(x1, x2)


def pow(x1, x2):
    kind = x1.dtype.kind
    if kind == "f":
        return _pow_real(x1, x2)
    if kind == "i":
        return _pow_int(x1, x2)
    if kind == "c":
        return _pow_complex(x1, x2)
    return _power(x1, x2)


def expm1(x):
    if x.dtype.kind == "c":
        return _expm1_complex(x)
    return _expm1(x)


def tanh(x):
    if x.dtype.kind == "c":
        return _tanh_complex(x)
    return _tanh(x)


def sign(x):
    kind = x.dtype.kind
    if kind == "c":
        return _sign_complex(x)
    if kind == "V":
        return _sign_bfloat16(x)
    return _sign(x)


def nextafter(x1, x2):
    if x1.dtype == _F16:
        return _nextafter_float16(x1, x2)
    return _nextafter(x1, x2)


SPECIAL_KERNELS: dict = {
    "floor_divide": floor_divide,
    "remainder": remainder,
    "pow": pow,
    "expm1": expm1,
    "tanh": tanh,
    "sign": sign,
    "nextafter": nextafter,
}


def acosh(x):
    if x.dtype.kind == "c":
        return _acosh_complex(x)
    return _arccosh(x)


if _ACOSH_NEEDS_FIX:
    SPECIAL_KERNELS["acosh"] = acosh
