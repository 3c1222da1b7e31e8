"""The compiled fast paths (array_api_promo/_fastpath.c), built where a C compiler is.

Everything else is in pyproject.toml. The extension is optional: where it cannot be
built, the package runs its Python code alone, with the same results (array_api_promo/_core.py).
It uses NumPy's C API, so NumPy's headers are a build requirement (pyproject.toml).
"""

from setuptools import Extension, setup

try:
    import numpy
except ImportError:  # a build without NumPy (--no-build-isolation in an environment without it): Python only
    ext_modules = []
else:
    ext_modules = [
        Extension(
            "array_api_promo._fastpath",
            ["array_api_promo/_fastpath.c"],
            include_dirs=[numpy.get_include()],
            optional=True,
        )
    ]

setup(ext_modules=ext_modules)
