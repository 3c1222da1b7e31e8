"""PyTorch's promotion rules, as eager PyTorch 2.15 applies them (``torch``) and 2.13 did (``torch@2.13``).

Everything torch-specific lives in this module:

* ``TORCH_TABLE``: ``c10::promoteTypes``'s 13x13 lookup table (with the
  virtual ``complex32``, which NumPy cannot store), plus the rule for
  uint16/uint32/uint64, which promote only with themselves and with floating
  types;
* ``TorchPolicy._resolve``: ``ResultTypeState``'s three slots (n-d arrays,
  0-d arrays, wrapped Python numbers) combined by category
  (``combine_categories``): a lower-priority operand joins only when its
  category is higher;
* the operation rules (``_decide``, ``inplace_result``,
  ``accumulation_dtype``);
* Python scalar conversion, by where the scalar goes: an operand wraps (integers) or
  rounds (floats) unchecked, ``where``/``clip``/``full`` use ``checked_convert``,
  ``asarray`` follows ``torch.asarray``; two-scalar calls, ``clamp``'s number bounds
  and NumPy scalars (Python numbers to torch's argument parser).

The tests compare this module against golden tables generated from real
torch 2.13.0 and 2.15.0 (``tools/gen_torch_golden.py``, ``tools/gen_torch_op_golden.py``).
The two releases promote alike; 2.15 converts ``clamp``'s integer bounds differently
(``convert_bound``), and names bfloat16's complex type ``BComplex32`` (stored as complex64,
as 2.13's complex64 result was).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _dtypes as D
from .._dtypes import DType
from ._lattice import PromotionTable
from ._ops import (
    ACCUMULATING_FUNCTIONS,
    COMPLEX_TO_REAL_FUNCTIONS,
    REAL_TO_COMPLEX_FUNCTIONS,
    Domain,
    OpSpec,
    ResultKind,
)
from ._policy import Decision, LargeInt, OperandKind, Policy, PromotionError, describe_signature
from ._scalars import ScalarConverter, int_text

__all__ = ["TorchPolicy", "TORCH_TABLE", "complex32", "VERSIONS"]

# The releases the policy reproduces (golden tables of each): ``torch`` is the newest,
# ``torch@2.13`` the older.  They differ in one rule, ``convert_bound`` (clamp's integer bounds).
VERSIONS = {"2.15": "2.15.0", "2.13": "2.13.0"}
NEWEST = "2.15"

# torch.complex32 (ComplexHalf): a promotion result NumPy cannot store.  It takes
# part in the table; results are stored as complex64 (``storage_substitutions``).
complex32 = DType("complex32", np.complex64, D.COMPLEX_FLOATING, 32)

u1, i1, i2, i4, i8 = D.uint8, D.int8, D.int16, D.int32, D.int64
f2, f4, f8, bf = D.float16, D.float32, D.float64, D.bfloat16
c2, c4, c8, b1 = complex32, D.complex64, D.complex128, D.bool_
# c10/core/ScalarType.cpp, _promoteTypesLookup (axes: u1 i1 i2 i4 i8 f2 f4 f8 c2 c4 c8 b1 bf).  (Rows of one
# shape, deliberately: the table as torch writes it.)
_ORDER = (u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf)
_ROWS = (
    (u1, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, bf),
    (i2, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, bf),
    (i2, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, bf),
    (i4, i4, i4, i4, i8, f2, f4, f8, c2, c4, c8, i4, bf),
    (i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, bf),
    (f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, f4),
    (f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8, f4, f4),
    (f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, f8),
    (c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, c4),
    (c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8, c4, c4),
    (c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8),
    (u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf),
    (bf, bf, bf, bf, bf, f4, f4, f8, c4, c4, c8, bf, bf),
)
TORCH_TABLE = PromotionTable.from_rows(_ORDER, _ROWS)

# "Barebones" unsigned types: promote only with themselves and floating types.
_BAREBONES_UNSIGNED = frozenset({D.uint16, D.uint32, D.uint64})
# toComplexType: bfloat16 has no complex type of its own; torch 2.13 gives complex64.
_TO_COMPLEX = {f2: c2, bf: c4, f4: c4, f8: c8}
# Python scalars as torch wraps them; an int in [2**63, 2**64) unpacks as uint64.
_WRAPPED_TYPE = {bool: b1, int: i8, LargeInt: D.uint64, float: f8, complex: c8}
# The Python ints torch unpacks at all (int64 or uint64); others raise OverflowError.
_UNPACKABLE = (-(2**63), 2**64)
# Operations that convert a Python scalar with c10::checked_convert (an error, not a wrap).
_CHECKED_OPS = frozenset({"where", "clip"})

# checked_convert lets any double into Half and BFloat16 (rounding to inf).
_UNCHECKED_FLOATS = frozenset({f2, bf})
# The largest finite value of the floating dtypes it checks: a float within it (or NaN) converts
# as it is, with nothing to raise and no overflow to silence.
_CHECKED_FLOAT_LIMITS = {f4: float(np.finfo(np.float32).max), f8: float(np.finfo(np.float64).max)}


def _keeps_dtype_in_clamp(signature) -> bool:
    """clamp(Tensor, Scalar?, Scalar?)'s meta function: a floating ``self`` keeps its dtype and the
    number bounds do not take part in promotion (clamp(float16, min=1+0j) is float16); other
    dtypes promote with the numbers (TensorCompare.cpp, TORCH_META_FUNC(clamp))."""
    x, *bounds = signature
    return (
        isinstance(x.dtype, DType)
        and x.dtype.category == D.CATEGORY_FLOATING
        and x.kind is not OperandKind.SCALAR
        and all(b.kind is OperandKind.SCALAR for b in bounds)
    )


class TorchPolicy(Policy):
    """PyTorch eager promotion (``torch.result_type`` and TensorIterator), of 2.15.0 or 2.13.0."""

    dtypes: tuple[DType, ...] = (
        D.bool_,
        D.uint8,
        D.int8,
        D.int16,
        D.int32,
        D.int64,
        D.uint16,
        D.uint32,
        D.uint64,
        D.float16,
        D.bfloat16,
        D.float32,
        D.float64,
        D.complex64,
        D.complex128,
    )
    default_int = D.int64
    default_uint = D.int64  # torch accumulates every integer type in int64
    default_index = D.int64
    storage_substitutions = {"complex32": D.complex64}
    # torch.add/sub/mul/true_divide/floor_divide/where take two Python numbers
    # (torch.remainder and torch.pow do not)
    scalar_pair_functions = frozenset({"add", "subtract", "multiply", "divide", "floor_divide", "where"})
    clip_number_bounds = True  # clamp(Tensor, Scalar?, Scalar?) binds a 0-d bound as a number
    # A NumPy scalar is a wrapped number of the Python type torch's argument parser reads it
    # as: np.int64(3) by __index__, np.float64 (a float subclass), and np.bool_ -- no bool
    # subclass -- by __float__: float32 + np.True_ is float32, int8 + np.True_ too.
    numpy_scalars = {"b": float, "i": int, "u": int, "f": float, "c": complex}
    integer_division_by_zero = "raise"  # torch.tensor([1]) // 0: RuntimeError: ZeroDivisionError (% too)
    # ...but in a sequence given to torch.asarray, a NumPy scalar keeps its dtype:
    # torch.asarray([np.float64(1.), np.float64(2.)]) is float64, [np.int32(1)] is int32.
    sequence_numpy_scalars = True

    def __init__(self, default_dtype: DType = D.float32, version: str = NEWEST):
        if default_dtype not in (D.float32, D.float64):
            raise ValueError(f"torch policy: default dtype must be float32 or float64, got {default_dtype!r}")
        if version not in VERSIONS:
            raise ValueError(f"torch policy: version must be one of {', '.join(VERSIONS)}, got {version!r}")
        self.default_float = default_dtype
        self.default_complex = D.COMPLEX_OF[default_dtype]
        self.version = version
        base = "torch" if version == NEWEST else f"torch@{version}"
        self.name = base if default_dtype is D.float32 else f"{base}(default_dtype=float64)"
        super().__init__()

    @property
    def summary(self) -> str:
        return f"PyTorch {VERSIONS[self.version]} eager promotion (``torch.result_type`` and TensorIterator)."

    def with_default_dtype(self, dtype: DType) -> TorchPolicy:
        """The torch policy with another default float (``torch.set_default_dtype``)."""
        return torch_policy(dtype, self.version)

    # -- promoteTypes ----------------------------------------------------------
    def promote_types(self, a: DType, b: DType) -> DType:
        if a is b:
            return a
        if a in _BAREBONES_UNSIGNED or b in _BAREBONES_UNSIGNED:
            if a.category == D.CATEGORY_FLOATING:
                return a
            if b.category == D.CATEGORY_FLOATING:
                return b
            raise PromotionError(
                f"Promotion for uint16, uint32, uint64 types is not supported, attempted to "
                f"promote {a.name} and {b.name} (policy {self.name!r})"
            )
        return TORCH_TABLE.join(a, b)

    def _skip_undefined(self, a, b):
        if a is None:
            return b
        if b is None:
            return a
        return self.promote_types(a, b)

    # -- ResultTypeState -------------------------------------------------------
    def _resolve(self, signature, trace):
        slots = [None, None, None]  # dimResult, zeroResult, wrappedResult
        for operand in signature:
            kind = operand.kind
            if kind is OperandKind.SCALAR:
                current = _WRAPPED_TYPE[operand.dtype]
                if current.category == D.CATEGORY_COMPLEX:
                    current = self.default_complex
                elif current.category == D.CATEGORY_FLOATING:
                    current = self.default_float
                if trace is not None:
                    trace.step(f"{operand} is a wrapped number of dtype {current.name}")
            else:
                current = operand.dtype
            before = slots[kind]
            slots[kind] = self._skip_undefined(before, current)
            if trace is not None and before is not None and before is not slots[kind]:
                trace.step(f"{_SLOT_NAMES[kind]} slot: {before.name} + {current.name} -> {slots[kind].name}")
        if trace is not None:
            filled = [f"{_SLOT_NAMES[i]}={s.name}" for i, s in enumerate(slots) if s is not None]
            trace.step("slots: " + ", ".join(filled))
        lower = self._combine(slots[1], slots[2], "0-d", "wrapped", trace)
        result = self._combine(slots[0], lower, "n-d", "0-d/wrapped", trace)
        if result is None:
            raise PromotionError(f"no operands to promote (policy {self.name!r})")
        stored = self.storage_substitutions.get(result.name)
        if stored is not None:
            if trace is not None:
                trace.step(f"torch gives {result.name}, which NumPy cannot store: stored as {stored.name}")
            result = stored
        return result

    def _combine(self, higher, lower, higher_name, lower_name, trace):
        """``combine_categories``: ``lower`` counts only if its category is higher."""
        if higher is None or lower is None:
            return higher if lower is None else lower
        if higher.category == D.CATEGORY_COMPLEX:
            result, why = higher, f"{higher_name} is complex: it wins"
        elif lower.category == D.CATEGORY_COMPLEX:
            if higher.category == D.CATEGORY_FLOATING:
                result = _TO_COMPLEX[higher]
                why = f"{lower_name} is complex, {higher_name} floating: complex of {higher.name}'s precision"
            else:
                result, why = lower, f"{lower_name} is complex, {higher_name} is not floating: {lower_name} wins"
        elif higher.category == D.CATEGORY_FLOATING:
            result, why = higher, f"{higher_name} is floating: it wins"
        elif higher.category == D.CATEGORY_BOOL or lower.category == D.CATEGORY_FLOATING:
            result = self.promote_types(higher, lower)
            why = f"{lower_name}'s category is higher: promoteTypes({higher.name}, {lower.name})"
        else:
            result, why = higher, f"{lower_name} is not of a higher category: {higher_name} wins"
        if trace is not None:
            trace.step(f"combine {higher_name} {higher.name} with {lower_name} {lower.name}: {why} -> {result.name}")
        return result

    # -- Python scalars ----------------------------------------------------------
    # Three conversions, by where the scalar goes (tests/data/torch_2.13.0_promotion.json,
    # "conversions"):
    # * an operand of an elementwise operation: wrap-around for integers, IEEE rounding
    #   (inf) for floats -- the wrapped number is cast, never checked;
    # * ``where``/``clip`` and ``full``: ``c10::checked_convert`` (``_checked``);
    # * ``asarray`` (``torch.asarray``/``torch.tensor``): ``_created``.
    def check_scalar(self, value, dtype, op):
        self.check_scalar_value(value, op)

    def check_scalar_value(self, value, op):
        # torch unpacks a Python int into int64 (or uint64 when it only fits there).
        if type(value) is int and not _UNPACKABLE[0] <= value < _UNPACKABLE[1]:
            raise OverflowError(
                f"{op}: Python int {int_text(value)} is too large for torch to unpack (it must "
                f"fit int64 or uint64) (policy {self.name!r})"
            )

    def scalar_converter(self, scalar_type, dtype, op):
        # An int in an integer dtype's range is unpackable (and LargeInt is by construction);
        # into a floating dtype it must also be unpackable, or convert_scalar raises.
        if scalar_type is not int or dtype.category <= D.CATEGORY_INTEGER:
            return super().scalar_converter(scalar_type, dtype, op)
        make, convert = dtype.numpy.type, self.convert_scalar
        fmax = float(D.finfo_of(dtype).max)
        lo, hi = max(-fmax, _UNPACKABLE[0]), min(fmax, _UNPACKABLE[1] - 1)
        return ScalarConverter(make, lo, hi, False, convert, dtype, op)

    def convert_scalar(self, value, dtype, op="asarray"):
        """An operand's wrap-around (integers) and IEEE rounding (floats); ``where``
        and ``clip`` convert with ``checked_convert``."""
        if op in _CHECKED_OPS:
            return self._checked(value, dtype, op)
        self.check_scalar(value, dtype, op)
        if type(value) is int and dtype.category == D.CATEGORY_INTEGER:
            value = self.wrap_int(value, dtype)
        with np.errstate(over="ignore"):
            if type(value) is int and dtype.category >= D.CATEGORY_FLOATING:
                value = float(value)
            return np.asarray(value, dtype=dtype.numpy)

    def convert_bound(self, value, dtype, bound="min"):
        if self.version != "2.13" and type(value) is int and dtype.category == D.CATEGORY_INTEGER:
            # torch 2.15: an integer bound beyond the dtype's range clips nothing (it saturates),
            # unless it would clip everything ("Clamp min value 1000 is outside the representable
            # range of Char"); 2.13 checked the conversion (1000) or wrapped (-1 into uint8: 255)
            lo, hi = D.iinfo_bounds(dtype)
            if (bound == "min" and value > hi) or (bound == "max" and value < lo):
                raise OverflowError(
                    f"clip: {bound} {value} is outside the range of {dtype.name} [{lo}, {hi}] (torch: "
                    f"'Clamp {bound} value {value} is outside the representable range') (policy {self.name!r})"
                )
            return np.asarray(min(max(value, lo), hi), dtype=dtype.numpy)
        return self._checked(value, dtype, "clip")

    def create_scalar(self, value, dtype, op="asarray"):
        if op == "asarray":
            return self._created(value, dtype, op)
        return self._checked(value, dtype, op)

    def _overflow(self, value, dtype, op):
        return OverflowError(
            f"{op}: value {int_text(value)} cannot be converted to {dtype.name} without overflow "
            f"(torch checks this conversion) (policy {self.name!r})"
        )

    def _checked(self, value, dtype, op):
        """``c10::checked_convert``: the value must fit the dtype, except that a negative
        int wraps into an unsigned type down to -max, and half precision takes any float."""
        if type(value) is float:
            limit = _CHECKED_FLOAT_LIMITS.get(dtype)
            if limit is not None and (abs(value) <= limit or value != value):
                return np.asarray(value, dtype=dtype.numpy)  # what the checks below would give it
        self.check_scalar_value(value, op)
        t = type(value)
        category = dtype.category
        if category == D.CATEGORY_BOOL:
            return np.asarray(bool(value))
        if t is complex and category != D.CATEGORY_COMPLEX:
            # checked_convert takes a complex with no imaginary part as its real part
            if value.imag != 0:
                raise TypeError(
                    f"{op}: a Python complex with a nonzero imaginary part cannot be converted to "
                    f"{dtype.name} (policy {self.name!r})"
                )
            value, t = value.real, float
        if category == D.CATEGORY_INTEGER:
            return self._to_integer(value, dtype, op)
        if dtype not in _UNCHECKED_FLOATS:
            limit = float(D.finfo_of(dtype).max)
            parts = (value.real, value.imag) if t is complex else (float(value),)
            if any(math.isfinite(p) and abs(p) > limit for p in parts):
                raise self._overflow(value, dtype, op)
        return self.convert_scalar(value, dtype, "asarray")

    def _to_integer(self, value, dtype, op):
        lo, hi = D.iinfo_bounds(dtype)
        if type(value) is float:
            if not (math.isfinite(value) and lo <= value <= hi):  # lo: -0.0 fits unsigned
                raise self._overflow(value, dtype, op)
            return np.asarray(int(value), dtype=dtype.numpy)  # truncation toward zero
        low = -hi if lo == 0 else lo  # unsigned: two's complement down to -max
        if not low <= value <= hi:
            raise self._overflow(value, dtype, op)
        return np.asarray(self.wrap_int(value, dtype), dtype=dtype.numpy)

    def _created(self, value, dtype, op):
        """``torch.asarray(value, dtype=...)``: integers are checked (Python ints are unpacked
        as int64, uint64 only for a uint64 dtype, which takes no negative int or float);
        floats and complex into floating dtypes round to inf unchecked."""
        t = type(value)
        category = dtype.category
        if category == D.CATEGORY_BOOL:
            return np.asarray(bool(value))
        if t is complex and category != D.CATEGORY_COMPLEX:
            raise TypeError(f"{op}: a Python complex cannot make {D.a_dtype(dtype.name)} array (policy {self.name!r})")
        if category == D.CATEGORY_INTEGER:
            if dtype is D.uint64:  # the value is unpacked as an unsigned 64-bit int
                if t is float:
                    raise TypeError(
                        f"{op}: torch makes a uint64 array of a Python int, not of "
                        f"float {value!r} (policy {self.name!r})"
                    )
                if value < 0:
                    raise OverflowError(
                        f"{op}: a negative Python int ({int_text(value)}) cannot "
                        f"make a uint64 array (policy {self.name!r})"
                    )
            elif t is int and not _UNPACKABLE[0] <= value < 2**63:
                raise self._overflow(value, dtype, op)
            return self._to_integer(value, dtype, op)
        if t is int:
            try:
                value = float(value)
            except OverflowError:
                raise self._overflow(value, dtype, op) from None
        return self.convert_scalar(value, dtype, op)

    # -- operation rules -----------------------------------------------------------
    def _decide(self, spec: OpSpec, common: DType, signature) -> Decision:
        if spec.name == "clip" and _keeps_dtype_in_clamp(signature):
            x = signature[0].dtype
            return Decision(x, x)
        refused = _TORCH_REFUSES.get(spec.name, _DEFAULT_REFUSALS.get(spec.domain, ()))
        if spec.name in _REFUSE_BOOL_OPERAND and any(o.dtype is D.bool_ or o.dtype is bool for o in signature):
            raise PromotionError(
                f"{spec.name}: torch does not support {describe_signature(signature)}: "
                f"{_REFUSE_BOOL_OPERAND[spec.name]} (policy {self.name!r})"
            )
        if spec.name in _SAME_DTYPE_OPS and len({o.dtype for o in signature}) > 1:
            names = " and ".join(o.dtype.name if isinstance(o.dtype, DType) else o.dtype.__name__ for o in signature)
            raise PromotionError(
                f"{spec.name}: torch does not promote here: {_SAME_DTYPE_OPS[spec.name]}, "
                f"got {names} (policy {self.name!r})"
            )
        if common.category in refused:
            raise PromotionError(
                f"{spec.name}: torch does not support {describe_signature(signature)} "
                f"({D.CATEGORY_NAMES[common.category]} input) (policy {self.name!r})"
            )
        kind = _TORCH_RESULT_KIND.get(spec.name, spec.result)
        compute = common
        if kind is ResultKind.FLOAT and common.category <= D.CATEGORY_INTEGER:
            compute = self.default_float
        elif kind is ResultKind.BOOL_TO_LONG and common is D.bool_:
            compute = D.int64
        return Decision(compute, self.result_of_kind(kind, compute))

    def _why_compute(self, spec):
        if spec.name == "clip":
            return "clamp with number bounds: a floating x keeps its dtype, the numbers do not promote"
        return "integer input to a floating operation takes the default dtype (INT_TO_FLOAT)"

    def inplace_result(self, op, result, target):
        """``c10::canCast``: no complex -> real, floating -> integral, or non-bool -> bool."""
        if (
            (result.category == D.CATEGORY_COMPLEX and target.category != D.CATEGORY_COMPLEX)
            or (result.category == D.CATEGORY_FLOATING and target.category <= D.CATEGORY_INTEGER)
            or (result is not D.bool_ and target is D.bool_)
        ):
            raise PromotionError(
                f"{op}: result type {result.name} can't be cast to the desired output "
                f"type {target.name} (policy {self.name!r})"
            )

    def accumulation_dtype(self, op, dtype):
        # torch.sum/prod/cumsum/cumprod: bool and every integer type accumulate in int64.
        if dtype.category <= D.CATEGORY_INTEGER:
            return D.int64
        return dtype

    def function_dtype(self, op, dtype):
        """torch 2.13's input rules of reductions and linalg functions (checked live)."""
        if op in _TORCH_FFTS:
            return self._fft_dtype(op, dtype)
        refused = _TORCH_FUNCTION_REFUSES.get(op)
        if refused is None:  # as the standard (e.g. linalg.inv: floating or complex input)
            return super().function_dtype(op, dtype)
        if dtype.category in refused:
            raise PromotionError(
                f"{op}: torch does not support {dtype.name} input "
                f"({D.CATEGORY_NAMES[dtype.category]}) (policy {self.name!r})"
            )
        if op in ACCUMULATING_FUNCTIONS:
            return self.accumulation_decision(op, dtype)
        if op in ("std", "var") and dtype.category == D.CATEGORY_COMPLEX:
            return Decision(dtype, D.REAL_OF[dtype])  # torch.std of complex is real
        return Decision(dtype, dtype)

    def _fft_dtype(self, op, dtype):
        # torch.fft reads bool/integer input as the default float; half precision (CPU
        # kernels refuse it, CUDA gives complex32) computes in float32 here.
        if dtype.category <= D.CATEGORY_INTEGER:
            dtype = self.default_float
        elif dtype.category == D.CATEGORY_FLOATING and dtype not in D.COMPLEX_OF:
            dtype = D.float32
        if op in REAL_TO_COMPLEX_FUNCTIONS:
            if dtype.category == D.CATEGORY_COMPLEX:
                raise PromotionError(
                    f"{op}: torch does not support {dtype.name} input: it expects a real input "
                    f"tensor (policy {self.name!r})"
                )
            return Decision(dtype, D.COMPLEX_OF[dtype])
        compute = dtype if dtype.category == D.CATEGORY_COMPLEX else D.COMPLEX_OF[dtype]
        if op in COMPLEX_TO_REAL_FUNCTIONS:
            return Decision(compute, D.REAL_OF[compute])
        return Decision(compute, compute)

    def can_cast(self, from_, to):
        try:
            self.inplace_result("can_cast", from_, to)
        except TypeError:
            return False
        return True


