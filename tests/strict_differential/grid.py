"""A generated grid of calls of the whole namespace, and the outcome of each call on any namespace.

``build(strict)`` lists the calls (``Case``: a target and its arguments as *specs*, plain
picklable data) from the real array-api-strict's functions and their parameters: each
function is called once with a valid baseline, then with one argument at a time replaced
by each kind its parameter's role admits (every dtype, 0-d and n-d arrays including empty
ones, Python bool/int/float/complex scalars, NumPy scalars, lists where a tuple is asked,
``None``, a foreign ``object()``, out-of-domain values); arrays of two-array functions
and operators meet every pair of dtypes and every kind of Python scalar.  ``run(xp,
cases)`` makes the arguments with ``xp`` (a namespace, or array-api-strict itself) and
records each call's outcome (``outcome``): the result's dtype name, shape and values, or
the exception's built-in classes and message.  ``compare`` says whether two outcomes are
of one class (and ``message_difference`` whether their words differ).

The same cases run in another process (through the stand-in) by pickling the list:
``python -m strict_differential.grid CASES OUTCOMES`` reads the cases, runs them on
``import array_api_strict`` and writes the outcomes.
"""

from __future__ import annotations

import inspect
import math
import operator
import pickle
import sys
import types
import warnings
from typing import Any, NamedTuple

import numpy as np

DTYPES = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
)
INTEGER = tuple(d for d in DTYPES if "int" in d)
FLOATING = ("float32", "float64", "complex64", "complex128")


# -- argument specs: plain data, made into objects by make() ---------------------------------------
def A(dtype: str = "float64", shape: tuple = (3,), fill: str = "v") -> tuple:
    """An array of ``dtype`` and ``shape`` whose values follow the pattern ``fill`` (see ``_PATTERNS``)."""
    return ("A", dtype, tuple(shape), fill)


def V(value) -> tuple:
    """A literal value: a Python scalar, string, tuple or list of ints, ``None``, a slice, ``...``."""
    return ("V", value)


def NP(type_name: str, value) -> tuple:
    """A NumPy scalar (``np.float64(1.5)``)."""
    return ("NP", type_name, value)


def DT(name: str) -> tuple:
    """The namespace's dtype ``name``."""
    return ("DT", name)


def SEQ(kind: str, *items) -> tuple:
    """A tuple or list (``kind``) of specs."""
    return ("SEQ", kind, items)


def NPARR(dtype: str = "float64", shape: tuple = (3,)) -> tuple:
    """A NumPy ndarray."""
    return ("NPARR", dtype, tuple(shape))


def NPDT(name: str) -> tuple:
    """A NumPy dtype (``np.dtype("float64")``)."""
    return ("NPDT", name)


def PYTYPE(name: str) -> tuple:
    """A Python type (``float``) where a dtype is asked."""
    return ("PYTYPE", name)


OBJ = ("OBJ",)  # a foreign object()
DEV = ("DEV",)  # the namespace's default device


_PATTERNS = {
    # fill -> kind (b, i, u, f, c) -> values, repeated to the array's size
    "v": {"b": [True, False, True, True, False], "i": [0, 1, -2, 3, -1], "u": [0, 1, 2, 3, 4],
          "f": [0.5, -1.5, 2.0, 0.0, 3.25], "c": [0.5 + 1j, -1.5 + 0j, 2 - 0.5j, 0j, 1j]},
    "pos": {"b": [True], "i": [1, 2, 3, 1], "u": [1, 2, 3, 1], "f": [1.0, 2.5, 0.5, 4.0], "c": [1 + 1j, 2 + 0j, 0.5j, 3 - 1j]},
    "neg": {"b": [False], "i": [-1, -2, 1, -3], "u": [1, 2, 3, 1], "f": [-1.0, -2.5, 1.0, -4.0], "c": [-1 - 1j, -2 + 0j]},
    "zero": {"b": [False], "i": [0], "u": [0], "f": [0.0], "c": [0j]},
    "sorted": {"b": [False, False, True, True, True], "i": [-2, 0, 1, 3, 5], "u": [0, 1, 2, 3, 5],
               "f": [-1.5, 0.0, 0.5, 2.0, 3.25], "c": [0j, 1 + 0j, 1 + 1j, 2 + 0j, 3 + 0j]},
    "idx": {"b": [False, True], "i": [0, 2, 1, 0], "u": [0, 2, 1, 0], "f": [0.0, 2.0, 1.0], "c": [0j, 2 + 0j]},
    "oob": {"b": [True], "i": [0, 5, -6], "u": [0, 5, 9], "f": [0.0, 5.0], "c": [0j, 5 + 0j]},
    "nan": {"b": [True, False], "i": [0, 1], "u": [0, 1], "f": [math.nan, math.inf, -math.inf, -0.0, 1.5],
            "c": [complex(math.nan, 0), complex(math.inf, 1), 1j, 0j]},
}  # fmt: skip


def _kind(dtype: str) -> str:
    if dtype == "bool":
        return "b"
    if dtype.startswith("uint"):
        return "u"
    if dtype.startswith("int"):
        return "i"
    return "c" if dtype.startswith("complex") else "f"


def values(dtype: str, shape: tuple, fill: str) -> np.ndarray:
    """The NumPy values of the spec ``A(dtype, shape, fill)``; ``fill="m"`` makes square matrices
    positive definite (Hermitian for complex), so every linear algebra function has an answer."""
    kind = _kind(dtype)
    size = math.prod(shape)
    if fill == "m" and len(shape) >= 2 and shape[-1] == shape[-2] and size:
        n = shape[-1]
        if kind == "b":
            m = np.eye(n, dtype=bool)
        else:
            m = np.ones((n, n)) + n * np.eye(n)
            if kind == "c":
                m = m + 1j * (np.triu(np.ones((n, n)), 1) - np.tril(np.ones((n, n)), -1))
        return np.broadcast_to(m, shape).astype(dtype)
    pattern = _PATTERNS["v" if fill == "m" else fill][kind]
    flat = [pattern[i % len(pattern)] for i in range(size if shape else 1)]
    return np.array(flat, dtype=dtype).reshape(shape)


def make(xp, spec) -> Any:
    """The object ``spec`` stands for, made with the namespace ``xp``."""
    tag = spec[0]
    if tag == "A":
        _, dtype, shape, fill = spec
        data = values(dtype, shape, fill)
        return xp.asarray(data.tolist(), dtype=getattr(xp, dtype))
    if tag == "V":
        return spec[1]
    if tag == "NP":
        return getattr(np, spec[1])(spec[2])
    if tag == "DT":
        return getattr(xp, spec[1])
    if tag == "SEQ":
        items = [make(xp, s) for s in spec[2]]
        return tuple(items) if spec[1] == "tuple" else items
    if tag == "NPARR":
        return values(spec[1], spec[2], "v")
    if tag == "NPDT":
        return np.dtype(spec[1])
    if tag == "PYTYPE":
        return {"bool": bool, "int": int, "float": float, "complex": complex}[spec[1]]
    if tag == "OBJ":
        return _FOREIGN
    if tag == "DEV":
        return xp.asarray(0).device
    raise ValueError(f"unknown spec {spec!r}")


class _Foreign:
    """A foreign object (what ``object()`` is, with a repr that does not change between runs)."""

    def __repr__(self) -> str:
        return "<foreign object>"


_FOREIGN = _Foreign()


