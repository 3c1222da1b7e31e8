"""PaddlePaddle 3.3's promotion rules, as its dynamic-graph mode applies them on CPU.

Everything Paddle-specific lives in this module.  Paddle's promotion is PyTorch's in its
structure (``phi::GetPromoteDtype`` follows ``c10::promoteTypes``; a 0-d tensor and a Python
number join an n-d tensor only when their category is higher, a Python float takes the
default dtype float32), so the policy is the ``torch`` policy with Paddle's differences,
each of them data below:

* ``_tensor_pair_allowed``: between two n-d tensors of different dtypes Paddle promotes
  only floating with floating and complex with anything ("Type promotion only support
  calculations between floating-point numbers and between complex and real numbers");
  ``int8 + int16`` tensors, ``bool + int8``, ``int32 + float32`` are a ``TypeError``.
  0-d tensors and Python numbers are exempt (``int8 n-d + 0-d int16`` is int8).
* ``paddle.where`` applies that check to every pair of operands, 0-d tensors and Python
  numbers (as tensors of their default dtype) included.
* Dtypes: no uint16/uint32/uint64 (a NumPy uint16 array becomes bfloat16's bits, NumPy
  uint32/uint64 are refused); ``paddle.to_tensor`` of a Python int is int64.
* Operations: ``bool / bool`` is bool; ``sum`` accumulates bool and int32 in int64 and keeps
  the other dtypes (int8 stays int8); ``mean`` and ``prod`` keep the dtype (``mean`` of
  int32 is int32).

A missing CPU kernel (Paddle has no CPU ``add`` for float16 tensors, no ``prod`` of int8) is
not a promotion rule: the namespace computes in the dtype Paddle's promotion gives.  The tests
compare this module with golden tables generated from real PaddlePaddle
(``tools/gen_paddle_golden.py`` -> ``tests/data/paddle_3.3.1_promotion.json``).
"""

from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from .._dtypes import DType
from ._ops import OpSpec
from ._policy import Decision, LargeInt, Operand, OperandKind, PromotionError
from .torch import TorchPolicy

__all__ = ["PaddlePolicy"]

_F, _X = D.CATEGORY_FLOATING, D.CATEGORY_COMPLEX
# A Python number as paddle.where makes it a tensor: its default dtype.
_NUMBER_TENSOR = {bool: D.bool_, int: D.int64, LargeInt: D.int64, float: D.float32, complex: D.complex64}
# sum: what Paddle accumulates in (others keep their dtype).
_SUM_ACCUMULATES = {D.bool_: D.int64, D.int32: D.int64}


# Operations whose 0-d tensors promote like n-d ones (no priority between them).
_PLAIN_OPS = frozenset({"floor_divide", "where"})


def _all_nd(signature):
    """``signature`` with every 0-d tensor counted as an n-d one."""
    return tuple(Operand(OperandKind.ARRAY, o.dtype) if o.kind is OperandKind.ZERO_D else o for o in signature)


def _tensor_pair_allowed(a: DType, b: DType) -> bool:
    """Whether Paddle promotes two tensors of dtypes ``a`` and ``b`` at all."""
    return a is b or (a.category == _F and b.category == _F) or _X in (a.category, b.category)


def _refuse_pair(name: str | None, a: DType, b: DType, policy: str):
    """(``name`` None: ``resolve`` names the operation itself.)"""
    prefix = f"{name}: " if name else ""
    raise PromotionError(
        f"{prefix}Paddle promotes tensors of different dtypes only floating with floating and complex "
        f"with real, got {a.name} and {b.name} (policy {policy!r})"
    )


