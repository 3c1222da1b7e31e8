"""What a library maintainer commits, made by the harness (issue 47), on the fake suite: annotated
xfails that a later run at other seeds passes with, diffs between two results, and jobs that never
degrade a committed report nor fail late (a bad name, a path nobody can create, Ctrl-C), each
leaving ``git status`` as it was."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fake_suite_helpers import (  # tests/conformance is on sys.path (rootdir-relative import mode)
    FAKE,
    FAKE_RUN,
    main_in,
)

from array_api_promo.conformance import cli, library, normalize, plan, runner, xfails
from array_api_promo.conformance.commands import diff

ROOT = Path(__file__).resolve().parents[2]
#: A path nobody can create, root included: /proc takes no new entries.
UNCREATABLE = Path("/proc/no-such-dir/sub")


def _env(**extra) -> dict:
    return {
        "PYTHONPATH": os.pathsep.join([str(FAKE), str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p]),
        **extra,
    }


def _main(argv, env=None) -> int:
    return main_in(argv, _env() if env is None else env)


def _git_status() -> str:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    return subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout


@pytest.fixture
def unchanged_tree():
    """The test leaves ``git status`` (tracked and untracked files) as it found it."""
    before = _git_status()
    yield
    assert _git_status() == before


LIBRARY = ["--suite", str(FAKE), "--no-clone", "--no-progress", "--workers", "1", "--per-test-timeout", "0"]


# ---------------------------------------------------------------------------
# annotated xfails
# ---------------------------------------------------------------------------
def test_annotated_xfails_make_a_run_at_other_seeds_pass(tmp_path, unchanged_tree):
    """``library --write-xfails PATH``: grouped by module and kind, a reason and a seed per test, the
    tests failing on some draws only marked; the suite with that file, at seeds not used to make it,
    has no failure."""
    env = _env(FAKE_SUITE_SINGLE_DRAW="1")
    work = ["--work-dir", str(tmp_path / "work"), "--max-examples", "3"]
    made = tmp_path / "xfails.txt"
    argv = ["library", "fake_namespace", *LIBRARY, *work, "--seed", "0-2", "--out", str(tmp_path / "report")]
    assert _main([*argv, "--write-xfails", str(made), "--explain-with", "torch"], env) == 0
    text = made.read_text()
    r = normalize.load(tmp_path / "report" / library.RESULTS_NAME)
    failing = [e for e in r["tests"] if e["outcome"] in normalize.FAILING and e.get("kind") != "timeout"]
    assert failing
    lines = text.splitlines()
    for e in failing:  # each id after its reason line: kind, function, why, seed
        i = lines.index(e["nodeid"])
        assert lines[i - 1].startswith(f"# {e['kind']}: {e['spec_function']}: ") and "(seed " in lines[i - 1]
    assert "# == test_operators_and_elementwise_functions: wrong dtype ==" in lines
    # the wrong dtype's line names the rule of the policy that explains it
    add = next(e for e in failing if e.get("kind") == "wrong dtype" and (e.get("attribution") or {}).get("explained"))
    assert add["attribution"]["rule"] in lines[lines.index(add["nodeid"]) - 1]
    # a test failing on some draws only: in a marked group of its own (the single draw fails always:
    # its message differs by draw, the test does not)
    assert all("(fails on some draws only)" not in ln for ln in lines) == (not any(e.get("draws") for e in failing))
    # the suite reads it (the fake suite's conftest reads --xfails-file as the real one does)
    again = ["library", "fake_namespace", *LIBRARY, *work, "--seed", "50-51", "--out", str(tmp_path / "again")]
    assert _main([*again, f"--pytest-arg=--xfails-file={made}"], env) == 0
    later = normalize.load(tmp_path / "again" / library.RESULTS_NAME)
    assert later["summary"]["failed"] == later["summary"]["error"] == 0
    assert later["summary"]["xfailed"] == len(failing)


def test_annotated_xfails_mark_the_tests_failing_on_some_draws():
    results = {
        "module": "m",
        "library": {"library": "m", "version": "1"},
        "api_version": "2025.12",
        "suite_commit": "abcdef0123",
        "spec_commit": "0123abcdef",
        "hypothesis": {"max_examples": 5, "seed": 0, "seeds": [0, 1, 2]},
        "tests": [
            {"nodeid": "t.py::test_a", "test_module": "t", "spec_function": "a", "outcome": "failed",
             "kind": "special case", "spec_case": "If x_i is -0, the result is -0", "message": "x"},
            {"nodeid": "t.py::test_b", "test_module": "t", "spec_function": "b", "outcome": "failed",
             "kind": "special case", "spec_case": "If x_i is NaN, the result is NaN", "message": "y",
             "draws": {"failed": 1, "of": 3, "seeds": [2]}},
            {"nodeid": "t.py::test_c", "test_module": "t", "spec_function": "c", "outcome": "passed"},
        ],
    }  # fmt: skip
    lines = xfails.render_annotated(results, made_by="x").splitlines()
    assert lines[lines.index("t.py::test_a") - 1] == "# special case: a: If x_i is -0, the result is -0 (seed 0)"
    assert lines[lines.index("t.py::test_b") - 1] == (
        "# special case: b: If x_i is NaN, the result is NaN (seed 2; fails on 1 of 3 draws)"
    )
    assert lines.index("# == t: special case ==") < lines.index("t.py::test_a")
    assert lines.index("# == t: special case (fails on some draws only) ==") < lines.index("t.py::test_b")
    assert "t.py::test_c" not in lines


# ---------------------------------------------------------------------------
# diff
# ---------------------------------------------------------------------------
def _results(tests, **extra) -> dict:
    return {
        "schema": 1,
        "policy": "lib-1.0",
        "module": "lib",
        "api_version": "2025.12",
        "suite_commit": "55fcc60179",
        "hypothesis": {"max_examples": 10, "seed": 0},
        "summary": normalize.summarise(tests),
        "tests": tests,
        **extra,
    }


def _t(nodeid, outcome, kind=None, message=None):
    e = {"nodeid": nodeid, "test_module": "t", "spec_function": nodeid, "outcome": outcome}
    if kind:
        e["kind"], e["message"] = kind, message or kind
    return e


def test_diff_lists_fixed_new_and_changed_tests(tmp_path, capsys):
    a = _results(
        [
            _t("fixed", "failed", "wrong dtype", "add: float64, but should be float32"),
            _t("new", "passed"),
            _t("kind", "failed", "wrong value"),
            _t("message", "failed", "special case", "expected -0.0"),
            _t("same", "failed", "special case", "expected NaN"),
            _t("gone", "passed"),
        ],
        library={"library": "lib", "version": "1.0"},
    )
    b = _results(
        [
            _t("fixed", "passed"),
            _t("new", "failed", "unexpected exception", "TypeError: nope"),
            _t("kind", "failed", "unexpected exception"),
            _t("message", "failed", "special case", "expected +0.0"),
            _t("same", "failed", "special case", "expected NaN"),
            _t("added", "skipped"),
        ],
        library={"library": "lib", "version": "2.0"},
        hypothesis={"max_examples": 20, "seed": 0, "seeds": [0, 1, 2, 3]},
    )
    sections = diff.compare(a, b)
    assert {k: [n for n, _, _ in rows] for k, rows in sections.items()} == {
        "fixed": ["fixed"],
        "new": ["new"],
        "kind": ["kind"],
        "message": ["message"],
        "only_a": ["gone"],
        "only_b": ["added"],
    }
    (tmp_path / "a").mkdir()
    normalize.dump(a, tmp_path / "a" / library.RESULTS_NAME)  # a report folder
    normalize.dump(b, tmp_path / "b.json")  # a results file
    assert cli.main(["diff", str(tmp_path / "a"), str(tmp_path / "b.json")]) == 0
    text = capsys.readouterr().out
    assert "A: lib 1.0 (lib), suite 55fcc60, API 2025.12, 10 examples, seed 0: 4 failing of 6" in text
    assert "B: lib 2.0 (lib), suite 55fcc60, API 2025.12, 20 examples, seeds 0-3: 4 failing of 6" in text
    assert "Fixed in B (failing in A, passing in B): 1" in text
    assert "  new\n    A: passed\n    B: unexpected exception: TypeError: nope" in text
    out = tmp_path / "d.md"
    assert (
        cli.main(["diff", str(tmp_path / "a"), str(tmp_path / "b.json"), "--format", "markdown", "--output", str(out)])
        == 0
    )
    md = out.read_text()
    assert md.startswith("# Conformance diff: a → b.json\n")
    assert "## Failing in both, the same kind, another message (1)" in md
    assert "| `message` | special case: expected -0.0 | special case: expected +0.0 |" in md
    # a bad argument: one line, exit 2
    assert cli.main(["diff", str(tmp_path / "nowhere"), str(tmp_path / "b.json")]) == 2
    assert "diff A " in capsys.readouterr().err


def test_the_committed_torch_diff_is_what_the_reports_give():
    """docs/results/torch-2.13-2.15.md is ``diff`` of the two committed torch reports."""
    reports = library.REPORTS_DIR
    a, b = (
        normalize.load(reports / "torch-2.13" / library.RESULTS_NAME),
        normalize.load(reports / "torch-2.15" / library.RESULTS_NAME),
    )
    committed = (ROOT / "conformance" / "reports" / "diffs" / "torch-2.13-torch-2.15.md").read_text()
    assert committed == diff.render(a, b, names=("torch-2.13", "torch-2.15"), markdown=True)


# ---------------------------------------------------------------------------
# never degrade, never late
# ---------------------------------------------------------------------------
def test_a_weaker_run_goes_to_scratch_unless_replace(tmp_path, unchanged_tree, capsys, monkeypatch):
    """A report of more seeds is not overwritten by a run of fewer: that run's report goes to a
    scratch folder, and says so; ``--replace`` writes over it."""
    reports = tmp_path / "reports"
    common = ["library", "fake_namespace", *LIBRARY, "--max-examples", "2", "--reports-dir", str(reports)]
    common += ["--work-dir", str(tmp_path / "work")]
    assert _main([*common, "--seed", "0-1"]) == 0
    folder = reports / "fake_namespace-1.2"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    monkeypatch.setattr(plan, "scratch_dir", lambda: tmp_path / "scratch")
    capsys.readouterr()
    assert _main([*common, "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert (tmp_path / "scratch" / "fake_namespace-1.2" / library.RESULTS_NAME).is_file()
    assert f"weaker than the committed report in {folder} (1 seed(s) against its 2)" in out.replace("\n", " ")
    assert _main([*common, "--seed", "5", "--replace"]) == 0
    assert normalize.load(folder / library.RESULTS_NAME)["hypothesis"]["seed"] == 5


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["library", "fake_namespace", "--explain-with", "torhc"], "unknown --explain-with 'torhc': registered"),
        (["library", "fake_namespace", "--explain-with", "json:dumps"], "--explain-with 'json:dumps': json:dumps is a"),
        (["run", "--policy", "torhc"], "unknown policy 'torhc'"),
        (["storage", "--policy", "torhc"], "unknown policy 'torhc'"),
        (
            ["run", "--output", "UNCREATABLE/DEVIATIONS.md"],
            "--output UNCREATABLE/DEVIATIONS.md: cannot create the file",
        ),
        (["run", "--results-dir", "UNCREATABLE"], "--results-dir UNCREATABLE: cannot create the folder"),
        (["run", "--xfails-dir", "UNCREATABLE"], "--xfails-dir UNCREATABLE: cannot create the folder"),
        (["run", "--write-xfails", "UNCREATABLE/x.txt"], "--write-xfails UNCREATABLE/x.txt: cannot create"),
        (["library", "fake_namespace", "--out", "UNCREATABLE"], "--out UNCREATABLE: cannot create the folder"),
        (["render", "--output", "UNCREATABLE/D.md"], "--output UNCREATABLE/D.md: cannot create the file"),
        (["diff", "A", "A", "--output", "UNCREATABLE/d.md"], "--output UNCREATABLE/d.md: cannot create the file"),
    ],
)
def test_names_and_paths_are_checked_before_anything_runs(argv, says, tmp_path, monkeypatch, capsys, unchanged_tree):
    """A policy flag naming no policy, an output path nobody can create (root included): one line,
    exit 2, nothing run, nothing written."""
    normalize.dump(_results([_t("x", "passed")]), tmp_path / "A.json")
    subst = {"UNCREATABLE": str(UNCREATABLE), "A": str(tmp_path / "A.json")}
    argv = [subst.get(a, a.replace("UNCREATABLE", str(UNCREATABLE))) for a in argv]
    says = says.replace("UNCREATABLE", str(UNCREATABLE))

    def must_not_run(*a, **k):
        raise AssertionError("the suite ran")

    monkeypatch.setattr(runner, "run_many", must_not_run)
    monkeypatch.setattr(plan, "scratch_dir", lambda: tmp_path / "never")
    if argv[0] in ("run", "library", "storage"):
        argv += ["--suite", str(FAKE), "--no-clone", "--work-dir", str(tmp_path / "work")]
    assert _main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("python -m conformance: error: ") and says in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["A.json"]


def _collected(work_dir) -> bool:
    """Whether a run's progress file in ``work_dir`` says its suite is collected."""
    for path in work_dir.glob("*.progress"):
        try:
            if any(line.startswith("total ") for line in path.read_text().splitlines()):
                return True
        except FileNotFoundError:  # (removed as its run ended)
            pass
    return False


