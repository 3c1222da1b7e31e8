"""Per-call overhead of array_api_promo against raw NumPy and array_api_strict.

Run from the repository root:

    python -m benchmarks                 # full run (~2-4 minutes)
    python -m benchmarks --quick         # smoke run (a few seconds)
    python -m benchmarks --json out.json # also write the results
    python benchmarks/run.py ...         # same thing

Every case is measured in ONE process for every library: raw NumPy, array_api_strict,
``array_api_promo`` (policy ``array_api``, "xp") and ``array_api_promo.torch`` (policy
``torch``, "tx"), plus ``torch.result_type`` for the result_type rows. Each statement is a
``timeit`` string (no lambda overhead) whose loop count comes from ``Timer.autorange``; the
libraries are then interleaved round by round (rotating the order) and the median per-call
time over the rounds is reported. A target's ratio to NumPy is paired: the median, over the
rounds, of each round's time divided by NumPy's time in the same round, so that a change in
the machine's speed between rounds (a busy neighbour, the hypervisor) moves both sides of a
ratio alike. Cases of 10**6 and 10**7 elements run more rounds (``LARGE_REPEATS``): one call
there is milliseconds of memory traffic whose time varies from call to call far more than the
wrapper's microsecond. A cell that cannot run (a function not written yet, a
library not installed, an error) shows "n/a" and never stops the run. The issue's targets
are checked and printed as met/missed; nothing here asserts or exits non-zero because of a
missed target.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import timeit
import traceback

if __package__ in (None, ""):  # `python benchmarks/run.py`: make the repository importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np

from benchmarks._machine import run_meta

LIBS = ("numpy", "floor", "strict", "xp", "tx", "torch")
LIB_TITLES = {
    "numpy": "numpy",
    "floor": "floor",
    "strict": "array_api_strict",
    "compat": "array_api_compat.numpy",
    "xp": "xp (array_api)",
    "tx": "tx (torch policy)",
    "torch": "torch",
}
SMALL = 10
LARGE_REPEATS = 31  # rounds of a 10**6/10**7-element case (the default run gives small ones 15)
MATRIX = 4
BIG_MATRIX = 32


# ----------------------------------------------------------------------------------------
# libraries
# ----------------------------------------------------------------------------------------
def _load_namespaces():
    """{lib: module or None}, {lib: reason it is missing}."""
    from benchmarks import _floor

    mods, missing = {"numpy": np, "floor": _floor}, {}
    try:
        import array_api_strict

        mods["strict"] = array_api_strict
    except Exception as e:  # not installed
        missing["strict"] = f"{type(e).__name__}: {e}"
    try:  # the peer a user would pick over NumPy (its functions take and give NumPy's own arrays)
        import array_api_compat.numpy

        mods["compat"] = array_api_compat.numpy
    except Exception as e:  # not installed
        missing["compat"] = f"{type(e).__name__}: {e}"
    try:
        import array_api_promo

        mods["xp"] = array_api_promo
    except Exception as e:
        missing["xp"] = f"{type(e).__name__}: {e}"
    try:
        import array_api_promo.torch

        mods["tx"] = array_api_promo.torch
    except Exception as e:
        missing["tx"] = f"{type(e).__name__}: {e}"
    try:
        import torch

        mods["torch"] = torch
    except Exception as e:
        missing["torch"] = f"{type(e).__name__}: {e}"
    return mods, missing


# ----------------------------------------------------------------------------------------
# cases: name -> per-library (setup(ns) -> globals dict, statement string)
# ----------------------------------------------------------------------------------------
def _data(n, dtype, seed):
    rng = np.random.default_rng(seed)
    return (rng.random(n) + 0.5).astype(dtype)


class Case:
    def __init__(self, key, title, group, stmts, setup, libs=("numpy", "floor", "strict", "xp", "tx"), large=False):
        self.key = key
        self.title = title
        self.group = group
        self.stmts = stmts  # {lib: stmt} or one stmt for all libs
        self.setup = setup  # setup(lib, ns) -> globals dict
        self.libs = libs
        self.large = large

    def stmt(self, lib):
        if isinstance(self.stmts, str):
            return self.stmts
        return self.stmts.get(lib)


def _to_lib(lib, ns, arr):
    """A NumPy array converted to lib's array type."""
    if lib == "numpy":
        return arr
    if lib == "torch":
        return ns.from_numpy(arr)
    return ns.asarray(arr)


