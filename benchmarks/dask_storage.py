"""The Dask storage (``namespace(..., storage="dask")``) out of core and against raw dask.array.

    python -m benchmarks.dask_storage            # full run (a few minutes)
    python -m benchmarks.dask_storage --quick    # smoke run (seconds)
    python -m benchmarks.dask_storage --json out.json
    python benchmarks/dask_storage.py ...        # same thing

Two parts, both on dask's threaded scheduler (dask's default for arrays, set explicitly here;
one worker thread per CPU):

1. Out of core. ``sum(ones((n,), chunks=c))`` and ``mean(arange(n, chunks=c))`` of float64, by
   default n = 2×10**9 (16 GB) in chunks of 2**23 elements (64 MiB), computed with ``float()``.
   Each computation runs in a fresh interpreter of its own, so that its peak memory is its own:
   there a thread samples the resident set of the process and of its children every 50 ms
   (psutil), and ``resource.getrusage`` gives the kernel's high-water mark (``ru_maxrss``) at the
   end. The time is wall time from building the arrays to the Python float, imports excluded.
   The value is checked (n for the sum; (n - 1)/2 for the mean, to a relative 1e-9) and so is
   that the namespace's arrays hold a ``dask.array.Array`` (they stayed lazy). The same
   computations run with raw ``dask.array`` for comparison, and with the ``torch`` policy.
   Dask's own ``ones`` makes each chunk a broadcast view of one element (no chunk memory); the
   mean of ``arange`` is the case whose chunks are real 64 MiB buffers.

2. Elementwise overhead: on ``x = arange(10**8, dtype=float64, chunks=2**22)`` (built once, lazy)
   the statements ``float(ns.sum(x * 2.0 + 1.0))`` and ``float(ns.sum(ns.sin(x) * x + 1.0))``,
   with ``ns`` our namespace (policies ``array_api`` and ``torch``) and raw ``dask.array`` on the
   same chunks. What is timed per call: building the expression's graph and the sum's, dask's
   graph optimisation and scheduling, and the computation itself (each chunk's ``arange``, the
   elementwise operations and the chunk's sum, then the combine of the 24 partial sums). The
   value of each namespace is checked against raw dask's (a faster wrong answer meets nothing).
   The table gives each graph's number of tasks (the same work in the same shape). One call
   per sample (about a second each, whose time varies by about a tenth from call to call on a
   quiet machine); the libraries are interleaved round by round, rotating who goes first, and
   a ratio is paired: the median over the 31 rounds of each round's time divided by raw dask's
   time in the same round (as ``benchmarks/run.py`` does).

The run ends with the CPU time that other processes used meanwhile (psutil: the machine's busy
time less this process's and its children's); where it passes a tenth of one CPU the times are
noisy and the run says so.

The issue's targets are printed as met/missed: peak memory under 2 GB (2×10**9 bytes) for the
out-of-core cases, and a paired ratio of at most 1.05 to raw dask.array for the elementwise
ones. Nothing here asserts or exits non-zero because of a time or a memory figure; a cell that
cannot run (the Dask storage not importable, dask or psutil missing, an error) shows "n/a" with
the reason under the table.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import threading
import time
import timeit
import traceback

if __package__ in (None, ""):  # `python benchmarks/dask_storage.py`: make the repository importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks._machine import cpu_seconds, load_average  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBS = ("dask", "xp", "tx")
LIB_TITLES = {"dask": "raw dask.array", "xp": "xp (array_api, dask)", "tx": "tx (torch policy, dask)"}
POLICIES = {"xp": "array_api", "tx": "torch"}
PEAK_LIMIT = 2 * 10**9  # bytes: "peak memory under 2 GB"
RATIO_LIMIT = 1.05  # elementwise: ours / raw dask.array, paired by round
SAMPLE_INTERVAL = 0.05  # seconds between two RSS samples

OUT_OF_CORE = {
    # key: (title, creation, reduction)
    "sum_ones": ("sum(ones((n,), chunks=c))", "ones", "sum"),
    "mean_arange": ("mean(arange(n, chunks=c))", "arange", "mean"),
}
ELEMENTWISE = {
    # key: (title, expression); ``ns`` is the namespace or dask.array, ``x`` the lazy input; the
    # statement timed is float(expression)
    "mul_add": ("sum(x * 2.0 + 1.0)", "ns.sum(x * 2.0 + 1.0)"),
    "sin_mul_add": ("sum(sin(x) * x + 1.0)", "ns.sum(ns.sin(x) * x + 1.0)"),
}


def _short(e: BaseException) -> str:
    msg = str(e).splitlines()[0] if str(e) else ""
    msg = f"{type(e).__name__}: {msg}"
    return msg if len(msg) <= 160 else msg[:157] + "..."


def _threaded_scheduler():
    """dask's threaded scheduler, one worker per CPU (what dask.array uses when nothing is set)."""
    import dask

    dask.config.set(scheduler="threads")