def test_ctrl_c_writes_nothing(tmp_path, unchanged_tree):
    """SIGINT while the suite runs: one line, exit 130, no result written, no process left."""
    results_dir = tmp_path / "results"
    env = {**os.environ, **_env(FAKE_SUITE_EXTRAS="1")}  # the hanging test keeps the run going
    cmd = [
        sys.executable,
        "-m",
        "conformance",
        *FAKE_RUN,
        "--results-dir",
        str(results_dir),
        "--work-dir",
        str(tmp_path / "w"),
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # once the suite is collected (the progress file's "total" line), the hanging test keeps it running
    started, deadline = time.monotonic(), time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and not _collected(tmp_path / "w"):
        time.sleep(0.2)
    time.sleep(1.0)
    assert proc.poll() is None, f"the run ended before the interrupt, {time.monotonic() - started:.0f} s in"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, out + err
    assert err == "python -m conformance: interrupted; nothing written\n"
    assert not results_dir.exists()
    assert "Traceback" not in out + err
    left = subprocess.run(["pgrep", "-f", str(tmp_path / "w")], capture_output=True, text=True).stdout
    assert left == ""


FAKE_RUN = ["run", *FAKE_RUN]


def test_the_closing_table_marks_stored_rows(tmp_path, capsys, unchanged_tree):
    """DEVIATIONS.md covers every result in the folder; the rows this job did not run say so."""
    results_dir = tmp_path / "results"
    results_dir.mkdir()
    stored = _results([_t("x", "passed")], policy="torch", api_version="2024.12")
    normalize.dump(stored, results_dir / "torch-2024.12.json")
    assert _main([*FAKE_RUN, "--results-dir", str(results_dir), "--work-dir", str(tmp_path / "w")]) == 0
    out = capsys.readouterr().out
    table = out[out.index("array-api-tests results") :]
    rows = {ln.split("│")[1].strip(): ln for ln in table.splitlines() if ln.count("│") > 5 and "policy" not in ln}
    assert rows["torch"].split("│")[-2].strip() == "stored" and rows["array_api"].split("│")[-2].strip() == "ran"
    assert "stored: a result this job did not run, read from the folder" in table
    assert "stored" not in rows["array_api"]


def test_the_speed_plugin_can_be_left_out_and_the_results_say_so(tmp_path):
    assert (
        _main([*FAKE_RUN, "--no-speed-plugin", "--results-dir", str(tmp_path / "r"), "--work-dir", str(tmp_path / "w")])
        == 0
    )
    r = normalize.load(tmp_path / "r" / "array_api-2025.12.json")
    assert r["speed_plugin"] is False and r["tools"] == normalize.tool_versions()
    assert "without the speed plugin (`--no-speed-plugin`)" in (tmp_path / "r" / "DEVIATIONS.md").read_text()
    log = json.loads(next((tmp_path / "w").glob("*.run.json")).read_text())
    assert log["speed_plugin"] is False


# ---------------------------------------------------------------------------
# any library, even one without complex or float64
# ---------------------------------------------------------------------------
@pytest.mark.skipif(not os.environ.get("ARRAY_API_TESTS_DIR"), reason="needs the pinned suite (ARRAY_API_TESTS_DIR)")
def test_a_namespace_without_float64_runs_the_tests_that_apply(tmp_path):
    """Our namespace under the MegEngine policy (no float64, no complex dtype) through the real suite,
    a slice of two of its modules: the optional-dtypes plugin lets the suite import it, the tests run, and those
    that need an absent dtype are not applicable, with the reason; nothing reads 0 / 0 / 0."""
    from array_api_promo.conformance import results, suite

    info = suite.locate(os.environ["ARRAY_API_TESTS_DIR"], cloner=None)
    target = plan.resolve_policy("megengine")
    absent = ("float64", "complex64", "complex128")
    mods = [str(info.tests_dir / m) for m in ("test_creation_functions.py", "test_special_cases.py")]
    spec = runner.RunSpec(target, "2025.12", 5, 0, ("--tb=native", "-k", "full or ones or exp"), False, True, absent)
    monkey_tests = runner.build_command
    try:
        runner.build_command = lambda *a, **k: [x for x in monkey_tests(*a, **k) if x != str(info.tests_dir)] + mods
        (outcome,) = runner.run_many(info, [spec], budget=1, work_dir=tmp_path, progress=False)
    finally:
        runner.build_command = monkey_tests
    meta = runner.settings_of(spec, outcome, info)
    raw, log = results.read_raw(outcome.report_path, outcome.log_path)
    r = results.of_run(raw, log, meta, target, "2025.12", library=True)
    assert not r.get("incomplete"), r.get("incomplete")
    lib = {"module": target.module, "library": "array_api_promo", "version": "0", "dtypes": ["float32"]}
    lib["dtypes"] += ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
    library.finish(r, lib, explain_with=None, timeout=None)
    s = r["summary"]
    assert s["passed"] > 10 and s["total"] > s["skipped"]
    assert r["library"]["absent_dtypes"] == ["float64", "complex64", "complex128"]
    na = [e for e in r["tests"] if e.get("not_applicable")]
    assert all(e["reason"].startswith("not applicable: needs ") for e in na)
    assert s.get("not_applicable", 0) == len(na)
    assert na and s["failed"] + s["error"] < s["passed"], s
