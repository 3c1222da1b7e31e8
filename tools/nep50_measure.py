#!/usr/bin/env python
"""Compare NumPy 1.26.4's ``weak_and_warn`` with the NEP 50 warning mode on a library's own tests, line for line.

The measurement of ``docs/audits/nep50-nibabel.md`` (its commands are there).  Inputs:

* ``--weak-and-warn FILE``: every warning of the library's tests under NumPy 1.26.4 with
  ``NPY_PROMOTION_STATE=weak_and_warn`` (one JSON line each, as ``docs/audits/nep50-nibabel/warnings_recorder.py``
  writes them), or its reduction (``tools/nep50_measure.py reduce --package P RAW.jsonl``); a line of the
  library's code is a site when NumPy warned "result dtype changed due to the removal of value-based
  promotion" there;
* ``--warning-mode FILE.json``: the records of ``python -m array_api_promo.nep50 --json`` on NumPy 2
  (a record labelled a function's own change is no NEP 50 site);
* ``--judged OLD.json NEW.json``: each site where the two disagree, judged with both real NumPys:
  ``docs/audits/nep50-nibabel/judge.py`` runs the operation of that line on its operands under
  NumPy 1.26.4 and under 2.x and prints its outcome (dtype and values); the site changes when they
  differ.

Prints (and with ``--markdown``, writes) the sites of each, their agreement, and precision and recall
of each tool against the judged truth: a site both report is taken as a change (both NumPys'
warnings say the result changed there); a site only one reports is what its judgement says.
"""

from __future__ import annotations

import argparse
import json
import sys

WEAK_AND_WARN = "removal of value-based promotion"


def _site(path: str, package: str) -> str | None:
    marker = f"/{package}/"
    if marker not in path:
        return None
    return package + "/" + path.split(marker, 1)[1]


def reduce(path: str, package: str) -> dict:
    """The sites of a raw recording (one JSON line per warning): "file:line" -> message and count."""
    sites: dict = {}
    with open(path, encoding="utf-8") as f:
        for text in f:
            row = json.loads(text)
            if WEAK_AND_WARN not in row["message"]:
                continue
            site = _site(row["file"], package)
            if site is not None:
                found = sites.setdefault(f"{site}:{row['line']}", {"message": row["message"], "count": 0})
                found["count"] += 1
    return dict(sorted(sites.items()))


def weak_and_warn_sites(path: str, package: str) -> dict:
    """The weak_and_warn sites, from a raw recording (``.jsonl``) or its reduction (``.json``)."""
    if path.endswith(".jsonl"):
        return {site: found["message"] for site, found in reduce(path, package).items()}
    with open(path, encoding="utf-8") as f:
        return {site: found["message"] for site, found in json.load(f)["sites"].items()}


def warning_mode_sites(path: str, package: str) -> tuple[dict, dict]:
    """(NEP 50 sites, function changes): "file:line" -> the record's rule."""
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    sites: dict = {}
    functions: dict = {}
    for record in report["records"]:
        site = record["file"] if record["file"].startswith(package + "/") else _site("/" + record["file"], package)
        if site is None:
            continue
        key = f"{site}:{record['line']}"
        rule = f"{record['op']}({record['operands']}) [{record.get('values', '')}]"
        (functions if record.get("kind") == "function" else sites).setdefault(key, rule)
    return sites, functions


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["reduce"]:  # reduce --package P RAW.jsonl > SITES.json
        parser = argparse.ArgumentParser(prog="tools/nep50_measure.py reduce")
        parser.add_argument("--package", required=True)
        parser.add_argument("raw")
        args = parser.parse_args(argv[1:])
        json.dump({"sites": reduce(args.raw, args.package)}, sys.stdout, indent=1)
        print()
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", required=True, help="the library's package (its files are the sites)")
    parser.add_argument("--weak-and-warn", required=True)
    parser.add_argument("--warning-mode", required=True)
    parser.add_argument("--judged", nargs=2, required=True, metavar=("OLD.json", "NEW.json"))
    args = parser.parse_args(argv)
    old = weak_and_warn_sites(args.weak_and_warn, args.package)
    new, functions = warning_mode_sites(args.warning_mode, args.package)
    runs = []
    for path in args.judged:
        with open(path, encoding="utf-8") as f:
            runs.append(json.load(f))
    before, after = runs
    judged = {
        site: {
            "changes": outcome != after["outcomes"][site],
            "why": f"{outcome} under NumPy {before['numpy']}, {after['outcomes'][site]} under NumPy {after['numpy']}",
        }
        for site, outcome in before["outcomes"].items()
    }
    both = sorted(set(old) & set(new))
    only_old = sorted(set(old) - set(new))
    only_new = sorted(set(new) - set(old))
    missing = [s for s in only_old + only_new if s not in judged]
    if missing:
        print(f"not judged yet: {missing}", file=sys.stderr)
        return 1
    truth = set(both) | {s for s in only_old + only_new if judged[s]["changes"]}

    def score(found: set) -> tuple[float, float]:
        hits = len(found & truth)
        return hits / len(found) if found else 1.0, hits / len(truth) if truth else 1.0

    print(f"weak_and_warn (NumPy 1.26.4): {len(old)} sites; the warning mode (NumPy 2): {len(new)} sites")
    print(f"both: {len(both)}; weak_and_warn only: {len(only_old)}; the warning mode only: {len(only_new)}")
    print(
        f"judged changes: {len(truth)} ({len(truth) - len(both)} of the {len(only_old) + len(only_new)} disagreements)"
    )
    for name, found in (("the warning mode", set(new)), ("weak_and_warn", set(old))):
        precision, recall = score(found)
        print(f"{name}: precision {precision:.1%}, recall {recall:.1%}")
    print(f"function changes (not NEP 50, not counted): {len(functions)}")
    for site in only_old + only_new:
        who = "weak_and_warn only" if site in old else "warning mode only"
        print(f"  {site}: {who}: {'changes' if judged[site]['changes'] else 'no change'}: {judged[site]['why']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
