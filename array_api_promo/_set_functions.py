"""The standard's set functions: unique_all, unique_counts, unique_inverse, unique_values, isin.

Uniqueness is value equality: NaNs (and complex values with a NaN component)
are all distinct, signed zeros are one value.  Values come out sorted; the
index, inverse and count arrays have the policy's ``default_index`` dtype.
``isin`` compares in the dtype the policy promotes its operands to.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _dtypes as D
from ._array import Array
from ._runtime import RuntimeBase, describe_value, new_array
from .promotion import PromotionError

_ndarray = np.ndarray
_equal_outer = np.equal.outer
_any_along = np.logical_or.reduce

#: The most comparisons isin makes as a table of equalities (x1's elements times x2's): below
#: it, np.isin's set-up (its Python layers, a sort or a lookup table) is most of the call.
ISIN_TABLE_MAX = 4096


def _isin(x1, x2, invert: bool):
    """``np.isin(x1, x2, invert=invert)`` of operands of one dtype.  Small arrays of NumPy's
    numeric dtypes: the table of their equalities reduced along x2's elements, which is the same
    booleans (equality is membership: NaN matches nothing, -0.0 matches 0.0, as in np.isin)."""
    if (
        type(x1) is _ndarray
        and type(x2) is _ndarray
        and x1.size * x2.size <= ISIN_TABLE_MAX
        and x1.dtype == x2.dtype
        and x1.dtype.isbuiltin == 1
        and x1.dtype.kind in "biufc"
    ):
        found = _any_along(_equal_outer(x1, x2.reshape(-1)), axis=-1)
        return np.logical_not(found) if invert else found
    try:
        return np.isin(x1, x2, invert=invert)
    except OverflowError:  # NumPy 2.0's lookup table of uint64 values past int64 (an intp subtraction): its sort
        return np.isin(x1, x2, invert=invert, kind="sort")


__all__ = ["SetFunctions", "UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult"]


try:  # the C hash table np.unique_values(x) reaches through its Python layer (NumPy 2.3 and later)
    from numpy._core._multiarray_umath import _unique_hash
except ImportError:  # pragma: no cover (an older NumPy: its sort)
    _unique_hash = None


def _unique_integers(flat: np.ndarray) -> np.ndarray:
    """``np.unique_values(flat)`` of integers (in no particular order): its C hash table where it
    has one for ``flat``'s dtype."""
    if _unique_hash is not None:
        try:  # positionally: NumPy 2.3's takes no keyword (2.4 added equal_nan, which integers ignore)
            values = _unique_hash(flat)
        except TypeError:  # a private function whose arguments changed again: the public call
            values = NotImplemented
        if values is not NotImplemented:
            return values
    return np.unique_values(flat)


class UniqueAllResult(NamedTuple):
    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    values: Array
    inverse_indices: Array


def _unique(flat: np.ndarray, *, index: bool, inverse: bool, counts: bool, stable: bool = False):
    """Sorted unique values of the 1-d ``flat`` with NaNs distinct and (first index, inverse, counts).

    Only the first index needs a stable sort: without it the sort need not keep equal values in
    their order, as NumPy's own ``unique`` does, except where equal values can differ in their
    bits (signed zeros, NaNs) -- see ``_unstable_sort``.  ``stable``: the stable sort whatever is
    asked (the general path the others are tested against).
    """
    if not (index or stable):
        if flat.dtype.kind in "iu" and not inverse and not counts:
            values = _unique_integers(flat)  # NumPy's hash table, unsorted
            values.sort()
            return [values]
        sort = _unstable_sort(flat, inverse)
        if sort is not None:
            return _groups(*sort, index=False, inverse=inverse, counts=counts)
    order = np.argsort(flat, kind="stable")
    return _groups(flat[order], order, index=index, inverse=inverse, counts=counts)


def _unstable_sort(flat: np.ndarray, inverse: bool):
    """``(sorted values, order or None)`` by a sort that need not be stable, or None where only the
    stable sort gives the same result.

    Integers and bools: equal values are the same bits, so any sort gives the stable one's values
    (the unique values alone come from NumPy's hash table, sorted afterwards). Real floats:
    the same but for signed zeros, one group whose value is its first element's (the first zero
    of ``flat``, put back here), and NaNs, each a group of its own in ``flat``'s order (left to
    the stable sort, as are complex numbers, whose NaNs and zeros have two parts each).
    """
    kind = flat.dtype.kind
    if kind not in "biuf":
        return None
    if inverse:
        order = flat.argsort()  # (np.argsort's and np.sort's own calls, without their Python layers)
        aux = flat[order]
    else:
        order = None
        aux = flat.copy()
        aux.sort()
    if kind == "f" and aux.shape[0]:
        if aux[-1] != aux[-1]:  # NaNs sort last
            return None
        if aux[0] <= 0 <= aux[-1]:  # (no NaN: a zero lies between the least and the greatest)
            zero = int(aux.searchsorted(0))
            if zero < aux.shape[0] and aux[zero] == 0:
                aux[zero] = flat[np.argmax(flat == 0)]  # the sign of the first zero of flat
    return aux, order


