"""An exception at module level: the traceback is the program's own."""

import numpy as np


def scale(x, by):
    return check(x * by)


def check(y):
    if y.dtype == np.float64:
        raise ValueError(f"unexpected {y.dtype}")
    return y


print("before")
try:
    np.zeros(3, np.float32) + np.zeros(2, np.float32)
except ValueError as exc:
    print("caught:", exc)
scale(np.ones(3, dtype=np.float32), np.float64(2))
