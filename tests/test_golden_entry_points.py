"""Python ints at and beyond the 64-bit bounds at every entry point, against the real libraries.

Each golden table's ``entry_points`` section (``tools/entry_golden.py``'s cases, run by the
library's generator) records ``x + v``, ``add(x, v)``, ``result_type(x, v)``, ``where(c, x, v)``,
``clip(x, v, None)``, ``clip(x, None, v)``, ``asarray(v, dtype=dtype)`` and ``full(2, v,
dtype=dtype)`` for ``x = ones(2, dtype)`` of every dtype and ints from 1000 to 2**1024.  Each
record is replayed through the namespace of the policy that follows that release: the same
dtype and values, or an error of the same kind (an ``OverflowError`` where the library raises
one).  No library is needed here.
"""

from __future__ import annotations

import json
import math
import pathlib
import sys

import numpy as np
import pytest

import array_api_promo as xp

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "tools"))
from entry_golden import ENTRY_POINTS, huge_int  # noqa: E402

DATA = pathlib.Path(__file__).parent / "data"

# policy -> (table, the section holding its records: a list of keys into the table)
TABLES = {
    "numpy": ("numpy_2.5.5_promotion.json", ["entry_points"]),
    "numpy@2.4": ("numpy_2.4.6_promotion.json", ["entry_points"]),
    "mlx": ("mlx_0.32.4_promotion.json", ["entry_points"]),
    "megengine": ("megengine_1.13.0_promotion.json", ["entry_points"]),
    "jax": ("jax_promotion.json", ["modes", "32bit", "entry_points"]),
    "jax_x64": ("jax_promotion.json", ["modes", "x64", "entry_points"]),
    "jax_explicit_x64": ("jax_explicit_x64_0.12.0.1_promotion.json", ["modes", "explicit_x64", "entry_points"]),
}


def _numpy_bool_clip(rec) -> bool:
    """np.clip of a bool array converts an int bound to int64 before its rule that drops a bound
    clipping nothing (integer arrays only), so ``clip(bool_array, None, 2**63)`` raises; the policy's
    bound rule sees the int64 it computes in, not the bool array, and clips nothing."""
    return rec["dtype"] == "bool" and rec["entry"] in ("clip_min", "clip_max")


def _mlx_dtype_changes(rec) -> bool:
    """MLX's ``clip`` promotes a bool array with an int bound to int32 and takes complex input, and its
    ``full(shape, int, dtype=bool)`` ignores the dtype (int32); the namespace keeps the standard's
    dtypes there (clip keeps x's real dtype, full the one asked for)."""
    clip = rec["entry"] in ("clip_min", "clip_max") and rec["dtype"] in ("bool", "complex64")
    return (clip or (rec["entry"] == "full" and rec["dtype"] == "bool")) and "dtype" in rec["result"]


def _jax_complex_clip(rec) -> bool:
    """``jnp.clip`` of complex input with an int outside the default integer: JAX parses the int first
    (``OverflowError``), the namespace refuses the complex input first (``TypeError``): both refuse."""
    return rec["entry"] in ("clip_min", "clip_max") and rec["dtype"].startswith("complex")


# Records where the namespace knowingly differs (the policy's page in docs/policies/ says why):
# policy -> (predicate, how many records it excuses).
EXCEPTIONS = {
    "numpy": (_numpy_bool_clip, 8),
    "numpy@2.4": (_numpy_bool_clip, 8),
    "mlx": (_mlx_dtype_changes, 20),
    "jax": (_jax_complex_clip, 20),
    "jax_x64": (_jax_complex_clip, 32),
    "jax_explicit_x64": (_jax_complex_clip, 40),
}
# A library's exception -> the exception the namespace raises for it (any other: one of these).
_ERRORS = {"OverflowError": (OverflowError,), "TypeError": (TypeError,)}
_ANY_ERROR = (OverflowError, TypeError, ValueError)


def _records(policy):
    table, path = TABLES[policy]
    doc = json.loads((DATA / table).read_text())
    for key in path:
        doc = doc[key]
    return doc


def _call(ns, entry, dtype, v):
    x = ns.ones(2, dtype=dtype)
    if entry == "operator":
        return x + v
    if entry == "function":
        return ns.add(x, v)
    if entry == "result_type":
        return ns.result_type(x, v)
    if entry == "where":
        return ns.where(ns.asarray([True, False]), x, v)
    if entry == "clip_min":
        return ns.clip(x, v, None)
    if entry == "clip_max":
        return ns.clip(x, None, v)
    if entry == "asarray":
        return ns.asarray(v, dtype=dtype)
    if entry == "full":
        return ns.full(2, v, dtype=dtype)
    raise AssertionError(entry)


def _same_values(got, want) -> bool:
    def same(a, b):
        if isinstance(b, list):
            return same(a.real, b[0]) and same(a.imag, b[1])
        if isinstance(b, float) and math.isnan(b):
            return math.isnan(a)
        return a == b

    if got.ndim == 0 and not (isinstance(want, list) and len(want) == 1):
        want = [want]  # (field_golden records a 0-d result's value bare)
    flat = np.asarray(got, dtype=object if got.dtype.kind in "iub" else None).reshape(-1).tolist()
    if got.dtype.kind == "c":
        flat = [complex(v) for v in flat]
    return len(flat) == len(want) and all(same(a, b) for a, b in zip(flat, want))


def mismatches(policy, records=None) -> list[str]:
    ns = xp.namespace(policy)
    bad = []
    for rec in _records(policy) if records is None else records:
        entry, dtype, text, want = rec["entry"], getattr(ns, rec["dtype"]), rec["value"], rec["result"]
        where = f"{ENTRY_POINTS[entry]} with {rec['dtype']}, v={text}"
        try:
            got = _call(ns, entry, dtype, huge_int(text))
        except _ANY_ERROR as exc:
            if "error" not in want:
                bad.append(f"{where}: library gives {want['dtype']}, ours raised {type(exc).__name__}: {exc}")
            elif not isinstance(exc, _ERRORS.get(want["error"], _ANY_ERROR)):
                bad.append(f"{where}: library raises {want['error']}, ours {type(exc).__name__}: {exc}")
            continue
        if "error" in want:
            bad.append(f"{where}: library raises {want['error']}: {want['message']}; ours gave {got}")
            continue
        name = got.name if entry == "result_type" else got.dtype.name
        if name != want["dtype"]:
            bad.append(f"{where}: library gives {want['dtype']}, ours {name}")
        elif "values" in want and not _same_values(np.asarray(got._data), want["values"]):
            bad.append(f"{where}: library gives {want['values']}, ours {np.asarray(got._data).tolist()}")
    return bad


@pytest.mark.parametrize("policy", sorted(TABLES))
def test_huge_ints_at_every_entry_point(policy):
    records = _records(policy)
    assert {r["entry"] for r in records} <= set(ENTRY_POINTS)
    excused, count = EXCEPTIONS.get(policy, (lambda rec: False, 0))
    bad = mismatches(policy, [r for r in records if not excused(r)])
    assert not bad, f"{len(bad)} of {len(records)} records differ:\n" + "\n".join(bad[:80])
    # the exceptions are real differences, as many as documented
    assert len(mismatches(policy, [r for r in records if excused(r)])) == count
