"""The standard's indexing (take, take_along_axis, and the array's __getitem__/__setitem__ via _getitem/_setitem)."""

from __future__ import annotations

__all__ = ["IndexingFunctions"]


class IndexingFunctions:
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""