def _small_setup(lib, ns):
    a = _data(SMALL, np.float64, 1)
    b = _data(SMALL, np.float64, 2)
    c = _data(SMALL, np.float32, 3)
    mask = a > 1.0
    m = _data(MATRIX * MATRIX, np.float64, 4).reshape(MATRIX, MATRIX)
    g = {
        "ns": ns,
        "a": _to_lib(lib, ns, a),
        "b": _to_lib(lib, ns, b),
        "c": _to_lib(lib, ns, c),
        "mask": _to_lib(lib, ns, mask),
        "m": _to_lib(lib, ns, m),
        "M": _to_lib(lib, ns, _data(BIG_MATRIX * BIG_MATRIX, np.float64, 5).reshape(BIG_MATRIX, BIG_MATRIX)),
        "L": a.tolist(),
        "nd": a,
        "f32": ns.float32,
    }
    return g


def _large_setup(n):
    # One set of NumPy buffers that every library wraps (none of them copies an ndarray it is
    # given): where a 10**6-element buffer lands in memory moves a memory-bound kernel's time
    # by about a per cent, a bias that more rounds would not remove.
    buffers = {}

    def setup(lib, ns):
        if not buffers:
            buffers.update(a=_data(n, np.float32, 11), b=_data(n, np.float32, 12), d=_data(n, np.float64, 13))
        return {"ns": ns, **{name: _to_lib(lib, ns, data) for name, data in buffers.items()}}

    return setup


def _result_type_case(key, title, stmt):
    """A result_type case: the floor has no result_type, so every library but it."""
    libs = ("numpy", "strict", "xp", "tx", "torch")
    return Case(key, title, "result_type", dict.fromkeys(libs, stmt), _small_setup, libs=libs)


