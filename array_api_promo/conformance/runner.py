"""Running the upstream suite: one pytest subprocess per run (a target at an API version under one
Hypothesis seed), runs side by side within a budget of processes, their progress followed live.

Called by the subcommands with the runs their plan made (``plan``); what it hands back, a
``RunOutcome`` per run (its raw files and exit status), is read by ``results``."""

from __future__ import annotations

import glob
import itertools
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from . import CACHE_DIR, DRAWS_PLUGIN, SPEED_PLUGIN, with_repo_on_path
from .plan import DEFAULT_DASK_SCHEDULER, ENV_API_VERSION, ENV_DASK_SCHEDULER, ENV_POLICY, ENV_STORAGE, PolicyTarget
from .suite import SuiteInfo

#: The plugin that lets the suite import a namespace without some optional dtypes, and the variable
#: that names them to it.
OPTIONAL_DTYPES_PLUGIN = "array_api_promo.conformance._pytest_optional_dtypes"
ENV_ABSENT_DTYPES = "CONFORMANCE_ABSENT_DTYPES"


@dataclass(frozen=True)
class RunFiles:
    """One run's raw files in the work folder, under a name no other run shares
    (``array_api-2025.12.20261126-155002-8696-1.report.json``): runs side by side, or of two
    harnesses at once, never delete or overwrite each other's files."""

    report: Path  # pytest-json-report's output
    log: Path  # pytest's stdout and stderr
    progress: Path  # the progress plugin's lines (removed when the run ends)
    meta: Path  # the run's settings and exit status, written when it ends (``--from-raw`` reads it)

    @classmethod
    def at(cls, work_dir: Path, name: str) -> RunFiles:
        base = Path(work_dir) / name
        return cls(*(base.with_name(f"{name}.{ext}") for ext in ("report.json", "log", "progress", "run.json")))

    @classmethod
    def new(cls, work_dir: Path, stem: str) -> RunFiles:
        """Files under a fresh name (time, process and a counter); the log is created at once, exclusively."""
        work_dir = Path(work_dir)
        work_dir.mkdir(parents=True, exist_ok=True)
        while True:
            files = cls.at(work_dir, f"{stem}.{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}-{next(_RUN_NUMBERS)}")
            try:
                files.log.touch(exist_ok=False)
            except FileExistsError:
                continue
            return files


_RUN_NUMBERS = itertools.count(1)


def latest_run(work_dir: Path, stem: str) -> RunFiles | None:
    """The newest finished run of ``stem`` (``policy-version``) in ``work_dir``: what ``--from-raw`` reads."""
    own = re.compile(re.escape(stem) + r"\.\d{8}-\d{6}-\d+-\d+\.run\.json")
    metas = [m for m in Path(work_dir).glob(f"{glob.escape(stem)}.*.run.json") if own.fullmatch(m.name)]
    if not metas:
        return None
    newest = max(metas, key=lambda m: (m.stat().st_mtime, m.name))
    return RunFiles.at(Path(work_dir), newest.name[: -len(".run.json")])


@dataclass
class RunOutcome:
    policy: str
    version: str
    module: str
    report_path: Path
    log_path: Path
    returncode: int
    elapsed: float
    total: int
    done: int
    failed: int
    workers: int = 1


def build_env(
    target: PolicyTarget,
    version: str,
    progress_file: Path,
    base: Mapping[str, str] | None = None,
    *,
    shrink: bool = True,
) -> dict:
    env = dict(os.environ if base is None else base)
    if shrink:
        env.pop("CONFORMANCE_NO_SHRINK", None)
    else:
        env["CONFORMANCE_NO_SHRINK"] = "1"
    env["ARRAY_API_TESTS_MODULE"] = target.module
    env["ARRAY_API_TESTS_VERSION"] = version
    # array_api_strict (used while developing the harness) reads its own variable.
    env["ARRAY_API_STRICT_API_VERSION"] = version
    env.pop(ENV_POLICY, None)
    env.pop(ENV_API_VERSION, None)
    env.pop(ENV_STORAGE, None)  # NumPy storage unless the target says otherwise
    env.setdefault(ENV_DASK_SCHEDULER, DEFAULT_DASK_SCHEDULER)
    env.update(target.env)
    env["CONFORMANCE_PROGRESS_FILE"] = str(progress_file)
    env["PYTHONHASHSEED"] = "0"
    # Bytecode is cached as Python and pytest cache it (the suite's own .gitignore lists
    # __pycache__/): a run that compiled and assertion-rewrote the suite's modules again each time
    # spent about 2 s of its start there (collection alone: 3.8 s against 1.7 s once cached).
    return with_repo_on_path(env)


