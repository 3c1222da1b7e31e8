"""The plugin that remembers pytest's statement ranges (``_pytest_tracebacks``): every run of the
suite loads it, and a failure's text is the same with it as without it."""

from __future__ import annotations

import ast
import inspect
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from _pytest._code import source as pytest_source

from array_api_promo.conformance import TRACEBACKS_PLUGIN, _pytest_tracebacks, runner, suite


def test_every_run_loads_it():
    info = suite.SuiteInfo(path=Path("/nonexistent"), suite_commit="unknown", spec_commit="unknown")
    cmd = runner.build_command(info, Path("r.json"), max_examples=2, seed=3, workers=1)
    assert cmd[cmd.index(TRACEBACKS_PLUGIN) - 1] == "-p" and _pytest_tracebacks.__name__ == TRACEBACKS_PLUGIN


def test_every_line_gets_pytests_own_range_and_each_text_is_parsed_once(monkeypatch):
    text = inspect.getsource(runner)  # a real module: nested blocks, decorators, strings
    src = pytest_source.Source(text)
    tree = ast.parse(text)
    parses = []
    real_parse = ast.parse
    monkeypatch.setattr(ast, "parse", lambda *a, **k: parses.append(1) or real_parse(*a, **k))
    monkeypatch.setattr(_pytest_tracebacks, "_by_text", {})
    for assertion in (False, True):
        for lineno in range(0, len(src.lines), 5):
            expected = _pytest_tracebacks._computed(lineno, src, assertion, tree)[1:]
            assert _pytest_tracebacks.getstatementrange_ast(lineno, src, assertion)[1:] == expected, lineno
            # again, from another Source of the same text (pytest makes a new one per traceback)
            again = _pytest_tracebacks.getstatementrange_ast(lineno, pytest_source.Source(text), assertion)
            assert again[1:] == expected
    assert len(parses) == 1


FAILING = textwrap.dedent(
    """
    import pytest
    from hypothesis import given, settings, strategies as st


    def helper(x):
        if x > 2:
            raise ValueError(
                f"too big: {x}"
            )
        return x


    @settings(database=None, derandomize=True)
    @given(st.integers(0, 10))
    def test_hypothesis(x):
        assert helper(x) < 3


    @pytest.mark.parametrize("n", [1, 2])
    def test_plain(n):
        for i in range(3):
            helper(i + n)


    class TestNested:
        def test_assert(self):
            values = [1, 2, 3]
            assert sum(values) == (
                7
            )
    """
)


def test_failures_read_the_same_with_it(tmp_path):
    (tmp_path / "test_failing.py").write_text(FAILING)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}

    def run(*plugin):
        out = subprocess.run(
            [sys.executable, "-m", "pytest", "test_failing.py", "-p", "no:cacheprovider", *plugin, "--tb=long", "-q"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
        ).stdout
        out = re.sub(r" at 0x[0-9a-f]+", " at 0x?", out)  # addresses differ from run to run
        return [line for line in out.splitlines() if " in " not in line or "failed" not in line]  # not the timing

    plain = run()
    remembered = run("-p", TRACEBACKS_PLUGIN)
    assert sum("Error" in line for line in plain) >= 4  # the failures were formatted
    assert remembered == plain
