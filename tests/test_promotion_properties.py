"""Algebraic properties of every built-in promotion policy (hypothesis).

* ``result_type`` is commutative for two operands (same dtype, or the same
  exception type) -- operands drawn from n-d / 0-d markers of each dtype the
  policy has, bare dtypes, and Python scalars;
* ``array_api`` is associative on three dtypes where both groupings are defined;
* one array / dtype promotes to its own dtype;
* every result is one of ``pol.dtypes``.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from array_api_promo import promotion
from array_api_promo._dtypes import dtype_by_name


def _policies():
    pols = [promotion.get_policy(name) for name in promotion.available_policies()]
    torch = promotion.get_policy("torch")
    pols.append(torch.with_default_dtype(dtype_by_name("float64")))
    # unique by identity, stable order
    seen, out = set(), []
    for p in pols:
        if id(p) not in seen:
            seen.add(id(p))
            out.append(p)
    return out


POLICIES = _policies()
POLICY_IDS = [p.name for p in POLICIES]

_INTS = st.one_of(
    st.integers(-300, 300),
    st.sampled_from(
        [2**7, 2**8, 2**15, 2**16, 2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1]
    ),
    st.integers(-(2**70), 2**70),
)
PY_SCALARS = st.one_of(
    st.booleans(),
    _INTS,
    st.floats(allow_nan=True, allow_infinity=True),
    st.complex_numbers(allow_nan=True, allow_infinity=True),
)


def array_operands(pol):
    dtypes = st.sampled_from(list(pol.dtypes))
    return st.one_of(
        dtypes.map(promotion.nd),
        dtypes.map(promotion.zero_d),
        dtypes,
    )


def operands(pol):
    return st.one_of(array_operands(pol), PY_SCALARS)


def outcome(pol, *ops):
    """The result dtype, or the exception's base type (TypeError / OverflowError / ValueError)."""
    try:
        return pol.result_type(*ops)
    except OverflowError:
        return OverflowError
    except TypeError:
        return TypeError
    except ValueError:
        return ValueError


_SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("pol", POLICIES, ids=POLICY_IDS)
@_SETTINGS
@given(data=st.data())
def test_commutative(pol, data):
    a = data.draw(operands(pol), label="a")
    b = data.draw(operands(pol), label="b")
    ab, ba = outcome(pol, a, b), outcome(pol, b, a)
    assert ab is ba, f"{pol.name}: result_type({a!r}, {b!r}) = {ab}, reversed = {ba}"


@pytest.mark.parametrize("pol", POLICIES, ids=POLICY_IDS)
@_SETTINGS
@given(data=st.data())
def test_commutative_with_two_arrays_and_a_scalar(pol, data):
    """Two arrays and one Python scalar: the order of the operands is irrelevant."""
    if pol.value_dependent:
        pytest.skip(
            "NumPy 1.x folds value-based promotion left to right: np.result_type(bool, "
            "int8, 0) is int8, np.result_type(0, bool, int8) int16 (tests/test_golden_numpy_legacy.py)"
        )
    if pol.name == "megengine":
        pytest.skip(
            "MegEngine folds mgb::dtype_promotion left to right: (int8, uint8, 0.0) meets int8 with "
            "uint8 first and raises, (0.0, int8, uint8) is float32 (tests/test_golden_libraries.py)"
        )
    a = data.draw(array_operands(pol), label="a")
    b = data.draw(array_operands(pol), label="b")
    s = data.draw(PY_SCALARS, label="s")
    results = {outcome(pol, *ops) for ops in ((a, b, s), (b, a, s), (s, a, b), (a, s, b))}
    assert len(results) == 1, f"{pol.name}: {a!r}, {b!r}, {s!r} -> {results}"


_ARRAY_API = promotion.get_policy("array_api")


@_SETTINGS
@given(st.lists(st.sampled_from(list(_ARRAY_API.dtypes)), min_size=3, max_size=3))
def test_array_api_associative(ds):
    a, b, c = ds
    pol = _ARRAY_API
    ab, bc = outcome(pol, a, b), outcome(pol, b, c)
    if isinstance(ab, type) or isinstance(bc, type):
        return
    left, right = outcome(pol, ab, c), outcome(pol, a, bc)
    if isinstance(left, type) or isinstance(right, type):
        return
    assert left is right, f"({a}, {b}), {c} -> {left}; {a}, ({b}, {c}) -> {right}"
    assert outcome(pol, a, b, c) is left


@pytest.mark.parametrize("pol", POLICIES, ids=POLICY_IDS)
def test_single_operand_is_its_own_dtype(pol):
    for d in pol.dtypes:
        assert pol.result_type(d) is d
        assert pol.result_type(promotion.nd(d)) is d
        assert pol.result_type(promotion.zero_d(d)) is d
        assert pol.result_type(d, d) is d


@pytest.mark.parametrize("pol", POLICIES, ids=POLICY_IDS)
@_SETTINGS
@given(data=st.data())
def test_results_are_policy_dtypes(pol, data):
    ops = data.draw(st.lists(operands(pol), min_size=1, max_size=4))
    res = outcome(pol, *ops)
    if not isinstance(res, type):
        assert res in pol.dtypes, f"{pol.name}: {ops!r} -> {res} not in pol.dtypes"


@pytest.mark.parametrize("pol", POLICIES, ids=POLICY_IDS)
def test_no_operands_is_an_error(pol):
    with pytest.raises((TypeError, ValueError)):
        pol.result_type()
