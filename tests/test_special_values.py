"""Special values (IEEE 754 special cases) of the elementwise functions.

The tables below are the standard's special cases (2025.12 stubs, ``Notes /
Special cases`` of each function) for the inputs where NumPy's own result
differs, plus enough neighbouring cases to pin the behaviour down.  Every row is
checked under both namespaces (``array_api`` and ``torch`` policies), in every
floating dtype of the namespace that can represent the inputs, as arrays and as
0-d arrays, and -- for binary functions -- with a Python scalar on either side.

Comparison is strict: NaN matches NaN, zeros must have the expected sign, and a
component whose sign the standard leaves unspecified is written with ``ANY``
(``ANY * 0.0``, ``ANY * inf``) and compared by magnitude.
"""

from __future__ import annotations

import math
import os
import pathlib
import subprocess
import sys
import warnings

import numpy as np
import pytest

import array_api_promo as xp
import array_api_promo.torch as tx

inf = math.inf
nan = math.nan
pi = math.pi

NAMESPACES = {"array_api": xp, "torch": tx}


class _Any:
    """Marks a component whose sign is unspecified: ``ANY * 0.0`` means "+0 or -0"."""

    def __mul__(self, value):
        return _Unsigned(value)

    __rmul__ = __mul__


class _Unsigned(float):
    pass


ANY = _Any()


def _same_float(got: float, want) -> bool:
    if math.isnan(want):
        return math.isnan(got)
    if isinstance(want, _Unsigned):
        got, want = abs(got), abs(float(want))
    if want == 0 or math.isinf(want):
        return got == want and math.copysign(1, got) == math.copysign(1, want)
    return math.isclose(got, want, rel_tol=2e-3)


def _same(got, want) -> bool:
    if isinstance(want, tuple):  # complex: (real, imag)
        return _same_float(got.real, want[0]) and _same_float(got.imag, want[1])
    return _same_float(got, want)


# -- real-valued tables: (inputs, expected) ---------------------------------------------------
REAL_BINARY = {
    "floor_divide": [
        # NumPy: NaN (Python's choice); standard: +-infinity
        ((inf, 2.0), inf),
        ((inf, -2.0), -inf),
        ((-inf, 2.0), -inf),
        ((-inf, -2.0), inf),
        ((inf, 0.5), inf),
        ((-inf, 3.0), -inf),
        # NumPy: -1.0 (Python's choice); standard: the signed zero
        ((1.0, -inf), -0.0),
        ((-1.0, inf), -0.0),
        ((2.5, -inf), -0.0),
        ((-3.0, inf), -0.0),
        ((1.0, inf), 0.0),
        ((-1.0, -inf), 0.0),
        ((0.0, inf), 0.0),
        ((-0.0, inf), -0.0),
        ((0.0, -inf), -0.0),
        ((-0.0, -inf), 0.0),
        ((inf, inf), nan),
        ((-inf, inf), nan),
        ((inf, nan), nan),
        ((nan, inf), nan),
        ((0.0, 0.0), nan),
        ((-0.0, 0.0), nan),
        ((nan, 1.0), nan),
        ((1.0, nan), nan),
        ((0.0, 2.0), 0.0),
        ((-0.0, 2.0), -0.0),
        ((0.0, -2.0), -0.0),
        ((-0.0, -2.0), 0.0),
        ((1.0, 0.0), inf),
        ((1.0, -0.0), -inf),
        ((-1.0, 0.0), -inf),
        ((-1.0, -0.0), inf),
        ((inf, 0.0), inf),
        ((-inf, 0.0), -inf),
        ((7.0, 2.0), 3.0),
        ((-7.0, 2.0), -4.0),
        ((7.0, -2.0), -4.0),
        ((-7.0, -2.0), 3.0),
    ],
    "remainder": [
        ((inf, 2.0), nan),
        ((-inf, 2.0), nan),
        ((inf, inf), nan),
        ((nan, 1.0), nan),
        ((1.0, inf), 1.0),
        ((1.0, -inf), -inf),
        ((-1.0, inf), inf),
        ((-1.0, -inf), -1.0),
        ((0.0, 2.0), 0.0),
        ((-0.0, 2.0), 0.0),
        ((0.0, -2.0), -0.0),
        ((-0.0, -2.0), -0.0),
        ((1.0, 0.0), nan),
        ((-1.0, -0.0), nan),
        ((0.0, 0.0), nan),
        ((5.0, 3.0), 2.0),
        ((5.0, -3.0), -1.0),
        ((-5.0, 3.0), 1.0),
        ((-5.0, -3.0), -2.0),
    ],
    "pow": [
        # NumPy's scalar-exponent 0.5 fast path is sqrt: NaN and -0 here
        ((-inf, 0.5), inf),
        ((-0.0, 0.5), 0.0),
        ((0.0, 0.5), 0.0),
        ((inf, 0.5), inf),
        ((4.0, 0.5), 2.0),
        ((-1.0, 0.5), nan),
        ((nan, 0.5), nan),
        ((-inf, 3.0), -inf),
        ((-inf, 2.0), inf),
        ((-0.0, 3.0), -0.0),
        ((-0.0, 2.0), 0.0),
        ((-0.0, -1.0), -inf),
        ((0.0, -1.0), inf),
        ((-inf, -1.0), -0.0),
        ((nan, 0.0), 1.0),
        ((1.0, nan), 1.0),
        ((-1.0, inf), 1.0),
        ((0.5, inf), 0.0),
        ((2.0, -inf), 0.0),
    ],
    "nextafter": [
        # NumPy's float16 loop returns x1 for (-0, +0) and (+0, -0); IEEE returns x2
        ((-0.0, 0.0), 0.0),
        ((0.0, -0.0), -0.0),
        ((1.0, 1.0), 1.0),
        ((nan, 1.0), nan),
        ((1.0, nan), nan),
    ],
}

