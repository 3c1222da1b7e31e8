"""Probed NumPy calls inside pytest tests (pytest rewrites this module's asserts; the audit rewrites it too)."""

import numpy as np
from kinds_helpers import probe


def test_scalars():
    probe(lambda: np.float32(3) + 3.0)
    probe(lambda: np.float32(3) + np.float32(3.0))
    x = np.ones(2, dtype=np.float32)
    probe(lambda: x * np.float64(2))
    assert (x * np.float32(2)).dtype == np.float32  # rewritten by pytest, then by the audit


def test_arrays():
    u8 = np.zeros(2, dtype=np.uint8)
    probe(lambda: u8 + 300)
    probe(lambda: u8 + 3)
