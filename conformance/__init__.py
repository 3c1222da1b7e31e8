"""Conformance harness: run the upstream ``array-api-tests`` suite against
``array_api_promo`` (one run per promotion policy x API version), store
normalised results under ``conformance/results/`` and render ``DEVIATIONS.md``.

Run it as ``python -m conformance --help``.
"""

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
REPO_ROOT = PACKAGE_DIR.parent
CACHE_DIR = PACKAGE_DIR / ".cache"
RESULTS_DIR = PACKAGE_DIR / "results"
XFAILS_DIR = PACKAGE_DIR / "xfails"
DEVIATIONS_MD = REPO_ROOT / "DEVIATIONS.md"

#: Policies whose failures are *intentional* deviations (documented, not defects).
#: Anything failing under another policy is a defect.
INTENTIONAL_POLICIES = frozenset({"torch"})

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
