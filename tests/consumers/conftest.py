"""Consumer tests: scikit-learn, SciPy and array-api-extra running on array_api_promo arrays, and
xarray's, marray's and fftarray's own tests through the stand-in for array-api-strict
(test_xarray.py, test_marray.py, test_fftarray.py).

SciPy decides at import time whether it dispatches on the array API
(``SCIPY_ARRAY_API=1``), and scikit-learn's ``array_api_dispatch`` refuses
to run without it. This conftest sets the variable when it is imported,
which is before any test module here imports scipy or sklearn. If scipy was
imported earlier in the same process without the flag (another plugin or
test package imported it first), the flag cannot take effect any more: every
test of this directory is then skipped with that reason, and the remedy is
the separate invocation the README documents::

    python -m pytest tests/consumers

Nothing else in this repository imports scipy, so a plain ``pytest`` run of
the whole suite also runs these tests in-process.
"""

from __future__ import annotations

import os
import sys

import pytest

_SCIPY_PRELOADED = "scipy" in sys.modules and os.environ.get("SCIPY_ARRAY_API") != "1"
os.environ["SCIPY_ARRAY_API"] = "1"

_SKIP_REASON = None
if _SCIPY_PRELOADED:
    _SKIP_REASON = (
        "scipy was imported in this process before tests/consumers/conftest.py could set "
        "SCIPY_ARRAY_API=1, so SciPy and scikit-learn cannot dispatch on array_api_promo arrays; "
        "run these tests in their own process: python -m pytest tests/consumers"
    )
else:
    try:
        import scipy._lib._array_api as _scipy_xp  # noqa: E402

        if not _scipy_xp.SCIPY_ARRAY_API:  # pragma: no cover - defensive
            _SKIP_REASON = "SciPy did not pick up SCIPY_ARRAY_API=1; run: python -m pytest tests/consumers"
    except ImportError:  # scipy missing: the test modules importorskip it themselves
        pass


def pytest_collection_modifyitems(config, items):
    if _SKIP_REASON is None:
        return
    here = os.path.dirname(os.path.abspath(__file__))
    marker = pytest.mark.skip(reason=_SKIP_REASON)
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(marker)
