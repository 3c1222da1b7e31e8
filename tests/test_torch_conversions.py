"""The ``torch`` policy where a Python scalar is *converted*, not promoted, against torch 2.13.0.

The records are the ``conversions`` sections of ``tests/data/torch_2.13.0_promotion.json`` and
``torch_2.15.0_promotion.json`` (``tools/gen_torch_golden.py``, under both default dtypes;
2.13.0 replayed under ``torch@2.13``, 2.15.0 under ``torch``): ``torch.asarray`` and
``torch.full`` of every literal into every dtype, ``torch.where`` and ``torch.clamp`` with
Python-scalar (and 0-d) arguments, and torch functions called with two Python scalars.
Each is replayed through the namespace itself and compared by dtype, values and error.

Errors: torch's wording is not ours; its error *kind* maps to ours --
``RuntimeError: value cannot be converted ... without overflow`` and the unpacking
``ValueError``/``OverflowError`` -> ``OverflowError`` (``TypeError`` for a complex into a
real dtype); promotion refusals and ``TypeError`` -> ``TypeError``.  A missing torch
kernel (``NotImplementedError``, e.g. ``add`` of uint64) is not a conversion rule: the
namespace computes in the dtype torch would have used.
"""

from __future__ import annotations

import ast
import json
import math
import pathlib
import warnings

import numpy as np
import pytest

import array_api_promo as xp
from array_api_promo import promotion
from array_api_promo._dtypes import dtype_by_name

# The live checks (torch installed) make complex32 tensors, and torch warns that they are
# experimental: a fact about torch, not about us.
pytestmark = pytest.mark.filterwarnings("ignore:ComplexHalf support is experimental")

_DATA = pathlib.Path(__file__).parent / "data"
# Each release's table, and the policy that reproduces it.
RELEASES = {"2.13.0": "torch@2.13", "2.15.0": "torch"}
GOLDENS = {v: json.loads((_DATA / f"torch_{v}_promotion.json").read_text()) for v in RELEASES}
GOLDEN = GOLDENS["2.13.0"]
CONVERSIONS = GOLDEN["conversions"]
DEFAULTS = ("float32", "float64")
_SPECIAL = {"inf": math.inf, "nan": math.nan}
_STORED = {"complex32": "complex64", "bcomplex32": "complex64"}  # torch results NumPy cannot store


def namespace(default, release="2.13.0"):
    policy = promotion.get_policy(RELEASES[release])
    if default == "float64":
        policy = policy.with_default_dtype(dtype_by_name("float64"))
    return xp.namespace(policy)


def literal(text):
    return _SPECIAL[text] if text in _SPECIAL else ast.literal_eval(text)


def make(ns, spec):
    if spec == "None":
        return None
    kind, _, val = spec.partition(":")
    if kind == "py":
        return literal(val)
    return ns.ones(2 if kind == "nd" else (), dtype=dtype_by_name(val))


def _value(v):
    if isinstance(v, list):
        return complex(_value(v[0]), _value(v[1]))
    if isinstance(v, str):
        return _SPECIAL.get(v, -math.inf if v == "-inf" else None)
    return v


def _same(a, b) -> bool:
    if isinstance(b, complex) or isinstance(a, complex):
        return _same(complex(a).real, complex(b).real) and _same(complex(a).imag, complex(b).imag)
    if isinstance(b, float) or isinstance(a, float):
        a, b = float(a), float(b)
        return a == b or (math.isnan(a) and math.isnan(b))
    return a == b


def expected_errors(record, scalar=None):
    """The exception classes of ours that match torch's error ``record``."""
    kind, message = record["error"], record["message"]
    if kind in ("OverflowError", "ValueError") or "without overflow" in message or "representable range" in message:
        return (OverflowError, TypeError) if isinstance(scalar, complex) else (OverflowError,)
    return (TypeError,)


def mismatch(record, fn, scalar=None):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn()
    except (TypeError, OverflowError, ValueError) as exc:
        if "error" in record and "kernel_dtype" not in record:
            want = expected_errors(record, scalar)
            return None if isinstance(exc, want) else f"torch {record['error']}, ours {type(exc).__name__}: {exc}"
        if "kernel_dtype" in record and isinstance(exc, TypeError):
            return None  # no torch kernel, and the policy refuses the op's domain (floor_divide of complex)
        return f"torch gives {record}, ours raised {type(exc).__name__}: {exc}"
    if "error" in record:
        if "kernel_dtype" in record:  # torch lacks the kernel; promotion gave this dtype
            want = _STORED.get(record["kernel_dtype"], record["kernel_dtype"])
            return None if out.dtype.name == want else f"torch computes in {want}, ours {out.dtype.name}"
        return f"torch raises {record['error']}: {record['message']!r}; ours gave {out.dtype.name}"
    want = _STORED.get(record["dtype"], record["dtype"])
    if out.dtype.name != want:
        return f"torch gives {want}, ours {out.dtype.name}"
    got = np.asarray(out).reshape(-1).tolist()
    values = [_value(v) for v in record["values"]]
    if len(got) != len(values) or not all(_same(a, b) for a, b in zip(got, values)):
        return f"torch values {values}, ours {got}"
    return None


