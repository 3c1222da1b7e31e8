"""End-to-end and unit tests of the conformance harness (``python -m conformance``),
run against the small fake suite in tests/fixtures/fake_suite (no network, no
torch, no upstream checkout needed)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import pytest
from fake_suite_helpers import FAKE, FAKE_RUN  # tests/conformance is on sys.path (rootdir-relative import mode)

from array_api_promo.conformance import (
    DEVIATIONS_MD,
    RESULTS_DIR,
    XFAILS_DIR,
    cli,
    normalize,
    plan,
    render,
    reproduce,
    runner,
    suite as suite_mod,
)
from array_api_promo.conformance.commands import run as run_cmd

ADD = "array_api_tests/test_operators_and_elementwise_functions.py::test_add[add(x1, x2)]"
MOD = "array_api_tests/test_operators_and_elementwise_functions.py"
ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def _pythonpath(*paths, keep=True):
    """PYTHONPATH is ``paths`` (then what it was, if ``keep``) inside the block, as it was after it."""
    old = os.environ.get("PYTHONPATH")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PYTHONPATH", os.pathsep.join([*map(str, paths)] + ([old] if old and keep else [])))
        yield


def _python_m(module: str, argv: list, env: dict, cwd=ROOT, timeout: float = 600):
    """``python -m <module> <argv>`` in a process of its own, as a user runs it; its output as text."""
    return subprocess.run(
        [sys.executable, "-m", module, *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def _tracked_changes(paths=("conformance", "DEVIATIONS.md")) -> str:
    """``git status`` of the checkout's tracked files under ``paths`` (all of them for ``()``)."""
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no", "--", *paths], cwd=ROOT, capture_output=True, text=True
    ).stdout


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """One harness run of the fake suite for two policies (both mapped to the fake namespace)."""
    tmp = tmp_path_factory.mktemp("conformance")
    with _pythonpath(FAKE):
        rc = cli.main(
            [
                *FAKE_RUN,
                "--policy",
                "torch",
                "--module-map",
                "torch=fake_namespace",
                "--results-dir",
                str(tmp / "results"),
                "--xfails-dir",
                str(tmp / "xfails"),
                "--output",
                str(tmp / "DEVIATIONS.md"),
                "--work-dir",
                str(tmp / "work"),
            ]
        )
    assert rc == 0
    return tmp


def _results(run, policy="array_api"):
    return json.loads((run / "results" / f"{policy}-2025.12.json").read_text())


def _by_id(results):
    return {t["nodeid"]: t for t in results["tests"]}


def test_outcomes_and_classification(run):
    tests = _by_id(_results(run))
    assert tests["array_api_tests/test_has_names.py::test_has_names[elementwise-add]"]["outcome"] == "passed"
    missing = tests["array_api_tests/test_has_names.py::test_has_names[elementwise-definitely_missing]"]
    assert (missing["outcome"], missing["kind"], missing["spec_function"]) == (
        "failed",
        "missing name",
        "definitely_missing",
    )
    add = tests[ADD]
    assert (add["kind"], add["spec_function"]) == ("wrong dtype", "add")
    assert add["dtype"] == {
        "function": "add",
        "inputs": ["int8", "int64"],
        "got": "int8",
        "expected": "int64",
        "ranks": {"x1": "nd", "x2": "0-d"},
    }
    assert tests[f"{MOD}::test_add[__add__(x1, x2)]"]["spec_function"] == "__add__"
    assert tests[f"{MOD}::test_add_values"]["outcome"] == "passed"
    assert tests[f"{MOD}::test_multiply"]["kind"] == "wrong value"
    assert tests[f"{MOD}::test_multiply"]["failing_code"] == (
        "xp.multiply(Array([1, 1], dtype=int64), Array([1, 1], dtype=int64))"
    )
    assert tests[f"{MOD}::test_negative"]["kind"] == "unexpected exception"
    err = tests[f"{MOD}::test_positive"]
    assert (err["outcome"], err["kind"]) == ("error", "unexpected exception")
    skip = tests[f"{MOD}::test_remainder"]
    assert (skip["outcome"], skip["reason"]) == ("skipped", "flaky")
    assert _results(run)["summary"] == {
        "passed": 2,
        "failed": 5,
        "error": 1,
        "skipped": 1,
        "xfailed": 0,
        "xpassed": 0,
        "total": 9,
    }


def test_results_metadata_and_scrubbing(run):
    r = _results(run)
    assert r["policy"] == "array_api" and r["module"] == "fake_namespace" and r["api_version"] == "2025.12"
    assert r["hypothesis"] == {"max_examples": 3, "seed": 0, "shrink": True}
    # An intentional policy's failures are by design: its run skips the (slow) shrink phase by default.
    torch = normalize.load(run / "results" / "torch-2025.12.json")
    assert torch["hypothesis"] == {"max_examples": 3, "seed": 0, "shrink": False}
    assert re.fullmatch(r"\d+\.\d+", r["numpy"]) and re.fullmatch(r"\d+\.\d+", r["python"])
    assert "add" in r["spec_text"] and "type_promotion:Notes" in r["spec_text"]
    text = (run / "results" / "array_api-2025.12.json").read_text()
    assert str(FAKE) not in text and str(run) not in text and "/some/machine" not in text
    assert not re.search(r"0x[0-9a-f]{6,}", text)
    assert "created" not in r and "duration" not in text
    assert "RuntimeError: setup exploded at <path>/file.py (object at 0x…)" in text


