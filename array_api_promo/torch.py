"""The array namespace under PyTorch 2.13's promotion rules (policy ``torch``, version 2025.12).

Importable as a module, so ``ARRAY_API_TESTS_MODULE=array_api_promo.torch`` works.
"""

import sys as _sys

from ._namespace import bind as _bind
from .promotion.torch import torch_policy

# The built-in policy itself, not the name's: this module loads on first use, perhaps after
# register_policy(..., replace=True) gave the name "torch" to another policy.
_bind(_sys.modules[__name__], torch_policy())
