"""Pluggable type promotion: the policy interface, its building blocks and the built-in policies.

>>> from array_api_promo import promotion
>>> from array_api_promo._dtypes import int8, float32
>>> promotion.get_policy("torch").result_type(promotion.nd(int8), 1.5)
array_api_promo.float32
"""

import importlib as _importlib

from ._lattice import PromotionTable
from ._ops import OPS, Domain, OpSpec, ResultKind, op_spec
from ._policy import (
    INDEXING_REFUSALS,
    UNDEFINED_REFUSALS,
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
    defer_policy,
    get_policy,
    nd,
    register_policy,
    scalar_type,
    zero_d,
    zero_d_value,
)
from .array_api import ARRAY_API_LATTICE, ArrayAPIPolicy


def _rules(module: str):
    return _importlib.import_module(f"{__name__}.{module}")


register_policy(ArrayAPIPolicy())
# The other built-ins are made on first use, not at import (their modules are milliseconds of it):
# by get_policy(name), or by a name of theirs read from this package (__getattr__).
defer_policy("torch", lambda: _rules("torch").torch_policy())
defer_policy("torch@2.13", lambda: _rules("torch").torch_policy(version="2.13"))
defer_policy("numpy", lambda: _rules("numpy").NumPyPolicy())
defer_policy("numpy@2.4", lambda: _rules("numpy").NumPyPolicy(version="2.4"))
defer_policy("numpy_legacy", lambda: _rules("numpy_legacy").NumPyLegacyPolicy())
defer_policy("jax", lambda: _rules("jax")._jax_policy("jax"))
defer_policy("jax_x64", lambda: _rules("jax")._jax_policy("jax_x64"))
defer_policy("jax_explicit_x64", lambda: _rules("jax")._jax_policy("jax_explicit_x64"))
defer_policy("megengine", lambda: _rules("megengine").MegEnginePolicy())
defer_policy("paddle", lambda: _rules("paddle").PaddlePolicy())
defer_policy("mlx", lambda: _rules("mlx").MlxPolicy())

# Name -> the module of rules it comes from (a module's own name: the module).
_DEFERRED_NAMES = {
    **dict.fromkeys(["torch", "TORCH_TABLE", "TorchPolicy", "torch_policy"], "torch"),
    **dict.fromkeys(["numpy", "NUMPY_TABLE", "NumPyPolicy"], "numpy"),
    **dict.fromkeys(["numpy_legacy", "NumPyLegacyPolicy"], "numpy_legacy"),
    **dict.fromkeys(["jax", "JAX_LATTICE", "JAX_LATTICE_X32", "JaxPolicy", "_jax_policy"], "jax"),
    **dict.fromkeys(["megengine", "MegEnginePolicy", "megengine_promote"], "megengine"),
    **dict.fromkeys(["paddle", "PaddlePolicy"], "paddle"),
    **dict.fromkeys(["mlx", "MlxPolicy", "MLX_TABLE"], "mlx"),
}


def __getattr__(name: str):
    module = _DEFERRED_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    rules = _rules(module)
    value = rules if name == module else getattr(rules, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(globals().keys() | _DEFERRED_NAMES.keys())


__all__ = [
    "INDEXING_REFUSALS",
    "UNDEFINED_REFUSALS",
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
    "JAX_LATTICE_X32",
    "JaxPolicy",
    "MegEnginePolicy",
    "PaddlePolicy",
    "MlxPolicy",
    "LargeInt",
    "scalar_type",
]
