"""What an audited namespace costs per call, against the plain namespace of its policy.

    python -m benchmarks.audit_overhead            # about 30 seconds
    python -m benchmarks.audit_overhead --json out.json

Each statement runs in one process on the plain ``array_api`` namespace and on
``audit("array_api", against=...)`` with one and with two other policies, interleaved round by
round; the median per-call time over the rounds is printed with the audited overhead in
microseconds.  The calls are ones that do not differ (the common case: a cached signature, no
record); a differing call also finds the user's frame and counts its record (the last rows).
Nothing is asserted: this measures and prints.
"""

from __future__ import annotations

import argparse
import json
import statistics
import timeit
import warnings

import numpy as np

STATEMENTS = {
    "a + b": "a + b",
    "a * 2.0": "a * 2.0",
    "ns.add(a, b)": "ns.add(a, b)",
    "ns.sum(a)": "ns.sum(a)",
    "ns.asarray(L) (differs: recorded)": "ns.asarray(L)",
    "ns.where(m, a, b)": "ns.where(m, a, b)",
    "a[0] = 1.0": "a[0] = 1.0",
    "ns.sum(u) (differs: recorded)": "ns.sum(u)",
    "ns.asarray(1.5) (differs: recorded)": "ns.asarray(1.5)",
}


def _globals(ns):
    rng = np.random.default_rng(0)
    return {
        "ns": ns,
        "a": ns.asarray(rng.random(10)),
        "b": ns.asarray(rng.random(10)),
        "m": ns.asarray(rng.random(10) > 0.5),
        "u": ns.asarray(np.arange(10, dtype=np.uint8)),
        "L": rng.random(10).tolist(),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.audit_overhead", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args(argv)

    import array_api_promo
    from array_api_promo import PromotionDifferenceWarning, audit

    warnings.simplefilter("ignore", PromotionDifferenceWarning)
    spaces = {
        "plain": array_api_promo.namespace("array_api"),
        "audit vs torch": audit("array_api", against=["torch"]),
        "audit vs torch, numpy": audit("array_api", against=["torch", "numpy"]),
    }
    results = {}
    for title, stmt in STATEMENTS.items():
        timers = {name: timeit.Timer(stmt, globals=_globals(ns)) for name, ns in spaces.items()}
        numbers = {name: max(1000, t.autorange()[0]) for name, t in timers.items()}
        samples: dict[str, list[float]] = {name: [] for name in spaces}
        for _ in range(args.rounds):
            for name, timer in timers.items():
                samples[name].append(timer.timeit(numbers[name]) / numbers[name])
        results[title] = {name: statistics.median(s) for name, s in samples.items()}

    from rich.console import Console
    from rich.table import Table

    table = Table(title="Per-call time (median of interleaved rounds); overhead = audited - plain")
    table.add_column("call")
    for name in spaces:
        table.add_column(name, justify="right")
    table.add_column("overhead vs 1 / vs 2", justify="right")
    for title, times in results.items():
        plain = times["plain"]
        table.add_row(
            title,
            *[f"{t * 1e6:.2f} µs" for t in times.values()],
            f"+{(times['audit vs torch'] - plain) * 1e6:.2f} / +{(times['audit vs torch, numpy'] - plain) * 1e6:.2f} µs",
        )
    Console(width=160).print(table)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
