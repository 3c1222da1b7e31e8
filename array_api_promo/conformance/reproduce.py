"""Reproducers for deviation groups: building small runnable snippets from the
normalised failures, and executing them (in one subprocess) to capture their
actual output at report generation time."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from . import REPO_ROOT
from .normalize import ARRAY_REPR, elementwise_name, repr_default_dtype, scrub, split_nodeid, split_top_level

EXEC_TIMEOUT = 120
MAX_OUTPUT_LINES = 40

_PY_SCALAR_FOR_KIND = {"bool": "True", "int": "1", "float": "1.0", "complex": "1j"}


def import_line(module: str, env: dict | None = None) -> str:
    """Lines that bind ``xp`` to the namespace (setting its environment first)."""
    lines = []
    if env:
        lines.append("import os")
        for k in sorted(env):
            lines.append(f"os.environ[{k!r}] = {env[k]!r}")
    if "." in module:
        pkg, _, sub = module.rpartition(".")
        lines.append(f"from {pkg} import {sub} as xp")
    else:
        lines.append(f"import {module} as xp")
    return "\n".join(lines)


def _dtype_kind(name: str) -> str:
    if name == "bool":
        return "bool"
    if "int" in name:
        return "int"
    if "complex" in name:
        return "complex"
    return "float"


def dtype_snippet(module: str, detail: dict, nodeid: str, env=None) -> str | None:
    """x1 <func> x2 with the dtypes (and, when known, ranks) of a failing example."""
    func = detail.get("function") or ""
    ins = detail.get("inputs") or []
    if not func or not ins or len(ins) > 2:
        return None
    ranks = detail.get("ranks") or {}
    labels = sorted(ranks)
    _, _, _, param = split_nodeid(nodeid)
    scalar_rhs = len(ins) == 1 and param is not None and re.search(r"\(x, s\)|\bs\)", param or "")
    lines = [import_line(module, env)]
    names = []
    for i, dt in enumerate(ins):
        name = f"x{i + 1}"
        if dt in _PY_SCALAR_FOR_KIND:
            lines.append(f"{name} = {_PY_SCALAR_FOR_KIND[dt]}")
        else:
            rank = ranks.get(labels[i]) if i < len(labels) else None
            shape = "()" if rank == "0-d" else "(2,)"
            lines.append(f"{name} = xp.ones({shape}, dtype=xp.{dt})")
        names.append(name)
    if scalar_rhs:
        lines.append(f"x2 = {_PY_SCALAR_FOR_KIND[_dtype_kind(ins[0])]}")
        names.append("x2")
    args = ", ".join(names)
    if func.startswith("__") and len(names) == 2:
        call = f"x1.{func}(x2)"
    elif func.startswith("__"):
        call = f"x1.{func}()"
    else:
        call = f"xp.{func}({args})"
    lines.append(f"out = {call}")
    lines.append("print(f'{out.dtype = }')")
    return "\n".join(lines)


def missing_name_snippet(module: str, spec_function: str, env=None) -> str:
    head = import_line(module, env)
    if spec_function.startswith("array."):
        return f"{head}\nprint(hasattr(xp.ones((1, 1)), {spec_function[6:]!r}))"
    if "." in spec_function and not spec_function.startswith("__array_namespace_info__"):
        ext, _, name = spec_function.partition(".")
        return f"{head}\nprint(hasattr(xp, {ext!r}) and hasattr(xp.{ext}, {name!r}))"
    return f"{head}\nprint(hasattr(xp, {spec_function.split('(')[0]!r}))"


def signature_snippet(module: str, spec_function: str, env=None) -> str:
    head = "import inspect\n" + import_line(module, env)
    if spec_function.startswith("array."):
        target = f"getattr(xp.ones((1, 1)), {spec_function[6:]!r})"
    elif spec_function.startswith("__array_namespace_info__()."):
        target = f"getattr(xp.__array_namespace_info__(), {spec_function.split('.', 1)[1]!r})"
    else:
        target = "xp." + spec_function
    return f"{head}\nprint(inspect.signature({target}))"


def failing_code_snippet(module: str, code: str, env=None) -> str | None:
    """Turn the suite's FAILING CODE SNIPPET (``xp.f(Array(...), **kw) with kw = {...}``
    or ``__op__(Array(...), Array(...))``) into a runnable snippet."""
    if not code:
        return None
    call, _, bindings = code.partition(" with ")
    call, bindings = call.strip(), bindings.strip()

    def asarray(m):
        dtype = m.group("dtype") or repr_default_dtype(m.group("kind"), m.group("data"))
        return f"xp.asarray({m.group('data')}, dtype=xp.{dtype})"

    def fix(text):
        text = ARRAY_REPR.sub(asarray, text)
        return re.sub(r"\b(?:array_api_promo|array_api_strict|torch|numpy|np)(?:\[[^\]]*\])?\.(?=[a-z])", "xp.", text)

    call, bindings = fix(call), fix(bindings)
    m = re.fullmatch(r"(__\w+__)\((.*)\)", call)
    if m:  # __op__(x1, x2) -> x1.__op__(x2)
        args = split_top_level(m.group(2))
        if not args:
            return None
        call = f"{args[0]}.{m.group(1)}({', '.join(args[1:])})"
    if re.match(r"[a-z]\w*\(", call) and not call.startswith("xp."):
        call = "xp." + call  # the suite prints elementwise functions by bare name
    if re.search(r"\b(Array|array|tensor)\(", call + bindings):
        return None
    call, bindings = _inline_kwargs(call, bindings)
    lines = [import_line(module, env)]
    if re.search(r"\b(nan|inf)\b", call + bindings):
        lines.append("nan, inf = float('nan'), float('inf')")
    if bindings:
        lines.append(bindings)
    lines.append(f"out = {call}")
    lines.append("print(repr(out))")
    snippet = "\n".join(lines)
    try:
        compile(snippet, "<reproducer>", "exec")
    except SyntaxError:
        return None
    return snippet


def _inline_kwargs(call: str, bindings: str) -> tuple[str, str]:
    """``f(x, **kw)`` with ``kw = {'axis': 0}`` -> ``f(x, axis=0)`` (and no ``kw`` at all when it is
    empty), so the snippet reads as the call it is."""
    m = re.fullmatch(r"kw\s*=\s*(\{.*\})", bindings, re.S)
    if not m or ", **kw)" not in call and "(**kw)" not in call:
        return call, bindings
    try:
        import ast

        kw = ast.literal_eval(m.group(1))
    except (ValueError, SyntaxError):
        return call, bindings
    if not isinstance(kw, dict) or not all(isinstance(k, str) and k.isidentifier() for k in kw):
        return call, bindings
    args = ", ".join(f"{k}={v!r}" for k, v in kw.items())
    if "(**kw)" in call:
        return call.replace("(**kw)", f"({args})"), ""
    return call.replace(", **kw)", f", {args})" if args else ")"), ""


def missing_names_snippet(module: str, names: list, env=None) -> str:
    """Print which of the spec names the namespace lacks."""
    head = import_line(module, env)
    return (
        f"{head}\n"
        f"names = {sorted(names)!r}\n"
        "def has(name):\n"
        "    obj = xp.ones((1, 1)) if name.startswith('array.') else xp\n"
        "    for part in name.removeprefix('array.').split('.'):\n"
        "        if not hasattr(obj, part):\n"
        "            return False\n"
        "        obj = getattr(obj, part)\n"
        "    return True\n"
        "print('missing:', ', '.join(n for n in names if not has(n)) or '(none)')"
    )


_SPECIAL_VALUE = re.compile(r"Draw \d+ \((?P<label>x\d?_value|x\d?)\): (?P<value>\S+)")


def value_snippet(module: str, entry: dict, env=None) -> str | None:
    """For special cases / value failures with Hypothesis draws of plain values."""
    func = entry.get("spec_function", "")
    draws = dict((m.group("label"), m.group("value")) for m in _SPECIAL_VALUE.finditer(entry.get("example", "")))
    if not draws or "." in func:
        return None
    vals = []
    for label in sorted(draws):
        v = draws[label]
        try:
            float(v.replace("j", "")) if not v.endswith("j") else complex(v)
        except ValueError:
            return None
        vals.append(v)
    lines = [import_line(module, env)]
    dtype = "xp.float64"
    names = []
    for i, v in enumerate(vals):
        lit = f"float({v!r})" if v in ("inf", "-inf", "nan") else v
        lines.append(f"x{i + 1} = xp.asarray({lit}, dtype={dtype})")
        names.append(f"x{i + 1}")
    if func.startswith("__i"):
        lines.append(f"x1.{func}({', '.join(names[1:])})")
        lines.append("print(x1)")
        return "\n".join(lines)
    if func.startswith("__"):
        lines.append(f"print(x1.{func}({', '.join(names[1:])}))")
    else:
        lines.append(f"print(xp.{elementwise_name(func)}({', '.join(names)}))")
    return "\n".join(lines)


_DRIVER = r"""
import contextlib, io, json, os, sys, traceback
snippets = json.load(sys.stdin)
outs = []
base_env = dict(os.environ)
for code in snippets:
    # Each snippet starts from the driver's environment: the variables one sets (a storage, say)
    # must not carry over to the next one's namespace.
    os.environ.clear()
    os.environ.update(base_env)
    # A namespace bound by environment variables (from_env) binds at import: import it afresh for
    # each snippet, whose lines set the variables first (one process runs every policy's snippets).
    for name in [m for m in sys.modules if m.endswith(".from_env")]:
        module = sys.modules.pop(name)
        parent, _, child = name.rpartition(".")
        if getattr(sys.modules.get(parent), child, None) is module:
            delattr(sys.modules[parent], child)
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            exec(compile(code, "<reproducer>", "exec"), {"__name__": "__main__"})
    except BaseException as exc:  # report it like the interpreter would, last line only
        buf.write("".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()[-1] + "\n")
    outs.append(buf.getvalue())
