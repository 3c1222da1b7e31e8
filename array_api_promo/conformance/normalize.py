"""Turning a pytest-json-report file into the normalised, machine-independent
results stored under ``conformance/results/``; failure classification."""

from __future__ import annotations

import platform
import re
from pathlib import Path

from .model import (  # noqa: F401 (the shared results model, re-exported for the callers of normalize)
    FAILING,
    KINDS,
    MESSAGE_LIMIT,
    MISSING_NAME,
    SCHEMA,
    SPECIAL_CASE,
    TIMEOUT,
    UNEXPECTED_EXCEPTION,
    WRONG_DTYPE,
    WRONG_SHAPE,
    WRONG_SIGNATURE,
    WRONG_VALUE,
    dump,
    elementwise_name,
    load,
    load_all,
    scrub,
    spec_function,
    split_nodeid,
)

_NOISE = re.compile(r"^(assert |\s*\+\s+where |Falsifying example|You can reproduce|Highest target)")


def trim(text: str, limit: int = MESSAGE_LIMIT, cut_noise: bool = False) -> str:
    lines = [ln.rstrip() for ln in text.strip().splitlines()]
    if cut_noise:
        for i, ln in enumerate(lines):
            if i and _NOISE.match(ln):
                lines = lines[:i]
                break
    out = "\n".join(ln for ln in lines if ln.strip())
    if len(out) > limit:
        cut = out[: limit - 1]
        space = max(cut.rfind(" "), cut.rfind("\n"))
        if space > limit // 2:  # end at a word boundary, not mid-token (``Array(1706, d…``)
            cut = cut[:space]
        out = cut.rstrip(" ,(\n") + " …"
    return out


# Tests whose operands come from ``xp.empty``: their values are uninitialised memory, so
# they differ from run to run and are masked for results to be byte-identical.
UNINITIALISED_VALUE_TESTS = re.compile(r"test_data_type_functions\.py::TestResultType::|test_dlpack\.py::")
# ours and array-api-strict's ``Array(...)``, PyTorch's ``tensor(...)``, NumPy's ``array(...)``
_ARRAY_VALUES = re.compile(r"\b(Array|tensor|array)\((\[[^=]*?\]|[^\[\]=(),]+), dtype=")


def mask_uninitialised(nodeid: str, text: str) -> str:
    """``Array([1], dtype=uint32...)`` -> ``Array([?], dtype=uint32...)`` (``tensor(...)``, ``array(...)``
    alike) for tests that draw ``xp.empty`` operands (see ``UNINITIALISED_VALUE_TESTS``)."""
    if not text or not UNINITIALISED_VALUE_TESTS.search(nodeid):
        return text
    return _ARRAY_VALUES.sub(lambda m: f"{m.group(1)}({'[?]' if m.group(2).startswith('[') else '?'}, dtype=", text)


# --------------------------------------------------------------------------
# classification
# --------------------------------------------------------------------------
_MISSING = re.compile(
    r"is not defined in|not found in array (?:module|object)|is missing the|"
    r"_UndefinedStub|undefined stub|has no attribute|cannot import name|does not have required attributes"
)
_DTYPE = re.compile(r"\.dtype=\w+, but should be|should be (?:the )?default\b[^\n]*dtype|wrong dtype", re.I)
_SHAPE = re.compile(r"shape=\S.*but should be|wrong shape", re.I)
_TIMEOUT = re.compile(r"^(?:E\s+)?Failed: Timeout \(?>", re.M)
_EXC_HEAD = re.compile(r"^(?:E\s+)?(?:[\w.]+\.)?([A-Z]\w*(?:Error|Exception|Exit|Warning))\b")


def exception_name(message: str) -> str | None:
    for line in message.splitlines():
        m = _EXC_HEAD.match(line.strip())
        if m:
            return m.group(1)
    return None


