"""Dask storage: the namespace's arrays as chunked, lazy ``dask.array`` arrays.

``namespace(policy, storage="dask")`` binds a :class:`DaskRuntime`.  It decides
exactly as the NumPy namespace of the same policy and version, because it asks
that namespace (its *host*): every call is first made on small stand-ins of
the operands (*metas*: NumPy arrays of the operands' dtypes, devices and
dimensions, each dimension 1, or 0 where the array is empty), which gives the
result dtype, or the refusal with its very words.  Dask then only computes:

* **blockwise**: elementwise functions, operators, ``where``, ``clip`` and
  ``astype`` run the host's own function on each block (``_Block``), so every
  special value, scalar conversion and quiet cast is the NumPy namespace's;
* **along axes**: sorting, FFTs, most of linalg, ``take_along_axis`` and
  ``cumulative_*`` need whole axes: those axes are rechunked to one chunk and
  the host's function runs on each block;
* **reductions** (``sum``, ``prod``, ``max``, ``min``, ``all``, ``any``,
  ``count_nonzero``) reduce each chunk with the host's function and then the
  chunks' results, in the result dtype: out of core, whatever the size;
* **dask's own functions** for the rest (reshaping, joining, indexing,
  creation), on data already cast to the decided dtype.

Nothing computes until a value is asked for: ``float(x)``, ``bool(x)``,
``np.asarray(x)``, ``x.__dlpack__()``, ``repr(x)`` or ``compute()``.  Sizes that
depend on values (``nonzero``, ``unique_*``, boolean masks) are unknown
(``None`` in ``shape``) until then; what needs such a size says so.  Values that
only a computation can check (an out-of-bounds index array, a singular
matrix) raise when the value is computed.
"""

from __future__ import annotations

import inspect
import math
import operator

import dask
import dask.array as da
import numpy as np

from . import _dtypes as D
from ._array import Array
from ._creation_functions import _check_shape
from ._devices import CPU
from ._elementwise_functions import _check_broadcast
from ._indexing_functions import _BASIC, _key_repr
from ._namespace import Runtime, namespace
from ._runtime import describe_value
from .promotion import get_policy

__all__ = ["DaskRuntime"]

_ndarray = np.ndarray
_SMALL = 1 << 20  # a creation of at most this many elements is made by the host, then chunked


class _NeverFast(dict):
    """The fast table of a Dask runtime: always empty, so every operator takes the runtime's path
    (the compiled paths hand a non-exact dict to the Python code)."""

    def __setitem__(self, key, value):
        pass

    def get(self, key, default=None):
        return default


def _host_of(policy, api_version):
    return namespace(policy, api_version)._runtime


class _Block:
    """One call of the host namespace on NumPy blocks: picklable, and named for dask by its call.

    ``template`` lists the call's positional arguments: ``(dtype, device)`` for the next block
    (wrapped as a host array), or ``(None, value)`` for a value passed as it is; a list or tuple of
    such entries stands for a sequence argument (``concat``'s arrays).  ``pick`` takes one
    element of a tuple result.
    """

    __slots__ = ("policy", "api_version", "method", "template", "kwargs", "pick", "result")

    def __init__(self, runtime, method, template, kwargs, result, pick=None):
        self.policy = runtime.policy
        self.api_version = runtime.api_version
        self.method = method
        self.template = template
        self.kwargs = kwargs
        self.pick = pick
        self.result = result  # the NumPy dtype every block's result is stored in

    def __call__(self, *blocks, **dask_kwargs):
        host = _host_of(self.policy, self.api_version)
        it = iter(blocks)
        args = [_fill(entry, it, host) for entry in self.template]
        out = getattr(host, self.method)(*args, **self.kwargs, **dask_kwargs)
        if self.pick == "all":  # every result (a tuple of arrays, or one array), as NumPy arrays
            return tuple(o._data for o in out) if isinstance(out, tuple) else (out._data,)
        if self.pick is not None:
            out = out[self.pick]
        data = out._data if type(out) is Array else out
        return data if type(data) is _ndarray and data.dtype == self.result else np.asarray(data, dtype=self.result)

    def __dask_tokenize__(self):
        return (
            type(self).__name__,
            self.policy.name,
            id(self.policy),
            self.api_version,
            self.method,
            repr(self.template),
            repr(sorted(self.kwargs.items())),
            self.pick,
            str(self.result),
        )

    def __reduce__(self):
        policy = self.policy.name if _registered(self.policy) else self.policy
        state = (policy, self.api_version, self.method, self.template, self.kwargs, self.result, self.pick)
        return (_unpickle_block, state)


def _unpickle_block(policy, api_version, method, template, kwargs, result, pick):
    block = object.__new__(_Block)
    block.policy = get_policy(policy)
    block.api_version, block.method, block.template = api_version, method, template
    block.kwargs, block.result, block.pick = kwargs, result, pick
    return block


def _registered(policy) -> bool:
    try:
        return get_policy(policy.name) is policy
    except (TypeError, ValueError):
        return False


def _fill(entry, blocks, host):
    if type(entry) is list:
        return [_fill(e, blocks, host) for e in entry]
    if type(entry) is tuple and len(entry) == 2 and type(entry[0]) is D.DType:
        block = next(blocks)
        return Array._new(np.asarray(block, dtype=entry[0].numpy), entry[0], host, entry[1])
    return entry[1]


def _filled(shape, dtype, matrices=False, integer=0) -> np.ndarray:
    """A meta's values: ``integer`` for integers (0: valid indices; 1: a divisor that a policy
    refusing division by zero accepts), 1 otherwise, identity matrices for linalg (invertible);
    the host checks types and shapes, not these values."""
    if dtype.category == D.CATEGORY_INTEGER:
        return np.full(shape, integer, dtype=dtype.numpy)
    if matrices and len(shape) >= 2:
        block = np.zeros(shape, dtype=dtype.numpy)
        n = min(shape[-2:])
        block[..., range(n), range(n)] = 1
        return block
    return np.ones(shape, dtype=dtype.numpy)


def _chunks(shape, chunks):
    """``chunks`` for an array of ``shape``: one chunk for an empty one (dask's "auto" divides by its
    zero size)."""
    if isinstance(chunks, str) and any(s == 0 for s in shape):
        return tuple(shape)
    return chunks


def _plain_slices(key):
    """``key`` with each slice's bounds as ints: 0-d integer arrays (``x[start:stop]``) have ``__index__``,
    which dask does not call."""
    if type(key) is slice:
        return slice(
            *(v if v is None or type(v) is int else operator.index(v) for v in (key.start, key.stop, key.step))
        )
    if type(key) is tuple:
        return tuple(_plain_slices(k) if type(k) is slice else k for k in key)
    return key


def _meta_shape(shape) -> tuple:
    if 0 in shape:  # an empty array's meta is its own shape (no memory), for the host's words
        return tuple(shape)
    return tuple(0 if s == 0 else 1 for s in shape)


