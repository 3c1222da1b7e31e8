"""An operation that NumPy 2 refuses, uncaught, inside a function: the traceback is a plain run's."""

import numpy as np


def brighten(pixels, amount):
    return pixels + amount


image = np.array([12, 200, 255], dtype=np.uint8)
print(brighten(image, 3))
print(brighten(image, 300))
