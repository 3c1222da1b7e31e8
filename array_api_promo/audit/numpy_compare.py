"""Comparing one NumPy operation of a plain NumPy program with other promotion policies.

NumPy's outcome is the real call's: the result's dtype, or the built-in type of the exception it
raised.  Each ``--against`` policy's outcome is that policy's namespace run on stand-ins of the
operands (an n-d array by a one-element array of its dtype and rank; a 0-d array and a NumPy
scalar by their value, a NumPy scalar as the policy's ``numpy_scalars`` rule takes it), cached per
call signature (:mod:`.signatures`).  Where NumPy raised, the policy runs on the real operands
(a shape error is no difference when both raise it).  Where an operation's result dtype is fixed
but its values may differ (an in-place operation, a comparison, a ufunc's ``out=``), the dtypes
the two compute in are compared on the stand-ins, and where they differ the policy computes the
values on the real data.  Differing calls become records (:mod:`.records`) and, in the warning
mode, :class:`~array_api_promo.nep50.NEP50Warning`\\ s at the user's line.

Called by the helpers the rewritten code calls (:mod:`.numpy_helpers`); its golden tests drive
:func:`against_outcome` directly.
"""

from __future__ import annotations

import collections
import operator

import numpy as np

from .. import _dtypes as D
from .._dtypes import PY_SCALARS, DType
from .._namespace import DEFAULT_API_VERSION, namespace
from ..promotion._policy import int_text
from ..promotion.numpy_legacy import quiet_conversions
from .namespace import REFUSALS
from .records import Outcome, Record, RecordSet, check_against, differ, error_name, user_frame, warn_at
from .signatures import call_key, describe_call

# pytest leaves this module's frames out of its tracebacks (a warning made an error passes through them)
__tracebackhide__ = True

__all__ = [
    "FORWARD",
    "INPLACE",
    "Comparison",
    "Skip",
    "against_outcome",
    "against_values",
    "function_table",
    "numpy_outcome",
    "policy_label",
]

# -- the operations by name (the rewriter's: add, sub, ..., lt, ..., neg, pos, invert) -----------------------
_BINARY_NAMES = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul")
_BINARY_NAMES += ("lshift", "rshift", "and", "or", "xor")  # type: ignore[assignment]
_COMPARE_NAMES = frozenset(("lt", "le", "gt", "ge", "eq", "ne"))
_UNARY_NAMES = ("neg", "pos", "invert")
FORWARD = {name: getattr(operator, name if name not in ("and", "or") else f"{name}_") for name in _BINARY_NAMES}
FORWARD.update({name: getattr(operator, name) for name in (*_COMPARE_NAMES, *_UNARY_NAMES)})
INPLACE = {name: getattr(operator, f"i{name}") for name in _BINARY_NAMES}
_SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**"}
_SYMBOLS.update({"matmul": "@", "lshift": "<<", "rshift": ">>", "and": "&", "or": "|", "xor": "^"})
_SYMBOLS.update({"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!=", "neg": "-", "pos": "+"})
_SYMBOLS["invert"] = "~"

# NumPy dtypes the namespaces hold (others, object or datetime, are not compared).
_DTYPES = frozenset(d.numpy for d in D.ALL_DTYPES if d is not D.bfloat16)  # (bfloat16 is not a NumPy dtype)
# NumPy's extended precision (float128 on x86-64 Linux): no namespace has it; NumPy 1.x judged a
# longdouble scalar by its value like any other (numpy_legacy takes it as the float64 it fits in).
_LONG = frozenset({np.dtype(np.longdouble), np.dtype(np.clongdouble)}) - {np.dtype(np.float64), np.dtype(np.complex128)}
_NAMES = {d: d.name for d in _DTYPES}  # (np.dtype.name is a slow Python property)
_NAMES.update({np.dtype(np.longdouble): "longdouble", np.dtype(np.clongdouble): "clongdouble"})
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
_REDUCTIONS = frozenset({"sum", "prod", "mean", "max", "min", "std", "var"})
_SHAPED = frozenset({"numpy.zeros", "numpy.ones", "numpy.empty"})  # their ints are a shape
_ARANGE_LIMIT = 10_000  # arange is compared on its own arguments, up to this many elements


