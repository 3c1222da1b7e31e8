"""Running the upstream suite as a pytest subprocess for one (policy, API version)."""

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

from array_api_promo.promotion import available_policies

from . import CACHE_DIR, DEFAULT_API_VERSION, DRAWS_PLUGIN, POLICY_MODULES, REPO_ROOT, SPEED_PLUGIN
from .suite import SuiteInfo

ENV_POLICY = "ARRAY_API_PROMO_POLICY"
ENV_API_VERSION = "ARRAY_API_PROMO_API_VERSION"
ENV_STORAGE = "ARRAY_API_PROMO_STORAGE"
#: Dask's scheduler for every suite run, unless the caller's environment names one: the suite
#: computes one small graph per value it checks, and the synchronous scheduler does that about
#: twice as fast as the threaded one (no thread pool per pytest-xdist worker either).
ENV_DASK_SCHEDULER = "DASK_SCHEDULER"
DEFAULT_DASK_SCHEDULER = "synchronous"


@dataclass(frozen=True)
class PolicyTarget:
    label: str  # used in file names and the report
    module: str  # ARRAY_API_TESTS_MODULE
    policy_env: str | None = None  # value for $ARRAY_API_PROMO_POLICY, if any
    version_env: str | None = None  # value for $ARRAY_API_PROMO_API_VERSION, if any
    storage_env: str | None = None  # value for $ARRAY_API_PROMO_STORAGE, if any (not numpy)
    extra_env: tuple = ()  # other (name, value) pairs the namespace is run with

    @property
    def env(self) -> dict:
        out = {}
        if self.policy_env:
            out[ENV_POLICY] = self.policy_env
        if self.version_env:
            out[ENV_API_VERSION] = self.version_env
        if self.storage_env:
            out[ENV_STORAGE] = self.storage_env
        out.update(self.extra_env)
        return out


