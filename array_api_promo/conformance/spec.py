"""Quoting the specification: docstrings of the spec stubs
(``array-api/src/array_api_stubs/_<version>/``) and sections of its rst files."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from .normalize import elementwise_name


def stubs_dir(spec_dir: Path, version: str) -> Path:
    return Path(spec_dir) / "src" / "array_api_stubs" / ("_" + version.replace(".", "_"))


@cache
def _docstrings(stub_dir: str) -> dict:
    out: dict[str, str] = {}
    d = Path(stub_dir)
    if not d.is_dir():
        return out
    for f in sorted(d.glob("*.py")):
        if f.name.startswith("_") and f.name != "__init__.py":
            continue
        prefix = {"linalg.py": "linalg.", "fft.py": "fft.", "info.py": "info."}.get(f.name, "")
        try:
            tree = ast.parse(f.read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                doc = ast.get_docstring(node)
                if doc:
                    out.setdefault(prefix + node.name, doc)
                    if prefix == "info.":
                        out.setdefault("__array_namespace_info__()." + node.name, doc)
            elif isinstance(node, ast.ClassDef) and node.name == "_array":
                for sub in node.body:
                    if isinstance(sub, ast.FunctionDef):
                        doc = ast.get_docstring(sub)
                        if doc:
                            out.setdefault("array." + sub.name, doc)
    return out


def docstring(spec_dir: Path, version: str, name: str) -> str | None:
    docs = _docstrings(str(stubs_dir(spec_dir, version)))
    candidates = [name]
    if name.startswith("__") and not name.startswith("__array_namespace_info__"):
        candidates += ["array." + name, elementwise_name(name)]
    elif name.startswith("array."):
        candidates += [elementwise_name(name[len("array.") :])]
    for c in candidates:
        if c in docs:
            return docs[c]
    return None


_SECTION = re.compile(r"^(?P<title>[^\n]+)\n-{3,}\n", re.M)


def doc_sections(doc: str) -> dict:
    """Split a numpydoc docstring into {'summary': ..., 'Returns': ..., ...}."""
    out = {}
    matches = list(_SECTION.finditer(doc))
    out["summary"] = doc[: matches[0].start()].strip() if matches else doc.strip()
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(doc)
        out[m.group("title").strip()] = doc[m.end() : end].strip()
    return out


def summary_and_returns(spec_dir: Path, version: str, name: str) -> str | None:
    doc = docstring(spec_dir, version, name)
    if not doc:
        return None
    sec = doc_sections(doc)
    parts = [sec["summary"].split("\n\n")[0]]
    params = sec.get("Parameters", "")
    m = re.search(r"^dtype:[^\n]*\n((?:[ \t]+[^\n]*\n?|\n(?=[ \t]))+)", params, re.M)
    if m:
        parts.append("Parameter `dtype`: " + _flatten(m.group(1)))
    ret = sec.get("Returns")
    if ret:
        parts.append("Returns: " + _flatten("\n".join(ret.splitlines()[1:])))
    return "\n\n".join(p for p in parts if p)


def _flatten(text: str) -> str:
    """Unwrap the stub's lines into paragraphs (a blank line between them) and list items
    (``- item``, one a line), as a person reads them."""
    text = re.sub(r"\.\. (versionadded|versionchanged)::.*", "", text)
    text = text.replace(".. note::", "Note:")
    blocks: list[str] = []
    fresh = True  # the next text line starts a new block
    for line in text.splitlines():
        line = line.strip()
        if not line:
            fresh = True
            continue
        item = re.match(r"-\s+(.*)", line)
        if item:
            blocks.append("- " + item.group(1))
        elif fresh or not blocks:
            blocks.append(("\n" if blocks else "") + line)
        else:
            blocks[-1] += " " + line
        fresh = False
    return "\n".join(blocks).strip()


def rst_section(spec_dir: Path, version: str, rst: str, heading: str) -> str | None:
    """The body of the section titled ``heading`` in ``spec/<version>/API_specification/<rst>``."""
    path = Path(spec_dir) / "spec" / version / "API_specification" / rst
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    m = re.search(r"^" + re.escape(heading) + r"\n[~=\-^]{3,}\n", text, re.M)
    if not m:
        return None
    rest = text[m.end() :]
    nxt = re.search(r"^\S[^\n]*\n[~=\-^]{3,}\n", rest, re.M)
    body = rest[: nxt.start()] if nxt else rest
    return clean_rst(body)


def clean_rst(text: str) -> str:
    """Drop rst comments, labels, images and grid tables; turn notes into plain text."""
    out = []
    skipping = False
    for line in text.splitlines():
        if skipping:
            if line.strip() == "" or line.startswith((" ", "\t")):
                continue
            skipping = False
        s = line.strip()
        if (
            s == ".."
            or s.startswith(".. _")
            or s.startswith(".. image::")
            or (s.startswith("..") and not s.startswith(".. note::") and "::" not in s)
        ):
            skipping = True
            continue
        if s.startswith(("+-", "+=", "|")):
            continue
        if s.startswith(".. note::"):
            out.append("**Note:**" + s[len(".. note::") :])
            continue
        if s.startswith(":target:"):
            continue
        out.append(line[3:] if line.startswith("   ") and out and out[-1].startswith("**Note:**") else line)
    text = "\n".join(out)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip()


_FLATTENED_ITEM = re.compile(r"\s+-\s{2,}(?=\S)")  # an RST list item ("-   if ...") run into its paragraph


def quote(text: str) -> str:
    """Markdown block quote; the spec's lists stay lists."""
    text = _FLATTENED_ITEM.sub("\n- ", text.strip())
    text = re.sub(r"(?m)^-\s{2,}(?=\S)", "- ", text)
    return "\n".join(("> " + ln).rstrip() for ln in text.splitlines())
