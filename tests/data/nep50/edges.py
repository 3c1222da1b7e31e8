"""Edges met on a real library's tests: big-endian data, a read-only target, warnings made errors by the
program, and a finalizer at the interpreter's shutdown that calls the module's own functions."""

import warnings

import numpy as np

header = np.zeros((), dtype=[("zoom", ">f4")])  # big-endian, as read from a file
header["zoom"] = 0.25
print((header["zoom"] * 10).dtype)  # differs: a 0-d float32 array and a Python int
print((np.ones(2, dtype=">f4") * np.float64(2)).dtype)  # differs
frozen = np.broadcast_to(np.arange(3), (2, 3))
try:
    frozen[..., 0] = 99  # read-only: refused by both NumPys
except ValueError as exc:
    print("ValueError:", exc)
with warnings.catch_warnings():
    warnings.filterwarnings("error", ".*overflow.*", RuntimeWarning)
    try:
        np.ones(2, dtype=np.float16) * np.ones(2, dtype=np.float16) * np.float16(60000)
    except RuntimeWarning as exc:
        print("RuntimeWarning:", exc)


def size(items):
    return len(items) * 2


class Registry:
    def __init__(self):
        self.items = [1, 2, 3]

    def __del__(self):
        print("finalized", size(self.items))


keep = Registry()  # finalized at the interpreter's shutdown
