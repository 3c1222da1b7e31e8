"""NumPy 1.26's promotion rules, value-based casting included (before NEP 50).

These are the rules the seeds set against PyTorch's (MegEngine's MEP 3, the PyTorch
promotion proposal): ``uint8 array + 50000`` is uint16, ``0-d int8 + 1`` is int64.
Everything that differs from NumPy 2 lives in this module; what NumPy 1.26 shares with
NumPy 2 (``np.promote_types``, the "main dtype" promotion of a sequence, the ufunc loop
lists, ``same_kind`` in-place casting, reductions) is inherited from
:mod:`.numpy`, its one home.

* **Value classes** (``min_scalar_type``): a 0-d array or a Python scalar is judged by
  the smallest dtype of its kind that holds its value: a non-negative integer by the
  smallest *unsigned* type (flagged "small" when the signed type of that size holds it
  too, so ``int8 + 100`` stays int8 but ``int8 + 200`` is int16); a negative one by the
  smallest signed type; a float by float16 when it is within (-65000, 65000) or not
  finite, float32 within (-3.4e38, 3.4e38); a complex by complex64 when both parts are
  within float32's range.  A 0-d array never goes above its own dtype.  A Python int is
  first an int64 (a uint64 in [2**63, 2**64); outside that NumPy 1.26 makes an *object*
  array, which this namespace cannot hold: ``OverflowError``).
* **When values count** (``should_use_min_scalar``): only if some operand is an n-d
  array (or a dtype) and the highest kind (bool < integer < floating < complex) of the
  n-d operands is at least that of the 0-d ones.  Then the operands fold left to right
  with ``promote_types``, a 0-d operand standing for its value class (a "small"
  unsigned one for the signed type of its size when it meets a signed or floating
  type).  Otherwise every operand counts by its dtype (Python int: int64, float:
  float64, complex: complex128) as in NumPy 2 with strong 0-d arrays.
* **Operations**: ``add``/``subtract``/``multiply``/``maximum``/``minimum``, the
  comparisons and the logical functions resolve with ``np.result_type`` of their
  operands; the other ufuncs take the first loop every input casts to safely, a 0-d
  input by the value rule (``can_cast_scalar_to``); true division of two integers
  is float64; ``ceil``/``floor``/``trunc`` have only floating loops (``np.ceil(int8)``
  is float16).

Since every result dtype holds the scalars' values, NumPy 1.26 never raises
``OverflowError`` for an out-of-range Python int in an operation; ``asarray(1000,
dtype=int8)`` wraps (with NumPy's ``DeprecationWarning``).

The tests compare this module with golden tables generated from real NumPy 1.26.4
(``tools/gen_numpy_legacy_golden.py``, ``tests/data/numpy_1.26.4_*.json``).
"""

from __future__ import annotations

import contextlib
import math
import threading
import warnings

import numpy as np

from .. import _dtypes as D
from .._dtypes import DType
from ._ops import OpSpec
from ._policy import Decision, LargeInt, Operand, OperandKind, Policy, PromotionError, ValueOperand, describe_signature

# np.promote_types, the ufunc loop lists and the boolean refusals are unchanged since 1.x
from .numpy import LOOP_SPECS, NUMPY_TABLE, REFUSE_ALL_BOOL, NumPyPolicy, parse_loops

__all__ = ["NumPyLegacyPolicy", "ValueClass", "min_scalar_type", "quiet_conversions"]

b1, i1, i2, i4, i8 = D.bool_, D.int8, D.int16, D.int32, D.int64
u1, u2, u4, u8 = D.uint8, D.uint16, D.uint32, D.uint64
f2, f4, f8, c8, c16 = D.float16, D.float32, D.float64, D.complex64, D.complex128

