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
from ._runtime import check_fits
from ._special_values import SPECIAL_KERNELS, special_kernel
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


def _sign(x):
    # The sign of a bool is itself (torch.sign on bool); NumPy has no bool loop.
    return x.copy() if x.dtype.kind == "b" else np.sign(x)


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
    "reciprocal": np.reciprocal, "round": _round, "sign": _sign, "signbit": np.signbit,
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
# NumPy's ufuncs; a plan takes the fix-up kernel only for the dtypes that need it.
RAW_KERNELS = dict(KERNELS)
# One dtype-generic kernel per operation (used outside plans).
KERNELS.update(SPECIAL_KERNELS)


def kernel_for(name, numpy_dtype):
    """The kernel of ``name`` computing in ``numpy_dtype``: NumPy's, unless the standard's special cases need a fix-up."""
    if name in _COMPLEX_KERNELS and np.dtype(numpy_dtype).kind == "c":
        return _COMPLEX_KERNELS[name]
    return special_kernel(name, numpy_dtype) or RAW_KERNELS[name]


def _logaddexp_complex(x1, x2):
    """torch's complex logaddexp (NumPy has none): log1p(exp(min - max)) + max by real part,
    with torch's cases for NaN and equal infinite real parts (ATen's _log_add_exp_helper)."""
    x1, x2 = np.broadcast_arrays(np.asarray(x1), np.asarray(x2))
    swap = x1.real < x2.real
    hi = np.where(swap, x2, x1)
    lo = np.where(swap, x1, x2)
    with np.errstate(all="ignore"):
        out = np.log1p(np.exp(lo - hi)) + hi
        equal_inf = np.isinf(lo.real) & (lo.real == hi.real)
        out = np.where(equal_inf & (lo.real < 0), lo, out)
        out = np.where(equal_inf & (lo.real > 0), np.log(np.exp(lo) + np.exp(hi)), out)
        return np.where(np.isnan(lo.real) | np.isnan(lo.imag), complex(np.nan, np.nan), out)


# Kernels NumPy lacks for complex input (a policy may allow them: torch has complex logaddexp).
_COMPLEX_KERNELS = {"logaddexp": _logaddexp_complex}

# NumPy's ufuncs by our names (np.power is pow, np.left_shift is bitwise_left_shift ...).
UFUNC_NAMES = {k: n for n, k in reversed(RAW_KERNELS.items()) if isinstance(k, np.ufunc)}

UNARY_NAMES = tuple(n for n, s in OPS.items() if s.arity == 1)
BINARY_NAMES = tuple(
    n for n, s in OPS.items() if s.arity == 2 and n not in ("result_type", "clip", "where", "matmul")
)
_new_object = object.__new__
_ufunc = np.ufunc
# The Python type a NumPy scalar converts to, by NumPy dtype kind.
_PY_CONVERTER = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}


def _check_broadcast(name, shape1, shape2):
    """A ``ValueError`` in our words when two shapes do not broadcast (else return: the error was another)."""
    try:
        np.broadcast_shapes(shape1, shape2)
    except ValueError:
        raise ValueError(
            f"{name}: shapes {shape1} and {shape2} do not broadcast (each dimension must match or be 1); "
            "reshape or expand_dims one of the operands"
        ) from None


def _describe_numpy(value) -> str:
    if isinstance(value, np.generic):
        return f"a NumPy scalar ({type(value).__name__} {value!r})"
    return f"a NumPy ndarray (dtype {value.dtype}, shape {value.shape})"