REAL_UNARY = {
    "sign": [(-0.0, 0.0), (0.0, 0.0), (nan, nan), (-inf, -1.0), (inf, 1.0), (-2.0, -1.0)],
    "expm1": [(-0.0, -0.0), (0.0, 0.0), (inf, inf), (-inf, -1.0), (nan, nan)],
    "tanh": [(-0.0, -0.0), (inf, 1.0), (-inf, -1.0), (nan, nan)],
}

# -- complex tables: input -> (real, imag) ---------------------------------------------------
COMPLEX_UNARY = {
    "expm1": [
        (complex(0.0, 0.0), (0.0, 0.0)),
        (complex(-0.0, 0.0), (0.0, 0.0)),
        (complex(-0.0, -0.0), (0.0, -0.0)),
        (complex(inf, 0.0), (inf, 0.0)),
        (complex(inf, -0.0), (inf, -0.0)),
        (complex(1.0, inf), (nan, nan)),
        (complex(1.0, nan), (nan, nan)),
        # +0 * cis(b) - 1
        (complex(-inf, 1.0), (-1.0, 0.0)),
        (complex(-inf, 2.0), (-1.0, 0.0)),
        (complex(-inf, 4.0), (-1.0, -0.0)),
        (complex(-inf, -1.0), (-1.0, -0.0)),
        # +infinity * cis(b) - 1
        (complex(inf, 1.0), (inf, inf)),
        (complex(inf, 2.0), (-inf, inf)),
        (complex(inf, -1.0), (inf, -inf)),
        (complex(-inf, inf), (-1.0, ANY * 0.0)),
        (complex(inf, inf), (ANY * inf, nan)),
        (complex(-inf, nan), (-1.0, ANY * 0.0)),
        (complex(inf, nan), (ANY * inf, nan)),
        (complex(nan, 0.0), (nan, 0.0)),
        (complex(nan, -0.0), (nan, -0.0)),
        (complex(nan, 1.0), (nan, nan)),
        (complex(nan, nan), (nan, nan)),
        (complex(1.0, 0.0), (math.e - 1, 0.0)),
    ],
    "tanh": [
        (complex(0.0, 0.0), (0.0, 0.0)),
        (complex(-0.0, -0.0), (-0.0, -0.0)),
        (complex(1.0, inf), (nan, nan)),
        (complex(0.0, inf), (0.0, nan)),
        (complex(1.0, nan), (nan, nan)),
        (complex(0.0, nan), (0.0, nan)),
        # C99 gives 1 + 0 * sin(2y) j; the standard 1 + 0j (conj/odd symmetric)
        (complex(inf, 2.5), (1.0, 0.0)),
        (complex(inf, 1.0), (1.0, 0.0)),
        (complex(inf, 2.0), (1.0, 0.0)),
        (complex(inf, -2.5), (1.0, -0.0)),
        (complex(-inf, 2.5), (-1.0, 0.0)),
        (complex(-inf, -2.5), (-1.0, -0.0)),
        (complex(inf, inf), (1.0, ANY * 0.0)),
        (complex(inf, nan), (1.0, ANY * 0.0)),
        (complex(nan, 0.0), (nan, 0.0)),
        (complex(nan, 1.0), (nan, nan)),
        (complex(nan, nan), (nan, nan)),
    ],
    "sign": [
        (complex(0.0, 0.0), (0.0, 0.0)),
        (complex(-0.0, -0.0), (ANY * 0.0, ANY * 0.0)),
        (complex(inf, nan), (nan, nan)),
        (complex(nan, inf), (nan, nan)),
        (complex(nan, 0.0), (nan, nan)),
        (complex(1.0, nan), (nan, nan)),
        (complex(nan, nan), (nan, nan)),
        (complex(3.0, 4.0), (0.6, 0.8)),
        (complex(-2.0, 0.0), (-1.0, 0.0)),
    ],
    "sqrt": [
        (complex(0.0, 0.0), (0.0, 0.0)),
        (complex(-0.0, 0.0), (0.0, 0.0)),
        (complex(1.0, inf), (inf, inf)),
        (complex(nan, inf), (inf, inf)),
        (complex(inf, inf), (inf, inf)),
        (complex(nan, -inf), (inf, -inf)),
        (complex(1.0, nan), (nan, nan)),
        (complex(-inf, 1.0), (0.0, inf)),
        (complex(inf, 1.0), (inf, 0.0)),
        (complex(-inf, nan), (nan, ANY * inf)),
        (complex(inf, nan), (inf, nan)),
        (complex(nan, 1.0), (nan, nan)),
        (complex(nan, nan), (nan, nan)),
        (complex(-4.0, 0.0), (0.0, 2.0)),
        (complex(-4.0, -0.0), (0.0, -2.0)),
    ],
    "acosh": [
        (complex(0.0, 0.0), (0.0, pi / 2)),
        (complex(-0.0, 0.0), (0.0, pi / 2)),
        (complex(1.0, inf), (inf, pi / 2)),
        (complex(1.0, nan), (nan, nan)),
        (complex(0.0, nan), (nan, ANY * (pi / 2))),
        (complex(-inf, 1.0), (inf, pi)),
        (complex(inf, 1.0), (inf, 0.0)),
        (complex(-inf, inf), (inf, 3 * pi / 4)),
        (complex(inf, inf), (inf, pi / 4)),
        (complex(inf, nan), (inf, nan)),
        (complex(-inf, nan), (inf, nan)),
        (complex(nan, 1.0), (nan, nan)),
        (complex(nan, inf), (inf, nan)),
        (complex(nan, nan), (nan, nan)),
    ],
    "exp": [
        (complex(-inf, 1.0), (0.0, 0.0)),
        (complex(-inf, 4.0), (-0.0, -0.0)),
        (complex(inf, 0.0), (inf, 0.0)),
        (complex(-inf, inf), (ANY * 0.0, ANY * 0.0)),
        (complex(-inf, nan), (ANY * 0.0, ANY * 0.0)),
        (complex(inf, nan), (ANY * inf, nan)),
        (complex(nan, 0.0), (nan, 0.0)),
        (complex(nan, 1.0), (nan, nan)),
    ],
}