def classify(nodeid: str, outcome: str, message: str) -> str | None:
    """Failure kind of a failed/errored test (None for other outcomes)."""
    if outcome not in FAILING:
        return None
    module = Path(split_nodeid(nodeid)[0]).stem
    if _TIMEOUT.search(message):
        return TIMEOUT
    exc = exception_name(message)
    if (
        module == "test_has_names"
        or _MISSING.search(message)
        or exc in ("AttributeError", "ImportError", "ModuleNotFoundError")
    ):
        return MISSING_NAME
    if module == "test_signatures":
        return WRONG_SIGNATURE
    if module == "test_special_cases" and exc in (None, "AssertionError") and not _DTYPE.search(message):
        return SPECIAL_CASE
    if _DTYPE.search(message):
        return WRONG_DTYPE
    if _SHAPE.search(message):
        return WRONG_SHAPE
    if outcome == "error" or "Unexpected exception" in message or (exc and exc != "AssertionError"):
        return UNEXPECTED_EXCEPTION
    return WRONG_VALUE


# --------------------------------------------------------------------------
# dtype failure details
# --------------------------------------------------------------------------
_DTYPE_MSG = re.compile(
    r"(?P<what>[\w.\[\]]+)\.dtype=(?P<got>\w+), but should be (?P<want>\w+) \[(?P<func>[\w.]+)\((?P<ins>[^)]*)\)\]"
)
# Hypothesis "Draw 1 (x1): Array([...], dtype=int8)" lines, for operand ranks.
_DRAW = re.compile(r"Draw \d+ \((?P<label>[^)]+)\): (?P<repr>.*)")


_SNIPPET = re.compile(r"=+ FAILING CODE SNIPPET:\s*\n(?P<code>.*?)\n\s*=+", re.S)


def failing_code(text: str) -> str | None:
    """The suite's 'FAILING CODE SNIPPET' (a call with its inputs), if reported."""
    m = _SNIPPET.search(text or "")
    if not m:
        return None
    code = " ".join(ln.strip() for ln in m.group("code").splitlines() if ln.strip())
    return code if len(code) <= 2000 else None


# An array argument as printed by the libraries: ours and array_api_strict
# (``Array([1], dtype=int8)``, ``Array(1, dtype=array_api_strict.int8)``), NumPy
# (``array([1, 2], dtype=int8)``) and PyTorch (``tensor([1, 2], dtype=torch.int8)``).
# NumPy and PyTorch do not print their default dtypes; ``repr_default_dtype`` infers them.
ARRAY_REPR = re.compile(
    r"\b(?P<kind>Array|array|tensor)\((?P<data>(?:[^()]|\([^()]*\))*?)(?:, dtype=(?:\w+\.)*(?P<dtype>\w+))?"
    r"(?:, \w+=[^,()]*)*\)"
)
_DEFAULT_FLOAT = {"array": "float64", "tensor": "float32"}


def repr_default_dtype(kind: str, data: str) -> str:
    """The dtype NumPy/PyTorch leave out of an array's repr, from its printed data."""
    if re.search(r"\b(True|False)\b", data):
        return "bool"
    if "j" in data:
        return "complex128" if kind == "array" else "complex64"
    return _DEFAULT_FLOAT.get(kind, "float64") if re.search(r"[.e]|inf|nan", data) else "int64"


