"""The compiled fast paths (array_api_promo/_fastpath.c), built where a C compiler is; and the one
``.pth`` line that starts the NEP 50 warning mode in any Python process of the environment when
``ARRAY_API_PROMO_NEP50`` is set (array_api_promo/nep50.py; a regular install, not an editable one).

Everything else is in pyproject.toml. The extension is optional: where it cannot be
built, the package runs its Python code alone, with the same results (array_api_promo/_core.py).
It uses NumPy's C API, so NumPy's headers are a build requirement (pyproject.toml).
"""

import os

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

# Run by Python's site module in every process of the environment: one dictionary lookup unless set.
PTH_NAME = "array_api_promo_nep50.pth"
PTH_LINE = (
    'import os; os.environ.get("ARRAY_API_PROMO_NEP50") is None or '
    '__import__("array_api_promo.nep50").nep50.start_from_environment()\n'
)


class BuildPy(build_py):
    """The package, and the .pth line at the top of the wheel (installed into site-packages)."""

    def run(self):
        super().run()
        if not self.editable_mode:
            with open(os.path.join(self.build_lib, PTH_NAME), "w", encoding="utf-8") as f:
                f.write(PTH_LINE)

    def get_outputs(self, include_bytecode=1):
        extra = [] if self.editable_mode else [os.path.join(self.build_lib, PTH_NAME)]
        return [*super().get_outputs(include_bytecode), *extra]


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

setup(ext_modules=ext_modules, cmdclass={"build_py": BuildPy})
