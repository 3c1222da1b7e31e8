"""Where the per-call overhead of ``a + b`` and ``a + 1.0`` goes (input for benchmarks/profile.md).

    python -m benchmarks.profile_ops                 # pyinstrument (if installed) + cProfile + step costs
    python -m benchmarks.profile_ops --ns tx         # the torch policy
    py-spy record -r 2000 -o /tmp/add.svg -- python -m benchmarks.profile_ops --loop add   # flame graph

Four views, all on 10-element float64 arrays:

1. pyinstrument's call tree of a hot loop (sampling; the lowest-overhead view);
2. cProfile's tottime per function (deterministic; inflates tiny functions, but gives exact
   call counts per operation);
3. "step costs": each step of the hot path timed alone with ``timeit``, next to the whole
   operation and raw NumPy, so the overhead can be attributed in nanoseconds;
4. ``--perf``: where a loop of ``a + b`` spends its time by shared library (``perf record``,
   where the machine allows it), next to NumPy's own ``d1 + d2`` loop. With the compiled
   fast paths (``array_api_promo/_fastpath.c``) the operator is no Python frame, so the
   Python profilers above see only the loop; this view sees inside.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
import timeit

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np


def _namespace(which):
    if which == "tx":
        import array_api_promo.torch as ns
    else:
        import array_api_promo as ns
    return ns


def _arrays(ns):
    a = ns.asarray(np.linspace(0.5, 1.5, 10))
    b = ns.asarray(np.linspace(1.5, 2.5, 10))
    return a, b


LOOPS = {
    "add": "a + b",
    "scalar": "a + 1.0",
}
# Other per-call paths of the benchmark, profiled with cProfile only (--others).
OTHERS = {
    "sqrt": "ns.sqrt(a)",
    "result_type": "ns.result_type(a, b)",
    "slice": "a[2:5]",
    "asarray_list": "ns.asarray(L)",
    "asarray_ndarray": "ns.asarray(nd)",
    "sum": "ns.sum(a)",
    "astype": "ns.astype(a, ns.float32)",
}


def loop(stmt, g, n):
    code = compile(f"for _ in range({n}):\n    {stmt}\n", "<loop>", "exec")
    exec(code, g)


def pyinstrument_view(stmt, g, n):
    try:
        from pyinstrument import Profiler
    except ImportError:
        return "pyinstrument not installed (pip install pyinstrument)\n"
    p = Profiler(interval=0.00005)
    p.start()
    loop(stmt, g, n)
    p.stop()
    return p.output_text(unicode=True, color=False, show_all=True)


def cprofile_view(stmt, g, n, top=12):
    pr = cProfile.Profile()
    pr.enable()
    loop(stmt, g, n)
    pr.disable()
    s = io.StringIO()
    pstats.Stats(pr, stream=s).strip_dirs().sort_stats("tottime").print_stats(top)
    return s.getvalue()


def _t(stmt, g, number=200_000, repeat=7):
    return min(timeit.repeat(stmt, globals=g, number=number, repeat=repeat)) / number * 1e9


def step_costs(ns, which="xp"):
    """ns per step of the hot path of a + b and a + 1.0, measured alone (min of 7)."""
    from array_api_promo import Array

    a, b = _arrays(ns)
    rt = a._runtime
    d1, d2 = a._data, b._data
    f64 = a._dtype
    a + b
    a + 1.0
    key = ("add", f64, f64)
    g = dict(
        a=a,
        b=b,
        rt=rt,
        d1=d1,
        d2=d2,
        np=np,
        Array=Array,
        f64=f64,
        key=key,
        fast=rt._fast,
        add=np.add,
        ns=ns,
        pol=rt.policy,
        new=object.__new__,
        convert=rt._fast[("add", f64, float)][2],
        python_add=getattr(Array.__add__, "fallback", Array.__add__),  # the compiled path's Python function
    )
    rows = [
        ("numpy: d1 + d2", "d1 + d2"),
        (f"{which}: Array.__add__.fallback(a, b) (the Python code alone)", "python_add(a, b)"),
        ("numpy: np.add(d1, d2)", "add(d1, d2)"),
        ("numpy: d1 + 1.0", "d1 + 1.0"),
        (f"{which}: a + b (whole)", "a + b"),
        (f"{which}: a + 1.0 (whole)", "a + 1.0"),
        (f"{which}: ns.add(a, b) (whole)", "ns.add(a, b)"),
        ("  rt._apply2('add', a, b, True) (the full path)", "rt._apply2('add', a, b, True)"),
        ("  rt._apply2('add', a, 1.0, True) (the full path)", "rt._apply2('add', a, 1.0, True)"),
        ("  key tuple build", "('add', a._dtype, b._dtype)"),
        ("  fast[key] (the fast table lookup)", "fast[key]"),
        ("  object.__new__(Array) (the result object)", "new(Array)"),
        ("  Array._new(d1, f64, rt, dev)", "Array._new(d1, f64, rt, a._device)"),
        ("  the plan's scalar converter(1.0)", "convert(1.0)"),
        ("  pol.convert_scalar(1.0, f64, 'add') (the policy's general rule)", "pol.convert_scalar(1.0, f64, 'add')"),
        ("  add(d1, 1.0) (raw float scalar)", "add(d1, 1.0)"),
        ("  add(d1, np.float64(1.0))", "add(d1, f)"),
    ]
    g["f"] = np.float64(1.0)
    out = []
    for label, stmt in rows:
        try:
            out.append((label, stmt, _t(stmt, g)))
        except Exception as e:  # an internal that moved: show it, keep going
            out.append((label, stmt, f"n/a ({type(e).__name__}: {e})"))
    return out


_PERF_LOOP = """
import numpy as np
import array_api_promo{suffix} as ns
a = ns.asarray(np.linspace(0.5, 1.5, 10)); b = ns.asarray(np.linspace(1.5, 2.5, 10))
d1, d2 = np.linspace(0.5, 1.5, 10), np.linspace(1.5, 2.5, 10)
for _ in range({n}):
    {stmt}
