"""Pluggable type promotion: the policy interface, its building blocks and the built-in policies.

>>> from array_api_promo import promotion
>>> from array_api_promo._dtypes import int8, float32
>>> promotion.get_policy("torch").result_type(promotion.nd(int8), 1.5)
array_api_promo.float32
"""

from .._dtypes import float32
from ._lattice import PromotionTable
from ._ops import OPS, Domain, OpSpec, ResultKind, op_spec
from ._policy import (
    Decision,
    Explanation,
    LargeInt,
    Operand,
    OperandKind,
    Policy,
    PromotionError,
    ValueOperand,
    available_policies,
    classify,
    get_policy,
    nd,
    register_policy,
    scalar_type,
    zero_d,
    zero_d_value,
)
from .array_api import ARRAY_API_LATTICE, ArrayAPIPolicy
from .jax import JAX_LATTICE, JaxPolicy, _jax_policy
from .numpy import NUMPY_TABLE, NumPyPolicy
from .numpy_legacy import NumPyLegacyPolicy
from .torch import TORCH_TABLE, TorchPolicy, _torch_policy

register_policy(ArrayAPIPolicy())
register_policy(_torch_policy(float32))
register_policy(NumPyPolicy())
register_policy(NumPyLegacyPolicy())
register_policy(_jax_policy(False))
register_policy(_jax_policy(True))

__all__ = [
    "PromotionTable",
    "OPS",
    "Domain",
    "OpSpec",
    "ResultKind",
    "op_spec",
    "Decision",
    "Explanation",
    "Operand",
    "OperandKind",
    "ValueOperand",
    "NumPyLegacyPolicy",
    "Policy",
    "PromotionError",
    "available_policies",
    "classify",
    "get_policy",
    "nd",
    "register_policy",
    "zero_d",
    "zero_d_value",
    "ARRAY_API_LATTICE",
    "ArrayAPIPolicy",
    "TORCH_TABLE",
    "TorchPolicy",
    "NUMPY_TABLE",
    "NumPyPolicy",
    "JAX_LATTICE",
    "JaxPolicy",
    "LargeInt",
    "scalar_type",
]
