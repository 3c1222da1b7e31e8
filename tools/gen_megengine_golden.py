#!/usr/bin/env python
"""Generate ``tests/data/megengine_1.13.0_promotion.json`` from real MegEngine 1.13.0 (CPU).

Run, in a Python 3.10 environment with MegEngine 1.13.0 and NumPy 1.x (MegEngine has no
wheel for a newer Python, nor for NumPy 2)::

    python3.10 -m venv V && V/bin/pip install megengine==1.13.0 "numpy<2"
    V/bin/python tools/gen_megengine_golden.py        # refuses any other MegEngine version

Recorded, for every operand pair of n-d tensors, 0-d tensors and Python scalars (each
result's dtype and values, or the error's type and first line):

* ``binary``: ``a + b``, ``a * b``, ``a / b``, ``a // b`` (the ``Tensor`` operators);
* ``where``: ``F.where(mask, a, b)``;
* ``creation``: ``megengine.tensor(value)`` of Python scalars and nested lists, and of
  NumPy arrays of every NumPy dtype; ``F.ones(2)``, ``F.zeros(2)``, ``F.arange(3)``;
* ``reductions``: ``F.sum``, ``F.prod``, ``F.mean``, ``F.max`` of n-d tensors.
"""

from __future__ import annotations

import argparse
import itertools
import json
import operator
import os
import platform
import signal
import subprocess
import sys
import warnings

MEGENGINE_VERSION = "1.13.0"
DTYPE_NAMES = ["bool", "uint8", "uint16", "int8", "int16", "int32", "float16", "float32"]
PY_LITERALS = ["True", "False", "1", "-1", "127", "1000", "2147483648", "1099511627776", "1.5", "-0.5", "1e39"]
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


def _check_megengine():
    import megengine

    if megengine.__version__ != MEGENGINE_VERSION:
        sys.exit(f"this generator pins MegEngine {MEGENGINE_VERSION}; found {megengine.__version__}")
    return megengine


def make(mge, np, spec):
    kind, _, val = spec.partition(":")
    if kind == "py":
        return eval(val)  # noqa: S307 - our own literals
    shape = (2,) if kind == "nd" else ()
    return mge.tensor(np.full(shape, 1 if val != "bool" else True, dtype=val))


def outcome(np, fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn()
            values = out.numpy()
    except Exception as exc:  # the error is the record
        return {"error": type(exc).__name__, "message": (str(exc).strip().splitlines() or [""])[0][:160]}
    values = values.tolist()
    return {"dtype": str(out.dtype), "values": values}


def cases() -> list[dict]:
    """Every case to run, in order (no MegEngine needed to list them)."""
    out: list[dict] = []
    operands = [f"nd:{n}" for n in DTYPE_NAMES] + [f"0d:{n}" for n in DTYPE_NAMES] + [f"py:{v}" for v in PY_LITERALS]
    pairs = [(a, b) for a, b in itertools.product(operands, repeat=2) if not (a[:3] == b[:3] == "py:")]
    for name in BINARY:  # two Python numbers would be Python's arithmetic, not MegEngine's
        out += [{"section": "binary", "op": name, "operands": [a, b]} for a, b in pairs]
    out += [{"section": "where", "operands": [a, b]} for a, b in pairs]
    for lit in PY_LITERALS + ["[1, 2]", "[1.5, 2]", "[True, False]", "[True, 2]"]:
        out.append({"section": "creation", "call": "tensor", "value": f"py:{lit}"})
    out += [{"section": "creation", "call": "tensor", "value": f"np:{dn}"} for dn in NUMPY_DTYPES]
    out += [{"section": "creation", "call": call, "value": None} for call in ("ones(2)", "zeros(2)", "arange(3)")]
    out += [{"section": "reductions", "op": op, "dtype": dn} for op in REDUCTIONS for dn in DTYPE_NAMES]
    return out


def run_case(mge, F, np, case: dict) -> dict:
    section = case["section"]
    if section in ("binary", "where"):
        a, b = (make(mge, np, s) for s in case["operands"])
        if section == "where":
            mask = mge.tensor(np.array([True, False]))
            return outcome(np, lambda: F.where(mask, a, b))
        return outcome(np, lambda: BINARY[case["op"]](a, b))
    if section == "creation":
        value = case["value"]
        if value is None:
            return outcome(
                np,
                {"ones(2)": lambda: F.ones(2), "zeros(2)": lambda: F.zeros(2), "arange(3)": lambda: F.arange(3)}[
                    case["call"]
                ],
            )
        kind, _, val = value.partition(":")
        data = eval(val) if kind == "py" else np.ones(2, dtype=val)  # noqa: S307 - our own literals
        return outcome(np, lambda: mge.tensor(data))
    x = make(mge, np, f"nd:{case['dtype']}")
    return outcome(np, lambda: getattr(F, case["op"])(x))


def worker(start: int) -> int:
    """Run the cases from ``start``, one JSON line each; exit 3 after an asynchronous error
    (MegEngine's interpreter then refuses every later op)."""
    mge = _check_megengine()
    import megengine.functional as F
    import numpy as np

    for case in cases()[start:]:
        record = run_case(mge, F, np, case)
        print(json.dumps(record), flush=True)
        if record.get("error") == "AsyncError":
            return 3
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--out",
        default=os.path.join(
            os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
            "tests",
            "data",
            f"megengine_{MEGENGINE_VERSION}_promotion.json",
        ),
    )
    ap.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker is not None:
        return worker(args.worker)
    mge = _check_megengine()
    import numpy as np

    # The cases run in worker processes, restarted where one stops: an integer kernel dividing
    # by zero (a scalar that converts to 0) kills its process with SIGFPE, and an asynchronous
    # kernel error leaves the interpreter refusing every later op.
    todo = cases()
    results: list[dict] = []
    env = dict(os.environ, MGE_DEFAULT_DEVICE="cpu0")
    while len(results) < len(todo):
        proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--worker", str(len(results))],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        for line in proc.stdout:
            if line.startswith("{"):
                results.append(json.loads(line))
        code = proc.wait()
        if code < 0:  # killed by a signal while running the next case
            results.append({"error": "signal", "message": signal.Signals(-code).name})
        elif code not in (0, 3):
            sys.exit(f"worker failed with exit code {code} at case {len(results)}")
    sections: dict[str, list] = {"binary": [], "where": [], "creation": [], "reductions": []}
    for case, result in zip(todo, results):
        record = {k: v for k, v in case.items() if k != "section"}
        record["result"] = result
        sections[case["section"]].append(record)
    golden = {
        "generator": "tools/gen_megengine_golden.py",
        "megengine_version": mge.__version__,
        "numpy": np.__version__,  # (not a *_version key: the table is of MegEngine)
        "python": platform.python_version(),
        "device": "cpu",
        "dtypes": DTYPE_NAMES,
        "py_literals": PY_LITERALS,
        **sections,
    }
    with open(args.out, "w") as f:
        json.dump(golden, f, indent=0, sort_keys=True)
        f.write("\n")
    print(f"wrote {args.out}: " + ", ".join(f"{len(v)} {k}" for k, v in sections.items()) + " records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
