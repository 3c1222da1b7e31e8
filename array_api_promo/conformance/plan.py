"""The plan of a job: what runs (targets at API versions, under which seeds and settings) and where
its results go, with every name, path and requirement checked before anything runs (a
``UsageError``: one line, exit code 2).

Called first by each subcommand (``commands/``), right after the command line is parsed; the
runner then runs what the plan says, and ``publish`` writes where it says.
"""

from __future__ import annotations

import importlib.util
import os
import re
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from array_api_promo.promotion import available_policies

from . import (
    API_VERSIONS,
    CACHE_DIR,
    DEFAULT_API_VERSION,
    DEVIATIONS_MD,
    IN_CHECKOUT,
    POLICY_MODULES,
    RESULTS_DIR,
    SUITE_COMMIT,
    XFAILS_DIR,
    suite as suite_mod,
    with_repo_on_path,
)

DEFAULT_POLICIES = ("array_api", "torch", "paddle", "mlx")  # the policies whose results DEVIATIONS.md holds
DEFAULT_STORAGE_POLICIES = ("array_api",)  # the storage subcommand: the standard policy's report
DEFAULT_MAX_EXAMPLES = 200
DEFAULT_SEED = 0
#: Hypothesis examples per test of a library's or a storage's report made with no ``--max-examples``:
#: what the committed library reports use (array-api-strict, NumPy, JAX).
REPORT_MAX_EXAMPLES = 20
DEFAULT_TEST_TIMEOUT = 300.0
#: ``storage dask``: every value the suite checks is a computed graph. array-api-compat's Dask
#: namespace took up to 182 s for one test (``test_svd``, 20 examples, one worker, shrinking its
#: failure); twice that on 2 busy workers must not count as a hang.
DASK_TEST_TIMEOUT = 600.0


class UsageError(Exception):
    """A bad name or a missing piece, found before any run: one line, exit code 2."""


class IncompleteRun(Exception):
    """A run of the suite that did not give a whole result: exit code 3, one line; nothing
    committed is written (the run's own results go to a scratch folder, marked incomplete)."""


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
    #: the environment variables the namespace is run with (made from the fields above)
    env: dict = field(init=False, compare=False, repr=False)

    def __post_init__(self):
        out = {}
        if self.policy_env:
            out[ENV_POLICY] = self.policy_env
        if self.version_env:
            out[ENV_API_VERSION] = self.version_env
        if self.storage_env:
            out[ENV_STORAGE] = self.storage_env
        out.update(self.extra_env)
        object.__setattr__(self, "env", out)


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


def engine_policy(target: PolicyTarget) -> Any:
    """The policy (a name, or the object a ``module:attr`` names) that explains the target's failures;
    None when it does not load."""
    policy: Any = target.policy_env or target.label
    if target.policy_env and ":" in target.policy_env:
        try:
            policy = load_policy_object(target.policy_env)
            if isinstance(policy, type):
                policy = policy()
        except (ImportError, AttributeError, TypeError):  # attribution is optional: no policy, no attribution
            policy = None
    return policy


def shrinks(policy: str, *, no_shrink: bool, shrink_all: bool) -> bool:
    """Whether a run under ``policy`` shrinks its failing examples: the standard policy's do (a failure
    there is a defect), an intentional policy's do not (its failures are by design) unless ``shrink_all``."""
    from . import INTENTIONAL_POLICIES

    return not no_shrink and (shrink_all or policy not in INTENTIONAL_POLICIES)


# ---------------------------------------------------------------------------
# checks: each a UsageError before anything runs
# ---------------------------------------------------------------------------
#: What running the suite needs (module, distribution), from the ``conformance`` extra.
RUN_REQUIREMENTS = (
    ("pytest", "pytest"),
    ("hypothesis", "hypothesis"),
    ("pytest_jsonreport", "pytest-json-report"),
    ("rich", "rich"),
)


def check_requirements(workers: int) -> None:
    needed = RUN_REQUIREMENTS + ((("xdist", "pytest-xdist"),) if workers > 1 else ())
    missing = [dist for module, dist in needed if importlib.util.find_spec(module) is None]
    if missing:
        raise UsageError(
            f"missing {', '.join(missing)}: install the harness's extra with pip install 'array_api_promo[conformance]'"
        )


