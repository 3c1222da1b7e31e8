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
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

xr = pytest.importorskip("xarray")
array_api_strict = pytest.importorskip("array_api_strict")

from array_api_promo.standin import MIRRORED_VERSION  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SITE = os.path.dirname(os.path.dirname(os.path.abspath(xr.__file__)))
MODULES = ("xarray.tests.test_array_api", "xarray.tests.test_namedarray", "xarray.tests.test_dtypes")

# policy -> {test: (reference outcome, stand-in outcome)}: each a rule of the policy.
DIFFERENCES = {
    "array_api": {},
    "numpy": {},
    # torch's default float is float32: xp.asarray([[1.0, 2.0, 3.0], ...]) takes 24 bytes, not NumPy's 48
    "torch": {"test_array_api::test_properties": ("passed", "failed")},
}


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    for var in list(env):
        if var.startswith(("ARRAY_API_STRICT_", "ARRAY_API_PROMO_")):
            del env[var]
    return env


def _outcomes(tmp_path, *runner: str) -> dict[str, str]:
    """{module::test: passed/failed/skipped/xfailed/error} of xarray's three modules, run by ``runner``."""
    report = tmp_path / "report.xml"
    proc = subprocess.run(
        [*runner, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}"]
        + [f"--rootdir={SITE}", "--pyargs", *MODULES],  # rootdir: test ids name their module
        check=False,
        cwd=tmp_path,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode in (0, 1) and report.exists(), proc.stdout[-3000:] + proc.stderr[-3000:]
    outcomes = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        name = case.get("classname", "").removeprefix("xarray.tests.") + "::" + case.get("name", "")
        assert name not in outcomes, name
        if case.find("failure") is not None:
            outcome = "failed"
        elif case.find("error") is not None:
            outcome = "error"
        elif (skipped := case.find("skipped")) is not None:
            outcome = "xfailed" if skipped.get("type") == "pytest.xfail" else "skipped"
        else:
            outcome = "passed"
        outcomes[name] = outcome
    return outcomes


def _counts(outcomes: dict[str, str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for outcome in outcomes.values():
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    assert array_api_strict.__version__ == MIRRORED_VERSION
    return _outcomes(tmp_path_factory.mktemp("reference"))


@pytest.mark.parametrize("policy", list(DIFFERENCES))
def test_xarray_array_api_suite_through_the_standin(tmp_path, reference, policy):
    ours = _outcomes(tmp_path, sys.executable, "-m", "array_api_promo.standin", "--policy", policy, "--")
    assert ours.keys() == reference.keys()
    assert len(reference) > 100 and _counts(reference).get("passed", 0) > 100
    differ = {t: (reference[t], ours[t]) for t in reference if reference[t] != ours[t]}
    assert differ == DIFFERENCES[policy], (_counts(reference), _counts(ours))
    print(f"xarray {xr.__version__}, {policy}: reference {_counts(reference)}, stand-in {_counts(ours)}")
