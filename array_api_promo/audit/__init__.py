"""The audit: which lines of a program another promotion policy would change.

``array_api_promo.audit(policy, against=[...], api_version=None)`` (this package is callable: it is
that function) gives an audited array-API namespace (:mod:`.namespace`);
``python -m array_api_promo.audit`` runs a whole program under it, or with ``--numpy`` a plain NumPy
program rewritten at import (:mod:`.cli`).  The modules, each with its own job:

* :mod:`.records`: outcomes, records, a process's record set, the runner's records folder;
* :mod:`.reports`: the table, ``--json`` and ``--markdown``;
* :mod:`.signatures`: call signatures (the comparisons' cache keys) and how calls are described;
* :mod:`.namespace`: the audited array-API namespace;
* :mod:`.numpy_compare`: one NumPy operation compared with other policies;
* :mod:`.rewriter`, :mod:`.numpy_helpers`: the rewritten code and what it calls;
* :mod:`.hook`: the import hook that rewrites the user's modules;
* :mod:`.rewrite_cache`: the rewritten modules' code kept between runs (never in ``__pycache__``);
* :mod:`.program`: the NumPy audit started in a process, and the main script run rewritten;
* :mod:`.cli`: the runner.

Names are loaded on first use, so that the site hook's processes import only what they run.
"""

from __future__ import annotations

import importlib
import sys
import types

__all__ = [
    "SITES_PER_RULE",
    "Audit",
    "Outcome",
    "PromotionDifferenceWarning",
    "Record",
    "audit",
    "main",
    "merge",
    "render_markdown",
]

_HOMES = {
    "Audit": "namespace",
    "audit": "namespace",
    "Outcome": "records",
    "Record": "records",
    "merge": "records",
    "SITES_PER_RULE": "reports",
    "render_markdown": "reports",
    "main": "cli",
}


def __getattr__(name: str):
    if name == "PromotionDifferenceWarning":
        from ..promotion._policy import PromotionDifferenceWarning

        return PromotionDifferenceWarning
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


def __dir__():
    return sorted(set(globals()) | set(__all__))


class _CallableModule(types.ModuleType):
    """``array_api_promo.audit(...)`` is the function, whether or not this package was imported."""

    def __call__(self, policy="array_api", against=("torch",), api_version=None):
        from .namespace import audit

        return audit(policy, against, api_version)


sys.modules[__name__].__class__ = _CallableModule
