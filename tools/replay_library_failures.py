"""Replay the failing calls of a library report (each test's FAILING CODE SNIPPET) on the library
installed in this interpreter, and print what each gives: its result's dtype, or its error.

Run it under two releases and diff the outputs to see what changed between them as the suite sees
it (docs/guide/conformance.md compares torch 2.13 and 2.15 this way)::

    V213/bin/python tools/replay_library_failures.py conformance/reports/torch-2.15 > a.txt
    V215/bin/python tools/replay_library_failures.py conformance/reports/torch-2.15 > b.txt
    diff a.txt b.txt
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from array_api_promo.conformance import library, normalize, reproduce  # noqa: E402


def replay(results: dict) -> dict:
    """{nodeid: last line of the output} for every failing test with a replayable call."""
    calls = {}
    for e in results["tests"]:
        if e["outcome"] in normalize.FAILING and e.get("failing_code"):
            snippet = reproduce.failing_code_snippet(results["module"], e["failing_code"])
            if snippet:
                calls[e["nodeid"]] = snippet.replace("print(repr(out))", "print(getattr(out, 'dtype', out))")
    outputs = reproduce.execute(list(calls.values()))
    return {nid: (out.strip().splitlines() or [""])[-1][:160] for nid, out in zip(calls, outputs)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("report", type=Path, help="a report folder (or its results.json)")
    args = p.parse_args(argv)
    path = args.report / library.RESULTS_NAME if args.report.is_dir() else args.report
    for nid, out in sorted(replay(normalize.load(path)).items()):
        print(f"{nid}\t{out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
