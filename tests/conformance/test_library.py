"""``python -m conformance --library``: the harness run against an arbitrary array
library (the fake namespace of tests/fixtures/fake_suite; no network, no torch)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from fake_suite_helpers import (  # tests/conformance is on sys.path (rootdir-relative import mode)
    FAKE,
    QUICK,
    REPORT_FILES,
    main_in as _main,
)

from array_api_promo.conformance import cli, library, library_report, normalize, plan, report as report_model

MOD = "array_api_tests/test_operators_and_elementwise_functions.py"
ADD = f"{MOD}::test_add[add(x1, x2)]"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """One --library run of the fake suite, with its hanging extra."""
    pytest.importorskip("pytest_timeout")
    tmp = tmp_path_factory.mktemp("library")
    env = {
        "PYTHONPATH": os.pathsep.join([str(FAKE)] + [p for p in [os.environ.get("PYTHONPATH")] if p]),
        "FAKE_SUITE_EXTRAS": "1",
    }
    rc = _main(
        [
            "--suite",
            str(FAKE),
            "--library",
            "fake_namespace",
            "--explain-with",
            "torch",
            *QUICK,
            "--per-test-timeout",
            "3",
            "--reports-dir",
            str(tmp / "reports"),
            "--work-dir",
            str(tmp / "work"),
        ],
        env,
    )
    assert rc == 0
    return tmp / "reports" / "fake_namespace-1.2"


def _results(report):
    return normalize.load(report / library.RESULTS_NAME)


def test_report_folder_and_metadata(report):
    assert sorted(p.name for p in report.iterdir()) == REPORT_FILES
    r = _results(report)
    assert r["library"] == {
        "module": "fake_namespace",
        "library": "fake_namespace",
        "version": "1.2.3",
        "api_version": "2025.12",
        "extensions": {"fft": False, "linalg": False},
        # the fake namespace has no complex dtype: the suite ran without them (optional in the draft standard)
        "absent_dtypes": ["complex64", "complex128"],
    }
    assert r["tools"] == normalize.tool_versions() and set(r["tools"]) == {"hypothesis", "pytest", "pytest-xdist"}
    assert r["per_test_timeout"] == 3
    assert r["explained_with"]["policy"] == "torch"
    assert len(r["explained_with"]["source_sha256"]) == 64
    text = (report / "README.md").read_text()
    assert text.startswith("# Array API conformance of `fake_namespace` 1.2.3")
    assert "`fft` **absent**" in text
    # every failing test of the run is listed in the report and in xfails.txt (timeouts in skips.txt)
    failing = [e for e in r["tests"] if e["outcome"] in normalize.FAILING]
    assert len(failing) == 7
    xfails = (report / "xfails.txt").read_text()
    for e in failing:
        assert f"`{e['nodeid']}`" in text
        assert (e["nodeid"] in xfails) == (e["kind"] != normalize.TIMEOUT)
    # the reproducers ran against the library, and their output is kept for re-rendering
    assert "xp.multiply(xp.asarray([1, 1], dtype=xp.int64)" in text
    assert any("array([2, 2])" in out for out in r["reproducer_outputs"].values())
    index = (report.parent / "README.md").read_text()
    assert "fake_namespace" in index and "| `test_operators_and_elementwise_functions` |" in index


def test_timeout_is_reported_not_fatal(report):
    r = _results(report)
    sleepy = {e["nodeid"]: e for e in r["tests"]}["array_api_tests/test_extras_hang.py::test_sleepy"]
    assert (sleepy["outcome"], sleepy["kind"]) == ("failed", "timeout")
    assert "array_api_tests/test_extras_hang.py::test_sleepy" in (report / "skips.txt").read_text()
    assert "1 test(s) hit the per-test timeout" in (report / "README.md").read_text()
    assert r["summary"]["passed"] == 2  # the run went on after the timeout


def test_a_collection_error_leaves_the_report_folder_alone(tmp_path, monkeypatch, capsys):
    """A test module that cannot be collected: exit 3 and one line that says why; the report (which
    names the module) goes to a scratch folder, not to --out nor the reports folder."""
    monkeypatch.setattr(plan, "scratch_dir", lambda: tmp_path / "scratch")
    env = {
        "PYTHONPATH": os.pathsep.join([str(FAKE)] + [p for p in [os.environ.get("PYTHONPATH")] if p]),
        "FAKE_SUITE_BROKEN": "1",
    }
    assert _library_run(tmp_path, "fake_namespace", env) == 3
    err = capsys.readouterr().err
    assert (
        err.count("\n") == 1 and "1 report run(s) incomplete, fake_namespace @ 2025.12: seed 0: 1 test module(s)" in err
    )
    assert "No module named 'definitely_not_an_installed_module'" in err
    assert not (tmp_path / "out").exists()
    report = tmp_path / "scratch" / "out"
    r = _results(report)
    (err,) = r["collection_errors"]
    assert err["nodeid"] == "array_api_tests/test_extras_broken.py"
    assert "definitely_not_an_installed_module" in err["message"] and r["incomplete"]
    text = (report / "README.md").read_text()
    assert "## Collection errors" in text and "test_extras_broken.py" in text


def test_wrong_dtypes_replayed_through_the_policy(report):
    pytest.importorskip("array_api_promo.promotion")
    add = {e["nodeid"]: e for e in _results(report)["tests"]}[ADD]
    assert add["attribution"]["explained"] is True and add["attribution"]["engine_result"] == "int8"
    text = (report / "README.md").read_text()
    assert "Type promotion predicted by policy `torch`:" in text
    assert "**2 of 2** are predicted" in text


def test_report_rerenders_from_results_alone(report, tmp_path):
    before = {p.name: p.read_bytes() for p in report.iterdir()}
    copy = tmp_path / report.name
    copy.mkdir()
    (copy / library.RESULTS_NAME).write_bytes(before[library.RESULTS_NAME])
    library.render_dir(copy)
    assert {p.name: p.read_bytes() for p in copy.iterdir()} == before


def _library_run(tmp_path, module, env):
    return _main(
        [
            "--suite",
            str(FAKE),
            "--library",
            module,
            "--max-examples",
            "2",
            "--workers",
            "1",
            "--no-progress",
            "--no-clone",
            "--per-test-timeout",
            "0",
            "--out",
            str(tmp_path / "out"),
            "--work-dir",
            str(tmp_path / "work"),
        ],
        env,
    )


def test_a_library_that_is_not_installed_is_a_one_line_error_and_nothing_is_written(tmp_path, capsys):
    assert _library_run(tmp_path, "no_such_array_library", {}) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no module named 'no_such_array_library' is installed" in err
    assert not (tmp_path / "out").exists() and not (tmp_path / "work").exists()


def test_a_library_that_fails_on_import_gets_a_report(tmp_path):
    """Installed but broken on import (a missing shared library, say): that is the report's subject."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "broken_array_library.py").write_text("raise ImportError('libfoo.so: cannot open')\n")
    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path / "lib")] + [p for p in [os.environ.get("PYTHONPATH")] if p])}
    assert _library_run(tmp_path, "broken_array_library", env) == 0
    r = _results(tmp_path / "out")
    assert "ImportError: libfoo.so" in r["library"]["error"]
    assert r["summary"]["total"] == 0 and r["collection_errors"]
    text = (tmp_path / "out" / "README.md").read_text()
    assert "**The module could not be imported**" in text and "## Collection errors" in text


