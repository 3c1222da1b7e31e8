"""MLX 0.32's promotion rules (``mlx/types/dtype.cpp``'s ``promote_types`` table), on CPU.

Everything MLX-specific lives in this module:

* ``MLX_TABLE``: MLX's pairwise table over its 14 dtypes.  Like NumPy's within the
  integers, except that uint64 with a signed integer is float32, an integer with a float
  is the float (int64 + float16 is float16, as in JAX), float16 with bfloat16 is float32,
  and the one complex dtype, complex64, absorbs everything (float64 + complex64 is
  complex64).  A 0-d array promotes like an n-d one.
* Python numbers are weak: a bool keeps any dtype, an int keeps an integer or floating
  dtype (and makes bool int32), a float keeps a floating dtype (and makes bool and integers
  float32), a complex gives complex64.  An int must fit the array's integer dtype (MLX:
  "Converting 1000 to int8 would result in overflow"), except into the 64-bit ones, where
  it wraps; an int outside [-2**63, 2**63) is refused whatever the dtype, at every entry point
  (MLX reads it as a C++ int64: ``std::bad_cast``).  ``clip`` converts its number bounds the
  same way (no saturation: ``clip(int8, None, 1000)`` is refused).
* Operations: true division of integers and bools is float32; ``sum``/``prod`` accumulate
  bool, int8 and int16 in int32 and uint8, uint16 in uint32; ``mean`` of integers is float32.
* Creation: a Python int is int32, a float float32, a complex complex64; NumPy float64
  and complex128 arrays become float32 and complex64.  ``max``/``min`` take any dtype.
* FFTs compute in complex64 whatever the floating input (``fft`` takes real input too;
  ``irfft`` gives float32), and eigenvalues are complex64; ``eig``/``eigvals`` refuse 16-bit floats.

The tests compare this module with golden tables generated from real MLX
(``tools/gen_mlx_golden.py`` -> ``tests/data/mlx_0.32.4_promotion.json``).
"""

from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from .._dtypes import DType
from ._lattice import PromotionTable
from ._ops import OpSpec, ResultKind
from ._policy import Decision, LargeInt, OperandKind, Policy, PromotionError, ScalarConverter, int_text

__all__ = ["MlxPolicy", "MLX_TABLE"]

b1, u1, u2, u4, u8 = D.bool_, D.uint8, D.uint16, D.uint32, D.uint64
i1, i2, i4, i8 = D.int8, D.int16, D.int32, D.int64
f2, bf, f4, f8, c8 = D.float16, D.bfloat16, D.float32, D.float64, D.complex64
_ORDER = (b1, u1, u2, u4, u8, i1, i2, i4, i8, f2, bf, f4, f8, c8)
# promote_types(row, column), axes in _ORDER.  (Deliberately alike: numpy.py's table has this shape too; each
# policy keeps its own table.)
_ROWS = (
    (b1, u1, u2, u4, u8, i1, i2, i4, i8, f2, bf, f4, f8, c8),
    (u1, u1, u2, u4, u8, i2, i2, i4, i8, f2, bf, f4, f8, c8),
    (u2, u2, u2, u4, u8, i4, i4, i4, i8, f2, bf, f4, f8, c8),
    (u4, u4, u4, u4, u8, i8, i8, i8, i8, f2, bf, f4, f8, c8),
    (u8, u8, u8, u8, u8, f4, f4, f4, f4, f2, bf, f4, f8, c8),
    (i1, i2, i4, i8, f4, i1, i2, i4, i8, f2, bf, f4, f8, c8),
    (i2, i2, i4, i8, f4, i2, i2, i4, i8, f2, bf, f4, f8, c8),
    (i4, i4, i4, i8, f4, i4, i4, i4, i8, f2, bf, f4, f8, c8),
    (i8, i8, i8, i8, f4, i8, i8, i8, i8, f2, bf, f4, f8, c8),
    (f2, f2, f2, f2, f2, f2, f2, f2, f2, f2, f4, f4, f8, c8),
    (bf, bf, bf, bf, bf, bf, bf, bf, bf, f4, bf, f4, f8, c8),
    (f4, f4, f4, f4, f4, f4, f4, f4, f4, f4, f4, f4, f8, c8),
    (f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, c8),
    (c8,) * 14,
)
MLX_TABLE = PromotionTable.from_rows(_ORDER, _ROWS)

