"""A tiny pytest plugin (loaded with ``-p array_api_promo.conformance._pytest_draws``) that makes
every draw of the suite a function of ``--hypothesis-seed``.

The suite's one-value special-case tests (``test_special_cases.py::test_unary``) take their
operand with ``strategy.example()``, not ``@given``: Hypothesis generates a batch of ten under the
seed, then picks one with ``random.shuffle`` on the process's global ``random``, which nothing
seeds (it starts from the OS entropy in each pytest-xdist worker). A case whose condition allows
several values (``expm1`` of ``+0 + 0j`` or ``-0 + 0j``) then passed or failed by a coin flip that
``--seed`` did not decide: a report's "fails on some draws only (seeds ...)" named seeds that did
not reproduce it, and an independent run could find a failure the seeds had not drawn.

Seeding ``random`` before each test from the Hypothesis seed and the test's node id makes that
pick the same for the same seed (in any worker, in any order) and another one for another seed.
"""

from __future__ import annotations

import random

import pytest


def draw_seed(hypothesis_seed, nodeid: str) -> str:
    """What ``random`` is seeded with before ``nodeid`` runs (a str: seeded through SHA-512, so
    the same under any PYTHONHASHSEED)."""
    return f"{hypothesis_seed}\0{nodeid}"


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    random.seed(draw_seed(item.config.getoption("hypothesis_seed", None), item.nodeid))
