"""array_api_promo: a drop-in array API namespace over NumPy with pluggable type promotion.

``import array_api_promo as xp`` is the standard's namespace (policy
``array_api``, version 2025.12); ``array_api_promo.torch`` follows PyTorch
2.13's promotion; ``array_api_promo.namespace(policy, api_version)`` makes
any other combination, for built-in and user-written policies alike.

PYTEST_DONT_REWRITE: pytest leaves this package's asserts alone (a pytest plugin's package is
marked for assertion rewriting; the NEP 50 tools import it before pytest starts).
"""

import importlib as _importlib
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


def __getattr__(name: str):
    # The torch namespace loads on first use: it makes the torch policy, whose bfloat16 needs ml_dtypes.
    if name in ("torch", "audit"):  # audit: a callable module (audit(...) and python -m array_api_promo.audit)
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(globals().keys() | {"torch", "audit"})


# Package-level extras beyond the standard's names.
__all__ = __all__ + ["Array", "DType", "namespace", "promotion", "CPU", "DEVICE1", "API_VERSIONS"]  # type: ignore[has-type]  # noqa: F821
__all__ += ["DEVICE2", "NO_FLOAT64", "NO_X64"]  # array-api-strict's other devices
__all__ += ["PromotionError", "NoDtypeError", "PromotionDifferenceWarning", "NEP50Warning", "audit"]
