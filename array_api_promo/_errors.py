"""Exception classes that are two built-in classes at once, where the conventions differ.

A refusal must be caught both by what Python's convention (and the standard) name for it and by
what a user of array-api-strict catches, where array-api-strict (or NumPy under it) raises another
built-in class for the same refusal.  NumPy's ``AxisError`` is the precedent: a ``ValueError`` and
an ``IndexError``.
"""

from __future__ import annotations

import numpy as np

from .promotion import PromotionError

__all__ = ["ArgumentError", "AxisError", "DtypeArgumentError", "IndexTypeError"]

#: An axis out of bounds: NumPy's ``AxisError``, a ``ValueError`` and an ``IndexError`` (the standard:
#: expand_dims "an IndexError should be raised"), which array-api-strict raises (through NumPy).
#: ``AxisError("message")`` carries our message as it is.
AxisError = np.exceptions.AxisError


class ArgumentError(TypeError, ValueError):
    """An argument the function does not take (``dtype=float``, ``fftfreq(2.5)``, arrays of different
    dtypes in ``meshgrid``, ``finfo(int8)``): a ``TypeError``, Python's class for an argument of the
    wrong type, which is also the ``ValueError`` array-api-strict raises for it."""


class IndexTypeError(TypeError, IndexError):
    """Indices of a dtype that indexes nothing (``take_along_axis`` with float indices): a ``TypeError``,
    and the ``IndexError`` array-api-strict raises for it ("`indices` must be an integer array")."""


class DtypeArgumentError(PromotionError, ValueError):
    """A ``dtype=`` the function's policy refuses (``fftfreq(4, dtype=int8)``): the policy's
    ``PromotionError`` (a ``TypeError``), and the ``ValueError`` array-api-strict raises for it."""

    __module__ = "array_api_promo"
