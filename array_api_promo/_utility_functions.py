"""The standard's utility (all, any, diff lives in statistical)."""

from __future__ import annotations

__all__ = ["UtilityFunctions"]


class UtilityFunctions:
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""
