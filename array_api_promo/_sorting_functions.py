"""The standard's sorting (argsort, sort)."""

from __future__ import annotations

__all__ = ["SortingFunctions"]


class SortingFunctions:
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""
