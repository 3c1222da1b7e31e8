#!/usr/bin/env python
"""Generate ``tests/data/numpy_<version>_promotion.json`` and ``numpy_<version>_ops.json`` from real NumPy 2.

Run:  python tools/gen_numpy_golden.py            (NumPy 2.5.5 for ``numpy``, 2.4.6 for ``numpy@2.4``:
                                                   the version is in the file names and recorded)
      python tools/gen_numpy_golden.py --print-table   (the promote_types rows for
                                                          array_api_promo/promotion/numpy.py)

What the tables pin (NumPy 2, NEP 50 "weak Python scalars"):

* ``np.promote_types`` over the 13 standard dtypes + float16 (``promote_types``),
  ``np.can_cast(a, b, "safe")`` and ``"same_kind"`` (in-place operators cast their result
  to the target with ``same_kind``).
* Every pair of operands -- n-d arrays (``np.ones(2, dtype)``), 0-d arrays
  (``np.ones((), dtype)``: *strong* under NEP 50, exactly like n-d arrays) and Python
  scalars -- through ``np.result_type(a, b)`` (which looks at types only: it never
  raises for an out-of-range Python int) and ``np.add(a, b)`` (which does: ``OverflowError:
  Python integer 1000 out of bounds for int8``).
* Python ints at and beyond the 64-bit bounds at every entry point (``entry_points``: ``x + v``,
  ``np.add``, ``np.result_type``, ``np.where``, ``np.clip``, ``np.asarray``, ``np.full``; the
  cases are ``tools/entry_golden.py``'s).
* Linear algebra of every input dtype (``numpy_<version>_ops.json``, ``linalg``): the result
  dtype(s) of ``np.linalg.<function>`` on a 2x2 matrix, or the refusal.
* Per operation (``numpy_ops.json``): the dtype every array API elementwise function
  gives for each input dtype (unary), each pair of n-d dtypes and n-d x Python scalar in
  both orders (binary), and in-place operators (``a += b`` casts with ``same_kind``).
  The ufunc loop lists (``np.<ufunc>.types``, restricted to our dtypes) are recorded too:
  NumPy picks the first loop every input casts to safely, so ``np.sqrt(int8)`` is
  float16 (the ``e->e`` loop) and ``np.arctan2(int8, uint8)`` is float16 although int8
  and uint8 promote to int16.

Surprises found while writing the ``numpy`` policy (all pinned by the tables):
* sqrt/sin/exp/... of bool, int8, uint8 give float16; of int16/uint16 float32; of wider
  integers float64.  ``np.divide`` (true division) of two integers/bools is always float64
  (a special type resolver), but int8 / float16 is float16.
* ``np.arctan2(int8 array, 1)`` is float16 (the weak int takes int8 first), but
  ``np.arctan2(int8 array, 1.5)`` is float64 (int8 + weak float promotes to float64).
* negative(bool) and subtract(bool, bool) raise; positive(bool) too; ``np.sign(bool)`` raises
  (no loop); ``np.round(bool)`` gives float16.
* bool array + Python int gives int64 and ``bool array + 2**63`` raises OverflowError;
  comparisons with an out-of-range Python int do not raise (``int8 array == 1000`` is
  False everywhere).
"""

from __future__ import annotations

import argparse
import ast
import itertools
import json
import operator
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import entry_golden  # noqa: E402
import golden_dtypes as G  # noqa: E402

GENERATOR = "tools/gen_numpy_golden.py"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DTYPE_NAMES = G.NUMPY
CHAR_NAMES = {np.dtype(n).char: n for n in DTYPE_NAMES}
CHAR_NAMES.update({"q": "int64", "Q": "uint64", "l": "int64", "L": "uint64"})

PY_LITERALS = [
    "True",
    "False",
    "0",
    "1",
    "-1",
    "127",
    "128",
    "255",
    "256",
    "-129",
    "1000",
    "2147483648",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "1.5",
    "-0.0",
    "1e39",
    "1e300",
    "1j",
    "(1.5-2j)",
]
OP_PY_SCALARS = ["True", "1", "1000", "1.5", "1j"]

