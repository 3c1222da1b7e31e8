"""The Dask runtime's common part: identity, metas, the host's decisions, values.

:class:`DaskBase` is what every group of the runtime (``blockwise``, ``along_axis``,
``reductions``, and the Dask-native ``creation``, ``manipulation``, ``indexing``,
``contractions``) builds on: it checks that arrays are ours, makes the host's stand-ins of them
(``_meta``, ``_view_meta``), asks the host for a decision (``_decide``), wraps dask arrays as
arrays of this namespace, and gives values (``compute``, ``persist``).  :func:`standard_signatures`
gives the groups' methods the NumPy runtime's annotations and summaries, so that the Dask
namespace's functions have the same signatures as the NumPy namespace's.
"""

from __future__ import annotations

import inspect

import dask
import dask.array as da
import numpy as np

from .. import _dtypes as D
from .._array import Array
from .._core import NeverFast
from .._devices import CPU
from .._namespace import Runtime, namespace
from .._runtime import describe_value
from .blocks import chunks_for, filled, host_of, known, meta_shape, size_classes

__all__ = ["DaskBase", "standard_signatures", "EXTRA_PARAMETERS", "unpickle_array"]

_ndarray = np.ndarray

# The Dask namespace's parameters beyond the standard's: their annotation, and the line each adds to a
# function's summary.
EXTRA_PARAMETERS = {
    "chunks": (
        "str | int | tuple | dict | None",
        "``chunks`` (Dask storage only): the result's dask chunks, in any of dask's forms; "
        '``"auto"`` lets dask choose, ``None`` (the ``*_like`` functions) keeps ``x``\'s.',
    ),
}


def standard_signatures(cls):
    """Give each public method of ``cls`` that stands for a NumPy runtime's method that method's
    annotations and summary.

    The namespace's functions are made from the runtime's methods (``_plain_functions``): their
    signatures are the methods' parameters and annotations, their docstrings the methods'.  The
    parameters are written out in each method (the tests compare them with the NumPy runtime's);
    the annotations and summaries of the standard have one home, the NumPy runtime's mixins.  A
    parameter of Dask's own (``EXTRA_PARAMETERS``) gets its annotation and adds its line to the summary.
    """
    for name, method in vars(cls).items():
        model = getattr(Runtime, name, None)
        if name.startswith("_") or not inspect.isfunction(method) or model is None:
            continue
        model = inspect.unwrap(model)  # the Python function under a compiled fast path
        extra = [p for p in inspect.signature(method).parameters if p in EXTRA_PARAMETERS]
        method.__annotations__ = {**model.__annotations__, **{p: EXTRA_PARAMETERS[p][0] for p in extra}}
        summary = [EXTRA_PARAMETERS[p][1] for p in extra]
        method.__doc__ = "\n\n".join([model.__doc__ or "", *summary]) if summary else model.__doc__
    return cls


