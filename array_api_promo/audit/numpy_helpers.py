"""What the rewritten code calls: ``__array_api_promo_audit__``, a builtin in an audited process.

Each helper gets ``run``: a function of the user's module, compiled at the line of the operation
(:mod:`.rewriter`), that performs it; the helper calls it and, when a NumPy operand takes part,
hands the operands and the outcome to the comparison (:mod:`.numpy_compare`).  Installed by
:mod:`.program`.
"""

from __future__ import annotations

import sys
import threading

import numpy as np

from .._dtypes import PY_SCALARS
from .namespace import REFUSALS
from .numpy_compare import NumPyAudit, function_table, is_numpy

__all__ = ["Helpers"]

_COMPARED_NAMES = frozenset(("lt", "le", "gt", "ge", "eq", "ne"))
_REFLECTED = {
    name: f"__r{name}__"
    for name in (
        "add",
        "sub",
        "mul",
        "truediv",
        "floordiv",
        "mod",
        "pow",
        "matmul",
        "lshift",
        "rshift",
        "and",
        "or",
        "xor",
    )
}
_REFLECTED.update({"lt": "__gt__", "le": "__ge__", "gt": "__lt__", "ge": "__le__", "eq": "__eq__", "ne": "__ne__"})
# -- the helpers the rewritten code calls --------------------------------------------------------
_PLAIN_TYPES = frozenset({int, float, bool, str, complex, list, tuple, dict, set, bytes, type(None)})


class Helpers:
    """What ``__array_api_promo_audit__`` is in the audited program (a builtin).

    Each helper gets ``run``: a function of the user's module, compiled at the line of the call
    (``def f(a, b): return a + b``), that performs the operation.  NumPy's warnings (stacklevel 1:
    the calling Python frame) so keep the file, line, module and warning registry they have in a
    plain run."""

    slice = slice  # a[1:2] += v: the key as an expression
    plain = _PLAIN_TYPES  # operands that are never NumPy's (the fast functions compute them directly)
    ndarray = np.ndarray

    def __init__(self, audit: NumPyAudit):
        self.audit = audit
        self.functions: dict = {}  # id(NumPy function) -> (kind, op, target)
        self._filled = False
        self._lock = threading.Lock()

    # Operators: computed exactly as written; compared when a NumPy operand takes part.
    def binary(self, run, name, a, b):
        if type(a) in _PLAIN_TYPES and type(b) in _PLAIN_TYPES:
            return run(a, b)
        if not (is_numpy(a) or is_numpy(b)) or not (_is_scalar_or_array(a) and _is_scalar_or_array(b)):
            return run(a, b)
        reflected = not is_numpy(a)
        op = _REFLECTED[name] if reflected else f"__{name}__"
        kind = "compare" if name in _COMPARED_NAMES else "binary"
        return self._run(kind, op, name, run, (a, b), (a, b), {})

    def inplace(self, run, name, a, b):
        if not (is_numpy(a) or is_numpy(b)) or not (_is_scalar_or_array(a) and _is_scalar_or_array(b)):
            return run(a, b)
        return self._run("inplace", f"__i{name}__", name, run, (a, b), (a, b), {})

    def unary(self, run, name, a):
        if not is_numpy(a):
            return run(a)
        return self._run("unary", f"__{name}__", name, run, (a,), (a,), {})

    def setitem(self, run, value, obj, key):
        if type(obj) is not np.ndarray or not _is_scalar_or_array(value):
            return run(obj, key, value)
        self._run("setitem", "__setitem__", "setitem", run, (obj, key, value), (obj, key, value), {}, obj)

    def item_inplace(self, run, name, obj, key, value):
        """``obj[key] op= value``.  Into a NumPy array it is compared as an in-place operation on the
        array: Python computes ``obj[key] op value`` on the item (a NumPy scalar, whose dtype may
        widen) and writes it back in the array's dtype, so the outcome is the array's dtype or the
        refusal (``hist[i] += 1`` agrees under NumPy 1.x and 2; ``u8[i] += 300`` does not)."""
        if type(obj) is not np.ndarray or not _is_scalar_or_array(value):
            obj[key] = self.inplace(run, name, obj[key], value)
            return
        op = f"__i{name}__"
        try:
            obj[key] = run(obj[key], value)
        except REFUSALS as exc:
            self._compare("inplace", op, name, (obj, value), {}, None, exc)
            raise
        self._compare("inplace", op, name, (obj, value), {}, obj, None)

    def attr_inplace(self, run, name, obj, attribute, value):
        setattr(obj, attribute, self.inplace(run, name, getattr(obj, attribute), value))

    def w(self, f, run):
        """``f`` itself (called from the user's frame, as written), or for a NumPy ufunc or promoting
        function a wrapper that calls it through ``run`` and compares."""
        found = self.functions.get(id(f)) if self._filled or self._fill() else None
        if found is None:
            return f
        kind, op, target = found

        def compared(*args, **kwargs):
            if kind == "ufunc" and kwargs:
                operator_name = _WRITING_UFUNCS.get(target)
                out = kwargs.get("out")
                if operator_name and len(kwargs) == 1 and len(args) == 2 and _writes_first(out, args[0]):
                    # np.add(a, b, out=a): a += b
                    return self._run("inplace", op, operator_name, run, (f, *args), args, {}, args[0], kwargs)
                return run(f, *args, **kwargs)  # another out=, dtype=, where=: not compared
            return self._run(kind, op, target, run, (f, *args), args, kwargs)

        return compared

    def _run(self, kind, op, target, run, args, compared, kwargs, written=None, passed=None):
        """``run(*args, **passed)`` (``passed``: the keywords the call gets, default ``kwargs``),
        compared as ``kind``/``target`` on ``compared`` and ``kwargs``."""
        try:
            result = run(*args, **(kwargs if passed is None else passed))
        except REFUSALS as exc:
            self._compare(kind, op, target, compared, kwargs, None, exc)
            raise
        if result is not NotImplemented:
            self._compare(kind, op, target, compared, kwargs, result if written is None else written, None)
        return result

    def _compare(self, kind, op, target, args, kwargs, result, error):
        try:
            self.audit.compare(kind, op, target, args, kwargs, result, error)
        except Exception as exc:  # the audit never breaks the program
            self.audit.not_compared(op, f"audit: {type(exc).__name__}")

    def _fill(self) -> bool:
        """NumPy's ufuncs and promoting functions, once NumPy is imported."""
        with self._lock:
            if self._filled:
                return True
            numpy = sys.modules.get("numpy")
            if numpy is None or not hasattr(numpy, "result_type"):
                return False
            self.functions.update(function_table(numpy))
            self._filled = True
            return True


# ufuncs that, written into their first input (out=a), are that operator in place
_WRITING_UFUNCS = {
    "add": "add",
    "subtract": "sub",
    "multiply": "mul",
    "divide": "truediv",
    "floor_divide": "floordiv",
    "remainder": "mod",
    "pow": "pow",
    "bitwise_and": "and",
    "bitwise_or": "or",
    "bitwise_xor": "xor",
    "bitwise_left_shift": "lshift",
    "bitwise_right_shift": "rshift",
}


def _writes_first(out, first) -> bool:
    """``out=`` naming the first input (``out=a`` or ``out=(a,)``), a NumPy array."""
    if type(out) is tuple and len(out) == 1:
        out = out[0]
    return out is first and type(first) is np.ndarray


def _is_scalar_or_array(x) -> bool:
    return type(x) in PY_SCALARS or is_numpy(x)
