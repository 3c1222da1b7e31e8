"""Plain NumPy 1.x-era code: which lines change under NumPy 2 (python -m array_api_promo.audit --numpy)."""

import numpy as np

pixels = np.array([12, 200, 255], dtype=np.uint8)
weights = np.ones(3, dtype=np.float32)
print((weights * np.float64(1.5)).dtype)  # NumPy 1.x: float32
print((np.float32(3) + 3.0).dtype)  # NumPy 1.x: float64
print(np.clip(pixels, 0, 255).dtype)  # uint8 under both: not reported
try:
    print(pixels + 300)  # NumPy 1.x: uint16
except OverflowError as exc:
    print("OverflowError:", exc)
