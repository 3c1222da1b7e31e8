"""What produced a set of results: the package version and a hash of its source.

The hash covers every Python module of ``array_api_promo`` (path and
``ast.dump`` of its parsed source, in path order), so reformatting and comments
do not change it while any change of code, docstrings included, does. ``ast.dump``
differs between Python minor versions, so the hash is recorded with the Python
version that computed it and only compared under that version.
"""

from __future__ import annotations

import ast
import hashlib
import platform
from pathlib import Path

from . import REPO_ROOT

PACKAGE = "array_api_promo"


def python_version() -> str:
    return ".".join(platform.python_version_tuple()[:2])


def source_hash(package_dir: Path = REPO_ROOT / PACKAGE) -> str:
    """sha256 over (relative path, ``ast.dump``) of every ``*.py`` under ``package_dir``, and
    (relative path, text) of every ``*.c`` (the compiled fast paths). The harness itself
    (``conformance/``) is not the namespace under test and is left out."""
    digest = hashlib.sha256()
    root = Path(package_dir)
    sources = [p for p in root.rglob("*.py") if p.relative_to(root).parts[0] != "conformance"]
    for path in sorted(sources, key=lambda p: p.relative_to(root).as_posix()):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        digest.update(rel.encode() + b"\0" + ast.dump(tree).encode() + b"\0")
    for path in sorted(root.rglob("*.c"), key=lambda p: p.relative_to(root).as_posix()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(PACKAGE)
    except PackageNotFoundError:  # run from a checkout that is not installed
        import re

        m = re.search(r'^version = "([^"]+)"', (REPO_ROOT / "pyproject.toml").read_text(), re.MULTILINE)
        return m.group(1) if m else "unknown"


def package_provenance() -> dict:
    """{'package_version', 'source_sha256', 'source_python'} for results files."""
    return {"package_version": package_version(), "source_sha256": source_hash(), "source_python": python_version()}