def function_table(numpy) -> dict:
    """``f -> (f, kind, op, namespace function)`` for NumPy's ufuncs and promoting functions."""
    table = {}
    for attribute, value in list(vars(numpy).items()):  # (not dir(): that loads numpy.testing, f2py, ...)
        if isinstance(value, np.ufunc) and value.nout == 1:
            target = _UFUNC_NAMES.get(value.__name__, value.__name__)
            table[value] = (value, "ufunc", f"numpy.{value.__name__}", target)
        elif attribute in _FUNCTIONS and callable(value):
            table[value] = (value, "function", f"numpy.{attribute}", _FUNCTIONS[attribute])
    return table


def policy_label(policy) -> str:
    """A policy as the warnings name it: ``NumPy 1.x`` for numpy_legacy, else its name."""
    return "NumPy 1.x" if policy.name == "numpy_legacy" else policy.name


class Skip(Exception):
    """A call no policy is asked about (an operand of a type or dtype the namespaces lack)."""


class _NotCompared(Exception):
    """A policy's run failed other than by refusing (a warning made an error, no memory)."""


# -- NumPy's side ------------------------------------------------------------------------------
def _numpy_dtype_text(result) -> str | None:
    if isinstance(result, (np.ndarray, np.generic)):
        dtype = _native(result.dtype)
        return _NAMES.get(dtype) or dtype.name
    if isinstance(result, np.dtype):
        return _NAMES.get(result) or result.name
    if isinstance(result, tuple):
        names = [_numpy_dtype_text(r) for r in result]
        return ", ".join(n for n in names if n) or None
    return None


def _native(dtype: np.dtype) -> np.dtype:
    """A dtype in the machine's byte order (a big-endian float32 read from a file is a float32)."""
    return dtype if dtype.isnative else dtype.newbyteorder("=")


def _held(result) -> bool:
    """Whether NumPy's result is of dtypes the namespaces hold (or NumPy's longdouble)."""
    if isinstance(result, (np.ndarray, np.generic)):
        dtype = _native(result.dtype)
        return dtype in _DTYPES or dtype in _LONG
    if isinstance(result, np.dtype):
        result = _native(result)
        return result in _DTYPES or result in _LONG
    if isinstance(result, tuple):
        return all(_held(r) for r in result)
    return True


def numpy_outcome(result, error) -> Outcome:
    """What the installed NumPy made of a call: its result's dtype or the refusal's built-in type."""
    if error is not None:
        return Outcome(None, error_name(error))
    return Outcome(_numpy_dtype_text(result), None)


def _dtype_text(result) -> str | None:
    """The dtype of a namespace's result (an array, a dtype, or several)."""
    dtype = getattr(result, "dtype", result)
    if type(dtype) is DType:
        return dtype.name
    if isinstance(result, (tuple, list)):
        names = [_dtype_text(r) for r in result]
        return ", ".join(n for n in names if n) or None
    return None


def _dtype_of(x) -> DType:
    try:
        dtype = np.dtype(x)
    except TypeError:
        raise Skip from None
    if dtype not in _DTYPES:
        raise Skip
    return D.dtype_of_numpy(dtype)


def _is_long(x) -> bool:
    return isinstance(x, (np.ndarray, np.generic)) and x.dtype in _LONG