def test_tensor_and_numpy_reprs_are_parsed():
    call = normalize.parse_call("xp.add(tensor([1, 2], dtype=torch.int8), tensor(1.))")
    assert call["operands"] == [{"rank": "nd", "dtype": "int8"}, {"rank": "0-d", "dtype": "float32"}]
    call = normalize.parse_call("xp.add(array([1., 2.]), array(1, dtype=int8))")
    assert call["operands"] == [{"rank": "nd", "dtype": "float64"}, {"rank": "0-d", "dtype": "int8"}]


def test_report_label():
    assert (
        library.report_label({"module": "array_api_compat.torch", "library": "torch", "version": "2.13.0+cpu"})
        == "torch-2.13"
    )
    assert (
        library.report_label({"module": "array_api_strict", "library": "array_api_strict", "version": "2.6.1"})
        == "array_api_strict-2.6"
    )


def test_committed_reports_rerender_identically(tmp_path):
    """Each committed report is exactly what its committed results.json renders to."""
    dirs = library.report_dirs()
    if not dirs:
        pytest.skip("no committed library reports")
    for d in dirs:
        copy = tmp_path / d.name
        copy.mkdir()
        (copy / library.RESULTS_NAME).write_bytes((d / library.RESULTS_NAME).read_bytes())
        library.render_dir(copy)
        for name in (library.REPORT_NAME, "xfails.txt", "skips.txt", library.ANNOTATED_XFAILS_NAME):
            assert (copy / name).read_text() == (d / name).read_text(), f"{d.name}/{name} is stale"
    index = library_report.render_index(
        [dict(normalize.load(d / library.RESULTS_NAME), _folder=d.name) for d in dirs], library.our_results()
    )
    assert index == (library.REPORTS_DIR / "README.md").read_text()


