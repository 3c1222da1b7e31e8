"""The two ends of the supported range, each in a fresh environment (.ci/run runs both).

    nox -s oldest    # the oldest Python with the oldest NumPy and ml_dtypes pyproject.toml allows
    nox -s newest    # Python 3.13 with NumPy 2.5.x and the newest ml_dtypes

The lower bounds are read from pyproject.toml (``requires-python``, ``numpy>=``,
``ml_dtypes>=``) and pinned exactly, so the metadata cannot promise more than CI tests.
Each session installs the package with its ``test`` extra and the compiled fast paths
(required: a build that silently failed is an error) and runs the core tests (``CORE``):
everything under tests/ except the consumer suites (scikit-learn, SciPy, array-api-extra),
the Dask storage, the conformance harness and the documentation examples, which need
their own extras and run once, in .ci/run's main run.

Interpreters are looked up on PATH as ``python3.10``/``python3.13``; where pyenv is
installed, its newest matching versions are put first on PATH (its shims would answer
``python3.10`` with an error while another version is pyenv's global one).  A missing
interpreter is an error, never a skipped session.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys

import nox

if sys.version_info >= (3, 11):
    import tomllib
else:  # nox's own interpreter may be older
    import tomli as tomllib

nox.options.error_on_missing_interpreters = True
nox.options.sessions = ["oldest", "newest"]

ROOT = pathlib.Path(__file__).resolve().parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

# The core tests: what every supported Python and NumPy must pass.
CORE = [
    "tests",
    "--ignore=tests/consumers",  # the consumers extra (scikit-learn, SciPy, array-api-extra)
    "--ignore=tests/conformance",  # the harness: the upstream suite and its own requirements
    "--ignore=tests/test_dask_storage.py",  # the dask extra
    "--ignore=tests/test_benchmarks_dask.py",
    "--ignore=tests/test_docs.py",  # the docs' examples include Dask's; their output is NumPy-version-free
]
NEWEST_PYTHON = "3.13"
NEWEST_NUMPY = "2.5.*"


def lower_bound(requirement_prefix: str) -> str:
    """The ``>=`` bound of the dependency named ``requirement_prefix`` in pyproject.toml."""
    for requirement in PROJECT["dependencies"]:
        match = re.fullmatch(rf"{re.escape(requirement_prefix)}\s*>=\s*([0-9.]+)", requirement.strip())
        if match:
            return match.group(1)
    raise SystemExit(f"noxfile: pyproject.toml has no '{requirement_prefix}>=' dependency")


OLDEST_PYTHON = re.fullmatch(r">=\s*(3\.[0-9]+)", PROJECT["requires-python"].strip()).group(1)
OLDEST_PINS = [f"numpy=={lower_bound('numpy')}", f"ml_dtypes=={lower_bound('ml_dtypes')}"]


def _put_pyenv_versions_on_path(*versions: str) -> None:
    pyenv = shutil.which("pyenv")
    if pyenv is None:
        return
    root = pathlib.Path(subprocess.run([pyenv, "root"], capture_output=True, text=True, check=True).stdout.strip())

    def patch_level(path: pathlib.Path) -> int:
        return int(path.name.rsplit(".", 1)[1])

    found = []
    for version in versions:
        candidates = [p for p in root.joinpath("versions").glob(f"{version}.*") if re.fullmatch(r"3\.\d+\.\d+", p.name)]
        if candidates:
            found.append(str(max(candidates, key=patch_level) / "bin"))
    os.environ["PATH"] = os.pathsep.join([*found, os.environ.get("PATH", "")])


_put_pyenv_versions_on_path(OLDEST_PYTHON, NEWEST_PYTHON)


def _core_tests(session: nox.Session, *pins: str) -> None:
    session.install("-e", ".[test]", *pins)
    session.run(
        "python",
        "-c",
        "import sys, numpy, ml_dtypes; from array_api_promo import _core; "
        "print(f'Python {sys.version.split()[0]}, NumPy {numpy.__version__}, ml_dtypes {ml_dtypes.__version__}, "
        "compiled fast paths: {_core.COMPILED}')",
    )
    session.run(
        "python",
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        *CORE,
        *session.posargs,
        env={"ARRAY_API_PROMO_REQUIRE_COMPILED": "1"},
    )


@nox.session(python=OLDEST_PYTHON)
def oldest(session: nox.Session) -> None:
    """The core tests on the oldest declared Python, NumPy and ml_dtypes."""
    _core_tests(session, *OLDEST_PINS)


@nox.session(python=NEWEST_PYTHON)
def newest(session: nox.Session) -> None:
    """The core tests on Python 3.13 with NumPy 2.5.x (and the newest ml_dtypes)."""
    _core_tests(session, f"numpy=={NEWEST_NUMPY}")