def show(spec) -> str:
    """A spec in a few characters, for case ids."""
    tag = spec[0]
    if tag == "A":
        _, dtype, shape, fill = spec
        return f"{dtype}{list(shape)}" + ("" if fill == "v" else f"<{fill}>")
    if tag == "V":
        return repr(spec[1])
    if tag == "NP":
        return f"np.{spec[1]}({spec[2]!r})"
    if tag == "DT":
        return spec[1]
    if tag == "SEQ":
        inner = ", ".join(show(s) for s in spec[2])
        return f"({inner}{',' if len(spec[2]) == 1 else ''})" if spec[1] == "tuple" else f"[{inner}]"
    if tag == "NPARR":
        return f"ndarray[{spec[1]}]{list(spec[2])}"
    if tag == "NPDT":
        return f"np.dtype({spec[1]!r})"
    if tag == "PYTYPE":
        return spec[1]
    if tag == "OBJ":
        return "object()"
    if tag == "DEV":
        return "<device>"
    return repr(spec)


# -- cases ------------------------------------------------------------------------------------
class Case(NamedTuple):
    """One call: ``target`` (what is called) with specs for its arguments."""

    target: tuple  # ("fn", "linalg.inv"), ("op", "add"), ("iop", "iadd"), ("getitem",), ...
    args: tuple
    kwargs: tuple  # ((name, spec), ...)

    @property
    def id(self) -> str:
        parts = [show(a) for a in self.args] + [f"{k}={show(v)}" for k, v in self.kwargs]
        kind, name = self.target[0], self.target[1] if len(self.target) > 1 else ""
        if kind == "op":
            kind = "binary op" if len(parts) == 2 else "unary op"
        if kind not in _ID_FORMS:
            return f"{self.target}({', '.join(parts)})"
        everything, rest = ", ".join(parts), ", ".join(parts[1:])
        return _ID_FORMS[kind].format(*parts, all=everything, rest=rest, name=name, symbol=_SYMBOLS.get(name))


# How a call of each kind reads: {0}, {1}... its arguments, {all} all of them, {rest} all but the first,
# {name} the target's name, {symbol} its operator's.
_ID_FORMS = {
    "fn": "{name}({all})",
    "binary op": "{0} {symbol} {1}",
    "unary op": "{symbol}{0}",
    "iop": "{0} {symbol}= {1}",
    "getitem": "{0}[{1}]",
    "setitem": "{0}[{1}] = {2}",
    "attr": "{0}.{name}",
    "meth": "{0}.{name}({rest})",
    "conv": "{name}({0})",
    "info": "__array_namespace_info__().{name}({all})",
}

_SYMBOLS = {
    "add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
    "and_": "&", "or_": "|", "xor": "^", "lshift": "<<", "rshift": ">>", "matmul": "@",
    "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!=",
    "neg": "-", "pos": "+", "invert": "~", "abs": "abs ",
    "iadd": "+", "isub": "-", "imul": "*", "itruediv": "/", "ifloordiv": "//", "imod": "%", "ipow": "**",
    "iand": "&", "ior": "|", "ixor": "^", "ilshift": "<<", "irshift": ">>", "imatmul": "@",
}  # fmt: skip

_INPLACE = {
    "add": "iadd", "sub": "isub", "mul": "imul", "truediv": "itruediv", "floordiv": "ifloordiv",
    "mod": "imod", "pow": "ipow", "and_": "iand", "or_": "ior", "xor": "ixor", "lshift": "ilshift",
    "rshift": "irshift", "matmul": "imatmul",
}  # fmt: skip
_COMPARISONS = ("lt", "le", "gt", "ge", "eq", "ne")

# What stands where an array is asked, besides arrays of other dtypes and shapes.
NOT_ARRAYS = (V(True), V(1), V(1.5), V(1j), NP("float64", 1.5), NP("int64", 1), V(None), OBJ, V([1.0, 2.0, 3.0]))
# Python scalars met by arrays of every dtype: each type, out of range ints, NaN; and NumPy scalars.
SCALARS = (
    V(True), V(0), V(1), V(-1), V(300), V(2**63), V(2**70), V(-(2**70)), V(1.5), V(math.nan), V(1j),
    NP("float64", 1.5), NP("int64", 1), NP("float32", 1.5),
)  # fmt: skip
FOREIGN = (V(None), OBJ, V([1, 2, 3]), V("a"))

# Roles: what a parameter (by its name) is given in the grid's variations.
_INTS = (V(0), V(1), V(-1), V(5), V(1.5), V(None), V(True), NP("int64", 1), OBJ)
ROLES: dict[str, tuple] = {
    "axis": (V(0), V(-1), V(1), V(5), V(-5), V((0,)), V([0]), V(None), V(0.0), NP("int64", 0), V(True), OBJ),
    "axes": (V((0,)), V((-1,)), V([0]), V(0), V((0, 0)), V((5,)), V(()), V(None), V((0.0,)), SEQ("tuple", NP("int64", 0)), OBJ),
    "dtype": tuple(DT(d) for d in DTYPES) + (V(None), PYTYPE("float"), PYTYPE("bool"), V("float64"), NPDT("float64"), OBJ),
    "device": (V(None), DEV, V("cpu"), OBJ),
    "copy": (V(None), V(True), V(False), V(1), V("yes")),
    "flag": (V(False), V(True), V(1), V(0), V(None), V("yes"), NP("bool_", True)),
    "int": _INTS,
    "count": (V(3), V(0), V(1), V(-1), V(2.5), V(2.0), V(None), V(True), NP("int64", 3), V(2**70), OBJ),
    "number": (V(0), V(1), V(-3), V(1.5), V(2**70), V(math.nan), V(math.inf), V(1j), V(True), NP("float64", 2.5),
               NP("int64", 2), A("float64", ()), A("int64", ()), A("float64", (3,)), V(None), OBJ),
    "shape": (V((2, 3)), V(2), V(()), V((0,)), V([2, 3]), V((2.0,)), V((-1,)), V((-2, 3)), V(2.5), V(None), OBJ,
              SEQ("tuple", NP("int64", 2)), NP("int64", 2), V(True), V((True,)), A("int64", ())),
    "fill_value": (V(1), V(-1), V(300), V(2**70), V(1.5), V(math.nan), V(math.inf), V(True), V(1j), NP("float64", 1.5),
                   NP("int64", 1), NP("bool_", True), A("float64", ()), A("float64", (3,)), V(None), OBJ, V("a")),
    "norm": (V("backward"), V("ortho"), V("forward"), V("bad"), V(None)),
    "side": (V("left"), V("right"), V("middle"), V(None)),
    "indexing": (V("xy"), V("ij"), V("bad"), V(None)),
    "mode": (V("reduced"), V("complete"), V("r"), V(None)),
    "ord": (V(1), V(2), V(-1), V(math.inf), V(-math.inf), V(0), V(3.5), V("fro"), V("nuc"), V(None), V("bad"), V(True)),
    "rtol": (V(None), V(0.5), V(1), V(-1.0), A("float64", ()), A("float64", (1,)), A("int64", ()), V(1j), OBJ),
    "correction": (V(0), V(1), V(1.5), V(-1), V(5), V(True), V(None), NP("float64", 1.0), A("float64", ()), OBJ),
    "d": (V(1.0), V(0.5), V(2), V(0), V(-1.0), V(True), V(1j), V(None), NP("float64", 0.5), A("float64", ()), OBJ),
    "api_version": (V(None), V("2024.12"), V("2023.12"), V("2021.12"), V("1999.01"), V(2024.12)),
}  # fmt: skip
_NAME_ROLES = {
    "k": "int", "offset": "int", "n_cols": "count", "n_rows": "count", "num": "count",
    "keepdims": "flag", "endpoint": "flag", "descending": "flag", "stable": "flag", "include_initial": "flag",
    "invert": "flag", "upper": "flag", "full_matrices": "flag",
    "start": "number", "stop": "number", "step": "number",
}  # fmt: skip