# -- a policy's side ---------------------------------------------------------------------------
class _Move:
    """The operands of one call as one policy's namespace takes them: stand-ins, or (``real``) the
    operands' own data (``copy``: copied, for a call that writes)."""

    def __init__(self, runtime, real: bool = False, copy: bool = False, long_as_float64: bool = False):
        self.runtime = runtime
        self.real = real
        self.copy = copy
        self.long_as_float64 = long_as_float64  # numpy_legacy, beside a floating n-d array: the value counts
        self.arrays = 0  # how many operands became arrays of the namespace

    def __call__(self, x):
        t = type(x)
        if t in PY_SCALARS or x is None or t is str or t is slice or x is Ellipsis:
            return x
        if isinstance(x, (np.ndarray, np.generic)) and x.dtype in _LONG:
            x = self._long(x)
            t = type(x)
        if t is np.ndarray:
            dtype = _native(x.dtype)
            if dtype not in _DTYPES:
                raise Skip
            self.arrays += 1
            if self.real or x.ndim == 0:
                data = x.astype(dtype) if dtype is not x.dtype else x.copy() if self.copy or x.ndim == 0 else x
            else:
                data = np.zeros((1,) * x.ndim, dtype)
            return self.runtime.asarray(data)
        if isinstance(x, np.generic):
            if x.dtype not in _DTYPES:
                raise Skip
            rule = self.runtime.policy.numpy_scalars
            if rule == "refuse":
                return x  # refused by the namespace in its words
            if rule == "array":
                self.arrays += 1
                return self.runtime.asarray(x)
            return rule[x.dtype.kind](x.item())
        raise Skip  # a list, another library's array: NumPy converts it, a namespace refuses it

    def _long(self, x):
        """A longdouble scalar or 0-d array as numpy_legacy judges it beside a floating n-d array: the
        float64 (complex128) of its value, when that holds it; nothing else is compared."""
        if not self.long_as_float64 or (type(x) is np.ndarray and x.ndim):
            raise Skip
        wide = np.complex128 if x.dtype.kind == "c" else np.float64
        with np.errstate(all="ignore"):
            narrow = wide(x[()] if type(x) is np.ndarray else x)
        if np.isinf(narrow).any() and not np.isinf(x).any():
            raise Skip  # beyond float64: longdouble under NumPy 1.x too
        return np.asarray(narrow) if type(x) is np.ndarray else narrow

    def dtype(self, x):
        """A dtype argument (``np.float32``, ``np.dtype('f4')``, ``'f4'``, ``float``) as the namespace's."""
        return None if x is None else _dtype_of(x)


def _shape_stand_in(x):
    """A shape argument by a small one of the same rank (creation's dtype does not depend on it)."""
    if isinstance(x, (tuple, list)):
        return (1,) * len(x)
    return 1


def _long_beside_floating(args, kwargs) -> bool:
    """A longdouble scalar (or 0-d array) beside a floating or complex n-d array: NumPy 1.x judged its value."""
    values = [*args, *kwargs.values()]
    return any(_is_long(v) for v in values) and any(
        type(v) is np.ndarray and v.ndim and v.dtype.kind in "fc" and v.dtype not in _LONG for v in values
    )


def against_outcome(policy, kind: str, name: str, args: tuple, kwargs: dict, real: bool = False) -> Outcome | None:
    """What ``policy`` makes of the NumPy call ``kind``/``name`` (None: no say, as when it makes Python
    numbers of every operand); ``real``: on the operands' own data rather than stand-ins.

    ``kind`` is ``binary``, ``compare`` or ``unary`` (an operator, ``name`` as ``add``, ``lt``,
    ``neg``), ``inplace`` (``a op= b``), ``item`` (``a[k] op= b``: ``args`` the array, the item and the
    value), ``setitem`` (``args``: the array, the key, the value), ``ufunc`` or ``function`` (``name``
    the namespace function's).  Raises :class:`Skip` for a call no policy is asked about."""
    runtime = namespace(policy, DEFAULT_API_VERSION)._runtime
    with np.errstate(all="ignore"), quiet_conversions():
        try:
            result = _against_run(kind, name, runtime, args, kwargs, real)
        except Skip:
            raise
        except REFUSALS as exc:
            return Outcome(None, error_name(exc))
        except Exception as exc:
            raise _NotCompared(f"{policy.name}: {type(exc).__name__}") from None
    if result is None:
        return None
    return Outcome(_dtype_text(result), None, None, result if type(result) is bool else None)


