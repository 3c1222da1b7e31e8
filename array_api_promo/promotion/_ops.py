"""What each operation accepts and how its result dtype follows its inputs.

Every operation is described once, with the standard's words: its input
*domain* (the category the standard says an argument "should have") and its
*result kind*, the small per-op rule that PyTorch's ``_prims_common`` calls
``ELEMENTWISE_TYPE_PROMOTION_KIND``.  Policies read these descriptions; no
policy has code for an individual function except where its real library
has a rule the description cannot carry (kept in that policy's module).
"""

from __future__ import annotations

import enum

from .._dtypes import (
    BOOL,
    COMPLEX_FLOATING,
    REAL_FLOATING,
    SIGNED_INTEGER,
    UNSIGNED_INTEGER,
)

__all__ = ["Domain", "ResultKind", "OpSpec", "OPS", "op_spec"]


class Domain(enum.Enum):
    """Input categories in the standard's words."""

    ANY = ("any", frozenset({BOOL, SIGNED_INTEGER, UNSIGNED_INTEGER, REAL_FLOATING, COMPLEX_FLOATING}))
    NUMERIC = ("numeric", frozenset({SIGNED_INTEGER, UNSIGNED_INTEGER, REAL_FLOATING, COMPLEX_FLOATING}))
    REAL_VALUED = ("real-valued", frozenset({SIGNED_INTEGER, UNSIGNED_INTEGER, REAL_FLOATING}))
    FLOATING = ("floating-point", frozenset({REAL_FLOATING, COMPLEX_FLOATING}))
    REAL_FLOATING = ("real-valued floating-point", frozenset({REAL_FLOATING}))
    INTEGER = ("integer", frozenset({SIGNED_INTEGER, UNSIGNED_INTEGER}))
    INTEGER_OR_BOOLEAN = ("integer or boolean", frozenset({BOOL, SIGNED_INTEGER, UNSIGNED_INTEGER}))
    BOOLEAN = ("boolean", frozenset({BOOL}))

    def __init__(self, words: str, kinds: frozenset):
        self.words = words
        self.kinds = kinds

    def admits(self, dtype) -> bool:
        return dtype.kind in self.kinds


class ResultKind(enum.Enum):
    """How the output dtype follows the computation dtype."""

    SAME = "same"  # result dtype = promoted input dtype
    FLOAT = "float"  # a floating result: integer/bool input is outside the standard's domain; torch promotes it to the default float (INT_TO_FLOAT)
    BOOL = "bool"  # computed in the promoted dtype, result is bool (ALWAYS_BOOL)
    REAL = "real"  # complex input gives the real dtype of the same precision (COMPLEX_TO_FLOAT)
    BOOL_TO_LONG = "bool_to_long"  # like SAME, but bool input gives int64 (torch's square)
    FIRST = "first"  # the first operand's dtype; the others must not change it (the standard's clip)


class OpSpec:
    """One operation: its name, arity, input domain and result kind."""

    __slots__ = ("name", "arity", "domain", "result")

    def __init__(self, name: str, arity: int, domain: Domain, result: ResultKind):
        self.name = name
        self.arity = arity
        self.domain = domain
        self.result = result

    def __repr__(self) -> str:
        return f"OpSpec({self.name!r})"


