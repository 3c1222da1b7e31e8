"""The benchmark script's arithmetic (``benchmarks/run.py``): which ratio judges a target.

No time is asserted here; a fake timer stands in for the clock."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import run


class _FakeTimer:
    """A timeit.Timer whose statement takes the next of a list of per-call times, round by round."""

    per_call: dict = {}

    def __init__(self, stmt, globals=None):
        self.times = iter(self.per_call[stmt])

    def timeit(self, number=1000000):
        return next(self.times) * number


def _case(stmts):
    return run.Case("case", "a case", "group", stmts, lambda lib, ns: {}, libs=tuple(stmts))


def test_a_targets_ratio_is_the_median_of_each_rounds_ratio(monkeypatch):
    # The machine slows down in rounds 4-5 for both sides, and in round 3 for ours alone: the
    # ratio of the medians says 3.3, the paired ratio (1.1 in four rounds of five) 1.1.
    numpy_rounds = [1.0, 1.0, 1.0, 3.0, 3.0]
    ours_rounds = [1.1, 1.1, 3.3, 3.3, 3.3]
    warm = [1.0, 1.0]  # the call that fails fast, then the autorange's one sample
    _FakeTimer.per_call = {"np": warm + numpy_rounds, "ours": warm + ours_rounds}
    monkeypatch.setattr(run.timeit, "Timer", _FakeTimer)
    case = _case({"numpy": "np", "xp": "ours"})
    mods = {"numpy": object(), "xp": object()}
    times, errors, samples, paired = run.measure_case(case, mods, {}, repeats=5, min_time=0.5)
    assert not errors
    assert times == {"numpy": 1.0, "xp": pytest.approx(3.3)}
    assert paired["xp"] == pytest.approx(1.1) and paired["numpy"] == 1.0
    assert samples == {"numpy": numpy_rounds, "xp": ours_rounds}

    results = [{"case": "add", "times": {"numpy": 1.0, "xp": 2.0, "tx": 1.2}, "paired": {"xp": 1.1}}]
    checks = run.check_targets(results, [])
    by_lib = {c["lib"]: c for c in checks if c["target"].startswith("a + b")}
    assert by_lib["xp"]["ratio"] == pytest.approx(1.1) and by_lib["xp"]["met"]  # paired where measured
    assert by_lib["tx"]["ratio"] == pytest.approx(1.2)  # else the ratio of the times


def test_a_library_with_a_numpy_call_of_its_own_is_paired_with_it(monkeypatch):
    # tx's creation functions make torch's float32: its ratio is to NumPy's float32 call, timed in
    # the same rounds, while the others keep NumPy's float64 one.
    _FakeTimer.per_call = {
        "np64": [1.0, 1.0] + [2.0, 2.0, 2.0],
        "np32": [1.0, 1.0] + [4.0, 4.0, 8.0],
        "ours": [1.0, 1.0] + [2.2, 2.2, 2.2],
        "tx32": [1.0, 1.0] + [4.4, 4.4, 8.8],
    }
    monkeypatch.setattr(run.timeit, "Timer", _FakeTimer)
    case = run.Case(
        "case",
        "a case",
        "group",
        {"numpy": "np64", "xp": "ours", "tx": "tx32", "numpy:tx": "np32"},
        lambda lib, ns: {},
        libs=("numpy", "xp", "tx"),
    )
    times, errors, samples, paired = run.measure_case(case, dict.fromkeys(("numpy", "xp", "tx"), 0), {}, 3, 0.5)
    assert not errors and set(times) == {"numpy", "xp", "tx"}
    assert paired == {"numpy": 1.0, "xp": pytest.approx(1.1), "tx": pytest.approx(1.1)}
    assert samples["numpy:tx"] == [4.0, 4.0, 8.0]
    # its own call failing leaves tx's ratio out rather than pairing it with the float64 call
    _FakeTimer.per_call = {"np64": [1.0] * 5, "tx32": [1.0] * 5}
    case.stmts = {"numpy": "np64", "tx": "tx32", "numpy:tx": "not a NumPy call"}
    case.libs = ("numpy", "tx")
    _, errors, _, paired = run.measure_case(case, dict.fromkeys(("numpy", "tx"), 0), {}, 3, 0.5)
    assert "numpy:tx" in errors and paired == {"numpy": 1.0}


def test_with_stat_min_the_ratio_is_of_the_minima(monkeypatch):
    _FakeTimer.per_call = {"np": [1.0, 1.0, 2.0, 1.0, 4.0], "ours": [1.0, 1.0, 1.0, 4.0, 4.0]}
    monkeypatch.setattr(run.timeit, "Timer", _FakeTimer)
    case = _case({"numpy": "np", "xp": "ours"})
    times, _, _, paired = run.measure_case(case, {"numpy": 0, "xp": 0}, {}, repeats=3, min_time=0.5, stat=min)
    assert paired == {}  # the least of the per-round ratios (1/4 here) would flatter
    assert times == {"numpy": 1.0, "xp": 1.0}


def test_the_large_cases_run_every_library_on_the_same_buffers():
    import numpy as np

    import array_api_promo as xp

    setup = run._large_setup(16)
    numpy_side, xp_side, tx_side = setup("numpy", np), setup("xp", xp), setup("tx", xp.torch)
    for name in ("a", "b", "d"):
        assert xp_side[name]._data is numpy_side[name] and tx_side[name]._data is numpy_side[name]


def test_the_surface_benchmark_has_a_case_for_every_function_of_the_standard():
    from benchmarks import surface

    assert surface.standard_names() - surface.covered_names() == set()
    cases = surface.make_cases(quick=True)
    assert {c.n for c in cases} == {surface.SMALL, surface.QUICK_LARGE}
    for case in cases:
        assert set(case.libs) == {"numpy", "strict", "compat", "xp", "tx"}


def test_the_surface_targets_judge_paired_ratios_and_set_views_apart():
    from benchmarks import surface

    def result(title, large, numpy_time, xp_ratio, xp_to_compat=1.0):
        return {
            "title": title,
            "large": large,
            "times": {"numpy": numpy_time},
            "paired": {"xp": xp_ratio, "tx": 1.0},
            "vs_compat": {"xp": xp_to_compat, "tx": 1.0},
        }

    results = [
        result("sum", True, 1e-3, 1.08, 1.3),  # data-bound: its ratio to compat is not judged
        result("sort", True, 5e-2, 1.2),  # data-bound, over 1.10x
        result("x.T", True, 1e-7, 1.6, 1.2),  # a view at 10**6: judged per call
        result("sum", False, 1e-6, 1.05),
        result("where", False, 1e-6, 1.4, 1.1),
        result("zeros", False, 1e-7, 3.0),
    ]
    checks = {(c["lib"], c["target"].split(" ≤")[0]): c for c in surface.check_targets(results)}
    large = checks["xp", "every data-bound 10⁶-element case"]
    assert not large["met"] and large["missed_by"] == [("sort", 1.2)] and large["cases"] == 2
    median = checks["xp", "10-element median"]
    assert median["value"] == pytest.approx(1.4) and not median["met"]
    assert checks["xp", "every 10-element case"]["missed_by"] == [("zeros", 3.0)]
    views = checks["xp", "10⁶-element cases NumPy answers without a pass over the data"]
    assert not views["met"] and views["missed_by"] == [("x.T", 1.6)]
    compat = checks["xp", "every per-call case"]
    assert compat["missed_by"] == [("x.T @10⁶", 1.2), ("where", 1.1)] and compat["cases"] == 4
    assert all(c["met"] for c in surface.check_targets(results) if c["lib"] == "tx" and "data-bound" not in c["target"])


def test_the_surface_ratios_are_paired_by_round_or_of_the_least_times():
    from benchmarks import surface

    samples = {"numpy": [1.0, 2.0, 4.0], "compat": [1.0, 4.0, 4.0], "xp": [2.0, 2.0, 5.0], "tx": [1.0, 3.0, 4.0]}
    samples["numpy:tx"] = [0.5, 1.0, 2.0]
    stmts = {"numpy:tx": "ns.zeros(n, dtype=f32)"}
    libs = ("numpy", "compat", "xp", "tx")
    to_numpy, to_compat = surface.ratios(stmts, libs, samples, "median")
    assert to_numpy == {"compat": 1.0, "xp": 1.25, "tx": 2.0}  # tx against its own NumPy call
    assert to_compat == {"xp": 1.25, "tx": 1.0}
    to_numpy, to_compat = surface.ratios(stmts, libs, samples, "min")
    assert to_numpy == {"compat": 1.0, "xp": 2.0, "tx": 2.0} and to_compat == {"xp": 2.0, "tx": 1.0}


def test_the_surface_spreads_its_rounds_over_fresh_processes_at_one_sample_size(tmp_path, monkeypatch):
    # Each worker process times its share of the rounds at the calls per sample the parent found,
    # numbering rounds on; the parent pairs the merged rounds. A worker that fails stops the run
    # with no figures.
    from benchmarks import surface

    out = tmp_path / "surface.json"
    argv = ["--quick", "-k", "op <<", "--repeats", "3", "--processes", "2", "--min-time", "0.0005", "--json", str(out)]
    assert surface.main(argv) == 0
    report = json.loads(out.read_text())
    assert report["meta"]["processes"] == 2 and report["meta"]["repeats"] == 3
    assert [r["case"] for r in report["results"]] == ["op << @10", f"op << @{surface.QUICK_LARGE}"]
    for r in report["results"]:
        assert not r["errors"] and set(r["paired"]) == {"strict", "compat", "xp", "tx"}
        assert all(t > 0 for t in r["times"].values())

    seen = []
    real = surface._run_worker

    def worker(worker_argv, numbers, first_round, rounds, min_time):
        seen.append((first_round, rounds, {key: dict(n) for key, n in numbers.items()}))
        return real(worker_argv, numbers, first_round, rounds, min_time)

    monkeypatch.setattr(surface, "_run_worker", worker)
    assert surface.main(argv) == 0
    assert [(first, rounds) for first, rounds, _ in seen] == [(0, 2), (2, 1)]
    assert seen[0][2] == seen[1][2] and all(n >= 1 for counts in seen[0][2].values() for n in counts.values())
    with pytest.raises(RuntimeError, match="a worker process"):
        real(["--no-such-option"], {}, 0, 1, 0.0005)
    monkeypatch.setattr(surface, "_run_worker", lambda *a: real(["--no-such-option"], *a[1:]))
    assert surface.main(argv) == 2


def test_the_sweep_times_its_cases_at_both_sizes_and_judges_the_targets(tmp_path):
    from benchmarks import sweep

    assert len(sweep.CASES) == 40 and len({name for name, *_ in sweep.CASES}) == 40
    out = tmp_path / "sweep.json"
    assert sweep.main(["--quick", "--rounds", "1", "--min-time", "0.0005", "-k", "subtract", "--json", str(out)]) == 0
    results = json.loads(out.read_text())
    assert [(r["case"], r["n"]) for r in results["rows"]] == [("subtract", 10), ("subtract", sweep.QUICK_LARGE)]
    for row in results["rows"]:
        assert all(t > 0 for t in row["times"].values()) and set(row["ratios"]) == {"xp", "tx"}
    assert set(results["verdicts"]) == {"xp", "tx"}
    # tx's linspace (torch's float32) is timed against NumPy's float32 call, the others against float64
    assert sweep.main(["--quick", "--rounds", "1", "--min-time", "0.0005", "-k", "linspace", "--json", str(out)]) == 0
    for row in json.loads(out.read_text())["rows"]:
        times = row["times"]
        assert set(times) == {"numpy", "xp", "tx", "numpy:tx"}
        assert row["ratios"] == {"xp": times["xp"] / times["numpy"], "tx": times["tx"] / times["numpy:tx"]}


def test_every_tx_case_is_timed_against_a_numpy_call_of_its_dtype():
    # torch's default float32 makes tx's creation functions differ from NumPy's float64 call: those
    # cases give tx a NumPy call of its own (``"numpy:tx"``); every other case must agree as it is.
    import numpy as np

    import array_api_promo.torch as tx
    from benchmarks import surface

    def dtype_of(value):
        first = value[0] if isinstance(value, (tuple, list)) and value else value
        if not (hasattr(first, "shape") and hasattr(first, "dtype")):
            return None  # not an array: a dtype, a number, a namespace
        return getattr(first.dtype, "numpy", first.dtype)

    compared = 0
    for case in surface.make_cases(quick=True):
        if case.n != surface.SMALL:
            continue
        try:
            ours = eval(case.stmt("tx"), case.setup("tx", tx))
        except SyntaxError:  # a statement (x[2:5] = ...), not an expression
            continue
        try:
            theirs = eval(case.stmts.get("numpy:tx") or case.stmt("numpy"), case.setup("numpy", np))
        except AttributeError:  # a function this NumPy lacks (np.unstack before 2.1): the benchmark's n/a
            continue
        if dtype_of(ours) is None or dtype_of(theirs) is None:  # NumPy 2.0's count_nonzero: a Python int
            continue
        assert dtype_of(ours) == dtype_of(theirs), case.title
        compared += 1
    assert compared > 200


def test_the_main_job_benchmark_starts_without_the_jobs_files_and_compares_every_byte(tmp_path, monkeypatch):
    from benchmarks import main_job

    stems = main_job.job_stems()
    assert stems == ["array_api-2025.12", "torch-2025.12", "paddle-2025.12", "mlx-2025.12"]
    folder = tmp_path / "scratch"
    written = main_job.prepare(str(folder), stems)
    copied = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    # the other runs' committed files are there for the report; none of the job's own
    assert copied and not {c.rsplit("/", 1)[-1].rsplit(".", 1)[0] for c in copied} & set(stems)
    assert not any((folder / w).exists() for w in written)
    assert main_job.compare(str(folder), written) == (written, [])  # nothing written: all missing
    for relative in written:  # the job writing the committed files
        (folder / relative).write_bytes(Path(main_job.committed_path(relative)).read_bytes())
    assert main_job.compare(str(folder), written) == ([], [])
    (folder / "DEVIATIONS.md").write_bytes((folder / "DEVIATIONS.md").read_bytes() + b"\n")
    assert main_job.compare(str(folder), written) == ([], ["DEVIATIONS.md"])


def test_the_main_job_benchmark_reads_each_runs_time_from_the_jobs_lines():
    from benchmarks import main_job

    out = "torch @ 2025.12: 1307 passed, 72 failed, 0 errors, 5 skipped in 120 s -> /tmp/x/torch-2025.12.json\n"
    assert main_job.RUN_LINE.findall(out) == [("torch", "2025.12", "120")]


@pytest.mark.parametrize(
    ("seconds", "text"), [(179.9, "3 min 0 s"), (201.0, "3 min 21 s"), (59.4, "0 min 59 s"), (150.0, "2 min 30 s")]
)
def test_the_main_job_benchmark_rounds_the_wall_time_before_splitting_it(seconds, text):
    from benchmarks import main_job

    assert main_job.minutes_and_seconds(seconds) == text


def test_the_main_job_ratio_is_one_runs_time_over_a_plain_pytest_in_turn(monkeypatch):
    from benchmarks import main_job

    cmd = main_job.plain_pytest_command("/s/array_api_tests", "/s", 200, 0)
    assert cmd[cmd.index("-n") + 1] == "2" and cmd[cmd.index("--max-examples") + 1] == "200"
    assert cmd[cmd.index("--hypothesis-seed") + 1] == "0" and "--disable-deadline" in cmd
    assert not [part for part in cmd if "array_api_promo.conformance" in part]  # none of the harness' plugins
    order = []
    runs = iter([30.0, 33.0, 29.0])
    plains = iter([50.0, 40.0, 58.0])

    def run(*args):
        order.append("run")
        return next(runs)

    def plain(*args):
        order.append("plain")
        return next(plains), "9 passed"

    monkeypatch.setattr(main_job, "harness_run", run)
    monkeypatch.setattr(main_job, "plain_pytest_run", plain)
    result = main_job.measure_ratio("array_api", "/s", 200, 0, 3)
    assert order == ["run", "plain", "plain", "run", "run", "plain"]
    assert [r["ratio"] for r in result["pairs"]] == [0.6, 33.0 / 40.0, 0.5] and result["ratio"] == 0.6