def _namespace(lib):
    """dask.array for "dask", else array_api_promo's Dask storage under lib's policy."""
    if lib == "dask":
        import dask.array as da

        return da
    import array_api_promo

    return array_api_promo.namespace(POLICIES[lib], storage="dask")


# ----------------------------------------------------------------------------------------
# part 1: out of core, one fresh interpreter per computation
# ----------------------------------------------------------------------------------------
class PeakRSS:
    """The largest resident set of this process plus its children, sampled in a thread."""

    def __init__(self, interval=SAMPLE_INTERVAL):
        import psutil

        self._psutil = psutil
        self._proc = psutil.Process()
        self.interval = interval
        self.peak = 0
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def sample(self):
        rss = self._proc.memory_info().rss
        for child in self._proc.children(recursive=True):
            with contextlib.suppress(self._psutil.Error):  # gone meanwhile
                rss += child.memory_info().rss
        self.peak = max(self.peak, rss)
        self.samples += 1
        return rss

    def _run(self):
        while not self._stop.wait(self.interval):
            self.sample()

    def __enter__(self):
        self.sample()
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.sample()


def _maxrss_bytes():
    import resource

    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) * scale


def run_child(lib, case, n, chunks):
    """One out-of-core computation, in this (fresh) process: a dict of what was measured."""
    import numpy as np

    title, creation, reduction = OUT_OF_CORE[case]
    out = {"lib": lib, "case": case, "n": n, "chunks": chunks}
    _threaded_scheduler()
    import dask.array as da

    ns = _namespace(lib)
    try:
        sampler = PeakRSS()
    except ImportError as e:
        sampler, out["psutil"] = None, _short(e)
    out["rss_before"] = sampler.sample() if sampler else None
    start = time.perf_counter()
    with sampler if sampler else contextlib.nullcontext():
        dtype = ns.float64
        if lib == "dask":
            x = (
                da.ones((n,), dtype=dtype, chunks=chunks)
                if creation == "ones"
                else da.arange(n, dtype=dtype, chunks=chunks)
            )
        elif creation == "ones":
            x = ns.ones((n,), dtype=dtype, chunks=chunks)
        else:
            x = ns.arange(n, dtype=dtype, chunks=chunks)
        r = getattr(ns, reduction)(x)
        out["lazy"] = all(isinstance(a if lib == "dask" else getattr(a, "_data", None), da.Array) for a in (x, r))
        out["nchunks"] = len(x.chunks[0]) if lib == "dask" else len(x._data.chunks[0])
        value = float(r)
    out["time_s"] = time.perf_counter() - start
    out["peak_rss"] = sampler.peak if sampler else None
    out["samples"] = sampler.samples if sampler else 0
    out["maxrss"] = _maxrss_bytes()
    expected = float(n) if reduction == "sum" else (n - 1) / 2
    out["value"], out["expected"] = value, expected
    out["value_ok"] = bool(np.isclose(value, expected, rtol=1e-9, atol=0))
    return out