def build_command(
    suite: SuiteInfo,
    report_path: Path,
    *,
    max_examples: int,
    seed: int,
    workers: int,
    extra_args=(),
    speed_plugin: bool = True,
    extra_plugins=(),
) -> list:
    """The pytest command of one run; ``speed_plugin`` False leaves the speed plugin out
    (``--no-speed-plugin``: the same draws and text, slower)."""
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        str(suite.tests_dir),
        "--rootdir",
        str(suite.path),
        "-p",
        "array_api_promo.conformance._pytest_progress",
        "-p",
        DRAWS_PLUGIN,  # single-value draws follow --hypothesis-seed
        *(("-p", SPEED_PLUGIN) if speed_plugin else ()),  # the same draws and text, sooner
        *(a for plugin in extra_plugins for a in ("-p", plugin)),
        "-p",
        "no:cacheprovider",
        "--max-examples",
        str(max_examples),
        "--hypothesis-seed",
        str(seed),
        "--disable-deadline",
        "--json-report",
        "--json-report-file",
        str(report_path),
        # collectors are kept: a module that fails to import is reported, not lost.
        "--json-report-omit",
        "log",
        "streams",
        "keywords",
        "-q",
        "-rfE",
        "--color=no",
    ]
    if workers and workers > 1:
        cmd += ["-n", str(workers)]
    else:
        cmd += ["-p", "no:xdist"]
    cmd += list(extra_args)
    return cmd


class _Follower:
    """Reads the progress file incrementally."""

    def __init__(self, path: Path):
        self.path = path
        self.pos = 0
        self.total = 0
        self.done = 0
        self.failed = 0
        self.skipped = 0
        self.buf = ""

    def poll(self) -> None:
        try:
            with open(self.path, encoding="utf-8") as fh:
                fh.seek(self.pos)
                chunk = fh.read()
                self.pos = fh.tell()
        except FileNotFoundError:
            return
        self.buf += chunk
        *lines, self.buf = self.buf.split("\n")
        for line in lines:
            if line.startswith("total "):
                self.total = max(self.total, int(line.split()[1]))
            elif line.startswith("done "):
                self.done += 1
                outcome = line.split(" ", 2)[1]
                if outcome in ("failed", "error"):
                    self.failed += 1
                elif outcome == "skipped":
                    self.skipped += 1


@dataclass(frozen=True)
class RunSpec:
    """One run of the suite: a target at an API version, with its Hypothesis settings."""

    target: PolicyTarget
    version: str
    max_examples: int
    seed: int
    extra_args: tuple = ()
    shrink: bool = True
    speed_plugin: bool = True
    absent_dtypes: tuple = ()  # dtypes the namespace lacks (optional in the draft standard)

    @property
    def title(self) -> str:
        return f"{self.target.label} @ {self.version}" + (f" seed {self.seed}" if self.seed else "")


def settings_of(spec: RunSpec, outcome: RunOutcome, suite: SuiteInfo) -> dict:
    """What a finished run ran with and how it ended: what ``results.of_run`` reads (and ``--from-raw``
    reads back from the work folder)."""
    meta = {
        "max_examples": spec.max_examples,
        "seed": spec.seed,
        "shrink": spec.shrink,
        "pytest_args": list(spec.extra_args),
        "suite": str(suite.path),
        "suite_commit": suite.suite_commit,
        "spec_commit": suite.spec_commit,
        "returncode": outcome.returncode,
        "collected": outcome.total,
        "workers": outcome.workers,
    }
    if not spec.speed_plugin:
        meta["speed_plugin"] = False
    if spec.absent_dtypes:
        meta["absent_dtypes"] = list(spec.absent_dtypes)
    return meta


