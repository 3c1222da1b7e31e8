"""The NumPy audit: a plain NumPy program's lines whose outcome other promotion rules would change.

``python -m array_api_promo.audit --numpy --against numpy_legacy -- python prog.py`` runs the
program on the installed NumPy, unchanged in what it computes and prints, and compares every NumPy
operation *the program's own code* performs with what the ``--against`` policies would give for the
same operands.  The design (docs/guide/audit.md, "Plain NumPy programs"):

* **Which code is the user's**: the modules ``--include`` names (default: the program's directory).
  An import hook compiles them (and the main script, which this module runs as ``coverage run``
  does) from a rewritten syntax tree, as pytest rewrites asserts; inside pytest, pytest's own
  rewriting of test modules is kept and ours is applied after it.  NumPy's and other libraries'
  code is never rewritten, so their internals are never seen.
* **Operators**: ``a + b``, ``a += b``, ``-a``, ``a < b`` and ``a[k] = v`` in the user's code become
  calls of this module's helpers, which perform the very operation (``operator.add(a, b)``: the same
  dispatch, forward and reflected) and, when an operand is a NumPy array or scalar, compare.  This
  is the only way to see NumPy *scalar* arithmetic (``np.float32(3) + 3.0``), which never reaches
  ``__array_ufunc__``.
* **Calls**: ``f(...)`` becomes ``w(f)(...)``: ``w`` returns ``f`` itself unless ``f`` is a NumPy
  ufunc or promoting function, for which it returns a comparing wrapper.  The call is still made
  from the user's frame (``super()``, ``locals()``, ``warnings.warn(stacklevel=)`` unchanged).
* **Comparison**: NumPy's outcome is the real call's (result dtype, or the refusal's built-in
  exception type); each ``--against`` policy's is that policy's namespace run on stand-in operands
  (an n-d array by a one-element array of its dtype and rank; a 0-d array and a NumPy scalar by their
  value, a NumPy scalar as the policy's ``numpy_scalars`` rule takes it), cached per call signature
  as the array API audit caches.  Differing calls become that audit's records (:class:`Record`):
  one home for records, counts, JSON and Markdown.  No warning is raised: the program's output
  stays its own.
"""

from __future__ import annotations

import ast
import builtins
import collections
import contextlib
import fnmatch
import importlib.abc
import importlib.machinery
import operator
import os
import sys
import threading
import traceback
import warnings

import numpy as np

from . import _dtypes as D
from ._audit import _REFUSALS, SITE_PREFIX, Audit, Outcome, _call_key, _differ, _dtype_text, _error_name, _NotCompared
from ._dtypes import PY_SCALARS, DType
from ._namespace import DEFAULT_API_VERSION, namespace
from .promotion import get_policy

__all__ = ["NumPyAudit", "rewrite", "start"]

HELPER = "__array_api_promo_audit__"  # the builtin name the rewritten code calls
ENV_AGAINST = "ARRAY_API_PROMO_NUMPY_AUDIT"
ENV_INCLUDE = "ARRAY_API_PROMO_NUMPY_INCLUDE"
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep

# -- the operations ----------------------------------------------------------------------------
_BINARY = {
    ast.Add: "add",
    ast.Sub: "sub",
    ast.Mult: "mul",
    ast.Div: "truediv",
    ast.FloorDiv: "floordiv",
    ast.Mod: "mod",
    ast.Pow: "pow",
    ast.MatMult: "matmul",
    ast.LShift: "lshift",
    ast.RShift: "rshift",
    ast.BitAnd: "and",
    ast.BitOr: "or",
    ast.BitXor: "xor",
}
_COMPARE = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq", ast.NotEq: "ne"}
_UNARY = {ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "invert"}
_FORWARD = {name: getattr(operator, name if name not in ("and", "or") else f"{name}_") for name in _BINARY.values()}
_FORWARD.update({name: getattr(operator, name) for name in _COMPARE.values()})
_FORWARD.update({name: getattr(operator, name) for name in _UNARY.values()})
_INPLACE = {name: getattr(operator, f"i{name}") for name in _BINARY.values()}
# The reflected dunder exists for the arithmetic operators; a comparison's reflection is its mirror.
_REFLECTED = {name: f"__r{name}__" for name in _BINARY.values()}
_REFLECTED.update({"lt": "__gt__", "le": "__ge__", "gt": "__lt__", "ge": "__le__", "eq": "__eq__", "ne": "__ne__"})

