"""A consumer's own test suite run twice, with the real array-api-strict and through the stand-in, compared.

Shared by ``test_marray.py``, ``test_fftarray.py`` and ``test_cubed.py``: each runs a pytest
subprocess once with array-api-strict (the reference) and once through
``python -m array_api_promo.standin`` under the default policy, reads every
test's outcome from a junit XML, and requires the same failing tests (failures
and errors) on both sides.  Passes and skips are not compared: marray draws
unseeded data, so which tests skip (a sentinel value drawn) varies from run to
run.  The assertion message lists the tests failing on one side only, grouped
by the exception that failed them, each group with what the other side said for
its first test (an xfail's reason is the exception the consumer keyed it on).
``test_xarray.py`` runs xarray's tests with ``run`` too, under each policy, and
compares every outcome itself.
"""

from __future__ import annotations

import collections
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAILING = ("failed", "error")


@dataclass
class Run:
    """One run of a suite: each test's outcome, the first exception line of each failing test, the wall time."""

    outcomes: dict[str, str]
    messages: dict[str, str]
    seconds: float

    def failing(self) -> set[str]:
        return {t for t, o in self.outcomes.items() if o in FAILING}

    def counts(self) -> dict[str, int]:
        return dict(sorted(collections.Counter(self.outcomes.values()).items()))