def test_dtype_failure_attributed_to_policy_rule(run):
    pytest.importorskip("array_api_promo.promotion")
    torch_add = _by_id(_results(run, "torch"))[ADD]["attribution"]
    assert torch_add["explained"] is True
    assert "0-d" in torch_add["trace"] and torch_add["engine_result"] == "int8"
    std_add = _by_id(_results(run, "array_api"))[ADD]["attribution"]
    assert std_add["explained"] is False and std_add["engine_result"] == "int64"


def test_xfails_file(run):
    text = (run / "xfails" / "array_api-2025.12.txt").read_text()
    ids = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
    assert sorted(ids) == sorted(
        [
            "array_api_tests/test_has_names.py::test_has_names[elementwise-definitely_missing]",
            ADD,
            f"{MOD}::test_add[__add__(x1, x2)]",
            f"{MOD}::test_multiply",
            f"{MOD}::test_negative",
            f"{MOD}::test_positive",
        ]
    )


def test_xfails_file_is_accepted_by_the_suite(run, tmp_path):
    """Re-running with the generated xfails file turns every failure into an xfail."""
    import subprocess
    import sys

    env = dict(
        os.environ,
        ARRAY_API_TESTS_MODULE="fake_namespace",
        PYTHONPATH=os.pathsep.join([str(FAKE), os.environ.get("PYTHONPATH", "")]),
    )
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(FAKE / "array_api_tests"),
            "-q",
            "-p",
            "no:cacheprovider",
            "--xfails-file",
            str(run / "xfails" / "array_api-2025.12.txt"),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "6 xfailed" in out.stdout


def test_report_content(run):
    md = (run / "DEVIATIONS.md").read_text()
    assert md.startswith("# Array API conformance")
    assert "## Part 1: Intentional policy deviations" in md and "## Part 2: Defects" in md
    assert "## Part 3: Promotion rules compared with the standard" in md
    assert "| `array_api` | `fake_namespace` | 2025.12 | 2 | 5 | 1 | 1 | 9 |" in md
    # executed reproducer output is embedded
    assert "### 1. Missing names: namespace" in md
    assert "names = ['definitely_missing']" in md
    assert "```text\nmissing: definitely_missing\n```" in md
    # a reproducer built from the suite's FAILING CODE SNIPPET, and its output
    assert "out = xp.multiply(xp.asarray([1, 1], dtype=xp.int64), xp.asarray([1, 1], dtype=xp.int64))" in md
    assert "```text\narray([2, 2])\n```" in md
    assert "out.dtype = dtype('int8')" in md
    # the spec is quoted
    assert "> Fixture add: the elementwise sum of x1 and x2." in md
    assert str(FAKE) not in md and str(run) not in md


def test_render_is_deterministic(run):
    results = normalize.load_all(run / "results")
    execute = partial(reproduce.execute, extra_path=[FAKE])
    first = render.render(results, execute=execute)
    second = render.render(list(reversed(results)), execute=execute)
    assert first.encode() == second.encode()
    assert first == (run / "DEVIATIONS.md").read_text()


def test_render_only(run, tmp_path):
    with _pythonpath(FAKE, keep=False):
        rc = cli.main(
            [
                "--render-only",
                "--results-dir",
                str(run / "results"),
                "--xfails-dir",
                str(tmp_path / "x"),
                "--output",
                str(tmp_path / "D.md"),
            ]
        )
    assert rc == 0
    assert (tmp_path / "D.md").read_bytes() == (run / "DEVIATIONS.md").read_bytes()
    assert (tmp_path / "x" / "torch-2025.12.txt").read_text() == (run / "xfails" / "torch-2025.12.txt").read_text()


# ---------------------------------------------------------------------------
# locating the suite
# ---------------------------------------------------------------------------
def test_no_suite_gives_instructions(tmp_path):
    with pytest.raises(suite_mod.SuiteNotFound) as exc:
        suite_mod.locate(None, environ={}, cache_dir=tmp_path / "none", cloner=None, local=[])
    msg = str(exc.value)
    assert "git clone https://github.com/data-apis/array-api-tests" in msg
    assert "git clone https://github.com/data-apis/array-api" in msg
    assert "checkout 55fcc60" in msg and "checkout 5f847a3" in msg
    assert "--suite" in msg and "ARRAY_API_TESTS_DIR" in msg


def test_failed_clone_gives_instructions(tmp_path):
    calls = []

    def offline(dest):
        calls.append(dest)
        raise OSError("network is unreachable")

    with pytest.raises(suite_mod.SuiteNotFound) as exc:
        suite_mod.locate(None, environ={}, cache_dir=tmp_path / "c", cloner=offline, local=[])
    assert calls == [tmp_path / "c"]
    assert "network is unreachable" in str(exc.value) and "--suite" in str(exc.value)


