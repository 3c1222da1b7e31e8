"""The harness' layout (issue 49): one module per subcommand over shared modules, whose interfaces
are their public names, and a main job whose trip through the code goes parse -> plan -> run ->
normalize -> report without going back to a step it left (calls into the shared models aside)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from array_api_promo.conformance import PACKAGE_DIR, cli

FAKE = Path(__file__).resolve().parents[1] / "fixtures" / "fake_suite"
PREFIX = "array_api_promo.conformance."

#: The steps of the main job, in order, and the modules of each. The shared models (``model``: test
#: ids, kinds, results files; ``report``: failure groups and sections) may be called from any step;
#: ``commands.run`` is the subcommand that walks the trip, calling each step in turn (its calls count).
STEPS = {
    # the parser: cli and each subcommand's add_arguments
    "parse": {"cli", "commands.options", "commands.library", "commands.report_job", "commands.storage"}
    | {"commands.render", "commands.diff"},
    "plan": {"plan", "suite"},
    "run": {"runner"},
    "normalize": {"results", "normalize", "attribution", "spec", "provenance"},
    "report": {"publish", "render", "xfails", "library", "library_report", "reproduce", "engine_table", "rules"},
}
SHARED = {"model", "report"}
HALLWAY = "commands.run"


def test_the_main_job_never_goes_back_to_a_step_it_left(tmp_path, monkeypatch):
    """Every call from one harness module into another, while the main job runs (two policies on the
    fake suite): the step called is never one before the furthest step reached."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(FAKE), os.environ.get("PYTHONPATH", "")]))
    step_of = {m: i for i, (_, mods) in enumerate(STEPS.items()) for m in mods}
    calls: list = []

    def profile(frame, event, arg):
        if event != "call" or frame.f_back is None:
            return
        callee, caller = frame.f_globals.get("__name__", ""), frame.f_back.f_globals.get("__name__", "")
        if callee.startswith(PREFIX) and caller.startswith(PREFIX) and callee != caller:
            calls.append((caller[len(PREFIX) :], callee[len(PREFIX) :], frame.f_code.co_name))

    argv = ["run", "--suite", str(FAKE), "--policy", "array_api", "--policy", "torch", "--max-examples", "2"]
    argv += ["--module-map", "array_api=fake_namespace", "--module-map", "torch=fake_namespace", "--workers", "1"]
    argv += ["--no-progress", "--no-clone", "--results-dir", str(tmp_path / "r"), "--work-dir", str(tmp_path / "w")]
    sys.setprofile(profile)
    try:
        rc = cli.main(argv)
    finally:
        sys.setprofile(None)
    assert rc == 0
    reached, back, seen = 0, [], set()
    for caller, callee, name in calls:
        seen.add(callee)
        if callee in SHARED or caller in SHARED or callee == HALLWAY:
            continue
        assert callee in step_of, f"{callee} is in no step"
        if step_of[callee] < reached:
            back.append(f"{caller} -> {callee}.{name}")
        reached = max(reached, step_of[callee])
    assert back == []
    assert {"plan", "runner", "results", "publish", "render", "rules"} <= seen  # the trip was walked


def _harness_modules():
    return sorted(p for p in PACKAGE_DIR.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_module_of_the_harness_uses_another_ones_underscore_names():
    """Each module's interface is its public names: no ``from .x import _y``, no ``x._y`` of a harness
    module (the pytest plugins, ``_pytest_*``, are loaded by name, not imported)."""
    found = []
    for path in _harness_modules():
        tree = ast.parse(path.read_text())
        harness_aliases = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(PREFIX[:-1])):
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{path.name}: from {node.module} import {alias.name}")
                    harness_aliases.add(alias.asname or alias.name)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in harness_aliases
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                found.append(f"{path.name}: {node.value.id}.{node.attr}")
    assert found == []


def test_help_lists_each_subcommand_on_one_line():
    env = {**os.environ, "COLUMNS": "100", "PYTHONPATH": str(PACKAGE_DIR.parent.parent)}
    out = subprocess.run(
        [sys.executable, "-m", "array_api_promo.conformance", "--help"], capture_output=True, text=True, env=env
    ).stdout
    lines = out[out.index("subcommands:") :].splitlines()[2:]
    described = [ln.split()[0] for ln in lines if ln.startswith("    ") and not ln.startswith("     ")]
    assert described == ["run", "library", "storage", "render", "diff"]
    assert len([ln for ln in lines if ln.strip()]) == 5  # one line each


@pytest.mark.parametrize(
    ("argv", "subcommand"),
    [
        ([], "run"),
        (["--max-examples", "5"], "run"),
        (["--library", "m", "--max-examples", "5"], "library"),
        (["--storage", "dask"], "storage"),
        (["--storage", "numpy", "--policy", "torch"], "run"),
        (["--render-only"], "render"),
        (["--render-reports"], "render"),
        (["render"], "render"),
        (["diff", "a", "b"], "diff"),
    ],
)
def test_the_older_spellings_map_onto_the_subcommands(argv, subcommand):
    args = cli.parse_args(argv)
    assert args.command == subcommand
    if "--render-reports" in argv:
        assert args.what == "reports"
