"""Python scalars under a policy: part (b) of the policy interface (see _policy).

The one range check and the one wrap-around of Python ints, the conversion of an operand's scalar
(convert_scalar) and of a creation function's (create_scalar), and the fast converters the
elementwise plans call; Policy inherits them, and a policy overrides what its library does otherwise.
"""

from __future__ import annotations

import numpy as np

from .. import _core, _dtypes as D
from .._dtypes import DType

# The least int float() refuses: 2**1024 - 2**970 rounds to 2**1024, beyond float64.
FLOAT_INT_END = 2**1024 - 2**970


def int_text(value) -> str:
    """A Python number for an error message: a huge int by its size, not 400 digits."""
    if type(value) is int and abs(value) >= 10**30:
        bits = abs(value).bit_length()
        if bits > 12_000:  # str() refuses more than 4,300 digits (sys.set_int_max_str_digits)
            return f"{'-' if value < 0 else ''}<about {int(bits * 0.30103):,} digits>"
        text = str(value)
        return f"{text[:8]}... ({len(text.lstrip('-'))} digits)"
    return repr(value)


_INT_BOUNDS = D.INT_BOUNDS


class ScalarConverter:
    """A plan's conversion of a Python scalar operand: ``make(value)`` inside ``[lo, hi]``
    (``make(float(value))`` where ``to_float``), anything else by the policy's
    ``convert(value, dtype, op)`` (range check, wrap-around, inf: the one place that decides).
    Data rather than a closure, so that the compiled fast paths run the in-range case themselves."""

    __slots__ = ("make", "lo", "hi", "to_float", "convert", "dtype", "op")

    def __init__(self, make, lo, hi, to_float: bool, convert, dtype: DType, op: str):
        self.make, self.lo, self.hi, self.to_float = make, lo, hi, to_float
        self.convert, self.dtype, self.op = convert, dtype, op

    def __call__(self, value):
        if self.lo <= value <= self.hi:
            return self.make(float(value) if self.to_float else value)
        return self.convert(value, self.dtype, self.op)


_core.register_scalar_converter(ScalarConverter)  # the compiled paths run its in-range case


