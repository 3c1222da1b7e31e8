"""The seeds' worked examples, as data: regenerated from the policies by ``array-api-promo seeds``.

* MegEngine MEP 3 ("Tensor 类型提升"), its example table with a NumPy 1.x column (value-based
  casting: the ``numpy_legacy`` policy) and a PyTorch column, and the cases its summary and
  its description of NumPy's scheme quote;
* the PyTorch promotion proposal (pytorch/pytorch#9515), its worked examples (default dtype
  float32) and the two NumPy examples of its appendix.

Each row is the seed's expression, a function building it in a namespace, and the dtype the
seed states per policy.  Every cell agrees with today's libraries (checked against NumPy
1.26.4 and torch 2.13.0 when this table was written); a cell where a seed were wrong about
today's library would carry ``seed_wrong`` with the library's answer, and the tests would
follow the library.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

__all__ = ["SEED_TABLES", "SeedRow", "evaluate"]

NUMPY_1X, TORCH = "numpy_legacy", "torch"


class SeedRow(NamedTuple):
    expression: str  # as the seed writes it
    build: Callable  # namespace -> the resulting array
    stated: dict  # policy name -> dtype name the seed states
    note: str = ""  # the seed's comment, translated where needed
    seed_wrong: dict | None = None  # policy -> today's library answer, where the seed errs


def _nd(dtype_name, values=(0, 0, 1)):
    return lambda ns: ns.asarray(list(values), dtype=getattr(ns, dtype_name))


def _zero_d(dtype_name, value=1):
    return lambda ns: ns.asarray(value, dtype=getattr(ns, dtype_name))


def _default(value):
    """``tensor(v)`` / ``np.array(v)``: a 0-d array of the library's default dtype for v."""
    return lambda ns: ns.asarray(value)


def _add(a, b):
    def build(ns):
        x = a(ns) if callable(a) else a
        y = b(ns) if callable(b) else b
        return x + y

    return build


# (Rows alike in shape, deliberately: each is one worked example of the seed's table, written out.)
MEP3_EXAMPLES = (
    SeedRow(
        "ones(int8) + 1",
        _add(_nd("int8"), 1),
        {NUMPY_1X: "int8", TORCH: "int8"},
        "PyTorch: ones(int8) takes part in promotion",
    ),
    SeedRow(
        "tensor(int8) + 1",
        _add(_zero_d("int8"), 1),
        {NUMPY_1X: "int64", TORCH: "int8"},
        "NumPy: 1 is int64, the smallest type both cast to is int64; PyTorch: the Python "
        "int ranks below the 0-d tensor",
    ),
    SeedRow(
        "ones(int8) + tensor(1)",
        _add(_nd("int8"), _default(1)),
        {NUMPY_1X: "int8", TORCH: "int8"},
        "PyTorch: tensor(1) is int64 but does not take part",
    ),
    SeedRow(
        "tensor(int8) + tensor(1)",
        _add(_zero_d("int8"), _default(1)),
        {NUMPY_1X: "int64", TORCH: "int64"},
        "PyTorch: both 0-d tensors take part",
    ),
    SeedRow(
        "tensor(int8) + 1.0",
        _add(_zero_d("int8"), 1.0),
        {NUMPY_1X: "float64", TORCH: "float32"},
        "NumPy: 1.0 is float64; PyTorch: the float ranks lower but its category is higher",
    ),
    SeedRow(
        "scalar(50000) + uint8(array)",
        _add(50000, _nd("uint8")),
        {NUMPY_1X: "uint16", TORCH: "uint8"},
        "summary: NumPy judges a scalar by its value; PyTorch ignores it (uint8 overflows)",
    ),
    SeedRow(
        "float32 + int32",
        _add(_nd("float32"), _nd("int32")),
        {NUMPY_1X: "float64", TORCH: "float32"},
        "summary: NumPy loses no precision; PyTorch keeps only the highest category exact",
    ),
    SeedRow(
        "array(int32) + float32",
        _add(_nd("int32"), _zero_d("float32", 1.0)),
        {NUMPY_1X: "float64"},
        "NumPy's scheme: the scalar's kind is higher, promote(float32, int32) = float64",
    ),
    SeedRow(
        "array(float32) + int32",
        _add(_nd("float32"), _zero_d("int32", 1)),
        {NUMPY_1X: "float32"},
        "NumPy's scheme: only the array's type counts",
    ),
)

PYTORCH_PROPOSAL_EXAMPLES = (
    SeedRow("randn(3, dtype=float32) * 5", lambda ns: ns.ones(3, dtype=ns.float32) * 5, {TORCH: "float32"}),
    SeedRow("tensor([0, 0, 1], dtype=uint8) + 1", _add(_nd("uint8"), 1), {TORCH: "uint8"}),
    SeedRow(
        "tensor([0, 0, 1], dtype=uint8) + 1000",
        _add(_nd("uint8"), 1000),
        {TORCH: "uint8"},
        "integer overflow (wraps: 1000 -> 232)",
    ),
    SeedRow("tensor([0, 0, 1], dtype=uint8) + 5.5", _add(_nd("uint8"), 5.5), {TORCH: "float32"}, "the default dtype"),
    SeedRow(
        "tensor([0, 0, 1], dtype=uint8) + tensor(5.5, dtype=double)",
        _add(_nd("uint8"), _zero_d("float64", 5.5)),
        {TORCH: "float64"},
    ),
    SeedRow(
        "randn(3, dtype=float32) + tensor(5.5, dtype=double)",
        _add(_nd("float32", (0.5, 1.5, 2.5)), _zero_d("float64", 5.5)),
        {TORCH: "float32"},
    ),
    SeedRow("tensor(5.5, dtype=float16) + 2.2", _add(_zero_d("float16", 5.5), 2.2), {TORCH: "float16"}),
    SeedRow("tensor(5.5, dtype=float16) + 100000", _add(_zero_d("float16", 5.5), 100000), {TORCH: "float16"}, "inf"),
    SeedRow(
        "tensor(5.5, dtype=float16) + tensor(100000.0)",
        _add(_zero_d("float16", 5.5), _default(100000.0)),
        {TORCH: "float32"},
        "the default dtype",
    ),
    SeedRow(
        "np.array(4.0, dtype=np.float32) + 1",
        _add(_zero_d("float32", 4.0), 1),
        {NUMPY_1X: "float64"},
        "appendix: NumPy up-promotes 0-d arrays",
    ),
    SeedRow("np.array(0, dtype=np.uint8) + 1", _add(_zero_d("uint8", 0), 1), {NUMPY_1X: "int64"}, "appendix"),
)

SEED_TABLES = {
    "MEP 3 (MegEngine), example table and summary": MEP3_EXAMPLES,
    "PyTorch proposal #9515, worked examples (default float32) and appendix": PYTORCH_PROPOSAL_EXAMPLES,
}
SEED_POLICIES = (NUMPY_1X, TORCH)


def evaluate(row: SeedRow, policy: str) -> str:
    """The dtype name ``row`` gives under ``policy`` (or ``ExceptionType: message``)."""
    import warnings

    from . import namespace

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return row.build(namespace(policy)).dtype.name
    except (TypeError, ValueError, OverflowError) as exc:
        return f"{type(exc).__name__}: {exc}"
