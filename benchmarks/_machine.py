"""How busy and how fast the machine was while a benchmark ran, for the figures' context."""

from __future__ import annotations

import os
import time


def cpu_seconds():
    """(busy CPU-seconds of the whole machine, CPU-seconds of this process and its waited-for
    children), or None without psutil: their difference over the run is other processes' work
    (the hypervisor's steal time is not counted in either)."""
    try:
        import psutil
    except ImportError:
        return None
    t = psutil.cpu_times()
    idle = t.idle + getattr(t, "iowait", 0.0)
    not_work = sum(getattr(t, name, 0.0) for name in ("steal", "guest", "guest_nice"))  # guest: in user already
    own = os.times()
    return sum(t) - idle - not_work, own.user + own.system + own.children_user + own.children_system


def reference_loop() -> float:
    """Seconds one fixed pure-Python workload takes here (3 million dict stores of a str), the
    kind of work the suite's engine does: a machine that runs it in twice the time runs the
    conformance job in about twice the time, whatever the code."""
    start = time.perf_counter()
    store = {}
    for i in range(3_000_000):
        store[i % 1000] = str(i)
    return time.perf_counter() - start


def load_average():
    """The machine's 1, 5 and 15-minute load averages, or None where the system does not say."""
    return list(os.getloadavg()) if hasattr(os, "getloadavg") else None


def run_meta(start: float, repeats: int, min_time: float, args, **extra) -> dict:
    """What a run's figures are of: its time since ``start``, its repeats, sample time and statistic,
    whether it was quick, the machine's CPUs and load, then ``extra``."""
    return {
        "elapsed_s": time.perf_counter() - start,
        "repeats": repeats,
        "min_time_s": min_time,
        "stat": args.stat,
        "quick": args.quick,
        "cpus": os.cpu_count(),
        "loadavg": load_average(),
        **extra,
    }
