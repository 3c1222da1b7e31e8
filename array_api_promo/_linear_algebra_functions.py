"""The standard's linear algebra (matmul, matrix_transpose, tensordot, vecdot) and the linalg extension (methods named linalg_<name>)."""

from __future__ import annotations

__all__ = ["LinearAlgebraFunctions"]


class LinearAlgebraFunctions:
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""