_B, _I, _F, _X = D.CATEGORY_BOOL, D.CATEGORY_INTEGER, D.CATEGORY_FLOATING, D.CATEGORY_COMPLEX
# The Python ints MLX takes at all (it reads each as a C++ int64).
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
# A weak Python number: its category, and the dtype it takes where the array's category is lower.
_WEAK = {bool: (_B, b1), int: (_I, i4), LargeInt: (_I, i4), float: (_F, f4), complex: (_X, c8)}
# Arithmetic MLX does on bools, in bool (recorded in the golden tables).
_BOOL_ARITHMETIC = frozenset({"add", "multiply", "floor_divide"})
# sum/prod: what narrow integers and bool accumulate in.
_ACCUMULATE = {b1: i4, i1: i4, i2: i4, u1: u4, u2: u4}
# FFTs: MLX computes every transform in complex64, real or complex input alike (``mx.fft.fft`` of
# float64 is complex64, ``mx.fft.irfft`` of float64 float32); hfft/ihfft, which MLX lacks, by analogy.
_FFT_TO_COMPLEX = frozenset({"fft", "ifft", "fftn", "ifftn", "rfft", "rfftn", "ihfft"})
_FFT_TO_REAL = frozenset({"irfft", "irfftn", "hfft"})
_FFT_OF_REAL = frozenset({"rfft", "rfftn", "ihfft"})
_EIGEN = frozenset({"eig", "eigvals"})  # mx.linalg.eig(vals): float32, float64 or complex64 input


