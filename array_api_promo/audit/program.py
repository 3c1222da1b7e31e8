"""The NumPy audit in an audited process: its state, its helpers, its import hook, and the main script.

:func:`start` is called by the site hook (``array_api_promo/_site/sitecustomize.py``) in every
Python process of a program run under ``python -m array_api_promo.audit --numpy``.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib.machinery
import os
import sys
import threading
import traceback

from .hook import Finder, Include
from .numpy_compare import NumPyAudit
from .numpy_helpers import Helpers
from .rewriter import HELPER, compile_rewritten

__all__ = ["ENV_AGAINST", "ENV_INCLUDE", "start"]

ENV_AGAINST = "ARRAY_API_PROMO_NUMPY_AUDIT"
ENV_INCLUDE = "ARRAY_API_PROMO_NUMPY_INCLUDE"
_AUDIT: NumPyAudit | None = None


def start() -> None:
    """Under the runner: the audit, its helpers, the import hook; the main script if it is the user's."""
    global _AUDIT
    against = [a for a in os.environ[ENV_AGAINST].split(",") if a]
    _AUDIT = NumPyAudit(against)
    setattr(builtins, HELPER, Helpers(_AUDIT))
    include = Include([p for p in os.environ.get(ENV_INCLUDE, "").split(os.pathsep) if p])
    sys.meta_path.insert(0, Finder(include))
    script = sys.argv[0] if sys.argv else ""
    if script.endswith(".py") and os.path.isfile(script) and include("__main__", script):
        _run_main(script)


def _run_main(script: str) -> None:
    """Run the main script from its rewritten tree, as ``python script.py`` would, and exit."""
    script = os.path.abspath(script)  # as Python names a script it runs
    sys.path.insert(0, os.path.dirname(script))
    main = sys.modules["__main__"]
    main.__file__ = script
    main.__cached__ = None  # type: ignore[attr-defined]
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", script)
    with open(script, "rb") as f:
        source = f.read()
    status = 0
    try:
        code = compile_rewritten(source, script)
        exec(code, main.__dict__)
    except SystemExit as exc:
        status = _exit_status(exc)
    except BaseException as exc:
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
            tb = tb.tb_next  # the traceback from the script's frame on, as Python prints it
        sys.excepthook(type(exc), exc, tb)
        status = 1
    with contextlib.suppress(BaseException):
        threading._shutdown()  # type: ignore[attr-defined]  # non-daemon threads, as at a normal exit
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status)


def _exit_status(exc: SystemExit) -> int:
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        print(code, file=sys.stderr)
    except Exception:
        traceback.print_exc()
    return 1
