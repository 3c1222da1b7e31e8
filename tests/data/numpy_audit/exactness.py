"""Exactness: calls where NumPy 1.26.4 and 2 agree though a model might not, values that differ with
the dtype, longdouble, and a function's own change (np.ceil of integers, marked ``# function``).

Run by tools/gen_numpy_audit_golden.py under NumPy 1.26.4 and NumPy 2; a probe with ``values=True``
prints the result's values too, so that a change of values alone is a change.
"""

import sys

import numpy as np


def probe(call, values=False):
    line = sys._getframe(1).f_lineno
    try:
        result = call()
        outcome = result.dtype.name
        if values:
            outcome += " " + repr([repr(v) for v in np.asarray(result).tolist()])
    except (TypeError, ValueError, OverflowError) as exc:
        builtin = next(c for c in type(exc).__mro__ if c.__module__ == "builtins")
        outcome = f"raises {builtin.__name__}"
    print(f"probe {line}: {outcome}")


def subtract_in_place(r, s):
    r -= s  # [subtract_in_place]
    return r


x64 = np.linspace(0, 1, 4)
x32 = np.linspace(0, 1, 4, dtype=np.float32)
i64 = np.arange(4)
u8 = np.array([1, 2, 3], dtype=np.uint8)
r32 = np.array([1000.1, 0.1, 3.3], dtype=np.float32)

# -- both NumPys agree -----------------------------------------------------------------------------
probe(lambda: np.arange(625, dtype=np.uint8))
probe(lambda: np.arange(2**63 - 1, 2**63 + 2))
probe(lambda: np.clip(x64, a_min=0.1, a_max=np.float64(0.5)))
probe(lambda: np.sqrt(i64, np.zeros(4)))
probe(lambda: x32 + np.zeros(2, np.float64))
probe(lambda: i64 * np.longdouble(2))
probe(lambda: subtract_in_place(r32.copy(), np.float32(0.3)), values=True)  # site: subtract_in_place
probe(lambda: np.add(x32, 1.5, out=np.zeros(4, np.float64)))
# -- they differ -------------------------------------------------------------------------------------
probe(lambda: np.clip(x32, 0.1, np.float64(0.5)))
probe(lambda: np.add(u8, 300, out=u8.copy()))
probe(lambda: subtract_in_place(r32.copy(), np.float64(0.3)), values=True)  # site: subtract_in_place
probe(lambda: np.array([0.1, 0.2], np.float32) <= np.float64(0.1), values=True)
probe(lambda: x64 * np.longdouble(2))
probe(lambda: x32 + np.longdouble(0.5))
probe(lambda: np.ceil(i64))  # function
