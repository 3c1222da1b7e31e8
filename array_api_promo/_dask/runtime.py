"""The Dask runtime: the groups of the package combined into one runtime.

``_namespace`` loads :class:`DaskRuntime` by name for ``namespace(policy, storage="dask")`` (its
table ``_STORAGE_RUNTIMES``).  Each group overrides the NumPy runtime's methods it computes
differently; whatever no group defines is the NumPy runtime's own, working through the methods
the groups override (``_apply1``/``_apply2`` for the elementwise functions, ``matmul`` for
``linalg.matmul`` ...).  See the package's docstring for the groups.
"""

from __future__ import annotations

from .along_axis import DaskAlongAxis
from .contractions import DaskContractions
from .creation import DaskCreation
from .indexing import DaskIndexing
from .manipulation import DaskManipulation
from .reductions import DaskReductions

__all__ = ["DaskRuntime"]


class DaskRuntime(DaskCreation, DaskManipulation, DaskIndexing, DaskContractions, DaskReductions, DaskAlongAxis):
    """The functions of the standard over dask arrays, decided by the host namespace (see the package)."""
