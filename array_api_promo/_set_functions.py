"""The standard's set (unique_all, unique_counts, unique_inverse, unique_values, isin)."""

from __future__ import annotations

__all__ = ["SetFunctions"]


class SetFunctions:
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""