def _float_dtypes(ns):
    return [getattr(ns, n) for n in ("float64", "float32", "float16", "bfloat16") if hasattr(ns, n)]


def _complex_dtypes(ns):
    return [getattr(ns, n) for n in ("complex128", "complex64") if hasattr(ns, n)]


def _unspecified_here(name, ns):
    """Functions a policy refuses for a dtype kind (e.g. torch has no complex sign)."""
    try:
        getattr(ns, name)(ns.asarray(complex(1.0, 1.0), dtype=ns.complex128))
    except TypeError:
        return True
    return False


def _binary_calls(ns, name, dt, a, b):
    func = getattr(ns, name)
    return {
        "0-d": lambda: func(ns.asarray(a, dtype=dt), ns.asarray(b, dtype=dt)),
        "1-d": lambda: func(ns.asarray([a, a], dtype=dt), ns.asarray([b, b], dtype=dt))[1],
        "mixed": lambda: func(ns.asarray([1.0, a], dtype=dt), ns.asarray(b, dtype=dt))[1],
    }


def _python_scalar_calls(ns, name, dt, a, b):
    """A Python scalar on either side (converted by the policy, then the same kernels)."""
    func = getattr(ns, name)
    return {
        "scalar x2": lambda: func(ns.asarray([a], dtype=dt), b)[0],
        "scalar x1": lambda: func(a, ns.asarray([b], dtype=dt))[0],
    }


OPERATORS = {"floor_divide": "__floordiv__", "remainder": "__mod__", "pow": "__pow__"}