def measure_out_of_core(libs, n, chunks, repeats, console):
    """{(case, lib): [child results]}, {(case, lib): error}; repeats rounds, libraries interleaved."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    runs, errors = {}, {}
    for case in OUT_OF_CORE:
        for r in range(repeats):
            k = r % len(libs)
            for lib in libs[k:] + libs[:k]:
                if (case, lib) in errors:
                    continue
                cmd = [sys.executable, os.path.abspath(__file__), "--child", lib, case, str(n), str(chunks)]
                proc = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True)
                lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
                if proc.returncode != 0 or not lines:
                    tail = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
                    errors[(case, lib)] = tail if len(tail) <= 160 else tail[:157] + "..."
                    continue
                result = json.loads(lines[-1][len("RESULT ") :])
                runs.setdefault((case, lib), []).append(result)
                console.print(
                    f"  {case} [{lib}] round {r + 1}/{repeats}: {result['time_s']:.2f} s, "
                    f"peak {fmt_bytes(result['peak_rss'])}, value {result['value']!r}",
                    markup=False,
                    highlight=False,
                )
    return runs, errors


def summarize_out_of_core(runs, errors, libs):
    rows = []
    for case, (title, _, _) in OUT_OF_CORE.items():
        for lib in libs:
            rs = runs.get((case, lib), [])
            row = {"case": case, "title": title, "lib": lib, "error": errors.get((case, lib)), "runs": rs}
            if rs:
                peaks = [r["peak_rss"] for r in rs if r["peak_rss"] is not None]
                row.update(
                    time_s=statistics.median(r["time_s"] for r in rs),
                    time_range_s=(min(r["time_s"] for r in rs), max(r["time_s"] for r in rs)),
                    peak_rss=max(peaks) if peaks else None,
                    maxrss=max(r["maxrss"] for r in rs),
                    rss_before=max(r["rss_before"] or 0 for r in rs) or None,
                    value=rs[0]["value"],
                    value_ok=all(r["value_ok"] for r in rs),
                    lazy=all(r["lazy"] for r in rs),
                    nchunks=rs[0]["nchunks"],
                )
                peak = max(x for x in (row["peak_rss"], row["maxrss"]) if x is not None)
                row["met"] = bool(peak < PEAK_LIMIT)
            rows.append(row)
    return rows


# ----------------------------------------------------------------------------------------
# part 2: elementwise work, ours against raw dask.array in one process
# ----------------------------------------------------------------------------------------
def measure_elementwise(libs, n, chunks, rounds):
    """[{case, title, stmt, times, samples, paired, errors}], raw dask being the reference."""
    _threaded_scheduler()
    spaces, errors0 = {}, {}
    for lib in libs:
        try:
            spaces[lib] = _namespace(lib)
        except Exception as e:
            errors0[lib] = _short(e)
    results = []
    for case, (title, expr) in ELEMENTWISE.items():
        stmt = f"float({expr})"
        timers, errors, samples, values, tasks = {}, dict(errors0), {}, {}, {}
        for lib, ns in spaces.items():
            try:
                x = ns.arange(n, dtype=ns.float64, chunks=chunks)
                g = {"ns": ns, "x": x}
                lazy = eval(expr, g)
                tasks[lib] = len(getattr(lazy, "_data", lazy).__dask_graph__())  # the same graph's size
                values[lib] = eval(stmt, g)  # warm-up; fails fast for a missing function
                timers[lib], samples[lib] = timeit.Timer(stmt, globals=g), []
            except Exception as e:
                errors[lib] = _short(e)
        order = list(timers)
        for r in range(rounds):
            k = r % len(order) if order else 0
            for lib in order[k:] + order[:k]:
                samples[lib].append(timers[lib].timeit(1))
        times = {lib: statistics.median(s) for lib, s in samples.items()}
        reference = samples.get("dask")
        paired = (
            {lib: statistics.median(a / b for a, b in zip(s, reference)) for lib, s in samples.items()}
            if reference
            else {}
        )
        results.append(
            {
                "case": case,
                "title": title,
                "stmt": stmt,
                "n": n,
                "chunks": chunks,
                "times": times,
                "spread": {lib: (min(s), max(s)) for lib, s in samples.items() if s},
                "samples": samples,
                "paired": paired,
                "values": values,
                "tasks": tasks,
                # every namespace computed what raw dask.array did (the same work, not less)
                "same_value": {lib: bool(math.isclose(v, values["dask"], rel_tol=1e-12)) for lib, v in values.items()}
                if "dask" in values
                else {},
                "errors": errors,
            }
        )
    return results


def check_elementwise(results):
    checks = []
    for r in results:
        for lib in ("xp", "tx"):
            ratio = r["paired"].get(lib)
            same = r["same_value"].get(lib)  # a faster wrong answer meets nothing
            checks.append(
                {
                    "target": f"{r['title']} ≤ {RATIO_LIMIT}× raw dask.array",
                    "lib": lib,
                    "limit": RATIO_LIMIT,
                    "ratio": ratio,
                    "same_value": same,
                    "met": None if ratio is None else bool(ratio <= RATIO_LIMIT and same is not False),
                }
            )
    return checks


# ----------------------------------------------------------------------------------------
# output
# ----------------------------------------------------------------------------------------
def fmt_bytes(b):
    if b is None:
        return "n/a"
    if b >= 10**9:
        return f"{b / 10**9:.2f} GB"
    return f"{b / 10**6:.0f} MB"


def fmt_time(t):
    if t is None:
        return "n/a"
    if t < 1:
        return f"{t * 1e3:.1f} ms"
    return f"{t:.2f} s"


def _status(met):
    return "[yellow]n/a[/yellow]" if met is None else ("[green]met[/green]" if met else "[red]MISSED[/red]")


def print_report(oc_rows, ew_results, ew_checks, meta, console):
    from rich.markup import escape
    from rich.table import Table

    if oc_rows:
        n, chunks = meta["out_of_core"]["n"], meta["out_of_core"]["chunks"]
        t = Table(
            title=f"Out of core: float64, n = {n:,} ({fmt_bytes(8 * n)}), chunks of {chunks:,} "
            f"({fmt_bytes(8 * chunks)}); one fresh process per run, {meta['out_of_core']['repeats']} run(s) each",
            header_style="bold",
        )
        for col in ("case", "storage", "time (median)", "range", "peak RSS", "ru_maxrss", "RSS before", "value"):
            t.add_column(col, justify="left" if col in ("case", "storage") else "right", no_wrap=True)
        t.add_column("lazy", no_wrap=True)
        t.add_column("peak < 2 GB", no_wrap=True)
        case = None
        for row in oc_rows:
            if case is not None and row["case"] != case:
                t.add_section()
            case = row["case"]
            if not row["runs"]:
                t.add_row(escape(row["title"]), LIB_TITLES[row["lib"]], *["[yellow]n/a[/yellow]"] * 7, _status(None))
                continue
            lo, hi = row["time_range_s"]
            value = f"{row['value']:.10g}" + ("" if row["value_ok"] else " [red](WRONG)[/red]")
            t.add_row(
                escape(row["title"]),
                LIB_TITLES[row["lib"]],
                fmt_time(row["time_s"]),
                f"{fmt_time(lo)}–{fmt_time(hi)}",
                fmt_bytes(row["peak_rss"]),
                fmt_bytes(row["maxrss"]),
                fmt_bytes(row["rss_before"]),
                value,
                "yes" if row["lazy"] else "[red]no[/red]",
                _status(row["met"]),
            )
        console.print(t)
        console.print(
            "peak RSS: the largest resident set of the process and its children, sampled every "
            f"{SAMPLE_INTERVAL * 1e3:.0f} ms while building and computing; ru_maxrss: the kernel's high-water mark "
            "of the process (imports included); RSS before: after the imports, before building the arrays; "
            "time: building the arrays to float(), imports excluded; the target is judged on the larger of the two peaks",
            highlight=False,
        )

    if ew_results:
        e = meta["elementwise"]
        t = Table(
            title=f"Elementwise: x = arange({e['n']:,}, float64, chunks={e['chunks']:,}), one call per sample, "
            f"median of {e['rounds']} interleaved rounds; ratio paired by round",
            header_style="bold",
        )
        t.add_column("statement (then float())", no_wrap=True)
        for lib in LIBS:
            t.add_column(LIB_TITLES[lib], justify="right", no_wrap=True)
        t.add_column("xp/dask", justify="right", no_wrap=True)
        t.add_column("tx/dask", justify="right", no_wrap=True)
        t.add_column("tasks (dask/xp/tx)", justify="right", no_wrap=True)
        for r in ew_results:
            cells = [fmt_time(r["times"].get(lib)) for lib in LIBS]
            for lib in LIBS:
                if r["same_value"].get(lib) is False:
                    cells[LIBS.index(lib)] += " [red](value differs)[/red]"
            ratios = [r["paired"].get(lib) for lib in ("xp", "tx")]
            tasks = "/".join(str(r["tasks"].get(lib, "n/a")) for lib in LIBS)
            t.add_row(escape(r["title"]), *cells, *("n/a" if x is None else f"{x:.3f}×" for x in ratios), tasks)
        console.print(t)

    errs = [(row["title"], row["lib"], row["error"]) for row in oc_rows if row.get("error")]
    errs += [(r["title"], lib, err) for r in ew_results for lib, err in r["errors"].items()]
    if errs:
        console.print("[bold]n/a cells[/bold]:")
        for title, lib, err in errs:
            console.print(f"  {title} [{lib}]: {err}", markup=False, highlight=False)

    tt = Table(title="Targets (issue 22, item 4)", header_style="bold")
    for col in ("target", "storage", "measured", "limit", "status"):
        tt.add_column(col, no_wrap=True, justify="right" if col in ("measured", "limit") else "left")
    for row in oc_rows:
        if row["lib"] == "dask":
            continue  # raw dask.array is the comparison, not a target
        peak = None
        if row["runs"]:
            peak = max(x for x in (row["peak_rss"], row["maxrss"]) if x is not None)
        tt.add_row(
            escape(f"{row['title']}, n={meta['out_of_core']['n']:.0e}: peak < 2 GB"),
            LIB_TITLES[row["lib"]],
            fmt_bytes(peak),
            "2.00 GB",
            _status(row.get("met")),
        )
    for c in ew_checks:
        tt.add_row(
            escape(c["target"]),
            LIB_TITLES[c["lib"]],
            "n/a" if c["ratio"] is None else f"{c['ratio']:.3f}×",
            f"{c['limit']:g}×",
            _status(c["met"]),
        )
    console.print(tt)
    oc_met = [row.get("met") for row in oc_rows if row["lib"] != "dask"]
    statuses = oc_met + [c["met"] for c in ew_checks]
    others = meta.get("other_cpu_s")
    if others is not None:
        share = others / max(meta["elapsed_s"], 1e-9)
        console.print(
            f"other processes used {others:.0f} CPU-seconds during the run ({share:.0%} of one CPU)"
            + (": times are noisy, rerun on a quiet machine" if share > 0.1 else ""),
            style="yellow" if share > 0.1 else None,
            highlight=False,
        )
    console.print(
        f"targets: {statuses.count(True)} met, {statuses.count(False)} missed, {statuses.count(None)} n/a  "
        f"({meta['elapsed_s']:.0f} s; dask scheduler: {meta['scheduler']}, {meta['cpus']} CPUs; "
        f"dask {meta['versions'].get('dask')}, numpy {meta['versions'].get('numpy')})",
        highlight=False,
    )


def _versions():
    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for name in ("numpy", "dask", "psutil", "array_api_promo"):
        try:
            mod = __import__(name)
            out[name] = getattr(mod, "__version__", None)
        except Exception as e:
            out[name] = f"not importable ({type(e).__name__})"
    return out


def _machine():
    info = {"cpus": os.cpu_count(), "loadavg": load_average()}
    try:
        info["memory_bytes"] = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        info["memory_bytes"] = None
    try:
        info["commit"] = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True
        )
        info["worktree_modified"] = bool(dirty.stdout.strip())
    except Exception:
        info["commit"] = None
    return info


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks.dask_storage", description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--quick", action="store_true", help="smoke run: n=10**6 out of core (1 run), 10**6 elementwise, 3 rounds"
    )
    p.add_argument(
        "--json", metavar="PATH", help="write every run's figures, the targets, versions and machine as JSON"
    )
    p.add_argument("--part", choices=("all", "out-of-core", "elementwise"), default="all", help="one part only")
    p.add_argument("--n", type=int, default=None, help="out-of-core elements (default 2*10**9; quick 10**6)")
    p.add_argument("--chunks", type=int, default=None, help="out-of-core chunk, elements (default 2**23; quick 2**17)")
    p.add_argument(
        "--repeats", type=int, default=None, help="out-of-core runs per case and storage (default 3; quick 1)"
    )
    p.add_argument("--ew-n", type=int, default=None, help="elementwise elements (default 10**8; quick 10**6)")
    p.add_argument(
        "--ew-chunks", type=int, default=None, help="elementwise chunk, elements (default 2**22; quick 2**17)"
    )
    p.add_argument("--rounds", type=int, default=None, help="elementwise interleaved rounds (default 31; quick 3)")
    p.add_argument("--child", nargs=4, metavar=("LIB", "CASE", "N", "CHUNKS"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)

    if args.child:  # one out-of-core computation in this fresh interpreter
        lib, case, n, chunks = args.child
        print("RESULT " + json.dumps(run_child(lib, case, int(n), int(chunks))), flush=True)
        return 0

    quick = args.quick
    n = args.n or (10**6 if quick else 2 * 10**9)
    chunks = args.chunks or (2**17 if quick else 2**23)
    repeats = args.repeats or (1 if quick else 3)
    ew_n = args.ew_n or (10**6 if quick else 10**8)
    ew_chunks = args.ew_chunks or (2**17 if quick else 2**22)
    rounds = args.rounds or (3 if quick else 31)

    from rich.console import Console

    console = Console()
    if not console.is_terminal:
        console = Console(width=200)

    try:
        import dask  # noqa: F401
    except ImportError as e:
        console.print(f"dask is not installed ({e}): nothing to measure", highlight=False)
        return 0
    libs = list(LIBS)
    try:
        _namespace("xp")
    except Exception as e:
        console.print(
            f"[yellow]the Dask storage is unavailable; its cells show n/a[/yellow]: {_short(e)}", highlight=False
        )

    meta = {
        "quick": quick,
        "versions": _versions(),
        **_machine(),
        "scheduler": "threads (dask's default for arrays; one worker per CPU)",
        "peak_limit_bytes": PEAK_LIMIT,
        "ratio_limit": RATIO_LIMIT,
    }
    cpu_start = cpu_seconds()
    start = time.perf_counter()
    oc_rows, ew_results = [], []
    if args.part in ("all", "out-of-core"):
        meta["out_of_core"] = {"n": n, "chunks": chunks, "repeats": repeats, "sample_interval_s": SAMPLE_INTERVAL}
        console.print(
            f"out of core: n={n:,}, chunks={chunks:,}, {repeats} run(s) per case and storage", highlight=False
        )
        try:
            runs, errors = measure_out_of_core(libs, n, chunks, repeats, console)
        except Exception as e:  # never crash the run
            traceback.print_exc()
            runs, errors = {}, {(case, lib): _short(e) for case in OUT_OF_CORE for lib in libs}
        oc_rows = summarize_out_of_core(runs, errors, libs)
    if args.part in ("all", "elementwise"):
        meta["elementwise"] = {"n": ew_n, "chunks": ew_chunks, "rounds": rounds}
        console.print(f"elementwise: n={ew_n:,}, chunks={ew_chunks:,}, {rounds} rounds", highlight=False)
        try:
            ew_results = measure_elementwise(libs, ew_n, ew_chunks, rounds)
        except Exception as e:
            traceback.print_exc()
            console.print(f"elementwise part failed: {_short(e)}", highlight=False)
    meta["elapsed_s"] = time.perf_counter() - start
    meta["loadavg_end"] = load_average()
    cpu_end = cpu_seconds()
    if cpu_start and cpu_end:  # the machine's busy CPU time that was not ours nor our children's
        meta["other_cpu_s"] = max(0.0, (cpu_end[0] - cpu_start[0]) - (cpu_end[1] - cpu_start[1]))
    ew_checks = check_elementwise(ew_results)
    print_report(oc_rows, ew_results, ew_checks, meta, console)
    if args.json:
        oc_checks = [
            {
                "target": f"{row['title']}: peak < 2 GB",
                "lib": row["lib"],
                "limit_bytes": PEAK_LIMIT,
                "met": row.get("met"),
            }
            for row in oc_rows
            if row["lib"] != "dask"
        ]
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(
                {"meta": meta, "out_of_core": oc_rows, "elementwise": ew_results, "targets": oc_checks + ew_checks},
                f,
                indent=2,
                ensure_ascii=False,
            )
        console.print(f"wrote {args.json}", highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
