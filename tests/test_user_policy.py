"""A policy written by a user through the public interface (the README's example)."""

import numpy as np
import pytest

import array_api_promo as xp
from array_api_promo import promotion


class IntToFloat(promotion.ArrayAPIPolicy):
    """The standard's rules, except that integers join floats (int8 + float32 -> float32)."""

    name = "int_to_float"
    table = promotion.PromotionTable.from_lattice(
        {
            xp.bool: (),
            xp.int8: (xp.int16,),
            xp.int16: (xp.int32,),
            xp.int32: (xp.int64,),
            xp.int64: (xp.float32,),
            xp.uint8: (xp.uint16, xp.int16),
            xp.uint16: (xp.uint32, xp.int32),
            xp.uint32: (xp.uint64, xp.int64),
            xp.uint64: (xp.float32,),
            xp.float32: (xp.float64, xp.complex64),
            xp.float64: (xp.complex128,),
            xp.complex64: (xp.complex128,),
            xp.complex128: (),
        }
    )


@pytest.fixture(scope="module")
def ns():
    policy = promotion.register_policy(IntToFloat(), replace=True)
    return xp.namespace(policy)


def test_user_policy_changes_promotion_and_nothing_else(ns):
    a = ns.asarray([1, 2], dtype=ns.int8)
    f = ns.asarray([0.5, 0.5], dtype=ns.float32)
    r = a + f
    assert r.dtype is ns.float32
    assert np.asarray(r).tolist() == [1.5, 2.5]
    assert ns.result_type(ns.uint64, ns.int64) is ns.float32
    with pytest.raises(TypeError, match="bool and int8 do not promote.*policy 'int_to_float'"):
        ns.asarray([True]) + a
    assert a.__array_namespace__() is ns
    assert xp.namespace("int_to_float") is ns


def test_user_policy_explain(ns):
    text = str(ns._runtime.policy.explain(xp.int8, xp.float32))
    assert "int_to_float" in text and "lattice join int8 ∨ float32 = float32" in text


def test_registering_a_non_policy_or_a_duplicate_fails():
    with pytest.raises(TypeError, match="expected a Policy instance"):
        promotion.register_policy(object())
    with pytest.raises(ValueError, match="already registered"):
        promotion.register_policy(promotion.ArrayAPIPolicy())