def policy_label(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "policy"


FROM_ENV_MODULE = "array_api_promo.from_env"


def resolve_policy(
    name: str, module_map: Mapping[str, str] | None = None, api_version: str = DEFAULT_API_VERSION
) -> PolicyTarget:
    """Map a policy name to the namespace module the suite should import.

    * ``--module-map NAME=MODULE`` entries win (useful for development, e.g.
      ``strict=array_api_strict``);
    * the built-ins at the default API version are the modules ``array_api_promo``
      (``array_api``) and ``array_api_promo.torch`` (``torch``);
    * other versions and custom policies (``pkg.mod:ATTR`` naming a Policy, or
      ``pkg.mod`` defining ``POLICY``) use ``array_api_promo.from_env``, which reads
      $ARRAY_API_PROMO_POLICY and $ARRAY_API_PROMO_API_VERSION.
    """
    module_map = dict(module_map or {})
    if name in module_map:
        return PolicyTarget(policy_label(name), module_map[name])
    if name in POLICY_MODULES and api_version == DEFAULT_API_VERSION:
        return PolicyTarget(name, POLICY_MODULES[name])
    if name in available_policies():  # from_env takes a registered name as it is
        return PolicyTarget(policy_label(name), FROM_ENV_MODULE, name, api_version)
    m = re.fullmatch(r"([A-Za-z_][\w.]*)(?::([A-Za-z_][\w.]*))?", name)
    if m:
        spec = name if m.group(2) else f"{name}:POLICY"
        return PolicyTarget(policy_label(name), FROM_ENV_MODULE, spec, api_version)
    raise ValueError(f"unknown policy {name!r}: use array_api, torch, a module path or module:attr")


#: The report folder (and run label) of ``array_api_promo`` over a storage other than NumPy's.
STORAGE_REPORT_PREFIX = "array_api_promo"


def storage_label(policy: str, storage: str) -> str:
    """``array_api_promo-dask`` for the standard policy, ``array_api_promo-dask-torch`` for another."""
    label = f"{STORAGE_REPORT_PREFIX}-{storage}"
    return label if policy == "array_api" else f"{label}-{policy_label(policy)}"


def resolve_storage(
    name: str,
    storage: str,
    api_version: str = DEFAULT_API_VERSION,
    environ: Mapping[str, str] | None = None,
) -> PolicyTarget:
    """The target of ``--storage STORAGE``: ``array_api_promo.from_env`` with the policy, version and
    storage in its environment variables (whatever the policy and version: the package's modules are
    NumPy-storage namespaces), and for dask the scheduler the run uses (the caller's
    ``$DASK_SCHEDULER``, else synchronous), recorded with them."""
    numpy_target = resolve_policy(name, None, api_version)
    spec = numpy_target.policy_env or name
    extra: tuple = ()
    if storage == "dask":
        scheduler = (os.environ if environ is None else environ).get(ENV_DASK_SCHEDULER) or DEFAULT_DASK_SCHEDULER
        extra = ((ENV_DASK_SCHEDULER, scheduler),)
    return PolicyTarget(storage_label(name, storage), FROM_ENV_MODULE, spec, api_version, storage, extra)


def load_policy_object(spec: str):
    """The Policy object named by ``pkg.mod:ATTR`` / ``pkg.mod`` (``POLICY``)."""
    import importlib

    mod, _, attr = spec.partition(":")
    obj = importlib.import_module(mod)
    for part in (attr or "POLICY").split("."):
        obj = getattr(obj, part)
    return obj


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


#: pytest's exit codes other than 0 (all passed) and 1 (some failed): the run did not finish.
PYTEST_EXIT_CODES = {
    2: "interrupted (a collection error or a keyboard interrupt)",
    3: "internal error",
    4: "usage error",
    5: "no tests collected",
}


def _error_line(text: str) -> str:
    """The exception line of a pytest longrepr or log (``ModuleNotFoundError: No module named 'x'``)."""
    lines = [ln.strip() for ln in (text or "").splitlines() if ln.strip()]
    for ln in reversed(lines):
        m = re.match(r"^(?:E\s+|INTERNALERROR>\s+)?((?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Exit|Interrupt)\b.*)", ln)
        if m:
            return m.group(1)
    return lines[-1] if lines else ""


def run_problems(raw: dict, log: str, returncode: int, collected: int, *, collection_errors_allowed=False) -> list:
    """Why a run of the suite is not a complete result, one phrase each (empty when it is):
    modules that could not be collected, pytest's internal error, a plugin's ``pytest.exit``, an
    exit code other than 0 or 1, fewer tests reported than collected, no report at all."""
    problems = []
    if not raw:
        problems.append("pytest wrote no report")
    errors = [c for c in raw.get("collectors", []) if c.get("outcome") == "failed"]
    if errors and not collection_errors_allowed:
        first = errors[0]
        problems.append(
            f"{len(errors)} test module(s) could not be collected ({first.get('nodeid') or 'the session'}: "
            f"{_error_line(first.get('longrepr') or '')})"
        )
    internal = [ln for ln in log.splitlines() if ln.startswith("INTERNALERROR>")]
    if internal:
        problems.append(f"pytest stopped with an internal error ({_error_line(chr(10).join(internal))})")
    # pytest.exit(reason) from a plugin (the speed plugin's check): "! _pytest.outcomes.Exit: reason !"
    stopped = [m.group(1) for m in re.finditer(r"^!+ _pytest\.outcomes\.Exit: (.*?) !+$", log, re.MULTILINE)]
    if stopped:
        problems.append(f"pytest was stopped: {stopped[0]}")
    if (
        returncode not in (0, 1)
        and not ((internal or stopped) and returncode == 3)
        and not (errors and returncode == 2)
    ):
        meaning = PYTEST_EXIT_CODES.get(returncode, "killed by a signal" if returncode < 0 else "unknown")
        problems.append(f"pytest exited with code {returncode}: {meaning}")
    reported = len(raw.get("tests", []))
    if raw and collected > reported:
        problems.append(f"{reported} of {collected} collected tests reported")
    return problems


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


def with_repo_on_path(environ: Mapping[str, str]) -> dict:
    """``environ`` with this checkout first on PYTHONPATH: the suite imports the namespace under test from it."""
    env = dict(environ)
    pp = [str(REPO_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(pp))
    return env


def build_command(
    suite: SuiteInfo,
    report_path: Path,
    *,
    max_examples: int,
    seed: int,
    workers: int,
    extra_args=(),
    speed_plugin: bool = True,
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

    @property
    def title(self) -> str:
        return f"{self.target.label} @ {self.version}"


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
        cmd = build_command(
            suite,
            self.files.report,
            max_examples=spec.max_examples,
            seed=spec.seed,
            workers=workers,
            extra_args=spec.extra_args,
            speed_plugin=spec.speed_plugin,
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


def run_suite(
    suite: SuiteInfo,
    target: PolicyTarget,
    version: str,
    *,
    max_examples: int,
    seed: int,
    workers: int,
    work_dir: Path | None = None,
    progress: bool = True,
    console=None,
    extra_args=(),
    timeout: float | None = None,
    shrink: bool = True,
    speed_plugin: bool = True,
) -> RunOutcome:
    """One run of the suite in a subprocess with ``workers`` xdist workers, following its progress live."""
    spec = RunSpec(target, version, max_examples, seed, tuple(extra_args), shrink, speed_plugin)
    (outcome,) = run_many(
        suite, [spec], budget=workers, work_dir=work_dir, progress=progress, console=console, timeout=timeout
    )
    return outcome


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