class ElementwiseFunctions:
    """Mixin: the elementwise functions of the standard and the operator machinery."""

    # -- plans: a decision turned into what the kernel call needs (cached per signature) --------
    def _binary_plan(self, key):
        """``(kernel, signature, cast1, cast2, result, result_numpy, converter)`` for ``key``.

        ``key`` is ``(name, dtype1, dtype2)`` or, where the policy tells 0-d arrays
        apart, ``(name, dtype1, dtype2, x1_is_0d, x2_is_0d)``; for an array and a
        Python scalar it is ``(name, dtype, scalar_type, x_is_0d)``.
        """
        name, dt1, dt2 = key[0], key[1], key[2]
        zero1 = len(key) > 3 and key[3]
        first = Operand(_ZERO_D if zero1 else _ARRAY, dt1)
        if type(dt2) is type:  # array and Python scalar
            decision = self.policy.decide(OPS[name], (first, Operand(_SCALAR, dt2)))
            compute = decision.compute
            converter = self.policy.scalar_converter(dt2, compute, name)
            cast2 = None
        else:
            zero2 = len(key) > 4 and key[4]
            decision = self.policy.decide(OPS[name], (first, Operand(_ZERO_D if zero2 else _ARRAY, dt2)))
            compute = decision.compute
            converter = None
            cast2 = compute.numpy if dt2 is not compute else None
        cast1 = compute.numpy if dt1 is not compute else None
        kernel = kernel_for(name, compute.numpy)
        signature = None
        if (cast1 is not None or cast2 is not None) and type(kernel) is _ufunc:
            # The ufunc converts in chunks: no full-size temporary for a mixed-dtype operation.
            signature = (compute.numpy, compute.numpy, None)
        result = decision.result
        plan = (kernel, signature, cast1, cast2, result, result.numpy, converter)
        self._plans[key] = plan
        return plan

    def _unary_plan(self, key):
        name, dtype = key
        decision = self.policy.decide(OPS[name], (Operand(_ARRAY, dtype),))
        cast = decision.compute.numpy if dtype is not decision.compute else None
        plan = (kernel_for(name, decision.compute.numpy), cast, decision.result, decision.result.numpy)
        self._plans[key] = plan
        return plan

    # -- the one path of every elementwise operation --------------------------------------------
    def _apply2(self, name, x1, x2, operator):
        """``name(x1, x2)``; ``operator``: called from a dunder (NotImplemented for foreign types)."""
        t1 = type(x1)
        t2 = type(x2)
        if t1 is Array and t2 is Array:
            if x1._ns is not self or x2._ns is not self:
                self._check_array(x1, name, "x1")
                self._check_array(x2, name, "x2")
            device = x1._device
            if x2._device is not device:
                self._same_device(name, x1, x2)
            d1 = x1._data
            d2 = x2._data
            key = (name, x1._dtype, x2._dtype) if self._flat_keys else (name, x1._dtype, x2._dtype, d1.ndim == 0, d2.ndim == 0)
            plan = self._plans.get(key)
            if plan is None:
                plan = self._binary_plan(key)
            kernel, signature, cast1, cast2, result, rnp, _ = plan
            try:
                if signature is not None:
                    out = kernel(d1, d2, signature=signature, casting="unsafe")
                else:
                    if cast1 is not None:
                        d1 = d1.astype(cast1)
                    if cast2 is not None:
                        d2 = d2.astype(cast2)
                    out = kernel(d1, d2)
            except ValueError:
                _check_broadcast(name, x1._data.shape, x2._data.shape)
                raise
            except MemoryError:  # two broadcast operands whose result cannot fit
                check_fits(np.broadcast_shapes(x1._data.shape, x2._data.shape), rnp.itemsize, name)
                raise
        else:
            if t1 is Array and t2 in _PY_SCALARS:
                x, scalar, reflected = x1, x2, False
            elif t2 is Array and t1 in _PY_SCALARS:
                x, scalar, reflected = x2, x1, True
            else:
                return self._bad_operands(name, x1, x2, operator)
            if name == "matmul" or not (operator or self.scalars_in_functions):
                return self._bad_operands(name, x1, x2, operator)
            if x._ns is not self:
                self._check_array(x, name)
            device = x._device
            d = x._data
            st = type(scalar)
            if st is int and _INT64_MAX < scalar < _UINT64_END:
                st = LargeInt  # torch unpacks it as uint64: a different decision
            key = (name, x._dtype, st) if self._flat_keys else (name, x._dtype, st, d.ndim == 0)
            plan = self._plans.get(key)
            if plan is None:
                plan = self._binary_plan(key)
            kernel, signature, cast1, _, result, rnp, converter = plan
            s = converter(scalar)
            if signature is not None:
                out = kernel(s, d, signature=signature, casting="unsafe") if reflected else kernel(d, s, signature=signature, casting="unsafe")
            else:
                if cast1 is not None:
                    d = d.astype(cast1)
                out = kernel(s, d) if reflected else kernel(d, s)
        if type(out) is not _ndarray or out.dtype is not rnp:
            out = _asarray(out, dtype=rnp)
        array = _new_object(Array)
        array._data = out
        array._dtype = result
        array._ns = self
        array._device = device
        return array

    def _apply1(self, name, x):
        if type(x) is not Array or x._ns is not self:
            self._check_array(x, name)
        key = (name, x._dtype)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._unary_plan(key)
        kernel, cast, result, rnp = plan
        d = x._data
        out = kernel(d) if cast is None else kernel(d.astype(cast))
        if type(out) is not _ndarray or out.dtype is not rnp:
            out = _asarray(out, dtype=rnp)
        array = _new_object(Array)
        array._data = out
        array._dtype = result
        array._ns = self
        array._device = x._device
        return array

    def _bad_operands(self, name, x1, x2, operator):
        """The refusal of operands that are neither our arrays nor Python scalars.

        A NumPy operand is refused here with our words, on either side of an
        operator: returning NotImplemented would let NumPy answer in its own
        (``__array_ufunc__=None``, "Concatenation operation") or, for ``==``, give
        a silent ``False``. Other types get NotImplemented from an operator, so
        that Python (or the other type's reflected method) decides.
        """
        self._refuse_numpy_operands(name, (x1, x2))
        if operator:
            return NotImplemented
        if type(x1) in _PY_SCALARS and type(x2) in _PY_SCALARS and self.scalars_in_functions:
            raise TypeError(f"{name}: at least one of x1 and x2 must be an array, got two Python scalars")
        from ._runtime import _describe_value

        bad, arg = (x1, "x1") if type(x1) is not Array else (x2, "x2")
        allowed = "an array or a Python scalar" if self.scalars_in_functions and name != "matmul" else "an array"
        raise TypeError(f"{name}: {arg} must be {allowed} of {self.label}, got {_describe_value(bad)}")

    def _refuse_numpy_operands(self, name, operands):
        """A ``TypeError`` in our words if one of ``operands`` is a NumPy array or scalar.

        Called by ``_bad_operands`` (``x + np.float64(2)``, ``np.ones(1) + x``) and
        by ``Array.__array_ufunc__`` (``a += x`` with ``a`` a NumPy array, ``np.sin(x)``).
        """
        for i, bad in enumerate(operands):
            if isinstance(bad, (_ndarray, np.generic)):
                raise TypeError(
                    f"{name}: x{i + 1} is {_describe_numpy(bad)}, not an array of {self.label}; "
                    + (f"convert it with {_PY_CONVERTER[bad.dtype.kind]}() or wrap it with asarray()"
                       if isinstance(bad, np.generic) and bad.dtype.kind in _PY_CONVERTER
                       else "wrap it with asarray() first")
                )

    def _refuse_ufunc(self, ufunc, operands):
        """``Array.__array_ufunc__``: a NumPy ufunc met one of our arrays; refuse in our words."""
        name = UFUNC_NAMES.get(ufunc, ufunc.__name__)
        self._refuse_numpy_operands(name, operands)
        raise TypeError(
            f"{name}: NumPy's ufunc {ufunc.__name__} cannot take an array of {self.label}; use the "
            "namespace's functions, or convert with np.asarray() first"
        )

    def _binary_arrays(self, name, x1, x2):
        return self._apply2(name, x1, x2, False)

    def _inplace(self, name, x1, x2):
        """``x1 <op>= x2``: computed first, stored only if the policy allows the cast back."""
        result = self._apply2(name, x1, x2, True)
        if result is NotImplemented:
            return result
        if result._dtype is not x1._dtype:
            self.policy.inplace_result(f"{name} (in-place)", result._dtype, x1._dtype)
        if result._data.shape != x1._data.shape:
            raise ValueError(
                f"{name} (in-place): broadcasting would change the shape of x1 from "
                f"{x1._data.shape} to {result._data.shape}"
            )
        x1._data[...] = result._data
        return x1

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
        try:
            out = np.where(condition._data, values[0], values[1])
        except ValueError:
            shapes = [condition._data.shape] + [v.shape for v in values]
            raise ValueError(f"where: shapes {', '.join(map(str, shapes))} do not broadcast") from None
        return Array._new(_asarray(out, dtype=decision.result.numpy), decision.result, self, device)