def test_cli_without_suite_exits_nonzero(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("ARRAY_API_TESTS_DIR", raising=False)
    monkeypatch.setattr(suite_mod, "DEFAULT_CACHE_SUITE", tmp_path / "cache")
    monkeypatch.setattr(suite_mod, "local_checkouts", lambda: [])

    def offline(dest):
        raise OSError("no network")

    rc = cli.main(["--results-dir", str(tmp_path), "--output", str(tmp_path / "D.md")], cloner=offline)
    assert rc == 2
    err = capsys.readouterr().err
    assert "git clone" in err and "ARRAY_API_TESTS_DIR" in err
    assert not (tmp_path / "D.md").exists()


def test_suite_from_env_and_commit_warning(monkeypatch):
    info = suite_mod.locate(None, environ={"ARRAY_API_TESTS_DIR": str(FAKE)}, cloner=None)
    assert info.path == FAKE
    assert any("pinned is" in w for w in info.warnings)


def test_the_suite_is_found_where_the_readme_clones_it(tmp_path, monkeypatch):
    """The README's commands clone into ./array-api-tests: found without --suite or the variable."""
    shutil.copytree(FAKE, tmp_path / "array-api-tests", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(tmp_path)
    info = suite_mod.locate(None, environ={}, cache_dir=tmp_path / "cache", cloner=None)
    assert info.path == (tmp_path / "array-api-tests").resolve()


def test_bad_suite_path(tmp_path):
    """A folder of something else: what a checkout holds, and a clone into a new folder, never into it."""
    (tmp_path / "notes.txt").write_text("unrelated")
    with pytest.raises(suite_mod.SuiteNotFound) as exc:
        suite_mod.locate(tmp_path, cloner=None)
    msg = str(exc.value)
    assert "\n" not in msg and msg.startswith(f"--suite {tmp_path} is not an array-api-tests checkout: expected")
    assert "array_api_tests/, conftest.py and the spec submodule array-api/" in msg
    assert "git clone https://github.com/data-apis/array-api-tests array-api-tests &&" in msg
    assert f"clone https://github.com/data-apis/array-api-tests {tmp_path}" not in msg
    # a folder that is not there yet: the clone goes there
    msg = str(pytest.raises(suite_mod.SuiteNotFound, suite_mod.locate, tmp_path / "new", cloner=None).value)
    assert f"{tmp_path / 'new'} does not exist; fetch the pinned suite there: git clone" in msg
    # the suite without its spec submodule: only the spec's clone, into it
    bare = tmp_path / "bare"
    shutil.copytree(FAKE, bare, ignore=shutil.ignore_patterns("array-api", "__pycache__"))
    msg = str(pytest.raises(suite_mod.SuiteNotFound, suite_mod.locate, bare, cloner=None).value)
    assert "has no spec" in msg and f"git clone https://github.com/data-apis/array-api {bare}/array-api" in msg
    # the environment variable is named as such
    msg = str(
        pytest.raises(
            suite_mod.SuiteNotFound, suite_mod.locate, None, environ={"ARRAY_API_TESTS_DIR": str(tmp_path)}
        ).value
    )
    assert msg.startswith(f"$ARRAY_API_TESTS_DIR {tmp_path} is not")


# ---------------------------------------------------------------------------
# names checked before any run: one line on stderr, exit code 2, nothing written
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "says"),
    [
        ("--policy nosuch", "unknown policy 'nosuch': registered policies are array_api"),
        ("--policy no_such_module:POLICY", "policy 'no_such_module:POLICY': cannot load"),
        ("--policy json:dumps", "json:dumps is a function, not a promotion Policy"),
        ("--api-version 2020.01", "unknown API version '2020.01'"),
        ("--render-only --results-dir EMPTY", "no results to render in"),
        ("--policy megengine", "policy 'megengine' has no float64 and no complex dtype"),
        ("--policy jax", "policy 'jax' has no float64. Its promotion rules are compared"),
        ("--policy array_api_promo.promotion.megengine:MegEnginePolicy", "has no float64 and no complex dtype"),
        ("--api-version 2021.12", "the 2021.12 standard has no complex dtypes. Run it at 2022.12 or later"),
        ("--storage dask --policy megengine", "policy 'megengine' at 2025.12 cannot be run"),
    ],
)
def test_bad_names_are_one_line_errors_and_write_nothing(command, says, tmp_path, capsys):
    argv = [str(tmp_path / "empty") if a == "EMPTY" else a for a in command.split()]
    (tmp_path / "empty").mkdir()
    runs = "--render-only" not in argv  # render takes no suite options: argparse refuses them
    rc = cli.main([*argv, *(["--suite", str(FAKE), "--no-clone", "--work-dir", str(tmp_path / "work")] * runs)])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.startswith("python -m conformance: error: ") and err.count("\n") == 1 and says in err
    assert [p.name for p in tmp_path.iterdir()] == ["empty"] and not any((tmp_path / "empty").iterdir())


