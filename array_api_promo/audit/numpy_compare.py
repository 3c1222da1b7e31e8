"""Comparing one NumPy operation of a plain NumPy program with other promotion policies.

NumPy's outcome is the real call's (result dtype, or the refusal's built-in exception type); each
``--against`` policy's is that policy's namespace run on stand-in operands (an n-d array by a
one-element array of its dtype and rank; a 0-d array and a NumPy scalar by their value, a NumPy
scalar as the policy's ``numpy_scalars`` rule takes it), cached per call signature
(:mod:`.signatures`).  Differing calls become records (:mod:`.records`).

Called by the helpers the rewritten code calls (:mod:`.numpy_helpers`); started in each process by
:mod:`.program`.
"""

from __future__ import annotations

import collections
import operator
import warnings

import numpy as np

from .. import _dtypes as D
from .._dtypes import PY_SCALARS, DType
from .._namespace import DEFAULT_API_VERSION, namespace
from ..promotion import get_policy
from ..promotion._policy import int_text
from .namespace import REFUSALS, Audit, NotCompared, dtype_text
from .records import Outcome, differ, error_name
from .signatures import call_key

__all__ = ["FORWARD", "INPLACE", "NumPyAudit", "Skip", "check_against", "function_table", "is_numpy"]

# The operations by name (the rewriter's names: add, sub, ..., lt, ..., neg, pos, invert)
_BINARY_NAMES = (
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
_COMPARE_NAMES = ("lt", "le", "gt", "ge", "eq", "ne")
_UNARY_NAMES = ("neg", "pos", "invert")
FORWARD = {name: getattr(operator, name if name not in ("and", "or") else f"{name}_") for name in _BINARY_NAMES}
FORWARD.update({name: getattr(operator, name) for name in _COMPARE_NAMES + _UNARY_NAMES})
INPLACE = {name: getattr(operator, f"i{name}") for name in _BINARY_NAMES}

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


def function_table(numpy) -> dict:
    """``id(f) -> (kind, op, namespace function)`` for NumPy's ufuncs and promoting functions."""
    table = {}
    for attribute in dir(numpy):
        value = getattr(numpy, attribute, None)
        if isinstance(value, np.ufunc) and value.nout == 1:
            target = _UFUNC_NAMES.get(value.__name__, value.__name__)
            table[id(value)] = ("ufunc", f"numpy.{value.__name__}", target)
        elif attribute in _FUNCTIONS and callable(value):
            table[id(value)] = ("function", f"numpy.{attribute}", _FUNCTIONS[attribute])
    return table


class Skip(Exception):
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
        return Outcome(None, error_name(error))
    return Outcome(_numpy_dtype_text(result), None)


def _plain(outcome: Outcome) -> Outcome:
    """An outcome by its dtype and refusal only: NumPy's side has no scalar-conversion words."""
    return Outcome(outcome.dtype, outcome.error)


_NUMPY_TYPES = (np.ndarray, np.generic)


def is_numpy(x) -> bool:
    return isinstance(x, _NUMPY_TYPES)


def _dtype_of(x) -> DType:
    try:
        dtype = np.dtype(x)
    except TypeError:
        raise Skip from None
    if dtype not in _DTYPES:
        raise Skip
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
                raise Skip
            self.arrays += 1
            data = x.copy() if x.ndim == 0 else np.zeros((1,) * x.ndim, x.dtype)
            return self.runtime.asarray(data)
        if isinstance(x, np.generic):
            if x.dtype not in _DTYPES:
                raise Skip
            if self.runtime.policy.numpy_scalars == "refuse":
                return x  # refused by the namespace in its words
            moved = self.runtime._from_numpy_scalar(x)
            self.arrays += type(moved) not in PY_SCALARS
            return moved
        raise Skip  # a list, another library's array: NumPy converts it, a namespace refuses it

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
        return FORWARD[name](*moved) if move.arrays else None
    if kind == "inplace":
        a, b = args
        moved_a, moved_b = move(a), move(b)
        if not move.arrays:
            return None
        if type(a) is np.ndarray:  # written in place: the target's dtype stays, or the write is refused
            return INPLACE[name](moved_a, moved_b)
        return FORWARD[name](moved_a, moved_b)  # a NumPy scalar: rebound to a + b
    if kind == "setitem":
        a, _key, value = args
        # A scalar of the target's kind or a lower one (NEP 50's change: an int out of an integer
        # dtype's range); NumPy casts an array, or a value of a higher kind, unsafely under both.
        value_kind = _kind(value)
        if a.dtype not in _DTYPES or value_kind is None or value_kind > _KINDS[a.dtype.kind]:
            raise Skip
        stand_in = runtime.asarray(np.zeros((1,) * a.ndim, a.dtype) if a.ndim else a.copy())
        stand_in[...] = move(value)
        return stand_in
    function = getattr(runtime, name, None)
    if function is None:
        raise Skip  # a ufunc the standard lacks (np.spacing, np.ldexp)
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
        raise Skip  # an array fill broadcasts: the standard's full takes a scalar
    fill = move(fill)
    return function(
        _shape_stand_in(_arg(args, kwargs, 0, "shape")), fill, dtype=move.dtype(_arg(args, kwargs, 2, "dtype"))
    )


def _full_like(function, move, args, kwargs):
    x, fill = _arg(args, kwargs, 0, "a"), _arg(args, kwargs, 1, "fill_value")
    if type(x) is not np.ndarray or not (type(fill) in PY_SCALARS or isinstance(fill, np.generic)):
        raise Skip
    x, fill = move(x), move(fill)
    return function(x, fill, dtype=move.dtype(_arg(args, kwargs, 2, "dtype")))


def _asarray(function, move, args, kwargs):
    obj = _arg(args, kwargs, 0, "object", "a")
    if not (type(obj) in PY_SCALARS or (type(obj) in (list, tuple) and _numbers_only(obj))):
        raise Skip  # from an array or other data: the dtype comes from it alike
    return function(obj, dtype=move.dtype(_arg(args, kwargs, 1, "dtype")))


def _arange(function, move, args, kwargs):
    numbers = [a for a in args[:3] if a is not None]
    if not numbers or not all(type(a) in (int, float) for a in numbers) or len(args) > 3:
        raise Skip
    if all(type(a) is int for a in numbers):
        if len(range(*numbers)) > _ARANGE_LIMIT:
            raise Skip
    elif len(numbers) < 3 or abs((numbers[1] - numbers[0]) / numbers[2]) > _ARANGE_LIMIT:
        raise Skip
    return function(*numbers, dtype=move.dtype(kwargs.get("dtype")))


def _where(function, move, args, kwargs):
    if len(args) != 3 or kwargs:
        raise Skip  # np.where(c): nonzero
    rank = getattr(args[0], "ndim", 0)
    condition = move.runtime.asarray(np.zeros((1,) * rank, bool) if rank else np.asarray(False))
    return function(condition, move(args[1]), move(args[2]))


def _clip(function, move, args, kwargs):
    x = move(_arg(args, kwargs, 0, "a"))
    low = move(_arg(args, kwargs, 1, "a_min", "min"))
    high = move(_arg(args, kwargs, 2, "a_max", "max"))
    if set(kwargs) - {"a", "a_min", "a_max", "min", "max"} or len(args) > 3 or not move.arrays:
        raise Skip
    return function(x, min=low, max=high)


def _result_type(function, move, args, kwargs):
    if kwargs:
        raise Skip
    return function(*[move.dtype(a) if type(a) is str or isinstance(a, (type, np.dtype)) else move(a) for a in args])


def _joining(function, move, args, kwargs):  # concatenate, stack
    arrays = _arg(args, kwargs, 0, "arrays")
    axis = _arg(args, kwargs, 1, "axis")
    if set(kwargs) - {"arrays", "axis"} or len(args) > 2 or type(arrays) not in (list, tuple):
        raise Skip
    if axis is None and function.__name__ == "stack":
        axis = 0
    return function([move(a) for a in arrays], axis=axis)


def _reduction(function, move, args, kwargs):
    x = _arg(args, kwargs, 0, "a")
    if type(x) is not np.ndarray or len(args) > 2 or set(kwargs) - {"a", "axis", "dtype", "keepdims"}:
        raise Skip
    axis = _arg(args, kwargs, 1, "axis")
    if isinstance(axis, int) and not 0 <= axis < max(x.ndim, 1) and not -x.ndim <= axis < 0:
        raise Skip
    options = {k: v for k, v in kwargs.items() if k in ("keepdims",)}
    dtype = kwargs.get("dtype")
    if dtype is not None:
        if function.__name__ not in ("sum", "prod"):
            raise Skip  # the standard's mean, var, ... take no dtype
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
        key = call_key(self.api_version, op, (args[0], args[2]) if kind == "setitem" else args, kwargs)
        theirs = self._outcomes.get(key) if key is not None else None
        if theirs is None:
            try:
                theirs = self._outcomes_against(kind, target, args, kwargs)
            except Skip:
                theirs = ()
            except NotCompared as exc:
                self.not_compared(op, str(exc))
                return
            if key is not None:
                self._outcomes[key] = theirs
        if not theirs:
            return
        mine = _numpy_outcome(result, error)
        if any(o is not None and differ(mine, o) for o in theirs):
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
                    except Skip:
                        raise
                    except REFUSALS as exc:
                        outcomes.append(Outcome(None, error_name(exc)))
                        continue
                    except Exception as exc:
                        raise NotCompared(f"{policy.name}: {type(exc).__name__}") from None
                    if result is None:
                        outcomes.append(None)
                        continue
                    outcomes.append(Outcome(dtype_text(result), None, None, result if type(result) is bool else None))
        finally:
            warnings.warn = warn  # type: ignore[assignment]
        return tuple(outcomes)


def _silent(*args, **kwargs):
    return None


def _numpy_values(args: tuple, kwargs: dict) -> str | None:
    """The values of the call's Python scalars, NumPy scalars and 0-d arrays (they decide under
    value-based rules)."""
    found = []
    for x in (*args, *kwargs.values()):
        if type(x) in PY_SCALARS:
            found.append(int_text(x))
        elif isinstance(x, np.generic) or (type(x) is np.ndarray and x.ndim == 0):
            found.append(int_text(x.item()))
    return ", ".join(found) or None