def _size_classes(shapes, keep=4) -> dict:
    """Small stand-ins for the sizes of ``shapes`` that keep what shape checks compare: 0, 1 and
    sizes up to ``keep`` as they are, every other size a distinct ``keep + 1``, ``keep + 2``, ...
    in order (equal sizes stay equal, different ones different)."""
    large = sorted({s for shape in shapes for s in shape if s > keep})
    return {**{s: s for shape in shapes for s in shape if s <= keep}, **{s: keep + 1 + i for i, s in enumerate(large)}}


def _known(shape) -> bool:
    return all(not (isinstance(s, float) and math.isnan(s)) for s in shape)


def _letters(n: int, start: int = 0) -> tuple:
    return tuple(range(start, start + n))


class DaskRuntime(Runtime):
    """The functions of the standard over dask arrays, decided by the host namespace (see the module)."""

    storage = "dask"
    storage_functions = ("compute", "persist")  # in the namespace beside the standard's

    def __init__(self, policy, api_version: str):
        super().__init__(policy, api_version)
        self._fast = _NeverFast()
        self._host = _host_of(policy, api_version)
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
        return (_unpickle_dask_array, (x._data, self.policy.name, self.api_version, x._device))

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
            block = _filled(_meta_shape(data.shape), x._dtype, integer=integer)
        return Array._new(block, x._dtype, self._host, x._device)

    def _metas(self, value, func, arg, integer=0):
        """``value`` with each of our arrays (also inside a list or tuple) replaced by its meta."""
        t = type(value)
        if t is Array:
            return self._meta(self._check_array(value, func, arg), integer)
        if t is list or t is tuple:
            return t(self._metas(v, func, arg, integer) for v in value)
        return value

    def _decide(self, method, args, kwargs, func, names=None, shapes=False):
        """The host's result of ``method`` on the metas of ``args``: the dtypes and the refusals.

        ``shapes``: for a function that compares its operands' sizes (contractions, searchsorted),
        metas whose sizes keep those comparisons (``_size_classes``, arrays among ``kwargs`` too); a
        refusal is asked again of the host on views of the real shapes (no memory), so that its
        words quote the real sizes."""
        names = names or [f"x{i + 1}" if len(args) > 1 else "x" for i in range(len(args))]
        named = [*zip(args, names), *((v, k) for k, v in kwargs.items())]
        arrays = [self._check_array(a, func, n) for a, n in named if type(a) is Array]
        if not shapes or not all(_known(a._data.shape) for a in arrays):
            metas = [self._metas(a, func, n) for a, n in named]
            try:
                return getattr(self._host, method)(*metas[: len(args)], **dict(zip(kwargs, metas[len(args) :])))
            except ZeroDivisionError:  # the metas' zeros, not the data's: each block checks its own divisor
                metas = [self._metas(a, func, n, integer=1) for a, n in named]
                return getattr(self._host, method)(*metas[: len(args)], **dict(zip(kwargs, metas[len(args) :])))
        sizes = _size_classes([a._data.shape for a in arrays])

        def meta(a, n):
            if type(a) is not Array:
                return a
            return Array._new(
                _filled(tuple(sizes[k] for k in a._data.shape), a._dtype), a._dtype, self._host, a._device
            )

        def call(stand_in):
            metas = [stand_in(a, n) for a, n in named]
            return getattr(self._host, method)(*metas[: len(args)], **dict(zip(kwargs, metas[len(args) :])))

        try:
            return call(meta)
        except (TypeError, ValueError, IndexError) as exc:
            call(lambda a, n: self._view_meta(a, func, n) if type(a) is Array else a)  # raises as on the real shapes
            raise exc

    def _template(self, args):
        """``_Block``'s template of ``args`` and the dask arrays it takes, in order."""
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
            chunks = _chunks(out._data.shape, chunks)
            return self._wrap(da.from_array(out._data, chunks=chunks), out._dtype, out._device)
        return type(out)(self._from_host(o, chunks) for o in out)

    # -- blockwise: elementwise functions, operators, where, clip, astype ---------------------------
    def _blockwise(self, method, args, kwargs, result: Array, func, shapes=None) -> Array:
        template, datas = self._template(args)
        if shapes is None:
            shapes = [d.shape for d in datas]
        for i in range(1, len(shapes)):
            if _known(shapes[0]) and _known(shapes[i]):
                _check_broadcast(func, shapes[0], shapes[i])
        rnp = result._data.dtype
        if not datas:  # Python scalars only: the host's 0-d result
            return self._from_host(result)
        ndim = max(d.ndim for d in datas)
        pairs = []
        for d in datas:
            pairs += [d, _letters(d.ndim, ndim - d.ndim)]
        block = _Block(self, method, template, kwargs, rnp)
        out = da.blockwise(
            block,
            _letters(ndim),
            *pairs,
            dtype=rnp,
            align_arrays=True,
            meta=np.empty((0,) * ndim, rnp),
            name=f"{func}-{dask.base.tokenize(block, *datas)}",
        )
        return self._wrap(out, result._dtype, result._device)

    def _apply2(self, name, x1, x2, operator):
        if name == "matmul" and type(x1) is Array and type(x2) is Array:
            return self.matmul(x1, x2)
        result = self._decide("_apply2", (name, x1, x2, operator), {}, name, ("name", "x1", "x2", "operator"))
        if result is NotImplemented:
            return result
        return self._blockwise("_apply2", (name, x1, x2, operator), {}, result, name)

    def _apply1(self, name, x):
        result = self._decide("_apply1", (name, x), {}, name, ("name", "x"))
        return self._blockwise("_apply1", (name, x), {}, result, name)

    def _apply_scalar_pair(self, name, x1, x2):
        return self._from_host(self._host._apply_scalar_pair(name, x1, x2))

    def _inplace(self, name, x1, x2):
        """``x1 <op>= x2``: the host's checks on the metas, then ``x1`` holds the new lazy result."""
        x1 = self._check_array(x1, name, "x1")
        result = self._apply2(name, x1, x2, True)  # the result's dtype, refusals and broadcasting
        if result is NotImplemented:
            return result
        if result._dtype is not x1._dtype:  # the cast back, as the host asks its policy
            self.policy.inplace_result(f"{name} (in-place)", result._dtype, x1._dtype)
        if type(x2) is Array and _known(x1.shape) and _known(x2.shape):
            shape = np.broadcast_shapes(x1._data.shape, x2._data.shape)
            if shape != x1._data.shape:
                raise ValueError(
                    f"{name} (in-place): broadcasting would change the shape of x1 from {x1._data.shape} to {shape}"
                )
        data = result._data
        if result._dtype is not x1._dtype:
            data = self.astype(result, x1._dtype)._data
        x1._data = data  # copy-on-write: views taken before keep the old values
        return x1

    def clip(self, x, /, min=None, max=None):
        result = self._decide("clip", (x, min, max), {}, "clip", ("x", "min", "max"))
        return self._blockwise("clip", (x, min, max), {}, result, "clip")

    def where(self, condition, x1, x2, /):
        args = (condition, x1, x2)
        result = self._decide("where", args, {}, "where", ("condition", "x1", "x2"))
        shapes = [a._data.shape for a in args if type(a) is Array]
        for s in shapes[1:]:
            if _known(s) and _known(shapes[0]):
                try:
                    np.broadcast_shapes(*[t for t in shapes if _known(t)])
                except ValueError:
                    raise ValueError(f"where: shapes {', '.join(map(str, shapes))} do not broadcast") from None
        return self._blockwise("where", args, {}, result, "where", shapes=[])

    def astype(self, x, dtype, /, *, copy=True, device=None):
        result = self._decide("astype", (x, dtype), {"copy": copy, "device": device}, "astype", ("x", "dtype"))
        if result._dtype is x._dtype and result._device is x._device and not copy:
            return x
        if result._dtype is x._dtype:
            return self._wrap(x._data, x._dtype, result._device)  # dask arrays are never written in place
        block_device = x._device
        out = self._blockwise("astype", (x, dtype), {"copy": True}, result, "astype")
        return self._wrap(out._data, result._dtype, result._device if device is not None else block_device)

    def result_type(self, *arrays_and_dtypes):
        return self._host.result_type(*(self._metas(a, "result_type", "arrays_and_dtypes") for a in arrays_and_dtypes))

    # -- creation ------------------------------------------------------------------------------
    def asarray(self, obj, /, *, dtype=None, device=None, copy=None, chunks="auto"):
        func = "asarray"
        if type(obj) is Array and getattr(obj._runtime, "storage", "") == "dask":
            self._check_array(obj, func, "obj")
            result = self._decide("asarray", (obj,), {"dtype": dtype, "device": device, "copy": copy}, func, ("obj",))
            if result._dtype is not obj._dtype:
                return self.astype(obj, result._dtype, device=result._device)
            if not copy and result._device is obj._device:
                return obj  # no copy: the array itself, whose later writes (copy-on-write) it then sees
            return self._wrap(obj._data, obj._dtype, result._device)
        if isinstance(obj, da.Array):
            meta = np.ones(_meta_shape(obj.shape), dtype=obj.dtype)
            result = self._host.asarray(meta, dtype=dtype, device=device, copy=copy)
            data = obj if obj.dtype == result._data.dtype else obj.astype(result._data.dtype)
            return self._wrap(data, result._dtype, result._device)
        return self._from_host(self._host.asarray(obj, dtype=dtype, device=device, copy=copy), chunks)

    def _constant(self, maker, shape, dtype, device, chunks, func, fill=None):
        shape = _check_shape(shape, func)
        chunks = _chunks(shape, chunks)
        kwargs = {"dtype": dtype, "device": device}
        probe = self._host.full((), fill, **kwargs) if maker == "full" else getattr(self._host, maker)((), **kwargs)
        rnp = probe._data.dtype
        if maker == "full":
            data = da.full(shape, probe._data[()], dtype=rnp, chunks=chunks)
        else:
            data = getattr(da, maker)(shape, dtype=rnp, chunks=chunks)
        return self._wrap(data, probe._dtype, probe._device)

    def zeros(self, shape, *, dtype=None, device=None, chunks="auto"):
        return self._constant("zeros", shape, dtype, device, chunks, "zeros")

    def ones(self, shape, *, dtype=None, device=None, chunks="auto"):
        return self._constant("ones", shape, dtype, device, chunks, "ones")

    def empty(self, shape, *, dtype=None, device=None, chunks="auto"):
        return self._constant("empty", shape, dtype, device, chunks, "empty")

    def full(self, shape, fill_value, *, dtype=None, device=None, chunks="auto"):
        return self._constant("full", shape, dtype, device, chunks, "full", fill_value)

    def _like(self, maker, x, dtype, device, chunks, fill=None):
        x = self._check_array(x, f"{maker}_like")
        probe = self._decide(
            f"{maker}_like",
            (x,),
            {"dtype": dtype, "device": device} | ({"fill_value": fill} if maker == "full" else {}),
            f"{maker}_like",
        )
        rnp = probe._data.dtype
        chunks = x._data.chunks if chunks is None else chunks
        if not _known(x._data.shape):
            raise ValueError(f"{maker}_like: x has an unknown shape {x.shape}; compute it first")
        if maker == "full":
            data = da.full(x._data.shape, probe._data.ravel()[0] if probe._data.size else 0, dtype=rnp, chunks=chunks)
        else:
            data = getattr(da, maker)(x._data.shape, dtype=rnp, chunks=chunks)
        return self._wrap(data, probe._dtype, probe._device)

    def zeros_like(self, x, /, *, dtype=None, device=None, chunks=None):
        return self._like("zeros", x, dtype, device, chunks)

    def ones_like(self, x, /, *, dtype=None, device=None, chunks=None):
        return self._like("ones", x, dtype, device, chunks)

    def empty_like(self, x, /, *, dtype=None, device=None, chunks=None):
        return self._like("empty", x, dtype, device, chunks)

    def full_like(self, x, /, fill_value, *, dtype=None, device=None, chunks=None):
        return self._like("full", x, dtype, device, chunks, fill_value)

    def arange(self, start, /, stop=None, step=1, *, dtype=None, device=None, chunks="auto"):
        first, last, n = self._arange_extent(start, stop, step)
        if n <= _SMALL:
            return self._from_host(self._host.arange(start, stop, step, dtype=dtype, device=device), chunks)
        # The host's checks (types, dtype, the range of the values) on the first and last values.
        half = any(type(v) is float for v in (start, stop, step))
        self._host.arange(last, last + step / 2 if half else last + step, step, dtype=dtype, device=device)
        probe = self._host.arange(first, first + step / 2 if half else first + step, step, dtype=dtype, device=device)
        rnp = probe._data.dtype
        data = da.arange(first, first + n * step, step, dtype=rnp, chunks=chunks)[:n]
        return self._wrap(data, probe._dtype, probe._device)

    @staticmethod
    def _arange_extent(start, stop, step):
        """The first and last values and the length of ``arange`` (or ``(start, start, 0)`` when the
        arguments are not plain numbers: the host refuses them in its words)."""
        if stop is None:
            start, stop = 0, start
        if not all(type(v) in (int, float) for v in (start, stop, step)) or step == 0:
            return start, start, 0
        if all(type(v) is int for v in (start, stop, step)):
            n = max(0, -((start - stop) // step))
        elif not all(math.isfinite(v) for v in (start, stop, step)):
            return start, start, 0
        else:
            n = max(0, math.ceil((stop - start) / step))
        return start, start + (n - 1) * step, n

    def linspace(self, start, stop, /, num, *, dtype=None, device=None, endpoint=True, chunks="auto"):
        if type(num) is not int or num <= _SMALL:
            return self._from_host(
                self._host.linspace(start, stop, num, dtype=dtype, device=device, endpoint=endpoint), chunks
            )
        probe = self._host.linspace(start, stop, 2, dtype=dtype, device=device, endpoint=endpoint)
        rnp = probe._data.dtype
        if probe._dtype.category == D.CATEGORY_COMPLEX:
            start, stop = complex(start), complex(stop)
            real = da.linspace(start.real, stop.real, num, endpoint=endpoint, chunks=chunks, dtype=np.float64)
            imag = da.linspace(start.imag, stop.imag, num, endpoint=endpoint, chunks=chunks, dtype=np.float64)
            data = (real + 1j * imag).astype(rnp)
        else:
            data = da.linspace(start, stop, num, endpoint=endpoint, chunks=chunks, dtype=np.float64)
            data = (da.floor(data) if probe._dtype.category == D.CATEGORY_INTEGER else data).astype(rnp)
        return self._wrap(data, probe._dtype, probe._device)

    def eye(self, n_rows, n_cols=None, /, *, k=0, dtype=None, device=None, chunks="auto"):
        cols = n_rows if n_cols is None else n_cols
        if type(n_rows) is not int or type(cols) is not int or n_rows * cols <= _SMALL:
            return self._from_host(self._host.eye(n_rows, n_cols, k=k, dtype=dtype, device=device), chunks)
        probe = self._host.eye(min(n_rows, 1), min(cols, 1), k=k, dtype=dtype, device=device)
        data = da.eye(n_rows, M=cols, k=k, dtype=probe._data.dtype, chunks=chunks)
        return self._wrap(data, probe._dtype, probe._device)

    def _triangle(self, x, k, numpy_func, func):
        result = self._decide(func, (x,), {"k": k}, func)
        data = x._data
        rows, cols = data.shape[-2], data.shape[-1]
        keep = da.tri(rows, cols, k=k if func == "tril" else k - 1, dtype=bool, chunks=data.chunks[-2:])
        if func == "triu":
            keep = ~keep
        out = da.where(keep, data, da.zeros((), dtype=data.dtype))
        return self._wrap(out.astype(result._data.dtype), result._dtype, result._device)

    def meshgrid(self, *arrays, indexing="xy"):
        results = self._decide("meshgrid", arrays, {"indexing": indexing}, "meshgrid", ["arrays"] * len(arrays))
        datas = da.meshgrid(*(a._data for a in arrays), indexing=indexing)
        return type(results)(self._wrap(d, r._dtype, r._device) for d, r in zip(datas, results))

    def from_dlpack(self, x, /, *, device=None, copy=None):
        if type(x) is Array:
            x = np.asarray(x)  # our own arrays (of either storage) export through NumPy's buffer
        return self._from_host(self._host.from_dlpack(x, device=device, copy=copy))

    def fft_fftfreq(self, n, /, *, d=1.0, dtype=None, device=None):
        return self._from_host(self._host.fft_fftfreq(n, d=d, dtype=dtype, device=device))

    def fft_rfftfreq(self, n, /, *, d=1.0, dtype=None, device=None):
        return self._from_host(self._host.fft_rfftfreq(n, d=d, dtype=dtype, device=device))

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
        chunks = tuple(c[0] if len(c) and _known(c) else None for c in data.chunks)
        extra = "" if x._device is CPU else f", device={x._device.name}"
        tail = "" if self.policy.name == "array_api" else f", policy={self.policy.name}"
        return f"Array(<dask shape={shape}, chunksize={chunks}>, dtype={x._dtype.name}{extra}{tail})"

    # -- reductions -------------------------------------------------------------------------------
    def _reduce(self, method, x, axis, keepdims, kwargs, aggregate=None, aggregate_kwargs=None):
        result = self._decide(method, (x,), {"axis": axis, "keepdims": keepdims, **kwargs}, method)
        axes = self._normalize_axes(axis, x._data.ndim, method)
        rnp = result._data.dtype
        if not axes:  # nothing to reduce: the host's function on each block
            return self._blockwise(method, (x,), {"axis": axis, "keepdims": keepdims, **kwargs}, result, method)
        chunk = _Block(self, method, [(x._dtype, x._device)], kwargs, rnp)
        combine = _Block(
            self,
            aggregate or method,
            [(result._dtype, result._device)],
            kwargs if aggregate_kwargs is None else aggregate_kwargs,
            rnp,
        )
        out = da.reduction(
            x._data,
            chunk,
            combine,
            axis=axes,
            keepdims=keepdims,
            dtype=rnp,
            concatenate=True,
            meta=np.empty((0,) * (x._data.ndim if keepdims else x._data.ndim - len(axes)), rnp),
            name=method,
        )
        return self._wrap(out, result._dtype, result._device)

    def sum(self, x, /, *, axis=None, dtype=None, keepdims=False):
        return self._reduce("sum", x, axis, keepdims, {"dtype": dtype}, aggregate_kwargs={"dtype": dtype})

    def prod(self, x, /, *, axis=None, dtype=None, keepdims=False):
        return self._reduce("prod", x, axis, keepdims, {"dtype": dtype}, aggregate_kwargs={"dtype": dtype})

    def max(self, x, /, *, axis=None, keepdims=False):
        return self._reduce("max", x, axis, keepdims, {})

    def min(self, x, /, *, axis=None, keepdims=False):
        return self._reduce("min", x, axis, keepdims, {})

    def all(self, x, /, *, axis=None, keepdims=False):
        return self._reduce("all", x, axis, keepdims, {})

    def any(self, x, /, *, axis=None, keepdims=False):
        return self._reduce("any", x, axis, keepdims, {})

    def count_nonzero(self, x, /, *, axis=None, keepdims=False):
        result = self._decide("count_nonzero", (x,), {"axis": axis, "keepdims": keepdims}, "count_nonzero")
        return self._reduce(
            "count_nonzero", x, axis, keepdims, {}, aggregate="sum", aggregate_kwargs={"dtype": result._dtype}
        )

    def _moments(self, method, x, axis, keepdims, correction=None):
        kwargs = {"axis": axis, "keepdims": keepdims}
        if correction is not None:
            kwargs["correction"] = correction
        result = self._decide(method, (x,), kwargs, method)
        axes = self._normalize_axes(axis, x._data.ndim, method)
        rnp = result._data.dtype
        data = x._data.astype(rnp) if x._data.dtype != rnp else x._data
        if not axes:
            return self._blockwise(method, (x,), kwargs, result, method)
        with np.errstate(all="ignore"):
            if method == "mean":
                out = da.mean(data, axis=axes, keepdims=keepdims, dtype=rnp)
            else:
                out = getattr(da, method)(data, axis=axes, keepdims=keepdims, ddof=correction, dtype=rnp)
        return self._wrap(out.astype(rnp), result._dtype, result._device)

    def mean(self, x, /, *, axis=None, keepdims=False):
        return self._moments("mean", x, axis, keepdims)

    def var(self, x, /, *, axis=None, correction=0.0, keepdims=False):
        return self._moments("var", x, axis, keepdims, correction)

    def std(self, x, /, *, axis=None, correction=0.0, keepdims=False):
        return self._moments("std", x, axis, keepdims, correction)

    def _arg_extreme(self, method, x, axis, keepdims):
        result = self._decide(method, (x,), {"axis": axis, "keepdims": keepdims}, method)
        data = x._data
        if data.ndim == 0:
            return self._blockwise(method, (x,), {"axis": axis, "keepdims": keepdims}, result, method)
        out = getattr(da, method)(data, axis=axis, keepdims=keepdims)
        if keepdims and axis is None:
            out = out.reshape((1,) * data.ndim)
        return self._wrap(out.astype(result._data.dtype), result._dtype, result._device)

    def argmax(self, x, /, *, axis=None, keepdims=False):
        return self._arg_extreme("argmax", x, axis, keepdims)

    def argmin(self, x, /, *, axis=None, keepdims=False):
        return self._arg_extreme("argmin", x, axis, keepdims)

    # -- along axes: the host's function on blocks that hold these axes whole -----------------------
    def _along(self, method, args, kwargs, func, core, names=None):
        """The host's ``method`` on blocks whose ``core`` axes are whole.

        Axes count from the array argument of most dimensions; the others are aligned on the
        trailing axes (their batch axes broadcast).  The output keeps the batch axes, with core
        axes of the sizes the host gives on metas that keep the core axes' real sizes: in place
        when it has as many dimensions, else after the batch axes.  Returns the host's result
        structure.
        """
        arrays = [a for a in args if type(a) is Array]
        for a, n in zip(arrays, names or ["x"] * len(arrays)):
            self._check_array(a, func, n)
        ndim = max(a._data.ndim for a in arrays)
        core = tuple(sorted(c % ndim for c in core)) if ndim else ()
        for a in arrays:
            if not _known(a._data.shape):
                raise ValueError(f"{func}: an array of unknown shape {a.shape}; compute it first")
        # Batch axes: 0 or 1 for one array; for several, sizes that keep their broadcasting.
        batch = _size_classes([a._data.shape for a in arrays], keep=1) if len(arrays) > 1 else {}
        metas_args = []
        for a in args:
            if type(a) is Array:
                shape = tuple(
                    s if (i - (a._data.ndim - ndim)) in core else batch.get(s, 0 if s == 0 else 1)
                    for i, s in enumerate(a._data.shape)
                )
                block = _filled(shape, a._dtype, matrices=method.startswith("linalg_"))
                metas_args.append(Array._new(block, a._dtype, self._host, a._device))
            else:
                metas_args.append(self._metas(a, func, "x"))
        result = getattr(self._host, method)(*metas_args, **kwargs)
        outs = result if isinstance(result, tuple) else (result,)
        template, _ = self._template(args)
        pairs = []
        for n, a in enumerate(arrays):
            offset = a._data.ndim - ndim
            own_core = [i for i in range(a._data.ndim) if i - offset in core or i - offset < 0]
            data = a._data.rechunk({i: -1 for i in own_core}) if own_core else a._data
            # Core axes: letters of their own (each block holds them whole); batch axes: aligned.
            pairs += [data, tuple(1000 * (n + 1) + i if i in own_core else i - offset for i in range(a._data.ndim))]
        batch = [i for i in range(ndim) if i not in core]
        pieces = []
        for k, out in enumerate(outs):
            oshape = out._data.shape
            if len(oshape) == ndim:  # core axes stay where they are, of the host's sizes
                out_ind = tuple(300 + i if i in core else i for i in range(ndim))
                new_axes = {300 + i: oshape[i] for i in core}
            else:  # the batch axes, then the host's core axes
                nb = len(batch)
                out_ind = tuple(batch) + tuple(300 + j for j in range(len(oshape) - nb))
                new_axes = {300 + j: oshape[nb + j] for j in range(len(oshape) - nb)}
            rnp = out._data.dtype
            block = _Block(self, method, template, kwargs, rnp, pick=k if isinstance(result, tuple) else None)
            data = da.blockwise(
                block,
                out_ind,
                *pairs,
                dtype=rnp,
                new_axes=new_axes,
                concatenate=True,
                align_arrays=True,
                meta=np.empty((0,) * len(oshape), rnp),
            )
            pieces.append(self._wrap(data, out._dtype, out._device))
        if not isinstance(result, tuple):
            return pieces[0]
        return type(result)(*pieces) if hasattr(result, "_fields") else tuple(pieces)

    # -- shapes: the host checks on shape-faithful metas (broadcast views, no memory) ---------------
    def _view_meta(self, x, func, arg="x") -> Array:
        x = self._check_array(x, func, arg)
        shape = x._data.shape
        if not _known(shape):
            raise ValueError(f"{func}: {arg} has an unknown shape {x.shape}; compute it first")
        block = np.broadcast_to(np.ones((), dtype=x._dtype.numpy), shape)
        return Array._new(block, x._dtype, self._host, x._device)

    def broadcast_to(self, x, /, shape):
        result = self._host.broadcast_to(self._view_meta(x, "broadcast_to"), shape)
        return self._wrap(da.broadcast_to(x._data, result._data.shape), result._dtype, result._device)

    def broadcast_arrays(self, *arrays):
        results = self._host.broadcast_arrays(*(self._view_meta(a, "broadcast_arrays", "arrays") for a in arrays))
        return type(results)(
            self._wrap(da.broadcast_to(a._data, r._data.shape), r._dtype, r._device) for a, r in zip(arrays, results)
        )

    def expand_dims(self, x, /, axis):
        result = self._host.expand_dims(self._view_meta(x, "expand_dims"), axis)
        return self._wrap(x._data.reshape(result._data.shape), result._dtype, result._device)

    def squeeze(self, x, /, axis):
        result = self._host.squeeze(self._view_meta(x, "squeeze"), axis)
        return self._wrap(x._data.reshape(result._data.shape), result._dtype, result._device)

    def reshape(self, x, /, shape, *, copy=None):
        result = self._host.reshape(self._view_meta(x, "reshape"), shape, copy=copy)
        data, shape = x._data, result._data.shape
        try:
            out = data.reshape(shape)
        except NotImplementedError:  # dask splits dimensions only evenly: through one dimension first
            flat = data.rechunk({i: -1 for i in range(1, data.ndim)}) if data.ndim > 1 else data
            out = flat.reshape(-1).reshape(shape)
        return self._wrap(out, result._dtype, result._device)

    def permute_dims(self, x, /, axes):
        self._host.permute_dims(self._view_meta(x, "permute_dims"), axes)
        return self._wrap(da.transpose(x._data, tuple(a % x._data.ndim for a in axes)), x._dtype, x._device)

    def moveaxis(self, x, source, destination, /):
        self._host.moveaxis(self._view_meta(x, "moveaxis"), source, destination)
        return self._wrap(da.moveaxis(x._data, source, destination), x._dtype, x._device)

    def matrix_transpose(self, x, /):
        self._host.matrix_transpose(self._view_meta(x, "matrix_transpose"))
        return self._wrap(da.swapaxes(x._data, -1, -2), x._dtype, x._device)

    linalg_matrix_transpose = matrix_transpose

    def flip(self, x, /, *, axis=None):
        self._host.flip(self._view_meta(x, "flip"), axis=axis)
        axes = self._normalize_axes(axis, x._data.ndim, "flip")
        return self._wrap(da.flip(x._data, axes) if axes else x._data, x._dtype, x._device)

    def unstack(self, x, /, *, axis=0):
        results = self._host.unstack(self._view_meta(x, "unstack"), axis=axis)
        axis = self._normalize_axis(axis, x._data.ndim, "unstack")
        index = (slice(None),) * axis
        return tuple(self._wrap(x._data[index + (i,)], r._dtype, r._device) for i, r in enumerate(results))

    def linalg_diagonal(self, x, /, *, offset=0):
        result = self._host.linalg_diagonal(self._view_meta(x, "linalg.diagonal"), offset=offset)
        out = da.diagonal(x._data, offset=offset, axis1=-2, axis2=-1)
        return self._wrap(out.reshape(result._data.shape), result._dtype, result._device)

    def roll(self, x, /, shift, *, axis=None):
        result = self._decide("roll", (x,), {"shift": shift, "axis": axis}, "roll")
        return self._wrap(da.roll(x._data, shift, axis=axis), result._dtype, result._device)

    def tile(self, x, repetitions, /):
        result = self._host.tile(self._meta(self._check_array(x, "tile")), repetitions)
        reps = tuple(repetitions)
        data = x._data
        if len(reps) > data.ndim:
            data = data.reshape((1,) * (len(reps) - data.ndim) + data.shape)
        return self._wrap(da.tile(data, reps), result._dtype, result._device)

    def repeat(self, x, repeats, /, *, axis=None):
        result = self._decide("repeat", (x, repeats), {"axis": axis}, "repeat", ("x", "repeats"))
        data = x._data if axis is not None else x._data.ravel()
        ax = 0 if axis is None else self._normalize_axis(axis, x._data.ndim, "repeat")
        if type(repeats) is not Array:
            if data.shape[ax] == 0 or repeats == 0:  # dask cannot repeat into nothing: an empty result
                shape = data.shape[:ax] + (data.shape[ax] * repeats,) + data.shape[ax + 1 :]
                return self._wrap(da.zeros(shape, dtype=data.dtype), result._dtype, result._device)
            return self._wrap(da.repeat(data, repeats, axis=ax), result._dtype, result._device)
        # Array repeats: the size depends on their values, so it is unknown until computed.
        whole = data.rechunk({ax: -1})
        count = repeats._data
        block = _Block(
            self, "repeat", [(x._dtype, x._device), (repeats._dtype, repeats._device)], {"axis": ax}, result._data.dtype
        )
        out = da.blockwise(
            block,
            _letters(whole.ndim, 0)[:ax] + (300,) + _letters(whole.ndim)[ax + 1 :],
            whole,
            _letters(whole.ndim),
            count.rechunk(-1),
            (500,),
            dtype=result._data.dtype,
            new_axes={300: np.nan},
            concatenate=True,
            meta=np.empty((0,) * whole.ndim, result._data.dtype),
        )
        return self._wrap(out, result._dtype, result._device)

    def _joined(self, arrays, func):
        if not isinstance(arrays, (list, tuple)):
            raise TypeError(f"{func}: arrays must be a list or tuple of arrays, got {type(arrays).__name__}")
        return [self._check_array(a, func, "arrays") for a in arrays]

    def concat(self, arrays, /, *, axis=0):
        arrays = self._joined(arrays, "concat")
        result = self._host.concat([self._meta(a) for a in arrays], axis=axis)
        datas = [a._data if a._data.dtype == result._data.dtype else a._data.astype(result._data.dtype) for a in arrays]
        if axis is None:
            datas = [d.ravel() for d in datas]
            axis = 0
        shapes = [d.shape for d in datas]
        ax = self._normalize_axis(axis, len(shapes[0]), "concat")
        for s in shapes[1:]:
            if _known(s) and _known(shapes[0]) and s[:ax] + s[ax + 1 :] != shapes[0][:ax] + shapes[0][ax + 1 :]:
                raise ValueError(
                    f"concat: shapes {', '.join(map(str, shapes))} differ outside axis {axis}; only the joined axis may"
                )
        return self._wrap(da.concatenate(datas, axis=ax), result._dtype, result._device)

    def stack(self, arrays, /, *, axis=0):
        arrays = self._joined(arrays, "stack")
        result = self._host.stack([self._meta(a) for a in arrays], axis=axis)
        shapes = {a._data.shape for a in arrays}
        if len(shapes) > 1:
            raise ValueError(f"stack: all arrays must have the same shape, got {', '.join(map(str, shapes))}")
        datas = [a._data if a._data.dtype == result._data.dtype else a._data.astype(result._data.dtype) for a in arrays]
        ax = self._normalize_axis(axis, arrays[0]._data.ndim + 1, "stack")
        return self._wrap(da.stack(datas, axis=ax), result._dtype, result._device)

    # -- cumulative functions and diff ---------------------------------------------------------------
    def _cumulative_dask(self, func, x, axis, dtype, include_initial):
        kwargs = {"axis": axis, "dtype": dtype, "include_initial": include_initial}
        result = self._decide(func, (x,), kwargs, func)
        ndim = x._data.ndim
        ax = 0 if axis is None else self._normalize_axis(axis, ndim, func)
        rnp = result._data.dtype
        data = x._data if x._data.dtype == rnp else self.astype(x, result._dtype)._data
        with np.errstate(over="ignore", invalid="ignore"):
            out = (da.cumsum if func == "cumulative_sum" else da.cumprod)(data, axis=ax, dtype=rnp)
        if include_initial:
            shape = list(data.shape)
            shape[ax] = 1
            start = da.full(tuple(shape), 0 if func == "cumulative_sum" else 1, dtype=rnp)
            out = da.concatenate([start, out], axis=ax)
        return self._wrap(out, result._dtype, result._device)

    def cumulative_sum(self, x, /, *, axis=None, dtype=None, include_initial=False):
        return self._cumulative_dask("cumulative_sum", x, axis, dtype, include_initial)

    def cumulative_prod(self, x, /, *, axis=None, dtype=None, include_initial=False):
        return self._cumulative_dask("cumulative_prod", x, axis, dtype, include_initial)

    def diff(self, x, /, *, axis=-1, n=1, prepend=None, append=None):
        result = self._host.diff(
            self._metas(x, "diff", "x"),
            axis=axis,
            n=n,
            prepend=self._metas(prepend, "diff", "prepend"),
            append=self._metas(append, "diff", "append"),
        )
        rnp = result._data.dtype
        parts = [p._data.astype(rnp) for p in (prepend, x, append) if p is not None]
        ax = self._normalize_axis(axis, x._data.ndim, "diff")
        data = da.concatenate(parts, axis=ax) if len(parts) > 1 else parts[0]
        out = da.diff(data, n=n, axis=ax) if n else data
        return self._wrap(out.astype(rnp), result._dtype, result._device)

    # -- sorting, searching and sets -----------------------------------------------------------------
    def sort(self, x, /, *, axis=-1, descending=False, stable=True):
        kwargs = {"axis": axis, "descending": descending, "stable": stable}
        x = self._check_array(x, "sort")
        return self._along("sort", (x,), kwargs, "sort", (axis,) if x._data.ndim else ())

    def argsort(self, x, /, *, axis=-1, descending=False, stable=True):
        kwargs = {"axis": axis, "descending": descending, "stable": stable}
        x = self._check_array(x, "argsort")
        return self._along("argsort", (x,), kwargs, "argsort", (axis,) if x._data.ndim else ())

    def take_along_axis(self, x, indices, /, *, axis=-1):
        x = self._check_array(x, "take_along_axis")
        indices = self._check_array(indices, "take_along_axis", "indices")
        return self._along(
            "take_along_axis", (x, indices), {"axis": axis}, "take_along_axis", (axis,), ("x", "indices")
        )

    def take(self, x, indices, /, *, axis=None):
        result = self._decide("take", (x, indices), {"axis": axis}, "take", ("x", "indices"))
        data = x._data
        ax = 0 if axis is None else self._normalize_axis(axis, data.ndim, "take")
        index = indices._data
        size = data.shape[ax]
        index = da.where(index < 0, index + size, index) if indices._dtype.name.startswith("int") else index
        out = da.take(data, index.astype(np.intp), axis=ax)
        return self._wrap(out, result._dtype, result._device)

    def nonzero(self, x, /):
        results = self._decide("nonzero", (x,), {}, "nonzero")
        return tuple(
            self._wrap(d.astype(r._data.dtype), r._dtype, r._device) for d, r in zip(da.nonzero(x._data), results)
        )

    def searchsorted(self, x1, x2, /, *, side="left", sorter=None):
        result = self._decide(
            "searchsorted",
            (x1, x2),
            {
                "side": side,
                "sorter": sorter,
            },
            "searchsorted",
            ("x1", "x2"),
            shapes=True,
        )
        template, _ = self._template((x1, x2))
        block = _Block(self, "searchsorted", template, {"side": side}, result._data.dtype)
        whole = x1._data.rechunk(-1)
        if sorter is not None:
            whole = da.take(whole, sorter._data.rechunk(-1).astype(np.intp))
        if type(x2) is not Array:  # a Python scalar: a 0-d result from the whole of x1
            out = da.blockwise(
                block,
                (),
                whole,
                (900,),
                dtype=result._data.dtype,
                concatenate=True,
                meta=np.empty((), result._data.dtype),
            )
            return self._wrap(out, result._dtype, result._device)
        n = x2._data.ndim
        out = da.blockwise(
            block,
            _letters(n),
            whole,
            (900,),
            x2._data,
            _letters(n),
            dtype=result._data.dtype,
            concatenate=True,
            meta=np.empty((0,) * n, result._data.dtype),
        )
        return self._wrap(out, result._dtype, result._device)

    def isin(self, x1, x2, /, *, invert=False):
        result = self._decide("isin", (x1, x2), {"invert": invert}, "isin", ("x1", "x2"))
        if type(x2) is not Array:  # a Python scalar x2: the host on each block of x1
            return self._blockwise("isin", (x1, x2), {"invert": invert}, result, "isin", shapes=[])
        if type(x1) is not Array:  # a Python scalar x1: a 0-d result from the whole of x2
            template, _ = self._template((x1, x2))
            block = _Block(self, "isin", template, {"invert": invert}, result._data.dtype)
            other = tuple(900 + i for i in range(x2._data.ndim))
            out = da.blockwise(
                block,
                (),
                x2._data,
                other,
                dtype=result._data.dtype,
                concatenate=True,
                meta=np.empty((), result._data.dtype),
            )
            return self._wrap(out, result._dtype, result._device)
        template, _ = self._template((x1, x2))
        block = _Block(self, "isin", template, {"invert": invert}, result._data.dtype)
        n = x1._data.ndim
        other = tuple(900 + i for i in range(x2._data.ndim))
        out = da.blockwise(
            block,
            _letters(n),
            x1._data,
            _letters(n),
            x2._data,
            other,
            dtype=result._data.dtype,
            concatenate=True,
            meta=np.empty((0,) * n, result._data.dtype),
        )
        return self._wrap(out, result._dtype, result._device)

    def _unique(self, method, x):
        x = self._check_array(x, method)
        results = self._decide(method, (x,), {}, method)
        outs = results if isinstance(results, tuple) else (results,)
        delayed = dask.delayed(_Block(self, method, [(x._dtype, x._device)], {}, None, pick="all"))(x._data)
        pieces = []
        for k, r in enumerate(outs):
            shape = (
                x._data.shape
                if method == "unique_inverse" and k == 1 or (method == "unique_all" and k == 2)
                else (np.nan,)
            )
            item = dask.delayed(operator.getitem)(delayed, k)
            pieces.append(
                self._wrap(
                    da.from_delayed(
                        item, shape=shape, dtype=r._data.dtype, meta=np.empty((0,) * len(shape), r._data.dtype)
                    ),
                    r._dtype,
                    r._device,
                )
            )
        if not isinstance(results, tuple):
            return pieces[0]
        return type(results)(*pieces)

    def unique_values(self, x, /):
        return self._unique("unique_values", x)

    def unique_counts(self, x, /):
        return self._unique("unique_counts", x)

    def unique_inverse(self, x, /):
        return self._unique("unique_inverse", x)

    def unique_all(self, x, /):
        return self._unique("unique_all", x)

    # -- indexing ----------------------------------------------------------------------------------
    def _getitem(self, x, key):
        func = "__getitem__"
        data = x._data
        key = _plain_slices(key)
        keys = key if type(key) is tuple else (key,)
        if all(type(k) in _BASIC for k in keys) and _known(data.shape):
            result = self._host._getitem(self._view_meta(x, func), key)  # the host's checks and words
            out = data[key]
            return self._wrap(
                out.reshape(result._data.shape) if out.shape != result._data.shape else out, x._dtype, x._device
            )
        np_key, mask = self._index_key(x, key, func)
        if (
            mask is not None
            and _known(data.shape)
            and _known(mask.shape)
            and (self._mask_shape_check(data, mask, func) or mask.size == 0)
        ):  # a mask that selects nothing by its size: a known empty result
            return self._wrap(da.zeros((0,) + data.shape[mask.ndim :], dtype=data.dtype), x._dtype, x._device)
        return self._indexed(x, np_key, key, func)

    def _indexed(self, x, np_key, key, func):
        data = x._data
        keys = np_key if type(np_key) is tuple else (np_key,)
        arrays = [k for k in keys if isinstance(k, da.Array)]
        try:
            if len(arrays) > 1 or any(k.ndim != 1 and k.dtype != bool for k in arrays):
                # NumPy's vectorised semantics for several or n-d integer arrays (dask's vindex).
                out = data.vindex[tuple(k.compute() if isinstance(k, da.Array) else k for k in keys)]
            else:
                out = data[np_key]
        except IndexError as exc:
            raise IndexError(f"{func}: {exc} (x has shape {x.shape})") from None
        except (TypeError, ValueError, OverflowError, NotImplementedError) as exc:
            raise IndexError(f"{func}: invalid index {key!r}: {exc}") from None
        return self._wrap(out, x._dtype, x._device)

    def _numpy_scalar_value(self, value, x, func):
        value = super()._numpy_scalar_value(value, x, func)
        if type(value) is Array:  # a 0-d array of the NumPy scalar's dtype, as a dask array
            return self._wrap(da.from_array(value._data), value._dtype, value._device)
        return value

    def _setitem(self, x, key, value):
        func = "__setitem__"
        data = x._data
        np_key, mask = self._index_key(x, key, func)
        v = self._setitem_value(x, value, func)
        if mask is not None and _known(mask.shape) and self._mask_shape_check(data, mask, func):
            return
        keys = key if type(key) is tuple else (key,)
        if all(type(k) in _BASIC for k in keys) and _known(data.shape):
            self._host._getitem(self._view_meta(x, func), key)  # the key's checks, in the host's words
        new = data.copy()
        try:
            new[np_key] = v
        except IndexError as exc:
            raise IndexError(f"{func}: {exc} (x has shape {x.shape})") from None
        except ValueError as exc:
            raise ValueError(
                f"{func}: value of shape {np.shape(v)} cannot be stored into x{_key_repr(key)} (x has shape {x.shape}): {exc}"
            ) from None
        except (TypeError, NotImplementedError) as exc:
            raise IndexError(f"{func}: invalid index {key!r}: {exc}") from None
        x._data = new  # copy-on-write: views taken before keep the old values

    # -- linear algebra ------------------------------------------------------------------------------
    def _contracted(self, func, x1, x2, kwargs, dask_func):
        result = self._decide(func.replace("linalg.", "linalg_"), (x1, x2), kwargs, func, ("x1", "x2"), shapes=True)
        rnp = result._data.dtype
        a, b = (v._data if v._data.dtype == rnp else self.astype(v, result._dtype)._data for v in (x1, x2))
        with np.errstate(all="ignore"):
            out = dask_func(a, b)
        return self._wrap(out.astype(rnp), result._dtype, result._device)

    def matmul(self, x1, x2, /):
        if type(x1) is not Array or type(x2) is not Array:
            return self._apply2("matmul", x1, x2, False)
        return self._contracted("matmul", x1, x2, {}, da.matmul)

    linalg_matmul = matmul

    def tensordot(self, x1, x2, /, *, axes=2):
        return self._contracted("tensordot", x1, x2, {"axes": axes}, lambda a, b: da.tensordot(a, b, axes=axes))

    linalg_tensordot = tensordot

    def vecdot(self, x1, x2, /, *, axis=-1):
        def dot(a, b):
            return da.sum(da.conj(a) * b if np.iscomplexobj(a) else a * b, axis=axis)

        return self._contracted("vecdot", x1, x2, {"axis": axis}, dot)

    linalg_vecdot = vecdot

    def linalg_outer(self, x1, x2, /):
        return self._contracted("linalg.outer", x1, x2, {}, lambda a, b: a[:, None] * b[None, :])

    def linalg_cross(self, x1, x2, /, *, axis=-1):
        return self._along("linalg_cross", (x1, x2), {"axis": axis}, "linalg.cross", (axis,), ("x1", "x2"))

    def linalg_trace(self, x, /, *, offset=0, dtype=None):
        result = self._decide("linalg_trace", (x,), {"offset": offset, "dtype": dtype}, "linalg.trace")
        rnp = result._data.dtype
        diag = da.diagonal(x._data, offset=offset, axis1=-2, axis2=-1)
        return self._wrap(da.sum(diag.astype(rnp), axis=-1, dtype=rnp), result._dtype, result._device)

    def linalg_vector_norm(self, x, /, *, axis=None, keepdims=False, ord=2):
        kwargs = {"axis": axis, "keepdims": keepdims, "ord": ord}
        result = self._decide("linalg_vector_norm", (x,), kwargs, "linalg.vector_norm")
        axes = self._normalize_axes(axis, x._data.ndim, "linalg.vector_norm")
        rnp = result._data.dtype
        with np.errstate(all="ignore"):
            a = da.absolute(x._data).astype(rnp)
            if ord == math.inf:
                out = a.max(axis=axes, keepdims=keepdims) if a.size else da.zeros(result._data.shape, rnp)
            elif ord == -math.inf:
                out = a.min(axis=axes, keepdims=keepdims) if a.size else da.full(result._data.shape, np.inf, rnp)
            elif ord == 0:
                out = da.count_nonzero(a, axis=axes).astype(rnp)
                if keepdims:
                    out = out.reshape(tuple(1 if i in axes else s for i, s in enumerate(a.shape)))
            elif ord == 1:
                out = a.sum(axis=axes, keepdims=keepdims)
            elif ord == 2:
                out = da.sqrt((a * a).sum(axis=axes, keepdims=keepdims))
            else:
                p = rnp.type(ord)
                out = (a**p).sum(axis=axes, keepdims=keepdims) ** (1 / p)
        return self._wrap(out.astype(rnp), result._dtype, result._device)


def _as_runtime_method(method, name: str, doc: str):
    """``method`` as Runtime's ``name``: its name and the standard's signature, for introspection."""
    method.__name__ = method.__qualname__ = name
    method.__signature__ = inspect.signature(getattr(Runtime, name))
    method.__doc__ = doc
    return method


def _matrix_function(name):
    func = name.replace("linalg_", "linalg.", 1)
    arrays = [p for p in inspect.signature(getattr(Runtime, name)).parameters if p in ("x", "x1", "x2")]

    def method(self, *args, **kwargs):
        # An array argument beside the matrices (pinv's or matrix_rank's rtol) is small: its values, computed.
        kwargs = {k: self.compute(self._check_array(v, func, k)) if type(v) is Array else v for k, v in kwargs.items()}
        axes = (-2, -1)
        if any(type(v) is Array and v.ndim for v in kwargs.values()) and type(args[0]) is Array:
            axes = tuple(range(-args[0].ndim, 0))  # an rtol per matrix of the stack: the whole stack in one block
        return self._along(name, args, kwargs, func, axes, arrays)

    return _as_runtime_method(method, name, f"``{func}``: the host's function on blocks that hold the matrices whole.")


def _fft_function(name):
    func = name.replace("fft_", "fft.", 1)

    def method(self, x, /, **kwargs):
        x = self._check_array(x, func)
        ndim = x._data.ndim
        if "axes" in kwargs or name.endswith("n") or name.endswith("shift"):
            axes = kwargs.get("axes")
            if axes is None:
                s = kwargs.get("s")
                axes = tuple(range(-len(s), 0)) if s is not None else tuple(range(ndim))
            core = tuple(a for a in axes if type(a) is int and -ndim <= a < ndim)
        else:
            axis = kwargs.get("axis", -1)
            core = (axis,) if type(axis) is int and -max(ndim, 1) <= axis < max(ndim, 1) else ()
        if not ndim or len(core) != len(set(c % ndim for c in core)):
            self._decide(name, (x,), kwargs, func)  # the host's refusal, in its words
        return self._along(name, (x,), kwargs, func, core)

    return _as_runtime_method(
        method, name, f"``{func}``: the host's function on blocks that hold the transformed axes whole."
    )


# Every linalg and fft function the class does not define itself: the host's, on whole core axes.
for _name in [n for n in dir(Runtime) if n.startswith(("linalg_", "fft_")) and n not in vars(DaskRuntime)]:
    setattr(DaskRuntime, _name, (_matrix_function if _name.startswith("linalg_") else _fft_function)(_name))
del _name


def _unpickle_dask_array(data, policy_name, api_version, device):
    runtime = namespace(policy_name, api_version, storage="dask")._runtime
    return Array._new(data, D.dtype_of_numpy(data.dtype), runtime, device)
