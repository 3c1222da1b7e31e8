#!/usr/bin/env python
"""Generate ``tests/data/mlx_<version>_promotion.json`` from real MLX (CPU).

Run, in an environment with MLX's CPU build (``pip install "mlx[cpu]" numpy``)::

    V/bin/python tools/gen_mlx_golden.py

Recorded, for every operand pair of n-d tensors, 0-d tensors and Python scalars (each
result's dtype and values, or the error's type and first line):

* ``binary``: ``a + b``, ``a * b``, ``a / b``, ``a // b`` (the ``Tensor`` operators);
* ``where``: ``mx.where(mask, a, b)``;
* ``creation``: ``mx.array`` of Python scalars and nested lists, and of NumPy arrays of
  every NumPy dtype; ``mx.ones((2,))``, ``mx.arange(3)``;
* ``reductions``: ``mx.sum``, ``mx.prod``, ``mx.mean``, ``mx.max`` of n-d arrays.
"""

from __future__ import annotations

import argparse
import itertools
import json
import operator
import os
import platform
import sys
import warnings

DTYPE_NAMES = [
    "bool",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "int8",
    "int16",
    "int32",
    "int64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
]
PY_LITERALS = ["True", "1", "-1", "1000", "2147483648", "1.5", "1e39", "1j"]
NUMPY_DTYPES = [
    "bool",
    "uint8",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]
BINARY = {"add": operator.add, "multiply": operator.mul, "divide": operator.truediv, "floor_divide": operator.floordiv}
REDUCTIONS = ["sum", "prod", "mean", "max"]


def _mlx_dtype(mx, name):
    return getattr(mx, "bool_" if name == "bool" else name)


def make(mx, spec):
    kind, _, val = spec.partition(":")
    if kind == "py":
        return eval(val)  # noqa: S307 - our own literals
    return mx.ones((2,) if kind == "nd" else (), dtype=_mlx_dtype(mx, val))


def _name(dtype) -> str:
    return str(dtype).replace("mlx.core.", "")


def outcome(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn()
            import mlx.core as mx
            import numpy as np

            values = np.array(out.astype(mx.float32) if _name(out.dtype) == "bfloat16" else out)
    except Exception as exc:  # the error is the record
        return {"error": type(exc).__name__, "message": (str(exc).strip().splitlines() or [""])[0][:160]}
    if values.dtype.kind == "c":
        values = [[v.real, v.imag] for v in values.reshape(-1)] if values.ndim else [values.real, values.imag]
        return {"dtype": _name(out.dtype), "values": json.loads(json.dumps(values, default=float))}
    return {"dtype": _name(out.dtype), "values": values.tolist()}


def main(argv=None) -> int:
    import mlx.core as mx
    import numpy as np

    mx.set_default_device(mx.cpu)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--out",
        default=os.path.join(
            os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
            "tests",
            "data",
            f"mlx_{mx.__version__}_promotion.json",
        ),
    )
    args = ap.parse_args(argv)
    operands = [f"nd:{n}" for n in DTYPE_NAMES] + [f"0d:{n}" for n in DTYPE_NAMES] + [f"py:{v}" for v in PY_LITERALS]
    pairs = [(a, b) for a, b in itertools.product(operands, repeat=2) if not (a[:3] == b[:3] == "py:")]
    binary = []
    for name, func in BINARY.items():
        for sa, sb in pairs:
            a, b = make(mx, sa), make(mx, sb)
            binary.append({"op": name, "operands": [sa, sb], "result": outcome(lambda: func(a, b))})
    mask = mx.array([True, False])
    where = []
    for sa, sb in pairs:
        a, b = make(mx, sa), make(mx, sb)
        where.append({"operands": [sa, sb], "result": outcome(lambda: mx.where(mask, a, b))})
    creation = []
    for lit in PY_LITERALS + ["[1, 2]", "[1.5, 2]", "[True, False]", "[True, 2]", "[1, 1j]"]:
        value = eval(lit)  # noqa: S307 - our own literals
        creation.append({"call": "array", "value": f"py:{lit}", "result": outcome(lambda: mx.array(value))})
    for dn in NUMPY_DTYPES:
        data = np.ones(2, dtype=dn)
        creation.append({"call": "array", "value": f"np:{dn}", "result": outcome(lambda: mx.array(data))})
    for call, fn in {"ones((2,))": lambda: mx.ones((2,)), "arange(3)": lambda: mx.arange(3)}.items():
        creation.append({"call": call, "value": None, "result": outcome(fn)})
    reductions = []
    for name in REDUCTIONS:
        for dn in DTYPE_NAMES:
            x = make(mx, f"nd:{dn}")
            reductions.append({"op": name, "dtype": dn, "result": outcome(lambda: getattr(mx, name)(x))})
    golden = {
        "generator": "tools/gen_mlx_golden.py",
        "mlx_version": mx.__version__,
        "numpy": np.__version__,  # (not a *_version key: the table is of MLX)
        "python": platform.python_version(),
        "device": "cpu",
        "dtypes": DTYPE_NAMES,
        "py_literals": PY_LITERALS,
        "binary": binary,
        "where": where,
        "creation": creation,
        "reductions": reductions,
    }
    with open(args.out, "w") as f:
        json.dump(golden, f, indent=0, sort_keys=True)
        f.write("\n")
    sections = {k: golden[k] for k in ("binary", "where", "creation", "reductions")}
    print(f"wrote {args.out}: " + ", ".join(f"{len(v)} {k}" for k, v in sections.items()) + " records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
