"""fftarray's own tests through the stand-in for array-api-strict: the same tests must fail as with the real one.

fftarray's tests are not in its wheel: the test takes them from its sdist, which
it downloads once with pip (``pip download --no-deps --no-binary :all:
fftarray==<installed version>``, PyPI only) into a cache directory
(``$ARRAY_API_PROMO_SDIST_CACHE``, else ``~/.cache/array_api_promo/sdists``) and
unpacks there.  A download that fails is a failure of this test, never a skip:
only a missing fftarray skips it.

What runs, from the sdist's directory (its ``conftest.py`` and ``tests``
package; ``tests.helpers`` is imported by name):

* backends: fftarray has no option or variable for them; ``tests/helpers.py``
  builds ``XPS = [array_api_strict, array_api_compat.numpy]`` plus JAX, PyTorch
  and CuPy where importable, and tests take ``xp`` from it (or name
  ``array_api_strict`` alone).  Test ids carry the namespace's name
  (``...-array_api_strict]``, ``...-array_api_compat.numpy]``), so ``-k
  "array_api_strict or not (array_api_compat or jax)"`` keeps every test that
  involves array_api_strict (pairs with another backend included) and those that
  take no backend, and drops the NumPy-, PyTorch-, CuPy- and JAX-only ones;
* ``--ignore`` for the seven modules that import JAX, z3 or IPython at module
  level (``test_array_ops``, ``test_dimension``, ``test_jax``,
  ``test_constraint_solver*``, ``end_to_end/*``): JAX is no dependency of ours
  and the consumers extra does not install it, so they cannot be collected;
* ``-k "not test_shift"``: ``fa.shift_freq``/``shift_pos`` need the
  ``fftarray[dimsolver]`` extra (z3-solver) in every parametrization, a
  ``ModuleNotFoundError`` on both sides that says nothing about the stand-in;
* ``--skip-pandoc`` (fftarray's own option): ``test_readme_consistency``
  runs ``pandoc``.

That is 3,871 of the 4,150 tests the seven importable modules hold.  They run
once with the real array-api-strict 2.6.1 and once through ``python -m
array_api_promo.standin`` under the default policy, and the failing tests
(failures and errors) must be the same.
"""

from __future__ import annotations

import importlib.metadata

import pytest

fa = pytest.importorskip("fftarray")
array_api_strict = pytest.importorskip("array_api_strict")

from _standin_suite import compare_failing, reference_run, run, sdist_tree  # noqa: E402

VERSION = importlib.metadata.version("fftarray")  # fftarray has no __version__

# Modules of fftarray's tests that import JAX, z3 or IPython at module level.
UNIMPORTABLE = (
    "tests/end_to_end/test_examples.py",
    "tests/end_to_end/test_imag_time_evolution.py",
    "tests/other/test_array_ops.py",
    "tests/other/test_constraint_solver.py",
    "tests/other/test_constraint_solver_suggestions.py",
    "tests/other/test_dimension.py",
    "tests/other/test_jax.py",
)
SELECTION = "(array_api_strict or not (array_api_compat or jax)) and not test_shift"
ARGS = ["tests", "--skip-pandoc", "-k", SELECTION, *(f"--ignore={path}" for path in UNIMPORTABLE)]
TIMEOUT = 600  # seconds a run may take: 10 to 20 s on 2 shared cores


@pytest.fixture(scope="module")
def sdist():
    return sdist_tree("fftarray", VERSION, "tests")


@pytest.fixture(scope="module")
def reference(tmp_path_factory, sdist):
    return reference_run(tmp_path_factory, ARGS, cwd=sdist, timeout=TIMEOUT)


def test_fftarray_suite_through_the_standin(tmp_path, sdist, reference):
    assert len(reference.outcomes) > 3000 and reference.counts().get("passed", 0) > 2000, reference.counts()
    ours = run(tmp_path, ARGS, standin=True, cwd=sdist, timeout=TIMEOUT)
    print(f"fftarray {VERSION}: reference {reference.counts()} in {reference.seconds:.0f} s")
    print(f"fftarray {VERSION}: stand-in {ours.counts()} in {ours.seconds:.0f} s")
    compare_failing(f"fftarray {VERSION}", reference, ours)
