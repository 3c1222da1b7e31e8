#!/usr/bin/env python
"""Generate ``tests/data/megengine_1.13.0_promotion.json`` from real MegEngine 1.13.0 (CPU).

Run, in a Python 3.10 environment with MegEngine 1.13.0 and NumPy 1.x (MegEngine has no
wheel for a newer Python, nor for NumPy 2)::

    python3.10 -m venv V && V/bin/pip install megengine==1.13.0 "numpy<2"
    V/bin/python tools/gen_megengine_golden.py        # refuses any other MegEngine version

(1.13.0 is the newest MegEngine on PyPI: no 1.13.1 wheel for any Python.)

The cases and the table's layout are ``tools/field_golden.py``'s (arithmetic and ``where``
of every operand pair, creation, reductions); this script says how MegEngine makes them.
The cases run in restartable worker processes: an integer kernel dividing by a number that
converts to 0 kills the process (SIGFPE, recorded as the signal), and after an asynchronous
kernel error MegEngine's interpreter refuses every later op.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import field_golden  # noqa: E402

MEGENGINE_VERSION = "1.13.0"
DTYPE_NAMES = ["bool", "uint8", "uint16", "int8", "int16", "int32", "float16", "float32"]
PY_LITERALS = ["True", "False", "1", "-1", "127", "1000", "2147483648", "1099511627776", "1.5", "-0.5", "1e39"]


def backend() -> field_golden.Backend:
    os.environ.setdefault("MGE_DEFAULT_DEVICE", "cpu0")  # (inherited by the workers)
    import megengine as mge
    import megengine.functional as F
    import numpy as np

    if mge.__version__ != MEGENGINE_VERSION:
        sys.exit(f"this generator pins MegEngine {MEGENGINE_VERSION}; found {mge.__version__}")

    def ones(dn):
        return mge.tensor(np.full(2, 1 if dn != "bool" else True, dtype=dn))

    return field_golden.Backend(
        name="megengine",
        version=mge.__version__,
        dtypes=DTYPE_NAMES,
        literals=PY_LITERALS,
        array_call="tensor",
        make=lambda dn, shape: mge.tensor(np.full(shape, 1 if dn != "bool" else True, dtype=dn)),
        where=F.where,
        array=mge.tensor,
        calls={
            "ones(2)": lambda: F.ones(2),
            "zeros(2)": lambda: F.zeros(2),
            "arange(3)": lambda: F.arange(3),
            # a Python float into an integer dtype truncates, an int wraps
            "tensor(1.5, dtype=int32)": lambda: mge.tensor(1.5, dtype="int32"),
            "tensor(-1.7, dtype=int8)": lambda: mge.tensor(-1.7, dtype="int8"),
            "tensor(1000, dtype=int8)": lambda: mge.tensor(1000, dtype="int8"),
        },
        reduce=lambda op, x: getattr(F, op)(x),
        entry_calls={  # (MegEngine has no result_type)
            "operator": lambda dn, v: ones(dn) + v,
            "function": lambda dn, v: F.add(ones(dn), v),
            "where": lambda dn, v: F.where(mge.tensor([True, False]), ones(dn), v),
            "clip_min": lambda dn, v: F.clip(ones(dn), v, None),
            "clip_max": lambda dn, v: F.clip(ones(dn), None, v),
            "asarray": lambda dn, v: mge.tensor(v, dtype=dn),
            "full": lambda dn, v: F.full(2, v, dtype=dn),
        },
        values=lambda out: out.numpy(),
        dtype_name=str,
        isolate=True,
    )


if __name__ == "__main__":
    sys.exit(field_golden.main(backend, os.path.abspath(__file__)))
