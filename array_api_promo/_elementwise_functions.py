"""Elementwise functions and the operator machinery.

One path for every elementwise operation:

1. classify the operands (array kinds and dtypes, or Python scalar types);
2. ask the policy for the decision (cached per signature in this namespace:
   after the first call it is one dictionary lookup);
3. convert a Python scalar by the policy's rule, cast an array only when its
   dtype is not the computation dtype;
4. one NumPy kernel call; wrap the result without re-validation.
"""

from __future__ import annotations

import numpy as np

from ._array import Array
from ._special_values import SPECIAL_KERNELS
from .promotion import OPS, LargeInt, Operand, OperandKind

__all__ = ["ElementwiseFunctions", "KERNELS"]

_ndarray = np.ndarray
_asarray = np.asarray
_ARRAY, _ZERO_D, _SCALAR = OperandKind.ARRAY, OperandKind.ZERO_D, OperandKind.SCALAR
_PY_SCALARS = frozenset((bool, int, float, complex))
_INT64_MAX = 2**63 - 1
_UINT64_END = 2**64


def _keep_integers(ufunc):
    """floor/ceil/trunc: integers are already integral (NumPy may go through float)."""

    def kernel(x):
        if x.dtype.kind in "biu":
            return x.copy()
        return ufunc(x)

    return kernel


def _real(x):
    return np.real(x).copy() if x.dtype.kind == "c" else x.copy()


def _imag(x):
    return np.imag(x).copy() if x.dtype.kind == "c" else np.zeros_like(x)


def _round(x):
    if x.dtype.kind in "biu":
        return x.copy()
    return np.round(x)


# The NumPy kernel of each operation; kernels that need the standard's special
# cases (which NumPy gets wrong) come from _special_values.
KERNELS = {
    "abs": np.absolute, "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin,
    "asinh": np.arcsinh, "atan": np.arctan, "atanh": np.arctanh,
    "bitwise_invert": np.invert, "ceil": _keep_integers(np.ceil), "conj": np.conjugate,
    "cos": np.cos, "cosh": np.cosh, "exp": np.exp, "expm1": np.expm1,
    "floor": _keep_integers(np.floor), "imag": _imag, "isfinite": np.isfinite,
    "isinf": np.isinf, "isnan": np.isnan, "log": np.log, "log1p": np.log1p,
    "log2": np.log2, "log10": np.log10, "logical_not": np.logical_not,
    "negative": np.negative, "positive": np.positive, "real": _real,
    "reciprocal": np.reciprocal, "round": _round, "sign": np.sign, "signbit": np.signbit,
    "sin": np.sin, "sinh": np.sinh, "sqrt": np.sqrt, "square": np.square, "tan": np.tan,
    "tanh": np.tanh, "trunc": _keep_integers(np.trunc),
    "add": np.add, "atan2": np.arctan2, "bitwise_and": np.bitwise_and,
    "bitwise_left_shift": np.left_shift, "bitwise_or": np.bitwise_or,
    "bitwise_right_shift": np.right_shift, "bitwise_xor": np.bitwise_xor,
    "copysign": np.copysign, "divide": np.true_divide, "equal": np.equal,
    "floor_divide": np.floor_divide, "greater": np.greater, "greater_equal": np.greater_equal,
    "hypot": np.hypot, "less": np.less, "less_equal": np.less_equal,
    "logaddexp": np.logaddexp, "logical_and": np.logical_and, "logical_or": np.logical_or,
    "logical_xor": np.logical_xor, "maximum": np.maximum, "minimum": np.minimum,
    "multiply": np.multiply, "nextafter": np.nextafter, "not_equal": np.not_equal,
    "pow": np.power, "remainder": np.remainder, "subtract": np.subtract,
    "matmul": np.matmul,
}
KERNELS.update(SPECIAL_KERNELS)

