"""The NumPy tools in a process: the comparison, its helpers, the import hook, and the main script.

:func:`start` sets up a process: the comparison (:mod:`.numpy_compare`) against the policies
named, the helpers the rewritten code calls (a builtin, :mod:`.numpy_helpers`), the import hook
(:mod:`.hook`) and, for ``python script.py``, the run of the main script from its rewritten tree.
Python itself opens a main script (no import hook sees it): at its ``cpython.run_file`` audit event
the script runs here, as ``python script.py`` runs it, and the event ends with ``SystemExit`` of
the script's status, so that the interpreter then shuts down as after a plain run (threads joined,
``atexit`` hooks, files flushed and closed); an uncaught exception is printed by ``sys.excepthook``
without the tool's frames.

Called by the site hook (``array_api_promo/_site/sitecustomize.py``) in every Python process of a
program run under ``python -m array_api_promo.audit --numpy`` or ``python -m array_api_promo.nep50``
(or with ``ARRAY_API_PROMO_NEP50`` set), and by the pytest plugin (:mod:`array_api_promo.nep50`).
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import gc
import importlib.machinery
import io
import os
import signal
import sys
import types

from . import rewrite_cache
from .hook import Finder, Include
from .records import SITE_PREFIX
from .rewriter import HELPER, compile_rewritten

__all__ = ["ENV_AGAINST", "ENV_INCLUDE", "ENV_WARN", "against_names", "start", "started"]

ENV_AGAINST = "ARRAY_API_PROMO_NUMPY_AUDIT"  # the audit (--numpy): records, no warnings
ENV_WARN = "ARRAY_API_PROMO_NEP50"  # the warning mode: a NEP50Warning per differing call (and records)
ENV_INCLUDE = "ARRAY_API_PROMO_NUMPY_INCLUDE"  # the user's code (os.pathsep-separated; default: the working directory)
# Names of the default rules: NumPy 1.x
_ALIASES = {"1": "numpy_legacy", "numpy1": "numpy_legacy", "numpy1.x": "numpy_legacy", "": "numpy_legacy"}
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def against_names(text: str) -> list[str]:
    """``--against``'s policies: comma-separated names (``numpy1`` or ``1``: NumPy 1.x, the default)."""
    names = [_ALIASES.get(part.strip().lower(), part.strip()) for part in text.split(",")]
    return [n for n in names if n] or ["numpy_legacy"]


def started():
    """This process's comparison (None: no NumPy tool runs here)."""
    helpers = getattr(builtins, HELPER, None)
    return getattr(helpers, "comparison", None)


def start(against: str, warns: bool, include=None):
    """Start the tool in this process (once; the later calls return the first's comparison)."""
    found = started()
    if found is not None:
        return found
    from ..from_env import policy_from_spec  # the loader of policy names and module:attribute
    from .numpy_compare import Comparison
    from .numpy_helpers import Helpers
    from .warning import NEP50Warning

    comparison = Comparison([policy_from_spec(n) for n in against_names(against)], warns, NEP50Warning)
    _reapply_warning_options(NEP50Warning)
    setattr(builtins, HELPER, Helpers(comparison))
    patterns = include if include is not None else [p for p in os.environ.get(ENV_INCLUDE, "").split(os.pathsep) if p]
    chosen = Include(patterns or [os.getcwd()])
    cache = rewrite_cache.for_process()
    finder = Finder(
        chosen, not_rewritten=lambda name: comparison.not_compared(name, "pytest's assertion rewriting"), cache=cache
    )
    sys.meta_path.insert(0, finder)
    if sys.argv and sys.argv[0] not in ("", "-c", "-m", "-"):  # python script.py (an audit hook costs every event)
        script = _MainScript(chosen, comparison, cache)
        sys.addaudithook(script)
        atexit.register(script.after)  # registered first: run last
    return comparison


_ACTIONS = ("default", "always", "ignore", "module", "once", "error")
_CATEGORY_NAMES = ("array_api_promo.NEP50Warning", "array_api_promo.nep50.NEP50Warning")