class ScalarRules:
    """Mixin of Policy: how a Python scalar becomes a value of a dtype."""

    # -- (b) Python scalars ---------------------------------------------------
    def check_scalar_value(self, value, op: str) -> None:
        """Raise if the Python scalar ``value`` cannot be an operand at all (before promotion)."""

    def check_scalar(self, value, dtype: DType, op: str) -> None:
        """Raise if the Python scalar ``value`` cannot become a ``dtype`` value: an int
        outside an integer dtype's bounds, or too large for any float (``10**400``)."""
        if type(value) is not int:
            return
        if dtype.category == D.CATEGORY_INTEGER:
            self.check_int_range(value, dtype, op)
        elif dtype.category >= D.CATEGORY_FLOATING and not -FLOAT_INT_END < value < FLOAT_INT_END:
            raise OverflowError(
                f"{op}: Python int {int_text(value)} is too large to convert to {dtype.name} (policy {self.name!r})"
            )

    # The one range check and the one wrap-around of Python ints (each policy decides which applies).
    @staticmethod
    def int_fits(value: int, dtype: DType) -> bool:
        """Whether the Python int ``value`` is in the integer ``dtype``'s range."""
        lo, hi = _INT_BOUNDS[dtype]
        return lo <= value <= hi

    def check_int_range(self, value: int, dtype: DType, op: str) -> None:
        """Raise ``OverflowError`` unless the Python int ``value`` fits the integer ``dtype``."""
        if not self.int_fits(value, dtype):
            raise OverflowError(self.out_of_range_message(value, dtype, op))

    def out_of_range_message(self, value: int, dtype: DType, op: str) -> str:
        lo, hi = _INT_BOUNDS[dtype]
        return (
            f"{op}: Python int {int_text(value)} is out of bounds for {dtype.name} [{lo}, {hi}] (policy {self.name!r})"
        )

    @staticmethod
    def wrap_int(value: int, dtype: DType) -> int:
        """``value`` wrapped modulo 2**bits into the integer ``dtype`` (a C cast, as torch and JAX do)."""
        lo, hi = _INT_BOUNDS[dtype]
        return (value - lo) % (hi - lo + 1) + lo

    def convert_scalar(self, value, dtype: DType, op: str = "asarray"):
        """A 0-d NumPy array of ``dtype`` holding the Python scalar ``value``."""
        self.check_scalar(value, dtype, op)
        try:
            with np.errstate(over="ignore"):  # a float beyond the dtype's range rounds to inf (IEEE)
                return np.asarray(value, dtype=dtype.numpy)
        except OverflowError as exc:  # e.g. a huge int into float
            raise OverflowError(
                f"{op}: {int_text(value)} cannot be represented as {dtype.name} (policy {self.name!r}): {exc}"
            ) from None

    def convert_bound(self, value, dtype: DType, bound: str = "min"):
        """A Python scalar bound of ``clip`` (``bound``: "min" or "max") as a 0-d ``dtype`` array:
        an integer beyond the dtype's range saturates (it clips nothing, or everything) instead of
        wrapping."""
        if type(value) is int and dtype.category == D.CATEGORY_INTEGER:
            lo, hi = _INT_BOUNDS[dtype]
            value = lo if value < lo else min(value, hi)
        return self.convert_scalar(value, dtype, "clip")

    def create_scalar(self, value, dtype: DType, op: str = "asarray"):
        """A 0-d NumPy array of ``dtype`` made from the Python scalar ``value`` by a creation
        function (``asarray(value, dtype=...)``, ``full``'s ``fill_value``).

        The standard's rule: the value must be of the dtype's kind (no complex into a real
        one) and in its range; a number into a bool dtype is its truth value, as it is in a
        nested list. A float into an integer dtype is a
        conversion the standard leaves to the library ("may or may not be permitted"):
        every library makes ``asarray([1000.0], dtype=int64)`` and consumers (SciPy) write
        it, so a float holding a whole number in range is taken exactly; one with a
        fraction, an infinity or a NaN would lose data and is refused (``astype``
        truncates on purpose).
        """
        t = type(value)
        category = dtype.category
        if category == D.CATEGORY_BOOL:
            # A number's truth value, as in a nested list (``asarray([1, 0], dtype=bool)``)
            # and in array-api-strict (SciPy's ndimage tests write ``asarray(1, dtype=bool)``).
            return np.asarray(bool(value), dtype=dtype.numpy)
        if t is complex and category != D.CATEGORY_COMPLEX:
            raise TypeError(f"{op}: a Python complex cannot make {D.a_dtype(dtype.name)} array (policy {self.name!r})")
        if t is float and category == D.CATEGORY_INTEGER:
            if not value.is_integer():
                raise ValueError(
                    f"{op}: the Python float {value!r} is not a whole number, so it cannot make {D.a_dtype(dtype.name)} "
                    f"array without losing data (policy {self.name!r}); use astype() to truncate"
                )
            if not self.int_fits(int(value), dtype):
                raise OverflowError(
                    f"{op}: the Python float {value!r} is out of bounds for {dtype.name} (policy {self.name!r})"
                )
            value = int(value)
        if t is int and category == D.CATEGORY_INTEGER:
            self.check_int_range(value, dtype, op)
        try:
            return np.asarray(value, dtype=dtype.numpy)
        except OverflowError as exc:
            raise OverflowError(
                f"{op}: {value!r} cannot be represented as {dtype.name} (policy {self.name!r}): {exc}"
            ) from None

    def float_rounds_once(self, dtype: DType) -> bool:
        """Whether an operand's Python float becomes a value of the floating ``dtype`` by one rounding,
        as NumPy converts it (a fast path may then hand it to NumPy as it is); JAX without x64 makes
        it a float32 first."""
        return True

    def scalar_converter(self, scalar_type: type, dtype: DType, op: str):
        """A fast ``value -> dtype value`` function for Python scalars of ``scalar_type``.

        Values inside ``dtype``'s range convert directly; anything else goes
        through :meth:`convert_scalar`, so the policy's rule (range check,
        wrap-around, inf) is the one place that decides.
        """
        make = dtype.numpy.type
        convert = self.convert_scalar
        category = dtype.category
        if scalar_type is bool:
            return lambda value: make(value) if category else convert(value, dtype, op)
        if category == D.CATEGORY_INTEGER:
            lo, hi = _INT_BOUNDS[dtype]
            return ScalarConverter(make, lo, hi, False, convert, dtype, op)
        if category == D.CATEGORY_BOOL:
            return lambda value: convert(value, dtype, op)
        limit = float(D.finfo_of(dtype).max)
        if scalar_type is complex:
            return lambda value: (
                make(value)
                if -limit <= value.real <= limit and -limit <= value.imag <= limit
                else convert(value, dtype, op)
            )
        # (an int converts by float(): ml_dtypes' bfloat16 takes no Python int beyond C long)
        return ScalarConverter(make, -limit, limit, scalar_type is not float, convert, dtype, op)
