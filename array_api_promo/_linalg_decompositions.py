"""The linalg extension's solves, inverses and decompositions: solve, inv, pinv, det, slogdet,
cholesky, eigh, eig, qr, svd (and their values-only forms), matrix_power and matrix_rank.

Each goes through one LAPACK call (LinearAlgebraFunctions._lapack and its plain cases); the
result types of the decompositions are here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from . import _dtypes as D
from ._array import Array
from ._core import all_finite
from ._creation_ranges import triangle
from ._runtime import BoundedTable, RuntimeBase, is_one_of, lapack_context, silent_context

if TYPE_CHECKING:
    from typing import Literal


_LinAlgError = np.linalg.LinAlgError
_ndarray = np.ndarray
_solve = np.linalg.solve
_inv = np.linalg.inv
_det = np.linalg.det
_slogdet = np.linalg.slogdet
_cholesky = np.linalg.cholesky
_matmul = np.matmul
_working = D.working_numpy
try:  # the generalized ufuncs numpy.linalg's det and slogdet call, after checks and a dtype choice made here too
    from numpy.linalg import _umath_linalg
except ImportError:  # pragma: no cover (NumPy moves it: its wrappers, as they are)
    _umath_linalg = None  # type: ignore[assignment]
# The dtypes np.linalg.det and slogdet keep (float32, float64, complex64, complex128): the signature they give
# their ufunc (LAPACK in double or complex double: _commonType's choice), and the dtypes they cast its results
# to where those differ (a NumPy scalar's astype costs half the ufunc's call: skipped where it is no cast)
_DETERMINANTS = {
    np.dtype("f4"): ("d->d", "d->dd", np.dtype("f4"), np.dtype("f4")),
    np.dtype("f8"): ("d->d", "d->dd", None, None),
    np.dtype("c8"): ("D->D", "D->Dd", np.dtype("c8"), np.dtype("f4")),
    np.dtype("c16"): ("D->D", "D->Dd", None, None),
}


def _det_of(a):
    """``np.linalg.det(a)`` of a stack of square matrices (the callers' checks): its own ufunc call and cast,
    without its Python steps (its checks again, _commonType's choice of signature)."""
    known = _DETERMINANTS.get(a.dtype)
    if known is None or _umath_linalg is None or type(a) is not _ndarray:
        return _det(a)
    out = _umath_linalg.det(a, signature=known[0])
    return out if known[2] is None else out.astype(known[2], copy=False)


def _slogdet_of(a):
    """``np.linalg.slogdet(a)`` as ``_det_of`` is det: (sign, logabsdet)."""
    known = _DETERMINANTS.get(a.dtype)
    if known is None or _umath_linalg is None or type(a) is not _ndarray:
        return _slogdet(a)
    sign, logabs = _umath_linalg.slogdet(a, signature=known[1])
    if known[2] is None:
        return sign, logabs
    return sign.astype(known[2], copy=False), logabs.astype(known[3], copy=False)


# np.linalg's one-matrix functions, as they call their LAPACK gufuncs for a stack of square float32, float64,
# complex64 or complex128 matrices (the callers' checks; run in _runtime.lapack_context, whose LinAlgError
# their errstate raises): in double or complex double, cast back to the input's precision (_commonType).
_REAL_PRECISION, _COMPLEX_PRECISION = D.NUMPY_REAL_OF, D.NUMPY_COMPLEX_OF
_gufunc = getattr(_umath_linalg, "__dict__", {}).get  # (None where NumPy has moved them: its functions)
_INV, _CHOLESKY, _EIGVALSH, _EIGH = _gufunc("inv"), _gufunc("cholesky_lo"), _gufunc("eigvalsh_lo"), _gufunc("eigh_lo")
_EIG, _EIGVALS = _gufunc("eig"), _gufunc("eigvals")
_SVD_SQUARE = _gufunc("svd_f") or _gufunc("svd_n_f")  # NumPy 2.0 names it by m >= n (square: n)
_SVDVALS_SQUARE = _gufunc("svd") or _gufunc("svd_n")


def _inv_of(a):
    """``np.linalg.inv(a)``."""
    if _INV is None or type(a) is not _ndarray or a.dtype not in _REAL_PRECISION:
        return _inv(a)
    return _INV(a, signature="D->D" if a.dtype.kind == "c" else "d->d").astype(a.dtype, copy=False)


def _cholesky_of(a):
    """``np.linalg.cholesky(a)`` (the lower factor)."""
    if _CHOLESKY is None or type(a) is not _ndarray or a.dtype not in _REAL_PRECISION:
        return _cholesky(a)
    return _CHOLESKY(a, signature="D->D" if a.dtype.kind == "c" else "d->d").astype(a.dtype, copy=False)


def _eigvalsh_of(a):
    """``np.linalg.eigvalsh(a)``."""
    real = _REAL_PRECISION.get(a.dtype)
    if _EIGVALSH is None or type(a) is not _ndarray or real is None:
        return np.linalg.eigvalsh(a)
    return _EIGVALSH(a, signature="D->d" if a.dtype.kind == "c" else "d->d").astype(real, copy=False)


def _eigh_of(a):
    """``np.linalg.eigh(a)``: (eigenvalues, eigenvectors)."""
    real = _REAL_PRECISION.get(a.dtype)
    if _EIGH is None or type(a) is not _ndarray or real is None:
        return np.linalg.eigh(a)
    w, v = _EIGH(a, signature="D->dD" if a.dtype.kind == "c" else "d->dd")
    return w.astype(real, copy=False), v.astype(a.dtype, copy=False)


def _real_eigenvalues_come_back_real() -> bool:
    """Whether np.linalg.eig and eigvals give real arrays for real input whose eigenvalues are all real, as
    before NumPy 2.5 (since: complex always): their answer for a 1x1 matrix, asked once."""
    return np.linalg.eigvals(np.ones((1, 1))).dtype.kind != "c"


_REAL_EIGENVALUES_REAL = _real_eigenvalues_come_back_real()


def _general_eigen(a, vectors: bool):
    """``np.linalg.eig(a)`` (``vectors``) or ``np.linalg.eigvals(a)``: real where real input has real eigenvalues."""
    gufunc = _EIG if vectors else _EIGVALS
    if gufunc is None or type(a) is not _ndarray or a.dtype not in _REAL_PRECISION:
        return np.linalg.eig(a) if vectors else np.linalg.eigvals(a)
    if not all_finite(a):
        raise _LinAlgError("Array must not contain infs or NaNs")
    complex_input = a.dtype.kind == "c"
    if vectors:
        w, v = gufunc(a, signature="D->DD" if complex_input else "d->DD")
    else:
        w, v = gufunc(a, signature="D->D" if complex_input else "d->D"), None
    if _REAL_EIGENVALUES_REAL and not complex_input and (w.imag == 0.0).all():
        result = a.dtype
        w = w.real
        v = None if v is None else v.real
    else:
        result = _COMPLEX_PRECISION[a.dtype]
    w = w.astype(result, copy=False)
    return w if v is None else (w, v.astype(result, copy=False))


def _eig_of(a):
    """``np.linalg.eig(a)``: (eigenvalues, eigenvectors)."""
    return _general_eigen(a, True)


def _eigvals_of(a):
    """``np.linalg.eigvals(a)``."""
    return _general_eigen(a, False)


_QR_RAW, _QR_REDUCED = _gufunc("qr_r_raw") or _gufunc("qr_r_raw_m"), _gufunc("qr_reduced")  # (2.0: by m <= n)
_DOUBLE, _CDOUBLE = np.dtype("f8"), np.dtype("c16")


def _qr_of(a):
    """``np.linalg.qr(a)`` (reduced) of square matrices: (Q, R), R the upper triangle of the factored copy."""
    if _QR_RAW is None or _QR_REDUCED is None or type(a) is not _ndarray or a.dtype not in _REAL_PRECISION:
        return np.linalg.qr(a)
    if a.shape[-1] != a.shape[-2]:
        return np.linalg.qr(a)
    complex_input = a.dtype.kind == "c"
    work = a.astype(_CDOUBLE if complex_input else _DOUBLE, copy=True)
    tau = _QR_RAW(work, signature="D->D" if complex_input else "d->d")
    q = _QR_REDUCED(work, tau, signature="DD->D" if complex_input else "dd->d")
    return q.astype(a.dtype, copy=False), triangle(work, 0, False).astype(a.dtype, copy=False)


def _svd_of(a):
    """``np.linalg.svd(a)`` (full matrices) of square matrices: (U, S, Vh)."""
    real = _REAL_PRECISION.get(a.dtype)
    if _SVD_SQUARE is None or type(a) is not _ndarray or real is None or a.shape[-1] != a.shape[-2]:
        return np.linalg.svd(a)
    u, s, vh = _SVD_SQUARE(a, signature="D->DdD" if a.dtype.kind == "c" else "d->ddd")
    return u.astype(a.dtype, copy=False), s.astype(real, copy=False), vh.astype(a.dtype, copy=False)


def _svdvals_of(a):
    """``np.linalg.svd(a, compute_uv=False)`` of square matrices."""
    real = _REAL_PRECISION.get(a.dtype)
    if _SVDVALS_SQUARE is None or type(a) is not _ndarray or real is None or a.shape[-1] != a.shape[-2]:
        return np.linalg.svd(a, compute_uv=False)
    return _SVDVALS_SQUARE(a, signature="D->d" if a.dtype.kind == "c" else "d->d").astype(real, copy=False)


def _power_of(a, n: int):
    """``np.linalg.matrix_power(a, n)`` for ``n >= 1`` of a stack of square matrices of a numeric dtype (the
    callers' checks): NumPy's own products (``a`` itself for 1, its short-cuts for 2 and 3, then its binary
    decomposition), without its Python layer."""
    if n == 1:
        return a
    if n == 2:
        return _matmul(a, a)
    if n == 3:
        return _matmul(_matmul(a, a), a)
    z = result = None
    while n > 0:
        z = a if z is None else _matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else _matmul(result, z)
    return result


def _singular_values(a):
    """``np.linalg.svd(a, compute_uv=False)``: svdvals' kernel."""
    return np.linalg.svd(a, compute_uv=False)


class EighResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class EigResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    Q: Array
    R: Array


class SlogdetResult(NamedTuple):
    sign: Array
    logabsdet: Array


class SVDResult(NamedTuple):
    U: Array
    S: Array
    Vh: Array


_DEFAULT_RTOLS = BoundedTable(1024)  # rtol=None's max(M, N) * eps, by (real dtype, max(M, N))


def _real_of(dtype):
    return D.REAL_OF.get(dtype, dtype)


class MatrixDecompositions(RuntimeBase):
    """Mixin: the linalg extension's solves, inverses and decompositions."""

    def _plain_lapack_of(self, x, func, kernel):
        """(``kernel``'s result, the compute dtype) of x's plain case (``_plain_matrices``; ``kernel``
        a NumPy LAPACK function of one stack of matrices), or None: no plain case, or LAPACK refused
        (the general path then says so in its words)."""
        if (plain := self._plain_matrices(x, func)) is None:
            return None
        try:  # (a kernel of np.linalg's own steps: its errstate, whose LinAlgError the general path words)
            return lapack_context().run(kernel, plain[0]), plain[1]
        except _LinAlgError:
            return None

    def _plain_lapack(self, x, func, kernel):
        """``_plain_lapack_of``'s result as an array of the compute dtype, or None."""
        if (plain := self._plain_lapack_of(x, func, kernel)) is None:
            return None
        return self._plain_result(plain[0], plain[1], x._device)

    def _square_lapack(self, x, func, kernel, plain_kernel):
        """``kernel`` of x's square matrices, of x's dtype (det, inv): the plain case (``plain_kernel``, the same
        steps in ``lapack_context``), else the general path."""
        if (out := self._plain_lapack(x, func, plain_kernel)) is not None:
            return out
        x, dtype, data = self._linalg_input(x, func, square=True)
        return self._wrap_result(self._lapack(func, kernel, data), dtype, x._device)

    def linalg_solve(self, x1: Array, x2: Array, /) -> Array:
        """Solution ``X`` of ``x1 @ X = x2`` (``x2`` of shape ``(M,)`` is one vector)."""
        if type(x1) is Array and type(x2) is Array and x1._runtime is self and x2._runtime is self:
            # Two stacks of matrices of one stack shape, of the dtype the general path decided for
            # their dtypes before (no cast, no broadcast), in the dtype LAPACK computes in: its kernel
            dtype = self._function_pair_dtypes.get(("linalg.solve", x1._dtype, x2._dtype))
            a, b = x1._data, x2._data
            if (
                dtype is not None
                and dtype is x1._dtype
                and dtype is x2._dtype
                and x2._device is x1._device
                and type(a) is _ndarray
                and type(b) is _ndarray
                and a.dtype is _working(dtype)
            ):
                sa, sb = a.shape, b.shape
                if len(sa) >= 2 and sa[-1] == sa[-2] and len(sb) == len(sa) and sb[-2] == sa[-1] and sb[:-2] == sa[:-2]:
                    try:
                        out = silent_context().run(_solve, a, b)
                    except _LinAlgError:
                        pass  # (the general path says so in its words)
                    else:
                        return self._plain_result(out, dtype, x1._device)
        func = "linalg.solve"
        a, b, dtype, device = self._two_arrays(x1, x2, func, "solve")
        if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
            raise ValueError(f"{func}: x1 must be a (stack of) square matrices, got shape {a.shape}")
        m = a.shape[-1]
        if b.ndim == 0:
            raise ValueError(f"{func}: x2 must have at least one dimension")
        if b.ndim == 1:
            if b.shape[0] != m:
                raise ValueError(f"{func}: x2 of shape {b.shape} does not match x1 of shape {a.shape}")
            batch = a.shape[:-2]
        else:
            if b.shape[-2] != m:
                raise ValueError(f"{func}: x2 of shape {b.shape} does not match x1 of shape {a.shape}")
            batch = a.shape[:-2]
            if b.shape[:-2] != batch:
                try:
                    batch = np.broadcast_shapes(batch, b.shape[:-2])
                except ValueError:
                    raise ValueError(
                        f"{func}: stack shapes of x1 {a.shape} and x2 {b.shape} do not broadcast"
                    ) from None
        ctype = D.working_numpy(dtype)
        if a.dtype != ctype:
            a = a.astype(ctype)
        if b.dtype != ctype:
            b = b.astype(ctype)
        if a.shape[:-2] != batch:
            a = np.broadcast_to(a, batch + a.shape[-2:])
        if b.ndim == 1:
            b = np.broadcast_to(b, batch + b.shape) if batch else b
            out = self._lapack(func, np.linalg.solve, a, b[..., None])[..., 0]
        else:
            if b.shape[:-2] != batch:
                b = np.broadcast_to(b, batch + b.shape[-2:])
            out = self._lapack(func, np.linalg.solve, a, b)
        return self._wrap_result(out, dtype, device)

    # -- linalg: one-matrix functions -----------------------------------------------------
    def linalg_cholesky(self, x: Array, /, *, upper: bool = False) -> Array:
        """Cholesky factor of each Hermitian positive-definite matrix."""
        if upper is False and (out := self._plain_lapack(x, "linalg.cholesky", _cholesky_of)) is not None:
            return out
        func = "linalg.cholesky"
        if type(upper) is not bool:
            upper = self._flag(upper, func, "upper")
        x, dtype, data = self._linalg_input(x, func, square=True)
        out = self._lapack(func, np.linalg.cholesky, data, upper=upper)
        return self._wrap_result(out, dtype, x._device)

    def linalg_det(self, x: Array, /) -> Array:
        """Determinant of each square matrix."""
        return self._square_lapack(x, "linalg.det", _det_of, _det_of)

    def linalg_eigh(self, x: Array, /) -> EighResult:
        """Eigenvalues (ascending, real) and eigenvectors of Hermitian matrices."""
        func = "linalg.eigh"
        if (plain := self._plain_lapack_of(x, func, _eigh_of)) is not None:
            (w, v), dtype = plain
            device = x._device
            return EighResult(self._plain_result(w, _real_of(dtype), device), self._plain_result(v, dtype, device))
        x, dtype, data = self._linalg_input(x, func, square=True)
        w, v = self._lapack(func, np.linalg.eigh, data)
        return EighResult(self._wrap_result(w, _real_of(dtype), x._device), self._wrap_result(v, dtype, x._device))

    def linalg_eigvalsh(self, x: Array, /) -> Array:
        """Eigenvalues (ascending, real) of Hermitian matrices."""
        func = "linalg.eigvalsh"
        if (plain := self._plain_lapack_of(x, func, _eigvalsh_of)) is not None:
            return self._plain_result(plain[0], self._function_result("eigvalsh", plain[1]), x._device)
        x, dtype, data = self._linalg_input(x, func, square=True)
        w = self._lapack(func, np.linalg.eigvalsh, data)
        return self._wrap_result(w, self._function_result("eigvalsh", dtype), x._device)

    def linalg_eig(self, x: Array, /) -> EigResult:
        """Eigenvalues and eigenvectors of general square matrices (complex results)."""
        func = "linalg.eig"
        if (plain := self._plain_lapack_of(x, func, _eig_of)) is not None:
            (w, v), dtype = plain
            ctype = self.policy.complex_of(dtype)
            return EigResult(self._plain_result(w, ctype, x._device), self._plain_result(v, ctype, x._device))
        x, dtype, data = self._linalg_input(x, func, square=True)
        w, v = self._lapack(func, np.linalg.eig, data)
        ctype = self.policy.complex_of(dtype)
        return EigResult(self._wrap_result(w, ctype, x._device), self._wrap_result(v, ctype, x._device))

    def linalg_eigvals(self, x: Array, /) -> Array:
        """Eigenvalues of general square matrices (complex results)."""
        func = "linalg.eigvals"
        if (plain := self._plain_lapack_of(x, func, _eigvals_of)) is not None:
            return self._plain_result(plain[0], self.policy.complex_of(plain[1]), x._device)
        x, dtype, data = self._linalg_input(x, func, square=True)
        w = self._lapack(func, np.linalg.eigvals, data)
        return self._wrap_result(w, self.policy.complex_of(dtype), x._device)

    def linalg_inv(self, x: Array, /) -> Array:
        """Inverse of each square matrix."""
        return self._square_lapack(x, "linalg.inv", _inv, _inv_of)

    def linalg_matrix_power(self, x: Array, n: int, /) -> Array:
        """``x`` raised to the integer power ``n`` (``n < 0``: of the inverse)."""
        if type(n) is int and n > 0 and (plain := self._plain_matrices(x, "linalg.matrix_power")) is not None:
            # a positive power (no inverse to fail, nothing to refuse) in the dtype the general path computes in
            return self._plain_result(silent_context().run(_power_of, plain[0], n), plain[1], x._device)
        func = "linalg.matrix_power"
        if type(n) is not int:
            n = self._int(n, func, "n")
        x, dtype, data = self._linalg_input(x, func, square=True)
        if n < 0 and dtype.category <= D.CATEGORY_INTEGER:
            raise TypeError(f"{func}: a negative power of {D.a_dtype(dtype.name)} matrix needs floating-point input")
        out = self._lapack(func, np.linalg.matrix_power, data, n)
        return self._wrap_result(out, dtype, x._device)

    def _rtol(self, rtol, func, dtype, shape, device):
        """``rtol`` as a NumPy array broadcastable against the stack shape (default max(M, N) * eps)."""
        real = _real_of(dtype)
        if rtol is None:
            default = _DEFAULT_RTOLS.get((real, max(shape[-2:])))
            if default is None:
                default = np.asarray(max(shape[-2:]) * np.finfo(D.working_numpy(real)).eps)
                default.flags.writeable = False  # (read by NumPy only; remembered per dtype and size)
                _DEFAULT_RTOLS.keep((real, max(shape[-2:])), default)
            return default
        if type(rtol) is Array:
            rtol = self._check_array(rtol, func, "rtol")
            integer = rtol._dtype.category in (D.CATEGORY_INTEGER, D.CATEGORY_BOOL)
            if integer and self.policy.numpy_argument_reading:  # NumPy's (array-api-strict's): its values
                rtol = Array._new(rtol._data.astype(np.float64), D.float64, self, rtol._device)
            if rtol._dtype.category != D.CATEGORY_FLOATING:
                raise TypeError(f"{func}: rtol must have a real floating-point dtype, got {rtol._dtype.name}")
            if rtol._device is not device:
                raise ValueError(f"{func}: x and rtol are on different devices ({device.name} and {rtol._device.name})")
            stack = tuple(shape[:-2])
            try:
                fits = np.broadcast_shapes(rtol._data.shape, stack) == stack
            except ValueError:
                fits = False
            if not fits:
                raise ValueError(
                    f"{func}: rtol of shape {rtol._data.shape} does not broadcast to the stack shape {stack}"
                )
            return rtol._data
        if type(rtol) in (int, float):
            return np.asarray(float(rtol))
        if self.policy.numpy_argument_reading and isinstance(rtol, (int, float)):  # True, np.float64
            return np.asarray(float(rtol))
        raise TypeError(f"{func}: rtol must be None, a float or an array, got {type(rtol).__name__}")

    def linalg_matrix_rank(self, x: Array, /, *, rtol: float | Array | None = None) -> Array:
        """Number of singular values above ``rtol`` times the largest (default integer dtype)."""
        func = "linalg.matrix_rank"
        x, dtype, data = self._linalg_input(x, func)
        tol = self._rtol(rtol, func, dtype, data.shape, x._device)
        result = self._function_result("matrix_rank", dtype)
        if 0 in data.shape[-2:]:
            return self._wrap_result(np.zeros(data.shape[:-2], dtype=result.numpy), result, x._device)
        s = self._lapack(func, np.linalg.svd, data, compute_uv=False)
        threshold = s.max(axis=-1, keepdims=True) * np.asarray(tol)[..., None]
        out = np.count_nonzero(s > threshold, axis=-1)
        return self._wrap_result(out, result, x._device)

    def linalg_pinv(self, x: Array, /, *, rtol: float | Array | None = None) -> Array:
        """Moore-Penrose pseudo-inverse of each matrix."""
        func = "linalg.pinv"
        if rtol is None and (plain := self._plain_matrices(x, func)) is not None and plain[0].shape[-1]:
            data, dtype = plain  # (the general path's steps for it, without its checks)
            tol = self._rtol(None, func, dtype, data.shape, x._device)
            try:
                return self._plain_result(silent_context().run(np.linalg.pinv, data, rtol=tol), dtype, x._device)
            except _LinAlgError:
                pass  # (the general path says so in its words)
        x, dtype, data = self._linalg_input(x, func)
        tol = self._rtol(rtol, func, dtype, data.shape, x._device)
        if 0 in data.shape[-2:]:
            out = np.zeros(data.shape[:-2] + data.shape[-2:][::-1], dtype=data.dtype)
        else:
            out = self._lapack(func, np.linalg.pinv, data, rtol=tol)
        return self._wrap_result(out, dtype, x._device)

    def linalg_qr(self, x: Array, /, *, mode: Literal["reduced", "complete"] = "reduced") -> QRResult:
        """QR decomposition (``mode`` 'reduced' or 'complete')."""
        func = "linalg.qr"
        if type(mode) is str and mode == "reduced" and (plain := self._plain_lapack_of(x, func, _qr_of)):
            (q, r), dtype = plain
            return QRResult(self._plain_result(q, dtype, x._device), self._plain_result(r, dtype, x._device))
        if not is_one_of(mode, ("reduced", "complete")):
            raise ValueError(f"{func}: mode must be 'reduced' or 'complete', got {mode!r}")
        x, dtype, data = self._linalg_input(x, func)
        q, r = self._lapack(func, np.linalg.qr, data, mode=mode)
        return QRResult(self._wrap_result(q, dtype, x._device), self._wrap_result(r, dtype, x._device))

    def linalg_slogdet(self, x: Array, /) -> SlogdetResult:
        """Sign and natural log of the absolute determinant of each square matrix."""
        if (plain := self._plain_matrices(x, "linalg.slogdet")) is not None:
            try:
                sign, logabs = silent_context().run(_slogdet_of, plain[0])
            except _LinAlgError:
                pass  # (the general path says so in its words)
            else:
                dtype = plain[1]
                return SlogdetResult(
                    self._plain_result(sign, dtype, x._device),
                    self._plain_result(logabs, self._function_result("slogdet", dtype), x._device),
                )
        func = "linalg.slogdet"
        x, dtype, data = self._linalg_input(x, func, square=True)
        sign, logabs = self._lapack(func, _slogdet_of, data)
        return SlogdetResult(
            self._wrap_result(sign, dtype, x._device),
            self._wrap_result(logabs, self._function_result("slogdet", dtype), x._device),
        )

    def linalg_svd(self, x: Array, /, *, full_matrices: bool = True) -> SVDResult:
        """Singular value decomposition ``U, S, Vh`` (``S`` real, descending)."""
        func = "linalg.svd"
        if full_matrices is True and (plain := self._plain_lapack_of(x, func, _svd_of)) is not None:
            (u, s, vh), dtype = plain
            device = x._device
            return SVDResult(
                self._plain_result(u, dtype, device),
                self._plain_result(s, _real_of(dtype), device),
                self._plain_result(vh, dtype, device),
            )
        if type(full_matrices) is not bool:
            full_matrices = self._flag(full_matrices, func, "full_matrices")
        x, dtype, data = self._linalg_input(x, func)
        u, s, vh = self._lapack(func, np.linalg.svd, data, full_matrices=full_matrices)
        device = x._device
        return SVDResult(
            self._wrap_result(u, dtype, device),
            self._wrap_result(s, _real_of(dtype), device),
            self._wrap_result(vh, dtype, device),
        )

    def linalg_svdvals(self, x: Array, /) -> Array:
        """Singular values of each matrix (real, descending)."""
        func = "linalg.svdvals"
        if (plain := self._plain_lapack_of(x, func, _svdvals_of)) is not None:
            return self._plain_result(plain[0], self._function_result("svdvals", plain[1]), x._device)
        x, dtype, data = self._linalg_input(x, func)
        s = self._lapack(func, _singular_values, data)
        return self._wrap_result(s, self._function_result("svdvals", dtype), x._device)
