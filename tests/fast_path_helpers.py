"""What the fast-path tests share: a namespace whose caches start empty, and a call's whole outcome."""

from __future__ import annotations

import math
import warnings

import numpy as np

from array_api_promo import namespace, promotion


def fresh_namespace(base, version="2025.12"):
    """A namespace of a new user policy like ``base`` (and named alike): its caches start empty."""

    class Fresh(type(promotion.get_policy(base))):
        name = f"fresh_{base}"

    return namespace(Fresh(), version)


def outcome(call, describe):
    """What a call gives, ``describe(result)`` or its error (class and message), with its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = call()
        except Exception as exc:  # noqa: BLE001 - the error is the outcome
            result = ("error", type(exc), str(exc))
        else:
            result = describe(out)
    return result, [(w.category, str(w.message)) for w in caught]


def special_values(dtype):
    """A NumPy array of ``dtype``'s special values: the integer bounds, NaN, infinities, signed
    zeros, a subnormal, complex infinities and NaNs."""
    name = dtype.name
    if name == "bool":
        values = [True, False, True]
    elif name.startswith(("int", "uint")):
        info = np.iinfo(dtype.numpy)
        values = [int(info.min), int(info.max), 0, 1]
    elif name.startswith("complex"):
        values = [
            complex(math.nan, 1.0),
            complex(0.0, -0.0),
            1.5 - 2j,
            complex(math.inf, 0.0),
            complex(math.inf, -math.inf),
        ]
    else:
        values = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.5, -2.5, 5e-324]
    with np.errstate(all="ignore"):
        return np.array(values, dtype=dtype.numpy)