def check_policy(name: str, module_map: Mapping[str, str] | None = None, *, flag: str = "policy") -> None:
    """A registered policy name, a ``--module-map`` name, or an importable ``module:attribute``
    (or module defining ``POLICY``) naming a Policy; ``flag`` names the option in the error."""
    from array_api_promo import promotion

    if name in (module_map or {}) or name in promotion.available_policies():
        return
    what = "policy" if flag == "policy" else f"--{flag}"
    if ":" not in name and "." not in name:
        raise UsageError(
            f"unknown {what} {name!r}: registered policies are {', '.join(promotion.available_policies())}; "
            "or give module:attribute"
        )
    spec = name if ":" in name else f"{name}:POLICY"
    try:
        obj = load_policy_object(spec)
    except (ImportError, AttributeError) as exc:
        raise UsageError(f"{what} {name!r}: cannot load {spec}: {exc}") from None
    if not (isinstance(obj, promotion.Policy) or (isinstance(obj, type) and issubclass(obj, promotion.Policy))):
        raise UsageError(f"{what} {name!r}: {spec} is a {type(obj).__name__}, not a promotion Policy")


def check_suite_imports(name: str, version: str, module_map: Mapping[str, str] | None = None) -> None:
    """Refuse, before any run, a policy and version whose namespace the pinned suite cannot import
    (no float64, or no complex dtype: ``suite.namespace_blockers``), rather than fail at collection."""
    if name in (module_map or {}):  # a module of the user's: the suite itself will say
        return
    policy = engine_policy(resolve_policy(name, module_map, version))  # a name, or the object named
    missing = suite_mod.namespace_blockers(policy, version) if policy is not None else []
    if not missing:
        return
    if version == "2021.12":
        why, instead = "the 2021.12 standard has no complex dtypes", "Run it at 2022.12 or later."
    else:
        why = f"policy {name!r} has no {' and no '.join(missing)}"
        instead = (
            "Its promotion rules are compared with the standard in DEVIATIONS.md, Part 3, and by "
            f"`array-api-promo compare array_api {name}`."
        )
    raise UsageError(
        f"policy {name!r} at {version} cannot be run against the pinned array-api-tests "
        f"({SUITE_COMMIT[:7]}): on import its dtype_helpers.py takes float32, float64 and a complex dtype "
        f"from the namespace and calls asarray(complex()), and {why}. {instead}"
    )


def check_api_versions(versions) -> None:
    for version in versions:
        if version not in API_VERSIONS:
            raise UsageError(f"unknown API version {version!r}: known are {', '.join(API_VERSIONS)}")


def check_creatable(path: Path | None, flag: str, *, folder: bool) -> None:
    """``path`` can be written by this run: a folder (or file) that exists as such and can be written,
    or whose nearest existing parent takes a new folder. Tried, not inferred from permission bits
    (which pass for root where nothing can be made, under /proc): a folder is made there and removed
    at once, and an existing file is opened for writing without truncating it."""
    if path is None:
        return
    path = Path(path)
    what = "folder" if folder else "file"
    if path.exists():
        if folder and not path.is_dir():
            raise UsageError(f"{flag} {path}: a file is there; give a folder")
        if not folder and path.is_dir():
            raise UsageError(f"{flag} {path}: a folder is there; give a file path")
        probe_in = path if folder else None
        if not folder:
            try:
                os.close(os.open(path, os.O_WRONLY))
            except OSError as exc:
                raise UsageError(f"{flag} {path}: not writable ({exc.strerror})") from None
            return
    else:
        probe_in = path.parent
        while not probe_in.exists():
            probe_in = probe_in.parent
        if not probe_in.is_dir():
            raise UsageError(f"{flag} {path}: cannot create the {what}, {probe_in} is a file")
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".conformance-probe-", dir=probe_in))
    except OSError as exc:
        if path.exists():
            raise UsageError(f"{flag} {path}: not writable ({exc.strerror})") from None
        raise UsageError(f"{flag} {path}: cannot create the {what} in {probe_in} ({exc.strerror})") from None


def check_file(path: Path | None, flag: str, expected: str) -> None:
    """A file the job reads is there."""
    if path is not None and not Path(path).is_file():
        raise UsageError(f"{flag} {path}: no such file (give {expected})")


def check_suite_requirements(info) -> None:
    """The suite's own requirements (its requirements.txt, and what its modules import) import in the
    environment the runs get, in the versions it asks for; else one line naming them and the pip command."""
    missing = suite_mod.missing_requirements(info.path, with_repo_on_path(os.environ))
    if missing:
        pip = " ".join(f"'{r.pip}'" if set(r.pip) & set("<>=!~ ;") else r.pip for r, _ in missing)
        whys = "; ".join(f"{r.module}: {why}" for r, why in missing)
        raise UsageError(f"the suite at {info.path} needs what does not import here ({whys}): pip install {pip}")


