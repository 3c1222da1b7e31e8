"""What runs on a block, and the shape helpers every group of the Dask runtime uses.

:class:`Block` is the one function dask calls on NumPy blocks: a call of the host namespace
(the NumPy namespace of the runtime's policy and version), picklable so that any scheduler's
workers can run it.  The other names are small pure helpers on shapes and chunks.  Called by
every module of the package; nothing here knows the runtime's class.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _dtypes as D
from .._array import Array
from .._namespace import namespace
from ..promotion import get_policy

__all__ = ["Block", "host_of", "filled", "chunks_for", "meta_shape", "size_classes", "known", "letters"]

_ndarray = np.ndarray


def host_of(policy, api_version):
    """The runtime of the NumPy namespace of ``policy`` at ``api_version``: what decides."""
    return namespace(policy, api_version)._runtime


class Block:
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
        host = host_of(self.policy, self.api_version)
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
    block = object.__new__(Block)
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


def filled(shape, dtype, matrices=False, integer=0) -> np.ndarray:
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


def chunks_for(shape, chunks):
    """``chunks`` for an array of ``shape``: one chunk for an empty one (dask's "auto" divides by its
    zero size)."""
    if isinstance(chunks, str) and any(s == 0 for s in shape):
        return tuple(shape)
    return chunks


def meta_shape(shape) -> tuple:
    """A meta's shape: each dimension 1, or 0 where it is 0; an empty array's meta is its own shape
    (no memory), for the host's words."""
    if 0 in shape:
        return tuple(shape)
    return tuple(0 if s == 0 else 1 for s in shape)


def size_classes(shapes, keep=4) -> dict:
    """Small stand-ins for the sizes of ``shapes`` that keep what shape checks compare: 0, 1 and
    sizes up to ``keep`` as they are, every other size a distinct ``keep + 1``, ``keep + 2``, ...
    in order (equal sizes stay equal, different ones different)."""
    large = sorted({s for shape in shapes for s in shape if s > keep})
    return {**{s: s for shape in shapes for s in shape if s <= keep}, **{s: keep + 1 + i for i, s in enumerate(large)}}


def known(shape) -> bool:
    """Whether every size of a dask shape is known (dask writes an unknown one as NaN)."""
    return all(not (isinstance(s, float) and math.isnan(s)) for s in shape)


def letters(n: int, start: int = 0) -> tuple:
    """``da.blockwise``'s index of ``n`` axes from ``start``: the axes are aligned by these numbers."""
    return tuple(range(start, start + n))