# NumPy dtypes the namespaces hold (others, object or datetime, are not compared).
_DTYPES = frozenset(d.numpy for d in D.ALL_DTYPES if d is not D.bfloat16)  # (bfloat16 is not a NumPy dtype)
# ufuncs whose namespace function has another name
_UFUNC_NAMES = {
    "true_divide": "divide",
    "power": "pow",
    "absolute": "abs",
    "arctan2": "atan2",
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "arcsinh": "asinh",
    "arccosh": "acosh",
    "arctanh": "atanh",
    "invert": "bitwise_invert",
    "left_shift": "bitwise_left_shift",
    "right_shift": "bitwise_right_shift",
    "conjugate": "conj",
}
# Functions that promote or create, and the namespace function each becomes.
_FUNCTIONS = {
    "where": "where",
    "clip": "clip",
    "result_type": "result_type",
    "concatenate": "concat",
    "stack": "stack",
    "full": "full",
    "full_like": "full_like",
    "array": "asarray",
    "asarray": "asarray",
    "zeros": "zeros",
    "ones": "ones",
    "empty": "empty",
    "arange": "arange",
    "sum": "sum",
    "prod": "prod",
    "mean": "mean",
    "max": "max",
    "min": "min",
    "amax": "max",
    "amin": "min",
    "std": "std",
    "var": "var",
}
_ARANGE_LIMIT = 10_000  # arange is compared on its own arguments, up to this many elements


class _Skip(Exception):
    """A call no policy is asked about (an operand of a type or dtype the namespaces lack)."""


# -- the comparison ----------------------------------------------------------------------------
class _InstalledNumPy:
    """The audit's main "policy": the NumPy the program runs on (a name for the reports)."""

    value_dependent = False

    def __init__(self):
        self.name = f"numpy {np.__version__}"


_NAMES = {d: d.name for d in _DTYPES}  # (np.dtype.name is a slow Python property)


def _numpy_dtype_text(result) -> str | None:
    if isinstance(result, (np.ndarray, np.generic)):
        dtype = result.dtype
        return _NAMES.get(dtype) or dtype.name
    if isinstance(result, np.dtype):
        return _NAMES.get(result) or result.name
    if isinstance(result, tuple):
        names = [_numpy_dtype_text(r) for r in result]
        return ", ".join(n for n in names if n) or None
    return None


def _held(result) -> bool:
    """Whether NumPy's result is of dtypes the namespaces hold."""
    if isinstance(result, (np.ndarray, np.generic)):
        return result.dtype in _DTYPES
    if isinstance(result, np.dtype):
        return result in _DTYPES
    if isinstance(result, tuple):
        return all(_held(r) for r in result)
    return True


def _numpy_outcome(result, error) -> Outcome:
    if error is not None:
        return Outcome(None, _error_name(error))
    return Outcome(_numpy_dtype_text(result), None)


def _plain(outcome: Outcome) -> Outcome:
    """An outcome by its dtype and refusal only: NumPy's side has no scalar-conversion words."""
    return Outcome(outcome.dtype, outcome.error)


_NUMPY_TYPES = (np.ndarray, np.generic)


def _is_numpy(x) -> bool:
    return isinstance(x, _NUMPY_TYPES)


def _dtype_of(x) -> DType:
    try:
        dtype = np.dtype(x)
    except TypeError:
        raise _Skip from None
    if dtype not in _DTYPES:
        raise _Skip
    return D.dtype_of_numpy(dtype)


class _Move:
    """The operands of one call as one policy's namespace takes them."""

    def __init__(self, runtime):
        self.runtime = runtime
        self.arrays = 0  # how many operands became arrays of the namespace

    def __call__(self, x):
        t = type(x)
        if t in PY_SCALARS or x is None or t is str or t is slice or x is Ellipsis:
            return x
        if isinstance(x, np.ndarray):
            if x.dtype not in _DTYPES or type(x) is not np.ndarray:
                raise _Skip
            self.arrays += 1
            data = x.copy() if x.ndim == 0 else np.zeros((1,) * x.ndim, x.dtype)
            return self.runtime.asarray(data)
        if isinstance(x, np.generic):
            if x.dtype not in _DTYPES:
                raise _Skip
            if self.runtime.policy.numpy_scalars == "refuse":
                return x  # refused by the namespace in its words
            moved = self.runtime._from_numpy_scalar(x)
            self.arrays += type(moved) not in PY_SCALARS
            return moved
        raise _Skip  # a list, another library's array: NumPy converts it, a namespace refuses it

    def dtype(self, x):
        """A dtype argument (``np.float32``, ``np.dtype('f4')``, ``'f4'``, ``float``) as the namespace's."""
        return None if x is None else _dtype_of(x)


