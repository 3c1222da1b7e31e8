"""Manipulation functions: what the upstream suite does not check.

Policy-specific join dtypes, bad-input errors (types, values, axes), version
differences, and that functions building new data never alias their input.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import array_api_promo as xp
import array_api_promo.torch as tx
from array_api_promo import namespace


def _shares(a, b) -> bool:
    return np.shares_memory(a._data, b._data)


# -- concat / stack: the policy decides the dtype ------------------------------------------
def test_concat_same_dtype_keeps_dtype_and_copies():
    x = xp.asarray([1, 2], dtype=xp.int8)
    out = xp.concat([x])
    assert out.dtype is xp.int8
    assert not _shares(out, x)


@pytest.mark.parametrize("func", ["concat", "stack"])
def test_join_array_api_promotes_on_the_lattice(func):
    a = xp.asarray([1, 2], dtype=xp.int8)
    b = xp.asarray([3, 4], dtype=xp.uint8)
    out = getattr(xp, func)([a, b])
    assert out.dtype is xp.int16
    assert out._data.dtype == np.int16


@pytest.mark.parametrize("func", ["concat", "stack"])
def test_join_array_api_refuses_mixed_kinds(func):
    a = xp.asarray([1, 2], dtype=xp.int32)
    b = xp.asarray([1.0, 2.0], dtype=xp.float32)
    with pytest.raises(TypeError, match=rf"{func}.*int32.*float32.*array_api"):
        getattr(xp, func)([a, b])


def test_join_torch_mixes_kinds():
    a = tx.asarray([1, 2], dtype=tx.int8)
    b = tx.asarray([1.0, 2.0], dtype=tx.float16)
    assert tx.concat([a, b]).dtype is tx.float16
    assert tx.stack([a, b]).dtype is tx.float16


def test_join_torch_refuses_barebones_unsigned():
    a = tx.asarray([1], dtype=tx.uint8)
    b = tx.asarray([1], dtype=tx.uint16)
    with pytest.raises(TypeError, match="concat.*uint16.*torch"):
        tx.concat([a, b])


def test_concat_zero_d_operands_count_as_arrays_under_torch():
    # torch.cat only sees >= 1-d tensors: no 0-d "weak" slot when joining.
    a = tx.asarray([1, 2], dtype=tx.int8)
    b = tx.asarray(3, dtype=tx.int64)
    assert tx.concat([a, b], axis=None).dtype is tx.int64


def test_concat_errors():
    a = xp.ones((2, 3))
    with pytest.raises(ValueError, match="concat"):
        xp.concat([])
    assert xp.concat(a).shape == (6,)  # the rows of a, as NumPy iterates it (the array_api policy; array-api-strict)
    with pytest.raises(TypeError, match="concat"):
        tx.concat(tx.ones((2, 3)))
    with pytest.raises(TypeError, match="concat: axis must be an int or None, got bool"):
        xp.concat([a, a], axis=True)  # (NumPy's concatenate refuses a bool axis too)
    with pytest.raises(TypeError, match="concat"):
        xp.concat([a, np.ones((2, 3))])
    with pytest.raises(IndexError, match="concat"):
        xp.concat([a, a], axis=2)
    with pytest.raises(ValueError, match="concat"):
        xp.concat([a, xp.ones((3, 3))], axis=1)
    with pytest.raises(ValueError, match="concat"):
        xp.concat([a, xp.ones(3)])
    with pytest.raises(TypeError, match="cannot mix"):
        xp.concat([a, tx.ones((2, 3), dtype=tx.float64)])


def test_concat_axis_none_flattens():
    a = xp.reshape(xp.arange(4), (2, 2))
    b = xp.asarray(9)
    out = xp.concat([a, b], axis=None)
    assert out.shape == (5,)
    assert out._data.tolist() == [0, 1, 2, 3, 9]


def test_stack_errors():
    with pytest.raises(ValueError, match="same shape"):
        xp.stack([xp.ones(2), xp.ones(3)])
    with pytest.raises(IndexError, match="stack"):
        xp.stack([xp.ones(2), xp.ones(2)], axis=2)
    assert xp.stack([xp.ones(2), xp.ones(2)], axis=-1).shape == (2, 2)


def test_cross_namespace_same_policy_is_allowed():
    old = namespace("array_api", "2023.12")
    a = xp.asarray([1, 2])
    b = old.asarray([3, 4])
    assert xp.concat([a, b]).shape == (4,)


# -- broadcasting ---------------------------------------------------------------------------
def test_broadcast_arrays_tuple_in_2025_list_before():
    a, b = xp.ones((2, 1)), xp.ones(3)
    out = xp.broadcast_arrays(a, b)
    assert isinstance(out, tuple) and [o.shape for o in out] == [(2, 3), (2, 3)]
    old = namespace("array_api", "2023.12")
    assert isinstance(old.broadcast_arrays(old.ones(2), old.ones(2)), list)
    assert xp.broadcast_arrays() == ()


def test_broadcast_errors():
    with pytest.raises(ValueError, match="broadcast_arrays.*do not broadcast"):
        xp.broadcast_arrays(xp.ones(2), xp.ones(3))
    with pytest.raises(ValueError, match="broadcast_to"):
        xp.broadcast_to(xp.ones(3), (2, 4))
    with pytest.raises(ValueError, match="broadcast_to"):
        xp.broadcast_to(xp.ones((2, 3)), (3,))
    with pytest.raises(TypeError, match="broadcast_to"):
        xp.broadcast_to(xp.ones(3), (2.0, 3))


def test_broadcast_shapes():
    assert xp.broadcast_shapes() == ()
    assert xp.broadcast_shapes((2, 1), (3,), ()) == (2, 3)
    assert xp.broadcast_shapes((0,), (1,)) == (0,)
    with pytest.raises(ValueError, match="broadcast_shapes"):
        xp.broadcast_shapes((2,), (3,))
    assert xp.broadcast_shapes(3, (2, 1)) == (2, 3)  # an int is a 1-d shape, as NumPy reads it (array_api policy)
    with pytest.raises(TypeError, match="broadcast_shapes"):
        tx.broadcast_shapes(3)
    with pytest.raises(TypeError, match="broadcast_shapes"):
        xp.broadcast_shapes("a")
    assert not hasattr(namespace("array_api", "2024.12"), "broadcast_shapes")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0, 1, 1, 2, 3]), max_size=4), max_size=4))
def test_broadcast_shapes_plain_tuples_as_any_shape(shapes):
    """Tuples of Python ints take the plain path; lists of NumPy ints the checked one: the same
    shape, or the same error word for word, and NumPy's answer."""

    def outcome(shapes):
        try:
            return xp.broadcast_shapes(*shapes)
        except ValueError as exc:
            return str(exc)

    plain = outcome([tuple(s) for s in shapes])
    assert plain == outcome([[np.int64(side) for side in s] for s in shapes])
    try:
        expected = np.broadcast_shapes(*map(tuple, shapes))
    except ValueError:
        assert isinstance(plain, str) and "do not broadcast" in plain
    else:
        assert plain == expected


