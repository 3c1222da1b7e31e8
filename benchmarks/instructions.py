"""Instructions per call, ours against NumPy's own, counted by valgrind's callgrind.

On a shared VM the wall-clock ratios of sub-microsecond calls move by tens of per cent
from run to run (the hypervisor's steal time); the count of instructions a call executes
does not.  It is not a time (a cache miss costs more than an add), but it shows what a
change to the hot path adds or removes, call by call.  Each statement runs N times in a
fresh interpreter under callgrind; a loop of ``pass`` is subtracted, so the figure is the
statement's own (the loop's bytecode included, the same for both sides).  OpenBLAS's
threads are held to one: an idle BLAS thread spinning would be counted; the hash seed is
fixed, so that two runs of the same code count the same.

    python -m benchmarks.instructions [-n N] [CASE ...]      # needs valgrind
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

SETUP = """
import numpy as np, array_api_promo as xp
tx = xp.torch
a = np.linspace(0, 1, 10); b = a * 2; f32 = a.astype(np.float32); mask = a > 0.5
X, Y, XF32, XMASK = xp.asarray(a), xp.asarray(b), xp.asarray(f32), xp.asarray(mask)
T, U, TF32 = tx.asarray(a), tx.asarray(b), tx.asarray(f32)
M = np.linspace(0, 1, 32 * 32).reshape(32, 32); XM = xp.asarray(M)
a2, b2 = a.reshape(2, 5), b.reshape(2, 5); X2, Y2 = xp.asarray(a2), xp.asarray(b2)
k = np.array([3, 41, 7, 3, 19, 0, 41, 25, 7, 12]); XK = xp.asarray(k)
sh = np.arange(10) % 7 + 1; XSH = xp.asarray(sh)  # shift amounts and divisors: no negative, no zero
TMASK = tx.asarray(mask); idx = np.arange(10)[::-1].copy(); XIDX, TIDX = xp.asarray(idx), tx.asarray(idx)
c = a + 1j * b; XC = xp.asarray(c); S = np.linspace(0, 1, 9).reshape(3, 3); SPD = S @ S.T + 4 * np.eye(3)
XS, XSPD = xp.asarray(S), xp.asarray(SPD)
"""

# name: (ours, NumPy's own)
CASES = {
    "a + b": ("X + Y", "a + b"),
    "tx a + b": ("T + U", "a + b"),
    "add(a, b)": ("xp.add(X, Y)", "np.add(a, b)"),
    "a + 1.0": ("X + 1.0", "a + 1.0"),
    "f32 + f64": ("XF32 + Y", "f32 + b"),
    "tx f32 + f64": ("TF32 + U", "f32 + b"),
    "sin(a)": ("xp.sin(X)", "np.sin(a)"),
    "a > b": ("X > Y", "a > b"),
    "k << s": ("XK << XSH", "k << sh"),
    "k // s": ("XK // XSH", "k // sh"),
    "a[i]": ("X[3]", "a[3]"),
    "a[2:5]": ("X[2:5]", "a[2:5]"),
    "a[mask]": ("X[XMASK]", "a[mask]"),
    "result_type": ("xp.result_type(X, Y)", "np.result_type(a, b)"),
    "astype": ("xp.astype(X, xp.float32)", "a.astype(np.float32)"),
    "A @ A": ("XM @ XM", "M @ M"),
    "vecdot": ("xp.vecdot(X2, Y2)", "np.vecdot(a2, b2)"),
    "count_nonzero": ("xp.count_nonzero(XMASK)", "np.count_nonzero(mask)"),
    "arange float": ("xp.arange(0.0, 10, 1.0)", "np.arange(0.0, 10, 1.0)"),
    "vector_norm": ("xp.linalg.vector_norm(X)", "np.linalg.norm(a)"),
    "broadcast_shapes": ("xp.broadcast_shapes((2, 1), (1, 3))", "np.broadcast_shapes((2, 1), (1, 3))"),
    "sum axis=0": ("xp.sum(X2, axis=0)", "np.sum(a2, axis=0)"),
    "min axis=1": ("xp.min(X2, axis=1)", "np.min(a2, axis=1)"),
    "var": ("xp.var(X)", "np.var(a)"),
    "tx var": ("tx.var(T)", "np.var(a)"),
    "argmin": ("xp.argmin(X)", "np.argmin(a)"),
    "argsort": ("xp.argsort(X)", "np.argsort(a, kind='stable')"),
    "sort rows": ("xp.sort(X2, axis=-1)", "np.sort(a2, axis=-1, kind='stable')"),
    "unique_values": ("xp.unique_values(XK)", "np.unique(k)"),
    "clip": ("xp.clip(X, 0.2, 0.8)", "np.clip(a, 0.2, 0.8)"),
    "nonzero": ("xp.nonzero(XMASK)", "np.nonzero(mask)"),
    "tx nonzero": ("tx.nonzero(TMASK)", "np.nonzero(mask)"),
    "concat": ("xp.concat([X, Y])", "np.concatenate([a, b])"),
    "stack axis=1": ("xp.stack([X, Y], axis=1)", "np.stack([a, b], axis=1)"),
    "full_like": ("xp.full_like(X, 2.0)", "np.full_like(a, 2.0)"),
    "tx full_like": ("tx.full_like(T, 2.0)", "np.full_like(a, 2.0)"),
    "ones": ("xp.ones(10)", "np.ones(10)"),
    "linspace": ("xp.linspace(0.0, 10.0, 10)", "np.linspace(0.0, 10.0, 10)"),
    "tx linspace": ("tx.linspace(0.0, 10.0, 10)", "np.linspace(0.0, 10.0, 10)"),
    "where": ("xp.where(XMASK, X, Y)", "np.where(mask, a, b)"),
    "take": ("xp.take(X, XIDX)", "np.take(a, idx)"),
    "tx take": ("tx.take(T, TIDX)", "np.take(a, idx)"),
    "rfft": ("xp.fft.rfft(X)", "np.fft.rfft(a)"),
    # issue 51's calls
    "arange dtype": ("xp.arange(10, dtype=xp.float64)", "np.arange(10, dtype=np.float64)"),
    "arange start dtype": ("xp.arange(0, 10, dtype=xp.int64)", "np.arange(0, 10, dtype=np.int64)"),
    "arange float dtype": ("xp.arange(0.0, 10, 1.0, dtype=xp.float32)", "np.arange(0.0, 10, 1.0, dtype=np.float32)"),
    "reshape": ("xp.reshape(X, (2, 5))", "a.reshape((2, 5))"),
    "flip": ("xp.flip(X)", "np.flip(a)"),
    "broadcast_to": ("xp.broadcast_to(X, (2, 10))", "np.broadcast_to(a, (2, 10))"),
    "full": ("xp.full(10, 1.5)", "np.full(10, 1.5)"),
    "zeros dtype": ("xp.zeros(10, dtype=xp.float32)", "np.zeros(10, dtype=np.float32)"),
    "where scalar": ("xp.where(XMASK, X, 0.0)", "np.where(mask, a, 0.0)"),
    "fft": ("xp.fft.fft(XC)", "np.fft.fft(c)"),
    "solve": ("xp.linalg.solve(XSPD, XS)", "np.linalg.solve(SPD, S)"),
    "inv": ("xp.linalg.inv(XSPD)", "np.linalg.inv(SPD)"),
    # the views and attributes of issue 51's last sweep
    "a.T": ("X2.T", "a2.T"),
    "a[..., 0]": ("X2[..., 0]", "a2[..., 0]"),
    "a[None, ...]": ("X2[None, ...]", "a2[None, ...]"),
    "a.ndim": ("X2.ndim", "a2.ndim"),
}


def count(statement: str, n: int) -> int:
    """Instructions of a fresh interpreter that runs ``statement`` n times after SETUP."""
    code = f"{SETUP}\nfor _ in range({n}):\n    {statement}\n"
    # One hash seed for every run: string hashes decide how dicts probe, so two processes
    # with different seeds execute different numbers of instructions for the same code.
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
    )
    found = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or not found:
        raise SystemExit(f"callgrind failed on {statement!r}:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main(argv=None) -> None:
    p = argparse.ArgumentParser(prog="python -m benchmarks.instructions", description=__doc__.split("\n\n")[0])
    p.add_argument("-n", type=int, default=20000, help="calls per statement (default 20000)")
    p.add_argument("cases", nargs="*", help=f"cases to count (default all): {', '.join(CASES)}")
    args = p.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        raise SystemExit(f"unknown cases {unknown}; known: {', '.join(CASES)}")
    base = count("pass", args.n)
    print(f"instructions per call (callgrind, {args.n} calls, a loop of pass subtracted)")
    print(f"{'case':14} {'ours':>8} {'NumPy':>8} {'ours - NumPy':>13} {'ratio':>6}")
    for name in args.cases or CASES:
        ours_stmt, numpy_stmt = CASES[name]
        ours = (count(ours_stmt, args.n) - base) / args.n
        theirs = (count(numpy_stmt, args.n) - base) / args.n
        print(f"{name:14} {ours:8.0f} {theirs:8.0f} {ours - theirs:13.0f} {ours / theirs:6.2f}", flush=True)


if __name__ == "__main__":
    main()