def make_cases(quick):
    cases = [
        Case("add", "a + b  (float64, n=10)", "array⊕array", "a + b", _small_setup),
        Case("add_func", "add(a, b)  (float64, n=10)", "array⊕array", "ns.add(a, b)", _small_setup),
        Case("mul", "a * b  (float64, n=10)", "array⊕array", "a * b", _small_setup),
        Case("gt", "a > b  (float64, n=10)", "array⊕array", "a > b", _small_setup),
        Case("iadd", "a += b  (float64, n=10)", "array⊕array", "x = a; x += b", _small_setup),
        Case("add_mixed", "c + a  (float32+float64, n=10)", "array⊕array mixed", "c + a", _small_setup),
        Case("add_scalar", "a + 1.0  (float64, n=10)", "array⊕scalar", "a + 1.0", _small_setup),
        Case("mul_scalar_int", "a * 2  (float64, n=10)", "array⊕scalar", "a * 2", _small_setup),
        Case("sin", "sin(a)  (n=10)", "unary", "ns.sin(a)", _small_setup),
        Case("sqrt", "sqrt(a)  (n=10)", "unary", "ns.sqrt(a)", _small_setup),
        Case("exp", "exp(a)  (n=10)", "unary", "ns.exp(a)", _small_setup),
        Case("neg", "-a  (n=10)", "unary", "-a", _small_setup),
        Case("sum", "sum(a)  (n=10)", "reduction", "ns.sum(a)", _small_setup),
        _result_type_case("result_type", "result_type(a, b)  (f64, f64)", "ns.result_type(a, b)"),
        _result_type_case("result_type_mixed", "result_type(c, a)  (f32, f64)", "ns.result_type(c, a)"),
        Case("asarray_list", "asarray(list of 10 floats)", "asarray", "ns.asarray(L)", _small_setup),
        Case("asarray_ndarray", "asarray(ndarray, n=10)", "asarray", "ns.asarray(nd)", _small_setup),
        Case("slice", "a[2:5]", "indexing", "a[2:5]", _small_setup),
        Case("index_int", "a[3]  (NumPy: a scalar; the standard: a 0-d array)", "indexing", "a[3]", _small_setup),
        Case("mask", "a[mask]", "indexing", "a[mask]", _small_setup),
        Case("namespace", "a.__array_namespace__()", "namespace", "a.__array_namespace__()", _small_setup),
        Case(
            "reshape",
            "reshape(a, (2, 5))",
            "reshape",
            {
                "numpy": "ns.reshape(a, (2, 5))",
                "floor": "ns.reshape(a, (2, 5))",
                "strict": "ns.reshape(a, (2, 5))",
                "xp": "ns.reshape(a, (2, 5))",
                "tx": "ns.reshape(a, (2, 5))",
            },
            _small_setup,
        ),
        Case(
            "astype",
            "astype(a, float32)",
            "astype",
            {
                "numpy": "a.astype(ns.float32)",
                "floor": "ns.astype(a, f32)",
                "strict": "ns.astype(a, f32)",
                "xp": "ns.astype(a, f32)",
                "tx": "ns.astype(a, f32)",
            },
            _small_setup,
        ),
        Case("matmul", f"matmul(m, m)  ({MATRIX}x{MATRIX} f64)", "matmul", "ns.matmul(m, m)", _small_setup),
        Case("matmul_op", f"m @ m  ({MATRIX}x{MATRIX} f64)", "matmul", "m @ m", _small_setup),
        Case("matmul_32", f"A @ A  ({BIG_MATRIX}x{BIG_MATRIX} f64)", "matmul", "M @ M", _small_setup),
    ]
    sizes = [10**5] if quick else [10**6, 10**7]
    for n in sizes:
        label = f"1e{len(str(n)) - 1}"
        cases.append(
            Case(f"large_add_{label}", f"a + b  (float32, n={label})", "large", "a + b", _large_setup(n), large=True)
        )
        cases.append(
            Case(
                f"large_mixed_{label}",
                f"a + d  (float32+float64, n={label})",
                "large mixed",
                "a + d",
                _large_setup(n),
                large=True,
            )
        )
        cases.append(
            Case(
                f"large_sin_{label}", f"sin(a)  (float32, n={label})", "large", "ns.sin(a)", _large_setup(n), large=True
            )
        )
        cases.append(
            Case(f"large_gt_{label}", f"a > b  (float32, n={label})", "large", "a > b", _large_setup(n), large=True)
        )
    return cases


# ----------------------------------------------------------------------------------------
# measurement
# ----------------------------------------------------------------------------------------
def _short(e: BaseException) -> str:
    msg = str(e).splitlines()[0] if str(e) else ""
    msg = f"{type(e).__name__}: {msg}"
    return msg if len(msg) <= 120 else msg[:117] + "..."