def _make_unary(name):
    def func(self, x, /):
        return self._apply1(name, x)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = f"Elementwise ``{name}`` (array API standard), under this namespace's promotion policy."
    return func


def _make_binary(name):
    def func(self, x1, x2, /):
        return self._apply2(name, x1, x2, False)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = f"Elementwise ``{name}`` (array API standard), under this namespace's promotion policy."
    return func


for _name in UNARY_NAMES:
    setattr(ElementwiseFunctions, _name, _make_unary(_name))
for _name in BINARY_NAMES:
    setattr(ElementwiseFunctions, _name, _make_binary(_name))
del _name



# -- the array's operators: each goes straight to its namespace's one path ---------------------
def _forward(name):
    def op(self, other, /):
        return self._ns._apply2(name, self, other, True)

    return op


def _reflected(name):
    def op(self, other, /):
        return self._ns._apply2(name, other, self, True)

    return op


def _inplace_operator(name):
    def op(self, other, /):
        return self._ns._inplace(name, self, other)

    return op


def _unary_operator(name):
    def op(self, /):
        return self._ns._apply1(name, self)

    return op


# dunder -> elementwise function name
BINARY_OPERATORS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "pow", "matmul": "matmul",
    "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
    "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift",
}
COMPARISONS = {
    "eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
    "gt": "greater", "ge": "greater_equal",
}
UNARY_OPERATORS = {"neg": "negative", "pos": "positive", "abs": "abs", "invert": "bitwise_invert"}


def _install(dunder, method):
    method.__name__ = method.__qualname__ = dunder
    setattr(Array, dunder, method)


for _dunder, _func in BINARY_OPERATORS.items():
    _install(f"__{_dunder}__", _forward(_func))
    _install(f"__r{_dunder}__", _reflected(_func))
    _install(f"__i{_dunder}__", _inplace_operator(_func))
for _dunder, _func in COMPARISONS.items():
    _install(f"__{_dunder}__", _forward(_func))
for _dunder, _func in UNARY_OPERATORS.items():
    _install(f"__{_dunder}__", _unary_operator(_func))
Array.__hash__ = None  # arrays compare elementwise, so they are not hashable
del _dunder, _func
