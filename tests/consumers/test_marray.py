"""marray's own tests through the stand-in for array-api-strict: the same tests must fail as with the real one.

marray (masked arrays over any array-API namespace) ships its tests in its wheel
(``marray/tests/test_marray.py``, no ``__init__.py``: run by path).  Each test is
parametrized over ``xps = [np, array_api_strict, (torch)]``; ``-k array_api_strict``
selects the array-api-strict ones (3,899 in marray 0.0.12).  They run in a pytest
subprocess, once with the real array-api-strict 2.6.1 (the reference) and once
through ``python -m array_api_promo.standin`` under the default policy, and the
failing tests (failures and errors) must be the same.  marray draws unseeded
data (``np.random.SeedSequence(None)``), so which tests skip or pass varies from
run to run and is not compared.

marray keys many expected failures on array-api-strict's wording: its
``pass_exceptions(allowed=[...])`` turns an exception whose message contains one
of the listed strings ("cannot be type promoted together", "Only numeric dtypes
are allowed in", "The Array API standard stipulates that casting", ...) into an
xfail and any other into a failure, so the stand-in's refusals must say what
array-api-strict says.
"""

from __future__ import annotations

import os

import pytest

marray = pytest.importorskip("marray")
array_api_strict = pytest.importorskip("array_api_strict")

from _standin_suite import compare_failing, reference_run, run  # noqa: E402

TESTS = os.path.join(os.path.dirname(os.path.abspath(marray.__file__)), "tests")
ARGS = [TESTS, "-k", "array_api_strict"]
TIMEOUT = 1800  # seconds a run may take: 75 s for the reference on 2 cores, 415 s through the stand-in failing them all


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    return reference_run(tmp_path_factory, ARGS, timeout=TIMEOUT)


def test_marray_suite_through_the_standin(tmp_path, reference):
    assert len(reference.outcomes) > 3000 and reference.counts().get("passed", 0) > 2000, reference.counts()
    ours = run(tmp_path, ARGS, standin=True, timeout=TIMEOUT)
    print(f"marray {marray.__version__}: reference {reference.counts()} in {reference.seconds:.0f} s")
    print(f"marray {marray.__version__}: stand-in {ours.counts()} in {ours.seconds:.0f} s")
    compare_failing(f"marray {marray.__version__}", reference, ours)
