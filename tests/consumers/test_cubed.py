"""cubed's own tests with array-api-strict as its backend, and through the stand-in: the same tests must fail,
each with array-api-strict's first words.

cubed runs every chunk's computation with the array API namespace named by
``CUBED_BACKEND_ARRAY_API_MODULE`` (NumPy by default).  Its tests are not in the
wheel: they come from its sdist (``_standin_suite.sdist_tree``, pip, PyPI only).
They run once with ``CUBED_BACKEND_ARRAY_API_MODULE=array_api_strict`` and the
real array-api-strict 2.6.1, and once through ``python -m
array_api_promo.standin`` under the default policy.

Most of them fail with array-api-strict itself (cubed hands its dtypes to NumPy:
``Cannot interpret 'array_api_strict.int64' as a data type``, 636 of 793 at
0.27.0), and that is what makes the suite a test of the stand-in: each of
those refusals must be array-api-strict's, in its words.  So beyond the failing
sets, each test that fails on both sides must fail with array-api-strict's
message (the stand-in's starts with it; an exception class of ours that is also
array-api-strict's prints its own name).  The run found, before the stand-in
matched it: ``len(labels)`` accepted (array-api-strict's ``Array`` has no
``__len__``), and a NumPy dtype compared with its dtypes (its ``UserWarning``,
which cubed's ``-W error::UserWarning`` makes the failure).

Left out: ``runtime/test_lithops.py`` and ``runtime/test_dask.py`` (other
executors' packages, not installed).  ``--tb=no``: cubed's
threaded executors run beside pytest's traceback formatting, and CPython 3.11's
AST constructor is not thread-safe (``SystemError: AST constructor recursion depth
mismatch``, seen with array-api-strict alone); the junit XML keeps each
failure's message.
"""

from __future__ import annotations

import pytest

cubed = pytest.importorskip("cubed")
array_api_strict = pytest.importorskip("array_api_strict")

from _standin_suite import compare_failing, reference_run, run, sdist_tree  # noqa: E402

VERSION = cubed.__version__
ARGS = [
    "cubed/tests",
    "--ignore=cubed/tests/runtime/test_lithops.py",
    "--ignore=cubed/tests/runtime/test_dask.py",
    "-W",
    "ignore::pytest.PytestUnknownMarkWarning",  # (its "cloud" mark, registered in its CI only)
    "--tb=no",
]
ENVIRON = {"CUBED_BACKEND_ARRAY_API_MODULE": "array_api_strict"}
TIMEOUT = 900  # seconds a run may take: 20 to 70 s on 2 shared cores
# Exception classes of ours that are array-api-strict's too, and print their own names.
BOTH = {"array_api_promo._errors.ArgumentError": "ValueError"}


@pytest.fixture(scope="module")
def sdist():
    return sdist_tree("cubed", VERSION, "cubed/tests")


@pytest.fixture(scope="module")
def reference(tmp_path_factory, sdist):
    return reference_run(tmp_path_factory, ARGS, cwd=sdist, timeout=TIMEOUT, environ=ENVIRON)


def _as_array_api_strict_s(message: str) -> str:
    for ours, theirs in BOTH.items():
        if message.startswith(ours + ":"):
            return theirs + message[len(ours) :]
    return message


def test_cubed_suite_through_the_standin(tmp_path, sdist, reference):
    assert len(reference.outcomes) > 700 and len(reference.failing()) > 500, reference.counts()
    ours = run(tmp_path, ARGS, standin=True, cwd=sdist, timeout=TIMEOUT, environ=ENVIRON)
    print(f"cubed {VERSION}: reference {reference.counts()} in {reference.seconds:.0f} s")
    print(f"cubed {VERSION}: stand-in {ours.counts()} in {ours.seconds:.0f} s")
    compare_failing(f"cubed {VERSION}", reference, ours)
    worded = {
        test: (reference.messages[test], ours.messages[test])
        for test in reference.failing()
        if not _as_array_api_strict_s(ours.messages[test]).startswith(reference.messages[test])
    }
    assert not worded, f"{len(worded)} tests fail in other words, e.g.:\n" + "\n".join(
        f"{test}\n  array-api-strict: {theirs[:300]}\n  stand-in: {mine[:300]}"
        for test, (theirs, mine) in sorted(worded.items())[:10]
    )