def report(bad, total, what, release="2.13.0"):
    if bad:
        pytest.fail(f"{len(bad)} of {total} {what} differ from torch {release}:\n" + "\n".join(bad[:40]))


def check(default, release, section, what, case, key="result"):
    """Each record of the release's ``section`` for ``default`` against its ``key``: ``case(ns, record)``
    gives the call's label, the call (its operands made beforehand) and the Python scalar it converts."""
    ns = namespace(default, release)
    bad, cases = [], [c for c in GOLDENS[release]["conversions"][section] if c["default_dtype"] == default]
    for record in cases:
        label, fn, scalar = case(ns, record)
        why = mismatch(record[key], fn, scalar)
        if why:
            bad.append(f"{label}: {why}")
    report(bad, len(cases), what, release)


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("default", DEFAULTS)
@pytest.mark.parametrize("func", ["asarray", "full"])
def test_creation(default, func, release):
    def case(ns, c):
        value = literal(c["scalar"][3:])
        dtype = None if c["dtype"] is None else dtype_by_name(c["dtype"])
        if func == "asarray":
            fn = lambda: ns.asarray(value, dtype=dtype)  # noqa: E731
        else:
            fn = lambda: ns.full((1,), value, dtype=dtype)  # noqa: E731
        return f"{func}({c['scalar']}, dtype={c['dtype']})", fn, value

    check(default, release, "creation", f"{func} conversions", case, key=func)


def _where_case(ns, c):
    cond = ns.asarray([True, False])
    a, b = (make(ns, s) for s in c["operands"])
    scalar = a if not hasattr(a, "dtype") else b
    return f"where(cond, {', '.join(c['operands'])})", lambda: ns.where(cond, a, b), scalar


def _clamp_case(ns, c):
    x, lo, hi = (make(ns, s) for s in c["operands"])
    complex_bound = next((b for b in (lo, hi) if isinstance(b, complex)), None)
    return f"clip({', '.join(c['operands'])})", lambda: ns.clip(x, lo, hi), complex_bound


def _two_scalars_case(ns, c):
    cond = ns.asarray([True, False])
    a, b = (make(ns, s) for s in c["operands"])
    op = c["op"]
    fn = (lambda: ns.where(cond, a, b)) if op == "where" else (lambda: getattr(ns, op)(a, b))
    return f"{c['call']}({', '.join(c['operands'])})", fn, None


# section of the release's conversions -> (what its records are called, case(ns, record) for check())
CALL_SECTIONS = {
    "where": ("where conversions", _where_case),
    "clamp": ("clamp cases", _clamp_case),
    "scalar_pairs": ("two-scalar calls", _two_scalars_case),
}


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("default", DEFAULTS)
@pytest.mark.parametrize("section", CALL_SECTIONS)
def test_calls_with_python_scalars(section, default, release):
    what, case = CALL_SECTIONS[section]
    check(default, release, section, what, case)


def test_the_issue_cases():
    import array_api_promo.torch as tx

    c = tx.asarray([True, False])
    with pytest.raises(OverflowError, match="1000 cannot be converted to uint8.*policy 'torch'"):
        tx.where(c, tx.ones(2, dtype=tx.uint8), 1000)
    for value in (2**64, 2**70, -(2**63) - 1):
        with pytest.raises(OverflowError, match="too large for torch to unpack"):
            tx.ones(2) + value
    assert tx.add(True, 1.5).dtype == tx.float32 and tx.add(True, 1.5).ndim == 0
    assert np.asarray(tx.asarray(-1, dtype=tx.uint8)).item() == 255
    assert np.asarray(tx.asarray(1.5, dtype=tx.int8)).item() == 1
    assert tx.clip(c, tx.asarray(0.0, dtype=tx.float64), True).dtype == tx.float32
    half = tx.asarray(1.0, dtype=tx.float16)
    assert tx.clip(half, tx.asarray(0.0, dtype=tx.bfloat16), True).dtype == tx.float16
    with pytest.raises(TypeError, match="at least one of x1 and x2 must be an array"):
        tx.pow(2, 3)  # torch.pow takes no two Python numbers


