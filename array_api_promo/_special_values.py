"""Kernels for the standard's special cases that NumPy does not follow.

Each kernel takes NumPy arrays already in the computation dtype and returns
the values the standard specifies (IEEE 754 special cases, signed zeros,
infinities and NaNs), delegating to NumPy everywhere else.
"""

from __future__ import annotations

SPECIAL_KERNELS: dict = {}
