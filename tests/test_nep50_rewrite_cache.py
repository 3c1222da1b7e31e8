"""The rewritten modules' own cache: a second run reuses it, a changed source is rewritten again, a plain
run never loads from it, and a cache that cannot be written or read changes nothing of the program.

Each program runs under ``python -m array_api_promo.nep50`` with ``ARRAY_API_PROMO_REWRITE_CACHE``
naming a folder of the test; the program reports the cache's counts of its process
(:func:`array_api_promo.audit.rewrite_cache.counts`) where a test needs them, else the entries'
files say whether they were rewritten.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from array_api_promo.audit.rewrite_cache import ENV_CACHE, RewriteCache, default_directory

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
PROGRAMS = HERE / "data" / "nep50"
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
for _name in ("ARRAY_API_PROMO_NEP50", "ARRAY_API_PROMO_NUMPY_AUDIT", "PYTHONWARNINGS", "PYTEST_ADDOPTS", ENV_CACHE):
    ENV.pop(_name, None)
RUNNER = [sys.executable, "-m", "array_api_promo.nep50", "--"]
MARKER = b"__array_api_promo_audit__"  # the helpers' name: in every rewritten module's code

MAIN = """\
import numpy as np
import helper
print(helper.scale(np.ones(2, dtype=np.float32), np.float64(2)).dtype)
if helper.SHOW_COUNTS:
    from array_api_promo.audit.rewrite_cache import counts
    found = counts()
    print(found["hits"], found["compiled"], found["written"], found["failed"])
"""
HELPER = "SHOW_COUNTS = True\n\ndef scale(x, by):\n    return x * by\n"


def _project(tmp_path) -> pathlib.Path:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "main.py").write_text(MAIN)
    (folder / "helper.py").write_text(HELPER)
    return folder


def _run(folder, cache, *, tool=True, env=None):
    environment = dict(env or ENV)
    if cache is not None:
        environment[ENV_CACHE] = str(cache)
    command = [*(RUNNER if tool else []), sys.executable, "main.py"]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600, env=environment)


def _counts(done) -> tuple[int, ...]:
    """hits, compiled, written, failed: the program's last line."""
    return tuple(int(n) for n in done.stdout.splitlines()[-1].split())


def test_a_second_run_uses_the_cache(tmp_path):
    folder, cache = _project(tmp_path), tmp_path / "cache"
    first = _run(folder, cache)
    assert first.returncode == 0 and first.stdout.splitlines()[0] == "float64"
    assert _counts(first) == (0, 2, 2, 0)  # main.py and helper.py rewritten, and kept
    entries = sorted(cache.glob("*.bin"))
    assert len(entries) == 2 and all(e.suffix == ".bin" for e in entries)
    second = _run(folder, cache)
    assert _counts(second) == (2, 0, 0, 0)
    assert second.stderr == first.stderr  # the same warning, at the same line
    assert "helper.py:4: NEP50Warning: float32 array * NumPy float64 2.0" in second.stderr
    off = _run(folder, "off")
    assert _counts(off) == (0, 2, 0, 0) and off.stderr == first.stderr


def test_a_changed_source_is_rewritten_again(tmp_path):
    folder, cache = _project(tmp_path), tmp_path / "cache"
    _run(folder, cache)
    helper = folder / "helper.py"
    before = helper.stat()
    # the same size and the same modification time: the entry is checked against the source itself
    helper.write_text(HELPER.replace("x * by", "x / by"))
    os.utime(helper, ns=(before.st_atime_ns, before.st_mtime_ns))
    changed = _run(folder, cache)
    assert _counts(changed) == (1, 1, 1, 0)
    assert "helper.py:4: NEP50Warning: float32 array / NumPy float64 2.0" in changed.stderr
    assert len(list(cache.glob("*.bin"))) == 2  # the entry replaced, not one more
    assert _counts(_run(folder, cache)) == (2, 0, 0, 0)


def test_a_plain_run_never_loads_rewritten_code(tmp_path):
    folder, cache = _project(tmp_path), tmp_path / "cache"
    env = {k: v for k, v in ENV.items() if k != "PYTHONDONTWRITEBYTECODE"}  # __pycache__ written, as by default
    plain = _run(folder, None, tool=False, env=env)
    tooled = _run(folder, cache, env=env)
    assert MARKER in b"".join(e.read_bytes() for e in cache.iterdir())  # the rewrite is in the tool's cache
    again = _run(folder, None, tool=False, env=env)
    assert again.stdout == plain.stdout and again.stderr == plain.stderr == ""
    assert "NEP50Warning" in tooled.stderr
    pycs = list(folder.rglob("*.pyc"))
    assert pycs  # the plain runs cached helper.py, as Python does
    for pyc in pycs:
        assert MARKER not in pyc.read_bytes(), pyc
    assert not any(p.suffix == ".pyc" for p in cache.iterdir())
    # the default folder is no __pycache__ and on no import path of Python's
    assert "__pycache__" not in pathlib.Path(default_directory()).parts


