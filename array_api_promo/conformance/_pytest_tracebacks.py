"""A pytest plugin (loaded with ``-p array_api_promo.conformance._pytest_tracebacks``) that makes
formatting a failure cheap without changing a character of it.

To show the statement of every traceback entry, pytest parses the entry's whole source file with
``ast.parse`` and walks the tree (``getstatementrange_ast``); it keeps the tree only for the one
traceback it is formatting. Hypothesis formats each distinct failure it meets while generating,
and pytest formats the final one again, so a run of the suite under an intentional policy (torch:
72 failing tests, each traceback passing through the suite's 2,000-line test modules) spent about
a fifth of its time parsing the same files again (py-spy, 2026-11-27).

The statement range is a pure function of the file's text, the line and ``assertion``, so it is
remembered per process under those three: the report is the same, byte for byte.
"""

from __future__ import annotations

from _pytest._code import code as _code, source as _source

_computed = _source.getstatementrange_ast
_by_text: dict[str, dict] = {}  # file text -> {"tree": its AST, (line, assertion): (tree, start, end)}


def getstatementrange_ast(lineno, source, assertion=False, astnode=None):
    known = _by_text.setdefault("\n".join(source.lines), {})
    found = known.get((lineno, assertion))
    if found is None:
        found = _computed(lineno, source, assertion, known.get("tree") if astnode is None else astnode)
        known["tree"] = found[0]
        known[lineno, assertion] = found
    return found


def pytest_configure(config):
    # pytest's traceback code imported the function by name; both homes get the remembering one.
    _code.getstatementrange_ast = getstatementrange_ast
    _source.getstatementrange_ast = getstatementrange_ast