def measure_case(case, mods, missing, repeats, min_time, stat=statistics.median, *, numbers=None, first_round=0):
    """{lib: per-call seconds (stat over the rounds) or None}, {lib: error}, {lib: per-call
    seconds of each round, in round order}, {lib: paired ratio to NumPy (stat over the rounds of
    lib's time / NumPy's in that round)}.

    A case may give a library a NumPy call of its own, under ``"numpy:<lib>"`` (the torch
    policy's creation functions make float32, as torch does: NumPy's call then asks for float32
    too); it is timed in the same rounds and that library's ratio is to it.

    ``numbers`` ({lib: calls per sample}) is read for the libraries it has and given the count
    found for the others, so that rounds run in other processes take samples of the same size;
    ``first_round`` numbers the rounds on, for whose turn it is to go first."""
    numbers = {} if numbers is None else numbers
    timers, errors, samples = {}, {}, {}
    own = case.stmts if isinstance(case.stmts, dict) else {}
    references = [f"numpy:{lib}" for lib in case.libs if own.get(f"numpy:{lib}")]
    for lib in list(case.libs) + references:
        module = lib.partition(":")[0]  # a reference runs with NumPy's inputs
        if module not in mods:
            errors[lib] = f"not importable ({missing.get(module, 'missing')})"
            continue
        stmt = case.stmt(lib)
        if stmt is None:
            continue
        try:
            g = case.setup(module, mods[module])
            timer = timeit.Timer(stmt, globals=g)
            timer.timeit(1)  # fails fast for a missing function or a refused operation
            number = numbers.get(lib, 1)
            while lib not in numbers:  # autorange to min_time
                t = timer.timeit(number)
                if t >= min_time:
                    break
                number = max(number * 2, int(number * min_time / max(t, 1e-9) * 1.1))
            timers[lib], numbers[lib], samples[lib] = timer, number, []
        except Exception as e:
            errors[lib] = _short(e)
    order = list(timers)
    for r in range(first_round, first_round + repeats):  # interleave libraries, rotating who goes first
        k = r % len(order) if order else 0
        for lib in order[k:] + order[:k]:
            samples[lib].append(timers[lib].timeit(numbers[lib]) / numbers[lib])
    times = {lib: (stat(samples[lib]) if samples.get(lib) else None) for lib in case.libs}
    # Paired ratios for the median only: the least of per-round ratios would flatter (--stat min
    # compares the minima instead).
    paired = {}
    if stat is statistics.median:
        for lib in case.libs:
            # a reference of its own that failed leaves the ratio out, not NumPy's other call in
            reference = samples.get(f"numpy:{lib}") if f"numpy:{lib}" in own else samples.get("numpy")
            if lib in samples and reference:
                paired[lib] = stat([mine / theirs for mine, theirs in zip(samples[lib], reference)])
    return times, errors, samples, paired


# ----------------------------------------------------------------------------------------
# targets
# ----------------------------------------------------------------------------------------
# (label, case measured, reference case, reference lib, limit): the speed issue's targets
TARGETS = [
    ("a + b ≤ 1.6× NumPy", "add", "add", "numpy", 1.6),
    ("add(a, b) ≤ 1.6× NumPy", "add_func", "add_func", "numpy", 1.6),
    ("a + 1.0 ≤ 1.6× NumPy", "add_scalar", "add_scalar", "numpy", 1.6),
    ("float32 + float64 ≤ 1.6× NumPy's mixed", "add_mixed", "add_mixed", "numpy", 1.6),
    ("sin(a) ≤ 1.6× NumPy", "sin", "sin", "numpy", 1.6),
    ("a > b ≤ 1.6× NumPy", "gt", "gt", "numpy", 1.6),
    ("a += b ≤ 1.6× NumPy", "iadd", "iadd", "numpy", 1.6),
    ("sum(a) ≤ 2× NumPy", "sum", "sum", "numpy", 2.0),
    ("a[2:5] ≤ 2× NumPy", "slice", "slice", "numpy", 2.0),
    ("a[i] ≤ 2× NumPy", "index_int", "index_int", "numpy", 2.0),
    ("a[mask] ≤ 2× NumPy", "mask", "mask", "numpy", 2.0),
    ("asarray(list of 10 floats) ≤ 2× NumPy", "asarray_list", "asarray_list", "numpy", 2.0),
    ("reshape ≤ 2× NumPy", "reshape", "reshape", "numpy", 2.0),
    ("astype ≤ 2× NumPy", "astype", "astype", "numpy", 2.0),
    ("result_type(a, b) ≤ 1× np.result_type", "result_type", "result_type", "numpy", 1.0),
    ("result_type(f32, f64) ≤ 1× np.result_type", "result_type_mixed", "result_type_mixed", "numpy", 1.0),
    ("A @ A 32×32 ≤ 1.05× NumPy", "matmul_32", "matmul_32", "numpy", 1.05),
]
_LARGE_TARGETS = [
    ("large a+b n={n} ≤ 1.05× NumPy", "large_add_{n}", 1.05),
    ("large f32+f64 n={n} ≤ 1.05× NumPy's mixed", "large_mixed_{n}", 1.05),
    ("large sin n={n} ≤ 1.05× NumPy", "large_sin_{n}", 1.05),
    ("large a>b n={n} ≤ 1.05× NumPy", "large_gt_{n}", 1.05),
]
IMPORT_LIMIT = 1.3  # `import array_api_promo` ≤ 1.3× `import numpy`


