"""The audit: a namespace that computes as one policy's and records every call another would change.

``audit(policy, against=[...])`` is a namespace whose runtime is an ordinary
runtime of ``policy`` (the same code, the same results) with one layer on top:
each call the user makes (a function of the namespace, an operator, ``x[k] = v``)
also runs in the namespaces of the ``against`` policies, on the same operands,
and the outcomes are compared.  An outcome is what a policy decides: the result
dtype(s), or the refusal (its exception type), and for a Python scalar operand
whether its value is kept, rounded, wrapped, overflowed or refused.  A call whose
outcomes differ is recorded at the user's line (the first frame outside this
package), deduplicated by (file, line, operation, operands), with a count, and
raises :class:`PromotionDifferenceWarning` once per record.

Each call is compared on its own: the against namespaces see the operands the
program holds under ``policy`` (an array of a dtype the other policy lacks enters
it as that policy's ``asarray`` makes NumPy data of that dtype).  Outcomes are
cached per call signature (operation, operand kinds and dtypes, classes of the
Python scalars' and 0-d arrays' values), so a signature runs in the other
namespaces once; after that a call costs its own work, the signature and one
lookup.  Calls made by the namespace's own functions (``mean`` calling ``sum``)
are not the user's and are not compared.  The ordinary namespaces are untouched:
everything here lives in a runtime subclass.
"""

from __future__ import annotations

import atexit
import bisect
import json
import math
import os
import sys
import threading
import types
import warnings
from typing import NamedTuple

import numpy as np

from . import _dtypes as D
from ._array import OPERATORS, Array
from ._dtypes import PY_SCALARS, DType
from ._namespace import API_VERSIONS, DEFAULT_API_VERSION, PUBLIC_METHODS, Runtime, namespace, populate
from .promotion import OPS, get_policy
from .promotion._policy import PromotionDifferenceWarning, int_text

__all__ = ["Audit", "Outcome", "Record", "audit", "PromotionDifferenceWarning", "audited_runtime_class"]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
# The refusals a policy makes (PromotionError is a TypeError; a dtype a policy lacks, a ValueError;
# a Python scalar out of range, an OverflowError).  Any other exception (a stand-in flag's
# RuntimeError, a MemoryError) is not a policy's outcome: the call is not compared.
_REFUSALS = (TypeError, ValueError, OverflowError, IndexError, ZeroDivisionError)
_DUNDERS = {(name, form): dunder for dunder, (name, form) in OPERATORS.items()}
# The calls that write into their first argument (the other policies run on a copy of it).
_WRITES = frozenset([d for d, (_, form) in OPERATORS.items() if form == "inplace"] + ["__setitem__"])
# Creation functions: a Python scalar argument becomes a value of the result's dtype (create_scalar).
_CREATED = ("asarray", "full", "full_like")
_OPERANDS = frozenset({Array, *PY_SCALARS})
_SEQUENCES = frozenset({list, tuple})
_NUMBER_TYPES = frozenset(PY_SCALARS)  # what an elementwise function's two operands may be
_ENV_DIR = "ARRAY_API_PROMO_AUDIT_DIR"


class _NotCompared(Exception):
    """Another policy's run failed other than by refusing (a warning made an error, no memory)."""


class _State(threading.local):
    depth = 0  # > 0 while the namespace runs a call: calls it makes itself are not the user's


_state = _State()


# -- outcomes ----------------------------------------------------------------------------------
class Outcome(NamedTuple):
    """What one policy makes of one call."""

    dtype: str | None  # the result's dtype (several joined by ", "), None for no array result or a refusal
    error: str | None  # the exception type of a refusal
    conversion: str | None = None  # per Python scalar operand: kept, rounded, wrapped, overflowed, refused
    value: bool | None = None  # a bool result (can_cast)

    def text(self) -> str:
        if self.error is not None:
            return f"raises {self.error}"  # (a refusal of a scalar's value is this too)
        parts = [self.dtype if self.dtype is not None else ("" if self.value is None else str(self.value))]
        if self.conversion:
            parts.append(f"(scalar {self.conversion})")
        return " ".join(p for p in parts if p) or "no dtype"

    def as_json(self) -> dict:
        out: dict = {"dtype": self.dtype, "error": self.error}
        if self.conversion is not None:
            out["conversion"] = self.conversion
        if self.value is not None:
            out["value"] = self.value
        return out

    @classmethod
    def from_json(cls, data: dict) -> Outcome:
        return cls(data.get("dtype"), data.get("error"), data.get("conversion"), data.get("value"))

    def severity(self, other: Outcome) -> int:
        """3: one refuses what the other computes; 2: dtypes differ; 1: only a scalar's conversion."""
        if (self.error is None) != (other.error is None):
            return 3
        if self.dtype != other.dtype or self.value != other.value or self.error != other.error:
            return 2
        return 1