UNARY_NAMES = tuple(n for n, s in OPS.items() if s.arity == 1)
BINARY_NAMES = tuple(
    n for n, s in OPS.items() if s.arity == 2 and n not in ("result_type", "clip", "where", "matmul")
)
class ElementwiseFunctions:
    """Mixin: the elementwise functions of the standard and the operator machinery."""

    # -- decisions ------------------------------------------------------------------------
    def _decide_binary(self, key):
        name, dt1, zero1, dt2, zero2 = key
        if type(dt2) is type:  # Python scalar type
            sig = (Operand(_ZERO_D if zero1 else _ARRAY, dt1), Operand(_SCALAR, dt2))
        else:
            sig = (Operand(_ZERO_D if zero1 else _ARRAY, dt1), Operand(_ZERO_D if zero2 else _ARRAY, dt2))
        decision = self.policy.decide(OPS[name], sig)
        self._binary_cache[key] = decision
        return decision

    def _binary_arrays(self, name, x1, x2):
        if x1._ns is not self or x2._ns is not self:
            self._check_array(x1, name, "x1")
            self._check_array(x2, name, "x2")
        if x1._device is not x2._device:
            self._same_device(name, x1, x2)
        d1 = x1._data
        d2 = x2._data
        key = (name, x1._dtype, d1.ndim == 0, x2._dtype, d2.ndim == 0)
        decision = self._binary_cache.get(key)
        if decision is None:
            decision = self._decide_binary(key)
        compute = decision[0]
        if x1._dtype is not compute:
            d1 = d1.astype(compute.numpy)
        if x2._dtype is not compute:
            d2 = d2.astype(compute.numpy)
        out = KERNELS[name](d1, d2)
        result = decision[1]
        if type(out) is not _ndarray or out.dtype is not result.numpy:
            out = _asarray(out, dtype=result.numpy)
        return Array._new(out, result, self, x1._device)

    def _binary_scalar(self, name, x, scalar, reflected):
        if x._ns is not self:
            self._check_array(x, name)
        d = x._data
        st = type(scalar)
        if st is int and _INT64_MAX < scalar < _UINT64_END:
            st = LargeInt  # torch unpacks it as uint64: a different decision
        key = (name, x._dtype, d.ndim == 0, st, 0)
        decision = self._binary_cache.get(key)
        if decision is None:
            decision = self._decide_binary(key)
        compute = decision[0]
        s = self.policy.convert_scalar(scalar, compute, name)
        if x._dtype is not compute:
            d = d.astype(compute.numpy)
        out = KERNELS[name](s, d) if reflected else KERNELS[name](d, s)
        result = decision[1]
        if type(out) is not _ndarray or out.dtype is not result.numpy:
            out = _asarray(out, dtype=result.numpy)
        return Array._new(out, result, self, x._device)

    def _operator(self, name, x1, x2):
        """``x1 <op> x2`` for the Array dunders (one of them is an array of ours)."""
        t1 = type(x1)
        t2 = type(x2)
        if t1 is Array:
            if t2 is Array:
                return self._binary_arrays(name, x1, x2)
            if t2 in _PY_SCALARS and name != "matmul":
                return self._binary_scalar(name, x1, x2, False)
        elif t1 in _PY_SCALARS and name != "matmul":
            return self._binary_scalar(name, x2, x1, True)
        return NotImplemented

    def _inplace(self, name, x1, x2):
        """``x1 <op>= x2``: computed first, stored only if the policy allows the cast back."""
        result = self._operator(name, x1, x2)
        if result is NotImplemented:
            return result
        self.policy.inplace_result(f"{name} (in-place)", result._dtype, x1._dtype)
        if result._data.shape != x1._data.shape:
            raise ValueError(
                f"{name} (in-place): broadcasting would change the shape of x1 from "
                f"{x1._data.shape} to {result._data.shape}"
            )
        x1._data[...] = result._data
        return x1

    def _unary(self, name, x):
        if type(x) is not Array or x._ns is not self:
            self._check_array(x, name)
        d = x._data
        key = (name, x._dtype, d.ndim == 0)
        decision = self._unary_cache.get(key)
        if decision is None:
            sig = (Operand(_ZERO_D if key[2] else _ARRAY, x._dtype),)
            decision = self._unary_cache[key] = self.policy.decide(OPS[name], sig)
        compute = decision[0]
        if x._dtype is not compute:
            d = d.astype(compute.numpy)
        out = KERNELS[name](d)
        result = decision[1]
        if type(out) is not _ndarray or out.dtype is not result.numpy:
            out = _asarray(out, dtype=result.numpy)
        return Array._new(out, result, self, x._device)

    _unary_operator = _unary

    def _elementwise2(self, name, x1, x2):
        """A binary elementwise function: arrays, or (2024.12+) one Python scalar."""
        t1 = type(x1)
        t2 = type(x2)
        if t1 is Array and t2 is Array:
            return self._binary_arrays(name, x1, x2)
        if self.scalars_in_functions:
            if t1 is Array and t2 in _PY_SCALARS:
                return self._binary_scalar(name, x1, x2, False)
            if t2 is Array and t1 in _PY_SCALARS:
                return self._binary_scalar(name, x2, x1, True)
            if t1 in _PY_SCALARS and t2 in _PY_SCALARS:
                raise TypeError(f"{name}: at least one of x1 and x2 must be an array, got two Python scalars")
        bad, arg = (x1, "x1") if t1 is not Array else (x2, "x2")
        if t1 is Array and t2 is Array:
            raise AssertionError("unreachable")
        allowed = "an array or a Python scalar" if self.scalars_in_functions else "an array"
        self._check_array(bad, name, arg) if type(bad) is Array else None
        from ._runtime import _describe_value

        raise TypeError(f"{name}: {arg} must be {allowed} of {self.label}, got {_describe_value(bad)}")

    # -- functions with more than a plain signature ---------------------------------------------
    def clip(self, x, /, min=None, max=None):
        x = self._check_array(x, "clip")
        operands = [x]
        for bound, arg in ((min, "min"), (max, "max")):
            if bound is None:
                continue
            if type(bound) is Array:
                self._check_array(bound, "clip", arg)
            elif type(bound) not in _PY_SCALARS:
                raise TypeError(f"clip: {arg} must be an array, a Python scalar or None, got {type(bound).__name__}")
            operands.append(bound)
        arrays = [o for o in operands if type(o) is Array]
        device = self._same_device("clip", *arrays)
        sig = tuple(self._operand(o) for o in operands)
        decision = self.policy.decide(OPS["clip"], sig)
        compute = decision.compute
        data = x._data if x._dtype is compute else x._data.astype(compute.numpy)
        bounds = []
        for o in operands[1:]:
            if type(o) is Array:
                bounds.append(o._data if o._dtype is compute else o._data.astype(compute.numpy))
            else:
                bounds.append(self._clip_scalar(o, compute))
        lo = bounds.pop(0) if min is not None else None
        hi = bounds.pop(0) if max is not None else None
        out = data
        if lo is not None:
            out = np.maximum(out, lo)  # NaN bounds propagate, as the standard asks
        if hi is not None:
            out = np.minimum(out, hi)
        out = _asarray(out, dtype=decision.result.numpy)
        if out.shape != data.shape:
            raise ValueError(f"clip: min and max must broadcast to the shape of x {data.shape}, got {out.shape}")
        if out is data or out is x._data:
            out = out.copy()
        return Array._new(out, decision.result, self, device)

    def _clip_scalar(self, value, dtype):
        if dtype.category == 1 and type(value) is int:
            # An out-of-range integer bound clips nothing (or everything) rather than wrapping.
            lo, hi = np.iinfo(dtype.numpy).min, np.iinfo(dtype.numpy).max
            value = lo if value < lo else hi if value > hi else value
        return self.policy.convert_scalar(value, dtype, "clip")

    def where(self, condition, x1, x2, /):
        condition = self._check_array(condition, "where", "condition")
        if condition._dtype.category != 0:
            raise TypeError(f"where: condition must have a boolean dtype, got {condition._dtype.name}")
        operands = []
        for value, arg in ((x1, "x1"), (x2, "x2")):
            if type(value) is Array:
                self._check_array(value, "where", arg)
            elif not (self.scalars_in_functions and type(value) in _PY_SCALARS):
                allowed = "an array or a Python scalar" if self.scalars_in_functions else "an array"
                raise TypeError(f"where: {arg} must be {allowed}, got {type(value).__name__}")
            operands.append(value)
        arrays = [condition] + [o for o in operands if type(o) is Array]
        if len(arrays) == 1:
            raise TypeError("where: at least one of x1 and x2 must be an array")
        device = self._same_device("where", *arrays)
        decision = self.policy.decide(OPS["where"], tuple(self._operand(o) for o in operands))
        compute = decision.compute
        values = [
            (o._data if o._dtype is compute else o._data.astype(compute.numpy)) if type(o) is Array
            else self.policy.convert_scalar(o, compute, "where")
            for o in operands
        ]
        out = np.where(condition._data, values[0], values[1])
        return Array._new(_asarray(out, dtype=decision.result.numpy), decision.result, self, device)


def _make_unary(name):
    def func(self, x, /):
        return self._unary(name, x)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = f"Elementwise ``{name}`` (array API standard), under this namespace's promotion policy."
    return func


def _make_binary(name):
    def func(self, x1, x2, /):
        return self._elementwise2(name, x1, x2)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = f"Elementwise ``{name}`` (array API standard), under this namespace's promotion policy."
    return func


for _name in UNARY_NAMES:
    setattr(ElementwiseFunctions, _name, _make_unary(_name))
for _name in BINARY_NAMES:
    setattr(ElementwiseFunctions, _name, _make_binary(_name))
del _name

