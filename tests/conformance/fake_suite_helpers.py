"""What the conformance tests share: the fake suite, one quick run of it, the files of a library
report, and ``cli.main`` run under a given environment (restored after)."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest

from array_api_promo.conformance import cli

FAKE = Path(__file__).resolve().parents[1] / "fixtures" / "fake_suite"

#: A quick run: few examples, one worker, quiet, the suite as it is.
QUICK = ["--max-examples", "3", "--workers", "1", "--no-progress", "--no-clone"]

#: One quick run of the fake suite, for one policy (the harness's own options, no subcommand).
FAKE_RUN = ["--suite", str(FAKE), "--policy", "array_api", "--module-map", "array_api=fake_namespace", *QUICK]

#: The files of one library's report folder.
REPORT_FILES = ["README.md", "results.json", "skips.txt", "xfails-annotated.txt", "xfails.txt"]


@contextmanager
def environ(**env: str):
    """``os.environ`` updated with ``env`` inside the block, as it was after it."""
    with pytest.MonkeyPatch.context() as mp:
        for k, v in env.items():
            mp.setenv(k, v)
        yield


def main_in(argv: list, env: dict) -> int:
    """``cli.main(argv)`` with ``env`` in ``os.environ``."""
    with environ(**env):
        return cli.main(argv)
