"""The array API standard's promotion rules, strictly.

* Arrays of every dimension (0-d included) and dtypes join on the standard's
  lattice: integers with integers, floating with floating (real and complex).
  Bool, integer and floating-point kinds never mix: that is a ``TypeError``.
* A Python scalar is weak: it takes the dtype of the arrays it meets, if its
  type is compatible ("Mixing arrays with Python scalars"): ``bool`` with bool
  arrays, ``int`` with integer and floating arrays, ``float`` with floating
  arrays, ``complex`` with complex arrays and, since 2024.12, with real
  floating arrays (giving the complex dtype of the same precision).  Anything
  else, and an ``int`` out of the array dtype's bounds, raises.
"""

from __future__ import annotations

from .. import _dtypes as D
from ._lattice import PromotionTable
from ._policy import (
    COMPLEX_FLOATING_INPUT,
    UNDEFINED_REFUSALS,
    Decision,
    LargeInt,
    NoDtypeError,
    OperandKind,
    Policy,
    PromotionError,
)

__all__ = ["ArrayAPIPolicy", "ArrayAPIStrictConversions", "ARRAY_API_LATTICE"]

# The standard's promotion diagram: each dtype and its immediate supertypes.
ARRAY_API_LATTICE = PromotionTable.from_lattice(
    {
        D.bool_: (),
        D.int8: (D.int16,),
        D.int16: (D.int32,),
        D.int32: (D.int64,),
        D.int64: (),
        D.uint8: (D.uint16, D.int16),
        D.uint16: (D.uint32, D.int32),
        D.uint32: (D.uint64, D.int64),
        D.uint64: (),
        D.float32: (D.float64, D.complex64),
        D.float64: (D.complex128,),
        D.complex64: (D.complex128,),
        D.complex128: (),
    }
)

# Which array dtype categories a Python scalar type may meet.
_SCALAR_PARTNERS = {
    bool: (D.CATEGORY_BOOL,),
    int: (D.CATEGORY_INTEGER, D.CATEGORY_FLOATING, D.CATEGORY_COMPLEX),
    float: (D.CATEGORY_FLOATING, D.CATEGORY_COMPLEX),
    complex: (D.CATEGORY_COMPLEX, D.CATEGORY_FLOATING),
}
_SCALAR_PARTNERS[LargeInt] = _SCALAR_PARTNERS[int]
# Operations whose stub names a narrower domain than the one the operation table shares with
# every policy ("imag": "Should have a complex floating-point data type").
_NARROWER_DOMAINS = {"imag": COMPLEX_FLOATING_INPUT}