class MlxPolicy(Policy):
    """MLX 0.32 (CPU): one pairwise table, weak Python numbers, 0-d arrays as strong as n-d ones."""

    name = "mlx"
    integer_division_by_zero = "mlx"  # mx.array([3]) // 0 is 0 and % 0 is 3 (MLX 0.32.4, CPU)
    dtypes = _ORDER
    default_int = i4
    default_uint = u4
    default_float = f4
    default_complex = c8
    default_index = i4
    zero_d_matters = False
    table = MLX_TABLE
    numpy_array_dtypes = {"float64": "float32", "complex128": "complex64"}

    def _resolve(self, signature, trace):
        strong = [o.dtype for o in signature if o.kind is not OperandKind.SCALAR]
        result = strong[0] if strong else None
        for d in strong[1:]:
            joined = self.table.join(result, d)
            if trace is not None and joined is not result:
                trace.step(f"promote_types({result.name}, {d.name}) = {joined.name}")
            result = joined
        for o in signature:
            if o.kind is not OperandKind.SCALAR:
                continue
            category, own = _WEAK[o.dtype]
            if result is None:
                result = own
            elif category > result.category:  # a weak number counts only where its kind is higher
                joined = own if category == _X or result.category == _B else self.table.join(result, own)
                if trace is not None:
                    trace.step(f"{o} is weak; its kind is higher than {result.name}'s: {joined.name}")
                result = joined
        return result

    # -- Python numbers ------------------------------------------------------------------
    def check_scalar_value(self, value, op):
        if type(value) is int and not _INT64_MIN <= value <= _INT64_MAX:
            raise OverflowError(
                f"{op}: Python int {int_text(value)} is outside int64, which MLX reads every int as "
                f"(MLX: std::bad_cast) (policy {self.name!r})"
            )

    def check_scalar(self, value, dtype, op):
        self.check_scalar_value(value, op)
        if type(value) is int and dtype.category == _I and dtype.bits < 64:
            self.check_int_range(value, dtype, op)

    def out_of_range_message(self, value, dtype, op):
        return f"{op}: converting {value} to {dtype.name} would result in overflow (policy {self.name!r})"

    def convert_scalar(self, value, dtype, op="asarray"):
        self.check_scalar(value, dtype, op)
        if type(value) is int and dtype.category == _I:
            value = self.wrap_int(value, dtype)  # (64-bit dtypes only: the others were checked)
        with np.errstate(over="ignore"):
            if type(value) is int and dtype.category >= _F:
                value = float(value)
            return np.asarray(value, dtype=dtype.numpy)

    def scalar_converter(self, scalar_type, dtype, op):
        # the fast conversion takes only ints MLX reads (int64); any other goes to convert_scalar
        if scalar_type is bool or scalar_type is float or scalar_type is complex or dtype.category == _B:
            return super().scalar_converter(scalar_type, dtype, op)
        if dtype.category == _I:
            lo, hi = D.iinfo_bounds(dtype)
        else:
            fmax = float(D.finfo_of(dtype).max)
            lo, hi = -fmax, fmax
        lo, hi = max(lo, _INT64_MIN), min(hi, _INT64_MAX)
        return ScalarConverter(dtype.numpy.type, lo, hi, dtype.category != _I, self.convert_scalar, dtype, op)

    def create_scalar(self, value, dtype, op="asarray"):
        """``mx.array(v, dtype=...)``: an int outside int64 is refused, one outside the dtype's range
        wraps (``mx.array(1000, dtype=mx.uint8)`` holds 232); ``mx.full`` checks it as an operand."""
        self.check_scalar_value(value, op)
        if op == "asarray" and type(value) is int and dtype.category == _I:
            return np.asarray(self.wrap_int(value, dtype), dtype=dtype.numpy)
        return self.convert_scalar(value, dtype, op)

    def convert_bound(self, value, dtype, bound="min"):
        return self.convert_scalar(value, dtype, "clip")  # checked as an operand is, never saturated

    # -- operation rules -----------------------------------------------------------------
    def _decide(self, spec: OpSpec, common: DType, signature) -> Decision:
        # A Python number is an array of the promoted dtype first (int8 / 1000 is refused, not
        # float32); where the number itself decides the dtype (bool array + int) it wraps.
        scalar = None
        if any(o.kind is OperandKind.SCALAR for o in signature):
            arrays = [o.dtype for o in signature if o.kind is not OperandKind.SCALAR]
            scalar = i8 if common is i4 and arrays and all(d is b1 for d in arrays) else common
        if spec.result is ResultKind.FLOAT and common.category <= _I:
            return Decision(f4, f4, scalar)  # true division and floating functions of integers and bools
        if common is b1 and spec.name in _BOOL_ARITHMETIC:
            return Decision(b1, b1, scalar)  # bool + bool is bool (True + True is True)
        decision = super()._decide(spec, common, signature)
        return decision._replace(scalar=scalar)

    def _why_compute(self, spec):
        return "integer and bool input to true division or a floating function computes in float32"

    def accumulation_dtype(self, op, dtype):
        return _ACCUMULATE.get(dtype, dtype)

    def complex_of(self, dtype):
        return c8  # the one complex dtype: eigenvalues of a float64 matrix are complex64

    def function_dtype(self, op, dtype):
        if op in _FFT_TO_COMPLEX and dtype.category >= _F:
            if op in _FFT_OF_REAL:  # rfft of real input in its own precision; of complex64, its real part
                return Decision(f4 if dtype is c8 else dtype, c8)
            return Decision(c8, c8)
        if op in _FFT_TO_REAL and dtype.category >= _F:
            return Decision(c8, f4)
        if op in _EIGEN and dtype.bits == 16:
            raise PromotionError(
                f"{op}: {dtype.name} input is not allowed; MLX's linalg.{op} takes float32, float64 or "
                f"complex64 (policy {self.name!r})"
            )
        if op == "mean" and dtype.category <= _I:
            return Decision(f4, f4)
        if op in ("max", "min"):
            return Decision(dtype, dtype)  # any dtype, complex included
        if op in ("sum", "prod") and dtype is b1:
            return self.accumulation_decision(op, dtype)
        return super().function_dtype(op, dtype)