def _shape_stand_in(x):
    """A shape argument by a small one of the same rank (creation's dtype does not depend on it)."""
    if isinstance(x, (tuple, list)):
        return (1,) * len(x)
    return 1


def _against_run(kind: str, name: str, runtime, args: tuple, kwargs: dict):
    """The call ``kind``/``name`` of NumPy, run in ``runtime``'s namespace (None: the policy has no
    say, as when it makes Python numbers of every operand)."""
    move = _Move(runtime)
    if kind in ("binary", "compare", "unary"):
        moved = [move(a) for a in args]
        return _FORWARD[name](*moved) if move.arrays else None
    if kind == "inplace":
        a, b = args
        moved_a, moved_b = move(a), move(b)
        if not move.arrays:
            return None
        if type(a) is np.ndarray:  # written in place: the target's dtype stays, or the write is refused
            return _INPLACE[name](moved_a, moved_b)
        return _FORWARD[name](moved_a, moved_b)  # a NumPy scalar: rebound to a + b
    if kind == "setitem":
        a, _key, value = args
        # A scalar of the target's kind or a lower one (NEP 50's change: an int out of an integer
        # dtype's range); NumPy casts an array, or a value of a higher kind, unsafely under both.
        value_kind = _kind(value)
        if a.dtype not in _DTYPES or value_kind is None or value_kind > _KINDS[a.dtype.kind]:
            raise _Skip
        stand_in = runtime.asarray(np.zeros((1,) * a.ndim, a.dtype) if a.ndim else a.copy())
        stand_in[...] = move(value)
        return stand_in
    function = getattr(runtime, name, None)
    if function is None:
        raise _Skip  # a ufunc the standard lacks (np.spacing, np.ldexp)
    if kind == "ufunc":
        moved = [move(a) for a in args]
        return function(*moved) if move.arrays else None
    return _FUNCTION_RUNS[name](function, move, args, kwargs)


_KINDS = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}
_PY_KINDS = {bool: 0, int: 1, float: 2, complex: 3}


def _kind(value) -> int | None:
    """bool < integer < floating < complex, for a Python scalar, a NumPy scalar or a 0-d array."""
    if type(value) in _PY_KINDS:
        return _PY_KINDS[type(value)]
    if isinstance(value, np.generic) or (type(value) is np.ndarray and value.ndim == 0):
        return _KINDS.get(value.dtype.kind)
    return None


def _creation(function, move, args, kwargs):  # zeros, ones, empty
    return function(_shape_stand_in(_arg(args, kwargs, 0, "shape")), dtype=move.dtype(_arg(args, kwargs, 1, "dtype")))


def _full(function, move, args, kwargs):
    fill = _arg(args, kwargs, 1, "fill_value")
    if not (type(fill) in PY_SCALARS or isinstance(fill, np.generic)):
        raise _Skip  # an array fill broadcasts: the standard's full takes a scalar
    fill = move(fill)
    return function(
        _shape_stand_in(_arg(args, kwargs, 0, "shape")), fill, dtype=move.dtype(_arg(args, kwargs, 2, "dtype"))
    )


def _full_like(function, move, args, kwargs):
    x, fill = _arg(args, kwargs, 0, "a"), _arg(args, kwargs, 1, "fill_value")
    if type(x) is not np.ndarray or not (type(fill) in PY_SCALARS or isinstance(fill, np.generic)):
        raise _Skip
    x, fill = move(x), move(fill)
    return function(x, fill, dtype=move.dtype(_arg(args, kwargs, 2, "dtype")))


def _asarray(function, move, args, kwargs):
    obj = _arg(args, kwargs, 0, "object", "a")
    if not (type(obj) in PY_SCALARS or (type(obj) in (list, tuple) and _numbers_only(obj))):
        raise _Skip  # from an array or other data: the dtype comes from it alike
    return function(obj, dtype=move.dtype(_arg(args, kwargs, 1, "dtype")))


def _arange(function, move, args, kwargs):
    numbers = [a for a in args[:3] if a is not None]
    if not numbers or not all(type(a) in (int, float) for a in numbers) or len(args) > 3:
        raise _Skip
    if all(type(a) is int for a in numbers):
        if len(range(*numbers)) > _ARANGE_LIMIT:
            raise _Skip
    elif len(numbers) < 3 or abs((numbers[1] - numbers[0]) / numbers[2]) > _ARANGE_LIMIT:
        raise _Skip
    return function(*numbers, dtype=move.dtype(kwargs.get("dtype")))


