"""Namespaces: one policy and one API version bound to the function set.

Version gating lives here and only here: ``ADDED_IN`` names every public
name that a later version of the standard introduced; a namespace of an
earlier version does not have it.
"""

from __future__ import annotations

import importlib
import math
import sys
import threading
import types
import weakref

from . import _dtypes as D
from ._array import Array
from ._creation_functions import CreationFunctions
from ._data_type_functions import DataTypeFunctions
from ._devices import Device
from ._elementwise_functions import ElementwiseFunctions
from ._fft import FFTFunctions
from ._indexing_functions import IndexingFunctions
from ._info import InfoFunctions
from ._linear_algebra_functions import LinearAlgebraFunctions
from ._manipulation_functions import ManipulationFunctions
from ._plain_functions import plain_function
from ._runtime import RuntimeBase
from ._searching_functions import SearchingFunctions
from ._set_functions import SetFunctions
from ._sorting_functions import SortingFunctions
from ._statistical_functions import StatisticalFunctions
from ._utility_functions import UtilityFunctions
from .promotion import get_policy

__all__ = ["namespace", "Runtime", "STORAGES", "API_VERSIONS", "DEFAULT_API_VERSION", "ADDED_IN", "POLICY_MODULES"]

API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")
DEFAULT_API_VERSION = "2025.12"

# Built-in policy -> the importable module bound to it at DEFAULT_API_VERSION (for tools
# that take a module name, such as the upstream suite's ARRAY_API_TESTS_MODULE).
POLICY_MODULES = {"array_api": "array_api_promo", "torch": "array_api_promo.torch"}

# Public names introduced after 2021.12 (from the standard's stubs of each version).
ADDED_IN = {
    **dict.fromkeys(["conj", "imag", "real", "isdtype", "take", "complex64", "complex128", "fft"], "2022.12"),
    **dict.fromkeys(
        [
            "__array_namespace_info__",
            "clip",
            "copysign",
            "cumulative_sum",
            "hypot",
            "maximum",
            "minimum",
            "moveaxis",
            "repeat",
            "searchsorted",
            "signbit",
            "tile",
            "unstack",
        ],
        "2023.12",
    ),
    **dict.fromkeys(
        ["count_nonzero", "cumulative_prod", "diff", "nextafter", "reciprocal", "take_along_axis"],
        "2024.12",
    ),
    **dict.fromkeys(["broadcast_shapes", "isin", "linalg.eig", "linalg.eigvals"], "2025.12"),
}
_CONSTANTS = {"e": math.e, "inf": math.inf, "nan": math.nan, "pi": math.pi, "newaxis": None}
_MIXINS = (
    CreationFunctions,
    DataTypeFunctions,
    ElementwiseFunctions,
    IndexingFunctions,
    LinearAlgebraFunctions,
    ManipulationFunctions,
    SearchingFunctions,
    SetFunctions,
    SortingFunctions,
    StatisticalFunctions,
    UtilityFunctions,
    FFTFunctions,
    InfoFunctions,
)


class Runtime(*_MIXINS):  # type: ignore[misc]  # the mixins, one per spec category
    """All functions of the standard, bound to one policy and one API version."""

    def namespace_at(self, api_version: str) -> types.ModuleType:
        """The namespace of this runtime's policy at another ``api_version`` (``__array_namespace__``)."""
        if type(api_version) is not str or api_version not in API_VERSIONS:
            raise ValueError(
                f"__array_namespace__: unsupported api_version {api_version!r}; supported: {', '.join(API_VERSIONS)}"
            )
        return namespace(self.policy, api_version)

    def reduce_array(self, x) -> tuple:
        """``x.__reduce__()``: the array's data and its namespace by policy name and version."""
        return (_unpickle_array, (x._data, self.policy.name, self.api_version, x._device))