def test_broadcast_to_view_is_read_only_with_a_clear_error():
    y = xp.broadcast_to(xp.ones(3), (2, 3))
    with pytest.raises(ValueError, match="read-only"):
        y[0, 0] = 2.0


# -- shape changes ----------------------------------------------------------------------------
def test_expand_dims_tuple_is_2025_only():
    x = xp.ones((2, 3))
    assert xp.expand_dims(x, axis=(0, -1)).shape == (1, 2, 3, 1)
    old = namespace("array_api", "2024.12")
    with pytest.raises(TypeError, match="expand_dims"):
        old.expand_dims(old.ones(2), axis=(0,))
    assert old.expand_dims(old.ones(2), axis=-1).shape == (2, 1)


def test_expand_dims_errors():
    x = xp.ones((2, 3))
    with pytest.raises(IndexError, match="expand_dims"):
        xp.expand_dims(x, axis=3)
    with pytest.raises(IndexError, match="expand_dims"):
        xp.expand_dims(x, axis=-4)
    with pytest.raises(ValueError, match="expand_dims"):
        xp.expand_dims(x, axis=(0, -4))


def test_squeeze():
    x = xp.ones((1, 2, 1))
    assert xp.squeeze(x, axis=(0, -1)).shape == (2,)
    with pytest.raises(ValueError, match="squeeze.*size 2"):
        xp.squeeze(x, axis=1)
    with pytest.raises(IndexError, match="squeeze"):
        xp.squeeze(x, axis=3)
    with pytest.raises(ValueError, match="squeeze"):
        xp.squeeze(x, axis=(0, 0))


