"""The fast paths of the elementwise functions and operators answer exactly as the general path does.

Two kinds of plan reach the fast tables (``runtime._fast``) since issue 32: NumPy's own ufunc for
the dtype kinds where the operation is that ufunc (``ceil``, ``floor``, ``trunc``, ``round``,
``sign`` of floating dtypes), and the special-value kernels of ``floor_divide``, ``remainder``
and ``pow`` for two arrays of the computation dtype (``_special_values.UFUNC_OF``), whose
guard is the compiled ``all_finite`` where it is built.  A fresh namespace's first call of a
signature takes the general path (``_apply1``/``_apply2``); a namespace warmed up by the same
signature on other values takes the fast one.  Both must give the same array (dtype, device,
NumPy dtype, shape, bytes) or the same error and the same warnings, under every policy, on
special values and integer division by zero.  Runs on the compiled and the pure-Python paths
alike (CI runs the suite both ways).
"""

from __future__ import annotations

import contextlib
import math

import numpy as np
import pytest
from fast_path_helpers import fresh_namespace, outcome  # tests/ is on sys.path (rootdir-relative import mode)
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from array_api_promo import _core, promotion
from array_api_promo._elementwise_functions import RAW_KERNELS, kernel_for
from array_api_promo._special_values import special_kernel

POLICIES = promotion.available_policies()
UNARY = ["ceil", "floor", "trunc", "round", "sign"]
BINARY = {"floor_divide": "//", "remainder": "%", "pow": "**"}


def _describe(out):
    data = np.asarray(out._data)
    return ("array", out.dtype, out.device, data.dtype, data.shape, data.tobytes())


def _special(dtype) -> np.ndarray:
    """Special values of a namespace's dtype."""
    return _special_of(dtype.name, dtype.numpy)


def _special_of(name: str, numpy_dtype) -> np.ndarray:
    if name == "bool":
        values = [True, False, True, False, True, False, True, True]
    elif name.startswith(("int", "uint")):
        info = np.iinfo(numpy_dtype)
        values = [int(info.min), int(info.max), 0, 1, 2, 3, 1, int(info.max) // 2]
    elif name.startswith("complex"):
        values = [complex(math.nan, 1.0), complex(0.0, -0.0), 1.5 - 2j, complex(math.inf, 0.0), 2, 0.5, -3j, 1]
    else:
        values = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.5, -2.5, 5e-324]
    with np.errstate(all="ignore"):
        return np.array(values, dtype=numpy_dtype)


def _operand_pairs(dtype):
    """(x1, x2) NumPy data: special values against special values, against no zero, 0-d ones."""
    a = _special(dtype)
    nonzero = np.where(a == 0, a.dtype.type(1), a) if dtype.name != "bool" else np.ones_like(a)
    pairs = [(a, np.roll(a, 3)), (a, a[::-1].copy()), (a, nonzero), (np.roll(a, 1), np.full_like(a, a[5]))]
    if dtype.name.startswith("float"):
        pairs.append((a, np.full_like(a, 0.5)))  # pow's sqrt case
    pairs += [(a[5:6].reshape(()), a[6:7].reshape(())), (a, a[2:3].reshape(()))]
    return pairs


def _general_then_fast(policy, call, warm):
    """(general outcome, fast outcome) of ``call(ns)``: a fresh namespace's first call, and a
    namespace warmed up by ``warm(ns)`` (the same signature, other values)."""
    general = outcome(lambda: call(fresh_namespace(policy)), _describe)
    ns = fresh_namespace(policy)
    with contextlib.suppress(Exception):  # a signature refused: nothing to remember
        warm(ns)
    return general, outcome(lambda: call(ns), _describe)


def _dtypes(policy):
    return list(fresh_namespace(policy).__array_namespace_info__().dtypes().values())


