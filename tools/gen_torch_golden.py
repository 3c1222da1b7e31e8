#!/usr/bin/env python
"""Generate ``tests/data/torch_2.13.0_promotion.json`` from real PyTorch 2.13.0.

Run:  python tools/gen_torch_golden.py   (refuses any other torch version)

Surprising torch 2.13 rules pinned by this table (for the ``torch`` policy author)
-------------------------------------------------------------------------------
Model (c10 ResultTypeState, verified by every case below): operands are split into
three priority classes -- n-d tensors ("dim"), 0-d tensors ("zero"), Python scalars
("wrapped"); each class is folded LEFT TO RIGHT with the pairwise table; then
``combine(dim, combine(zero, wrapped))`` where ``combine(higher, lower)`` is::

    if higher is complex:             return higher
    if lower is complex:              return to_complex(higher) if higher is floating
                                      else lower
    if higher is floating:            return higher
    if higher is bool or lower is floating: return promote(higher, lower)
    return higher if higher is defined else lower

Consequences worth a test each:
* uint16/uint32/uint64 pairwise-promote only with themselves and with the REAL
  floating dtypes (uint16+float16 -> float16, uint64+bfloat16 -> bfloat16); with bool,
  any other integer, and complex64/complex128 they raise ``RuntimeError: Promotion for
  uint16, uint32, uint64 types is not supported, attempted to promote UInt16 and Char``
  (torch ScalarType names: Bool Byte Char Short Int Long UInt16 UInt32 UInt64 Half
  BFloat16 Float Double ComplexHalf ComplexFloat ComplexDouble; order = operand order).
  But priority classes hide it: nd:uint16 + 0d:int8 -> uint16, 0d:uint16 + nd:int8 ->
  int8, nd:int8 + 0d:complex128 -> complex128 and nd:uint16 + 0d:complex64 ->
  complex64 (no error), while nd:bool + 0d:uint16 and nd:bool + py:2**63 RAISE
  (higher is bool => promote()).
* complex lower + floating higher keeps the higher's precision: nd:float16 + 0d:complex64
  -> complex32 (ComplexHalf), nd:float16 + py:1j -> complex32, nd:bfloat16 + 0d:complex128
  -> complex64, nd:bfloat16 + py:1j -> complex64, nd:float32 + 0d:complex128 -> complex64,
  nd:float64 + 0d:complex64 -> complex128.  nd:float16 + nd:complex64 -> complex64.
* bfloat16 + float16 -> float32 (in the same class); nd:bfloat16 + 0d:float16 -> bfloat16.
* 0-d of a higher category keeps ITS OWN dtype: nd:int8 + 0d:float64 -> float64,
  nd:bool + 0d:int8 -> int8, whereas nd:int8 + py:1.5 -> default dtype.
* Python scalars: bool -> Bool; int -> Long if -2**63 <= v < 2**63, UInt64 if
  2**63 <= v < 2**64; v >= 2**64 -> ``OverflowError: int too big to convert``;
  v < -2**63 -> ``OverflowError: can't convert negative int to unsigned``.  These
  OverflowErrors are raised for EVERY partner (float/complex tensors too, result_type
  too).  float -> default dtype; complex -> complex(default dtype) (complex64 under
  float32 default, complex128 under float64).  bool tensor + py int -> int64.
* Python scalar pairs (torch.result_type(s1, s2), torch.add(s1, s2)) use the plain
  table: (True, 1) -> int64, (1, 1.5) -> default float, (2**63, 1) -> RuntimeError
  "attempted to promote UInt64 and Long", (2**63, 1j) -> RuntimeError (UInt64 vs
  complex), (2**63, 1.5) -> default float, (2**63, True) -> RuntimeError.
* Values: out-of-range ints wrap modulo 2**bits of the int64/uint64 value
  (uint8+1000 -> 232, uint8+-1 -> 255, int8+(2**63-1) -> -1, int64+2**63 -> -2**63,
  int64+(2**64-1) -> -1); float16+2**31 -> inf, float16+1e5 -> inf, bfloat16+1e5 ->
  99840, float32+1e39 -> inf.
* Eager ``+`` has no CPU kernel for uint16/32/64: ``NotImplementedError: "add_stub" not
  implemented for 'UInt64'`` -- NOT a promotion error (records carry "kernel_dtype" =
  the computed dtype); result_type succeeds.  ``|`` works for them.
* Conversions (the "conversions" section): where a Python scalar is converted rather
  than promoted, torch checks it (c10::checked_convert) in torch.where, torch.clamp and
  torch.full -- where(uint8, 1000), where(int32, 2**40), where(float32, 1e300) raise
  "value cannot be converted to type ... without overflow" -- except that a negative int
  wraps into an unsigned type down to -max (where(uint8, -1) holds 255, -256 raises) and
  float16/bfloat16 take any float (inf); operands of + never are.  torch.asarray checks
  ints the same way (asarray(-1, uint8) is 255, asarray(1000, int8) raises), truncates
  floats into integer dtypes (1.5 -> 1), rounds floats into floating dtypes unchecked
  (asarray(1e300, float32) is inf while full raises), and takes uint64 only from
  non-negative ints.  torch.add/sub/mul/true_divide/floor_divide/where take two Python
  scalars (a 0-d result of the wrapped numbers' promotion); remainder/pow do not.
  torch.clamp(x, lo, hi) with a Python-number bound binds the Scalar overload, turning
  a 0-d tensor bound into a number too (clamp(bool, 0-d float64, True) is float32).
* Three operands (torch.addcmul(a, b, c)): left-to-right fold is order dependent:
  addcmul(nd:uint16, nd:float16, nd:int8) -> float16, but addcmul(nd:uint16, nd:int8,
  nd:float16) raises "attempted to promote UInt16 and Char".
"""

