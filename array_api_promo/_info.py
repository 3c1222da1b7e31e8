"""The standard's __array_namespace_info__."""

from __future__ import annotations

__all__ = ["InfoFunctions"]


class InfoFunctions:
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""
