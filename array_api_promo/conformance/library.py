"""``python -m conformance --library MODULE``: the upstream suite run against any
importable array namespace, rendered as that library's own report under
``conformance/reports/<library>-<version>/``; ``python -m conformance --storage dask``:
``array_api_promo`` itself over Dask, reported the same way under
``conformance/reports/array_api_promo-dask/``.

A report folder holds ``results.json`` (the normalised results, the only input
of the report), ``README.md`` (the report), ``xfails.txt`` (every failing test,
for the suite's ``--xfails-file``) and ``skips.txt`` (tests that hit the per-test
timeout, for ``--skips-file``). ``--render-reports`` re-renders every folder from
its ``results.json`` alone.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from . import (
    DATA_DIR,
    DEFAULT_API_VERSION,
    IN_CHECKOUT,
    RESULTS_DIR,
    crosscheck,
    library_report,
    normalize,
    provenance,
    runner,
    xfails,
)
from .attribution import attribute
from .plan import PolicyTarget, policy_label

#: The dtypes without which the pinned suite cannot import a namespace (its dtype_helpers.py reads them
#: at import); the optional-dtypes plugin lets it, and the tests that need them are not applicable.
OPTIONAL_DTYPES = ("float64", "complex64", "complex128")


def absent_dtypes(info: dict) -> tuple:
    """The optional dtypes a probed library lacks (none known when it did not import)."""
    if info.get("error") or "dtypes" not in info:
        return ()
    return tuple(n for n in OPTIONAL_DTYPES if n not in info["dtypes"])


REPORTS_DIR = DATA_DIR / "reports" if IN_CHECKOUT else Path.cwd() / "conformance-reports"
RESULTS_NAME = "results.json"
#: The report's failing tests as annotated xfails (``--write-xfails``'s format), for a maintainer to commit.
ANNOTATED_XFAILS_NAME = "xfails-annotated.txt"
REPORT_NAME = "README.md"

#: Modules that wrap another library: the report is named after the wrapped one.
WRAPPER_PREFIX = "array_api_compat."

_PROBE = r"""
import importlib, json, sys
name = sys.argv[1]
DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
          "complex64", "complex128")
out = {"module": name}
try:
    mod = importlib.import_module(name)
except BaseException as exc:  # any import failure is the report's subject, not a crash
    out["error"] = f"{type(exc).__name__}: {exc}"
    print(json.dumps(out)); sys.exit(0)
wrapped = name[len("array_api_compat."):] if name.startswith("array_api_compat.") else name
top = wrapped.split(".")[0]
def version(pkg):
    try:
        from importlib.metadata import version as v
        return v(pkg)
    except ImportError:  # PackageNotFoundError: not an installed distribution, use __version__
        return getattr(sys.modules.get(pkg) or importlib.import_module(pkg), "__version__", "unknown")
out["library"] = wrapped
out["version"] = version(top)
if wrapped != name:
    out["wrapper"] = {"module": name, "version": version("array_api_compat")}