def _where(function, move, args, kwargs):
    if len(args) != 3 or kwargs:
        raise _Skip  # np.where(c): nonzero
    rank = getattr(args[0], "ndim", 0)
    condition = move.runtime.asarray(np.zeros((1,) * rank, bool) if rank else np.asarray(False))
    return function(condition, move(args[1]), move(args[2]))


def _clip(function, move, args, kwargs):
    x = move(_arg(args, kwargs, 0, "a"))
    low = move(_arg(args, kwargs, 1, "a_min", "min"))
    high = move(_arg(args, kwargs, 2, "a_max", "max"))
    if set(kwargs) - {"a", "a_min", "a_max", "min", "max"} or len(args) > 3 or not move.arrays:
        raise _Skip
    return function(x, min=low, max=high)


def _result_type(function, move, args, kwargs):
    if kwargs:
        raise _Skip
    return function(*[move.dtype(a) if type(a) is str or isinstance(a, (type, np.dtype)) else move(a) for a in args])


def _joining(function, move, args, kwargs):  # concatenate, stack
    arrays = _arg(args, kwargs, 0, "arrays")
    axis = _arg(args, kwargs, 1, "axis")
    if set(kwargs) - {"arrays", "axis"} or len(args) > 2 or type(arrays) not in (list, tuple):
        raise _Skip
    if axis is None and function.__name__ == "stack":
        axis = 0
    return function([move(a) for a in arrays], axis=axis)


def _reduction(function, move, args, kwargs):
    x = _arg(args, kwargs, 0, "a")
    if type(x) is not np.ndarray or len(args) > 2 or set(kwargs) - {"a", "axis", "dtype", "keepdims"}:
        raise _Skip
    axis = _arg(args, kwargs, 1, "axis")
    if isinstance(axis, int) and not 0 <= axis < max(x.ndim, 1) and not -x.ndim <= axis < 0:
        raise _Skip
    options = {k: v for k, v in kwargs.items() if k in ("keepdims",)}
    dtype = kwargs.get("dtype")
    if dtype is not None:
        if function.__name__ not in ("sum", "prod"):
            raise _Skip  # the standard's mean, var, ... take no dtype
        options["dtype"] = move.dtype(dtype)
    return function(move(x), axis=axis, **options)


_FUNCTION_RUNS = {
    "zeros": _creation,
    "ones": _creation,
    "empty": _creation,
    "full": _full,
    "full_like": _full_like,
    "asarray": _asarray,
    "arange": _arange,
    "where": _where,
    "clip": _clip,
    "result_type": _result_type,
    "concat": _joining,
    "stack": _joining,
    **dict.fromkeys(["sum", "prod", "mean", "max", "min", "std", "var"], _reduction),
}


def _arg(args: tuple, kwargs: dict, position: int, *names):
    if len(args) > position:
        return args[position]
    for name in names:
        if name in kwargs:
            return kwargs[name]
    return None


def _numbers_only(seq) -> bool:
    for item in seq:
        t = type(item)
        if t is list or t is tuple:
            if not _numbers_only(item):
                return False
        elif t not in PY_SCALARS:
            return False
    return True


def check_against(against) -> tuple:
    """The policies named, each once (ValueError otherwise)."""
    others = tuple(get_policy(p) for p in against)
    if not others:
        raise ValueError("audit: --against must name at least one policy to compare with")
    if len({p.name for p in others}) != len(others):
        raise ValueError(f"audit: --against names a policy twice ({', '.join(p.name for p in others)})")
    return others