def plan_workers(n_runs: int, budget: int) -> tuple[int, int]:
    """(runs at a time, pytest-xdist workers per run) for ``n_runs`` runs within ``budget`` processes.

    Runs are independent, so they go side by side, one process each, ``budget`` at a time: a run
    without xdist collects the suite once (with xdist every worker collects it, and the controller
    is a process more) and keeps its core busy to its end (xdist's last worker finishes alone).
    Fewer runs than the budget share it out as xdist workers."""
    budget = max(1, budget)
    if n_runs >= budget:
        return budget, 1
    return max(1, n_runs), budget // max(1, n_runs)


class _Running:
    """A started pytest process of one ``RunSpec`` and the files it writes."""

    def __init__(self, suite: SuiteInfo, spec: RunSpec, workers: int, work_dir: Path):
        self.spec = spec
        self.workers = workers
        self.files = RunFiles.new(work_dir, f"{spec.target.label}-{spec.version}")
        self.follower = _Follower(self.files.progress)
        env = build_env(spec.target, spec.version, self.files.progress, shrink=spec.shrink)
        if spec.absent_dtypes:  # the suite skips them, and the plugin lets it import without them
            env[ENV_ABSENT_DTYPES] = env["ARRAY_API_TESTS_SKIP_DTYPES"] = ",".join(spec.absent_dtypes)
        cmd = build_command(
            suite,
            self.files.report,
            max_examples=spec.max_examples,
            seed=spec.seed,
            workers=workers,
            extra_args=spec.extra_args,
            speed_plugin=spec.speed_plugin,
            extra_plugins=(OPTIONAL_DTYPES_PLUGIN,) if spec.absent_dtypes else (),
        )
        # cwd: a scratch dir of its own, so Hypothesis' example database (.hypothesis/) starts
        # empty each run (determinism) and nothing is written into the suite checkout.
        self._scratch = tempfile.TemporaryDirectory(prefix="conformance-")
        self._log = open(self.files.log, "w")  # noqa: SIM115 (open while the process runs; closed in finish)
        self.start = time.monotonic()
        self.proc = subprocess.Popen(cmd, cwd=self._scratch.name, env=env, stdout=self._log, stderr=subprocess.STDOUT)
        self.elapsed: float | None = None

    def poll(self) -> bool:
        """True once the process has ended (its progress then read to the end)."""
        if self.elapsed is not None:
            return True
        if self.proc.poll() is None:
            return False
        self.follower.poll()
        self.elapsed = time.monotonic() - self.start
        self._log.close()
        self._scratch.cleanup()
        self.files.progress.unlink(missing_ok=True)  # its own file only
        return True

    def timed_out(self, timeout: float | None) -> bool:
        return timeout is not None and self.elapsed is None and time.monotonic() - self.start > timeout

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.poll()

    def outcome(self) -> RunOutcome:
        return RunOutcome(
            policy=self.spec.target.label,
            version=self.spec.version,
            module=self.spec.target.module,
            report_path=self.files.report,
            log_path=self.files.log,
            returncode=self.proc.returncode,
            elapsed=self.elapsed or 0.0,
            total=self.follower.total,
            done=self.follower.done,
            failed=self.follower.failed,
            workers=self.workers,
        )