def test_cross_check_gives_a_reason_for_every_disagreement(report, tmp_path):
    """--render-reports --cross-check: our results under a policy against the library's."""
    from array_api_promo.conformance import crosscheck

    theirs = _results(report)
    ours = json.loads(json.dumps(theirs))
    ours.update(policy="torch", package={"source_sha256": "f" * 64})
    by_id = {e["nodeid"]: e for e in ours["tests"]}
    by_id[f"{MOD}::test_multiply"].update(outcome="passed")  # only the library fails
    by_id[f"{MOD}::test_add_values"].update(
        outcome="failed",
        kind="wrong dtype",  # only ours
        message="out.dtype=int8, but should be int64",
    )
    results_file = tmp_path / "torch-2025.12.json"
    normalize.dump(ours, results_file)
    copy = tmp_path / "reports" / report.name
    copy.mkdir(parents=True)
    (copy / library.RESULTS_NAME).write_bytes((report / library.RESULTS_NAME).read_bytes())
    assert (
        cli.main(["--render-reports", "--reports-dir", str(tmp_path / "reports"), "--cross-check", str(results_file)])
        == 0
    )
    text = (copy / "README.md").read_text()
    assert "## Cross-check: policy `torch` against real fake_namespace" in text
    section = text.split("## Cross-check:")[1].split("\n## ")[0]
    rows = [ln for ln in section.splitlines() if ln.startswith("| `test_")]
    mult = next(ln for ln in rows if "test_multiply`" in ln)
    assert "| passed | wrong value |" in mult and "kernel" in mult
    assert next(ln for ln in rows if "test_add_values" in ln).endswith(" |")
    for ln in rows:  # every row: agree, or a reason
        assert ln.rsplit("|", 2)[-2].strip()
    cc = normalize.load(copy / library.RESULTS_NAME)["cross_check"]
    assert cc["source_sha256"] == "f" * 64
    assert crosscheck.render(normalize.load(copy / library.RESULTS_NAME)) == crosscheck.render(
        normalize.load(copy / library.RESULTS_NAME)
    )


def test_probe_lets_the_library_declare_its_version(monkeypatch):
    pytest.importorskip("array_api_strict")
    monkeypatch.setenv("ARRAY_API_STRICT_API_VERSION", "")  # as the harness' run env would set it
    info = library.probe("array_api_strict")
    assert "error" not in info and info["library"] == "array_api_strict" and info["api_version"]
    assert library.report_label(info).startswith("array_api_strict-")


