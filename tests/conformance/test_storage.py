"""``python -m conformance --storage dask``: the suite against ``array_api_promo`` over Dask
(``array_api_promo.from_env`` with ``ARRAY_API_PROMO_STORAGE``), reported as a library is, in its
own folder; the NumPy storage's committed results are not touched. Run against the fake suite
(no network, no upstream checkout)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fake_suite_helpers import FAKE, REPORT_FILES  # tests/conformance is on sys.path (rootdir-relative import mode)

from array_api_promo.conformance import (
    DEFAULT_API_VERSION,
    DEVIATIONS_MD,
    RESULTS_DIR,
    XFAILS_DIR,
    cli,
    library,
    library_report,
    normalize,
    plan,
    runner,
)
from array_api_promo.conformance.commands import run as run_cmd, storage as storage_cmd

ROOT = Path(__file__).resolve().parents[2]
STORAGE_ENV = {
    "ARRAY_API_PROMO_POLICY": "array_api",
    "ARRAY_API_PROMO_API_VERSION": DEFAULT_API_VERSION,
    "ARRAY_API_PROMO_STORAGE": "dask",
    "DASK_SCHEDULER": "synchronous",
}

# A stand-in for array_api_promo.from_env: the fake namespace, writing down the environment
# it is imported under (by the probe, by the suite, by the reproducers).
SPY = """
import json, os
from fake_namespace import *  # noqa: F403
from fake_namespace import __array_api_version__, __version__  # noqa: F401
seen = {k: v for k, v in os.environ.items() if k.startswith(("ARRAY_API_PROMO_", "ARRAY_API_TESTS_", "DASK_"))}
with open(os.environ["STORAGE_SPY_FILE"], "a") as f:
    f.write(json.dumps(seen, sort_keys=True) + "\\n")
