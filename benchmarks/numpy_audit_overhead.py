"""What the NumPy audit (``python -m array_api_promo.audit --numpy``) costs a whole program.

    python -m benchmarks.numpy_audit_overhead --rounds 5     # about two minutes

Each program below runs as ``python PROGRAM`` and as ``python -m array_api_promo.audit --numpy
--against numpy_legacy -- python PROGRAM``, interleaved round by round (the machine's load
touches both alike); the median wall time of each and their ratio are printed.  The audited
run's time includes the runner's own start (importing the package and NumPy, writing the
records).  Nothing is asserted: this measures and prints.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

PROGRAMS = {
    # NumPy scalar and small-array arithmetic in a Python loop: every operator is compared
    "small arrays in a loop (300,000 NumPy operations)": """
        import numpy as np
        x = np.linspace(0, 1, 8, dtype=np.float32)
        gain = np.float32(0.5)
        total = np.float64(0)
        for i in range(50_000):
            y = x * gain + 1.0
            y = np.maximum(y, 0.25)
            total += y.sum() - np.float64(i % 3)
            x[i % 8] = 0.5
        print(total)
    """,
    # large arrays: the same comparisons, each on a million elements
    "large arrays (1,000 operations on 10**6 elements)": """
        import numpy as np
        rng = np.random.default_rng(0)
        a = rng.random(1_000_000, dtype=np.float32)
        b = rng.integers(0, 255, 1_000_000, dtype=np.uint8)
        for i in range(200):
            c = a * np.float32(1.5) + b
            d = np.where(c > 100, c, 0.0)
            a = np.clip(d, 0, 200) / 200
        print(float(a.sum()))
    """,
    # a plain Python loop with no NumPy in it: the cost of the rewriting itself
    "pure Python (a million integer operations)": """
        total = 0
        for i in range(500_000):
            total += i % 7 * 2
        print(total)
    """,
}


def _time(command: list[str], cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env_path = os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])
    os.environ["PYTHONPATH"] = env_path
    print(f"{'program':55} {'plain':>9} {'audited':>9} {'ratio':>7}")
    with tempfile.TemporaryDirectory() as folder:
        for label, source in PROGRAMS.items():
            path = os.path.join(folder, "program.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(textwrap.dedent(source))
            plain_command = [sys.executable, path]
            audit_command = [sys.executable, "-m", "array_api_promo.audit", "--numpy", "--against", "numpy_legacy"]
            audit_command += ["--", sys.executable, path]
            plain, audited = [], []
            for _ in range(args.rounds):
                plain.append(_time(plain_command, folder))
                audited.append(_time(audit_command, folder))
            p, a = statistics.median(plain), statistics.median(audited)
            print(f"{label:55} {p:8.2f}s {a:8.2f}s {a / p:6.1f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
