"""Lines whose NumPy results differ between NumPy 1.x and 2 (each marked) and lines that agree."""

import numpy as np

pixels = np.array([12, 200, 255], dtype=np.uint8)
weights = np.ones(3, dtype=np.float32)
print((weights * np.float64(1.5)).dtype)  # differs
print((np.float32(3) + 3.0).dtype)  # differs
print(np.clip(pixels, 0, 255).dtype)
print((pixels + 3).dtype)
for i in range(3):
    total = (weights + np.float64(i)).dtype  # differs
print(total)