def test_cross_check_refuses_to_replay_on_a_library_that_does_not_import(report, tmp_path, monkeypatch):
    """Without the real library (torch not installed), replaying our failing calls on it gives
    only import errors: the cross-check stops with a clear error and writes nothing, instead of
    recording that the library "fails there too"."""
    from array_api_promo.conformance import crosscheck, reproduce

    theirs = _results(report)
    ours = json.loads(json.dumps(theirs))
    ours.update(policy="torch", package={"source_sha256": "f" * 64})
    by_id = {e["nodeid"]: e for e in ours["tests"]}
    by_id[f"{MOD}::test_add_values"].update(
        outcome="failed",
        kind="wrong dtype",
        message="out.dtype=int8, but should be int64",
        failing_code="xp.add(Array([1], dtype=int8), Array([2], dtype=int64))",
    )

    def no_library(snippets):
        return ["Traceback (most recent call last):\nModuleNotFoundError: No module named 'torch'\n"] * len(snippets)

    with pytest.raises(crosscheck.ReplayUnavailable, match=r"does not import here.*pip install torch==2\.13\.0"):
        crosscheck.snapshot(ours, theirs, execute=no_library)

    # The same through the command line: exit 2, the library's results untouched.
    results_file = tmp_path / "torch-2025.12.json"
    normalize.dump(ours, results_file)
    copy = tmp_path / "reports" / report.name
    copy.mkdir(parents=True)
    before = (report / library.RESULTS_NAME).read_bytes()
    (copy / library.RESULTS_NAME).write_bytes(before)
    monkeypatch.setattr(reproduce, "execute", no_library)
    argv = ["--render-reports", "--reports-dir", str(tmp_path / "reports"), "--cross-check", str(results_file)]
    assert cli.main(argv) == 2
    assert (copy / library.RESULTS_NAME).read_bytes() == before

    # A single import error among answers is a call that cannot be replayed, not the library's answer.
    row = {"ours": {"kind": "wrong dtype", "message": "m", "got": "int8"}, "theirs": None}
    row.update(ours_outcome="failed", theirs_outcome="passed")
    row["replay"] = {"code": "xp.add(a, b)", "output": "ImportError: cannot import name 'x'"}
    why = crosscheck.reason(f"{MOD}::test_add_values", row, {"policy": "torch", "max_examples": 200}, 10)
    assert "not compared" in why and "fails there too" not in why


def _draw(seed, outcomes):
    tests = [
        {"nodeid": nid, "test_module": "m", "spec_function": nid, "outcome": o}
        | ({"kind": "wrong value", "message": f"{nid} failed under seed {seed}"} if o == "failed" else {})
        for nid, o in outcomes.items()
    ]
    return {"hypothesis": {"max_examples": 5, "seed": seed}, "tests": tests, "summary": normalize.summarise(tests)}


def test_draws_merge_into_one_result_that_names_the_tests_failing_on_some_draws_only():
    merged = normalize.merge_draws(
        [
            _draw(0, {"a": "passed", "b": "failed", "c": "failed", "d": "skipped"}),
            _draw(1, {"a": "failed", "b": "failed", "c": "passed", "d": "skipped"}),
            _draw(2, {"a": "passed", "b": "failed", "c": "passed", "d": "skipped"}),
        ]
    )
    by_id = {e["nodeid"]: e for e in merged["tests"]}
    assert merged["hypothesis"]["seeds"] == [0, 1, 2]
    assert merged["summary"] == {
        "passed": 0, "failed": 3, "error": 0, "skipped": 1, "xfailed": 0, "xpassed": 0, "total": 4
    }  # fmt: skip
    assert by_id["a"]["draws"] == {"failed": 1, "of": 3, "seeds": [1]}
    assert by_id["a"]["message"] == "a failed under seed 1"  # the failing draw's own message
    assert by_id["c"]["draws"] == {"failed": 1, "of": 3, "seeds": [0]}
    assert "draws" not in by_id["b"] and "draws" not in by_id["d"]  # failed on every draw / never ran
    xfails = library_report.xfails_text(merged | {"module": "m", "api_version": "2025.12"})
    assert "# wrong value (fails on some draws only)\na\nc" in xfails
    assert "# wrong value\nb" in xfails
    assert normalize.merge_draws([_draw(0, {"a": "passed"})]) == _draw(0, {"a": "passed"})


def test_several_seeds_run_the_library_once_per_seed(tmp_path):
    rc = _main(
        [
            "--suite", str(FAKE), "--library", "fake_namespace", "--max-examples", "2", "--seed", "3",
            "--seed", "4", "--workers", "1", "--no-progress", "--no-clone", "--per-test-timeout", "0",
            "--out", str(tmp_path / "out"), "--work-dir", str(tmp_path / "work"),
        ],
        {"PYTHONPATH": os.pathsep.join([str(FAKE)] + [p for p in [os.environ.get("PYTHONPATH")] if p])},
    )  # fmt: skip
    assert rc == 0
    results = normalize.load(tmp_path / "out" / library.RESULTS_NAME)
    assert results["hypothesis"]["seeds"] == [3, 4]
    text = (tmp_path / "out" / library.REPORT_NAME).read_text()
    assert "max_examples=2, seeds 3, 4 (one run per seed" in text
    assert "Made by: `python -m conformance library fake_namespace --max-examples 2 --seed 3 --seed 4`" in text


