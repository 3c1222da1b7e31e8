"""xarray's own array-API tests through the stand-in for array-api-strict, test for test against the real one.

xarray ships its tests in its wheel; three of its modules test its array-API
support with ``array_api_strict`` (``from array_api_strict._array_object import
Array``, ``xp.asarray([2.1, 4], dtype=xp.int64)`` ...).  Each runs in a pytest
subprocess, once with the real array-api-strict 2.6.1 (the reference) and once
through ``python -m array_api_promo.standin`` under each policy; every test's
outcome must be the reference's, but for the differences listed in
``DIFFERENCES``, each a rule of the policy (docs/guide/standin.md).
"""

from __future__ import annotations

import os

import pytest

xr = pytest.importorskip("xarray")
array_api_strict = pytest.importorskip("array_api_strict")

from _standin_suite import run  # noqa: E402

from array_api_promo.standin import MIRRORED_VERSION  # noqa: E402

SITE = os.path.dirname(os.path.dirname(os.path.abspath(xr.__file__)))
MODULES = ("xarray.tests.test_array_api", "xarray.tests.test_namedarray", "xarray.tests.test_dtypes")
ARGS = [f"--rootdir={SITE}", "--pyargs", *MODULES]  # rootdir: test ids name their module
TIMEOUT = 600

# policy -> {test: (reference outcome, stand-in outcome)}: each a rule of the policy.
DIFFERENCES = {
    "array_api": {},
    "numpy": {},
    # torch's default float is float32: xp.asarray([[1.0, 2.0, 3.0], ...]) takes 24 bytes, not NumPy's 48
    "torch": {"xarray.tests.test_array_api::test_properties": ("passed", "failed")},
}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    assert array_api_strict.__version__ == MIRRORED_VERSION
    return run(tmp_path_factory.mktemp("reference"), ARGS, standin=False, timeout=TIMEOUT)


@pytest.mark.parametrize("policy", list(DIFFERENCES))
def test_xarray_array_api_suite_through_the_standin(tmp_path, reference, policy):
    ours = run(tmp_path, ARGS, standin=True, policy=policy, timeout=TIMEOUT)
    assert ours.outcomes.keys() == reference.outcomes.keys()
    assert len(reference.outcomes) > 100 and reference.counts().get("passed", 0) > 100
    differ = {t: (o, ours.outcomes[t]) for t, o in reference.outcomes.items() if o != ours.outcomes[t]}
    assert differ == DIFFERENCES[policy], (reference.counts(), ours.counts())
    print(f"xarray {xr.__version__}, {policy}: reference {reference.counts()}, stand-in {ours.counts()}")