def split_top_level(text: str) -> list:
    """Split ``text`` at the commas that are not inside brackets."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_call(code: str) -> dict | None:
    """``xp.f(Array(0., dtype=float64), Array([1.], dtype=float32))`` ->
    {'function': 'f', 'operands': [{'rank': '0-d', 'dtype': 'float64'}, {'rank': 'nd', ...}]};
    Python scalar arguments are {'rank': 'scalar', 'value': '5'}. None if not a plain call."""
    call = code.partition(" with ")[0].strip()
    m = re.fullmatch(r"(?:xp\.)?([A-Za-z_][\w.]*)\((.*)\)", call, re.S)
    if not m:
        return None
    operands = []
    for arg in split_top_level(m.group(2)):
        if arg.startswith("*") or "=" in arg.split("(")[0]:
            continue
        a = ARRAY_REPR.fullmatch(arg)
        if a:
            rank = "nd" if a.group("data").lstrip().startswith("[") else "0-d"
            dtype = a.group("dtype") or repr_default_dtype(a.group("kind"), a.group("data"))
            operands.append({"rank": rank, "dtype": dtype})
        elif re.fullmatch(r"-?(\d+\.?\d*(e[-+]?\d+)?j?|True|False|inf|nan)", arg):
            operands.append({"rank": "scalar", "value": arg})
        else:
            return None
    return {"function": m.group(1).split(".")[-1], "operands": operands} if operands else None


def _balanced(text: str) -> bool:
    return text.count("(") == text.count(")") and text.count("[") == text.count("]")


def parse_dtype_failure(message: str) -> dict | None:
    m = _DTYPE_MSG.search(message)
    if not m:
        return None
    ins = [s.strip() for s in m.group("ins").split(",") if s.strip()]
    return {"function": m.group("func"), "inputs": ins, "got": m.group("got"), "expected": m.group("want")}


def operand_ranks(longrepr: str) -> dict:
    """Best effort: which drawn operands were 0-d (from Hypothesis' falsifying example)."""
    ranks = {}
    for m in _DRAW.finditer(longrepr or ""):
        label, rep = m.group("label"), m.group("repr")
        if re.match(r"^-?[\d.]+(e[-+]?\d+)?j?$|^(True|False)$", rep.strip()):
            ranks[label] = "scalar"
        elif "shape=()" in rep or ("[" not in rep and "(" in rep):
            ranks[label] = "0-d"
        else:
            ranks[label] = "nd"
    return ranks


# --------------------------------------------------------------------------
# report -> results
# --------------------------------------------------------------------------
def _failure_text(test: dict) -> tuple[str, str]:
    """(short message, full longrepr) of the failing phase."""
    for phase in ("setup", "call", "teardown"):
        p = test.get(phase) or {}
        if p.get("outcome") == "failed":
            crash = p.get("crash") or {}
            msg = crash.get("message") or ""
            return msg, p.get("longrepr") or msg
    return "", ""


def _skip_reason(test: dict) -> str:
    for phase in ("setup", "call"):
        p = test.get(phase) or {}
        if p.get("outcome") == "skipped":
            lr = p.get("longrepr") or ""
            m = re.search(r"'Skipped: (.*)'\)\s*$", lr, re.S)
            return m.group(1) if m else lr.splitlines()[-1] if lr else ""
    return ""


_GROUP_SPLIT = re.compile(r"^\s*\+[-+]+ \d+ -+\s*$", re.M)
_EXC_LINE = re.compile(r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Exit)\b.*")


def sub_failures(longrepr: str) -> list:
    """The sub-exceptions of a Hypothesis 'found N distinct failures' ExceptionGroup:
    [(message, block text)] in report order."""
    parts = _GROUP_SPLIT.split(longrepr or "")
    out = []
    for part in parts[1:]:
        lines = [re.sub(r"^\s*\| ?", "", ln) for ln in part.splitlines()]
        start = None
        for i, ln in enumerate(lines):
            if _EXC_LINE.match(ln):
                start = i
        if start is None:
            continue
        msg_lines = []
        for ln in lines[start:]:
            if ln.startswith(("Falsifying example", "Explanation:")):
                break
            msg_lines.append(ln)
        out.append(("\n".join(msg_lines).strip(), "\n".join(lines)))
    return out


def major_minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


#: The distributions whose versions decide what a run draws and how its failures read (the speed
#: plugin patches private parts of Hypothesis and pytest): recorded in every result.
TOOLS = ("hypothesis", "pytest", "pytest-xdist")


def tool_versions() -> dict:
    """{distribution: version} of ``TOOLS`` in this environment (the one the suite runs in); a tool
    that is not installed is left out."""
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for name in TOOLS:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            continue
    return out


def normalise_report(
    raw: dict,
    *,
    policy: str,
    module: str,
    api_version: str,
    suite_commit: str,
    spec_commit: str,
    max_examples: int,
    seed: int,
    roots=(),
    numpy_version: str | None = None,
    tools: dict | None = None,
) -> dict:
    if numpy_version is None:
        import numpy

        numpy_version = numpy.__version__
    if tools is None:
        tools = tool_versions()
    roots = list(roots) + [raw.get("root", "")]
    tests = []
    for t in raw.get("tests", []):
        nodeid = t["nodeid"]
        outcome = t["outcome"]
        entry = {
            "nodeid": nodeid,
            "test_module": Path(split_nodeid(nodeid)[0]).stem,
            "spec_function": spec_function(nodeid),
            "outcome": outcome,
        }
        if outcome in FAILING:
            msg, longrepr = (mask_uninitialised(nodeid, text) for text in _failure_text(t))
            others = []
            if re.match(r"(?:\w+\.)*(?:Base)?ExceptionGroup\b|.*Hypothesis found \d+ distinct failures", msg):
                subs = sub_failures(longrepr)
                if subs:
                    msg, longrepr = subs[0]
                    others = [trim(scrub(m, roots), cut_noise=True) for m, _ in subs[1:]]
            msg = scrub(msg, roots)
            kind = classify(nodeid, outcome, msg or scrub(longrepr, roots))
            entry["kind"] = kind
            if not msg:
                lines = scrub(longrepr, roots).splitlines()
                msg = lines[-1] if lines else ""
            entry["message"] = trim(msg, cut_noise=True)
            if others:
                entry["other_failures"] = others
            draws = [m.group(0) for m in _DRAW.finditer(scrub(longrepr, roots)) if _balanced(m.group("repr"))]
            if draws:
                entry["example"] = trim("\n".join(draws), 400)
            code = failing_code(msg) or failing_code(re.sub(r"^E {1,7}", "", scrub(longrepr, roots), flags=re.M))
            if code:
                entry["failing_code"] = code
            if kind == WRONG_DTYPE:
                detail = parse_dtype_failure(msg)
                if detail:
                    ranks = operand_ranks(longrepr)
                    if ranks:
                        detail["ranks"] = ranks
                    call = parse_call(code) if code else None
                    if call:
                        detail["call"] = call
                    entry["dtype"] = detail
        elif outcome == "skipped":
            entry["reason"] = trim(scrub(_skip_reason(t), roots), 200)
        case = ((t.get("metadata") or {}).get("params") or {}).get("case") or {}
        if isinstance(case, dict) and case.get("raw_case"):
            entry["spec_case"] = case["raw_case"]
        tests.append(entry)
    tests.sort(key=lambda e: e["nodeid"])
    collection_errors = [
        {"nodeid": c.get("nodeid", ""), "message": trim(scrub(c.get("longrepr") or "", roots), 1200)}
        for c in raw.get("collectors", [])
        if c.get("outcome") == "failed"
    ]
    summary = summarise(tests)
    out = {
        "schema": SCHEMA,
        "policy": policy,
        "module": module,
        "api_version": api_version,
        "suite_commit": suite_commit,
        "spec_commit": spec_commit,
        "numpy": major_minor(numpy_version),
        "python": ".".join(platform.python_version_tuple()[:2]),
        "hypothesis": {"max_examples": max_examples, "seed": seed},
        "tools": dict(sorted(tools.items())),
        "summary": summary,
        "tests": tests,
    }
    if collection_errors:
        out["collection_errors"] = sorted(collection_errors, key=lambda c: c["nodeid"])
    return out


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


def summarise(tests: list) -> dict:
    summary = {k: 0 for k in ("passed", "failed", "error", "skipped", "xfailed", "xpassed")}
    for e in tests:
        summary[e["outcome"]] = summary.get(e["outcome"], 0) + 1
    summary["total"] = len(tests)
    na = sum(1 for e in tests if e.get("not_applicable"))
    if na:  # tests that need a dtype the namespace lacks (counted in skipped)
        summary["not_applicable"] = na
    return summary


def draw_seeds(run: dict) -> list:
    """The Hypothesis seeds behind ``run``: one, or those of the draws merged into it."""
    h = run["hypothesis"]
    return list(h.get("seeds") or [h["seed"]])


def merge_draws(runs: list) -> dict:
    """One result from runs of the same target under different Hypothesis seeds: a test
    fails if it failed on any draw (its first failure is kept), and one that failed on
    some draws only says so (``draws``: failed, of, seeds), so that a report does not
    depend on one draw of examples. A run may itself be merged (several ``seeds``,
    ``draws`` on its tests): an earlier report takes new draws without running its own again."""
    if len(runs) == 1:
        return runs[0]
    seeds = [s for r in runs for s in draw_seeds(r)]
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"the same Hypothesis seed in two draws: {seeds}")
    by_id: dict[str, list] = {}
    for r in runs:
        own = draw_seeds(r)
        for e in r["tests"]:
            failed = (e["draws"]["seeds"] if "draws" in e else own) if e["outcome"] in FAILING else []
            by_id.setdefault(e["nodeid"], []).append((e, failed))
    tests = []
    for nodeid in sorted(by_id):
        pairs = by_id[nodeid]
        failed = [s for _, f in pairs for s in f]
        entry = dict(next((e for e, f in pairs if f), pairs[0][0]))
        entry.pop("draws", None)
        if failed and len(failed) < len(seeds):
            entry["draws"] = {"failed": len(failed), "of": len(seeds), "seeds": failed}
        tests.append(entry)
    out = dict(runs[0])
    out["hypothesis"] = {**runs[0]["hypothesis"], "seeds": seeds}
    out["tests"] = tests
    out["summary"] = summarise(tests)
    quotes = {k: v for r in runs for k, v in (r.get("spec_text") or {}).items()}
    if quotes:  # each draw quotes the functions that failed in it
        out["spec_text"] = dict(sorted(quotes.items()))
    errors = {c["nodeid"]: c for r in runs for c in r.get("collection_errors", [])}
    if errors:
        out["collection_errors"] = [errors[k] for k in sorted(errors)]
    return out


