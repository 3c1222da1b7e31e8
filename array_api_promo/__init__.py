"""array_api_promo: a drop-in array API namespace over NumPy with pluggable type promotion.

``import array_api_promo as xp`` is the standard's namespace (policy
``array_api``, version 2025.12); ``array_api_promo.torch`` follows PyTorch
2.13's promotion; ``array_api_promo.namespace(policy, api_version)`` makes
any other combination, for built-in and user-written policies alike.

PYTEST_DONT_REWRITE: pytest leaves this package's asserts alone (a pytest plugin's package is
marked for assertion rewriting; the NEP 50 tools import it before pytest starts).
"""

import importlib as _importlib
import importlib.util as _importlib_util
import sys as _sys

from . import promotion
from ._array import Array
from ._devices import CPU, DEVICE1, DEVICE2, NO_FLOAT64, NO_X64
from ._dtypes import DType
from ._namespace import API_VERSIONS, DEFAULT_API_VERSION, bind as _bind, namespace  # noqa: F401
from .audit.warning import NEP50Warning
from .promotion._policy import NoDtypeError, PromotionDifferenceWarning, PromotionError

__version__ = "0.1.0"

_bind(_sys.modules[__name__], "array_api")


def _on_first_use(name: str):
    """The submodule ``name``, run on its first attribute access (importlib's LazyLoader): the torch
    namespace makes the torch policy, whose bfloat16 needs ml_dtypes (about a second to import).
    A module ``__getattr__`` would do the same, but CPython (3.11 to 3.13) does not specialise
    attribute loads on a module that has one: every ``xp.add`` would cost about 18 ns more."""
    fullname = f"{__name__}.{name}"
    if fullname in _sys.modules:
        return _sys.modules[fullname]
    spec = _importlib_util.find_spec(fullname)
    if spec is None or spec.loader is None:  # (a broken install: the import says what is missing)
        return _importlib.import_module(fullname)
    spec.loader = _importlib_util.LazyLoader(spec.loader)
    module = _importlib_util.module_from_spec(spec)
    _sys.modules[fullname] = module
    spec.loader.exec_module(module)
    return module


torch = _on_first_use("torch")


# Package-level extras beyond the standard's names.
__all__ = __all__ + ["Array", "DType", "namespace", "promotion", "CPU", "DEVICE1", "API_VERSIONS"]  # type: ignore[has-type]  # noqa: F821
__all__ += ["DEVICE2", "NO_FLOAT64", "NO_X64"]  # array-api-strict's other devices
__all__ += ["PromotionError", "NoDtypeError", "PromotionDifferenceWarning", "NEP50Warning", "audit"]
