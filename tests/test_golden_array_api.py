"""The ``array_api`` policy against the standard's own promotion tables.

``tests/data/array_api_spec_promotion.json`` is parsed from the spec's
``type_promotion.rst`` by ``tools/gen_spec_golden.py``: a pair present there
promotes to the listed dtype, a pair absent from it must raise ``TypeError``.
The live tests compare against ``array_api_strict`` (the reference
implementation) when it is installed.
"""

from __future__ import annotations

import itertools
import json
import pathlib
import re

import pytest

from array_api_promo import promotion
from array_api_promo._dtypes import STANDARD_DTYPES, dtype_by_name

DATA = pathlib.Path(__file__).parent / "data"
with open(DATA / "array_api_spec_promotion.json") as _fh:
    SPEC = json.load(_fh)
VERSIONS = sorted(k for k in SPEC if re.fullmatch(r"\d{4}\.\d{2}", k))
LATEST = VERSIONS[-1]


def pol():
    return promotion.get_policy("array_api")


def test_table_metadata():
    assert SPEC["generator"] == "tools/gen_spec_golden.py"
    assert VERSIONS == ["2021.12", "2022.12", "2023.12", "2024.12", "2025.12"]
    # complex dtypes entered in 2022.12; since then the tables are unchanged
    assert "complex64" not in SPEC["2021.12"]["dtypes"]
    for v in VERSIONS[2:]:
        assert SPEC[v]["pairs"] == SPEC["2022.12"]["pairs"]


def test_policy_has_the_standard_dtypes():
    names = sorted(d.name for d in pol().dtypes)
    assert names == sorted(SPEC[LATEST]["dtypes"])
    assert len(names) == 13


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("marker", ["dtype", "nd", "zero_d"])
def test_pairs_match_spec_table(version, marker):
    """Every ordered pair of the version's dtypes: the table's result, or TypeError."""
    wrap = {"dtype": lambda d: d, "nd": promotion.nd, "zero_d": promotion.zero_d}[marker]
    pairs = SPEC[version]["pairs"]
    names = SPEC[version]["dtypes"]
    bad = []
    for a, b in itertools.product(names, repeat=2):
        want = pairs.get(f"{a},{b}")
        try:
            got = pol().result_type(wrap(dtype_by_name(a)), wrap(dtype_by_name(b))).name
        except TypeError as exc:
            got = None
            assert "array_api" in str(exc), f"error for {a},{b} should name the policy: {exc}"
        if got != want:
            bad.append(f"{a}, {b}: spec {want or 'no promotion'}, policy {got or 'TypeError'}")
    assert not bad, f"{version} ({marker}): " + "; ".join(bad)


def test_mixed_zero_d_and_nd_follow_the_table():
    """The standard: 0-d arrays obey the same rules as n-d arrays."""
    pairs = SPEC[LATEST]["pairs"]
    for a, b in itertools.product(SPEC[LATEST]["dtypes"], repeat=2):
        want = pairs.get(f"{a},{b}")
        try:
            got = pol().result_type(promotion.nd(dtype_by_name(a)), promotion.zero_d(dtype_by_name(b))).name
        except TypeError:
            got = None
        assert got == want, (a, b)


def test_three_dtypes_fold_the_table():
    """More than two operands: the tables applied pairwise; the spec says the result does
    not depend on the order, so both groupings agree (or both are undefined)."""
    pairs = SPEC[LATEST]["pairs"]
    names = SPEC[LATEST]["dtypes"]
    for a, b, c in itertools.product(names, repeat=3):
        ab = pairs.get(f"{a},{b}")
        left = pairs.get(f"{ab},{c}") if ab else None
        bc = pairs.get(f"{b},{c}")
        right = pairs.get(f"{a},{bc}") if bc else None
        assert left == right, (a, b, c)
        try:
            got = pol().result_type(*(dtype_by_name(n) for n in (a, b, c))).name
        except TypeError:
            got = None
        assert got == left, (a, b, c, got, left)


# -- array_api_strict ---------------------------------------------------------------------
_SCALARS = [
    True,
    False,
    0,
    1,
    -1,
    127,
    128,
    255,
    256,
    -129,
    2**31,
    2**63 - 1,
    2**63,
    2**64 - 1,
    2**64,
    -(2**63) - 1,
    1.5,
    -0.0,
    float("inf"),
    1e308,
    1j,
    1.5 - 2j,
]


@pytest.fixture
def strict():
    xs = pytest.importorskip("array_api_strict")
    flags = xs.get_array_api_strict_flags()
    xs.set_array_api_strict_flags(api_version=LATEST)
    yield xs
    xs.set_array_api_strict_flags(api_version=flags["api_version"])


def _base(exc):
    """OverflowError, TypeError or ValueError (ignoring subclasses such as PromotionError)."""
    for t in (OverflowError, TypeError, ValueError):
        if isinstance(exc, t):
            return t
    raise exc