def measure_import(runs: int) -> dict:
    """Best-of-``runs`` cumulative import time (seconds) of numpy and array_api_promo, each in a
    fresh interpreter, read from ``python -X importtime`` (bytecode caches written first)."""
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    best = {}
    for module in ("numpy", "array_api_promo"):
        subprocess.run([sys.executable, "-c", f"import {module}"], env=env, check=True)  # write .pyc files
    for _ in range(runs):
        for module in ("numpy", "array_api_promo"):
            proc = subprocess.run(
                [sys.executable, "-X", "importtime", "-c", f"import {module}"], env=env, capture_output=True, text=True
            )
            for line in proc.stderr.splitlines():
                parts = [p.strip() for p in line.split("|")]
                if len(parts) == 3 and parts[2] == module:
                    t = int(parts[1]) * 1e-6
                    best[module] = min(best.get(module, t), t)
    return best


def targets_for(cases):
    out = list(TARGETS)
    for case in cases:
        for label, key, limit in _LARGE_TARGETS:
            for n in ("1e5", "1e6", "1e7"):
                if case.key == key.format(n=n):
                    out.append((label.format(n=n), case.key, case.key, "numpy", limit))
    return out


def check_targets(results, cases):
    by_key = {r["case"]: r for r in results}
    checks = []
    for label, key, ref_key, ref_lib, limit in targets_for(cases):
        if key not in by_key or ref_key not in by_key:
            continue  # filtered out with -k
        ref = by_key[ref_key].get("times", {}).get(ref_lib)
        # The paired ratio where the reference is NumPy in the same case, else the ratio of times.
        paired = by_key[key].get("paired", {}) if (ref_key, ref_lib) == (key, "numpy") else {}
        ratios = {lib: paired.get(lib) or _ratio(by_key[key].get("times", {}).get(lib), ref) for lib in LIBS}
        floor = ratios["floor"]
        for lib in ("xp", "tx"):
            ratio = ratios[lib]
            checks.append(
                {
                    "target": label,
                    "lib": lib,
                    "limit": limit,
                    "ratio": ratio,
                    "floor": floor,
                    "met": None if ratio is None else bool(ratio <= limit),
                }
            )
    return checks


# ----------------------------------------------------------------------------------------
# output
# ----------------------------------------------------------------------------------------
def fmt_time(t):
    if t is None:
        return "n/a"
    if t < 1e-6:
        return f"{t * 1e9:.0f} ns"
    if t < 1e-3:
        return f"{t * 1e6:.2f} µs"
    if t < 1:
        return f"{t * 1e3:.2f} ms"
    return f"{t:.2f} s"


def fmt_ratio(x):
    return "n/a" if x is None else f"{x:.2f}×"


def _ratio(a, b):
    return a / b if (a is not None and b) else None


