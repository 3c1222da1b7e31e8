#!/usr/bin/env python
"""Generate the JAX golden tables from real JAX: ``tests/data/jax_promotion.json`` (32-bit and x64 mode)
and ``tests/data/jax_explicit_x64_<version>_promotion.json`` (the explicit-x64 mode).

Run:  python tools/gen_jax_golden.py      (needs ``pip install jax jaxlib``, JAX 0.12.0.1 for the
                                           committed tables, Python 3.12+; the version is recorded;
                                           each mode runs in its own subprocess)
      python tools/gen_jax_golden.py --same-as OLD.json   (also compare the promotion records,
                                           pairs, ops and reductions, with the table of an older
                                           release, and record in the new one that release and
                                           every record whose outcome differs, old and new: a
                                           dtype, or an exception type, whatever its message)

The three modes, each JAX's configuration in its subprocess:

* ``32bit`` (the ``jax`` policy): JAX's default, ``jax_enable_x64=False``; its ``creation``
  records run with ``jax_explicit_x64_dtypes="error"`` (an explicitly requested 64-bit dtype is a
  ``ValueError``, as the ``jax`` policy refuses it), the rest with JAX's default ("warn");
* ``x64`` (``jax_x64``): ``jax_enable_x64=True``;
* ``explicit_x64`` (``jax_explicit_x64``): ``jax_enable_x64=False`` with
  ``jax_explicit_x64_dtypes="allow"``: the defaults stay 32-bit, a 64-bit dtype asked for by name
  is honoured.

Every mode records:

* ``cases``: every pair of operands through ``jnp.result_type(a, b)`` and ``jnp.add(a, b)``
  (dtype, ``weak_type`` of the result and, for integer results, the first value, to pin
  wrap-around), through ``jax.eval_shape`` (no kernel compiled per pair). Operands:
  ``nd:<dtype>`` is ``jnp.ones(2, dtype)``, ``0d:<dtype>`` is ``jnp.ones((), dtype)`` and
  ``py:<literal>`` a Python scalar;
* ``ops``: unary and binary operations, the dtype JAX gives for each n-d input dtype (and n-d x
  Python scalar); ``reductions``;
* ``entry_points``: Python ints at and beyond the 64-bit bounds at every entry point
  (``tools/entry_golden.py``'s cases);
* ``numpy_scalars``: NumPy scalars of every NumPy dtype and ml_dtypes' bfloat16 and float8 types at
  every entry point (``x + np.float32(1)``, ``jnp.add``, ``jnp.result_type``, ``jnp.where``,
  ``jnp.clip``, ``jnp.asarray`` and ``jnp.full`` of the scalar): JAX takes a NumPy scalar as a typed,
  non-weak operand (``jnp.add(x_f64, np.float32(1))`` is float64), its 64-bit dtypes made 32-bit
  unless x64 is enabled;
* ``values``: the value a scalar takes at each entry point (``zeros(2, dtype) + v``, ``where``,
  ``clip``, ``asarray(v, dtype=)``, ``full(2, v, dtype=)``) for values that tell the conversions
  apart (``0.1`` rounded to float32 first or not, ints past 2**24, float32's range);
* ``creation``: the creation functions without a dtype and with each dtype, and ``astype``.

The dtypes of each mode are those JAX really has in it: in 32-bit mode requests of
int64/uint64/float64/complex128 are truncated (or refused), so the 32-bit table covers bool,
int8-32, uint8-32, float16, bfloat16, float32 and complex64; the explicit-x64 mode has all of them.

Surprises pinned by the tables:
* JAX's lattice joins integers and floats *below* every float: int64 + float16 is float16,
  uint64 + int64 is the weak float (float32 or float64), int32 + bfloat16 is bfloat16,
  bfloat16 + float16 is float32.
* 0-d arrays are strong (like n-d); Python int/float/complex are weak, Python bool is not.
  A weak result becomes the mode's default dtype: ``bool array + 1`` is int32 (x64: int64).
* Without x64, uint32 + int32 gives int32 (JAX's 32-bit lattice), in both modes.
* A Python int is checked against the default integer only (int32, or int64 under x64),
  never the array's dtype: ``int8 array + 1000`` is int8 holding -24 (wrap-around), while
  ``bool array + 2**40`` raises OverflowError in 32-bit mode, and so does ``int64 array + 2**40``
  in explicit-x64 mode.
* Explicit-x64 mode: a Python float is a float32 before it meets a float64 array
  (``zeros(1, float64) + 0.1`` holds 0.10000000149011612), a NumPy float64 scalar is a float32
  (``np.int64(2**40)`` an int32: it wraps to 0), ``int64 + 1.5`` is the weak float32.
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
import golden_dtypes as G  # noqa: E402

GENERATOR = "tools/gen_jax_golden.py"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DTYPES_X64 = G.WITH_BFLOAT16
DTYPES_32 = G.THIRTY_TWO_BIT

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
# NumPy scalar types (each holding 1) of the numpy_scalars records -- NumPy's, then ml_dtypes' bfloat16 and
# float8 family -- and their entry points.
NUMPY_SCALARS = G.NUMPY_SCALARS
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


# The modes: name -> JAX's configuration (``jax.config.update``) in its subprocess.
MODES = {
    "32bit": {"jax_enable_x64": False},
    "x64": {"jax_enable_x64": True},
    "explicit_x64": {"jax_enable_x64": False, "jax_explicit_x64_dtypes": "allow"},
}
# What each mode's creation records run under (the 32-bit ``jax`` policy refuses 64-bit dtypes, as
# JAX does with "error"; JAX's default, "warn", truncates them with a warning).
CREATION_CONFIG = {"32bit": {"jax_explicit_x64_dtypes": "error"}}
# The mode of each output file.
TABLE_MODES = {"jax_promotion.json": ("32bit", "x64"), "jax_explicit_x64_{version}_promotion.json": ("explicit_x64",)}

# values: the scalars (source text, NumPy as np) whose conversion at each entry point the table pins.
VALUE_LITERALS = [
    "0.1",
    "-0.1",
    "1.0004882822744548",  # 1 + 2**-11 + 2**-30: float16 rounds it up, float32 then float16 to 1.0
    "3.4028235677973366e+38",  # float32's largest
    "1e39",  # beyond float32
    "1e-46",  # below float32's smallest subnormal
    "16777217",  # 2**24 + 1: no float32
    "2147483647",
    "-2147483648",
    "(0.1+0.1j)",
    "np.float64(0.1)",
    "np.int64(2**40)",
]
VALUE_CALLS = {
    "operator": "zeros(2, dtype) + v",
    "where": "jnp.where([True, False], zeros(2, dtype), v)",
    "clip_min": "jnp.clip(zeros(2, dtype), v, None)",
    "asarray": "jnp.asarray(v, dtype=dtype)",
    "full": "jnp.full(2, v, dtype=dtype)",
}
# creation: calls without a dtype (source text), then calls with each dtype.
CREATION_DEFAULT = [
    "jnp.asarray(True)",
    "jnp.asarray(1)",
    "jnp.asarray(2147483647)",
    "jnp.asarray(2147483648)",
    "jnp.asarray(1.5)",
    "jnp.asarray(0.1)",
    "jnp.asarray(1e39)",
    "jnp.asarray(1j)",
    "jnp.asarray([1, 2])",
    "jnp.asarray([1.5, 2])",
    "jnp.asarray([True, False])",
    "jnp.asarray([True, 2])",
    "jnp.asarray([1, 2j])",
    *[f"jnp.asarray(np.ones(2, {d!r}))" for d in G.NUMPY],
    "jnp.ones(2)",
    "jnp.zeros(2)",
    "jnp.empty(2)",
    "jnp.full(2, True)",
    "jnp.full(2, 1)",
    "jnp.full(2, 1.5)",
    "jnp.full(2, 1j)",
    "jnp.arange(3)",
    "jnp.arange(1.5)",
    "jnp.arange(0, 1, 0.25)",
    "jnp.linspace(0, 1, 3)",
    "jnp.eye(2)",
]
CREATION_WITH_DTYPE = [
    "jnp.asarray(1, dtype=dtype)",
    "jnp.asarray([1, 2], dtype=dtype)",
    "jnp.asarray(np.ones(2), dtype=dtype)",
    "jnp.ones(2, dtype=dtype)",
    "jnp.zeros(2, dtype=dtype)",
    "jnp.empty(2, dtype=dtype)",
    "jnp.full(2, 1, dtype=dtype)",
    "jnp.arange(3, dtype=dtype)",
    "jnp.linspace(0, 1, 3, dtype=dtype)",
    "jnp.eye(2, dtype=dtype)",
    "jnp.ones(2).astype(dtype)",
    "jnp.ones(2, dtype=jnp.int32).astype(dtype)",
]


def run_mode(mode: str) -> dict:
    import jax

    for option, value in MODES[mode].items():
        jax.config.update(option, value)
    import jax.numpy as jnp
    import numpy as np

    warnings.simplefilter("ignore")
    x64 = MODES[mode]["jax_enable_x64"]
    names = DTYPES_X64 if mode != "32bit" else DTYPES_32

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
        x, s = ones(d), G.scalar_type(sname)(1)
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

    def full_record(fn):
        """dtype, weak type and values of ``fn()``, or the error."""
        try:
            out = fn()
        except Exception as exc:  # noqa: BLE001 - every failure is recorded
            return err(exc)
        return {
            "dtype": str(out.dtype),
            "weak_type": bool(getattr(out, "weak_type", False)),
            "values": entry_golden.numpy_values(np.asarray(out)),
        }

    value_calls = {
        "operator": lambda d, v: jnp.zeros(2, d) + v,
        "where": lambda d, v: jnp.where(cond, jnp.zeros(2, d), v),
        "clip_min": lambda d, v: jnp.clip(jnp.zeros(2, d), v, None),
        "asarray": lambda d, v: jnp.asarray(v, dtype=d),
        "full": lambda d, v: jnp.full(2, v, dtype=d),
    }
    values = [
        {
            "entry": entry,
            "dtype": d,
            "value": text,
            "result": full_record(lambda: call(getattr(jnp, d), eval(text, {"np": np}))),  # noqa: S307 - our literals
        }
        for entry, call in value_calls.items()
        for d in names
        for text in VALUE_LITERALS
    ]
    for option, value in CREATION_CONFIG.get(mode, {}).items():
        jax.config.update(option, value)
    scope = {"jnp": jnp, "np": np}
    creation = [
        {"call": text, "dtype": None, "result": full_record(lambda: eval(text, scope))}  # noqa: S307
        for text in CREATION_DEFAULT
    ]
    creation += [
        {
            "call": text,
            "dtype": d,
            "result": full_record(lambda: eval(text, {**scope, "dtype": getattr(jnp, d)})),  # noqa: S307
        }
        for text in CREATION_WITH_DTYPE
        for d in DTYPES_X64  # every dtype, 64-bit ones too: 32-bit mode refuses them
    ]
    return {
        "x64": x64,
        "config": {**MODES[mode], **{f"{k} (creation)": v for k, v in CREATION_CONFIG.get(mode, {}).items()}},
        "dtypes": names,
        "cases": cases,
        "ops": ops,
        "reductions": reductions,
        "entry_points": entry_golden.records(names, entry_calls, describe),
        "numpy_scalars": numpy_scalars,
        "values": values,
        "creation": creation,
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
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--out-dir", default=os.path.join(HERE, "tests", "data"))
    ap.add_argument("--mode", choices=list(MODES), help=argparse.SUPPRESS)
    ap.add_argument(
        "--same-as", metavar="OLD_TABLE", help="a table of an older JAX to compare the promotion records with"
    )
    args = ap.parse_args(argv)
    if args.mode:
        json.dump(run_mode(args.mode), sys.stdout)
        return 0
    modes = {}
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    for option in ("JAX_ENABLE_X64", "JAX_EXPLICIT_X64_DTYPES"):
        env.pop(option, None)
    for mode in MODES:  # one after the other: each compiles on every core
        proc = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--mode", mode], capture_output=True, text=True, env=env
        )
        if proc.returncode:
            sys.exit(f"{GENERATOR}: mode {mode} failed:\n{proc.stderr}")
        modes[mode] = json.loads(proc.stdout)
    versions = {m["jax_version"] for m in modes.values()}
    if len(versions) != 1:
        sys.exit(f"{GENERATOR}: the modes ran different JAX versions: {versions}")
    version = versions.pop()
    for template, names in TABLE_MODES.items():
        doc = {
            "generator": GENERATOR,
            "jax_version": version,
            "jaxlib_version": modes[names[0]]["jaxlib_version"],
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
            "value_literals": VALUE_LITERALS,
            "value_calls": VALUE_CALLS,
            "calls": {
                "unary": {k: f"jnp.{v}" for k, v in UNARY.items()},
                "binary": {k: f"jnp.{v}" for k, v in BINARY.items()},
            },
            "result_encoding": (
                "result_type / op result: a dtype name or {'error', 'message'}; "
                "add: {'dtype', 'weak_type'[, 'value' of element 0 for integer "
                "results]} or {'error', 'message'}; values and creation: {'dtype', 'weak_type', 'values'} "
                "or {'error', 'message'}"
            ),
            "modes": {
                k: {kk: vv for kk, vv in modes[k].items() if kk not in ("jax_version", "jaxlib_version")} for k in names
            },
        }
        if args.same_as and "32bit" in names:
            doc["compared_with"] = _compare(args.same_as, doc)
        out = os.path.join(args.out_dir, template.format(version=version))
        with open(out, "w") as fh:
            json.dump(doc, fh, sort_keys=True, indent=0)
            fh.write("\n")
        sizes = {k: (len(v["cases"]), len(v["ops"])) for k, v in doc["modes"].items()}
        print(f"wrote {out} (jax {version}): (pair cases, op cases) per mode {sizes}")
    return 0


def _compare(old_table: str, doc: dict) -> dict:
    """The promotion records of ``doc`` against the table of an older JAX (``--same-as``)."""
    with open(old_table) as fh:
        old = json.load(fh)
    differ, reworded = [], 0
    for mode in old["modes"]:
        for section in PROMOTION_SECTIONS:
            for a, b in zip(old["modes"][mode][section], doc["modes"][mode][section], strict=True):
                if _outcome(a) != _outcome(b):
                    differ.append({"mode": mode, "section": section, "old": a, "new": b})
                elif a != b:
                    reworded += 1
    for d in differ:
        print(f"differs from JAX {old['jax_version']}: {d}", file=sys.stderr)
    return {
        "jax_version": old["jax_version"],
        "sections": list(PROMOTION_SECTIONS),
        "records": sum(len(old["modes"][m][s]) for m in old["modes"] for s in PROMOTION_SECTIONS),
        "same_outcome": not differ,  # the same dtype, or the same exception type, in every record
        "messages_reworded": reworded,
        "differing": differ,
    }


if __name__ == "__main__":
    sys.exit(main())
