"""The NEP 50 warning mode never changes the program, and warns where NumPy 1.x and 2 differ.

Each program of ``tests/data/nep50/`` runs plainly and under ``python -m array_api_promo.nep50``
(and the NumPy audit), in the same folder: stdout, the exit status and every file written are
byte for byte the plain run's, and stderr is the plain run's apart from the tool's own lines (its
``NEP50Warning``\\ s and its summary).  Then: each expected warning arrives at its line, ``-W
error::array_api_promo.NEP50Warning`` fails the run there, the pytest plugin and the environment
variable turn the mode on, no bytecode cache holds the rewrite, and a missing program is said to be
missing.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
PROGRAMS = HERE / "data" / "nep50"
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
for _name in ("ARRAY_API_PROMO_NEP50", "ARRAY_API_PROMO_NUMPY_AUDIT", "PYTHONWARNINGS", "PYTEST_ADDOPTS"):
    ENV.pop(_name, None)
RUNNER = [sys.executable, "-m", "array_api_promo.nep50"]
AUDIT = [sys.executable, "-m", "array_api_promo.audit", "--numpy", "--against", "numpy_legacy"]
_TOOL_LINE = re.compile(r"^array_api_promo\.(nep50|audit): ")
_WARNING = re.compile(r"^.*:\d+: NEP50Warning: ")


@pytest.fixture(autouse=True, scope="module")
def _rewrite_cache_of_the_tests(tmp_path_factory):
    """The tool's cache of rewritten modules in a folder of the tests' (not the user's), shared by the module's runs."""
    ENV["ARRAY_API_PROMO_REWRITE_CACHE"] = str(tmp_path_factory.mktemp("rewrite-cache"))


class Run:
    def __init__(self, done: subprocess.CompletedProcess, files: dict):
        self.returncode = done.returncode
        self.stdout: bytes = done.stdout
        self.stderr: str = done.stderr.decode()
        self.files = files

    def program_stderr(self) -> str:
        """stderr without the tool's own lines: its warnings (two lines each) and its summary."""
        lines = self.stderr.splitlines(keepends=True)
        kept, skip = [], False
        for line in lines:
            if skip:
                skip = False
                continue
            if _WARNING.match(line):
                skip = True  # the source line Python prints below a warning
                continue
            if _TOOL_LINE.match(line):
                continue
            kept.append(line)
        return "".join(kept)


def _files(folder: pathlib.Path, program: str) -> dict:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != program and "__pycache__" not in p.parts
    }


def _run(folder: pathlib.Path, command: list[str], program: str, env=None) -> Run:
    done = subprocess.run(command, cwd=folder, capture_output=True, timeout=600, env=env or ENV)
    files = _files(folder, program)
    for name in files:
        (folder / name).unlink()
    return Run(done, files)


def _plain_and_tool(tmp_path, program: str, tool=RUNNER, args=()) -> tuple[Run, Run]:
    folder = tmp_path / "program"
    folder.mkdir(parents=True)
    shutil.copy(PROGRAMS / program, folder / program)
    plain = _run(folder, [sys.executable, program, *args], program)
    tooled = _run(folder, [*tool, "--", sys.executable, program, *args], program)
    return plain, tooled


# -- never changes the program ---------------------------------------------------------------------
ORDERED = ["mangled.py", "unclosed.py", "raises.py", "raises_in_operation.py", "exits.py", "language.py", "differs.py"]
ORDERED += ["edges.py"]


@pytest.mark.parametrize("tool", [RUNNER, AUDIT], ids=["nep50", "audit"])
@pytest.mark.parametrize("program", ORDERED)
def test_the_program_runs_as_plainly(tmp_path, program, tool):
    plain, tooled = _plain_and_tool(tmp_path, program, tool)
    assert tooled.stdout == plain.stdout
    assert tooled.returncode == plain.returncode
    assert tooled.files == plain.files
    if tool is RUNNER:
        assert tooled.program_stderr() == plain.stderr
    else:  # the audit's table comes after the program's own stderr
        assert tooled.stderr.startswith(plain.stderr)


