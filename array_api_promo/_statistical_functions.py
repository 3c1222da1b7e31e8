"""The standard's statistical (cumulative_sum, cumulative_prod, diff, max, mean, min, prod, std, sum, var)."""

from __future__ import annotations

__all__ = ["StatisticalFunctions"]


class StatisticalFunctions:
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""
