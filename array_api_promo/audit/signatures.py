"""Call signatures: what decides a call's outcome under any policy, as a cheap hashable key; and how
a call's operands are shown in records.

Both comparisons (:mod:`.namespace`, :mod:`.numpy_compare`) cache the other policies' outcomes
per signature: the API version, the operation, the operands' kinds, dtypes and devices, and the
classes of the Python scalars' and 0-d arrays' values (for an int, where it falls among the
integer dtypes' bounds; for any number, whether float16, bfloat16, float32 and float64 hold it
exactly and where it falls among their overflow thresholds: all any policy's promotion or
conversion reads).
"""

from __future__ import annotations

import bisect
import math

import numpy as np

from .. import _dtypes as D
from .._array import Array
from .._dtypes import PY_SCALARS, DType
from ..promotion._policy import int_text

__all__ = ["call_key", "describe_call", "float_formats", "value_class", "values_text"]

_SEQUENCES = frozenset({list, tuple})
_NUMBER_TYPES = frozenset(PY_SCALARS)

# A Python number's class: what any policy's promotion or conversion of it can depend on.  For an
# int: where it falls among the integer dtypes' bounds; for every number: whether each float format
# holds it exactly and where it falls among the formats' overflow thresholds (the largest finite
# value plus half a unit in the last place: above it, the value rounds to inf).
_INT_EDGES = sorted({b for lo, hi in D.INT_BOUNDS.values() for b in (lo, hi + 1)})
_OVERFLOWS = (65520.0, 3.3961775292304797e38, 3.4028235677973366e38)  # float16, bfloat16, float32


_HUGE = 2**1024  # beyond every float format


def float_formats(v) -> tuple:
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
    return (bisect.bisect_right(_INT_EDGES, v), *float_formats(v))


def _float_class(v: float) -> tuple:
    if v != v or math.isinf(v):
        return (repr(v),)
    if v.is_integer() and abs(v) < 2**64:  # a whole number: also by its class as an int (creation)
        return ("i", _int_class(int(v)), math.copysign(1.0, v))
    return float_formats(v)


_FLOAT_CLASSES: dict = {}  # a program's floats repeat (0.5, 1e-3): their classes, up to _CACHED of them
_CACHED = 65536


def value_class(v):
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
        return (x._dtype, x._device, 0, value_class(data[()].item()))
    if t in PY_SCALARS:
        return (t, value_class(x))
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
        return ("ndarray", x.dtype.str, x.ndim, value_class(x[()].item()) if x.ndim == 0 else None)
    if isinstance(x, np.generic):
        return ("numpy", x.dtype.str, value_class(x.item()))
    if isinstance(x, np.dtype):  # a dtype argument: np.dtype('f4'), np.float32, float
        return ("dtype", x.str)
    if isinstance(x, type) and (issubclass(x, np.generic) or x in PY_SCALARS):
        return ("dtype", x.__name__)
    return None


def call_key(api_version: str, op: str, args: tuple, kwargs: dict):
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


def describe_call(args: tuple, kwargs: dict) -> str:
    parts = [d for d in (_describe(a) for a in args) if d]
    for name, value in kwargs.items():
        d = _describe(value)
        if d:
            parts.append(f"{name}={d}")
    return ", ".join(parts)


def values_text(args: tuple, kwargs: dict) -> str:
    """The values of the call's Python scalars and 0-d arrays (an example of a rule that depends on them)."""
    found = []
    for x in (*args, *kwargs.values()):
        if type(x) in PY_SCALARS:
            found.append(int_text(x))
        elif type(x) is Array and x._data.ndim == 0:
            found.append(int_text(x._data[()].item()))
    return ", ".join(found)
