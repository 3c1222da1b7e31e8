"""MegEngine 1.13.0's promotion rules, as its eager (imperative) mode applies them on CPU.

Everything MegEngine-specific lives in this module.  An elementwise operation is decided
in two steps, each of them MegEngine's own code:

* ``_scalar_target``: the Python layer turns every operand that is not a tensor (a Python
  number) into a tensor (``convert_inputs`` -> ``_dtype_promotion`` in
  ``imperative/python/src/tensor_utils.cpp``).  Each operand has a category priority,
  float 3 > integer 2 > bool 1; a Python bool is a bool, an int an int32, a float a
  float32.  If the numbers' highest priority is above the tensors', they become the
  NumPy promotion of the numbers of that priority; otherwise the NumPy promotion of the
  tensors of the tensors' highest priority (``float16 tensor + 1000`` is float16; ``bool
  tensor + 1`` makes the 1 an int32).  The value is converted with wrap-around.
* ``megengine_promote``: the operator promotes every tensor pairwise, left to right
  (``mgb::dtype_promotion`` in ``src/core/impl/dtype.cpp``): equal dtypes stay; float16
  counts as float32 against anything else; different categories give float32 (bool + int8
  is float32); integers of different signedness are an error ("dtype promotion rule
  between different signedness is undefined"); otherwise the wider one.
* Operations (``dtype_promote.cpp``): true division of integers computes in float32;
  arithmetic takes no bool (the kernels' ``allow_bool``), and uint16 is a storage dtype
  with no arithmetic kernel; ``F.where`` takes tensors only; ``mean`` is float32,
  ``sum``/``prod`` keep an integer dtype and make bool int32.

A 0-d tensor is a tensor like any other (``int8 tensor + tensor(1)`` is int32).  MegEngine
has no 64-bit and no complex dtypes: a NumPy int64 or float64 array becomes int32 or
float32, and a Python complex is refused.

The tests compare this module with golden tables generated from real MegEngine 1.13.0
(``tools/gen_megengine_golden.py`` -> ``tests/data/megengine_1.13.0_promotion.json``).
"""

from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from .._dtypes import DType
from ._ops import OpSpec, ResultKind
from ._policy import Decision, LargeInt, OperandKind, Policy, PromotionError, describe_signature
from ._scalars import FLOAT_INT_END, int_text

__all__ = ["MegEnginePolicy", "megengine_promote"]

b1, u1, u2, i1, i2, i4, f2, f4 = D.bool_, D.uint8, D.uint16, D.int8, D.int16, D.int32, D.float16, D.float32
_B, _I, _F = D.CATEGORY_BOOL, D.CATEGORY_INTEGER, D.CATEGORY_FLOATING
_C_LONG_MIN, _C_LONG_MAX = -(2**63), 2**63 - 1

# The Python layer's category priority (``category_priority``) and a Python number's dtype
# (``scalar2dtype``).
_PRIORITY = {_B: 1, _I: 2, _F: 3}
_SCALAR_DTYPE = {bool: b1, int: i4, LargeInt: i4, float: f4}
# NumPy arrays given to ``megengine.tensor``: the 64-bit dtypes it narrows.
_NARROWED_NUMPY = {"int64": "int32", "float64": "float32"}
# Arithmetic (``allow_bool`` is false for every arithmetic Elemwise mode).
_NO_BOOL = frozenset(
    {"add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow", "negative", "positive", "abs"}
)
# Reductions: mean computes in float32 (``reduce_rule``), max/min keep the dtype.
_FLOAT32_REDUCTIONS = frozenset({"mean", "std", "var"})
_SAME_DTYPE_REDUCTIONS = frozenset({"max", "min"})
_ACCUMULATING = frozenset({"sum", "prod", "cumulative_sum", "cumulative_prod"})


def megengine_promote(a: DType, b: DType) -> DType:
    """``mgb::dtype_promotion(a, b)``: MegEngine's pairwise rule between two tensors."""
    if a is b:
        return a
    a = f4 if a is f2 else a  # float16 counts as float32 against any other dtype
    b = f4 if b is f2 else b
    if a.category != b.category:
        return f4
    if a.kind != b.kind:
        raise PromotionError(
            f"dtype promotion rule between different signedness is undefined: {a.name} {b.name} (policy 'megengine')"
        )
    return a if a.bits > b.bits else b