def _against_run(kind: str, name: str, runtime, args: tuple, kwargs: dict, real: bool):
    """The call ``kind``/``name`` of NumPy, run in ``runtime``'s namespace."""
    legacy = runtime.policy.value_dependent and runtime.policy.numpy_scalars == "array"
    move = _Move(runtime, real, copy=kind in ("inplace", "item"), long_as_float64=legacy)
    if legacy and move.long_as_float64:
        move.long_as_float64 = _long_beside_floating(args, kwargs)
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
        return FORWARD[name](moved_a, moved_b)  # a scalar: rebound to a + b
    if kind == "item":  # o[k] op= b: the item op b, stored in o (a slice's view: in place)
        target, item, b = args
        moved_item, moved_b = move(item), move(b)
        if not move.arrays:
            return None
        if type(item) is np.ndarray:
            INPLACE[name](moved_item, moved_b)
        else:
            FORWARD[name](moved_item, moved_b)
        return runtime.asarray(np.zeros((1,) * target.ndim, target.dtype))  # stored in the target's dtype
    if kind == "setitem":
        a, _key, value = args
        # A scalar of the target's kind or a lower one (NEP 50's change: an int out of an integer
        # dtype's range); NumPy casts an array, or a value of a higher kind, unsafely under both.
        value_kind = _kind(value)
        dtype = _native(a.dtype)
        if dtype not in _DTYPES or value_kind is None or value_kind > _KINDS[a.dtype.kind]:
            raise Skip
        if real and not a.flags.writeable:
            raise ValueError("assignment destination is read-only")  # as NumPy refuses it, under every policy
        stand_in = runtime.asarray(np.zeros((1,) * a.ndim, dtype) if a.ndim else a.astype(dtype))
        stand_in[...] = move(value)
        return stand_in
    if kind == "ufunc":
        out = kwargs.get("out")
        if set(kwargs) - {"out"}:
            raise Skip  # dtype=, where=, casting=: not compared
        function = getattr(runtime, name, None)
        if function is None:
            raise Skip  # a ufunc the standard lacks (np.spacing, np.ldexp)
        moved = [move(a) for a in args]
        if not move.arrays:
            return None
        result = function(*moved)
        return result if out is None else _into(result, out)
    if name == "arange" and hasattr(runtime.policy, "numpy_arange"):
        return _arange_model(runtime, move, args, kwargs)
    function = getattr(runtime, name, None)
    if function is None:
        raise Skip
    return _FUNCTION_RUNS[name](function, move, args, kwargs)


