"""clip and where: the elementwise functions of three operands.

Each promotes its own way (clip's bounds take x's dtype, where's branches promote together and the
condition is bool), with its own plan cache (the runtime's _clip_plans and _where_plans).
"""

from __future__ import annotations

import functools

import numpy as np

from . import _core, _dtypes as D
from ._array import Array
from ._core import clip_arrays as _clip_arrays, fast_path
from ._devices import CPU
from ._dtypes import PY_SCALARS
from ._runtime import RuntimeBase, check_broadcast, new_array
from .promotion import OPS, PromotionError

_ndarray = np.ndarray
_asarray = np.asarray
_maximum, _minimum = np.maximum, np.minimum
_where = np.where
_new_object = object.__new__


try:  # the C count, which np.count_nonzero reaches through a Python layer
    from numpy._core.multiarray import count_nonzero as _count_nonzero
except ImportError:  # pragma: no cover (NumPy moves it)
    _count_nonzero = np.count_nonzero
_numpy_bool = np.bool_

_NUMBER_OF_CATEGORY = (bool, int, float, complex)  # a 0-d array read as a Python number (Tensor.item())
_ONE_PASS_MIN = 4096  # elements; below it two ufunc calls cost less than numpy.clip's Python layers


def _fits_into(shape, target) -> bool:
    """Whether an array of ``shape`` broadcasts to ``target`` without enlarging it."""
    extra = len(target) - len(shape)
    return extra >= 0 and all(n == 1 or n == m for n, m in zip(shape, target[extra:]))


def _crossed(lo, hi) -> bool:
    """``(lo > hi).any()``: whether some element of the bound ``lo`` exceeds ``hi``'s (NaN never does),
    without the Python layers of NumPy's ``any`` (a microsecond): a NumPy bool's truth, an array's count."""
    above = lo > hi
    if type(above) is _numpy_bool:
        return bool(above)
    if type(above) is _ndarray:
        return _count_nonzero(above) > 0
    return bool(above.any())


def _clips_in_one_pass(data, lo, hi) -> bool:
    """Whether ``numpy.clip(data, lo, hi)`` (one pass) gives ``minimum(maximum(data, lo), hi)`` bit
    for bit: two 0-d bounds of an integer or floating dtype, the floating ones neither zero (NumPy's
    clip keeps x's signed zero where maximum may not) nor NaN (the NaN's bits may differ)."""
    if lo is None or hi is None or np.ndim(lo) or np.ndim(hi):
        return False
    kind = data.dtype.kind
    if kind == "f":
        return bool(lo == lo and hi == hi and lo != 0 and hi != 0)
    return kind in "iu"