_SLOT_NAMES = ("n-d", "0-d", "wrapped")

_C = (D.CATEGORY_BOOL, D.CATEGORY_INTEGER, D.CATEGORY_FLOATING, D.CATEGORY_COMPLEX)
_B, _I, _F, _X = _C
# What torch refuses, by the standard's domain of the op (refined per op below).
_DEFAULT_REFUSALS = {
    Domain.ANY: (),
    Domain.NUMERIC: (),
    Domain.REAL_VALUED: (_X,),
    Domain.FLOATING: (),
    Domain.REAL_FLOATING: (_X,),
    Domain.INTEGER: (_F, _X),
    Domain.INTEGER_OR_BOOLEAN: (_F, _X),
    Domain.BOOLEAN: (),
}
# Per-op exceptions, checked against tests/data/torch_2.13.0_ops.json.
_TORCH_REFUSES: dict[str, tuple] = {
    "negative": (_B,),
    "positive": (_B,),
    "imag": (_B, _I, _F),  # "imag is not implemented for tensors with non-complex dtypes."
    "sign": (_X,),  # torch.sign refuses complex (torch.sgn is the complex one)
    "signbit": (_X,),
    "logaddexp": (_B, _I),  # torch has complex logaddexp, but "logaddexp_cpu" not implemented for 'Int'
    "nextafter": (_B, _I, _X),  # "nextafter_cpu" not implemented for 'Int' (nor has NumPy an integer loop)
}
# Ops whose operands must already share one dtype (no promotion at all).
_SAME_DTYPE_OPS = {
    "matmul": "expected m1 and m2 to have the same dtype",
}
# Ops that refuse a bool operand even when the promoted dtype is not bool.
_REFUSE_BOOL_OPERAND = {
    "subtract": "Subtraction, the `-` operator, with a bool tensor is not supported; "
    "use the `^` or logical_xor() operator instead",
}
# Ops whose result kind differs from the standard's in torch.
_TORCH_RESULT_KIND: dict[str, ResultKind] = {
    "logical_and": ResultKind.BOOL,
    "logical_or": ResultKind.BOOL,
    "logical_xor": ResultKind.BOOL,
    "logical_not": ResultKind.BOOL,
    "clip": ResultKind.SAME,  # torch.clamp promotes x with its bounds
    "square": ResultKind.BOOL_TO_LONG,  # torch.square is pow(x, 2): bool gives int64
}