def _public_methods():
    names: dict[str, None] = {}  # (ordered, once each)
    for mixin in _MIXINS:
        # a mixin and the mixins it composes (_creation_functions: from data, fills, ranges)
        for part in mixin.__mro__:
            if part is RuntimeBase or not issubclass(part, RuntimeBase):
                continue
            for name, value in vars(part).items():
                if callable(value) and (not name.startswith("_") or name == "__array_namespace_info__"):
                    names[name] = None
    return list(names)


PUBLIC_METHODS = tuple(_public_methods())


def _in_version(name: str, api_version: str) -> bool:
    return ADDED_IN.get(name, "2021.12") <= api_version


def populate(module: types.ModuleType, runtime: Runtime) -> None:
    """Write the namespace's public names onto ``module``."""
    version = runtime.api_version
    sub: dict[str, dict] = {"linalg": {}, "fft": {}}
    names = []
    for name in PUBLIC_METHODS:
        prefix, _, rest = name.partition("_")
        if prefix in sub and rest:
            if _in_version(f"{prefix}.{rest}", version):
                sub[prefix][rest] = plain_function(getattr(runtime, name), rest, f"{module.__name__}.{prefix}")
            continue
        if _in_version(name, version):
            setattr(module, name, plain_function(getattr(runtime, name), name, module.__name__))
            names.append(name)
    for dtype in runtime.dtypes:
        setattr(module, dtype.name, dtype)
        names.append(dtype.name)
    for name, value in _CONSTANTS.items():
        setattr(module, name, value)
        names.append(name)
    for ext in ("linalg", "fft"):
        if not _in_version(ext, version) or not sub[ext]:
            continue
        ext_module = types.ModuleType(f"{module.__name__}.{ext}", f"The {ext} extension of {runtime.label}.")
        for name, func in sub[ext].items():
            setattr(ext_module, name, func)
        ext_module.__all__ = sorted(sub[ext])
        setattr(module, ext, ext_module)
        if sys.modules.get(module.__name__) is module:  # importable: array_api_promo.linalg ...
            sys.modules.setdefault(ext_module.__name__, ext_module)
        names.append(ext)
    module.__array_api_version__ = version
    module.Device = Device
    module.__all__ = sorted(set(names))
    module._runtime = runtime
    runtime.module = module


# Namespaces of the package's own policies live as long as the process; those of
# user-written policies only as long as something uses them (the module, its
# functions or arrays), so a program that makes thousands of policies (a
# parametrized test suite) does not keep every namespace it ever made.
_NAMESPACES: dict = {}
_USER_NAMESPACES: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def _is_builtin(policy) -> bool:
    """Whether ``policy`` is one the package itself made (a registered built-in or a torch default-dtype variant)."""
    if not type(policy).__module__.startswith("array_api_promo."):
        return False
    from .promotion import _policy, torch as torch_rules

    return _policy._REGISTRY.get(policy.name) is policy or policy in torch_rules._POLICIES.values()


def _cached(key):
    module = _NAMESPACES.get(key)
    return module if module is not None else _USER_NAMESPACES.get(key)


STORAGES = ("numpy", "dask")
_STORAGE_RUNTIMES = {"dask": ("array_api_promo._dask.runtime", "DaskRuntime")}  # storage -> (module, runtime class)


