"""The rewritten modules' own bytecode cache: a module rewritten once, not at every import of every run.

Python's ``__pycache__`` never holds the rewrite (a later plain run would load it): the code objects
of rewritten modules are kept in a directory of the tool's own, which no plain import looks in:
``$ARRAY_API_PROMO_REWRITE_CACHE`` if set (``off``, ``0`` or empty: no cache), else
``$XDG_CACHE_HOME/array_api_promo/rewritten`` (``~/.cache/...``; ``%LOCALAPPDATA%`` on Windows).
One file per module and tool configuration: its name is a digest of the source's path, Python's
bytecode magic and optimization level, the tool's version and rewriter, and pytest's version and
assertion options for a test module pytest rewrites; its first bytes are a digest of the source, so
a changed source is rewritten again and its entry replaced.  Any failure to read or write (no such
directory, not writable, a damaged entry) rewrites as without a cache and says nothing: the program
runs the same either way.  ``PYTHONDONTWRITEBYTECODE`` (which many container images set) is about
``.pyc`` files beside the sources, and does not turn this cache off: ``ARRAY_API_PROMO_REWRITE_CACHE=off`` does.

Used by the import hook (:mod:`.hook`) and the main script's run (:mod:`.program`).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import marshal
import os
import sys
import time
import types

__all__ = ["ENV_CACHE", "RewriteCache", "counts", "default_directory", "for_process"]

ENV_CACHE = "ARRAY_API_PROMO_REWRITE_CACHE"
_OFF = ("", "0", "off", "no", "false")
_DIGEST = 32  # bytes of sha256
# Entries of deleted or moved sources (a test's temporary folder) are never read again: entries not
# rewritten for a month are removed, by the first process of a day that writes one (a kept module
# is rewritten once more after a month: one rewrite, the cost the cache saves at each run).
_STALE = 30 * 86400
_PRUNE_EVERY = 86400
_PRUNED = "pruned"
_HERE = os.path.dirname(os.path.abspath(__file__))


def default_directory() -> str:
    """Where the cache lives unless ``$ARRAY_API_PROMO_REWRITE_CACHE`` says otherwise."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = os.environ["LOCALAPPDATA"]
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "array_api_promo", "rewritten")


def _tool_digest() -> bytes:
    """The tool's version and the sources of what shapes the rewritten code: a rewriter edited in a
    checkout is a new tool, whatever its version says."""
    from .. import __version__

    digest = hashlib.sha256(__version__.encode())
    for name in ("rewriter.py", "records.py", "hook.py", "rewrite_cache.py"):
        try:
            with open(os.path.join(_HERE, name), "rb") as f:
                digest.update(f.read())
        except OSError:
            digest.update(name.encode())
    return digest.digest()


class RewriteCache:
    """The code objects of rewritten modules under ``directory`` (None: none kept); ``hits``, ``compiled``
    (rewritten here: not in the cache, or a changed source), ``written`` and ``failed`` (reads or writes
    that failed, each then done without the cache) count this process's use of it."""

    def __init__(self, directory: str | None):
        self.directory = directory
        self.hits = self.compiled = self.written = self.failed = 0
        self._tool: bytes | None = None
        self._made = False

    def code(self, path: str, source: bytes, options: str, make):
        """The code object of ``path`` rewritten with ``options`` (a description of what else shapes it:
        pytest's assertion rewriting), from the cache, else ``make()``'s, then kept."""
        if self.directory is None:
            self.compiled += 1
            return make()
        entry: str | None = None
        cached = None
        try:
            entry, expected = self._entry(path, source, options)
            cached = self._read(entry, expected)
        except Exception:  # the cache is an optimization: never a reason for the program to fail
            self.failed += 1
            entry = cached = None
        if cached is not None:
            self.hits += 1
            return cached
        code = make()
        self.compiled += 1
        if entry is not None:
            self._write(entry, expected, code)
        return code

    def _entry(self, path: str, source: bytes, options: str) -> tuple[str, bytes]:
        if self._tool is None:
            self._tool = _tool_digest()
        name = hashlib.sha256(self._tool)
        for part in (os.path.abspath(path), options, str(sys.flags.optimize)):
            name.update(part.encode("utf-8", "surrogatepass") + b"\0")
        name.update(importlib.util.MAGIC_NUMBER)
        return os.path.join(self.directory, name.hexdigest()[:40] + ".bin"), hashlib.sha256(source).digest()  # type: ignore[arg-type]

    def _read(self, entry: str, expected: bytes):
        try:
            with open(entry, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return None
        if data[:_DIGEST] != expected:
            return None  # the source changed since: rewritten again, the entry replaced
        try:
            code = marshal.loads(data[_DIGEST:])
        except (EOFError, ValueError, TypeError):
            return None  # damaged: rewritten again, the entry replaced
        return code if isinstance(code, types.CodeType) else None

    def _write(self, entry: str, expected: bytes, code) -> None:
        temporary = f"{entry}.{os.getpid()}.tmp"
        try:
            if not self._made:
                os.makedirs(self.directory, mode=0o700, exist_ok=True)  # type: ignore[arg-type]
                self._made = True
                self._prune()
            with open(temporary, "wb") as f:
                f.write(expected + marshal.dumps(code))
            os.replace(temporary, entry)  # atomic: a concurrent reader (an xdist worker) sees all or nothing
            self.written += 1
        except Exception:
            self.failed += 1
            with contextlib.suppress(OSError):
                os.unlink(temporary)

    def _prune(self) -> None:
        """Entries not rewritten for a month removed, at most once a day (whatever fails: kept)."""
        marker = os.path.join(self.directory, _PRUNED)  # type: ignore[arg-type]
        now = time.time()
        try:
            if now - os.stat(marker).st_mtime < _PRUNE_EVERY:
                return
        except OSError:
            pass
        with contextlib.suppress(OSError):
            with open(marker, "w"):
                pass
            with os.scandir(self.directory) as entries:
                for entry in entries:
                    if entry.name.endswith((".bin", ".tmp")):
                        with contextlib.suppress(OSError):
                            if now - entry.stat().st_mtime > _STALE:
                                os.unlink(entry.path)


_CURRENT: RewriteCache | None = None


def for_process() -> RewriteCache:
    """This process's cache, as the environment configures it (made on first use)."""
    global _CURRENT
    if _CURRENT is None:
        setting = os.environ.get(ENV_CACHE)
        if setting is None:
            directory: str | None = default_directory()
        elif setting.strip().lower() in _OFF:
            directory = None
        else:
            directory = os.path.abspath(setting)
        _CURRENT = RewriteCache(directory)
    return _CURRENT


def counts() -> dict:
    """This process's use of the cache: ``{"directory", "hits", "compiled", "written", "failed"}``."""
    cache = for_process()
    return {
        "directory": cache.directory,
        "hits": cache.hits,
        "compiled": cache.compiled,
        "written": cache.written,
        "failed": cache.failed,
    }
