#!/usr/bin/env python
"""Generate ``tests/data/jax_promotion.json`` from real JAX, in 32-bit mode and in x64 mode.

Run:  python tools/gen_jax_golden.py      (needs ``pip install jax jaxlib``, JAX 0.12.0.1 for the
                                           committed table; the version is recorded; each mode
                                           runs in its own subprocess, x64 via
                                           ``jax.config.update("jax_enable_x64", True)``)
      python tools/gen_jax_golden.py --same-as OLD.json   (also compare the promotion records,
                                           pairs, ops and reductions, with the table of an older
                                           release, and record in the new one that release and
                                           every record whose outcome differs, old and new: a
                                           dtype, or an exception type, whatever its message)

Besides the promotion records, each mode records Python ints at and beyond the 64-bit bounds
at every entry point (``entry_points``: ``tools/entry_golden.py``'s cases) and NumPy scalars of
every NumPy dtype at every entry point (``numpy_scalars``: ``x + np.float32(1)``, ``jnp.add``,
``jnp.result_type``, ``jnp.where``, ``jnp.clip``, ``jnp.asarray`` and ``jnp.full`` of the scalar):
JAX takes a NumPy scalar as a typed, non-weak operand (``jnp.add(x_f64, np.float32(1))`` is
float64), its 64-bit dtypes made 32-bit in 32-bit mode.

Every pair goes through jax.eval_shape (no kernel compiled per pair).

Operands: ``nd:<dtype>`` is ``jnp.ones(2, dtype)``, ``0d:<dtype>`` is ``jnp.ones((), dtype)``
and ``py:<literal>`` a Python scalar.  The dtypes of each mode are those JAX really has in it:
in 32-bit mode requests of int64/uint64/float64/complex128 are truncated to their 32-bit
counterparts, so the 32-bit table covers bool, int8-32, uint8-32, float16, bfloat16,
float32 and complex64.  Every pair goes through ``jnp.result_type(a, b)`` and
``jnp.add(a, b)`` (dtype, ``weak_type`` of the result and, for integer results, the first
value, to pin wrap-around).  Unary and binary operations (``ops``) record the dtype JAX gives
for each n-d input dtype (and n-d x Python scalar).

Surprises pinned by the table (for the ``jax`` / ``jax_x64`` policies):
* JAX's lattice joins integers and floats *below* every float: int64 + float16 is float16,
  uint64 + int64 is the weak float (float32 or float64), int32 + bfloat16 is bfloat16,
  bfloat16 + float16 is float32.
* 0-d arrays are strong (like n-d); Python int/float/complex are weak, Python bool is not.
  A weak result becomes the mode's default dtype: ``bool array + 1`` is int32 (x64: int64).
* In 32-bit mode uint32 + int32 gives int32 (the lattice's int64 truncated).
* A Python int is checked against the default integer only (int32, or int64 under x64),
  never the array's dtype: ``int8 array + 1000`` is int8 holding -24 (wrap-around), while
  ``bool array + 2**40`` raises OverflowError in 32-bit mode.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import json
import os
import subprocess
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import entry_golden  # noqa: E402

GENERATOR = "tools/gen_jax_golden.py"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DTYPES_X64 = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]
DTYPES_32 = [d for d in DTYPES_X64 if d not in ("int64", "uint64", "float64", "complex128")]

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
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "1.5",
    "-0.0",
    "1e39",
    "1e300",
    "1j",
    "(1.5-2j)",
]
OP_PY_SCALARS = ["True", "1", "1.5", "1j"]
# NumPy scalar types (each holding 1) of the numpy_scalars records, and their entry points.
NUMPY_SCALARS = DTYPES_X64[:9] + ["float16", "float32", "float64", "complex64", "complex128"]
NUMPY_SCALAR_CALLS = {
    "operator": "x + s",
    "reflected": "s + x",
    "function": "jnp.add(x, s)",
    "result_type": "jnp.result_type(x, s)",
    "where": "jnp.where(c, x, s)",
    "clip_min": "jnp.clip(x, s, None)",
    "asarray": "jnp.asarray(s)",
    "full": "jnp.full(2, s)",
}
UNARY = {
    "abs": "abs",
    "sqrt": "sqrt",
    "exp": "exp",
    "sin": "sin",
    "log": "log",
    "negative": "negative",
    "positive": "positive",
    "sign": "sign",
    "floor": "floor",
    "ceil": "ceil",
    "trunc": "trunc",
    "round": "round",
    "square": "square",
    "reciprocal": "reciprocal",
    "real": "real",
    "imag": "imag",
    "conj": "conj",
    "isnan": "isnan",
    "isfinite": "isfinite",
    "signbit": "signbit",
    "logical_not": "logical_not",
    "bitwise_invert": "bitwise_not",
}
BINARY = {
    "subtract": "subtract",
    "divide": "true_divide",
    "floor_divide": "floor_divide",
    "pow": "power",
    "atan2": "arctan2",
    "maximum": "maximum",
    "equal": "equal",
    "logical_and": "logical_and",
    "bitwise_and": "bitwise_and",
}


# Reductions and cumulative functions: the standard's name -> jax.numpy's.
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


def run_mode(x64: bool) -> dict:
    import jax

    jax.config.update("jax_enable_x64", x64)
    import jax.numpy as jnp
    import numpy as np

    warnings.simplefilter("ignore")
    names = DTYPES_X64 if x64 else DTYPES_32

    def make(spec):
        kind, _, val = spec.partition(":")
        if kind == "py":
            return ast.literal_eval(val)
        return jnp.ones(2 if kind == "nd" else (), dtype=getattr(jnp, val))

    def err(exc):
        lines = str(exc).strip().splitlines()
        return {"error": type(exc).__name__, "message": lines[0] if lines else ""}

    def dtype_of(fn, *args):
        try:
            out = jax.eval_shape(fn, *args) if args else fn()
        except Exception as exc:  # noqa: BLE001 - every failure is recorded
            return err(exc)
        return str(np.dtype(out)) if not hasattr(out, "dtype") else str(out.dtype)

    def add_record(a, b):
        # jax.eval_shape: the dtype and weak type without compiling a kernel per pair (the
        # argument checks, OverflowError included, are the same as a real call's)
        try:
            out = jax.eval_shape(jnp.add, a, b)
        except Exception as exc:  # noqa: BLE001
            return err(exc)
        rec = {"dtype": str(out.dtype), "weak_type": bool(getattr(out, "weak_type", False))}
        if jnp.issubdtype(out.dtype, jnp.integer) and (type(a) is int or type(b) is int):
            rec["value"] = int(np.asarray(jnp.add(a, b)).reshape(-1)[0])  # wrap-around
        return rec

    operands = [f"nd:{n}" for n in names] + [f"0d:{n}" for n in names] + [f"py:{lit}" for lit in PY_LITERALS]
    cases = []
    for sa, sb in itertools.product(operands, repeat=2):
        a, b = make(sa), make(sb)
        cases.append(
            {"operands": [sa, sb], "result_type": dtype_of(lambda: jnp.result_type(a, b)), "add": add_record(a, b)}
        )
    ops = []
    for name, fn_name in UNARY.items():
        fn = getattr(jnp, fn_name)
        for d in names:
            x = make(f"nd:{d}")
            ops.append({"op": name, "operands": [f"nd:{d}"], "result": dtype_of(fn, x)})
    for name, fn_name in BINARY.items():
        fn = getattr(jnp, fn_name)
        pairs = [(f"nd:{a}", f"nd:{b}") for a in names for b in names]
        pairs += [(f"nd:{d}", f"py:{s}") for d in names for s in OP_PY_SCALARS]
        if name not in ("matmul", "clip"):  # two Python scalars: jax.numpy computes them
            pairs += [(f"py:{a}", f"py:{b}") for a in OP_PY_SCALARS for b in OP_PY_SCALARS]
        for sa, sb in pairs:
            a, b = make(sa), make(sb)
            ops.append({"op": name, "operands": [sa, sb], "result": dtype_of(fn, a, b)})
    reductions = []
    for name, fn_name in REDUCTIONS.items():
        fn = getattr(jnp, fn_name)
        for d in names:
            reductions.append({"op": name, "operands": [f"nd:{d}"], "result": dtype_of(fn, make(f"nd:{d}"))})
    cond = jnp.array([True, False])

    def ones(d):
        return jnp.ones(2, dtype=getattr(jnp, d))

    entry_calls = {
        "operator": lambda d, v: ones(d) + v,
        "function": lambda d, v: jnp.add(ones(d), v),
        "result_type": lambda d, v: jnp.result_type(ones(d), v),
        "where": lambda d, v: jnp.where(cond, ones(d), v),
        "clip_min": lambda d, v: jnp.clip(ones(d), v, None),
        "clip_max": lambda d, v: jnp.clip(ones(d), None, v),
        "asarray": lambda d, v: jnp.asarray(v, dtype=getattr(jnp, d)),
        "full": lambda d, v: jnp.full(2, v, dtype=getattr(jnp, d)),
    }

    def describe(out):
        if isinstance(out, np.dtype):  # result_type
            return {"dtype": str(np.dtype(out))}
        return {"dtype": str(out.dtype), "values": entry_golden.numpy_values(np.asarray(out))}

    scalar_calls = {
        "operator": lambda x, s: x + s,
        "reflected": lambda x, s: s + x,
        "function": lambda x, s: jnp.add(x, s),
        "result_type": lambda x, s: jnp.result_type(x, s),
        "where": lambda x, s: jnp.where(cond, x, s),
        "clip_min": lambda x, s: jnp.clip(x, s, None),
        "asarray": lambda x, s: jnp.asarray(s),
        "full": lambda x, s: jnp.full(2, s),
    }

    def scalar_record(entry, d, sname):
        x, s = ones(d), np.dtype(sname).type(1)
        try:
            out = scalar_calls[entry](x, s)
        except Exception as exc:  # noqa: BLE001 - every failure is recorded
            return err(exc)
        if isinstance(out, np.dtype):
            return {"dtype": str(np.dtype(out))}
        return {"dtype": str(out.dtype), "weak_type": bool(getattr(out, "weak_type", False))}

    numpy_scalars = [
        {"entry": entry, "dtype": d, "scalar": sname, "result": scalar_record(entry, d, sname)}
        for entry in NUMPY_SCALAR_CALLS
        for d in names
        for sname in NUMPY_SCALARS
    ]
    return {
        "x64": x64,
        "dtypes": names,
        "cases": cases,
        "ops": ops,
        "reductions": reductions,
        "entry_points": entry_golden.records(names, entry_calls, describe),
        "numpy_scalars": numpy_scalars,
        "jax_version": jax.__version__,
        "jaxlib_version": __import__("jaxlib").__version__,
    }


# The sections an older table also has (compared by --same-as).
PROMOTION_SECTIONS = ("cases", "ops", "reductions")


def _outcome(node):
    """A record as an outcome: an error by its exception type only (a message may be reworded)."""
    if isinstance(node, dict):
        if "error" in node:
            return {"error": node["error"]}
        return {k: _outcome(v) for k, v in node.items()}
    return node


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "tests", "data", "jax_promotion.json"))
    ap.add_argument("--mode", choices=["32", "64"], help=argparse.SUPPRESS)
    ap.add_argument(
        "--same-as", metavar="OLD_TABLE", help="a table of an older JAX to compare the promotion records with"
    )
    args = ap.parse_args(argv)
    if args.mode:
        json.dump(run_mode(args.mode == "64"), sys.stdout)
        return 0
    modes = {}
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    env.pop("JAX_ENABLE_X64", None)
    procs = {
        mode: subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--mode", mode],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for mode in ("32", "64")
    }
    for mode, proc in procs.items():
        out, errtext = proc.communicate()
        if proc.returncode:
            sys.exit(f"{GENERATOR}: mode {mode} failed:\n{errtext}")
        modes["x64" if mode == "64" else "32bit"] = json.loads(out)
    versions = {m["jax_version"] for m in modes.values()}
    doc = {
        "generator": GENERATOR,
        "jax_version": versions.pop(),
        "jaxlib_version": modes["32bit"]["jaxlib_version"],
        "operand_syntax": {
            "nd:<dtype>": "jnp.ones(2, dtype=<dtype>)",
            "0d:<dtype>": "jnp.ones((), dtype=<dtype>)",
            "py:<literal>": "ast.literal_eval(<literal>) (a Python scalar)",
        },
        "py_literals": PY_LITERALS,
        "op_py_scalars": OP_PY_SCALARS,
        "huge_ints": entry_golden.HUGE_INTS,
        "entry_point_calls": entry_golden.ENTRY_POINTS,
        "numpy_scalar_types": NUMPY_SCALARS,
        "numpy_scalar_calls": NUMPY_SCALAR_CALLS,
        "calls": {
            "unary": {k: f"jnp.{v}" for k, v in UNARY.items()},
            "binary": {k: f"jnp.{v}" for k, v in BINARY.items()},
        },
        "result_encoding": (
            "result_type / op result: a dtype name or {'error', 'message'}; "
            "add: {'dtype', 'weak_type'[, 'value' of element 0 for integer "
            "results]} or {'error', 'message'}"
        ),
        "modes": {
            k: {kk: vv for kk, vv in v.items() if kk not in ("jax_version", "jaxlib_version")} for k, v in modes.items()
        },
    }
    if args.same_as:
        with open(args.same_as) as fh:
            old = json.load(fh)
        differ, reworded = [], 0
        for mode, data in doc["modes"].items():
            for section in PROMOTION_SECTIONS:
                for a, b in zip(old["modes"][mode][section], data[section], strict=True):
                    if _outcome(a) != _outcome(b):
                        differ.append({"mode": mode, "section": section, "old": a, "new": b})
                    elif a != b:
                        reworded += 1
        for d in differ:
            print(f"differs from JAX {old['jax_version']}: {d}", file=sys.stderr)
        doc["compared_with"] = {
            "jax_version": old["jax_version"],
            "sections": list(PROMOTION_SECTIONS),
            "records": sum(len(old["modes"][m][s]) for m in old["modes"] for s in PROMOTION_SECTIONS),
            "same_outcome": not differ,  # the same dtype, or the same exception type, in every record
            "messages_reworded": reworded,
            "differing": differ,
        }
    with open(args.out, "w") as fh:
        json.dump(doc, fh, sort_keys=True, indent=0)
        fh.write("\n")
    sizes = {k: (len(v["cases"]), len(v["ops"])) for k, v in doc["modes"].items()}
    print(f"wrote {args.out} (jax {doc['jax_version']}): (pair cases, op cases) per mode {sizes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
