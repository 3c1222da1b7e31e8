#!/usr/bin/env python
"""Parse the Array API standard's type promotion tables into
``tests/data/array_api_spec_promotion.json``.

Run:  python tools/gen_spec_golden.py [--spec-root PATH] [--versions 2021.12 ...]

``--spec-root`` is the ``spec/`` directory of a checkout of data-apis/array-api
(default: $ARRAY_API_TESTS_DIR/array-api/spec, else the harness cache conformance/.cache/array-api-tests/array-api/spec); the tables are read from
``<spec-root>/<version>/API_specification/type_promotion.rst``.

Output: ``{version: {"pairs": {"int8,uint8": "int16", ...}, "dtypes": [...], ...},
..., "generator": ..., "note": ...}`` (top-level keys other than versions are
metadata).  Every ordered pair present in a table is recorded in both
orders (the spec's tables are symmetric; the mixed signed/unsigned table lists one
direction only and is mirrored).  An absent pair means "no promotion" -- an
implementation of the standard alone must raise.  Abbreviations (i1, u1, f4, c8, ...)
are mapped via the "where" legends of the same file.  The spec has no table for
``bool``; its promotion diagram (and the standard's dtype lattice) makes
``bool, bool -> bool``; that single pair is added and listed under "derived_pairs".
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import sys

GENERATOR = "tools/gen_spec_golden.py"
DEFAULT_SPEC_ROOT = str(
    pathlib.Path(os.environ["ARRAY_API_TESTS_DIR"]) / "array-api" / "spec"
    if os.environ.get("ARRAY_API_TESTS_DIR")
    else pathlib.Path(__file__).resolve().parents[1]
    / "conformance"
    / ".cache"
    / "array-api-tests"
    / "array-api"
    / "spec"
)
VERSIONS = ["2021.12", "2022.12", "2023.12", "2024.12", "2025.12"]


def parse_legend(text: str) -> dict[str, str]:
    """Map abbreviations to dtype names from '-   **i1**: ... (i.e., ``int8``)' lines."""
    abbrev = {}
    # legend items may wrap onto following indented lines
    for m in re.finditer(r"^-\s+\*\*(\w+)\*\*:(.*?)(?=^-\s|^\S|\Z)", text, re.M | re.S):
        dm = re.search(r"\(i\.e\.,\s*``(\w+)``\)", m.group(2))
        if dm:
            abbrev[m.group(1)] = dm.group(1)
    return abbrev


def parse_grid_tables(text: str) -> list[list[list[str]]]:
    """Return the RST grid tables in ``text`` as lists of rows of cell strings."""
    tables, current = [], None
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("+") and s.endswith("+"):
            if current is None:
                current = []
            continue
        if s.startswith("|") and s.endswith("|") and current is not None:
            current.append([c.strip() for c in s.strip("|").split("|")])
            continue
        if current is not None:
            tables.append(current)
            current = None
    if current is not None:
        tables.append(current)
    return tables


def parse_version(spec_root: str, version: str) -> dict:
    path = os.path.join(spec_root, version, "API_specification", "type_promotion.rst")
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    abbrev = parse_legend(text)
    pairs: dict[str, str] = {}
    sources: dict[str, str] = {}

    def name(cell: str) -> str:
        cell = cell.strip().strip("*").strip()
        if cell not in abbrev:
            raise ValueError(f"{path}: unknown abbreviation {cell!r}")
        return abbrev[cell]

    for t_index, table in enumerate(parse_grid_tables(text)):
        header = table[0]
        if header[0] != "":
            raise ValueError(f"{path}: table {t_index} has no empty corner cell")
        cols = [name(c) for c in header[1:]]
        for row in table[1:]:
            rname = name(row[0])
            for col, cell in zip(cols, row[1:]):
                if cell.strip() in ("x", ""):
                    continue  # 'x' = no promotion
                res = name(cell)
                for a, b in ((rname, col), (col, rname)):
                    key = f"{a},{b}"
                    if key in pairs and pairs[key] != res:
                        raise ValueError(f"{path}: conflicting entries for {key}: {pairs[key]} vs {res}")
                    pairs[key] = res
                    sources.setdefault(key, f"table {t_index}")
    derived = {}
    if "bool,bool" not in pairs:
        pairs["bool,bool"] = "bool"
        derived["bool,bool"] = "no table in the spec; the promotion diagram/lattice has bool joining only with itself"
    dtypes = sorted({d for k in pairs for d in k.split(",")}, key=_dtype_order)
    return {
        "source": os.path.relpath(path, os.path.dirname(spec_root.rstrip("/"))),
        "dtypes": dtypes,
        "abbreviations": abbrev,
        "pairs": dict(sorted(pairs.items())),
        "derived_pairs": derived,
    }


_ORDER = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
]


def _dtype_order(name: str):
    return (_ORDER.index(name) if name in _ORDER else len(_ORDER), name)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec-root", default=DEFAULT_SPEC_ROOT)
    ap.add_argument("--versions", nargs="*", default=VERSIONS)
    ap.add_argument(
        "--out",
        default=os.path.join(
            os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
            "tests",
            "data",
            "array_api_spec_promotion.json",
        ),
    )
    args = ap.parse_args(argv)
    versions = {v: parse_version(args.spec_root, v) for v in args.versions}
    doc = {
        "generator": GENERATOR,
        "note": ("pairs absent from a version's 'pairs' have no promotion in the standard and must raise"),
        **versions,
    }
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump(doc, fh, sort_keys=True, indent=1)
        fh.write("\n")
    for v, info in versions.items():
        print(f"{v}: {len(info['dtypes'])} dtypes, {len(info['pairs'])} promoting pairs")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