def _into(result, out):
    """A ufunc's result written into ``out`` (NumPy's ``same_kind`` casting): ``out``'s dtype, or a refusal."""
    if type(out) is tuple and len(out) == 1:
        out = out[0]
    if type(out) is not np.ndarray or out.dtype not in _DTYPES:
        raise Skip
    computed = result.dtype.numpy
    if not np.can_cast(computed, out.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc output from {computed} to {out.dtype} with casting rule 'same_kind'")
    return D.dtype_of_numpy(out.dtype)


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


def _arange_numbers(args, kwargs) -> list:
    numbers = [a for a in args[:3] if a is not None]
    if not numbers or not all(type(a) in (int, float) for a in numbers) or len(args) > 3:
        raise Skip
    if set(kwargs) - {"dtype"}:
        raise Skip
    return numbers


def _arange(function, move, args, kwargs):
    numbers = _arange_numbers(args, kwargs)
    if all(type(a) is int for a in numbers):
        if len(range(*numbers)) > _ARANGE_LIMIT:
            raise Skip
    elif len(numbers) < 3 or abs((numbers[1] - numbers[0]) / numbers[2]) > _ARANGE_LIMIT:
        raise Skip
    return function(*numbers, dtype=move.dtype(kwargs.get("dtype")))


def _arange_model(runtime, move, args, kwargs):
    """``np.arange`` as the policy models NumPy's own (numpy_legacy: NumPy 1.26's)."""
    numbers = _arange_numbers(args, kwargs)
    return runtime.policy.numpy_arange(*numbers, dtype=move.dtype(kwargs.get("dtype")))


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
    **dict.fromkeys(_REDUCTIONS, _reduction),
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


# -- the computing dtypes, where values may differ ------------------------------------------------------
def _numpy_stand_in(x):
    if type(x) is np.ndarray and x.ndim:
        return np.zeros((1,) * x.ndim, x.dtype)
    return x


def _computed(kind: str, name: str, runtime, args: tuple, kwargs: dict, ufunc=None) -> tuple:
    """The dtypes NumPy and ``runtime``'s policy compute a value-kind call in (an in-place operation,
    a comparison, an item's operation, a ufunc with ``out=``), on stand-ins; None where unknown."""
    legacy = runtime.policy.value_dependent and runtime.policy.numpy_scalars == "array"
    move = _Move(runtime, long_as_float64=legacy and _long_beside_floating(args, kwargs))
    with np.errstate(all="ignore"), quiet_conversions():
        try:
            if kind == "ufunc":
                mine = ufunc(*[_numpy_stand_in(x) for x in args])
                theirs = getattr(runtime, name)(*[move(x) for x in args])
            elif kind == "compare":
                a, b = args
                dtype = np.result_type(_numpy_stand_in(a), _numpy_stand_in(b))
                return _NAMES.get(dtype, dtype.name), runtime.result_type(move(a), move(b)).name
            else:
                a, b = args if kind == "inplace" else args[1:]
                mine = FORWARD[name](_numpy_stand_in(a), _numpy_stand_in(b))
                theirs = FORWARD[name](move(a), move(b))
            return _numpy_dtype_text(mine), _dtype_text(theirs)
        except Skip:
            raise
        except Exception:
            return None, None


def against_values(policy, kind: str, name: str, args: tuple, kwargs: dict, result=None) -> np.ndarray:
    """The values ``policy`` stores (in place, into an item or into ``out=``) or gives (a comparison) for the
    NumPy call ``kind``/``name`` on the real data (``args``: the operands before the call; ``result``:
    NumPy's, for an item's stored dtype)."""
    runtime = namespace(policy, DEFAULT_API_VERSION)._runtime
    legacy = runtime.policy.value_dependent and runtime.policy.numpy_scalars == "array"
    move = _Move(runtime, real=True, copy=True, long_as_float64=legacy and _long_beside_floating(args, kwargs))
    with np.errstate(all="ignore"), quiet_conversions():
        if kind == "compare":
            return np.asarray(FORWARD[name](move(args[0]), move(args[1])))
        if kind == "inplace" or (kind == "item" and type(args[1]) is np.ndarray):
            a, b = args if kind == "inplace" else args[1:]
            target = move(a)
            INPLACE[name](target, move(b))
            return np.asarray(target)
        if kind == "item":  # an item op value, stored in the array's dtype
            return np.asarray(FORWARD[name](move(args[1]), move(args[2]))).astype(args[0].dtype)
        out = kwargs["out"][0] if type(kwargs["out"]) is tuple else kwargs["out"]  # a ufunc into out=
        return np.asarray(getattr(runtime, name)(*[move(x) for x in args])).astype(out.dtype)


def _dtype_named(name: str) -> np.dtype | None:
    """The real (bool, integer or floating) NumPy dtype of a computing dtype's name, of at most 8 bytes."""
    found = _COMPUTING_DTYPES.get(name, False)
    if found is False:
        try:
            found = np.dtype(name)
        except TypeError:
            found = None
        if found is not None and (found.kind not in "biuf" or found.itemsize > 8):
            found = None
        _COMPUTING_DTYPES[name] = found
    return found


_COMPUTING_DTYPES: dict = {}


def _held_exactly(x, names) -> bool:
    """Whether every value of the operand ``x`` is exactly a value of each dtype named in ``names``: a
    comparison computed in any of them then compares the same numbers (a conservative False otherwise)."""
    if type(x) is np.ndarray and x.ndim:
        key: tuple = (names, x.dtype)
    else:
        value = x.item() if isinstance(x, (np.ndarray, np.generic)) else x
        if type(value) not in (bool, int, float):
            return False
        key = (names, type(value), value)  # (1, 1.0 and True are one dictionary key)
    found = _HELD.get(key)
    if found is None:
        found = _held_by_all(x, key[-1], names)
        if len(_HELD) < _HELD_SIZE:
            _HELD[key] = found
    return found


_HELD: dict = {}  # (names, the operand's dtype or value's type and value) -> whether held exactly
_HELD_SIZE = 10_000


def _held_by_all(x, value, names) -> bool:
    named = [_dtype_named(n) for n in names]
    dtypes = [d for d in named if d is not None]
    if len(dtypes) != len(named):
        return False
    if type(x) is np.ndarray and x.ndim:
        return all(_dtype_holds(d, x.dtype) for d in dtypes)
    try:
        with np.errstate(all="ignore"):
            return all(d.type(value).item() == value for d in dtypes)  # (a NaN: False)
    except (OverflowError, ValueError, TypeError):
        return False


def _dtype_holds(wide: np.dtype, narrow: np.dtype) -> bool:
    """Whether every value of ``narrow`` is exactly a value of ``wide``."""
    if narrow.kind == "b":
        return True
    if narrow.kind in "iu" and wide.kind in "iu":
        return bool(np.can_cast(narrow, wide, "safe"))
    if narrow.kind in "iu" and wide.kind == "f":
        return narrow.itemsize * 8 - (narrow.kind == "i") <= np.finfo(wide).nmant + 1
    return narrow.kind == wide.kind == "f" and narrow.itemsize <= wide.itemsize


def _values_differ(policy, kind: str, name: str, args: tuple, kwargs: dict, result) -> bool:
    """Whether ``policy``'s values (:func:`against_values`) differ from NumPy's ``result``."""
    theirs = against_values(policy, kind, name, args, kwargs)
    if kind == "item":
        mine = np.asarray(result).astype(args[0].dtype)
    elif kind == "ufunc":
        mine = kwargs["out"][0] if type(kwargs["out"]) is tuple else kwargs["out"]
    else:
        mine = np.asarray(result)
    nan = mine.dtype.kind in "fc" and theirs.dtype.kind in "fc"
    return theirs.shape != mine.shape or not np.array_equal(theirs, mine, equal_nan=nan)


# -- the comparison ----------------------------------------------------------------------------------
_AGREE = None  # a verdict: the call's outcomes agree


class _Verdict:
    """What a call signature's outcomes are: NumPy's, each policy's, and whether values must be compared."""

    __slots__ = ("mine", "theirs", "differs", "values", "label")

    def __init__(self, mine, theirs, differs, values, label):
        self.mine: Outcome = mine
        self.theirs: tuple = theirs
        self.differs: bool = differs  # the outcomes differ
        self.values: tuple | None = values  # (NumPy's computing dtype, each policy's): compared per call
        self.label: str | None = label  # None: promotion; "function": a function's own change


# Operations of one operand: a difference there is the function's own (NumPy 2's np.ceil of integers),
# not promotion.
_ONE_OPERAND = frozenset({"unary"})


class Comparison(RecordSet):
    """A process's comparison of NumPy operations with ``against`` policies: cached verdicts, records,
    and (``warns``) a warning of ``category`` at the user's line for each differing call."""

    def __init__(self, against, warns: bool = False, category: type[Warning] | None = None):
        self.against = check_against(against)
        self.warns = warns and category is not None
        self.category = category
        self.numpy_label = f"NumPy {np.__version__.split('.')[0]}"
        super().__init__(f"numpy {np.__version__}", [p.name for p in self.against])
        self._verdicts: dict = {}
        self._messages: dict = {}  # record key -> its warning's text
        self._value_dependent = any(p.value_dependent for p in self.against)
        self._converting = any(isinstance(p.numpy_scalars, dict) for p in self.against)  # NumPy scalars as numbers
        # calls a policy's run (or the audit) failed on other than by refusing: "op (why)" -> count
        self.uncompared: collections.Counter = collections.Counter()
        self.missing: str | None = None  # the main script Python could not open

    def written_at_exit(self) -> bool:
        return True  # also with no records: the runner learns that the program ran under the tool

    def as_json(self) -> dict:
        out = {**super().as_json(), "uncompared": dict(self.uncompared)}
        if self.missing is not None:
            out["missing"] = self.missing
        return out

    def not_compared(self, op: str, why: str) -> None:
        self.uncompared[f"{op} ({why})"] += 1

    # -- one call -----------------------------------------------------------------------------
    def compare(self, site, kind, op, name, args, kwargs, result, error, ufunc=None) -> bool:
        """Record the call (``kind``/``name``, shown as ``op``, at ``site``) if a policy's outcome differs
        from NumPy's ``result`` or ``error`` (``ufunc``: NumPy's, for a ufunc call); where the dtypes agree
        but the computing dtypes differ, if the values differ.  ``args`` are the operands before the call
        (an in-place target's copy, where the values are compared).  True: the outcomes agree, as they do
        for every call of the same signature (the helpers may skip those)."""
        if error is None and not _held(args[0] if kind == "item" else result):
            return False  # an object, string or datetime result: no policy's namespace holds it
        keyed = (args[0], args[2]) if kind == "setitem" else args
        key = call_key(DEFAULT_API_VERSION, f"{kind}.{name}", keyed, kwargs) if error is None else None
        verdict = self._verdicts.get(key, False) if key is not None else False
        if verdict is False:
            try:
                verdict = self._verdict(kind, name, args, kwargs, result, error, ufunc)
            except Skip:
                verdict = _AGREE
            except _NotCompared as exc:
                self.not_compared(op, str(exc))
                return False
            if key is not None:
                self._verdicts[key] = verdict
        if verdict is _AGREE:
            return key is not None
        if verdict.differs:
            self._report(site, op, kind, name, args, kwargs, verdict.mine, verdict.theirs, verdict.label)
            return False
        if verdict.values is None:
            return False
        numpy_computed, computed = verdict.values
        if kind == "compare" and all(_held_exactly(a, (numpy_computed, *computed)) for a in args):
            return False  # every operand exactly a value of each computing dtype: the same comparison in each
        try:
            changed = [
                c != numpy_computed and _values_differ(p, kind, name, args, kwargs, result)
                for p, c in zip(self.against, computed)
            ]
        except Exception as exc:  # (a policy refusing on the real data what it computed on stand-ins)
            self.not_compared(op, f"values: {type(exc).__name__}")
            return False
        if any(changed):
            dtype = verdict.mine.dtype
            mine = Outcome(dtype, None, computed=numpy_computed)
            theirs = tuple(Outcome(dtype, None, computed=c) if d else verdict.mine for c, d in zip(computed, changed))
            self._report(site, op, kind, name, args, kwargs, mine, theirs, None)
        return False

    def values_matter(self, args, name: str | None = None) -> bool:
        """Whether the outcomes of a call on these operands may depend on their values, not only on their types
        and dtypes: a Python int (NumPy 2 refuses one out of range), a NumPy integer scalar a policy makes a
        Python int of, or, under a value-dependent policy (numpy_legacy), a scalar or 0-d operand beside an
        n-d array.  The helpers key the signatures of the others by types and dtypes alone.  (A shape's ints,
        ``np.zeros(n, dtype)``, decide nothing.)"""
        if name in _SHAPED:
            return False
        if any(type(a) is int for a in args):
            return True
        scalars = [a for a in args if isinstance(a, np.generic) or (type(a) is np.ndarray and a.ndim == 0)]
        scalars += [a for a in args if type(a) in PY_SCALARS]
        if not scalars:
            return False
        if self._converting and any(isinstance(a, np.integer) for a in scalars):
            return True
        return self._value_dependent and any(type(a) is np.ndarray and a.ndim for a in args)

    def needs_before(self, kind, name, args, kwargs) -> bool:
        """Whether a call that writes (in place, or into ``out=``) needs its operands copied first: its
        values may be compared (a signature not seen yet, or one whose computing dtypes differ)."""
        key = call_key(DEFAULT_API_VERSION, f"{kind}.{name}", args, kwargs)
        verdict = self._verdicts.get(key, False) if key is not None else False
        return verdict is False or (verdict is not _AGREE and verdict.values is not None)

    def _verdict(self, kind, name, args, kwargs, result, error, ufunc):
        mine = numpy_outcome(args[0] if kind == "item" and error is None else result, error)
        real = error is not None  # NumPy refused: the policies see the real operands (a shape error)
        theirs = tuple(against_outcome(p, kind, name, args, kwargs, real) for p in self.against)
        if all(o is None for o in theirs):
            return _AGREE
        theirs = tuple(mine if o is None else o for o in theirs)
        label = "function" if _one_operand(kind, name, args) else None
        if any(differ(mine, o) for o in theirs):
            return _Verdict(mine, theirs, True, None, label)
        if kind not in ("inplace", "compare", "item", "ufunc") or error is not None:
            return _AGREE
        if kind == "ufunc" and "out" not in kwargs:
            return _AGREE
        computed_by = [_computed(kind, name, namespace(p)._runtime, args, kwargs, ufunc) for p in self.against]
        numpy_computed = computed_by[0][0]
        theirs_computed = tuple(c for _, c in computed_by)
        if numpy_computed is None or None in theirs_computed or all(c == numpy_computed for c in theirs_computed):
            return _AGREE
        return _Verdict(mine, theirs, False, (numpy_computed, theirs_computed), None)

    # -- records and warnings -------------------------------------------------------------------
    def _report(self, site, op, kind, name, args, kwargs, mine, theirs, label) -> None:
        file, line = site
        operands = describe_call(args if kind != "item" else args[::2], kwargs)
        key = (file, line, op, operands, mine, theirs)
        if not self.count(key):
            frame = user_frame()
            function = getattr(frame.f_code, "co_qualname", frame.f_code.co_name) if frame is not None else "?"
            against = {p.name: o for p, o in zip(self.against, theirs)}
            values = _numpy_values(args if kind != "item" else args[::2], kwargs)
            record = Record(file, line, function, op, operands, 1, mine, against, values, label)
            self.add(key, record)
            self._messages[key] = self._message(kind, name, args, kwargs, mine, theirs)
        if self.warns and label is None:
            frame = user_frame()
            if frame is not None:
                warn_at(frame, self._messages[key], self.category)  # type: ignore[arg-type]

    def _message(self, kind, name, args, kwargs, mine: Outcome, theirs: tuple) -> str:
        """``uint8 array + Python int 300: uint16 under NumPy 1.x, raises OverflowError under NumPy 2``."""
        call = _call_text(kind, name, args, kwargs)
        if mine.computed is not None:  # the same dtype, other values
            verb = "compared" if kind == "compare" else "computed"
            parts = [f"{verb} in {o.computed} under {policy_label(p)}" for p, o in zip(self.against, theirs)]
            parts.append(f"in {mine.computed} under {self.numpy_label}")
            what = "the results differ" if kind == "compare" else f"the values stored as {mine.dtype} differ"
            return f"{call}: {', '.join(parts)} ({what})"
        parts = [f"{_outcome_text(o)} under {policy_label(p)}" for p, o in zip(self.against, theirs) if differ(mine, o)]
        parts.append(f"{_outcome_text(mine)} under {self.numpy_label}")
        return f"{call}: {', '.join(parts)}"


def _one_operand(kind: str, name: str, args: tuple) -> bool:
    """Whether a call has one operand that promotion could see (so a difference is the function's own)."""
    if kind in _ONE_OPERAND:
        return True
    if kind == "ufunc":
        return sum(1 for a in args if type(a) in PY_SCALARS or isinstance(a, (np.ndarray, np.generic))) == 1
    return kind == "function" and name in _REDUCTIONS


def _outcome_text(outcome: Outcome) -> str:
    if outcome.error is not None:
        return f"raises {outcome.error}"
    return outcome.dtype or (str(outcome.value) if outcome.value is not None else "no dtype")


def _value_text(x) -> str:
    value = x.item()
    return (
        repr(
            float(value)
            if isinstance(value, np.floating)
            else complex(value)
            if isinstance(value, np.complexfloating)
            else value
        )
        if isinstance(value, np.generic)
        else int_text(value)
    )


def _operand_text(x) -> str | None:
    """An operand as a warning shows it: ``uint8 array``, ``0-d int64 array 1``, ``NumPy float64 0.1``,
    ``Python int 300``."""
    t = type(x)
    if t in PY_SCALARS:
        return f"Python {t.__name__} {int_text(x)}"
    if isinstance(x, np.ndarray):
        name = _NAMES.get(x.dtype) or x.dtype.name
        return f"0-d {name} array {_value_text(x[()])}" if x.ndim == 0 else f"{name} array"
    if isinstance(x, np.generic):
        return f"NumPy {_NAMES.get(x.dtype) or x.dtype.name} {_value_text(x)}"
    if isinstance(x, np.dtype) or (isinstance(x, type) and issubclass(x, np.generic)):
        return f"dtype {np.dtype(x).name}"
    if t in (list, tuple):
        inner = [_operand_text(i) or "..." for i in x[:3]]
        return f"[{', '.join(inner)}{', ...' if len(x) > 3 else ''}]"
    return None


def _call_text(kind: str, name: str, args: tuple, kwargs: dict) -> str:
    if kind in ("binary", "compare"):
        return f"{_operand_text(args[0])} {_SYMBOLS[name]} {_operand_text(args[1])}"
    if kind == "unary":
        return f"{_SYMBOLS[name]}{_operand_text(args[0])}"
    if kind == "inplace":
        return f"{_operand_text(args[0])} {_SYMBOLS[name]}= {_operand_text(args[1])}"
    if kind == "item":
        return f"{_operand_text(args[0])}[...] {_SYMBOLS[name]}= {_operand_text(args[2])}"
    if kind == "setitem":
        return f"{_operand_text(args[0])}[...] = {_operand_text(args[2])}"
    shown = [t for t in (_operand_text(a) for a in args) if t]
    shown += [f"{k}={t}" for k, t in ((k, _operand_text(v)) for k, v in kwargs.items()) if t]
    return f"np.{name}({', '.join(shown)})"


def _numpy_values(args: tuple, kwargs: dict) -> str | None:
    """The values of the call's Python scalars, NumPy scalars and 0-d arrays (they decide under
    value-based rules)."""
    found = []
    for x in (*args, *kwargs.values()):
        if type(x) in PY_SCALARS:
            found.append(int_text(x))
        elif isinstance(x, np.generic) or (type(x) is np.ndarray and x.ndim == 0):
            found.append(_value_text(x[()] if type(x) is np.ndarray else x))
    return ", ".join(found) or None