def print_report(results, checks, meta, console):
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"Per-call time ({meta['stat']}) and ratios", show_lines=False, header_style="bold")
    table.add_column("case", no_wrap=True)
    for lib in LIBS:
        table.add_column(LIB_TITLES[lib], justify="right", no_wrap=True)
    for col in ("floor/np", "xp/np", "tx/np", "xp/strict", "tx/strict"):
        table.add_column(col, justify="right", no_wrap=True)
    group = None
    for r in results:
        if group is not None and r["group"] != group:
            table.add_section()
        group = r["group"]
        t = r["times"]
        cells = []
        for lib in LIBS:
            if lib not in r["libs"]:
                cells.append("[dim]—[/dim]")
            elif t.get(lib) is None:
                cells.append("[yellow]n/a[/yellow]")
            else:
                cells.append(fmt_time(t[lib]))
        ratios = [
            _ratio(t.get("floor"), t.get("numpy")),
            _ratio(t.get("xp"), t.get("numpy")),
            _ratio(t.get("tx"), t.get("numpy")),
            _ratio(t.get("xp"), t.get("strict")),
            _ratio(t.get("tx"), t.get("strict")),
        ]
        table.add_row(escape(r["title"]), *cells, *(fmt_ratio(x) for x in ratios))
    console.print(table)

    errs = [(r["title"], lib, e) for r in results for lib, e in r["errors"].items()]
    if errs:
        console.print("[bold]n/a cells[/bold]:")
        for title, lib, e in errs:
            console.print(f"  {title} [{lib}]: {e}", markup=False, highlight=False)

    tt = Table(title="Targets (issue 12: within 1.6× of NumPy on every small operation)", header_style="bold")
    tt.add_column("target", no_wrap=True)
    tt.add_column("ns", no_wrap=True)
    tt.add_column("ratio", justify="right")
    tt.add_column("limit", justify="right")
    tt.add_column("floor", justify="right")
    tt.add_column("status", no_wrap=True)
    for c in checks:
        status = (
            "[yellow]n/a[/yellow]" if c["met"] is None else ("[green]met[/green]" if c["met"] else "[red]MISSED[/red]")
        )
        tt.add_row(
            escape(c["target"]),
            c["lib"],
            "n/a" if c["ratio"] is None else f"{c['ratio']:.3f}×",
            f"{c['limit']:g}×",
            "—" if c.get("floor") is None else f"{c['floor']:.3f}×",
            status,
        )
    console.print(tt)
    console.print(
        "floor: the same case through a wrapper that only calls NumPy and wraps the result in a new "
        "object (benchmarks/_floor.py), in the same run: no wrapper written in Python gets below it",
        highlight=False,
    )
    met = sum(1 for c in checks if c["met"])
    missed = sum(1 for c in checks if c["met"] is False)
    na = sum(1 for c in checks if c["met"] is None)
    load = meta.get("loadavg")
    if load and load[0] > (os.cpu_count() or 1):
        console.print(
            f"[yellow]note: load average {load[0]:.1f} on {os.cpu_count()} CPUs while measuring; "
            "ratios are noisy, rerun on a quiet machine[/yellow]"
        )
    console.print(
        f"targets: {met} met, {missed} missed, {na} n/a  ({meta['elapsed_s']:.0f} s, {meta['stat']} of {meta['repeats']} interleaved rounds{'' if meta['quick'] else f' ({LARGE_REPEATS} for 10⁶/10⁷ elements)'}, target ratios {'paired by round' if meta['stat'] == 'median' else 'of the minima'}, min_time={meta['min_time_s']}s per sample)"
    )


def _compiled_fast_paths():
    """Whether array_api_promo's operators run in C here (array_api_promo/_fastpath.c)."""
    try:
        from array_api_promo import _core
    except ImportError:
        return None
    return _core.COMPILED


