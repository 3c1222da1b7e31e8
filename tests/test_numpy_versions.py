"""NumPy 2.5.5 against 2.4.6: ``numpy`` follows the newest release, ``numpy@2.4`` keeps the old.

Both releases' golden tables are committed (``tools/gen_numpy_golden.py`` run under each);
``tests/test_golden_numpy.py`` and ``tests/test_golden_entry_points.py`` replay each release's
records under its policy.  This module pins what changed between them, so that a rule change in
a new release cannot hide: every record of 2.5.5 says what 2.4.6's says, except

* ``np.where`` with a Python int out of the array's range: 2.4 wraps it, 2.5 raises
  ``OverflowError`` as ``+`` does (ints beyond [-2**63, 2**64) raise in both);
* ``np.linalg.eig``/``eigvals`` of a real matrix whose eigenvalues are all real: 2.4 returns
  them real (a dtype that depends on the values), 2.5 always complex.
"""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import array_api_promo as xp

DATA = pathlib.Path(__file__).parent / "data"


def _load(version, kind):
    return json.loads((DATA / f"numpy_{version}_{kind}.json").read_text())


def _differences(old, new):
    """(section, record of 2.4.6, record of 2.5.5) for every record whose result differs."""
    found = []
    for section, records in old.items():
        if not isinstance(records, list) or not records or not isinstance(records[0], dict):
            continue
        assert len(records) == len(new[section]), section
        for a, b in zip(records, new[section]):
            assert {k: v for k, v in a.items() if k not in ("result", "add", "result_type")} == {
                k: v for k, v in b.items() if k not in ("result", "add", "result_type")
            }
            if any(a.get(k) != b.get(k) for k in ("result", "add", "result_type")):
                found.append((section, a, b))
    return found


def _where_wraps_in_2_4(section, old, new) -> bool:
    is_where = (section == "binary" and old["op"] == "where") or (section == "entry_points" and old["entry"] == "where")
    return is_where and "error" not in (old.get("result") or {}) and new["result"]["error"] == "OverflowError"


def _eig_real_in_2_4(section, old, new) -> bool:
    return section == "linalg" and old["op"] in ("eig", "eigvals") and "complex" not in str(old["result"])


def test_the_tables_name_their_releases():
    for version in ("2.4.6", "2.5.5"):
        for kind in ("promotion", "ops"):
            assert _load(version, kind)["numpy_version"] == version


def test_where_and_eig_are_the_rules_that_changed():
    changed = {"where": 0, "eig": 0}
    for kind in ("promotion", "ops"):
        for section, old, new in _differences(_load("2.4.6", kind), _load("2.5.5", kind)):
            if _where_wraps_in_2_4(section, old, new):
                changed["where"] += 1
            elif _eig_real_in_2_4(section, old, new):
                changed["eig"] += 1
            else:
                pytest.fail(f"an unexpected difference in {kind} {section}: 2.4.6 {old}, 2.5.5 {new}")
    assert changed["where"] and changed["eig"]


def test_the_policies_differ_there():
    new, old = xp.namespace("numpy"), xp.namespace("numpy@2.4")
    for ns in (new, old):
        x = ns.asarray([1, 2], dtype=ns.uint8)
        assert ns.result_type(x, 1000) is ns.uint8  # np.result_type checks no value, in both
        with pytest.raises(OverflowError):
            x + 1000
        with pytest.raises(OverflowError):
            ns.where(x > 1, x, 2**64)  # beyond a C unsigned long, in both
    x = old.asarray([1, 2], dtype=old.uint8)
    assert np.asarray(old.where(x > 1, x, 1000)).tolist() == [232, 2]
    x = new.asarray([1, 2], dtype=new.uint8)
    with pytest.raises(OverflowError, match="out of bounds for uint8"):
        new.where(x > 1, x, 1000)
    old_summary, new_summary = xp.promotion.get_policy("numpy@2.4").summary, xp.promotion.get_policy("numpy").summary
    assert "2.4.6" in old_summary and "where" in old_summary and "2.5.5" in new_summary


def test_every_built_in_policy_has_its_own_summary():
    """DEVIATIONS.md's Part 3 names each policy's rules by its summary: two alike say nothing of the difference."""
    names = xp.promotion.available_policies()
    summaries = [xp.promotion.get_policy(name).summary for name in names]
    assert len(set(summaries)) == len(names), sorted(zip(summaries, names))


@pytest.mark.parametrize("policy", ["numpy", "numpy@2.4"])
@pytest.mark.parametrize(
    "make, message",
    [
        (lambda ns: ns.full(3, 300, dtype=ns.int8), "Python integer 300 out of bounds for int8"),
        (lambda ns: ns.full_like(ns.zeros(2, dtype=ns.uint8), -1), "Python integer -1 out of bounds for uint8"),
        (lambda ns: ns.full(2, 2**64, dtype=ns.uint64), "too large to convert to C long"),
        (lambda ns: ns.full(2, 2**70, dtype=ns.bool), "too large to convert to C long"),
    ],
)
def test_full_refuses_an_int_that_does_not_fit_on_every_installed_numpy(policy, make, message):
    # NumPy 2.1 on raises these; NumPy 2.0's np.full wrapped them silently (300 into int8 was 44)
    with pytest.raises(OverflowError, match=message):
        make(xp.namespace(policy))


def test_full_keeps_the_ints_that_fit():
    ns = xp.namespace("numpy")
    assert int(ns.full(2, 2**63, dtype=ns.uint64)[0]) == 2**63
    assert ns.full(2, 2**62, dtype=ns.bool).dtype == ns.bool
