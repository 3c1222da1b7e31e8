"""Creation functions of ranges and grids: arange, linspace, eye, tril, triu and meshgrid."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from . import _core, _dtypes as D
from ._array import Array
from ._core import fast_path
from ._errors import ArgumentError
from ._runtime import PLAIN_LENGTH, BoundedTable, RuntimeBase, check_fits, index_int, is_one_of, new_array

if TYPE_CHECKING:
    from typing import Literal

    from ._devices import Device
    from ._dtypes import DType


_ARANGE_TYPES = frozenset((int, float, bool, type(None)))  # bounds taken as they are
# arange's floating case: Python float bounds, or ints that a float holds exactly
_EXACT_INT = 2**53
# The dtypes of arange's plain cases: the integer ones, by their (min, max), and the real floating
# ones NumPy computes natively (None); _fastpath.c's arange takes the same by their NumPy types.
_RANGE_BOUNDS = {**D.INT_BOUNDS, D.float32: None, D.float64: None}
_arange = np.arange
_empty = np.empty
_where = np.where
_ndarray = np.ndarray
_ceil = math.ceil


def _number_bound(value, func, arg, complex_ok=False):
    """A bound of ``arange``/``linspace`` that is a number without being a Python one: its
    Python int, float (or, for ``linspace``, complex) value; anything else as it is.

    A 0-d integer or floating array (SciPy's ``arange(1, n + 1)`` with a 0-d ``n``, its
    ``_logspace`` passing 0-d ``start``/``stop`` to ``linspace``) or a NumPy number
    (``arange(np.prod(shape) * 3)``): array-api-strict accepts them, as NumPy does.
    """
    t = type(value)
    if t is Array:
        category = value._dtype.category
        allowed = (D.CATEGORY_INTEGER, D.CATEGORY_FLOATING) + ((D.CATEGORY_COMPLEX,) if complex_ok else ())
        if value._data.ndim != 0 or category not in allowed:
            kinds = "int, float or complex" if complex_ok else "int or float"
            kinds_0d = "integer or floating" if complex_ok else "integer or real floating"
            raise TypeError(
                f"{func}: {arg} must be a Python {kinds} (or a 0-d {kinds_0d} array), "
                f"got an array of shape {value._data.shape} and dtype {value._dtype.name}"
            )
        if category == D.CATEGORY_INTEGER:
            return int(value)
        return float(value) if category == D.CATEGORY_FLOATING else complex(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if complex_ok and isinstance(value, np.complexfloating):
        return complex(value)
    return value


_MASKS = BoundedTable(256)  # tri(rows, cols, k, dtype=bool) by (rows, cols, k), read-only, for small matrices
_MASKED_ELEMENTS = 1 << 16
_ZEROS = BoundedTable(256)  # np.zeros(1, dtype) by dtype, read-only


def triangle(data: np.ndarray, k: int, lower: bool) -> np.ndarray:
    """``np.tril(data, k)`` (``lower``) or ``np.triu(data, k)`` of ``data`` (ndim >= 2): their own steps, NumPy's
    ``where`` of ``np.tri``'s mask and a zero of data's dtype, the mask made once per small matrix shape."""
    rows, cols = data.shape[-2:]
    if not lower:
        k -= 1  # (np.triu: the complement of tri's mask one diagonal down)
    mask = _MASKS.get((rows, cols, k))
    if mask is None:
        mask = np.tri(rows, cols, k=k, dtype=bool)
        if rows * cols <= _MASKED_ELEMENTS:
            mask.flags.writeable = False
            _MASKS.keep((rows, cols, k), mask)
    zero = _ZEROS.get(data.dtype)
    if zero is None:
        zero = np.zeros(1, data.dtype)
        zero.flags.writeable = False
        _ZEROS.keep(data.dtype, zero)
    return _where(mask, data, zero) if lower else _where(mask, zero, data)


class RangeCreation(RuntimeBase):
    """Mixin: the creation functions of ranges and grids."""

    def arange(
        self,
        start: float,
        /,
        stop: float | None = None,
        step: float = 1,
        *,
        dtype: DType | None = None,
        device: Device | None = None,
    ) -> Array:
        """Returns evenly spaced values in the half-open interval ``[start, stop)`` as a one-dimensional array."""
        t0, t1, t2 = type(start), type(stop), type(step)
        if device is None and (
            dtype is None or (type(dtype) is D.DType and dtype in _RANGE_BOUNDS and dtype in self._dtype_set)
        ):
            # The plain cases, few values of an integer or real floating dtype (the default one of
            # the bounds' kind, or one given that holds every value): what the general path below
            # computes, with its checks known to pass (_fastpath.c's arange does the same)
            if t0 is int and stop is None and t2 is int and step == 1:
                # arange(n): 0, 1, ... n - 1
                if 0 <= start <= PLAIN_LENGTH:
                    if dtype is None:
                        dtype = self.policy.default_int
                    bounds = _RANGE_BOUNDS[dtype]
                    if bounds is None or start <= bounds[1] + 1:
                        return new_array(_arange(0, start, 1, dtype.numpy), dtype, self)  # type: ignore[call-overload]  # (an int here; as below)
            elif t0 is int and t1 is int and t2 is int:
                # integer bounds: NumPy's exact values, each within the dtype's range
                if (
                    step != 0
                    and -_EXACT_INT <= start <= _EXACT_INT
                    and -_EXACT_INT <= stop <= _EXACT_INT  # type: ignore[operator]  # (an int here)
                    and -_EXACT_INT <= step <= _EXACT_INT
                ):
                    n = -((start - stop) // step)  # type: ignore[operator]
                    if n <= PLAIN_LENGTH:
                        if dtype is None:
                            dtype = self.policy.default_int
                        bounds = _RANGE_BOUNDS[dtype]
                        if (
                            bounds is None
                            or n <= 0
                            or (bounds[0] <= start <= bounds[1] and bounds[0] <= start + (n - 1) * step <= bounds[1])
                        ):
                            return new_array(_arange(start, stop, step, dtype.numpy), dtype, self)  # type: ignore[call-overload]
            elif (
                (t0 is float or t1 is float or t2 is float)
                and (dtype is None or _RANGE_BOUNDS[dtype] is None)  # a real floating dtype
                and (t0 is float or (t0 is int and -_EXACT_INT <= start <= _EXACT_INT))
                and (t1 is float or (t1 is int and -_EXACT_INT <= stop <= _EXACT_INT))  # type: ignore[operator]
                and (t2 is float or (t2 is int and -_EXACT_INT <= step <= _EXACT_INT))
                and step - step == 0  # finite (then a finite n means finite bounds)
                and step != 0
            ):  # floating bounds, few values: cut to the standard's length, as below
                n = (stop - start) / step  # type: ignore[operator]  # (stop is a number here)
                if n - n == 0 and n <= PLAIN_LENGTH:
                    n = _ceil(n) if n > 0 else 0
                    if dtype is None:
                        dtype = self.policy.default_float
                    data = _arange(start, stop, step, dtype.numpy)  # type: ignore[call-overload]
                    return new_array(data[:n] if data.shape[0] > n else data, dtype, self)
        func = "arange"
        if step is None and self.policy.numpy_argument_reading:
            step = 1  # NumPy's (array-api-strict's) reading of step=None
        if not (type(start) in _ARANGE_TYPES and type(stop) in _ARANGE_TYPES and type(step) in _ARANGE_TYPES):
            start, stop, step = (
                _number_bound(v, func, arg) for v, arg in ((start, "start"), (stop, "stop"), (step, "step"))
            )
        for value, arg in ((start, "start"), (stop, "stop"), (step, "step")):
            if (value is not None or arg != "stop") and type(value) not in (int, float, bool):
                raise TypeError(f"arange: {arg} must be a Python int or float, got {type(value).__name__}")
        if step == 0:
            raise ValueError("arange: step must not be zero")
        device = self._check_device(device, func)
        if stop is None:
            start, stop = 0, start
        if dtype is None:
            is_float = any(type(v) is float for v in (start, stop, step))
            dtype = self._default("real floating" if is_float else "integral", device)
        else:
            dtype = self._check_dtype(dtype, func)
        if dtype.category == D.CATEGORY_BOOL and not self.policy.bool_ranges:
            raise self._refusal(TypeError("arange: dtype must be numeric, got bool"), "arange_bool", start, stop, step)
        # The standard: the length is ceil((stop - start) / step), which NumPy
        # can overshoot by one with floating steps.
        if all(type(v) is not float for v in (start, stop, step)):
            n = max(0, -((start - stop) // step))  # exact for any Python int
        else:
            if not (math.isfinite(start) and math.isfinite(stop) and not math.isnan(step)):
                raise ValueError(f"arange: start, stop and step must be finite, got {start}, {stop}, {step}")
            n = max(0, math.ceil((stop - start) / step))  # (the standard's length: 0 for an infinite step)
        check_fits((n,), dtype.numpy.itemsize, func)
        if dtype.category == D.CATEGORY_BOOL and n > 2:  # (the policy's bool_ranges) NumPy's limit
            raise self._refusal(
                TypeError(
                    f"arange: a bool range holds at most two values (False then True, or one of them), got {n} values "
                    f"from {start} to {stop} by {step}"
                ),
                "arange_bool",
                start,
                stop,
                step,
            )
        if n and dtype.category == D.CATEGORY_INTEGER:
            lo, hi = D.iinfo_bounds(dtype)
            last = start + (n - 1) * step
            if not (lo <= start <= hi and lo <= last <= hi):
                raise OverflowError(f"arange: values from {start} to {last} do not fit in {dtype.name} [{lo}, {hi}]")
        data = np.arange(start, stop, step, dtype=dtype.numpy)
        if data.shape[0] > n:
            data = data[:n]
        return Array._new(data, dtype, self, device)

    arange = fast_path(_core.ARANGE, "arange", arange)  # its two plain cases: in C

    def linspace(
        self,
        start: complex,
        stop: complex,
        /,
        num: int,
        *,
        dtype: DType | None = None,
        device: Device | None = None,
        endpoint: bool = True,
    ) -> Array:
        """Returns ``num`` evenly spaced numbers from ``start`` to ``stop`` (included unless ``endpoint`` is false)."""
        t0, t1 = type(start), type(stop)
        if (
            (t0 is float or t0 is int)
            and (t1 is float or t1 is int)
            and type(num) is int
            and 0 <= num <= PLAIN_LENGTH
            and dtype is None
            and device is None
            and type(endpoint) is bool
        ):  # real bounds, few values: the default float on the CPU, NumPy's values as below
            dtype = self.policy.default_float
            data = np.linspace(start, stop, num, endpoint=endpoint)
            if data.dtype is not dtype.numpy:  # float32: what np.linspace(..., dtype=) itself does last,
                data = data.astype(dtype.numpy)  # without its check of the dtype for an integer one
            return new_array(data, dtype, self)
        func = "linspace"
        reading = self.policy.numpy_argument_reading
        if type(num) is not int and reading and type(num) is not float and hasattr(num, "__index__"):
            num = self._int(num, func, "num")  # True, np.int64(3): NumPy's (array-api-strict's) reading
        if type(num) is not int or num < 0:
            raise ValueError(f"linspace: num must be a non-negative int, got {num!r}")
        if type(endpoint) is not bool:
            endpoint = self._flag(endpoint, func, "endpoint")
        if reading:
            if type(start) is bool or type(stop) is bool:
                start, stop = int(start) if type(start) is bool else start, int(stop) if type(stop) is bool else stop
            if any(type(v) is Array and v._data.ndim and v._runtime is self for v in (start, stop)):
                return self._linspace_arrays(start, stop, num, dtype, device, endpoint)
        start, stop = _number_bound(start, func, "start", True), _number_bound(stop, func, "stop", True)
        for value, arg in ((start, "start"), (stop, "stop")):
            if type(value) not in (int, float, complex):
                raise TypeError(f"linspace: {arg} must be a Python int, float or complex, got {type(value).__name__}")
        device = self._check_device(device, func)
        if dtype is None:
            is_complex = type(start) is complex or type(stop) is complex
            dtype = self._default("complex floating" if is_complex else "real floating", device)
        else:
            dtype = self._check_dtype(dtype, func)
        if dtype.category == D.CATEGORY_BOOL and not self.policy.bool_ranges:
            raise TypeError("linspace: dtype must be numeric, got bool")
        if dtype.category != D.CATEGORY_COMPLEX and (type(start) is complex or type(stop) is complex):
            raise TypeError(f"linspace: complex start or stop needs a complex dtype, got {dtype.name}")
        if dtype.category == D.CATEGORY_BOOL:  # (the policy's bool_ranges) NumPy's values: whether each is nonzero
            check_fits((num,), 1, func)
            return Array._new(np.linspace(start, stop, num, dtype=bool, endpoint=endpoint), dtype, self, device)
        if dtype.category == D.CATEGORY_INTEGER:
            # The standard: dtype "should be" floating-point; an integer one is implementation-
            # defined. NumPy's values (rounded toward -inf), as array-api-strict gives them
            # (SciPy's signal tests ask for int8), once every value is known to fit.
            if not (math.isfinite(start) and math.isfinite(stop)):  # type: ignore[arg-type]  # (real: not complex)
                raise ValueError(f"linspace: start and stop must be finite for {dtype.name}, got {start}, {stop}")
            lo, hi = D.iinfo_bounds(dtype)
            low, high = math.floor(min(start, stop)), math.floor(max(start, stop))  # type: ignore[call-overload]
            if num and not (lo <= low and high <= hi):
                raise OverflowError(f"linspace: values from {start} to {stop} do not fit in {dtype.name} [{lo}, {hi}]")
        check_fits((num,), dtype.numpy.itemsize, func)
        data = np.linspace(start, stop, num, dtype=dtype.numpy, endpoint=endpoint)
        return Array._new(data, dtype, self, device)

    def _linspace_arrays(self, start, stop, num, dtype, device, endpoint):
        """linspace with an n-d array bound: NumPy's (array-api-strict's) values, one row per step, under a
        policy that reads arguments as NumPy does; real bounds only (a complex one needs its dtype)."""
        func = "linspace"
        bounds = []
        for value, arg in ((start, "start"), (stop, "stop")):
            if type(value) is Array:
                value = self._check_array(value, func, arg)
                if value._dtype.category not in (D.CATEGORY_INTEGER, D.CATEGORY_FLOATING):
                    raise TypeError(f"{func}: {arg} must have a real numeric dtype, got {value._dtype.name}")
                bounds.append(value._data)
            elif type(value) in (int, float):
                bounds.append(value)
            else:
                raise TypeError(f"{func}: {arg} must be a Python int or float, or an array, got {type(value).__name__}")
        device = self._check_device(device, func)
        dtype = self._default("real floating", device) if dtype is None else self._check_dtype(dtype, func)
        if dtype.category != D.CATEGORY_FLOATING:
            raise TypeError(f"{func}: array bounds need a real floating-point dtype, got {dtype.name}")
        shape = (num,) + np.broadcast_shapes(*(np.shape(b) for b in bounds))
        check_fits(shape, dtype.numpy.itemsize, func)
        data = np.linspace(bounds[0], bounds[1], num, dtype=dtype.numpy, endpoint=endpoint)
        return Array._new(data, dtype, self, device)

    def eye(  # (the standard's signature, written out as each creation function's is)
        self,
        n_rows: int,
        n_cols: int | None = None,
        /,
        *,
        k: int = 0,
        dtype: DType | None = None,
        device: Device | None = None,
    ) -> Array:
        """Returns a two-dimensional array with ones on the ``k``-th diagonal and zeros elsewhere."""
        if (
            type(n_rows) is int
            and (n_cols is None or type(n_cols) is int)
            and type(k) is int
            and device is None
            and (dtype is None or (type(dtype) is D.DType and dtype in self._dtype_set))
            and 0 <= n_rows <= PLAIN_LENGTH
            and (n_cols is None or 0 <= n_cols <= PLAIN_LENGTH)
            and n_rows * (n_rows if n_cols is None else n_cols) <= PLAIN_LENGTH
        ):  # few elements, on the CPU: the checks below pass
            if dtype is None:
                dtype = self.policy.default_float  # (the CPU has no defaults of its own)
            return new_array(np.eye(n_rows, n_cols, k=k, dtype=dtype.numpy), dtype, self)
        func = "eye"
        # (np.int64 sizes by __index__; a bool size stays refused, as NumPy's eye refuses it)
        if type(n_rows) is not int:
            n_rows = index_int(n_rows, func, "n_rows")
        if n_cols is not None and type(n_cols) is not int:
            n_cols = index_int(n_cols, func, "n_cols")
        if type(k) is not int:
            k = self._int(k, func, "k")
        if n_rows < 0 or (n_cols is not None and n_cols < 0):
            raise ValueError("eye: n_rows and n_cols must be non-negative")
        device = self._check_device(device, func)
        dtype = self._default("real floating", device) if dtype is None else self._check_dtype(dtype, func)
        check_fits((n_rows, n_rows if n_cols is None else n_cols), dtype.numpy.itemsize, func)
        return Array._new(np.eye(n_rows, n_cols, k=k, dtype=dtype.numpy), dtype, self, device)

    def _triangle(self, x, k, numpy_func, func):
        if type(x) is Array and x._runtime is self and type(k) is int:
            data = x._data
            if type(data) is _ndarray and data.ndim >= 2:  # np.tril's and np.triu's steps, their mask remembered
                return new_array(triangle(data, k, func == "tril"), x._dtype, self, x._device)
        x = self._check_array(x, func)
        if type(k) is not int:
            if not (
                self.policy.numpy_argument_reading
                and isinstance(k, (int, float, np.integer, np.floating))
                and math.isfinite(k)
            ):
                raise TypeError(f"{func}: k must be an int, got {type(k).__name__}")
            k = float(k) if isinstance(k, (float, np.floating)) else int(k)  # NumPy's reading of a real k (strict's)
        if x._data.ndim < 2:
            raise self._refusal(
                ValueError(f"{func}: x must have at least two dimensions, got {x._data.ndim}"), "min_2d", func
            )
        return Array._new(numpy_func(x._data, k=k), x._dtype, self, x._device)

    def tril(self, x: Array, /, *, k: int = 0) -> Array:
        """Returns the lower triangular part of the matrix (or stack of matrices) ``x``, from the ``k``-th diagonal down."""
        return self._triangle(x, k, np.tril, "tril")

    def triu(self, x: Array, /, *, k: int = 0) -> Array:
        """Returns the upper triangular part of the matrix (or stack of matrices) ``x``, from the ``k``-th diagonal up."""
        return self._triangle(x, k, np.triu, "triu")

    def meshgrid(self, *arrays: Array, indexing: Literal["xy", "ij"] = "xy") -> tuple[Array, ...]:
        """Returns coordinate matrices made from the one-dimensional coordinate vectors ``arrays``."""
        if arrays and type(indexing) is str and (indexing == "xy" or indexing == "ij"):
            grids = self._plain_grids(arrays, indexing)
            if grids is not None:
                return grids if self.api_version >= "2025.12" else list(grids)
        if not is_one_of(indexing, ("xy", "ij")):
            raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
        arrays = [self._check_array(a, "meshgrid", "arrays") for a in arrays]  # type: ignore[assignment]
        # A list until 2024.12, a tuple since 2025.12.
        sequence = tuple if self.api_version >= "2025.12" else list
        if not arrays:
            return sequence()
        dtype = arrays[0]._dtype
        if any(a._dtype is not dtype for a in arrays):
            # a TypeError, and the ValueError array-api-strict raises ("must all have the same dtype")
            raise self._refusal(
                ArgumentError(
                    "meshgrid: all arrays must have the same dtype, got " + ", ".join(a._dtype.name for a in arrays)
                ),
                "meshgrid_dtypes",
            )
        for a in arrays:
            # (NumPy's meshgrid, array-api-strict's, flattens each array: under a policy that reads
            # arguments as NumPy does, an n-d array stands for its elements)
            if a._data.ndim != 1 and not self.policy.numpy_argument_reading:
                raise ValueError(f"meshgrid: every array must be one-dimensional, got {a._data.ndim} dimensions")
        device = self._same_device("meshgrid", *arrays)
        # np.meshgrid copies (copy=True): writable grids that share nothing, as array-api-strict's
        grids = np.meshgrid(*(a._data for a in arrays), indexing=indexing)
        return sequence(Array._new(g, dtype, self, device) for g in grids)

    def _plain_grids(self, arrays, indexing):
        """meshgrid's grids (a tuple) where ``arrays`` are vectors of this namespace of one dtype on one device
        and on NumPy storage, else None: np.meshgrid's steps (each vector reshaped to its axis, 'xy' swapping
        the first two, broadcast to the grid and copied in C order), without its Python layers."""
        first = arrays[0]
        if type(first) is not Array or first._runtime is not self:
            return None
        dtype, device = first._dtype, first._device
        datas = []
        for a in arrays:
            if type(a) is not Array or a._runtime is not self or a._dtype is not dtype or a._device is not device:
                return None
            data = a._data
            if type(data) is not _ndarray or data.ndim != 1:
                return None
            datas.append(data)
        ones = [1] * len(datas)
        axes = list(range(len(datas)))
        if indexing == "xy" and len(datas) > 1:
            axes[0], axes[1] = 1, 0
        shape = ones.copy()
        for axis, data in zip(axes, datas):
            shape[axis] = data.shape[0]
        grids = []
        for axis, data in zip(axes, datas):
            along = ones.copy()
            along[axis] = -1
            grid = _empty(shape, data.dtype)
            grid[...] = data.reshape(along)
            grids.append(new_array(grid, dtype, self, device))
        return tuple(grids)