def _dtype_text(result) -> str | None:
    if type(result) is Array:
        return result._dtype.name
    if type(result) is DType:
        return result.name
    if isinstance(result, (tuple, list)):
        names = [_dtype_text(r) for r in result]
        return ", ".join(n for n in names if n) or None
    dtype = getattr(result, "dtype", None)  # finfo/iinfo objects
    return dtype.name if type(dtype) is DType else None


def _classify_conversion(made, value, dtype: DType) -> str:
    """What became of the Python scalar ``value`` made a ``dtype`` value ``made``."""
    if type(made) is np.ndarray:
        made = made[()]
    got = made.item() if isinstance(made, np.generic) else made
    if type(value) is complex or type(got) is complex:
        pairs = [(complex(got).real, complex(value).real), (complex(got).imag, complex(value).imag)]
    else:
        pairs = [(got, value)]
    for g, v in pairs:
        if g == v or (g != g and v != v):
            continue
        if isinstance(g, float) and math.isinf(g) and not (isinstance(v, float) and math.isinf(v)):
            return "overflowed"
        if dtype.category == D.CATEGORY_INTEGER and type(v) is int:
            return "saturated" if g in D.INT_BOUNDS[dtype] else "wrapped"
        return "rounded"
    return "kept"


def _scalar_targets(runtime, op: str, name: str, args: tuple, kwargs: dict, result) -> list:
    """``(value, convert)`` for each Python scalar argument: the policy's rule that makes it a value
    (``convert(value)`` -> ``(made, dtype)``), as the namespace's functions apply it."""
    policy = runtime.policy
    scalars = [a for a in args if type(a) in PY_SCALARS]
    if name in _CREATED:  # asarray(obj), full(shape, fill_value), full_like(x, fill_value)
        given = args[0] if name == "asarray" and args else args[1] if len(args) > 1 else kwargs.get("fill_value")
        scalars = [given] if type(given) in PY_SCALARS else []
        target = getattr(result, "_dtype", None)
        return [(v, lambda v: (policy.create_scalar(v, target, name), target)) for v in scalars if target]
    if op == "__setitem__":  # x[key] = value: the value (a key's ints are positions)
        target = args[0]._dtype
        value = args[2]
        return [(value, lambda v: (policy.convert_scalar(v, target, op), target))] if type(value) in PY_SCALARS else []
    if name == "clip":
        bounds = {
            "min": args[1] if len(args) > 1 else kwargs.get("min"),
            "max": args[2] if len(args) > 2 else kwargs.get("max"),
        }
        _, _, decision = runtime._clip_decision(args[0], bounds["min"], bounds["max"])
        target = decision.compute
        return [
            (v, lambda v, b=b: (policy.convert_bound(v, target, b), target))
            for b, v in bounds.items()
            if type(v) in PY_SCALARS
        ]
    if name == "where":
        target = getattr(result, "_dtype", None)
        return [(v, lambda v: (policy.convert_scalar(v, target, name), target)) for v in scalars if target]
    if name in OPS and name != "result_type" and len(args) == 2 and scalars and all(type(a) in _OPERANDS for a in args):
        decision = policy.decide(OPS[name], tuple(runtime._operand(a) for a in args))
        target = decision.scalar or decision.compute
        return [(v, lambda v: (policy.convert_scalar(v, target, name), target)) for v in scalars]
    return []


def _conversions(runtime, op: str, name: str, args: tuple, kwargs: dict, result) -> str | None:
    """How each Python scalar argument of the call becomes a value under ``runtime``'s policy."""
    targets = _scalar_targets(runtime, op, name, args, kwargs, result)
    if not targets:
        return None
    words = []
    for value, convert in targets:
        try:
            made, dtype = convert(value)
            words.append(_classify_conversion(made, value, dtype))
        except _REFUSALS:
            words.append("refused")
    return ", ".join(words)


def _differ(mine: Outcome, other: Outcome) -> bool:
    """Whether two outcomes differ for the user: a call refused under both fails under both, whatever
    each's exception (one checks shapes first, the other dtypes), and is no difference."""
    return mine != other and not (mine.error is not None and other.error is not None)


