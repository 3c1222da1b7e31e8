"""Conformance harness: run the upstream ``array-api-tests`` suite against
``array_api_promo`` (one run per promotion policy x API version), store
normalised results under ``conformance/results/`` and render ``DEVIATIONS.md``.

Run it as ``python -m array_api_promo.conformance --help`` (``python -m conformance`` from a
checkout). The committed data (results, xfails, library reports) live in ``conformance/`` at
the repository root, not in the package.
"""

import os
from collections.abc import Mapping
from pathlib import Path

# The package's API versions and its built-in policy -> namespace module map (the
# module handed to the suite as ARRAY_API_TESTS_MODULE); one home, in the package.
from array_api_promo._namespace import API_VERSIONS, DEFAULT_API_VERSION, POLICY_MODULES

#: Pinned upstream commits (data-apis/array-api-tests and its array-api submodule).
SUITE_REPO = "https://github.com/data-apis/array-api-tests"
SPEC_REPO = "https://github.com/data-apis/array-api"
SUITE_COMMIT = "55fcc60179efa2680ddd6cd926ddf17b83530e2b"
SPEC_COMMIT = "5f847a3858875c682ae901aa22b0413bf24be9da"

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent.parent
#: The repository's conformance/ folder: the committed results, xfails and library reports.
DATA_DIR = REPO_ROOT / "conformance"
#: Run from a checkout of this repository (where the committed results live), not from an
#: installed copy: an installed harness never writes into site-packages.
IN_CHECKOUT = (REPO_ROOT / "pyproject.toml").is_file() and not {"site-packages", "dist-packages"} & set(
    PACKAGE_DIR.parts
)
CACHE_DIR = (
    DATA_DIR / ".cache"
    if IN_CHECKOUT
    else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "array_api_promo" / "conformance"
)
# The committed results, xfails and report: written only by default runs from a checkout.
RESULTS_DIR = DATA_DIR / "results"
XFAILS_DIR = DATA_DIR / "xfails"
DEVIATIONS_MD = REPO_ROOT / "DEVIATIONS.md"

#: The pytest plugin every run of the suite loads (and every reproducer command names): it seeds
#: Python's ``random`` per test from the Hypothesis seed, so single-value draws follow ``--seed``.
DRAWS_PLUGIN = f"{__name__}._pytest_draws"
#: The pytest plugin every run of the suite loads for speed alone: it remembers what the suite and
#: Hypothesis would make again (strategies built per example, filter validation, broadcast indices,
#: traceback statement ranges): the same draws, the same text.
SPEED_PLUGIN = f"{__name__}._pytest_speed"

#: Policies whose failures are *intentional* deviations (documented, not defects).
#: Anything failing under another policy is a defect.
INTENTIONAL_POLICIES = frozenset(
    {"torch", "numpy", "numpy_legacy", "jax", "jax_x64", "jax_explicit_x64", "megengine", "paddle", "mlx"}
)


def with_repo_on_path(environ: Mapping[str, str]) -> dict:
    """``environ`` with this checkout first on PYTHONPATH: the suite imports the namespace under test from it."""
    env = dict(environ)
    pp = [str(REPO_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(pp))
    return env


__all__ = [
    "SUITE_COMMIT",
    "SPEC_COMMIT",
    "POLICY_MODULES",
    "API_VERSIONS",
    "DEFAULT_API_VERSION",
    "RESULTS_DIR",
    "XFAILS_DIR",
    "DEVIATIONS_MD",
]
