"""NEP 50 warnings for any program and any CI: NumPy's removed ``weak_and_warn``, reborn.

Each NumPy operation of the user's code whose result (its dtype, a refusal, or the values stored in
place or compared) differs under other promotion rules (NumPy 1.x by default; ``torch``, ``jax`` or
any policy by name) issues a :class:`NEP50Warning` at the user's file and line, through Python's
``warnings`` machinery: ``-W error::array_api_promo.NEP50Warning`` and pytest's ``filterwarnings``
apply as to any warning.  The program runs on the installed NumPy and computes and prints what a
plain run does.  Three ways in:

* ``python -m array_api_promo.nep50 [--against numpy1] [--json F] [--markdown F] -- python prog.py``
  (or ``-- python -m pytest ...``): this module's :func:`main`, over the audit's runner;
* the pytest plugin: ``pytest -p array_api_promo.nep50`` (or ``pytest --nep50`` with the package
  installed: its entry point registers the small ``array_api_promo_pytest`` under this module's name);
* ``ARRAY_API_PROMO_NEP50=numpy1`` in the environment, inherited by subprocesses: with the package
  installed (not editable), a ``.pth`` line it installs starts the mode in every Python process
  (:func:`start_from_environment`); otherwise the site hook does, with
  ``PYTHONPATH=$(python -m array_api_promo.nep50 --site)`` too.

The machinery is the NumPy audit's (:mod:`array_api_promo.audit.program`); this module is its front
door.  Imports nothing heavy until a tool starts.
"""

from __future__ import annotations

import os
import sys

from .audit.warning import NEP50Warning

__all__ = ["NEP50Warning", "main", "pytest_addoption", "pytest_load_initial_conftests", "start_from_environment"]

_PROG = "python -m array_api_promo.nep50"


def main(argv=None) -> int:
    """``python -m array_api_promo.nep50 [options] -- PROGRAM [ARGS...]``: the program's exit status."""
    import argparse

    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(
        prog=_PROG,
        description="Run a program on the installed NumPy with a NEP50Warning at each line of its own code whose "
        "NumPy result differs under other promotion rules (NumPy 1.x by default).",
    )
    parser.add_argument(
        "--against",
        default="numpy1",
        help="the rules to compare with: numpy1 (NumPy 1.x, the default), torch, jax, any policy name or "
        "module:attribute; several separated by commas",
    )
    parser.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="PATTERN",
        help="the user's code: a directory, a file or a module name pattern such as 'mypkg.*' (repeatable; "
        "default: the program's directory, else the working directory)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the differing calls as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="also write a report grouped by rule")
    parser.add_argument("--title", default="", help="the Markdown report's title")
    parser.add_argument("--limit", type=int, default=50, help="sites shown in the table with --table (default 50)")
    parser.add_argument("--table", action="store_true", help="also print the table of differing calls (on stderr)")
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an environment variable for the program (repeatable; kept in the report's command)",
    )
    parser.add_argument(
        "--site", action="store_true", help="print the site hook's folder (for PYTHONPATH, with ARRAY_API_PROMO_NEP50)"
    )
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the program and its arguments (after --)")
    args = parser.parse_args(argv)
    from .audit.cli import SITE_DIR, run_numpy_tool

    if args.site:
        print(SITE_DIR)
        return 0
    return run_numpy_tool(parser, args, argv, warns=True)


def start_from_environment():
    """The warning mode in this process, against ``$ARRAY_API_PROMO_NEP50`` (the ``.pth`` line's call)."""
    from .audit.program import ENV_WARN, start

    return start(os.environ.get(ENV_WARN, ""), True)


# -- the pytest plugin: registered as this module by -p array_api_promo.nep50 (on by itself) -------------------
from array_api_promo_pytest import pytest_addoption, pytest_load_initial_conftests  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
