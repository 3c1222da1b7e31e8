"""What the standard leaves undefined and array-api-strict refuses, the ``array_api`` policy refuses
too (and what array-api-strict accepts there, it accepts); other policies keep their libraries'
answers. Found by ``tests/test_strict_differential.py``; each case here on its own, in both builds
(CI runs the suite with ``ARRAY_API_PROMO_PURE_PYTHON=1`` too), the fast paths' second call included."""

from __future__ import annotations

import pytest

import array_api_promo as xp
from array_api_promo import namespace

np_ns = namespace("numpy")
tx = namespace("torch")


def _twice(call):
    """``call()`` twice: the first call fills the plan caches the compiled paths read, the second takes them."""
    for _ in range(2):
        call()


@pytest.mark.parametrize("func", ["bitwise_left_shift", "bitwise_right_shift"])
def test_negative_shift_is_a_value_error(func):
    f = getattr(xp, func)
    x = xp.asarray([1, 2, 3], dtype=xp.int8)
    for amount in (-1, xp.asarray([1, -1, 0], dtype=xp.int8), xp.asarray(-2, dtype=xp.int16)):
        with pytest.raises(ValueError, match=rf"{func}: a shift by a negative amount .*policy 'array_api'"):
            _twice(lambda: f(x, amount))
    with pytest.raises(ValueError, match="negative amount"):
        _twice(lambda: x << xp.asarray([-1, 0, 0], dtype=xp.int8))
    assert f(x, 1).dtype == xp.int8 and f(x, xp.asarray([0, 1, 2], dtype=xp.int8)).shape == (3,)
    assert f(xp.asarray([1], dtype=xp.uint8), xp.asarray([1], dtype=xp.uint8)).dtype == xp.uint8
    assert getattr(np_ns, func)(np_ns.asarray([4]), -1)._data.tolist() == [0]  # NumPy's value, as before


def test_negative_integer_power_is_a_value_error():
    x = xp.asarray([1, 2], dtype=xp.int32)
    for call in (lambda: x**-1, lambda: xp.pow(x, -1), lambda: xp.pow(2, xp.asarray([1, -1]))):
        with pytest.raises(ValueError, match="negative integer power"):
            _twice(call)
    assert (tx.asarray([2]) ** tx.asarray([-1]))._data.tolist() == [0]  # torch's truncation, as before


def test_imag_takes_complex_input_only():
    for dtype in (xp.float64, xp.float32, xp.int8, xp.bool):
        with pytest.raises(TypeError, match=r"imag: .* is not allowed; the standard requires complex floating-point"):
            _twice(lambda: xp.imag(xp.asarray([1], dtype=dtype)))
    assert xp.imag(xp.asarray([1 + 2j]))._data.tolist() == [2.0]
    assert xp.real(xp.asarray([1.5]))._data.tolist() == [1.5]  # real stays numeric (2024.12)
    assert np_ns.imag(np_ns.asarray([1.5]))._data.tolist() == [0.0]  # NumPy's zeros, as before


@pytest.mark.parametrize("func", ["argmax", "argmin", "sort", "argsort"])
def test_ordering_takes_real_input_only(func):
    f = getattr(xp, func)
    for values in ([True, False], [1j, 2j]):
        x = xp.asarray(values)
        with pytest.raises(TypeError, match=rf"{func}: \w+ input is not allowed; the standard requires real-valued"):
            _twice(lambda: f(x))
        with pytest.raises(TypeError, match="real-valued"):
            f(x, axis=0)
    assert f(xp.asarray([2, 1])).dtype in (xp.int64, xp.int64 if func != "sort" else xp.int64)
    assert getattr(np_ns, func)(np_ns.asarray([True, False])).shape in ((), (2,))  # NumPy orders bools


def test_searchsorted_compares_kinds_without_promotion():
    x1 = xp.asarray([1, 2, 3])
    _twice(lambda: xp.searchsorted(x1, xp.asarray([1.5, 2.5])))
    assert xp.searchsorted(x1, xp.asarray([1.5, 2.5]))._data.tolist() == [1, 2]
    assert xp.searchsorted(xp.asarray([0.5, 2.5]), xp.asarray([1], dtype=xp.uint8))._data.tolist() == [1]
    with pytest.raises(TypeError, match="real-valued"):
        _twice(lambda: xp.searchsorted(xp.asarray([1j, 2j]), xp.asarray([1j, 2j])))
    xp.result_type(xp.asarray([True]), xp.asarray([True]))  # fills the promotion cache the fast path reads
    with pytest.raises(TypeError, match="real-valued"):
        _twice(lambda: xp.searchsorted(xp.asarray([False, True]), xp.asarray([True])))


