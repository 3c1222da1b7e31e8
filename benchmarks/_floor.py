"""The floor: the least an array wrapper written in Python can cost per call.

Each operation is one Python frame: the NumPy call and one new object with two slots.
No checks, no promotion, no device, no errors of its own — nothing a real namespace can
leave out. Its ratio to NumPy, measured in the same run, is the floor under any
pure-Python wrapper (array_api_promo's and array_api_strict's included): a speed target
below it cannot be met without a compiled core.
"""

from __future__ import annotations

import numpy as np

_new = object.__new__
_ndarray = np.ndarray
_asarray = np.asarray
float32 = np.float32


def _wrap(data):
    array = _new(Array)
    array._data = data
    array._meta = None
    return array


class Array:
    __slots__ = ("_data", "_meta")

    def __add__(self, other):
        array = _new(Array)
        array._data = np.add(self._data, other._data if type(other) is Array else other)
        array._meta = None
        return array

    def __mul__(self, other):
        array = _new(Array)
        array._data = np.multiply(self._data, other._data if type(other) is Array else other)
        array._meta = None
        return array

    def __gt__(self, other):
        array = _new(Array)
        array._data = np.greater(self._data, other._data)
        array._meta = None
        return array

    def __iadd__(self, other):
        np.add(self._data, other._data, out=self._data)
        return self

    def __neg__(self):
        array = _new(Array)
        array._data = np.negative(self._data)
        array._meta = None
        return array

    def __matmul__(self, other):
        array = _new(Array)
        array._data = np.matmul(self._data, other._data)
        array._meta = None
        return array

    def __getitem__(self, key):
        data = self._data[key._data if type(key) is Array else key]
        if type(data) is not _ndarray:
            data = _asarray(data)
        array = _new(Array)
        array._data = data
        array._meta = None
        return array

    def __array_namespace__(self, api_version=None):
        return _this


def add(x1, x2):
    return _wrap(np.add(x1._data, x2._data))


def sin(x):
    return _wrap(np.sin(x._data))


def sqrt(x):
    return _wrap(np.sqrt(x._data))


def exp(x):
    return _wrap(np.exp(x._data))


def sum(x):  # noqa: A001 - the standard's name
    return _wrap(_asarray(np.add.reduce(x._data)))


def asarray(obj):
    return _wrap(np.asarray(obj._data if type(obj) is Array else obj))


def reshape(x, shape):
    return _wrap(np.reshape(x._data, shape))


def astype(x, dtype):
    return _wrap(x._data.astype(dtype))


def matmul(x1, x2):
    return _wrap(np.matmul(x1._data, x2._data))


import sys as _sys  # noqa: E402 - the module is its own namespace

_this = _sys.modules[__name__]
