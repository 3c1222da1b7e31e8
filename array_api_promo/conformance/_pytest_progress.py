"""A tiny pytest plugin (loaded with ``-p array_api_promo.conformance._pytest_progress``) that
appends progress lines to the file named by $CONFORMANCE_PROGRESS_FILE
(and, with $CONFORMANCE_NO_SHRINK=1, turns off Hypothesis' shrink phase):

    total <n>
    done <outcome> <nodeid>

Only the controlling process writes (under pytest-xdist the workers stay quiet,
their reports reach the controller)."""

from __future__ import annotations

import os

import pytest

_ENV = "CONFORMANCE_PROGRESS_FILE"


class _Progress:
    def __init__(self, path: str):
        self._fh = open(path, "a", buffering=1, encoding="utf-8")  # noqa: SIM115 (open for the whole session; closed in sessionfinish)
        self._failed: set[str] = set()
        self._total = 0

    def _write(self, line: str) -> None:
        self._fh.write(line.replace("\n", " ") + "\n")

    def total(self, n: int) -> None:
        if n > self._total:
            self._total = n
            self._write(f"total {n}")

    # hooks -----------------------------------------------------------------
    def pytest_collection_finish(self, session):
        self.total(len(session.items))

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids):
        self.total(len(ids))

    def pytest_runtest_logreport(self, report):
        nid = report.nodeid
        if report.when in ("setup", "call") and report.failed:
            self._failed.add((nid, "error" if report.when == "setup" else "failed"))
        if report.when == "setup" and report.skipped:
            self._failed.add((nid, "skipped"))
            return
        if report.when == "call" and report.skipped:
            self._failed.add((nid, "skipped"))
        if report.when == "teardown":
            kinds = {k for (n, k) in self._failed if n == nid}
            self._failed = {(n, k) for (n, k) in self._failed if n != nid}
            if "error" in kinds or (report.failed and not kinds):
                outcome = "error"
            elif "failed" in kinds:
                outcome = "failed"
            elif "skipped" in kinds:
                outcome = "skipped"
            else:
                outcome = "passed"
            self._write(f"done {outcome} {nid}")

    def pytest_unconfigure(self, config):
        try:
            self._write("finished")
            self._fh.close()
        except (OSError, ValueError):  # already closed, or the file went away
            pass


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    if os.environ.get("CONFORMANCE_NO_SHRINK"):
        _disable_shrinking()
    path = os.environ.get(_ENV)
    if not path or hasattr(config, "workerinput"):
        return
    config.pluginmanager.register(_Progress(path), "conformance-progress")


def _disable_shrinking():
    """Keep the suite's Hypothesis profile but skip the (slow) shrink phase."""
    try:
        from hypothesis import Phase, settings
    except ImportError:
        return
    phases = tuple(p for p in Phase if p is not Phase.shrink)
    settings.register_profile("conformance-no-shrink", parent=settings(), phases=phases)
    settings.load_profile("conformance-no-shrink")