ELEMENTWISE_UNARY = (
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwise_invert", "ceil", "conj", "cos", "cosh",
    "exp", "expm1", "floor", "imag", "isfinite", "isinf", "isnan", "log", "log1p", "log2", "log10",
    "logical_not", "negative", "positive", "real", "reciprocal", "round", "sign", "signbit", "sin", "sinh",
    "square", "sqrt", "tan", "tanh", "trunc",
)  # fmt: skip
ELEMENTWISE_BINARY = (
    "add", "atan2", "bitwise_and", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift", "bitwise_xor",
    "copysign", "divide", "equal", "floor_divide", "greater", "greater_equal", "hypot", "less", "less_equal",
    "logaddexp", "logical_and", "logical_or", "logical_xor", "maximum", "minimum", "multiply", "nextafter",
    "not_equal", "pow", "remainder", "subtract",
)  # fmt: skip

# Functions whose baseline is not (x=float64[3]); param -> spec, as called (positional-only first).
M = A("float64", (2, 2), "m")
BASELINES: dict[str, dict[str, tuple]] = {
    "asarray": {"obj": V([1.0, 2.0])},
    "arange": {"start": V(5)},
    "empty": {"shape": V((2, 3))}, "zeros": {"shape": V((2, 3))}, "ones": {"shape": V((2, 3))},
    "eye": {"n_rows": V(3)},
    "full": {"shape": V((2, 3)), "fill_value": V(1.5)},
    "full_like": {"x": A(), "fill_value": V(1.5)},
    "linspace": {"start": V(0), "stop": V(1), "num": V(5)},
    "meshgrid": {"arrays": SEQ("tuple", A(), A("float64", (2,)))},
    "tril": {"x": A("float64", (3, 3))}, "triu": {"x": A("float64", (3, 3))},
    "from_dlpack": {"x": A()},
    "astype": {"x": A(), "dtype": DT("float32")},
    "broadcast_arrays": {"arrays": SEQ("tuple", A("float64", (2, 1)), A("float64", (1, 3)))},
    "broadcast_shapes": {"shapes": SEQ("tuple", V((2, 1)), V((1, 3)))},
    "broadcast_to": {"x": A(), "shape": V((2, 3))},
    "can_cast": {"from_": DT("int8"), "to": DT("int16")},
    "finfo": {"type": DT("float32")}, "iinfo": {"type": DT("int16")},
    "isdtype": {"dtype": DT("float64"), "kind": V("real floating")},
    "result_type": {"arrays_and_dtypes": SEQ("tuple", DT("int8"), DT("int16"))},
    "clip": {"x": A(), "min": V(0.0), "max": V(1.0)},
    "where": {"condition": A("bool"), "x1": A(), "x2": A()},
    "take": {"x": A("float64", (5,)), "indices": A("int64", (3,), "idx")},
    "take_along_axis": {"x": A("float64", (2, 3)), "indices": A("int64", (2, 2), "idx")},
    "matmul": {"x1": M, "x2": M},
    "tensordot": {"x1": M, "x2": M},
    "vecdot": {"x1": A(), "x2": A()},
    "matrix_transpose": {"x": A("float64", (2, 3))},
    "concat": {"arrays": SEQ("tuple", A(), A("float64", (2,)))},
    "stack": {"arrays": SEQ("tuple", A(), A())},
    "expand_dims": {"x": A(), "axis": V(0)},
    "moveaxis": {"x": A("float64", (2, 3)), "source": V(0), "destination": V(1)},
    "permute_dims": {"x": A("float64", (2, 3)), "axes": V((1, 0))},
    "repeat": {"x": A(), "repeats": V(2)},
    "reshape": {"x": A("float64", (2, 3)), "shape": V((3, 2))},
    "roll": {"x": A(), "shift": V(1)},
    "squeeze": {"x": A("float64", (1, 3)), "axis": V(0)},
    "tile": {"x": A(), "repetitions": V((2,))},
    "unstack": {"x": A("float64", (2, 3))},
    "searchsorted": {"x1": A("float64", (5,), "sorted"), "x2": A()},
    "isin": {"x1": A(), "x2": A()},
    "diff": {"x": A("float64", (5,))},
    "cumulative_sum": {"x": A()}, "cumulative_prod": {"x": A()},
    # linalg (a positive definite matrix: every function has an answer)
    **{f"linalg.{n}": {"x": M} for n in ("cholesky", "det", "eigh", "eigvalsh", "inv", "matrix_norm", "matrix_rank",
                                           "pinv", "qr", "slogdet", "svd", "svdvals", "trace", "diagonal")},
    "linalg.matrix_power": {"x": M, "n": V(2)},
    "linalg.matrix_transpose": {"x": A("float64", (2, 3))},
    "linalg.matmul": {"x1": M, "x2": M},
    "linalg.solve": {"x1": M, "x2": A("float64", (2,))},
    "linalg.cross": {"x1": A(), "x2": A()},
    "linalg.outer": {"x1": A(), "x2": A("float64", (2,))},
    "linalg.tensordot": {"x1": M, "x2": M},
    "linalg.vecdot": {"x1": A(), "x2": A()},
    "linalg.vector_norm": {"x": A()},
    # fft
    **{f"fft.{n}": {"x": A("complex128", (4,))} for n in ("fft", "ifft", "irfft", "hfft")},
    **{f"fft.{n}": {"x": A("complex128", (2, 4))} for n in ("fftn", "ifftn", "irfftn")},
    "fft.rfft": {"x": A("float64", (4,))}, "fft.ihfft": {"x": A("float64", (4,))},
    "fft.rfftn": {"x": A("float64", (2, 4))},
    "fft.fftfreq": {"n": V(4)}, "fft.rfftfreq": {"n": V(4)},
    "fft.fftshift": {"x": A("float64", (4,))}, "fft.ifftshift": {"x": A("float64", (4,))},
}  # fmt: skip
# (function, parameter) -> role, where the name alone does not say it
ROLE_OF = {
    ("repeat", "repeats"): "repeats", ("tile", "repetitions"): "shape", ("roll", "shift"): "shift",
    ("moveaxis", "source"): "axis", ("moveaxis", "destination"): "axis", ("permute_dims", "axes"): "axes",
    ("tensordot", "axes"): "tensordot_axes", ("linalg.tensordot", "axes"): "tensordot_axes",
    ("linalg.matrix_power", "n"): "int", ("diff", "n"): "int", ("isdtype", "kind"): "kind",
    ("isdtype", "dtype"): "dtype", ("can_cast", "from_"): "dtype_or_array", ("can_cast", "to"): "dtype",
    ("finfo", "type"): "dtype_or_array", ("iinfo", "type"): "dtype_or_array", ("asarray", "obj"): "obj",
    ("clip", "min"): "bound", ("clip", "max"): "bound", ("diff", "prepend"): "optional_array",
    ("diff", "append"): "optional_array", ("searchsorted", "sorter"): "optional_array",
    ("from_dlpack", "x"): "dlpack",
    **{(f"fft.{n}", "n"): "fft_n" for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    ("fft.fftfreq", "n"): "count", ("fft.rfftfreq", "n"): "count",
    **{(f"fft.{n}", "s"): "fft_s" for n in ("fftn", "ifftn", "rfftn", "irfftn")},
    **{(f"fft.{n}", "axes"): "axes" for n in ("fftn", "ifftn", "rfftn", "irfftn", "fftshift", "ifftshift")},
}  # fmt: skip
ROLES.update(
    {
        "repeats": (V(2), V(0), V(-1), V(1.5), V(True), A("int64", (3,), "pos"), A("int64", ()), A("uint64", (3,), "pos"),
                    A("float64", (3,)), A("int64", (2,)), A("int64", (3,), "neg"), V([1, 2, 3]), NP("int64", 2), V(None)),
        "shift": (V(1), V(-1), V((1,)), V([1]), V(1.5), V(None), NP("int64", 1), A("int64", ()), OBJ),
        "tensordot_axes": (V(2), V(1), V(0), V(-1), V(3), V(((1,), (0,))), V([[1], [0]]), V(((1, 0), (0, 1))), V((1,)),
                           V(1.5), V(None)),
        "kind": (V("bool"), V("signed integer"), V("unsigned integer"), V("integral"), V("real floating"),
                 V("complex floating"), V("numeric"), V("bogus"), DT("float64"), V(("integral", "real floating")),
                 SEQ("tuple", V("bool"), DT("float64")), V(["integral"]), V(None), V(1), OBJ),
        "dtype_or_array": tuple(DT(d) for d in DTYPES) + (A("float32"), A("int8", ()), PYTYPE("float"), PYTYPE("int"),
                                                          NPDT("float64"), V(None), OBJ),
        "obj": (V([1, 2]), V([1.5, 2.5]), V([True, False]), V([1j, 2]), V([[1, 2], [3, 4]]), V([[1], [2, 3]]), V([]),
                V(1), V(1.5), V(True), V(1j), V(2**70), V([2**70]), V(-1), V((1, 2)), V([1, None]), V("ab"), V(None),
                NP("float64", 1.5), NP("int8", 3), NPARR("float64"), NPARR("float16"), NPARR("int32", ()),
                A("float32"), A("int8", ()), SEQ("list", A("float64", ()), A("float64", ())), OBJ),
        "bound": (V(None), V(0), V(0.5), V(-1), V(2**70), V(True), V(1j), V(math.nan), NP("float64", 0.5), OBJ)
        + tuple(A(d, (3,)) for d in DTYPES) + (A("float64", ()), A("float64", (2,))),
        "optional_array": (V(None), A(), A("float64", ()), A("int64"), A("float32"), A("float64", (0,)), V(1.0), V([1.0]), OBJ),
        "dlpack": tuple(A(d) for d in DTYPES) + (A("float64", ()), A("float64", (0,)), NPARR("float64"), V(1.0), V(None), OBJ),
        "fft_n": (V(None), V(4), V(8), V(2), V(1), V(0), V(-1), V(1.5), V(True), NP("int64", 4)),
        "fft_s": (V(None), V((2, 4)), V([2, 4]), V((4,)), V((0, 4)), V((-1, 4)), V((2.0, 4.0)), V(4), OBJ),
        "arrays": (),  # (see _variants)
        "shapes": (),
    }
)  # fmt: skip

# Two-array functions whose (p, q) arrays meet every pair of dtypes.
PAIRS = {
    **{name: ("x1", "x2") for name in ELEMENTWISE_BINARY},
    "matmul": ("x1", "x2"), "tensordot": ("x1", "x2"), "vecdot": ("x1", "x2"), "searchsorted": ("x1", "x2"),
    "isin": ("x1", "x2"), "where": ("x1", "x2"), "linalg.matmul": ("x1", "x2"), "linalg.solve": ("x1", "x2"),
    "linalg.cross": ("x1", "x2"), "linalg.outer": ("x1", "x2"), "linalg.tensordot": ("x1", "x2"),
    "linalg.vecdot": ("x1", "x2"), "concat": ("arrays", 0), "stack": ("arrays", 0), "result_type": ("arrays_and_dtypes", 0),
    "can_cast": ("from_", "to"), "astype": ("x", "dtype"), "broadcast_arrays": ("arrays", 0), "meshgrid": ("arrays", 0),
}  # fmt: skip
# Functions of two operands that also take a Python scalar for either (the standard's 2024.12).
SCALAR_FUNCTIONS = frozenset(ELEMENTWISE_BINARY) | {"where", "isin", "searchsorted"}


def _role(func: str, param: str) -> str:
    role = ROLE_OF.get((func, param))
    if role is not None:
        return role
    if param in _NAME_ROLES:
        return _NAME_ROLES[param]
    return "array" if param in ("x", "x1", "x2", "condition", "indices") else param


def _array_variants(base: tuple) -> list[tuple]:
    """Other arrays where ``base`` (an array spec) is asked: every dtype, other shapes, non-arrays."""
    _, dtype, shape, fill = base
    out = [A(d, shape, fill) for d in DTYPES if d != dtype]
    extra = [()] if shape != () else []
    extra += [(0,) + shape[1:], (2,) + shape if len(shape) < 3 else shape[1:]]
    if len(shape) >= 2:
        extra.append(shape[:-2] + (0, 0))
    out += [A(dtype, s, fill) for s in extra if s != shape]
    return out + list(NOT_ARRAYS)


def _variants(func: str, param: str, base) -> list[tuple]:
    role = _role(func, param)
    if role == "array":
        if base is None or base[0] != "A":
            return []
        return _array_variants(base)
    if role in ("arrays", "arrays_and_dtypes"):
        one = A()
        return [
            SEQ("tuple", one),
            SEQ("list", one, one),
            SEQ("tuple"),
            SEQ("tuple", one, A("float64", (2, 2))),
            SEQ("tuple", one, A("float64", ())),
            SEQ("tuple", one, V(1.0)),
            SEQ("tuple", one, V(1)),
            SEQ("tuple", one, V(None)),
            SEQ("tuple", one, OBJ),
            SEQ("tuple", one, DT("int8")),
            SEQ("tuple", V(1), V(2.0)),
            one,
            V(None),
        ]
    if role == "shapes":
        return [
            SEQ("tuple", V((2,)), V((3,))),
            SEQ("tuple", V([2, 1]), V((1, 3))),
            SEQ("tuple", V((2, 1))),
            SEQ("tuple"),
            SEQ("tuple", V(2), V((3, 1))),
            SEQ("tuple", V((2, -1)), V((2,))),
            SEQ("tuple", V((2.0,)), V((2,))),
            SEQ("tuple", V(None)),
            SEQ("tuple", A("int64", (2,)), V((2,))),
        ]
    return list(ROLES.get(role, ()))


def _parameters(strict, name: str) -> list[inspect.Parameter]:
    return list(inspect.signature(_resolve(strict, name)).parameters.values())


def _resolve(xp, name: str):
    obj = xp
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def _call_case(func: str, params: list[inspect.Parameter], given: dict) -> Case:
    """The case calling ``func`` with ``given`` (param name -> spec): positional-only and
    positional-or-keyword parameters by position, the others by keyword."""
    args: list = []
    kwargs = []
    for p in params:
        if p.name not in given:
            continue
        spec = given[p.name]
        if p.kind is p.VAR_POSITIONAL:
            args.extend(spec[2] if spec[0] == "SEQ" else (spec,))
        elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and all(
            q.name in given for q in params[: params.index(p)] if q.kind in (q.POSITIONAL_ONLY, q.POSITIONAL_OR_KEYWORD)
        ):
            args.append(spec)
        else:
            kwargs.append((p.name, spec))
    return Case(("fn", func), tuple(args), tuple(kwargs))


def function_names(strict) -> list[str]:
    """Every function of array-api-strict's namespace, ``linalg.*`` and ``fft.*`` (not its flags' extras)."""
    extras = {"set_array_api_strict_flags", "get_array_api_strict_flags", "reset_array_api_strict_flags"}
    names = [
        n
        for n in strict.__all__
        if callable(getattr(strict, n)) and n not in extras and not isinstance(getattr(strict, n), type)
    ]
    names = [n for n in names if not hasattr(getattr(strict, n), "_np_dtype") and n != "__array_namespace_info__"]
    for ext in ("linalg", "fft"):
        names += [f"{ext}.{n}" for n in getattr(strict, ext).__all__]
    return names


def _function_cases(strict) -> list[Case]:
    cases: list[Case] = []
    for func in function_names(strict):
        params = _parameters(strict, func)
        base = dict(BASELINES.get(func, {}))
        if not base:
            required = [p.name for p in params if p.default is p.empty and p.kind is not p.VAR_POSITIONAL]
            base = {n: A() for n in required}
            if func in ELEMENTWISE_UNARY or func in ELEMENTWISE_BINARY:
                base = {n: A() for n in ("x", "x1", "x2") if any(p.name == n for p in params)}
        cases.append(_call_case(func, params, base))
        for p in params:
            for spec in _variants(func, p.name, base.get(p.name)):
                if spec == base.get(p.name):
                    continue
                cases.append(_call_case(func, params, {**base, p.name: spec}))
        pair = PAIRS.get(func)
        if pair is not None:
            cases += _pair_cases(func, params, base, pair)
        if func in SCALAR_FUNCTIONS:
            cases += _scalar_cases(func, params, base)
    cases += _explicit_function_cases(strict)
    return cases


def _pair_cases(func: str, params, base: dict, pair) -> list[Case]:
    p, q = pair
    out = []
    if q == 0:  # one sequence parameter holding two arrays (or dtypes)
        items = base[p][2]
        for d1 in DTYPES:
            for d2 in DTYPES:
                if func == "result_type":
                    spec = SEQ("tuple", DT(d1), DT(d2))
                else:
                    spec = SEQ(base[p][1], A(d1, items[0][2], items[0][3]), A(d2, items[1][2], items[1][3]))
                out.append(_call_case(func, params, {**base, p: spec}))
        return out
    for d1 in DTYPES:
        for d2 in DTYPES:
            left = DT(d1) if base[p][0] == "DT" else A(d1, base[p][2], base[p][3])
            right = DT(d2) if base[q][0] == "DT" else A(d2, base[q][2], base[q][3])
            out.append(_call_case(func, params, {**base, p: left, q: right}))
    if func in ELEMENTWISE_BINARY:  # out-of-domain arrays: negative and zero right operands, 0-d and empty mixes
        for d in DTYPES:
            for fill in ("neg", "zero"):
                out.append(_call_case(func, params, {**base, p: A(d), q: A(d, (3,), fill)}))
            out.append(_call_case(func, params, {**base, p: A(d, ()), q: A(d, (3,), "pos")}))
            out.append(_call_case(func, params, {**base, p: A(d, (0,)), q: A(d, ())}))
            out.append(_call_case(func, params, {**base, p: A(d, (2, 3), "nan"), q: A(d, (3,), "nan")}))
        out.append(_call_case(func, params, {**base, p: A("float64", (2,)), q: A("float64", (3,))}))
    return out


def _scalar_cases(func: str, params, base: dict) -> list[Case]:
    first, second = ("x1", "x2")
    out = []
    for d in DTYPES:
        for s in SCALARS:
            out.append(_call_case(func, params, {**base, first: A(d), second: s}))
            if func != "searchsorted":
                out.append(_call_case(func, params, {**base, first: s, second: A(d)}))
    for f in FOREIGN:
        out.append(_call_case(func, params, {**base, second: f}))
    out.append(_call_case(func, params, {**base, first: V(1), second: V(2)}))
    return out


def _explicit_function_cases(strict) -> list[Case]:
    """Calls a one-at-a-time variation does not reach: pairs of arguments that only together
    are out of the domain, and every dtype against the value parameters."""
    out = []

    def fn(name, *args, **kwargs):
        out.append(Case(("fn", name), tuple(args), tuple(kwargs.items())))

    for d in DTYPES:
        dt = DT(d)
        for n in (1, 2, 3):
            fn("arange", V(n), dtype=dt)
        fn("arange", V(0), V(1), V(0.25), dtype=dt)
        fn("arange", V(-2), V(2), dtype=dt)
        fn("linspace", V(0), V(1), V(2), dtype=dt)
        fn("linspace", V(0), V(1), V(1), dtype=dt)
        fn("linspace", V(0), V(3), V(4), dtype=dt)
        fn("linspace", V(0j), V(1 + 1j), V(3), dtype=dt)
        fn("eye", V(2), dtype=dt)
        for fill in (V(1), V(-1), V(300), V(1.5), V(True), V(1j), V(math.nan), V(2**70)):
            fn("full", V((2,)), fill, dtype=dt)
            fn("full_like", A(), fill, dtype=dt)
        for obj in (V([1, 2]), V([1.5, 2.5]), V([True, False]), V([1j, 2]), V(1.5), V(-1), V(300)):
            fn("asarray", obj, dtype=dt)
        for axis in (V(None), V(0), V(1)):
            for f in ("sum", "prod", "max", "min", "mean", "std", "var", "all", "any", "argmax", "argmin",
                      "count_nonzero", "cumulative_sum", "cumulative_prod", "sort", "argsort", "unique_values"):  # fmt: skip
                if f == "unique_values":
                    if axis[1] is None:
                        fn(f, A(d, (2, 3)))
                    continue
                if axis[1] is None and f in ("sort", "argsort"):
                    continue
                fn(f, A(d, (2, 3)), axis=axis)
            fn("argmax", A(d, (0,)))
            fn("max", A(d, (0,)))
        for dtype in (V(None),) + tuple(DT(e) for e in DTYPES):
            fn("sum", A(d), dtype=dtype)
            fn("prod", A(d), dtype=dtype)
            fn("cumulative_sum", A(d), dtype=dtype)
            fn("linalg.trace", A(d, (2, 2), "m"), dtype=dtype)
        fn("searchsorted", A(d, (5,), "sorted"), A(d), sorter=A("int64", (5,), "idx"))
        fn("searchsorted", A(d, (5,), "sorted"), A(d), side=V("right"))
        fn("nonzero", A(d, ()))
        fn("take", A(d, (5,)), A("int64", (3,), "oob"))
        fn("take", A(d, (2, 3)), A("int64", (2,), "idx"))
        fn("take", A(d, (5,)), A("int64", (3,), "neg"), axis=V(0))
        fn("clip", A(d), V(2), V(1))
        fn("clip", A(d), A(d, (3,), "pos"), A(d, (3,), "zero"))
        fn("clip", A(d), V(1), V(1.5))
        fn("clip", A(d), V(-(2**70)), V(2**70))
        fn("where", A("bool"), A(d), V(1))
        fn("where", A(d), A(), A())
        fn("isin", A(d), A(d, (2,)), invert=V(True))
        fn("repeat", A(d), A(d, (3,), "pos"))
        fn("diff", A(d, (5,)), prepend=A(d, (1,)), append=A(d, (2,)))
        fn("diff", A(d, (5,)), n=V(0))
        fn("diff", A(d, (5,)), n=V(-1))
        fn("cumulative_sum", A(d), include_initial=V(True))
        fn("cumulative_prod", A(d, ()))
        fn("std", A(d, (5,)), correction=V(1))
        fn("var", A(d, (1,)), correction=V(2))
        fn("iinfo", DT(d))
        fn("finfo", DT(d))
        for kind in ROLES["kind"][:8]:
            fn("isdtype", DT(d), kind)
        fn("fft.fftfreq", V(4), dtype=DT(d))
        fn("fft.rfftfreq", V(4), dtype=DT(d))
        for la in ("linalg.vector_norm", "linalg.matrix_norm", "linalg.inv", "linalg.det", "linalg.svdvals"):
            fn(la, A(d, (2, 2), "m"))
        fn("linalg.matrix_power", A(d, (2, 2), "m"), V(-1))
        fn("linalg.matrix_power", A(d, (2, 2), "m"), V(0))
        fn("linalg.inv", A(d, (2, 2), "zero"))
        fn("linalg.solve", A(d, (2, 2), "zero"), A(d, (2,)))
        fn("linalg.cholesky", A(d, (2, 2), "neg"))
        fn("linalg.vector_norm", A(d), ord=V(0))
        fn("linalg.vector_norm", A(d), ord=V(math.inf))
        fn("matmul", A(d), A(d))
        fn("matmul", A(d, (2, 3)), A(d, (2, 3)))
        fn("tensordot", A(d, (2, 3)), A(d, (3, 2)), axes=V(1))
        fn("vecdot", A(d, (2, 3)), A(d, (3,)), axis=V(0))
        fn("linalg.cross", A(d, (2,)), A(d, (2,)))
        fn("bitwise_left_shift", A(d), V(-1))
        fn("bitwise_right_shift", A(d), V(-1))
        fn("bitwise_left_shift", A(d), V(100))
        fn("bitwise_right_shift", A(d), A(d, (3,), "neg"))
        fn("pow", A(d), V(-1))
        fn("pow", A(d), V(-2))
        fn("pow", A(d, (3,), "zero"), V(-1))
        fn("pow", A(d), A(d, (3,), "neg"))
        fn("floor_divide", A(d), V(0))
        fn("remainder", A(d), V(0))
        fn("divide", A(d), V(0))
        fn("floor_divide", V(0), A(d, (3,), "zero"))
        fn("reshape", A(d, (2, 3)), V((6,)), copy=V(False))
        fn("reshape", A(d, (2, 3)), V((-1,)))
        fn("reshape", A(d, (2, 3)), V((4,)))
        fn("squeeze", A(d, (1, 3)), V((0,)))
        fn("squeeze", A(d, (2, 3)), V(0))
        fn("expand_dims", A(d), V((0, 2)))
        fn("concat", SEQ("tuple", A(d, ()), A(d, ())), axis=V(None))
        fn("concat", SEQ("tuple", A(d, (2, 3)), A(d, (2, 3))), axis=V(None))
        fn("stack", SEQ("tuple", A(d, (2,)), A(d, (3,))))
        fn("unstack", A(d, ()))
        fn("moveaxis", A(d, (2, 3)), V((0, 1)), V((1, 0)))
        fn("moveaxis", A(d, (2, 3)), V((0, 1)), V(1))
        fn("roll", A(d, (2, 3)), V((1, 2)), axis=V((0, 1)))
        fn("roll", A(d, (2, 3)), V((1, 2)), axis=V(0))
        fn("tile", A(d, (2, 3)), V((2,)))
        fn("tile", A(d), V((2, -1)))
        fn("broadcast_to", A(d, (3,)), V((2,)))
        fn("flip", A(d, (2, 3)), axis=V((0, 1)))
        fn("tril", A(d, (2, 3, 3)))
        fn("matrix_transpose", A(d))
        fn("unique_all", A(d, (2, 3)))
        fn("unique_inverse", A(d, (2, 2)))
        fn("count_nonzero", A(d, (2, 3)), axis=V((0, 1)), keepdims=V(True))
        fn("fft.fft", A(d, (4,)))
        fn("fft.rfft", A(d, (4,)))
        fn("fft.fftshift", A(d, (2, 4)), axes=V((0, 1)))
    for n in (0, 1, 2):
        fn("full", V((n,)), V(1.5), dtype=DT("bool"))
    fn("result_type", V(1), V(2.0))
    fn("result_type", V(1))
    fn("result_type")
    fn("result_type", A(), V(1j))
    fn("result_type", DT("int8"), V(2**70))
    fn("result_type", DT("uint8"), V(-1))
    fn("result_type", DT("float32"), V(1j))
    fn("broadcast_shapes")
    fn("meshgrid")
    fn("meshgrid", A("float64", (2, 2)), A())
    fn("concat", SEQ("tuple", A(), A("float64", (2, 2))))
    fn("concat", SEQ("tuple"))
    fn("stack", SEQ("tuple"))
    fn("linspace", V(0), V(1), V(5), endpoint=V(False))
    fn("linspace", V(1j), V(2), V(3))
    fn("linspace", V(0), V(1), V(3), dtype=DT("float32"))
    fn("arange", V(0.0), V(1.0), V(0.1))
    fn("arange", V(10), V(0), V(-3))
    fn("arange", V(0), V(2**63))
    fn("eye", V(2), V(3), k=V(1), dtype=DT("int8"))
    fn("can_cast", A("int8", (3,)), DT("int16"))
    fn("astype", A("complex128"), DT("float64"))
    fn("astype", A("float64", (3,), "nan"), DT("int32"))
    fn("astype", A(), DT("float64"), copy=V(False))
    return out


# -- the array object -------------------------------------------------------------------------
BINARY_OPERATORS = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and_", "or_", "xor", "lshift",
                    "rshift", "matmul") + _COMPARISONS  # fmt: skip