# Non-elementwise functions where torch's input rule differs from the standard's:
# the categories torch refuses (torch.sum(bool) is int64, torch.mean(int) raises,
# torch.amax(complex) raises, torch.linalg.vecdot(int) raises, torch.diff(bool) is xor ...).
_TORCH_FUNCTION_REFUSES: dict[str, tuple] = {
    **dict.fromkeys(["sum", "prod", "cumulative_sum", "cumulative_prod", "diff", "outer"], ()),
    **dict.fromkeys(["trace", "cross", "tensordot", "matrix_power"], (_B,)),
    **dict.fromkeys(["max", "min"], (_X,)),
    **dict.fromkeys(["mean", "std", "var", "vecdot", "fftfreq", "rfftfreq"], (_B, _I)),
    **dict.fromkeys(["fftshift", "ifftshift"], ()),  # torch.fft.fftshift is a roll: any dtype
}
_TORCH_FFTS = frozenset({"fft", "ifft", "fftn", "ifftn", "rfft", "rfftn", "ihfft", "irfft", "irfftn", "hfft"})

_POLICIES: dict = {}


def torch_policy(default_dtype: DType = D.float32, version: str = NEWEST) -> TorchPolicy:
    policy = _POLICIES.get((default_dtype, version))
    if policy is None:
        policy = _POLICIES[default_dtype, version] = TorchPolicy(default_dtype, version)
    return policy
