"""The NumPy audit's import hook: the user's modules compiled from their rewritten trees.

:class:`Include` says which modules are the user's; :class:`Finder` (first on ``sys.meta_path``)
gives them a loader that compiles the rewritten tree (:mod:`.rewriter`), never from or into a
bytecode cache.  Installed by :mod:`.program`.
"""

from __future__ import annotations

import fnmatch
import importlib.abc
import importlib.machinery
import os

from .rewriter import compile_rewritten, rewrite

__all__ = ["Finder", "Include"]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


# -- which modules are the user's ------------------------------------------------------------------
class Include:
    """``--include``: module names or patterns (``sklearn`` is the package and its modules,
    ``sklearn.*`` its modules) and directories or files."""

    def __init__(self, patterns):
        self.names, self.paths = [], []
        for p in patterns:
            if os.sep in p or os.path.exists(p):
                self.paths.append(os.path.abspath(p))
            else:
                self.names.append(p)

    def __call__(self, fullname: str, path: str | None) -> bool:
        if not path or not path.endswith(".py") or path.startswith(_PACKAGE_DIR):
            return False
        for n in self.names:  # a pattern ('sklearn.*'), or a package with its modules ('sklearn')
            if fnmatch.fnmatchcase(fullname, n) or fullname == n or fullname.startswith(n + "."):
                return True
        if "site-packages" in path.split(os.sep) or "dist-packages" in path.split(os.sep):
            return False
        path = os.path.abspath(path)
        return any(path == p or path.startswith(p.rstrip(os.sep) + os.sep) for p in self.paths)


class _Loader(importlib.machinery.SourceFileLoader):
    """A user module compiled from its rewritten tree (never from or into a bytecode cache)."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        return compile_rewritten(self.get_data(path), path)


class Finder(importlib.abc.MetaPathFinder):
    def __init__(self, include: Include):
        self.include = include

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "_pytest.assertion.rewrite":
            return self._pytest_spec(fullname, path)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return None
        if not self.include(fullname, spec.origin):
            return None
        spec.loader = _Loader(fullname, spec.origin)
        return spec

    def _pytest_spec(self, fullname, path):
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return None
        loader, include = spec.loader, self.include

        class Patching(importlib.abc.Loader):
            def create_module(self, spec):
                return loader.create_module(spec)

            def exec_module(self, module):
                loader.exec_module(module)
                _patch_pytest(module, include)

        spec.loader = Patching()
        return spec


def _patch_pytest(module, include: Include) -> None:
    """pytest's assertion rewriting of test modules, then ours; no cached pyc read or written (a
    cached one would skip us, a written one would keep our rewriting for a plain run)."""
    original = module.rewrite_asserts

    def rewrite_asserts(mod, source, module_path=None, config=None):
        original(mod, source, module_path, config)
        name = os.path.splitext(os.path.basename(module_path or ""))[0]
        if include(name, module_path) or include(_module_name(module_path), module_path):
            rewrite(mod)

    module.rewrite_asserts = rewrite_asserts
    module._read_pyc = lambda *args, **kwargs: None
    module._write_pyc = lambda *args, **kwargs: False


def _module_name(path: str | None) -> str:
    """A test file's dotted name by its packages (the directories with an ``__init__.py``)."""
    if not path:
        return ""
    parts = [os.path.splitext(os.path.basename(path))[0]]
    folder = os.path.dirname(path)
    while os.path.exists(os.path.join(folder, "__init__.py")):
        parts.insert(0, os.path.basename(folder))
        folder = os.path.dirname(folder)
    return ".".join(parts)
