"""The hostile-input suite: a memory ceiling for the process, and the profile's figures at the end.

Hostile shapes (``zeros((10**10, 10**10))``, ``tile(x, 2**31)`` ...) must be refused
up front; a shape that fits the machine but not this ceiling is refused too (the
namespace reads ``RLIMIT_DATA``), so no call of the suite can take more than about
1 GiB beyond what the process already holds, on a machine shared with other jobs.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import _fuzz

try:
    import resource
except ImportError:  # pragma: no cover - not on Windows
    resource = None

_HEADROOM = 1 << 30


def _data_bytes() -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


@pytest.fixture(scope="module", autouse=True)
def memory_ceiling():
    used = _data_bytes()
    if resource is None or used is None:
        yield None
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    ceiling = used + _HEADROOM
    if hard != resource.RLIM_INFINITY:
        ceiling = min(ceiling, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (ceiling, hard))
    try:
        yield ceiling
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


def pytest_collection_modifyitems(items):
    # Hostile values (NaN, negatives into log, zero divisors) make NumPy's floating-point
    # RuntimeWarnings by design; they pass through our kernels unchanged, as with NumPy.
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(pytest.mark.filterwarnings("ignore::RuntimeWarning"))


def pytest_terminal_summary(terminalreporter):
    stats = _fuzz.STATS
    if not stats.calls:
        return
    failed = len(terminalreporter.stats.get("failed", []))
    profile = _fuzz.profile_settings()
    summary = {
        "profile": profile["name"],
        "examples_per_target": profile["examples"],
        "calls": stats.calls,
        "distinct_operations": len(stats.targets),
        "hostile_classes": sorted(stats.classes),
        "outcomes": dict(sorted(stats.outcomes.items())),
        "failed_tests": failed,
        "seconds_in_calls": round(stats.seconds, 1),
        "slowest_call": [round(stats.slowest[0], 3), stats.slowest[1]],
    }
    terminalreporter.write_sep("-", "hostile-input profile")
    for key, value in summary.items():
        terminalreporter.write_line(f"{key}: {value}")
    path = os.environ.get("HOSTILE_REPORT")
    if path:
        with open(path, "w") as f:
            json.dump(summary, f, indent=1)
