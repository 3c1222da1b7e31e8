"""JAX's promotion rules (``jax/_src/dtypes.py``) in its three modes: 32-bit (``jax``), x64 (``jax_x64``)
and explicit x64 (``jax_explicit_x64``).

Everything JAX-specific lives in this module, as data plus small rules:

* ``JAX_LATTICE``: JAX's type promotion lattice, *with* its three weak types
  (``int*``, ``float*``, ``complex*``: the types of Python int/float/complex
  scalars) as lattice elements.  Integers meet floats below every float
  (``i* -> u8, i8``; ``u64, i64 -> f*``; ``f* -> bf16, f16, c*``), so int64 +
  float16 is float16 and uint64 + int64 is the weak float.  ``JAX_LATTICE_X32``
  is the lattice JAX uses without x64, which forms no 64-bit type from narrower
  ones: uint32 + int32 is int32.
* Python bool is *not* weak (it is a bool); 0-d arrays are strong like n-d arrays.
  A weak result becomes the default dtype of its kind.
* ``_MODES``: what each mode has.  32-bit mode (JAX's default): the policy's dtypes are the
  32-bit ones (an explicitly requested 64-bit dtype is refused, as JAX's
  ``jax_explicit_x64_dtypes="error"`` does).  x64 mode: every dtype, 64-bit defaults.  Explicit
  x64 (``jax_enable_x64=False, jax_explicit_x64_dtypes="allow"``): every dtype when asked for by
  name, 32-bit defaults and the 32-bit lattice.
* A Python int must fit the default integer (int32, or int64 under x64) at every entry
  point but ``result_type``, which looks at types only; it is then converted to the target
  dtype with wrap-around (``int8 array + 1000`` holds -24).  Without x64 a Python float is a
  float32 value (a complex a complex64 one) before it meets an array: ``zeros(1, float64) + 0.1``
  holds 0.10000000149011612 in explicit-x64 mode.
* A NumPy scalar is a typed, non-weak operand: a 0-d array of its dtype (``jnp.add(x_f64,
  np.float32(1))`` is float64), at every entry point; without x64 its 64-bit dtype is made
  32-bit, as JAX makes every NumPy array's (``numpy_array_dtypes``).  ml_dtypes' bfloat16 scalar
  is one too; its float8 types only promote to themselves in JAX's lattice, and the namespace
  has no float8 dtype: refused (``foreign_numpy_scalar``).
* Operations: integer/bool input to a floating function (sqrt, true division, ...)
  promotes to float32, or float64 for 64-bit integers (``_TO_INEXACT``); the rest is checked
  against JAX's op table.

The tests compare this module with golden tables generated from real JAX
(``tools/gen_jax_golden.py`` -> ``tests/data/jax_promotion.json``,
``tests/data/jax_explicit_x64_<version>_promotion.json``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .. import _dtypes as D
from .._dtypes import DType
from ._lattice import PromotionTable
from ._ops import ACCUMULATING_FUNCTIONS, ELEMENTWISE_PAIR_FUNCTIONS, Domain, OpSpec, ResultKind
from ._policy import Decision, LargeInt, OperandKind, Policy, PromotionError, describe_signature
from ._scalars import ScalarConverter, int_text

__all__ = ["JaxPolicy", "JAX_LATTICE", "JAX_LATTICE_X32", "WEAK_INT", "WEAK_FLOAT", "WEAK_COMPLEX"]

# The weak types: lattice elements only, never the dtype of an array.
WEAK_INT = DType("int*", np.int64, D.SIGNED_INTEGER, 0)
WEAK_FLOAT = DType("float*", np.float64, D.REAL_FLOATING, 0)
WEAK_COMPLEX = DType("complex*", np.complex128, D.COMPLEX_FLOATING, 0)
_WEAK = (WEAK_INT, WEAK_FLOAT, WEAK_COMPLEX)

b1, i1, i2, i4, i8 = D.bool_, D.int8, D.int16, D.int32, D.int64
u1, u2, u4, u8 = D.uint8, D.uint16, D.uint32, D.uint64
f2, bf, f4, f8, c8, c16 = D.float16, D.bfloat16, D.float32, D.float64, D.complex64, D.complex128
i_, f_, c_ = _WEAK

# jax/_src/dtypes.py, _type_promotion_lattice(strict=False, x64=True) (jax_numpy_dtype_promotion="standard").
_SUPERTYPES = {
    b1: (i_,),
    i_: (u1, i1),
    u1: (u2, i2),
    u2: (u4, i4),
    u4: (u8, i8),
    u8: (f_,),
    i1: (i2,),
    i2: (i4,),
    i4: (i8,),
    i8: (f_,),
    f_: (bf, f2, c_),
    bf: (f4,),
    f2: (f4,),
    f4: (f8, c8),
    f8: (c16,),
    c_: (c8,),
    c8: (c16,),
    c16: (),
}
JAX_LATTICE = PromotionTable.from_lattice(_SUPERTYPES)
# ... (x64=False): "avoid any promotions that form 64-bit types from non-64-bit inputs. There's only
# one of these in the entire promotion lattice, namely u4xi4->i8": uint32 meets int32 at int32.
JAX_LATTICE_X32 = PromotionTable.from_lattice({**_SUPERTYPES, u4: (i4, u8)})


class _Mode(NamedTuple):
    """What a JAX mode has: its dtypes, defaults and lattice, and whether its scalars are 64-bit."""

    summary: str
    dtypes: tuple[DType, ...]
    defaults: tuple[DType, DType, DType, DType, DType]  # int, uint, float, complex, index
    lattice: PromotionTable
    x64: bool  # jax_enable_x64: Python scalars and NumPy data keep 64 bits


_ALL = (b1, i1, i2, i4, i8, u1, u2, u4, u8, f2, bf, f4, f8, c8, c16)
_DEFAULTS_32 = (i4, u4, f4, c8, i4)
_MODES = {
    "jax": _Mode(
        "JAX in its default 32-bit mode: no 64-bit dtypes, int32 and float32 defaults.",
        (b1, i1, i2, i4, u1, u2, u4, f2, bf, f4, c8),
        _DEFAULTS_32,
        JAX_LATTICE_X32,
        False,
    ),
    "jax_x64": _Mode(
        "JAX with jax_enable_x64 (64-bit dtypes and defaults).", _ALL, (i8, u8, f8, c16, i8), JAX_LATTICE, True
    ),
    "jax_explicit_x64": _Mode(
        "JAX without x64 but with jax_explicit_x64_dtypes='allow': int32 and float32 defaults, "
        "64-bit dtypes where asked for by name.",
        _ALL,
        _DEFAULTS_32,
        JAX_LATTICE_X32,
        False,
    ),
}

# The ints NumPy's casts take (``jnp.full``'s fill value): int64's and uint64's.
_INT64_MIN, _UINT64_END = -(2**63), 2**64
# Python scalars: bool is a strong bool, the others weak.
_SCALAR_TYPE = {bool: b1, int: i_, LargeInt: i_, float: f_, complex: c_}
# Without x64, what a NumPy array or scalar of a 64-bit dtype becomes (dtypes.canonicalize_dtype:
# jnp.asarray(np.float64(1)) is float32, also in explicit-x64 mode: no dtype was asked for by name).
_NUMPY_32 = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}
# dtypes.to_inexact_dtype: what integer and bool input to a floating function computes in.
_TO_INEXACT = {b1: f4, i1: f4, i2: f4, i4: f4, i8: f8, u1: f4, u2: f4, u4: f4, u8: f8}
# Without x64 a Python float or complex is a float32 or complex64 value before it meets an array (the
# weak type's default): into float64 0.1 holds 0.10000000149011612. XLA converts a float64 into float16
# and bfloat16 through float32 too, in every mode (zeros(2, float16) + (1 + 2**-11 + 2**-30) holds 1.0,
# where one rounding gives 1.0009765625). The dtypes where the rounding through float32 shows:
_WEAK_32 = {float: np.float32, complex: np.complex64}
_THROUGH_FLOAT32 = {False: frozenset({f2, bf, f8, c16}), True: frozenset({f2, bf})}  # by x64

# What JAX refuses, by the op's domain in the standard's words: categories.
_B, _I, _F, _X = D.CATEGORY_BOOL, D.CATEGORY_INTEGER, D.CATEGORY_FLOATING, D.CATEGORY_COMPLEX
_DEFAULT_REFUSALS = {
    Domain.INTEGER: (_B, _F, _X),
    Domain.INTEGER_OR_BOOLEAN: (_F, _X),
    Domain.REAL_VALUED: (),
    Domain.REAL_FLOATING: (_X,),
}
_JAX_REFUSES: dict[str, tuple] = {
    "floor_divide": (_X,),
    "remainder": (_X,),
    "signbit": (_X,),
    "floor": (_X,),
    "ceil": (_X,),
    "trunc": (_X,),
    "maximum": (),
    "minimum": (),
    "logaddexp": (_X,),
    "nextafter": (_X,),
    "atan2": (),  # jnp.arctan2 accepts complex
    "negative": (_B,),
    "sign": (_B,),
    "subtract": (_B,),
    "round": (_B,),
    "clip": (_X,),  # "Clip received a complex value ... Complex values have no ordering"
}
# Ops whose bool input computes in the default integer (jnp.square(bool) is int32/int64).
_BOOL_TO_INT32 = frozenset({"square", "floor_divide", "pow"})
# Ops that take inexact operands (promote_args_inexact): integer and bool input become float.
_INEXACT_ARGS = frozenset({"nextafter"})
# Reductions as jax.numpy computes them: mean/std/var take inexact input (integers and bool as
# to_inexact makes them: float32 up to 32 bits, the default float at 64), std/var of complex
# are real; max/min take any dtype; cumulative_prod keeps an integer dtype (jnp.cumulative_sum
# widens it like sum); bool accumulates in the default integer.
_INEXACT_REDUCTIONS = frozenset({"mean", "std", "var"})
_REAL_RESULT_REDUCTIONS = frozenset({"std", "var"})
_ANY_DTYPE_REDUCTIONS = frozenset({"max", "min"})
_KEEPS_INTEGER_DTYPE = frozenset({"cumulative_prod"})
# Logical ops accept any dtype and return bool.
_LOGICAL = frozenset({"logical_and", "logical_or", "logical_xor", "logical_not"})


class JaxPolicy(Policy):
    """JAX (``jax.numpy``) promotion in one of its modes: ``jax`` (32-bit), ``jax_x64``, ``jax_explicit_x64``."""

    zero_d_matters = False  # 0-d arrays are strong; only Python scalars are weak
    # jnp.add(True, 1), jnp.where(c, 1, 2.5): a (weakly typed) array of the scalars' defaults;
    # here a plain 0-d array of that dtype
    scalar_pair_functions = ELEMENTWISE_PAIR_FUNCTIONS
    # A NumPy scalar is a typed, non-weak 0-d array of its dtype: jnp.add(x_f64, np.float32(1)) is float64.
    numpy_scalars = "array"
    integer_division_by_zero = "xla"  # jnp.array([0, 1]) // 0 is [-1, -2]; % 0 is 0 (JAX 0.12.0.1)

    def __init__(self, x64: bool = False, *, explicit_x64: bool = False):
        if x64 and explicit_x64:
            raise ValueError("jax policy: explicit_x64 is a mode of JAX without x64 (x64=False)")
        self.name = "jax_x64" if x64 else "jax_explicit_x64" if explicit_x64 else "jax"
        mode = _MODES[self.name]
        self.x64, self.explicit_x64, self._summary = mode.x64, explicit_x64, mode.summary
        self.dtypes = mode.dtypes
        self.default_int, self.default_uint, self.default_float, self.default_complex, self.default_index = (
            mode.defaults
        )
        self.table = mode.lattice
        if not mode.x64:
            self.numpy_array_dtypes = _NUMPY_32
        super().__init__()

    @property
    def summary(self) -> str:
        return self._summary

    def _canonical(self, dtype: DType) -> DType:
        if dtype is i_:
            return self.default_int
        if dtype is f_:
            return self.default_float
        if dtype is c_:
            return self.default_complex
        return dtype

    # -- dtypes._lattice_result_type ------------------------------------------------------
    def _resolve(self, signature, trace):
        types = []
        for operand in signature:
            t = _SCALAR_TYPE[operand.dtype] if operand.kind is OperandKind.SCALAR else operand.dtype
            if trace is not None and operand.kind is OperandKind.SCALAR:
                trace.step(f"{operand} has the {'weak ' if t in _WEAK else ''}type {t.name}")
            types.append(t)
        result = types[0]
        for t in types[1:]:
            joined = self.table.join(result, t)
            if trace is not None and joined is not result:
                trace.step(f"lattice join {result.name} ∨ {t.name} = {joined.name}")
            result = joined
        canonical = self._canonical(result)
        if trace is not None and canonical is not result:
            trace.step(f"the weak type becomes the default dtype: {canonical.name}")
        return canonical

    # -- Python scalars ---------------------------------------------------------------------
    def check_scalar_value(self, value, op):
        if type(value) is int and op != "result_type":  # jnp.result_type looks at types only
            self.check_int_range(value, self.default_int, op)

    def out_of_range_message(self, value, dtype, op):
        return f"{op}: Python int {int_text(value)} is too large for JAX's default integer {dtype.name} (policy {self.name!r})"

    def check_scalar(self, value, dtype, op):
        self.check_scalar_value(value, op)

    def float_rounds_once(self, dtype):
        return dtype not in _THROUGH_FLOAT32[self.x64]

    def scalar_converter(self, scalar_type, dtype, op):
        if scalar_type in _WEAK_32 and dtype in _THROUGH_FLOAT32[self.x64]:
            convert = self.convert_scalar  # (a float32 first: no direct conversion to run in C)
            return lambda value: convert(value, dtype, op)
        # an operator's int is parsed as the default integer first, whatever the array's dtype
        # (float32 + 2**63 raises OverflowError); only ints in its range convert directly
        if scalar_type is bool or scalar_type is float or scalar_type is complex or dtype.category == D.CATEGORY_BOOL:
            return super().scalar_converter(scalar_type, dtype, op)
        lo, hi = D.iinfo_bounds(self.default_int)
        if dtype.category == D.CATEGORY_INTEGER:
            lo, hi = max(lo, D.iinfo_bounds(dtype)[0]), min(hi, D.iinfo_bounds(dtype)[1])
        return ScalarConverter(
            dtype.numpy.type, lo, hi, dtype.category != D.CATEGORY_INTEGER, self.convert_scalar, dtype, op
        )

    def convert_scalar(self, value, dtype, op="asarray"):
        """Wrap-around into integers (as JAX's ``lax.convert_element_type``); without x64 a float or
        complex is the float32 or complex64 value of its weak type first."""
        self.check_scalar(value, dtype, op)
        t = type(value)
        if t is int and dtype.category == D.CATEGORY_INTEGER:
            value = self.wrap_int(value, dtype)
        with np.errstate(over="ignore"):
            if t is int and dtype.category >= D.CATEGORY_FLOATING:
                value = float(value)  # (ml_dtypes' bfloat16 takes no int beyond a C long)
            elif t in _WEAK_32 and dtype in _THROUGH_FLOAT32[self.x64]:
                value = _WEAK_32[t](value)
            return np.asarray(value, dtype=dtype.numpy)

    def convert_bound(self, value, dtype, bound="min"):
        return self.convert_scalar(value, dtype, "clip")  # jnp.clip converts a bound as an operand: it wraps

    def create_scalar(self, value, dtype, op="asarray"):
        """``jnp.asarray(v, dtype=...)`` converts as ``np.array(v, dtype=...)`` (a float into an integer
        dtype truncates toward zero, a value out of its range is an ``OverflowError``);
        ``jnp.full(shape, v, dtype=...)`` with XLA's casts: an int in [-2**63, 2**64) wraps into an
        integer dtype, a float truncates and saturates at its bounds (NaN is 0), any int rounds into a
        float dtype (bfloat16 through ml_dtypes, which takes that range only), anything is a bool's truth."""
        full = op in ("full", "full_like")
        if full and type(value) is float and dtype.category == D.CATEGORY_INTEGER:
            lo, hi = D.iinfo_bounds(dtype)
            whole = 0 if math.isnan(value) else hi if value >= hi else lo if value <= lo else int(value)
            return np.asarray(whole, dtype=dtype.numpy)
        if not full:
            from .numpy import numpy_creation  # (asarray and its nested sequences: np.array's conversion)

            if type(value) is int and dtype is bf and not -(2**63) <= value < 2**63:
                # ml_dtypes 0.6 (JAX 0.12.0.1's, as recorded) takes no int beyond int64; 0.7 rounds it:
                # the recorded answer, whichever ml_dtypes is installed
                raise TypeError(
                    f"{op}: {value!r} cannot make a bfloat16 array (policy {self.name!r}): expected number, got int"
                )

            return numpy_creation(value, dtype, op, self.name)
        if type(value) is not int or dtype.category == D.CATEGORY_BOOL:
            return super().create_scalar(value, dtype, op)
        if dtype.category == D.CATEGORY_INTEGER or dtype is bf:
            if not _INT64_MIN <= value < _UINT64_END:
                error = TypeError if dtype is bf else OverflowError
                raise error(
                    f"{op}: Python int {int_text(value)} does not convert to {dtype.name} (policy {self.name!r})"
                )
            if dtype is bf:
                return np.asarray(float(value), dtype=dtype.numpy)
            return np.asarray(self.wrap_int(value, dtype), dtype=dtype.numpy)
        return super().create_scalar(value, dtype, op)

    # -- operation rules --------------------------------------------------------------------
    def _decide(self, spec: OpSpec, common: DType, signature) -> Decision:
        refused = _JAX_REFUSES.get(spec.name, _DEFAULT_REFUSALS.get(spec.domain, ()))
        if common.category in refused:
            raise PromotionError(
                f"{spec.name}: JAX does not accept {describe_signature(signature)} "
                f"({D.CATEGORY_NAMES[common.category]} input) (policy {self.name!r})"
            )
        kind = spec.result
        compute = common
        if spec.name in _LOGICAL:
            return Decision(common, b1)
        if spec.name in _BOOL_TO_INT32 and common is b1:
            compute = i4  # jnp's bool arithmetic goes through int32 in both modes
        if (kind is ResultKind.FLOAT or spec.name in _INEXACT_ARGS) and common.category <= D.CATEGORY_INTEGER:
            compute = _TO_INEXACT[common]  # integers of up to 32 bits give float32, 64-bit ones float64
        return Decision(compute, self.result_of_kind(kind, compute))

    def _why_compute(self, spec):
        return "integer input to a floating function computes in float32, 64-bit integers in float64"

    def _inexact(self, dtype: DType) -> DType:
        return _TO_INEXACT.get(dtype, dtype)

    def foreign_numpy_scalar(self, name, op, others):
        raise PromotionError(
            f"{op or 'operand'}: a NumPy scalar of dtype {name} promotes in JAX to {name} only (JAX's lattice has "
            f"no implicit promotion out of it: with a floating array it refuses), and {name} does not exist "
            f"under policy {self.name!r}; convert it with float() first"
        )

    def accumulation_dtype(self, op, dtype):
        if dtype.category == D.CATEGORY_INTEGER and op in _KEEPS_INTEGER_DTYPE:
            return dtype
        return super().accumulation_dtype(op, dtype)

    def function_dtype(self, op, dtype):
        if op in _ANY_DTYPE_REDUCTIONS:
            return Decision(dtype, dtype)
        if op in _INEXACT_REDUCTIONS:
            compute = self._inexact(dtype)
            return Decision(compute, D.REAL_OF.get(compute, compute) if op in _REAL_RESULT_REDUCTIONS else compute)
        if op in ACCUMULATING_FUNCTIONS and dtype.category == D.CATEGORY_BOOL:
            return self.accumulation_decision(op, dtype)
        return super().function_dtype(op, dtype)

    def inplace_result(self, op, result, target):
        """JAX arrays are immutable; ``x.at[...]`` / ``x += y`` rebind -- the array API's rule."""
        super().inplace_result(op, result, target)


_POLICIES: dict = {}


def _jax_policy(name: str) -> JaxPolicy:
    """The built-in policy ``name`` (one of ``_MODES``), made once."""
    policy = _POLICIES.get(name)
    if policy is None:
        policy = _POLICIES[name] = JaxPolicy(name == "jax_x64", explicit_x64=name == "jax_explicit_x64")
    return policy