def _error_name(error: BaseException) -> str:
    """The built-in exception class a refusal is (PromotionError is a TypeError): what callers catch."""
    for cls in type(error).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return type(error).__name__


def _outcome(runtime, op: str, name: str, args: tuple, kwargs: dict, result, error) -> Outcome:
    if error is not None:
        return Outcome(None, _error_name(error))
    try:
        conversion = _conversions(runtime, op, name, args, kwargs, result)
    except _REFUSALS:  # the policy computed it: its conversion rule agrees it may
        conversion = None
    value = result if type(result) is bool else None
    return Outcome(_dtype_text(result), None, conversion, value)


# -- signatures: what decides an outcome, cheaply ----------------------------------------------
# A Python number's class: what any policy's promotion or conversion of it can depend on.  For an
# int: where it falls among the integer dtypes' bounds; for every number: whether each float format
# holds it exactly and where it falls among the formats' overflow thresholds (the largest finite
# value plus half a unit in the last place: above it, the value rounds to inf).
_INT_EDGES = sorted({b for lo, hi in D.INT_BOUNDS.values() for b in (lo, hi + 1)})
_OVERFLOWS = (65520.0, 3.3961775292304797e38, 3.4028235677973366e38)  # float16, bfloat16, float32


_HUGE = 2**1024  # beyond every float format


def _float_formats(v) -> tuple:
    """Whether float16, bfloat16, float32 and float64 hold ``v`` (an int or a finite float) exactly,
    and its size class among the formats' overflow thresholds.  A format holds a number when its
    binary digits fit the format's significant bits (11, 8, 24, 53), its lowest set bit is no finer
    than the format's smallest subnormal (2**-24, 2**-133, 2**-149, 2**-1074) and it is no larger
    than the format's largest value: integer arithmetic, no conversions."""
    size = abs(v)
    if size >= _HUGE:
        return (False, False, False, False, -1, v < 0)
    n, d = size.as_integer_ratio()
    if n == 0:
        return (True, True, True, True, 0, False)
    low = (n & -n).bit_length() - 1  # trailing zero bits of the numerator
    digits = (n >> low).bit_length()
    lowest = low - d.bit_length() + 1  # the exponent of the lowest set bit (d is a power of 2)
    return (
        digits <= 11 and lowest >= -24 and size <= 65504.0,
        digits <= 8 and lowest >= -133 and size <= 3.3895313892515355e38,
        digits <= 24 and lowest >= -149 and size <= 3.4028234663852886e38,
        digits <= 53 and lowest >= -1074,
        bisect.bisect_left(_OVERFLOWS, size),
        v < 0,
    )


def _int_class(v: int) -> tuple:
    if -2048 <= v <= 2048:
        return (v,)  # small ints: the value itself (0, 1 and -1 matter; every format holds them)
    return (bisect.bisect_right(_INT_EDGES, v), *_float_formats(v))


def _float_class(v: float) -> tuple:
    if v != v or math.isinf(v):
        return (repr(v),)
    if v.is_integer() and abs(v) < 2**64:  # a whole number: also by its class as an int (creation)
        return ("i", _int_class(int(v)), math.copysign(1.0, v))
    return _float_formats(v)


_FLOAT_CLASSES: dict = {}  # a program's floats repeat (0.5, 1e-3): their classes, up to _CACHED of them
_CACHED = 65536


def _value_class(v):
    t = type(v)
    if t is bool:
        return v
    if t is int:
        return _int_class(v)
    if t is float:
        key = v if v else ("zero", math.copysign(1.0, v))  # (-0.0 == 0.0: a zero by its sign)
        found = _FLOAT_CLASSES.get(key) if v == v else None
        if found is None:
            found = _float_class(v)
            if v == v and len(_FLOAT_CLASSES) < _CACHED:
                _FLOAT_CLASSES[key] = found
        return found
    if t is complex:
        return (_float_class(v.real), _float_class(v.imag))
    return None


_LONG = 16  # a longer sequence is keyed by the set of its items' keys


