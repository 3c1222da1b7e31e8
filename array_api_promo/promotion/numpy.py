"""NumPy 2's promotion rules (NEP 50), as NumPy 2.5 (``numpy``) and 2.4 (``numpy@2.4``) apply them.

Everything NumPy-specific lives in this module, as data plus three small rules:

* ``NUMPY_TABLE``: ``np.promote_types`` over the 13 standard dtypes and float16
  (``tools/gen_numpy_golden.py --print-table`` prints it).  It is a table, not
  a lattice: NumPy's promotion is not associative (int8 and uint16 give int32,
  but int32 and float32 give float64 while int8 and float32 give float32).
* The weak Python scalar rule (NEP 50): a Python ``bool``/``int``/``float``/
  ``complex`` takes the dtype of the arrays it meets when that dtype's kind is
  at least its own; otherwise it stands for the default dtype of its kind
  (int64, float64, complex128) -- except that a Python complex with float16 or
  float32 gives complex64.  0-d arrays are *strong*: exactly like n-d arrays.
  A Python int that does not fit the integer dtype it becomes raises
  ``OverflowError`` (comparisons excepted: NumPy 2 compares exactly), and so does one
  beyond float64's range becoming a float; ``np.result_type`` looks at types only and
  checks no value.
* The ufunc loop rule: an operation computes in the first of its loops
  (``_LOOPS``: ``np.<ufunc>.types`` restricted to our dtypes) that every input
  casts to safely -- the input dtypes one by one, a Python scalar counting as
  the promoted dtype.  So ``sqrt(int8)`` is float16 and ``arctan2(int8,
  uint8)`` is float16 although int8 and uint8 promote to int16.  True
  division of integers is float64 (its own type resolver); ``-``, unary
  ``-``/``+`` and ``sign`` refuse booleans.
* In-place operators cast the result to the target with ``same_kind``.
* Linear algebra (``np.linalg``) computes integer and bool input in float64; LAPACK has no
  float16 routines, so the LAPACK-backed functions refuse float16.

The releases differ in one rule: NumPy 2.4's ``np.where`` wraps an out-of-range Python int
modulo 2**bits, 2.5's checks it as the operators do (``_WRAPPING``).  NumPy 2.4's ``eig`` and
``eigvals`` return a real result when every eigenvalue is real (a value-dependent dtype, not
reproduced: the policy gives complex, as 2.5 does).

The tests compare this module with golden tables generated from real NumPy 2.5.5 and 2.4.6
(``tests/data/numpy_<version>_promotion.json``, ``tests/data/numpy_<version>_ops.json``).
"""

from __future__ import annotations

from .. import _dtypes as D
from .._dtypes import DType
from ._lattice import PromotionTable
from ._ops import ACCUMULATING_FUNCTIONS, COUNT_RESULT_FUNCTIONS, ELEMENTWISE_PAIR_FUNCTIONS, OpSpec
from ._policy import Decision, LargeInt, OperandKind, Policy, PromotionError, describe_signature
from ._scalars import FLOAT_INT_END, int_text

__all__ = ["NumPyPolicy", "NUMPY_TABLE", "VERSIONS"]

# The releases the policy reproduces (golden tables of each): ``numpy`` is the newest,
# ``numpy@2.4`` the older.  They differ in one rule, which ops wrap a Python int (``_WRAPPING``).
VERSIONS = {"2.5": "2.5.5", "2.4": "2.4.6"}
NEWEST = "2.5"

b1, i1, i2, i4, i8 = D.bool_, D.int8, D.int16, D.int32, D.int64
u1, u2, u4, u8 = D.uint8, D.uint16, D.uint32, D.uint64
f2, f4, f8, c8, c16 = D.float16, D.float32, D.float64, D.complex64, D.complex128