"""


# ---------------------------------------------------------------------------
# options
# ---------------------------------------------------------------------------
def test_storage_defaults():
    args = cli.parse_args(["--storage", "dask"])
    assert args.policy == ["array_api"] and args.api_version == [DEFAULT_API_VERSION]
    # what the committed library reports use, and room for a computed graph per checked value
    assert args.max_examples == plan.REPORT_MAX_EXAMPLES == 20
    assert args.per_test_timeout == plan.DASK_TEST_TIMEOUT
    assert args.seeds == [0]
    assert args.command == "storage"  # its own subcommand: never the committed results
    args = cli.parse_args(["--storage", "dask", "--max-examples", "5", "--per-test-timeout", "0", "--seed", "1"])
    assert (args.max_examples, args.per_test_timeout, args.seeds) == (5, 0, [1])
    args = cli.parse_args(["--storage", "dask", "--policy", "torch", "--seed", "0", "--seed", "1"])
    assert args.policy == ["torch"] and args.seeds == [0, 1]  # several draws, as a library report


def test_the_default_run_keeps_its_defaults():
    args = cli.parse_args([])
    assert args.command == "run" and args.policy == list(plan.DEFAULT_POLICIES)
    assert args.max_examples == plan.DEFAULT_MAX_EXAMPLES and not hasattr(args, "per_test_timeout")
    assert run_cmd.default_settings(args)
    args = cli.parse_args(["--library", "array_api_strict"])
    assert args.max_examples == plan.DEFAULT_MAX_EXAMPLES and args.per_test_timeout == plan.DEFAULT_TEST_TIMEOUT


@pytest.mark.parametrize(
    "extra",
    [
        ["--results-dir", "R"],
        ["--xfails-dir", "X"],
        ["--output", "D.md"],
        ["--module-map", "array_api=m"],
        ["--render-only"],
        ["--from-raw"],
        ["--strict"],
        ["--explain-with", "torch"],
        ["--cross-check", "r.json"],
        ["--library", "array_api_strict"],
        ["--render-reports"],
    ],
)
def test_options_that_do_not_apply_to_a_storage_run(extra, capsys):
    """Each subcommand has the options that apply to it: argparse refuses the rest, by name."""
    with pytest.raises(SystemExit) as exc:
        cli.parse_args(["--storage", "dask", *extra])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1
    assert "unrecognized arguments: " in err and ("--storage" in err or extra[0] in err), err


def test_out_takes_one_policy(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.parse_args(["storage", "--out", "o", "--policy", "array_api", "--policy", "torch"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1
    assert "--out takes one --policy with storage dask (see python -m conformance storage --help)" in err


def test_unknown_storage_is_refused(capsys):
    with pytest.raises(SystemExit):
        cli.parse_args(["--storage", "cupy"])
    assert "invalid choice: 'cupy'" in capsys.readouterr().err


def test_without_dask_a_storage_run_is_a_one_line_error(monkeypatch, tmp_path, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "dask" else real(name, *a))
    argv = ["--storage", "dask", "--suite", str(FAKE), "--no-clone", "--workers", "1"]
    rc = cli.main([*argv, "--reports-dir", str(tmp_path / "reports"), "--work-dir", str(tmp_path / "work")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "storage dask: no module named 'dask' is installed" in err
    assert not any(tmp_path.iterdir())


# ---------------------------------------------------------------------------
# what the suite is given
# ---------------------------------------------------------------------------
def test_the_suite_runs_from_env_with_the_storage_in_its_environment(tmp_path):
    target = plan.resolve_storage("array_api", "dask", environ={})
    assert (target.label, target.module) == ("array_api_promo-dask", "array_api_promo.from_env")
    assert target.env == STORAGE_ENV
    env = runner.build_env(target, DEFAULT_API_VERSION, tmp_path / "p", base={"ARRAY_API_PROMO_STORAGE": "numpy"})
    assert {k: env[k] for k in STORAGE_ENV} == STORAGE_ENV
    assert env["ARRAY_API_TESTS_MODULE"] == "array_api_promo.from_env"
    assert env["ARRAY_API_TESTS_VERSION"] == DEFAULT_API_VERSION
    # whatever the policy and version: even array_api at 2025.12 is not the (NumPy) package module
    torch = plan.resolve_storage("torch", "dask", "2024.12", environ={"DASK_SCHEDULER": "threads"})
    assert torch.label == "array_api_promo-dask-torch" and torch.module == "array_api_promo.from_env"
    assert torch.env == {
        "ARRAY_API_PROMO_POLICY": "torch",
        "ARRAY_API_PROMO_API_VERSION": "2024.12",
        "ARRAY_API_PROMO_STORAGE": "dask",
        "DASK_SCHEDULER": "threads",  # the caller's scheduler, recorded
    }
    assert plan.resolve_storage("mypkg.policies", "dask").env["ARRAY_API_PROMO_POLICY"] == "mypkg.policies:POLICY"


def test_numpy_runs_never_inherit_a_storage_from_the_shell(tmp_path):
    """An exported ARRAY_API_PROMO_STORAGE must not turn the committed (NumPy) runs into Dask ones."""
    base = {"ARRAY_API_PROMO_STORAGE": "dask", "PATH": "/bin"}
    for policy in ("array_api", "paddle"):
        env = runner.build_env(plan.resolve_policy(policy), DEFAULT_API_VERSION, tmp_path / "p", base=base)
        assert "ARRAY_API_PROMO_STORAGE" not in env
    env = runner.build_env(plan.resolve_policy("array_api"), DEFAULT_API_VERSION, tmp_path / "p", base={})
    assert env["DASK_SCHEDULER"] == "synchronous"  # every run, e.g. array-api-compat's dask namespace
    env = runner.build_env(plan.resolve_policy("array_api"), DEFAULT_API_VERSION, tmp_path / "p", base=base | {
        "DASK_SCHEDULER": "threads"
    })  # fmt: skip
    assert env["DASK_SCHEDULER"] == "threads"


def test_from_env_reads_the_storage():
    code = "import array_api_promo.from_env as xp; print(type(xp._runtime).__name__)"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARRAY_API_PROMO_")}

    def run(**extra):
        return subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env | extra, capture_output=True, text=True, timeout=120
        )

    assert run().stdout.strip() == "Runtime"
    assert run(ARRAY_API_PROMO_STORAGE="numpy").stdout.strip() == "Runtime"
    bad = run(ARRAY_API_PROMO_STORAGE="cupy")
    assert bad.returncode != 0 and "ARRAY_API_PROMO_STORAGE='cupy': unknown storage" in bad.stderr
    pytest.importorskip("dask")
    assert run(ARRAY_API_PROMO_STORAGE="dask").stdout.strip() == "DaskRuntime"


# ---------------------------------------------------------------------------
# where the report goes, and what it says
# ---------------------------------------------------------------------------
def test_report_folders(tmp_path):
    args = cli.parse_args(["--storage", "dask", "--reports-dir", str(tmp_path)])
    target = plan.resolve_storage("array_api", "dask")
    assert storage_cmd.out_dir(args, target, DEFAULT_API_VERSION) == tmp_path / "array_api_promo-dask"
    assert storage_cmd.out_dir(args, target, "2024.12") == tmp_path / "array_api_promo-dask-api2024.12"
    torch = plan.resolve_storage("torch", "dask")
    assert storage_cmd.out_dir(args, torch, DEFAULT_API_VERSION) == tmp_path / "array_api_promo-dask-torch"
    args = cli.parse_args(["--storage", "dask", "--out", str(tmp_path / "o")])
    assert storage_cmd.out_dir(args, target, DEFAULT_API_VERSION) == tmp_path / "o"
    args = cli.parse_args(["--storage", "dask", "--out", str(tmp_path / "o"), "--api-version", "2024.12"])
    assert storage_cmd.out_dir(args, target, "2024.12") == tmp_path / "o"
    args = cli.parse_args(
        ["--storage", "dask", "--out", str(tmp_path / "o"), "--api-version", "2024.12", "--api-version", "2025.12"]
    )
    assert storage_cmd.out_dir(args, target, "2024.12") == tmp_path / "o-api2024.12"


def test_regenerate_command_and_name_of_a_storage_report():
    r = {
        "module": "array_api_promo.from_env",
        "api_version": "2024.12",
        "hypothesis": {"max_examples": 20, "seed": 0, "seeds": [0, 1], "shrink": False},
        "per_test_timeout": 600.0,
        "explained_with": {"policy": "torch"},
        "library": {
            "module": "array_api_promo.from_env",
            "library": "array_api_promo",
            "version": "0.1.0",
            "api_version": "2024.12",
            "policy": "torch",
            "storage": {"name": "dask", "version": "2026.8.0"},
        },
        "tests": [],
    }
    assert library_report.regenerate_command(r) == (
        "python -m conformance storage dask --policy torch --api-version 2024.12 --max-examples 20 "
        "--seed 0 --seed 1 --no-shrink --per-test-timeout 600"
    )
    assert library_report.library_name(r) == "`array_api_promo` 0.1.0 (policy `torch`, on `dask` 2026.8.0)"
    r["library"]["policy"], r["api_version"], r["hypothesis"]["shrink"] = "array_api", DEFAULT_API_VERSION, True
    assert library_report.regenerate_command(r) == (
        "python -m conformance storage dask --max-examples 20 --seed 0 --seed 1 --per-test-timeout 600"
    )


def _digest(paths) -> dict:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths if p.is_file()}


def _committed() -> dict:
    return _digest([DEVIATIONS_MD, *sorted(RESULTS_DIR.glob("*")), *sorted(XFAILS_DIR.glob("*"))])


@pytest.fixture(scope="module")
def storage_run(tmp_path_factory):
    """One ``--storage dask`` run of the fake suite, its namespace module replaced by the spy."""
    pytest.importorskip("dask")
    tmp = tmp_path_factory.mktemp("storage")
    (tmp / "lib").mkdir()
    (tmp / "lib" / "storage_spy_namespace.py").write_text(SPY)
    spy_file = tmp / "seen.jsonl"
    before = _committed()
    env = {
        "PYTHONPATH": os.pathsep.join([str(FAKE), str(tmp / "lib")] + [p for p in [os.environ.get("PYTHONPATH")] if p]),
        "STORAGE_SPY_FILE": str(spy_file),
    }
    old = {k: os.environ.get(k) for k in [*env, "DASK_SCHEDULER"]}
    os.environ.update(env)
    os.environ.pop("DASK_SCHEDULER", None)
    mp = pytest.MonkeyPatch()
    mp.setattr(plan, "FROM_ENV_MODULE", "storage_spy_namespace")
    try:
        rc = cli.main(
            [
                "--storage", "dask", "--suite", str(FAKE), "--max-examples", "3", "--workers", "1",
                "--no-progress", "--no-clone", "--reports-dir", str(tmp / "reports"), "--work-dir", str(tmp / "work"),
            ]
        )  # fmt: skip
    finally:
        mp.undo()
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    assert rc == 0
    return tmp, before, [json.loads(line) for line in spy_file.read_text().splitlines()]


def test_the_namespace_is_imported_with_the_storage_everywhere(storage_run):
    _, _, seen = storage_run
    assert len(seen) >= 3  # the probe, the suite, the reproducers
    for env in seen:
        assert {k: env.get(k) for k in STORAGE_ENV} == STORAGE_ENV
    suite = [env for env in seen if "ARRAY_API_TESTS_VERSION" in env]
    assert suite and all(env["ARRAY_API_TESTS_MODULE"] == "storage_spy_namespace" for env in suite)


def test_the_report_has_its_own_folder_and_the_committed_results_are_untouched(storage_run):
    tmp, before, _ = storage_run
    assert _committed() == before
    assert sorted(p.name for p in (tmp / "reports").iterdir()) == ["README.md", "array_api_promo-dask"]
    report = tmp / "reports" / "array_api_promo-dask"
    assert sorted(p.name for p in report.iterdir()) == REPORT_FILES
    (raw,) = [p.name for p in (tmp / "work").iterdir() if p.name.endswith(".report.json")]
    assert raw.startswith("array_api_promo-dask-2025.12.")  # not the NumPy runs' array_api-2025.12.*
    index = (tmp / "reports" / "README.md").read_text()
    assert "[`array_api_promo` 0.1.0 (policy `array_api`, on `dask` " in index
    assert "(array_api_promo-dask/README.md)" in index


def test_the_report_records_what_produced_it_and_explains_by_its_policy(storage_run):
    from array_api_promo.conformance import provenance

    tmp, _, _ = storage_run
    report = tmp / "reports" / "array_api_promo-dask"
    r = normalize.load(report / library.RESULTS_NAME)
    assert r["policy"] == "array_api_promo-dask" and r["namespace_env"] == STORAGE_ENV
    assert r["library"]["library"] == "array_api_promo" and r["library"]["policy"] == "array_api"
    assert r["library"]["storage"]["name"] == "dask"
    assert r["package"] == provenance.package_provenance()
    assert r["hypothesis"] == {"max_examples": 3, "seed": 0, "shrink": True}
    assert r["per_test_timeout"] == plan.DASK_TEST_TIMEOUT or not library.timeout_args(1)
    assert r["explained_with"]["policy"] == "array_api"
    add = {e["nodeid"]: e for e in r["tests"]}[
        "array_api_tests/test_operators_and_elementwise_functions.py::test_add[add(x1, x2)]"
    ]
    assert add["attribution"]["explained"] is False and add["attribution"]["engine_result"] == "int64"
    text = (report / "README.md").read_text()
    assert "<!-- Generated by `python -m conformance storage dask` from results.json" in text
    assert "`ARRAY_API_PROMO_STORAGE=dask`" in text and f"source hash `{r['package']['source_sha256'][:12]}`" in text
    assert "- Made by: `python -m conformance storage dask --max-examples 3 --seed 0" in text
    assert "Type promotion not predicted by policy `array_api`" in text
    # the reproducers set the storage before importing the namespace, and ran
    assert "os.environ['ARRAY_API_PROMO_STORAGE'] = 'dask'" in text
    assert any("array([2, 2])" in out for out in r["reproducer_outputs"].values())
    assert "# Generated by `python -m conformance storage dask`" in (report / "xfails.txt").read_text()


def test_the_storage_report_rerenders_from_results_alone(storage_run, tmp_path):
    report = storage_run[0] / "reports" / "array_api_promo-dask"
    before = {p.name: p.read_bytes() for p in report.iterdir()}
    (tmp_path / library.RESULTS_NAME).write_bytes(before[library.RESULTS_NAME])
    library.render_dir(tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_cross_check_of_a_policy_leaves_the_storage_report_alone(storage_run, tmp_path):
    """``--render-reports --cross-check RESULTS`` compares a policy with its real library; the
    report of array_api_promo over Dask under that policy is no real library's."""
    report = storage_run[0] / "reports" / "array_api_promo-dask"
    copy = tmp_path / "reports" / report.name
    copy.mkdir(parents=True)
    (copy / library.RESULTS_NAME).write_bytes((report / library.RESULTS_NAME).read_bytes())
    ours = normalize.load(report / library.RESULTS_NAME) | {"policy": "array_api"}
    normalize.dump(ours, tmp_path / "array_api-2025.12.json")
    argv = ["--render-reports", "--reports-dir", str(tmp_path / "reports")]
    assert cli.main([*argv, "--cross-check", str(tmp_path / "array_api-2025.12.json")]) == 0
    assert "cross_check" not in normalize.load(copy / library.RESULTS_NAME)
    assert (copy / library.REPORT_NAME).read_bytes() == (report / library.REPORT_NAME).read_bytes()
