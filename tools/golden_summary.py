#!/usr/bin/env python
"""Print the table of every promotion system: policy, library and version, golden records, generator.

Run:  python tools/golden_summary.py           (print it)
      python tools/golden_summary.py --write   (replace it in README.md and docs/policies/index.md)

It reads the committed golden tables in ``tests/data/`` (never the libraries themselves):
a table's library version is the one its generator recorded in it, and its size is the
number of records it holds (every operand mix, call or conversion it pinned down, in any
section). ``tests/test_docs.py`` checks that the table in README.md and in
docs/policies/index.md is exactly what this prints, so neither can drift from the data.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"

# policy -> (library, golden files' name prefixes). The files say which version made them.
SYSTEMS = {
    "array_api": ("the standard's text (spec)", ["array_api_spec_"]),
    "torch, torch@2.13": ("PyTorch", ["torch_"]),
    "numpy, numpy@2.4": ("NumPy 2", ["numpy_2."]),
    "numpy_legacy": ("NumPy 1.x", ["numpy_1."]),
    "jax, jax_x64": ("JAX", ["jax_promotion"]),
    "jax_explicit_x64": ("JAX (explicit-x64 mode)", ["jax_explicit_x64_"]),
    "megengine": ("MegEngine", ["megengine_"]),
    "paddle": ("PaddlePaddle", ["paddle_"]),
    "mlx": ("MLX", ["mlx_"]),
}


def records(node) -> int:
    """The records of a golden table: the dicts held in its lists, at any depth, and the
    entries of its ``pairs`` tables (the standard's dtype pairs)."""
    if isinstance(node, list):
        return sum(1 if isinstance(item, dict) else records(item) for item in node)
    if isinstance(node, dict):
        return sum(len(value) if key == "pairs" else records(value) for key, value in node.items())
    return 0


def versions(doc: dict) -> set[str]:
    found = {key for key in doc if key[:4].isdigit() and key[4:5] == "."}  # the standard's versions
    for key, value in doc.items():
        if key.endswith("_version") and key != "jaxlib_version" and isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            found |= {
                v for k, v in value.items() if k.endswith("_version") and k != "jaxlib_version" and isinstance(v, str)
            }
    return found


def rows():
    for policy, (library, prefixes) in SYSTEMS.items():
        files = sorted(f for f in DATA.glob("*.json") if any(f.name.startswith(p) for p in prefixes))
        if not files:
            continue
        docs = {f: json.loads(f.read_text(encoding="utf-8")) for f in files}
        found = sorted(set().union(*(versions(d) for d in docs.values())))
        generators = sorted({d.get("generator", "") for d in docs.values()} - {""})
        yield (
            f"`{policy}`",
            library,
            ", ".join(found) or "—",
            f"{sum(records(d) for d in docs.values()):,}",
            ", ".join(f"`{g.split()[0]}`" for g in generators),
        )


def table() -> str:
    head = ("policy", "library", "version(s)", "golden records", "regenerate with")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows()]
    return "\n".join(lines) + "\n"


PAGES = [ROOT / "README.md", ROOT / "docs" / "policies" / "index.md"]
BLOCK = re.compile(r"(<!-- golden-summary: [^>]*-->\n)(.*?)(<!-- /golden-summary -->)", re.S)


def write() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        page.write_text(BLOCK.sub(lambda m: m.group(1) + table() + m.group(3), text), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
    else:
        sys.stdout.write(table())
