"""The import hook: the user's modules compiled from their rewritten trees, never from or into ``__pycache__``.

:class:`Include` says which modules are the user's; :class:`Finder` (first on ``sys.meta_path``)
gives each a loader that compiles the rewritten tree (:mod:`.rewriter`): no bytecode of Python's
cache is read or written for them, so nothing a later plain run reads holds the rewrite; the
rewritten code is kept in the tool's own cache (:mod:`.rewrite_cache`), which only the tool reads.  Under pytest, a test module
pytest rewrites the asserts of (its own import hook says so, asked through the import protocol) is
loaded here too, with pytest's assertion rewriting applied to the tree first and ours after it;
pytest never sees the module, so no pytest cache of it is read or written.  Installed by
:mod:`.program`.
"""

from __future__ import annotations

import ast
import fnmatch
import importlib.abc
import importlib.machinery
import os
import sys

from .rewrite_cache import RewriteCache
from .rewriter import compile_rewritten

__all__ = ["Finder", "Include"]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_PYTEST_HOOK = "AssertionRewritingHook"  # the class name of pytest's import hook


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
        parts = path.split(os.sep)
        if "site-packages" in parts or "dist-packages" in parts:
            return False
        path = os.path.abspath(path)
        return any(path == p or path.startswith(p.rstrip(os.sep) + os.sep) for p in self.paths)


class _Loader(importlib.machinery.SourceFileLoader):
    """A user module compiled from its rewritten tree (``pytest``: pytest's hook, whose assertion
    rewriting comes first)."""

    def __init__(self, fullname, path, finder: Finder, pytest=None):
        super().__init__(fullname, path)
        self.finder = finder
        self.pytest = pytest

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        source = self.get_data(path)
        return self.finder.cache.code(
            path, source, self.finder.options(self.pytest), lambda: self.rewritten(source, path)
        )

    def rewritten(self, source: bytes, path: str):
        tree = ast.parse(source, filename=path)
        if self.pytest is not None:
            self.finder.rewrite_asserts(tree, source, path, self.pytest)
        return compile_rewritten(source, path, tree)


class Finder(importlib.abc.MetaPathFinder):
    """The user's modules, ahead of every other finder (pytest's too: it moves back to the front of
    ``sys.meta_path`` when pytest's hook is put before it)."""

    def __init__(self, include: Include, not_rewritten=None, cache: RewriteCache | None = None):
        self.include = include
        self.not_rewritten = not_rewritten  # called with a module pytest's hook keeps (no assertion rewriting here)
        self.cache = cache if cache is not None else RewriteCache(None)
        self._pytest_rewrite = None
        self._pytest_options: str | None = None

    def find_spec(self, fullname, path=None, target=None):
        meta_path = sys.meta_path
        if meta_path[0] is not self:
            self._to_front(meta_path)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return None
        if not self.include(fullname, spec.origin):
            return None
        pytest = self._pytest_hook(meta_path, fullname, path)
        if pytest is not None and self.pytest_rewriter() is None:
            if self.not_rewritten is not None:
                self.not_rewritten(fullname)
            return None  # pytest's own, unaudited: the tool says so
        spec.loader = _Loader(fullname, spec.origin, self, pytest)
        return spec

    def _to_front(self, meta_path) -> None:
        """Back to the front when pytest's hook came before this finder (the elements after it keep their
        places: an import iterating over ``sys.meta_path`` goes on with the next finder)."""
        ahead = meta_path[: meta_path.index(self)] if self in meta_path else []
        if any(type(f).__name__ == _PYTEST_HOOK for f in ahead):
            meta_path.remove(self)
            meta_path.insert(0, self)

    @staticmethod
    def _pytest_hook(meta_path, fullname, path):
        """pytest's import hook, if it would rewrite the asserts of ``fullname`` (asked as any finder is)."""
        for finder in meta_path:
            if type(finder).__name__ == _PYTEST_HOOK:
                try:
                    return finder if finder.find_spec(fullname, path) is not None else None
                except Exception:
                    return None
        return None

    def pytest_rewriter(self):
        """pytest's function that rewrites a test module's asserts (None if this pytest has none by that name)."""
        if self._pytest_rewrite is None:
            try:
                from _pytest.assertion.rewrite import rewrite_asserts

                self._pytest_rewrite = rewrite_asserts
            except ImportError:
                self._pytest_rewrite = False
        return self._pytest_rewrite or None

    def options(self, pytest_hook) -> str:
        """What shapes a module's code besides its source and the rewriter (the cache's key): pytest's
        version and assertion options for a module whose asserts pytest rewrites."""
        if pytest_hook is None:
            return ""
        if self._pytest_options is None:
            try:
                passes = pytest_hook.config.getini("enable_assertion_pass_hook")
            except Exception:
                passes = None
            version = getattr(sys.modules.get("pytest"), "__version__", None)
            self._pytest_options = f"pytest {version} {self.pytest_rewriter().__module__} pass hook {passes!r}"  # type: ignore[union-attr]
        return self._pytest_options

    def rewrite_asserts(self, tree, source, path, pytest_hook) -> None:
        self.pytest_rewriter()(tree, source, path, pytest_hook.config)  # type: ignore[misc]
