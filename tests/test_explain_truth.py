"""``policy.explain(..., op=...)`` tells the truth: for every operation, operand kind and
policy, it names the dtype the namespace's function returns, or the error it raises.

The sweep calls the real functions (elementwise, reductions, linear algebra, FFT) under every
registered policy and compares each outcome with the explanation of the same operands.
"""

from __future__ import annotations

import warnings

import pytest

import array_api_promo
from array_api_promo import promotion
from array_api_promo.promotion._ops import OPS

POLICIES = promotion.available_policies()
BINARY = sorted({name for name, spec in OPS.items() if spec.arity == 2} - {"where", "clip", "matmul", "result_type"})
REDUCTIONS = ["sum", "prod", "cumulative_sum", "cumulative_prod", "max", "min", "mean", "std", "var"]
LINALG_SQUARE = ["det", "inv", "matrix_norm", "pinv", "svdvals", "matrix_rank", "trace", "slogdet", "eigvalsh"]
FFT = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftshift", "ifftshift"]


def outcome(call):
    """The dtype name a call returns, or its exception type."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = call()
    except (TypeError, ValueError, OverflowError) as exc:
        return type(exc)
    if isinstance(result, tuple):  # slogdet: (sign, logabsdet), the second decides
        result = result[-1]
    return result.dtype.name


def explained(policy, operands, op):
    trace = policy.explain(*operands, op=op)
    return type(trace.error) if trace.error is not None else trace.result.name


def same(real, told) -> bool:
    if isinstance(real, type) and isinstance(told, type):
        return issubclass(told, real) or issubclass(real, told)
    return real == told


def arrays(xp, shape):
    names = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
    names += ("float32", "float64", "complex64", "complex128")
    return [xp.ones(shape, dtype=getattr(xp, name)) for name in names if hasattr(xp, name)]  # jax: no 64-bit


@pytest.mark.parametrize("name", POLICIES)
def test_explain_agrees_with_every_function(name):
    policy = promotion.get_policy(name)
    xp = array_api_promo.namespace(name)
    vectors, zero_d = arrays(xp, (4,)), arrays(xp, ())
    # symmetric, invertible (as bool too: numpy's linalg takes bool input)
    matrices = [
        xp.asarray([[2, 1], [1, 3]] if v.dtype != xp.bool else [[1, 0], [0, 1]], dtype=v.dtype) for v in vectors
    ]
    cases = []  # (op, operands for explain, the real call)
    for op in sorted(name for name, spec in OPS.items() if spec.arity == 1):
        for x in vectors:
            cases.append((op, (x,), lambda op=op, x=x: getattr(xp, op)(x)))
    scalars = [True, 2, 2.5, 1j]
    for op in BINARY:
        for x in vectors:
            for y in vectors + zero_d[::3] + scalars:
                cases.append((op, (x, y), lambda op=op, x=x, y=y: getattr(xp, op)(x, y)))
    for op in REDUCTIONS:
        for x in vectors:
            cases.append((op, (x,), lambda op=op, x=x: getattr(xp, op)(x, axis=0)))
    for op in LINALG_SQUARE:
        for x in matrices:
            cases.append((op, (x,), lambda op=op, x=x: getattr(xp.linalg, op)(x)))
    for op in FFT:
        for x in vectors:
            cases.append((op, (x,), lambda op=op, x=x: getattr(xp.fft, op)(x)))
    wrong = []
    for op, operands, call in cases:
        real, told = outcome(call), explained(policy, operands, op)
        if not same(real, told):
            wrong.append(f"{op}{tuple(_short(o) for o in operands)}: function gives {real}, explain says {told}")
    assert not wrong, f"{len(wrong)} of {len(cases)} under {name!r}:\n" + "\n".join(wrong[:400])


def _short(operand):
    return f"{operand.dtype} {operand.ndim}-d" if hasattr(operand, "dtype") else repr(operand)


def test_explain_refuses_an_unknown_operation():
    trace = promotion.get_policy("array_api").explain(array_api_promo.int8, op="no_such_op")
    assert isinstance(trace.error, ValueError) and "unknown operation 'no_such_op'" in str(trace.error)


def test_the_issue_examples():
    torch = promotion.get_policy("torch")
    tx = array_api_promo.namespace("torch")
    assert (
        torch.explain(tx.ones(3, dtype=tx.uint8), op="sum").result.name
        == tx.sum(tx.ones(3, dtype=tx.uint8)).dtype.name
        == "int64"
    )
    trace = torch.explain(tx.ones(3, dtype=tx.int8), op="mean")
    assert trace.error is not None
    with pytest.raises(type(trace.error)):
        tx.mean(tx.ones(3, dtype=tx.int8))
