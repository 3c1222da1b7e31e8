"""The seeds' worked examples (MEP 3, PyTorch #9515) regenerate from the policies, cell by cell,
and ``compare numpy_legacy numpy`` is the NEP 50 migration table."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from array_api_promo._cli import main, operand_mixes, parse_operand
from array_api_promo._seed_tables import SEED_POLICIES, SEED_TABLES, evaluate
from array_api_promo.promotion import get_policy

ROOT = pathlib.Path(__file__).resolve().parents[1]
CELLS = [
    (title, row, policy)
    for title, rows in SEED_TABLES.items()
    for row in rows
    for policy in SEED_POLICIES
    if policy in row.stated
]


def test_the_tables_are_complete():
    mep3, proposal = SEED_TABLES.values()
    assert len(mep3) == 9 and len(proposal) == 11
    assert len(CELLS) == 27


@pytest.mark.parametrize("title,row,policy", CELLS, ids=lambda v: getattr(v, "expression", str(v))[:40])
def test_every_cell_is_what_the_seed_states(title, row, policy):
    # no seed cell is wrong about today's library (NumPy 1.26.4, torch 2.13.0): seed_wrong unused
    want = (row.seed_wrong or {}).get(policy, row.stated[policy])
    assert evaluate(row, policy) == want, f"{title}: {row.expression} under {policy}"


def test_seeds_command_prints_both_tables_and_checks(capsys):
    assert main(["seeds", "--check"]) == 0
    out = capsys.readouterr().out
    assert "MEP 3" in out and "PyTorch proposal" in out and "every cell matches the seeds" in out


def _cli(*args):
    env = dict(os.environ, COLUMNS="200", PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "array_api_promo._cli", *args], capture_output=True, text=True, env=env, cwd=ROOT
    )


def test_migration_table_lists_mixes_whose_dtype_changes_with_values():
    proc = _cli("compare", "numpy_legacy", "numpy")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert any("operand mixes differ" in line for line in lines)
    rows = {
        " ".join(line.split("│")[1].split()): [c.strip() for c in line.split("│")[2:4]]
        for line in lines
        if line.count("│") >= 4
    }
    assert rows["uint8, 300"] == ["uint16", "uint8"]  # np.result_type: NumPy 2 looks at the int's type only
    assert rows["int8, 0d:int64=1"] == ["int8", "int64"]  # NumPy 1.x judged the 0-d value
    assert rows["float32, 0d:float64=1"] == ["float32", "float64"]
    assert rows["0d:int8=1, 1"] == ["int64", "int8"]  # all scalars: NumPy 1.x by dtype
    assert "int8, 0d:int64=-1099511627776" not in rows  # a value needing int64: no change
    assert "int8, 1" not in rows  # weak under both


def test_value_operands_in_the_command_line():
    assert parse_operand("0d:int64=300").value == 300
    assert main(["result-type", "uint8", "0d:int64=300", "-p", "numpy_legacy"]) == 0


def test_value_grids_only_for_value_dependent_policies():
    plain = list(operand_mixes([get_policy("numpy"), get_policy("torch")]))
    valued = list(operand_mixes([get_policy("numpy_legacy"), get_policy("numpy")]))
    assert len(valued) > len(plain)
