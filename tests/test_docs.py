"""Every example in README.md and docs/ runs, and prints what the page says it prints.

* ```python blocks: doctest examples (``>>>``) are checked, with ``...`` matching anything
  (ELLIPSIS) and runs of white space alike; blocks without ``>>>`` are executed. The blocks
  of one page share their names, in page order, as a reader following the page would.
* ```console blocks: each ``$ command`` runs in a shell at the repository root and must exit 0
  (a page that shows a failing command writes ``; echo "exit $?"`` after it and shows the
  code), and its output must match the lines that follow it, with ``...`` matching anything.
  ``array-api-promo`` is run as ``python -m array_api_promo._cli`` of this interpreter.
* A block right after the line ``<!-- no-run: reason -->`` is shown only (a cluster address, a
  run of many minutes); ```bash blocks are commands to copy and are not run.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^(?P<skip><!-- no-run:[^>]*-->\n)?```(?P<lang>\w+)[^\n]*\n(?P<body>.*?)^```\s*$", re.M | re.S)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _blocks(page: Path, lang: str):
    text = page.read_text(encoding="utf-8")
    for m in FENCE.finditer(text):
        if m["lang"] == lang and not m["skip"]:
            yield text.count("\n", 0, m.start()) + 1, m["body"]


def _rel(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


PYTHON_PAGES = [p for p in PAGES if any(_blocks(p, "python"))]
CONSOLE_CASES = [(p, line, body) for p in PAGES for line, body in _blocks(p, "console")]


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=_rel)
def test_python_examples_of_a_page_run_as_shown(page, monkeypatch):
    monkeypatch.chdir(ROOT)
    namespace: dict = {"__name__": "__docs__"}
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=FLAGS)
    failures = []
    for line, body in _blocks(page, "python"):
        name = f"{_rel(page)}:{line}"
        if ">>>" in body:
            test = parser.get_doctest(body, namespace, name, str(page), line)
            out: list[str] = []
            result = runner.run(test, out=out.append, clear_globs=False)
            namespace.update(test.globs)  # a DocTest works on a copy of the names it is given
            if result.failed:
                failures.append("".join(out))
        else:
            exec(compile(body, name, "exec"), namespace)
    assert not failures, "\n".join(failures)


def _commands(body: str):
    """(command, expected output) pairs of a console block."""
    pairs: list[list] = []
    for text in body.splitlines():
        if text.startswith("$ "):
            pairs.append([text[2:], []])
        elif pairs:
            pairs[-1][1].append(text)
    return [(cmd, "\n".join(out).rstrip() + "\n" if out else "") for cmd, out in pairs]


@pytest.mark.parametrize("page,line,body", CONSOLE_CASES, ids=[f"{_rel(p)}:{n}" for p, n, _ in CONSOLE_CASES])
def test_console_examples_print_what_the_page_shows(page, line, body):
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb", "PYTHONPATH": str(ROOT)}
    bindir = Path(sys.executable).parent
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    checker = doctest.OutputChecker()
    for command, want in _commands(body):
        shell_command = re.sub(r"^array-api-promo\b", f"{sys.executable} -m array_api_promo._cli", command)
        got = subprocess.run(shell_command, shell=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        output = got.stdout + got.stderr
        if want:
            assert checker.check_output(want, output, FLAGS), (
                f"{_rel(page)}:{line}: `{command}` printed\n{output}\nwhere the page shows\n{want}"
            )
        assert got.returncode == 0, f"{_rel(page)}:{line}: `{command}` exited {got.returncode}:\n{output}"


SUMMARY = re.compile(r"<!-- golden-summary: [^>]*-->\n(.*?)<!-- /golden-summary -->", re.S)


@pytest.mark.parametrize("page", ["README.md", "docs/policies/index.md"])
def test_the_table_of_every_system_is_what_the_golden_tables_say(page):
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import golden_summary
    finally:
        sys.path.remove(str(ROOT / "tools"))
    shown = SUMMARY.findall((ROOT / page).read_text(encoding="utf-8"))
    assert shown == [golden_summary.table()], f"{page}: regenerate its table with python tools/golden_summary.py"