def test_crossed_clip_bounds_are_a_value_error():
    x = xp.asarray([1.0, 2.0, 3.0])
    for lo, hi in ((2.0, 1.0), (2, 1), (xp.asarray([0.0, 3.0, 0.0]), xp.asarray([1.0, 1.0, 1.0]))):
        with pytest.raises(ValueError, match=r"clip: min must not exceed max.*policy 'array_api'"):
            _twice(lambda: xp.clip(x, lo, hi))
    assert xp.clip(x, 1.5, 1.5)._data.tolist() == [1.5, 1.5, 1.5]
    assert xp.clip(x, float("nan"), 1.0).shape == (3,)  # a NaN bound crosses nothing
    assert np_ns.clip(np_ns.asarray([1.0, 2.0]), 2.0, 1.0)._data.tolist() == [1.0, 1.0]  # NumPy's, as before


def test_fill_value_is_a_python_scalar():
    for call in (lambda: xp.full((2,), xp.asarray(1.5)), lambda: xp.full_like(xp.asarray([1.0]), xp.asarray(2.0))):
        with pytest.raises(TypeError, match=r"fill_value must be a Python bool, int, float or complex, got an array"):
            _twice(call)
    assert xp.full((2,), 1.5)._data.tolist() == [1.5, 1.5]
    assert tx.full((2,), tx.asarray(1.5)).shape == (2,)  # torch takes a 0-d tensor, as before


def test_shape_and_repetitions_are_tuples():
    x = xp.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for call in (lambda: xp.reshape(x, [3, 2]), lambda: xp.reshape(x, 6), lambda: xp.tile(x, [2, 1])):
        with pytest.raises(TypeError, match=r"must be a tuple of ints.*policy 'array_api'"):
            _twice(call)
    assert xp.reshape(x, (3, 2)).shape == (3, 2) and xp.tile(x, (2, 1)).shape == (4, 3)
    assert tx.reshape(tx.asarray([1, 2]), [2, 1]).shape == (2, 1)  # torch takes a list, as before
    assert np_ns.tile(np_ns.asarray([1]), [2]).shape == (2,)


def test_comparing_with_a_foreign_object_is_a_type_error():
    x = xp.asarray([1.0, 2.0])
    for other in (None, object(), "auto", [1.0, 2.0]):
        with pytest.raises(TypeError, match="comparing with it undefined"):
            x == other  # noqa: B015
        with pytest.raises(TypeError, match="undefined"):
            x != other  # noqa: B015
    with pytest.raises(TypeError):
        None == x  # noqa: B015, E711, SIM300  (NoneType's == gives way to the array's)
    assert (np_ns.asarray([1.0]) == None) is False  # noqa: E711  (Python's identity, as before)


def test_bool_ranges():
    assert xp.linspace(0, 1, 2, dtype=xp.bool)._data.tolist() == [False, True]
    assert xp.linspace(0, 3, 4, dtype=xp.bool)._data.tolist() == [False, True, True, True]
    assert xp.arange(2, dtype=xp.bool)._data.tolist() == [False, True]
    assert xp.arange(1, dtype=xp.bool)._data.tolist() == [False]
    with pytest.raises(TypeError, match="at most two values"):
        xp.arange(3, dtype=xp.bool)
    with pytest.raises(TypeError, match="complex start or stop"):
        xp.linspace(0j, 1j, 2, dtype=xp.bool)
    with pytest.raises(TypeError, match="numeric"):
        tx.linspace(0, 1, 2, dtype=tx.bool)  # torch refuses, as before


def test_undefined_refusals_are_checked():
    from array_api_promo.promotion import ArrayAPIPolicy

    class Odd(ArrayAPIPolicy):
        name = "odd_refusals"
        undefined_refusals = frozenset({"no_such_rule"})

    with pytest.raises(ValueError, match="no_such_rule"):
        Odd()