def run_many(
    suite: SuiteInfo,
    specs: list,
    *,
    budget: int,
    work_dir: Path | None = None,
    progress: bool = True,
    console=None,
    timeout: float | None = None,
) -> list:
    """Run every ``RunSpec`` (``plan_workers``: side by side within ``budget`` processes), following
    their progress live; their ``RunOutcome``s in the order of ``specs``. ``timeout``: seconds per run."""
    work_dir = Path(work_dir or CACHE_DIR / "runs")
    at_once, workers = plan_workers(len(specs), budget)
    waiting = list(enumerate(specs))
    running: list = []
    done: dict = {}
    display = _display(progress, console)
    try:
        with display:
            while waiting or running:
                while waiting and len(running) < at_once:
                    i, spec = waiting.pop(0)
                    run = _Running(suite, spec, workers, work_dir)
                    running.append((i, run))
                    display.add(run)
                for i, run in list(running):
                    if timeout is not None and run.timed_out(timeout):
                        raise subprocess.TimeoutExpired(run.proc.args, timeout)
                    if run.poll():
                        running.remove((i, run))
                        done[i] = run
                        display.finish(run)
                display.update()
                if running:
                    time.sleep(0.25)
    except BaseException:
        for _, run in running:
            run.kill()
        raise
    return [done[i].outcome() for i in range(len(specs))]


def run_with_options(args, console, suite: SuiteInfo, specs: list) -> list:
    """``run_many`` with a subcommand's suite options: side by side within ``--workers``, in
    ``--work-dir``, ``--timeout`` seconds a run, following progress unless ``--no-progress``."""
    return run_many(
        suite,
        specs,
        budget=args.workers,
        work_dir=args.work_dir,
        progress=not args.no_progress,
        console=console,
        timeout=args.timeout,
    )


PLAIN_PROGRESS_EVERY = 10.0  # seconds between progress lines to a pipe or file


def _display(progress: bool, console):
    if not progress:
        return _NoDisplay()
    if console is not None and console.is_terminal:
        return _LiveDisplay(console)
    return _PlainDisplay()


class _NoDisplay:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def add(self, run) -> None:
        pass

    def finish(self, run) -> None:
        pass

    def update(self) -> None:
        pass


def _plain_line(run: _Running) -> str:
    f = run.follower
    return (
        f"{run.spec.title}: {f.done}/{f.total or '?'} tests, {f.failed} failed, {f.skipped} skipped, "
        f"{(run.elapsed if run.elapsed is not None else time.monotonic() - run.start):.0f} s"
    )


class _PlainDisplay(_NoDisplay):
    """Progress as plain lines on stdout (a pipe or a log file has no live display): a line per run
    when it starts, at least every ``every`` seconds while it runs, and when it ends."""

    def __init__(self, every: float = PLAIN_PROGRESS_EVERY):
        self.every = every
        self.runs: list = []
        self.last = time.monotonic()

    def add(self, run) -> None:
        self.runs.append(run)
        print(_plain_line(run), flush=True)

    def finish(self, run) -> None:
        self.runs.remove(run)
        print(_plain_line(run), flush=True)

    def update(self) -> None:
        if time.monotonic() - self.last < self.every:
            return
        self.last = time.monotonic()
        for run in self.runs:
            run.follower.poll()
            print(_plain_line(run), flush=True)


class _LiveDisplay(_NoDisplay):
    """A rich progress bar per run."""

    def __init__(self, console):
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        columns = (
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("[red]{task.fields[failed]} failed"),
            TextColumn("{task.fields[skipped]} skipped"),
            TimeElapsedColumn(),
        )
        self.bar = Progress(*columns, console=console, transient=False, refresh_per_second=4)
        self.tasks: dict = {}

    def __enter__(self):
        self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        return self.bar.__exit__(*exc)

    def add(self, run) -> None:
        self.tasks[run] = self.bar.add_task(run.spec.title, total=None, failed=0, skipped=0)

    def finish(self, run) -> None:
        self._show(run)
        self.bar.stop_task(self.tasks.pop(run))

    def update(self) -> None:
        for run in self.tasks:
            run.follower.poll()
            self._show(run)

    def _show(self, run) -> None:
        f = run.follower
        self.bar.update(self.tasks[run], total=f.total or None, completed=f.done, failed=f.failed, skipped=f.skipped)
