"""Each kind of NumPy operation the audit compares, on probed lines (changing and agreeing).

Run by tools/gen_numpy_audit_golden.py under NumPy 1.26.4 and NumPy 2; ``# site: NAME`` says the
call's operation is at the line marked ``[NAME]`` (here or in kinds_helpers.py).
"""

import numpy as np
from kinds_helpers import Accumulator, offset, probe

u8 = np.array([1, 2, 3], dtype=np.uint8)
i8 = np.array([1, 2, 3], dtype=np.int8)
x32 = np.ones(3, dtype=np.float32)
c64 = np.ones(3, dtype=np.complex64)
zero_d16 = np.array(5, dtype=np.int16)

# reflected operators
probe(lambda: 1000 + u8)
probe(lambda: 2.5 * x32)
probe(lambda: np.float64(2.0) * x32)
probe(lambda: 1e300 - x32)
# unary operators and comparisons
probe(lambda: -np.uint8(3))
probe(lambda: ~u8)
probe(lambda: -zero_d16)
probe(lambda: u8 < 1000)
probe(lambda: x32 == np.float64(1.0))
# NumPy scalars with each other, 0-d arrays with each other
probe(lambda: np.int8(1) + np.int16(1))
probe(lambda: np.float32(1) * np.float64(2))
probe(lambda: np.uint8(1) - np.int8(1))
probe(lambda: zero_d16 + np.array(1.5, dtype=np.float32))
probe(lambda: zero_d16 * np.int8(2))
probe(lambda: np.array(3, dtype=np.uint8) + 2)
probe(lambda: np.int16(7) + 1.5)
# 0-d arrays and NumPy scalars with n-d arrays, value-based
probe(lambda: i8 + np.array(1000))
probe(lambda: i8 + np.array(100))
probe(lambda: u8 + np.int64(-1))
probe(lambda: c64 * np.float64(2))
probe(lambda: c64 + np.complex128(1j))
# ufuncs and promoting functions
probe(lambda: np.add(i8, np.int32(1)))
probe(lambda: np.subtract(u8, 1))
probe(lambda: np.true_divide(i8, np.int64(2)))
probe(lambda: np.clip(x32, np.float64(0), 1))
probe(lambda: np.concatenate([u8, np.array([1], dtype=np.int8)]))
probe(lambda: np.where(u8 > 1, 1.5, x32))
probe(lambda: np.result_type(np.int8, 1000))
probe(lambda: np.result_type(i8, 1.5))
# creation
probe(lambda: np.array(300, dtype=np.uint8))
probe(lambda: np.full(2, 300, dtype=np.uint8))
probe(lambda: np.asarray([1, 2.5]))
probe(lambda: np.arange(3))
# in-place operators and a[k] = v
probe(lambda: np.add.reduce(u8))
probe(lambda: Accumulator(np.uint8).add(np.int64(300)))  # site: accumulate
probe(lambda: Accumulator(np.float32).add(np.float64(0.5)))  # site: accumulate
probe(lambda: offset(i8, np.int64(1)))  # site: offset
probe(lambda: offset(x32, 0.5))  # site: offset


def store(target, value):
    target[0] = value  # [store]
    return target


probe(lambda: store(u8.copy(), 300))  # site: store
probe(lambda: store(u8.copy(), np.int64(300)))  # site: store
probe(lambda: store(x32.copy(), 1e300))  # site: store


def bump_item(target, value):
    target[0] += value  # [bump_item]
    return target


probe(lambda: bump_item(np.zeros(2, dtype=np.int16), 1))  # site: bump_item
probe(lambda: bump_item(np.zeros(2, dtype=np.uint8), 300))  # site: bump_item
probe(lambda: bump_item(np.zeros(2, dtype=np.float32), np.float64(0.5)))  # site: bump_item


def add_into(target, value):
    return np.add(target, value, out=target)  # [add_into]


probe(lambda: add_into(np.zeros(2, dtype=np.uint8), 300))  # site: add_into
probe(lambda: add_into(np.zeros(2, dtype=np.float32), np.float64(0.5)))  # site: add_into
