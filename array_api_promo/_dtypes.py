"""Dtype objects of the namespace.

Each dtype is a singleton compared by identity (no ``__eq__``), so dictionary
keys and ``is`` tests on the hot path cost a pointer comparison.  A dtype
knows its NumPy storage dtype and its kind in the standard's own words.
"""

from __future__ import annotations

import sys

import numpy as np

__all__ = [
    "DType",
    "dtype_by_name",
    "dtype_of_numpy",
    "ALL_DTYPES",
    "STANDARD_DTYPES",
    "BOOL",
    "SIGNED_INTEGER",
    "UNSIGNED_INTEGER",
    "REAL_FLOATING",
    "COMPLEX_FLOATING",
    "PY_SCALARS",
]

# The standard's kinds (``isdtype`` names).
BOOL = "bool"
SIGNED_INTEGER = "signed integer"
UNSIGNED_INTEGER = "unsigned integer"
REAL_FLOATING = "real floating"
COMPLEX_FLOATING = "complex floating"

# Categories as PyTorch orders them (bool < integer < floating < complex).
CATEGORY_BOOL, CATEGORY_INTEGER, CATEGORY_FLOATING, CATEGORY_COMPLEX = 0, 1, 2, 3
_CATEGORY_OF_KIND = {
    BOOL: CATEGORY_BOOL,
    SIGNED_INTEGER: CATEGORY_INTEGER,
    UNSIGNED_INTEGER: CATEGORY_INTEGER,
    REAL_FLOATING: CATEGORY_FLOATING,
    COMPLEX_FLOATING: CATEGORY_COMPLEX,
}
CATEGORY_NAMES = ("boolean", "integer", "floating-point", "complex floating-point")
# The Python scalar types that may stand for a dtype (their dtype is the policy's decision).
PY_SCALARS = (bool, int, float, complex)


class DType:
    """A data type of the namespace (compared by identity)."""

    __slots__ = ("name", "numpy", "kind", "category", "bits", "__weakref__")

    def __init__(self, name: str, numpy_dtype, kind: str, bits: int):
        self.name = name
        if numpy_dtype is not None:  # None: set later (bfloat16's, by load_ml_dtypes)
            self.numpy = np.dtype(numpy_dtype)
        self.kind = kind
        self.category = _CATEGORY_OF_KIND[kind]
        self.bits = bits

    def __repr__(self) -> str:
        return f"{_PRINTED_IN}.{self.name}"

    __str__ = __repr__

    def __reduce__(self):
        # Pickles as a reference to the singleton, so identity survives.
        return (dtype_by_name, (self.name,))


# The package whose dtypes these print as: this one's, except in a process whose ``array_api_strict``
# is the stand-in (``array_api_strict.float64``, as there): how a dtype prints is a property of the
# process, as a device's is (``_devices.show_as_array_api_strict``): the dtypes are shared by every namespace.
_PRINTED_IN = "array_api_promo"


def show_as_array_api_strict(equality=None) -> None:
    """Print every dtype as array-api-strict prints its own, for the rest of the process (the stand-in's
    ``install``); ``equality``, where given, becomes the dtypes' ``==`` (array-api-strict's, which warns of
    a NumPy dtype compared).  Elsewhere ``==`` stays identity, compared in C."""
    global _PRINTED_IN
    _PRINTED_IN = "array_api_strict"
    if equality is not None:  # (its hash stays object's: equal dtypes are the same object)
        setattr(DType, "__eq__", equality)  # noqa: B010 (set on the class at run time: mypy refuses a method assignment)


def _make(name, np_dtype, kind, bits):
    return DType(name, np_dtype, kind, bits)


bool_ = _make("bool", np.bool_, BOOL, 8)
int8 = _make("int8", np.int8, SIGNED_INTEGER, 8)
int16 = _make("int16", np.int16, SIGNED_INTEGER, 16)
int32 = _make("int32", np.int32, SIGNED_INTEGER, 32)
int64 = _make("int64", np.int64, SIGNED_INTEGER, 64)
uint8 = _make("uint8", np.uint8, UNSIGNED_INTEGER, 8)
uint16 = _make("uint16", np.uint16, UNSIGNED_INTEGER, 16)
uint32 = _make("uint32", np.uint32, UNSIGNED_INTEGER, 32)
uint64 = _make("uint64", np.uint64, UNSIGNED_INTEGER, 64)
float16 = _make("float16", np.float16, REAL_FLOATING, 16)
float32 = _make("float32", np.float32, REAL_FLOATING, 32)
float64 = _make("float64", np.float64, REAL_FLOATING, 64)
complex64 = _make("complex64", np.complex64, COMPLEX_FLOATING, 64)
complex128 = _make("complex128", np.complex128, COMPLEX_FLOATING, 128)
bfloat16 = _make("bfloat16", None, REAL_FLOATING, 16)  # its storage comes from ml_dtypes on first use

