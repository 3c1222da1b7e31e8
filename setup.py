"""The compiled fast paths (array_api_promo/_fastpath.c), built where a C compiler is.

Everything else is in pyproject.toml. The extension is optional: where it cannot be
built, the package runs its Python code alone, with the same results (array_api_promo/_core.py).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("array_api_promo._fastpath", ["array_api_promo/_fastpath.c"], optional=True)])
