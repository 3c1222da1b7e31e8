"""Dask storage: the namespace's arrays as chunked, lazy ``dask.array`` arrays.

``namespace(policy, storage="dask")`` loads :class:`runtime.DaskRuntime` by name (through
``_namespace``'s table of storages), so that dask is imported only when its storage is asked
for.  The runtime decides exactly as the NumPy namespace of the same policy and version, because
it asks that namespace (its *host*): every call is first made on small stand-ins of the operands
(*metas*: NumPy arrays of the operands' dtypes, devices and dimensions, each dimension 1, or 0
where the array is empty), which gives the result dtype, or the refusal with its very words.
Dask then only computes, in one of four ways, one module each:

* ``blockwise``: elementwise functions, operators, ``where``, ``clip`` and ``astype`` run the
  host's own function on each block, so every special value, scalar conversion and quiet cast is
  the NumPy namespace's;
* ``along_axis``: sorting, searching, sets, FFTs, most of linalg, ``take_along_axis`` need whole
  axes: those axes are rechunked to one chunk and the host's function runs on each block;
* ``reductions``: ``sum``, ``prod``, ``max``, ``min``, ``all``, ``any``, ``count_nonzero`` reduce
  each chunk with the host's function and then the chunks' results, in the result dtype (out of
  core, whatever the size); the moments, ``argmax``/``argmin``, the norms and the cumulative
  functions are dask's, in the decided dtype;
* Dask's own functions for the rest, on data already cast to the decided dtype: ``creation``,
  ``manipulation`` (reshaping, joining), ``indexing`` and ``contractions`` (``matmul`` ...).

Beneath them, ``blocks`` holds what runs on a block (the picklable call of the host) and the
shape helpers every group uses, and ``base`` the runtime's common part (identity, metas, the
host's decisions, values); ``runtime`` combines the groups into :class:`DaskRuntime`.

Nothing computes until a value is asked for: ``float(x)``, ``bool(x)``, ``np.asarray(x)``,
``x.__dlpack__()`` or ``compute()``.  Sizes that depend on values (``nonzero``,
``unique_*``, boolean masks) are unknown (``None`` in ``shape``) until then; what needs such a
size says so.  Values that only a computation can check (an out-of-bounds index array, a
singular matrix) raise when the value is computed.
"""

try:
    import dask.array  # noqa: F401  (every module of the package needs it)
except ModuleNotFoundError as exc:  # the extra is not installed: say which one
    raise ModuleNotFoundError(
        f"storage='dask' needs dask, which is not installed ({exc}); install the extra: "
        "pip install 'array_api_promo[dask]'",
        name=exc.name,
    ) from None
