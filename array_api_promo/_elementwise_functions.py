"""Elementwise functions and the one path every elementwise operation and operator takes.

One path for every elementwise operation:

1. classify the operands (array kinds and dtypes, or Python scalar types);
2. ask the policy for the decision (cached per signature in this namespace:
   after the first call it is one dictionary lookup);
3. convert a Python scalar by the policy's rule, cast an array only when its
   dtype is not the computation dtype;
4. one NumPy kernel call; wrap the result without re-validation.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from . import _core, _dtypes as D
from ._array import Array
from ._clip_where import ClipWhereFunctions
from ._core import fast_path
from ._devices import CPU
from ._dtypes import PY_SCALARS, DType
from ._runtime import check_broadcast, check_fits, describe_value, new_array
from ._special_values import SPECIAL_KERNELS, UFUNC_OF, special_kernel
from .promotion import OPS, LargeInt, Operand, OperandKind, PromotionError

__all__ = ["ElementwiseFunctions", "KERNELS", "check_broadcast"]  # (check_broadcast: for the Dask runtime)

_ndarray = np.ndarray
_asarray = np.asarray
_ARRAY, _ZERO_D, _SCALAR = OperandKind.ARRAY, OperandKind.ZERO_D, OperandKind.SCALAR
_SCALAR_TYPES = frozenset(PY_SCALARS)  # (a set: the membership test of the hot path hashes once)
_NUMPY_NUMBERS = (np.number, np.bool_)  # NumPy scalars some policies take as operands
_GENERIC = np.generic
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
    # A view, as NumPy's and array-api-strict's: the real part of a complex array, or x itself
    return np.real(x) if x.dtype.kind == "c" else x


def _imag(x):
    return np.imag(x) if x.dtype.kind == "c" else np.zeros_like(x)  # (a real array's: new zeros)


def _component_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype of real/imag of ``dtype``: a complex dtype's component, a real dtype itself."""
    return np.empty(0, dtype).real.dtype


# The kernels of real/imag of a complex array: the ndarray's own view, as np.real and np.imag
# take it, without their two Python frames (most of the call: NumPy's np.real is 240 ns).
_COMPLEX_PARTS = {"real": operator.attrgetter("real"), "imag": operator.attrgetter("imag")}

# Kernels that are no ufunc, and the dtype they give on an input of a dtype, without a cast:
# _resolves_to answers for them as for a ufunc (their plans take the fast table too).
_RESULT_OF_KERNEL = {_real: _component_dtype, _imag: _component_dtype}
_RESULT_OF_KERNEL.update(dict.fromkeys(_COMPLEX_PARTS.values(), _component_dtype))


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
    "abs": np.absolute,
    "acos": np.arccos,
    "acosh": np.arccosh,
    "asin": np.arcsin,
    "asinh": np.arcsinh,
    "atan": np.arctan,
    "atanh": np.arctanh,
    "bitwise_invert": np.invert,
    "ceil": _keep_integers(np.ceil),
    "conj": np.conjugate,
    "cos": np.cos,
    "cosh": np.cosh,
    "exp": np.exp,
    "expm1": np.expm1,
    "floor": _keep_integers(np.floor),
    "imag": _imag,
    "isfinite": np.isfinite,
    "isinf": np.isinf,
    "isnan": np.isnan,
    "log": np.log,
    "log1p": np.log1p,
    "log2": np.log2,
    "log10": np.log10,
    "logical_not": np.logical_not,
    "negative": np.negative,
    "positive": np.positive,
    "real": _real,
    "reciprocal": np.reciprocal,
    "round": _round,
    "sign": _sign,
    "signbit": np.signbit,
    "sin": np.sin,
    "sinh": np.sinh,
    "sqrt": np.sqrt,
    "square": np.square,
    "tan": np.tan,
    "tanh": np.tanh,
    "trunc": _keep_integers(np.trunc),
    "add": np.add,
    "atan2": np.arctan2,
    "bitwise_and": np.bitwise_and,
    "bitwise_left_shift": np.left_shift,
    "bitwise_or": np.bitwise_or,
    "bitwise_right_shift": np.right_shift,
    "bitwise_xor": np.bitwise_xor,
    "copysign": np.copysign,
    "divide": np.true_divide,
    "equal": np.equal,
    "floor_divide": np.floor_divide,
    "greater": np.greater,
    "greater_equal": np.greater_equal,
    "hypot": np.hypot,
    "less": np.less,
    "less_equal": np.less_equal,
    "logaddexp": np.logaddexp,
    "logical_and": np.logical_and,
    "logical_or": np.logical_or,
    "logical_xor": np.logical_xor,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "multiply": np.multiply,
    "nextafter": np.nextafter,
    "not_equal": np.not_equal,
    "pow": np.power,
    "remainder": np.remainder,
    "subtract": np.subtract,
    "matmul": np.matmul,
}
# NumPy's ufuncs; a plan takes the fix-up kernel only for the dtypes that need it.
RAW_KERNELS = dict(KERNELS)
# The ufunc of an operation whose kernel above differs from it only for other dtype kinds (integers
# are already integral, a bool's sign is itself): a plan of these kinds takes the ufunc itself, which
# the fast paths call directly.  (np.round of a floating array is np.rint, bit for bit.)
_UFUNC_FOR_KINDS = {
    "ceil": (np.ceil, "fc"),
    "floor": (np.floor, "fc"),
    "trunc": (np.trunc, "fc"),
    "round": (np.rint, "fc"),
    "sign": (np.sign, "iufc"),
}
# One dtype-generic kernel per operation (used outside plans).
KERNELS.update(SPECIAL_KERNELS)


