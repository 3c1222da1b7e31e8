"""What the NEP 50 warning mode (and the NumPy audit, the same machinery) costs a program.

    python -m benchmarks.nep50_overhead                      # about three minutes
    python -m benchmarks.nep50_overhead --suite "python -m pytest -q -p no:cacheprovider --pyargs nibabel"

Three figures, each a median of interleaved rounds (the machine's load touches both sides alike),
printed with their ratios or differences; nothing is asserted:

* **start-up**: an empty NumPy program (``import numpy``), plainly, with the mode turned on by
  ``ARRAY_API_PROMO_NEP50`` (what each Python process of a job pays: a pytest-xdist worker, a
  subprocess) and under the runner ``python -m array_api_promo.nep50 --`` (the runner's own start
  too); wall time of the whole process;
* **8-element loops**: NumPy operations on 8-element arrays and NumPy scalars in a Python loop
  (300,000 operations, each one compared), and large arrays (10**6 elements); the CPU time of the
  loop itself, which the program measures (``time.process_time``), so start-up is not in it;
* **a whole test suite**: ``--suite`` (default: nibabel's own tests, if nibabel is installed, its
  package the code compared: ``--include nibabel``), the CPU time of every process of it
  (``resource.getrusage`` of the children), plainly and under ``python -m array_api_promo.nep50``,
  rounds interleaved.  The tool's cache of rewritten modules (``ARRAY_API_PROMO_REWRITE_CACHE``) is a
  fresh folder of the benchmark's: the first warning-mode run rewrites every module (a cold cache, as
  in a CI job that does not keep ``~/.cache``), the later ones read them (a warm cache); both shown.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

LOOPS = {
    "8-element arrays and NumPy scalars (300,000 operations)": """
        import time
        import numpy as np
        x = np.linspace(0, 1, 8, dtype=np.float32)
        gain = np.float32(0.5)
        total = np.float64(0)
        start = time.process_time()
        for i in range(50_000):
            y = x * gain + 1.0
            y = np.maximum(y, 0.25)
            total += y.sum() - np.float64(i % 3)
            x[i % 8] = 0.5
        print(time.process_time() - start)
    """,
    "10**6-element arrays (1,000 operations)": """
        import time
        import numpy as np
        rng = np.random.default_rng(0)
        a = rng.random(1_000_000, dtype=np.float32)
        b = rng.integers(0, 255, 1_000_000, dtype=np.uint8)
        start = time.process_time()
        for i in range(200):
            c = a * np.float32(1.5) + b
            d = np.where(c > 100, c, 0.0)
            a = np.clip(d, 0, 200) / 200
        print(time.process_time() - start)
    """,
    "pure Python (a million integer operations, no NumPy)": """
        import time
        start = time.process_time()
        total = 0
        for i in range(500_000):
            total += i % 7 * 2
        print(time.process_time() - start)
    """,
}


def _env(root: str, mode: bool, cache: str) -> dict:
    env = dict(os.environ, ARRAY_API_PROMO_REWRITE_CACHE=cache)
    env["PYTHONPATH"] = os.pathsep.join([root, env.get("PYTHONPATH", "")])
    for name in ("ARRAY_API_PROMO_NEP50", "ARRAY_API_PROMO_NUMPY_AUDIT"):
        env.pop(name, None)
    if mode:
        site = os.path.join(root, "array_api_promo", "_site")
        env["ARRAY_API_PROMO_NEP50"] = "numpy1"
        env["PYTHONPATH"] = os.pathsep.join([site, env["PYTHONPATH"]])
    return env


def _wall(command, cwd, env) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def _children_cpu(command, cwd, env) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, env=env, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _printed_seconds(command, cwd, env) -> float:
    done = subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True, text=True)
    return float(done.stdout.strip().splitlines()[-1])


def _start_up_and_loops(rounds, python, runner, folder, plain_env, mode_env) -> None:
    empty = os.path.join(folder, "empty.py")
    with open(empty, "w", encoding="utf-8") as f:
        f.write("import numpy\n")
    times: dict = {"plain": [], "variable": [], "runner": []}
    for _ in range(rounds):
        times["plain"].append(_wall([python, empty], folder, plain_env))
        times["variable"].append(_wall([python, empty], folder, mode_env))
        times["runner"].append(_wall([*runner, python, empty], folder, plain_env))
    plain = statistics.median(times["plain"])
    print(f"start-up of an empty NumPy program (wall time, median of {rounds}):")
    print(f"  plain                          {plain:6.3f} s")
    for label, key in (("ARRAY_API_PROMO_NEP50=numpy1", "variable"), ("python -m array_api_promo.nep50", "runner")):
        value = statistics.median(times[key])
        print(f"  {label:30} {value:6.3f} s   (+{value - plain:.3f} s)")
    print(f"\nloops (CPU time of the loop, median of {rounds}):")
    for label, source in LOOPS.items():
        path = os.path.join(folder, "loop.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(source))
        plain_times, mode_times = [], []
        for _ in range(rounds):
            plain_times.append(_printed_seconds([python, path], folder, plain_env))
            mode_times.append(_printed_seconds([python, path], folder, mode_env))
        p, m = statistics.median(plain_times), statistics.median(mode_times)
        print(f"  {label:58} {p:7.3f} s {m:7.3f} s {m / p:6.2f}x", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.nep50_overhead", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="rounds of the start-up and the loops (default 7)")
    parser.add_argument("--suite-rounds", type=int, default=1, help="rounds of the test suite (default 1)")
    parser.add_argument("--suite", default=None, help="a test suite's command (default: nibabel's tests)")
    parser.add_argument(
        "--include",
        action="append",
        default=[],
        help="the suite's own code, for the mode (default with nibabel's: nibabel)",
    )
    parser.add_argument("--suite-only", action="store_true", help="only the test suite (no start-up, no loops)")
    args = parser.parse_args(argv)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    python = sys.executable
    runner = [python, "-m", "array_api_promo.nep50", "--"]
    with tempfile.TemporaryDirectory() as folder:
        cache = os.path.join(folder, "rewrite-cache")
        plain_env, mode_env = _env(root, False, cache), _env(root, True, cache)
        if not args.suite_only:
            _start_up_and_loops(args.rounds, python, runner, folder, plain_env, mode_env)
        suite = args.suite
        if suite is None:
            try:
                import nibabel  # noqa: F401
            except ImportError:
                # The suite is part of the measurement: without it the run is incomplete, and says so.
                print("\nsuite: nibabel is not installed; install it or give a suite with --suite", file=sys.stderr)
                return 1
            suite = f"{shlex.quote(python)} -m pytest -q -p no:cacheprovider --pyargs nibabel"
            args.include = args.include or ["nibabel"]
        command = shlex.split(suite)
        runner = [python, "-m", "array_api_promo.nep50", *[f"--include={i}" for i in args.include], "--"]
        shutil.rmtree(cache, ignore_errors=True)  # the suite's first warning-mode run: a cold cache
        plain_cpu, mode_cpu = [], []
        for _ in range(args.suite_rounds):
            plain_cpu.append(_children_cpu(command, folder, plain_env))
            mode_cpu.append(_children_cpu([*runner, *command], folder, plain_env))
        p = statistics.median(plain_cpu)
        print(f"\nsuite `{suite}` (CPU time of every process; {args.suite_rounds} interleaved rounds):")
        print(f"  plain, each round:        {' '.join(f'{t:6.1f}' for t in plain_cpu)} s, median {p:6.1f} s")
        print(f"  warning mode, each round: {' '.join(f'{t:6.1f}' for t in mode_cpu)} s")
        print(f"  cold cache (first run):   {mode_cpu[0]:6.1f} s: {mode_cpu[0] / p:.2f}x the plain median")
        if len(mode_cpu) > 1:
            warm = mode_cpu[1:]
            pairs = [m / q for m, q in zip(warm, plain_cpu[1:])]
            m = statistics.median(warm)
            print(
                f"  warm cache (the others):  median {m:6.1f} s: {m / p:.2f}x the plain median "
                f"(round by round {min(pairs):.2f}x to {max(pairs):.2f}x)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
