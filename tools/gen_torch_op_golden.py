#!/usr/bin/env python
"""Generate ``tests/data/torch_2.13.0_ops.json``: per-operation dtype behaviour of eager
PyTorch 2.13.0 (CPU), under default dtype float32 and float64.

Run:  python tools/gen_torch_op_golden.py   (refuses any other torch version)

Operations are named by their Array API name; "torch_call" stores the torch call used.
Each record's "result" is a dtype name (our names; torch's ComplexHalf is "complex32")
or {"error": exception type, "message": first line[, "kernel_dtype": dtype]} where
"kernel_dtype" is present when torch computed the dtype but has no CPU kernel for it
(``NotImplementedError: "add_stub" not implemented for 'UInt16'``).

Operands: "nd:<dtype>" is a 1-d tensor of shape (2,) (``torch.ones``); "py:<literal>"
is a Python scalar (ast.literal_eval).  Binary ops: every ordered pair of nd dtypes,
nd x py (scalar second, via the torch function) and, for ops with a Python operator,
py x nd via the reflected operator ("reflected": true).
"""

from __future__ import annotations

import argparse
import ast
import itertools
import operator
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_torch_golden  # noqa: E402
from gen_torch_golden import (  # noqa: E402
    DTYPE_NAMES,
    _check_torch,
    dtype_name,
    error_record,
)

GENERATOR = "tools/gen_torch_op_golden.py"
PY_SCALARS = ["1", "1.5", "True", "1j"]


def unary_ops(torch):
    """name -> (torch call string, callable(x))"""

    def first(t):
        return t[0] if isinstance(t, tuple) else t

    return {
        "abs": ("torch.abs(x)", torch.abs),
        "negative": ("torch.neg(x)", torch.neg),
        "positive": ("torch.positive(x)", torch.positive),
        "sqrt": ("torch.sqrt(x)", torch.sqrt),
        "exp": ("torch.exp(x)", torch.exp),
        "log": ("torch.log(x)", torch.log),
        "sin": ("torch.sin(x)", torch.sin),
        "floor": ("torch.floor(x)", torch.floor),
        "ceil": ("torch.ceil(x)", torch.ceil),
        "trunc": ("torch.trunc(x)", torch.trunc),
        "round": ("torch.round(x)", torch.round),
        "sign": ("torch.sign(x)", torch.sign),
        "square": ("torch.square(x)", torch.square),
        "reciprocal": ("torch.reciprocal(x)", torch.reciprocal),
        "logical_not": ("torch.logical_not(x)", torch.logical_not),
        "bitwise_invert": ("torch.bitwise_not(x)", torch.bitwise_not),
        "isnan": ("torch.isnan(x)", torch.isnan),
        "isfinite": ("torch.isfinite(x)", torch.isfinite),
        "real": ("torch.real(x)", torch.real),
        "imag": ("torch.imag(x)", torch.imag),
        "conj": ("torch.conj(x)", torch.conj),
        "sum": ("torch.sum(x)", torch.sum),
        "prod": ("torch.prod(x)", torch.prod),
        "cumulative_sum": ("torch.cumsum(x, 0)", lambda x: torch.cumsum(x, 0)),
        "mean": ("torch.mean(x)", torch.mean),
        "max": ("torch.max(x)", lambda x: first(torch.max(x))),
        "argmax": ("torch.argmax(x)", torch.argmax),
        "std": ("torch.std(x)", torch.std),
        "var": ("torch.var(x)", torch.var),
        "vector_norm": ("torch.linalg.vector_norm(x)", torch.linalg.vector_norm),
    }


