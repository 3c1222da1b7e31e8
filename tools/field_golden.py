"""What the golden-table generators of MegEngine, PaddlePaddle and MLX share.

Each generator (``tools/gen_<library>_golden.py``) describes its library as a
:class:`Backend` (how to make an n-d or 0-d array of a dtype, ``where``, an array from a
Python value or a NumPy array, the creation calls, the reductions, the dtype's name) and
hands it to :func:`main`, which lists the cases, runs them (in-process, or in restartable
worker processes for a library whose kernels can kill the process) and writes
``tests/data/<library>_<version>_promotion.json``:

* ``binary``: ``a + b``, ``a * b``, ``a / b``, ``a // b`` for every pair of n-d arrays, 0-d
  arrays and Python scalars (two Python scalars are Python's arithmetic: not recorded);
* ``where``: ``where(mask, a, b)`` for the same pairs;
* ``creation``: the library's array from Python scalars, nested lists and NumPy arrays of
  every NumPy dtype, and its creation calls without a dtype;
* ``reductions``: ``sum``, ``prod``, ``mean``, ``max`` of n-d arrays;
* ``functions`` (where the backend names them): the standard's FFT and linear-algebra
  functions whose result dtype a policy decides (``fft.rfft`` of float64), on 2x2 arrays of
  every floating dtype;
* ``entry_points`` (where the backend names them): Python ints at and beyond the 64-bit
  bounds at every entry point (``x + v``, ``add``, ``where``, ``clip``, the array from a value
  with a dtype, ``full``) with every dtype: ``tools/entry_golden.py``'s cases;
* ``division_by_zero`` (where the backend asks for it): ``x // 0`` and ``x % 0`` of ``x = [0, 1,
  2]`` of every integer dtype and bool, the 0 a Python int, a 0-d array or an element of ``[1, 0,
  1]`` of ``x``'s dtype.

Each result is the dtype and values, or the error's type and first line.
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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import entry_golden  # noqa: E402
import golden_dtypes  # noqa: E402

BINARY = {"add": operator.add, "multiply": operator.mul, "divide": operator.truediv, "floor_divide": operator.floordiv}
REDUCTIONS = ["sum", "prod", "mean", "max"]
NUMPY_DTYPES = golden_dtypes.NUMPY
LISTS = ["[1, 2]", "[1.5, 2]", "[True, False]", "[True, 2]"]


@dataclass
class Backend:
    name: str  # the library's name in file names and keys: megengine, paddle, mlx
    version: str
    dtypes: list[str]
    literals: list[str]  # Python scalars, as source text
    array_call: str  # the name of the call that makes an array of a value (tensor, to_tensor, array)
    make: Callable[[str, tuple], Any]  # (dtype name, shape) -> an array of ones
    where: Callable[[Any, Any, Any], Any]
    array: Callable[[Any], Any]  # a Python value or NumPy array -> the library's array
    calls: dict[str, Callable[[], Any]]  # creation calls without a dtype, by their source text
    reduce: Callable[[str, Any], Any]  # (reduction name, array) -> result
    values: Callable[[Any], Any]  # a result -> a NumPy array of its values
    dtype_name: Callable[[Any], str]
    lists: tuple[str, ...] = tuple(LISTS)
    extra: dict | None = None  # more metadata for the table
    # the standard's name of an FFT or linear-algebra function -> the library's call on an array
    functions: dict[str, Callable[[Any], Any]] | None = None
    isolate: bool = False  # run the cases in restartable worker processes
    # entry point (``entry_golden.ENTRY_POINTS``) -> (dtype name, Python int) -> the library's result
    entry_calls: dict[str, Callable[[str, int], Any]] | None = None
    division_by_zero: bool = False  # record integer // 0 and % 0


# division_by_zero: the operators, and the divisors (x's dtype) of ``x = [0, 1, 2]``.
DIVISION = {"floor_divide": operator.floordiv, "remainder": operator.mod}
ZERO_DIVISORS = ["py:0", "0d:0", "nd:[1, 0, 1]"]


def operand(backend: Backend, spec: str):
    kind, _, val = spec.partition(":")
    if kind == "py":
        return eval(val)  # noqa: S307 - our own literals
    return backend.make(val, (2,) if kind == "nd" else ())


def outcome(backend: Backend, fn) -> dict:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn()
            values = backend.values(out)
    except Exception as exc:  # the error is the record
        return {"error": type(exc).__name__, "message": (str(exc).strip().splitlines() or [""])[0][:160]}
    if values.dtype.kind == "c":
        flat = values.reshape(-1)
        pairs = [[float(v.real), float(v.imag)] for v in flat]
        return {"dtype": backend.dtype_name(out.dtype), "values": pairs if values.ndim else pairs[0]}
    return {"dtype": backend.dtype_name(out.dtype), "values": values.tolist()}


def outcome_of_dtype(backend: Backend, fn) -> dict:
    """A call returning a dtype (``result_type``): its name, or the error."""
    try:
        return {"dtype": backend.dtype_name(fn())}
    except Exception as exc:  # the error is the record
        return {"error": type(exc).__name__, "message": (str(exc).strip().splitlines() or [""])[0][:160]}


def cases(backend: Backend) -> list[dict]:
    """Every case, in order."""
    operands = (
        [f"nd:{n}" for n in backend.dtypes]
        + [f"0d:{n}" for n in backend.dtypes]
        + [f"py:{v}" for v in backend.literals]
    )
    pairs = [(a, b) for a, b in itertools.product(operands, repeat=2) if not (a[:3] == b[:3] == "py:")]
    out: list[dict] = []
    for name in BINARY:
        out += [{"section": "binary", "op": name, "operands": [a, b]} for a, b in pairs]
    out += [{"section": "where", "operands": [a, b]} for a, b in pairs]
    out += [
        {"section": "creation", "call": backend.array_call, "value": f"py:{lit}"}
        for lit in list(backend.literals) + list(backend.lists)
    ]
    out += [{"section": "creation", "call": backend.array_call, "value": f"np:{dn}"} for dn in NUMPY_DTYPES]
    out += [{"section": "creation", "call": call, "value": None} for call in backend.calls]
    out += [{"section": "reductions", "op": op, "dtype": dn} for op in REDUCTIONS for dn in backend.dtypes]
    floating = [dn for dn in backend.dtypes if dn.startswith(("float", "bfloat", "complex"))]
    out += [{"section": "functions", "op": op, "dtype": dn} for op in backend.functions or {} for dn in floating]
    out += [
        {"section": "entry_points", "entry": entry, "dtype": dn, "value": text}
        for entry in backend.entry_calls or {}
        for dn in backend.dtypes
        for text in entry_golden.HUGE_INTS
    ]
    if backend.division_by_zero:
        integers = [dn for dn in backend.dtypes if dn == "bool" or dn in golden_dtypes.INTEGER]
        out += [
            {"section": "division_by_zero", "op": op, "dtype": dn, "divisor": divisor}
            for op in DIVISION
            for dn in integers
            for divisor in ZERO_DIVISORS
        ]
    return out


def run_case(backend: Backend, case: dict) -> dict:
    import numpy as np

    section = case["section"]
    if section in ("binary", "where"):
        a, b = (operand(backend, s) for s in case["operands"])
        if section == "where":
            return outcome(backend, lambda: backend.where(backend.array(np.array([True, False])), a, b))
        return outcome(backend, lambda: BINARY[case["op"]](a, b))
    if section == "creation":
        value = case["value"]
        if value is None:
            return outcome(backend, backend.calls[case["call"]])
        kind, _, val = value.partition(":")
        data = eval(val) if kind == "py" else np.ones(2, dtype=val)  # noqa: S307 - our own literals
        return outcome(backend, lambda: backend.array(data))
    if section == "entry_points":
        call, value = backend.entry_calls[case["entry"]], entry_golden.huge_int(case["value"])
        if case["entry"] == "result_type":
            return outcome_of_dtype(backend, lambda: call(case["dtype"], value))
        return outcome(backend, lambda: call(case["dtype"], value))
    if section == "division_by_zero":
        dn, divisor = case["dtype"], case["divisor"]
        x = backend.array(np.array([0, 1, 2]).astype(dn))
        kind, _, text = divisor.partition(":")
        y = 0 if kind == "py" else backend.array(np.array(eval(text)).astype(dn))  # noqa: S307 - our own literals
        return outcome(backend, lambda: DIVISION[case["op"]](x, y))
    if section == "functions":
        matrix = backend.make(case["dtype"], (2, 2))
        return outcome(backend, lambda: backend.functions[case["op"]](matrix))
    x = operand(backend, f"nd:{case['dtype']}")
    return outcome(backend, lambda: backend.reduce(case["op"], x))


def _isolated(todo: list[dict], script: str) -> list[dict]:
    """The cases run by worker processes (``script --worker START``), restarted where one
    stops: killed by a signal (recorded as that signal) or after an asynchronous error."""
    results: list[dict] = []
    while len(results) < len(todo):
        proc = subprocess.Popen(
            [sys.executable, script, "--worker", str(len(results))],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("{"):
                results.append(json.loads(line))
        code = proc.wait()
        if code < 0:  # killed while running the next case
            results.append({"error": "signal", "message": signal.Signals(-code).name})
        elif code not in (0, 3):
            sys.exit(f"worker failed with exit code {code} at case {len(results)}")
    return results


def main(backend_factory: Callable[[], Backend], script: str, argv=None) -> int:
    ap = argparse.ArgumentParser(description="Generate a golden table from the real library (see the script).")
    ap.add_argument("--out", default=None)
    ap.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    backend = backend_factory()
    todo = cases(backend)
    if args.worker is not None:  # a worker: cases from START, a JSON line each
        for case in todo[args.worker :]:
            record = run_case(backend, case)
            print(json.dumps(record), flush=True)
            if record.get("error") == "AsyncError":
                return 3  # the interpreter now refuses every later op: restart
        return 0
    if backend.isolate:
        results = _isolated(todo, script)
    else:
        results = [run_case(backend, case) for case in todo]
    sections: dict[str, list] = {"binary": [], "where": [], "creation": [], "reductions": []}
    if backend.functions:
        sections["functions"] = []
    if backend.entry_calls:
        sections["entry_points"] = []
    if backend.division_by_zero:
        sections["division_by_zero"] = []
    for case, result in zip(todo, results):
        record = {k: v for k, v in case.items() if k != "section"}
        record["result"] = result
        sections[case["section"]].append(record)
    import numpy as np

    golden = {
        "generator": f"tools/gen_{backend.name}_golden.py",
        f"{backend.name}_version": backend.version,
        "numpy": np.__version__,  # (not a *_version key: the table is of the library)
        "python": platform.python_version(),
        "device": "cpu",
        "dtypes": backend.dtypes,
        "py_literals": backend.literals,
        **(
            {"huge_ints": entry_golden.HUGE_INTS, "entry_point_calls": entry_golden.ENTRY_POINTS}
            if backend.entry_calls
            else {}
        ),
        **(backend.extra or {}),
        **sections,
    }
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = args.out or os.path.join(root, "tests", "data", f"{backend.name}_{backend.version}_promotion.json")
    with open(out, "w") as f:
        json.dump(golden, f, indent=0, sort_keys=True)
        f.write("\n")
    print(f"wrote {out}: " + ", ".join(f"{len(v)} {k}" for k, v in sections.items()) + " records")
    return 0
