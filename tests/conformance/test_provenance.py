"""Results record what produced them; the committed ones must come from this source."""

from __future__ import annotations

import shutil

import pytest

from array_api_promo.conformance import REPO_ROOT, RESULTS_DIR, normalize, provenance


def test_source_hash_ignores_layout_and_comments(tmp_path):
    pkg = tmp_path / "pkg"
    shutil.copytree(REPO_ROOT / "array_api_promo", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    before = provenance.source_hash(pkg)
    assert before == provenance.source_hash(REPO_ROOT / "array_api_promo")
    target = pkg / "_namespace.py"
    text = target.read_text()
    target.write_text(
        "# a comment\n\n"
        + text.replace("\n\ndef ", "\n\n\n# a comment\ndef ").replace("(policy=", "( policy =")
        + "\n# trailing comment\n"
    )
    assert provenance.source_hash(pkg) == before
    target.write_text(text.replace('DEFAULT_API_VERSION = "2025.12"', 'DEFAULT_API_VERSION = "2024.12"'))
    assert provenance.source_hash(pkg) != before


def test_source_hash_covers_the_compiled_fast_paths(tmp_path):
    """The C source decides results too: a change to it must make committed results stale."""
    pkg = tmp_path / "pkg"
    shutil.copytree(REPO_ROOT / "array_api_promo", pkg, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    before = provenance.source_hash(pkg)
    target = pkg / "_fastpath.c"
    target.write_text(target.read_text().replace("return FALL_BACK;", "return NULL;", 1))
    assert provenance.source_hash(pkg) != before


def test_committed_results_come_from_this_source():
    """Fails when array_api_promo changed after conformance/results/*.json were produced:
    regenerate them (and DEVIATIONS.md) with `python -m conformance`."""
    current = provenance.source_hash()
    results = {p.name: normalize.load(p) for p in sorted(RESULTS_DIR.glob("*.json"))}
    assert results
    for name, r in results.items():
        produced = r.get("package")
        assert produced, f"{name} does not record what produced it: regenerate it"
        if produced["source_python"] != provenance.python_version():
            pytest.skip(
                f"{name} was hashed under Python {produced['source_python']}; ast.dump differs "
                f"under {provenance.python_version()}"
            )
        assert produced["source_sha256"] == current, (
            f"{name} was produced by array_api_promo source {produced['source_sha256'][:12]}, the "
            f"package is now {current[:12]}: regenerate with `python -m conformance`"
        )
        assert produced["package_version"] == provenance.package_version()


def test_committed_storage_reports_come_from_this_source():
    """A report of array_api_promo itself over another storage (``python -m conformance --storage
    dask``, in conformance/reports/) records the source it ran, as the results do: fails when the
    package changed since; regenerate with the command in the report's header."""
    from array_api_promo.conformance import library

    reports = [d for d in library.report_dirs() if "package" in normalize.load(d / library.RESULTS_NAME)]
    if not reports:
        pytest.skip("no committed report of array_api_promo over another storage")
    current = provenance.source_hash()
    for d in reports:
        produced = normalize.load(d / library.RESULTS_NAME)["package"]
        if produced["source_python"] != provenance.python_version():
            pytest.skip(f"{d.name} was hashed under Python {produced['source_python']}")
        assert produced["source_sha256"] == current, (
            f"{d.name} was produced by array_api_promo source {produced['source_sha256'][:12]}, the package "
            f"is now {current[:12]}: regenerate it with the command in {d.name}/README.md"
        )
        assert produced["package_version"] == provenance.package_version()


def test_the_extras_agree_on_the_hypothesis_floor():
    """Every extra that installs Hypothesis asks for the same floor: the results record the version
    that drew them, and an extra allowing an older one would draw what the committed results do not hold."""
    import re

    # the extras' lines (tomllib is Python 3.11's; the oldest Python supported is 3.10)
    text = (REPO_ROOT / "pyproject.toml").read_text()
    extras_text = text[text.index("[project.optional-dependencies]") : text.index("[project.scripts]")]
    # (the floor on Python 3.10, where Hypothesis 6.170 does not install, is the core tests' own)
    floors = [
        floor
        for floor, marker in re.findall(r'"hypothesis\s*([^";]*)(?:;\s*([^"]*))?"', extras_text)
        if "< '3.11'" not in marker
    ]
    assert len(floors) >= 2 and len(set(floors)) == 1, floors


def test_results_name_the_tools_that_made_them():
    """A run records Hypothesis, pytest and pytest-xdist as installed; the report headers show them."""
    from array_api_promo.conformance import library_report, render

    tools = normalize.tool_versions()
    assert set(tools) == {"hypothesis", "pytest", "pytest-xdist"}
    raw = {"tests": [{"nodeid": "t.py::test_x", "outcome": "passed"}]}
    r = normalize.normalise_report(
        raw, policy="p", module="m", api_version="2025.12", suite_commit="s", spec_commit="c", max_examples=1, seed=0
    )
    assert r["tools"] == tools
    line = render.tools_line([r])
    assert line == f"Hypothesis {tools['hypothesis']}, pytest {tools['pytest']}, pytest-xdist {tools['pytest-xdist']}"
    assert f"- Tools: {line}" in library_report.render({**r, "library": {"library": "m", "version": "1"}})
    old = {k: v for k, v in r.items() if k != "tools"}
    assert render.tools_line([old]) == "not recorded (made before the harness recorded them)"