class ClipWhereFunctions(RuntimeBase):
    """Mixin: clip and where, the elementwise functions of three operands."""

    # -- functions with more than a plain signature ---------------------------------------------
    def clip(self, x: Array, /, min: Array | float | None = None, max: Array | float | None = None) -> Array:
        """Clamps each element of ``x`` to the range ``[min, max]``."""
        t = type(min)
        if t is Array and type(max) is Array and type(x) is Array:
            device = x._device
            if min._runtime is self and max._runtime is self and x._runtime is self:
                # two array bounds of a signature met before, of x's dtype and device: the kernel
                result = self._clip_plans.get(
                    (x._dtype, min._dtype, max._dtype, x._data.ndim == 0, min._data.ndim == 0, max._data.ndim == 0)
                )
                if result is not None and min._device is device and max._device is device:
                    return self._clipped(x, x._data, min._data, max._data, result, device)
        elif t is type(max) and type(x) is Array and x._runtime is self:
            plan = self._clip_plans.get((x._dtype, t))  # two Python bounds of one type, met before
            if plan is not None:
                result, convert = plan
                if convert is None:
                    convert = self.policy.convert_bound
                    lo, hi = convert(min, x._dtype, "min"), convert(max, x._dtype, "max")
                else:
                    lo, hi = convert(min), convert(max)
                return self._clipped(x, x._data, lo, hi, result, x._device)
        x = self._check_array(x, "clip")
        operands, arrays, decision = self._clip_decision(x, min, max)
        device = self._same_device("clip", *arrays)
        compute = decision.compute
        data = x._data if x._dtype is compute else x._data.astype(compute.numpy)
        bounds = []
        which = (["min"] if min is not None else []) + (["max"] if max is not None else [])
        for o, bound in zip(operands[1:], which):
            if type(o) is Array:
                bounds.append(o._data if o._dtype is compute else o._data.astype(compute.numpy))
            elif decision.scalar is None or decision.scalar is compute:
                bounds.append(self.policy.convert_bound(o, compute, bound))
            else:  # the policy converts a number to its own dtype first (MegEngine: a bool x's int bound is int32)
                bounds.append(self.policy.convert_bound(o, decision.scalar, bound).astype(compute.numpy))
        lo = bounds.pop(0) if min is not None else None
        hi = bounds.pop(0) if max is not None else None
        result = self._clipped(x, data, lo, hi, decision.result, device)
        if (
            t is Array
            and type(max) is Array
            and compute is x._dtype
            and compute is min._dtype
            and compute is max._dtype
            and x._runtime is self
            and min._runtime is self
            and max._runtime is self
            and not self._by_value
        ):  # no cast: the next call of this signature goes straight to the kernel
            key = (x._dtype, min._dtype, max._dtype, x._data.ndim == 0, min._data.ndim == 0, max._data.ndim == 0)
            self._clip_plans[key] = decision.result
        elif t is type(max) and t in PY_SCALARS and compute is x._dtype and not self._by_value:
            # A decision by the bounds' type alone: the next call of this signature skips to the kernel.
            # convert_bound of a float is convert_scalar's, which the policy's converter makes fast
            convert = self.policy.scalar_converter(float, compute, "clip") if t is float else None
            self._clip_plans[x._dtype, t] = (decision.result, convert)
        return result

    def _clipped(self, x, data, lo, hi, result, device):
        """clip's kernel: ``data`` (``x``'s, in the compute dtype) between the converted bounds."""
        check = "crossed_clip" in self.policy.undefined_refusals
        if _clip_arrays is not None and type(lo) is _ndarray and type(hi) is _ndarray and data.size >= _ONE_PASS_MIN:
            # three plain arrays of one shape and dtype: maximum's and minimum's own loops in C, block by
            # block, each block's bounds tested for crossing (one pass where the code below makes four)
            out = _clip_arrays(_maximum, _minimum, data, lo, hi, check)
            if out is None:  # crossed bounds: the error below
                check = True
            elif out is not NotImplemented:
                if out.dtype is not result.numpy:
                    out = _asarray(out, dtype=result.numpy)
                return Array._new(out, result, self, device)
        if lo is not None and hi is not None and check and _crossed(lo, hi):
            crossed = np.broadcast_arrays(lo, hi)
            where = np.argmax(crossed[0] > crossed[1])
            raise self._refusal(
                ValueError(
                    f"clip: min must not exceed max, got min {crossed[0].flat[where]} > max {crossed[1].flat[where]}; "
                    f"the standard leaves crossed bounds undefined (policy {self.policy.name!r})"
                ),
                "clip_crossed",
            )
        out = data
        try:
            if data.size >= _ONE_PASS_MIN and _clips_in_one_pass(data, lo, hi):
                out = np.clip(data, lo, hi)
            else:
                if lo is not None:
                    out = np.maximum(out, lo)  # NaN bounds propagate, as the standard asks
                if hi is not None:
                    # into maximum's own result where it has the final shape: one allocation (a
                    # second fresh 8 MB result costs its page faults, 3x np.clip at 10**6); an n-d
                    # bound only from _ONE_PASS_MIN, as the shape check and out= cost more below it
                    own = (
                        out is not data
                        and type(out) is _ndarray
                        and (
                            type(hi) is not _ndarray
                            or hi.ndim == 0
                            or (out.size >= _ONE_PASS_MIN and _fits_into(hi.shape, out.shape))
                        )
                    )
                    out = np.minimum(out, hi, out=out) if own else np.minimum(out, hi)
        except ValueError:  # in the words of every other function, not NumPy's
            for bound in (lo, hi):
                if bound is not None:
                    check_broadcast("clip", data.shape, np.shape(bound))
            raise
        if type(out) is not _ndarray or out.dtype is not result.numpy:
            out = _asarray(out, dtype=result.numpy)
        if out is data or out is x._data:
            out = out.copy()
        return Array._new(out, result, self, device)

    def _clip_decision(self, x, min, max):
        """clip's operands as its policy reads them (x, then the bounds given), its arrays, and its decision."""
        if self.policy.numpy_scalars != "refuse":  # NumPy scalars as the policy's library takes them
            min, max = self._from_numpy_scalar(min, "clip", (x,)), self._from_numpy_scalar(max, "clip", (x,))
        operands = [x]
        for bound, arg in ((min, "min"), (max, "max")):
            if bound is None:
                continue
            if type(bound) is Array:
                self._check_array(bound, "clip", arg)
            elif type(bound) not in PY_SCALARS:
                raise self._refusal(
                    TypeError(f"clip: {arg} must be an array, a Python scalar or None, got {type(bound).__name__}"),
                    "clip",
                    x,
                    min,
                    max,
                )
            operands.append(bound)
        arrays = [o for o in operands if type(o) is Array]
        if self.policy.clip_number_bounds and len(arrays) < len(operands):
            if any(a._data.ndim for a in arrays[1:]):
                raise TypeError(
                    f"clip: an n-d array bound cannot be combined with a Python number bound "
                    f"(policy {self.policy.name!r} follows torch.clamp's overloads)"
                )
            operands = [x] + [
                _NUMBER_OF_CATEGORY[o._dtype.category](o._data.item()) if type(o) is Array else o for o in operands[1:]
            ]
        try:
            return operands, arrays, self.policy.decide(OPS["clip"], tuple(self._operand(o) for o in operands))
        except PromotionError as exc:
            raise self._refusal(exc, "clip", x, min, max) from None

    def _where_scalar(self, value, decision):
        """A Python scalar operand of ``where``, converted to the decision's scalar dtype first where
        the policy has one (Paddle makes it a tensor of its default dtype), then to the compute dtype."""
        try:
            if decision.scalar is None or decision.scalar is decision.compute:
                return self.policy.convert_scalar(value, decision.compute, "where")
            return self.policy.convert_scalar(value, decision.scalar, "where").astype(decision.compute.numpy)
        except OverflowError as exc:
            raise self._refusal(exc, "int_range", value, decision.compute) from None

    def _plain_where_operands(self, condition: Array, *arrays: Array) -> bool:
        """Whether ``condition`` is a bool array and it and ``arrays`` are this namespace's, on one device."""
        if condition._dtype is not D.bool_ or condition._runtime is not self:
            return False
        device = condition._device
        for array in arrays:  # noqa: SIM110 - a loop, not all() of a generator: the Python path of where()
            if array._runtime is not self or array._device is not device:
                return False
        return True

    def where(self, condition: Array, x1: Array | complex, x2: Array | complex, /) -> Array:
        """Returns the elements of ``x1`` where ``condition`` is true and those of ``x2`` elsewhere."""
        if type(condition) is Array and type(x1) is Array and type(x2) is Array:
            # two arrays of a signature met before, of this namespace and one device: the kernel
            result = self._where_plans.get((x1._dtype, x2._dtype, x1._data.ndim == 0, x2._data.ndim == 0))
            device = condition._device
            if result is not None and self._plain_where_operands(condition, x1, x2):
                try:
                    out = _where(condition._data, x1._data, x2._data)
                except ValueError:  # shapes that do not broadcast: worded below
                    pass
                else:
                    if out.dtype is not result.numpy:
                        out = _asarray(out, dtype=result.numpy)
                    if device is not CPU:  # (the CPU holds every dtype: nothing to admit)
                        return Array._new(out, result, self, device)
                    return new_array(out, result, self)
        elif type(condition) is Array and (type(x1) is Array) is not (type(x2) is Array):
            # an array and a Python scalar of a signature met before: the remembered decision; the
            # scalar's value is still checked by the policy's conversion, as below
            array, first = (x1, True) if type(x1) is Array else (x2, False)  # type: ignore[assignment]  # (one is)
            plan = self._where_plans.get((array._dtype, array._data.ndim == 0, type(x2 if first else x1), first))
            device = condition._device
            if plan is not None and self._plain_where_operands(condition, array):  # type: ignore[arg-type]
                decision, convert, limit = plan
                value = x2 if first else x1
                if not (limit is not None and -limit <= value <= limit):  # (in range: NumPy casts it)
                    value = convert(value)
                try:
                    out = (
                        np.where(condition._data, array._data, value)
                        if first
                        else np.where(condition._data, value, array._data)
                    )
                except ValueError:  # shapes that do not broadcast: worded below
                    pass
                else:
                    return Array._new(_asarray(out, dtype=decision.result.numpy), decision.result, self, device)
        condition = self._check_array(condition, "where", "condition")
        if condition._dtype.category != D.CATEGORY_BOOL:
            raise self._refusal(
                TypeError(f"where: condition must have a boolean dtype, got {condition._dtype.name}"), "condition_dtype"
            )
        operands = []
        if self.policy.numpy_scalars != "refuse":  # NumPy scalars as the policy's library takes them
            x1, x2 = self._from_numpy_scalar(x1, "where", (x2,)), self._from_numpy_scalar(x2, "where", (x1,))
        for value, arg in ((x1, "x1"), (x2, "x2")):
            if type(value) is Array:
                self._check_array(value, "where", arg)
            elif not (self.scalars_in_functions and type(value) in PY_SCALARS):
                allowed = "an array or a Python scalar" if self.scalars_in_functions else "an array"
                raise self._refusal(
                    TypeError(f"where: {arg} must be {allowed}, got {type(value).__name__}"), "operands", x1, x2
                )
            operands.append(value)
        arrays = [condition] + [o for o in operands if type(o) is Array]
        if len(arrays) == 1 and "where" not in self.policy.scalar_pair_functions:
            raise self._refusal(
                TypeError(f"where: at least one of x1 and x2 must be an array (policy {self.policy.name!r})"),
                "operands",
                x1,
                x2,
            )
        device = self._same_device("where", *arrays)
        try:
            decision = self.policy.decide(OPS["where"], tuple(self._operand(o) for o in operands))
        except PromotionError as exc:
            raise self._refusal(exc, "promotion", "where", *operands) from None
        compute = decision.compute
        values = [
            (o._data if o._dtype is compute else o._data.astype(compute.numpy))
            if type(o) is Array
            else self._where_scalar(o, decision)
            for o in operands
        ]
        try:
            out = np.where(condition._data, values[0], values[1])
        except ValueError:
            shapes = [condition._data.shape] + [v.shape for v in values]
            raise ValueError(f"where: shapes {', '.join(map(str, shapes))} do not broadcast") from None
        if (
            type(x1) is Array
            and type(x2) is Array
            and x1._dtype is compute
            and x2._dtype is compute
            and condition._runtime is self
            and x1._runtime is self
            and x2._runtime is self
            and not self._by_value
        ):  # no cast: the next call of this signature goes straight to the kernel
            self._where_plans[x1._dtype, x2._dtype, x1._data.ndim == 0, x2._data.ndim == 0] = decision.result
        elif (type(x1) is Array) is not (type(x2) is Array) and not self._by_value:
            array, scalar = (x1, x2) if type(x1) is Array else (x2, x1)  # type: ignore[assignment]  # (one is)
            if (
                array._dtype is compute
                and type(scalar) in PY_SCALARS
                and condition._runtime is self
                and array._runtime is self
            ):  # the decision of an array with a scalar depends on the scalar's type, not its value
                t = type(scalar)
                convert = functools.partial(self._where_scalar, decision=decision)
                # a float within the compute dtype's range goes to NumPy as it is (a Python float
                # takes the array's dtype there, rounded as the conversion rounds it)
                plain = (
                    t is float
                    and decision.scalar in (None, compute)
                    and compute.category >= D.CATEGORY_FLOATING
                    and self.policy.float_rounds_once(compute)
                )
                limit = float(D.finfo_of(compute).max) if plain else None
                self._where_plans[array._dtype, array._data.ndim == 0, t, array is x1] = (decision, convert, limit)
        return Array._new(_asarray(out, dtype=decision.result.numpy), decision.result, self, device)

    where = fast_path(_core.WHERE, "where", where)  # three arrays of a signature met before: in C