def kernel_for(name, numpy_dtype, policy=None):
    """The kernel of ``name`` computing in ``numpy_dtype``: NumPy's, unless the standard's special cases need a fix-up
    (``policy``: its rule for integer division by zero)."""
    kind = np.dtype(numpy_dtype).kind
    if name in _COMPLEX_KERNELS and kind == "c":
        return _COMPLEX_KERNELS[name]
    if name in _COMPLEX_PARTS and kind == "c":
        return _COMPLEX_PARTS[name]
    special = special_kernel(name, numpy_dtype, policy)
    if special is not None:
        return special
    ufunc, kinds = _UFUNC_FOR_KINDS.get(name, (None, ""))
    return ufunc if kind in kinds else RAW_KERNELS[name]


_WRITES_ITS_DTYPE: dict = {}


def _writes_its_dtype(kernel, dtype: np.dtype) -> bool:
    """Whether ``kernel`` is a ufunc whose loop for two operands of ``dtype`` computes in ``dtype`` and gives
    it (torch's bool ** bool: NumPy's int8 loop, cast back: not one to run into x1)."""
    key = (kernel, dtype)
    answer = _WRITES_ITS_DTYPE.get(key)
    if answer is None:
        try:
            answer = type(kernel) is _ufunc and kernel.resolve_dtypes((dtype, dtype, None)) == (dtype, dtype, dtype)
        except (TypeError, ValueError):  # (no loop: np.UFuncTypeError is a TypeError)
            answer = False
        _WRITES_ITS_DTYPE[key] = answer
    return answer


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

UNARY_NAMES = tuple(n for n, s in OPS.items() if s.arity == 1)
_MATMUL = functools.partial(np.matmul)
BINARY_NAMES = tuple(n for n, s in OPS.items() if s.arity == 2 and n not in ("result_type", "clip", "where", "matmul"))
_ufunc = np.ufunc
# The Python type a NumPy scalar converts to, by NumPy dtype kind.
_PY_CONVERTER = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}


def _describe_numpy(value) -> str:
    if isinstance(value, np.generic):
        return f"a NumPy scalar ({type(value).__name__} {value!r})"
    return f"a NumPy ndarray (dtype {value.dtype}, shape {value.shape})"


class BinaryPlan(NamedTuple):
    """One signature of a binary operation, ready to run: the policy's decision as a kernel call."""

    run: Callable  # (data1, data2) -> result data, operands in call order: the kernel and any casts
    signature: tuple | None  # for a ufunc on mixed dtypes: signature= converting in chunks, else None
    result: DType
    result_numpy: np.dtype
    convert: Callable | None  # for a Python scalar operand: value -> a value of the compute dtype


class UnaryPlan(NamedTuple):
    """One signature of a unary operation, ready to run."""

    run: Callable  # data -> result data
    result: DType
    result_numpy: np.dtype


def _resolves_to(kernel, inputs: tuple, compute: np.dtype, result: np.dtype) -> bool:
    """Whether NumPy, called plainly on ``inputs``, computes ``kernel`` in ``compute`` giving ``result``."""
    if type(kernel) is not _ufunc:
        result_of = _RESULT_OF_KERNEL.get(kernel)
        return result_of is not None and all(d == compute for d in inputs) and result_of(compute) == result
    try:
        resolved = kernel.resolve_dtypes(inputs + (None,))
    except (TypeError, ValueError):  # no loop, or a dtype NumPy's resolver does not know (bfloat16)
        return False
    return all(d == compute for d in resolved[:-1]) and resolved[-1] == result


def _runs_plainly(kernel, inputs: tuple, compute: np.dtype, result: np.dtype, arrays: bool) -> bool:
    """Whether the fast paths may call ``kernel`` on the operands' data as they are: a ufunc NumPy
    resolves to ``compute`` giving ``result``, or, for two arrays (``arrays``) of the compute dtype,
    a special-value kernel of such a ufunc (``UFUNC_OF``: it keeps the ufunc's result dtype)."""
    if type(kernel) is _ufunc:
        return _resolves_to(kernel, inputs, compute, result)
    ufunc = UFUNC_OF.get(kernel)
    return (
        ufunc is not None
        and arrays
        and all(d == compute for d in inputs)
        and _resolves_to(ufunc, inputs, compute, result)
    )


def _casting(kernel, compute: np.dtype, arity: int) -> Callable:
    """A kernel that is not a ufunc, with its operands converted to ``compute`` first (where needed)."""
    if arity == 1:
        return lambda x: kernel(x.astype(compute))
    return lambda x1, x2: kernel(
        x1 if x1.dtype is compute else x1.astype(compute), x2 if x2.dtype is compute else x2.astype(compute)
    )