class NumPyAudit(Audit):
    """The NumPy audit's state: the against policies, cached outcomes and the records."""

    warns = False  # the program's output (stderr included) stays its own

    def __init__(self, against):
        others = check_against(against)
        super().__init__(_InstalledNumPy(), others, DEFAULT_API_VERSION)
        # calls a policy's run (or the audit) failed on other than by refusing: "op (why)" -> count
        self.uncompared: collections.Counter = collections.Counter()

    def not_compared(self, op: str, why: str) -> None:
        self.uncompared[f"{op} ({why})"] += 1

    def as_json(self) -> dict:
        return {**super().as_json(), "uncompared": dict(self.uncompared)}

    def compare(self, kind: str, op: str, target, args: tuple, kwargs: dict, result, error) -> None:
        """Record the call if an against policy's outcome differs from NumPy's."""
        if error is None and not _held(result):
            return  # an object, string or datetime result: no policy's namespace holds it
        # x[k] = v: by the target and the value (the stand-ins ignore the key)
        key = _call_key(self.api_version, op, (args[0], args[2]) if kind == "setitem" else args, kwargs)
        theirs = self._outcomes.get(key) if key is not None else None
        if theirs is None:
            try:
                theirs = self._outcomes_against(kind, target, args, kwargs)
            except _Skip:
                theirs = ()
            except _NotCompared as exc:
                self.not_compared(op, str(exc))
                return
            if key is not None:
                self._outcomes[key] = theirs
        if not theirs:
            return
        mine = _numpy_outcome(result, error)
        if any(o is not None and _differ(mine, o) for o in theirs):
            theirs = tuple(mine if o is None else o for o in theirs)
            values = _numpy_values(args, kwargs) if self.value_dependent else None
            self._record(op, args, kwargs, mine, theirs, values)

    def _outcomes_against(self, kind, target, args, kwargs) -> tuple:
        outcomes: list = []
        warn = warnings.warn
        # The other policies' runs are silent: their warnings (numpy_legacy's wrapping of an int)
        # are not the program's, and the warning filters are not touched (that would reset the
        # program's "once" registries).
        warnings.warn = _silent  # type: ignore[assignment]
        try:
            with np.errstate(all="ignore"):
                for policy in self.against:
                    runtime = namespace(policy, self.api_version)._runtime
                    try:
                        result = _against_run(kind, target, runtime, args, kwargs)
                    except _Skip:
                        raise
                    except _REFUSALS as exc:
                        outcomes.append(Outcome(None, _error_name(exc)))
                        continue
                    except Exception as exc:
                        raise _NotCompared(f"{policy.name}: {type(exc).__name__}") from None
                    if result is None:
                        outcomes.append(None)
                        continue
                    outcomes.append(Outcome(_dtype_text(result), None, None, result if type(result) is bool else None))
        finally:
            warnings.warn = warn  # type: ignore[assignment]
        return tuple(outcomes)


def _silent(*args, **kwargs):
    return None


def _numpy_values(args: tuple, kwargs: dict) -> str | None:
    """The values of the call's Python scalars, NumPy scalars and 0-d arrays (they decide under
    value-based rules)."""
    from .promotion._policy import int_text

    found = []
    for x in (*args, *kwargs.values()):
        if type(x) in PY_SCALARS:
            found.append(int_text(x))
        elif isinstance(x, np.generic) or (type(x) is np.ndarray and x.ndim == 0):
            found.append(int_text(x.item()))
    return ", ".join(found) or None


_AUDIT: NumPyAudit | None = None


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
        if not (_is_numpy(a) or _is_numpy(b)) or not (_is_scalar_or_array(a) and _is_scalar_or_array(b)):
            return run(a, b)
        reflected = not _is_numpy(a)
        op = _REFLECTED[name] if reflected else f"__{name}__"
        kind = "compare" if name in _COMPARED_NAMES else "binary"
        return self._run(kind, op, name, run, (a, b), (a, b), {})

    def inplace(self, run, name, a, b):
        if not (_is_numpy(a) or _is_numpy(b)) or not (_is_scalar_or_array(a) and _is_scalar_or_array(b)):
            return run(a, b)
        return self._run("inplace", f"__i{name}__", name, run, (a, b), (a, b), {})

    def unary(self, run, name, a):
        if not _is_numpy(a):
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
        except _REFUSALS as exc:
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
        except _REFUSALS as exc:
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
            for attribute in dir(numpy):
                value = getattr(numpy, attribute, None)
                if isinstance(value, np.ufunc) and value.nout == 1:
                    target = _UFUNC_NAMES.get(value.__name__, value.__name__)
                    self.functions[id(value)] = ("ufunc", f"numpy.{value.__name__}", target)
                elif attribute in _FUNCTIONS and callable(value):
                    self.functions[id(value)] = ("function", f"numpy.{attribute}", _FUNCTIONS[attribute])
            self._filled = True
            return True


_COMPARED_NAMES = frozenset(_COMPARE.values())
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
    return type(x) in PY_SCALARS or _is_numpy(x)


# -- the rewriting ---------------------------------------------------------------------------------
_SITE_PREFIX = SITE_PREFIX  # the per-line functions (one leading underscore: never name-mangled)


def _helper(attribute: str, node: ast.AST) -> ast.Attribute:
    return ast.Attribute(ast.Name(HELPER, ast.Load()), attribute, ast.Load())


def _name(identifier: str) -> ast.Name:
    return ast.Name(identifier, ast.Load())


def _index(node: ast.expr) -> ast.expr:
    """A subscript's index as an expression (``a[1:2]``'s slice: ``slice(1, 2, None)``)."""
    if isinstance(node, ast.Slice):
        parts = [p if p is not None else ast.Constant(None) for p in (node.lower, node.upper, node.step)]
        return ast.Call(_helper("slice", node), parts, [])
    if isinstance(node, ast.Tuple) and any(isinstance(e, ast.Slice) for e in node.elts):
        return ast.Tuple([_index(e) for e in node.elts], ast.Load())
    return node


