#!/usr/bin/env python
"""Generate ``tests/data/numpy_1.26.4_promotion.json`` and ``..._ops.json`` from real NumPy 1.26.4.

Run (NumPy 1.26.4 lives in its own virtual environment; the script needs nothing else):

    python -m venv .venv-np126 && .venv-np126/bin/pip install numpy==1.26.4
    .venv-np126/bin/python tools/gen_numpy_legacy_golden.py

What the tables pin: NumPy 1.x's default promotion, *value-based casting* included
(the rules the seeds compare with PyTorch's, replaced by NEP 50 in NumPy 2):

* Operands: n-d arrays (``np.ones(2, dtype)``), 0-d arrays holding 1 (``np.ones((), dtype)``),
  0-d arrays of wide dtypes holding small and large values (``0d:int64=300`` is
  ``np.array(300, dtype='int64')``) and Python scalars at every boundary (127/128, 255/256,
  ..., 2**63, 2**64 and negatives; floats beyond float16 and float32 range; complex).
* ``cases``: every ordered pair of those operands through ``np.result_type(a, b)`` and
  ``np.add(a, b)``; ``triples``: an n-d array first, then two operands from a smaller grid
  (NumPy 1.x folds value-based promotion left to right, which pairs cannot show).
* ``min_scalar_type``: ``np.min_scalar_type`` of every value in the grid.
* Per operation (``ops``): the result dtype every array API elementwise function gives for
  each n-d input dtype (unary) and, binary, each pair of n-d dtypes, an n-d array with a
  Python scalar and with a valued 0-d array in both orders.

A result is a dtype name or ``{"error": exception type, "message": first line}``; an
``object`` result (a Python int outside [-2**63, 2**64) becomes an object array in NumPy
1.x) is recorded as the dtype name ``object``.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import json
import os
import sys
import warnings

import numpy as np

GENERATOR = "tools/gen_numpy_legacy_golden.py"
REQUIRED_VERSION = "1.26.4"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The dtypes, the array API -> NumPy function names and the loop reader are the NumPy 2
# generator's (a sibling script that needs nothing but NumPy).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_numpy_golden import BINARY as _BINARY, DTYPE_NAMES, UNARY, loops  # noqa: E402

BINARY = {name: fn for name, fn in _BINARY.items() if name != "matmul"}  # no Python scalars

_INT_BOUNDARIES = [
    127,
    128,
    255,
    256,
    32767,
    32768,
    65535,
    65536,
    2**31 - 1,
    2**31,
    2**32 - 1,
    2**32,
    2**63 - 1,
    2**63,
    2**64 - 1,
    2**64,
]
PY_LITERALS = (
    ["True", "False", "0", "1", "-1"]
    + [repr(v) for v in _INT_BOUNDARIES]
    + [repr(-v) for v in (128, 129, 32768, 32769, 2**31, 2**31 + 1, 2**63, 2**63 + 1)]
    + ["1.5", "-0.0", "64999.0", "65000.0", "1e5", "-1e5", "3.3e38", "3.4e38", "1e39", "1e300", "nan", "inf", "-inf"]
    + ["1j", "(1.5-2j)", "(70000+1j)", "1e39j", "(3.3e38+0j)"]
)
# 0-d arrays of wide dtypes holding small and large values: dtype=literal
ZERO_D_VALUES = [
    "int64=1",
    "int64=-1",
    "int64=100",
    "int64=200",
    "int64=300",
    "int64=-200",
    "int64=40000",
    "int64=70000",
    "int64=-40000",
    "int64=3000000000",
    "int64=-3000000000",
    "int64=5000000000",
    "uint64=1",
    "uint64=200",
    "uint64=300",
    "uint64=70000",
    "uint64=5000000000",
    "uint64=10000000000000000000",
    "int32=100",
    "int32=-100",
    "int32=300",
    "uint32=300",
    "int16=-200",
    "uint16=200",
    "float64=1.5",
    "float64=1e5",
    "float64=1e39",
    "float64=nan",
    "float32=1e5",
    "float32=1.5",
    "complex128=1j",
    "complex128=1e39j",
    "complex64=(1+1j)",
    "bool=True",
]
# a smaller grid for triples and per-op cases
OP_PY_SCALARS = ["True", "1", "-1", "200", "300", "70000", "-129", "5000000000", "1.5", "1e5", "1e39", "1j", "1e39j"]
OP_ZERO_D = [
    "int64=1",
    "int64=300",
    "int64=-200",
    "uint64=200",
    "float64=1.5",
    "float64=1e39",
    "complex128=1j",
    "bool=True",
]

_SPECIAL_FLOATS = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}


def numpy_call(name: str, fn_name: str):
    if name == "where":
        return lambda a, b: np.where(True, a, b), "np.where(True, x1, x2)"
    if name == "clip":
        return lambda a, b: np.clip(a, b, None), "np.clip(x1, x2, None)"
    return getattr(np, fn_name), f"np.{fn_name}"


def literal(text: str):
    return _SPECIAL_FLOATS[text] if text in _SPECIAL_FLOATS else ast.literal_eval(text)


def make_operand(spec: str):
    kind, _, val = spec.partition(":")
    if kind == "py":
        return literal(val)
    if kind == "nd":
        return np.ones(2, dtype=val)
    if kind == "0d":
        name, eq, value = val.partition("=")
        return np.array(literal(value), dtype=name) if eq else np.ones((), dtype=name)
    raise ValueError(spec)


def outcome(fn, *args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn(*args)
    except Exception as exc:  # noqa: BLE001 - every failure is recorded
        lines = str(exc).strip().splitlines()
        return {"error": type(exc).__name__, "message": lines[0] if lines else ""}
    if type(out) in (int, float, complex):
        return "object"  # object arithmetic of 0-d operands returns a plain Python number
    dt = out if isinstance(out, np.dtype) else getattr(out, "dtype", None)
    return str(np.dtype(dt)) if dt is not None else {"error": "NoDtype", "message": repr(out)}


def operands():
    return (
        [f"nd:{n}" for n in DTYPE_NAMES]
        + [f"0d:{n}" for n in DTYPE_NAMES]
        + [f"0d:{v}" for v in ZERO_D_VALUES]
        + [f"py:{lit}" for lit in PY_LITERALS]
    )


def promotion_doc():
    cases = []
    for sa, sb in itertools.product(operands(), repeat=2):
        a, b = make_operand(sa), make_operand(sb)
        cases.append({"operands": [sa, sb], "result_type": outcome(np.result_type, a, b), "add": outcome(np.add, a, b)})
    small = [f"nd:{n}" for n in DTYPE_NAMES] + [f"0d:{v}" for v in OP_ZERO_D] + [f"py:{lit}" for lit in OP_PY_SCALARS]
    triples = []
    for first in DTYPE_NAMES:
        for sb, sc in itertools.product(small, repeat=2):
            ops = [make_operand(f"nd:{first}"), make_operand(sb), make_operand(sc)]
            triples.append({"operands": [f"nd:{first}", sb, sc], "result_type": outcome(np.result_type, *ops)})
    grid = [f"py:{lit}" for lit in PY_LITERALS] + [f"0d:{v}" for v in ZERO_D_VALUES]
    min_scalar = {s: outcome(np.min_scalar_type, make_operand(s)) for s in grid}
    return {
        "generator": GENERATOR,
        "numpy_version": np.__version__,
        "dtypes": DTYPE_NAMES,
        "operand_syntax": {
            "nd:<dtype>": "np.ones(2, dtype=<dtype>)",
            "0d:<dtype>": "np.ones((), dtype=<dtype>)",
            "0d:<dtype>=<literal>": "np.array(<literal>, dtype=<dtype>)",
            "py:<literal>": "a Python scalar (ast.literal_eval, or nan/inf/-inf)",
        },
        "py_literals": PY_LITERALS,
        "zero_d_values": ZERO_D_VALUES,
        "result_encoding": "a dtype name (object included), or {'error': exception type, 'message': first line}",
        "min_scalar_type": min_scalar,
        "cases": cases,
        "triples": triples,
    }


# Reductions and cumulative functions: the standard's name -> NumPy 1.26's.
REDUCTIONS = {
    "sum": "sum",
    "prod": "prod",
    "cumulative_sum": "cumsum",
    "cumulative_prod": "cumprod",
    "max": "max",
    "min": "min",
    "mean": "mean",
    "std": "std",
    "var": "var",
}


def ops_doc():
    unary, binary, reductions = [], [], []
    calls, loop_table = {}, {}
    for name, fn_name in UNARY.items():
        fn, calls[name] = numpy_call(name, fn_name)
        loop_table[name] = loops(fn_name)
        for d in DTYPE_NAMES:
            x = make_operand(f"nd:{d}")
            unary.append({"op": name, "operands": [f"nd:{d}"], "result": outcome(fn, x)})
    others = [f"py:{lit}" for lit in OP_PY_SCALARS] + [f"0d:{v}" for v in OP_ZERO_D]
    for name, fn_name in BINARY.items():
        fn, calls[name] = numpy_call(name, fn_name)
        loop_table[name] = loops(fn_name)
        pairs = [(f"nd:{a}", f"nd:{b}") for a in DTYPE_NAMES for b in DTYPE_NAMES]
        for d in DTYPE_NAMES:
            for other in others:
                pairs.append((f"nd:{d}", other))
                if name != "clip":
                    pairs.append((other, f"nd:{d}"))
        if name not in ("matmul", "clip"):  # two Python scalars: every ufunc (and np.where) takes them
            scalars = [f"py:{lit}" for lit in OP_PY_SCALARS]
            pairs += [(a, b) for a in scalars for b in scalars]
        for sa, sb in pairs:
            a, b = make_operand(sa), make_operand(sb)
            binary.append({"op": name, "operands": [sa, sb], "result": outcome(fn, a, b)})
    for name, fn_name in REDUCTIONS.items():
        calls[name] = f"np.{fn_name}"
        for d in DTYPE_NAMES:
            x = make_operand(f"nd:{d}")
            reductions.append({"op": name, "operands": [f"nd:{d}"], "result": outcome(getattr(np, fn_name), x)})
    return {
        "generator": GENERATOR,
        "numpy_version": np.__version__,
        "dtypes": DTYPE_NAMES,
        "calls": calls,
        "ufunc_loops": loop_table,
        "unary": unary,
        "binary": binary,
        "reductions": reductions,
        "numpy_scalars": numpy_scalar_cases(),
    }


# NumPy scalars (np.int64(300), np.float64(1e5)) at the entry points that are not operators:
# value-based like a 0-d array in np.result_type and np.where.
NUMPY_SCALAR_VALUES = ["1", "-1", "300", "70000", "1.5", "100000.0", "1e+39"]


def numpy_scalar_cases():
    cases = []
    condition = np.array([True, False])
    for scalar_name in DTYPE_NAMES:
        if scalar_name == "float16":
            continue  # the array API has no float16 scalar to hand over
        make = np.dtype(scalar_name).type
        for literal in NUMPY_SCALAR_VALUES:
            value = ast.literal_eval(literal)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("error")
                    scalar = make(value)
                if scalar != value:  # wrapped, rounded or a truth value: not this value
                    continue
            except (OverflowError, ValueError, TypeError, RuntimeWarning, DeprecationWarning):
                continue
            for array_name in DTYPE_NAMES:
                x = np.ones(2, dtype=array_name)
                operands = [f"nd:{array_name}", f"np:{scalar_name}={literal}"]
                cases.append(
                    {"entry": "result_type", "operands": operands, "result": outcome(np.result_type, x, scalar)}
                )
                where = outcome(lambda: np.where(condition, x, scalar))
                cases.append({"entry": "where", "operands": operands, "result": where})
    return cases


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out-dir", default=os.path.join(HERE, "tests", "data"))
    args = ap.parse_args(argv)
    if np.__version__ != REQUIRED_VERSION:
        sys.exit(f"{GENERATOR}: requires NumPy {REQUIRED_VERSION} (value-based casting), found {np.__version__}")
    os.makedirs(args.out_dir, exist_ok=True)
    for suffix, doc in (("promotion", promotion_doc()), ("ops", ops_doc())):
        path = os.path.join(args.out_dir, f"numpy_{np.__version__}_{suffix}.json")
        with open(path, "w") as fh:
            json.dump(doc, fh, sort_keys=True, indent=0)
            fh.write("\n")
        sizes = {
            k: len(v)
            for k, v in doc.items()
            if isinstance(v, (list, dict)) and k not in ("dtypes", "calls", "operand_syntax")
        }
        print(f"wrote {path}: {sizes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