_PYTHON_NUMBERS = (bool, int, float, complex)


def _is_python_number(x) -> bool:
    """A NumPy scalar that is an instance of Python's float or complex (np.float64, np.complex128)."""
    return type(x) not in _SCALAR_TYPES and isinstance(x, (float, complex)) and isinstance(x, np.generic)


def _python_number(x):
    """``x`` as the Python float or complex it is an instance of (anything else as it is)."""
    if not _is_python_number(x):
        return x
    return complex(x) if isinstance(x, complex) else float(x)


# Foreign operands an operator refuses instead of deferring to their reflected operator.
_REPEATING_TYPES = (list, tuple, str, bytes, bytearray, np.dtype)


def _result_array(out, result: DType, rnp: np.dtype, runtime, device) -> Array:
    """The array of a plan's kernel output ``out`` (a NumPy scalar of a 0-d operation, made an array),
    of the result dtype ``result`` (NumPy's ``rnp``), on ``device``."""
    if type(out) is not _ndarray or out.dtype is not rnp:
        out = _asarray(out, dtype=rnp)
    if device is not CPU:
        device.admit(result, runtime)
    return new_array(out, result, runtime, device)


class ElementwiseFunctions(ClipWhereFunctions):
    """The elementwise functions of the standard and the one path every operator takes."""

    # The kernels of an elementwise operation (a stand-in wraps them: see standin.StandinRuntime).
    _kernel_for = staticmethod(kernel_for)

    # -- plans: a decision turned into what the kernel call needs (cached per signature) --------
    def _binary_key(self, name: str, x: Array, other) -> tuple:
        """The plan key of ``name(x, other)``, ``x`` an array, ``other`` an array or a Python scalar.

        ``(name, x's dtype, other's dtype or Python scalar type, zero_d)``: ``zero_d``
        tells 0-d arrays apart (bit 0: ``x``, bit 1: ``other``) only where the policy
        does (``policy.zero_d_matters``) and two arrays' dtypes differ -- operands
        of one dtype promote to it whatever their dimensions.  Operand order is
        ``(array, scalar)`` for reflected operators too: promotion is symmetric.
        ``_apply2`` writes the common ``zero_d == 0`` keys inline.
        """
        if type(other) is Array:
            dtype = other._dtype
            if self._flat_keys or dtype is x._dtype:
                return (name, x._dtype, dtype, 0)
            return (name, x._dtype, dtype, (x._data.ndim == 0) | ((other._data.ndim == 0) << 1))
        st = type(other)
        if st is int and _INT64_MAX < other < _UINT64_END:
            st = LargeInt  # torch unpacks it as uint64: a different decision
        return (name, x._dtype, st, 0 if self._flat_keys else int(x._data.ndim == 0))

    def _binary_plan(self, key: tuple, x1, x2) -> BinaryPlan:
        """The plan of ``key`` (``x1``, ``x2``: the operands, array first).

        Under a value-dependent policy (``numpy_legacy``) a plan with a 0-d array of another
        dtype or a Python scalar is cached per value class (``_value_plans``), never under
        ``key``, so the other policies' lookup stays one dictionary access.
        """
        name, dt1, dt2, zero_d = key
        first = Operand(_ZERO_D if zero_d & 1 else _ARRAY, dt1)
        if type(dt2) is DType:
            second = Operand(_ZERO_D if zero_d & 2 else _ARRAY, dt2)
        else:  # a Python scalar
            second = Operand(_SCALAR, dt2)
        plans = self._plans
        if self._by_value and (zero_d or type(dt2) is not DType):
            first, second = self._operand(x1), self._operand(x2)
            plans, key = self._value_plans, (name, first, second)
            plan = plans.get(key)
            if plan is not None:
                return plan
        try:
            decision = self.policy.decide(OPS[name], (first, second))
        except PromotionError as exc:
            raise self._refusal(exc, "elementwise", name, x1, x2) from None
        compute = decision.compute
        kernel = self._kernel_for(name, compute.numpy, self.policy)
        signature = None
        scalar_dtype = decision.scalar or compute  # a scalar arrives converted
        second_numpy = dt2.numpy if type(dt2) is DType else scalar_dtype.numpy
        if (dt1 is not compute or second_numpy is not compute.numpy) and not _resolves_to(
            kernel, (dt1.numpy, second_numpy), compute.numpy, decision.result.numpy
        ):
            if type(kernel) is _ufunc:
                # The ufunc converts in chunks: no full-size temporary for a mixed-dtype operation.
                signature = (compute.numpy, compute.numpy, None)
            else:
                kernel = _casting(kernel, compute.numpy, 2)
        convert = None if type(dt2) is DType else self._scalar_converter(dt2, scalar_dtype, name)
        plan = BinaryPlan(kernel, signature, decision.result, decision.result.numpy, convert)
        plans[key] = plan
        if plans is self._plans and _runs_plainly(
            kernel, (dt1.numpy, second_numpy), compute.numpy, plan.result_numpy, type(dt2) is DType
        ):
            # The operators' fast path: one lookup by dtypes, one plain ufunc call that gives the
            # result dtype by itself (NumPy scalars from 0-d operands still become arrays); keyed
            # without 0-d flags where no operand's dimensions change the decision, else by this key
            # (always by this key under a value-dependent policy: a 0-d operand's value may decide).
            entry = (kernel, plan.result, convert)
            if name == "matmul":  # not a ufunc to the in-place fast paths: np.matmul(x, y, out=x) broadcasts a
                entry = (_MATMUL, plan.result, convert)  # vector's 0-d product into x; _inplace refuses that
            if not self._by_value and self._same_for_every_dimension(name, first, second, decision):
                self._fast[(name, dt1, dt2)] = entry
            elif type(dt2) is DType:
                self._fast[key] = entry
        return plan

    def _same_for_every_dimension(self, name, first: Operand, second: Operand, decision) -> bool:
        """Whether ``name`` decides alike whichever of its array operands are 0-d (the fast table's key
        has no 0-d flags)."""
        if not self.policy.zero_d_matters:
            return True
        kinds = (_ARRAY, _ZERO_D)
        seconds = kinds if second.kind is not _SCALAR else (_SCALAR,)
        try:
            return all(
                self.policy.decide(OPS[name], (Operand(k1, first.dtype), Operand(k2, second.dtype))) == decision
                for k1 in kinds
                for k2 in seconds
            )
        except TypeError:  # refused for some dimensions only
            return False

    def _unary_plan(self, key: tuple) -> UnaryPlan:
        name, dtype = key
        try:
            decision = self.policy.decide(OPS[name], (Operand(_ARRAY, dtype),))
        except PromotionError as exc:
            raise self._refusal(exc, "elementwise", name, dtype) from None
        compute = decision.compute
        kernel = self._kernel_for(name, compute.numpy, self.policy)
        if dtype is not compute and not _resolves_to(kernel, (dtype.numpy,), compute.numpy, decision.result.numpy):
            kernel = _casting(kernel, compute.numpy, 1)  # (a ufunc too: one cast of a 1-operand call)
        plan = UnaryPlan(kernel, decision.result, decision.result.numpy)
        self._plans[key] = plan
        if _resolves_to(kernel, (dtype.numpy,), compute.numpy, plan.result_numpy):
            self._fast[key] = (kernel, plan.result)
        return plan

    # -- the one path of every elementwise operation --------------------------------------------
    def _apply2(self, name, x1, x2, operator):
        """``name(x1, x2)``; ``operator``: called from a dunder (NotImplemented for foreign types)."""
        t1 = type(x1)
        t2 = type(x2)
        if t1 is Array and t2 is Array:
            if x1._runtime is not self or x2._runtime is not self:
                self._check_array(x1, name, "x1")
                self._check_array(x2, name, "x2")
            device = x1._device
            if x2._device is not device:
                self._same_device(name, x1, x2)
            dt1 = x1._dtype
            dt2 = x2._dtype
            key = (name, dt1, dt2, 0) if dt1 is dt2 or self._flat_keys else self._binary_key(name, x1, x2)
            plan = self._plans.get(key)
            if plan is None:
                plan = self._binary_plan(key, x1, x2)
            run, signature, result, rnp, _ = plan
            try:
                if signature is None:
                    out = run(x1._data, x2._data)
                else:
                    out = run(x1._data, x2._data, signature=signature, casting="unsafe")
            except ValueError:
                check_broadcast(name, x1._data.shape, x2._data.shape)
                raise
            except MemoryError:  # two broadcast operands whose result cannot fit
                check_fits(np.broadcast_shapes(x1._data.shape, x2._data.shape), rnp.itemsize, name)
                raise
        else:
            if t1 is Array and t2 in _SCALAR_TYPES:
                x, scalar, reflected = x1, x2, False
            elif t2 is Array and t1 in _SCALAR_TYPES:
                x, scalar, reflected = x2, x1, True
            else:
                return self._bad_operands(name, x1, x2, operator)
            if name == "matmul" or not (operator or self.scalars_in_functions):
                return self._bad_operands(name, x1, x2, operator)
            if x._runtime is not self:
                self._check_array(x, name)
            device = x._device
            st = type(scalar)
            if (self._flat_keys or x._data.ndim) and (st is not int or scalar <= _INT64_MAX):
                key = (name, x._dtype, st, 0)
            else:
                key = self._binary_key(name, x, scalar)
            plan = self._plans.get(key)
            if plan is None:
                plan = self._binary_plan(key, x, scalar)
            run, signature, result, rnp, convert = plan
            s = convert(scalar)
            if signature is not None:
                out = (
                    run(s, x._data, signature=signature, casting="unsafe")
                    if reflected
                    else run(x._data, s, signature=signature, casting="unsafe")
                )
            else:
                out = run(s, x._data) if reflected else run(x._data, s)
        return _result_array(out, result, rnp, self, device)

    def _apply1(self, name, x):
        if type(x) is not Array or x._runtime is not self:
            self._check_array(x, name)
        key = (name, x._dtype)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._unary_plan(key)
        run, result, rnp = plan
        out = run(x._data)
        return _result_array(out, result, rnp, self, x._device)

    def _bad_operands(self, name, x1, x2, operator):
        """Operands that are neither our arrays nor Python scalars.

        NumPy scalars go by the policy's rule (``numpy_legacy`` takes them); other
        NumPy operands are refused here in our words, on either side of an operator:
        returning NotImplemented would let NumPy answer in its own ("Concatenation
        operation") or, for ``==``, give a silent ``False``. Other types get
        NotImplemented from an operator, so that Python (or the other type's
        reflected method) decides, unless the policy refuses them (``foreign_operand``).
        """
        if self.policy.numpy_scalars != "refuse" and (self._is_numpy_number(x1) or self._is_numpy_number(x2)):
            return self._apply2(
                name, self._from_numpy_scalar(x1, name, (x2,)), self._from_numpy_scalar(x2, name, (x1,)), operator
            )
        if _is_python_number(x1) or _is_python_number(x2):
            # np.float64 and np.complex128 are instances of float and complex, and the
            # standard's Python scalars are "instances of bool, int, float, complex": such an
            # operand is that Python number (array-api-strict takes it so; SciPy's
            # ``lp2bp`` multiplies by an np.float64).  np.float32 or np.int64 is no such
            # instance and is refused below.
            try:
                return self._apply2(name, _python_number(x1), _python_number(x2), operator)
            except TypeError as exc:  # (array-api-strict takes no NumPy scalar in an operator or function)
                raise self._refusal(exc, "operands", x1, x2) from None
        self._refuse_numpy_operands(name, (x1, x2))
        if operator:
            if name in ("equal", "not_equal") and "foreign_comparison" in self.policy.undefined_refusals:
                raise self._undefined_operand(name, x1, x2, "comparing with it")
            if name not in ("equal", "not_equal"):  # x == "auto" stays Python's False where the policy allows it
                for i, bad in enumerate((x1, x2)):
                    if isinstance(bad, _REPEATING_TYPES):
                        # Their reflected operators take a 0-d integer array by __index__:
                        # x * [1, 2] would be a repeated list, x * np.dtype('O') a subarray dtype.
                        raise self._refusal(
                            TypeError(
                                f"{name}: x{i + 1} must be an array or a Python scalar of {self.label}, got "
                                + describe_value(bad)
                                + ("" if isinstance(bad, np.dtype) else "; wrap a sequence with asarray()")
                            ),
                            "operands",
                            x1,
                            x2,
                        )
            if "foreign_operand" in self.policy.undefined_refusals and not (
                isinstance(x1, _PYTHON_NUMBERS) or isinstance(x2, _PYTHON_NUMBERS)  # (x @ 1: Python's refusal)
            ):
                # no other type's reflected method is asked: array-api-strict refuses the operand itself
                raise self._undefined_operand(name, x1, x2, "operators with it")
            return self._declined(name, x1, x2)
        if type(x1) in PY_SCALARS and type(x2) in PY_SCALARS and self.scalars_in_functions:
            if name in self.policy.scalar_pair_functions:
                return self._apply_scalar_pair(name, x1, x2)
            raise self._refusal(
                TypeError(
                    f"{name}: at least one of x1 and x2 must be an array, got two Python scalars "
                    f"(policy {self.policy.name!r})"
                ),
                "operands",
                x1,
                x2,
            )
        bad, arg = (x1, "x1") if type(x1) is not Array else (x2, "x2")
        allowed = "an array or a Python scalar" if self.scalars_in_functions and name != "matmul" else "an array"
        raise self._refusal(
            TypeError(f"{name}: {arg} must be {allowed} of {self.label}, got {describe_value(bad)}"),
            "operands",
            x1,
            x2,
        )

    def _undefined_operand(self, name, x1, x2, what: str) -> BaseException:
        """The refusal of the operand that is neither an array nor a Python scalar, where the standard
        leaves ``what`` (comparing with it, operators with it) undefined and the policy refuses it."""
        bad, arg = (x2, "x2") if type(x1) is Array else (x1, "x1")
        return self._refusal(
            TypeError(
                f"{name}: {arg} must be an array or a Python scalar of {self.label}, got {describe_value(bad)}; "
                f"the standard leaves {what} undefined (policy {self.policy.name!r})"
            ),
            "operands",
            x1,
            x2,
        )

    def _declined(self, name, x1, x2):
        """What an operator returns for operands it does not take: NotImplemented, so that Python asks the
        other operand's reflected operator (the stand-in refuses in array-api-strict's words where no such
        operator will answer: see ``StandinRuntime``)."""
        return NotImplemented

    def _refuse_numpy_operands(self, name, operands):
        """A ``TypeError`` in our words if one of ``operands`` is a NumPy array or scalar.

        ``x + np.float64(2)``, ``np.ones(1) + x``, ``x == np.ones(3)`` (NumPy defers to
        our operators: ``Array.__array_ufunc__`` sends an operator's ufunc here).
        """
        for i, bad in enumerate(operands):
            if isinstance(bad, (_ndarray, np.generic)):
                raise self._refusal(
                    TypeError(
                        f"{name}: x{i + 1} is {_describe_numpy(bad)}, not an array of {self.label}; "
                        + (
                            f"convert it with {_PY_CONVERTER[bad.dtype.kind]}() or wrap it with asarray()"
                            if isinstance(bad, np.generic) and bad.dtype.kind in _PY_CONVERTER
                            else "wrap it with asarray() first"
                        )
                    ),
                    "operands",
                    *operands,
                )

    def _is_numpy_number(self, x) -> bool:
        """A NumPy scalar the policy's rule may take: NumPy's numbers and bool, and under the ``"array"``
        rule ml_dtypes' too (``ml_dtypes.bfloat16(1)``, the float8 types: scalars of dtypes NumPy registers)."""
        return isinstance(x, _NUMPY_NUMBERS) or (
            isinstance(x, np.generic) and type(x).__module__ == "ml_dtypes" and self.policy.numpy_scalars == "array"
        )

    def _from_numpy_scalar(self, x, op="", others=()):
        """A NumPy scalar as the policy's library takes it: a Python number of its kind, or a
        0-d array of its dtype (anything else is returned as it is). A scalar of a dtype the policy
        does not have (ml_dtypes' float8 types; bfloat16 under ``numpy``) enters ``op`` with the
        ``others`` operands as the policy's ``foreign_numpy_scalar`` says, or is refused there."""
        if not isinstance(x, _GENERIC) or not self._is_numpy_number(x):
            return x
        rule = self.policy.numpy_scalars
        if rule != "array":
            return rule[x.dtype.kind](x.item())
        name = x.dtype.name
        if name not in self.policy.numpy_array_dtypes:
            try:
                own = D.dtype_of_numpy(x.dtype) in self._dtype_set
            except TypeError:  # a dtype the package has no name for (float8_e4m3fn)
                own = False
            if not own:
                dtypes = tuple(o._dtype if type(o) is Array else o for o in others if type(o) in (Array, DType))
                dtype = self.policy.foreign_numpy_scalar(name, op, dtypes)
                return self.asarray(_asarray(x).astype(dtype.numpy))
        return self.asarray(x)

    def _apply_scalar_pair(self, name, x1, x2):
        """``name(x1, x2)`` of two Python scalars, where the policy's library allows it: a 0-d array."""
        decision = self.policy.decide(OPS[name], (self._operand(x1), self._operand(x2)))
        compute = decision.compute
        convert = self.policy.convert_scalar
        kernel = kernel_for(name, compute.numpy, self.policy)
        out = kernel(convert(x1, compute, name), convert(x2, compute, name))
        return Array._new(_asarray(out, dtype=decision.result.numpy), decision.result, self, CPU)

    def _in_place(self, name, x1, x2, s1, s2) -> bool:
        """``x1 <op>= x2`` for two arrays of x1's dtype on the CPU whose plan is a ufunc giving x1's dtype:
        computed into x1 (``ufunc(x1, x2, out=x1)``), as NumPy's in-place operator computes it (and
        array-api-strict's, which is NumPy's): NumPy's complex multiply of one element differs in the last
        place in place and out of place (about half of random pairs).  False where the general path runs."""
        dtype = x1._dtype
        data = x1._data
        if x2._dtype is not dtype or x1._device is not CPU or x2._device is not CPU or type(data) is not _ndarray:
            return False
        if type(x2._data) is not _ndarray or not data.flags.writeable:
            return False
        if s1 != s2:
            try:
                if np.broadcast_shapes(s1, s2) != s1:
                    return False
            except ValueError:  # (_apply2 words shapes that do not broadcast)
                return False
        key = (name, dtype, dtype, 0)
        plan = self._plans.get(key) or self._binary_plan(key, x1, x2)
        run = plan.run
        if (
            plan.signature is not None
            or plan.result is not dtype
            or not _writes_its_dtype(getattr(run, "ufunc", run), data.dtype)
        ):
            return False
        run(data, x2._data, out=data)
        return True

    def _inplace(self, name, x1, x2):
        """``x1 <op>= x2``: stored only if the policy allows the cast back (decided before computing, so that
        a refused dtype is refused whatever the values, as array-api-strict refuses it)."""
        if type(x2) is Array and x2._runtime is self and x1._runtime is self and name != "matmul":
            # The dtypes, then the shapes, before the values (as array-api-strict checks them, and the
            # Dask storage): a refusal whatever x1 and x2 hold.
            try:
                result_dtype = self.policy.decide(OPS[name], (self._operand(x1), self._operand(x2))).result
            except TypeError:  # refused: _apply2 words it
                return self._apply2(name, x1, x2, True)
            if result_dtype is not x1._dtype:
                try:
                    self.policy.inplace_result(f"{name} (in-place)", result_dtype, x1._dtype)
                except PromotionError as exc:
                    raise self._refusal(exc, "elementwise", name, x1, x2) from None
            s1, s2 = x1._data.shape, x2._data.shape
            if s1 != s2:
                try:
                    shape = np.broadcast_shapes(s1, s2)
                except ValueError:  # (_apply2 words shapes that do not broadcast)
                    shape = s1
                if shape != s1:
                    raise self._refusal(
                        ValueError(
                            f"{name} (in-place): broadcasting would change the shape of x1 from {s1} to {shape}"
                        ),
                        "inplace_broadcast",
                        name,
                        s1,
                        shape,
                    )
            if self._in_place(name, x1, x2, s1, s2):
                return x1
        result = self._apply2(name, x1, x2, True)
        if result is NotImplemented:
            return result
        if result._dtype is not x1._dtype:
            try:
                self.policy.inplace_result(f"{name} (in-place)", result._dtype, x1._dtype)
            except PromotionError as exc:
                raise self._refusal(exc, "elementwise", name, x1, x2) from None
        if result._data.shape != x1._data.shape:
            raise self._refusal(
                ValueError(
                    f"{name} (in-place): broadcasting would change the shape of x1 from "
                    f"{x1._data.shape} to {result._data.shape}"
                ),
                "inplace_broadcast",
                name,
                x1._data.shape,
                result._data.shape,
            )
        x1._data[...] = result._data
        return x1