def _binary_calls(name, form):
    if form == "function":
        return lambda ns, a, b: getattr(ns, name)(a, b)
    if form == "operator":
        return lambda ns, a, b: eval(f"a {BINARY[name]} b")  # noqa: S307 - the operator itself

    def inplace(ns, a, b):
        exec(f"a {BINARY[name]}= b")  # noqa: S102 - the in-place operator itself
        return a

    return inplace


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("form", ["function", "operator", "inplace"])
def test_floor_divide_remainder_and_pow_answer_as_the_general_path(policy, form):
    checked = 0
    for name in BINARY:
        run = _binary_calls(name, form)
        for dtype in _dtypes(policy):
            for d1, d2 in _operand_pairs(dtype):

                def call(ns, d1=d1, d2=d2, run=run):
                    return run(ns, ns.asarray(d1.copy()), ns.asarray(d2))

                def warm(ns, d1=d1, d2=d2, run=run):
                    return run(ns, ns.asarray(np.ones_like(d1)), ns.asarray(np.ones_like(d2)))

                general, fast = _general_then_fast(policy, call, warm)
                assert fast == general, (policy, name, form, dtype, d1, d2)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("policy", POLICIES)
def test_rounding_and_sign_answer_as_the_general_path(policy):
    for name in UNARY:
        for dtype in _dtypes(policy):
            for data in (_special(dtype), _special(dtype)[3:4].reshape(()), _special(dtype)[::-2]):

                def call(ns, data=data, name=name):
                    return getattr(ns, name)(ns.asarray(data))

                def warm(ns, data=data, name=name):
                    return getattr(ns, name)(ns.asarray(np.ones_like(data)))

                general, fast = _general_then_fast(policy, call, warm)
                assert fast == general, (policy, name, dtype, data)


def test_the_per_dtype_kernels_are_the_generic_ones_bit_for_bit():
    """kernel_for's ufunc of a dtype kind (np.rint for round) gives the bits of the kernel it replaced."""
    rounding = [0.5, 1.5, 2.5, -0.5, -1.5, -2.4999, 3.7, 2.0**52 + 0.5, 1e300, 1e-310]
    for dtype in (np.float16, np.float32, np.float64, np.complex64, np.complex128, np.int8, np.uint64, np.bool_):
        values = list(_special_of(np.dtype(dtype).name, dtype))
        if np.dtype(dtype).kind == "f":
            values += rounding
        with np.errstate(all="ignore"):
            data = np.array(values, dtype=dtype)
            if np.dtype(dtype).kind == "c":
                data = (data[:, None] + 1j * np.array(rounding + [math.nan, -0.0, math.inf])[None, :]).ravel()
                data = data.astype(dtype)
        for name in UNARY:
            with np.errstate(all="ignore"):
                generic = special_kernel(name, data.dtype) or RAW_KERNELS[name]
                expected = _bits(lambda generic=generic: generic(data))
                got = _bits(lambda name=name: kernel_for(name, data.dtype)(data))
            assert got == expected, (name, dtype)


def _bits(call):
    try:
        out = np.asarray(call())
    except TypeError as exc:  # no loop for the dtype (ceil of complex): refused alike
        return ("error", str(exc))
    return (out.dtype, out.shape, out.tobytes())


@settings(max_examples=100, deadline=None)
@given(
    data=hnp.arrays(
        st.sampled_from([np.float64, np.float32]),
        hnp.array_shapes(min_dims=0, max_dims=2, max_side=40),
        elements=st.floats(allow_nan=True, allow_infinity=True, width=32),
    ),
    step=st.sampled_from([1, 2, -1]),
)
def test_all_finite_is_numpys_answer(data, step):
    view = data[..., ::step] if data.ndim else data
    assert _core.all_finite(view) == bool(np.isfinite(view).all())
    swapped = view.astype(view.dtype.newbyteorder())
    assert _core.all_finite(swapped) == bool(np.isfinite(swapped).all())


def test_all_finite_finds_one_non_finite_value_anywhere():
    for dtype in (np.float64, np.float32):
        for n in (1, 7, 255, 256, 257, 1000, 4096):
            for where in {0, n // 2, n - 1}:
                for bad in (math.nan, math.inf, -math.inf):
                    data = np.ones(n, dtype)
                    assert _core.all_finite(data)
                    data[where] = bad
                    assert not _core.all_finite(data), (dtype, n, where, bad)
    assert _core.all_finite(np.array([np.finfo(np.float64).max, -np.finfo(np.float64).tiny, 5e-324, -0.0]))