# np.promote_types, NumPy 2.4 (axes: b1 i1 i2 i4 i8 u1 u2 u4 u8 f2 f4 f8 c8 c16).  (Deliberately alike: mlx.py's
# table has this shape too; each policy keeps its own table.)
_ORDER = (b1, i1, i2, i4, i8, u1, u2, u4, u8, f2, f4, f8, c8, c16)
_ROWS = (
    (b1, i1, i2, i4, i8, u1, u2, u4, u8, f2, f4, f8, c8, c16),
    (i1, i1, i2, i4, i8, i2, i4, i8, f8, f2, f4, f8, c8, c16),
    (i2, i2, i2, i4, i8, i2, i4, i8, f8, f4, f4, f8, c8, c16),
    (i4, i4, i4, i4, i8, i4, i4, i8, f8, f8, f8, f8, c16, c16),
    (i8, i8, i8, i8, i8, i8, i8, i8, f8, f8, f8, f8, c16, c16),
    (u1, i2, i2, i4, i8, u1, u2, u4, u8, f2, f4, f8, c8, c16),
    (u2, i4, i4, i4, i8, u2, u2, u4, u8, f4, f4, f8, c8, c16),
    (u4, i8, i8, i8, i8, u4, u4, u4, u8, f8, f8, f8, c16, c16),
    (u8, f8, f8, f8, f8, u8, u8, u8, u8, f8, f8, f8, c16, c16),
    (f2, f2, f4, f8, f8, f2, f4, f8, f8, f2, f4, f8, c8, c16),
    (f4, f4, f4, f8, f8, f4, f4, f8, f8, f4, f4, f8, c8, c16),
    (f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, c16, c16),
    (c8, c8, c8, c16, c16, c8, c8, c16, c16, c8, c8, c16, c8, c16),
    (c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16),
)
NUMPY_TABLE = PromotionTable.from_rows(_ORDER, _ROWS)

# NumPy's type numbers (NPY_BOOL=0 ... NPY_CDOUBLE=15, NPY_HALF=23; int64 is NPY_LONG on
# LP64 platforms): the higher one "knows" the promotion (default_builtin_common_dtype).
_TYPE_NUM = {b1: 0, i1: 1, u1: 2, i2: 3, u2: 4, i4: 5, u4: 6, i8: 7, u8: 8, f4: 11, f8: 12, c8: 14, c16: 15, f2: 23}

# -- weak Python scalars (NEP 50) ---------------------------------------------------
# Kind order of a Python scalar type and of a dtype category: the scalar is weak
# (takes the array's dtype) when the array's kind is at least the scalar's.
_SCALAR_KIND = {
    bool: D.CATEGORY_BOOL,
    int: D.CATEGORY_INTEGER,
    LargeInt: D.CATEGORY_INTEGER,
    float: D.CATEGORY_FLOATING,
    complex: D.CATEGORY_COMPLEX,
}
# ... otherwise it stands for this dtype (the default of its kind):
_SCALAR_DEFAULT = {bool: b1, int: i8, LargeInt: i8, float: f8, complex: c16}
# Python complex with a real floating array: complex of at least its precision.
_COMPLEX_OF = {f2: c8, f4: c8, f8: c16}

