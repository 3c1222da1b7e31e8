"""The audit's reports: the table printed after a run, ``--json`` and ``--markdown``, from merged records.

Called by the runners (:mod:`.cli`, :mod:`array_api_promo.nep50`) after the program ends, on the
records every process wrote (:func:`.records.merge`); :func:`render_markdown` is public for
reports made in Python.
"""

from __future__ import annotations

import json
import os
import sys

from .records import Record

__all__ = ["SITES_PER_RULE", "plural", "print_table", "render_markdown", "site_path", "unwritable", "write_reports"]


def site_path(path: str) -> str:
    marker = f"site-packages{os.sep}"
    if marker in path:
        return path.split(marker, 1)[1]
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    return path if relative.startswith("..") else relative


def plural(count: int, word: str) -> str:
    """``1 call``, ``2 calls``, ``1,549 calls``."""
    return f"{count:,} {word}{'' if count == 1 else 's'}"


SITES_PER_RULE = 20  # the Markdown report's sites under one rule, most frequent first


def render_markdown(records: list[Record], policy: str, against: list[str], command: str, title: str = "") -> str:
    """A report of ``records`` grouped by rule (operation, operands and outcomes), each rule's sites below it."""
    rules: dict = {}
    for r in records:
        rules.setdefault((r.op, r.operands, r.policy_outcome, tuple(r.against.items()), r.kind), []).append(r)
    ordered = sorted(
        rules.items(), key=lambda item: (item[0][4] is not None, -item[1][0].severity, -sum(r.count for r in item[1]))
    )
    heading = title or f"Audit: {policy} against {', '.join(against)}"
    lines = [f"# {heading}", ""]
    lines += [
        f"Every call of the program whose outcome under policy `{policy}` differs under "
        f"{', '.join(f'`{a}`' for a in against)}, grouped by rule. Regenerate with:",
        "",
        "```sh",
        command,
        "```",
        "",
        f"{plural(len(records), 'site')}, {plural(len(ordered), 'rule')}, {plural(sum(r.count for r in records), 'call')}.",
        "",
    ]
    if not records:
        lines.append("No call differs.")
    for (op, operands, mine, theirs, kind), sites in ordered:
        outcomes = "; ".join([f"`{policy}`: {mine.text()}"] + [f"`{n}`: {o.text()}" for n, o in theirs])
        label = " (not promotion: the function itself changed)" if kind == "function" else ""
        lines += [f"## `{op}({operands})`{label}", "", outcomes, ""]
        ranked = sorted(sites, key=lambda r: (-r.count, r.file, r.line))
        for r in ranked[:SITES_PER_RULE]:
            example = f", values {r.values}" if r.values else ""
            lines.append(f"- `{site_path(r.file)}:{r.line}` ({r.function}), {plural(r.count, 'call')}{example}")
        if len(ranked) > SITES_PER_RULE:
            rest = ranked[SITES_PER_RULE:]
            more = plural(sum(r.count for r in rest), "call")
            lines.append(f"- ... and {len(rest)} more sites ({more}; all in the JSON)")
        lines.append("")
    return "\n".join(lines)


def print_table(records: list[Record], policy: str, against: list[str], limit: int = 50, file=None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=file or sys.stdout, width=200)
    if not records:
        console.print(f"audit: no call differs between policy {policy!r} and {', '.join(against)}")
        return
    table = Table(title=f"Calls whose outcome differs: {policy} against {', '.join(against)}", show_lines=False)
    table.add_column("calls", justify="right")
    table.add_column("site")
    table.add_column("call")
    table.add_column(policy)
    for name in against:
        table.add_column(name)
    for r in records[:limit]:
        table.add_row(
            f"{r.count:,}",
            f"{site_path(r.file)}:{r.line}",
            f"{r.op}({r.operands})" + (f" [{r.values}]" if r.values else ""),
            r.policy_outcome.text(),
            *[r.against[n].text() if n in r.against else "" for n in against],
        )
    console.print(table)
    if len(records) > limit:
        console.print(f"... and {len(records) - limit} more sites (all in --json)")


def unwritable(path: str) -> str | None:
    """Why a report cannot be written at ``path`` (None: it can)."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        return "is a directory"
    if not os.path.isdir(folder):
        return f"no such directory {folder}"
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        return "not writable"
    return None


def write_reports(args, invocation: str, records: list[Record], policy: str, names: list[str], extra=None) -> None:
    """--json (with ``extra`` keys) and --markdown (``invocation``: the command that regenerates it) of the
    merged records."""
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            # Sites as the table shows them (inside site-packages, or relative to the working directory):
            # a report does not name the machine it was made on.
            rows = [{**r.as_json(), "file": site_path(r.file)} for r in records]
            payload = {"policy": policy, "against": names, "records": rows, **(extra or {})}
            json.dump(payload, f, indent=1)
            f.write("\n")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(render_markdown(records, policy, names, invocation, args.title))
