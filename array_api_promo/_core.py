"""The compiled fast paths (``_fastpath.c``), or the Python functions they mirror.

``fast_path(kind, name, function)`` gives what goes where ``function`` would go (an
``Array`` operator, an elementwise function of the runtime, ``__getitem__``,
``__setitem__``, ``__float__``, ``result_type``): with the compiled module, a ``FastPath`` that does the plain case
of ``function``'s own fast path in C and calls ``function`` for anything else;
without it, ``function`` itself.  Rules live only in the Python code: the compiled
paths read the runtime's tables that it fills.  ``ARRAY_API_PROMO_PURE_PYTHON=1``
turns the compiled paths off (the tests run both ways).
"""

from __future__ import annotations

import functools
import os

import numpy as np

__all__ = [
    "COMPILED",
    "all_finite",
    "broadcast_view",
    "clip_arrays",
    "UNTRACKED_ARRAYS",
    "FastPath",
    "GUARD_FACTS",
    "NeverFast",
    "fast_path",
    "forward_calls",
    "guarded",
    "loop_call",
    "loop_call_inplace",
    "make_array",
    "masked_copy_of",
    "plain_view_of",
    "quiet_kernel",
    "register_array",
    "register_quiet_context",
    "register_scalar_converter",
    "squeezed_view",
    "taken_copy_of",
    "wrap_each",
]

# The kinds of fast path (the numbers of _fastpath.c's enum).
BINARY_OPERATOR, REFLECTED_OPERATOR, INPLACE_OPERATOR, UNARY_OPERATOR = 0, 1, 2, 3
BINARY_FUNCTION, UNARY_FUNCTION, GETITEM, RESULT_TYPE, ASTYPE, ASARRAY, CONSTANT = 4, 5, 6, 7, 8, 9, 10
SETITEM, FLOAT, MATRIX_VIEW, SHAPE, ARANGE, RESHAPE, FLIP, CONCAT, WHERE, FULL = 11, 12, 13, 14, 15, 16, 17, 18, 19, 20
SQUEEZE = 21

PURE_PYTHON_REQUESTED = os.environ.get("ARRAY_API_PROMO_PURE_PYTHON", "") not in ("", "0")
#: Why the compiled paths are not in use ("" when they are).
NOT_COMPILED_BECAUSE = ""
try:
    if PURE_PYTHON_REQUESTED:
        raise ImportError("turned off by ARRAY_API_PROMO_PURE_PYTHON=1")
    from ._fastpath import (
        UNTRACKED_ARRAYS,
        FastPath,
        Guarded,
        Quiet,
        all_finite as _all_finite,
        broadcast_view as _broadcast_view,
        clip_arrays,
        forward_calls as _forward_calls,
        loop_call,
        loop_call_inplace,
        make_array,
        masked_copy_of,
        plain_view_of,
        register_array as _register_array,
        register_quiet_context as _register_quiet_context,
        register_scalar_converter as _register_converter,
        squeezed_view as _squeezed_view,
        taken_copy_of,
        wrap_each,
    )
except ImportError as exc:  # not built (no compiler at install time), or turned off
    FastPath = _register_array = _register_converter = _register_quiet_context = _all_finite = wrap_each = None
    _broadcast_view = _squeezed_view = None
    _forward_calls = Guarded = Quiet = clip_arrays = loop_call = plain_view_of = masked_copy_of = make_array = (
        taken_copy_of
    ) = None
    UNTRACKED_ARRAYS = 0
    NOT_COMPILED_BECAUSE = str(exc) or type(exc).__name__
    if not PURE_PYTHON_REQUESTED:
        import warnings

        warnings.warn(
            f"array_api_promo: the compiled fast paths are not available ({NOT_COMPILED_BECAUSE}); small "
            "operations run about twice as slow in pure Python. Reinstall with a C compiler, or set "
            "ARRAY_API_PROMO_PURE_PYTHON=1 to silence this.",
            RuntimeWarning,
            stacklevel=2,
        )

COMPILED = FastPath is not None
_isfinite = np.isfinite
_count_nonzero = np.count_nonzero


