"""The NEP 50 warning mode's pytest plugin: ``pytest --nep50`` (or ``-p array_api_promo.nep50``).

The package's ``pytest11`` entry point registers this module under the name
``array_api_promo.nep50``, so that a pytest run of an environment where the package is installed
loads only this small module (no NumPy, no array_api_promo) unless ``--nep50`` asks for the mode;
``-p array_api_promo.nep50`` loads that module instead, which turns the mode on by itself.  The
mode starts before the conftest files are imported (:func:`array_api_promo.audit.program.start`).

PYTEST_DONT_REWRITE: pytest leaves this module alone (the mode may import it before pytest starts).
"""

from __future__ import annotations

import os
import sys

__all__ = ["pytest_addoption", "pytest_load_initial_conftests"]

_NAME = "array_api_promo.nep50"


def pytest_addoption(parser):
    group = parser.getgroup("nep50", "NEP 50 warnings (array_api_promo)")
    group.addoption(
        "--nep50",
        nargs="?",
        const="numpy1",
        default=None,
        metavar="AGAINST",
        help="a NEP50Warning at each line of the tests' and the project's code whose NumPy result differs under "
        "other promotion rules (default numpy1: NumPy 1.x; or torch, jax, any policy)",
    )
    group.addoption(
        "--nep50-include",
        action="append",
        default=[],
        metavar="PATTERN",
        help="the code compared: a directory, a file or a module name pattern (repeatable; default: the rootdir)",
    )


def pytest_load_initial_conftests(early_config, parser, args):
    """Before the conftest files are imported (pytest imports them in its own implementation, last)."""
    options = early_config.known_args_namespace
    against = getattr(options, "nep50", None)
    # -p array_api_promo.nep50 (or PYTEST_PLUGINS) registers that module by this name: on by itself
    named = early_config.pluginmanager.get_plugin(_NAME)
    # (with the package installed, its entry point holds the name, and -p names this module: asked all the same)
    asked = _NAME in (getattr(options, "plugins", None) or []) or _NAME in [
        name.strip() for name in os.environ.get("PYTEST_PLUGINS", "").split(",")
    ]
    if against is None and not asked and (named is None or named is not sys.modules.get(_NAME)):
        return
    from array_api_promo.audit.program import start

    include = list(getattr(options, "nep50_include", None) or []) or [str(early_config.rootpath)]
    start(against or os.environ.get("ARRAY_API_PROMO_NEP50") or "numpy1", True, include)