def _operator_calls(ns, name, dt, a, b):
    """The dunders (and their in-place forms) go through the same kernels."""
    op = OPERATORS[name]
    iop = "__i" + op[2:]
    return {
        f"{op} scalar": lambda: getattr(ns.asarray([a], dtype=dt), op)(b)[0],
        f"{op} array": lambda: getattr(ns.asarray([a], dtype=dt), op)(ns.asarray([b], dtype=dt))[0],
        iop: lambda: getattr(ns.asarray([a], dtype=dt), iop)(b)[0],
    }


def _unary_calls(ns, name, dt, x):
    func = getattr(ns, name)
    other = 1 + 1j if isinstance(x, complex) else 1.0
    return {"0-d": lambda: func(ns.asarray(x, dtype=dt)), "1-d": lambda: func(ns.asarray([other, x], dtype=dt))[1]}


# table -> (its rows by function, the ways of calling a function on a row, the namespace's dtypes to run them in)
TABLES = {
    "real_binary": (REAL_BINARY, _binary_calls, _float_dtypes),
    "real_binary_python_scalars": (REAL_BINARY, _python_scalar_calls, _float_dtypes),
    "real_binary_operators": ({n: REAL_BINARY[n] for n in OPERATORS}, _operator_calls, lambda ns: [ns.float64]),
    "real_unary": (REAL_UNARY, _unary_calls, _float_dtypes),
    "complex_unary": (COMPLEX_UNARY, _unary_calls, _complex_dtypes),
}


