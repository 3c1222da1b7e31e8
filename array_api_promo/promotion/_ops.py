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

    SAME = "same"                  # result dtype = promoted input dtype
    FLOAT = "float"                # a floating result: integer/bool input is outside the standard's domain; torch promotes it to the default float (INT_TO_FLOAT)
    BOOL = "bool"                  # computed in the promoted dtype, result is bool (ALWAYS_BOOL)
    REAL = "real"                  # complex input gives the real dtype of the same precision (COMPLEX_TO_FLOAT)
    BOOL_TO_LONG = "bool_to_long"  # like SAME, but bool input gives int64 (torch's square)
    FIRST = "first"                # the first operand's dtype; the others must not change it (the standard's clip)


class OpSpec:
    """One operation: its name, arity, input domain and result kind."""

    __slots__ = ("name", "arity", "domain", "result", "operator")

    def __init__(self, name: str, arity: int, domain: Domain, result: ResultKind, operator: str | None = None):
        self.name = name
        self.arity = arity
        self.domain = domain
        self.result = result
        self.operator = operator

    def __repr__(self) -> str:
        return f"OpSpec({self.name!r})"


_D, _R = Domain, ResultKind
_UNARY = {
    "abs": (_D.NUMERIC, _R.REAL, "abs()"),
    "acos": (_D.FLOATING, _R.FLOAT, None),
    "acosh": (_D.FLOATING, _R.FLOAT, None),
    "asin": (_D.FLOATING, _R.FLOAT, None),
    "asinh": (_D.FLOATING, _R.FLOAT, None),
    "atan": (_D.FLOATING, _R.FLOAT, None),
    "atanh": (_D.FLOATING, _R.FLOAT, None),
    "bitwise_invert": (_D.INTEGER_OR_BOOLEAN, _R.SAME, "~"),
    "ceil": (_D.REAL_VALUED, _R.SAME, None),
    "conj": (_D.NUMERIC, _R.SAME, None),
    "cos": (_D.FLOATING, _R.FLOAT, None),
    "cosh": (_D.FLOATING, _R.FLOAT, None),
    "exp": (_D.FLOATING, _R.FLOAT, None),
    "expm1": (_D.FLOATING, _R.FLOAT, None),
    "floor": (_D.REAL_VALUED, _R.SAME, None),
    "imag": (_D.NUMERIC, _R.REAL, None),
    "isfinite": (_D.NUMERIC, _R.BOOL, None),
    "isinf": (_D.NUMERIC, _R.BOOL, None),
    "isnan": (_D.NUMERIC, _R.BOOL, None),
    "log": (_D.FLOATING, _R.FLOAT, None),
    "log1p": (_D.FLOATING, _R.FLOAT, None),
    "log2": (_D.FLOATING, _R.FLOAT, None),
    "log10": (_D.FLOATING, _R.FLOAT, None),
    "logical_not": (_D.BOOLEAN, _R.SAME, None),
    "negative": (_D.NUMERIC, _R.SAME, "unary -"),
    "positive": (_D.NUMERIC, _R.SAME, "unary +"),
    "real": (_D.NUMERIC, _R.REAL, None),
    "reciprocal": (_D.FLOATING, _R.FLOAT, None),
    "round": (_D.NUMERIC, _R.SAME, None),
    "sign": (_D.NUMERIC, _R.SAME, None),
    "signbit": (_D.REAL_FLOATING, _R.BOOL, None),
    "sin": (_D.FLOATING, _R.FLOAT, None),
    "sinh": (_D.FLOATING, _R.FLOAT, None),
    "sqrt": (_D.FLOATING, _R.FLOAT, None),
    "square": (_D.NUMERIC, _R.SAME, None),
    "tan": (_D.FLOATING, _R.FLOAT, None),
    "tanh": (_D.FLOATING, _R.FLOAT, None),
    "trunc": (_D.REAL_VALUED, _R.SAME, None),
}
_BINARY = {
    "add": (_D.NUMERIC, _R.SAME, "+"),
    "atan2": (_D.REAL_FLOATING, _R.FLOAT, None),
    "bitwise_and": (_D.INTEGER_OR_BOOLEAN, _R.SAME, "&"),
    "bitwise_left_shift": (_D.INTEGER, _R.SAME, "<<"),
    "bitwise_or": (_D.INTEGER_OR_BOOLEAN, _R.SAME, "|"),
    "bitwise_right_shift": (_D.INTEGER, _R.SAME, ">>"),
    "bitwise_xor": (_D.INTEGER_OR_BOOLEAN, _R.SAME, "^"),
    "copysign": (_D.REAL_FLOATING, _R.FLOAT, None),
    "divide": (_D.FLOATING, _R.FLOAT, "/"),
    "equal": (_D.ANY, _R.BOOL, "=="),
    "floor_divide": (_D.REAL_VALUED, _R.SAME, "//"),
    "greater": (_D.REAL_VALUED, _R.BOOL, ">"),
    "greater_equal": (_D.REAL_VALUED, _R.BOOL, ">="),
    "hypot": (_D.REAL_FLOATING, _R.FLOAT, None),
    "less": (_D.REAL_VALUED, _R.BOOL, "<"),
    "less_equal": (_D.REAL_VALUED, _R.BOOL, "<="),
    "logaddexp": (_D.REAL_FLOATING, _R.FLOAT, None),
    "logical_and": (_D.BOOLEAN, _R.SAME, None),
    "logical_or": (_D.BOOLEAN, _R.SAME, None),
    "logical_xor": (_D.BOOLEAN, _R.SAME, None),
    "maximum": (_D.REAL_VALUED, _R.SAME, None),
    "minimum": (_D.REAL_VALUED, _R.SAME, None),
    "multiply": (_D.NUMERIC, _R.SAME, "*"),
    "nextafter": (_D.REAL_FLOATING, _R.SAME, None),
    "not_equal": (_D.ANY, _R.BOOL, "!="),
    "pow": (_D.NUMERIC, _R.SAME, "**"),
    "remainder": (_D.REAL_VALUED, _R.SAME, "%"),
    "subtract": (_D.NUMERIC, _R.SAME, "-"),
    "matmul": (_D.NUMERIC, _R.SAME, "@"),
    "clip": (_D.REAL_VALUED, _R.FIRST, None),
    "where": (_D.ANY, _R.SAME, None),
}

OPS: dict[str, OpSpec] = {}
for _name, (_domain, _result, _operator) in _UNARY.items():
    OPS[_name] = OpSpec(_name, 1, _domain, _result, _operator)
for _name, (_domain, _result, _operator) in _BINARY.items():
    OPS[_name] = OpSpec(_name, 2, _domain, _result, _operator)
# Promotion with no operation attached (``result_type``, ``concat``, ``stack``, ...).
OPS["result_type"] = OpSpec("result_type", 2, _D.ANY, _R.SAME)


def op_spec(name: str) -> OpSpec:
    try:
        return OPS[name]
    except KeyError:
        raise ValueError(f"unknown operation {name!r}") from None