STANDARD_DTYPES = (
    bool_,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float32,
    float64,
    complex64,
    complex128,
)
ALL_DTYPES = STANDARD_DTYPES + (float16, bfloat16)

_BY_NAME = {d.name: d for d in ALL_DTYPES}
_BY_NUMPY = {d.numpy: d for d in ALL_DTYPES if d is not bfloat16}  # bfloat16's: load_ml_dtypes
# NumPy dtypes are hashable by value; the type objects (np.float32) map too.
_BY_NUMPY_TYPE = {d.numpy.type: d for d in _BY_NUMPY.values()}

# Real <-> complex counterparts of the same precision.
COMPLEX_OF = {float32: complex64, float64: complex128}
REAL_OF = {complex64: float32, complex128: float64}


_ml_dtypes = None


def load_ml_dtypes():
    """ml_dtypes, with bfloat16's storage set: imported on first use, since importing it with
    the package made the import a fifth slower. Whatever hands out bfloat16 calls it first:
    a policy that has bfloat16, and the lookups below."""
    global _ml_dtypes
    if _ml_dtypes is None:
        import ml_dtypes  # a dependency: the torch and jax policies have bfloat16

        storage = np.dtype(ml_dtypes.bfloat16)
        _BY_NUMPY[storage] = bfloat16
        _BY_NUMPY_TYPE[storage.type] = bfloat16
        bfloat16.numpy = storage
        _ml_dtypes = ml_dtypes
    return _ml_dtypes


def dtype_by_name(name: str) -> DType:
    """The dtype called ``name`` (``"float32"``, ``"bool"``, ...)."""
    try:
        dtype = _BY_NAME[name]
    except (KeyError, TypeError):
        known = ", ".join(_BY_NAME)
        raise ValueError(f"unknown dtype name {name!r}; known dtypes: {known}") from None
    if dtype is bfloat16:
        load_ml_dtypes()
    return dtype


def dtype_of_numpy(np_dtype) -> DType:
    """Our dtype stored as the NumPy dtype ``np_dtype``."""
    d = _BY_NUMPY.get(np_dtype)
    if d is None:
        d = _BY_NUMPY_TYPE.get(np_dtype)
    if d is None and _ml_dtypes is None and "ml_dtypes" in sys.modules:  # a bfloat16 array needs it loaded
        load_ml_dtypes()
        return dtype_of_numpy(np_dtype)
    if d is None:
        raise TypeError(f"NumPy dtype {np_dtype!r} has no counterpart in array_api_promo")
    return d


# [min, max] of every integer dtype, as Python ints.
INT_BOUNDS = {
    d: (int(np.iinfo(d.numpy).min), int(np.iinfo(d.numpy).max)) for d in ALL_DTYPES if d.category == CATEGORY_INTEGER
}


def iinfo_bounds(dtype: DType) -> tuple[int, int]:
    """``(min, max)`` of an integer dtype, as Python ints."""
    return INT_BOUNDS[dtype]


def working_numpy(dtype: DType) -> np.dtype:
    """The NumPy dtype LAPACK and the moment reductions compute ``dtype`` in: 16-bit floats in float32.

    A storage matter, not a dtype decision: results are stored in the policy's dtype.
    """
    if dtype.category == CATEGORY_FLOATING and dtype.bits < 32:
        return _FLOAT32
    return dtype.numpy


_FLOAT32 = np.dtype(np.float32)

# NumPy's four inexact dtypes that np.linalg and numpy.fft keep (native byte order): the real dtype of each
# precision, and the complex one (result_type(a.real.dtype, 1.0), result_type(a.dtype, 1j)).
_F4, _F8, _C8, _C16 = _FLOAT32, np.dtype(np.float64), np.dtype(np.complex64), np.dtype(np.complex128)
NUMPY_REAL_OF: dict[np.dtype, np.dtype] = {_F4: _F4, _F8: _F8, _C8: _F4, _C16: _F8}
NUMPY_COMPLEX_OF: dict[np.dtype, np.dtype] = {_F4: _C8, _F8: _C16, _C8: _C8, _C16: _C16}


def finfo_of(dtype: DType):
    """NumPy's finfo for a floating dtype (ml_dtypes' for bfloat16); complex gives its real part's."""
    real = REAL_OF.get(dtype, dtype)
    if real is bfloat16:
        return load_ml_dtypes().finfo(real.numpy)
    return np.finfo(real.numpy)


def a_dtype(name: str) -> str:
    """``name`` with its article, as said aloud: "an int8", "a uint8", "a float32"."""
    return f"an {name}" if name.startswith("int") else f"a {name}"