"""


def perf_view(which, stmt, n=2_000_000):
    """Share of samples per shared library for a loop of ``stmt`` (``perf record``), or why not."""
    if shutil.which("perf") is None:
        return "perf not installed\n"
    code = _PERF_LOOP.format(suffix=".torch" if which == "tx" else "", n=n, stmt=stmt)
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        rec = subprocess.run(["perf", "record", "-q", "-o", data, sys.executable, "-c", code], capture_output=True)
        if rec.returncode != 0:
            return f"perf record failed: {rec.stderr.decode(errors='replace').strip()[:200]}\n"
        rep = subprocess.run(["perf", "report", "-i", data, "--sort", "dso", "--stdio"], capture_output=True, text=True)
    lines = [line for line in rep.stdout.splitlines() if line.strip() and not line.startswith("#")]
    return "\n".join(lines[:8]) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks.profile_ops", description=__doc__.split("\n\n")[0])
    p.add_argument("--ns", choices=("xp", "tx"), default="xp")
    p.add_argument("--loop", choices=tuple(LOOPS), help="only run this loop (for py-spy); no report")
    p.add_argument(
        "--others", action="store_true", help="also cProfile sqrt, result_type, slicing, asarray, sum, astype"
    )
    p.add_argument("--perf", action="store_true", help="also: samples per shared library of a + b (perf record)")
    p.add_argument("-n", type=int, default=300_000, help="loop iterations")
    args = p.parse_args(argv)

    ns = _namespace(args.ns)
    a, b = _arrays(ns)
    g = {"a": a, "b": b}
    if args.loop:
        loop(LOOPS[args.loop], g, args.n * 10)
        return 0
    for _name, stmt in LOOPS.items():
        print(f"==================== {args.ns}: {stmt}  (pyinstrument, {args.n} calls) ====================")
        print(pyinstrument_view(stmt, g, args.n))
        print(f"==================== {args.ns}: {stmt}  (cProfile, tottime) ====================")
        print(cprofile_view(stmt, g, args.n // 3))
    if args.others:
        g2 = dict(g, ns=ns, L=[float(i) for i in range(10)], nd=np.linspace(0.5, 1.5, 10))
        for _name, stmt in OTHERS.items():
            print(f"==================== {args.ns}: {stmt}  (cProfile, tottime) ====================")
            try:
                print(cprofile_view(stmt, g2, args.n // 10, top=8))
            except Exception as e:
                print(f"n/a ({type(e).__name__}: {e})")
    if args.perf:
        for stmt in ("d1 + d2", "a + b"):
            print(f"==================== {args.ns}: {stmt}  (perf, samples per shared library) ====================")
            print(perf_view(args.ns, stmt))
    print(f"==================== {args.ns}: step costs (ns per call, min of 7) ====================")
    for label, _stmt, t in step_costs(ns, args.ns):
        print(f"{label:55s} {t if isinstance(t, str) else f'{t:8.0f} ns'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
