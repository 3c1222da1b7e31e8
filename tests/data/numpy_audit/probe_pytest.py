"""Probed NumPy calls inside pytest tests, run as ``pytest probe_pytest.py`` (pytest rewrites the asserts of a
file it is given, the audit rewrites it too; not named test_*.py: the project's own suite does not collect it)."""

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
