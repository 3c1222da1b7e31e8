"""A NumPy-1-era program: 33 probed lines of NumPy calls, 18 change under NEP 50 and 15 agree.

Each probed line is ``probe(lambda: ...)``: it prints the line and the outcome (the result's dtype,
or the exception it raised).  tools/gen_numpy_audit_golden.py runs it under NumPy 1.26.4 and NumPy 2;
``# site: NAME`` says the call's operation is at the line marked ``[NAME]``.
"""

import sys

import numpy as np


def probe(call):  # kinds_helpers.probe again, on purpose: this program stands alone, as the audit guide runs it
    line = sys._getframe(1).f_lineno
    try:
        result = call()
        outcome = result.name if isinstance(result, np.dtype) else result.dtype.name
    except (TypeError, ValueError, OverflowError) as exc:
        builtin = next(c for c in type(exc).__mro__ if c.__module__ == "builtins")  # UFuncTypeError: TypeError
        outcome = f"raises {builtin.__name__}"
    print(f"probe {line}: {outcome}")


def add_in_place(out, amount):
    out += amount  # [add_in_place]
    return out


def scale(x, factor):
    return x * factor  # [scale]


counts = np.array([3, 0, 7, 1], dtype=np.int32)
x32 = np.linspace(0, 1, 4, dtype=np.float32)
f16 = np.ones(4, dtype=np.float16)
i8 = np.array([1, -2, 3, -4], dtype=np.int8)
i16 = np.arange(4, dtype=np.int16)
u8 = np.array([10, 20, 200, 250], dtype=np.uint8)
img = np.array([[0, 128], [255, 64]], dtype=np.uint8)
mask = counts > 1

# -- lines whose outcome changes ------------------------------------------------------------------
probe(lambda: counts + np.int64(1))
probe(lambda: x32 - np.float64(1e-3) * x32)
probe(lambda: u8 + 300)
probe(lambda: f16 * 1e5)
probe(lambda: x32 * np.array(2.0))
probe(lambda: u8 - np.array(1))
probe(lambda: np.float32(3) + 3.0)
probe(lambda: np.uint8(200) + 100)
probe(lambda: np.int8(100) + 1)
probe(lambda: np.where(mask, x32, np.float64(0)))
probe(lambda: np.maximum(x32, np.float64(0.5)))
probe(lambda: np.multiply(i16, np.int64(3)))
probe(lambda: np.result_type(x32, np.float64(1)))
probe(lambda: u8 // np.int64(2))
probe(lambda: add_in_place(u8.copy(), 300))  # site: add_in_place
probe(lambda: scale(x32, np.float64(0.5)))  # site: scale
probe(lambda: i8 * np.int16(3))
probe(lambda: f16 + np.float32(1))

# -- lines whose outcome agrees -------------------------------------------------------------------
probe(lambda: np.add(counts, 1))
probe(lambda: img.astype(np.float32) / 255.0)
probe(lambda: x32**2)
probe(lambda: np.clip(img, 0, 255))
probe(lambda: img.sum())
probe(lambda: np.mean(img))
probe(lambda: np.max(x32))
probe(lambda: np.concatenate([x32, x32]))
probe(lambda: np.full(3, 7, np.uint8) - np.uint8(10))
probe(lambda: x32 + np.float32(1))
probe(lambda: counts * 2)
probe(lambda: np.zeros(3) + 1)
probe(lambda: np.sqrt(x32))
probe(lambda: np.float64(2) * x32.astype(np.float64))
probe(lambda: np.int64(5) // 2)