def _numbers_key(x):
    """A nested sequence of Python numbers (``asarray([[1, 2.5], [3, 4]])``) by what decides its
    outcome: the nesting depths, the types of its numbers and the classes of its extremes (the least
    and greatest int, the largest float in size and any NaN or infinity), one pass in C-speed builtins
    rather than a class per number.  None if it holds anything else (arrays: keyed item by item)."""
    types, ints, floats, depths = set(), [], [], set()
    stack = [(x, 1)]
    while stack:
        seq, depth = stack.pop()
        kinds = set(map(type, seq))
        if kinds & _SEQUENCES:
            if kinds - _SEQUENCES:
                return None  # ragged: a number beside a sequence
            stack.extend((item, depth + 1) for item in seq)
            continue
        if not kinds <= _NUMBER_TYPES:
            return None
        depths.add(depth)
        types |= kinds
        if int in kinds:
            ints.extend(i for i in seq if type(i) is int)
        if float in kinds or complex in kinds:
            floats.extend(f.real for f in seq if type(f) is not int and type(f) is not bool)
            floats.extend(f.imag for f in seq if type(f) is complex)
    key: list = [frozenset(depths), frozenset(types)]
    if ints:
        key += [_int_class(min(ints)), _int_class(max(ints))]
    if floats:
        numbers = [f for f in floats if f == f]  # (NaN compares false: a flag of its own)
        sizes = [abs(f) for f in numbers]
        key += [
            _float_class(max(sizes)) if sizes else None,
            _float_class(min(numbers)) if numbers else None,
            len(numbers) < len(floats),
            all(f.is_integer() for f in numbers),  # a fraction is refused by an integer dtype
        ]
    return tuple(key)


def _key(x):
    """The part of a call's signature ``x`` makes (None: not cacheable, the call is compared each time)."""
    t = type(x)
    if t is Array:
        data = x._data
        if data.ndim:
            return (x._dtype, x._device)
        return (x._dtype, x._device, 0, _value_class(data[()].item()))
    if t in PY_SCALARS:
        return (t, _value_class(x))
    if x is None or t is DType or t is str or t is slice or x is Ellipsis or t.__name__ == "Device":
        return x if t is not slice else ("slice", _key(x.start), _key(x.stop), _key(x.step))
    if t is tuple or t is list:
        numbers = _numbers_key(x)
        if numbers is not None:
            return (t.__name__, numbers)
        if len(x) > _LONG:
            keys = frozenset(_key(i) for i in x)
            return None if None in keys else (t.__name__, keys)
        keys = tuple(_key(i) for i in x)
        return None if None in keys else (t.__name__, keys)
    if isinstance(x, np.ndarray):
        return ("ndarray", x.dtype.str, x.ndim, _value_class(x[()].item()) if x.ndim == 0 else None)
    if isinstance(x, np.generic):
        return ("numpy", x.dtype.str, _value_class(x.item()))
    return None


def _call_key(api_version: str, op: str, args: tuple, kwargs: dict):
    keys: list = [api_version, op]
    for a in args:
        k = _key(a)
        if k is None:
            return None
        keys.append(k)
    for name in sorted(kwargs):
        k = _key(kwargs[name])
        if k is None:
            return None
        keys.append((name, k))
    return tuple(keys)


def _describe(x) -> str | None:
    """An argument as the report shows it (None for one that decides no dtype: an axis, a shape)."""
    t = type(x)
    if t is Array:
        return f"{'0-d ' if x._data.ndim == 0 else ''}{x._dtype.name} array"
    if t in PY_SCALARS:
        return f"Python {t.__name__}"
    if t is DType:
        return x.name
    if t in (list, tuple):
        inner = [d for d in (_describe(i) for i in x[:4]) if d]
        if not inner:
            return None
        more = ", ..." if len(x) > 4 else ""
        return f"[{', '.join(inner)}{more}]"
    if isinstance(x, np.ndarray):
        return f"NumPy {'0-d ' if x.ndim == 0 else ''}{x.dtype} array"
    if isinstance(x, np.generic):
        return f"NumPy {type(x).__name__}"
    if isinstance(x, np.dtype) or (isinstance(x, type) and issubclass(x, np.generic)):
        return f"NumPy dtype {np.dtype(x).name}"
    return None


def _describe_call(args: tuple, kwargs: dict) -> str:
    parts = [d for d in (_describe(a) for a in args) if d]
    for name, value in kwargs.items():
        d = _describe(value)
        if d:
            parts.append(f"{name}={d}")
    return ", ".join(parts)


def _values(args: tuple, kwargs: dict) -> str:
    """The values of the call's Python scalars and 0-d arrays (an example of a rule that depends on them)."""
    found = []
    for x in (*args, *kwargs.values()):
        if type(x) in PY_SCALARS:
            found.append(int_text(x))
        elif type(x) is Array and x._data.ndim == 0:
            found.append(int_text(x._data[()].item()))
    return ", ".join(found)


