"""What the rewritten code calls: ``__array_api_promo_audit__``, a builtin in a process under the tool.

The site functions (:mod:`.rewriter`) perform each operation themselves, in the user's module at
the user's line, and call these helpers after it (or, when it raised, with the exception) with the
operands: the helpers decide whether a NumPy operand took part and hand the call to the comparison
(:mod:`.numpy_compare`).  The helpers never break the program: a failure of the comparison is
counted as a call not compared, except the tool's own warning made an error by the program's
filters (``-W error::array_api_promo.NEP50Warning``), which is raised where the call is.
Installed by :mod:`.program`.
"""

from __future__ import annotations

import functools
import sys
import threading

import numpy as np

from .numpy_compare import Comparison, function_table

# pytest leaves this module's frames out of its tracebacks (a warning made an error passes through them)
__tracebackhide__ = True

__all__ = ["Helpers"]

_REFLECTED = {n: f"__r{n}__" for n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul")}
_REFLECTED.update({n: f"__r{n}__" for n in ("lshift", "rshift", "and", "or", "xor")})
_REFLECTED.update({"lt": "__gt__", "le": "__ge__", "gt": "__lt__", "ge": "__le__", "eq": "__eq__", "ne": "__ne__"})
_COMPARED = frozenset(("lt", "le", "gt", "ge", "eq", "ne"))
# Operands that are never NumPy's: the site functions compute them directly.
_PLAIN_TYPES = frozenset({int, float, bool, str, complex, list, tuple, dict, set, bytes, type(None)})
# NumPy's arrays and scalars (exact types; subclasses and other libraries' arrays are not compared)
_NUMPY = frozenset({np.ndarray, *{type(np.zeros((), t)[()]) for t in np.typecodes["All"] if t not in "OSUVMm"}})


def _is_numpy(x) -> bool:
    return type(x) in _NUMPY


class Helpers:
    """``__array_api_promo_audit__``: the functions and constants the site functions are bound to."""

    slice = slice  # a[1:2] += v: the key as an expression
    plain = _PLAIN_TYPES
    ndarray = np.ndarray
    partial = functools.partial

    def __init__(self, comparison: Comparison):
        self.comparison = comparison
        self.functions: dict = {}  # id(NumPy function) -> (function, kind, op, namespace function)
        self._filled = False
        self._lock = threading.Lock()

    # -- the comparison, guarded ------------------------------------------------------------------
    def _compare(self, site, kind, op, name, args, kwargs, result, error, ufunc=None) -> None:
        try:
            self.comparison.compare(site, kind, op, name, args, kwargs, result, error, ufunc)
        except Exception as exc:
            if error is None and isinstance(exc, Warning):
                raise  # the program's filters made the tool's warning an error: at the user's line
            if not isinstance(exc, Warning):  # (a call that raised raises its own error, not the warning)
                self.comparison.not_compared(op, f"audit: {type(exc).__name__}")

    # -- operators --------------------------------------------------------------------------------
    def binary(self, site, name, a, b, result):
        if type(a) in _NUMPY or type(b) in _NUMPY:
            self._binary(site, name, a, b, result, None)
        return result

    def binary_error(self, site, name, a, b, error) -> None:
        if type(a) in _NUMPY or type(b) in _NUMPY:
            self._binary(site, name, a, b, None, error)

    def _binary(self, site, name, a, b, result, error):
        if not (_operand(a) and _operand(b)):
            return
        op = _REFLECTED[name] if type(a) not in _NUMPY else f"__{name}__"
        self._compare(site, "compare" if name in _COMPARED else "binary", op, name, (a, b), {}, result, error)

    def unary(self, site, name, a, result):
        if type(a) in _NUMPY:
            self._compare(site, "unary", f"__{name}__", name, (a,), {}, result, None)
        return result

    def unary_error(self, site, name, a, error) -> None:
        if type(a) in _NUMPY:
            self._compare(site, "unary", f"__{name}__", name, (a,), {}, None, error)

    # a op= b: the target's values before, where they may be compared
    def inplace_before(self, site, name, a, b):
        if not ((type(a) in _NUMPY or type(b) in _NUMPY) and _operand(a) and _operand(b)):
            return None
        before = a
        if type(a) is np.ndarray:
            try:
                if self.comparison.needs_before("inplace", name, (a, b), {}):
                    before = a.copy()
            except Exception:
                pass
        return (site, name, a, b, before)

    def inplace(self, context, result):
        if context is not None:
            site, name, _, b, before = context
            self._compare(site, "inplace", f"__i{name}__", name, (before, b), {}, result, None)
        return result

    def inplace_error(self, context, error) -> None:
        if context is not None:
            site, name, a, b, _ = context
            self._compare(site, "inplace", f"__i{name}__", name, (a, b), {}, None, error)

    # o[k] op= b, o a NumPy array: the item's operation, stored in o
    def item_before(self, site, name, o, item, b):
        if not _operand(b) or type(item) not in _NUMPY:
            return None
        before = item
        if type(item) is np.ndarray:
            try:
                if self.comparison.needs_before("item", name, (o, item, b), {}):
                    before = item.copy()
            except Exception:
                pass
        return (site, name, o, b, before)

    def item(self, context, _item) -> None:
        if context is not None:
            site, name, o, b, before = context
            result = _item if type(before) is not np.ndarray else _item
            self._compare(site, "item", f"__i{name}__", name, (o, before, b), {}, result, None)

    def item_error(self, context, error) -> None:
        if context is not None:
            site, name, o, b, before = context
            self._compare(site, "item", f"__i{name}__", name, (o, before, b), {}, None, error)

    def setitem(self, site, o, value) -> None:
        if _operand(value):
            self._compare(site, "setitem", "__setitem__", "setitem", (o, None, value), {}, o, None)

    def setitem_error(self, site, o, value, error) -> None:
        if _operand(value):
            self._compare(site, "setitem", "__setitem__", "setitem", (o, None, value), {}, None, error)

    # -- calls --------------------------------------------------------------------------------------
    def w(self, f, site_function):
        """``f`` itself (called from the user's frame, as written), or for a NumPy ufunc or promoting
        function the site's function bound to it, which calls it and compares."""
        found = self.functions.get(id(f)) if self._filled or self._fill() else None
        if found is None or found[0] is not f:
            return f
        return functools.partial(site_function, f)

    def call_before(self, site, f, args, kwargs):
        _, kind, op, target = self.functions[id(f)]
        if kind == "ufunc":
            inputs = args[: f.nin]
            out = kwargs.get("out", args[f.nin] if len(args) > f.nin else None)
            if len(args) > f.nin + 1 or (out is not None and "out" in kwargs and len(args) > f.nin):
                return None  # several outputs given: not compared
            options = {"out": out} if out is not None else {}
            if set(kwargs) - {"out"}:
                options["other"] = True  # dtype=, where=, casting=: not compared
            if out is not None:
                try:
                    if self.comparison.needs_before("ufunc", target, inputs, options):
                        inputs = tuple(
                            x.copy() if type(x) is np.ndarray and np.shares_memory(x, out) else x for x in inputs
                        )
                except Exception:
                    pass
            return (site, kind, op, target, inputs, options, f)
        return (site, kind, op, target, args, kwargs, f)

    def call(self, context, result):
        if context is not None:
            site, kind, op, target, args, kwargs, f = context
            if kwargs.get("other"):
                return result
            shown = kwargs.get("out", result) if kind == "ufunc" else result
            self._compare(site, kind, op, target, args, kwargs, shown, None, f)
        return result

    def call_error(self, context, error) -> None:
        if context is not None:
            site, kind, op, target, args, kwargs, f = context
            if not kwargs.get("other"):
                self._compare(site, kind, op, target, args, kwargs, None, error, f)

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


_SCALARS = frozenset({int, float, bool, complex})


def _operand(x) -> bool:
    """A Python scalar or a NumPy array or scalar: what promotion sees."""
    return type(x) in _SCALARS or type(x) in _NUMPY