def locate_suite(args, cloner, console):
    """The suite checkout (``--suite``, ``$ARRAY_API_TESTS_DIR``, ...), its requirements checked and its
    warnings (another commit) printed."""
    info = suite_mod.locate(args.suite, cloner=None if args.no_clone else cloner, prog=args.prog)
    check_suite_requirements(info)
    for w in info.warnings:
        console.print(f"[yellow]warning:[/] {w}", highlight=False)
    return info


# ---------------------------------------------------------------------------
# where results go
# ---------------------------------------------------------------------------
def scratch_dir() -> Path:
    """A new folder name for one job's results (time and process: two harnesses never share one)."""
    root = (CACHE_DIR if IN_CHECKOUT else Path.cwd() / "conformance-runs") / "scratch"
    return root / f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"


def committed_destinations() -> tuple[Path, Path, Path]:
    """(results dir, xfails dir, DEVIATIONS.md): the main job's committed files."""
    return RESULTS_DIR, XFAILS_DIR, DEVIATIONS_MD


def destinations(args, *, committed: bool) -> tuple[Path, Path, Path]:
    """(results dir, xfails dir, report path). The committed files only for ``committed`` runs
    from a checkout; explicit options win; anything else goes to a new scratch folder."""
    if args.results_dir is None and committed and IN_CHECKOUT:
        results, xfails, report = committed_destinations()
    else:
        base = args.results_dir or scratch_dir()
        results, xfails, report = base, base / "xfails", base / "DEVIATIONS.md"
    return results, args.xfails_dir or xfails, args.output or report


def weaker_than(stored: dict, max_examples: int, seeds) -> str | None:
    """Why a report made with ``max_examples`` under ``seeds`` is weaker than the ``stored`` results it
    would replace (fewer examples per test, or fewer draws), or None when it is not."""
    h = stored.get("hypothesis") or {}
    had_seeds = list(h.get("seeds") or [h.get("seed")])
    had_examples = h.get("max_examples") or 0
    why = []
    if max_examples < had_examples:
        why.append(f"{max_examples} examples per test against its {had_examples}")
    if len(set(seeds)) < len(had_seeds):
        why.append(f"{len(set(seeds))} seed(s) against its {len(had_seeds)}")
    return " and ".join(why) or None


def earlier_draws(
    merge_with, lib: dict, version: str, *, max_examples: int, shrink: bool, timeout, pytest_args, seeds
) -> dict:
    """``--merge-with``'s results, checked before anything runs against what can be known then
    (library version, API version, examples, shrinking, timeout, seeds, for a storage the source),
    stripped of what a report adds to its draws (attributions, reproducer outputs, cross-check: made
    again for the merge)."""
    from . import normalize, provenance

    path = Path(merge_with)
    path = path / "results.json" if path.is_dir() else path
    if not path.is_file():
        raise UsageError(f"--merge-with {merge_with}: no results.json there")
    try:
        earlier = normalize.load(path)
        h = earlier["hypothesis"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"--merge-with {path}: not a report's results ({type(exc).__name__}: {exc})") from None
    expected = {
        "namespace module": (earlier.get("module"), lib.get("module")),
        "library version": ((earlier.get("library") or {}).get("version"), lib.get("version")),
        "storage": ((earlier.get("library") or {}).get("storage"), lib.get("storage")),
        "API version": (earlier.get("api_version"), version),
        "max_examples": (h.get("max_examples"), max_examples),
        "shrinking": (h.get("shrink", True), shrink),
        "per-test timeout": (earlier.get("per_test_timeout"), timeout),
        "pytest arguments": (earlier.get("pytest_args") or [], list(pytest_args)),
    }
    if lib.get("storage"):  # array_api_promo's own draws: of this very source
        expected["source hash"] = ((earlier.get("package") or {}).get("source_sha256"), provenance.source_hash())
    for what, (was, now) in expected.items():
        if was != now:
            raise UsageError(f"--merge-with {path}: its {what} is {was!r}, this run's {now!r}; draws must match")
    again = sorted(set(normalize.draw_seeds(earlier)) & set(seeds))
    if again:
        raise UsageError(
            f"--merge-with {path}: seed(s) {', '.join(map(str, again))} already drawn there "
            f"(seeds {', '.join(map(str, normalize.draw_seeds(earlier)))}); give other seeds"
        )
    for key in ("explained_with", "reproducer_outputs", "cross_check"):
        earlier.pop(key, None)
    earlier["tests"] = [{k: v for k, v in e.items() if k not in ("attribution", "cause")} for e in earlier["tests"]]
    earlier["_merged_from"] = str(path)
    return earlier