def _operator_cases() -> list[Case]:
    out = []
    for op in BINARY_OPERATORS:
        shape = (2, 2) if op == "matmul" else (3,)
        fill = "m" if op == "matmul" else "v"
        for d1 in DTYPES:
            for d2 in DTYPES:
                out.append(Case(("op", op), (A(d1, shape, fill), A(d2, shape, fill)), ()))
                if op in _INPLACE:
                    out.append(Case(("iop", _INPLACE[op]), (A(d1, shape, fill), A(d2, shape, fill)), ()))
            for s in SCALARS + FOREIGN:
                out.append(Case(("op", op), (A(d1, shape, fill), s), ()))
                if s[0] != "NP":  # a NumPy scalar on the left is NumPy's operator, not the array's
                    out.append(Case(("op", op), (s, A(d1, shape, fill)), ()))
                if op in _INPLACE:
                    out.append(Case(("iop", _INPLACE[op]), (A(d1, shape, fill), s), ()))
            if op != "matmul":
                for fill2 in ("neg", "zero"):
                    out.append(Case(("op", op), (A(d1), A(d1, (3,), fill2)), ()))
                    if op in _INPLACE:
                        out.append(Case(("iop", _INPLACE[op]), (A(d1), A(d1, (3,), fill2)), ()))
                out.append(Case(("op", op), (A(d1, ()), A(d1, (3,), "pos")), ()))
                out.append(Case(("iop", _INPLACE.get(op, "iadd")), (A(d1, ()), A(d1, (3,), "pos")), ()))
                out.append(Case(("op", op), (A(d1, (0,)), A(d1, ())), ()))
        out.append(Case(("op", op), (A("float64", (2,)), A("float64", (3,))), ()))
    for op in ("matmul", "imatmul"):
        for shapes in (((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((2, 3), (2, 3)), ((), (3,)), ((2, 2, 2), (2, 2))):
            target = ("op", op) if op == "matmul" else ("iop", op)
            out.append(Case(target, (A("float64", shapes[0]), A("float64", shapes[1])), ()))
    for op in ("neg", "pos", "invert", "abs"):
        for d in DTYPES:
            for shape in ((3,), (), (0,)):
                out.append(Case(("op", op), (A(d, shape),), ()))
    for conv in ("bool", "int", "float", "complex", "index"):
        for d in DTYPES:
            for shape, fill in (((), "v"), ((), "pos"), ((1,), "pos"), ((3,), "v"), ((0,), "v"), ((), "nan")):
                out.append(Case(("conv", conv), (A(d, shape, fill),), ()))
    return out


def _indexing_cases() -> list[Case]:
    out = []
    x1 = A("float64", (5,))
    x2 = A("float64", (2, 3))
    keys = (
        V(0), V(-1), V(5), V(-6), V(slice(1, 3)), V(slice(None)), V(slice(None, None, -1)), V(slice(0, 10)),
        V(slice(-10, 2)), V(...), V(None), V((0, ...)), V((..., 0)), V((None, 0)), V((0, 0)), V((..., ...)),
        V(1.5), V(True), V(False), V([0, 1]), V((0, [0])), OBJ, NP("int64", 1), NP("bool_", True),
        A("int64", (), "pos"), A("int64", (3,), "idx"), A("int64", (3,), "oob"), A("uint8", (2,), "idx"),
        A("bool", (5,)), A("bool", ()), A("bool", (2,)), A("float64", ()), SEQ("tuple", A("int64", (), "pos"), V(0)),
        SEQ("tuple", A("bool", (5,)), V(0)),
    )  # fmt: skip
    keys2 = (
        V(0), V((0, 1)), V((0, slice(None))), V((slice(None), 0)), V((0, 1, 2)), V((..., 1)), V((1, ...)),
        V((0,)), V((slice(None),)), V((None, 0, None)), V((0, slice(0, 5))), A("bool", (2, 3)), A("bool", (2,)),
        SEQ("tuple", A("int64", (2,), "idx"), A("int64", (2,), "idx")), SEQ("tuple", V(0), A("int64", (2,), "idx")),
        SEQ("tuple", A("int64", (2,), "idx"), V(slice(None))), A("int64", (2, 2), "idx"),
    )  # fmt: skip
    for key in keys:
        out.append(Case(("getitem",), (x1, key), ()))
        out.append(Case(("setitem",), (x1, key, V(1.0)), ()))
    for key in keys2:
        out.append(Case(("getitem",), (x2, key), ()))
        out.append(Case(("setitem",), (x2, key, V(1.0)), ()))
    for d in DTYPES:
        out.append(Case(("getitem",), (A(d, ()), V(())), ()))
        out.append(Case(("getitem",), (A(d, ()), V(...)), ()))
        out.append(Case(("getitem",), (A(d, ()), V(0)), ()))
        out.append(Case(("getitem",), (A(d, (0,)), V(0)), ()))
        for e in DTYPES:
            out.append(Case(("setitem",), (A(d, (3,)), V(slice(None)), A(e, (3,))), ()))
            out.append(Case(("setitem",), (A(d, (3,)), V(0), A(e, ())), ()))
        for s in SCALARS + FOREIGN:
            out.append(Case(("setitem",), (A(d, (3,)), V(0), s), ()))
        out.append(Case(("setitem",), (A(d, (3,)), V(slice(None)), A(d, (2,))), ()))
        out.append(Case(("setitem",), (A(d, (3,)), A("bool", (3,)), A(d, ())), ()))
        out.append(Case(("setitem",), (A(d, (3,)), A("int64", (2,), "idx"), V(1)), ()))
    return out


def _object_cases() -> list[Case]:
    out = []
    for d in DTYPES:
        for shape in ((), (3,), (2, 3), (2, 3, 4), (0, 2)):
            for attr in ("mT", "T", "dtype", "shape", "ndim", "size", "device"):
                if attr not in ("mT", "T") and shape not in ((), (2, 3)):
                    continue
                out.append(Case(("attr", attr), (A(d, shape),), ()))
    for dev in ROLES["device"]:
        out.append(Case(("meth", "to_device"), (A(), dev), ()))
    out.append(Case(("meth", "to_device"), (A(),), ()))
    for api_version in ROLES["api_version"]:
        out.append(Case(("meth", "__array_namespace__"), (A(),), (("api_version", api_version),)))
    for name in ("capabilities", "default_device", "devices"):
        out.append(Case(("info", name), (), ()))
    for kind in (V(None), V("bool"), V("signed integer"), V("unsigned integer"), V("integral"), V("real floating"),
                 V("complex floating"), V("numeric"), V(("integral", "bool")), V("bogus"), OBJ):  # fmt: skip
        out.append(Case(("info", "dtypes"), (), (("kind", kind),)))
    for dev in ROLES["device"]:
        out.append(Case(("info", "default_dtypes"), (), (("device", dev),)))
        out.append(Case(("info", "dtypes"), (), (("device", dev),)))
    return out


def build(strict) -> list[Case]:
    """The grid: every function of ``strict`` (the real array-api-strict), its operators and methods."""
    return _function_cases(strict) + _operator_cases() + _indexing_cases() + _object_cases()


# -- running and outcomes ----------------------------------------------------------------------
_CONVERSIONS = {"bool": bool, "int": int, "float": float, "complex": complex, "index": operator.index}


def call(xp, case: Case):
    """Make the arguments of ``case`` with ``xp`` and make the call."""
    args = [make(xp, s) for s in case.args]
    kwargs = {k: make(xp, s) for k, s in case.kwargs}
    kind = case.target[0]
    if kind == "fn":
        return _resolve(xp, case.target[1])(*args, **kwargs)
    if kind in ("op", "iop"):
        return getattr(operator, case.target[1])(*args)
    if kind == "getitem":
        return args[0][args[1]]
    if kind == "setitem":
        args[0][args[1]] = args[2]
        return args[0]
    if kind == "attr":
        return getattr(args[0], case.target[1])
    if kind == "meth":
        return getattr(args[0], case.target[1])(*args[1:], **kwargs)
    if kind == "conv":
        return _CONVERSIONS[case.target[1]](args[0])
    if kind == "info":
        return getattr(xp.__array_namespace_info__(), case.target[1])(*args, **kwargs)
    raise ValueError(f"unknown target {case.target!r}")


# The built-in classes an exception is compared by: what a user would catch.
_BUILTIN_EXCEPTIONS = (
    TypeError, ValueError, OverflowError, ZeroDivisionError, IndexError, KeyError, RuntimeError,
    NotImplementedError, AttributeError, MemoryError, RecursionError, FloatingPointError, AssertionError,
)  # fmt: skip


def builtin_classes(exc: BaseException) -> tuple[str, ...]:
    return tuple(c.__name__ for c in _BUILTIN_EXCEPTIONS if isinstance(exc, c)) or ("Exception",)


# Functions whose values are unspecified: only the dtype and shape of their result are compared.
_NO_VALUES = frozenset({("fn", "empty"), ("fn", "empty_like")})


def outcome(xp, case: Case, dtype_names: dict) -> tuple:
    """``("raise", builtin classes, type name, message)`` or a description of the result (``describe``)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = describe(call(xp, case), dtype_names)
    except Exception as exc:  # every exception is an outcome
        return ("raise", builtin_classes(exc), type(exc).__name__, str(exc))
    finally:
        if case.target == ("meth", "__array_namespace__") and hasattr(xp, "reset_array_api_strict_flags"):
            xp.reset_array_api_strict_flags()  # array-api-strict's api_version= is global
    if case.target in _NO_VALUES and result[0] == "array":
        result = result[:3] + (None,)
    return result


def describe(r, dtype_names: dict) -> tuple:
    """A result as comparable data: ``("array", dtype, shape, values)``, ``("py", type, value)``, ..."""
    if r is NotImplemented:
        return ("notimplemented",)
    if r is None:
        return ("none",)
    t = type(r)
    if t in (bool, int, float, complex, str):
        return ("py", t.__name__, r)
    if hasattr(r, "bits") and hasattr(r, "max"):  # finfo, iinfo (ours are named tuples)
        fields = ("bits", "eps", "max", "min", "smallest_normal")
        return ("info", tuple((f, getattr(r, f, None)) for f in fields), _dtype_name(r.dtype, dtype_names))
    if isinstance(r, (tuple, list)):
        return (
            "seq",
            "tuple" if isinstance(r, tuple) else "list",
            getattr(r, "_fields", None),
            tuple(describe(x, dtype_names) for x in r),
        )
    if isinstance(r, dict):
        return ("dict", tuple(sorted((str(k), describe(v, dtype_names)) for k, v in r.items())))
    if isinstance(r, types.ModuleType):
        return ("module",)
    if hasattr(r, "__array_namespace__") and hasattr(r, "shape"):
        data = r._array if hasattr(r, "_array") else r._data
        return ("array", _dtype_name(r.dtype, dtype_names), tuple(r.shape), np.array(data, copy=True))
    name = _dtype_name(r, dtype_names)
    if name is not None:
        return ("dtype", name)
    if t.__name__ == "Device":
        return ("device",)
    return ("other", t.__name__)


def _dtype_name(dtype, dtype_names: dict):
    try:
        return dtype_names.get(dtype)
    except TypeError:  # unhashable
        return None


def dtype_names(xp) -> dict:
    return {getattr(xp, d): d for d in DTYPES if hasattr(xp, d)}


def run(xp, cases: list[Case]) -> list[tuple]:
    """The outcome of every case on the namespace ``xp``."""
    names = dtype_names(xp)
    return [outcome(xp, case, names) for case in cases]


# -- comparing ---------------------------------------------------------------------------------
def compare(ref: tuple, ours: tuple) -> str | None:
    """``None`` if the two outcomes are of one class, else why not.

    An exception matches when ours is an instance of every built-in class the reference's is
    (what a user catching the reference's exception catches); a result matches by kind, dtype
    name, shape and values (NaN-aware; floating values within a few ulps, others exactly)."""
    if ref[0] == "raise" or ours[0] == "raise":
        if ref[0] != ours[0]:
            return f"{_short(ref)} vs {_short(ours)}"
        if not set(ref[1]) <= set(ours[1]):
            return f"raises {'/'.join(ref[1])} vs {'/'.join(ours[1])} ({ours[2]})"
        return None
    return _compare_values(ref, ours)


def _short(o: tuple) -> str:
    if o[0] == "raise":
        return f"raises {o[2]}: {o[3][:160]}"
    if o[0] == "array":
        return f"{o[1]} array {o[2]}"
    if o[0] == "seq":
        return f"{o[1]} of {len(o[3])}: [{', '.join(_short(x) for x in o[3])}]"
    return repr(o)[:160]


def _compare_values(ref: tuple, ours: tuple) -> str | None:
    if ref[0] != ours[0]:
        return f"{_short(ref)} vs {_short(ours)}"
    kind = ref[0]
    if kind == "array":
        if ref[1] != ours[1] or ref[2] != ours[2]:
            return f"{_short(ref)} vs {_short(ours)}"
        if ref[3] is not None and not _same_values(ref[3], ours[3]):
            return f"values {ref[3].tolist()} vs {ours[3].tolist()}"
        return None
    if kind == "seq":
        if ref[1] != ours[1] or ref[2] != ours[2] or len(ref[3]) != len(ours[3]):
            return f"{_short(ref)} vs {_short(ours)}"
        for i, (a, b) in enumerate(zip(ref[3], ours[3])):
            why = _compare_values(a, b)
            if why is not None:
                return f"[{i}] {why}"
        return None
    if kind == "dict":
        if [k for k, _ in ref[1]] != [k for k, _ in ours[1]]:
            return f"keys {[k for k, _ in ref[1]]} vs {[k for k, _ in ours[1]]}"
        for (k, a), (_, b) in zip(ref[1], ours[1]):
            why = _compare_values(a, b)
            if why is not None:
                return f"[{k!r}] {why}"
        return None
    if kind == "py":
        if ref[1] != ours[1] or not _same_values(np.asarray(ref[2]), np.asarray(ours[2])):
            return f"{ref[1]} {ref[2]!r} vs {ours[1]} {ours[2]!r}"
        return None
    if kind == "info":
        if ref[2] != ours[2] or any(
            not _same_values(np.asarray(a[1]), np.asarray(b[1])) for a, b in zip(ref[1], ours[1])
        ):
            return f"{ref} vs {ours}"
        return None
    return None if ref == ours else f"{_short(ref)} vs {_short(ours)}"


def _same_values(a: np.ndarray, b: np.ndarray) -> bool:
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        a = a.astype(np.result_type(a.dtype, b.dtype, np.float16))
        b = b.astype(a.dtype)
        eps = np.finfo(a.dtype).eps
        parts = (a.real, b.real, a.imag, b.imag) if a.dtype.kind == "c" else (a, b, None, None)
        for x, y in ((parts[0], parts[1]), (parts[2], parts[3])):
            if x is None:
                continue
            nan = np.isnan(x)
            if not np.array_equal(nan, np.isnan(y)):
                return False
            x, y = x[~nan], y[~nan]
            if not np.array_equal(x == y, np.ones_like(x, dtype=bool)):
                with np.errstate(all="ignore"):
                    close = np.abs(x - y) <= 8 * eps * np.maximum(np.maximum(np.abs(x), np.abs(y)), 1.0)
                if not close.all():
                    return False
        return True
    return a.dtype == b.dtype and np.array_equal(a, b)


def message_difference(ref: tuple, ours: tuple) -> bool:
    """Whether two refusals of one class are worded differently: array-api-strict's message does not
    start ours (the stand-in's words are its, then ours: ``"<its> (array_api_promo: <ours>)"``)."""
    return ref[0] == ours[0] == "raise" and compare(ref, ours) is None and not ours[3].startswith(ref[3])


def main(argv: list[str]) -> int:
    """``python -m strict_differential.grid CASES OUTCOMES``: run the pickled cases on ``import array_api_strict``."""
    import array_api_strict

    with open(argv[0], "rb") as f:
        cases = pickle.load(f)
    outcomes = run(array_api_strict, cases)
    with open(argv[1], "wb") as f:
        pickle.dump(outcomes, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
