"""torch 2.15.0 against 2.13.0: ``torch`` follows the newest release, ``torch@2.13`` keeps the old.

Both releases' golden tables are committed (``tools/gen_torch_golden.py`` and
``tools/gen_torch_op_golden.py`` run under each).  ``tests/test_golden_torch.py`` replays
every 2.13.0 record under ``torch@2.13``; ``tests/test_torch_conversions.py`` replays the
conversion records of both releases under their policies.  This module pins what changed
between them, so that a rule change in a new release cannot hide: apart from clamp's
bound conversions (replayed per release), every record of 2.15.0 says what 2.13.0's says,
up to a kernel torch lacks in one of them, the name of bfloat16's complex type
(``BComplex32`` in 2.15, which NumPy stores as complex64, as 2.13's complex64 result), and
the exception class of a refusal.
"""

from __future__ import annotations

import json
import pathlib

import numpy as np

import array_api_promo as xp
from array_api_promo import promotion

DATA = pathlib.Path(__file__).parent / "data"


def _load(name):
    return json.loads((DATA / name).read_text())


def _meaning(result):
    """A record's result as a rule: a dtype NumPy stores, a refusal, or a missing kernel."""
    if isinstance(result, str):
        return ("dtype", {"bcomplex32": "complex64", "complex32": "complex64"}.get(result, result))
    if "dtype" in result:
        return ("dtype", {"bcomplex32": "complex64", "complex32": "complex64"}.get(result["dtype"], result["dtype"]))
    if result.get("error") == "NotImplementedError" or "not implemented for" in result.get("message", ""):
        return ("no kernel", None)
    return ("refused", None)


def _differences(old, new, skip=("conversions",)):
    found = []

    def walk(a, b, path):
        if isinstance(a, dict) and "result" in a and isinstance(b, dict) and "result" in b:
            ma, mb = _meaning(a["result"]), _meaning(b["result"])
            if ma != mb and "no kernel" not in (ma[0], mb[0]):
                found.append((path, a, b))
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for k in a:
                if k in b and k not in skip:
                    walk(a[k], b[k], path + [k])
        elif isinstance(a, list) and isinstance(b, list):
            assert len(a) == len(b), path
            for x, y in zip(a, b):
                walk(x, y, path)

    walk(old, new, [])
    return found


def test_the_releases_promote_alike():
    for kind in ("promotion", "ops"):
        old, new = _load(f"torch_2.13.0_{kind}.json"), _load(f"torch_2.15.0_{kind}.json")
        assert (old["torch_version"], new["torch_version"]) == ("2.13.0", "2.15.0")
        assert _differences(old, new) == [], kind


def test_clamp_bounds_are_the_one_rule_that_changed():
    old = _load("torch_2.13.0_promotion.json")["conversions"]
    new = _load("torch_2.15.0_promotion.json")["conversions"]
    for section in ("creation", "where", "scalar_pairs"):
        assert _differences({"s": old[section]}, {"s": new[section]}, skip=()) == [], section
    changed = _differences({"s": old["clamp"]}, {"s": new["clamp"]}, skip=())
    assert changed and all(any(o.startswith("py:") for o in a["operands"][1:]) for _, a, _ in changed)


def test_the_policies_differ_there():
    t, o = xp.namespace("torch"), xp.namespace("torch@2.13")
    assert promotion.get_policy("torch").version == "2.15" and promotion.get_policy("torch@2.13").version == "2.13"
    x, y = t.asarray([1, 2], dtype=t.uint8), o.asarray([1, 2], dtype=o.uint8)
    assert np.asarray(t.clip(x, -1, 200)).tolist() == [1, 2]  # 2.15: -1 clips nothing
    assert np.asarray(o.clip(y, -1, 200)).tolist() == [200, 200]  # 2.13: -1 wrapped to 255
    assert (t.asarray([1], dtype=t.int8) + 1000).dtype == (o.asarray([1], dtype=o.int8) + 1000).dtype