def test_a_merged_result_takes_more_draws_as_if_all_had_run_together():
    d = [
        _draw(0, {"a": "passed", "b": "failed", "c": "failed", "e": "passed"}),
        _draw(1, {"a": "failed", "b": "failed", "c": "passed", "e": "passed"}),
        _draw(2, {"a": "passed", "b": "failed", "c": "passed", "e": "failed"}),
        _draw(3, {"a": "passed", "b": "failed", "c": "failed", "e": "passed"}),
    ]
    d[1]["spec_text"], d[3]["spec_text"] = {"a": "quote a"}, {"c": "quote c"}
    at_once = normalize.merge_draws(d)
    in_two = normalize.merge_draws([normalize.merge_draws(d[:2]), normalize.merge_draws(d[2:])])
    assert in_two == at_once
    by_id = {e["nodeid"]: e for e in at_once["tests"]}
    assert by_id["c"]["draws"] == {"failed": 2, "of": 4, "seeds": [0, 3]}
    assert by_id["e"]["draws"] == {"failed": 1, "of": 4, "seeds": [2]}
    assert "draws" not in by_id["b"]  # failed on all four, two of them merged earlier
    assert at_once["spec_text"] == {"a": "quote a", "c": "quote c"}  # each draw's quotes kept
    with pytest.raises(ValueError, match="the same Hypothesis seed in two draws"):
        normalize.merge_draws([normalize.merge_draws(d[:2]), d[1]])


def test_merge_with_adds_new_draws_to_an_earlier_report_without_running_it_again(tmp_path, capsys):
    env = {"PYTHONPATH": os.pathsep.join([str(FAKE)] + [p for p in [os.environ.get("PYTHONPATH")] if p])}
    common = [
        "--suite", str(FAKE), "--library", "fake_namespace", "--max-examples", "2", "--workers", "1",
        "--no-progress", "--no-clone", "--per-test-timeout", "0", "--work-dir", str(tmp_path / "work"),
    ]  # fmt: skip
    assert _main([*common, "--seed", "3-5", "--out", str(tmp_path / "together")], env) == 0
    assert _main([*common, "--seed", "3", "--out", str(tmp_path / "first")], env) == 0
    assert _main([*common, "--seed", "5", "--out", str(tmp_path / "third")], env) == 0
    argv = [*common, "--seed", "4", "--merge-with", str(tmp_path / "third"), "--merge-with", str(tmp_path / "first")]
    assert _main([*argv, "--out", str(tmp_path / "merged")], env) == 0
    for name in (library.RESULTS_NAME, library.REPORT_NAME, "xfails.txt"):
        assert (tmp_path / "merged" / name).read_text() == (tmp_path / "together" / name).read_text(), name
    capsys.readouterr()
    again = [*common, "--seed", "3", "--merge-with", str(tmp_path / "first"), "--out", str(tmp_path / "no")]
    assert _main(again, env) == 2
    assert "seed(s) 3 already drawn there" in capsys.readouterr().err and not (tmp_path / "no").exists()
    other = [*common, "--seed", "5", "--max-examples", "3", "--merge-with", str(tmp_path / "first")]
    assert _main([*other, "--out", str(tmp_path / "no")], env) == 2
    assert "its max_examples is 2, this run's 3" in capsys.readouterr().err and not (tmp_path / "no").exists()
    foreign = normalize.load(tmp_path / "first" / library.RESULTS_NAME) | {"module": "array_api_strict"}
    normalize.dump(foreign, tmp_path / "foreign.json")
    other = [*common, "--seed", "5", "--merge-with", str(tmp_path / "foreign.json"), "--out", str(tmp_path / "no")]
    assert _main(other, env) == 2
    assert "its namespace module is 'array_api_strict', this run's 'fake_namespace'" in capsys.readouterr().err
    (tmp_path / "broken.json").write_text("{}")
    other = [*common, "--seed", "5", "--merge-with", str(tmp_path / "broken.json"), "--out", str(tmp_path / "no")]
    assert _main(other, env) == 2 and "not a report's results" in capsys.readouterr().err
    assert not (tmp_path / "no").exists()


