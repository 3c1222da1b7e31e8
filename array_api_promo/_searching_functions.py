"""The standard's searching (argmax, argmin, count_nonzero, nonzero, searchsorted, where is elementwise)."""

from __future__ import annotations

__all__ = ["SearchingFunctions"]


class SearchingFunctions:
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""
