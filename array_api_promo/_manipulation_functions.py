"""The standard's manipulation (broadcast_arrays, broadcast_to, broadcast_shapes, concat, expand_dims, flip, moveaxis, permute_dims, repeat, reshape, roll, squeeze, stack, tile, unstack)."""

from __future__ import annotations

__all__ = ["ManipulationFunctions"]


class ManipulationFunctions:
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""
