"""The dtype names the golden-table generators share (``tools/gen_*_golden.py``, ``field_golden.py``).

One list, filtered per library, instead of a copy in every generator; the order is the order of
the records each generator writes.
"""

from __future__ import annotations

# NumPy's numeric dtypes and bool, as the array API names them.
NUMPY = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]
# ... with bfloat16 (ml_dtypes' for NumPy), before float32: JAX's and PyTorch's dtypes.
WITH_BFLOAT16 = [*NUMPY[:10], "bfloat16", *NUMPY[10:]]
SIXTY_FOUR_BIT = ("int64", "uint64", "float64", "complex128")
UNSIGNED_WIDE = ("uint16", "uint32", "uint64")
# JAX in its default 32-bit mode: no 64-bit dtypes.
THIRTY_TWO_BIT = [d for d in WITH_BFLOAT16 if d not in SIXTY_FOUR_BIT]
INTEGER = [d for d in NUMPY if d.startswith(("int", "uint"))]

# ml_dtypes' scalar types a NumPy-scalar rule takes (``ml_dtypes.bfloat16(1)``): bfloat16 and the
# float8 family of ml_dtypes 0.6.0.
ML_DTYPES = [
    "bfloat16",
    "float8_e3m4",
    "float8_e4m3",
    "float8_e4m3b11fnuz",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
]
# NumPy scalar types (holding 1) whose records pin a NumPy-scalar rule: NumPy's own, then ml_dtypes'.
NUMPY_SCALARS = [*NUMPY, *ML_DTYPES]


def scalar_type(name: str):
    """The NumPy scalar type of ``name``: NumPy's, or ml_dtypes' (bfloat16, float8_*)."""
    import numpy as np

    if name in ML_DTYPES:
        import ml_dtypes

        return getattr(ml_dtypes, name)
    return np.dtype(name).type
