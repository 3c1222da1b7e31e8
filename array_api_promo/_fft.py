"""The standard's the fft extension (methods named fft_<name>)."""

from __future__ import annotations

__all__ = ["FFTFunctions"]


class FFTFunctions:
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""
