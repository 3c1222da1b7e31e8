"""The promotion engine's public interface: bad input, explain traces, caching, building blocks."""

import numpy as np
import pytest

from array_api_promo import _dtypes as D, promotion
from array_api_promo.promotion import nd, zero_d

TORCH = promotion.get_policy("torch")
STRICT = promotion.get_policy("array_api")


@pytest.mark.parametrize("policy", [STRICT, TORCH], ids=["array_api", "torch"])
class TestBadInput:
    def test_empty_call(self, policy):
        with pytest.raises(ValueError, match=f"at least one array or dtype is required \\(policy '{policy.name}'\\)"):
            policy.result_type()

    def test_numpy_scalar(self, policy):
        with pytest.raises(TypeError, match="NumPy scalar .* is not an operand"):
            policy.result_type(D.float32, np.float32(1))

    def test_numpy_dtype_and_ndarray(self, policy):
        with pytest.raises(TypeError, match="is not an operand"):
            policy.result_type(np.dtype("float32"))
        with pytest.raises(TypeError, match="NumPy ndarray is not an operand"):
            policy.result_type(np.ones(2))

    @pytest.mark.parametrize("bad", ["float32", None, [1], object()])
    def test_other_objects(self, policy, bad):
        with pytest.raises(TypeError, match="is not an operand"):
            policy.result_type(D.int8, bad)

    def test_marker_of_a_non_dtype(self, policy):
        with pytest.raises(TypeError, match="expected an array_api_promo dtype"):
            nd("int8")


def test_unknown_names():
    with pytest.raises(ValueError, match="unknown promotion policy 'nope'; available: .*array_api.*torch"):
        promotion.get_policy("nope")
    with pytest.raises(ValueError, match="unknown dtype name 'float8'"):
        D.dtype_by_name("float8")
    with pytest.raises(ValueError, match="unknown operation 'frobnicate'"):
        promotion.op_spec("frobnicate")


def test_dtype_outside_the_policy():
    with pytest.raises(TypeError, match="dtype bfloat16 does not exist under policy 'array_api'"):
        STRICT.result_type(D.bfloat16, D.float32)
    assert TORCH.result_type(D.bfloat16, D.float16) is D.float32


def test_explain_names_the_deciding_rule():
    text = str(TORCH.explain(nd(D.int32), zero_d(D.int64)))
    assert "0-d/wrapped is not of a higher category: n-d wins -> int32" in text
    text = str(TORCH.explain(nd(D.int32), 1.5))
    assert "Python float is a wrapped number of dtype float32" in text
    assert text.endswith("=> float32")
    refused = TORCH.explain(nd(D.uint16), nd(D.int8))
    assert isinstance(refused.error, TypeError)
    assert "Promotion for uint16, uint32, uint64 types is not supported" in str(refused)
    strict = str(STRICT.explain(D.int8, D.uint8))
    assert "lattice join int8 ∨ uint8 = int16" in strict
    op = str(TORCH.explain(nd(D.int8), nd(D.int8), op="divide"))
    assert "divide computes in float32" in op


def test_explain_agrees_with_result_type_on_every_pair():
    for policy in (STRICT, TORCH):
        for a in policy.dtypes:
            for b in policy.dtypes:
                trace = policy.explain(nd(a), zero_d(b))
                try:
                    want = policy.result_type(nd(a), zero_d(b))
                except TypeError:
                    assert trace.error is not None
                else:
                    assert trace.result is want


def test_decisions_are_cached():
    spec = promotion.op_spec("add")
    sig = (nd(D.int8), nd(D.int16))
    first = TORCH.decide(spec, sig)
    assert TORCH.decide(spec, sig) is first
    assert TORCH.resolve(sig) is TORCH.resolve(sig)


def test_with_default_dtype_is_a_value():
    t64 = TORCH.with_default_dtype(D.float64)
    assert t64 is TORCH.with_default_dtype(D.float64)
    assert t64.result_type(nd(D.int8), 1.5) is D.float64
    assert t64.result_type(nd(D.int8), 1j) is D.complex128
    with pytest.raises(ValueError, match="default dtype must be float32 or float64"):
        TORCH.with_default_dtype(D.float16)


def test_lattice_and_table_building_blocks():
    table = promotion.PromotionTable.from_lattice({D.int8: (D.int16,), D.uint8: (D.int16,), D.int16: ()})
    assert table.join(D.int8, D.uint8) is D.int16
    assert table.join(D.int8, D.float32) is None
    with pytest.raises(ValueError, match="cycle"):
        promotion.PromotionTable.from_lattice({D.int8: (D.int16,), D.int16: (D.int8,)})
    with pytest.raises(ValueError, match="not symmetric"):
        promotion.PromotionTable.from_rows([D.int8, D.int16], [[D.int8, D.int16], [D.int8, D.int16]])
    # The standard's table is the lattice's joins.
    assert promotion.ARRAY_API_LATTICE.join(D.uint32, D.int8) is D.int64
    assert promotion.ARRAY_API_LATTICE.join(D.uint64, D.int64) is None
    assert promotion.ARRAY_API_LATTICE.join(D.float32, D.complex128) is D.complex128


def test_scalar_conversion_rules():
    assert int(TORCH.convert_scalar(1000, D.uint8)) == 232
    assert int(TORCH.convert_scalar(-1, D.uint8)) == 255
    assert np.isinf(TORCH.convert_scalar(1e5, D.float16))
    with pytest.raises(OverflowError, match="too large for torch"):
        TORCH.convert_scalar(2**64, D.uint64)
    with pytest.raises(OverflowError, match="out of bounds for uint8"):
        STRICT.convert_scalar(1000, D.uint8)
    assert int(STRICT.convert_scalar(2**64 - 1, D.uint64)) == 2**64 - 1


def test_torch_large_python_ints_are_uint64_scalars():
    assert TORCH.result_type(nd(D.int8), 2**63) is D.int8
    with pytest.raises(TypeError, match="attempted to promote bool and uint64"):
        TORCH.result_type(nd(D.bool_), 2**63)
    with pytest.raises(OverflowError):
        TORCH.result_type(nd(D.float32), 2**64)


@pytest.mark.parametrize("policy_name", ["array_api", "torch", "numpy_legacy", "jax"])
def test_namespace_result_type_of_two_arrays_matches_the_policy_on_every_call(policy_name):
    # The namespace caches result_type of two arrays by their dtypes (and 0-d flags where the
    # policy tells 0-d apart); a cached answer must be the policy's answer for any operands.
    from array_api_promo import namespace

    ns = namespace(policy_name)
    policy = promotion.get_policy(policy_name)
    for dt1 in ns.__array_namespace_info__().dtypes().values():
        for dt2 in ns.__array_namespace_info__().dtypes().values():
            for shape1 in ((), (2,)):
                for shape2 in ((), (2,)):
                    for value in (1, 100):  # numpy_legacy: the value of a 0-d operand decides
                        a = ns.full(shape1, True if dt1 == ns.bool else value, dtype=dt1)
                        b = ns.full(shape2, True if dt2 == ns.bool else value, dtype=dt2)
                        try:
                            expected = policy.result_type(a, b)
                        except TypeError:
                            with pytest.raises(TypeError):
                                ns.result_type(a, b)
                            continue
                        assert ns.result_type(a, b) is expected, (dt1, shape1, dt2, shape2, value)
                        assert ns.result_type(a, b) is expected, (dt1, shape1, dt2, shape2, value)