@pytest.mark.skipif(not os.environ.get("ARRAY_API_TESTS_DIR"), reason="needs the pinned suite (ARRAY_API_TESTS_DIR)")
@pytest.mark.parametrize(
    ("policy", "version"), [("megengine", "2025.12"), ("jax", "2025.12"), ("array_api", "2021.12"), ("mlx", "2025.12")]
)
def test_the_suite_imports_exactly_where_the_harness_says_it_can(policy, version):
    """The harness refuses a run up front exactly when the real suite's dtype_helpers cannot import."""
    env = {
        **os.environ,
        "ARRAY_API_TESTS_MODULE": "array_api_promo.from_env",
        "ARRAY_API_PROMO_POLICY": policy,
        "ARRAY_API_PROMO_API_VERSION": version,
        "ARRAY_API_TESTS_VERSION": version,
    }
    done = subprocess.run(
        [sys.executable, "-c", "import array_api_tests.dtype_helpers"],
        cwd=os.environ["ARRAY_API_TESTS_DIR"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert (done.returncode == 0) == (not suite_mod.namespace_blockers(policy, version)), done.stderr[-500:]


def test_a_missing_extra_is_a_one_line_error(monkeypatch, tmp_path, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pytest_jsonreport" else real(name, *a)
    )
    assert cli.main(["--suite", str(FAKE), "--work-dir", str(tmp_path / "work")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing pytest-json-report" in err and "array_api_promo[conformance]" in err
    assert not (tmp_path / "work").exists()


def test_every_registered_policy_runs_through_from_env():
    from array_api_promo.promotion import available_policies

    for name in available_policies():
        target = plan.resolve_policy(name)
        if name in ("array_api", "torch"):
            assert target.module in ("array_api_promo", "array_api_promo.torch")
        else:  # numpy_legacy once failed here as 'numpy_legacy:POLICY'
            assert (target.module, target.policy_env) == ("array_api_promo.from_env", name)


def test_only_default_settings_write_the_committed_files(tmp_path):
    args = cli.parse_args([])
    assert run_cmd.default_settings(args) and plan.destinations(args, committed=True) == (
        RESULTS_DIR,
        XFAILS_DIR,
        DEVIATIONS_MD,
    )
    for argv in (
        ["--max-examples", "20"],
        ["--seed", "1"],
        ["--pytest-arg=-k"],
        ["--no-shrink"],
        ["--policy", "json:x"],
    ):
        args = cli.parse_args(argv)
        assert not run_cmd.default_settings(args), argv
        results, xfails, report = plan.destinations(args, committed=False)
        assert RESULTS_DIR not in (results, results.parent) and report != DEVIATIONS_MD
        assert xfails == results / "xfails" and report == results / "DEVIATIONS.md"
    args = cli.parse_args(["--results-dir", str(tmp_path)])
    assert plan.destinations(args, committed=True) == (tmp_path, tmp_path / "xfails", tmp_path / "DEVIATIONS.md")


def test_a_quick_run_changes_no_tracked_file(tmp_path):
    """``--max-examples 5 -k one test``: against the real suite when ARRAY_API_TESTS_DIR is set,
    else the fake one; afterwards ``git status`` shows no tracked file changed."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    before = _tracked_changes(paths=())
    real = os.environ.get("ARRAY_API_TESTS_DIR")
    env = dict(os.environ)
    argv = ["--max-examples", "5", "--workers", "1"]
    if not real:
        env["PYTHONPATH"] = os.pathsep.join([str(FAKE), str(ROOT)])
        argv += ["--pytest-arg=-k", "--pytest-arg=test_add", "--suite", str(FAKE)]
        argv += ["--module-map", "array_api=fake_namespace", "--policy", "array_api"]
    else:
        argv += ["--pytest-arg=-k", "--pytest-arg=test_abs", "--policy", "array_api"]
    proc = _python_m("conformance", [*argv, "--work-dir", str(tmp_path / "work")], env)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert _tracked_changes(paths=()) == before
    assert "results, xfails and report of this run are in" in proc.stdout


def test_progress_reaches_a_pipe_as_plain_lines(tmp_path, capsys):
    from types import SimpleNamespace

    progress = tmp_path / "p"
    progress.write_text("total 3\ndone passed a\ndone failed b\n")
    spec = runner.RunSpec(plan.PolicyTarget("torch", "m"), "2025.12", 3, 0)
    run = SimpleNamespace(spec=spec, follower=runner._Follower(progress), elapsed=None, start=time.monotonic())
    display = runner._PlainDisplay(every=0.0)
    display.add(run)
    display.update()
    run.elapsed = 1.0
    display.finish(run)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("torch @ 2025.12: 0/? tests")
    assert lines[-1] == "torch @ 2025.12: 2/3 tests, 1 failed, 0 skipped, 1 s" and len(lines) == 3


def test_uninitialised_values_are_masked_and_messages_cut_at_words():
    nodeid = "array_api_tests/test_data_type_functions.py::TestResultType::test_arrays_and_dtypes"
    text = "result_type(*a) with a = [uint32, Array([1], dtype=uint32, policy=torch), Array(7, dtype=int8)]"
    masked = normalize.mask_uninitialised(nodeid, text)
    assert masked == "result_type(*a) with a = [uint32, Array([?], dtype=uint32, policy=torch), Array(?, dtype=int8)]"
    assert normalize.mask_uninitialised(ADD, text) == text  # other tests keep their values
    # a library's: PyTorch's empty tensors (the torch 2.13 report drew tensor([0]) and tensor([16]) there)
    torch = "a_and_dt = [torch.uint8, tensor([16], dtype=torch.uint8), tensor(7520, dtype=torch.uint16)]"
    assert normalize.mask_uninitialised(nodeid, torch) == (
        "a_and_dt = [torch.uint8, tensor([?], dtype=torch.uint8), tensor(?, dtype=torch.uint16)]"
    )
    long = "Array(1706, dtype=int64) " * 40
    cut = normalize.trim(long, 100)
    kept = cut.removesuffix(" …")
    assert cut.endswith(" …") and long.startswith(kept) and long[len(kept)] in " ,"  # not ``Array(1706, d…``


# ---------------------------------------------------------------------------
# units
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "nodeid, expected",
    [
        ("array_api_tests/test_has_names.py::test_has_names[linalg-cholesky]", "linalg.cholesky"),
        ("array_api_tests/test_has_names.py::test_has_names[array_method-__abs__]", "array.__abs__"),
        ("array_api_tests/test_signatures.py::test_func_signature[remainder]", "remainder"),
        ("array_api_tests/test_signatures.py::test_array_method_signature[__abs__]", "array.__abs__"),
        ("array_api_tests/test_operators_and_elementwise_functions.py::test_add[__iadd__(x, s)]", "__iadd__"),
        ("array_api_tests/test_operators_and_elementwise_functions.py::test_binary_with_scalars_real[add]", "add"),
        ("array_api_tests/test_special_cases.py::test_binary[add(x1_i is NaN or x2_i is NaN) -> NaN]", "add"),
        ("array_api_tests/test_special_cases.py::test_empty_arrays[mean]", "mean"),
        ("array_api_tests/test_data_type_functions.py::TestResultType::test_with_scalars", "result_type"),
        ("array_api_tests/test_linalg.py::test_linalg_matmul", "linalg.matmul"),
        ("array_api_tests/test_linalg.py::test_matmul", "matmul"),
        ("array_api_tests/test_linalg.py::test_cholesky", "linalg.cholesky"),
        ("array_api_tests/test_fft.py::test_fft", "fft.fft"),
        ("array_api_tests/test_creation_functions.py::test_asarray_scalars", "asarray"),
        ("array_api_tests/test_array_object.py::test_getitem", "array.__getitem__"),
        ("array_api_tests/test_array_object.py::test_scalar_casting[__bool__(bool)]", "array.__bool__"),
    ],
)
def test_spec_function(nodeid, expected):
    assert normalize.spec_function(nodeid) == expected


@pytest.mark.parametrize(
    "nodeid, outcome, message, kind",
    [
        (
            "array_api_tests/test_signatures.py::test_func_signature[add]",
            "failed",
            "AssertionError: x",
            "wrong signature",
        ),
        (
            "array_api_tests/test_creation_functions.py::test_ones",
            "failed",
            "AssertionError: abs is not defined in array_api_promo",
            "missing name",
        ),
        (ADD, "failed", "AssertionError: out.dtype=int8, but should be int16 [add(int8, uint8)]", "wrong dtype"),
        (
            "array_api_tests/test_creation_functions.py::test_ones",
            "failed",
            "AssertionError: out.dtype=float64, should be default floating-point dtype float32 [ones()]",
            "wrong dtype",
        ),
        (
            "array_api_tests/test_manipulation_functions.py::test_concat",
            "failed",
            "AssertionError: out.shape=(2,), but should be (3,) [concat(axis=0)]",
            "wrong shape",
        ),
        (
            "array_api_tests/test_special_cases.py::test_unary[abs(x_i is NaN) -> NaN]",
            "failed",
            "AssertionError: out=1.0, but should be NaN [abs()]",
            "special case",
        ),
        (
            "array_api_tests/test_special_cases.py::test_iop[__ifloordiv__(x1_i is +infinity) -> +infinity]",
            "failed",
            "AssertionError: x1=Array(nan, dtype=float64), but should be +infinity [__ifloordiv__()]",
            "special case",
        ),
        (
            "array_api_tests/test_statistical_functions.py::test_sum",
            "failed",
            "ValueError: axis out of range",
            "unexpected exception",
        ),
        (
            "array_api_tests/test_statistical_functions.py::test_sum",
            "failed",
            "AssertionError: Unexpected exception TypeError('x') (expected ...)",
            "unexpected exception",
        ),
        (
            "array_api_tests/test_statistical_functions.py::test_sum",
            "failed",
            "AssertionError: out=3, but should be 4 [sum()]",
            "wrong value",
        ),
        ("array_api_tests/test_statistical_functions.py::test_sum", "passed", "", None),
    ],
)
def test_classify(nodeid, outcome, message, kind):
    assert normalize.classify(nodeid, outcome, message) == kind


def test_failing_code_snippet():
    code = reproduce.failing_code_snippet(
        "array_api_promo", "xp.prod(Array([nan, 1.], dtype=float32, policy=torch), **kw) with kw = {'axis': 0}"
    )
    assert code.splitlines() == [
        "import array_api_promo as xp",
        "nan, inf = float('nan'), float('inf')",
        "out = xp.prod(xp.asarray([nan, 1.], dtype=xp.float32), axis=0)",  # kw inlined: the call as it reads
        "print(repr(out))",
    ]
    code = reproduce.failing_code_snippet("array_api_promo", "xp.sum(Array(0, dtype=uint8), **kw) with kw = {}")
    assert "out = xp.sum(xp.asarray(0, dtype=xp.uint8))" in code and "kw" not in code
    code = reproduce.failing_code_snippet(
        "array_api_promo.torch", "__floordiv__(Array(1, dtype=uint16, policy=torch), Array(1, dtype=uint8))"
    )
    assert "out = xp.asarray(1, dtype=xp.uint16).__floordiv__(xp.asarray(1, dtype=xp.uint8))" in code
    code = reproduce.failing_code_snippet(
        "m", "xp.result_type(*dtypes) with dtypes = (array_api_promo.uint8, array_api_promo.uint16)"
    )
    assert "dtypes = (xp.uint8, xp.uint16)" in code


def test_scrub():
    text = (
        "[gw1] linux -- Python 3.11.7 /home/user/.venv/bin/python\n"
        "at /home/user/src/array-api-tests/array_api_tests/test_x.py:12 <function f at 0x7f1e7699b920> "
        "took 812.34ms (deadline 800ms)"
    )
    out = normalize.scrub(text, ["/home/user/src/array-api-tests"])
    assert out == "at array_api_tests/test_x.py:12 <function f at 0x…> took <time> (deadline <time>)"


def test_progress_counts_every_test(tmp_path, monkeypatch):
    _fake_env(monkeypatch)
    info = suite_mod.locate(FAKE, cloner=None)
    target = plan.PolicyTarget("array_api", "fake_namespace")
    spec = runner.RunSpec(target, "2025.12", max_examples=3, seed=0)
    (outcome,) = runner.run_many(info, [spec], budget=1, work_dir=tmp_path, progress=False)
    assert (outcome.total, outcome.done, outcome.failed) == (9, 9, 6)
    assert not list(tmp_path.glob("*.progress"))  # the run removes its own progress file


# ---------------------------------------------------------------------------
# the committed report
# ---------------------------------------------------------------------------
def test_committed_deviations_md_is_up_to_date():
    results = normalize.load_all(RESULTS_DIR)
    if not results:
        pytest.skip("no conformance results committed yet")
    import numpy

    if {r["numpy"] for r in results} != {normalize.major_minor(numpy.__version__)}:
        pytest.skip("committed results were produced with another NumPy version")
    # Rendered in a process of its own, as `python -m conformance render` is: the report lists the
    # registered policies, and a test defining a policy class registers it in this process.
    code = (
        "import sys; from pathlib import Path; from array_api_promo.conformance import normalize, render; "
        "sys.stdout.write(render.render(normalize.load_all(Path(sys.argv[1]))))"
    )
    expected = subprocess.run(
        [sys.executable, "-c", code, str(RESULTS_DIR)], capture_output=True, text=True, encoding="utf-8", check=True
    ).stdout
    assert DEVIATIONS_MD.exists(), "DEVIATIONS.md missing: run `python -m conformance --render-only`"
    assert DEVIATIONS_MD.read_text(encoding="utf-8") == expected, (
        "DEVIATIONS.md is not what conformance/results/*.json render to; "
        "run `python -m conformance render` and commit the result"
    )


def test_the_report_names_every_policy_it_leaves_out_and_why():
    text = " ".join(render._not_run([{"policy": "array_api"}, {"policy": "torch"}]))
    assert "Not run here: `jax_x64`, `megengine`" not in text
    assert "`numpy`" in text and "`array_api`" not in text and "`torch`," not in text
    assert "`megengine` (no float64 and no complex dtype)" in text and "`jax` (no float64)" in text


# ---------------------------------------------------------------------------
# never a false pass: a run that is not whole fails and writes nothing committed
# ---------------------------------------------------------------------------
def _fake_env(monkeypatch, **extra):
    old = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(FAKE)] + ([old] if old else [])))
    for k, v in extra.items():
        monkeypatch.setenv(k, v)


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_a_collection_error_fails_the_run_and_changes_no_committed_file(tmp_path, monkeypatch, capsys):
    """A module of the suite that does not import (as without ndindex): exit 3, one line that says
    why, no tracked file changed even for a run whose settings would write the committed files; the
    run's own results, in a scratch folder, say it is incomplete."""
    _fake_env(monkeypatch, FAKE_SUITE_BROKEN="1")
    monkeypatch.setattr(run_cmd, "default_settings", lambda args, metas=(): True)  # would write the committed files
    monkeypatch.setattr(plan, "scratch_dir", lambda: tmp_path / "scratch")
    before = _tracked_changes()
    rc = cli.main([*FAKE_RUN, "--work-dir", str(tmp_path / "work")])
    out, err = capsys.readouterr()
    assert rc == 3 and _tracked_changes() == before
    assert err.count("\n") == 1 and err.startswith("python -m conformance: error: 1 of 1 run(s) incomplete")
    assert (
        "1 test module(s) could not be collected (array_api_tests/test_extras_broken.py: "
        "ModuleNotFoundError: No module named 'definitely_not_an_installed_module')" in err
    )
    assert f"nothing committed was written, this job's results are in {tmp_path / 'scratch'}" in err
    assert "INCOMPLETE: 1 test module(s) could not be collected" in out
    results = json.loads((tmp_path / "scratch" / "array_api-2025.12.json").read_text())
    assert results["incomplete"] and results["collection_errors"][0]["nodeid"].endswith("test_extras_broken.py")
    assert (
        "**Incomplete run** of `array_api` 2025.12: 1 test module(s) could not be collected"
        in (tmp_path / "scratch" / "DEVIATIONS.md").read_text()
    )


def test_an_internal_error_fails_the_run(tmp_path, monkeypatch, capsys):
    _fake_env(monkeypatch, FAKE_SUITE_INTERNALERROR="1")
    rc = cli.main([*FAKE_RUN, "--results-dir", str(tmp_path / "r"), "--work-dir", str(tmp_path / "work")])
    err = capsys.readouterr().err
    assert rc == 3 and err.count("\n") == 1
    assert "pytest stopped with an internal error (RuntimeError: the fake suite's internal error)" in err
    assert json.loads((tmp_path / "r" / "array_api-2025.12.json").read_text())["incomplete"]


def test_run_problems():
    ok = {"tests": [{"nodeid": "a"}], "collectors": [{"nodeid": "", "outcome": "passed"}]}
    assert normalize.run_problems(ok, "1 passed", 0, 1) == []
    assert normalize.run_problems(ok, "", 1, 2) == ["1 of 2 collected tests reported"]
    assert normalize.run_problems({}, "", -9, 0) == [
        "pytest wrote no report",
        "pytest exited with code -9: killed by a signal",
    ]
    broken = {**ok, "collectors": [{"nodeid": "m.py", "outcome": "failed", "longrepr": "x\nE   ImportError: no"}]}
    assert normalize.run_problems(broken, "", 2, 0) == [
        "1 test module(s) could not be collected (m.py: ImportError: no)"
    ]
    assert normalize.run_problems(broken, "", 1, 1, collection_errors_allowed=True) == []
    assert normalize.run_problems(ok, "", 5, 0) == ["pytest exited with code 5: no tests collected"]
    stopped = "....\n!!!!!!!! _pytest.outcomes.Exit: a plugin's reason !!!!!!!!\n"
    assert normalize.run_problems(ok, stopped, 3, 4) == [
        "pytest was stopped: a plugin's reason",
        "1 of 4 collected tests reported",
    ]


# ---------------------------------------------------------------------------
# the suite's own requirements, checked before anything runs
# ---------------------------------------------------------------------------
def _suite_copy(tmp_path, requirements: str) -> Path:
    suite = tmp_path / "suite"
    shutil.copytree(FAKE, suite, ignore=shutil.ignore_patterns("__pycache__"))
    (suite / "requirements.txt").write_text(requirements)
    return suite


def test_the_suite_requirements_are_read_from_its_files(tmp_path):
    suite = _suite_copy(tmp_path, "pytest\npytest-json-report  # the report\nhypothesis>=6.151.0\n")
    (suite / "array_api_tests" / "shape_helpers.py").write_text(
        "import math\nimport ndindex\nfrom . import x\ntry:\n    import optional_thing\nexcept ImportError:\n"
        "    pass\nif True:\n    from sortedcontainers import SortedList\n"
    )
    reqs = {r.module: r.pip for r in suite_mod.suite_requirements(suite)}
    assert reqs == {
        "hypothesis": "hypothesis>=6.151.0",
        "ndindex": "ndindex",
        "pytest": "pytest",
        "pytest_jsonreport": "pytest-json-report",
        "sortedcontainers": "sortedcontainers",
    }


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_a_module_the_suite_needs_is_missing(tmp_path):
    """ndindex made unimportable: the harness stops before anything runs (exit 2), naming it and the
    pip command, and no tracked file changes."""
    suite = _suite_copy(tmp_path, "pytest\nndindex>=1.8\n")
    (tmp_path / "shadow").mkdir()
    (tmp_path / "shadow" / "ndindex.py").write_text("raise ModuleNotFoundError(\"No module named 'ndindex'\")\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "shadow"), str(FAKE), str(ROOT)])}
    before = _tracked_changes()
    argv = [*FAKE_RUN[2:], "--suite", str(suite), "--work-dir", str(tmp_path / "work")]
    proc = _python_m("conformance", argv, env, timeout=300)
    assert proc.returncode == 2 and _tracked_changes() == before, proc.stderr
    assert proc.stderr.count("\n") == 1 and "ndindex: ModuleNotFoundError: No module named 'ndindex'" in proc.stderr
    assert proc.stderr.rstrip().endswith("pip install 'ndindex>=1.8'")
    assert not (tmp_path / "work").exists() and "passed" not in proc.stdout


def test_a_suite_requirement_in_too_old_a_version(tmp_path, capsys):
    suite = _suite_copy(tmp_path, "hypothesis>=999\n")
    assert cli.main([*FAKE_RUN[2:], "--suite", str(suite), "--work-dir", str(tmp_path / "work")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the suite needs >=999" in err and "pip install 'hypothesis>=999'" in err
    assert not (tmp_path / "work").exists()


# ---------------------------------------------------------------------------
# every flag checked before anything runs or is written
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "says"),
    [
        ("--max-examples -5", "argument --max-examples: --max-examples is at least 1, got -5"),
        ("--max-examples 0", "--max-examples is at least 1, got 0"),
        ("--max-examples many", "--max-examples is an integer, got 'many'"),
        ("--workers 0", "argument --workers: --workers is at least 1, got 0"),
        ("--workers -2", "--workers is at least 1, got -2"),
        ("--seed -5", "a seed is a non-negative integer or a range A-B"),
        ("--seed 5-3", "the range '5-3' is empty (give A-B with A <= B)"),
        ("--seed x", "a seed is a non-negative integer"),
        ("--seed 0-99999999999", "seeds go from 0 to 4294967295"),
        ("--timeout 0", "argument --timeout: a number of seconds above 0, got '0'"),
        ("--timeout nan", "a number of seconds above 0, got 'nan'"),
        ("--library fake_namespace --per-test-timeout -1", "a number of seconds of 0 or more"),
        ("--suite TMP", "is not an array-api-tests checkout: expected array_api_tests/, conftest.py"),
        ("--suite TMP/nowhere", "nowhere does not exist; fetch the pinned suite there: git clone"),
        ("--results-dir FILE", "--results-dir FILE: a file is there; give a folder"),
        ("--results-dir FILE/sub", "cannot create the folder, FILE is a file"),
        ("--output TMP", "--output TMP: a folder is there; give a file path"),
        ("--work-dir FILE/runs", "--work-dir FILE/runs: cannot create the folder, FILE is a file"),
        ("--xfails-dir FILE", "--xfails-dir FILE: a file is there"),
        ("--library fake_namespace --out FILE", "--out FILE: a file is there"),
        ("--library fake_namespace --cross-check TMP/none.json", "--cross-check TMP/none.json: no such"),
    ],
)
def test_bad_flags_exit_2_with_nothing_run_or_written(command, says, tmp_path, monkeypatch, capsys):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / "a-file").write_text("x")
    subst = {"TMP": str(scratch), "FILE": str(scratch / "a-file")}
    argv = [re.sub("TMP|FILE", lambda m: subst[m.group(0)], a) for a in command.split()]
    says = re.sub("TMP|FILE", lambda m: subst[m.group(0)], says)

    def must_not_run(*a, **k):
        raise AssertionError("the suite ran")

    monkeypatch.setattr(runner, "run_many", must_not_run)
    monkeypatch.setattr(plan, "scratch_dir", lambda: tmp_path / "never")
    _fake_env(monkeypatch)
    argv += [] if "--suite" in argv else ["--suite", str(FAKE)]
    argv += [] if "--work-dir" in argv else ["--work-dir", str(tmp_path / "work")]
    try:
        rc = cli.main([*argv, "--no-clone"])
    except SystemExit as exc:  # argparse's own errors
        rc = exc.code
    err = capsys.readouterr().err
    assert rc == 2
    assert err.count("\n") == 1 and err.startswith("python -m conformance: error: ") and says in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scratch"] and [p.name for p in scratch.iterdir()] == [
        "a-file"
    ]


# ---------------------------------------------------------------------------
# runs side by side, each with files of its own
# ---------------------------------------------------------------------------
def test_plan_workers():
    assert runner.plan_workers(6, 2) == (2, 1)  # the main job: two runs at a time, one process each
    assert runner.plan_workers(1, 2) == (1, 2)  # one run: xdist with both
    assert runner.plan_workers(2, 8) == (2, 4)
    assert runner.plan_workers(3, 1) == (1, 1)


def test_runs_never_touch_each_others_files(tmp_path, monkeypatch):
    """Two runs of the same policy and version side by side, in a work folder holding another run's
    files (an older harness' fixed names, a run still going): each writes files of its own name,
    removes only its own progress file, and --from-raw reads the newest finished run."""
    _fake_env(monkeypatch)
    work = tmp_path / "work"
    work.mkdir()
    others = {
        "array_api-2025.12.report.json": "{}",
        "array_api-2025.12.progress": "total 3\n",
        "array_api-2025.12.20000101-000000-1-1.log": "another run, still going",
        "array_api-2025.12.20000101-000000-1-1.progress": "total 9\n",
    }
    for name, text in others.items():
        (work / name).write_text(text)
    info = suite_mod.locate(FAKE, cloner=None)
    target = plan.PolicyTarget("array_api", "fake_namespace")
    spec = runner.RunSpec(target, "2025.12", 2, 0)
    outcomes = runner.run_many(info, [spec, spec], budget=2, work_dir=work, progress=False)
    assert {name: (work / name).read_text() for name in others} == others
    assert len({o.report_path for o in outcomes}) == 2 and all(o.report_path.is_file() for o in outcomes)
    assert [o.workers for o in outcomes] == [1, 1] and all(o.returncode == 1 for o in outcomes)
    assert sorted(p.name for p in work.glob("*.progress")) == sorted(n for n in others if n.endswith(".progress"))
    assert runner.latest_run(work, "array_api-2025.12") is None  # no finished run recorded yet
    rc = cli.main([*FAKE_RUN, "--results-dir", str(tmp_path / "r"), "--work-dir", str(work)])
    assert rc == 0
    newest = runner.latest_run(work, "array_api-2025.12")
    assert newest.report.is_file() and newest.meta.is_file() and newest.report not in {o.report_path for o in outcomes}
    first = (tmp_path / "r" / "array_api-2025.12.json").read_bytes()
    assert cli.main([*FAKE_RUN, "--from-raw", "--results-dir", str(tmp_path / "r2"), "--work-dir", str(work)]) == 0
    assert (tmp_path / "r2" / "array_api-2025.12.json").read_bytes() == first


# ---------------------------------------------------------------------------
# the command's name, from wherever it runs
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("module", "cwd"),
    [("conformance", "elsewhere"), ("array_api_promo.conformance", "elsewhere"), ("conformance", "root")],
)
def test_the_command_names_itself_as_the_user_typed_it(module, cwd, tmp_path):
    """``python -m conformance`` from the repository root or any folder where it is importable, and the
    installed ``python -m array_api_promo.conformance``: each says its own name in its usage and errors."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # as an installed package, or a checkout on the path
    where = ROOT if cwd == "root" else tmp_path
    bad = _python_m(module, ["--workers", "0"], env, cwd=where)
    assert bad.returncode == 2
    assert (
        bad.stderr
        == f"python -m {module}: error: argument --workers: --workers is at least 1, got 0 (see python -m {module} run --help)\n"
    )
    usage = _python_m(module, ["--help"], env, cwd=where)
    assert usage.returncode == 0 and usage.stdout.startswith(f"usage: python -m {module} ")
    nosuite = _python_m(
        module, ["--suite", str(tmp_path), "--no-clone", "--work-dir", str(tmp_path / "w")], env, cwd=where
    )
    assert nosuite.returncode == 2 and nosuite.stderr.startswith(
        f"python -m {module}: error: --suite {tmp_path} is not"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_run_compiles_the_suite_once(tmp_path):
    """A run leaves the suite's modules compiled, and its test modules assertion-rewritten, in the
    suite's __pycache__ (which the suite's .gitignore lists): the next run starts from them."""
    copy = tmp_path / "suite"
    shutil.copytree(FAKE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    info = suite_mod.SuiteInfo(path=copy, suite_commit="unknown", spec_commit="unknown")
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    base["PYTHONPATH"] = os.pathsep.join([str(copy)] + ([base["PYTHONPATH"]] if base.get("PYTHONPATH") else []))
    env = runner.build_env(plan.PolicyTarget("array_api", "fake_namespace"), "2025.12", tmp_path / "p", base=base)
    cmd = runner.build_command(info, tmp_path / "r.json", max_examples=2, seed=0, workers=1)
    subprocess.run(cmd + ["-k", "test_add"], env=env, cwd=copy, capture_output=True, check=False, timeout=300)
    assert json.loads((tmp_path / "r.json").read_text())["summary"].get("passed")
    cached = {p.name.split(".")[0] for p in (copy / "array_api_tests" / "__pycache__").glob("*.pyc")}
    assert {"__init__", "test_operators_and_elementwise_functions"} <= cached
    rewritten = list(
        (copy / "array_api_tests" / "__pycache__").glob("test_operators_and_elementwise_functions*pytest*.pyc")
    )
    assert rewritten, "pytest's assertion-rewritten module was not cached"