class PaddlePolicy(TorchPolicy):
    """PaddlePaddle 3.3 (dynamic graph, CPU): torch's structure, but no promotion between
    n-d tensors unless both are floating or one is complex."""

    # torch's dtypes but uint16/uint32/uint64, which Paddle does not have
    dtypes: tuple[DType, ...] = tuple(d for d in TorchPolicy.dtypes if d not in (D.uint16, D.uint32, D.uint64))
    clip_number_bounds = False
    scalar_pair_functions = frozenset()
    numpy_array_dtypes: dict[str, str] = {}
    # paddle.to_tensor([1]) // 0 and % 0: "InvalidArgumentError: Integer division by zero
    # encountered in (floor/trunc) divide" (PaddlePaddle 3.3.1, CPU; a paddle.EnforceNotMet; the
    # golden table's division_by_zero records)
    integer_division_by_zero = "raise"

    def __init__(self):
        super().__init__(D.float32)
        self.name = "paddle"

    @property
    def summary(self) -> str:
        return "PaddlePaddle 3.3: torch's promotion, but n-d tensors promote only floating with floating and complex with real."

    def _resolve(self, signature, trace):
        # a Python int beyond int64 is an int64 wrapped number (Paddle has no uint64)
        signature = tuple(Operand(o.kind, int) if o.dtype is LargeInt else o for o in signature)
        self._check_pairs(None, [o.dtype for o in signature if o.kind is OperandKind.ARRAY])
        categories = {o.dtype.category == _X for o in signature if o.kind is not OperandKind.SCALAR}
        if categories == {True, False}:
            # complex and real tensors: every tensor promotes alike, 0-d or not (float32 n-d +
            # 0-d complex128 is complex128; complex64 n-d + 0-d complex128 stays complex64)
            if trace is not None:
                trace.step("complex and real tensors take part: 0-d tensors promote like n-d ones")
            return super()._resolve(_all_nd(signature), trace)
        return super()._resolve(signature, trace)

    def _check_pairs(self, name, dtypes) -> None:
        for a in dtypes:
            for b in dtypes:
                if not _tensor_pair_allowed(a, b):
                    _refuse_pair(name, a, b, self.name)

    def decide(self, spec: OpSpec, signature) -> Decision:
        name = spec.name
        if name not in _PLAIN_OPS:
            return super().decide(spec, signature)
        if name == "where":  # every operand is a tensor, Python numbers of their default dtype
            self._check_pairs(
                name, [_NUMBER_TENSOR[o.dtype] if o.kind is OperandKind.SCALAR else o.dtype for o in signature]
            )
        else:
            self._check_pairs(name, [o.dtype for o in signature if o.kind is OperandKind.ARRAY])
        # floor_divide and where: 0-d tensors promote like n-d ones (uint8 n-d // 0-d int8 is int16)
        plain = _all_nd(signature)
        scalar = None
        if name == "where":  # a Python number is a tensor of its default dtype (float16 with 1.5: float32)
            numbers = [o for o in signature if o.kind is OperandKind.SCALAR]
            if len(numbers) == 1:
                scalar = _NUMBER_TENSOR[numbers[0].dtype]
            plain = tuple(Operand(OperandKind.ARRAY, _NUMBER_TENSOR[o.dtype]) if o in numbers else o for o in plain)
        common = TorchPolicy._resolve(self, plain, None)
        decision = self._decide(spec, common, plain)
        return decision._replace(scalar=scalar) if scalar is not None else decision

    def check_scalar_value(self, value, op):
        pass  # Paddle wraps any Python int (int8 tensor + 2**63 holds 1)

    def convert_scalar(self, value, dtype, op="asarray"):
        """As an operand everywhere: Paddle does not check where's scalars (1e39 is inf in float32)."""
        if op == "where":
            self.check_scalar(value, dtype, op)
            if type(value) is int and dtype.category == D.CATEGORY_INTEGER:
                value = self.wrap_int(value, dtype)
            with np.errstate(over="ignore"):
                if type(value) is int and dtype.category >= _F:
                    value = float(value)
                return np.asarray(value, dtype=dtype.numpy)
        return super().convert_scalar(value, dtype, op)

    def _decide(self, spec: OpSpec, common: DType, signature) -> Decision:
        if spec.name == "divide" and common is D.bool_:
            return Decision(D.bool_, D.bool_)  # bool / bool is bool (True / True is True)
        if (
            spec.name == "divide"
            and common.category == _X
            and all(o.kind is not OperandKind.ARRAY for o in signature)
            and any(o.kind is OperandKind.SCALAR and o.dtype is complex for o in signature)
        ):
            # a 0-d tensor divided with a Python complex: complex64 whatever the tensor's precision
            return Decision(D.complex64, D.complex64)
        return super()._decide(spec, common, signature)

    def _why_compute(self, spec):
        if spec.name == "divide":
            return "Paddle divides bools as bools"
        return super()._why_compute(spec)

    def accumulation_dtype(self, op, dtype):
        if op == "sum":
            return _SUM_ACCUMULATES.get(dtype, dtype)
        return dtype  # prod, cumulative_*: the input's dtype

    def function_dtype(self, op, dtype):
        if op == "mean":
            return Decision(dtype, dtype)  # paddle.mean keeps the dtype (int32 -> int32)
        return super().function_dtype(op, dtype)