def _reapply_warning_options(category) -> None:
    """``-W ...::array_api_promo.NEP50Warning`` (or ``PYTHONWARNINGS``) as Python would apply it had it been
    able to import the package when it read the options (before ``site-packages`` is on the path, it
    cannot: "Invalid -W option ignored"): that option and the ones after it, in order, through
    ``warnings.filterwarnings``."""
    options = list(sys.warnoptions)
    first = next(
        (i for i, o in enumerate(options) if o.split(":")[2:3] and o.split(":")[2].strip() in _CATEGORY_NAMES), None
    )
    if first is None:
        return
    import re
    import warnings

    for option in options[first:]:
        parts = [p.strip() for p in option.split(":")] + [""] * 5
        action, message, name, module, line = parts[:5]
        action = next((a for a in _ACTIONS if a.startswith(action)), None) if action else "default"
        if action is None or (line and not line.isdigit()):
            continue
        if name in _CATEGORY_NAMES:
            found = category
        elif not name:
            found = Warning
        elif "." not in name:
            found = getattr(builtins, name, None)
        else:
            module_name, _, attribute = name.rpartition(".")
            found = getattr(sys.modules.get(module_name), attribute, None)
        if not (isinstance(found, type) and issubclass(found, Warning)):
            continue
        pattern = re.escape(module) + r"\Z" if module else ""
        warnings.filterwarnings(action, re.escape(message), found, pattern, int(line or 0))  # type: ignore[arg-type]


class _MainScript:
    """The audit hook that runs ``python script.py``'s script from its rewritten tree."""

    __cantrace__ = True  # a tracer or profiler of the program's sees the script run here

    def __init__(self, include: Include, comparison, cache):
        self.include = include
        self.comparison = comparison
        self.cache = cache
        self.done = False
        self.interrupted = False

    def __call__(self, event, args):
        if event != "cpython.run_file" or self.done:
            return
        self.done = True
        path = os.fsdecode(args[0])
        if not os.path.isfile(path):
            self.comparison.missing = path  # Python says it cannot open it; the runner says so too
            return
        if not self.include("__main__", path):
            return
        self._run(path)

    def _run(self, path: str):
        main = sys.modules["__main__"]
        main.__file__ = path
        main.__cached__ = None  # type: ignore[attr-defined]
        main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
        try:
            with open(path, "rb") as f:
                source = f.read()
            code = self.cache.code(path, source, "", lambda: compile_rewritten(source, path))
            exec(code, main.__dict__)
        except SystemExit:
            raise  # Python handles its status (and prints a message given to sys.exit)
        except BaseException as exc:
            self._uncaught(exc)
            raise SystemExit(1) from None
        raise SystemExit(0)

    def _uncaught(self, exc: BaseException) -> None:
        """As Python prints an uncaught exception, without the tool's frames."""
        _trim(exc, set())
        sys.last_type, sys.last_value, sys.last_traceback = type(exc), exc, exc.__traceback__
        if sys.version_info >= (3, 12):
            sys.last_exc = exc  # type: ignore[attr-defined]
        self.interrupted = isinstance(exc, KeyboardInterrupt)
        try:
            sys.excepthook(type(exc), exc, exc.__traceback__)
        except BaseException:  # as Python: a failing excepthook, then the original error
            sys.__excepthook__(type(exc), exc, exc.__traceback__)

    def after(self) -> None:
        """At exit, last: a KeyboardInterrupt ends the process by SIGINT, as after a plain run."""
        if not self.interrupted or not hasattr(signal, "SIGINT"):
            return
        for stream in [sys.stdout, sys.stderr, *_open_files()]:
            with contextlib.suppress(Exception):
                stream.flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)


def _open_files():
    return [o for o in gc.get_objects() if isinstance(o, io.IOBase) and not o.closed]


def _tool_frame(code: types.CodeType) -> bool:
    return code.co_filename.startswith(_PACKAGE_DIR) or code.co_name.startswith(SITE_PREFIX)


def _trim(exc: BaseException | None, seen: set) -> None:
    """``exc``'s traceback (and its causes' and contexts') without the tool's frames."""
    if exc is None or id(exc) in seen:
        return
    seen.add(id(exc))
    kept = []
    tb = exc.__traceback__
    while tb is not None:
        if not _tool_frame(tb.tb_frame.f_code):
            kept.append(tb)
        tb = tb.tb_next
    for first, second in zip(kept, kept[1:]):
        first.tb_next = second
    if kept:
        kept[-1].tb_next = None
    exc.__traceback__ = kept[0] if kept else None
    _trim(exc.__cause__, seen)
    _trim(exc.__context__, seen)
