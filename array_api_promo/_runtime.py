"""The state a namespace's functions share: its policy, its API version, and the checks every function uses.

Every public function of the standard is written once, as a method of a
mixin class (one per spec category, ``_creation_functions.py`` ...).  A
namespace is a :class:`Runtime` (those mixins bound to one policy and one API
version) plus the module object users see, whose attributes are the
runtime's bound methods.  Nothing here is mutated after construction.
"""

from __future__ import annotations

import numpy as np

from . import _dtypes as D
from ._array import Array
from ._devices import ALL_DEVICES, CPU, Device
from ._dtypes import DType
from .promotion import Operand, OperandKind, scalar_type
from .promotion._policy import zero_d_value

__all__ = ["RuntimeBase"]

_ARRAY = OperandKind.ARRAY
_ZERO_D = OperandKind.ZERO_D
_SCALAR = OperandKind.SCALAR
_PY_SCALARS = (bool, int, float, complex)


class RuntimeBase:
    """Policy, version and the shared argument checks of one namespace."""

    _by_value = False  # the policy's decisions depend on values (see __init__)

    def __init__(self, policy, api_version: str):
        self.policy = policy
        self.api_version = api_version
        self.module = None  # the module object users see; set by the namespace factory
        self.dtypes = tuple(d for d in policy.dtypes if _dtype_in_version(d, api_version))
        self._dtype_set = frozenset(self.dtypes)
        # NumPy's native dtype objects are singletons: asarray looks them up by id.
        self._native_dtypes = {id(d.numpy): d for d in self.dtypes}
        # Python scalars as arguments of elementwise functions: 2024.12 and later.
        self.scalars_in_functions = api_version >= "2024.12"
        # Elementwise plans per signature (see _elementwise_functions); 0-d flags
        # are part of the key only where the policy tells 0-d arrays apart.
        self._plans: dict = {}
        self._flat_keys = not policy.zero_d_matters
        # Value-dependent policies (numpy_legacy): plans that involve a 0-d array or a
        # Python scalar are cached per value class, never under the plain signature key.
        # (Instance attributes only for them: the others' runtimes stay as they were.)
        if policy.value_dependent:
            self._by_value = True
            self._value_plans: dict = {}
            self._operand = self._operand_with_value

    def __repr__(self) -> str:
        return f"<array_api_promo namespace policy={self.policy.name!r} api_version={self.api_version!r}>"

    @property
    def label(self) -> str:
        return f"array_api_promo (policy {self.policy.name!r}, api_version {self.api_version})"

    # -- arrays -----------------------------------------------------------------------
    def _new(self, data: np.ndarray, dtype: DType, device: Device) -> Array:
        return Array._new(data, dtype, self, device)

    def _wrap(self, data, device: Device = CPU) -> Array:
        """An array of this namespace around the NumPy result ``data``."""
        if type(data) is not np.ndarray:
            data = np.asarray(data)
        dtype = D.dtype_of_numpy(data.dtype)
        if dtype not in self._dtype_set:
            raise TypeError(f"internal: result dtype {dtype.name} does not exist under {self.label}")
        return Array._new(data, dtype, self, device)

    def _check_array(self, x, func: str, arg: str = "x") -> Array:
        """``x`` itself if it is an array this namespace may use, else a clear ``TypeError``."""
        if type(x) is Array:
            if x._ns is not self and x._ns.policy is not self.policy:
                self._foreign(x, func)
            return x
        raise TypeError(
            f"{func}: {arg} must be an array of {self.label}, got {_describe_value(x)}"
        )

    def _foreign(self, x: Array, func: str):
        raise TypeError(
            f"{func}: cannot mix arrays of {x._ns.label} with {self.label}; convert with "
            "asarray() of the target namespace"
        )

    def _same_device(self, func: str, *arrays: Array) -> Device:
        device = arrays[0]._device
        for a in arrays[1:]:
            if a._device is not device:
                raise ValueError(
                    f"{func}: arrays are on different devices ({device.name} and {a._device.name}); "
                    "move one with to_device()"
                )
        return device

    # -- arguments ----------------------------------------------------------------------
    def _check_dtype(self, dtype, func: str, arg: str = "dtype") -> DType:
        if type(dtype) is DType and dtype in self._dtype_set:
            return dtype
        if type(dtype) is DType:
            raise ValueError(f"{func}: {arg} {dtype.name} does not exist under {self.label}")
        if dtype is bool:
            # NumPy users write dtype=bool; it names exactly one dtype, so it is accepted
            # (int/float/complex would name a policy-dependent default and stay errors).
            return D.bool_
        raise TypeError(f"{func}: {arg} must be a dtype of {self.label}, got {_describe_value(dtype)}")

    def _check_device(self, device, func: str) -> Device:
        if device is None:
            return CPU
        if type(device) is Device:
            return device
        raise ValueError(
            f"{func}: unknown device {device!r}; devices are {', '.join(d.name for d in ALL_DEVICES)}"
        )

    def _operand(self, x) -> Operand:
        """The promotion operand of an array or Python scalar."""
        if type(x) is Array:
            return Operand(_ZERO_D if x._data.ndim == 0 else _ARRAY, x._dtype)
        return Operand(_SCALAR, scalar_type(x))

    def _operand_with_value(self, x):
        """:meth:`_operand` for a value-dependent policy: 0-d arrays and scalars with their value class."""
        operand = RuntimeBase._operand(self, x)
        if operand.kind is _ARRAY:
            return operand
        return self.policy.value_operand(operand, zero_d_value(x) if type(x) is Array else x)

    def _promote(self, func: str, *args) -> DType:
        """The policy's result dtype of arrays (and scalars) ``args`` for ``func``."""
        return self.policy.resolve(tuple(self._operand(a) for a in args), func)

    def _scalar_array(self, value, dtype: DType, func: str) -> np.ndarray:
        """A Python scalar as a 0-d NumPy array of ``dtype``, by the policy's conversion rule."""
        return self.policy.convert_scalar(value, dtype, func)

    def _normalize_axis(self, axis: int, ndim: int, func: str) -> int:
        if type(axis) is not int and not isinstance(axis, int):
            raise TypeError(f"{func}: axis must be an int, got {_describe_value(axis)}")
        if not -ndim <= axis < ndim:
            raise IndexError(f"{func}: axis {axis} is out of bounds for an array of dimension {ndim}")
        return axis % ndim if ndim else 0

    def _normalize_axes(self, axis, ndim: int, func: str) -> tuple[int, ...]:
        """``axis`` (None, int or tuple) as a tuple of distinct non-negative axes."""
        if axis is None:
            return tuple(range(ndim))
        if isinstance(axis, tuple):
            axes = tuple(self._normalize_axis(a, ndim, func) for a in axis)
            if len(set(axes)) != len(axes):
                raise ValueError(f"{func}: repeated axis in {axis}")
            return axes
        return (self._normalize_axis(axis, ndim, func),)


def _dtype_in_version(dtype: DType, api_version: str) -> bool:
    if dtype.category == D.CATEGORY_COMPLEX:
        return api_version >= "2022.12"
    return True


def _describe_value(x) -> str:
    if isinstance(x, np.ndarray):
        return f"a NumPy ndarray of dtype {x.dtype}"
    if isinstance(x, np.generic):
        return f"a NumPy scalar {x!r}"
    if type(x) in _PY_SCALARS:
        return f"Python {type(x).__name__} {x!r}"
    if type(x) is Array:
        return f"an array of {x._ns.label}"
    return f"{type(x).__name__} {x!r}" if len(repr(x)) < 60 else type(x).__name__