#: How a failure names a dtype the namespace lacks: the optional-dtypes plugin's placeholder, or the
#: suite's stand-in for a name the namespace does not define.
_ABSENT_NAME = re.compile(r"<absent dtype '(\w+)'>|\b(\w+) is not defined in\b|undefined stub for '(\w+)'")
NOT_APPLICABLE = "not applicable"


def mark_not_applicable(results: dict, absent) -> None:
    """Failing tests that reached a dtype the namespace lacks (optional in the draft standard: it
    *should* support every dtype) did not test the namespace: each becomes *not applicable*, with
    the reason (skipped in the counts; ``summary["not_applicable"]`` counts them)."""
    absent = set(absent)
    for e in results["tests"]:
        if e["outcome"] not in FAILING:
            continue
        texts = [e.get("message") or "", *(e.get("other_failures") or ()), e.get("example") or ""]
        names = {n for t in texts for m in _ABSENT_NAME.finditer(t) for n in m.groups() if n} & absent
        if not names:
            continue
        for key in ("kind", "message", "other_failures", "example", "failing_code", "dtype", "draws", "attribution"):
            e.pop(key, None)
        e["outcome"] = "skipped"
        e["not_applicable"] = True
        e["reason"] = (
            f"{NOT_APPLICABLE}: needs {', '.join(sorted(names))}, which the namespace does not have "
            "(optional in the draft standard)"
        )
    results["summary"] = summarise(results["tests"])