def _strict_name(xs, dt):
    for d in STANDARD_DTYPES:
        if getattr(xs, d.name) == dt:
            return d.name
    raise AssertionError(dt)


def test_live_strict_dtype_pairs(strict):
    xs = strict
    bad = []
    for a, b in itertools.product(STANDARD_DTYPES, repeat=2):
        try:
            want = _strict_name(xs, xs.result_type(getattr(xs, a.name), getattr(xs, b.name)))
        except TypeError:
            want = None
        try:
            got = pol().result_type(a, b).name
        except TypeError:
            got = None
        if got != want:
            bad.append(f"{a.name}, {b.name}: strict {want}, policy {got}")
    assert not bad, "; ".join(bad)


# array-api-strict casting out-of-range values warns; the cast is the case under test
@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
def test_live_strict_dtype_and_scalar(strict):
    """dtype x Python scalar where array_api_strict accepts it: same result.

    Where strict refuses, the policy must refuse with the same exception type
    (TypeError, or OverflowError for an out-of-bounds int).
    """
    xs = strict
    bad = []
    for d, s in itertools.product(STANDARD_DTYPES, _SCALARS):
        for args in ((getattr(xs, d.name), s), (s, getattr(xs, d.name))):
            try:
                want = _strict_name(xs, xs.result_type(*args))
            except (TypeError, OverflowError, ValueError) as exc:
                want = _base(exc)
            p_args = tuple(d if not isinstance(a, (bool, int, float, complex)) else a for a in args)
            try:
                got = pol().result_type(*p_args).name
            except (TypeError, OverflowError) as exc:
                got = _base(exc)
            if isinstance(want, str):
                if got != want:
                    bad.append(f"{d.name}, {s!r}: strict {want}, policy {got}")
            elif got is not want:
                bad.append(f"{d.name}, {s!r}: strict raises {want.__name__}, policy {got}")
    assert not bad, "\n".join(bad)


# array-api-strict casting out-of-range values warns; the cast is the case under test
@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
def test_live_strict_arrays_and_scalars(strict):
    """Real arrays (n-d and 0-d) with Python scalars via the operator ``+``."""
    xs = strict
    bad = []
    for d, s in itertools.product(STANDARD_DTYPES, _SCALARS):
        for shape, marker in (((2,), promotion.nd), ((), promotion.zero_d)):
            x = xs.zeros(shape, dtype=getattr(xs, d.name)) if d.name != "bool" else xs.zeros(shape, dtype=xs.bool)
            try:
                want = _strict_name(xs, (x + s).dtype) if d.name != "bool" else _strict_name(xs, (x & s).dtype)
            except (TypeError, OverflowError, ValueError) as exc:
                want = _base(exc)
            try:
                got = pol().result_type(marker(d), s).name
            except (TypeError, OverflowError) as exc:
                got = _base(exc)
            if isinstance(want, str) and got != want:
                bad.append(f"{marker.__name__}({d.name}) + {s!r}: strict {want}, policy {got}")
            if not isinstance(want, str) and got is not want:
                bad.append(f"{marker.__name__}({d.name}) + {s!r}: strict raises {want.__name__}, policy {got}")
    assert not bad, "\n".join(bad)


def test_result_type_refuses_ints_no_float_holds_as_the_operators_do():
    """``result_type(float64 array, 10**400)`` raises like ``float64 array + 10**400``
    (array-api-strict raises in both); an int a float holds (``2**200``) is fine."""
    import array_api_promo as xp

    b = xp.asarray([1.0], dtype=xp.float64)
    for value in (10**400, -(10**400), 2**1024):
        with pytest.raises(OverflowError, match=r"too large to convert to float64 \(policy 'array_api'\)"):
            xp.result_type(b, value)
        with pytest.raises(OverflowError, match="too large to convert to float64"):
            b + value
    with pytest.raises(OverflowError, match="complex64"):
        xp.result_type(xp.complex64, 10**400)
    assert xp.result_type(xp.float32, 2**200) == xp.float32
    assert xp.result_type(b, 2**1024 - 2**971) == xp.float64  # the largest int float() takes


def test_scalar_refusal_suggests_astype_as_the_array_refusal_does():
    # The first error a NumPy porter meets: it names the operation, the scalar, the dtype and
    # the way out, as the refusal of two arrays of mixed kinds does.
    import array_api_promo as xp

    with pytest.raises(TypeError) as info:
        xp.divide(xp.asarray([1], dtype=xp.uint8), 1.5)
    assert str(info.value) == (
        "divide: Python float cannot be promoted with a uint8 array; the standard allows a Python float "
        "only with floating-point dtypes; convert the array with astype() (policy 'array_api')"
    )
    with pytest.raises(TypeError, match=r"convert one with astype\(\)"):
        xp.asarray([1], dtype=xp.int8) + xp.asarray([1.0], dtype=xp.float32)