# -- ufunc loops ----------------------------------------------------------------------
# ``np.<ufunc>.types`` restricted to our dtypes ("inputs>output", NumPy type codes).
_CODES = {
    "?": b1,
    "b": i1,
    "h": i2,
    "i": i4,
    "q": i8,
    "B": u1,
    "H": u2,
    "I": u4,
    "Q": u8,
    "e": f2,
    "f": f4,
    "d": f8,
    "F": c8,
    "D": c16,
}
_FLOAT = "e>e f>f d>d F>F D>D"
_ANY_TO_BOOL = "?>? b>? B>? h>? H>? i>? I>? q>? Q>? e>? f>? d>? F>? D>?"
_INTS = "b>b B>B h>h H>H i>i I>I q>q Q>Q"
_NUMERIC = _INTS + " e>e f>f d>d F>F D>D"
_REAL2 = "ee>e ff>f dd>d"
_INT2 = "bb>b BB>B hh>h HH>H ii>i II>I qq>q QQ>Q"
_ARITH2 = _INT2 + " ee>e ff>f dd>d FF>F DD>D"
_CMP = "??>? bb>? BB>? hh>? HH>? ii>? II>? qq>? QQ>? qQ>? Qq>? ee>? ff>? dd>? FF>? DD>?"
_LOGICAL2 = "??>? bb>? BB>? hh>? HH>? ii>? II>? qq>? QQ>? ee>? ff>? dd>? FF>? DD>?"
LOOP_SPECS = {
    "abs": "?>? " + _INTS + " e>e f>f d>d F>f D>d",
    **dict.fromkeys(
        [
            "acos",
            "acosh",
            "asin",
            "asinh",
            "atan",
            "atanh",
            "cos",
            "cosh",
            "exp",
            "expm1",
            "log",
            "log10",
            "log1p",
            "log2",
            "sin",
            "sinh",
            "sqrt",
            "tan",
            "tanh",
        ],
        _FLOAT,
    ),
    **dict.fromkeys(["ceil", "floor", "trunc"], "?>? " + _INTS + " e>e f>f d>d"),
    **dict.fromkeys(["conj", "negative", "positive", "reciprocal", "sign", "square"], _NUMERIC),
    "bitwise_invert": "?>? " + _INTS,
    **dict.fromkeys(["isfinite", "isinf", "isnan", "logical_not"], _ANY_TO_BOOL),
    "signbit": "e>? f>? d>?",
    **dict.fromkeys(["add", "multiply", "matmul", "maximum", "minimum"], "??>? " + _ARITH2),
    **dict.fromkeys(["subtract", "pow"], _ARITH2),
    **dict.fromkeys(["atan2", "copysign", "hypot", "logaddexp", "nextafter"], _REAL2),
    **dict.fromkeys(["bitwise_and", "bitwise_or", "bitwise_xor"], "??>? " + _INT2),
    **dict.fromkeys(["bitwise_left_shift", "bitwise_right_shift"], _INT2),
    "divide": "ee>e ff>f dd>d FF>F DD>D",
    **dict.fromkeys(["floor_divide", "remainder"], _INT2 + " ee>e ff>f dd>d"),
    **dict.fromkeys(["equal", "not_equal", "greater", "greater_equal", "less", "less_equal"], _CMP),
    **dict.fromkeys(["logical_and", "logical_or", "logical_xor"], _LOGICAL2),
}


def parse_loops(spec: str):
    loops = []
    for item in spec.split():
        ins, out = item.split(">")
        loops.append((tuple(_CODES[c] for c in ins), _CODES[out]))
    return tuple(loops)