# -- value classes --------------------------------------------------------------------
# NumPy's simplified kind ordering (dtype_kind_to_simplified_ordering): floating and
# complex are one kind (so float32 + 1j is complex64), object is above them all.
_KIND = {D.CATEGORY_BOOL: 0, D.CATEGORY_INTEGER: 1, D.CATEGORY_FLOATING: 2, D.CATEGORY_COMPLEX: 2}
_OBJECT_KIND = 3
# A Python scalar as NumPy 1.26 converts it to an array (np.asarray(value).dtype).
_PY_DTYPE = {bool: b1, int: i8, LargeInt: u8, float: f8, complex: c16}
# Smallest unsigned / signed type holding a value: (type, its upper or lower bound).
_UNSIGNED_STEPS = ((u1, 2**8 - 1), (u2, 2**16 - 1), (u4, 2**32 - 1), (u8, 2**64 - 1))
_SIGNED_STEPS = ((i1, -(2**7)), (i2, -(2**15)), (i4, -(2**31)), (i8, -(2**63)))
_SIGNED_OF = {u1: i1, u2: i2, u4: i4, u8: i8}
_HALF_LIMIT = 65000.0  # min_scalar_type_num's thresholds, not the types' true maxima
_FLOAT_LIMIT = 3.4e38
_INT_RANGE = (-(2**63), 2**64)  # what np.asarray(python_int) holds without object dtype
_INT64_MAX = 2**63 - 1


class ValueClass(tuple):
    """``(dtype, small_unsigned)``: the minimal dtype of a value and NumPy's "small
    unsigned" flag (a non-negative integer the signed type of that size holds too).
    ``dtype`` is ``None`` for a Python int NumPy 1.26 can only hold in an object array."""

    __slots__ = ()

    def __new__(cls, dtype, small_unsigned=False):
        return tuple.__new__(cls, (dtype, small_unsigned))

    @property
    def dtype(self):
        return self[0]

    @property
    def small_unsigned(self):
        return self[1]

    def __repr__(self):
        if self[0] is None:
            return "value beyond int64/uint64: object"
        return f"value class {self[0].name}{', small unsigned' if self[1] else ''}"


_OBJECT = ValueClass(None)


def min_scalar_type(dtype: DType, value) -> ValueClass:
    """``np.min_scalar_type`` of ``value`` held in a 0-d ``dtype`` array (NumPy 1.26)."""
    category = dtype.category
    if category == D.CATEGORY_BOOL:
        return ValueClass(b1)
    if category == D.CATEGORY_INTEGER:
        value = int(value)
        if value >= 0:
            for t, hi in _UNSIGNED_STEPS:
                if value <= hi:
                    return ValueClass(t, value <= hi >> 1)
            return _OBJECT
        for t, lo in _SIGNED_STEPS:
            if value >= lo:
                return ValueClass(t)
        return _OBJECT
    if category == D.CATEGORY_FLOATING:
        value = float(value)
        if not math.isfinite(value) or -_HALF_LIMIT < value < _HALF_LIMIT:
            found = f2
        elif -_FLOAT_LIMIT < value < _FLOAT_LIMIT:
            found = f4
        else:
            found = f8
        return ValueClass(found if found.bits <= dtype.bits else dtype)
    value = complex(value)
    if -_FLOAT_LIMIT < value.real < _FLOAT_LIMIT and -_FLOAT_LIMIT < value.imag < _FLOAT_LIMIT:
        return ValueClass(c8)
    return ValueClass(dtype)


def _python_value_class(value) -> ValueClass:
    """The value class of a Python scalar, held as ``np.asarray(value)`` holds it."""
    t = type(value)
    if t is int:
        if not _INT_RANGE[0] <= value < _INT_RANGE[1]:
            return _OBJECT
        return min_scalar_type(u8 if value > _INT64_MAX else i8, value)
    return min_scalar_type(_PY_DTYPE[t], value)