def _numpy_promote(dtypes) -> DType:
    """NumPy's promotion of dtypes of one category (what the Python layer asks NumPy for)."""
    result = dtypes[0]
    for d in dtypes[1:]:
        result = D.dtype_of_numpy(np.promote_types(result.numpy, d.numpy))
    return result


class MegEnginePolicy(Policy):
    """MegEngine 1.13.0 (eager, CPU): numbers take the tensors' dtype, tensors promote pairwise."""

    name = "megengine"
    dtypes = (b1, i1, i2, i4, u1, u2, f2, f4)
    default_int = i4
    default_uint = u1
    default_float = f4
    default_complex = None  # type: ignore[assignment]  # MegEngine has no complex dtype
    default_index = i4
    zero_d_matters = False  # a 0-d tensor is a tensor
    # np.float64(1.5) is a float, np.int64 an int (MegEngine reads NumPy scalars as numbers)
    numpy_scalars = {"b": bool, "i": int, "u": int, "f": float}
    # MegEngine 1.13 kills the process (SIGFPE) on integer // 0 and % 0: refused here instead
    integer_division_by_zero = "raise"
    numpy_array_dtypes = _NARROWED_NUMPY

    # -- the Python layer: what a Python number becomes --------------------------------
    def _scalar_target(self, signature, trace=None):
        """The dtype the Python numbers of ``signature`` are converted to (None: no numbers)."""
        tensors = [o.dtype for o in signature if o.kind is not OperandKind.SCALAR]
        numbers = [_SCALAR_DTYPE[o.dtype] for o in signature if o.kind is OperandKind.SCALAR]
        if not numbers:
            return None
        top_numbers = max(_PRIORITY[d.category] for d in numbers)
        top_tensors = max((_PRIORITY[d.category] for d in tensors), default=0)
        if top_numbers > top_tensors:
            target = _numpy_promote([d for d in numbers if _PRIORITY[d.category] == top_numbers])
            why = "the numbers' category is higher than the tensors'"
        else:
            target = _numpy_promote([d for d in tensors if _PRIORITY[d.category] == top_tensors])
            why = "the tensors' category is as high as the numbers'"
        if trace is not None:
            trace.step(f"Python numbers become {target.name} ({why})")
        return target

    # -- the operator: tensors promote pairwise ----------------------------------------
    def _resolve(self, signature, trace):
        for operand in signature:
            if operand.kind is OperandKind.SCALAR and operand.dtype is complex:
                raise PromotionError(f"MegEngine has no complex dtype: {operand} is refused (policy {self.name!r})")
        target = self._scalar_target(signature, trace)
        dtypes = [target if o.kind is OperandKind.SCALAR else o.dtype for o in signature]
        result = dtypes[0]
        for d in dtypes[1:]:
            joined = megengine_promote(result, d)
            if trace is not None and joined is not result:
                trace.step(f"dtype_promotion({result.name}, {d.name}) = {joined.name}")
            result = joined
        return result

    # -- Python numbers: converted with wrap-around -------------------------------------
    # MegEngine reads a Python int into an integer tensor as a C long (beyond it: "Python int too
    # large to convert to C long") and into a float tensor by float(); its creation calls
    # (``tensor(v, dtype=...)``, ``full``) read any int as a C long and make it an int32 first.
    def check_scalar_value(self, value, op):
        if type(value) is int and not -FLOAT_INT_END < value < FLOAT_INT_END:
            raise OverflowError(
                f"{op}: Python int {int_text(value)} is too large to convert to float (policy {self.name!r})"
            )

    def check_scalar(self, value, dtype, op):
        self.check_scalar_value(value, op)
        if type(value) is int and dtype.category <= _I and not _C_LONG_MIN <= value <= _C_LONG_MAX:
            raise OverflowError(
                f"{op}: Python int {int_text(value)} is too large to convert to C long, which MegEngine reads an "
                f"int into {dtype.name} as (policy {self.name!r})"
            )

    def convert_scalar(self, value, dtype, op="asarray"):
        """``np.array(value).astype(dtype)``: integers wrap, floats round (to inf beyond the range)."""
        if type(value) is complex:
            raise TypeError(f"{op}: MegEngine has no complex dtype: {value!r} is refused (policy {self.name!r})")
        self.check_scalar(value, dtype, op)
        if type(value) is int and dtype.category == _I:
            value = self.wrap_int(value, dtype)
        with np.errstate(over="ignore"):
            if type(value) is int and dtype.category == _F:
                value = float(value)
            return np.asarray(value, dtype=dtype.numpy)

    def convert_bound(self, value, dtype, bound="min"):
        return self.convert_scalar(value, dtype, "clip")  # F.clip converts a bound as an operand: it wraps

    def create_scalar(self, value, dtype, op="asarray"):
        if type(value) is float and dtype.category <= _I and value == value and abs(value) != float("inf"):
            value = int(value)  # megengine.tensor(1.5, dtype="int32") truncates
        if type(value) is int:
            # tensor(2**63 - 1, dtype="float32") holds -1.0: the int is read as a C long, made an int32
            self.check_scalar(value, i4, op)
            return np.asarray(self.wrap_int(value, i4)).astype(dtype.numpy)
        return self.convert_scalar(value, dtype, op)

    # -- operation rules -----------------------------------------------------------------
    def decide(self, spec: OpSpec, signature) -> Decision:
        if spec.name == "where":
            return self._where(signature)
        return super().decide(spec, signature)

    def _where(self, signature) -> Decision:
        """``F.where`` promotes by the Python layer's rule (``dtype_promotion(x, y)``), not the
        operator's: NumPy's promotion of the operands of the highest category (int8 with uint8
        is int16, bool with uint8 uint8); it takes tensors only and has no bool or uint16 kernel."""
        if any(o.kind is OperandKind.SCALAR for o in signature):
            raise PromotionError(
                f"where: MegEngine's where takes tensors only, got {describe_signature(signature)} (policy {self.name!r})"
            )
        dtypes = [o.dtype for o in signature]
        top = max(_PRIORITY[d.category] for d in dtypes)
        result = _numpy_promote([d for d in dtypes if _PRIORITY[d.category] == top])
        if result is b1 or result is u2:
            raise PromotionError(f"where: MegEngine has no {result.name} kernel for where (policy {self.name!r})")
        return Decision(result, result)

    def _decide(self, spec: OpSpec, common: DType, signature) -> Decision:
        name = spec.name
        compute = common
        if spec.result is ResultKind.FLOAT and common.category <= _I and common is not b1:
            compute = f4  # true division and floating functions of integers compute in float32
        elif not spec.domain.admits(common):
            raise PromotionError(
                f"{name}: MegEngine does not accept {describe_signature(signature)} ({D.CATEGORY_NAMES[common.category]} "
                f"input; {name} takes {spec.domain.words} input) (policy {self.name!r})"
            )
        if compute is b1 and name in _NO_BOOL:
            raise PromotionError(f"{name}: MegEngine has no bool kernel for {name} (policy {self.name!r})")
        if compute is u2 and spec.result is not ResultKind.BOOL:
            raise PromotionError(
                f"{name}: MegEngine stores uint16 but has no uint16 kernel for {name} (policy {self.name!r})"
            )
        # a Python number is a tensor of the Python layer's dtype first (int8 tensor / 1000
        # divides by int8(-24)); then the operator converts it with the tensors
        return Decision(compute, self.result_of_kind(spec.result, compute=compute), self._scalar_target(signature))

    def _why_compute(self, spec):
        if spec.name == "where":
            return (
                "F.where promotes by the Python layer's rule: NumPy's promotion of the operands of the highest category"
            )
        return "integer input to true division or a floating function computes in float32"

    def accumulation_dtype(self, op, dtype):
        # sum/prod keep an integer dtype; bool accumulates in int32
        return i4 if dtype is b1 else dtype

    def function_dtype(self, op, dtype):
        if op in _FLOAT32_REDUCTIONS:
            return Decision(f4, f4)  # reduce_rule: MEAN computes in float32
        if dtype is u2:
            raise PromotionError(
                f"{op}: MegEngine stores uint16 but has no uint16 kernel for {op} (policy {self.name!r})"
            )
        if op in _SAME_DTYPE_REDUCTIONS:
            return Decision(dtype, dtype)
        if op in _ACCUMULATING and dtype is b1:
            return Decision(i4, i4)  # reduce_rule: bool is summed as int32
        return super().function_dtype(op, dtype)
