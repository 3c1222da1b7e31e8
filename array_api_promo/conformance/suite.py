"""Locating (and if need be fetching) the upstream array-api-tests checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from . import CACHE_DIR, IN_CHECKOUT, REPO_ROOT, SPEC_COMMIT, SPEC_REPO, SUITE_COMMIT, SUITE_REPO

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

    @property
    def tests_dir(self) -> Path:
        return self.path / "array_api_tests"

    @property
    def spec_dir(self) -> Path:
        return self.path / "array-api"


def _display(path: Path) -> str:
    try:
        return str(Path(path).relative_to(CACHE_DIR.parent.parent))
    except ValueError:
        return str(path)


def how_to_provide(target: Path | str = "array-api-tests") -> str:
    t = str(target)
    return (
        "The upstream array-api-tests suite is not available.\n"
        "Provide it with these two git commands (pinned commits):\n\n"
        f"    git clone {SUITE_REPO} {t} && git -C {t} checkout {SUITE_COMMIT[:7]}\n"
        f"    git clone {SPEC_REPO} {t}/array-api && git -C {t}/array-api checkout {SPEC_COMMIT[:7]}\n\n"
        f"then pass it as `python -m conformance --suite {t}` or set the environment variable "
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


def verify(path: Path) -> SuiteInfo:
    """Describe a suite checkout at ``path``; warn when the commits differ from the pins."""
    path = Path(path).resolve()
    if not _looks_like_suite(path):
        raise SuiteNotFound(
            f"{path} does not look like an array-api-tests checkout "
            "(no array_api_tests/ folder or conftest.py).\n\n" + how_to_provide(path)
        )
    info = SuiteInfo(path, _git_head(path) or "unknown", _git_head(path / "array-api") or "unknown")
    if not (path / "array-api" / "src" / "array_api_stubs").is_dir():
        raise SuiteNotFound(f"{path}/array-api (the spec submodule) is missing or empty.\n\n" + how_to_provide(path))
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


#: The standard's dtype names, as the suite's dtype_helpers.py looks them up (``getattr``).
SUITE_DTYPE_NAMES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128",
)  # fmt: skip


def import_blockers(dtype_names) -> list[str]:
    """What a namespace with these dtype names lacks for the pinned suite to import at all.

    Before any test runs, array_api_tests/dtype_helpers.py (at 55fcc60) reads ``xp.float32`` and
    ``xp.float64`` (the components of the complex dtypes), takes the widest complex dtype with
    ``max()`` (an error when there is none) and calls ``xp.asarray(complex())``. A namespace without
    float64 or without any complex dtype ends the run at collection, for every test."""
    names = set(dtype_names)
    missing = [name for name in ("float32", "float64") if name not in names]
    if not names & {"complex64", "complex128"}:
        missing.append("complex dtype")
    return missing


def namespace_blockers(policy, api_version: str) -> list[str]:
    """``import_blockers`` of array_api_promo's namespace for ``policy`` (a name or a Policy)."""
    import array_api_promo

    xp = array_api_promo.namespace(policy, api_version)
    return import_blockers(name for name in SUITE_DTYPE_NAMES if hasattr(xp, name))


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
) -> SuiteInfo:
    """Find the suite: ``explicit`` path, else $ARRAY_API_TESTS_DIR, else ``./array-api-tests``
    (``local``), else the cache folder (cloning into it with ``cloner`` when it is empty;
    ``cloner=None`` or $CONFORMANCE_NO_CLONE=1 disables cloning)."""
    environ = os.environ if environ is None else environ
    if explicit:
        return verify(Path(explicit))
    if environ.get(ENV_SUITE_DIR):
        return verify(Path(environ[ENV_SUITE_DIR]))
    for place in local_checkouts() if local is None else local:
        if _looks_like_suite(place):
            return verify(place)
    cache_dir = Path(cache_dir if cache_dir is not None else DEFAULT_CACHE_SUITE)
    if _looks_like_suite(cache_dir):
        return verify(cache_dir)
    if cloner is None or environ.get(ENV_NO_CLONE, "") not in ("", "0"):
        raise SuiteNotFound(how_to_provide())
    try:
        cloner(cache_dir)
    except (OSError, subprocess.SubprocessError) as exc:  # network down, git missing, git failed
        detail = getattr(exc, "stderr", None) or exc
        if isinstance(detail, bytes):
            detail = detail.decode(errors="replace")
        raise SuiteNotFound(
            f"Could not clone the suite into {cache_dir} ({str(detail).strip()[:300]}).\n\n" + how_to_provide()
        ) from None
    return verify(cache_dir)
