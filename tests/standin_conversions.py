"""A probe of the conversions the standard leaves to the library: what array-api-strict makes of them.

``conversions(xp)`` runs the same calls on a module that is (or stands in for)
``array_api_strict`` and returns ``{call: outcome}``: the result's dtype and
values, or the built-in class of the exception.  The calls put Python and NumPy
numbers into arrays of a dtype of another kind or range (``asarray``, ``full``,
``full_like``, ``__setitem__``, nested lists): floats into integers, out-of-range
numbers, bools, complex into real, NaN and infinities.  The parity test compares
the stand-in's answers with the real array-api-strict's (under ``array_api``
they must be the same but for the documented differences); run this file to print
where they differ.
"""

from __future__ import annotations

import math

import numpy as np
import standin_probe  # next to this file: on sys.path as tests/ is

# Values a consumer may write, by label; each is tried into every dtype below.
VALUES = {
    "2.1": 2.1,
    "-2.7": -2.7,
    "2.0": 2.0,
    "1e20": 1e20,
    "-1.0": -1.0,
    "300.0": 300.0,
    "nan": math.nan,
    "inf": math.inf,
    "300": 300,
    "-1": -1,
    "2**63": 2**63,
    "2**64": 2**64,
    "True": True,
    "1+0j": 1 + 0j,
    "1.5+2j": 1.5 + 2j,
    "1e300": 1e300,
    "np.float64(2.5)": np.float64(2.5),
    "np.float32(2.5)": np.float32(2.5),
    "np.int64(300)": np.int64(300),
    "np.bool_(True)": np.bool_(True),
    "np.complex128(1+1j)": np.complex128(1 + 1j),
}
DTYPES = ("bool", "int8", "uint8", "int64", "uint64", "float32", "float64", "complex64")


def _dtype_and_values(value) -> str:
    dtype = str(value.dtype).rsplit(".", 1)[-1]
    return f"{dtype} {np.asarray(value).tolist()!r}"


def _outcome(call) -> str:
    """The result's dtype and values, or the built-in class of what it raises."""
    return standin_probe._outcome(call, _dtype_and_values)


def conversions(xp) -> dict[str, str]:
    xp.reset_array_api_strict_flags()
    seen: dict[str, str] = {}
    for dname in DTYPES:
        dtype = getattr(xp, dname)
        for label, value in VALUES.items():
            seen[f"asarray({label}, dtype={dname})"] = _outcome(lambda: xp.asarray(value, dtype=dtype))
            seen[f"asarray([{label}, 1], dtype={dname})"] = _outcome(lambda: xp.asarray([value, 1], dtype=dtype))
            seen[f"full(2, {label}, dtype={dname})"] = _outcome(lambda: xp.full(2, value, dtype=dtype))

            def setitem():
                x = xp.zeros(2, dtype=dtype)
                x[0] = value
                return x

            seen[f"{dname} x[0] = {label}"] = _outcome(setitem)
    # Nested lists and mixed kinds without a dtype.
    for label, value in {
        "[1, 2.5]": [1, 2.5],
        "[[1, 2], [3.5, 4]]": [[1, 2], [3.5, 4]],
        "[True, 2]": [True, 2],
        "[1, 2j]": [1, 2j],
        "[2**63]": [2**63],
        "[-1, 2**63]": [-1, 2**63],
        "[np.float32(1), 2]": [np.float32(1), 2],
        "[np.int8(1), 2]": [np.int8(1), 2],
        "[[1], [2, 3]]": [[1], [2, 3]],
        "np.float32(1.5)": np.float32(1.5),
        "np.int8(3)": np.int8(3),
    }.items():
        seen[f"asarray({label})"] = _outcome(lambda: xp.asarray(value))
    xp.reset_array_api_strict_flags()
    return seen


if __name__ == "__main__":  # python tests/standin_conversions.py: where the stand-in differs
    standin_probe.side_by_side(conversions, __file__, every_row=False)