_LOOPS = {op: parse_loops(spec) for op, spec in LOOP_SPECS.items()}
# Operations NumPy refuses when every input is boolean (explicit errors in NumPy 2).
REFUSE_ALL_BOOL = {
    "negative": "The numpy boolean negative, the `-` operator, is not supported",
    "positive": "positive of a boolean array is not supported",
    "sign": "ufunc 'sign' has no loop for booleans",
    "subtract": "numpy boolean subtract, the `-` operator, is not supported, use the "
    "bitwise_xor, the `^` operator, or the logical_xor function instead",
}
_COMPARISONS = frozenset({"equal", "not_equal", "greater", "greater_equal", "less", "less_equal"})
# Operations that take an out-of-range Python int without complaint and wrap it modulo
# 2**bits (``np.logical_and(int8_zeros, 256)`` is False because 256 wraps to 0), by release,
# with the end of the ints they take: NumPy reads the int as a C long first (a C unsigned
# long for ``where``), beyond which it raises "Python int too large to convert to C long".
# NumPy 2.4's ``np.where(mask, int8_array, 1000)`` holds -24; 2.5's raises as ``+`` does.
_LOGICAL_WRAPPING = {"logical_and": 2**63, "logical_or": 2**63, "logical_xor": 2**63}
_WRAPPING = {"2.5": _LOGICAL_WRAPPING, "2.4": {**_LOGICAL_WRAPPING, "where": 2**64}}
_C_LONG_MIN = -(2**63)
# np.linalg: functions LAPACK computes (no float16 routine: "array type float16 is unsupported
# in linalg"); integer and bool input computes in float64 in every linalg function but
# matrix_power, which multiplies in the input's dtype.
_LAPACK_FUNCTIONS = frozenset(
    {"cholesky", "det", "eig", "eigh", "eigvals", "eigvalsh", "inv", "matrix_rank", "pinv", "qr", "slogdet"}
    | {"solve", "svd", "svdvals"}
)
_LINALG_FUNCTIONS = _LAPACK_FUNCTIONS | {"matrix_norm", "vector_norm"}
# ml_dtypes' scalar types (bfloat16, the float8 family; ml_dtypes 0.6.0), which NumPy goes by their casts
# for: each casts safely to float32, float64, complex64 and complex128 and from bool, int8 and uint8
# (tests/data/numpy_<version>_promotion.json, "ml_dtypes"). So with an array of ``_ML_CAST_FROM`` NumPy
# computes in the ml dtype, which the policy does not have; with any other, a ufunc (``x + s``, clip)
# finds its first loop both cast to as with a float32 0-d array (``_ML_STAND_IN``: the value converts
# exactly), while np.result_type and np.where find a common dtype only by the casts, ``_ML_CAST_TO``
# (int16 with bfloat16: DTypePromotionError) -- unless the type's dtype kind is "f" (float8_e5m2), which
# NumPy promotes as a float, like the ufuncs.
_ML_DTYPES = frozenset(
    {"bfloat16", "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz"}
    | {"float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu"}
)
_ML_CAST_FROM = frozenset({b1, i1, u1})
_ML_CAST_TO = frozenset({f4, f8, c8, c16})
_ML_FLOAT_KIND = frozenset({"float8_e5m2"})
_ML_STAND_IN = f4
_BY_CASTS = frozenset({"result_type", "where"})  # np.result_type's promotion, not a ufunc's loop search
# The functions NumPy computes on bool input (np.vecdot(bool, bool) is bool: the logical or of ands;
# np.diff of bool is !=), which the standard limits to numeric input.
_BOOL_FUNCTIONS = frozenset({"vecdot", "tensordot", "outer", "diff"})
# same_kind casting: kinds in NumPy's order b < u < i < f < c.
_KIND_ORDER = {D.BOOL: 0, D.UNSIGNED_INTEGER: 1, D.SIGNED_INTEGER: 2, D.REAL_FLOATING: 3, D.COMPLEX_FLOATING: 4}


