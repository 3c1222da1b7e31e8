"""The stand-in speaks array-api-strict's words: its refusals and reprs against the real array-api-strict.

Consumers match array-api-strict's messages (``pytest.raises(..., match=...)``, xfail lists of
message fragments: marray's), so each refusal the stand-in shares with array-api-strict must
carry array-api-strict's text (first: ``re.search`` and prefix matches alike), then ours
(``(array_api_promo: <the main namespace's words>)``), with an exception of array-api-strict's
class.  One representative call per kind of refusal (``_strict_words.WORDS``), run on the real
array-api-strict and on a stand-in module in this process; every text of the table is checked
against array-api-strict's own source and met at least once here.  The main namespace keeps our
words alone.  Reprs: arrays of the stand-in print as array-api-strict's; dtypes too, in a process
run by the stand-in.
"""

from __future__ import annotations

import pathlib
import re
import warnings

import numpy as np
import pytest
from standin_process import through_standin  # tests/ is on sys.path (rootdir-relative import mode)

from array_api_promo import namespace
from array_api_promo._strict_words import MIRRORED_VERSION, NUMPY_WORDS, WORDS
from array_api_promo.standin import make_module

array_api_strict = pytest.importorskip("array_api_strict")

STANDIN = make_module("array_api", name="array_api_strict_words")
MARK = " (array_api_promo: "


class _Arrays:
    """The operands of the calls, made by one module."""

    def __init__(self, xp):
        a = xp.asarray
        self.i8 = a([1, 2], dtype=xp.int8)
        self.i16 = a([1, 2], dtype=xp.int16)
        self.i64 = a([1, 2, 3])
        self.u8 = a([1, 2, 3], dtype=xp.uint8)
        self.f32 = a([1.0, 2.0, 3.0], dtype=xp.float32)
        self.f64 = a([1.0, 2.0, 3.0])
        self.c64 = a([1j], dtype=xp.complex64)
        self.c = a([1j, 2, 3])
        self.c0 = a(1j)
        self.b = a([True, False, True])
        self.m = a([[1.0, 2.0], [3.0, 4.0]])
        self.mi = a([[1, 2], [3, 4]])
        self.d1 = a([1.0, 2.0, 3.0], device=xp.Device("device1"))


def _iadd(x, y):
    x += y


def _imatmul(x, y):
    x @= y


def _ior(x, y):
    x |= y


def _setitem(x, key, value):
    x[key] = value


