"""Locating (and if need be fetching) the upstream array-api-tests checkout."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from . import CACHE_DIR, IN_CHECKOUT, REPO_ROOT, SPEC_COMMIT, SPEC_REPO, SUITE_COMMIT, SUITE_REPO
from .model import SUITE_DTYPE_NAMES, import_blockers, namespace_blockers  # noqa: F401 (the suite's, re-exported)

ENV_SUITE_DIR = "ARRAY_API_TESTS_DIR"
ENV_NO_CLONE = "CONFORMANCE_NO_CLONE"
DEFAULT_CACHE_SUITE = CACHE_DIR / "array-api-tests"


class SuiteNotFound(RuntimeError):
    """No usable suite checkout; the message says how to provide one."""


@dataclass
class SuiteInfo:
    path: Path
    suite_commit: str  # full hash, or "unknown"
    spec_commit: str
    warnings: list = field(default_factory=list)
    tests_dir: Path = field(init=False)  # array_api_tests/
    spec_dir: Path = field(init=False)  # the spec submodule, array-api/

    def __post_init__(self):
        self.tests_dir = Path(self.path) / "array_api_tests"
        self.spec_dir = Path(self.path) / "array-api"


def _display(path: Path) -> str:
    try:
        return str(Path(path).relative_to(CACHE_DIR.parent.parent))
    except ValueError:
        return str(path)


#: How the user ran the harness, for its messages: ``python -m conformance`` from a checkout,
#: ``python -m array_api_promo.conformance`` installed (each entry point sets it).
PROG = "python -m conformance"


def clone_commands(target: Path | str) -> list[str]:
    """The two git commands that put the pinned suite and its spec submodule into ``target``."""
    t = str(target)
    return [
        f"git clone {SUITE_REPO} {t} && git -C {t} checkout {SUITE_COMMIT[:7]}",
        f"git clone {SPEC_REPO} {t}/array-api && git -C {t}/array-api checkout {SPEC_COMMIT[:7]}",
    ]


def how_to_provide(target: Path | str = "array-api-tests", prog: str | None = None) -> str:
    t = str(target)
    suite_cmd, spec_cmd = clone_commands(t)
    return (
        "The upstream array-api-tests suite is not available.\n"
        "Provide it with these two git commands (pinned commits):\n\n"
        f"    {suite_cmd}\n"
        f"    {spec_cmd}\n\n"
        f"then pass it as `{prog or PROG} --suite {t}` or set the environment variable "
        f"{ENV_SUITE_DIR}={t}.\n"
        f"(Without --suite/{ENV_SUITE_DIR}, the harness looks in ./array-api-tests, then clones into "
        f"{_display(DEFAULT_CACHE_SUITE)} when a network is available.)"
    )


def _git_head(path: Path) -> str | None:
    if not path.exists():
        return None
    try:
        out = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    head = out.stdout.strip()
    # A nested checkout that is not a git repo of its own reports its parent's HEAD.
    top = subprocess.run(
        ["git", "-C", str(path), "rev-parse", "--show-toplevel"], capture_output=True, text=True, timeout=30
    )
    if top.returncode == 0 and Path(top.stdout.strip()).resolve() != path.resolve():
        return None
    return head


def _looks_like_suite(path: Path) -> bool:
    return (path / "array_api_tests").is_dir() and (path / "conftest.py").is_file()


#: What a suite checkout holds, as said when a folder is not one.
SUITE_LAYOUT = "array_api_tests/, conftest.py and the spec submodule array-api/ (src/array_api_stubs/ inside)"


def not_a_suite(path: Path) -> str | None:
    """Why ``path`` is not a usable suite checkout (None when it is)."""
    if not path.exists():
        return "does not exist"
    if not path.is_dir():
        return f"is a file, not an array-api-tests checkout (a folder with {SUITE_LAYOUT})"
    if not _looks_like_suite(path):
        return f"is not an array-api-tests checkout: expected {SUITE_LAYOUT} in it"
    if not (path / "array-api" / "src" / "array_api_stubs").is_dir():
        return "has no spec: its array-api/ submodule is missing or empty"
    return None


def verify(path: Path, source: str = "--suite") -> SuiteInfo:
    """Describe a suite checkout at ``path`` (named by ``source``: ``--suite``, the environment
    variable, a default place); warn when the commits differ from the pins. Not a checkout: one line
    that says what is expected and how to fetch it into a new folder, never into an existing folder
    of something else (``--suite /tmp``)."""
    path = Path(path).resolve()
    why = not_a_suite(path)
    if why:
        if not path.exists():
            fix = f"fetch the pinned suite there: {'; '.join(clone_commands(path))}"
        elif _looks_like_suite(path):  # the suite without its spec submodule
            fix = f"fetch the spec there: {clone_commands(path)[1]}"
        else:
            fix = (
                "fetch the pinned suite into a new folder (" + "; ".join(clone_commands("array-api-tests")) + ") "
                "and name that one"
            )
        raise SuiteNotFound(f"{source} {path} {why}; {fix}")
    info = SuiteInfo(path, _git_head(path) or "unknown", _git_head(path / "array-api") or "unknown")
    if info.suite_commit != SUITE_COMMIT:
        info.warnings.append(
            f"suite at {path} is at commit {info.suite_commit[:12]}, pinned is {SUITE_COMMIT[:12]}; "
            "results may not be comparable"
        )
    if info.spec_commit != SPEC_COMMIT:
        info.warnings.append(
            f"spec at {path / 'array-api'} is at commit {info.spec_commit[:12]}, pinned is "
            f"{SPEC_COMMIT[:12]}; quoted spec text may differ"
        )
    return info


#: Import names of the suite's requirements that differ from their distribution's name.
IMPORT_NAMES = {"pytest-json-report": "pytest_jsonreport", "pytest-xdist": "xdist", "pytest-timeout": "pytest_timeout"}


@dataclass(frozen=True)
class Requirement:
    module: str  # what the suite imports
    pip: str  # what to install it with: the suite's requirements.txt line, else the module's name


def _module_level_imports(tree: ast.Module) -> set:
    """Top-level names imported as a module is imported (its body and ``if`` blocks; a ``try``
    block's imports are optional by design, a function's run later)."""
    names: set = set()
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.If):
            stack += node.body + node.orelse
    return names


def suite_requirements(path: Path) -> list[Requirement]:
    """What the suite at ``path`` needs to import: the distributions of its requirements.txt, and
    every third-party module its conftest.py and array_api_tests/ modules import as they load
    (not the standard library, not the suite's own modules)."""
    path = Path(path)
    pins: dict = {}
    req_file = path / "requirements.txt"
    if req_file.is_file():
        for line in req_file.read_text(encoding="utf-8").splitlines():
            line = line.split("#")[0].strip()
            m = re.match(r"([A-Za-z0-9][A-Za-z0-9._-]*)", line)
            if m and not line.startswith("-"):
                dist = m.group(1)
                pins[IMPORT_NAMES.get(dist.lower(), dist.lower().replace("-", "_"))] = line
    imported: set = set()
    for f in [path / "conftest.py", *sorted((path / "array_api_tests").rglob("*.py"))]:
        try:
            imported |= _module_level_imports(ast.parse(f.read_text(encoding="utf-8")))
        except (OSError, SyntaxError, ValueError):
            continue  # a module that does not parse fails at collection, where the run reports it
    own = {p.stem for p in path.glob("*.py")} | {p.name for p in path.iterdir() if (p / "__init__.py").is_file()}
    third_party = {n for n in imported if n not in sys.stdlib_module_names and n not in own and n != "__future__"}
    modules = sorted(set(pins) | third_party)
    return [Requirement(m, pins.get(m, m)) for m in modules]


_IMPORT_CHECK = """
import importlib, json, sys
failed = {}
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except BaseException as exc:
        failed[name] = f"{type(exc).__name__}: {exc}"
print(json.dumps(failed))
"""


def _version_problem(line: str) -> str | None:
    """Why the installed distribution does not meet a requirements.txt line (None when it does,
    or when the line cannot be checked)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        from packaging.requirements import InvalidRequirement, Requirement as Req
    except ImportError:  # packaging comes with pytest; without it only imports are checked
        return None
    try:
        req = Req(line)
    except InvalidRequirement:
        return None
    try:
        have = version(req.name)
    except PackageNotFoundError:
        return None  # not installed as a distribution: the import check speaks for it
    if req.specifier and not req.specifier.contains(have, prereleases=True):
        return f"{req.name} {have} is installed, the suite needs {req.specifier}"
    return None


def missing_requirements(path: Path, env: Mapping[str, str] | None = None) -> list:
    """[(Requirement, why)] for what the suite at ``path`` needs and does not get: each module
    imported in a fresh interpreter with the environment the runs get, each pinned version checked."""
    reqs = suite_requirements(path)
    with tempfile.TemporaryDirectory(prefix="conformance-check-") as scratch:
        done = subprocess.run(
            [sys.executable, "-c", _IMPORT_CHECK, *(r.module for r in reqs)],
            cwd=scratch,
            env=dict(env) if env is not None else None,
            capture_output=True,
            text=True,
            timeout=300,
        )
    try:
        failed = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        failed = {r.module: f"the import check itself failed: {done.stderr.strip()[-300:]}" for r in reqs}
    out = []
    for r in reqs:
        why = failed.get(r.module) or (_version_problem(r.pip) if r.pip != r.module else None)
        if why:
            out.append((r, why))
    return out


def git_clone(dest: Path) -> None:
    """Clone the pinned suite + spec into ``dest`` (needs network)."""
    tmp = dest.with_name(dest.name + ".partial")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.parent.mkdir(parents=True, exist_ok=True)

    def run(*args):
        subprocess.run(["git", *args], check=True, timeout=900, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    run("clone", "--quiet", SUITE_REPO, str(tmp))
    run("-C", str(tmp), "checkout", "--quiet", SUITE_COMMIT)
    spec = tmp / "array-api"
    if spec.exists():
        shutil.rmtree(spec)
    run("clone", "--quiet", SPEC_REPO, str(spec))
    run("-C", str(spec), "checkout", "--quiet", SPEC_COMMIT)
    tmp.rename(dest)


Cloner = Callable[[Path], None]


def local_checkouts() -> list[Path]:
    """Where the README's clone commands put the suite: ``array-api-tests`` in the current
    directory, and in the repository root."""
    places = [Path.cwd() / "array-api-tests"]
    if IN_CHECKOUT:
        places.append(REPO_ROOT / "array-api-tests")
    return list(dict.fromkeys(p.resolve() for p in places))


def locate(
    explicit: str | Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    cache_dir: Path | None = None,
    cloner: Cloner | None = git_clone,
    local: list[Path] | None = None,
    prog: str | None = None,
) -> SuiteInfo:
    """Find the suite: ``explicit`` path, else $ARRAY_API_TESTS_DIR, else ``./array-api-tests``
    (``local``), else the cache folder (cloning into it with ``cloner`` when it is empty;
    ``cloner=None`` or $CONFORMANCE_NO_CLONE=1 disables cloning)."""
    environ = os.environ if environ is None else environ
    if explicit:
        return verify(Path(explicit))
    if environ.get(ENV_SUITE_DIR):
        return verify(Path(environ[ENV_SUITE_DIR]), f"${ENV_SUITE_DIR}")
    for place in local_checkouts() if local is None else local:
        if _looks_like_suite(place):
            return verify(place, "the checkout")
    cache_dir = Path(cache_dir if cache_dir is not None else DEFAULT_CACHE_SUITE)
    if _looks_like_suite(cache_dir):
        return verify(cache_dir, "the cached checkout")
    if cloner is None or environ.get(ENV_NO_CLONE, "") not in ("", "0"):
        raise SuiteNotFound(how_to_provide(prog=prog))
    try:
        cloner(cache_dir)
    except (OSError, subprocess.SubprocessError) as exc:  # network down, git missing, git failed
        detail = getattr(exc, "stderr", None) or exc
        if isinstance(detail, bytes):
            detail = detail.decode(errors="replace")
        raise SuiteNotFound(
            f"Could not clone the suite into {cache_dir} ({str(detail).strip()[:300]}).\n\n" + how_to_provide(prog=prog)
        ) from None
    return verify(cache_dir, "the fresh clone")