# -- operations ------------------------------------------------------------------------
# Ufuncs whose NumPy 1.26 type resolver is np.result_type of the inputs (the "uniform"
# and comparison resolvers; the comparisons' and logical ones' result is bool); the others
# search their loops (linear_search_type_resolver).
_BOOL_RESULT = frozenset(
    {"equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "logical_and", "logical_or", "logical_xor"}
)
_BY_RESULT_TYPE = frozenset({"add", "subtract", "multiply", "maximum", "minimum"}) | _BOOL_RESULT
# NumPy 2's loop lists, except that NumPy 1.26's ceil/floor/trunc have floating loops only.
_LOOPS = {op: parse_loops(spec) for op, spec in LOOP_SPECS.items()}
_LOOPS.update(dict.fromkeys(["ceil", "floor", "trunc"], parse_loops("e>e f>f d>d")))


class NumPyLegacyPolicy(NumPyPolicy):
    """NumPy 1.26 promotion: ``np.result_type`` and ufunc loop selection with value-based casting."""

    name = "numpy_legacy"
    zero_d_matters = True
    value_dependent = True  # numpy_scalars = "array" (inherited): a NumPy scalar counts by its value too
    # NumPy 2's rules for bool input to vecdot & co. and ml_dtypes' scalars are not checked against 1.26
    bool_functions: frozenset = frozenset()
    foreign_numpy_scalar = Policy.foreign_numpy_scalar

    # -- values ---------------------------------------------------------------------
    def value_operand(self, operand, value):
        """A 0-d array or Python scalar with the class of its value (the cache key)."""
        if operand.kind is OperandKind.SCALAR:
            cls = _python_value_class(value)
        elif value is None:
            cls = ValueClass(operand.dtype)  # value unknown: it may need its whole dtype
        else:
            cls = min_scalar_type(operand.dtype, value)
        return ValueOperand(operand.kind, operand.dtype, cls)

    def _value_class(self, operand) -> ValueClass:
        if type(operand) is ValueOperand:
            return operand.value
        if operand.kind is OperandKind.SCALAR:
            return ValueClass(_PY_DTYPE[operand.dtype])  # value unknown
        return ValueClass(operand.dtype)

    @staticmethod
    def _dtype_of(operand, cls) -> DType | None:
        """The operand's dtype as NumPy 1.26 holds it (a Python scalar as np.asarray makes it)."""
        if operand.kind is not OperandKind.SCALAR:
            return operand.dtype
        return None if cls.dtype is None else _PY_DTYPE[operand.dtype]

    def _uses_values(self, signature) -> bool:
        """``should_use_min_scalar``: 0-d and n-d operands present, the n-d ones of a kind
        at least the 0-d ones'."""
        array_kind = scalar_kind = -1
        for operand in signature:
            if operand.kind is OperandKind.ARRAY:
                array_kind = max(array_kind, _KIND[operand.dtype.category])
            else:
                cls = self._value_class(operand)
                kind = _OBJECT_KIND if cls.dtype is None else _KIND[cls.dtype.category]
                scalar_kind = max(scalar_kind, kind)
        return scalar_kind >= 0 and array_kind >= scalar_kind

    # -- np.result_type ----------------------------------------------------------------
    def _resolve(self, signature, trace):
        classes = [None if o.kind is OperandKind.ARRAY else self._value_class(o) for o in signature]
        if not self._uses_values(signature):
            dtypes = [self._dtype_of(o, c) if c is not None else o.dtype for o, c in zip(signature, classes)]
            if None in dtypes:
                self._object_error(signature)
            if trace is not None:
                trace.step(
                    "no n-d operand of a kind at least the 0-d/scalar ones': values do not count, "
                    "every operand promotes by its dtype"
                )
            return super()._resolve(tuple(Operand(OperandKind.ARRAY, d) for d in dtypes), trace)
        result, small = None, False
        for operand, cls in zip(signature, classes):
            if cls is None:
                dtype, is_small = operand.dtype, False
            else:
                dtype, is_small = cls
                if trace is not None:
                    trace.step(f"{Operand(operand.kind, operand.dtype)} counts by its {cls!r}")
            if result is None:
                result, small = dtype, is_small
                continue
            joined = _promote(dtype, result, is_small, small)
            if trace is not None:
                trace.step(f"promote_types({dtype.name}, {result.name}) = {joined.name}")
            result, small = joined, is_small and small
        return result

    def _object_error(self, signature):
        described = " and ".join(str(Operand(o.kind, o.dtype)) for o in signature)
        raise OverflowError(
            f"{described}: NumPy 1.26 holds a Python int outside [-2**63, 2**64) "
            f"only in an object array, which this namespace does not have (policy {self.name!r})"
        )

    def resolve(self, signature, op="result_type"):
        try:
            return super().resolve(signature, op)
        except OverflowError as exc:
            raise OverflowError(f"{op}: {exc}") from None

    # -- ufunc type resolution ------------------------------------------------------------
    def _decide(self, spec: OpSpec, common: DType, signature) -> Decision:
        name = spec.name
        dtypes = [self._dtype_of(o, self._value_class(o)) for o in signature]
        if name in REFUSE_ALL_BOOL and all(d is b1 for d in dtypes):
            raise PromotionError(
                f"{name}: {REFUSE_ALL_BOOL[name]} ({describe_signature(signature)}) (policy {self.name!r})"
            )
        if name in ("real", "imag"):
            return Decision(common, D.REAL_OF.get(common, common))
        if name == "round":
            compute = f2 if common is b1 else common
            return Decision(compute, compute)
        if name == "divide" and all(d.category <= D.CATEGORY_INTEGER for d in dtypes):
            return Decision(f8, f8)  # PyUFunc_TrueDivisionTypeResolver: integers divide in double
        loops = _LOOPS.get(name)
        if name in _BY_RESULT_TYPE or loops is None:  # where, clip: np.result_type too
            if loops is not None and not any(all(t is common for t in ins) for ins, _ in loops):
                raise PromotionError(
                    f"{name}: ufunc {name!r} has no loop for {common.name} ({describe_signature(signature)}) "
                    f"(policy {self.name!r})"
                )
            return Decision(common, b1 if name in _BOOL_RESULT else common)
        by_value = self._uses_values(signature)
        for loop_in, loop_out in loops:
            if all(self._casts_safely(o, t, by_value) for o, t in zip(signature, loop_in)):
                compute = loop_in[0] if len(set(loop_in)) == 1 else common
                return Decision(compute, loop_out)
        raise PromotionError(
            f"{name}: ufunc {name!r} not supported for {describe_signature(signature)}: no loop the "
            f"inputs cast to safely (policy {self.name!r})"
        )

    def _casts_safely(self, operand, to: DType, by_value: bool) -> bool:
        """``ufunc_loop_matches``: a 0-d input casts by its value class when values count."""
        if operand.kind is OperandKind.ARRAY:
            return self.table.join(operand.dtype, to) is to
        cls = self._value_class(operand)
        if by_value:
            dtype = cls.dtype
            if cls.small_unsigned and to.kind != D.UNSIGNED_INTEGER:
                dtype = _SIGNED_OF[dtype]
        else:
            dtype = self._dtype_of(operand, cls)
        return dtype is not None and self.table.join(dtype, to) is to

    def _why_compute(self, spec):
        return "NumPy 1.26 picks the first ufunc loop every input casts to safely, 0-d inputs by value"

    # -- Python scalars --------------------------------------------------------------------
    def check_scalar(self, value, dtype, op):
        """Value-based promotion always picks a dtype that holds the scalar."""

    def create_scalar(self, value, dtype, op="asarray"):
        """``np.asarray(value, dtype)`` in NumPy 1.26: a float into an integer dtype truncates,
        any number into bool is its truth, an out-of-range int wraps (with a warning); only a
        complex into a real dtype raises."""
        if type(value) is complex and dtype.category != D.CATEGORY_COMPLEX:
            raise TypeError(f"{op}: can't convert complex to {dtype.name} (policy {self.name!r})")
        if type(value) is float and dtype.category == D.CATEGORY_INTEGER:
            if not math.isfinite(value):
                raise ValueError(f"{op}: cannot convert float {value} to integer (policy {self.name!r})")
            if not -(2.0**63) <= value < 2.0**63:
                raise OverflowError(
                    f"{op}: float {value} is too large to convert to {dtype.name} (policy {self.name!r})"
                )
            value = int(value)  # C's truncation toward zero, then the int rule
        return self.convert_scalar(value, dtype, op)

    def convert_scalar(self, value, dtype, op="asarray"):
        """As ``np.asarray(value, dtype)`` in NumPy 1.26: an out-of-range int wraps, with a warning."""
        if type(value) is int and dtype.category == D.CATEGORY_INTEGER and not self.int_fits(value, dtype):
            if not _QUIET.on:
                warnings.warn(
                    f"{op}: Python int {value} is out of bounds for {dtype.name} and wraps around, "
                    f"as NumPy 1.26 does (policy {self.name!r}); NumPy 2 raises here",
                    DeprecationWarning,
                    stacklevel=3,
                )
            value = self.wrap_int(value, dtype)
        with np.errstate(over="ignore"):
            try:
                return np.asarray(value, dtype=dtype.numpy)
            except OverflowError:  # a huge int into a float: inf
                return np.asarray(math.copysign(math.inf, value), dtype=dtype.numpy)

    # -- NumPy's own functions the standard's do not model ---------------------------------------
    def numpy_arange(self, start, stop=None, step=None, *, dtype: DType | None = None) -> DType:
        """The dtype of ``np.arange(start, stop, step, dtype=dtype)`` under NumPy 1.26 (Python int and
        float arguments), or its refusal.  The length is ``ceil((stop - start) / step)`` in double;
        only the first two values are converted to ``dtype`` (an out-of-range int wraps: NumPy 2
        raises there), so ``arange(625, dtype=uint8)`` is a uint8 array (its values wrap).  Without a
        dtype: the promotion of each argument as ``np.asarray`` makes it (int64; uint64 in
        [2**63, 2**64), so int64 with uint64 is float64; float64)."""
        if stop is None:
            start, stop = 0, start
        step = 1 if step is None else step
        if step == 0:
            raise ZeroDivisionError("arange: division by zero (NumPy 1.26)")
        length = (stop - start) / step
        if not math.isfinite(length):
            raise ValueError("arange: cannot compute length (NumPy 1.26)")
        length = math.ceil(length)
        if not -(2**63) <= length <= 2**63 - 1:  # the length, of either sign, as an intp
            raise ValueError("arange: Maximum allowed size exceeded (NumPy 1.26)")
        if dtype is None:
            found = [f8 if type(v) is float else _numpy_int(v) for v in (start, stop, step)]
            if None in found:
                raise OverflowError(
                    f"arange: NumPy 1.26 makes an object array of {start}, {stop}, {step}, which this namespace "
                    f"does not have (policy {self.name!r})"
                )
            dtype = found[0]
            for other in found[1:]:
                dtype = NUMPY_TABLE.join(dtype, other)  # type: ignore[arg-type]
        if dtype.category == D.CATEGORY_BOOL and length > 2:
            raise TypeError("arange: only supported for booleans when the result has at most length 2 (NumPy 1.26)")
        if length > 0 and dtype.category == D.CATEGORY_INTEGER:
            # each of the first two values becomes a C long (an unsigned long long for uint32, uint64)
            high = 2**64 if dtype in (u4, u8) else 2**63
            for value in (start, start + step)[: min(length, 2)]:
                if type(value) is float and not math.isfinite(value):
                    raise ValueError(f"arange: cannot convert float {value} to integer (NumPy 1.26)")
                if not -(2**63) <= int(value) < high:
                    raise OverflowError(f"arange: Python int {int(value)} too large to convert to C long (NumPy 1.26)")
        return dtype


class _Quiet(threading.local):
    on = False


_QUIET = _Quiet()


@contextlib.contextmanager
def quiet_conversions():
    """In this thread, no ``DeprecationWarning`` for a wrapped Python int (the NumPy audit runs this
    policy beside a program whose warnings are its own; the warning filters are not touched)."""
    before, _QUIET.on = _QUIET.on, True
    try:
        yield
    finally:
        _QUIET.on = before


def _numpy_int(value: int) -> DType | None:
    """The dtype ``np.asarray(value)`` gives a Python int in NumPy 1.26 (None: object)."""
    if -(2**63) <= value <= _INT64_MAX:
        return i8
    return u8 if value < 2**64 else None


def _promote(a: DType, b: DType, a_small: bool, b_small: bool) -> DType:
    """NumPy 1.x ``promote_types`` with the "small unsigned" flags: a small unsigned value
    meeting a signed or floating type counts as the signed type of its size."""
    if a_small and b.kind not in (D.BOOL, D.UNSIGNED_INTEGER):
        a = _SIGNED_OF[a]
    elif b_small and a.kind not in (D.BOOL, D.UNSIGNED_INTEGER):
        b = _SIGNED_OF[b]
    return NUMPY_TABLE.join(a, b)