def _groups(aux: np.ndarray, order, *, index: bool, inverse: bool, counts: bool):
    """The unique values of the sorted ``aux`` (``flat[order]``), with the parts asked for."""
    n = aux.shape[0]
    first = np.empty(n, dtype=bool)
    if n:
        first[0] = True
        # NaN != NaN: every NaN (and complex NaN) starts a group of its own.
        np.not_equal(aux[1:], aux[:-1], out=first[1:])
    out = [aux[first]]
    if index:
        # Stable sort: the first element of each group is its first occurrence.
        out.append(order[np.flatnonzero(first)])
    if inverse:
        inv = np.empty(n, dtype=np.intp)
        inv[order] = np.cumsum(first) - 1
        out.append(inv)
    if counts:
        out.append(np.diff(np.append(np.flatnonzero(first), n)))
    return out


class SetFunctions(RuntimeBase):
    """Mixin of the namespace runtime (see _runtime.RuntimeBase for the shared checks)."""

    def _unique_parts(self, func, x, index, inverse, counts):
        x = self._check_array(x, func)
        data = x._data
        parts = _unique(data.reshape(-1), index=index, inverse=inverse, counts=counts)
        device = x._device
        dt = self.policy.default_index
        arrays = [Array._new(parts[0], x._dtype, self, device)]
        for i, p in enumerate(parts[1:]):
            if inverse and i == (1 if index else 0):
                p = p.reshape(data.shape)
            arrays.append(Array._new(p.astype(dt.numpy, copy=False), dt, self, device))
        return arrays

    def unique_all(self, x: Array, /) -> UniqueAllResult:
        """Unique values of ``x`` with first indices, inverse indices and counts."""
        return UniqueAllResult(*self._unique_parts("unique_all", x, True, True, True))

    def unique_counts(self, x: Array, /) -> UniqueCountsResult:
        """Unique values of ``x`` and how often each occurs."""
        return UniqueCountsResult(*self._unique_parts("unique_counts", x, False, False, True))

    def unique_inverse(self, x: Array, /) -> UniqueInverseResult:
        """Unique values of ``x`` and the indices into them that rebuild ``x``."""
        return UniqueInverseResult(*self._unique_parts("unique_inverse", x, False, True, False))

    def unique_values(self, x: Array, /) -> Array:
        """The unique values of ``x`` (sorted, one-dimensional)."""
        if type(x) is not Array or x._runtime is not self:
            x = self._check_array(x, "unique_values")  # (_unique_parts' steps for the values alone)
        values = _unique(x._data.reshape(-1), index=False, inverse=False, counts=False)[0]
        return new_array(values, x._dtype, self, x._device)  # (x's device holds x's dtype)

    def isin(self, x1: Array | int, x2: Array | int, /, *, invert: bool = False) -> Array:
        """Whether each element of ``x1`` equals some element of ``x2`` (or not, with ``invert``)."""
        if type(x1) is Array and type(x2) is Array and x1._runtime is self and x2._runtime is self:
            # two arrays (of one or more dimensions: no 0-d rule applies) of dtypes the general path has allowed
            dtype = self._function_pair_dtypes.get(("isin", x1._dtype, x2._dtype))
            d1, d2 = x1._data, x2._data
            if dtype is not None and type(invert) is bool and x2._device is x1._device and d1.ndim and d2.ndim:
                out = _isin(
                    d1 if x1._dtype is dtype else d1.astype(dtype.numpy),
                    d2 if x2._dtype is dtype else d2.astype(dtype.numpy),
                    invert,
                )
                return Array._new(out if type(out) is _ndarray else np.asarray(out), D.bool_, self, x1._device)
        func = "isin"
        if type(invert) is not bool:
            raise self._refusal(
                TypeError(f"{func}: invert must be a bool, got {type(invert).__name__}"), "promotion", func, x1, x2
            )
        arrays = []
        refused = None  # the operands' refusal, in our words
        for value, arg in ((x1, "x1"), (x2, "x2")):
            if type(value) is Array:
                self._check_array(value, func, arg)
                arrays.append(value)
            elif type(value) is not int:
                refused = f"{arg} must be an array or an int, got {describe_value(value)}"
                break
        if refused is None and not arrays:
            refused = "at least one of x1 and x2 must be an array, got two Python ints"
        if refused is not None:
            raise self._refusal(TypeError(f"{func}: {refused}"), "isin_operands", x1, x2)
        device = self._same_device(func, *arrays)
        if "non_integer_isin" in self.policy.undefined_refusals:
            for a in arrays:
                if a._dtype.category != D.CATEGORY_INTEGER:
                    raise self._refusal(
                        PromotionError(
                            f"{func}: {a._dtype.name} input is not allowed; the standard requires integer input "
                            f"(policy {self.policy.name!r})"
                        ),
                        "promotion",
                        func,
                        x1,
                        x2,
                    )
        dtype = self._promote(func, x1, x2)
        try:
            d1, d2 = (
                (v._data if v._dtype is dtype else v._data.astype(dtype.numpy))
                if type(v) is Array
                else self.policy.convert_scalar(v, dtype, func)
                for v in (x1, x2)
            )
        except OverflowError as exc:
            raise self._refusal(exc, "promotion", func, x1, x2) from None
        out = _isin(d1, d2, invert)
        if type(out) is not _ndarray:
            out = np.asarray(out)
        if type(x1) is Array and type(x2) is Array and x1._data.ndim and x2._data.ndim:
            self._function_pair_dtypes["isin", x1._dtype, x2._dtype] = dtype  # (allowed: remembered)
        return Array._new(out, D.bool_, self, device)