# (label, call(xp, arrays)): one call per kind of refusal; ``main=False`` where the main namespace
# has no such call (the stand-in's flags).
CASES = [
    # promotion between arrays, and with Python scalars
    ("int64 + float32", lambda xp, a: a.i64 + a.f32),
    ("add(int64, float32)", lambda xp, a: xp.add(a.i64, a.f32)),
    ("int64 == float32", lambda xp, a: a.i64 == a.f32),
    ("int64 * float32", lambda xp, a: a.i64 * a.f32),
    ("where(b, int64, float32)", lambda xp, a: xp.where(a.b, a.i64, a.f32)),
    ("where(b, int64, 1.5)", lambda xp, a: xp.where(a.b, a.i64, 1.5)),
    ("isin(int64, float32)", lambda xp, a: xp.isin(a.i64, a.f32)),
    ("concat([float64, int64])", lambda xp, a: xp.concat([a.f64, a.i64])),
    ("stack([float64, int64])", lambda xp, a: xp.stack([a.f64, a.i64])),
    ("result_type(int64, float32)", lambda xp, a: xp.result_type(xp.int64, xp.float32)),
    ("result_type(int64 array, float32 array)", lambda xp, a: xp.result_type(a.i64, a.f32)),
    ("result_type(bool array, 1)", lambda xp, a: xp.result_type(a.b, 1)),
    ("result_type(int8, 300)", lambda xp, a: xp.result_type(a.i8, 300)),
    ("result_type('a')", lambda xp, a: xp.result_type("a")),
    ("result_type(1, 2)", lambda xp, a: xp.result_type(1, 2)),
    ("bool & 1", lambda xp, a: a.b & 1),
    ("int64 + 1.5", lambda xp, a: a.i64 + 1.5),
    ("1.5 + int64", lambda xp, a: 1.5 + a.i64),
    ("int64 + True", lambda xp, a: a.i64 + True),
    ("int64 + 1j", lambda xp, a: a.i64 + 1j),
    ("int8 + 300", lambda xp, a: a.i8 + 300),
    ("add(int8, 300)", lambda xp, a: xp.add(a.i8, 300)),
    ("add(int64, 1.5)", lambda xp, a: xp.add(a.i64, 1.5)),
    ("int64 + np.float64(1)", lambda xp, a: a.i64 + np.float64(1)),
    # the categories of operators and functions
    ("bool + bool", lambda xp, a: a.b + a.b),
    ("bool - 1", lambda xp, a: a.b - 1),
    ("bool + 1.5", lambda xp, a: a.b + 1.5),
    ("1 - bool", lambda xp, a: 1 - a.b),
    ("int64 / int64", lambda xp, a: a.i64 / a.i64),
    ("complex // complex", lambda xp, a: a.c // a.c),
    ("complex % complex", lambda xp, a: a.c % a.c),
    ("floor(complex)", lambda xp, a: xp.floor(a.c)),
    ("float64 << float64", lambda xp, a: a.f64 << a.f64),
    ("float64 & float64", lambda xp, a: a.f64 & a.f64),
    ("complex < complex", lambda xp, a: a.c < a.c),
    ("signbit(complex)", lambda xp, a: xp.signbit(a.c)),
    ("bool @ bool", lambda xp, a: a.b @ a.b),
    ("int64 @ float32", lambda xp, a: a.i64 @ a.f32),
    ("-bool", lambda xp, a: -a.b),
    ("+bool", lambda xp, a: +a.b),
    ("abs(bool)", lambda xp, a: abs(a.b)),
    ("xp.abs(bool)", lambda xp, a: xp.abs(a.b)),
    ("imag(bool)", lambda xp, a: xp.imag(a.b)),
    ("~float64", lambda xp, a: ~a.f64),
    ("logical_not(float64)", lambda xp, a: xp.logical_not(a.f64)),
    ("add(bool, bool)", lambda xp, a: xp.add(a.b, a.b)),
    ("add(bool, 1)", lambda xp, a: xp.add(a.b, 1)),
    ("add(1, bool)", lambda xp, a: xp.add(1, a.b)),
    ("divide(int64, int64)", lambda xp, a: xp.divide(a.i64, a.i64)),
    ("exp(int64)", lambda xp, a: xp.exp(a.i64)),
    ("atan2(complex, complex)", lambda xp, a: xp.atan2(a.c, a.c)),
    ("sqrt(int64)", lambda xp, a: xp.sqrt(a.i64)),
    ("logical_not(int64)", lambda xp, a: xp.logical_not(a.i64)),
    ("negative(bool)", lambda xp, a: xp.negative(a.b)),
    ("sign(bool)", lambda xp, a: xp.sign(a.b)),
    ("matmul(bool, bool)", lambda xp, a: xp.matmul(a.b, a.b)),
    ("tensordot(bool, bool)", lambda xp, a: xp.tensordot(a.b, a.b, axes=1)),
    ("vecdot(bool, bool)", lambda xp, a: xp.vecdot(a.b, a.b)),
    ("sum(bool)", lambda xp, a: xp.sum(a.b)),
    ("prod(bool)", lambda xp, a: xp.prod(a.b)),
    ("mean(int64)", lambda xp, a: xp.mean(a.i64)),
    ("std(int64)", lambda xp, a: xp.std(a.i64)),
    ("var(complex)", lambda xp, a: xp.var(a.c)),
    ("max(complex)", lambda xp, a: xp.max(a.c)),
    ("min(complex)", lambda xp, a: xp.min(a.c)),
    ("cumulative_sum(bool)", lambda xp, a: xp.cumulative_sum(a.b)),
    ("cumulative_prod(bool)", lambda xp, a: xp.cumulative_prod(a.b)),
    ("diff(bool)", lambda xp, a: xp.diff(a.b)),
    ("linalg.inv(int64)", lambda xp, a: xp.linalg.inv(a.mi)),
    ("linalg.matrix_power(int64, 2)", lambda xp, a: xp.linalg.matrix_power(a.mi, 2)),
    ("linalg.vector_norm(int64)", lambda xp, a: xp.linalg.vector_norm(a.i64)),
    ("linalg.cross(bool, bool)", lambda xp, a: xp.linalg.cross(a.b, a.b)),
    ("linalg.trace(bool)", lambda xp, a: xp.linalg.trace(xp.asarray([[True]]))),
    ("fft.fft(float64)", lambda xp, a: xp.fft.fft(a.f64)),
    ("fft.rfft(complex)", lambda xp, a: xp.fft.rfft(a.c)),
    ("fft.fftshift(int64)", lambda xp, a: xp.fft.fftshift(a.i64)),
    ("fft.fftfreq(4, dtype=int64)", lambda xp, a: xp.fft.fftfreq(4, dtype=xp.int64)),
    ("clip(bool, 0, 1)", lambda xp, a: xp.clip(a.b, 0, 1)),
    ("clip(int64, 0.5)", lambda xp, a: xp.clip(a.i64, 0.5)),
    ("clip(float64, int64)", lambda xp, a: xp.clip(a.f64, a.i64)),
    ("clip(int64, np.int64(1))", lambda xp, a: xp.clip(a.i64, np.int64(1))),
    # in-place operators and __setitem__
    ("int8 += int16", lambda xp, a: _iadd(a.i8, a.i16)),
    ("float32 += complex64", lambda xp, a: _iadd(a.f32, a.c64)),
    ("float32 += float64", lambda xp, a: _iadd(a.f32, a.f64)),
    ("int8 += 1.5", lambda xp, a: _iadd(a.i8, 1.5)),
    ("int8 += 300", lambda xp, a: _iadd(a.i8, 300)),
    ("bool += bool", lambda xp, a: _iadd(a.b, a.b)),
    ("int64 /= int64", lambda xp, a: a.i64.__itruediv__(a.i64)),
    ("0-d int8 += int8", lambda xp, a: _iadd(xp.asarray(1, dtype=xp.int8), a.i8)),
    ("int64 @= np.float64(1.5)", lambda xp, a: _imatmul(a.mi, np.float64(1.5))),
    ("int64[:] = 1.1", lambda xp, a: _setitem(a.i64, slice(None), 1.1)),
    ("int64[:] = float32", lambda xp, a: _setitem(a.i64, slice(None), a.f32)),
    ("float32[:] = float64", lambda xp, a: _setitem(a.f32, slice(None), a.f64)),
    ("int8[0] = 300", lambda xp, a: _setitem(a.i8, 0, 300)),
    ("float64[:] = device1 array", lambda xp, a: _setitem(a.f64, slice(None), a.d1)),
    ("astype(complex, int64)", lambda xp, a: xp.astype(a.c, xp.int64)),
    ("astype(complex, float64)", lambda xp, a: xp.astype(a.c, xp.float64)),
    ("astype(complex, float32)", lambda xp, a: xp.astype(a.c, xp.float32)),
    # operands
    ("int64 + 'a'", lambda xp, a: a.i64 + "a"),
    ("int64 + np.int64(1)", lambda xp, a: a.i64 + np.int64(1)),
    ("add(1, 2)", lambda xp, a: xp.add(1, 2)),
    ("add(int64, 'a')", lambda xp, a: xp.add(a.i64, "a")),
    ("sqrt(1.0)", lambda xp, a: xp.sqrt(1.0)),
    ("where(1, float64, float64)", lambda xp, a: xp.where(1, a.f64, a.f64)),
    ("where(float64, float64, float64)", lambda xp, a: xp.where(a.f64, a.f64, a.f64)),
    # devices
    ("device1 + cpu", lambda xp, a: a.d1 + a.f64),
    ("matmul(device1, cpu)", lambda xp, a: xp.matmul(a.d1, a.f64)),
    ("where(b, device1, cpu)", lambda xp, a: xp.where(a.b, a.d1, a.f64)),
    ("concat([device1, cpu])", lambda xp, a: xp.concat([a.d1, a.f64])),
    ("meshgrid(device1, cpu)", lambda xp, a: xp.meshgrid(a.d1, a.f64)),
    ("cpu[device1 mask]", lambda xp, a: a.f64[xp.asarray([True, False, True], device=xp.Device("device1"))]),
    (
        "zeros(2, dtype=float64, device=no_float64)",
        lambda xp, a: xp.zeros(2, dtype=xp.float64, device=xp.Device("no_float64")),
    ),
    ("zeros(2, device='x')", lambda xp, a: xp.zeros(2, device="x")),
    ("asarray(1, device='cpu')", lambda xp, a: xp.asarray(1, device="cpu")),
    ("to_device('cpu')", lambda xp, a: a.f64.to_device("cpu")),
    ("to_device(device1, stream=1)", lambda xp, a: a.f64.to_device(xp.Device("device1"), stream=1)),
    ("np.asarray(device1 array)", lambda xp, a: np.asarray(a.d1)),
    # creation
    ("asarray(1, dtype='float64')", lambda xp, a: xp.asarray(1, dtype="float64")),
    ("zeros(2, dtype=int)", lambda xp, a: xp.zeros(2, dtype=int)),
    ("asarray('a')", lambda xp, a: xp.asarray("a")),
    ("asarray([1, 'a'])", lambda xp, a: xp.asarray([1, "a"])),
    ("asarray(2**70)", lambda xp, a: xp.asarray(2**70)),
    ("full(2, 'a')", lambda xp, a: xp.full(2, "a")),
    ("full(2, np.float32(1))", lambda xp, a: xp.full(2, np.float32(1))),
    ("full_like(float64, None)", lambda xp, a: xp.full_like(a.f64, None)),
    ("arange(0, 3, dtype=bool)", lambda xp, a: xp.arange(0, 3, dtype=xp.bool)),
    ("arange(3, dtype=bool)", lambda xp, a: xp.arange(3, dtype=xp.bool)),
    ("meshgrid(float64, int64)", lambda xp, a: xp.meshgrid(a.f64, a.i64)),
    ("tril(1-d)", lambda xp, a: xp.tril(a.f64)),
    # data type functions
    ("can_cast(1, float64)", lambda xp, a: xp.can_cast(1, xp.float64)),
    ("can_cast(float64, 'x')", lambda xp, a: xp.can_cast(xp.float64, "x")),
    ("isdtype(1, 'bool')", lambda xp, a: xp.isdtype(1, "bool")),
    ("isdtype(float64, 'foo')", lambda xp, a: xp.isdtype(xp.float64, "foo")),
    ("isdtype(float64, 1)", lambda xp, a: xp.isdtype(xp.float64, 1)),
    ("isdtype(float64, (('bool',),))", lambda xp, a: xp.isdtype(xp.float64, (("bool",),))),
    ("finfo('a')", lambda xp, a: xp.finfo("a")),
    ("__array_namespace_info__().dtypes(kind='foo')", lambda xp, a: xp.__array_namespace_info__().dtypes(kind="foo")),
    # the array object
    ("float(1-d)", lambda xp, a: float(a.f64)),
    ("float(complex)", lambda xp, a: float(a.c0)),
    ("int(complex)", lambda xp, a: int(a.c0)),
    ("bool(1-d)", lambda xp, a: bool(a.f64)),
    ("complex(1-d)", lambda xp, a: complex(a.f64)),
    ("operator.index(1-d)", lambda xp, a: a.i64.__index__()),
    ("x.T of 3-d", lambda xp, a: xp.asarray([[[1.0]]]).T),
    ("len(x)", lambda xp, a: len(a.f64)),
    ("iter(2-d)", lambda xp, a: iter(a.m)),
    ("iter(0-d)", lambda xp, a: iter(xp.asarray(1.0))),
    ("x.mT of 1-d", lambda xp, a: a.f64.mT),
    ("matrix_transpose(1-d)", lambda xp, a: xp.matrix_transpose(a.f64)),
    # indexing
    ("x[1.5]", lambda xp, a: a.f64[1.5]),
    ("x[True]", lambda xp, a: a.f64[True]),
    ("x[[0]]", lambda xp, a: a.f64[[0]]),
    ("x[np.array([0])]", lambda xp, a: a.f64[np.array([0])]),
    # indexing the standard leaves undefined (Policy.undefined_refusals)
    ("2-d x[0]", lambda xp, a: a.m[0]),
    ("2-d x[0] = 1.0", lambda xp, a: _setitem(a.m, 0, 1.0)),
    ("x[0:10]", lambda xp, a: a.f64[0:10]),
    ("x[-10:] = 1.0", lambda xp, a: _setitem(a.f64, slice(-10, None), 1.0)),
    ("2-d x[0, 0:5]", lambda xp, a: a.m[0, 0:5]),
    ("empty x[1:]", lambda xp, a: xp.zeros(0)[1:]),
    ("x[None] = 1.0", lambda xp, a: _setitem(a.f64, None, 1.0)),
    ("x[int64 array] = 1.0", lambda xp, a: _setitem(a.f64, xp.asarray([0, 1]), 1.0)),
    ("2-d x[int64 array, :]", lambda xp, a: a.m[xp.asarray([0, 1]), :]),
    ("2-d x[int64 array, ...]", lambda xp, a: a.m[xp.asarray([0]), ...]),
    ("x[mask, ...]", lambda xp, a: a.f64[a.b, ...]),
    ("take(float64, float64)", lambda xp, a: xp.take(a.f64, a.f64)),
    ("take(2-d, indices)", lambda xp, a: xp.take(a.m, xp.asarray([0]))),
    ("take(float64, 2-d indices)", lambda xp, a: xp.take(a.f64, a.mi)),
    # manipulation, searching, statistics, linear algebra
    ("nonzero(0-d)", lambda xp, a: xp.nonzero(xp.asarray(1))),
    ("cumulative_sum(2-d)", lambda xp, a: xp.cumulative_sum(a.m)),
    ("cumulative_prod(0-d)", lambda xp, a: xp.cumulative_prod(xp.asarray(1.0))),
    ("vecdot(axis=0)", lambda xp, a: xp.vecdot(a.f64, a.f64, axis=0)),
    ("linalg.outer(2-d, 2-d)", lambda xp, a: xp.linalg.outer(a.m, a.m)),
    ("linalg.cross(2-vectors)", lambda xp, a: xp.linalg.cross(a.m, a.m)),
    ("repeat(x, 1.5)", lambda xp, a: xp.repeat(a.f64, 1.5)),
    ("repeat(x, float64)", lambda xp, a: xp.repeat(a.f64, a.f64)),
    ("roll(x, 1.5)", lambda xp, a: xp.roll(a.f64, 1.5)),
    ("reshape(x, (2,))", lambda xp, a: xp.reshape(a.f64, (2,))),
    ("reshape(x, (2, -1))", lambda xp, a: xp.reshape(a.f64, (2, -1))),
    ("x[(mask, 0)]", lambda xp, a: a.f64[(a.b, 0)]),
    ("vecdot(0-d, 1-d)", lambda xp, a: xp.vecdot(xp.asarray(1.0), a.f64)),
    ("vecdot of two sizes", lambda xp, a: xp.vecdot(a.f64, xp.asarray([1.0, 2.0]))),
    ("linalg.cross(0-d, 1-d)", lambda xp, a: xp.linalg.cross(xp.asarray(1.0), a.f64)),
    ("clip(float64, True, 1.0)", lambda xp, a: xp.clip(a.f64, True, 1.0)),
    ("clip(float64, 0.0, np.float64(0.5))", lambda xp, a: xp.clip(a.f64, 0.0, np.float64(0.5))),
    ("tile(x, 2)", lambda xp, a: xp.tile(a.f64, 2)),
    ("result_type()", lambda xp, a: xp.result_type()),
    ("sum(np.float64(1.5))", lambda xp, a: xp.sum(np.float64(1.5))),
    ("concat(())", lambda xp, a: xp.concat(())),
    ("concat((x, None))", lambda xp, a: xp.concat((a.f64, None))),
    ("isin(int8, 1.5)", lambda xp, a: xp.isin(a.i8, 1.5)),
    ("isin(int8, 300)", lambda xp, a: xp.isin(a.i8, 300)),
    ("searchsorted(bool, 1.5)", lambda xp, a: xp.searchsorted(a.b, 1.5)),
    ("searchsorted(int8, 300)", lambda xp, a: xp.searchsorted(a.i8, 300)),
    ("linalg.solve(bool, float64)", lambda xp, a: xp.linalg.solve(xp.asarray([[True]]), xp.asarray([1.0]))),
    ("bitwise_left_shift(float64, bool)", lambda xp, a: xp.bitwise_left_shift(a.f64, a.b)),
    ("bool | None", lambda xp, a: a.b | None),
    ("bool |= None", lambda xp, a: _ior(a.b, None)),
    ("None / bool", lambda xp, a: None / a.b),
    ("int64 @ 1.5", lambda xp, a: a.mi @ 1.5),
    ("fft.fftfreq(4, device='cpu')", lambda xp, a: xp.fft.fftfreq(4, device="cpu")),
    # what the standard leaves undefined and the array_api policy refuses, as array-api-strict does
    ("bitwise_left_shift(int64, -1)", lambda xp, a: xp.bitwise_left_shift(a.i64, -1)),
    ("bitwise_right_shift(int64, -int64)", lambda xp, a: xp.bitwise_right_shift(a.i64, -a.i64)),
    ("bitwise_right_shift(int64, -1)", lambda xp, a: xp.bitwise_right_shift(a.i64, -1)),
    # array-api-strict's shift functions test x2's sign before its dtype: a negative float, complex or
    # mixed-kind amount is its ValueError, not the dtype's TypeError (random float data hit both ways)
    ("bitwise_left_shift(float64, -float64)", lambda xp, a: xp.bitwise_left_shift(a.f64, -a.f64)),
    ("bitwise_right_shift(complex128, -complex128)", lambda xp, a: xp.bitwise_right_shift(a.c, -a.c)),
    ("bitwise_left_shift(float64, -1)", lambda xp, a: xp.bitwise_left_shift(a.f64, -1)),
    ("bitwise_right_shift(int8, -float32)", lambda xp, a: xp.bitwise_right_shift(a.i8, -a.f32[:2])),
    ("bitwise_left_shift(uint8, -int8)", lambda xp, a: xp.bitwise_left_shift(a.u8[:2], -a.i8)),
    ("bitwise_left_shift(float64, float64)", lambda xp, a: xp.bitwise_left_shift(a.f64, a.f64)),
    ("float64 << -float64", lambda xp, a: a.f64 << -a.f64),
    ("bitwise_left_shift(bool, -1)", lambda xp, a: xp.bitwise_left_shift(a.b, -1)),
    ("bitwise_right_shift(-1, bool)", lambda xp, a: xp.bitwise_right_shift(-1, a.b)),
    ("int64 ** -1", lambda xp, a: a.i64**-1),
    ("int64 ** -int64", lambda xp, a: a.i64**-a.i64),
    ("pow(int64, -int64)", lambda xp, a: xp.pow(a.i64, -a.i64)),
    ("pow(int64, -1)", lambda xp, a: xp.pow(a.i64, -1)),
    ("clip(int64, 2, 1)", lambda xp, a: xp.clip(a.i64, 2, 1)),
    ("reshape(x, [3])", lambda xp, a: xp.reshape(a.f64, [3])),
    ("tile(x, [2])", lambda xp, a: xp.tile(a.f64, [2])),
    ("full(2, 0-d array)", lambda xp, a: xp.full(2, xp.asarray(1.0))),
    ("x == 'auto'", lambda xp, a: a.f64 == "auto"),
    ("isin(float64, float64)", lambda xp, a: xp.isin(a.f64, a.f64)),
    ("argsort(complex)", lambda xp, a: xp.argsort(a.c)),
    ("sort(complex)", lambda xp, a: xp.sort(a.c)),
    ("argmax(complex)", lambda xp, a: xp.argmax(a.c)),
    ("searchsorted(complex, complex)", lambda xp, a: xp.searchsorted(a.c, a.c)),
    ("zeros(2, dtype=bool)", lambda xp, a: xp.zeros(2, dtype=bool)),
]
# The stand-in's flags (no such call in the main namespace).
FLAG_CASES = [
    ("set_array_api_strict_flags(api_version='1999.12')", lambda xp, a: xp.set_array_api_strict_flags(api_version="1999.12")),
    ("set_array_api_strict_flags(enabled_extensions=('nope',))", lambda xp, a: xp.set_array_api_strict_flags(enabled_extensions=("nope",))),
    ("api_version 2021.12, enabled_extensions=('fft',)", lambda xp, a: xp.set_array_api_strict_flags(api_version="2021.12", enabled_extensions=("fft",))),
    ("isin at API version 2023.12", lambda xp, a: (xp.set_array_api_strict_flags(api_version="2023.12"), xp.isin(a.i64, a.i64))),
    ("unique_values without data-dependent shapes", lambda xp, a: (xp.set_array_api_strict_flags(data_dependent_shapes=False), xp.unique_values(a.i64))),
    ("repeat(x, array) without data-dependent shapes", lambda xp, a: (xp.set_array_api_strict_flags(data_dependent_shapes=False), xp.repeat(a.i64, a.i64))),
    ("x[mask] without boolean indexing", lambda xp, a: (xp.set_array_api_strict_flags(boolean_indexing=False), a.i64[a.b])),
    ("xp.linalg with linalg disabled", lambda xp, a: (xp.set_array_api_strict_flags(enabled_extensions=("fft",)), xp.linalg)),
    ("result_type(int64 array, 1) at 2023.12", lambda xp, a: (xp.set_array_api_strict_flags(api_version="2023.12"), xp.result_type(a.i64, 1))),
    ("_flags.requires_extension('fft') with fft disabled", lambda xp, a: (xp.set_array_api_strict_flags(enabled_extensions=("linalg",)), xp._flags.requires_extension("fft")(len)([]))),
]  # fmt: skip
# Texts of the table no call here meets, and why.
RESERVED = {
    "direct_array": "Array() is refused by the class, which no runtime reaches: our words",
    "device_name": "Device('nowhere') is refused by the device class, shared by every namespace: our words",
}


def _raised(call, xp):
    """The exception ``call(xp, arrays)`` raises (None if it returns), with ``xp``'s flags reset after."""
    arrays = _Arrays(xp)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(xp, arrays)
    except Exception as exc:  # the refusal is the observation
        return exc
    finally:
        if hasattr(xp, "reset_array_api_strict_flags"):
            xp.reset_array_api_strict_flags()
    return None


MAIN = namespace("array_api")


@pytest.mark.parametrize(("label", "call"), CASES + FLAG_CASES, ids=[c[0] for c in CASES + FLAG_CASES])
def test_standin_refuses_in_array_api_strict_s_words(label, call):
    theirs = _raised(call, array_api_strict)
    ours = _raised(call, STANDIN)
    assert theirs is not None, f"array-api-strict accepts {label}"
    assert ours is not None, f"the stand-in accepts {label}"
    assert isinstance(ours, type(theirs)), (type(ours), type(theirs))
    assert re.search(re.escape(str(theirs)), str(ours)) and str(ours).startswith(str(theirs) + MARK), (
        str(theirs),
        str(ours),
    )


# Calls whose words differ in the main namespace beyond array-api-strict's: the stand-in's policy
# converts Python numbers as array-api-strict does (``ArrayAPIStrictConversions``), and says so.
MAIN_DIFFERS = {"asarray(2**70)"}
# Operands the main namespace's operators decline (NotImplemented, then Python's TypeError in Python's words):
# the stand-in refuses them in array-api-strict's, then ours.
MAIN_DIFFERS |= {"bool | None", "bool |= None", "None / bool", "int64 @ 1.5", "int64 @= np.float64(1.5)"}


@pytest.mark.parametrize(("label", "call"), CASES, ids=[c[0] for c in CASES])
def test_main_namespace_keeps_its_words(label, call):
    """The main namespace refuses the same call in our words alone: the stand-in's words are
    array-api-strict's, then exactly the main namespace's."""
    theirs = _raised(call, array_api_strict)
    ours = _raised(call, STANDIN)
    main = _raised(call, MAIN)
    assert main is not None and MARK not in str(main) and not str(main).startswith(str(theirs))
    if label not in MAIN_DIFFERS:
        assert str(ours) == f"{theirs}{MARK}{main})"
        assert isinstance(ours, type(main))


def test_refusals_array_api_strict_does_not_make_stay_ours():
    """``x << -1``: array-api-strict's shift operators let NumPy shift (only its functions check the
    amount); the stand-in's operators shift as they do (NumPy's values), the main namespace's
    array_api policy refuses it, in our words alone."""
    for call in (lambda xp, a: a.i64 << -1, lambda xp, a: a.i64 >> -a.i64):
        assert _raised(call, array_api_strict) is None
        assert _raised(call, STANDIN) is None
        theirs = call(array_api_strict, _Arrays(array_api_strict))
        ours = call(STANDIN, _Arrays(STANDIN))
        assert ours.dtype == STANDIN.int64 and np.asarray(ours).tolist() == np.asarray(theirs).tolist()
        main = _raised(call, MAIN)
        assert type(main) is ValueError and MARK not in str(main), main


def _pattern(text: str) -> re.Pattern:
    """A table's text as a pattern: its fields match anything."""
    parts = re.split(r"\{[^}]*\}", text)
    return re.compile(".*".join(re.escape(p) for p in parts), re.DOTALL)


def test_every_text_of_the_table_is_met_or_reserved():
    met = set()
    for _, call in CASES + FLAG_CASES:
        theirs = str(_raised(call, array_api_strict))
        met |= {key for key, (_, text) in WORDS.items() if _pattern(text).fullmatch(theirs)}
    assert set(WORDS) - met == set(RESERVED)


def test_the_texts_are_array_api_strict_s():
    """Each text's words stand in array-api-strict's source, as the mirrored release raises them."""
    assert array_api_strict.__version__ == MIRRORED_VERSION
    source = "\n".join(p.read_text() for p in pathlib.Path(array_api_strict.__file__).parent.glob("*.py"))
    source = re.sub(r"[\"']\s*\n\s*[f]?[\"']", "", source)  # implicitly joined string literals, joined
    source = re.sub(r"\{([^{}]*?=\s*)\}", r"\1", source)  # f"{x = }" prints "x = " and the value
    for key, (cls, text) in WORDS.items():
        if key in NUMPY_WORDS:
            continue
        for fragment in re.split(r"\{[^}]*\}", text):
            if len(fragment.strip()) >= 6:
                assert fragment in source, (key, fragment)
        assert re.search(rf"raise {cls.__name__}\(", source), key


# -- the words consumers match ------------------------------------------------------------------------
# marray 0.0.12's tests match these array-api-strict messages (pass_exceptions' allowed lists, the
# in-place test's ``in str(e2)``): each with the call of CASES that array-api-strict refuses so.
MARRAY = {
    "Only numeric dtypes are allowed in": "bool += bool",
    "Only floating-point dtypes are allowed in __truediv__": "int64 / int64",
    "Only real numeric dtypes are allowed in __floordiv__": "complex // complex",
    "Only real numeric dtypes are allowed in __mod__": "complex % complex",
    "Only numeric dtypes are allowed in matmul": "matmul(bool, bool)",
    "Only numeric dtypes are allowed in __matmul__": "bool @ bool",
    "Only integer dtypes are allowed in ": "float64 << float64",
    "Only integer dtypes are allowed in": "bitwise_left_shift(float64, float64)",
    "Only real numeric dtypes are allowed in": "complex < complex",
    "Only real numeric dtypes are allowed": "floor(complex)",
    "Only numeric dtypes are allowed": "xp.abs(bool)",
    "Only floating-point dtypes are allowed": "exp(int64)",
    "Only real floating-point dtypes are allowed": "signbit(complex)",
    "Only boolean dtypes are allowed": "logical_not(float64)",
    "Only complex floating-point dtypes are allowed": "imag(bool)",
    "Only numeric dtypes are allowed in diff": "diff(bool)",
    "cannot be type promoted together": "int64 * float32",
    "The Array API standard stipulates that casting": "astype(complex, float32)",
    "arange() is only supported for booleans when": "arange(3, dtype=bool)",
    "Integers to negative integer powers are not allowed.": "int64 ** -int64",
    "Integers to negative integer powers are not allowed": "pow(int64, -1)",
    "is only defined for x2 >= 0": "bitwise_right_shift(int64, -1)",
    "Only real numeric dtypes are allowed in argsort": "argsort(complex)",
}
# marray's other array-api-strict strings, which the stand-in does not produce, and why.
MARRAY_NOT_PRODUCED: dict[str, str] = {}


@pytest.mark.parametrize("words", MARRAY, ids=list(MARRAY))
def test_marray_s_strings(words):
    call = dict(CASES)[MARRAY[words]]
    theirs = _raised(call, array_api_strict)
    ours = _raised(call, STANDIN)
    assert words in str(theirs)
    assert ours is not None and words in str(ours) and isinstance(ours, type(theirs))


def test_marray_s_strings_are_all_listed():
    """Every array-api-strict string marray's tests match is produced here or listed as not."""
    marray_tests = pytest.importorskip("marray.tests.test_marray", reason="marray's tests")
    source = pathlib.Path(marray_tests.__file__).read_text()
    strings = set(re.findall(r"\"([^\"\n]*)\"", source))
    strict_source = "\n".join(p.read_text() for p in pathlib.Path(array_api_strict.__file__).parent.glob("*.py"))
    theirs = {s for s in strings if " " in s.strip() and (s in strict_source or "dtypes are allowed" in s)}
    theirs |= {s for s in strings if s.startswith(("Integers to negative", "arange() is only"))}  # NumPy's, passed on
    assert theirs <= set(MARRAY) | set(MARRAY_NOT_PRODUCED)


# -- other policies -------------------------------------------------------------------------------------
@pytest.mark.parametrize("policy", ["torch", "numpy"])
def test_other_policies_use_the_words_where_they_refuse_as_array_api_strict(policy):
    """The words belong to the stand-in, not to a policy: under torch's rules too, a refusal
    array-api-strict shares is in its words; a refusal it does not share is ours alone."""
    ns = make_module(policy, name=f"array_api_strict_words_{policy}")
    for call in (
        lambda xp, a: a.d1 + a.f64,
        lambda xp, a: xp.astype(xp.asarray([1j], dtype=xp.complex128), xp.int64),
        lambda xp, a: a.i64 + "a",
    ):
        theirs, ours = _raised(call, array_api_strict), _raised(call, ns)
        if ours is not None:
            assert str(ours).startswith(str(theirs) + MARK)
    # the sign of a complex array: torch refuses it, array-api-strict does not
    refused = _raised(lambda xp, a: xp.sign(a.c), ns)
    assert policy != "torch" or (refused is not None and MARK not in str(refused))


# -- reprs ----------------------------------------------------------------------------------------------
def _arrays_to_print(xp):
    return [
        xp.asarray([1.0, 2.0]),
        xp.asarray([1.5, -0.0, float("nan"), float("inf")], dtype=xp.float32),
        xp.asarray([[1, 2], [3, 4]], dtype=xp.int8),
        xp.asarray([2**64 - 1], dtype=xp.uint64),
        xp.asarray([True, False]),
        xp.asarray([1 + 2j, -1j], dtype=xp.complex64),
        xp.asarray(1j),
        xp.asarray(1.5),
        xp.asarray(True),
        xp.zeros((0,)),
        xp.zeros((2, 0), dtype=xp.int16),
        xp.arange(2000),
        xp.reshape(xp.arange(3000.0), (30, 100)),
        xp.asarray([1.0, 2.0], device=xp.Device("device1")),
        xp.asarray([1.0, 2.0], device=xp.Device("no_float64")),
        xp.zeros((0, 3), device=xp.Device("device2")),
        xp.asarray([123456789.0, 1e-9]),
    ]


def test_standin_arrays_print_as_array_api_strict_s():
    theirs = _arrays_to_print(array_api_strict)
    ours = _arrays_to_print(STANDIN)
    for t, o in zip(theirs, ours):
        assert repr(o) == repr(t)
        assert str(o) == str(t)
        assert f"{o}" == f"{t}"


def test_main_namespace_arrays_print_as_ours():
    assert repr(MAIN.asarray([1.0, 2.0])) == "Array([1., 2.], dtype=float64)"
    assert repr(MAIN.zeros((0,))) == "Array([], dtype=float64)"
    assert repr(MAIN.float64) == "array_api_promo.float64"


_DTYPES_CODE = """
import json, array_api_strict as xp
dtypes = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
          "complex64", "complex128"]
out = {n: [repr(getattr(xp, n)), str(getattr(xp, n))] for n in dtypes}
out["array"] = repr(xp.asarray([1, 2], dtype=xp.int16, device=xp.Device("device1")))
out["info"] = repr(xp.__array_namespace_info__().default_dtypes())
out["finfo"] = repr(xp.finfo(xp.float32).dtype)
try:
    xp.asarray([1]) + xp.asarray([1.0])
except TypeError as exc:
    out["refusal"] = str(exc).split(" (array_api_promo: ")[0]
import array_api_promo
out["main"] = [repr(array_api_promo.float64), repr(array_api_promo.asarray([1.0]))]
print(json.dumps(out))
"""


def test_dtypes_print_as_array_api_strict_s_in_a_standin_process():
    """In a process run by the stand-in, dtypes print as array-api-strict's (shared by every namespace
    of the process, as devices are); the main namespace's arrays keep their own repr."""
    ours = through_standin(_DTYPES_CODE)
    xp = array_api_strict
    for name, shown in ours.items():
        if name in ("array", "info", "finfo", "refusal", "main"):
            continue
        assert shown == [repr(getattr(xp, name)), str(getattr(xp, name))]
    assert ours["array"] == repr(xp.asarray([1, 2], dtype=xp.int16, device=xp.Device("device1")))
    assert ours["info"] == repr(xp.__array_namespace_info__().default_dtypes())
    assert ours["finfo"] == repr(xp.finfo(xp.float32).dtype)
    assert ours["refusal"] == "array_api_strict.int64 and array_api_strict.float64 cannot be type promoted together"
    assert ours["main"] == ["array_api_strict.float64", "Array([1.], dtype=float64)"]


_COMPARISON_CODE = """
import json, warnings, numpy as np, array_api_strict as xp
out = {}
for label, other in [("np.float32", np.float32), ("np.dtype", np.dtype("float32")), ("float32", xp.float32),
                     ("float64", xp.float64), ("'float32'", "float32"), ("None", None)]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        equal, unequal = xp.float32 == other, xp.float32 != other
    out[label] = [equal, unequal, [(w.category.__name__, str(w.message), w.filename) for w in caught]]
out["hash"] = {xp.float32: 1}[xp.float32]
for label, dtype in [("empty np.dtype", np.dtype("int32")), ("empty np.int32", np.int32), ("empty float", float)]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            xp.empty(3, dtype=dtype)
        except Exception as exc:
            out[label] = [type(exc).__name__, str(exc).split(" (array_api_promo: ")[0]]
print(json.dumps(out))
"""


def test_dtypes_compare_as_array_api_strict_s_in_a_standin_process():
    """In a stand-in process a dtype compared with a NumPy dtype or scalar type is unequal and says so
    in array-api-strict's UserWarning (its words; a failure under ``-W error::UserWarning``, as there),
    pointing at the caller's line; with anything else it compares as before, silently, and hashes as
    before.  The main namespace's dtypes, outside that process, compare by identity in silence."""
    ours = through_standin(_COMPARISON_CODE)
    xp = array_api_strict
    for label, other in [("np.float32", np.float32), ("np.dtype", np.dtype("float32")), ("float32", xp.float32)]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            theirs = [xp.float32 == other, xp.float32 != other]
        assert ours[label][:2] == theirs, label
        assert [(c, m) for c, m, _ in ours[label][2]] == [(w.category.__name__, str(w.message)) for w in caught]
        assert all(f == "<string>" for _, _, f in ours[label][2])  # (stacklevel 2: the comparing line)
    assert ours["np.float32"][2] and ours["float64"] == [False, True, []] and ours["'float32'"] == [False, True, []]
    assert ours["None"] == [False, True, []] and ours["hash"] == 1
    # a NumPy dtype given to a creation function: array-api-strict's `dtype in` its dtypes warns first
    for label, dtype in [("empty np.dtype", np.dtype("int32")), ("empty np.int32", np.int32), ("empty float", float)]:
        with warnings.catch_warnings(), pytest.raises((UserWarning, ValueError)) as theirs:
            warnings.simplefilter("error")
            array_api_strict.empty(3, dtype=dtype)
        theirs = theirs.value
        assert ours[label][1] == str(theirs), label
        assert ours[label][0] == ("ArgumentError" if type(theirs) is ValueError else type(theirs).__name__), label
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert MAIN.float32 != np.float32 and MAIN.float32 == MAIN.float32
