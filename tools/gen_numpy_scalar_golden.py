#!/usr/bin/env python
"""Generate ``tests/data/numpy_1.26.4_numpy_scalars.json``: NumPy scalars as operands in real NumPy 1.26.4.

Run (NumPy 1.26.4 in its own virtual environment; the script needs nothing else):

    python -m venv .venv-np126 && .venv-np126/bin/pip install numpy==1.26.4
    .venv-np126/bin/python tools/gen_numpy_scalar_golden.py

NumPy 1.x takes a NumPy scalar (``np.float32(3)``, ``np.int64(300)``) as a 0-d array of its
dtype, value-based casting included; the ``numpy_legacy`` policy's ``numpy_scalars = "array"``
rule says the same.  The table pins it: every ordered pair of a NumPy scalar (each dtype, with
small and large values) with an n-d array of each dtype, with a Python scalar, with a valued 0-d
array and with another NumPy scalar, through ``np.result_type(a, b)``, ``a + b`` (NumPy's scalar
arithmetic where both are scalars) and ``a / b``.  A result is a dtype name, ``object``, or
``{"error": exception type}``.
"""

from __future__ import annotations

import ast
import itertools
import json
import os
import sys
import warnings

import golden_dtypes  # tools/: the generators' shared dtype list
import numpy as np

GENERATOR = "tools/gen_numpy_scalar_golden.py"
REQUIRED_VERSION = "1.26.4"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(HERE, "tests", "data", f"numpy_{REQUIRED_VERSION}_numpy_scalars.json")

DTYPES = golden_dtypes.NUMPY
# NumPy scalars: dtype=literal (small values and values beyond the smaller types of their kind)
NUMPY_SCALARS = [
    "bool=True",
    "int8=1",
    "int8=-100",
    "int16=1",
    "int16=300",
    "int16=-200",
    "int32=1",
    "int32=70000",
    "int64=1",
    "int64=200",
    "int64=300",
    "int64=-200",
    "int64=5000000000",
    "uint8=1",
    "uint8=200",
    "uint16=300",
    "uint16=40000",
    "uint32=70000",
    "uint64=1",
    "uint64=10000000000000000000",
    "float16=1.5",
    "float32=1.5",
    "float32=100000.0",
    "float64=1.5",
    "float64=100000.0",
    "float64=1e39",
    "float64=nan",
    "complex64=1j",
    "complex128=1j",
    "complex128=1e39j",
]
PY_LITERALS = ["True", "1", "-1", "200", "300", "70000", "-129", "5000000000", "1.5", "100000.0", "1e39", "1j"]
ZERO_D_VALUES = [
    "int64=1",
    "int64=300",
    "int64=-200",
    "uint8=200",
    "float64=1.5",
    "float64=1e39",
    "float32=1.5",
    "complex128=1j",
]

OPS = {"result_type": np.result_type, "add": lambda a, b: a + b, "divide": lambda a, b: a / b}


def _literal(text: str):
    return float("nan") if text == "nan" else ast.literal_eval(text)


def operand(spec: str):
    kind, _, rest = spec.partition(":")
    if kind == "py":
        return _literal(rest)
    if kind == "nd":
        return np.ones(2, dtype=rest)
    name, _, value = rest.partition("=")
    if kind == "0d":
        return np.array(_literal(value), dtype=name)
    return np.dtype(name).type(_literal(value))  # np: a NumPy scalar


def outcome(op, a, b):
    try:
        result = op(a, b)
    except Exception as exc:  # noqa: BLE001 - the table records NumPy's refusal
        return {"error": type(exc).__name__}
    dtype = result if isinstance(result, np.dtype) else np.asarray(result).dtype
    return dtype.name


def main() -> int:
    if np.__version__ != REQUIRED_VERSION:
        sys.exit(f"{GENERATOR} needs NumPy {REQUIRED_VERSION}, found {np.__version__}")
    scalars = [f"np:{s}" for s in NUMPY_SCALARS]
    others = [f"nd:{d}" for d in DTYPES] + [f"py:{p}" for p in PY_LITERALS] + [f"0d:{z}" for z in ZERO_D_VALUES]
    pairs = [(a, b) for a in scalars for b in others] + [(b, a) for a in scalars for b in others]
    pairs += list(itertools.product(scalars, scalars))
    cases = {}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for a, b in pairs:
            cases[f"{a} {b}"] = {name: outcome(op, operand(a), operand(b)) for name, op in OPS.items()}
    table = {
        "generator": GENERATOR,
        "numpy_version": np.__version__,
        "numpy_scalars": NUMPY_SCALARS,
        "operations": list(OPS),
        "cases": cases,
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(table, f, indent=0, sort_keys=True)
        f.write("\n")
    print(f"wrote {os.path.relpath(OUT, HERE)}: {len(cases)} pairs x {len(OPS)} operations (NumPy {np.__version__})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