class NumPyPolicy(Policy):
    """NumPy 2 (NEP 50) promotion: ``np.result_type`` and ufunc loop selection, of 2.5.5 (``numpy@2.4``: 2.4.6)."""

    name = "numpy"
    zero_d_matters = False  # NEP 50: 0-d arrays are strong, like n-d arrays
    numpy_scalars = "array"  # a NumPy scalar is a (strong) 0-d array of its dtype
    integer_division_by_zero = "warn"  # np.array([1]) // 0: "divide by zero encountered in floor_divide", 0
    scalar_pair_functions = ELEMENTWISE_PAIR_FUNCTIONS  # np.add(True, 1), np.where(c, 1, 2.5)
    dtypes = (b1, i1, i2, i4, i8, u1, u2, u4, u8, f2, f4, f8, c8, c16)
    table = NUMPY_TABLE
    default_int = i8
    default_uint = u8
    default_float = f8
    default_complex = c16
    default_index = i8
    #: Functions the standard limits to numeric input that NumPy computes on bool (vecdot of bools is bool).
    bool_functions: frozenset = _BOOL_FUNCTIONS

    def __init__(self, version: str = NEWEST):
        if version not in VERSIONS:
            raise ValueError(f"numpy policy: version must be one of {', '.join(VERSIONS)}, got {version!r}")
        self.version = version
        if version != NEWEST:
            self.name = f"{self.name}@{version}"
        self._wrapping = _WRAPPING[version]
        super().__init__()

    @property
    def summary(self) -> str:
        if self.version == NEWEST:
            return super().summary
        # (Part 3 of DEVIATIONS.md lists each policy by this line: say what the older release changes)
        return (
            f"NumPy {VERSIONS[self.version]}: ``numpy``'s rules, but ``where`` wraps an out-of-range Python int "
            f"modulo 2**bits where {VERSIONS[NEWEST]} raises as the operators do."
        )

    # -- np.result_type ------------------------------------------------------------
    def _resolve(self, signature, trace):
        arrays = [o.dtype for o in signature if o.kind is not OperandKind.SCALAR]
        result = None
        if arrays:
            # PyArray_PromoteDTypeSequence: the "main" dtype is the one of the highest type
            # number (float16 is the last builtin); every other dtype promotes with it and
            # the promotions are joined.  Not a left fold: int16, uint16, complex64 give
            # complex64 although (int16, uint16) -> int32 and (int32, complex64) -> complex128.
            main = max(arrays, key=_TYPE_NUM.__getitem__)
            if trace is not None and len(set(arrays)) > 2:
                trace.step(f"main dtype (highest NumPy type number): {main.name}")
            for dtype in arrays:
                joined = self.table.join(main, dtype)
                if trace is not None and dtype is not main:
                    trace.step(f"np.promote_types({main.name}, {dtype.name}) = {joined.name}")
                if result is not None and result is not joined:
                    new = self.table.join(result, joined)
                    if trace is not None:
                        trace.step(f"np.promote_types({result.name}, {joined.name}) = {new.name}")
                    joined = new
                result = joined
        scalars = [o.dtype for o in signature if o.kind is OperandKind.SCALAR]
        if result is None:
            # Python scalars only: the default dtype of the highest kind.
            top = max(scalars, key=lambda t: _SCALAR_KIND[t])
            result = _SCALAR_DEFAULT[top]
            if trace is not None:
                trace.step(f"Python scalars only: the default dtype of Python {top.__name__}, {result.name}")
            return result
        for scalar in scalars:
            result = self._join_scalar(result, scalar, trace)
        return result

    def _join_scalar(self, dtype: DType, scalar: type, trace) -> DType:
        kind = _SCALAR_KIND[scalar]
        name = "int" if scalar is LargeInt else scalar.__name__
        if dtype.category >= kind:
            if trace is not None:
                trace.step(f"Python {name} is weak: takes {dtype.name}")
            return dtype
        if scalar is complex and dtype in _COMPLEX_OF:
            result = _COMPLEX_OF[dtype]
            why = f"Python complex with {dtype.name}: {result.name}"
        else:
            default = _SCALAR_DEFAULT[scalar]
            result = self.table.join(dtype, default)
            why = (
                f"Python {name} is of a higher kind than {dtype.name}: it stands for "
                f"{default.name}, np.promote_types gives {result.name}"
            )
        if trace is not None:
            trace.step(why)
        return result

    # -- Python scalars --------------------------------------------------------------
    def check_scalar(self, value, dtype, op):
        if type(value) is not int or op == "result_type":
            return  # np.result_type looks at types only
        if dtype.category >= D.CATEGORY_FLOATING:
            if not -FLOAT_INT_END < value < FLOAT_INT_END:
                raise OverflowError(
                    f"{op}: Python int {int_text(value)} is too large to convert to float (policy {self.name!r})"
                )
            return
        base = op.split(" ")[0]
        if dtype.category != D.CATEGORY_INTEGER or base in _COMPARISONS:
            return  # (NumPy 2 compares out-of-range Python ints exactly)
        end = self._wrapping.get(base)
        if end is None:
            self.check_int_range(value, dtype, op)
        elif not _C_LONG_MIN <= value < end:
            raise OverflowError(
                f"{op}: Python int {int_text(value)} is too large to convert to C long (policy {self.name!r})"
            )

    def out_of_range_message(self, value, dtype, op):
        return f"{op}: Python integer {int_text(value)} out of bounds for {dtype.name} (policy {self.name!r})"

    def convert_scalar(self, value, dtype, op="asarray"):
        import numpy as np

        self.check_scalar(value, dtype, op)
        if type(value) is int and dtype.category == D.CATEGORY_INTEGER and not self.int_fits(value, dtype):
            if op.split(" ")[0] in _COMPARISONS:
                # compared exactly: a strong 0-d int64/uint64 (or float64) operand
                if -(2**63) <= value < 2**64:
                    return np.asarray(value, dtype=np.int64 if value < 2**63 else np.uint64)
                return np.asarray(float(value))
            value = self.wrap_int(value, dtype)  # the wrapping ops
        with np.errstate(over="ignore"):
            return np.asarray(value, dtype=dtype.numpy)

    def convert_bound(self, value, dtype, bound="min"):
        """``np.clip``'s Python int bound: beyond an integer dtype's range on the side that clips
        nothing, it is dropped whatever its size (``clip(int8, -2**100, None)``); on the other side
        it must fit, as an operand must."""
        if type(value) is int and dtype.category == D.CATEGORY_INTEGER:
            lo, hi = D.iinfo_bounds(dtype)
            if bound == "min" and value < lo:
                value = lo
            elif bound == "max" and value > hi:
                value = hi
        return self.convert_scalar(value, dtype, "clip")

    def create_scalar(self, value, dtype, op="asarray"):
        """``np.full`` of a Python int (NumPy 2.1 on): into bool it is read as a C long first
        (``np.asarray(v, dtype=bool)`` takes its truth whatever its size); into an integer dtype
        it must fit, a C long or the dtype's range. Checked here, not left to the installed
        NumPy: NumPy 2.0's ``np.full`` wraps it silently (300 into int8 is 44)."""
        if op in ("full", "full_like") and type(value) is int and dtype.category <= D.CATEGORY_INTEGER:
            fits = dtype is b1 or D.iinfo_bounds(dtype)[0] <= value <= D.iinfo_bounds(dtype)[1]
            if not (_C_LONG_MIN <= value < 2**63) and not (fits and dtype is not b1):
                raise OverflowError(
                    f"{op}: Python int {int_text(value)} is too large to convert to C long (policy {self.name!r})"
                )
            if not fits:
                raise OverflowError(
                    f"{op}: Python integer {int_text(value)} out of bounds for {dtype.name} (policy {self.name!r})"
                )
        return numpy_creation(value, dtype, op, self.name)

    # -- ufunc loop selection ----------------------------------------------------------
    def _decide(self, spec: OpSpec, common: DType, signature) -> Decision:
        name = spec.name
        inputs = [common if o.kind is OperandKind.SCALAR else o.dtype for o in signature]
        if name in REFUSE_ALL_BOOL and all(d is b1 for d in inputs):
            raise PromotionError(
                f"{name}: {REFUSE_ALL_BOOL[name]} ({describe_signature(signature)}) (policy {self.name!r})"
            )
        if name in ("real", "imag"):
            result = D.REAL_OF.get(common, common)
            return Decision(common, result)
        if name == "round":
            # np.round: bool rounds in float16 (np.around's float path); the rest keep their dtype
            compute = f2 if common is b1 else common
            return Decision(compute, compute)
        if name == "divide" and all(d.category <= D.CATEGORY_INTEGER for d in inputs):
            return Decision(f8, f8)  # true division of integers: float64
        loops = _LOOPS.get(name)
        if loops is None:  # where, clip, result_type: plain promotion
            return Decision(common, common)
        for loop_in, loop_out in loops:
            if all(self.table.join(d, t) is t for d, t in zip(inputs, loop_in)):
                compute = loop_in[0] if len(set(loop_in)) == 1 else common
                return Decision(compute, loop_out)
        raise PromotionError(
            f"{name}: ufunc {name!r} not supported for {describe_signature(signature)}: no loop the "
            f"inputs cast to safely (policy {self.name!r})"
        )

    def _why_compute(self, spec):
        return "NumPy picks the first ufunc loop every input casts to safely"

    def inplace_result(self, op, result, target):
        """NumPy casts an in-place result to the target with ``casting='same_kind'``."""
        if self.table.join(result, target) is target:
            return
        if _KIND_ORDER[result.kind] <= _KIND_ORDER[target.kind]:
            return
        if op == "__setitem__":  # never a silent wrong value: refused where NumPy casts unsafely
            why = "the policy stores values with casting='same_kind' (NumPy would cast silently)"
        else:
            why = "NumPy casts an in-place result with casting='same_kind'"
        raise PromotionError(
            f"{op}: cannot store {result.name} in {D.a_dtype(target.name)} array: {why}, which does not "
            f"go from {result.kind} to {target.kind}; convert with astype() first (policy {self.name!r})"
        )

    def can_cast(self, from_, to):
        return self.table.join(from_, to) is to

    def foreign_numpy_scalar(self, name, op, others):
        """An ml_dtypes scalar (``x + ml_dtypes.bfloat16(1)``): a float32 0-d array where NumPy's result is
        one of the policy's dtypes, refused where NumPy computes in the ml dtype or finds no common dtype."""
        if name not in _ML_DTYPES:
            return super().foreign_numpy_scalar(name, op, others)
        op = op or "operand"
        for d in others:
            if d in _ML_CAST_FROM:
                raise PromotionError(
                    f"{op}: NumPy computes {d.name} with a {name} scalar in {name} ({d.name} casts to it safely), "
                    f"which does not exist under policy {self.name!r}; convert the scalar with float() first"
                )
            if op in _BY_CASTS and d not in _ML_CAST_TO and name not in _ML_FLOAT_KIND:
                raise PromotionError(
                    f"{op}: {d.name} and a {name} scalar have no common dtype in NumPy (neither casts to the other "
                    f"safely: DTypePromotionError) (policy {self.name!r})"
                )
        if not others:
            raise PromotionError(
                f"{op}: NumPy makes a {name} array, a dtype that does not exist under policy {self.name!r}"
            )
        return _ML_STAND_IN

    def function_dtype(self, op, dtype):
        """NumPy's reductions: mean/std/var of bool or integers compute in float64; so does linear
        algebra (``np.linalg.solve`` of int64 is float64), where LAPACK refuses float16."""
        if op in ("mean", "std", "var") and dtype.category <= D.CATEGORY_INTEGER:
            return Decision(f8, f8)
        if op in _LAPACK_FUNCTIONS and dtype is f2:
            raise PromotionError(f"{op}: array type float16 is unsupported in linalg (policy {self.name!r})")
        if op in _LINALG_FUNCTIONS and dtype.category <= D.CATEGORY_INTEGER:
            return Decision(f8, self.default_int if op in COUNT_RESULT_FUNCTIONS else f8)
        if op == "matrix_power" or (op in self.bool_functions and dtype is b1):
            return Decision(dtype, dtype)  # multiplies in the input's dtype, bool and integers too
        if op in ("std", "var") and dtype.category == D.CATEGORY_COMPLEX:
            return Decision(dtype, D.REAL_OF[dtype])
        if op in ("max", "min"):
            return Decision(dtype, dtype)
        if op in ACCUMULATING_FUNCTIONS and dtype.category == D.CATEGORY_BOOL:  # np.sum(bool): the default int
            return self.accumulation_decision(op, dtype)
        return super().function_dtype(op, dtype)


