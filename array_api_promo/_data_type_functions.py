"""Data type functions of the standard: astype, can_cast, finfo, iinfo, isdtype, result_type."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from . import _core, _dtypes as D
from ._array import Array
from ._core import fast_path
from ._devices import CPU
from ._dtypes import DType
from ._errors import ArgumentError
from ._runtime import RuntimeBase, describe_value, new_array, quiet_context, quietly
from .promotion import PromotionError

if TYPE_CHECKING:
    from ._devices import Device

__all__ = ["DataTypeFunctions", "finfo_object", "iinfo_object"]

_astype = np.ndarray.astype


class finfo_object(NamedTuple):
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: DType


class iinfo_object(NamedTuple):
    bits: int
    max: int
    min: int
    dtype: DType


_FINFOS: dict[DType, finfo_object] = {}  # finfo by dtype, once a namespace has given it (the same in every one)
_IINFOS: dict[DType, iinfo_object] = {}  # iinfo alike
_TWO_DTYPES = "dtypes"  # the mark of result_type's keys for two dtypes in a runtime's _result_types


# isdtype's kind names -> the dtype kinds they cover
_ISDTYPE_KINDS = {
    "bool": {D.BOOL},
    "signed integer": {D.SIGNED_INTEGER},
    "unsigned integer": {D.UNSIGNED_INTEGER},
    "integral": {D.SIGNED_INTEGER, D.UNSIGNED_INTEGER},
    "real floating": {D.REAL_FLOATING},
    "complex floating": {D.COMPLEX_FLOATING},
    "numeric": {D.SIGNED_INTEGER, D.UNSIGNED_INTEGER, D.REAL_FLOATING, D.COMPLEX_FLOATING},
}


class DataTypeFunctions(RuntimeBase):
    """Mixin: dtype inspection and conversion."""

    def astype(self, x: Array, dtype: DType, /, *, copy: bool = True, device: Device | None = None) -> Array:
        """Copies ``x`` to the data type ``dtype``, whatever the type promotion rules say."""
        if type(x) is Array and type(dtype) is DType and x._runtime is self and device is None and copy is True:
            quiet = self._casts.get(dtype)  # the casts to dtype the general path below has allowed
            if quiet is not None:
                quiet = quiet.get(x._dtype)  # (two lookups cost less than one by a new tuple)
            if quiet is not None:
                # NumPy's astype unbound: a bound method's call costs as much as the cast of a small
                # array. Data that is no exact ndarray (a TypeError) takes the general path.
                try:
                    data = (
                        quiet_context().run(_astype, x._data, dtype.numpy) if quiet else _astype(x._data, dtype.numpy)
                    )
                except TypeError:
                    pass
                else:
                    device = x._device
                    if device is not CPU:
                        device.admit(dtype, self)
                    return new_array(data, dtype, self, device)
        x = self._check_array(x, "astype")
        dtype = self._check_dtype(dtype, "astype")
        if copy is not True and copy is not False:
            if not self.policy.numpy_argument_reading:
                raise TypeError(f"astype: copy must be True or False, got {describe_value(copy)}")
            try:
                copy = bool(copy)  # (array-api-strict's reading: by its truth)
            except Exception:  # (an array's ambiguous truth: our words)
                raise TypeError(f"astype: copy must be True or False, got {describe_value(copy)}") from None
        device = x._device if device is None else self._check_device(device, "astype")
        if not self.policy.astype_allowed(x._dtype, dtype):
            raise self._refusal(
                TypeError(
                    f"astype: casting {x._dtype.name} to {dtype.name} is not allowed by the standard "
                    f"(complex to real loses the imaginary part; use real() or abs()) "
                    f"(policy {self.policy.name!r})"
                ),
                "astype",
                x._dtype,
                dtype,
            )
        if dtype is x._dtype and device is x._device:
            return Array._new(x._data.copy(), dtype, self, device) if copy else x
        source = x._dtype
        # NaN/inf to integer and narrowing floats warn in NumPy; the standard leaves
        # the values unspecified (NaN -> int) or IEEE-rounded (inf).
        quiet = (dtype.category <= D.CATEGORY_INTEGER < source.category) or (
            dtype.category >= D.CATEGORY_FLOATING and dtype.bits < source.bits
        )
        data = quietly(x._data.astype, dtype.numpy) if quiet else x._data.astype(dtype.numpy, copy=True)
        self._casts.setdefault(dtype, {})[source] = quiet
        return Array._new(data, dtype, self, device)

    astype = fast_path(_core.ASTYPE, "astype", astype)  # a cast allowed before: in C

    def can_cast(self, from_: DType | Array, to: DType, /) -> bool:
        """Tells whether the data type ``from_`` can be cast to ``to`` under the type promotion rules."""
        if type(from_) is DType and type(to) is DType:
            answer = self._can_casts.get((from_, to))  # two dtypes answered for before: the policy's answer
            if answer is not None:
                return answer
        if type(from_) is Array:
            from_ = self._check_array(from_, "can_cast", "from_")._dtype
        from_ = self._check_dtype(from_, "can_cast", "from_")
        to = self._check_dtype(to, "can_cast", "to")
        answer = self._can_casts[from_, to] = self.policy.can_cast(from_, to)
        return answer

    def finfo(self, type: DType | Array, /) -> finfo_object:
        """Returns the machine limits of a floating-point data type (or of an array's data type)."""
        # a dtype of this namespace met before: its finfo does not change (``type``: the standard's name)
        if type.__class__ is DType and type in self._dtype_set and type in _FINFOS:
            return _FINFOS[type]
        dtype = type._dtype if isinstance(type, Array) else self._check_dtype(type, "finfo", "type")
        if dtype.category < D.CATEGORY_FLOATING:
            raise ArgumentError(
                f"finfo: {dtype.name} is not a floating-point dtype; use iinfo()"
            )  # (NumPy's ValueError too)
        real = D.REAL_OF.get(dtype, dtype)
        info = D.finfo_of(dtype)
        _FINFOS[dtype] = out = finfo_object(
            info.bits,
            float(info.eps),
            float(info.max),
            float(info.min),
            float(info.smallest_normal),
            real,  # the standard: complex dtypes report their real dtype
        )
        return out

    def iinfo(self, type: DType | Array, /) -> iinfo_object:
        """Returns the machine limits of an integer data type (or of an array's data type)."""
        # a dtype of this namespace met before: its iinfo does not change (``type``: the standard's name)
        if type.__class__ is DType and type in self._dtype_set and type in _IINFOS:
            return _IINFOS[type]
        dtype = type._dtype if isinstance(type, Array) else self._check_dtype(type, "iinfo", "type")
        if dtype.category != D.CATEGORY_INTEGER:
            raise ArgumentError(f"iinfo: {dtype.name} is not an integer dtype; use finfo()")  # (NumPy's ValueError too)
        info = np.iinfo(dtype.numpy)
        _IINFOS[dtype] = out = iinfo_object(info.bits, int(info.max), int(info.min), dtype)
        return out

    def isdtype(self, dtype: DType, kind: DType | str | tuple[DType | str, ...]) -> bool:
        """Tells whether ``dtype`` is of the data type kind (or one of the kinds) ``kind``."""
        if type(dtype) is not DType:
            raise self._refusal(
                TypeError(f"isdtype: dtype must be a dtype of {self.label}, got {dtype!r}"),
                "isdtype_dtype",
                type(dtype),
            )
        if isinstance(kind, tuple):
            return any(self._isdtype_one(dtype, k) for k in kind)
        return self._isdtype_one(dtype, kind)

    def _isdtype_one(self, dtype, kind):
        if type(kind) is DType:
            return dtype is kind
        if isinstance(kind, str):
            try:
                return dtype.kind in _ISDTYPE_KINDS[kind]
            except KeyError:
                raise self._refusal(
                    ValueError(f"isdtype: unknown kind {kind!r}; kinds are {', '.join(_ISDTYPE_KINDS)}"),
                    "isdtype_kind",
                    kind,
                ) from None
        raise self._refusal(
            TypeError(f"isdtype: kind must be a dtype, a kind name or a tuple of them, got {kind!r}"),
            "isdtype_kind_type",
            kind,
        )

    def result_type(self, *arrays_and_dtypes: Array | DType | complex) -> DType:
        """Returns the data type the type promotion rules give for the arrays, data types and scalars passed."""
        if len(arrays_and_dtypes) == 2:
            a, b = arrays_and_dtypes
            if type(a) is Array and type(b) is Array and a._runtime is self and b._runtime is self:
                # Two arrays of this namespace: one lookup once their dtypes were met. Which
                # operands are 0-d counts only where the policy tells 0-d apart and the dtypes differ.
                dt1, dt2 = a._dtype, b._dtype
                if self._flat_keys or dt1 is dt2:
                    key: tuple = (dt1, dt2)
                else:
                    key = (dt1, dt2, (a._data.ndim == 0) | ((b._data.ndim == 0) << 1))
                result = self._result_types.get(key)
                if result is None:
                    try:
                        result = self.policy.result_type(a, b)
                    except PromotionError as exc:
                        raise self._refusal(exc, "promotion", "result_type", a, b) from None
                    if not (self._by_value and len(key) == 3 and key[2]):  # a 0-d operand's value decides
                        self._result_types[key] = result
                return result
            if type(a) is DType and type(b) is DType:
                result = self._result_types.get((a, b, _TWO_DTYPES))  # two dtypes this namespace took before
                if result is not None:
                    return result
        if self.policy.numpy_scalars != "refuse":  # NumPy scalars as the policy's library takes them
            arrays_and_dtypes = tuple(
                self._from_numpy_scalar(x, "result_type", arrays_and_dtypes) for x in arrays_and_dtypes
            )
        for x in arrays_and_dtypes:
            t = type(x)
            if t is Array:
                self._check_array(x, "result_type", "arrays_and_dtypes")
            elif t is DType:
                self._check_dtype(x, "result_type", "arrays_and_dtypes")
            elif not (t in D.PY_SCALARS and self.scalars_in_functions):
                allowed = "arrays, dtypes or Python scalars" if self.scalars_in_functions else "arrays or dtypes"
                raise self._refusal(
                    TypeError(f"result_type: expected {allowed}, got {describe_value(x)}"), "result_type_input", x
                )
        try:
            result = self.policy.result_type(*arrays_and_dtypes)
        except (PromotionError, OverflowError, ValueError) as exc:
            raise self._refusal(exc, "promotion", "result_type", *arrays_and_dtypes) from None
        if len(arrays_and_dtypes) == 2 and type(arrays_and_dtypes[0]) is DType and type(arrays_and_dtypes[1]) is DType:
            self._result_types[arrays_and_dtypes[0], arrays_and_dtypes[1], _TWO_DTYPES] = result
        return result

    result_type = fast_path(_core.RESULT_TYPE, "result_type", result_type)  # two arrays met before: in C