@pytest.mark.parametrize("kind", ["a file where the folder would be", "damaged entries"])
def test_a_cache_that_fails_changes_nothing(tmp_path, kind):
    folder = _project(tmp_path)
    reference = _run(folder, "off")
    if kind == "damaged entries":
        cache = tmp_path / "cache"
        _run(folder, cache)
        for entry in cache.iterdir():
            entry.write_bytes(entry.read_bytes()[:40] + b"not marshal data")
        expected = (0, 2, 2, 0)  # rewritten again and replaced
    else:
        cache = tmp_path / "a-file" / "cache"
        (tmp_path / "a-file").write_text("")
        expected = (0, 2, 0, 2)  # neither read nor written: each module as without a cache
    done = _run(folder, cache)
    assert done.returncode == reference.returncode == 0
    assert done.stdout.splitlines()[:-1] == reference.stdout.splitlines()[:-1]
    assert done.stderr == reference.stderr  # not a word about the cache
    assert _counts(done) == expected


# the programs of test_nep50's byte-for-byte comparison, their second run from the cache
PROGRAMS_RUN_TWICE = ["mangled.py", "raises.py", "raises_in_operation.py", "exits.py", "language.py", "differs.py"]


@pytest.mark.parametrize("program", PROGRAMS_RUN_TWICE)
def test_the_program_runs_from_the_cache_as_plainly(tmp_path, program):
    folder, cache = tmp_path / "program", tmp_path / "cache"
    folder.mkdir()
    shutil.copy(PROGRAMS / program, folder / program)
    env = dict(ENV, **{ENV_CACHE: str(cache)})

    def run(command):
        return subprocess.run(command, cwd=folder, capture_output=True, timeout=600, env=env)

    plain = run([sys.executable, program])
    first = run([*RUNNER, sys.executable, program])
    entries = {e: (e.stat().st_ino, e.stat().st_mtime_ns) for e in cache.iterdir()}
    assert entries
    second = run([*RUNNER, sys.executable, program])
    assert {e: (e.stat().st_ino, e.stat().st_mtime_ns) for e in cache.iterdir()} == entries  # read, not rewritten
    assert second.stdout == first.stdout == plain.stdout
    assert second.stderr == first.stderr and second.returncode == first.returncode == plain.returncode


def test_pytest_test_modules_are_kept_apart_from_pytests_own_cache(tmp_path):
    """A test module pytest rewrites the asserts of: kept with pytest's version in its key, reused."""
    folder, cache = tmp_path / "project", tmp_path / "cache"
    folder.mkdir()
    (folder / "test_things.py").write_text(
        "import numpy as np\n\ndef test_differs():\n    assert (np.ones(2, np.float32) * np.float64(2)).dtype == np.float64\n"
    )
    (folder / "conftest.py").write_text(
        "def pytest_unconfigure(config):\n"
        "    from array_api_promo.audit.rewrite_cache import counts\n"
        "    found = counts()\n"
        "    open('counts.txt', 'w').write(f\"{found['hits']} {found['compiled']}\")\n"
    )
    env = dict(ENV, **{ENV_CACHE: str(cache)})
    command = [*RUNNER, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
    runs, counts = [], []
    for _ in range(2):
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600, env=env)
        assert done.returncode == 0 and "1 passed, 1 warning" in done.stdout
        runs.append(done)
        counts.append((folder / "counts.txt").read_text())
    assert counts == ["0 2", "2 0"]  # conftest.py and test_things.py
    assert runs[1].stdout.splitlines()[:-1] == runs[0].stdout.splitlines()[:-1]  # all but the timing


def test_counts_without_a_folder():
    cache = RewriteCache(None)
    made = cache.code("x.py", b"x = 1\n", "", lambda: compile("x = 1\n", "x.py", "exec"))
    assert made.co_filename == "x.py"
    assert (cache.hits, cache.compiled, cache.written, cache.failed) == (0, 1, 0, 0)


def test_entries_not_rewritten_for_a_month_are_removed(tmp_path):
    folder, cache = _project(tmp_path), tmp_path / "cache"
    cache.mkdir()
    month_ago = os.stat(cache).st_mtime - 31 * 86400
    stale, recent = cache / ("0" * 40 + ".bin"), cache / ("1" * 40 + ".bin")
    stale.write_bytes(b"of a source deleted since")
    recent.write_bytes(b"of another project")
    os.utime(stale, (month_ago, month_ago))
    assert _counts(_run(folder, cache)) == (0, 2, 2, 0)
    assert not stale.exists() and recent.exists()
    assert len(list(cache.glob("*.bin"))) == 3
