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

import contextlib
import functools
import sys

import numpy as np

from .namespace import REFUSALS
from .numpy_compare import Comparison, function_table
from .rewriter import site_function

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


_ND = np.ndarray
_FUNCTION_TYPES = frozenset({np.ufunc, type(np.where), type(np.array), type(np.full)})  # ufuncs, dispatchers, C, Python
_VALUES_PER_SIGNATURE = 1024  # distinct scalar values remembered per signature (then their classes)


def _signature(x):
    """An operand by what decides its outcome but its value: its type, and an array's dtype and rank 0 or not."""
    t = type(x)
    if t is _ND:
        return (t, x.dtype, x.ndim == 0)
    return t


def _value(x):
    """An operand's value as a key (None for an n-d array: its values decide nothing)."""
    t = type(x)
    if t is _ND:
        return x.item() if x.ndim == 0 else None
    return x


class Helpers:
    """``__array_api_promo_audit__``: the functions and constants the site functions are bound to.

    A call whose signature agreed before is skipped at once: the signatures (types, dtypes, rank 0 or
    not) of calls whose outcomes never depend on values are remembered alone, the others with their
    scalar operands' values (up to ``_VALUES_PER_SIGNATURE`` of them, then by their classes); a call
    that differs goes through the comparison every time (it is recorded and warns every time)."""

    slice = slice  # a[1:2] += v: the key as an expression
    plain = _PLAIN_TYPES
    ndarray = np.ndarray
    partial = functools.partial

    def __init__(self, comparison: Comparison):
        self.comparison = comparison
        # NumPy function -> (function, kind, op, namespace function)
        self.functions: dict = function_table(sys.modules["numpy"])
        # signature -> True (agrees, whatever the values), or the values (a dict) it agreed for; the site
        # functions look their operations up here first (rewriter.py keys them alike)
        self.agreed: dict = {}

    def site(self, kind, name, line, filename, ref=None):
        """A site function of the calling module (its definition in the rewritten code)."""
        return site_function(kind, name, line, filename, sys._getframe(1).f_globals, self, ref)

    # -- the comparison, guarded ------------------------------------------------------------------
    def _compare(self, site, kind, op, name, args, kwargs, result, error, ufunc=None) -> bool:
        if error is not None and not isinstance(error, REFUSALS):
            return False  # not a refusal (a warning the program's filters raise, a FloatingPointError): not compared
        try:
            return self.comparison.compare(site, kind, op, name, args, kwargs, result, error, ufunc)
        except Exception as exc:
            if error is None and isinstance(exc, Warning):
                raise  # the program's filters made the tool's warning an error: at the user's line
            if not isinstance(exc, Warning):  # (a call that raised raises its own error, not the warning)
                self.comparison.not_compared(op, f"audit: {type(exc).__name__}")
            return False

    def _known(self, key, operands) -> bool:
        """Whether a call of this signature (and these values) agreed before."""
        found = self.agreed.get(key)
        if found is None:
            return False
        if found is True:
            return True
        return tuple(map(_value, operands)) in found

    def _remember(self, key, operands) -> None:
        """A call of this signature agreed: remember it (with its values, where they may decide)."""
        found = self.agreed.get(key)
        if found is None:
            if not self.comparison.values_matter(operands, key[0]):
                self.agreed[key] = True
                return
            found = self.agreed[key] = {}
        if found is not True and len(found) < _VALUES_PER_SIGNATURE:
            with contextlib.suppress(TypeError):  # (an unhashable value)
                found[tuple(map(_value, operands))] = True

    # -- operators --------------------------------------------------------------------------------
    def binary(self, site, name, a, b, result):
        ta, tb = type(a), type(b)
        if ta not in _NUMPY and tb not in _NUMPY:
            return result
        # (_known, inlined: this is every NumPy operator's path)
        key = (name, (ta, a.dtype, a.ndim == 0) if ta is _ND else ta, (tb, b.dtype, b.ndim == 0) if tb is _ND else tb)
        found = self.agreed.get(key)
        if found is True:
            return result
        if found is not None:
            try:
                if (
                    (a.item() if a.ndim == 0 else None) if ta is _ND else a,
                    (b.item() if b.ndim == 0 else None) if tb is _ND else b,
                ) in found:
                    return result
            except TypeError:
                pass
        if _operand(a) and _operand(b):
            op = _REFLECTED[name] if ta not in _NUMPY else f"__{name}__"
            kind = "compare" if name in _COMPARED else "binary"
            if self._compare(site, kind, op, name, (a, b), {}, result, None):
                self._remember(key, (a, b))
        return result

    def binary_error(self, site, name, a, b, error) -> None:
        if (type(a) in _NUMPY or type(b) in _NUMPY) and _operand(a) and _operand(b):
            op = _REFLECTED[name] if type(a) not in _NUMPY else f"__{name}__"
            self._compare(site, "compare" if name in _COMPARED else "binary", op, name, (a, b), {}, None, error)

    def unary(self, site, name, a, result):
        if type(a) in _NUMPY:
            key = (name, _signature(a))
            if not self._known(key, (a,)) and self._compare(site, "unary", f"__{name}__", name, (a,), {}, result, None):
                self._remember(key, (a,))
        return result

    def unary_error(self, site, name, a, error) -> None:
        if type(a) in _NUMPY:
            self._compare(site, "unary", f"__{name}__", name, (a,), {}, None, error)

    # a op= b: the target's values before, where they may be compared
    def inplace_before(self, site, name, a, b):
        if not ((type(a) in _NUMPY or type(b) in _NUMPY) and _operand(a) and _operand(b)):
            return None
        key = ("i" + name, _signature(a), _signature(b))
        if self._known(key, (a, b)):
            return None
        before = a
        if type(a) is np.ndarray:
            try:
                if self.comparison.needs_before("inplace", name, (a, b), {}):
                    before = a.copy()
            except Exception:
                pass
        return (site, name, a, b, before, key)

    def inplace(self, context, result):
        if context is not None:
            site, name, a, b, before, key = context
            if self._compare(site, "inplace", f"__i{name}__", name, (before, b), {}, result, None):
                self._remember(key, (a, b))
        return result

    def inplace_error(self, context, error) -> None:
        if context is not None:
            site, name, a, b, _, _ = context
            self._compare(site, "inplace", f"__i{name}__", name, (a, b), {}, None, error)

    # o[k] op= b, o a NumPy array: the item's operation, stored in o
    def item_before(self, site, name, o, item, b):
        if not _operand(b) or type(item) not in _NUMPY:
            return None
        key = ("item" + name, _signature(o), _signature(item), _signature(b))
        if self._known(key, (o, item, b)):
            return None
        before = item
        if type(item) is np.ndarray:
            try:
                if self.comparison.needs_before("item", name, (o, item, b), {}):
                    before = item.copy()
            except Exception:
                pass
        return (site, name, o, b, before, key, item)

    def item(self, context, result) -> None:
        if context is not None:
            site, name, o, b, before, key, item = context
            if self._compare(site, "item", f"__i{name}__", name, (o, before, b), {}, result, None):
                self._remember(key, (o, item, b))

    def item_error(self, context, error) -> None:
        if context is not None:
            site, name, o, b, before, _, _ = context
            self._compare(site, "item", f"__i{name}__", name, (o, before, b), {}, None, error)

    def setitem(self, site, o, value) -> None:
        if _operand(value):
            key = ("setitem", _signature(o), _signature(value))
            if not self._known(key, (o, value)) and self._compare(
                site, "setitem", "__setitem__", "setitem", (o, None, value), {}, o, None
            ):
                self._remember(key, (o, value))

    def setitem_error(self, site, o, value, error) -> None:
        if _operand(value):
            self._compare(site, "setitem", "__setitem__", "setitem", (o, None, value), {}, None, error)

    # -- calls --------------------------------------------------------------------------------------
    def w(self, f, site_function):
        """``f`` itself (called from the user's frame, as written), or for a NumPy ufunc or promoting
        function the site's function bound to it, which calls it and compares.  (Looked up by the object,
        among the types NumPy's functions have: no ``id()``, an audit event per call.)"""
        if type(f) not in _FUNCTION_TYPES:
            return f
        found = self.functions.get(f)
        if found is None or found[0] is not f:
            return f
        return functools.partial(site_function, f)

    def call_before(self, site, f, args, kwargs):
        _, kind, op, target = self.functions[f]
        if kind == "ufunc" and not kwargs and len(args) == f.nin:  # the usual np.add(a, b): as an operator's
            key = (op, *map(_signature, args))
            found = self.agreed.get(key)
            if found is True:
                return None
            if found is not None:
                with contextlib.suppress(TypeError):
                    if tuple(map(_value, args)) in found:
                        return None
            return (site, kind, op, target, args, kwargs, f, key, args)
        if kind == "ufunc":
            inputs = args[: f.nin]
            out = kwargs.get("out", args[f.nin] if len(args) > f.nin else None)
            if len(args) > f.nin + 1 or (out is not None and "out" in kwargs and len(args) > f.nin):
                return None  # several outputs given: not compared
            if set(kwargs) - {"out"}:
                return None  # dtype=, where=, casting=: not compared
            options = {"out": out} if out is not None else {}
            args, kwargs = inputs, options
        key = (op, *map(_signature, args), *[(k, _signature(v)) for k, v in kwargs.items()])
        operands = (*args, *kwargs.values())
        try:
            if self._known(key, operands):
                return None
        except TypeError:  # a list's value, unhashable: never remembered
            pass
        out = kwargs.get("out") if kind == "ufunc" else None
        if out is not None:
            try:
                if self.comparison.needs_before("ufunc", target, args, kwargs):
                    args = tuple(x.copy() if type(x) is np.ndarray and np.shares_memory(x, out) else x for x in args)
            except Exception:
                pass
        return (site, kind, op, target, args, kwargs, f, key, operands)

    def call(self, context, result):
        if context is not None:
            site, kind, op, target, args, kwargs, f, key, operands = context
            shown = kwargs.get("out", result) if kind == "ufunc" else result
            if self._compare(site, kind, op, target, args, kwargs, shown, None, f):
                self._remember(key, operands)
        return result

    def call_error(self, context, error) -> None:
        if context is not None:
            site, kind, op, target, args, kwargs, f, _, _ = context
            self._compare(site, kind, op, target, args, kwargs, None, error, f)


_SCALARS = frozenset({int, float, bool, complex})


def _operand(x) -> bool:
    """A Python scalar or a NumPy array or scalar: what promotion sees."""
    return type(x) in _SCALARS or type(x) in _NUMPY