json.dump(outs, sys.stdout)
"""


def execute(snippets: list, *, cwd: Path = REPO_ROOT, extra_path=()) -> list:
    """Run every snippet (in one fresh interpreter, each in its own globals) and
    return their scrubbed outputs, in order."""
    if not snippets:
        return []
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("ARRAY_API_PROMO_POLICY", None)
    env.pop("ARRAY_API_PROMO_API_VERSION", None)
    env.pop("ARRAY_API_PROMO_STORAGE", None)  # a snippet's own lines set what its namespace needs
    pp = [str(p) for p in extra_path] + [str(REPO_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(pp))
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _DRIVER],
            input=json.dumps(snippets),
            capture_output=True,
            text=True,
            cwd=str(cwd),
            env=env,
            timeout=EXEC_TIMEOUT,
        )
        outs = json.loads(proc.stdout) if proc.returncode == 0 else None
    except (subprocess.TimeoutExpired, ValueError):
        outs = None
    if outs is None:
        # The driver itself died (e.g. a crash in native code): run one by one.
        if len(snippets) == 1:
            return ["(reproducer did not complete)\n"]
        return [execute([s], cwd=cwd, extra_path=extra_path)[0] for s in snippets]
    cleaned = []
    for out in outs:
        text = scrub(out, [str(REPO_ROOT)])
        lines = text.splitlines()
        if len(lines) > MAX_OUTPUT_LINES:
            lines = lines[:MAX_OUTPUT_LINES] + [f"... ({len(lines) - MAX_OUTPUT_LINES} more lines)"]
        cleaned.append("\n".join(lines))
    return cleaned
