"""array_api_promo: a drop-in array API namespace over NumPy with pluggable type promotion.

``import array_api_promo as xp`` is the standard's namespace (policy
``array_api``, version 2025.12); ``array_api_promo.torch`` follows PyTorch
2.13's promotion; ``array_api_promo.namespace(policy, api_version)`` makes
any other combination, for built-in and user-written policies alike.
"""

import sys as _sys

from . import promotion
from ._array import Array
from ._devices import CPU, DEVICE1
from ._dtypes import DType
from ._namespace import API_VERSIONS, DEFAULT_API_VERSION, bind as _bind, namespace  # noqa: F401

__version__ = "0.1.0"

_bind(_sys.modules[__name__], "array_api")
from . import torch  # noqa: E402, F401  (the torch namespace: namespace("torch") is this module)

# Package-level extras beyond the standard's names.
__all__ = __all__ + ["Array", "DType", "namespace", "promotion", "CPU", "DEVICE1", "API_VERSIONS"]  # noqa: F821