# -- records -----------------------------------------------------------------------------------
class Record:
    """One site of the user's code where a call's outcome differs, with how often it ran."""

    __slots__ = ("file", "line", "function", "op", "operands", "count", "policy_outcome", "against", "values")

    def __init__(self, file, line, function, op, operands, count, policy_outcome, against, values=None):
        self.file, self.line, self.function, self.op = file, line, function, op
        self.operands, self.count = operands, count
        # The scalar and 0-d values of the first call, where they decide (a value-dependent policy, or a
        # value not kept): an example of the values the record's calls had.
        self.values: str | None = values
        self.policy_outcome: Outcome = policy_outcome
        self.against: dict[str, Outcome] = against

    @property
    def key(self) -> tuple:
        """What a record is unique by: its site, call and outcomes."""
        return (self.file, self.line, self.op, self.operands, self.policy_outcome, tuple(self.against.items()))

    @property
    def severity(self) -> int:
        return max(self.policy_outcome.severity(o) for o in self.against.values() if _differ(self.policy_outcome, o))

    def as_json(self) -> dict:
        return {
            "file": self.file,
            "line": self.line,
            "function": self.function,
            "op": self.op,
            "operands": self.operands,
            "count": self.count,
            "policy_outcome": self.policy_outcome.as_json(),
            "against": {name: o.as_json() for name, o in self.against.items()},
            **({"values": self.values} if self.values is not None else {}),
        }

    @classmethod
    def from_json(cls, data: dict) -> Record:
        return cls(
            data["file"],
            data["line"],
            data["function"],
            data["op"],
            data["operands"],
            data["count"],
            Outcome.from_json(data["policy_outcome"]),
            {name: Outcome.from_json(o) for name, o in data["against"].items()},
            data.get("values"),
        )

    def __repr__(self) -> str:
        against = "; ".join(f"{n}: {o.text()}" for n, o in self.against.items())
        values = f" [{self.values}]" if self.values else ""
        return (
            f"<{self.file}:{self.line} {self.op}({self.operands}){values} x{self.count}: "
            f"{self.policy_outcome.text()} vs {against}>"
        )


def _sorted(records) -> list[Record]:
    """Worst first: refusals, then dtype changes, then conversions; the most frequent first within."""
    return sorted(records, key=lambda r: (-r.severity, -r.count, r.file, r.line, r.op))


# The functions the NumPy audit compiles into the user's modules, one per operation site: at the
# user's line, but not the user's function.
SITE_PREFIX = "_array_api_promo_"


def _user_frame():
    """The first frame outside this package and its per-site functions (the user's call)."""
    frame = sys._getframe(2)
    while frame is not None and (
        frame.f_code.co_filename.startswith(_PACKAGE_DIR) or frame.f_code.co_name.startswith(SITE_PREFIX)
    ):
        frame = frame.f_back
    return frame