# array API name -> NumPy function
UNARY = {
    "abs": "absolute",
    "acos": "arccos",
    "acosh": "arccosh",
    "asin": "arcsin",
    "asinh": "arcsinh",
    "atan": "arctan",
    "atanh": "arctanh",
    "bitwise_invert": "invert",
    "ceil": "ceil",
    "conj": "conjugate",
    "cos": "cos",
    "cosh": "cosh",
    "exp": "exp",
    "expm1": "expm1",
    "floor": "floor",
    "imag": "imag",
    "isfinite": "isfinite",
    "isinf": "isinf",
    "isnan": "isnan",
    "log": "log",
    "log1p": "log1p",
    "log2": "log2",
    "log10": "log10",
    "logical_not": "logical_not",
    "negative": "negative",
    "positive": "positive",
    "real": "real",
    "reciprocal": "reciprocal",
    "round": "round",
    "sign": "sign",
    "signbit": "signbit",
    "sin": "sin",
    "sinh": "sinh",
    "sqrt": "sqrt",
    "square": "square",
    "tan": "tan",
    "tanh": "tanh",
    "trunc": "trunc",
}
BINARY = {
    "add": "add",
    "atan2": "arctan2",
    "bitwise_and": "bitwise_and",
    "bitwise_left_shift": "left_shift",
    "bitwise_or": "bitwise_or",
    "bitwise_right_shift": "right_shift",
    "bitwise_xor": "bitwise_xor",
    "copysign": "copysign",
    "divide": "divide",
    "equal": "equal",
    "floor_divide": "floor_divide",
    "greater": "greater",
    "greater_equal": "greater_equal",
    "hypot": "hypot",
    "less": "less",
    "less_equal": "less_equal",
    "logaddexp": "logaddexp",
    "logical_and": "logical_and",
    "logical_or": "logical_or",
    "logical_xor": "logical_xor",
    "maximum": "maximum",
    "minimum": "minimum",
    "multiply": "multiply",
    "nextafter": "nextafter",
    "not_equal": "not_equal",
    "pow": "power",
    "remainder": "remainder",
    "subtract": "subtract",
    "matmul": "matmul",
    "where": "where",
    "clip": "clip",
}
INPLACE = {
    "add": operator.iadd,
    "subtract": operator.isub,
    "multiply": operator.imul,
    "divide": operator.itruediv,
    "floor_divide": operator.ifloordiv,
    "pow": operator.ipow,
    "bitwise_and": operator.iand,
}


# Reductions and cumulative functions: the standard's name -> NumPy's (what each returns for
# every input dtype, bool included).
REDUCTIONS = {
    "sum": "sum",
    "prod": "prod",
    "cumulative_sum": "cumulative_sum",
    "cumulative_prod": "cumulative_prod",
    "max": "max",
    "min": "min",
    "mean": "mean",
    "std": "std",
    "var": "var",
}


def numpy_call(name: str, fn_name: str):
    fn = getattr(np, fn_name)
    if name == "where":
        return lambda a, b: np.where(True, a, b), "np.where(True, x1, x2)"
    if name == "clip":
        return lambda a, b: np.clip(a, b, None), "np.clip(x1, x2, None)"
    return fn, f"np.{fn_name}"


def make_operand(spec: str):
    kind, _, val = spec.partition(":")
    if kind == "py":
        return ast.literal_eval(val)
    if kind == "nd":
        return np.ones(2, dtype=val)
    if kind == "0d":
        return np.ones((), dtype=val)
    raise ValueError(spec)


def error_record(exc: BaseException) -> dict:
    lines = str(exc).strip().splitlines()
    return {"error": type(exc).__name__, "message": lines[0] if lines else ""}


