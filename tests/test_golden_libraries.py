"""The ``megengine``, ``paddle`` and ``mlx`` policies against golden tables from the real libraries.

Each table comes from a committed generator run with the real library, which it names with
its version (no library needed here):

* ``tests/data/megengine_1.13.0_promotion.json``: ``tools/gen_megengine_golden.py``
  (MegEngine 1.13.0 on CPU; Python 3.10, NumPy 1.x);
* ``tests/data/paddle_3.3.1_promotion.json``: ``tools/gen_paddle_golden.py``
  (PaddlePaddle 3.3.1, CPU build);
* ``tests/data/mlx_0.32.4_promotion.json``: ``tools/gen_mlx_golden.py`` (MLX 0.32.4, CPU).

Every record (``+``, ``*``, ``/``, ``//`` and ``where`` of every pair of n-d arrays, 0-d
arrays and Python numbers; creation from Python values and NumPy arrays; reductions) is
replayed through the namespace itself and compared by dtype, values and refusal: the
library's refusals must be refusals here (a ``TypeError``, or an ``OverflowError`` for a
number that does not fit).  A record is not compared only for a reason named in
``Library.not_compared`` (a crash or a missing kernel of the library, a value special case
that is no promotion rule).
"""

from __future__ import annotations

import json
import math
import operator
import pathlib
from dataclasses import dataclass, field

import numpy as np
import pytest

from array_api_promo import namespace, promotion
from array_api_promo._dtypes import dtype_by_name

DATA = pathlib.Path(__file__).parent / "data"
BINARY = {"add": operator.add, "multiply": operator.mul, "divide": operator.truediv, "floor_divide": operator.floordiv}


@dataclass(frozen=True)
class Library:
    policy: str
    version: str
    # creation calls the table names by their source: the name -> the namespace's call
    calls: dict = field(default_factory=dict)
    # (call, value) pairs the policy does not model, with the reason in ``not_compared``
    creation_not_modelled: frozenset = frozenset()
    refusals: tuple = (TypeError,)

    def golden(self) -> dict:
        return json.loads((DATA / f"{self.policy}_{self.version}_promotion.json").read_text())

    def not_compared(self, record) -> str | None:
        """Why ``record`` is not compared (None: it is)."""
        want, operands = record["result"], record.get("operands", [])
        message = want.get("message", "")
        if (record.get("call"), record.get("value")) in self.creation_not_modelled:
            return "a creation default the policy does not model"
        if self.policy == "megengine" and want.get("error") == "signal":
            return "MegEngine's integer kernel died dividing by a number that converts to 0 (SIGFPE)"
        if self.policy == "paddle" and message.startswith(("(NotFound)", "(Unimplemented)")):
            return "Paddle has no CPU kernel for it"
        if self.policy == "mlx":
            if record.get("op") == "floor_divide" and any("complex" in o or o == "py:1j" for o in operands):
                return "MLX's complex floor_divide divides without flooring; the standard defines none"
            if (
                record.get("op") == "divide"
                and "py:2147483648" in operands
                and any(o.endswith(":bool") for o in operands)
            ):
                return "MLX wraps the int into int32 before dividing a bool array (the dtype agrees)"
        return None

    def refusals_of(self, record) -> tuple:
        """The exceptions that match the library's refusal in ``record``: a ``ZeroDivisionError`` for an
        integer division by zero (Paddle's ``InvalidArgumentError: Integer division by zero``)."""
        if "Integer division by zero" in record["result"].get("message", ""):
            return (ZeroDivisionError,)
        return self.refusals

    def value_special_case(self, record, got) -> bool:
        """Paddle's ``inf // x`` is NaN where the standard's special cases give an infinity."""
        if self.policy != "paddle" or record.get("op") != "floor_divide":
            return False
        values = np.ravel(np.asarray(record["result"]["values"], dtype=float))
        return bool(np.isnan(values).all()) and bool(np.isinf(np.asarray(got, dtype=float)).all())