class Audit:
    """The comparison state of an audited namespace: its policies, cached outcomes and records."""

    warns = True  # a PromotionDifferenceWarning per new record (the NumPy audit keeps the output the program's)

    def __init__(self, policy, against, api_version: str):
        self.policy = policy
        self.against = tuple(against)
        self.api_version = api_version
        self.value_dependent = policy.value_dependent or any(p.value_dependent for p in self.against)
        self._outcomes: dict = {}
        self._records: dict = {}
        self._lock = threading.Lock()
        _AUDITS.append(self)

    def __repr__(self) -> str:
        names = ", ".join(p.name for p in self.against)
        return f"<array_api_promo audit: policy {self.policy.name!r} against {names}; {len(self._records)} sites>"

    @property
    def records(self) -> list[Record]:
        """The sites recorded so far, worst first."""
        with self._lock:
            return _sorted(self._records.values())

    def clear(self) -> None:
        with self._lock:
            self._records.clear()

    def as_json(self) -> dict:
        return {
            "policy": self.policy.name,
            "against": [p.name for p in self.against],
            "records": [r.as_json() for r in self.records],
        }

    # -- one call ------------------------------------------------------------------------------
    def call(self, runtime, op: str, name: str, run, run_against, args: tuple, kwargs: dict):
        """``run(*args, **kwargs)``, compared with ``run_against(other runtime, *args, **kwargs)``."""
        writes = op in _WRITES
        # The signature before the call: an in-place operator or x[k] = v changes its target.
        key = _call_key(runtime.api_version, op, args, kwargs)
        outcomes = self._outcomes.get(key) if key is not None else None
        before = None
        if writes and (outcomes is None or self.value_dependent):
            target = args[0]
            before = (Array._new(target._data.copy(), target._dtype, runtime, target._device), _values(args, kwargs))
            before[0]._data.flags.writeable = target._data.flags.writeable
        _state.depth += 1
        try:
            result = run(*args, **kwargs)
            error = None
        except _REFUSALS as exc:
            result, error = None, exc
        finally:
            _state.depth -= 1
        if result is NotImplemented:  # an operator handing over to Python (a foreign operand)
            return result
        compared = args if before is None else (before[0], *args[1:])
        if outcomes is None:
            mine = _outcome(runtime, op, name, compared, kwargs, result, error)
            try:
                theirs = self._against(runtime, op, name, run_against, compared, kwargs)
            except _NotCompared:
                theirs = None
            if theirs is not None:
                outcomes = (mine, theirs)
                # Cached only when the call computed: a refusal may come from what the signature
                # leaves out (shapes that do not broadcast), so a refused call is compared each time.
                if key is not None and error is None:
                    self._outcomes[key] = outcomes
        if outcomes is not None and any(_differ(outcomes[0], o) for o in outcomes[1]):
            mine, theirs = outcomes
            try:
                self._record(op, args, kwargs, mine, theirs, before[1] if before is not None else None)
            except Warning:  # -W error: the warning is the error, unless the call itself was refused
                if error is None:
                    raise
        if error is not None:
            raise error
        return result

    def _against(self, runtime, op, name, run_against, args, kwargs) -> tuple:
        # The other policies' runs are silent (np.errstate: per thread, unlike the warning filters):
        # their NumPy warnings (an overflow in another dtype) are not the program's.
        with np.errstate(all="ignore"):
            return tuple(self._run_against(runtime, op, name, run_against, args, kwargs))

    def _run_against(self, runtime, op, name, run_against, args, kwargs):
        writes = op in _WRITES
        for policy in self.against:
            other = namespace(policy, runtime.api_version)._runtime
            try:
                moved_args = tuple(_move(a, other) for a in args)
                moved_kwargs = {k: _move(v, other) for k, v in kwargs.items()}
                if writes:  # the target is written: a copy of it, read-only if it is
                    target = moved_args[0]
                    copy = target._data.copy()
                    copy.flags.writeable = args[0]._data.flags.writeable
                    moved_args = (Array._new(copy, target._dtype, other, target._device), *moved_args[1:])
                result = run_against(other, *moved_args, **moved_kwargs)
                yield _outcome(other, op, name, moved_args, moved_kwargs, result, None)
            except _REFUSALS as exc:
                yield _outcome(other, op, name, args, kwargs, None, exc)
            except Exception:  # a warning made an error by the program's filters, a MemoryError: not an outcome
                raise _NotCompared from None

    def _record(self, op, args, kwargs, mine: Outcome, theirs: tuple, values: str | None = None) -> None:
        frame = _user_frame()
        if frame is None:
            return
        # A scalar's value is shown where it decides: a value-dependent policy, or a value not kept.
        changed = any(c not in (None, "kept") for o in (mine, *theirs) for c in (o.conversion or "").split(", ") if c)
        shown = self.value_dependent or changed or mine.error == "OverflowError"
        operands = _describe_call(args, kwargs)
        code = frame.f_code
        key = (code.co_filename, frame.f_lineno, op, operands, mine, theirs)
        with self._lock:
            record = self._records.get(key)
            if record is not None:
                record.count += 1
                return
            against = {p.name: o for p, o in zip(self.against, theirs)}
            if not shown:
                values = None
            elif values is None:
                values = _values(args, kwargs)
            record = Record(
                code.co_filename,
                frame.f_lineno,
                getattr(code, "co_qualname", code.co_name),
                op,
                operands,
                1,
                mine,
                against,
                values,
            )
            self._records[key] = record
        if not self.warns:
            return
        differing = "; ".join(f"under {n!r} {o.text()}" for n, o in against.items() if _differ(mine, o))
        example = f" (values {record.values})" if record.values else ""
        message = f"{op}({operands}){example}: under policy {self.policy.name!r} {mine.text()}, but {differing}"
        # warnings.warn's own path (filters, registry, -W error) with the user's frame as the caller
        level, caller = 1, sys._getframe(0)  # type: tuple[int, types.FrameType | None]
        while caller is not None and caller is not frame:
            caller, level = caller.f_back, level + 1
        warnings.warn(message, PromotionDifferenceWarning, stacklevel=level)