def numpy_creation(value, dtype: DType, op: str, policy_name: str):
    """A 0-d array of ``dtype`` made from the Python number ``value`` as NumPy 2 makes it in a
    creation function (the standard leaves these conversions to the library).

    ``asarray`` (a number alone or in a nested sequence) is ``np.array(value, dtype=...)``: a
    float into an integer dtype is truncated toward zero (``[2.1, 4]`` into int64 is ``[2, 4]``),
    a value out of range after that, or an infinity, is an ``OverflowError``, a NaN a
    ``ValueError``, a complex into a real dtype a ``TypeError``. ``full``/``full_like`` is
    ``np.full``, an unchecked cast: a float out of an integer dtype's range wraps or is undefined
    (``300.0`` into int8 is 44), a complex into a real dtype keeps its real part, any number into
    bool is its truth value; a Python int beyond 64 bits is still an ``OverflowError``.
    (array-api-strict 2.6.1 converts with NumPy the same way: ``promotion.array_api``'s stand-in.)
    """
    import numpy as np

    try:
        if op in ("full", "full_like"):
            return np.full((), value, dtype=dtype.numpy)
        return np.array(value, dtype=dtype.numpy)
    except (OverflowError, ValueError, TypeError) as exc:  # NumPy's refusal, saying what was asked
        raise type(exc)(
            f"{op}: {value!r} cannot make {D.a_dtype(dtype.name)} array (policy {policy_name!r}): {exc}"
        ) from None