def binary_ops(torch):
    """name -> (torch call string, callable(a, b), reflected python operator or None)"""

    def inplace(meth):
        def f(a, b):
            return getattr(a.clone(), meth)(b)

        return f

    def cond_for(a, b):
        for v in (a, b):
            if isinstance(v, torch.Tensor):
                return torch.ones(v.shape, dtype=torch.bool)
        return torch.ones((), dtype=torch.bool)

    return {
        "add": ("torch.add(a, b)", torch.add, operator.add),
        "subtract": ("torch.sub(a, b)", torch.sub, operator.sub),
        "multiply": ("torch.mul(a, b)", torch.mul, operator.mul),
        "divide": ("torch.div(a, b)", torch.div, operator.truediv),
        "floor_divide": ("torch.floor_divide(a, b)", torch.floor_divide, operator.floordiv),
        "remainder": ("torch.remainder(a, b)", torch.remainder, operator.mod),
        "pow": ("torch.pow(a, b)", torch.pow, operator.pow),
        "atan2": ("torch.atan2(a, b)", torch.atan2, None),
        "bitwise_and": ("torch.bitwise_and(a, b)", torch.bitwise_and, operator.and_),
        "bitwise_left_shift": ("torch.bitwise_left_shift(a, b)", torch.bitwise_left_shift, operator.lshift),
        "logical_and": ("torch.logical_and(a, b)", torch.logical_and, None),
        "equal": ("torch.eq(a, b)", torch.eq, operator.eq),
        "less": ("torch.lt(a, b)", torch.lt, operator.lt),
        "maximum": ("torch.maximum(a, b)", torch.maximum, None),
        "minimum": ("torch.minimum(a, b)", torch.minimum, None),
        "copysign": ("torch.copysign(a, b)", torch.copysign, None),
        "hypot": ("torch.hypot(a, b)", torch.hypot, None),
        "logaddexp": ("torch.logaddexp(a, b)", torch.logaddexp, None),
        "nextafter": ("torch.nextafter(a, b)", torch.nextafter, None),
        "where": (
            "torch.where(torch.ones(shape, dtype=torch.bool), a, b)",
            lambda a, b: torch.where(cond_for(a, b), a, b),
            None,
        ),
        "clip": ("torch.clamp(a, min=b)", lambda a, b: torch.clamp(a, min=b), None),
        "iadd": ("a.clone().add_(b)", inplace("add_"), None),
        "imul": ("a.clone().mul_(b)", inplace("mul_"), None),
        "itruediv": ("a.clone().div_(b)", inplace("div_"), None),
        "ifloordiv": ("a.clone().floor_divide_(b)", inplace("floor_divide_"), None),
    }


def result_of(fn, *args):
    try:
        out = fn(*args)
    except Exception as exc:  # noqa: BLE001 - every failure is recorded
        return error_record(exc)
    return dtype_name(out.dtype)


def main(argv=None) -> int:
    torch = _check_torch()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--out",
        default=os.path.join(
            os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
            "tests",
            "data",
            f"torch_{gen_torch_golden.TORCH_VERSION}_ops.json",
        ),
    )
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")

    uops, bops = unary_ops(torch), binary_ops(torch)
    unary, binary = [], []
    for default in ("float32", "float64"):
        torch.set_default_dtype(getattr(torch, default))
        for name, (_call, fn) in uops.items():
            for dn in DTYPE_NAMES:
                x = torch.ones(2, dtype=getattr(torch, dn))
                unary.append(
                    {"default_dtype": default, "op": name, "operands": [f"nd:{dn}"], "result": result_of(fn, x)}
                )
        for name, (_call, fn, rop) in bops.items():
            for da, db in itertools.product(DTYPE_NAMES, repeat=2):
                a = torch.ones(2, dtype=getattr(torch, da))
                b = torch.ones(2, dtype=getattr(torch, db))
                binary.append(
                    {
                        "default_dtype": default,
                        "op": name,
                        "operands": [f"nd:{da}", f"nd:{db}"],
                        "result": result_of(fn, a, b),
                    }
                )
            for dn, lit in itertools.product(DTYPE_NAMES, PY_SCALARS):
                a = torch.ones(2, dtype=getattr(torch, dn))
                s = ast.literal_eval(lit)
                binary.append(
                    {
                        "default_dtype": default,
                        "op": name,
                        "operands": [f"nd:{dn}", f"py:{lit}"],
                        "result": result_of(fn, a, s),
                    }
                )
                if rop is not None:
                    binary.append(
                        {
                            "default_dtype": default,
                            "op": name,
                            "operands": [f"py:{lit}", f"nd:{dn}"],
                            "reflected": True,
                            "result": result_of(rop, s, a),
                        }
                    )
    torch.set_default_dtype(torch.float32)

    doc = {
        "generator": GENERATOR,
        "torch_version": gen_torch_golden.TORCH_VERSION,
        "dtypes": DTYPE_NAMES,
        "py_scalars": PY_SCALARS,
        "unary_calls": {k: v[0] for k, v in uops.items()},
        "binary_calls": {k: v[0] for k, v in bops.items()},
        "reflected_operators": {k: v[2].__name__ for k, v in bops.items() if v[2] is not None},
        "operand_syntax": {"nd:<dtype>": "torch.ones(2, dtype=<dtype>)", "py:<literal>": "ast.literal_eval(<literal>)"},
        "unary": unary,
        "binary": binary,
    }
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as fh:
        gen_torch_golden.write_table(doc, fh)
        fh.write("\n")
    print(f"wrote {args.out}: {len(unary)} unary cases, {len(binary)} binary cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