from __future__ import annotations

import argparse
import ast
import itertools
import json
import os
import re
import sys
import warnings

# The torch releases the tables are made from (each its own files): the ``torch`` policy
# follows the newest, ``torch@2.13`` the first.
SUPPORTED_VERSIONS = ("2.13.0", "2.15.0")
TORCH_VERSION = "2.13.0"  # the installed one, once _check_torch has run
GENERATOR = "tools/gen_torch_golden.py"

DTYPE_NAMES = [
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

# Python scalar literals; each is evaluated with ast.literal_eval.
PY_LITERALS = [
    "True",
    "False",
    "0",
    "1",
    "-1",
    "1000",
    "-129",
    "2147483648",  # 2**31
    "9223372036854775807",  # 2**63 - 1
    "9223372036854775808",  # 2**63
    "-9223372036854775808",  # -2**63
    "-9223372036854775809",  # -2**63 - 1
    "18446744073709551615",  # 2**64 - 1
    "18446744073709551616",  # 2**64
    "1.5",
    "-0.0",
    "1e39",
    "1j",
    "(1.5-2j)",
]

THREE_OPERAND_SUBSET = [
    "nd:int8",
    "nd:uint8",
    "nd:int64",
    "0d:int8",
    "0d:int64",
    "0d:float64",
    "nd:float16",
    "nd:bfloat16",
    "nd:float32",
    "0d:complex128",
    "nd:bool",
    "0d:bool",
    "nd:uint16",
    "0d:float16",
]

SCALAR_VALUE_DTYPES = [
    "uint8",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "bfloat16",
    "float32",
]
SCALAR_VALUE_LITERALS = [
    "1000",
    "-1",
    "256",
    "2147483648",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "100000.0",
    "1e39",
    "1.5",
    "True",
]
SCALAR_VALUE_0D_DTYPES = ["uint8", "int8", "int64", "float16", "bfloat16"]

# Conversions (issue 9): where a Python scalar is *converted* to a dtype, not promoted.
CONVERSION_LITERALS = [
    "True",
    "False",
    "0",
    "1",
    "-1",
    "127",
    "128",
    "200",
    "-129",
    "255",
    "256",
    "-255",
    "-256",
    "1000",
    "32768",
    "-32769",
    "65535",
    "65536",
    "2147483648",
    "1099511627776",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "1.5",
    "-1.5",
    "-0.0",
    "100000.0",
    "1e39",
    "1e300",
    "inf",
    "nan",
    "1j",
    "(1.5-2j)",
    "1e300j",
    "(2+0j)",  # checked_convert takes a complex with no imaginary part as its real part
]
# torch functions that take two Python scalars (the array API name -> torch callable)
SCALAR_PAIR_FUNCTIONS = {
    "add": "torch.add",
    "subtract": "torch.sub",
    "multiply": "torch.mul",
    "divide": "torch.true_divide",
    "floor_divide": "torch.floor_divide",
    "remainder": "torch.remainder",
    "pow": "torch.pow",
    "where": "torch.where(cond, x1, x2)",
}
SCALAR_PAIR_LITERALS = ["True", "1", "-3", "1.5", "1j", "9223372036854775808"]
# clamp bounds: None, Python scalars and 0-d tensors
CLAMP_BOUNDS = [
    "None",
    "py:0",
    "py:True",
    "py:1.5",
    "py:1000",
    "py:-1",
    "0d:float64",
    "0d:bfloat16",
    "0d:int64",
    "0d:bool",
    "0d:uint8",
    "0d:float16",
    "py:(2+0j)",  # a complex number bound: a floating x keeps its dtype (clamp's meta function)
    "py:1j",
    "0d:complex64",
]
_SPECIAL_FLOATS = {"inf": float("inf"), "nan": float("nan")}


def literal(text: str):
    return _SPECIAL_FLOATS[text] if text in _SPECIAL_FLOATS else ast.literal_eval(text)


def conversion_cases(torch, default):
    """torch.asarray/torch.full of every literal into every dtype, torch.where and
    torch.clamp with Python scalars, and torch functions called with two Python scalars."""
    cond = torch.tensor([True, False])
    out = {"creation": [], "where": [], "clamp": [], "scalar_pairs": []}
    for dn in DTYPE_NAMES + [None]:
        dt = None if dn is None else getattr(torch, dn)
        for lit in CONVERSION_LITERALS:
            v = literal(lit)
            out["creation"].append(
                {
                    "default_dtype": default,
                    "dtype": dn,
                    "scalar": f"py:{lit}",
                    "asarray": values_or_error(lambda: torch.asarray(v, dtype=dt)),
                    "full": values_or_error(lambda: torch.full((1,), v, dtype=dt)),
                }
            )
    for dn in DTYPE_NAMES:
        x = torch.ones(2, dtype=getattr(torch, dn))
        for lit in CONVERSION_LITERALS:
            v = literal(lit)
            out["where"].append(
                {
                    "default_dtype": default,
                    "operands": [f"nd:{dn}", f"py:{lit}"],
                    "result": values_or_error(lambda: torch.where(cond, x, v)),
                }
            )
            out["where"].append(
                {
                    "default_dtype": default,
                    "operands": [f"py:{lit}", f"nd:{dn}"],
                    "result": values_or_error(lambda: torch.where(cond, v, x)),
                }
            )
    for kind in ("nd", "0d"):
        for dn in DTYPE_NAMES:
            x = make_operand(torch, f"{kind}:{dn}")
            for lo, hi in itertools.product(CLAMP_BOUNDS, repeat=2):
                if lo == hi == "None":
                    continue
                a, b = (None if s == "None" else make_operand(torch, s) for s in (lo, hi))
                out["clamp"].append(
                    {
                        "default_dtype": default,
                        "operands": [f"{kind}:{dn}", lo, hi],
                        "result": values_or_error(lambda: torch.clamp(x, a, b)),
                    }
                )
    for name, call in SCALAR_PAIR_FUNCTIONS.items():
        fn = (lambda a, b: torch.where(cond, a, b)) if name == "where" else eval(call)  # noqa: S307
        for la, lb in itertools.product(SCALAR_PAIR_LITERALS, repeat=2):
            a, b = literal(la), literal(lb)
            out["scalar_pairs"].append(
                {
                    "default_dtype": default,
                    "op": name,
                    "call": call,
                    "operands": [f"py:{la}", f"py:{lb}"],
                    "result": values_or_error(lambda: fn(a, b)),
                }
            )
    return out


# torch's ScalarType names (as they appear in error messages) -> our names
SCALARTYPE_NAMES = {
    "Bool": "bool",
    "Byte": "uint8",
    "Char": "int8",
    "Short": "int16",
    "Int": "int32",
    "Long": "int64",
    "UInt16": "uint16",
    "UInt32": "uint32",
    "UInt64": "uint64",
    "Half": "float16",
    "BFloat16": "bfloat16",
    "Float": "float32",
    "Double": "float64",
    "ComplexHalf": "complex32",
    "ComplexFloat": "complex64",
    "ComplexDouble": "complex128",
}


def write_table(doc, fh) -> None:
    """``doc`` as JSON with one record (a list's element) per line and no indentation: diffs
    stay line by line, and the file is a third smaller than indented JSON."""

    def dump(node, depth):
        if isinstance(node, dict) and any(isinstance(v, (dict, list)) for v in node.values()) and depth < 2:
            items = [f"{json.dumps(k)}: {dump(v, depth + 1)}" for k, v in sorted(node.items())]
            return "{\n" + ",\n".join(items) + "\n}"
        if isinstance(node, list) and node and isinstance(node[0], dict):
            return "[\n" + ",\n".join(json.dumps(r, sort_keys=True, separators=(",", ":")) for r in node) + "\n]"
        return json.dumps(node, sort_keys=True, separators=(",", ":"))

    fh.write(dump(doc, 0) + "\n")


def _check_torch():
    import torch

    global TORCH_VERSION
    version = torch.__version__.split("+")[0]
    if version not in SUPPORTED_VERSIONS:
        sys.exit(f"{GENERATOR}: requires torch {' or '.join(SUPPORTED_VERSIONS)}, found {torch.__version__}")
    TORCH_VERSION = version
    return torch


def dtype_name(dt) -> str:
    return str(dt).removeprefix("torch.")


def error_record(exc: BaseException) -> dict:
    msg = str(exc).strip().splitlines()
    rec = {"error": type(exc).__name__, "message": msg[0] if msg else ""}
    m = re.search(r"not implemented for '(\w+)'", rec["message"])
    if isinstance(exc, NotImplementedError) and m and m.group(1) in SCALARTYPE_NAMES:
        # kernel missing for the *computed* dtype: promotion itself succeeded
        rec["kernel_dtype"] = SCALARTYPE_NAMES[m.group(1)]
    return rec


def make_operand(torch, spec: str):
    kind, _, val = spec.partition(":")
    if kind == "py":
        return ast.literal_eval(val)
    dt = getattr(torch, val)
    if kind == "nd":
        return torch.ones(2, dtype=dt)
    if kind == "0d":
        return torch.ones((), dtype=dt)
    raise ValueError(spec)


def dtype_or_error(fn) -> object:
    try:
        out = fn()
    except Exception as exc:  # noqa: BLE001 - we record every failure
        return error_record(exc)
    # torch.result_type returns a dtype; ops return tensors
    return dtype_name(out.dtype if hasattr(out, "dtype") else out)


def value_repr(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, float):
        if v != v:
            return "nan"
        if v in (float("inf"), float("-inf")):
            return "inf" if v > 0 else "-inf"
        return v
    if isinstance(v, complex):
        return [value_repr(v.real), value_repr(v.imag)]
    return v


def values_or_error(fn) -> object:
    try:
        out = fn()
    except Exception as exc:  # noqa: BLE001
        return error_record(exc)
    vals = out.tolist()
    if not isinstance(vals, list):
        vals = [vals]
    return {"dtype": dtype_name(out.dtype), "values": [value_repr(v) for v in vals]}


def main(argv=None) -> int:
    torch = _check_torch()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--out",
        default=os.path.join(
            os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
            "tests",
            "data",
            f"torch_{TORCH_VERSION}_promotion.json",
        ),
    )
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")  # ComplexHalf "experimental" UserWarning etc.

    operands = (
        [f"nd:{n}" for n in DTYPE_NAMES] + [f"0d:{n}" for n in DTYPE_NAMES] + [f"py:{lit}" for lit in PY_LITERALS]
    )

    cases = []
    three = []
    scalar_values = []
    conversions = {"creation": [], "where": [], "clamp": [], "scalar_pairs": []}
    for default in ("float32", "float64"):
        torch.set_default_dtype(getattr(torch, default))
        for section, records in conversion_cases(torch, default).items():
            conversions[section].extend(records)
        for sa, sb in itertools.product(operands, repeat=2):
            a, b = make_operand(torch, sa), make_operand(torch, sb)
            any_tensor = isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor)
            rec = {
                "default_dtype": default,
                "operands": [sa, sb],
                "result_type": dtype_or_error(lambda: torch.result_type(a, b)),
                "add": dtype_or_error((lambda: a + b) if any_tensor else (lambda: torch.add(a, b))),
                "add_call": "a + b" if any_tensor else "torch.add(a, b)",
            }
            cases.append(rec)
        for sa, sb, sc in itertools.product(THREE_OPERAND_SUBSET, repeat=3):
            a, b, c = (make_operand(torch, s) for s in (sa, sb, sc))
            three.append(
                {
                    "default_dtype": default,
                    "operands": [sa, sb, sc],
                    "result": dtype_or_error(lambda: torch.addcmul(a, b, c)),
                }
            )
        for dn in SCALAR_VALUE_DTYPES:
            for lit in SCALAR_VALUE_LITERALS:
                s = ast.literal_eval(lit)
                dt = getattr(torch, dn)
                scalar_values.append(
                    {
                        "default_dtype": default,
                        "tensor": f"nd:{dn}",
                        "scalar": f"py:{lit}",
                        "add": values_or_error(lambda: torch.zeros(2, dtype=dt) + s),
                        "bitwise_or": (
                            values_or_error(lambda: torch.zeros(2, dtype=dt) | s) if not dt.is_floating_point else None
                        ),
                    }
                )
        for dn in SCALAR_VALUE_0D_DTYPES:
            for lit in SCALAR_VALUE_LITERALS:
                s = ast.literal_eval(lit)
                dt = getattr(torch, dn)
                scalar_values.append(
                    {
                        "default_dtype": default,
                        "tensor": f"0d:{dn}",
                        "scalar": f"py:{lit}",
                        "add": values_or_error(lambda: torch.zeros((), dtype=dt) + s),
                        "bitwise_or": (
                            values_or_error(lambda: torch.zeros((), dtype=dt) | s) if not dt.is_floating_point else None
                        ),
                    }
                )
    torch.set_default_dtype(torch.float32)

    doc = {
        "generator": GENERATOR,
        "torch_version": TORCH_VERSION,
        "dtypes": DTYPE_NAMES,
        "extra_result_dtypes": ["complex32"],
        "operand_syntax": {
            "nd:<dtype>": "torch.ones(2, dtype=<dtype>)",
            "0d:<dtype>": "torch.ones((), dtype=<dtype>)",
            "py:<literal>": "ast.literal_eval(<literal>) (a Python scalar)",
        },
        "py_literals": PY_LITERALS,
        "result_encoding": (
            "a dtype name, or {'error': exception type, 'message': first "
            "line[, 'kernel_dtype': computed dtype when the error is a "
            "missing kernel (NotImplementedError), i.e. promotion itself "
            "succeeded]}"
        ),
        "cases": cases,
        "three_operand_op": "torch.addcmul",
        "three_operand_note": (
            "torch.addcmul(a, b, c) promotes all three inputs in one "
            "TensorIterator (operands folded left to right per "
            "category). Only tensors (nd/0d): Python scalars cannot "
            "be passed where Tensor is expected."
        ),
        "three_operand_cases": three,
        "scalar_values_note": (
            "values of torch.zeros(shape, dtype=d) + s (and | s for "
            "integer dtypes); floats as JSON numbers, infinities as "
            "'inf'/'-inf', complex as [re, im]"
        ),
        "scalar_values": scalar_values,
        "conversions_note": (
            "where a Python scalar is converted, not promoted: creation (torch.asarray(s, "
            "dtype=d) and torch.full((1,), s, dtype=d); dtype null = no dtype), "
            "torch.where(cond, x, s) and (cond, s, x) with cond = [True, False], "
            "torch.clamp(x, lo, hi) with Python-scalar and 0-d bounds, and torch functions "
            "called with two Python scalars; literals also 'inf'/'nan'; results are "
            "{'dtype', 'values'} or an error record"
        ),
        "conversion_literals": CONVERSION_LITERALS,
        "conversions": conversions,
    }
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as fh:
        write_table(doc, fh)
        fh.write("\n")
    print(
        f"wrote {args.out}: {len(cases)} pair cases, {len(three)} three-operand "
        f"cases, {len(scalar_values)} scalar-value cases, conversions: "
        f"{ {k: len(v) for k, v in conversions.items()} }"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