def namespace(
    policy="array_api", api_version: str = DEFAULT_API_VERSION, *, storage: str = "numpy"
) -> types.ModuleType:
    """The array namespace for ``policy`` (a name or a Policy) at ``api_version``.

    The same (policy, version, storage) always gives the same module object; the
    package itself is the ``array_api`` namespace at 2025.12 and
    ``array_api_promo.torch`` the ``torch`` one.  ``storage="dask"`` keeps arrays as
    chunked, lazy ``dask.array`` arrays (the ``dask`` extra); the policy decides alike.
    """
    try:
        policy = get_policy(policy)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"namespace: {exc}") from None
    if type(api_version) is not str or api_version not in API_VERSIONS:
        raise ValueError(f"namespace: unsupported api_version {api_version!r}; supported: {', '.join(API_VERSIONS)}")
    if type(storage) is not str or storage != "numpy":  # (an array's != would answer elementwise)
        return _storage_namespace(policy, api_version, storage)
    key = (policy, api_version)
    module = _cached(key)
    if module is None and api_version == DEFAULT_API_VERSION and policy.name in POLICY_MODULES and _is_builtin(policy):
        # array_api_promo.torch runs on its first use (the package's LazyLoader): vars() is a use, where
        # an import of a module already in sys.modules is none (CPython 3.10 reads no attribute of it)
        vars(importlib.import_module(POLICY_MODULES[policy.name]))
        module = _cached(key)
    if module is not None:
        return module
    # The package and ``array_api_promo.torch`` registered themselves on import.
    with _CREATING:  # threads asking at once get one module
        module = _cached(key)
        if module is None:
            name = f"array_api_promo[{policy.name},{api_version}]"
            module = types.ModuleType(name, f"Array API namespace: policy {policy.name!r}, version {api_version}.")
            bind(module, policy, api_version)
    return module


_CREATING = threading.Lock()


def _storage_namespace(policy, api_version: str, storage) -> types.ModuleType:
    """The namespace of (policy, version) over a storage other than NumPy's (only ``"dask"``)."""
    if type(storage) is not str or storage not in STORAGES:
        raise ValueError(f"namespace: unknown storage {storage!r}; storages are {', '.join(map(repr, STORAGES))}")
    key = (policy, api_version, storage)
    module = _cached(key)
    if module is not None:
        return module
    namespace(policy, api_version)  # the NumPy namespace it decides by, made first (the lock is not re-entrant)
    with _CREATING:
        module = _cached(key)
        if module is None:
            name = f"array_api_promo[{policy.name},{api_version},{storage}]"
            module = types.ModuleType(
                name, f"Array API namespace: policy {policy.name!r}, version {api_version}, {storage} storage."
            )
            bind(module, policy, api_version, storage=storage)
    return module


def bind(
    module: types.ModuleType,
    policy,
    api_version: str = DEFAULT_API_VERSION,
    *,
    canonical: bool = True,
    storage: str = "numpy",
) -> Runtime:
    """Make ``module`` a namespace of (policy, version, storage) (used by the package modules).

    A canonical module is what ``namespace(policy, api_version, storage=storage)`` returns.
    """
    policy = get_policy(policy)
    if api_version not in API_VERSIONS:
        raise ValueError(f"unsupported api_version {api_version!r}; supported: {', '.join(API_VERSIONS)}")
    if storage == "numpy":
        runtime = Runtime(policy, api_version)
        key: tuple = (policy, api_version)
    elif storage in _STORAGE_RUNTIMES:
        # A storage's module builds on this one (its runtime is a Runtime): it is loaded by name, on first
        # use, so that dask is imported only when its storage is asked for.
        module_name, class_name = _STORAGE_RUNTIMES[storage]
        runtime = getattr(importlib.import_module(module_name), class_name)(policy, api_version)
        key = (policy, api_version, storage)
    else:
        raise ValueError(f"unknown storage {storage!r}; storages are {', '.join(map(repr, STORAGES))}")
    populate(module, runtime)
    for name in getattr(runtime, "storage_functions", ()):  # a storage's own (dask: compute, persist)
        setattr(module, name, plain_function(getattr(runtime, name), name, module.__name__))
        module.__all__ = sorted(module.__all__ + [name])
    if canonical:
        cache = _NAMESPACES if _is_builtin(policy) else _USER_NAMESPACES
        cache[key] = module
    return runtime


def _unpickle_array(data, policy_name, api_version, device):
    runtime = namespace(policy_name, api_version)._runtime
    return Array._new(data, D.dtype_of_numpy(data.dtype), runtime, device)