def test_seeds_take_ranges_and_a_report_writes_them_back_as_ranges():
    args = cli.parse_args(["--library", "m", "--seed", "0-3", "--seed", "8", "--seed", "10-11"])
    assert args.seeds == [0, 1, 2, 3, 8, 10, 11]
    assert report_model.seed_ranges(args.seeds) == ["0-3", "8", "10", "11"]
    made = {"module": "m", "api_version": "2025.12", "library": {"api_version": "2025.12"}}
    made["hypothesis"] = {"max_examples": 20, "seed": 0, "seeds": list(range(48))}
    assert "--max-examples 20 --seed 0-47" in library_report.regenerate_command(made)
    for bad in ("5-2", "a", "1-b"):
        with pytest.raises(SystemExit):
            cli.parse_args(["--library", "m", "--seed", bad])


def test_several_seeds_are_for_library_runs_only():
    with pytest.raises(SystemExit):
        cli.parse_args(["--seed", "1", "--seed", "2"])


def test_a_single_value_draw_follows_the_seed(tmp_path):
    """The suite's special cases (``test_unary``) draw their one value with ``.example()``, whose
    pick is made by the global ``random``: the harness seeds it per test from the Hypothesis seed,
    so a seed draws the same value in every run (a report's "fails on draws (seeds ...)" reproduces,
    and re-running its command gives it again) and another seed another value."""
    env = {
        "PYTHONPATH": os.pathsep.join([str(FAKE)] + [p for p in [os.environ.get("PYTHONPATH")] if p]),
        "FAKE_SUITE_SINGLE_DRAW": "1",
    }
    common = [
        "--suite", str(FAKE), "--library", "fake_namespace", "--max-examples", "2", "--workers", "1",
        "--no-progress", "--no-clone", "--per-test-timeout", "0", "--work-dir", str(tmp_path / "work"),
        "--pytest-arg=-k", "--pytest-arg=single_draw",
    ]  # fmt: skip

    def drawn(seed, out):
        assert _main([*common, "--seed", str(seed), "--out", str(tmp_path / out)], env) == 0
        (e,) = normalize.load(tmp_path / out / library.RESULTS_NAME)["tests"]
        assert e["outcome"] == "failed"
        return e["message"].splitlines()[0]

    first = drawn(7, "a")
    assert first.startswith("AssertionError: drew ")
    assert drawn(7, "b") == first  # unseeded, the pick is one of ten at random
    assert drawn(8, "c") != first


def test_runs_load_the_draw_seeding_plugin():
    from array_api_promo.conformance import DRAWS_PLUGIN, _pytest_draws, runner, suite

    info = suite.SuiteInfo(path=FAKE, suite_commit="unknown", spec_commit="unknown")
    cmd = runner.build_command(info, Path("r.json"), max_examples=2, seed=3, workers=1)
    assert cmd[cmd.index(DRAWS_PLUGIN) - 1] == "-p" and _pytest_draws.__name__ == DRAWS_PLUGIN
    assert _pytest_draws.draw_seed(3, "a::b") != _pytest_draws.draw_seed(4, "a::b")


