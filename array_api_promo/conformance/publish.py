"""Writing what a job made, and saying so: the one place results, xfails, DEVIATIONS.md and
library reports are written and the job's summary is printed.

Called last by every subcommand that writes (``run``, ``library``, ``storage``, ``render``), once,
with everything the job made: nothing is written before the job's runs are all done, so a job that
stops (an error, Ctrl-C) has written nothing. Ctrl-C while it writes is held until it is done.
"""

from __future__ import annotations

import signal
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from . import library, library_report, normalize, render, report, xfails


@dataclass
class Made:
    """One result a job made, and where it goes: a report folder (a library's, a storage's), or a
    results file and its xfails file (our own runs)."""

    title: str  # "torch @ 2025.12", "array_api_strict @ 2025.12", "array_api @ 2025.12 on dask"
    results: dict
    folder: Path | None = None
    results_path: Path | None = None
    xfails_path: Path | None = None
    elapsed: float | None = None
    note: str = ""

    @property
    def where(self) -> Path:
        return self.folder / library.REPORT_NAME if self.folder is not None else self.results_path  # type: ignore[operator,return-value]

    @property
    def stem(self) -> str:
        return self.folder.name if self.folder is not None else Path(self.results_path).stem  # type: ignore[arg-type]


@dataclass
class Deviations:
    """DEVIATIONS.md, rendered from every results file in ``results_dir`` (those this job made and
    those stored there); ``rewrite_xfails``: the xfails of every one of them written again (``render``)."""

    results_dir: Path
    xfails_dir: Path
    output: Path
    rewrite_xfails: bool = False


@contextmanager
def _holding_interrupts():
    """Ctrl-C while files are written is held until they all are (then raised)."""
    caught: list = []
    try:
        previous = signal.signal(signal.SIGINT, lambda *a: caught.append(a))
    except ValueError:  # not the main thread: nothing to hold
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def publish(
    console,
    made: list,
    *,
    deviations: Deviations | None = None,
    annotated_xfails: Path | None = None,
    made_by: str = "python -m conformance",
    reports_dir: Path | None = None,
    notes: tuple = (),
) -> None:
    """Write everything ``made`` (each result to its folder or files), DEVIATIONS.md, the annotated
    xfails (``--write-xfails``: a file for one result, a folder of ``<stem>.txt`` for several) and the
    index of ``reports_dir`` when a report went there; then print a line per result, the closing
    table (our own results: every row, those this job did not run marked *stored*) and ``notes``."""
    lines = []
    with _holding_interrupts():
        for m in made:
            if m.folder is not None:
                library.write_report(m.results, m.folder)
            else:
                normalize.dump(m.results, m.results_path)
                xfails.write_xfails(m.results, m.xfails_path)
            lines.append(report.run_line(m.title, m.results, m.where, elapsed=m.elapsed, note=m.note))
        if annotated_xfails is not None:
            for m in made:
                path = Path(annotated_xfails) if len(made) == 1 else Path(annotated_xfails) / f"{m.stem}.txt"
                path.parent.mkdir(parents=True, exist_ok=True)
                command = library_report.regenerate_command(m.results) if m.folder is not None else made_by
                path.write_text(xfails.render_annotated(m.results, made_by=command), encoding="utf-8")
                lines.append(f"wrote annotated xfails {path}")
        stored: list = []
        if deviations is not None:
            stored = normalize.load_all(deviations.results_dir)
            if deviations.rewrite_xfails:
                for r in stored:
                    xfails.write_xfails(r, Path(deviations.xfails_dir) / f"{r['policy']}-{r['api_version']}.txt")
            start = time.monotonic()
            deviations.output.parent.mkdir(parents=True, exist_ok=True)
            render.write(stored, deviations.output)
            lines.append(f"wrote {deviations.output} ({time.monotonic() - start:.1f} s)")
        if reports_dir is not None and any(
            m.folder is not None and Path(m.folder).parent.resolve() == Path(reports_dir).resolve() for m in made
        ):
            lines.append(f"wrote {library.write_index(reports_dir)}")
    for line in lines:
        console.print(line, highlight=False)
    if stored:
        _closing_table(console, stored, {(m.results["policy"], m.results["api_version"]) for m in made})
    for note in notes:
        console.print(note, highlight=False)


def _closing_table(console, results: list, ran: set) -> None:
    """Every result DEVIATIONS.md was rendered from; a row this job did not run says *stored*."""
    from rich.table import Table

    t = Table(
        title="array-api-tests results",
        caption="stored: a result this job did not run, read from the folder" if len(ran) < len(results) else None,
    )
    for col in ("policy", "API version", "passed", "failed", "errors", "skipped", "total", "this job"):
        t.add_column(col, justify="left" if col in ("policy", "this job") else "right")
    for r in report.sorted_results(results):
        s = r["summary"]
        t.add_row(
            r["policy"],
            r["api_version"],
            str(s["passed"]),
            str(s["failed"]),
            str(s.get("error", 0)),
            str(s["skipped"]),
            str(s["total"]),
            "ran" if (r["policy"], r["api_version"]) in ran else "stored",
        )
    console.print(t)