def env(**extra: str) -> dict:
    """The environment of a run: this checkout first on ``PYTHONPATH``, no flag or policy of ours or array-api-strict's
    (``extra``: the consumer's own variables)."""
    environ = dict(os.environ) | extra
    environ["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    for var in list(environ):
        if var.startswith(("ARRAY_API_STRICT_", "ARRAY_API_PROMO_")):
            del environ[var]
    return environ


def run(
    tmp_path,
    pytest_args: list[str],
    *,
    standin: bool,
    policy: str | None = None,
    cwd=None,
    timeout: float,
    environ: dict | None = None,
) -> Run:
    """Run ``python -m pytest PYTEST_ARGS`` (through the stand-in if ``standin``, under ``policy`` if given,
    else its default; ``environ``: the consumer's own variables) and read its junit XML."""
    report = tmp_path / "report.xml"
    options = ["--policy", policy] if policy else []
    runner = [sys.executable, "-m", "array_api_promo.standin", *options, "--"] if standin else []
    command = [*runner, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=short"]
    command += [f"--junitxml={report}", *pytest_args]
    start = time.perf_counter()
    proc = subprocess.run(
        command,
        check=False,
        cwd=cwd or tmp_path,
        env=env(**(environ or {})),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    seconds = time.perf_counter() - start
    # 0: all passed, 1: some failed; anything else (usage error, no tests, internal error) is the harness's fault.
    assert proc.returncode in (0, 1) and report.exists(), (
        f"{'stand-in' if standin else 'reference'} run of {command} exited {proc.returncode}:\n"
        + proc.stdout[-3000:]
        + proc.stderr[-3000:]
    )
    return _read(report, seconds)


def reference_run(tmp_path_factory, pytest_args: list[str], **options) -> Run:
    """The reference run: ``pytest_args`` with the real array-api-strict, of the release whose words the
    stand-in mirrors (``options``: ``run``'s)."""
    import array_api_strict

    from array_api_promo.standin import MIRRORED_VERSION

    assert array_api_strict.__version__ == MIRRORED_VERSION, (array_api_strict.__version__, MIRRORED_VERSION)
    return run(tmp_path_factory.mktemp("reference"), pytest_args, standin=False, **options)


def sdist_tree(project: str, version: str, tests: str) -> str:
    """The directory of ``project``'s unpacked sdist at ``version`` (whose ``tests`` directory its wheel
    lacks), downloaded with pip (PyPI only) on first use into ``$ARRAY_API_PROMO_SDIST_CACHE``, else
    ``~/.cache/array_api_promo/sdists``.  A download that fails is an assertion error naming the command."""
    cache = os.environ.get("ARRAY_API_PROMO_SDIST_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "array_api_promo", "sdists"
    )
    tree = os.path.join(cache, f"{project}-{version}")
    if os.path.isdir(os.path.join(tree, tests)):
        return tree
    os.makedirs(cache, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as scratch:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"]
        command += ["--disable-pip-version-check", "-d", scratch, f"{project}=={version}"]
        proc = subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)
        archives = [name for name in os.listdir(scratch) if name.endswith(".tar.gz")]
        assert proc.returncode == 0 and len(archives) == 1, (
            f"could not download {project} {version}'s sdist (its tests are not in the wheel) with "
            f"{' '.join(command)} (exit {proc.returncode}); this test needs PyPI:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}"
        )
        with tarfile.open(os.path.join(scratch, archives[0])) as archive:
            if hasattr(tarfile, "data_filter"):  # Python 3.11.4+: refuse links and paths out of the directory
                archive.extractall(scratch, filter="data")
            else:
                archive.extractall(scratch)
        unpacked = os.path.join(scratch, f"{project}-{version}")
        assert os.path.isdir(os.path.join(unpacked, tests)), f"{project} {version}'s sdist has no {tests}/"
        try:
            os.replace(unpacked, tree)  # atomic: a concurrent run that got there first keeps its copy
        except OSError:
            assert os.path.isdir(os.path.join(tree, tests)), tree
    return tree


def _read(report, seconds: float) -> Run:
    outcomes: dict[str, str] = {}
    messages: dict[str, str] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        name = case.get("classname", "") + "::" + case.get("name", "")
        assert name not in outcomes, f"two test cases named {name} in {report}"
        failure, error, skipped = case.find("failure"), case.find("error"), case.find("skipped")
        if failure is not None or error is not None:
            element = failure if failure is not None else error
            outcomes[name] = "failed" if failure is not None else "error"
            messages[name] = _first_exception_line(element)
        elif skipped is not None:
            outcomes[name] = "xfailed" if skipped.get("type") == "pytest.xfail" else "skipped"
            messages[name] = skipped.get("message", "").strip()  # an xfail's: the exception marray keyed it on
        else:
            outcomes[name] = "passed"
    return Run(outcomes, messages, seconds)


def _first_exception_line(element) -> str:
    """The first ``E`` line of a failure's traceback: the innermost cause of a chained exception comes first."""
    for line in (element.text or "").splitlines():
        if line.startswith("E "):
            return line[1:].strip()
    return element.get("message", "").strip().splitlines()[0] if element.get("message", "").strip() else ""


def _shape(message: str) -> str:
    """A message with its numbers, dtype names and memory addresses generalised, to group tests by cause."""
    message = re.sub(r"0x[0-9a-f]+", "0x…", message)
    message = re.sub(
        r"\b(array_api_strict\.)?(bool|u?int(8|16|32|64)|float(32|64)|complex(64|128))\b", "<dtype>", message
    )
    message = re.sub(r"\b\d+(\.\d+)?\b", "<n>", message)
    return message[:300]


def _grouped(tests: set[str], run: Run, other: Run, other_name: str, limit: int = 40, examples: int = 3) -> list[str]:
    groups: dict[str, list[str]] = collections.defaultdict(list)
    for test in sorted(tests):
        groups[_shape(run.messages.get(test, ""))].append(test)
    lines = []
    for message, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:limit]:
        lines.append(f"  {len(members)} x {message or '(no message)'}")
        for i, test in enumerate(members[:examples]):
            said = other.messages.get(test, "") if i == 0 else ""  # the other side's words, once a cause
            said = f": {said[:200]}" if said else ""
            lines.append(f"      {test}  ({other_name}: {other.outcomes.get(test, 'not run')}{said})")
        if len(members) > examples:
            lines.append(f"      ... and {len(members) - examples} more")
    if len(groups) > limit:
        lines.append(f"  ... and {len(groups) - limit} more causes")
    return lines


def compare_failing(name: str, reference: Run, ours: Run) -> None:
    """Assert that the same tests fail (or error) with array-api-strict and through the stand-in."""
    assert ours.outcomes.keys() == reference.outcomes.keys(), (
        f"{name}: the two runs collected different tests; only in the reference: "
        f"{sorted(reference.outcomes.keys() - ours.outcomes.keys())[:20]}, only through the stand-in: "
        f"{sorted(ours.outcomes.keys() - reference.outcomes.keys())[:20]}"
    )
    only_ours = ours.failing() - reference.failing()
    only_reference = reference.failing() - ours.failing()
    if only_ours or only_reference:
        lines = [
            f"{name}: the failing tests differ (reference {reference.counts()} in {reference.seconds:.0f} s; "
            f"stand-in {ours.counts()} in {ours.seconds:.0f} s)",
            f"{len(only_ours)} fail only through the stand-in (its first exception line):",
            *_grouped(only_ours, ours, reference, "array-api-strict"),
            f"{len(only_reference)} fail only with array-api-strict (its first exception line):",
            *_grouped(only_reference, reference, ours, "stand-in"),
        ]
        raise AssertionError("\n".join(lines))
