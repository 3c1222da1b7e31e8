"""The array namespace under PyTorch 2.13's promotion rules (policy ``torch``, version 2025.12).

Importable as a module, so ``ARRAY_API_TESTS_MODULE=array_api_promo.torch`` works.
"""

import sys as _sys

from ._namespace import bind as _bind

_bind(_sys.modules[__name__], "torch")
