"""Python ints at and beyond the 64-bit range at every entry point: the cases the golden-table
generators share (``tools/gen_numpy_golden.py``, ``gen_jax_golden.py``, ``field_golden.py``).

For every dtype of the library and every int of ``HUGE_INTS`` (at, around and far beyond the
int64/uint64 bounds, very negative ones, and past float64's range), each entry point of
``ENTRY_POINTS`` is called with ``x = ones(2, dtype)`` and the int ``v``; a record is
``{"entry", "dtype", "value", "result"}`` with the result's dtype and values, or the error's type
and first line.  ``tests/test_golden_entry_points.py`` replays them under each policy.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

# Source text of the ints (``huge_int`` reads them): "2**63" rather than 19 digits.
HUGE_INTS = [
    "1000",
    "-1",
    "2**63-1",
    "2**63",
    "2**64-1",
    "2**64",
    "2**100",
    "-2**63",
    "-2**63-1",
    "-2**100",
    "2**1023",
    "2**1024",
]
# entry point -> the call, in the array API's words (``c`` is [True, False]).
ENTRY_POINTS = {
    "operator": "x + v",
    "function": "add(x, v)",
    "result_type": "result_type(x, v)",
    "where": "where(c, x, v)",
    "clip_min": "clip(x, v, None)",
    "clip_max": "clip(x, None, v)",
    "asarray": "asarray(v, dtype=dtype)",
    "full": "full(2, v, dtype=dtype)",
}


def huge_int(text: str) -> int:
    """The int of a ``HUGE_INTS`` text: a decimal, ``2**k``, ``-2**k``, ``2**k-1`` or ``-2**k-1``."""
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("-")
    if "**" not in body:
        return sign * int(body)
    base, _, rest = body.partition("**")
    exp, minus, one = rest.partition("-")
    value = int(base) ** int(exp)
    return sign * value - (int(one) if minus else 0)


def records(
    dtypes: list[str],
    calls: dict[str, Callable[[str, int], Any] | None],
    describe: Callable[[Any], dict],
) -> list[dict]:
    """Every (entry point, dtype, int) record; ``calls[entry](dtype, v)`` runs the call (``None``: the
    library has no such entry point, not recorded) and ``describe(result)`` gives its dtype and values."""
    out = []
    for entry in ENTRY_POINTS:
        call = calls.get(entry)
        if call is None:
            continue
        for dtype in dtypes:
            for text in HUGE_INTS:
                out.append(
                    {"entry": entry, "dtype": dtype, "value": text, "result": _outcome(call, dtype, text, describe)}
                )
    return out


def _outcome(call, dtype, text, describe) -> dict:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return describe(call(dtype, huge_int(text)))
    except Exception as exc:  # noqa: BLE001 - the error is the record
        return {"error": type(exc).__name__, "message": (str(exc).strip().splitlines() or [""])[0][:160]}


def numpy_values(values) -> list:
    """A NumPy array's values for JSON: numbers (inf and nan as floats), complex as [re, im]."""
    if values.dtype.kind not in "biufc":  # ml_dtypes' bfloat16: its values as float32
        values = values.astype("float32")
    flat = values.reshape(-1)
    if values.dtype.kind == "c":
        return [[float(v.real), float(v.imag)] for v in flat]
    if values.dtype.kind == "f":
        return [float(v) for v in flat]
    return flat.tolist()