def _versions(mods):
    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for lib, mod in mods.items():
        name = {"xp": "array_api_promo", "tx": "array_api_promo.torch"}.get(lib, getattr(mod, "__name__", lib))
        out[name] = getattr(mod, "__version__", None) or getattr(
            sys.modules.get("array_api_promo"), "__version__", None
        )
    return out


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fast smoke run: few, short samples; large arrays of 1e5 only")
    p.add_argument("--json", metavar="PATH", help="write the results (times in seconds, ratios, targets) as JSON")
    p.add_argument(
        "--repeats",
        type=int,
        default=None,
        help=f"interleaved rounds per case (default 15, {LARGE_REPEATS} for 10**6/10**7-element cases; quick 3)",
    )
    p.add_argument("--min-time", type=float, default=None, help="seconds per sample (default 0.05, quick 0.005)")
    p.add_argument(
        "--stat",
        choices=("median", "min"),
        default="median",
        help="per-call statistic over the rounds (default median; min is steadier on a loaded machine)",
    )
    p.add_argument("-k", "--filter", default=None, help="only cases whose key contains this substring")
    p.add_argument("--surface-json", metavar="PATH", help="write the whole-surface results as JSON")
    p.add_argument("--surface-markdown", metavar="PATH", help="write the whole-surface table and targets as Markdown")
    p.add_argument(
        "--no-surface",
        action="store_true",
        help="skip the whole-surface table (benchmarks/surface.py, ~25 minutes on a busy 2-core machine)",
    )
    args = p.parse_args(argv)

    repeats = args.repeats or (3 if args.quick else 15)
    min_time = args.min_time or (0.005 if args.quick else 0.05)

    from rich.console import Console

    console = Console()
    if not console.is_terminal:
        console = Console(width=200)

    mods, missing = _load_namespaces()
    for lib, why in missing.items():
        console.print(f"[yellow]{LIB_TITLES[lib]} unavailable; its column shows n/a[/yellow]: {why}", highlight=False)
    cases = make_cases(args.quick)
    if args.filter:
        cases = [c for c in cases if args.filter in c.key]

    start = time.perf_counter()
    results = []
    for case in cases:
        rounds = max(repeats, LARGE_REPEATS) if case.large and not args.quick and args.repeats is None else repeats
        try:
            times, errors, samples, paired = measure_case(
                case, mods, missing, rounds, min_time, statistics.median if args.stat == "median" else min
            )
        except Exception as e:  # never crash the run
            times, errors, samples, paired = {lib: None for lib in case.libs}, {"*": _short(e)}, {}, {}
            traceback.print_exc()
        results.append(
            {
                "case": case.key,
                "title": case.title,
                "group": case.group,
                "libs": list(case.libs),
                "stmt": {lib: case.stmt(lib) for lib in case.libs},
                "times": times,
                "rounds": rounds,
                "spread": {lib: (min(s), max(s)) for lib, s in samples.items() if s},
                "paired": paired,
                "samples": samples,
                "errors": errors,
                "ratios": {
                    "xp/numpy": _ratio(times.get("xp"), times.get("numpy")),
                    "tx/numpy": _ratio(times.get("tx"), times.get("numpy")),
                    "xp/strict": _ratio(times.get("xp"), times.get("strict")),
                    "tx/strict": _ratio(times.get("tx"), times.get("strict")),
                },
            }
        )
    meta = run_meta(
        start, repeats, min_time, args, versions=_versions(mods), compiled_fast_paths=_compiled_fast_paths()
    )
    if not meta["compiled_fast_paths"]:
        console.print(
            "note: array_api_promo runs without its compiled fast paths (not built, or "
            "ARRAY_API_PROMO_PURE_PYTHON is set): its small-array figures are the Python code's"
        )
    checks = check_targets(results, cases)
    if not args.filter or args.filter in "import":
        imports = measure_import(3 if args.quick else 15)
        meta["import_s"] = imports
        if "numpy" in imports and "array_api_promo" in imports:
            ratio = imports["array_api_promo"] / imports["numpy"]
            checks.append(
                {
                    "target": f"import array_api_promo ≤ {IMPORT_LIMIT}× import numpy",
                    "lib": "xp",
                    "limit": IMPORT_LIMIT,
                    "ratio": ratio,
                    "met": bool(ratio <= IMPORT_LIMIT),
                }
            )
            console.print(
                f"import (best of {3 if args.quick else 15}, -X importtime): numpy {imports['numpy'] * 1e3:.1f} ms, "
                f"array_api_promo {imports['array_api_promo'] * 1e3:.1f} ms ({ratio:.2f}×)",
                highlight=False,
            )
    print_report(results, checks, meta, console)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "results": results, "targets": checks}, f, indent=2, ensure_ascii=False)
        console.print(f"wrote {args.json}", highlight=False)
    if not args.no_surface and not args.filter:
        from benchmarks import surface

        surface_args = (["--quick"] if args.quick else []) + ["--stat", args.stat]
        surface_args += ["--json", args.surface_json] if args.surface_json else []
        surface_args += ["--markdown", args.surface_markdown] if args.surface_markdown else []
        surface.main(surface_args, console=console)
    return 0


if __name__ == "__main__":
    sys.exit(main())