def _parameters(*names: str, star: bool = False) -> ast.arguments:
    return ast.arguments(
        posonlyargs=[ast.arg(n) for n in names],
        args=[],
        vararg=ast.arg("args") if star else None,
        kwonlyargs=[],
        kw_defaults=[],
        kwarg=ast.arg("kwargs") if star else None,
        defaults=[],
    )


class _Rewriter(ast.NodeTransformer):
    """Operators, calls and item assignments of the user's code as calls of the helpers, each
    performing the operation in a function of the module compiled at the call's line."""

    def __init__(self):
        self.sites: dict[str, ast.FunctionDef] = {}

    def _site(self, kind: str, name: str, node: ast.AST) -> ast.Name:
        identifier = f"{_SITE_PREFIX}{kind}_{name}_{node.lineno}"
        if identifier not in self.sites:
            a, b, c = _name("a"), _name("b"), _name("c")
            star = False
            if kind == "binary":
                body: list = [ast.Return(ast.BinOp(a, _OPS[name](), b))]
            elif kind == "compare":
                body = [ast.Return(ast.Compare(a, [_OPS[name]()], [b]))]
            elif kind == "unary":
                body = [ast.Return(ast.UnaryOp(_OPS[name](), a))]
            elif kind == "inplace":
                store = ast.Name("a", ast.Store())
                body = [ast.AugAssign(store, _OPS[name](), b), ast.Return(a)]
            elif kind == "setitem":
                body = [ast.Assign([ast.Subscript(a, b, ast.Store())], c)]
            else:  # call
                star = True
                body = [
                    ast.Return(
                        ast.Call(a, [ast.Starred(_name("args"), ast.Load())], [ast.keyword(None, _name("kwargs"))])
                    )
                ]
            parameters = {"unary": ("a",), "setitem": ("a", "b", "c"), "call": ("a",)}.get(kind, ("a", "b"))
            function = ast.FunctionDef(identifier, _parameters(*parameters, star=star), body, [], None)
            for part in ast.walk(function):
                if "lineno" in part._attributes:
                    part.lineno = part.end_lineno = node.lineno
                    part.col_offset = part.end_col_offset = 0
            self.sites[identifier] = function
        return _name(identifier)

    def _call(self, attribute: str, kind: str, name: str, args: list, node: ast.AST) -> ast.Call:
        site = self._site(kind, name, node)
        return ast.copy_location(ast.Call(_helper(attribute, node), [site, *args], []), node)

    def _fast(self, kind: str, name: str, args: list, node: ast.AST) -> ast.Call:
        """A call of the site's fast function: the operation itself when no operand can be NumPy's
        (two ints), the helper otherwise; one call per operation in plain Python code."""
        raw = self._site(kind, name, node).id
        identifier = f"{raw}_fast"
        if identifier not in self.sites:
            template = _FAST[kind].format(name=identifier, raw=raw, op=_SYMBOLS[name], helper=HELPER, kind=name)
            function = ast.parse(template).body[0]
            assert isinstance(function, ast.FunctionDef)
            for part in ast.walk(function):
                if "lineno" in part._attributes:
                    part.lineno = part.end_lineno = node.lineno
                    part.col_offset = part.end_col_offset = 0
            self.sites[identifier] = function
        return ast.copy_location(ast.Call(_name(identifier), args, []), node)

    # Annotations and match patterns are not operations: kept as written (a pattern's ``1+2j`` must
    # stay a literal; an annotation's ``int | None`` is read back by typing and dataclasses).
    def visit_arg(self, node):
        return node

    def visit_FunctionDef(self, node):
        returns, node.returns = node.returns, None
        self.generic_visit(node)
        node.returns = returns
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_AnnAssign(self, node):
        annotation = node.annotation
        self.generic_visit(node)
        node.annotation = annotation
        return node

    def visit_match_case(self, node):
        pattern, node.pattern = node.pattern, ast.MatchAs()
        self.generic_visit(node)
        node.pattern = pattern
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        return self._fast("binary", _BINARY[type(node.op)], [node.left, node.right], node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        name = _UNARY.get(type(node.op))
        if name is None:
            return node
        return self._fast("unary", name, [node.operand], node)

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) != 1 or type(node.ops[0]) not in _COMPARE:
            return node  # a chain, is, in: unchanged
        return self._fast("compare", _COMPARE[type(node.ops[0])], [node.left, node.comparators[0]], node)

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in _FRAME_READERS:
            return node  # reads its caller's frame: called as written
        # w(f, site)(...): the call is made from the user's frame unless f is NumPy's
        site = self._site("call", "call", node)
        node.func = ast.copy_location(ast.Call(_helper("w", node), [node.func, site], []), node.func)
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        name = _BINARY[type(node.op)]
        target = node.target
        if isinstance(target, ast.Name):
            load = ast.copy_location(ast.Name(target.id, ast.Load()), target)
            value = self._fast("inplace", name, [load, node.value], node)
            return ast.copy_location(ast.Assign([target], value), node)
        if isinstance(target, ast.Subscript):
            args = [ast.Constant(name), target.value, _index(target.slice), node.value]
            call = self._call("item_inplace", "inplace", name, args, node)
        elif isinstance(target, ast.Attribute):
            args = [ast.Constant(name), target.value, ast.Constant(target.attr), node.value]
            call = self._call("attr_inplace", "inplace", name, args, node)
        else:
            return node
        return ast.copy_location(ast.Expr(call), node)

    def visit_Assign(self, node):
        self.generic_visit(node)
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Subscript):
            return node
        target = node.targets[0]
        # the value first, then the object and the key: Python's order for a[k] = v
        call = self._fast("setitem", "item", [node.value, target.value, _index(target.slice)], node)
        return ast.copy_location(ast.Expr(call), node)