_D, _R = Domain, ResultKind
_UNARY = {
    "abs": (_D.NUMERIC, _R.REAL),
    "acos": (_D.FLOATING, _R.FLOAT),
    "acosh": (_D.FLOATING, _R.FLOAT),
    "asin": (_D.FLOATING, _R.FLOAT),
    "asinh": (_D.FLOATING, _R.FLOAT),
    "atan": (_D.FLOATING, _R.FLOAT),
    "atanh": (_D.FLOATING, _R.FLOAT),
    "bitwise_invert": (_D.INTEGER_OR_BOOLEAN, _R.SAME),
    "ceil": (_D.REAL_VALUED, _R.SAME),
    "conj": (_D.NUMERIC, _R.SAME),
    "cos": (_D.FLOATING, _R.FLOAT),
    "cosh": (_D.FLOATING, _R.FLOAT),
    "exp": (_D.FLOATING, _R.FLOAT),
    "expm1": (_D.FLOATING, _R.FLOAT),
    "floor": (_D.REAL_VALUED, _R.SAME),
    "imag": (_D.NUMERIC, _R.REAL),
    "isfinite": (_D.NUMERIC, _R.BOOL),
    "isinf": (_D.NUMERIC, _R.BOOL),
    "isnan": (_D.NUMERIC, _R.BOOL),
    "log": (_D.FLOATING, _R.FLOAT),
    "log1p": (_D.FLOATING, _R.FLOAT),
    "log2": (_D.FLOATING, _R.FLOAT),
    "log10": (_D.FLOATING, _R.FLOAT),
    "logical_not": (_D.BOOLEAN, _R.SAME),
    "negative": (_D.NUMERIC, _R.SAME),
    "positive": (_D.NUMERIC, _R.SAME),
    "real": (_D.NUMERIC, _R.REAL),
    "reciprocal": (_D.FLOATING, _R.FLOAT),
    "round": (_D.NUMERIC, _R.SAME),
    "sign": (_D.NUMERIC, _R.SAME),
    "signbit": (_D.REAL_FLOATING, _R.BOOL),
    "sin": (_D.FLOATING, _R.FLOAT),
    "sinh": (_D.FLOATING, _R.FLOAT),
    "sqrt": (_D.FLOATING, _R.FLOAT),
    "square": (_D.NUMERIC, _R.SAME),
    "tan": (_D.FLOATING, _R.FLOAT),
    "tanh": (_D.FLOATING, _R.FLOAT),
    "trunc": (_D.REAL_VALUED, _R.SAME),
}
_BINARY = {
    "add": (_D.NUMERIC, _R.SAME),
    "atan2": (_D.REAL_FLOATING, _R.FLOAT),
    "bitwise_and": (_D.INTEGER_OR_BOOLEAN, _R.SAME),
    "bitwise_left_shift": (_D.INTEGER, _R.SAME),
    "bitwise_or": (_D.INTEGER_OR_BOOLEAN, _R.SAME),
    "bitwise_right_shift": (_D.INTEGER, _R.SAME),
    "bitwise_xor": (_D.INTEGER_OR_BOOLEAN, _R.SAME),
    "copysign": (_D.REAL_FLOATING, _R.FLOAT),
    "divide": (_D.FLOATING, _R.FLOAT),
    "equal": (_D.ANY, _R.BOOL),
    "floor_divide": (_D.REAL_VALUED, _R.SAME),
    "greater": (_D.REAL_VALUED, _R.BOOL),
    "greater_equal": (_D.REAL_VALUED, _R.BOOL),
    "hypot": (_D.REAL_FLOATING, _R.FLOAT),
    "less": (_D.REAL_VALUED, _R.BOOL),
    "less_equal": (_D.REAL_VALUED, _R.BOOL),
    "logaddexp": (_D.REAL_FLOATING, _R.FLOAT),
    "logical_and": (_D.BOOLEAN, _R.SAME),
    "logical_or": (_D.BOOLEAN, _R.SAME),
    "logical_xor": (_D.BOOLEAN, _R.SAME),
    "maximum": (_D.REAL_VALUED, _R.SAME),
    "minimum": (_D.REAL_VALUED, _R.SAME),
    "multiply": (_D.NUMERIC, _R.SAME),
    "nextafter": (_D.REAL_FLOATING, _R.SAME),
    "not_equal": (_D.ANY, _R.BOOL),
    "pow": (_D.NUMERIC, _R.SAME),
    "remainder": (_D.REAL_VALUED, _R.SAME),
    "subtract": (_D.NUMERIC, _R.SAME),
    "matmul": (_D.NUMERIC, _R.SAME),
    "clip": (_D.REAL_VALUED, _R.FIRST),
    "where": (_D.ANY, _R.SAME),
}

OPS: dict[str, OpSpec] = {}
for _name, (_domain, _result) in _UNARY.items():
    OPS[_name] = OpSpec(_name, 1, _domain, _result)
for _name, (_domain, _result) in _BINARY.items():
    OPS[_name] = OpSpec(_name, 2, _domain, _result)
# The elementwise functions of two operands that a library computing two Python scalars
# (NumPy's ufuncs, jax.numpy) computes, and ``where``: ``Policy.scalar_pair_functions``.
ELEMENTWISE_PAIR_FUNCTIONS = frozenset(_BINARY) - {"matmul", "clip"}
# Promotion with no operation attached (``result_type``, ``concat``, ``stack``, ...).
OPS["result_type"] = OpSpec("result_type", 2, _D.ANY, _R.SAME)


def op_spec(name: str) -> OpSpec:
    try:
        return OPS[name]
    except KeyError:
        raise ValueError(f"unknown operation {name!r}") from None