# What each elementwise function computes (the first line of its docstring), in the standard's terms.
_SUMMARIES = {
    "abs": "Calculates the absolute value of each element of ``x``.",
    "acos": "Calculates the principal inverse cosine, in radians, of each element of ``x``.",
    "acosh": "Calculates the inverse hyperbolic cosine of each element of ``x``.",
    "asin": "Calculates the principal inverse sine, in radians, of each element of ``x``.",
    "asinh": "Calculates the inverse hyperbolic sine of each element of ``x``.",
    "atan": "Calculates the principal inverse tangent, in radians, of each element of ``x``.",
    "atanh": "Calculates the inverse hyperbolic tangent of each element of ``x``.",
    "bitwise_invert": "Flips every bit of each element of ``x``.",
    "ceil": "Rounds each element of ``x`` up to the nearest integer-valued number.",
    "conj": "Returns the complex conjugate of each element of ``x``.",
    "cos": "Calculates the cosine of each element of ``x`` (in radians).",
    "cosh": "Calculates the hyperbolic cosine of each element of ``x``.",
    "exp": "Calculates ``e`` raised to the power of each element of ``x``.",
    "expm1": "Calculates ``exp(x) - 1`` for each element of ``x``, accurately near zero.",
    "floor": "Rounds each element of ``x`` down to the nearest integer-valued number.",
    "imag": "Returns the imaginary part of each element of ``x``.",
    "isfinite": "Tests whether each element of ``x`` is finite (neither infinite nor NaN).",
    "isinf": "Tests whether each element of ``x`` is positive or negative infinity.",
    "isnan": "Tests whether each element of ``x`` is NaN.",
    "log": "Calculates the natural (base ``e``) logarithm of each element of ``x``.",
    "log1p": "Calculates ``log(1 + x)`` for each element of ``x``, accurately near zero.",
    "log2": "Calculates the base 2 logarithm of each element of ``x``.",
    "log10": "Calculates the base 10 logarithm of each element of ``x``.",
    "logical_not": "Computes the logical NOT of each element of ``x``.",
    "negative": "Computes the numerical negative (``-x``) of each element of ``x``.",
    "positive": "Computes the numerical positive (``+x``) of each element of ``x``.",
    "real": "Returns the real part of each element of ``x``.",
    "reciprocal": "Calculates ``1 / x`` for each element of ``x``.",
    "round": "Rounds each element of ``x`` to the nearest integer-valued number (halves to even).",
    "sign": "Returns the sign of each element of ``x`` (-1, 0 or 1; ``x / |x|`` for complex).",
    "signbit": "Tests whether the sign bit of each element of ``x`` is set.",
    "sin": "Calculates the sine of each element of ``x`` (in radians).",
    "sinh": "Calculates the hyperbolic sine of each element of ``x``.",
    "sqrt": "Calculates the principal square root of each element of ``x``.",
    "square": "Squares each element of ``x``.",
    "tan": "Calculates the tangent of each element of ``x`` (in radians).",
    "tanh": "Calculates the hyperbolic tangent of each element of ``x``.",
    "trunc": "Rounds each element of ``x`` toward zero to an integer-valued number.",
    "add": "Adds each element of ``x2`` to the corresponding element of ``x1``.",
    "atan2": "Calculates the quadrant-aware inverse tangent of ``x1 / x2``, in radians, for each pair of elements.",
    "bitwise_and": "Computes the bitwise AND of each element of ``x1`` with the corresponding element of ``x2``.",
    "bitwise_left_shift": "Shifts the bits of each element of ``x1`` left by the corresponding element of ``x2``.",
    "bitwise_or": "Computes the bitwise OR of each element of ``x1`` with the corresponding element of ``x2``.",
    "bitwise_right_shift": "Shifts the bits of each element of ``x1`` right by the corresponding element of ``x2``.",
    "bitwise_xor": "Computes the bitwise XOR of each element of ``x1`` with the corresponding element of ``x2``.",
    "copysign": "Composes values with the magnitude of each element of ``x1`` and the sign of the one of ``x2``.",
    "divide": "Divides each element of ``x1`` by the corresponding element of ``x2``.",
    "equal": "Tests whether each element of ``x1`` equals the corresponding element of ``x2``.",
    "floor_divide": "Divides each element of ``x1`` by the corresponding element of ``x2``, rounding down.",
    "greater": "Tests whether each element of ``x1`` is greater than the corresponding element of ``x2``.",
    "greater_equal": "Tests whether each element of ``x1`` is at least the corresponding element of ``x2``.",
    "hypot": "Calculates ``sqrt(x1**2 + x2**2)`` for each pair of elements, without undue overflow.",
    "less": "Tests whether each element of ``x1`` is less than the corresponding element of ``x2``.",
    "less_equal": "Tests whether each element of ``x1`` is at most the corresponding element of ``x2``.",
    "logaddexp": "Calculates ``log(exp(x1) + exp(x2))`` for each pair of elements, without undue overflow.",
    "logical_and": "Computes the logical AND of each element of ``x1`` with the corresponding element of ``x2``.",
    "logical_or": "Computes the logical OR of each element of ``x1`` with the corresponding element of ``x2``.",
    "logical_xor": "Computes the logical XOR of each element of ``x1`` with the corresponding element of ``x2``.",
    "maximum": "Returns the larger of each element of ``x1`` and the corresponding element of ``x2``.",
    "minimum": "Returns the smaller of each element of ``x1`` and the corresponding element of ``x2``.",
    "multiply": "Multiplies each element of ``x1`` by the corresponding element of ``x2``.",
    "nextafter": "Returns the next floating-point value after each element of ``x1`` toward the one of ``x2``.",
    "not_equal": "Tests whether each element of ``x1`` differs from the corresponding element of ``x2``.",
    "pow": "Raises each element of ``x1`` to the power of the corresponding element of ``x2``.",
    "remainder": "Returns the remainder of dividing each element of ``x1`` by the one of ``x2`` (sign of ``x2``).",
    "subtract": "Subtracts each element of ``x2`` from the corresponding element of ``x1``.",
}
# The Python scalars the standard (2025.12) takes for either operand of a binary function, as
# the annotation ``x1: Array | <type>`` names them (int stands for bool too, float for int, complex for both).
_SCALAR_OPERANDS = {
    **dict.fromkeys(["add", "divide", "equal", "multiply", "not_equal", "pow", "subtract"], "complex"),
    **dict.fromkeys(
        ["atan2", "copysign", "floor_divide", "greater", "greater_equal", "hypot", "less", "less_equal"], "float"
    ),
    **dict.fromkeys(["logaddexp", "maximum", "minimum", "nextafter", "remainder"], "float"),
    **dict.fromkeys(["bitwise_and", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift", "bitwise_xor"], "int"),
    **dict.fromkeys(["logical_and", "logical_or", "logical_xor"], "bool"),
}


def _doc(name: str) -> str:
    return (
        f"{_SUMMARIES[name]}\n\nElementwise ``{name}`` (array API standard), under this namespace's promotion policy."
    )


def _make_unary(name):
    def func(self, x, /):
        if type(x) is Array and x._runtime is self:
            fast = self._fast.get((name, x._dtype))  # the fast path (see _binary_plan)
            if fast is None:
                return self._apply1(name, x)
            return _result_array(fast[0](x._data), fast[1], fast[1].numpy, self, x._device)
        return self._apply1(name, x)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = _doc(name)
    func.__annotations__ = {"x": "Array", "return": "Array"}  # the standard's signature: (x: Array, /) -> Array
    return func


def _make_binary(name):
    def func(self, x1, x2, /):
        if (
            type(x1) is Array
            and type(x2) is Array
            and x1._runtime is self
            and x2._runtime is self
            and x2._device is x1._device
        ):
            fast = self._fast.get((name, x1._dtype, x2._dtype))  # the fast path (see _binary_plan)
            if fast is not None:
                try:
                    out = fast[0](x1._data, x2._data)
                except ValueError:  # shapes that do not broadcast: the full path says so in our words
                    fast = None
                if fast is not None:
                    return _result_array(out, fast[1], fast[1].numpy, self, x1._device)
        return self._apply2(name, x1, x2, False)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = _doc(name)
    operand = f"Array | {_SCALAR_OPERANDS[name]}"  # (x1: Array | complex, x2: Array | complex, /) -> Array
    func.__annotations__ = {"x1": operand, "x2": operand, "return": "Array"}
    return func


for _name in UNARY_NAMES:
    setattr(ElementwiseFunctions, _name, fast_path(_core.UNARY_FUNCTION, _name, _make_unary(_name)))
for _name in BINARY_NAMES:
    setattr(ElementwiseFunctions, _name, fast_path(_core.BINARY_FUNCTION, _name, _make_binary(_name)))
del _name
