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
__all__ += ["ACCUMULATING_FUNCTIONS", "REAL_TO_COMPLEX_FUNCTIONS", "COMPLEX_TO_REAL_FUNCTIONS"]
__all__ += ["REAL_RESULT_FUNCTIONS", "COUNT_RESULT_FUNCTIONS"]


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
# name -> (arity, domain, result kind): the standard's elementwise functions (and clip and where)
_ELEMENTWISE = {
    # one operand
    "abs": (1, _D.NUMERIC, _R.REAL),
    "acos": (1, _D.FLOATING, _R.FLOAT),
    "acosh": (1, _D.FLOATING, _R.FLOAT),
    "asin": (1, _D.FLOATING, _R.FLOAT),
    "asinh": (1, _D.FLOATING, _R.FLOAT),
    "atan": (1, _D.FLOATING, _R.FLOAT),
    "atanh": (1, _D.FLOATING, _R.FLOAT),
    "bitwise_invert": (1, _D.INTEGER_OR_BOOLEAN, _R.SAME),
    "ceil": (1, _D.REAL_VALUED, _R.SAME),
    "conj": (1, _D.NUMERIC, _R.SAME),
    "cos": (1, _D.FLOATING, _R.FLOAT),
    "cosh": (1, _D.FLOATING, _R.FLOAT),
    "exp": (1, _D.FLOATING, _R.FLOAT),
    "expm1": (1, _D.FLOATING, _R.FLOAT),
    "floor": (1, _D.REAL_VALUED, _R.SAME),
    "imag": (1, _D.NUMERIC, _R.REAL),
    "isfinite": (1, _D.NUMERIC, _R.BOOL),
    "isinf": (1, _D.NUMERIC, _R.BOOL),
    "isnan": (1, _D.NUMERIC, _R.BOOL),
    "log": (1, _D.FLOATING, _R.FLOAT),
    "log1p": (1, _D.FLOATING, _R.FLOAT),
    "log2": (1, _D.FLOATING, _R.FLOAT),
    "log10": (1, _D.FLOATING, _R.FLOAT),
    "logical_not": (1, _D.BOOLEAN, _R.SAME),
    "negative": (1, _D.NUMERIC, _R.SAME),
    "positive": (1, _D.NUMERIC, _R.SAME),
    "real": (1, _D.NUMERIC, _R.REAL),
    "reciprocal": (1, _D.FLOATING, _R.FLOAT),
    "round": (1, _D.NUMERIC, _R.SAME),
    "sign": (1, _D.NUMERIC, _R.SAME),
    "signbit": (1, _D.REAL_FLOATING, _R.BOOL),
    "sin": (1, _D.FLOATING, _R.FLOAT),
    "sinh": (1, _D.FLOATING, _R.FLOAT),
    "sqrt": (1, _D.FLOATING, _R.FLOAT),
    "square": (1, _D.NUMERIC, _R.SAME),
    "tan": (1, _D.FLOATING, _R.FLOAT),
    "tanh": (1, _D.FLOATING, _R.FLOAT),
    "trunc": (1, _D.REAL_VALUED, _R.SAME),
    # two operands
    "add": (2, _D.NUMERIC, _R.SAME),
    "atan2": (2, _D.REAL_FLOATING, _R.FLOAT),
    "bitwise_and": (2, _D.INTEGER_OR_BOOLEAN, _R.SAME),
    "bitwise_left_shift": (2, _D.INTEGER, _R.SAME),
    "bitwise_or": (2, _D.INTEGER_OR_BOOLEAN, _R.SAME),
    "bitwise_right_shift": (2, _D.INTEGER, _R.SAME),
    "bitwise_xor": (2, _D.INTEGER_OR_BOOLEAN, _R.SAME),
    "copysign": (2, _D.REAL_FLOATING, _R.FLOAT),
    "divide": (2, _D.FLOATING, _R.FLOAT),
    "equal": (2, _D.ANY, _R.BOOL),
    "floor_divide": (2, _D.REAL_VALUED, _R.SAME),
    "greater": (2, _D.REAL_VALUED, _R.BOOL),
    "greater_equal": (2, _D.REAL_VALUED, _R.BOOL),
    "hypot": (2, _D.REAL_FLOATING, _R.FLOAT),
    "less": (2, _D.REAL_VALUED, _R.BOOL),
    "less_equal": (2, _D.REAL_VALUED, _R.BOOL),
    "logaddexp": (2, _D.REAL_FLOATING, _R.FLOAT),
    "logical_and": (2, _D.BOOLEAN, _R.SAME),
    "logical_or": (2, _D.BOOLEAN, _R.SAME),
    "logical_xor": (2, _D.BOOLEAN, _R.SAME),
    "maximum": (2, _D.REAL_VALUED, _R.SAME),
    "minimum": (2, _D.REAL_VALUED, _R.SAME),
    "multiply": (2, _D.NUMERIC, _R.SAME),
    "nextafter": (2, _D.REAL_FLOATING, _R.SAME),
    "not_equal": (2, _D.ANY, _R.BOOL),
    "pow": (2, _D.NUMERIC, _R.SAME),
    "remainder": (2, _D.REAL_VALUED, _R.SAME),
    "subtract": (2, _D.NUMERIC, _R.SAME),
    "matmul": (2, _D.NUMERIC, _R.SAME),
    "clip": (2, _D.REAL_VALUED, _R.FIRST),
    "where": (2, _D.ANY, _R.SAME),
}

OPS: dict[str, OpSpec] = {name: OpSpec(name, *spec) for name, spec in _ELEMENTWISE.items()}
# The elementwise functions of two operands that a library computing two Python scalars
# (NumPy's ufuncs, jax.numpy) computes, and ``where``: ``Policy.scalar_pair_functions``.
ELEMENTWISE_PAIR_FUNCTIONS = frozenset(name for name, spec in OPS.items() if spec.arity == 2) - {"matmul", "clip"}
# Promotion with no operation attached (``result_type``, ``concat``, ``stack``, ...).
OPS["result_type"] = OpSpec("result_type", 2, _D.ANY, _R.SAME)


def op_spec(name: str) -> OpSpec:
    try:
        return OPS[name]
    except KeyError:
        raise ValueError(f"unknown operation {name!r}") from None


# Functions (not elementwise) whose result dtype a policy decides: their input
# domain in the standard's words (the stubs' "Should have a ... data type").
ACCUMULATING_FUNCTIONS = frozenset({"sum", "prod", "cumulative_sum", "cumulative_prod", "trace"})
# FFTs whose output is complex of a real input / real of a complex input.
REAL_TO_COMPLEX_FUNCTIONS = frozenset({"rfft", "rfftn", "ihfft"})
COMPLEX_TO_REAL_FUNCTIONS = frozenset({"irfft", "irfftn", "hfft"})
# Linear algebra with a real result of the input's precision (norms, singular values, the
# eigenvalues of a Hermitian matrix, slogdet's logabsdet), and a count (the default integer).
REAL_RESULT_FUNCTIONS = frozenset({"eigvalsh", "matrix_norm", "vector_norm", "svdvals", "slogdet"})
COUNT_RESULT_FUNCTIONS = frozenset({"matrix_rank"})
