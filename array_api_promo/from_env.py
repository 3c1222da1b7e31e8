"""The namespace named by environment variables, as an importable module.

For tools that take a module name, such as the upstream test suite
(``ARRAY_API_TESTS_MODULE=array_api_promo.from_env``):

* ``ARRAY_API_PROMO_POLICY``: a registered policy name (``array_api``,
  ``torch``) or ``package.module:attribute`` naming a Policy instance (or a
  Policy subclass, instantiated without arguments); default ``array_api``;
* ``ARRAY_API_PROMO_API_VERSION``: the standard's version; default 2025.12;
* ``ARRAY_API_PROMO_STORAGE``: where the arrays' data live: ``numpy`` (the
  default) or ``dask`` (chunked, lazy ``dask.array`` arrays; needs dask), as
  ``namespace(policy, api_version, storage=...)``.
"""

import importlib as _importlib
import os as _os
import sys as _sys

from . import promotion as _promotion
from ._namespace import (
    API_VERSIONS as _API_VERSIONS,
    DEFAULT_API_VERSION as _DEFAULT_API_VERSION,
    STORAGES as _STORAGES,
    bind as _bind,
)


def policy_from_spec(spec: str):
    if ":" not in spec:
        try:
            return _promotion.get_policy(spec)
        except ValueError as exc:
            raise ValueError(f"ARRAY_API_PROMO_POLICY={spec!r}: {exc}") from None
    module_name, _, attribute = spec.partition(":")
    try:
        obj = getattr(_importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise ImportError(
            f"ARRAY_API_PROMO_POLICY={spec!r}: cannot load {attribute!r} from {module_name!r}: {exc}"
        ) from None
    if isinstance(obj, type) and issubclass(obj, _promotion.Policy):
        obj = obj()
    if not isinstance(obj, _promotion.Policy):
        raise TypeError(f"ARRAY_API_PROMO_POLICY={spec!r} names {type(obj).__name__}, not a promotion Policy")
    try:
        return _promotion.get_policy(obj.name) if _promotion.get_policy(obj.name) is obj else obj
    except ValueError:
        return _promotion.register_policy(obj)


def _api_version(version: str) -> str:
    if version not in _API_VERSIONS:
        raise ValueError(
            f"ARRAY_API_PROMO_API_VERSION={version!r}: unsupported version; supported: {', '.join(_API_VERSIONS)}"
        )
    return version


def _storage(name: str) -> str:
    if name not in _STORAGES:
        raise ValueError(
            f"ARRAY_API_PROMO_STORAGE={name!r}: unknown storage; storages are {', '.join(map(repr, _STORAGES))}"
        )
    return name


_bind(
    _sys.modules[__name__],
    policy_from_spec(_os.environ.get("ARRAY_API_PROMO_POLICY", "array_api")),
    _api_version(_os.environ.get("ARRAY_API_PROMO_API_VERSION", _DEFAULT_API_VERSION)),
    canonical=False,
    storage=_storage(_os.environ.get("ARRAY_API_PROMO_STORAGE", "numpy")),
)
