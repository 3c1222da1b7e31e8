#!/usr/bin/env python
"""Generate ``tests/data/numpy_1.26.4_calls.json``: NumPy 1.26.4's own calls the NEP 50 tools compare.

Run (NumPy 1.26.4 in its own virtual environment; the script needs nothing else):

    python -m venv .venv-np126 && .venv-np126/bin/pip install numpy==1.26.4
    .venv-np126/bin/python tools/gen_numpy_legacy_calls_golden.py

What the tables pin, beyond the ``numpy_legacy`` policy's promotion tables (``tools/gen_numpy_legacy_golden.py``):
the NumPy calls on which the NumPy audit and the warning mode ask that policy what NumPy 1.x did
(``array_api_promo.audit.numpy_compare.against_outcome``), each with real NumPy 1.26.4's outcome:

* ``arange``: ``np.arange(start[, stop[, step]], dtype=...)`` over Python ints and floats at the
  dtypes' bounds and beyond int64 (NumPy computes the length in double and converts only the
  first two values to the dtype);
* ``clip``: ``np.clip(x, a_min, a_max)`` of n-d arrays, 0-d arrays and NumPy scalars with Python,
  NumPy-scalar and 0-d bounds, positional and by keyword;
* ``out``: ufuncs written into ``out=`` (by keyword and by position) of every dtype;
* ``shapes``: operations whose operands do not broadcast (an error under both NumPys);
* ``longdouble``: NumPy's extended precision as a scalar or 0-d operand beside arrays of each dtype;
* ``values``: in-place operations and comparisons whose stored or boolean values depend on the
  dtype NumPy computes in, with the values NumPy 1.26.4 gives (``repr`` of each element).

An operand is ``nd:DTYPE`` (``np.ones(3, DTYPE)``), ``nd:DTYPE=[v, ...]`` (those values),
``0d:DTYPE=V`` (``np.array(V, DTYPE)``), ``np:DTYPE=V`` (``np.DTYPE(V)``), ``py:LITERAL`` or ``none``;
``nd:DTYPE@SHAPE`` is ``np.ones(SHAPE, DTYPE)``.  An outcome is a dtype name (``longdouble`` for
NumPy's extended precision) or ``{"error": built-in exception type}``.
"""

from __future__ import annotations

import ast
import itertools
import json
import os
import sys
import warnings

import numpy as np

GENERATOR = "tools/gen_numpy_legacy_calls_golden.py"
REQUIRED_VERSION = "1.26.4"
OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "data")

INTS = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
FLOATS = ["float16", "float32", "float64"]
_SPECIAL = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}


def literal(text: str):
    return _SPECIAL[text] if text in _SPECIAL else ast.literal_eval(text)


def operand(spec: str):
    """The NumPy object a spec names (the test builds the same under NumPy 2)."""
    if spec == "none":
        return None
    kind, _, rest = spec.partition(":")
    if kind == "py":
        return literal(rest)
    dtype, _, value = rest.partition("=")
    dtype, _, shape = dtype.partition("@")
    dtype = np.longdouble if dtype == "longdouble" else np.dtype(dtype)
    if kind == "nd":
        if value:
            return np.array(literal(value), dtype=dtype)
        return np.ones(literal(shape) if shape else 3, dtype=dtype)
    if kind == "0d":
        return np.array(literal(value), dtype=dtype)
    return np.dtype(dtype).type(literal(value))  # np:


