"""Running the upstream suite as a pytest subprocess for one (policy, API version)."""

from __future__ import annotations

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

from . import CACHE_DIR, DEFAULT_API_VERSION, DRAWS_PLUGIN, POLICY_MODULES, REPO_ROOT
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
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    pp = [str(REPO_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(pp))
    return env


def build_command(
    suite: SuiteInfo, report_path: Path, *, max_examples: int, seed: int, workers: int, extra_args=()
) -> list:
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
) -> RunOutcome:
    """Run pytest on the suite in a subprocess, following its progress live."""
    work_dir = Path(work_dir or CACHE_DIR / "runs")
    work_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{target.label}-{version}"
    report_path = work_dir / f"{stem}.report.json"
    log_path = work_dir / f"{stem}.log"
    progress_path = work_dir / f"{stem}.progress"
    for p in (report_path, progress_path):
        if p.exists():
            p.unlink()
    env = build_env(target, version, progress_path, shrink=shrink)
    cmd = build_command(
        suite, report_path, max_examples=max_examples, seed=seed, workers=workers, extra_args=extra_args
    )
    follower = _Follower(progress_path)
    start = time.monotonic()
    # cwd: a scratch dir, so Hypothesis' example database (.hypothesis/) starts empty
    # each run (determinism) and nothing is written into the suite checkout.
    with tempfile.TemporaryDirectory(prefix="conformance-") as scratch, open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, cwd=scratch, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            if progress and console is not None and console.is_terminal:
                _follow_live(proc, follower, f"{target.label} @ {version}", console, start, timeout)
            elif progress:
                _follow_plain(proc, follower, f"{target.label} @ {version}", start, timeout)
            else:
                proc.wait(timeout=timeout)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        follower.poll()
    return RunOutcome(
        policy=target.label,
        version=version,
        module=target.module,
        report_path=report_path,
        log_path=log_path,
        returncode=proc.returncode,
        elapsed=time.monotonic() - start,
        total=follower.total,
        done=follower.done,
        failed=follower.failed,
    )


PLAIN_PROGRESS_EVERY = 10.0  # seconds between progress lines to a pipe or file


def _follow_plain(proc, follower: _Follower, title: str, start: float, timeout, every=PLAIN_PROGRESS_EVERY) -> None:
    """Progress as plain lines on stdout (a pipe or a log file has no live display)."""
    last = start

    def line():
        total = follower.total or "?"
        print(
            f"{title}: {follower.done}/{total} tests, {follower.failed} failed, {follower.skipped} skipped, "
            f"{time.monotonic() - start:.0f} s",
            flush=True,
        )

    line()
    while proc.poll() is None:
        if timeout is not None and time.monotonic() - start > timeout:
            raise subprocess.TimeoutExpired(proc.args, timeout)
        time.sleep(0.25)
        if time.monotonic() - last >= every:
            follower.poll()
            line()
            last = time.monotonic()
    follower.poll()
    line()


def _follow_live(proc, follower: _Follower, title: str, console, start: float, timeout) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("[red]{task.fields[failed]} failed"),
        TextColumn("{task.fields[skipped]} skipped"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=False, refresh_per_second=4) as bar:
        task = bar.add_task(title, total=None, failed=0, skipped=0)
        while True:
            rc = proc.poll()
            follower.poll()
            bar.update(
                task,
                total=follower.total or None,
                completed=follower.done,
                failed=follower.failed,
                skipped=follower.skipped,
            )
            if rc is not None:
                break
            if timeout is not None and time.monotonic() - start > timeout:
                raise subprocess.TimeoutExpired(proc.args, timeout)
            time.sleep(0.25)