def all_finite(a) -> bool:
    """Whether no element of the floating ndarray ``a`` is NaN or infinite (float64 and float32 in C)."""
    if _all_finite is not None:
        finite = _all_finite(a)
        if finite is not NotImplemented:
            return finite
    # count_nonzero of the mask is several times cheaper than ndarray.all() on small arrays
    return _count_nonzero(_isfinite(a)) == a.size


def broadcast_view(a, shape: tuple):
    """``np.broadcast_to(a, shape)`` of an exact ndarray and a tuple of ints, or NotImplemented where the
    shapes do not broadcast (with the compiled module, its view made in C, NotImplemented for a size of 0
    too: NumPy's call then)."""
    if _broadcast_view is not None:
        return _broadcast_view(a, shape)
    try:
        return np.broadcast_to(a, shape)
    except ValueError:
        return NotImplemented


def squeezed_view(a, axis: int):
    """``a.squeeze(axis)`` of an exact ndarray and an int, or NotImplemented where ``axis`` is not an axis of
    size 1 (with the compiled module, its view made in C)."""
    if _squeezed_view is not None:
        return _squeezed_view(a, axis)
    try:
        return a.squeeze(axis)
    except ValueError:
        return NotImplemented


def fast_path(kind: int, name: str, function):
    """``function``, or its compiled fast path (which calls ``function`` for all but the plain case)."""
    if FastPath is None:
        return function
    path = FastPath(kind, name, function)
    functools.update_wrapper(path, function)  # name, docstring, signature (by __wrapped__)
    return path


#: The facts :func:`guarded` can test, each about a binary kernel's operands (NumPy arrays).
GUARD_FACTS = ("nonzero_second", "nonnegative_second", "finite_operands", "second_not_0d")


def guarded(ufunc, kernel, fact: str):
    """``kernel`` (a special-value kernel of ``ufunc``, as Python code) calling ``ufunc`` itself, in C,
    for operands of which ``fact`` holds: the caller declares that ``kernel(x1, x2)`` is then
    ``ufunc(x1, x2)``, warnings included.  Without the compiled module, ``kernel``."""
    if fact not in GUARD_FACTS:
        raise ValueError(f"guarded: fact must be one of {GUARD_FACTS}, got {fact!r}")
    return kernel if Guarded is None else Guarded(ufunc, kernel, fact)


def quiet_kernel(function, python_kernel):
    """``python_kernel`` (which calls ``function`` in ``_runtime.quiet_context()``, as ``quietly``
    does), or, with the compiled module, the same call made in C, without its Python frames."""
    return python_kernel if Quiet is None else Quiet(function)


def forward_calls(function) -> None:
    """Have calls of ``function`` (a function closing over one cell, whose code calls what the cell
    holds) go to that object directly, in C, without a Python frame; without the compiled module,
    ``function`` runs its own code, which does the same."""
    if _forward_calls is not None:
        _forward_calls(function)


class NeverFast(dict):
    """A runtime's table of fast plans that stays empty, so that every call takes the runtime's own path.

    For runtimes whose path must run every time: the Dask runtime (its arrays' data are not
    ndarrays) and the audit's runtimes (each call is recorded). The compiled paths read the table
    only if it is an exact dict; a subclass they hand to the Python code, whose lookups miss here.
    """

    def __setitem__(self, key, value):
        pass

    def get(self, key, default=None):
        return default


def register_array(array_class, ndarray, asarray, bool_dtype, array, cpu) -> None:
    """Tell the compiled paths which class is the array and where its slots are, and the
    objects they use: NumPy's ndarray, asarray and array, our bool dtype and CPU device.

    Called once, before the class has any instance: on CPython 3.10 and 3.11 it takes the
    class's instances out of the garbage collector (``UNTRACKED_ARRAYS``, see ``_fastpath.c``)."""
    if _register_array is not None:
        _register_array(array_class, ndarray, asarray, bool_dtype, array, cpu)


def register_quiet_context(quiet_context) -> None:
    """Tell the compiled astype where this thread's quiet NumPy context comes from."""
    if _register_quiet_context is not None:
        _register_quiet_context(quiet_context)


def register_scalar_converter(converter_class) -> None:
    """Tell the compiled paths which class is ``promotion._policy.ScalarConverter`` (they run its
    in-range case themselves)."""
    if _register_converter is not None:
        _register_converter(converter_class)