out["api_version"] = getattr(mod, "__array_api_version__", None)
out["extensions"] = {ext: hasattr(mod, ext) for ext in ("linalg", "fft")}
out["dtypes"] = [n for n in DTYPES if hasattr(mod, n)]
print(json.dumps(out))
"""


def probe(module: str, target: PolicyTarget | None = None) -> dict:
    """Import ``module`` in a fresh interpreter (with ``target``'s environment variables): its
    library, version, declared API version and extensions (or the import error)."""
    env = runner.build_env(target or PolicyTarget(module, module), "", Path("/dev/null"))
    for var in ("ARRAY_API_TESTS_VERSION", "ARRAY_API_STRICT_API_VERSION"):  # let it declare its own
        env.pop(var, None)
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, module], capture_output=True, text=True, env=env, timeout=300, check=False
    )
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return {"module": module, "error": (proc.stderr.strip().splitlines() or ["no output"])[-1]}


def probe_storage(target: PolicyTarget, policy: str, storage: str) -> dict:
    """``probe`` of ``array_api_promo`` bound to ``policy`` over ``storage`` (``--storage``): the
    package and its version as the library, with the policy and the storage's own version."""
    info = probe(target.module, target)
    info["library"] = provenance.PACKAGE
    info["version"] = provenance.package_version()
    info.pop("wrapper", None)
    info["policy"] = policy
    info["storage"] = {"name": storage, "version": _distribution_version(storage)}
    return info


def _distribution_version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def report_label(info: dict) -> str:
    """``torch-2.13``, ``array_api_strict-2.6``, ``jax.numpy-0.10``: the report folder name."""
    name = info.get("library") or info["module"]
    version = normalize.major_minor(re.sub(r"[+].*", "", str(info.get("version", "unknown"))))
    return policy_label(f"{name}-{version}")


def finish(
    results: dict, info: dict, *, explain_with: str | None, timeout: float | None, collection_log: str | None = None
) -> dict:
    """Library facts, the timeout, and (with ``explain_with``) each wrong-dtype failure
    replayed through that promotion policy."""
    results["library"] = {
        k: info[k]
        for k in ("module", "library", "version", "wrapper", "policy", "storage", "api_version", "extensions", "error")
        if info.get(k) is not None
    }
    absent = absent_dtypes(info)
    if absent:
        results["library"]["absent_dtypes"] = list(absent)
        normalize.mark_not_applicable(results, absent)
    if timeout:
        results["per_test_timeout"] = timeout
    if collection_log and not results["tests"]:
        results.setdefault("collection_errors", []).append({"nodeid": "(session)", "message": collection_log})
    if explain_with:
        results["explained_with"] = {"policy": explain_with, **provenance.package_provenance()}
        for e in results["tests"]:
            a = attribute(explain_with, e)
            if a:
                e["attribution"] = a
            e.pop("cause", None)  # an earlier report's (--merge-with): made again
            if e["outcome"] in normalize.FAILING:
                e["cause"] = failure_cause(e, explain_with)
    return results


#: torch's (c10) names of its scalar types, as its refusals name them ("attempted to promote UInt32
#: and Byte"), and ours.
_SCALAR_TYPES = {
    "Bool": "bool",
    "Byte": "uint8",
    "UInt16": "uint16",
    "UInt32": "uint32",
    "UInt64": "uint64",
    "Char": "int8",
    "Short": "int16",
    "Int": "int32",
    "Long": "int64",
    "Half": "float16",
    "BFloat16": "bfloat16",
    "Float": "float32",
    "Double": "float64",
    "ComplexFloat": "complex64",
    "ComplexDouble": "complex128",
}
_REFUSAL = re.compile(r"attempted to promote (\w+) and (\w+)")


def failure_cause(entry: dict, policy: str) -> dict:
    """Whether ``policy`` reproduces this failure of the library (a promotion rule: a wrong dtype it
    predicts, operands it refuses as the library does) or the failure is outside promotion (a missing
    name or signature, a kernel's value or a missing kernel, a special-case value, another exception).
    ``{"cause": one of CAUSES, "detail": why}``."""
    kind = entry.get("kind")
    attr = entry.get("attribution") or {}
    message = (entry.get("message") or "").splitlines()[0] if entry.get("message") else ""
    if kind in (normalize.MISSING_NAME, normalize.WRONG_SIGNATURE):
        return {"cause": library_report.MISSING, "detail": kind}
    if kind == normalize.SPECIAL_CASE:
        return {"cause": library_report.SPECIAL_VALUE, "detail": entry.get("spec_case") or message[:120]}
    if attr.get("explained") and attr.get("heading"):  # a cause the harness names (unknown sizes)
        return {
            "cause": library_report.EXCEPTION if kind == normalize.UNEXPECTED_EXCEPTION else library_report.KERNEL,
            "detail": attr["rule"],
        }
    if kind == normalize.WRONG_DTYPE:
        if attr.get("explained"):
            return {"cause": library_report.PROMOTION, "detail": attr["rule"]}
        return {
            "cause": library_report.NOT_PREDICTED,
            "detail": attr.get("rule") or "its operands could not be replayed",
        }
    if kind in (normalize.WRONG_VALUE, normalize.WRONG_SHAPE):
        return {"cause": library_report.KERNEL, "detail": f"{kind} computed by the library"}
    refused = _REFUSAL.search(message)
    if refused and all(n in _SCALAR_TYPES for n in refused.groups()):
        pair = tuple(_SCALAR_TYPES[n] for n in refused.groups())
        error = refusal(policy, pair, entry.get("spec_function") or "")
        if error:
            return {
                "cause": library_report.PROMOTION,
                "detail": f"the library and the policy refuse {pair[0]} with {pair[1]}",
            }
        return {
            "cause": library_report.NOT_PREDICTED,
            "detail": f"the library refuses {pair[0]} with {pair[1]}, the policy promotes them",
        }
    if crosscheck.NO_KERNEL.search(message):
        return {"cause": library_report.KERNEL, "detail": "no kernel for the drawn dtype: " + message[:120]}
    return {"cause": library_report.EXCEPTION, "detail": message[:160] or (kind or "")}


def refusal(policy: str, pair: tuple, function: str) -> str | None:
    """The policy's error for the two dtypes (as n-d arrays) under ``function``, or None if it promotes them."""
    from array_api_promo import promotion
    from array_api_promo._dtypes import dtype_by_name

    op = normalize.elementwise_name(function)
    pol = promotion.get_policy(policy)
    try:
        ops = [promotion.nd(dtype_by_name(n)) for n in pair]
    except ValueError:  # a dtype this build lacks (bfloat16 without ml_dtypes)
        return None
    trace = pol.explain(*ops, op=op if op in promotion.OPS else "result_type")
    return None if trace.error is None else str(trace.error)


def write_report(results: dict, out_dir: Path, *, execute=None) -> Path:
    """Run the reproducers against the library, then write results.json, README.md,
    xfails.txt and skips.txt into ``out_dir``."""
    library_report.record_reproducers(results, **({} if execute is None else {"execute": execute}))
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    normalize.dump(results, out_dir / RESULTS_NAME)
    render_dir(out_dir)
    return out_dir


def render_dir(out_dir: Path) -> str:
    """Re-render a report folder from its results.json (no library needed)."""
    out_dir = Path(out_dir)
    results = normalize.load(out_dir / RESULTS_NAME)
    text = library_report.render(results)
    (out_dir / REPORT_NAME).write_text(text, encoding="utf-8")
    (out_dir / "xfails.txt").write_text(library_report.xfails_text(results), encoding="utf-8")
    (out_dir / "skips.txt").write_text(library_report.skips_text(results), encoding="utf-8")
    annotated = xfails.render_annotated(results, made_by=library_report.regenerate_command(results))
    (out_dir / ANNOTATED_XFAILS_NAME).write_text(annotated, encoding="utf-8")
    return text


def timeout_args(seconds: float | None) -> list:
    """pytest-timeout's options (signal method: the test fails, the run goes on); none
    when it is not installed."""
    import importlib.util

    if not seconds or importlib.util.find_spec("pytest_timeout") is None:
        return []
    return ["--timeout", f"{seconds:g}", "--timeout-method", "signal"]


def report_dirs(reports_dir: Path = REPORTS_DIR) -> list:
    return sorted(p.parent for p in Path(reports_dir).glob(f"*/{RESULTS_NAME}"))


def our_results() -> tuple:
    """This package's committed results at the default API version, for the index's side-by-side."""
    return tuple(r for r in normalize.load_all(RESULTS_DIR) if r["api_version"] == DEFAULT_API_VERSION)


def write_index(reports_dir: Path) -> Path:
    """``reports_dir/README.md``: every report side by side with ours."""
    reports_dir = Path(reports_dir)
    all_results = []
    for d in report_dirs(reports_dir):
        r = normalize.load(d / RESULTS_NAME)
        r["_folder"] = d.name
        all_results.append(r)
    path = reports_dir / library_report.INDEX_NAME
    path.write_text(library_report.render_index(all_results, our_results()), encoding="utf-8")
    return path