def outcome(call):
    """The dtype of ``call()``'s result, or its refusal's built-in exception type."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            result = call()
    except Exception as exc:  # noqa: BLE001 - every refusal is an outcome
        builtin = next(c for c in type(exc).__mro__ if c.__module__ == "builtins")
        return {"error": builtin.__name__}
    dtype = np.asarray(result).dtype
    return "longdouble" if dtype == np.longdouble and dtype != np.float64 else dtype.name


def arange_cases():
    ints = [0, 1, 3, -1, 5, 127, 128, 255, 256, 300, 625, -129, 2**31, 2**63 - 1, 2**63, 2**63 + 2, 2**64 + 1]
    floats = [0.5, 2.5, -1.5, 1e20, 65504.0, 70000.0]
    steps = [None, 1, 2, -1, 256, 0.5, 0]
    dtypes = [None, *INTS, *FLOATS, "bool"]
    cases = []
    for start, stop, step in itertools.product([*ints[:7], 2**63 - 1, 0.5, -1.5], [None, *ints, *floats], steps):
        if stop is None and step is not None:
            continue
        args = [start] if stop is None else [start, stop] if step is None else [start, stop, step]
        for dtype in dtypes:
            span = (args[1] - args[0]) if len(args) > 1 else args[0]
            step_value = args[2] if len(args) > 2 else 1
            length = span / step_value if step_value else 0
            if 10**6 < length < 1e19:
                continue  # no large arrays: the length's limit is checked with 1e20
            spec = {"args": [repr(a) for a in args], "dtype": dtype}
            spec["numpy"] = outcome(lambda: np.arange(*args, dtype=dtype))
            cases.append(spec)
    return cases


CLIP_BOUNDS = [
    "none",
    "py:0",
    "py:1",
    "py:-1",
    "py:300",
    "py:0.5",
    "py:100000.0",
    "np:float64=0.5",
    "np:float32=0.5",
    "np:float16=0.5",
    "np:int64=1",
    "np:int64=300",
    "np:uint8=1",
    "np:int8=-1",
    "0d:float64=0.5",
    "0d:int64=1",
]


def clip_cases():
    cases = []
    xs = [
        f"{k}:{d}" + ("" if k == "nd" else "=2")
        for d in ["int8", "uint8", "int16", "int64", "uint64", *FLOATS]
        for k in ("nd", "0d", "np")
    ]
    for x, low, high in itertools.product(xs, CLIP_BOUNDS, CLIP_BOUNDS):
        if low == high == "none":
            continue
        for keywords in (False, True):
            args = [operand(x), operand(low), operand(high)]
            if keywords:
                call = lambda: np.clip(args[0], a_min=args[1], a_max=args[2])  # noqa: E731
            else:
                call = lambda: np.clip(*args)  # noqa: E731
            cases.append({"x": x, "min": low, "max": high, "keywords": keywords, "numpy": outcome(call)})
    return cases


OUT_UFUNCS = ["add", "subtract", "multiply", "true_divide", "maximum", "sqrt", "negative"]
OUT_SECOND = ["nd:int64", "nd:float32", "py:1", "py:300", "py:1.5", "np:float64=1.5", "np:int64=300"]


def out_cases():
    cases = []
    for name in OUT_UFUNCS:
        ufunc = getattr(np, name)
        firsts = ["nd:uint8", "nd:int16", "nd:int64", "nd:float32", "nd:float64"]
        seconds = OUT_SECOND if ufunc.nin == 2 else [None]
        for first, second, out_dtype, positional in itertools.product(
            firsts, seconds, ["uint8", "int16", "int64", *FLOATS], (False, True)
        ):
            inputs = [first] + ([second] if second else [])

            def call(inputs=inputs, out_dtype=out_dtype, positional=positional, ufunc=ufunc):
                out = np.zeros(3, dtype=out_dtype)
                values = [operand(s) for s in inputs]
                result = ufunc(*values, out) if positional else ufunc(*values, out=out)
                assert result is out
                return result

            cases.append(
                {"ufunc": name, "inputs": inputs, "out": out_dtype, "positional": positional, "numpy": outcome(call)}
            )
    return cases


def shape_cases():
    cases = []
    operations = {
        "add": lambda a, b: a + b,
        "multiply": lambda a, b: a * b,
        "less": lambda a, b: a < b,
        "where": lambda a, b: np.where(np.ones((3,), dtype=bool), a, b),
        "maximum": lambda a, b: np.maximum(a, b),
    }
    for name, dtype_a, dtype_b in itertools.product(
        operations, ["int8", "uint8", "float32", "int64"], ["int8", "float64", "uint64"]
    ):
        for shape_a, shape_b in (((3,), (2,)), ((2, 3), (3, 2)), ((4,), (3,))):
            a, b = f"nd:{dtype_a}@{shape_a!r}", f"nd:{dtype_b}@{shape_b!r}"
            cases.append(
                {"op": name, "a": a, "b": b, "numpy": outcome(lambda: operations[name](operand(a), operand(b)))}
            )  # noqa: B023
    return cases


LONG_VALUES = ["2", "0.5", "1e300", "1e4000"]


def longdouble_cases():
    cases = []
    operations = {"add": lambda a, b: a + b, "multiply": lambda a, b: a * b, "less": lambda a, b: a < b}
    arrays = ["nd:int8", "nd:int64", "nd:uint64", "nd:float16", "nd:float32", "nd:float64", "nd:complex64", "nd:bool"]
    for name, array, value, zero_d, reflected in itertools.product(
        operations, arrays, LONG_VALUES, (False, True), (False, True)
    ):
        long = f"{'0d' if zero_d else 'np'}:longdouble={value}"
        a, b = (long, array) if reflected else (array, long)
        cases.append({"op": name, "a": a, "b": b, "numpy": outcome(lambda: operations[name](operand(a), operand(b)))})  # noqa: B023
    return cases


VALUE_TARGETS = ["nd:float32=[1000.1, 0.1, 1e-08, 3.3]", "nd:float16=[1.5, 0.1, 60000.0]", "nd:int16=[1, -7, 300]"]
VALUE_OTHERS = [
    "np:float64=0.3",
    "np:float64=1e-09",
    "np:float64=0.1",
    "py:0.3",
    "np:float32=0.3",
    "0d:float64=0.1",
    "np:int64=3",
]


def value_cases():
    cases = []
    inplace = {
        "isub": lambda a, b: a.__isub__(b),
        "iadd": lambda a, b: a.__iadd__(b),
        "imul": lambda a, b: a.__imul__(b),
    }
    compare = {"le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "eq": lambda a, b: a == b}
    for (name, run), target, other in itertools.product(
        [*inplace.items(), *compare.items()], VALUE_TARGETS, VALUE_OTHERS
    ):

        def call(run=run, target=target, other=other):
            return run(operand(target), operand(other))

        result = outcome(call)
        values = None
        if isinstance(result, str):
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                values = [repr(v) for v in np.asarray(call()).tolist()]
        cases.append({"op": name, "a": target, "b": other, "numpy": result, "values": values})
    return cases


def main() -> int:
    if np.__version__ != REQUIRED_VERSION:
        sys.exit(f"{GENERATOR} needs NumPy {REQUIRED_VERSION} (this is {np.__version__})")
    table = {
        "generator": GENERATOR,
        "numpy_version": np.__version__,
        "arange": arange_cases(),
        "clip": clip_cases(),
        "out": out_cases(),
        "shapes": shape_cases(),
        "longdouble": longdouble_cases(),
        "values": value_cases(),
    }
    path = os.path.join(OUT, f"numpy_{np.__version__}_calls.json")
    with open(path, "w", encoding="utf-8") as f:  # one case a line: a diff of the table reads case by case
        f.write("{\n")
        for i, (key, value) in enumerate(table.items()):
            end = ",\n" if i < len(table) - 1 else "\n"
            if isinstance(value, list):
                rows = ",\n".join(json.dumps(case, separators=(",", ":")) for case in value)
                f.write(f"{json.dumps(key)}: [\n{rows}\n]{end}")
            else:
                f.write(f"{json.dumps(key)}: {json.dumps(value)}{end}")
        f.write("}\n")
    counts = {k: len(v) for k, v in table.items() if isinstance(v, list)}
    print(f"wrote {os.path.relpath(path)}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