def _move(x, runtime):
    """``x`` as an operand of ``runtime``'s namespace: our arrays by their data, containers item by item."""
    t = type(x)
    if t is Array:
        if x._dtype in runtime._dtype_set:
            return Array._new(x._data, x._dtype, runtime, x._device)
        return runtime.asarray(x._data)  # a dtype it lacks: as its asarray takes such NumPy data
    if t is list or t is tuple:
        return t(_move(i, runtime) for i in x)
    return x


_AUDITS: list[Audit] = []


# -- the runtime -------------------------------------------------------------------------------
class _NeverFast(dict):
    """An audited runtime's fast table: always empty, so every operator takes the runtime's path
    (which is audited); the compiled paths hand a non-exact dict to the Python code."""

    def __setitem__(self, key, value):
        pass

    def get(self, key, default=None):
        return default


def _public_name(name: str) -> str:
    prefix, _, rest = name.partition("_")
    return f"{prefix}.{rest}" if prefix in ("linalg", "fft") and rest else name


def _audited_method(name: str, original):
    op = _public_name(name)

    def method(self, *args, **kwargs):
        bound = original.__get__(self, type(self))
        if _state.depth:  # the namespace calling itself
            return bound(*args, **kwargs)
        return self.audit.call(self, op, name, bound, _run_function(name), args, kwargs)

    method.__name__ = name
    method.__qualname__ = f"Audited.{name}"
    method.__doc__ = getattr(original, "__doc__", None)
    method.__wrapped__ = original  # inspect.signature shows the function's own
    return method


def _run_function(name: str):
    def run(runtime, *args, **kwargs):
        return getattr(runtime, name)(*args, **kwargs)

    return run


class _AuditedRuntime:
    """The audit layer of a runtime class (combined with it by :func:`audited_runtime_class`)."""

    audit: Audit

    def _audit_init(self, audit: Audit) -> None:
        self.audit = audit
        self._fast = _NeverFast()
        self._setitem_converters = _NeverFast()  # x[i] = value goes through the audited _setitem

    def _apply2(self, name, x1, x2, operator):
        apply2 = super()._apply2  # type: ignore[misc]
        if not operator or _state.depth:
            return apply2(name, x1, x2, operator)
        form = "binary" if type(x1) is Array and x1._runtime.policy is self.policy else "reflected"
        op = _DUNDERS.get((name, form), name)

        def against(runtime, a, b):
            return runtime._apply2(name, a, b, True)

        return self.audit.call(self, op, name, lambda a, b: apply2(name, a, b, True), against, (x1, x2), {})

    def _apply1(self, name, x):
        apply1 = super()._apply1  # type: ignore[misc]
        if _state.depth:
            return apply1(name, x)
        op = _DUNDERS.get((name, "unary"), name)
        return self.audit.call(self, op, name, lambda a: apply1(name, a), lambda r, a: r._apply1(name, a), (x,), {})

    def _inplace(self, name, x1, x2):
        inplace = super()._inplace  # type: ignore[misc]
        if _state.depth:
            return inplace(name, x1, x2)
        op = _DUNDERS.get((name, "inplace"), name)

        def against(runtime, a, b):
            return runtime._inplace(name, a, b)

        return self.audit.call(self, op, name, lambda a, b: inplace(name, a, b), against, (x1, x2), {})

    def _setitem(self, x, key, value):
        setitem = super()._setitem  # type: ignore[misc]
        if _state.depth:
            return setitem(x, key, value)

        def against(runtime, a, k, v):
            return runtime._setitem(a, k, v)

        def run(a, k, v):
            setitem(a, k, v)
            return a  # the outcome is x's dtype (None would read as "no dtype")

        self.audit.call(self, "__setitem__", "__setitem__", run, _returning_target(against), (x, key, value), {})


def _returning_target(function):
    def run(runtime, a, *rest):
        function(runtime, a, *rest)
        return a

    return run


_CLASSES: dict = {}


def audited_runtime_class(base: type) -> type:
    """``base`` (a runtime class) with the audit layer: every public function compared."""
    cls = _CLASSES.get(base)
    if cls is None:
        namespace_dict = {
            name: _audited_method(name, getattr(base, name)) for name in PUBLIC_METHODS if hasattr(base, name)
        }
        cls = _CLASSES[base] = type(f"Audited{base.__name__}", (_AuditedRuntime, base), namespace_dict)
    return cls