def test_live_conversions_match_the_table():
    torch = pytest.importorskip("torch")
    if torch.__version__.split("+")[0] != GOLDEN["torch_version"]:
        pytest.skip(f"live comparison needs torch {GOLDEN['torch_version']}")
    import tools.gen_torch_golden as gen

    torch.set_default_dtype(torch.float32)
    try:
        live = gen.conversion_cases(torch, "float32")
    finally:
        torch.set_default_dtype(torch.float32)
    for section in ("creation", "where", "scalar_pairs"):
        table = [c for c in CONVERSIONS[section] if c["default_dtype"] == "float32"]
        assert live[section] == table, section


_NUMPY_SCALARS = [
    np.float64(1.5),
    np.float32(3.0),
    np.float16(2.0),
    np.int64(3),
    np.int64(300),
    np.int16(-2),
    np.uint8(7),
    np.bool_(True),
    np.complex128(1j),
]


@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "uint8", "float16", "float32", "float64"])
def test_numpy_scalars_are_wrapped_numbers(dtype):
    """torch reads a NumPy scalar as a Python number: np.float64 is a float subclass,
    np.int64 converts by __index__, np.bool_ (no bool subclass) by __float__."""
    import array_api_promo.torch as tx

    a = tx.ones(2, dtype=dtype_by_name(dtype))
    as_number = {"b": float, "i": int, "u": int, "f": float, "c": complex}
    for s in _NUMPY_SCALARS:
        number = as_number[s.dtype.kind](s.item())
        assert (a + s).dtype == (a + number).dtype, (dtype, s)
        assert (s * a).dtype == (number * a).dtype, (dtype, s)
    assert (tx.ones(2, dtype=tx.int8) + np.bool_(True)).dtype == tx.float32


def test_live_numpy_scalars_match_torch():
    torch = pytest.importorskip("torch")
    import array_api_promo.torch as tx

    for dtype in ("bool", "int8", "int32", "uint8", "float16", "float32", "float64"):
        t = torch.ones(2, dtype=getattr(torch, dtype))
        a = tx.ones(2, dtype=dtype_by_name(dtype))
        for s in _NUMPY_SCALARS:
            try:
                want = str((t + s).dtype).removeprefix("torch.")
            except (RuntimeError, TypeError):
                continue
            want = _STORED.get(want, want)
            assert (a + s).dtype.name == want, (dtype, repr(s))


_NUMPY_SCALAR_SEQUENCES = [
    ([np.float64(1.0), np.float64(2.0)], "float64"),  # SciPy: asarray([llf, llf]) of np.float64
    ([np.float64(1.0), 2.0], "float64"),
    ([[2.0], [np.float64(1.0)]], "float64"),
    ([np.float32(1.0), 2.0], "float32"),
    ([np.float16(1.0)], "float16"),
    ([np.int32(1), np.int32(2)], "int32"),
    ([np.int32(1), 2], "int64"),
    ([np.int64(1), 2.5], "float32"),
    ([True, np.float32(1.0)], "float32"),
    ([np.int8(1), np.uint8(1)], "int16"),
    ([np.complex128(1j)], "complex128"),
]


@pytest.mark.parametrize(("seq", "want"), _NUMPY_SCALAR_SEQUENCES, ids=repr)
def test_numpy_scalars_in_sequences_keep_their_dtype(seq, want):
    """In a sequence given to torch.asarray a NumPy scalar counts by its dtype, not as the
    Python number it is as an operand (inferScalarType, joined by promoteTypes); the
    standard policy still reads np.float64 as a Python float (and refuses np.int32)."""
    import array_api_promo.torch as tx

    assert tx.asarray(seq).dtype.name == want
    assert xp.asarray([np.float64(1.0), 2.0]).dtype == xp.float64
    with pytest.raises(TypeError, match="cannot make an array from int32"):
        xp.asarray([np.int32(1)])


def test_live_numpy_scalars_in_sequences_match_torch():
    torch = pytest.importorskip("torch")
    for seq, want in _NUMPY_SCALAR_SEQUENCES:
        assert str(torch.asarray(seq).dtype).removeprefix("torch.") == want, seq


def test_sequences_convert_elementwise_by_the_same_rule():
    """``asarray([...], dtype=...)`` converts each element as ``asarray(element, dtype=...)``."""
    import array_api_promo.torch as tx

    assert np.asarray(tx.asarray([-1, 5], dtype=tx.uint8)).tolist() == [255, 5]
    assert np.asarray(tx.asarray([[1.5, -1]], dtype=tx.int8)).tolist() == [[1, -1]]
    with pytest.raises(OverflowError, match="1000 cannot be converted to int8"):
        tx.asarray([1, [1000]][:1] + [1000], dtype=tx.int8)
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        xp.asarray([1000], dtype=xp.int8)  # the standard's rule is unchanged
    with pytest.raises(ValueError, match="float 1.5 is not a whole number"):
        xp.asarray([1.5], dtype=xp.int8)
    assert np.asarray(xp.asarray([[2.0, -1]], dtype=xp.int8)).tolist() == [[2, -1]]
