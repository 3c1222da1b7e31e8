"""The site hook: in every Python process of a program run under one of the package's tools, start
the tool the environment asks for.

The runners (``python -m array_api_promo.standin``, ``python -m array_api_promo.audit``) put this
folder first on the program's ``PYTHONPATH``, so that Python runs this ``sitecustomize`` at start-up
in the program and in every Python subprocess it starts (pytest-xdist workers included); any other
``sitecustomize`` on the path runs too.  What it starts:

* ``ARRAY_API_PROMO_STANDIN``: ``import array_api_strict`` gives the stand-in (an import hook;
  the namespace is built only when something imports ``array_api_strict``; under the audit,
  ``ARRAY_API_PROMO_AUDIT_AGAINST``, an audited one);
* ``ARRAY_API_PROMO_NEP50`` (the warning mode, ``python -m array_api_promo.nep50``) or
  ``ARRAY_API_PROMO_NUMPY_AUDIT`` (``python -m array_api_promo.audit --numpy``): the NumPy tool
  (``array_api_promo.audit.program.start``: the import hook that rewrites the user's modules, and
  the run of a main script from its rewritten tree).

Kept free of imports of array_api_promo (and NumPy) unless a tool needs them.
"""

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


class ArrayApiStrictStandin(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolves ``array_api_strict`` to ``array_api_promo.standin.make_module()``, ahead of ``sys.path``.

    The module is a package: ``install`` puts its modules (``array_api_strict._array_object``
    ...) in ``sys.modules``; any other ``array_api_strict.X`` is not found, as in array-api-strict.
    """

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "array_api_strict":
            return importlib.machinery.ModuleSpec(fullname, self, origin="array_api_promo.standin", is_package=True)
        if fullname.startswith("array_api_strict.") and "array_api_strict" in sys.modules:
            # a module of the stand-in that was taken out of sys.modules: the stand-in's again
            short = fullname.partition(".")[2]
            if isinstance(getattr(sys.modules["array_api_strict"], short, None), type(sys)):
                return importlib.machinery.ModuleSpec(fullname, self, origin="array_api_promo.standin")
        return None

    def create_module(self, spec):
        if spec.name != "array_api_strict":
            return getattr(sys.modules["array_api_strict"], spec.name.partition(".")[2])
        root = os.environ.get("ARRAY_API_PROMO_STANDIN_ROOT")
        try:
            import array_api_promo  # noqa: F401
        except ImportError:
            if not root:
                raise
            sys.path.append(root)  # after everything: never shadows the program's own modules
        if os.environ.get("ARRAY_API_PROMO_AUDIT_AGAINST"):  # under python -m array_api_promo.audit
            from array_api_promo.audit.namespace import make_standin_module as make_module
        else:
            from array_api_promo.standin import make_module
        return make_module()

    def exec_module(self, module):
        if module.__name__ == "array_api_strict":
            from array_api_promo.standin import install

            install(module)


def _run_next_sitecustomize():
    others = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", others)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


def _start_numpy_tool(against: str, warns: bool):
    """The import hook that rewrites the user's modules (this imports array_api_promo and NumPy)."""
    root = os.environ.get("ARRAY_API_PROMO_STANDIN_ROOT")
    if root:  # the runner's copy of the package, and nothing else of its folder on the path
        sys.path.insert(0, root)
    try:
        from array_api_promo.audit.program import start
    finally:
        if root:
            sys.path.remove(root)

    start(against, warns)


if os.environ.get("ARRAY_API_PROMO_STANDIN") and not any(
    type(f).__name__ == "ArrayApiStrictStandin" for f in sys.meta_path
):
    sys.meta_path.insert(0, ArrayApiStrictStandin())
_run_next_sitecustomize()
if os.environ.get("ARRAY_API_PROMO_NEP50") is not None:
    _start_numpy_tool(os.environ["ARRAY_API_PROMO_NEP50"], True)
elif os.environ.get("ARRAY_API_PROMO_NUMPY_AUDIT"):
    _start_numpy_tool(os.environ["ARRAY_API_PROMO_NUMPY_AUDIT"], False)