LIBRARIES = {
    "megengine": Library(
        "megengine",
        "1.13.0",
        # megengine.functional.arange's default is float32; the standard's arange of ints gives
        # the default integer, and a policy decides promotion, not one function's defaults
        calls={
            "ones(2)": lambda xp: xp.ones(2),
            "zeros(2)": lambda xp: xp.zeros(2),
            "tensor(1.5, dtype=int32)": lambda xp: xp.asarray(1.5, dtype=xp.int32),
            "tensor(-1.7, dtype=int8)": lambda xp: xp.asarray(-1.7, dtype=xp.int8),
            "tensor(1000, dtype=int8)": lambda xp: xp.asarray(1000, dtype=xp.int8),
        },
        creation_not_modelled=frozenset({("arange(3)", None)}),
        refusals=(TypeError,),
    ),
    "paddle": Library(
        "paddle",
        "3.3.1",
        calls={"ones([2])": lambda xp: xp.ones(2), "arange(3)": lambda xp: xp.arange(3)},
        # to_tensor of a NumPy uint16 array reads its bits as bfloat16 (1 becomes 9.18e-41)
        creation_not_modelled=frozenset({("to_tensor", "np:uint16")}),
    ),
    "mlx": Library(
        "mlx",
        "0.32.4",
        calls={"ones((2,))": lambda xp: xp.ones(2), "arange(3)": lambda xp: xp.arange(3)},
        # mx.array(2**31) is int64; the namespace's default integer is int32 and an int beyond it
        # is refused rather than given another dtype
        creation_not_modelled=frozenset({("array", "py:2147483648")}),
        refusals=(TypeError, OverflowError),
    ),
}
GOLDEN = {name: lib.golden() for name, lib in LIBRARIES.items()}


def make(xp, spec):
    kind, _, val = spec.partition(":")
    if kind == "py":
        return eval(val)  # noqa: S307 - the table's own literals
    return xp.ones((2,) if kind == "nd" else (), dtype=dtype_by_name(val))


def _same_values(got, want) -> bool:
    if isinstance(want, list) != isinstance(got, list):
        return False
    if isinstance(want, list):
        return len(got) == len(want) and all(_same_values(g, w) for g, w in zip(got, want))
    if isinstance(want, float) or isinstance(got, float):
        return (math.isnan(want) and math.isnan(got)) or math.isclose(got, want, rel_tol=1e-3, abs_tol=1e-6)
    return got == want


def _values(array) -> list:
    """An array's values as the tables hold them: flat, a complex as [real, imag] (Paddle's
    0-d tensor divided by a Python complex has shape [1]: compared by value)."""
    data = np.ravel(np.asarray(array))
    if data.dtype.kind == "c":
        return np.stack([data.real, data.imag], axis=-1).tolist()
    return data.tolist()


def mismatch(lib: Library, record, fn) -> str | None:
    if lib.not_compared(record):
        return None
    want = record["result"]
    try:
        with np.errstate(all="ignore"):
            got = fn()
    except (TypeError, ValueError, OverflowError, ZeroDivisionError) as exc:
        if "error" in want:
            if isinstance(exc, lib.refusals_of(record)):
                return None
            return f"{lib.policy} refuses ({want['message'][:70]}), ours {type(exc).__name__}: {exc}"
        return f"{lib.policy} gives {want}, ours raised {type(exc).__name__}: {exc}"
    if "error" in want:
        return f"{lib.policy} refuses ({want['error']}: {want['message'][:70]}), ours gave {got.dtype.name}"
    if got.dtype.name != want["dtype"]:
        return f"{lib.policy} gives {want['dtype']}, ours {got.dtype.name}"
    expected = np.asarray(want["values"])
    is_complex = np.asarray(got).dtype.kind == "c"
    expected = expected.reshape(-1, 2).tolist() if is_complex else np.ravel(expected).tolist()
    if not lib.value_special_case(record, got) and not _same_values(_values(got), expected):
        return f"{lib.policy} holds {want['values']}, ours {np.asarray(got).tolist()}"
    return None


def report(lib: Library, bad, total, what):
    if bad:
        shown = "\n".join(bad[:40])
        pytest.fail(f"{len(bad)} of {total} {what} differ from {lib.policy} {lib.version}:\n{shown}")


@pytest.mark.parametrize("name", LIBRARIES)
def test_metadata(name):
    lib, golden = LIBRARIES[name], GOLDEN[name]
    assert golden["generator"] == f"tools/gen_{name}_golden.py"
    assert golden[f"{name}_version"] == lib.version
    assert {d.name for d in promotion.get_policy(name).dtypes} == set(golden["dtypes"])