@pytest.mark.parametrize("policy", NAMESPACES)
@pytest.mark.parametrize(("table", "name"), [(table, name) for table, (rows, *_) in TABLES.items() for name in rows])
def test_special_values_table(policy, table, name):
    """Each row of the table, in each dtype of the namespace that holds it, called each way: a line per
    mismatch (a call that raises is one too)."""
    ns = NAMESPACES[policy]
    rows, calls, dtypes = TABLES[table]
    if table == "complex_unary" and _unspecified_here(name, ns):
        # The policy refuses complex input (torch.sign): a clear TypeError, not wrong values.
        with pytest.raises(TypeError, match=f"{name}: .*policy '{policy}'"):
            getattr(ns, name)(ns.asarray([1 + 1j], dtype=_complex_dtypes(ns)[0]))
        return
    convert = complex if table == "complex_unary" else float
    bad = []
    for dt in dtypes(ns):
        for inputs, want in rows[name]:
            inputs = inputs if isinstance(inputs, tuple) else (inputs,)
            shown = f"{name}({', '.join(map(repr, inputs))}) [{dt}"
            for how, call in calls(ns, name, dt, *inputs).items():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        got = convert(call())
                    except Exception as exc:  # report every dtype and way, not only the first
                        bad.append(f"{shown} {how}] raised {type(exc).__name__}: {exc}")
                        continue
                if not _same(got, want):
                    bad.append(f"{shown} {how}] = {got!r}, want {want!r}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "pow", "expm1", "tanh", "sign", "nextafter"])
def test_special_kernel_selection(name):
    """special_kernel(name, dtype) picks a fix-up only where NumPy is wrong; it agrees with the generic kernel."""
    import ml_dtypes

    from array_api_promo._elementwise_functions import KERNELS
    from array_api_promo._special_values import SPECIAL_KERNELS, special_kernel

    raw = {
        "floor_divide": np.floor_divide,
        "remainder": np.remainder,
        "pow": np.power,
        "expm1": np.expm1,
        "tanh": np.tanh,
        "sign": np.sign,
        "nextafter": np.nextafter,
    }[name]
    assert KERNELS[name] is SPECIAL_KERNELS[name]
    for dt in (np.int8, np.int64, np.uint8, np.uint64):
        k = special_kernel(name, dt)
        signed_pow = name == "pow" and np.dtype(dt).kind == "i"
        assert k is None or name in ("floor_divide", "remainder") or signed_pow, (name, dt)
    table = REAL_BINARY.get(name)  # a list: (0.0, inf) and (-0.0, inf) would collide as dict keys
    for dt in (np.float16, ml_dtypes.bfloat16, np.float32, np.float64, np.complex64, np.complex128):
        if np.dtype(dt).kind == "c" and name in ("floor_divide", "remainder", "nextafter"):
            continue
        k = special_kernel(name, dt) or raw
        if table is not None:
            if np.dtype(dt).kind == "c":
                continue
            for (a, b), want in table:
                x1, x2 = np.asarray([a], dtype=dt), np.asarray(b, dtype=dt)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    got, generic = float(np.asarray(k(x1, x2))[0]), float(np.asarray(SPECIAL_KERNELS[name](x1, x2))[0])
                assert _same(got, want), (name, dt, a, b, got, want)
                assert _same(generic, want), (name, dt, a, b, generic, want)
        elif np.dtype(dt).kind == "c":
            for z, want in COMPLEX_UNARY.get(name, []):
                x = np.asarray([z], dtype=dt)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    got = complex(np.asarray(k(x))[0])
                assert _same(got, want), (name, dt, z, got, want)


@pytest.mark.parametrize("policy", NAMESPACES)
def test_floor_divide_broadcasts_with_infinities(policy):
    ns = NAMESPACES[policy]
    x1 = ns.asarray([[inf], [-1.0], [7.0]])
    x2 = ns.asarray([[2.0, -inf, inf, 0.5]])
    got = np.asarray([[float(v) for v in row] for row in ns.floor_divide(x1, x2)._data])
    want = np.array([[inf, nan, nan, inf], [-1.0, 0.0, -0.0, -2.0], [3.0, -0.0, 0.0, 14.0]])
    assert got.shape == (3, 4)
    assert np.array_equal(got, want, equal_nan=True)
    keep = ~np.isnan(want)
    assert np.array_equal(np.signbit(got[keep]), np.signbit(want[keep]))


@pytest.mark.parametrize("policy", NAMESPACES)
@pytest.mark.parametrize("name", ["floor_divide", "remainder"])
def test_integer_division_by_zero_is_zero_without_warning(policy, name):
    """The rule "zero" (the standard's policy); the others: test_integer_division_by_zero_follows_the_library."""
    ns = NAMESPACES[policy]
    if ns._runtime.policy.integer_division_by_zero != "zero":
        pytest.skip(f"{policy}'s library does not give 0 silently")
    for dt in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
        if not hasattr(ns, dt):
            continue
        dtype = getattr(ns, dt)
        x1 = ns.asarray([7, 0, 5, 6], dtype=dtype)
        x2 = ns.asarray([0, 0, 2, 3], dtype=dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = getattr(ns, name)(x1, x2)
            zero_d = getattr(ns, name)(ns.asarray(3, dtype=dtype), ns.asarray(0, dtype=dtype))
            op = x1 // 0 if name == "floor_divide" else x1 % 0
        want = [0, 0, 2, 2] if name == "floor_divide" else [0, 0, 1, 0]
        assert [int(v) for v in out._data] == want, dt
        assert int(zero_d) == 0
        assert [int(v) for v in op._data] == [0, 0, 0, 0]
        assert out.dtype == dtype


@pytest.mark.parametrize("policy", NAMESPACES)
def test_integer_pow_negative_exponent(policy):
    """Unspecified by the standard; NumPy raises for the whole array, we give torch's values (the
    array_api policy refuses it, as array-api-strict: test_integer_pow_negative_exponent_refused)."""
    ns = NAMESPACES[policy]
    if "negative_power" in ns._runtime.policy.undefined_refusals:
        return
    x = ns.asarray([-3, -2, -1, 0, 1, 2, 3], dtype=ns.int8)
    for e, want in ((-1, [0, 0, -1, 0, 1, 0, 0]), (-2, [0, 0, 1, 0, 1, 0, 0]), (-3, [0, 0, -1, 0, 1, 0, 0])):
        assert [int(v) for v in ns.pow(x, ns.asarray(e, dtype=ns.int8))._data] == want
        assert [int(v) for v in (x**e)._data] == want
    mixed = ns.pow(x, ns.asarray([-1, 2, -3, 1, -5, 3, 0], dtype=ns.int8))
    assert [int(v) for v in mixed._data] == [0, 4, -1, 0, 1, 8, 1]
    assert mixed.dtype == ns.int8


def test_integer_pow_negative_exponent_refused():
    x = xp.asarray([-3, 2, 3], dtype=xp.int8)
    for call in (
        lambda: x**-1,
        lambda: xp.pow(x, -2),
        lambda: xp.pow(x, xp.asarray([1, -1, 2], dtype=xp.int8)),
        lambda: xp.pow(xp.asarray(2), xp.asarray(-1)),
    ):
        with pytest.raises(ValueError, match=r"pow: an int\d+ base to a negative integer power .*policy 'array_api'"):
            call()
    y = xp.asarray([2, 3], dtype=xp.int16)
    with pytest.raises(ValueError, match="negative integer power"):
        y **= -1
    assert (x**2)._data.tolist() == [9, 4, 9] and xp.pow(x, 0)._data.tolist() == [1, 1, 1]
    assert xp.pow(xp.asarray([2], dtype=xp.uint8), 3)._data.tolist() == [8]


@pytest.mark.parametrize("policy", NAMESPACES)
def test_complex_pow_large_integral_exponent(policy):
    """NumPy: (3+3j) ** -58 is NaN (z ** 58 overflows, then 1 / inf); the value is about -3.95e-37j."""
    ns = NAMESPACES[policy]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = ns.pow(ns.asarray([3 + 3j, 1 + 1j], dtype=ns.complex64), ns.asarray(-58 + 0j, dtype=ns.complex64))
        big = complex(ns.pow(ns.asarray(3 + 3j, dtype=ns.complex128), ns.asarray(-400 + 0j, dtype=ns.complex128)))
    got = complex(out[0])
    assert abs(got.real) < 1e-40 and math.isclose(got.imag, -3.9545e-37, rel_tol=1e-3)
    assert math.isclose(complex(out[1]).imag, -1.8626451e-09, rel_tol=1e-5)
    assert big.real > 0 and math.isclose(big.real, 8.8206e-252, rel_tol=1e-3)


@pytest.mark.parametrize("policy", NAMESPACES)
def test_complex_pow_real_overflow_keeps_numpys_value(policy):
    """An infinite part with no NaN is a real overflow: NumPy's value, bit for bit (marray's test compares them)."""
    ns = NAMESPACES[policy]
    base = np.asarray([-16.081879 - 12.298004j], dtype=np.complex64)
    exponent = np.asarray([23.774471 + 7.608423j], dtype=np.complex64)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = base**exponent
        got = ns.pow(ns.asarray(base), ns.asarray(exponent))
    assert np.isinf(expected.imag[0]) and np.isfinite(expected.real[0])
    assert np.asarray(got).tobytes() == expected.tobytes()


@pytest.mark.parametrize("policy", NAMESPACES)
def test_integer_kernels_match_numpy(policy):
    """Integer inputs take the raw ufunc: same values as NumPy, negative operands included."""
    ns = NAMESPACES[policy]
    rng = np.random.default_rng(0)
    a = rng.integers(-1000, 1000, size=200)
    b = rng.integers(-50, 50, size=200)
    b[b == 0] = 7
    x1, x2 = ns.asarray(a.tolist(), dtype=ns.int64), ns.asarray(b.tolist(), dtype=ns.int64)
    assert np.array_equal(ns.floor_divide(x1, x2)._data, np.floor_divide(a, b))
    assert np.array_equal(ns.remainder(x1, x2)._data, np.remainder(a, b))
    assert np.array_equal(
        ns.pow(x1, ns.asarray(np.abs(b).tolist(), dtype=ns.int64) % 5)._data, np.power(a, np.abs(b) % 5)
    )
    assert np.array_equal(ns.sign(x1)._data, np.sign(a))


@pytest.mark.parametrize("policy", NAMESPACES)
def test_finite_inputs_match_numpy(policy):
    """On finite inputs the kernels are NumPy's ufuncs (the fix-ups only touch special values)."""
    ns = NAMESPACES[policy]
    rng = np.random.default_rng(1)
    a = rng.normal(scale=10, size=300)
    b = rng.normal(scale=3, size=300)
    x1, x2 = ns.asarray(a.tolist()), ns.asarray(b.tolist())
    a, b = x1._data, x2._data  # the namespace's default float (float32 under torch)
    z = a + 1j * b
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.array_equal(ns.floor_divide(x1, x2)._data, np.floor_divide(a, b))
        assert np.array_equal(ns.remainder(x1, x2)._data, np.remainder(a, b))
        assert np.array_equal(ns.pow(ns.abs(x1), x2)._data, np.power(np.abs(a), b))
        # NumPy's own x ** 0.5 (a sqrt fast path; in float32 only from NumPy 2.3 on, a last bit apart before)
        assert np.array_equal(ns.pow(ns.abs(x1), 0.5)._data, np.power(np.abs(a), np.asarray(0.5, dtype=a.dtype)))
        assert np.array_equal(ns.nextafter(x1, x2)._data, np.nextafter(a, b))
        if not _unspecified_here("tanh", ns):
            zz = ns.asarray(z.tolist())
            z = zz._data
            assert np.array_equal(ns.tanh(zz)._data, np.tanh(z))
            assert np.array_equal(ns.expm1(zz)._data, np.expm1(z))
            if not _unspecified_here("sign", ns):
                assert np.array_equal(ns.sign(zz)._data, np.sign(z))


@pytest.mark.parametrize("policy", NAMESPACES)
def test_float_special_paths_do_not_warn(policy):
    """The fix-up paths silence NumPy's "invalid value" warnings about values they replace."""
    ns = NAMESPACES[policy]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ns.floor_divide(ns.asarray([inf, -inf, 1.0]), ns.asarray([2.0, 3.0, inf]))
        ns.pow(ns.asarray([-inf, -0.0, 4.0]), 0.5)
        ns.expm1(ns.asarray([complex(inf, inf), complex(-inf, nan)]))
        ns.tanh(ns.asarray([complex(inf, 2.5), complex(nan, 1.0)]))


UPSTREAM = pathlib.Path(
    os.environ.get("ARRAY_API_TESTS_DIR")
    or pathlib.Path(__file__).parents[1] / "conformance" / ".cache" / "array-api-tests"
)
GRID_SCRIPT = r"""
import itertools, math, sys, warnings
warnings.simplefilter("ignore")
import array_api_tests.test_special_cases as tsc
xp = tsc.xp
inf, nan = math.inf, math.nan
R = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 2.5, -2.5, 3.0, -3.0, 1.5, -1.5, 7.0, -7.0,
     inf, -inf, nan, 1e300, -1e300, 5e-324, -5e-324, 0.25, -0.25, 10.0, -10.0, 100.5]
C = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 2.0, -2.0, inf, -inf, nan, 0.5]
bad = []
for dtname in sys.argv[1:]:
    dt = getattr(xp, dtname)
    cdt = {"float64": getattr(xp, "complex128", None), "float32": getattr(xp, "complex64", None)}.get(dtname)
    def uniq(vals, d):
        return list({repr(v): v for v in (type(v)(xp.asarray(v, dtype=d)) for v in vals)}.values())
    for name, func, case in [p.values for p in tsc.unary_params]:
        if getattr(case, "is_complex", False):
            if cdt is None:
                continue
            vals, d = uniq([complex(a, b) for a in C for b in C], cdt), cdt
        else:
            vals, d = uniq(R, dt), dt
        for v in vals:
            try:
                if not case.cond(v):
                    continue
                out = func(xp.asarray(v, dtype=d))
            except Exception:
                continue
            o = complex(out) if isinstance(v, complex) else float(out)
            if not case.check_result(v, o):
                bad.append(f"{dtname} {case} x={v!r} -> {o!r}")
    RR = uniq(R, dt)
    for params in (tsc.binary_params, tsc.iop_params):
        for name, func, case in [p.values for p in params]:
            for a, b in itertools.product(RR, RR):
                try:
                    if not case.cond(a, b):
                        continue
                    x1, x2 = xp.asarray(a, dtype=dt), xp.asarray(b, dtype=dt)
                    res = func(x1, x2)
                except Exception:
                    continue
                o = float(x1) if params is tsc.iop_params else float(res)
                if not case.check_result(a, b, o):
                    bad.append(f"{dtname} {name}: {case} x1={a!r} x2={b!r} -> {o!r}")
print("\n".join(bad))
print(len(bad), "mismatches")
"""


@pytest.mark.skipif(
    not (UPSTREAM / "array_api_tests" / "test_special_cases.py").exists(), reason="array-api-tests checkout not found"
)
@pytest.mark.parametrize(
    "module, dtypes",
    [
        ("array_api_promo", ["float64", "float32"]),
        ("array_api_promo.torch", ["float64", "float32", "float16", "bfloat16"]),
    ],
)
def test_upstream_special_cases_on_a_grid(module, dtypes):
    """array-api-tests draws ONE example per special case; evaluate every parsed case on a grid.

    Run in a subprocess: the suite reads ARRAY_API_TESTS_MODULE at import time and
    sets up its own hypothesis profile.
    """
    root = pathlib.Path(__file__).resolve().parents[1]
    env = dict(
        os.environ,
        ARRAY_API_TESTS_MODULE=module,
        ARRAY_API_TESTS_VERSION="2025.12",
        PYTHONPATH=os.pathsep.join([str(UPSTREAM), str(root)]),
    )
    proc = subprocess.run(
        [sys.executable, "-c", GRID_SCRIPT, *dtypes], env=env, capture_output=True, text=True, timeout=900
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().endswith("0 mismatches"), proc.stdout[-5000:]


def test_acosh_fix_up_where_numpy_is_wrong():
    """NumPy before 2.3 gives acosh(+-0 + NaN j) = NaN + NaN j; the fix-up, checked on any NumPy."""
    from array_api_promo._special_values import _ACOSH_NEEDS_FIX, _acosh_complex, special_kernel

    nan, inf = math.nan, math.inf
    for dt in (np.complex64, np.complex128):
        z = np.asarray([complex(0.0, nan), complex(-0.0, nan), 1 + 1j, complex(1, nan), complex(inf, nan)], dtype=dt)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got, numpy = _acosh_complex(z), np.arccosh(z)
        assert got.dtype == dt
        for w in got[:2]:
            assert math.isnan(w.real) and w.imag == dt(complex(0, math.pi / 2)).imag
        assert np.array_equal(got[2:], numpy[2:], equal_nan=True)  # elsewhere NumPy's values
        assert (special_kernel("acosh", dt) is _acosh_complex) == _ACOSH_NEEDS_FIX
        assert math.isnan(numpy[0].imag) == _ACOSH_NEEDS_FIX
    assert special_kernel("acosh", np.float64) is None


@pytest.mark.parametrize("policy,warns", [("numpy", True), ("numpy_legacy", True), ("array_api", False)])
def test_integer_division_by_zero_warns_where_numpy_does(policy, warns):
    """NumPy (2.x and 1.26) warns "divide by zero encountered in floor_divide/remainder" and gives 0;
    the numpy policies do the same, the standard's policy keeps the value and says nothing."""
    ns = xp.namespace(policy)
    a = ns.asarray([1, 2], dtype=ns.int32)
    zeros = ns.zeros(2, dtype=ns.int32)
    calls = {
        "floor_divide": [lambda: a // 0, lambda: ns.floor_divide(a, zeros), lambda: a[:1] // zeros[0]],
        "remainder": [lambda: a % 0, lambda: ns.remainder(a, zeros), lambda: 7 % zeros],
    }
    for name, each in calls.items():
        for call in each:
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                out = call()
            assert set(out._data.tolist()) == {0}
            messages = [str(w.message) for w in seen if w.category is RuntimeWarning]
            assert messages == ([f"divide by zero encountered in {name}"] if warns else []), (name, messages)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (a // ns.asarray([1, 2], dtype=ns.int32))._data.tolist() == [1, 1]  # no zero divisor: silent


# What each library gives for integer x // 0 and x % 0, measured on the real libraries (PyTorch
# 2.15.0: RuntimeError "ZeroDivisionError" for // and %, in place too; PaddlePaddle 3.3.1:
# "Integer division by zero" for both; JAX 0.12.0.1; MLX 0.32.4 on CPU; MegEngine 1.13.0 kills
# the process with SIGFPE, refused here instead). x is [-3, 0, 3].
_DIVISION_BY_ZERO = {
    "torch": ZeroDivisionError,
    "paddle": ZeroDivisionError,
    "megengine": ZeroDivisionError,
    "jax": ({"int32": [-2, -1, -2], "uint8": [255, 255, 255]}, [0, 0, 0]),
    "jax_x64": ({"int32": [-2, -1, -2], "uint8": [255, 255, 255]}, [0, 0, 0]),
    "mlx": ({"int32": [0, 0, 0], "uint8": [0, 0, 0]}, None),  # None: % 0 leaves x
}


@pytest.mark.parametrize("policy", sorted(_DIVISION_BY_ZERO))
def test_integer_division_by_zero_follows_the_library(policy):
    ns = xp.namespace(policy)
    expected = _DIVISION_BY_ZERO[policy]
    for dtype, values in (("int32", [-3, 0, 3]), ("uint8", [3, 0, 3])):
        x = ns.asarray(values, dtype=getattr(ns, dtype))
        zeros = ns.zeros(3, dtype=x.dtype)
        if expected is ZeroDivisionError:
            for call in (lambda: x // 0, lambda: ns.remainder(x, zeros), lambda: ns.floor_divide(x[:1], zeros[0])):
                with pytest.raises(
                    ZeroDivisionError,
                    match=rf"integer division by zero \({dtype} divisor holds 0\) \(policy '{policy}'\)",
                ):
                    call()
            y = ns.asarray(values, dtype=x.dtype)
            with pytest.raises(ZeroDivisionError):
                y //= zeros
            assert (x // ns.ones(3, dtype=x.dtype))._data.tolist() == values  # no zero divisor: computed
            continue
        quotients, remainders = expected
        quotient = quotients[dtype] if dtype == "int32" else [quotients[dtype][0]] * 3
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # silent, as the library is
            assert (x // 0)._data.tolist() == quotient
            assert ns.floor_divide(x, zeros)._data.tolist() == quotient
            assert ns.remainder(x, zeros)._data.tolist() == (values if remainders is None else remainders)


def test_integer_division_by_zero_rule_is_checked():
    from array_api_promo.promotion import ArrayAPIPolicy

    class Bad(ArrayAPIPolicy):
        name = "bad_division"
        integer_division_by_zero = "nan"

    with pytest.raises(
        ValueError, match="policy 'bad_division': integer_division_by_zero must be one of 'zero', 'warn'"
    ):
        Bad()