def outcome(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn()
    except Exception as exc:  # noqa: BLE001 - every failure is recorded
        return error_record(exc)
    dt = out if isinstance(out, np.dtype) else getattr(out, "dtype", None)
    return str(np.dtype(dt)) if dt is not None else {"error": "NoDtype", "message": repr(out)}


def loops(fn_name: str):
    """The ufunc's loops over our dtypes: [[input names...], output name]."""
    fn = getattr(np, fn_name, None)
    if not isinstance(fn, np.ufunc):
        return None
    out = []
    for sig in fn.types:
        ins, outs = sig.split("->")
        if all(c in CHAR_NAMES for c in ins + outs):
            rec = [[CHAR_NAMES[c] for c in ins], CHAR_NAMES[outs[0]]]
            if rec not in out:
                out.append(rec)
    return out


def entry_point_records():
    cond = np.array([True, False])
    calls = {
        "operator": lambda d, v: np.ones(2, d) + v,
        "function": lambda d, v: np.add(np.ones(2, d), v),
        "result_type": lambda d, v: np.result_type(np.ones(2, d), v),
        "where": lambda d, v: np.where(cond, np.ones(2, d), v),
        "clip_min": lambda d, v: np.clip(np.ones(2, d), v, None),
        "clip_max": lambda d, v: np.clip(np.ones(2, d), None, v),
        "asarray": lambda d, v: np.asarray(v, dtype=d),
        "full": lambda d, v: np.full(2, v, dtype=d),
    }

    def describe(out):
        if isinstance(out, np.dtype):
            return {"dtype": str(out)}
        return {"dtype": str(out.dtype), "values": entry_golden.numpy_values(np.asarray(out))}

    return entry_golden.records(DTYPE_NAMES, calls, describe)


# NumPy scalars (each holding 1: NumPy's, then ml_dtypes' bfloat16 and float8 family) at every entry point,
# with ``x = np.ones(2, dtype)`` of every dtype.
NUMPY_SCALAR_CALLS = {
    "operator": "x + s",
    "reflected": "s + x",
    "function": "np.add(x, s)",
    "result_type": "np.result_type(x, s)",
    "where": "np.where(c, x, s)",
    "clip_min": "np.clip(x, s, None)",
    "asarray": "np.asarray(s)",
    "full": "np.full(2, s)",
}


def numpy_scalar_records():
    cond = np.array([True, False])
    calls = {
        "operator": lambda x, s: x + s,
        "reflected": lambda x, s: s + x,
        "function": lambda x, s: np.add(x, s),
        "result_type": lambda x, s: np.result_type(x, s),
        "where": lambda x, s: np.where(cond, x, s),
        "clip_min": lambda x, s: np.clip(x, s, None),
        "asarray": lambda x, s: np.asarray(s),
        "full": lambda x, s: np.full(2, s),
    }
    return [
        {
            "entry": entry,
            "dtype": d,
            "scalar": name,
            "result": outcome(lambda: calls[entry](np.ones(2, d), G.scalar_type(name)(1))),
        }
        for entry in NUMPY_SCALAR_CALLS
        for d in DTYPE_NAMES
        for name in G.NUMPY_SCALARS
    ]


def ml_dtypes_casts():
    """How NumPy casts ml_dtypes' types (what its promotion and ufunc loop search go by): each one's
    dtype kind, and the dtypes it casts to and from safely."""
    import ml_dtypes

    out = {}
    for name in G.ML_DTYPES:
        ml = np.dtype(getattr(ml_dtypes, name))
        out[name] = {
            "kind": ml.kind,
            "safe_to": [d for d in DTYPE_NAMES if np.can_cast(ml, d, "safe")],
            "safe_from": [d for d in DTYPE_NAMES if np.can_cast(d, ml, "safe")],
        }
    return {"release": ml_dtypes.__version__, "types": out}


# Creation with a dtype (``np.asarray(v, dtype=...)``, ``np.full(2, v, dtype=...)``) of numbers whose
# conversion NumPy defines on every platform: Python ints in and out of range (the check NumPy 2.1 added to
# np.full), floats a cast truncates (no NaN, infinity or float out of an integer dtype's range: C leaves
# those casts undefined), complex numbers, bools and NumPy scalars.
CREATION_VALUES = [
    "300",
    "-129",
    "2**40",
    "2**63",
    "-2**63-1",
    "2.7",
    "0.5",
    "1j",
    "(1.5+2j)",
    "True",
    "np.int64(300)",
    "np.float32(2.5)",
    "np.float64(2.7)",
]
CREATION_CALLS = {"asarray": "np.asarray(v, dtype=dtype)", "full": "np.full(2, v, dtype=dtype)"}


def creation_value_records():
    calls = {"asarray": lambda v, d: np.asarray(v, dtype=d), "full": lambda v, d: np.full(2, v, dtype=d)}
    out = []
    for entry, call in calls.items():
        for d in DTYPE_NAMES:
            for text in CREATION_VALUES:
                v = eval(text, {"np": np})  # noqa: S307 - our own literals
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        result = np.asarray(call(v, d))
                    record = {"dtype": str(result.dtype), "values": entry_golden.numpy_values(result)}
                except Exception as exc:  # noqa: BLE001 - every failure is recorded
                    record = error_record(exc)
                out.append({"entry": entry, "dtype": d, "value": text, "result": record})
    return out


# The standard's functions of two vectors (and diff of one) whose result dtype a policy decides:
# name -> (the NumPy call, its source text). Operands: [1, 0, 1] and [1, 1, 0] of each dtype.
FUNCTIONS = {
    "vecdot": (lambda a, b: np.vecdot(a, b), "np.vecdot(a, b)"),
    "tensordot": (lambda a, b: np.tensordot(a, b, axes=1), "np.tensordot(a, b, axes=1)"),
    "outer": (lambda a, b: np.outer(a, b), "np.outer(a, b)"),
    "cross": (lambda a, b: np.linalg.cross(a, b), "np.linalg.cross(a, b)"),
    "diff": (lambda a, b: np.diff(a), "np.diff(a)"),
}


def function_records():
    """Every function of ``FUNCTIONS`` on every pair of dtypes (``diff``: every dtype): the result's dtype
    and values, or the refusal."""
    out = []
    for name, (fn, _) in FUNCTIONS.items():
        pairs = [(a, a) for a in DTYPE_NAMES] if name == "diff" else itertools.product(DTYPE_NAMES, repeat=2)
        for a, b in pairs:
            x, y = np.array([1, 0, 1], dtype=a), np.array([1, 1, 0], dtype=b)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    result = np.asarray(fn(x, y))
                record = {"dtype": str(result.dtype), "values": entry_golden.numpy_values(result)}
            except Exception as exc:  # noqa: BLE001 - every failure is recorded
                record = error_record(exc)
            out.append(
                {"op": name, "operands": [f"nd:{a}"] if name == "diff" else [f"nd:{a}", f"nd:{b}"], "result": record}
            )
    return out


# np.linalg's functions of one matrix (and solve of two) whose result dtype a policy decides.
LINALG = [
    "cholesky",
    "det",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "vector_norm",
]


def linalg_records():
    """``np.linalg.<function>`` of ``[[2, 1], [1, 2]]`` (symmetric positive definite) of every dtype:
    the result's dtype, or each part's for a tuple result (eig, qr, slogdet, svd, ...)."""
    out = []
    for name in LINALG:
        for d in DTYPE_NAMES:
            a = np.array([[2, 1], [1, 2]], dtype=d)
            args = (a, a) if name == "solve" else (a, 2) if name == "matrix_power" else (a,)

            def run(name=name, args=args):
                result = getattr(np.linalg, name)(*args)
                if isinstance(result, tuple):
                    return [str(np.asarray(r).dtype) for r in result]
                return str(np.asarray(result).dtype)

            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    result = run()
            except Exception as exc:  # noqa: BLE001 - every failure is recorded
                result = error_record(exc)
            out.append({"op": name, "operands": [f"nd:{d}"], "result": result})
    return out


def promotion_doc():
    operands = (
        [f"nd:{n}" for n in DTYPE_NAMES] + [f"0d:{n}" for n in DTYPE_NAMES] + [f"py:{lit}" for lit in PY_LITERALS]
    )
    cases = []
    for sa, sb in itertools.product(operands, repeat=2):
        a, b = make_operand(sa), make_operand(sb)
        cases.append(
            {
                "operands": [sa, sb],
                "result_type": outcome(lambda: np.result_type(a, b)),
                "add": outcome(lambda: np.add(a, b)),
            }
        )
    promote = {a: {b: outcome(lambda: np.promote_types(a, b)) for b in DTYPE_NAMES} for a in DTYPE_NAMES}
    safe = {a: {b: bool(np.can_cast(a, b, "safe")) for b in DTYPE_NAMES} for a in DTYPE_NAMES}
    same_kind = {a: {b: bool(np.can_cast(a, b, "same_kind")) for b in DTYPE_NAMES} for a in DTYPE_NAMES}
    return {
        "generator": GENERATOR,
        "numpy_version": np.__version__,
        "dtypes": DTYPE_NAMES,
        "operand_syntax": {
            "nd:<dtype>": "np.ones(2, dtype=<dtype>)",
            "0d:<dtype>": "np.ones((), dtype=<dtype>)",
            "py:<literal>": "ast.literal_eval(<literal>) (a Python scalar)",
        },
        "py_literals": PY_LITERALS,
        "result_encoding": "a dtype name, or {'error': exception type, 'message': first line}",
        "promote_types": promote,
        "can_cast_safe": safe,
        "can_cast_same_kind": same_kind,
        "cases": cases,
        "entry_point_calls": entry_golden.ENTRY_POINTS,
        "huge_ints": entry_golden.HUGE_INTS,
        "entry_points": entry_point_records(),
        "numpy_scalar_types": G.NUMPY_SCALARS,
        "numpy_scalar_calls": NUMPY_SCALAR_CALLS,
        "numpy_scalars": numpy_scalar_records(),
        "ml_dtypes": ml_dtypes_casts(),
        "creation_calls": CREATION_CALLS,
        "creation_values": creation_value_records(),
    }


def ops_doc():
    unary, binary, inplace = [], [], []
    calls = {}
    loop_table = {}
    for name, fn_name in UNARY.items():
        fn, call = numpy_call(name, fn_name)
        calls[name] = call
        loop_table[name] = loops(fn_name)
        for d in DTYPE_NAMES:
            x = make_operand(f"nd:{d}")
            unary.append({"op": name, "operands": [f"nd:{d}"], "result": outcome(lambda: fn(x))})
    for name, fn_name in BINARY.items():
        fn, call = numpy_call(name, fn_name)
        calls[name] = call
        loop_table[name] = loops(fn_name)
        pairs = [(f"nd:{a}", f"nd:{b}") for a in DTYPE_NAMES for b in DTYPE_NAMES]
        for d in DTYPE_NAMES:
            for lit in OP_PY_SCALARS:
                pairs.append((f"nd:{d}", f"py:{lit}"))
                if name != "clip":
                    pairs.append((f"py:{lit}", f"nd:{d}"))
        if name not in ("matmul", "clip"):  # two Python scalars: every ufunc (and np.where) takes them
            pairs += [(f"py:{a}", f"py:{b}") for a in OP_PY_SCALARS for b in OP_PY_SCALARS]
        for sa, sb in pairs:
            a, b = make_operand(sa), make_operand(sb)
            if name == "matmul" and (sa.startswith("py") or sb.startswith("py")):
                continue
            binary.append({"op": name, "operands": [sa, sb], "result": outcome(lambda: fn(a, b))})
    reductions = []
    for name, fn_name in REDUCTIONS.items():
        calls[name] = f"np.{fn_name}"
        for d in DTYPE_NAMES:
            x = make_operand(f"nd:{d}")
            reductions.append({"op": name, "operands": [f"nd:{d}"], "result": outcome(lambda: getattr(np, fn_name)(x))})
    for name, iop in INPLACE.items():
        for a in DTYPE_NAMES:
            others = [f"nd:{b}" for b in DTYPE_NAMES] + [f"py:{lit}" for lit in OP_PY_SCALARS]
            for sb in others:

                def run(a=a, sb=sb):
                    x = make_operand(f"nd:{a}").copy()
                    return iop(x, make_operand(sb))

                inplace.append({"op": name, "operands": [f"nd:{a}", sb], "result": outcome(run)})
    return {
        "generator": GENERATOR,
        "numpy_version": np.__version__,
        "dtypes": DTYPE_NAMES,
        "calls": calls,
        "inplace_operators": {k: v.__name__ for k, v in INPLACE.items()},
        "ufunc_loops": loop_table,
        "unary": unary,
        "binary": binary,
        "inplace": inplace,
        "reductions": reductions,
        "linalg_input": "np.array([[2, 1], [1, 2]], dtype); solve(a, a), matrix_power(a, 2)",
        "linalg": linalg_records(),
        "function_input": "a = np.array([1, 0, 1], dtype), b = np.array([1, 1, 0], dtype)",
        "function_calls": {name: text for name, (_, text) in FUNCTIONS.items()},
        "functions": function_records(),
    }


def print_table():
    short = {
        "bool": "b1",
        "int8": "i1",
        "int16": "i2",
        "int32": "i4",
        "int64": "i8",
        "uint8": "u1",
        "uint16": "u2",
        "uint32": "u4",
        "uint64": "u8",
        "float16": "f2",
        "float32": "f4",
        "float64": "f8",
        "complex64": "c8",
        "complex128": "c16",
    }
    print(f"# np.promote_types, NumPy {np.__version__} (axes: {' '.join(short[n] for n in DTYPE_NAMES)})")
    for a in DTYPE_NAMES:
        row = ", ".join(short[str(np.promote_types(a, b))] for b in DTYPE_NAMES)
        print(f"    ({row}),")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out-dir", default=os.path.join(HERE, "tests", "data"))
    ap.add_argument("--print-table", action="store_true")
    args = ap.parse_args(argv)
    if int(np.__version__.split(".")[0]) < 2:
        sys.exit(f"{GENERATOR}: requires NumPy >= 2 (NEP 50), found {np.__version__}")
    if args.print_table:
        print_table()
        return 0
    os.makedirs(args.out_dir, exist_ok=True)
    for kind, doc in (("promotion", promotion_doc()), ("ops", ops_doc())):
        fname = f"numpy_{np.__version__}_{kind}.json"
        path = os.path.join(args.out_dir, fname)
        with open(path, "w") as fh:
            json.dump(doc, fh, sort_keys=True, indent=0)
            fh.write("\n")
        sizes = {k: len(v) for k, v in doc.items() if isinstance(v, list) and k != "dtypes"}
        print(f"wrote {path}: {sizes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
