"""The standard's linear algebra functions (matmul, matrix_transpose, tensordot, vecdot)
and the ``linalg`` extension (methods named ``linalg_<name>``).

Dtypes are the policy's: two-array functions promote their operands
(``matmul`` by the policy's ``matmul`` decision, the same one the ``@``
operator uses), and ``policy.function_dtype(name, dtype)`` says whether the
(promoted) input is allowed and what it computes in.  NumPy's LAPACK wrappers
have no 16-bit floats and may upcast: every result is cast back to the dtype
the standard names (float32 stays float32, complex64 stays complex64).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from . import _core, _dtypes as D
from ._array import Array
from ._core import fast_path
from ._devices import CPU
from ._errors import ArgumentError, AxisError
from ._linalg_decompositions import EighResult, EigResult, MatrixDecompositions, QRResult, SlogdetResult, SVDResult
from ._runtime import index_int, is_one_of, new_array, quiet_context, quietly, silent_context, silently
from .promotion import OPS, PromotionError

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Literal

    from ._dtypes import DType

__all__ = [
    "LinearAlgebraFunctions",
    "EighResult",
    "EigResult",
    "QRResult",
    "SlogdetResult",
    "SVDResult",
]

_LinAlgError = np.linalg.LinAlgError
_vecdot = np.vecdot
_sqrt = np.sqrt
_FLOAT64 = np.dtype(np.float64)
_ndarray = np.ndarray
_asarray = np.asarray
_INF = float("inf")
_dot = np.dot
_prod = math.prod


def _dot_norm(data):
    """The 2-norm of all of float64 ``data`` as np.linalg.norm takes it: one BLAS dot and no
    temporary, within a few ulps of the pairwise sum of squares. Not for float32, whose BLAS dot
    accumulates in float32 (3e-5 off at 10**7 elements)."""
    flat = data.ravel()
    return _sqrt(flat.dot(flat))


def _quiet_vecdot(d1, d2):
    """NumPy's vecdot in the thread's quiet context (only products and sums: what they can signal,
    overflow and invalid, passes silently): the kernel of vecdot's plan in the runtime's fast table,
    which the compiled path calls for two arrays of one dtype (a ValueError: the Python path's words)."""
    return quiet_context().run(_vecdot, d1, d2)


_vecdot_kernel = _core.quiet_kernel(_vecdot, _quiet_vecdot)  # (compiled: the same call, in C)
_multiply_outer = np.multiply.outer


def _quiet_outer(d1, d2):
    """``np.multiply.outer`` in the thread's quiet context (a product signals only overflow, invalid and
    underflow, which pass silently there as in ``silently``): linalg.outer's kernel for two plain vectors."""
    return quiet_context().run(_multiply_outer, d1, d2)


_outer_kernel = _core.quiet_kernel(_multiply_outer, _quiet_outer)  # (compiled: the same call, in C)


def _contracted(a, b, k: int):
    """``np.tensordot(a, b, axes=k)`` for an int ``k`` the caller has checked: its own steps, whose transposes
    are the identity for an int (the last k axes of ``a`` against the first k of ``b``), so its reshapes and
    its ``dot``, without its axis handling."""
    kept_a, kept_b = a.shape[: a.ndim - k], b.shape[k:]
    size = _prod(b.shape[:k])
    return _dot(a.reshape(_prod(kept_a), size), b.reshape(size, _prod(kept_b))).reshape(kept_a + kept_b)


def _frobenius(data):
    """``np.linalg.norm(data, "fro", axis=(-2, -1))`` of real or complex floating ``data`` of 2 or more
    dimensions: its own steps for it (the square root of the sum of ``conj(x) * x``), without its Python
    layers (matrix_norm's two, norm's dispatch on ord and axis)."""
    return _sqrt(np.add.reduce((data.conj() * data).real, axis=(-2, -1)))


def _vector_norm(data, axes, keepdims, ord):
    """The ``ord``-norm of real or complex ``data`` over ``axes`` (None: all of them)."""
    whole = not keepdims and (axes is None or len(axes) == data.ndim)
    if ord == 2 and whole and data.dtype is _FLOAT64 and type(data) is _ndarray:
        return _dot_norm(data)
    if ord == 2 and data.dtype.kind != "c":
        # x * x is |x| * |x| exactly for every real (and integer, modular) value: no abs pass.
        return np.sqrt(np.add.reduce(data * data, axis=axes, keepdims=keepdims))  # np.sum's own call
    a = np.abs(data)
    if ord == _INF:
        return np.max(a, axis=axes, keepdims=keepdims, initial=0)
    if ord == -_INF:
        return np.min(a, axis=axes, keepdims=keepdims, initial=np.inf)
    if ord == 0:
        return np.count_nonzero(a, axis=axes, keepdims=keepdims).astype(a.dtype)
    if ord == 1:
        return np.sum(a, axis=axes, keepdims=keepdims)
    if ord == 2:
        return np.sqrt(np.sum(a * a, axis=axes, keepdims=keepdims))
    p = a.dtype.type(ord)
    return np.sum(a**p, axis=axes, keepdims=keepdims) ** (1 / p)


class LinearAlgebraFunctions(MatrixDecompositions):
    """Mixin: linear algebra under the namespace's policy."""

    # -- helpers -------------------------------------------------------------------------
    def _wrap_result(self, out, dtype, device):
        return Array._new(np.asarray(out, dtype=dtype.numpy), dtype, self, device)

    def _plain_result(self, out, dtype, device):
        """``_wrap_result``'s array, without its calls where ``out`` is an ndarray of ``dtype`` on the CPU."""
        if type(out) is not _ndarray or out.dtype is not dtype.numpy or device is not CPU:
            return self._wrap_result(out, dtype, device)
        return new_array(out, dtype, self)

    def _plain_matrices(self, x, func):
        """(x's data, the compute dtype) where x is a stack of square matrices of this namespace on NumPy
        storage whose dtype's decision for ``func`` was made before and which is already in the dtype LAPACK
        computes in (nothing for _linalg_input to check or cast), else None."""
        if type(x) is Array and x._runtime is self:
            plan = self._function_plans.get((func, x._dtype))
            data = x._data
            if plan is not None and type(data) is _ndarray and data.dtype is plan[1]:
                shape = data.shape
                if len(shape) >= 2 and shape[-1] == shape[-2]:
                    return data, plan[0]
        return None

    def _linalg_input(self, x, func, *, min_ndim=2, square=False):
        """``x`` checked, the policy's decision for it, and its data in the compute dtype."""
        if type(x) is not Array or x._runtime is not self:
            x = self._check_array(x, func)
        data = x._data
        shape = data.shape
        if len(shape) < min_ndim:
            raise ValueError(f"{func}: x must have at least {min_ndim} dimensions, got shape {shape}")
        if square and shape[-1] != shape[-2]:
            raise ValueError(f"{func}: x must be a (stack of) square matrices, got shape {shape}")
        plan = self._function_plans.get((func, x._dtype))
        if plan is None:
            try:
                dtype = self.policy.function_dtype(func.rpartition(".")[2], x._dtype).compute
            except PromotionError as exc:
                raise self._refusal(exc, "function_domain", func.rpartition(".")[2], x._dtype) from None
            plan = self._function_plans[func, x._dtype] = (dtype, D.working_numpy(dtype))
        dtype, working = plan
        if data.dtype != working:
            data = data.astype(working)
        return x, dtype, data

    def _two_arrays(self, x1, x2, func, op):
        """Both arrays checked, on one device, promoted by the policy and allowed for ``op``."""
        if type(x1) is Array and type(x2) is Array and x1._runtime is self and x2._runtime is self:
            d1, d2 = x1._data, x2._data
            # The general path's answer for two arrays of these dtypes (of one or more dimensions:
            # no 0-d or value-dependent promotion rule can apply), once it has allowed them.
            dtype = self._function_pair_dtypes.get((func, x1._dtype, x2._dtype)) if d1.ndim and d2.ndim else None
            if dtype is not None and x2._device is x1._device:
                if x1._dtype is not dtype:
                    d1 = d1.astype(dtype.numpy)
                if x2._dtype is not dtype:
                    d2 = d2.astype(dtype.numpy)
                return d1, d2, dtype, x1._device
        x1 = self._check_array(x1, func, "x1")
        x2 = self._check_array(x2, func, "x2")
        device = self._same_device(func, x1, x2)
        promoted = self._promote(func, x1, x2)
        try:
            dtype = self.policy.function_dtype(op, promoted).compute
        except PromotionError as exc:
            raise self._refusal(exc, "function_domain", op, promoted) from None
        if x1._data.ndim and x2._data.ndim:
            self._function_pair_dtypes[func, x1._dtype, x2._dtype] = dtype
        d1 = x1._data if x1._dtype is dtype else x1._data.astype(dtype.numpy)
        d2 = x2._data if x2._dtype is dtype else x2._data.astype(dtype.numpy)
        return d1, d2, dtype, device

    def _lapack(self, func, kernel, *args, **kwargs):
        try:
            return silently(kernel, *args, **kwargs)
        except _LinAlgError as exc:
            raise ValueError(f"{func}: {exc}") from None

    # -- the main namespace's functions ------------------------------------------------------
    def matmul(self, x1: Array, x2: Array, /) -> Array:
        """Matrix product, exactly as the ``@`` operator (the policy's ``matmul`` decision)."""
        if type(x1) is Array and type(x2) is Array:
            try:
                return self._apply2("matmul", x1, x2, False)
            except (TypeError, ValueError):
                # The errors in the order of the checks below: foreign arrays, an operand whose dtype
                # matmul never takes (as array-api-strict checks it first), then shapes (ours).
                self._check_array(x1, "matmul", "x1")
                self._check_array(x2, "matmul", "x2")
                try:
                    self._matmul_shapes(x1._data.shape, x2._data.shape)
                except ValueError:
                    for a in (x1, x2):  # (an operand refused on its own: its dtype first)
                        try:
                            self.policy.decide(OPS["matmul"], (self._operand(a), self._operand(a)))
                        except PromotionError as exc:
                            raise self._refusal(exc, "elementwise", "matmul", a, a)  # noqa: B904 (main: the same exception, as before)
                    raise
                raise
        x1 = self._check_array(x1, "matmul", "x1")
        x2 = self._check_array(x2, "matmul", "x2")
        self._matmul_shapes(x1._data.shape, x2._data.shape)
        return self._apply2("matmul", x1, x2, False)

    matmul = fast_path(_core.BINARY_FUNCTION, "matmul", matmul)  # two arrays: in C, as the @ operator

    @staticmethod
    def _matmul_shapes(s1, s2):
        if not s1 or not s2:
            raise ValueError(f"matmul: operands must have at least one dimension, got shapes {s1} and {s2}")
        k1 = s1[-1]
        k2 = s2[0] if len(s2) == 1 else s2[-2]
        if k1 != k2:
            raise ValueError(f"matmul: inner dimensions differ: shapes {s1} and {s2} ({k1} != {k2})")
        try:
            np.broadcast_shapes(s1[:-2], s2[:-2])
        except ValueError:
            raise ValueError(f"matmul: stack dimensions of shapes {s1} and {s2} do not broadcast") from None

    def matrix_transpose(self, x: Array, /) -> Array:
        """Transpose of each matrix of ``x`` (a view, as ``x.mT``)."""
        x = self._check_array(x, "matrix_transpose")
        if x._data.ndim < 2:
            raise self._refusal(
                ValueError(f"matrix_transpose: x must have at least 2 dimensions, got shape {x._data.shape}"),
                "min_2d",
                "matrix_transpose",
            )
        return Array._new(np.swapaxes(x._data, -1, -2), x._dtype, self, x._device)

    matrix_transpose = fast_path(_core.MATRIX_VIEW, "matrix_transpose", matrix_transpose)  # NumPy data: x.mT's C path

    def tensordot(self, x1: Array, x2: Array, /, *, axes: int | tuple[Sequence[int], Sequence[int]] = 2) -> Array:
        """Contraction of ``x1`` and ``x2`` over ``axes``."""
        func = "tensordot"
        d1, d2, dtype, device = self._two_arrays(x1, x2, func, "tensordot")
        n1, n2 = d1.ndim, d2.ndim
        if type(axes) is int or (isinstance(axes, int) and type(axes) is not bool):
            if axes < 0:
                raise ValueError(f"{func}: an integer axes must be non-negative, got {axes}")
            if axes > n1 or axes > n2:
                raise ValueError(f"{func}: axes={axes} exceeds the dimensions of x1 ({n1}) or x2 ({n2})")
            a1 = tuple(range(n1 - axes, n1))
            a2 = tuple(range(axes))
        elif isinstance(axes, (tuple, list)) and len(axes) == 2:
            try:
                seq1, seq2 = tuple(axes[0]), tuple(axes[1])
            except TypeError:
                raise TypeError(f"{func}: axes must be an int or a pair of sequences of ints, got {axes!r}") from None
            if len(seq1) != len(seq2):
                raise ValueError(f"{func}: the axes sequences must have the same length, got {axes!r}")
            a1 = tuple(self._normalize_axis(index_int(a, func), n1, func) for a in seq1)
            a2 = tuple(self._normalize_axis(index_int(a, func), n2, func) for a in seq2)
            if len(set(a1)) != len(a1) or len(set(a2)) != len(a2):
                raise ValueError(f"{func}: repeated axis in {axes!r}")
        else:
            raise TypeError(f"{func}: axes must be an int or a pair of sequences of ints, got {axes!r}")
        for i, j in zip(a1, a2):
            if d1.shape[i] != d2.shape[j]:
                raise ValueError(
                    f"{func}: contracted axes have different sizes: x1 axis {i} has {d1.shape[i]}, "
                    f"x2 axis {j} has {d2.shape[j]} (contracted axes are not broadcast)"
                )
        if type(axes) is int:
            out = silent_context().run(_contracted, d1, d2, axes)
        else:
            out = silently(np.tensordot, d1, d2, axes=(a1, a2))
        return self._wrap_result(out, dtype, device)

    def _vector_axis(self, func, axis, n1, n2):
        if type(axis) is not int:
            try:
                axis = self._int(axis, func, "axis")
            except TypeError as exc:  # (and the ValueError array-api-strict raises: "axis must be negative")
                raise self._refusal(ArgumentError(str(exc)), "negative_axis", func.rpartition(".")[2], axis) from None
        nmin = min(n1, n2)
        if axis >= 0:
            if self.api_version >= "2023.12":
                raise self._refusal(
                    ValueError(f"{func}: axis must be a negative integer (counted from the last axis), got {axis}"),
                    "negative_axis",
                    func.rpartition(".")[2],
                    axis,
                )
            axis -= max(n1, n2)
        if not -nmin <= axis <= -1:
            raise AxisError(f"{func}: axis {axis} is out of bounds; it must be in [-{nmin}, -1]")
        return axis

    def vecdot(self, x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
        """Dot product of the vectors along ``axis``, conjugating ``x1`` (NumPy's ``vecdot``)."""
        if type(x1) is Array and type(x2) is Array and type(axis) is int and axis == -1:
            # Two arrays of one shape and one device, of dtypes the general path below has
            # allowed before: only the NumPy call is left to make.
            d1, d2 = x1._data, x2._data
            dtype = self._function_pair_dtypes.get(("vecdot", x1._dtype, x2._dtype))
            if (
                dtype is not None
                and x1._runtime is self
                and x2._runtime is self
                and x2._device is x1._device
                and d1.ndim
                and d1.shape == d2.shape
            ):
                if x1._dtype is not dtype:
                    d1 = d1.astype(dtype.numpy)
                if x2._dtype is not dtype:
                    d2 = d2.astype(dtype.numpy)
                out = quiet_context().run(_vecdot, d1, d2)
                return Array._new(out if type(out) is _ndarray else _asarray(out), dtype, self, x1._device)
        func = "vecdot"
        d1, d2, dtype, device = self._two_arrays(x1, x2, func, "vecdot")
        s1, s2 = d1.shape, d2.shape
        if not s1 or not s2:
            raise self._refusal(
                ValueError(f"{func}: operands must have at least one dimension, got shapes {s1} and {s2}"),
                "vecdot_size",
            )
        if axis != -1 or type(axis) is not int:
            axis = self._vector_axis(func, axis, len(s1), len(s2))
        if s1[axis] != s2[axis]:
            raise self._refusal(
                ValueError(f"{func}: the vectors have different sizes along axis {axis}: {s1} and {s2}"), "vecdot_size"
            )
        if s1 != s2:
            try:
                np.broadcast_shapes(s1, s2)
            except ValueError:
                raise ValueError(f"{func}: shapes {s1} and {s2} do not broadcast") from None
        # Only products and sums: the quiet context ignores what they can signal (overflow, invalid).
        out = quietly(np.vecdot, d1, d2) if axis == -1 else quietly(np.vecdot, d1, d2, axis=axis)
        if x1._dtype is dtype and x2._dtype is dtype and x1._runtime is self and x2._runtime is self:
            # two arrays of the compute dtype: the compiled path's plan (it tells apart no shapes, whose
            # refusals, a 0-d operand's too, NumPy's ValueError leaves to this path)
            self._fast["vecdot", dtype, dtype] = (_vecdot_kernel, dtype)
        return Array._new(out if type(out) is np.ndarray else np.asarray(out), dtype, self, device)

    vecdot = fast_path(_core.BINARY_FUNCTION, "vecdot", vecdot)  # two arrays of one dtype met before: in C

    # -- linalg: two-array functions ------------------------------------------------------
    def linalg_cross(self, x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
        """Cross product of 3-element vectors along ``axis``."""
        func = "linalg.cross"
        d1, d2, dtype, device = self._two_arrays(x1, x2, func, "cross")
        if d1.ndim == 0 or d2.ndim == 0:
            raise self._refusal(
                ValueError(f"{func}: operands must have at least one dimension, got shapes {d1.shape} and {d2.shape}"),
                "cross_0d",
            )
        axis = self._vector_axis(func, axis, d1.ndim, d2.ndim)
        if d1.shape[axis] != 3 or d2.shape[axis] != 3:
            raise self._refusal(
                ValueError(
                    f"{func}: axis {axis} must have size 3 in both arrays, got shapes {d1.shape} and {d2.shape}"
                ),
                "cross_size",
            )
        # (the vectors along the last axis: no moves, as for the default axis=-1)
        a = d1 if axis == -1 else np.moveaxis(d1, axis, -1)
        b = d2 if axis == -1 else np.moveaxis(d2, axis, -1)
        if a.shape != b.shape:
            try:
                np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
            except ValueError:
                raise ValueError(f"{func}: shapes {d1.shape} and {d2.shape} do not broadcast") from None
        a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
        b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
        # each component a product minus a product, written into its column (d1 and d2 have one dtype)
        out = np.empty(a.shape if a.shape == b.shape else np.broadcast_shapes(a.shape, b.shape), dtype=a.dtype)
        with np.errstate(all="ignore"):
            for column, (p, q, r, s) in enumerate(((a1, b2, a2, b1), (a2, b0, a0, b2), (a0, b1, a1, b0))):
                component = out[..., column]
                np.multiply(p, q, out=component)
                np.subtract(component, r * s, out=component)
        if axis != -1:
            out = np.moveaxis(out, -1, axis)
        return self._wrap_result(out, dtype, device)

    def linalg_outer(self, x1: Array, x2: Array, /) -> Array:
        """Outer product of two vectors."""
        if type(x1) is Array and type(x2) is Array and x1._runtime is self and x2._runtime is self:
            # two vectors on NumPy storage of the dtype the general path has allowed for their dtypes
            d1, d2 = x1._data, x2._data
            dtype = self._function_pair_dtypes.get(("linalg.outer", x1._dtype, x2._dtype))
            if (
                dtype is x1._dtype
                and dtype is x2._dtype
                and type(d1) is _ndarray
                and type(d2) is _ndarray
                and d1.ndim == 1
                and d2.ndim == 1
                and x2._device is x1._device
            ):
                out = _outer_kernel(d1, d2)
                if out.dtype is dtype.numpy:
                    return new_array(out, dtype, self, x1._device)
                return self._wrap_result(out, dtype, x1._device)
        func = "linalg.outer"
        d1, d2, dtype, device = self._two_arrays(x1, x2, func, "outer")
        if d1.ndim != 1 or d2.ndim != 1:
            raise self._refusal(
                ValueError(f"{func}: x1 and x2 must be one-dimensional, got shapes {d1.shape} and {d2.shape}"),
                "outer_ndim",
            )
        out = silently(np.multiply.outer, d1, d2)
        return self._wrap_result(out, dtype, device)

    def _matrices_and_offset(self, x, offset, func):
        """``diagonal``'s and ``trace``'s arguments checked: x a stack of matrices, the diagonal's offset an int."""
        x = self._check_array(x, func)
        if type(offset) is not int:
            offset = self._int(offset, func, "offset")
        if x._data.ndim < 2:
            raise ValueError(f"{func}: x must have at least 2 dimensions, got shape {x._data.shape}")
        return x, offset

    def linalg_diagonal(self, x: Array, /, *, offset: int = 0) -> Array:
        """The ``offset`` diagonal of each matrix."""
        if type(x) is Array and x._runtime is self and type(offset) is int:
            data = x._data
            if type(data) is _ndarray and data.ndim >= 2:  # the checks below pass: np.diagonal's own call
                return new_array(data.diagonal(offset, -2, -1), x._dtype, self, x._device)  # (x's device holds it)
        func = "linalg.diagonal"
        x, offset = self._matrices_and_offset(x, offset, func)
        # NumPy's read-only view, as array-api-strict's (writing into it raises in __setitem__)
        out = np.diagonal(x._data, offset=offset, axis1=-2, axis2=-1)
        return Array._new(out, x._dtype, self, x._device)

    def linalg_matrix_norm(
        self, x: Array, /, *, keepdims: bool = False, ord: float | Literal["fro", "nuc"] | None = "fro"
    ) -> Array:
        """Matrix norm of each matrix (real result)."""
        func = "linalg.matrix_norm"
        if keepdims is False and type(x) is Array and type(ord) is str and ord == "fro":
            result = self._function_results.get(("matrix_norm fro", x._dtype))  # (see below)
            data = x._data
            if result is not None and x._runtime is self and type(data) is _ndarray and data.ndim >= 2:
                out = silent_context().run(_frobenius, data)
                return Array._new(_asarray(out, result.numpy), result, self, x._device)
        if type(keepdims) is not bool:
            keepdims = self._flag(keepdims, func, "keepdims")
        if self.policy.numpy_argument_reading and (ord is None or type(ord) is bool):
            ord = "fro" if ord is None else int(ord)  # NumPy's (array-api-strict's) reading: None is 'fro'
        if not is_one_of(ord, ("fro", "nuc", 1, 2, -1, -2, _INF, -_INF)):
            raise ValueError(f"{func}: ord must be 'fro', 'nuc', 1, 2, -1, -2, inf or -inf, got {ord!r}")
        if type(x) is Array and x._data.ndim < 2:  # NumPy's class for it (array-api-strict's): axis -2 is missing
            raise AxisError(f"{func}: x must have at least 2 dimensions, got shape {x._data.shape}")
        x, dtype, data = self._linalg_input(x, func)
        result = self._function_result("matrix_norm", dtype)
        if 0 in data.shape[-2:] and (
            ord in (2, -2, "nuc")
            or (ord in (1, -1) and data.shape[-1] == 0)
            or (ord in (_INF, -_INF) and data.shape[-2] == 0)
        ):
            out = np.zeros(data.shape[:-2] + ((1, 1) if keepdims else ()), dtype=D.working_numpy(result))
            return self._wrap_result(out, result, x._device)
        out = self._lapack(func, np.linalg.norm, data, ord=ord, axis=(-2, -1), keepdims=keepdims)
        if ord == "fro" and data is x._data and data.dtype.kind in "fc" and type(data) is _ndarray:
            # x's floating dtype needs no cast (norm casts integers to float64 first): the plain case above,
            # np.linalg.norm's own steps for "fro", and the result's dtype
            self._function_results["matrix_norm fro", x._dtype] = result
        return self._wrap_result(out, result, x._device)

    def linalg_trace(self, x: Array, /, *, offset: int = 0, dtype: DType | None = None) -> Array:
        """Sum of the ``offset`` diagonal of each matrix (accumulating as ``sum``)."""
        if type(x) is Array and x._runtime is self and dtype is None and type(offset) is int and offset == 0:
            # a stack of matrices whose result dtype was decided before: np.trace's own call, as below
            result = self._function_results.get(("linalg.trace", x._dtype))
            data = x._data
            if result is not None and x._dtype is result and type(data) is _ndarray and data.ndim >= 2:
                # (a floating sum of its own dtype: dtype= only costs; the result is x's dtype, on x's device)
                if result.category >= D.CATEGORY_FLOATING:
                    out = silent_context().run(data.trace, 0, -2, -1)
                else:
                    out = silent_context().run(data.trace, 0, -2, -1, result.numpy)
                return new_array(out if type(out) is _ndarray else _asarray(out), result, self, x._device)
        func = "linalg.trace"
        x, offset = self._matrices_and_offset(x, offset, func)
        result = self._function_results.get((func, x._dtype))
        if result is None:
            try:
                result = self.policy.function_dtype("trace", x._dtype).result
            except PromotionError as exc:
                raise self._refusal(exc, "function_domain", "trace", x._dtype) from None
            result = self._function_results[func, x._dtype] = self.policy.versioned_accumulation(
                "trace", result, self.api_version
            )
        if dtype is not None:
            result = self._check_dtype(dtype, func)
            if x._dtype.category == D.CATEGORY_COMPLEX and result.category != D.CATEGORY_COMPLEX:
                raise TypeError(
                    f"{func}: dtype={result.name} would discard the imaginary part of {D.a_dtype(x._dtype.name)} "
                    f"array; take real() first (policy {self.policy.name!r})"
                )
        data = x._data if x._dtype is result else x._data.astype(result.numpy)
        out = silently(data.trace, offset, -2, -1, result.numpy)  # np.trace's own call
        return self._wrap_result(out, result, x._device)

    def linalg_vector_norm(
        self, x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False, ord: float = 2
    ) -> Array:
        """Vector ``ord``-norm over ``axis`` (real result)."""
        if type(x) is Array and axis is None and keepdims is False and ord == 2 and type(ord) is int:
            plan = self._function_plans.get(("vector_norm of all", x._dtype))
            if plan is not None and x._runtime is self and type(x._data) is _ndarray:
                # x's dtype has passed the checks below before: the norm of all of x is left
                working, result = plan
                data = x._data if x._data.dtype is working else x._data.astype(working)
                out = silently(_vector_norm, data, None, False, 2)
                return Array._new(_asarray(out, result.numpy), result, self, x._device)
        func = "linalg.vector_norm"
        if type(keepdims) is not bool:
            keepdims = self._flag(keepdims, func, "keepdims")
        if self.policy.numpy_argument_reading:
            # NumPy's (array-api-strict's) readings: ord None is 2, a bool ord an int, an integral float axis an int
            if ord is None or type(ord) is bool:
                ord = 2 if ord is None else int(ord)
            if type(axis) is float and axis.is_integer():
                axis = int(axis)
        if type(ord) not in (int, float):
            # a TypeError, and the ValueError array-api-strict raises ("Invalid norm order 'fro' for vectors")
            raise ArgumentError(f"{func}: ord must be an int or a float, got {type(ord).__name__}")
        if ord != ord:
            raise ValueError(f"{func}: ord must not be NaN")
        x, dtype, data = self._linalg_input(x, func, min_ndim=0)
        axes = self._normalize_axes(axis, data.ndim, func)
        result = self._function_result("vector_norm", dtype)
        if axis is None and keepdims is False and ord == 2 and type(data) is _ndarray and data.dtype.kind == "f":
            self._function_plans["vector_norm of all", x._dtype] = (data.dtype, result)
        return self._wrap_result(silently(_vector_norm, data, axes, keepdims, ord), result, x._device)

    # -- the main namespace's functions in linalg ----------------------------------------------
    def linalg_matmul(self, x1: Array, x2: Array, /) -> Array:
        """Computes the matrix product of ``x1`` and ``x2``.

        ``matmul`` (also in the main namespace).
        """
        return self.matmul(x1, x2)

    def linalg_matrix_transpose(self, x: Array, /) -> Array:
        """Transposes the matrix (or each matrix of the stack) ``x``.

        ``matrix_transpose`` (also in the main namespace).
        """
        return self.matrix_transpose(x)

    linalg_matrix_transpose = fast_path(_core.MATRIX_VIEW, "linalg_matrix_transpose", linalg_matrix_transpose)

    def linalg_tensordot(
        self, x1: Array, x2: Array, /, *, axes: int | tuple[Sequence[int], Sequence[int]] = 2
    ) -> Array:
        """Contracts ``x1`` and ``x2`` over the axes ``axes``.

        ``tensordot`` (also in the main namespace).
        """
        return self.tensordot(x1, x2, axes=axes)

    def linalg_vecdot(self, x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
        """Computes the dot product of the vectors of ``x1`` and ``x2`` along ``axis``.

        ``vecdot`` (also in the main namespace).
        """
        if type(axis) is int and axis == -1:
            return self.vecdot(x1, x2)  # (the call vecdot's compiled path takes: no keyword)
        return self.vecdot(x1, x2, axis=axis)

    # vecdot's plan: two arrays of one dtype met before, in C without this frame
    linalg_vecdot = fast_path(_core.BINARY_FUNCTION, "vecdot", linalg_vecdot)
