"""The Dask storage's benchmark (``benchmarks/dask_storage.py``) runs and prints its tables.

Its ``--quick`` smoke run, in a subprocess as a user runs it: small arrays, so that this takes
seconds. No time or memory figure is asserted (the script only measures and prints); what is
checked is that every part ran, computed the right values and reported them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("dask.array")

ROOT = Path(__file__).resolve().parent.parent


def _dask_storage_available() -> bool:
    try:
        import array_api_promo

        array_api_promo.namespace("array_api", storage="dask")
    except Exception:
        return False
    return True


def test_the_quick_run_prints_its_tables_and_writes_its_figures(tmp_path):
    out = tmp_path / "dask.json"
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "dask_storage.py"), "--quick", "--json", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = proc.stdout
    for title in ("Out of core: float64, n = 1,000,000", "Elementwise: x = arange(1,000,000", "Targets (issue 22"):
        assert title in text, text
    assert "peak RSS" in text and "targets:" in text and "dask scheduler: threads" in text, text

    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["meta"]["versions"]["dask"] and report["meta"]["versions"]["numpy"]
    libs = ("dask", "xp", "tx") if _dask_storage_available() else ("dask",)
    rows = {(row["case"], row["lib"]): row for row in report["out_of_core"]}
    for case in ("sum_ones", "mean_arange"):
        for lib in libs:
            row = rows[(case, lib)]
            assert row["error"] is None and row["value_ok"] and row["lazy"], row
            assert row["time_s"] > 0 and row["maxrss"] > 0
    for result in report["elementwise"]:
        assert set(result["times"]) == set(libs), result["errors"]
        assert all(result["same_value"].values()), result["values"]
        assert len(result["samples"]["dask"]) == 3
    statuses = {(t["target"], t["lib"]): t["met"] for t in report["targets"]}
    assert len(statuses) == 8  # 2 out-of-core cases and 2 elementwise ones, for xp and tx
    if len(libs) == 3:
        assert None not in statuses.values(), report["targets"]