_SYMBOLS = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "truediv": "/",
    "floordiv": "//",
    "mod": "%",
    "pow": "**",
    "matmul": "@",
    "lshift": "<<",
    "rshift": ">>",
    "and": "&",
    "or": "|",
    "xor": "^",
    "lt": "<",
    "le": "<=",
    "gt": ">",
    "ge": ">=",
    "eq": "==",
    "ne": "!=",
    "neg": "-",
    "pos": "+",
    "invert": "~",
    "item": "",
}
# The fast functions (defaults bound when the module is defined: no lookups per call, and a
# module's own global named ``type`` cannot interfere).
_FAST = {
    "binary": """
def {name}(a, b, /, _type=type, _plain={helper}.plain, _slow={helper}.binary):
    if _type(a) in _plain and _type(b) in _plain:
        return a {op} b
    return _slow({raw}, "{kind}", a, b)
""",
    "unary": """
def {name}(a, /, _type=type, _plain={helper}.plain, _slow={helper}.unary):
    if _type(a) in _plain:
        return {op}a
    return _slow({raw}, "{kind}", a)
""",
    "inplace": """
def {name}(a, b, /, _type=type, _plain={helper}.plain, _slow={helper}.inplace):
    if _type(a) in _plain and _type(b) in _plain:
        a {op}= b
        return a
    return _slow({raw}, "{kind}", a, b)
""",
    "setitem": """
def {name}(v, o, k, /, _type=type, _array={helper}.ndarray, _slow={helper}.setitem):
    if _type(o) is not _array:
        o[k] = v
    else:
        _slow({raw}, v, o, k)
""",
}
_FAST["compare"] = _FAST["binary"]
_OPS: dict[str, type] = {name: op for op, name in [*_BINARY.items(), *_COMPARE.items(), *_UNARY.items()]}
# Calls that read their caller's frame (a helper in between would change what they see).
_FRAME_READERS = frozenset({"super", "locals", "globals", "vars", "dir", "eval", "exec", "breakpoint", "__import__"})


def rewrite(tree: ast.Module) -> ast.Module:
    """``tree`` with its operators, calls and item assignments going through the audit's helpers, and
    the per-line functions that perform them defined first (after the docstring and future imports)."""
    rewriter = _Rewriter()
    tree = rewriter.visit(tree)
    body = tree.body
    start = 0
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        start = 1
    while start < len(body) and isinstance(body[start], ast.ImportFrom) and body[start].module == "__future__":
        start += 1
    tree.body = body[:start] + list(rewriter.sites.values()) + body[start:]
    ast.fix_missing_locations(tree)
    for node in ast.walk(tree):  # nodes another rewriter (pytest's) placed without an end
        if "end_lineno" in node._attributes and (node.end_lineno or 0) < node.lineno:
            node.end_lineno, node.end_col_offset = node.lineno, node.col_offset
    return tree


def _compile(source: bytes, path: str):
    return compile(rewrite(ast.parse(source, filename=path)), path, "exec", dont_inherit=True)