def check(name, what, records, case):
    """Each record against the library's outcome: ``case(xp, record)`` gives the call's label and the
    call compared (its operands made beforehand), or None for a record not compared."""
    lib, xp = LIBRARIES[name], namespace(name)
    bad = []
    for r in records:
        made = case(xp, r)
        if made is None:
            continue
        label, fn = made
        why = mismatch(lib, r, fn)
        if why:
            bad.append(f"{label}: {why}")
    report(lib, bad, len(records), what)


@pytest.mark.parametrize("op", sorted(BINARY))
@pytest.mark.parametrize("name", LIBRARIES)
def test_binary(name, op):
    def case(xp, r):
        a, b = (make(xp, s) for s in r["operands"])
        return f"{op}({', '.join(r['operands'])})", lambda: BINARY[op](a, b)

    check(name, f"{op} cases", [r for r in GOLDEN[name]["binary"] if r["op"] == op], case)


@pytest.mark.parametrize("name", LIBRARIES)
def test_where(name):
    def case(xp, r):
        mask = xp.asarray([True, False])
        a, b = (make(xp, s) for s in r["operands"])
        return f"where({', '.join(r['operands'])})", lambda: xp.where(mask, a, b)

    check(name, "where cases", GOLDEN[name]["where"], case)


@pytest.mark.parametrize("name", LIBRARIES)
def test_creation(name):
    lib = LIBRARIES[name]

    def case(xp, r):
        if r["value"] is None:
            if (r["call"], None) in lib.creation_not_modelled:
                return None
            fn = lambda call=lib.calls[r["call"]]: call(xp)  # noqa: E731
        else:
            kind, _, val = r["value"].partition(":")
            data = eval(val) if kind == "py" else np.ones(2, dtype=val)  # noqa: S307
            fn = lambda data=data: xp.asarray(data)  # noqa: E731
        return f"{r['call']}({r['value']})", fn

    check(name, "creation cases", GOLDEN[name]["creation"], case)


@pytest.mark.parametrize("name", [n for n in LIBRARIES if "functions" in GOLDEN[n]])
def test_fft_and_linalg_functions(name):
    """The FFT and linear-algebra functions the generator recorded (MLX: every transform in complex64,
    eigenvalues complex64, no 16-bit eigvals), on 2x2 arrays of each floating dtype."""

    def case(xp, r):
        module, _, function = r["op"].partition(".")
        x = xp.ones((2, 2), dtype=getattr(xp, r["dtype"]))
        return f"{r['op']}({r['dtype']})", lambda: getattr(getattr(xp, module), function)(x)

    check(name, "function cases", GOLDEN[name]["functions"], case)


@pytest.mark.parametrize("name", LIBRARIES)
def test_reductions(name):
    def case(xp, r):
        x = make(xp, f"nd:{r['dtype']}")
        return f"{r['op']}({r['dtype']})", lambda: getattr(xp, r["op"])(x)

    check(name, "reductions", GOLDEN[name]["reductions"], case)


_DIVISION = {"floor_divide": operator.floordiv, "remainder": operator.mod}


@pytest.mark.parametrize("name", [n for n in LIBRARIES if "division_by_zero" in GOLDEN[n]])
def test_integer_division_by_zero(name):
    """``x // 0`` and ``x % 0`` of ``x = [0, 1, 2]`` of every integer dtype and bool, the 0 a Python int, a 0-d
    array or an element of ``[1, 0, 1]``: Paddle 3.3 raises ``InvalidArgumentError: Integer division by zero``
    (the namespace: ``ZeroDivisionError``); a dtype it has no CPU kernel for (``%`` of int8) is not compared."""
    lib = LIBRARIES[name]
    records = GOLDEN[name]["division_by_zero"]
    compared = [r for r in records if not lib.not_compared(r)]
    assert sum("Integer division by zero" in r["result"].get("message", "") for r in compared) >= 12

    def case(xp, r):
        dtype = getattr(xp, r["dtype"])
        x = xp.asarray(np.array([0, 1, 2]).astype(r["dtype"]), dtype=dtype)
        kind, _, text = r["divisor"].partition(":")
        y = 0 if kind == "py" else xp.asarray(np.array(eval(text)).astype(r["dtype"]), dtype=dtype)  # noqa: S307
        return f"{r['op']}({r['dtype']} [0, 1, 2], {r['divisor']})", lambda: _DIVISION[r["op"]](x, y)

    check(name, "division by zero records", records, case)
