#!/usr/bin/env python
"""Generate ``tests/data/numpy_audit_golden.json``: the NumPy audit's truth, from real NumPy 1.x and 2.

Run (NumPy 1.26.4 and pytest in their own virtual environment; NumPy 2 is this interpreter's):

    python -m venv .venv-np126 && .venv-np126/bin/pip install numpy==1.26.4 pytest
    python tools/gen_numpy_audit_golden.py --old-python .venv-np126/bin/python

The probe programs under ``tests/data/numpy_audit/`` are plain NumPy code.  Each probed line
is ``probe(lambda: ...)``, which prints ``probe LINE: OUTCOME`` (the result's dtype, or
``raises`` and the built-in exception type it raised).  Each program runs under both NumPys;
the table keeps, per probed line, both outcomes and the *site*: the line itself, or for a
probe marked ``# site: NAME`` the line of the probe folder marked ``[NAME]`` (the operation
inside a function of the program's that the probe calls).  The NumPy audit run against
``numpy_legacy`` must report exactly the sites of the probes whose outcomes differ
(tests/test_numpy_audit.py); the table is made without the audit or any policy of ours.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "tests", "data", "numpy_audit")
OUT = os.path.join(ROOT, "tests", "data", "numpy_audit_golden.json")
# Each program and the command that runs it (from its folder); "python" is the interpreter under test.
PROGRAMS = {
    "numpy1_era.py": ["python", "numpy1_era.py"],
    "kinds.py": ["python", "kinds.py"],
    "exactness.py": ["python", "exactness.py"],
    "probe_pytest.py": ["python", "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "probe_pytest.py"],
}
_PROBE = re.compile(r"probe (\d+): (.+)$")
_SITE = re.compile(r"#\s*site:\s*(\w+)")
_MARK = re.compile(r"#\s*\[(\w+)\]")


def numpy_version(python: str) -> str:
    return subprocess.check_output([python, "-c", "import numpy; print(numpy.__version__)"], text=True).strip()


def run(python: str, command: list[str]) -> dict[int, str]:
    """The outcome of each probed line (the program must print every probe and exit 0)."""
    done = subprocess.run([python, *command[1:]], cwd=FOLDER, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed under {python} (exit {done.returncode}):\n{done.stdout}\n{done.stderr}")
    outcomes = {}
    for text in done.stdout.splitlines():
        found = _PROBE.search(text)
        if found:
            outcomes[int(found.group(1))] = found.group(2)
    return outcomes


def marks() -> dict[str, str]:
    """``[NAME]`` markers of the probe folder's files: NAME -> "file:line"."""
    found = {}
    for name in sorted(os.listdir(FOLDER)):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(FOLDER, name), encoding="utf-8") as f:
            for number, text in enumerate(f, 1):
                for mark in _MARK.findall(text):
                    if mark in found:
                        sys.exit(f"marker [{mark}] twice: {found[mark]} and {name}:{number}")
                    found[mark] = f"{name}:{number}"
    return found


def sites(program: str, lines, where: dict[str, str]) -> dict[int, str]:
    with open(os.path.join(FOLDER, program), encoding="utf-8") as f:
        source = f.read().splitlines()
    out = {}
    for line in lines:
        named = _SITE.search(source[line - 1])
        out[line] = where[named.group(1)] if named else f"{program}:{line}"
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-python", required=True, help="an interpreter with NumPy 1.26.x and pytest")
    parser.add_argument("--new-python", default=sys.executable, help="an interpreter with NumPy 2 (default: this one)")
    args = parser.parse_args(argv)
    old, new = numpy_version(args.old_python), numpy_version(args.new_python)
    if not old.startswith("1.") or not new.startswith("2."):
        sys.exit(f"--old-python has NumPy {old}, --new-python NumPy {new}: need 1.x and 2.x")
    where = marks()
    programs = {}
    for program, command in PROGRAMS.items():
        before, after = run(args.old_python, command), run(args.new_python, command)
        if set(before) != set(after) or not before:
            sys.exit(f"{program}: the probed lines differ between the runs ({sorted(set(before) ^ set(after))})")
        placed = sites(program, sorted(before), where)
        probes = {str(line): {"old": before[line], "new": after[line], "site": placed[line]} for line in sorted(before)}
        programs[program] = {"command": command, "probes": probes}
        changed = sum(p["old"] != p["new"] for p in probes.values())
        print(f"{program}: {len(probes)} probed lines, {changed} change, {len(probes) - changed} agree")
    table = {
        "generator": "tools/gen_numpy_audit_golden.py",
        "old_numpy": old,
        "new_numpy": new,
        "programs": programs,
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(table, f, indent=1)
        f.write("\n")
    print(f"wrote {os.path.relpath(OUT, ROOT)} (NumPy {old} and {new})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