class ArrayAPIPolicy(Policy):
    """The standard's rules; the default policy."""

    name = "array_api"
    dtypes = D.STANDARD_DTYPES
    table = ARRAY_API_LATTICE
    zero_d_matters = False  # 0-d arrays are ordinary arrays
    # What the standard leaves undefined and array-api-strict refuses: refused too (see Policy).
    undefined_refusals = frozenset(UNDEFINED_REFUSALS)
    # argmax, argmin, sort, argsort, searchsorted: "Should have a real-valued data type".
    unordered_dtypes = frozenset({D.bool_, D.complex64, D.complex128})
    # searchsorted: x1 and x2 "Should have a real-valued data type", nothing about promotion.
    search_mixed_kinds = True
    # linspace's dtype "Should be a floating-point data type"; array-api-strict makes NumPy's bools.
    bool_ranges = True
    # keepdims=1, n=True, np.int64 counts, norm=None: the standard names no other type and
    # array-api-strict lets NumPy read them (see Policy.numpy_argument_reading).
    numpy_argument_reading = True

    def _resolve(self, signature, trace):
        result = None
        for operand in signature:
            if operand.kind is OperandKind.SCALAR:
                continue
            if result is None:
                result = operand.dtype
                continue
            joined = self.table.join(result, operand.dtype)
            if joined is None:
                raise PromotionError(_no_promotion(result, operand.dtype, self.name))
            if trace is not None:
                trace.step(f"lattice join {result.name} ∨ {operand.dtype.name} = {joined.name}")
            result = joined
        if result is None:
            raise NoDtypeError(
                "at least one array or dtype is required; Python scalars alone have no "
                f"dtype under policy {self.name!r}"
            )
        if trace is not None and all(o.kind is not OperandKind.SCALAR for o in signature[:1]) and len(signature) == 1:
            trace.step(f"single operand keeps {result.name}")
        for operand in signature:
            if operand.kind is OperandKind.SCALAR:
                result = self._join_scalar(result, operand.dtype, trace)
        return result

    def _decide(self, spec, common, signature):
        narrower = _NARROWER_DOMAINS.get(spec.name)
        if narrower is not None and not narrower.admits(common):
            raise PromotionError(
                f"{spec.name}: {' and '.join(map(str, signature))} is not allowed; the standard requires "
                f"{narrower.words} input (policy {self.name!r})"
            )
        return super()._decide(spec, common, signature)

    def function_dtype(self, op, dtype):
        if op == "matrix_rank" and dtype.category in (D.CATEGORY_BOOL, D.CATEGORY_INTEGER):
            # x "Should have a floating-point data type"; array-api-strict counts the rank of any real matrix
            # (NumPy's, computed in float64): the rank is an integer whatever x holds, nothing is lost
            return Decision(D.float64, self.default_int)
        return super().function_dtype(op, dtype)

    def _join_scalar(self, dtype, scalar_type, trace):
        if scalar_type is LargeInt:
            scalar_type = int
        if dtype.category not in _SCALAR_PARTNERS[scalar_type]:
            raise PromotionError(
                f"Python {scalar_type.__name__} cannot be promoted with {D.a_dtype(dtype.name)} array; "
                f"the standard allows a Python {scalar_type.__name__} only with "
                f"{_partner_words(scalar_type)} dtypes; convert the array with astype() (policy {self.name!r})"
            )
        if scalar_type is complex and dtype.category == D.CATEGORY_FLOATING:
            promoted = D.COMPLEX_OF[dtype]
            if trace is not None:
                trace.step(f"Python complex with {dtype.name}: complex of the same precision, {promoted.name}")
            return promoted
        if trace is not None:
            trace.step(f"Python {scalar_type.__name__} is weak: takes {dtype.name}")
        return dtype

    def for_standin(self) -> Policy:
        # array-api-strict's conversions for the standard's policy itself; a user's subclass is
        # its own rules and runs as it is
        return _STANDIN if type(self) is ArrayAPIPolicy else self


class ArrayAPIStrictConversions(ArrayAPIPolicy):
    """The standard's rules with array-api-strict 2.6.1's conversions: the policy of the stand-in
    for array-api-strict (``python -m array_api_promo.standin --policy array_api``).

    Where the standard leaves a conversion to the library ("conversions not specified by the
    promotion rules may or may not be permitted"), array-api-strict makes NumPy do it, and so
    does this policy (``promotion.numpy.numpy_creation``, NumPy 2's rule), so that a
    consumer's tests see what they see with array-api-strict:

    * ``asarray`` of a Python number, or of one in a nested sequence, with a ``dtype``:
      ``np.array(value, dtype=...)``: a float into an integer dtype is truncated toward zero
      (``asarray([2.1, 4], dtype=int64)`` is ``[2, 4]``), an infinity or a truncated value out of
      range is an ``OverflowError`` (``asarray(-2.7, dtype=uint8)``), a NaN a ``ValueError``;
    * ``full``/``full_like`` with a ``dtype``: ``np.full``, an unchecked C cast: a float out of an
      integer dtype's range wraps or is undefined (``full(2, 300.0, dtype=int8)`` is ``[44, 44]``,
      NaN gives 0 or the minimum), a complex into a real dtype keeps its real part, any number
      into bool its truth value, and a Python int beyond 64 bits is an ``OverflowError``.

    ``ArrayAPIPolicy`` (every other namespace) keeps the refusals that never lose data.
    """

    def create_scalar(self, value, dtype: D.DType, op: str = "asarray"):
        from .numpy import numpy_creation  # (loaded on first use, as the numpy policy is)

        return numpy_creation(value, dtype, op, self.name)


_STANDIN = ArrayAPIStrictConversions()


def _partner_words(scalar_type) -> str:
    words = {
        bool: "boolean",
        int: "integer or floating-point",
        float: "floating-point",
        complex: "floating-point",
    }
    return words[scalar_type]


def _no_promotion(a, b, policy_name) -> str:
    if a.category != b.category and {a.category, b.category} != {D.CATEGORY_FLOATING, D.CATEGORY_COMPLEX}:
        why = f"mixed kinds ({a.kind} and {b.kind}) have no promotion in the standard"
    else:
        why = "the standard defines no promotion between them"
    return f"{a.name} and {b.name} do not promote: {why}; convert one with astype() (policy {policy_name!r})"