class DaskBase(Runtime):
    """The functions of the standard over dask arrays, decided by the host namespace (see the package)."""

    storage = "dask"
    storage_functions = ("compute", "persist")  # in the namespace beside the standard's

    def __init__(self, policy, api_version: str):
        super().__init__(policy, api_version)
        self._fast = NeverFast()
        self._host = host_of(policy, api_version)
        if policy.value_dependent:
            self._operand = self._operand_with_value  # type: ignore[method-assign]

    def __repr__(self) -> str:
        return (
            f"<array_api_promo namespace policy={self.policy.name!r} api_version={self.api_version!r} storage='dask'>"
        )

    @property
    def label(self) -> str:
        return f"array_api_promo (policy {self.policy.name!r}, api_version {self.api_version}, dask storage)"

    # -- identity ------------------------------------------------------------------------------
    def _check_array(self, x, func: str, arg: str = "x") -> Array:
        if type(x) is Array and (
            x._runtime is self or (x._runtime.policy is self.policy and getattr(x._runtime, "storage", "") == "dask")
        ):
            return x
        if type(x) is Array:
            self._foreign(x, func)
        raise TypeError(f"{func}: {arg} must be an array of {self.label}, got {describe_value(x)}")

    def namespace_at(self, api_version: str):
        super().namespace_at(api_version)  # the same checks and words
        return namespace(self.policy, api_version, storage="dask")

    def reduce_array(self, x) -> tuple:
        return (unpickle_array, (x._data, self.policy.name, self.api_version, x._device))

    def _operand_with_value(self, x):
        if type(x) is Array and x._data.ndim == 0 and type(x._data) is not _ndarray:
            x = self._meta(x)
        return Runtime._operand_with_value(self, x)

    # -- metas: what the host decides on -----------------------------------------------------------
    def _meta(self, x, integer=0) -> Array:
        """The host's stand-in for our array ``x`` (its value, if 0-d under a value-dependent policy)."""
        data = x._data
        if data.ndim == 0 and self.policy.value_dependent:
            block = np.asarray(data.compute() if type(data) is not _ndarray else data, dtype=x._dtype.numpy)
        else:
            block = filled(meta_shape(data.shape), x._dtype, integer=integer)
        return Array._new(block, x._dtype, self._host, x._device)

    def _metas(self, value, func, arg, integer=0):
        """``value`` with each of our arrays (also inside a list or tuple) replaced by its meta."""
        t = type(value)
        if t is Array:
            return self._meta(self._check_array(value, func, arg), integer)
        if t is list or t is tuple:
            return t(self._metas(v, func, arg, integer) for v in value)
        return value

    def _view_meta(self, x, func, arg="x") -> Array:
        """The host's stand-in for ``x`` of its real shape: a broadcast view of one value (no memory)."""
        x = self._check_array(x, func, arg)
        shape = x._data.shape
        if not known(shape):
            raise ValueError(f"{func}: {arg} has an unknown shape {x.shape}; compute it first")
        block = np.broadcast_to(np.ones((), dtype=x._dtype.numpy), shape)
        return Array._new(block, x._dtype, self._host, x._device)

    def _decide(self, method, args, kwargs, func, names=None, shapes=False):
        """The host's result of ``method`` on the metas of ``args``: the dtypes and the refusals.

        ``shapes``: for a function that compares its operands' sizes (contractions, searchsorted),
        metas whose sizes keep those comparisons (``size_classes``, arrays among ``kwargs`` too); a
        refusal is asked again of the host on views of the real shapes (no memory), so that its
        words quote the real sizes."""
        names = names or [f"x{i + 1}" if len(args) > 1 else "x" for i in range(len(args))]
        named = [*zip(args, names), *((v, k) for k, v in kwargs.items())]
        arrays = [self._check_array(a, func, n) for a, n in named if type(a) is Array]
        if not shapes or not all(known(a._data.shape) for a in arrays):
            metas = [self._metas(a, func, n) for a, n in named]
            try:
                return getattr(self._host, method)(*metas[: len(args)], **dict(zip(kwargs, metas[len(args) :])))
            except ZeroDivisionError:  # the metas' zeros, not the data's: each block checks its own divisor
                metas = [self._metas(a, func, n, integer=1) for a, n in named]
                return getattr(self._host, method)(*metas[: len(args)], **dict(zip(kwargs, metas[len(args) :])))
        sizes = size_classes([a._data.shape for a in arrays])

        def meta(a, n):
            if type(a) is not Array:
                return a
            return Array._new(filled(tuple(sizes[k] for k in a._data.shape), a._dtype), a._dtype, self._host, a._device)

        def call(stand_in):
            metas = [stand_in(a, n) for a, n in named]
            return getattr(self._host, method)(*metas[: len(args)], **dict(zip(kwargs, metas[len(args) :])))

        try:
            return call(meta)
        except (TypeError, ValueError, IndexError) as exc:
            call(lambda a, n: self._view_meta(a, func, n) if type(a) is Array else a)  # raises as on the real shapes
            raise exc

    # -- dask arrays in, arrays of this namespace out ----------------------------------------------
    def _template(self, args):
        """``Block``'s template of ``args`` and the dask arrays it takes, in order."""
        datas = []

        def entry(a):
            t = type(a)
            if t is Array:
                datas.append(a._data)
                return (a._dtype, a._device)
            if t is list or t is tuple:
                return [entry(v) for v in a]
            return (None, a)

        return [entry(a) for a in args], datas

    def _wrap(self, data, dtype, device) -> Array:
        return Array._new(data, dtype, self, device)

    def _from_host(self, out, chunks="auto"):
        """A host result (an array or a tuple of arrays) as arrays of this namespace."""
        if type(out) is Array:
            chunks = chunks_for(out._data.shape, chunks)
            return self._wrap(da.from_array(out._data, chunks=chunks), out._dtype, out._device)
        return type(out)(self._from_host(o, chunks) for o in out)

    # -- values -----------------------------------------------------------------------------------
    def compute(self, *arrays):
        """The values of ``arrays`` (computed together, sharing their common work), as arrays of the
        NumPy namespace of the same policy and version."""
        arrays = [self._check_array(a, "compute", "arrays") for a in arrays]
        values = dask.compute(*(a._data for a in arrays))
        out = tuple(Array._new(np.asarray(v), a._dtype, self._host, a._device) for v, a in zip(values, arrays))
        return out[0] if len(out) == 1 else out

    def persist(self, *arrays):
        """``arrays`` with their chunks computed and kept (in memory, or on a cluster's workers)."""
        arrays = [self._check_array(a, "persist", "arrays") for a in arrays]
        values = dask.persist(*(a._data for a in arrays))
        out = tuple(self._wrap(v, a._dtype, a._device) for v, a in zip(values, arrays))
        return out[0] if len(out) == 1 else out

    def _to_numpy(self, x) -> np.ndarray:
        return np.asarray(x._data.compute())

    def _repr(self, x) -> str:
        data = x._data
        shape = tuple(None if isinstance(s, float) else s for s in data.shape)
        chunks = tuple(c[0] if len(c) and known(c) else None for c in data.chunks)
        extra = "" if x._device is CPU else f", device={x._device.name}"
        tail = "" if self.policy.name == "array_api" else f", policy={self.policy.name}"
        return f"Array(<dask shape={shape}, chunksize={chunks}>, dtype={x._dtype.name}{extra}{tail})"


def unpickle_array(data, policy_name, api_version, device):
    """An array of the Dask namespace from its pickle (``reduce_array``)."""
    runtime = namespace(policy_name, api_version, storage="dask")._runtime
    return Array._new(data, D.dtype_of_numpy(data.dtype), runtime, device)
