"""The package's metadata says what is true: what `pip show` prints, the extras, the supported range."""

from __future__ import annotations

import pathlib
import re
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pytest itself needs tomli before 3.11
    import tomli as tomllib

from array_api_promo.promotion import torch as torch_policy

ROOT = pathlib.Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
NOXFILE = (ROOT / "noxfile.py").read_text()


def _names(requirements) -> set[str]:
    return {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower().replace("_", "-") for r in requirements}


def test_description_names_the_pytorch_release_the_torch_policy_follows():
    assert f"PyTorch {torch_policy.NEWEST}" in PROJECT["description"]
    assert all(f"PyTorch {v}" not in PROJECT["description"] for v in torch_policy.VERSIONS if v != torch_policy.NEWEST)


def test_project_urls():
    urls = PROJECT["urls"]
    assert urls and all(u.startswith("https://") for u in urls.values())


def test_test_extra_holds_what_the_harness_tests_run():
    # The harness tests run the upstream suite, whose own imports include ndindex.
    test, conformance = (
        _names(PROJECT["optional-dependencies"]["test"]),
        PROJECT["optional-dependencies"]["conformance"],
    )
    assert "ndindex" in test
    assert _names(conformance) <= test, _names(conformance) - test


def test_the_sources_of_the_compiled_module_stay_out_of_the_wheel():
    assert "*.c" in PYPROJECT["tool"]["setuptools"]["exclude-package-data"]["array_api_promo"]


def test_the_declared_range_is_the_range_ci_tests():
    """requires-python and the classifiers agree, and noxfile.py tests both ends: the oldest
    Python with the lower bounds of NumPy and ml_dtypes read from pyproject.toml, and the
    newest classified Python."""
    oldest = re.fullmatch(r">=\s*3\.(\d+)", PROJECT["requires-python"]).group(1)
    minors = sorted(
        int(m.group(1))
        for c in PROJECT["classifiers"]
        if (m := re.fullmatch(r"Programming Language :: Python :: 3\.(\d+)", c))
    )
    assert minors == list(range(int(oldest), minors[-1] + 1))
    assert f'NEWEST_PYTHON = "3.{minors[-1]}"' in NOXFILE
    assert "lower_bound('numpy')" in NOXFILE and "lower_bound('ml_dtypes')" in NOXFILE
    dependencies = {r.split(">=")[0]: r for r in PROJECT["dependencies"]}
    assert dependencies["numpy"] == "numpy>=2.0"
    assert dependencies["ml_dtypes"] == "ml_dtypes>=0.5"  # 0.4's bfloat16 floor_divide(1, 0) is NaN