def test_every_failure_says_whether_the_policy_reproduces_it(report):
    """Each failure of the library: a promotion rule the policy reproduces (or a defect of the
    policy), or outside promotion; the counts in the header and a row per failure."""
    by_id = {e["nodeid"]: e for e in _results(report)["tests"]}
    causes = {nid: e["cause"]["cause"] for nid, e in by_id.items() if "cause" in e}
    assert set(causes) == {nid for nid, e in by_id.items() if e["outcome"] in normalize.FAILING}
    assert causes[ADD] == library_report.PROMOTION  # a wrong dtype the torch policy predicts
    assert causes[f"{MOD}::test_multiply"] == library_report.KERNEL  # a wrong value
    assert causes["array_api_tests/test_has_names.py::test_has_names[elementwise-definitely_missing]"] == (
        library_report.MISSING
    )
    assert causes["array_api_tests/test_extras_hang.py::test_sleepy"] == library_report.EXCEPTION
    text = (report / "README.md").read_text()
    header = text.split("## Summary")[0]
    assert (
        "- Failures by cause (policy `torch`): promotion rule reproduced by policy `torch` 2, promotion rule "
        "policy `torch` does not reproduce (a defect of the policy) 0, missing name 1, kernel 1, "
        "special-case value 0, exception 3" in header
    )
    section = text.split("## Promotion or not: every failure")[1].split("\n## ")[0]
    for nid in causes:
        assert f"| `{nid.replace('array_api_tests/', '')}` |" in section


def test_a_refusal_is_a_promotion_rule_when_the_policy_refuses_alike():
    """torch's "attempted to promote UInt32 and Byte" is torch's promotion table refusing the pair:
    reproduced when the policy refuses it too, a defect of the policy when it promotes it."""
    refusal = "RuntimeError: Promotion for uint16, uint32, uint64 types is not supported, attempted to promote {}"
    entry = {"kind": normalize.UNEXPECTED_EXCEPTION, "spec_function": "equal"}
    cause = library.failure_cause(entry | {"message": refusal.format("UInt32 and Byte")}, "torch")
    assert cause == {"cause": library_report.PROMOTION, "detail": "the library and the policy refuse uint32 with uint8"}
    cause = library.failure_cause(entry | {"message": refusal.format("Long and Byte")}, "torch")
    assert cause["cause"] == library_report.NOT_PREDICTED  # torch's policy promotes int64 with uint8
    no_kernel = "RuntimeError: \"bitwise_and_cpu\" not implemented for 'UInt16'"
    assert library.failure_cause(entry | {"message": no_kernel}, "torch")["cause"] == library_report.KERNEL
    other = "RuntimeError: step must be greater than zero"
    assert library.failure_cause(entry | {"message": other}, "torch")["cause"] == library_report.EXCEPTION
    dtype = {"kind": normalize.WRONG_DTYPE, "attribution": {"explained": False, "rule": "not explained: int32"}}
    assert library.failure_cause(dtype, "torch") == {
        "cause": library_report.NOT_PREDICTED,
        "detail": "not explained: int32",
    }


def test_cross_check_leaves_a_report_of_another_release_as_it_was(report, tmp_path, capsys):
    """Two reports of one library (torch 2.13 and 2.15): --render-reports --cross-check replays our
    failing calls on the release installed here, so it re-checks only the report of that release."""
    theirs = _results(report)
    ours = json.loads(json.dumps(theirs))
    ours.update(policy="torch", package={"source_sha256": "f" * 64})
    normalize.dump(ours, tmp_path / "torch-2025.12.json")
    older = tmp_path / "reports" / "fake_namespace-1.1"
    older.mkdir(parents=True)
    normalize.dump(theirs | {"library": theirs["library"] | {"version": "1.1.0"}}, older / library.RESULTS_NAME)
    before = (older / library.RESULTS_NAME).read_bytes()
    env = {"PYTHONPATH": os.pathsep.join([str(FAKE)] + [p for p in [os.environ.get("PYTHONPATH")] if p])}
    argv = [
        "--render-reports",
        "--reports-dir",
        str(tmp_path / "reports"),
        "--cross-check",
        str(tmp_path / "torch-2025.12.json"),
    ]
    assert _main(argv, env) == 2  # the only report is of 1.1.0; 1.2.3 is installed
    assert "not cross-checked: fake_namespace-1.1 was made with 1.1.0" in capsys.readouterr().out
    assert (older / library.RESULTS_NAME).read_bytes() == before
    current = tmp_path / "reports" / report.name
    current.mkdir()
    (current / library.RESULTS_NAME).write_bytes((report / library.RESULTS_NAME).read_bytes())
    assert _main(argv, env) == 0
    assert normalize.load(current / library.RESULTS_NAME)["cross_check"]["source_sha256"] == "f" * 64
    assert (older / library.RESULTS_NAME).read_bytes() == before