def test_what_the_programs_do_plainly(tmp_path):
    """The programs above are what they say: each kind of item is there to be kept."""
    plain, _ = _plain_and_tool(tmp_path, "unclosed.py")
    assert plain.returncode == 3
    assert plain.files["log.txt"] == b"x" * 31 and len(plain.files["data.bin"]) == 12
    assert plain.stdout.splitlines() == [b"main script ends", b"thread done", b"atexit hook ran"]
    assert "thread.txt" in plain.files
    plain, tooled = _plain_and_tool(tmp_path / "m", "mangled.py")
    assert plain.stdout == b"1 3 [3. 3.] 3 [1, 2]\n"
    plain, _ = _plain_and_tool(tmp_path / "r", "raises_in_operation.py")
    assert plain.returncode == 1 and plain.stderr.endswith(
        "OverflowError: Python integer 300 out of bounds for uint8\n"
    )
    plain, _ = _plain_and_tool(tmp_path / "e", "exits.py")
    assert (plain.returncode, plain.stderr) == (1, "done with int64\n")


def test_tracebacks_have_no_frame_of_the_tool(tmp_path):
    for program in ("raises.py", "raises_in_operation.py"):
        plain, tooled = _plain_and_tool(tmp_path / program[:-3], program)
        assert "Traceback (most recent call last):" in tooled.stderr
        assert "array_api_promo" not in tooled.program_stderr() and "_array_api_promo_" not in tooled.stderr
        assert tooled.program_stderr() == plain.stderr


def test_warnings_of_the_program_and_of_other_threads_are_kept(tmp_path):
    plain, tooled = _plain_and_tool(tmp_path, "program_warnings.py")
    assert tooled.returncode == plain.returncode == 0
    assert tooled.stdout == plain.stdout
    # the thread's 200 warnings interleave with the main thread's as they happen to: compared as sets of lines
    assert sorted(tooled.program_stderr().splitlines()) == sorted(plain.stderr.splitlines())
    assert plain.stderr.count("UserWarning: from the thread") == 200
    assert "('DeprecationWarning', 'deprecated() is deprecated', 28)" in plain.stdout.decode()
    assert "RuntimeWarning: overflow encountered in scalar multiply" in plain.stderr


# -- the warnings ----------------------------------------------------------------------------------
DIFFERS = {
    7: "float32 array * NumPy float64 1.5: float32 under NumPy 1.x, float64 under NumPy 2",
    8: "NumPy float32 3.0 + Python float 3.0: float64 under NumPy 1.x, float32 under NumPy 2",
    12: "float32 array + NumPy float64 0.0: float32 under NumPy 1.x, float64 under NumPy 2",
}


def _warnings(stderr: str) -> dict:
    found = {}
    for line in stderr.splitlines():
        match = re.match(r"^(.*):(\d+): NEP50Warning: (.*)$", line)
        if match:
            found[(pathlib.Path(match.group(1)).name, int(match.group(2)))] = match.group(3)
    return found


def test_each_warning_arrives_at_its_line_once(tmp_path):
    _, tooled = _plain_and_tool(tmp_path, "differs.py")
    assert _warnings(tooled.stderr) == {("differs.py", line): text for line, text in DIFFERS.items()}
    assert tooled.stderr.count("NEP50Warning") == 3  # line 12 runs three times: once by the default filter
    assert tooled.stderr.splitlines()[-1] == "array_api_promo.nep50: 3 lines, 5 calls differ from numpy_legacy"


def test_edges_of_a_real_library(tmp_path):
    """Big-endian operands are compared; a read-only target refused by both, and a warning the program's
    filters made an error, are no difference; a finalizer at shutdown runs as plainly."""
    plain, tooled = _plain_and_tool(tmp_path, "edges.py")
    assert plain.stdout.endswith(b"finalized 6\n") and tooled.stdout == plain.stdout
    assert set(_warnings(tooled.stderr)) == {("edges.py", 10), ("edges.py", 11)}


def test_error_filter_fails_the_run_at_the_first_line(tmp_path):
    plain, tooled = _plain_and_tool(tmp_path, "differs.py", args=())
    folder = tmp_path / "again"
    folder.mkdir()
    shutil.copy(PROGRAMS / "differs.py", folder)
    command = [*RUNNER, "--", sys.executable, "-W", "error::array_api_promo.NEP50Warning", "differs.py"]
    failed = _run(folder, command, "differs.py")
    assert plain.returncode == 0 and failed.returncode == 1
    assert failed.stdout == b""
    text = failed.program_stderr()
    assert 'differs.py", line 7, in <module>' in text
    assert text.rstrip().endswith(f"array_api_promo.NEP50Warning: {DIFFERS[7]}")
    # PYTHONWARNINGS too, inherited by every process of the program
    env = dict(ENV, PYTHONWARNINGS="error::array_api_promo.NEP50Warning")
    failed = _run(folder, [*RUNNER, "--", sys.executable, "differs.py"], "differs.py", env=env)
    assert failed.returncode == 1 and f"array_api_promo.NEP50Warning: {DIFFERS[7]}" in failed.stderr


