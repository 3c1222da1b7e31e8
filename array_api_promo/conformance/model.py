"""The results model every step shares: the suite's test ids (which spec function a test checks),
the failure kinds, the text scrubbing that keeps results machine-independent, the results files
(their schema, written and read), and what the pinned suite needs of a namespace to import it.

Imported by the plan (what the suite can run), by normalization (raw reports into results) and by
the reports (results into text); it imports nothing of the harness, so any step may call it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

SCHEMA = 1

# Failure kinds, in report order.
MISSING_NAME = "missing name"
WRONG_SIGNATURE = "wrong signature"
WRONG_DTYPE = "wrong dtype"
WRONG_SHAPE = "wrong shape"
WRONG_VALUE = "wrong value"
SPECIAL_CASE = "special case"
UNEXPECTED_EXCEPTION = "unexpected exception"
TIMEOUT = "timeout"  # killed by pytest-timeout (a hang or a very slow kernel)
KINDS = (
    MISSING_NAME,
    WRONG_SIGNATURE,
    WRONG_DTYPE,
    WRONG_SHAPE,
    WRONG_VALUE,
    SPECIAL_CASE,
    UNEXPECTED_EXCEPTION,
    TIMEOUT,
)

FAILING = ("failed", "error")
MESSAGE_LIMIT = 500

# --------------------------------------------------------------------------
# scrubbing
# --------------------------------------------------------------------------
_HEX = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")
_WORKER = re.compile(r"^\[gw\d+\] .*$", re.M)
_TIMING = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|s|seconds|milliseconds)\b(?!\w)")
_ABS_PATH = re.compile(r"(?<![\w.])(?:/[^\s/:'\"()\[\],]+){2,}/?")
_WS = re.compile(r"[ \t]+\n")


def scrub(text: str, roots=()) -> str:
    """Remove machine-specific details: worker banners, absolute paths (made
    relative to ``roots`` when under them, else reduced to the file name), hex
    addresses and timings."""
    if not text:
        return ""
    text = _WORKER.sub("", text)
    for root in sorted((str(r).rstrip("/") for r in roots if r), key=len, reverse=True):
        text = text.replace(root + "/", "")
        text = text.replace(root, ".")

    def _path(m):
        p = m.group(0)
        return "<path>/" + p.rstrip("/").rsplit("/", 1)[-1]

    text = _ABS_PATH.sub(_path, text)
    text = _HEX.sub("0x…", text)
    text = _TIMING.sub("<time>", text)
    text = _WS.sub("\n", text)
    return text.strip()


# --------------------------------------------------------------------------
# spec function from the test id
# --------------------------------------------------------------------------
_OP_ALIASES = {
    "__abs__": "abs",
    "__add__": "add",
    "__and__": "bitwise_and",
    "__eq__": "equal",
    "__floordiv__": "floor_divide",
    "__ge__": "greater_equal",
    "__gt__": "greater",
    "__invert__": "bitwise_invert",
    "__le__": "less_equal",
    "__lshift__": "bitwise_left_shift",
    "__lt__": "less",
    "__matmul__": "matmul",
    "__mod__": "remainder",
    "__mul__": "multiply",
    "__ne__": "not_equal",
    "__neg__": "negative",
    "__or__": "bitwise_or",
    "__pos__": "positive",
    "__pow__": "pow",
    "__rshift__": "bitwise_right_shift",
    "__sub__": "subtract",
    "__truediv__": "divide",
    "__xor__": "bitwise_xor",
}
_CLASS_FUNCS = {
    "TestResultType": "result_type",
    "TestBroadcastShapes": "broadcast_shapes",
    "TestExpandDims": "expand_dims",
    "TestIsin": "isin",
    "TestInspection": "__array_namespace_info__",
}
_ARRAY_TESTS = {
    "test_getitem": "array.__getitem__",
    "test_setitem": "array.__setitem__",
    "test_getitem_masking": "array.__getitem__",
    "test_setitem_masking": "array.__setitem__",
    "test_getitem_arrays_and_ints_1": "array.__getitem__",
    "test_getitem_arrays_and_ints_2": "array.__getitem__",
    "test_dunder_dlpack": "array.__dlpack__",
    "test_dlpack_device": "array.__dlpack_device__",
    "test_array_namespace_info_dtypes": "__array_namespace_info__().dtypes",
    "test_broadcast_arrays": "broadcast_arrays",
}


def elementwise_name(name: str) -> str:
    """``__iadd__``/``__radd__``/``__add__`` -> ``add``; other names unchanged."""
    if name.startswith("__i") and name.endswith("__") and ("__" + name[3:]) in _OP_ALIASES:
        return _OP_ALIASES["__" + name[3:]]
    if name.startswith("__r") and name.endswith("__") and ("__" + name[3:]) in _OP_ALIASES:
        return _OP_ALIASES["__" + name[3:]]
    return _OP_ALIASES.get(name, name)


def split_nodeid(nodeid: str):
    """-> (module file, class or None, test function, param id or None)."""
    path, _, rest = nodeid.partition("::")
    parts = rest.split("::")
    func = parts[-1]
    cls = parts[0] if len(parts) > 1 else None
    param = None
    if "[" in func and func.endswith("]"):
        func, param = func.split("[", 1)
        param = param[:-1]
    return path, cls, func, param


def spec_function(nodeid: str) -> str:
    """The array API function (or array method/attribute) a test id exercises."""
    path, cls, func, param = split_nodeid(nodeid)
    module = Path(path).stem
    if cls in _CLASS_FUNCS:
        base = _CLASS_FUNCS[cls]
        if base == "__array_namespace_info__" and func.startswith("test_"):
            return f"__array_namespace_info__().{func[5:]}"
        return base
    if module == "test_has_names" and param:
        category, _, name = param.partition("-")
        if category.startswith("array_"):
            return f"array.{name}"
        if category in ("linalg", "fft"):
            return f"{category}.{name}"
        return name
    if module == "test_signatures" and param:
        if func == "test_array_method_signature":
            return f"array.{param}"
        if func == "test_info_func_signature":
            return f"__array_namespace_info__().{param}"
        return param
    if param:
        m = re.match(r"([A-Za-z_][\w.]*)\s*\(", param)
        if m:  # e.g. add(x1, x2), __iadd__(x, s), add(x1_i is NaN ...) -> NaN
            name = m.group(1)
            return f"array.{name}" if name.startswith("__") and module == "test_array_object" else name
    if func in _ARRAY_TESTS:
        return _ARRAY_TESTS[func]
    if func == "test_scalar_casting" and param:
        return "array." + param.split("(")[0]
    if module == "test_constants" and func == "test_irrational_numbers" and param:
        return param.split("-")[0]
    if func.startswith("test_binary_with_scalars") and param:
        return param
    if func in ("test_empty_arrays", "test_nan_propagation", "test_shift_func") and param:
        return param if module != "test_fft" else f"fft.{param}"
    name = func[5:] if func.startswith("test_") else func
    if module == "test_fft":
        return f"fft.{name}"
    if module == "test_linalg":
        if name.startswith("linalg_"):
            return "linalg." + name[len("linalg_") :]
        if name in {"matmul", "matrix_transpose", "tensordot", "vecdot", "vecdot_conj"}:
            return name.replace("_conj", "")
        return "linalg." + name
    for suffix in ("_with_scalars", "_zerodim_error", "_append_prepend", "_arrays", "_scalars", "_dtype", "_tuples"):
        if name.endswith(suffix) and module != "test_dlpack":
            name = name[: -len(suffix)]
    if name in ("abs", "negative", "positive", "bitwise_invert") and param:
        return name
    return name


def dump(results: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(results, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    path.write_text(text, encoding="utf-8")


def load(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def load_all(results_dir: Path) -> list:
    out = []
    for p in sorted(Path(results_dir).glob("*.json")):
        try:
            r = load(p)
        except (OSError, ValueError):
            continue
        if isinstance(r, dict) and r.get("schema") == SCHEMA:
            out.append(r)
    return out


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


def generic_rule(text: str, dtype_names) -> str:
    """A trace step with concrete dtypes replaced, for grouping."""
    pat = r"\b(" + "|".join(sorted(map(re.escape, dtype_names), key=len, reverse=True)) + r")\b"
    text = re.sub(pat, "T", text)
    text = re.sub(r"\s*->\s*T\s*$", "", text)
    text = re.sub(r"\(policy '[^']*'\)", "", text)
    return re.sub(r"\s+", " ", text).strip()