@pytest.fixture(params=["reshape(copy=)", "NumPy < 2.1: a view's shape"])
def reshape_without_copy(request, monkeypatch):
    """Both ways to reshape without a copy, on any NumPy: NumPy 2.0 has no ``reshape(copy=)``."""
    from array_api_promo import _manipulation_functions as M

    if request.param.startswith("reshape"):
        if not M._RESHAPE_TAKES_COPY:
            pytest.skip("np.reshape(copy=) is NumPy 2.1+")
    else:
        monkeypatch.setattr(M, "_RESHAPE_TAKES_COPY", False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # setting .shape (NumPy 2.5+); never reached there
        yield


def test_reshape_copy_semantics(reshape_without_copy):
    x = xp.reshape(xp.arange(6), (2, 3))
    assert _shares(xp.reshape(x, (3, 2)), x)
    assert not _shares(xp.reshape(x, (3, 2), copy=True), x)
    assert _shares(xp.reshape(x, (6,), copy=False), x)
    t = xp.permute_dims(x, (1, 0))
    with pytest.raises(ValueError, match="copy=False"):
        xp.reshape(t, (6,), copy=False)
    assert xp.reshape(t, (-1,))._data.tolist() == [0, 3, 1, 4, 2, 5]


def test_reshape_errors():
    x = xp.arange(6)
    with pytest.raises(ValueError, match="reshape"):
        xp.reshape(x, (4, -1))
    with pytest.raises(ValueError, match="at most once"):
        xp.reshape(x, (-1, -1))
    assert xp.reshape(x, (-2, 3)).shape == (2, 3)  # NumPy reads any negative size as -1 (the array_api policy)
    with pytest.raises(ValueError, match="negative"):
        tx.reshape(tx.arange(6), (-2, 3))
    with pytest.raises(TypeError, match="reshape"):
        xp.reshape(x, (2.0, 3))
    assert xp.reshape(x, (6,), copy=1).shape == (6,)  # by its truth, as array-api-strict (the array_api policy)
    with pytest.raises(TypeError, match="copy"):
        tx.reshape(tx.arange(6), (6,), copy="yes")


def test_permute_dims_and_moveaxis():
    x = xp.zeros((2, 3, 4))
    assert xp.permute_dims(x, (-1, 0, 1)).shape == (4, 2, 3)
    with pytest.raises(ValueError, match="permute_dims"):
        xp.permute_dims(x, (0, 1))
    with pytest.raises(ValueError, match="permute_dims"):
        xp.permute_dims(x, (0, 0, 1))
    with pytest.raises(IndexError, match="permute_dims"):
        xp.permute_dims(x, (0, 1, 3))
    assert xp.moveaxis(x, 0, -1).shape == (3, 4, 2)
    assert xp.moveaxis(x, (0, 1), (2, 0)).shape == (3, 4, 2)
    with pytest.raises(ValueError, match="moveaxis"):
        xp.moveaxis(x, (0, 1), (0,))
    with pytest.raises(ValueError, match="moveaxis"):
        xp.moveaxis(x, (0, 0), (1, 2))
    with pytest.raises(IndexError, match="moveaxis"):
        xp.moveaxis(x, 3, 0)


def test_flip_zero_d_and_axes():
    assert xp.flip(xp.asarray(5)).shape == ()
    x = xp.reshape(xp.arange(6), (2, 3))
    assert xp.flip(x, axis=1)._data.tolist() == [[2, 1, 0], [5, 4, 3]]
    assert xp.flip(x, axis=(0, 1))._data.tolist() == [[5, 4, 3], [2, 1, 0]]
    with pytest.raises(IndexError, match="flip"):
        xp.flip(x, axis=2)


def test_unstack():
    x = xp.reshape(xp.arange(6), (2, 3))
    parts = xp.unstack(x, axis=1)
    assert isinstance(parts, tuple) and len(parts) == 3 and parts[0]._data.tolist() == [0, 3]
    with pytest.raises(IndexError, match="unstack"):
        xp.unstack(xp.asarray(1))


# -- new data ------------------------------------------------------------------------------
def test_roll():
    x = xp.reshape(xp.arange(6), (2, 3))
    out = xp.roll(x, 1)
    assert out._data.tolist() == [[5, 0, 1], [2, 3, 4]]
    assert not _shares(out, x)
    assert xp.roll(x, (1, 1), axis=(0, 1))._data.tolist() == [[5, 3, 4], [2, 0, 1]]
    assert xp.roll(x, 1, axis=(0, 1))._data.tolist() == [[5, 3, 4], [2, 0, 1]]
    # NumPy's readings (the array_api policy's, as array-api-strict takes them): the shifts along one axis add up
    assert xp.roll(x, (1, 2))._data.tolist() == xp.roll(x, 3)._data.tolist()
    assert xp.roll(x, (1, 2), axis=0)._data.tolist() == xp.roll(x, 3, axis=0)._data.tolist()
    t = tx.reshape(tx.arange(6), (2, 3))
    with pytest.raises(ValueError, match="roll"):
        tx.roll(t, (1, 2))
    with pytest.raises(ValueError, match="roll"):
        tx.roll(t, (1, 2), axis=0)
    with pytest.raises(IndexError, match="roll"):
        xp.roll(x, 1, axis=2)
    with pytest.raises(TypeError, match="roll"):
        xp.roll(x, 1.5)


def test_repeat():
    x = xp.asarray([[1, 2], [3, 4]])
    assert xp.repeat(x, 2)._data.tolist() == [1, 1, 2, 2, 3, 3, 4, 4]
    assert xp.repeat(x, xp.asarray([1, 2], dtype=xp.uint64), axis=0).shape == (3, 2)
    assert xp.repeat(x, xp.asarray([3]), axis=1).shape == (2, 6)
    with pytest.raises(ValueError, match="non-negative"):
        xp.repeat(x, -1)
    with pytest.raises(ValueError, match="non-negative"):
        xp.repeat(x, xp.asarray([1, -1]), axis=0)
    with pytest.raises(TypeError, match="integer dtype"):
        xp.repeat(x, xp.asarray([1.0, 2.0]), axis=0)
    with pytest.raises(ValueError, match="shape"):
        xp.repeat(x, xp.asarray([1, 2, 3]), axis=0)
    with pytest.raises(TypeError, match="repeats"):
        xp.repeat(x, 2.0)
    with pytest.raises(IndexError, match="repeat"):
        xp.repeat(x, 2, axis=2)
    assert not _shares(xp.repeat(x, 1, axis=0), x)


def test_tile():
    x = xp.asarray([1, 2])
    assert xp.tile(x, (2, 2)).shape == (2, 4)
    out = xp.tile(x, (1,))
    assert not _shares(out, x)
    with pytest.raises(ValueError, match="tile"):
        xp.tile(x, (-1,))
    with pytest.raises(TypeError, match="tile"):
        xp.tile(x, 2)


def test_torch_bfloat16_and_float16_survive_manipulation():
    x = tx.asarray([1.0, 2.0], dtype=tx.bfloat16)
    assert tx.flip(x).dtype is tx.bfloat16
    assert tx.concat([x, x]).dtype is tx.bfloat16
    assert tx.concat([x, tx.asarray([1.0], dtype=tx.float16)]).dtype is tx.float32
