#!/usr/bin/env python
"""Generate ``tests/data/mlx_<version>_promotion.json`` from real MLX (CPU).

Run, in an environment with MLX's CPU build (``pip install "mlx[cpu]" numpy``)::

    V/bin/python tools/gen_mlx_golden.py

The cases and the table's layout are ``tools/field_golden.py``'s (arithmetic and ``where``
of every operand pair, creation, reductions); this script says how MLX makes them.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import field_golden  # noqa: E402

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


def backend() -> field_golden.Backend:
    import mlx.core as mx
    import numpy as np

    mx.set_default_device(mx.cpu)

    def dtype(name):
        return getattr(mx, "bool_" if name == "bool" else name)

    def name_of(d) -> str:
        return str(d).replace("mlx.core.", "")

    return field_golden.Backend(
        name="mlx",
        version=mx.__version__,
        dtypes=DTYPE_NAMES,
        literals=PY_LITERALS,
        array_call="array",
        make=lambda dn, shape: mx.ones(shape, dtype=dtype(dn)),
        where=mx.where,
        array=mx.array,
        calls={"ones((2,))": lambda: mx.ones((2,)), "arange(3)": lambda: mx.arange(3)},
        reduce=lambda op, x: getattr(mx, op)(x),
        values=lambda out: np.array(out.astype(mx.float32) if name_of(out.dtype) == "bfloat16" else out),
        dtype_name=name_of,
        lists=(*field_golden.LISTS, "[1, 1j]"),
        entry_calls={  # (mx.result_type takes no Python scalar: "Inputs must be arrays or dtypes")
            "operator": lambda dn, v: mx.ones((2,), dtype=dtype(dn)) + v,
            "function": lambda dn, v: mx.add(mx.ones((2,), dtype=dtype(dn)), v),
            "where": lambda dn, v: mx.where(mx.array([True, False]), mx.ones((2,), dtype=dtype(dn)), v),
            "clip_min": lambda dn, v: mx.clip(mx.ones((2,), dtype=dtype(dn)), v, None),
            "clip_max": lambda dn, v: mx.clip(mx.ones((2,), dtype=dtype(dn)), None, v),
            "asarray": lambda dn, v: mx.array(v, dtype=dtype(dn)),
            "full": lambda dn, v: mx.full((2,), v, dtype=dtype(dn)),
        },
        functions={
            "fft.fft": mx.fft.fft,
            "fft.rfft": mx.fft.rfft,
            "fft.irfft": mx.fft.irfft,
            "linalg.eigvals": mx.linalg.eigvals,
        },
    )


if __name__ == "__main__":
    sys.exit(field_golden.main(backend, os.path.abspath(__file__)))