# -- which modules are the user's ------------------------------------------------------------------
class Include:
    """``--include``: module names or patterns (``sklearn`` is the package and its modules,
    ``sklearn.*`` its modules) and directories or files."""

    def __init__(self, patterns):
        self.names, self.paths = [], []
        for p in patterns:
            if os.sep in p or os.path.exists(p):
                self.paths.append(os.path.abspath(p))
            else:
                self.names.append(p)

    def __call__(self, fullname: str, path: str | None) -> bool:
        if not path or not path.endswith(".py") or path.startswith(_PACKAGE_DIR):
            return False
        for n in self.names:  # a pattern ('sklearn.*'), or a package with its modules ('sklearn')
            if fnmatch.fnmatchcase(fullname, n) or fullname == n or fullname.startswith(n + "."):
                return True
        if "site-packages" in path.split(os.sep) or "dist-packages" in path.split(os.sep):
            return False
        path = os.path.abspath(path)
        return any(path == p or path.startswith(p.rstrip(os.sep) + os.sep) for p in self.paths)


class _Loader(importlib.machinery.SourceFileLoader):
    """A user module compiled from its rewritten tree (never from or into a bytecode cache)."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        return _compile(self.get_data(path), path)


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, include: Include):
        self.include = include

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "_pytest.assertion.rewrite":
            return self._pytest_spec(fullname, path)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return None
        if not self.include(fullname, spec.origin):
            return None
        spec.loader = _Loader(fullname, spec.origin)
        return spec

    def _pytest_spec(self, fullname, path):
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return None
        loader, include = spec.loader, self.include

        class Patching(importlib.abc.Loader):
            def create_module(self, spec):
                return loader.create_module(spec)

            def exec_module(self, module):
                loader.exec_module(module)
                _patch_pytest(module, include)

        spec.loader = Patching()
        return spec


def _patch_pytest(module, include: Include) -> None:
    """pytest's assertion rewriting of test modules, then ours; no cached pyc read or written (a
    cached one would skip us, a written one would keep our rewriting for a plain run)."""
    original = module.rewrite_asserts

    def rewrite_asserts(mod, source, module_path=None, config=None):
        original(mod, source, module_path, config)
        name = os.path.splitext(os.path.basename(module_path or ""))[0]
        if include(name, module_path) or include(_module_name(module_path), module_path):
            rewrite(mod)

    module.rewrite_asserts = rewrite_asserts
    module._read_pyc = lambda *args, **kwargs: None
    module._write_pyc = lambda *args, **kwargs: False


def _module_name(path: str | None) -> str:
    """A test file's dotted name by its packages (the directories with an ``__init__.py``)."""
    if not path:
        return ""
    parts = [os.path.splitext(os.path.basename(path))[0]]
    folder = os.path.dirname(path)
    while os.path.exists(os.path.join(folder, "__init__.py")):
        parts.insert(0, os.path.basename(folder))
        folder = os.path.dirname(folder)
    return ".".join(parts)


# -- the audited process ---------------------------------------------------------------------------
def start() -> None:
    """Under the runner: the audit, its helpers, the import hook; the main script if it is the user's."""
    global _AUDIT
    against = [a for a in os.environ[ENV_AGAINST].split(",") if a]
    _AUDIT = NumPyAudit(against)
    setattr(builtins, HELPER, Helpers(_AUDIT))
    include = Include([p for p in os.environ.get(ENV_INCLUDE, "").split(os.pathsep) if p])
    sys.meta_path.insert(0, _Finder(include))
    script = sys.argv[0] if sys.argv else ""
    if script.endswith(".py") and os.path.isfile(script) and include("__main__", script):
        _run_main(script)


def _run_main(script: str) -> None:
    """Run the main script from its rewritten tree, as ``python script.py`` would, and exit."""
    script = os.path.abspath(script)  # as Python names a script it runs
    sys.path.insert(0, os.path.dirname(script))
    main = sys.modules["__main__"]
    main.__file__ = script
    main.__cached__ = None  # type: ignore[attr-defined]
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", script)
    with open(script, "rb") as f:
        source = f.read()
    status = 0
    try:
        code = _compile(source, script)
        exec(code, main.__dict__)
    except SystemExit as exc:
        status = _exit_status(exc)
    except BaseException as exc:
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
            tb = tb.tb_next  # the traceback from the script's frame on, as Python prints it
        sys.excepthook(type(exc), exc, tb)
        status = 1
    with contextlib.suppress(BaseException):
        threading._shutdown()  # type: ignore[attr-defined]  # non-daemon threads, as at a normal exit
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status)


def _exit_status(exc: SystemExit) -> int:
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        print(code, file=sys.stderr)
    except Exception:
        traceback.print_exc()
    return 1