class AuditRuntime(audited_runtime_class(Runtime)):  # type: ignore[misc]
    """The runtime of an ``audit(...)`` namespace."""

    def __init__(self, policy, api_version: str, audit: Audit):
        super().__init__(policy, api_version)
        self._audit_init(audit)

    def namespace_at(self, api_version: str):
        super().namespace_at(api_version)  # the same checks and words
        return audit(self.policy, [p for p in self.audit.against], api_version)

    def reduce_array(self, x) -> tuple:
        """A copy (``copy.deepcopy``, pickle) stays an array of the audited namespace."""
        against = [p.name for p in self.audit.against]
        return (_unpickle_audited, (x._data, self.policy.name, against, self.api_version, x._device))


def _unpickle_audited(data, policy_name, against, api_version, device):
    runtime = audit(policy_name, against, api_version)._runtime
    return Array._new(data, D.dtype_of_numpy(data.dtype), runtime, device)


def make_standin_module():
    """The stand-in module under the audit's runner: ``$ARRAY_API_PROMO_POLICY`` audited against
    ``$ARRAY_API_PROMO_AUDIT_AGAINST`` (comma-separated), each version's runtime, one record set."""
    from .from_env import policy_from_spec
    from .standin import StandinRuntime, make_module

    policy = policy_from_spec(os.environ.get("ARRAY_API_PROMO_POLICY", "array_api"))
    against = [policy_from_spec(a) for a in os.environ["ARRAY_API_PROMO_AUDIT_AGAINST"].split(",") if a]
    main, others = _policies(policy, against)
    state = Audit(main, others, DEFAULT_API_VERSION)
    cls = audited_runtime_class(StandinRuntime)

    def make(policy, api_version, standin):
        runtime = cls(policy, api_version, standin)
        runtime._audit_init(state)
        return runtime

    module = make_module(main, make_runtime=make)
    module.__audit__ = state
    return module


# -- the public function -----------------------------------------------------------------------
_MODULES: dict = {}
_STATES: dict = {}
_MAKING = threading.Lock()


def _policies(policy, against) -> tuple:
    main = get_policy(policy)
    if isinstance(against, (str,)) or not hasattr(against, "__iter__"):
        against = [against]
    others = tuple(get_policy(p) for p in against)
    if not others:
        raise ValueError("audit: against must name at least one policy to compare with")
    for p in others:
        if p is main:
            raise ValueError(f"audit: policy {main.name!r} cannot be audited against itself")
    if len({p.name for p in others}) != len(others):
        raise ValueError(f"audit: against names a policy twice ({', '.join(p.name for p in others)})")
    return main, others


def audit(policy="array_api", against=("torch",), api_version: str | None = None) -> types.ModuleType:
    """A namespace that computes exactly as ``namespace(policy, api_version)`` and records (and warns
    about) every call of the user's whose outcome any policy of ``against`` would change.

    The records are the module's ``__audit__`` (an :class:`Audit`: ``records``, ``clear()``,
    ``as_json()``).  The same arguments give the same module.
    """
    try:
        main, others = _policies(policy, against)
    except (TypeError, ValueError) as exc:
        raise type(exc)(exc if str(exc).startswith("audit:") else f"audit: {exc}") from None
    version = DEFAULT_API_VERSION if api_version is None else api_version
    if type(version) is not str or version not in API_VERSIONS:
        raise ValueError(f"audit: unsupported api_version {version!r}; supported: {', '.join(API_VERSIONS)}")
    key = (main, others, version)
    with _MAKING:
        module = _MODULES.get(key)
        if module is None:
            state = _STATES.get((main, others))  # one record set for every version of the pair
            if state is None:
                state = _STATES[(main, others)] = Audit(main, others, version)
            names = ",".join(p.name for p in others)
            module = types.ModuleType(
                f"array_api_promo.audit[{main.name} vs {names},{version}]",
                f"Array API namespace of policy {main.name!r} at {version}, audited against {names}.",
            )
            populate(module, AuditRuntime(main, version, state))
            module.__audit__ = state
            _MODULES[key] = module
    return module


# -- records across processes (the runner) ---------------------------------------------------------
def _write_records() -> None:
    """At exit, under the runner: this process's records into the runner's folder."""
    folder = os.environ.get(_ENV_DIR)
    if not folder or not _AUDITS:
        return
    reports = [a.as_json() for a in _AUDITS if a._records]
    if not reports:
        return
    path = os.path.join(folder, f"records-{os.getpid()}-{threading.get_ident()}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(reports, f)


atexit.register(_write_records)