def test_ignore_filter_silences_it_and_other_rules_can_be_named(tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    shutil.copy(PROGRAMS / "differs.py", folder)
    quiet = [*RUNNER, "--", sys.executable, "-W", "ignore::array_api_promo.NEP50Warning", "differs.py"]
    done = _run(folder, quiet, "differs.py")
    assert done.returncode == 0 and _warnings(done.stderr) == {}
    torch = _run(folder, [*RUNNER, "--against", "torch", "--", sys.executable, "differs.py"], "differs.py")
    assert torch.returncode == 0
    # torch: a float64 0-d operand does not widen a float32 tensor, as NumPy 1.x; a NumPy scalar is a Python float
    assert set(_warnings(torch.stderr)) == {("differs.py", 7), ("differs.py", 12)}
    assert all("under torch" in text for text in _warnings(torch.stderr).values())


def test_json_and_markdown_reports_from_the_same_records(tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    shutil.copy(PROGRAMS / "differs.py", folder)
    command = [*RUNNER, "--json", "out.json", "--markdown", "out.md", "--", sys.executable, "differs.py"]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600, env=ENV)
    assert done.returncode == 0, done.stderr
    report = json.loads((folder / "out.json").read_text())
    assert [(r["file"], r["line"], r["count"]) for r in report["records"]] == [
        ("differs.py", 12, 3),
        ("differs.py", 7, 1),
        ("differs.py", 8, 1),
    ]
    assert report["against"] == ["numpy_legacy"] and report["uncompared"] == {}
    text = (folder / "out.md").read_text()
    assert "3 sites, 3 rules, 5 calls." in text and "python -m array_api_promo.nep50 --json out.json" in text


def test_a_missing_program_is_reported_as_such(tmp_path):
    for tool in (RUNNER, AUDIT):
        done = subprocess.run(
            [*tool, "--", sys.executable, "missing.py"], cwd=tmp_path, capture_output=True, text=True, env=ENV
        )
        assert done.returncode == 2
        assert "can't open file" in done.stderr and "program not found:" in done.stderr
        assert "missing.py (nothing was compared)" in done.stderr
        assert "no call differs" not in done.stderr and "differ from" not in done.stderr
    done = subprocess.run([*RUNNER, "--", "no-such-program"], cwd=tmp_path, capture_output=True, text=True, env=ENV)
    assert done.returncode == 2 and "program not found: no-such-program" in done.stderr


def test_a_program_without_python_is_said_to_compare_nothing(tmp_path):
    done = subprocess.run([*RUNNER, "--", "true"], cwd=tmp_path, capture_output=True, text=True, env=ENV)
    assert done.returncode == 1
    assert "no Python process of the program ran under the tool (nothing was compared)" in done.stderr


# -- the environment variable and subprocesses -------------------------------------------------------
def test_the_environment_variable_reaches_subprocesses(tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    shutil.copy(PROGRAMS / "differs.py", folder)
    (folder / "parent.py").write_text(
        "import subprocess, sys\nsubprocess.run([sys.executable, 'differs.py'], check=True)\nprint('parent done')\n"
    )
    site = subprocess.run([*RUNNER, "--site"], capture_output=True, text=True, env=ENV, check=True).stdout.strip()
    assert site.endswith(os.path.join("array_api_promo", "_site"))
    env = dict(ENV, ARRAY_API_PROMO_NEP50="numpy1", PYTHONPATH=os.pathsep.join([site, ENV["PYTHONPATH"]]))
    done = subprocess.run([sys.executable, "parent.py"], cwd=folder, capture_output=True, text=True, env=env)
    assert done.returncode == 0 and done.stdout == "float64\nfloat32\nuint8\nuint8\nfloat64\nparent done\n"
    assert set(_warnings(done.stderr)) == {("differs.py", line) for line in DIFFERS}


# -- pytest ----------------------------------------------------------------------------------------
TEST_MODULE = textwrap.dedent(
    """
    import numpy as np
    from helpers import scale

    def test_differs():
        x = np.ones(2, dtype=np.float32)
        assert (x * np.float64(2)).dtype == np.float64

    def test_differs_in_a_helper():
        assert scale(np.ones(2, dtype=np.float32), np.float64(0.5)).dtype == np.float64

    def test_agrees():
        assert (np.ones(2, dtype=np.float32) * 2.0).dtype == np.float32
    """
)


def _pytest_folder(tmp_path) -> pathlib.Path:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "test_things.py").write_text(TEST_MODULE)
    (folder / "helpers.py").write_text("def scale(x, by):\n    return x * by\n")
    return folder


def _pytest(folder, *args, env=None, tool=()):
    command = [*tool, sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", *args]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600, env=env or ENV)


def test_the_pytest_plugin_warns_and_filterwarnings_fails_the_tests(tmp_path):
    folder = _pytest_folder(tmp_path)
    plain = _pytest(folder)
    assert plain.returncode == 0 and "3 passed" in plain.stdout and "NEP50Warning" not in plain.stdout
    warned = _pytest(folder, "-p", "array_api_promo.nep50")
    assert warned.returncode == 0 and "3 passed, 2 warnings" in warned.stdout
    assert "test_things.py:7: NEP50Warning: float32 array * NumPy float64 2.0" in warned.stdout
    assert "helpers.py:2: NEP50Warning: float32 array * NumPy float64 0.5" in warned.stdout
    failing = _pytest(folder, "-p", "array_api_promo.nep50", "-W", "error::array_api_promo.NEP50Warning")
    assert failing.returncode == 1 and "2 failed, 1 passed" in failing.stdout
    assert "FAILED test_things.py::test_differs - array_api_promo.NEP50Warning" in failing.stdout
    (folder / "pytest.ini").write_text("[pytest]\nfilterwarnings =\n    error::array_api_promo.NEP50Warning\n")
    failing = _pytest(folder, "-p", "array_api_promo.nep50")
    assert failing.returncode == 1 and "2 failed, 1 passed" in failing.stdout
    # pytest's own frames and ours: none of the tool's in the failure's traceback
    assert "_array_api_promo_" not in failing.stdout and "numpy_helpers.py" not in failing.stdout


def test_the_nep50_option_of_the_installed_plugin(tmp_path):
    folder = _pytest_folder(tmp_path)
    # as the installed entry point loads it: the module registered under its name, off until --nep50
    loaded = _pytest(folder, env=dict(ENV, PYTEST_PLUGINS="array_api_promo.nep50"))
    assert "2 warnings" in loaded.stdout  # PYTEST_PLUGINS names it: on, as -p
    off = _pytest(folder, "-p", "tests_entry_point_stand_in", env=_entry_point_env(tmp_path))
    assert off.returncode == 0 and "NEP50Warning" not in off.stdout
    on = _pytest(folder, "-p", "tests_entry_point_stand_in", "--nep50", env=_entry_point_env(tmp_path))
    assert on.returncode == 0 and "3 passed, 2 warnings" in on.stdout and "NEP50Warning" in on.stdout
    against = _pytest(folder, "-p", "tests_entry_point_stand_in", "--nep50=torch", env=_entry_point_env(tmp_path))
    assert "under torch" in against.stdout


def _entry_point_env(tmp_path) -> dict:
    """A plugin that registers the entry point's module as pytest does (array_api_promo_pytest, under the
    name array_api_promo.nep50), for a checkout that is not installed."""
    stand_in = tmp_path / "entry"
    stand_in.mkdir(exist_ok=True)
    (stand_in / "tests_entry_point_stand_in.py").write_text(
        "import array_api_promo_pytest as plugin\n\n"
        "def pytest_addhooks(pluginmanager):\n"
        "    pluginmanager.register(plugin, 'array_api_promo.nep50')\n"
    )
    return dict(ENV, PYTHONPATH=os.pathsep.join([str(stand_in), ENV["PYTHONPATH"]]))


def test_no_bytecode_cache_holds_the_rewrite(tmp_path):
    folder = _pytest_folder(tmp_path)
    env = {k: v for k, v in ENV.items() if k != "PYTHONDONTWRITEBYTECODE"}  # caches written, as by default
    first_plain = _pytest(folder, env=env)
    audited = _pytest(folder, env=env, tool=(*RUNNER, "--"))
    assert audited.returncode == 0 and "3 passed" in audited.stdout
    assert _warnings(audited.stderr + audited.stdout)
    for pyc in folder.rglob("*.pyc"):
        assert b"__array_api_promo_audit__" not in pyc.read_bytes(), pyc
    second_plain = _pytest(folder, env=env)
    assert _timeless(second_plain.stdout) == _timeless(first_plain.stdout)
    # and the other way round: a cache a plain run wrote is not what the tool runs (the plugin, too)
    again = _pytest(folder, env=env, tool=(*RUNNER, "--"))
    plugin = _pytest(folder, "-p", "array_api_promo.nep50", env=env)
    assert _warnings(plugin.stdout) == _warnings(audited.stdout)
    assert _warnings(again.stderr + again.stdout) == _warnings(audited.stderr + audited.stdout)
    pytest_pycs = list(folder.rglob("*pytest*.pyc"))
    assert pytest_pycs  # the plain runs cached pytest's rewriting of the test module, as they do
    for pyc in folder.rglob("*.pyc"):
        assert b"__array_api_promo_audit__" not in pyc.read_bytes(), pyc


def _timeless(text: str) -> str:
    return re.sub(r" in \d+\.\d+s", "", text)


def test_the_readme_lines(tmp_path):
    """The README's three lines, run in a project whose tests have two lines NEP 50 changed."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("<!-- nep50-lines: run by tests/test_nep50.py -->\n```bash\n", 1)[1].split("```", 1)[0]
    lines = [line.split("  #", 1)[0].strip() for line in block.splitlines()]
    assert len(lines) == 3
    folder = _pytest_folder(tmp_path)
    site = str(ROOT / "array_api_promo" / "_site")
    results = []
    for line in lines:
        env = dict(ENV)
        words = line.split()
        while "=" in words[0]:  # NAME=value before the command
            name, _, value = words.pop(0).partition("=")
            env[name] = value
            # the package is a checkout here, not installed: the site hook stands for the installed .pth line
            env["PYTHONPATH"] = os.pathsep.join([site, ENV["PYTHONPATH"]])
        command = [sys.executable if w == "python" else w for w in words]
        results.append(subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600, env=env))
    runner, strict, environment = results
    assert runner.returncode == 0 and "3 passed, 2 warnings" in runner.stdout
    assert set(_warnings(runner.stdout)) == {("test_things.py", 7), ("helpers.py", 2)}
    assert strict.returncode == 1 and "2 failed, 1 passed" in strict.stdout
    assert environment.returncode == 0 and set(_warnings(environment.stdout)) == set(_warnings(runner.stdout))


def test_the_entry_point_is_the_small_module_and_loads_nothing_else():
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["entry-points"]["pytest11"] == {"array_api_promo.nep50": "array_api_promo_pytest"}
    assert project["tool"]["setuptools"]["py-modules"] == ["array_api_promo_pytest"]
    code = "import sys, array_api_promo_pytest; print(sorted(m for m in sys.modules if m.startswith(('numpy', 'array_api'))))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, check=True)
    assert done.stdout == "['array_api_promo_pytest']\n"


def test_the_nibabel_measurement_as_committed():
    """docs/audits/nep50-nibabel.md: the warning mode against NumPy 1.26.4's weak_and_warn on nibabel's tests,
    each disagreement judged with both real NumPys (the committed records and judgements)."""
    folder = ROOT / "docs" / "audits" / "nep50-nibabel"
    command = [sys.executable, str(ROOT / "tools" / "nep50_measure.py"), "--package", "nibabel"]
    command += ["--weak-and-warn", str(folder / "weak-and-warn-1.26.4.json")]
    command += ["--warning-mode", str(folder / "warning-mode-2.4.6.json")]
    command += ["--judged", str(folder / "judged-1.26.4.json"), str(folder / "judged-2.4.6.json")]
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=ENV)
    lines = done.stdout.splitlines()
    assert "both: 70; weak_and_warn only: 4; the warning mode only: 4" in lines
    assert "the warning mode: precision 100.0%, recall 100.0%" in lines
    assert "weak_and_warn: precision 94.6%, recall 94.6%" in lines
    judged = [json.loads((folder / f"judged-{v}.json").read_text())["numpy"] for v in ("1.26.4", "2.4.6")]
    assert judged == ["1.26.4", "2.4.6"]
    report = (ROOT / "docs" / "audits" / "nep50-nibabel.md").read_text()
    assert "| the warning mode (NumPy 2.4.6) | 74 | 74 | **100.0%** | **100.0%** |" in report
