"""The whole surface against NumPy: every function of the 2025.12 standard and its ``linalg``
and ``fft`` extensions, the operators, ``__getitem__``/``__setitem__`` with basic, tuple and
mask keys, creation, and three compound expressions, each at 10 and at 10**6 elements (2-d
where it fits), under ``array_api`` ("xp") and ``torch`` ("tx"), with array-api-strict and
array-api-compat (its NumPy namespace, on NumPy's own arrays) beside.

    python -m benchmarks.surface                 # ~10 minutes on an idle 2-core machine
    python -m benchmarks.surface --quick         # smoke run (10**4 instead of 10**6)
    python -m benchmarks.surface -k unique       # only cases whose key contains "unique"
    python -m benchmarks.surface --stat min      # ratios of the least times (a busy machine)
    python -m benchmarks.surface --markdown out.md --json out.json

Each case is one ``timeit`` statement per library on the same NumPy buffers (every namespace
wraps them without a copy; array-api-compat takes them as they are); the libraries are
interleaved round by round and each ratio is paired: the median over the rounds of that
round's time over NumPy's (``run.measure_case``), or with ``--stat min`` the ratio of the
least times. The rounds run in fresh interpreters, one round each by default, at the calls per
sample the parent found (``--processes 1``: all in one process): a process's memory layout moves
a 10-element call by up to a fifth for its whole life, so one process's rounds share its luck.
NumPy's equivalent is the call a NumPy user writes (``x.reshape(shape)``,
``x.astype(dtype)``; ``np.unique_values`` is its hash-based, unsorted one, where the
namespaces sort). Targets (issue 51): at 10 elements every case within 1.5x of NumPy and the
median within 1.1x; every case NumPy answers in under 20 us at 10**6 elements (a view, one
element) within 1.5x; every call no slower than array-api-compat's on the same operands (its
ratio to compat's, paired alike, at most 1.0; judged where the call's time is the wrapper's,
the 10-element and the per-call 10**6-element cases); and, from issue 32, every 10**6-element
case that passes over the data within 1.10x. The run never fails on a missed target; a case that
cannot run shows n/a with its reason.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np

from benchmarks._machine import cpu_seconds, run_meta
from benchmarks.run import Case, _compiled_fast_paths as _compiled, _load_namespaces, _short, fmt_time, measure_case

LIBS = ("numpy", "strict", "compat", "xp", "tx")
OURS = ("xp", "tx")
SMALL, LARGE, QUICK_LARGE = 10, 10**6, 10**4
LARGE_LIMIT = 1.10  # every data-bound case at 10**6 elements (issue 32)
SMALL_MEDIAN_LIMIT, SMALL_WORST_LIMIT = 1.1, 1.5  # the 10-element cases (issue 51)
VIEW_LIMIT = 1.5  # the 10**6-element cases NumPy answers without a pass over the data (issue 51)
COMPAT_LIMIT = 1.0  # no call slower than array-api-compat's (issue 51)


# -- inputs: one set of NumPy buffers per size, wrapped by every library ---------------------------
def _buffers(n: int) -> dict:
    rng = np.random.default_rng(32)
    side = max(2, round(n**0.5))
    rows, cols = (2, n // 2) if n <= 10 else (side, n // side)
    stack = max(1, n // 16)  # 4x4 matrices: 10**6 elements in 62,500 of them
    square = rng.random((stack, 4, 4)) if n > 10 else rng.random((3, 3))
    eye = np.eye(square.shape[-1])
    spd = square @ np.swapaxes(square, -1, -2) + 4 * eye
    x = rng.random(n) + 0.5
    c = (rng.random(n) + 0.5) + 1j * (rng.random(n) - 0.5)
    outer = max(3, round(n**0.5))
    return {
        "x": x,
        "y": rng.random(n) + 0.5,
        "z": rng.random(n) * 1.8 - 0.9,  # in (-0.9, 0.9): asin, acos, atanh
        "w": rng.random(n) + 1.5,  # > 1: acosh
        "f": (rng.random(n) + 0.5).astype(np.float32),
        "i": rng.integers(1, 100, n),
        "j": rng.integers(1, 100, n),
        "k": rng.integers(0, 8, n),
        "u": rng.integers(0, 7, n),  # 7 values: the set functions
        "p": rng.random(n) > 0.5,
        "q": rng.random(n) > 0.5,
        "c": c,
        "X": rng.random((rows, cols)) + 0.5,
        "Y": rng.random((rows, cols)) + 0.5,
        "C2": (rng.random((rows, cols)) + 0.5) + 0j,
        "Xmask": rng.random((rows, cols)) > 0.5,
        "X1": (rng.random(n) + 0.5).reshape(1, n),
        "S": square,
        "SPD": spd,
        "V": rng.random((max(1, n // 3), 3)),
        "W": rng.random((max(1, n // 3), 3)),
        "o": rng.random(outer),
        "idx": rng.integers(0, n, n),
        "idx2": rng.integers(0, cols, (rows, cols)),
        "sx": np.sort(x),
    }


_CACHE: dict = {}


def _setup(n: int):
    def setup(lib, ns):
        if n not in _CACHE:
            _CACHE[n] = _buffers(n)
        bufs = _CACHE[n]
        g = {"ns": ns, "n": n, "L": bufs["x"][:SMALL].tolist()}
        for name, data in bufs.items():
            if lib in ("numpy", "compat"):  # array-api-compat's namespace takes NumPy's own arrays
                g[name] = data
            else:
                g[name] = ns.asarray(data)
        raw = lib in ("numpy", "compat")
        g["m"] = g["x"][0] if not raw else np.asarray(g["x"][0])  # 0-d operands
        g["s"] = g["y"][0] if not raw else np.asarray(g["y"][0])
        g["f32"] = ns.float32
        g["f64"] = ns.float64
        g["i64"] = ns.int64
        return g

    return setup


# -- the cases: (key, statement for every library, {lib: statement} overrides, sized) -------------
# A statement uses ``ns`` (numpy, array_api_strict or one of ours) and the inputs above.
# ``sized`` False: the call does not depend on the arrays' size (dtype functions): timed once.
_UNARY = [
    "abs",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "bitwise_invert",
    "ceil",
    "conj",
    "cos",
    "cosh",
    "exp",
    "expm1",
    "floor",
    "imag",
    "isfinite",
    "isinf",
    "isnan",
    "log",
    "log1p",
    "log2",
    "log10",
    "logical_not",
    "negative",
    "positive",
    "real",
    "reciprocal",
    "round",
    "sign",
    "signbit",
    "sin",
    "sinh",
    "sqrt",
    "square",
    "tan",
    "tanh",
    "trunc",
]
_UNARY_INPUT = {
    "acos": "z",
    "asin": "z",
    "atanh": "z",
    "acosh": "w",
    "bitwise_invert": "i",
    "logical_not": "p",
    "conj": "c",
    "imag": "c",
    "real": "c",
}
_BINARY = [
    "add",
    "atan2",
    "bitwise_and",
    "bitwise_left_shift",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "copysign",
    "divide",
    "equal",
    "floor_divide",
    "greater",
    "greater_equal",
    "hypot",
    "less",
    "less_equal",
    "logaddexp",
    "logical_and",
    "logical_or",
    "logical_xor",
    "maximum",
    "minimum",
    "multiply",
    "nextafter",
    "not_equal",
    "pow",
    "remainder",
    "subtract",
]
_BINARY_INPUTS = {
    "bitwise_and": ("i", "j"),
    "bitwise_or": ("i", "j"),
    "bitwise_xor": ("i", "j"),
    "bitwise_left_shift": ("i", "k"),
    "bitwise_right_shift": ("i", "k"),
    "logical_and": ("p", "q"),
    "logical_or": ("p", "q"),
    "logical_xor": ("p", "q"),
}


def _spec():
    """[(key, statement, numpy override or None, sized)]."""
    cases = []

    def add(key, stmt, numpy=None, sized=True, tx_numpy=None, **others):
        """``tx_numpy``: the NumPy call tx's ratio is to, where torch's default float32 makes its
        result differ from NumPy's float64 (``measure_case``'s ``"numpy:tx"``)."""
        if tx_numpy:
            others["numpy:tx"] = tx_numpy
        cases.append((key, stmt, {"numpy": numpy, **others} if (numpy or others) else {}, sized))

    for name in _UNARY:
        add(name, f"ns.{name}({_UNARY_INPUT.get(name, 'x')})")
    for name in _BINARY:
        a, b = _BINARY_INPUTS.get(name, ("x", "y"))
        add(name, f"ns.{name}({a}, {b})")
    # elementwise functions of more than two arrays
    add("clip", "ns.clip(x, 0.7, 1.3)")
    add("clip_arrays", "ns.clip(x, z, w)")
    add("where", "ns.where(p, x, y)")
    add("where_scalar", "ns.where(p, x, 0.0)")
    # operators
    for op, (a, b) in {
        "+": ("x", "y"),
        "-": ("x", "y"),
        "*": ("x", "y"),
        "/": ("x", "y"),
        "//": ("x", "y"),
        "%": ("x", "y"),
        "**": ("x", "y"),
        "&": ("i", "j"),
        "|": ("i", "j"),
        "^": ("i", "j"),
        "<<": ("i", "k"),
        ">>": ("i", "k"),
        "<": ("x", "y"),
        "<=": ("x", "y"),
        ">": ("x", "y"),
        ">=": ("x", "y"),
        "==": ("x", "y"),
        "!=": ("x", "y"),
    }.items():
        add(f"op {op}", f"{a} {op} {b}")
    add("op x + 1.0", "x + 1.0")
    add("op 2 * i", "2 * i")
    add("op 1.0 / x", "1.0 / x")
    add("op -x", "-x")
    add("op ~i", "~i")
    add("op abs(x)", "abs(x)")
    add("op x += y", "t = x; t += y; t -= y")
    add("op x *= 1.0", "t = x; t *= 1.0")
    add("op X @ x", "X @ x[: X.shape[1]]", numpy="X @ x[: X.shape[1]]")
    add("compound x * 2.0 + y", "x * 2.0 + y")
    add("compound (x - m) / s", "(x - m) / s")
    add("compound x * y - x / y", "x * y - x / y")
    # indexing
    add("x[3]", "x[3]")
    add("x[2:5]", "x[2:5]")
    add("x[::2]", "x[::2]")
    add("X[1, 2:5]", "X[1, 2:5]")
    add("X[1, :]", "X[1, :]")
    add("X[..., 0]", "X[..., 0]")
    add("X[None, ...]", "X[None, ...]")
    add("x[p]", "x[p]")
    add("X[Xmask]", "X[Xmask]")
    add("x[idx]", "x[idx]")
    add("x[0:3] = 1.0", "x[0:3] = 1.0")
    add("x[3] = 1.0", "x[3] = 1.0")
    add("X[1, 2:5] = 1.0", "X[1, 2:5] = 1.0")
    add("x[p] = 1.0", "x[p] = 1.0")
    add("x[2:5] = y[2:5]", "x[2:5] = y[2:5]")
    # creation
    add("arange", "ns.arange(n)")
    add("arange float", "ns.arange(0.0, n, 1.0)", tx_numpy="ns.arange(0.0, n, 1.0, dtype=f32)")
    add("arange int step", "ns.arange(0, n, 1)")
    add("arange dtype", "ns.arange(n, dtype=f64)")
    add("arange start dtype", "ns.arange(0, n, dtype=i64)")
    add("arange float dtype", "ns.arange(0.0, n, 1.0, dtype=f32)")
    add("asarray list", "ns.asarray(L)", sized=False, tx_numpy="ns.asarray(L, dtype=f32)")
    add("asarray array", "ns.asarray(x)")
    add("asarray copy", "ns.asarray(x, copy=True)")
    add("empty", "ns.empty(n)", tx_numpy="ns.empty(n, dtype=f32)")
    add("empty_like", "ns.empty_like(x)")
    add("eye", "ns.eye(X.shape[1])", tx_numpy="ns.eye(X.shape[1], dtype=f32)")
    add("from_dlpack", "ns.from_dlpack(x)")
    add("full", "ns.full(n, 1.5)", tx_numpy="ns.full(n, 1.5, dtype=f32)")
    add("full dtype", "ns.full(X.shape, 1.5, dtype=f32)")
    add("full_like", "ns.full_like(x, 1.5)")
    add("linspace", "ns.linspace(0.0, 1.0, n)", tx_numpy="ns.linspace(0.0, 1.0, n, dtype=f32)")
    add("meshgrid", "ns.meshgrid(o, o)")
    add("ones", "ns.ones(n)", tx_numpy="ns.ones(n, dtype=f32)")
    add("ones_like", "ns.ones_like(x)")
    add("tril", "ns.tril(X)")
    add("triu", "ns.triu(X)")
    add("zeros", "ns.zeros(n)", tx_numpy="ns.zeros(n, dtype=f32)")
    add("zeros 2-d", "ns.zeros(X.shape)", tx_numpy="ns.zeros(X.shape, dtype=f32)")
    add("zeros dtype", "ns.zeros(n, dtype=i64)")
    add("zeros_like", "ns.zeros_like(x)")
    # data type functions
    add("astype", "ns.astype(x, f32)", numpy="x.astype(f32)")  # ndarray.astype: what a NumPy user writes
    add("can_cast", "ns.can_cast(f64, f32)", sized=False)
    add("finfo", "ns.finfo(f64)", sized=False)
    add("iinfo", "ns.iinfo(i64)", sized=False)
    add("isdtype", "ns.isdtype(f64, 'real floating')", sized=False)
    add("result_type", "ns.result_type(x, y)", sized=False)
    add("result_type dtypes", "ns.result_type(f32, f64)", sized=False)
    # manipulation
    add("broadcast_arrays", "ns.broadcast_arrays(x, X1)")
    add("broadcast_shapes", "ns.broadcast_shapes((2, 1), (1, 3))", sized=False)
    add("broadcast_to", "ns.broadcast_to(x, (2, n))")
    add("concat", "ns.concat([x, y])")
    add("concat axis=None", "ns.concat([X, Y], axis=None)")
    add("expand_dims", "ns.expand_dims(x, axis=0)")
    add("flip", "ns.flip(x)")
    add("moveaxis", "ns.moveaxis(X, 0, 1)")
    add("permute_dims", "ns.permute_dims(X, (1, 0))")
    add("repeat", "ns.repeat(x, 2)")
    add("reshape", "ns.reshape(x, X.shape)", numpy="x.reshape(X.shape)")  # ndarray.reshape, as a NumPy user
    add("roll", "ns.roll(x, 3)")
    add("squeeze", "ns.squeeze(X1, axis=0)")
    add("stack", "ns.stack([x, y])")
    add("tile", "ns.tile(x, (2,))")
    add("unstack", "ns.unstack(X)")
    # searching, sets, sorting
    add("argmax", "ns.argmax(x)")
    add("argmin", "ns.argmin(x)")
    add("count_nonzero", "ns.count_nonzero(p)")
    add("nonzero", "ns.nonzero(p)")
    add("searchsorted", "ns.searchsorted(sx, y)")
    add("isin", "ns.isin(u, j)")
    add("unique_all", "ns.unique_all(u)")
    add("unique_counts", "ns.unique_counts(u)")
    add("unique_inverse", "ns.unique_inverse(u)")
    add("unique_values", "ns.unique_values(u)")
    add("unique_values float", "ns.unique_values(x)")
    # the standard's argsort is stable by default (stable=True): NumPy's call for it names the kind
    add("argsort", "ns.argsort(x)", numpy="ns.argsort(x, kind='stable')")
    add("sort", "ns.sort(x)")
    add("take", "ns.take(x, idx)")
    add("take_along_axis", "ns.take_along_axis(X, idx2, axis=-1)")
    # statistics and utilities
    add("all", "ns.all(p)")
    add("any", "ns.any(p)")
    add("cumulative_prod", "ns.cumulative_prod(x)")
    add("cumulative_sum", "ns.cumulative_sum(x)")
    add("diff", "ns.diff(x)")
    add("max", "ns.max(x)")
    add("mean", "ns.mean(x)")
    add("mean axis=0", "ns.mean(X, axis=0)")
    add("min", "ns.min(x)")
    add("prod", "ns.prod(x)")
    add("std", "ns.std(x)")
    add("std float32", "ns.std(f)")
    add("std axis=0", "ns.std(X, axis=0, correction=1)")
    add("sum", "ns.sum(x)")
    add("sum axis=1", "ns.sum(X, axis=1)")
    add("var", "ns.var(x)")
    # linear algebra (the matrix functions on a stack of 4x4 matrices at 10**6 elements)
    add("matmul", "ns.matmul(S, S)")
    add("matrix_transpose", "ns.matrix_transpose(X)")
    add("tensordot", "ns.tensordot(x, y, axes=1)")
    add("vecdot", "ns.vecdot(X, Y)")
    for name, args in {
        "cholesky": "SPD",
        "cross": "V, W",
        "det": "S",
        "diagonal": "S",
        "eig": "S",
        "eigh": "SPD",
        "eigvals": "S",
        "eigvalsh": "SPD",
        "inv": "SPD",
        "matmul": "S, S",
        "matrix_norm": "S",
        "matrix_power": "S, 3",
        "matrix_rank": "S",
        "matrix_transpose": "S",
        "outer": "o, o",
        "pinv": "S",
        "qr": "S",
        "slogdet": "S",
        "solve": "SPD, S",
        "svd": "S",
        "svdvals": "S",
        "tensordot": "X, Y, axes=2",
        "trace": "S",
        "vecdot": "X, Y",
        "vector_norm": "x",
    }.items():
        add(f"linalg.{name}", f"ns.linalg.{name}({args})")
    # fft
    for name, arg in {
        "fft": "c",
        "ifft": "c",
        "fftn": "C2",
        "ifftn": "C2",
        "rfft": "x",
        "irfft": "c",
        "rfftn": "X",
        "irfftn": "C2",
        "hfft": "c",
        "ihfft": "x",
        "fftshift": "x",
        "ifftshift": "x",
    }.items():
        add(f"fft.{name}", f"ns.fft.{name}({arg})")
    add("fft.fftfreq", "ns.fft.fftfreq(n)", tx_numpy="ns.fft.fftfreq(n).astype(f32)")
    add("fft.rfftfreq", "ns.fft.rfftfreq(n)", tx_numpy="ns.fft.rfftfreq(n).astype(f32)")
    # the array object
    add("x.T", "X.T")
    add("x.mT", "S.mT")
    add("x.shape", "x.shape", sized=False)
    add("x.__array_namespace__()", "x.__array_namespace__()", numpy="x.__array_namespace__()", sized=False)
    add("x.to_device", "x.to_device(x.device)")
    add("float(x[0])", "float(m)", sized=False)
    return cases


def standard_names():
    """The public functions of the 2025.12 namespace and its extensions (what the cases must cover)."""
    import array_api_promo as xp

    skip = {"audit", "namespace"}  # ours, not the standard's
    names = {
        n
        for n in dir(xp)
        if not n.startswith("_") and n not in skip and callable(getattr(xp, n)) and not isinstance(getattr(xp, n), type)
    }
    names |= {f"linalg.{n}" for n in dir(xp.linalg) if not n.startswith("_")}
    names |= {f"fft.{n}" for n in dir(xp.fft) if not n.startswith("_")}
    return names


def covered_names(cases=None):
    """The functions the cases call (``ns.name(`` and ``ns.linalg.name(`` in their statements)."""
    import re

    found = set()
    for _, stmt, _, _ in cases or _spec():
        found |= {m.group(1) for m in re.finditer(r"ns\.((?:linalg\.|fft\.)?\w+)\(", stmt)}
    return found


def make_cases(quick: bool, key_filter: str | None = None):
    large = QUICK_LARGE if quick else LARGE
    out = []
    for key, stmt, overrides, sized in _spec():
        if key_filter and key_filter not in key:
            continue
        for n in (SMALL, large) if sized else (SMALL,):
            stmts = {lib: overrides.get(lib) or stmt for lib in LIBS}
            stmts.update((lib, ref) for lib, ref in overrides.items() if lib.startswith("numpy:"))
            out.append(Case(f"{key} @{n}", key, "large" if n > SMALL else "small", stmts, _setup(n), libs=LIBS))
            out[-1].n = n
            out[-1].large = n > SMALL
    return out


# -- targets -----------------------------------------------------------------------------------------
VIEW_TIME = 20e-6  # NumPy's call at 10**6 elements below this makes no pass over the data (a view, a scalar)


def data_bound(r) -> bool:
    """Whether a 10**6-element case makes NumPy pass over the data (else it is a per-call case)."""
    numpy_time = r["times"].get("numpy")
    return bool(r["large"] and numpy_time and numpy_time >= VIEW_TIME)


def _check(target, lib, values, limit, *, median=False):
    """A target over ``values`` [(case, ratio)]: every one within ``limit``, or their median."""
    values = [(t, v) for t, v in values if v]
    ratios = [v for _, v in values]
    if median:
        value = statistics.median(ratios) if ratios else None
        met, over = (None if value is None else value <= limit), []
    else:
        value = max(ratios, default=None)
        over = sorted(((t, v) for t, v in values if v > limit), key=lambda tv: -tv[1])
        met = (not over) if values else None
    return {"target": target, "lib": lib, "value": value, "met": met, "missed_by": over, "cases": len(values)}


def check_targets(results):
    """Per namespace: the 10-element cases' median and worst, the 10**6-element cases NumPy answers
    without a pass over the data (judged per call), the data-bound 10**6-element cases, and, where
    the call's time is the wrapper's (the 10-element and per-call cases), the ratio to array-api-compat."""
    checks = []
    for lib in OURS:
        small = [(r["title"], r["paired"].get(lib)) for r in results if not r["large"]]
        views = [(r["title"], r["paired"].get(lib)) for r in results if r["large"] and not data_bound(r)]
        large = [(r["title"], r["paired"].get(lib)) for r in results if data_bound(r)]
        per_call = [
            (f"{r['title']}{' @10⁶' if r['large'] else ''}", r.get("vs_compat", {}).get(lib))
            for r in results
            if not data_bound(r)
        ]
        checks += [
            _check(f"10-element median ≤ {SMALL_MEDIAN_LIMIT}× NumPy", lib, small, SMALL_MEDIAN_LIMIT, median=True),
            _check(f"every 10-element case ≤ {SMALL_WORST_LIMIT}× NumPy", lib, small, SMALL_WORST_LIMIT),
            _check(
                f"10⁶-element cases NumPy answers without a pass over the data ≤ {VIEW_LIMIT}× NumPy",
                lib,
                views,
                VIEW_LIMIT,
            ),
            _check(f"every per-call case ≤ {COMPAT_LIMIT}× array-api-compat's", lib, per_call, COMPAT_LIMIT),
            _check(f"every data-bound 10⁶-element case ≤ {LARGE_LIMIT}× NumPy", lib, large, LARGE_LIMIT),
        ]
    return checks


def ratios(case_stmts, libs, samples, stat: str) -> tuple[dict, dict]:
    """({lib: ratio to NumPy}, {lib of ours: ratio to array-api-compat}) from each library's samples
    (per-call seconds, one per round, in round order): paired (the median over the rounds of the
    round's ratio) for ``stat`` "median", the ratio of the least samples for "min". A library
    whose case names a NumPy call of its own (``"numpy:<lib>"``) is judged against that call."""
    own = case_stmts if isinstance(case_stmts, dict) else {}

    def ratio(mine, theirs):
        if not mine or not theirs:
            return None
        if stat == "min":
            return min(mine) / min(theirs)
        return statistics.median(a / b for a, b in zip(mine, theirs))

    to_numpy = {}
    for lib in libs:
        if lib == "numpy" or lib not in samples:
            continue
        reference = samples.get(f"numpy:{lib}") if own.get(f"numpy:{lib}") else samples.get("numpy")
        value = ratio(samples[lib], reference)
        if value is not None:
            to_numpy[lib] = value
    to_compat = {}
    for lib in OURS:
        value = ratio(samples.get(lib), samples.get("compat"))
        if value is not None:
            to_compat[lib] = value
    return to_numpy, to_compat


# -- running and printing ------------------------------------------------------------------------------
def case_result(case, samples, errors, stat):
    """A case's entry of the results from its samples ({lib: per-call seconds of each round}) and
    errors: each library's time (``stat`` over its rounds) and its ratios."""
    reduce = min if stat == "min" else statistics.median
    times = {lib: (reduce(samples[lib]) if samples.get(lib) else None) for lib in case.libs}
    paired, vs_compat = ratios(case.stmts, case.libs, samples, stat)
    return {
        "case": case.key,
        "title": case.title,
        "n": case.n,
        "large": case.large,
        "stmt": case.stmts,
        "times": times,
        "paired": paired,
        "vs_compat": vs_compat,
        "errors": errors,
    }


def measure_rounds(cases, mods, missing, repeats, min_time, numbers, first_round=0):
    """{case key: (samples, errors)}: ``repeats`` interleaved rounds of every case in this process,
    with the calls per sample in ``numbers`` ({case key: {lib: count}}, completed where missing)."""
    out = {}
    for case in cases:
        try:
            _, errors, samples, _ = measure_case(
                case,
                mods,
                missing,
                repeats,
                min_time,
                numbers=numbers.setdefault(case.key, {}),
                first_round=first_round,
            )
        except Exception as e:  # never crash the run
            samples, errors = {}, {"*": _short(e)}
        out[case.key] = (samples, errors)
    return out


def run_cases(cases, mods, missing, repeats, min_time, stat="median", processes=1, worker_argv=()):
    """The results of every case: its rounds in this process (``processes`` 1), or spread over
    ``processes`` fresh interpreters run one after the other, each taking its share of the rounds
    at the calls per sample found here first. A process's memory layout (not its hash seed) moves a
    10-element call by up to a fifth for the whole process (pyperf spawns its workers for the same
    reason); over several processes the median round is a typical one, not one process's luck."""
    numbers: dict = {}
    if processes <= 1:
        measured = measure_rounds(cases, mods, missing, repeats, min_time, numbers)
    else:
        measured = measure_rounds(cases, mods, missing, 0, min_time, numbers)  # the counts, and what cannot run
        share = [repeats // processes + (i < repeats % processes) for i in range(processes)]
        first = 0
        for rounds in (r for r in share if r):
            part = _run_worker(worker_argv, numbers, first, rounds, min_time)
            for key, (samples, errors) in measured.items():
                more_samples, more_errors = part.get(key, ({}, {"*": "no result from a worker process"}))
                errors.update(more_errors)
                for lib, values in more_samples.items():
                    samples.setdefault(lib, []).extend(values)
            first += rounds
        for samples, errors in measured.values():  # a library that failed in any process has no ratio
            for lib in errors:
                samples.pop(lib, None)
            if "*" in errors:
                samples.clear()
    results = []
    for case in cases:
        samples, errors = measured[case.key]
        try:
            results.append(case_result(case, samples, errors, stat))
        except Exception as e:  # never crash the run
            results.append(case_result(case, {}, {**errors, "*": _short(e)}, stat))
    return results


def _run_worker(worker_argv, numbers, first_round, rounds, min_time) -> dict:
    """One fresh interpreter's rounds: {case key: (samples, errors)}; RuntimeError if it fails."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        plan, out = os.path.join(folder, "plan.json"), os.path.join(folder, "out.json")
        with open(plan, "w") as f:
            json.dump({"numbers": numbers, "first_round": first_round, "rounds": rounds, "min_time": min_time}, f)
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        command = [sys.executable, "-m", "benchmarks.surface", *worker_argv, "--worker", plan, out]
        done = subprocess.run(command, cwd=root, capture_output=True, text=True)
        if done.returncode != 0 or not os.path.exists(out):
            raise RuntimeError(f"a worker process (rounds {first_round}+{rounds}) failed: {done.stderr[-2000:]}")
        with open(out) as f:
            return {key: (entry["samples"], entry["errors"]) for key, entry in json.load(f).items()}


def _worker(plan_path, out_path, cases) -> int:
    """A worker process: the rounds its plan asks for, written as JSON for the parent."""
    with open(plan_path) as f:
        plan = json.load(f)
    mods, missing = _namespaces()
    measured = measure_rounds(
        cases, mods, missing, plan["rounds"], plan["min_time"], plan["numbers"], plan["first_round"]
    )
    with open(out_path, "w") as f:
        json.dump({key: {"samples": s, "errors": e} for key, (s, e) in measured.items()}, f)
    return 0


def _namespaces():
    mods, missing = _load_namespaces()
    mods.pop("floor", None)
    mods.pop("torch", None)
    return mods, missing


def _cell(r, lib):
    v = r["paired"].get(lib)
    return "n/a" if v is None else f"{v:.2f}×"


def rows(results):
    """[(case, numpy time at 10, ratios at 10 ..., numpy time at 10**6, ratios ...)] by case title."""
    by_title: dict = {}
    for r in results:
        by_title.setdefault(r["title"], {})["large" if r["large"] else "small"] = r
    out = []
    for title, sizes in by_title.items():
        row = [title]
        for size in ("small", "large"):
            r = sizes.get(size)
            if r is None:
                row += ["—"] * 5
            else:
                row += [fmt_time(r["times"].get("numpy"))] + [_cell(r, lib) for lib in ("strict", "compat", *OURS)]
        out.append(row)
    return out


def _tx_own_reference_cases(results) -> list:
    """The cases whose tx ratio is to a NumPy call of its own (``"numpy:tx"``), by title."""
    return sorted({r["title"] for r in results if isinstance(r["stmt"], dict) and "numpy:tx" in r["stmt"]})


HEADER = ["case", "NumPy @10", "strict", "compat", "xp", "tx", "NumPy @10⁶", "strict", "compat", "xp", "tx"]


def _how(meta) -> str:
    """How the ratios were measured, and how busy the machine was meanwhile."""
    stat = (
        "ratios of the least times"
        if meta.get("stat") == "min"
        else "ratios paired by round (the median of each round's ratio)"
    )
    load = meta.get("loadavg") or [float("nan")]
    busy = meta.get("other_cpu_s")
    others = "" if busy is None else f", other processes used {busy:.0f} CPU-seconds meanwhile"
    processes = meta.get("processes") or 1
    where = "" if processes <= 1 else f" in {processes} fresh processes"
    return (
        f"{meta['repeats']} interleaved rounds{where}, {stat}; load average {load[0]:.1f} on {meta['cpus']} CPUs at "
        f"the end{others}"
    )


def markdown(results, checks, meta) -> str:
    lines = [
        f"{len(results)} cases in {meta['elapsed_s']:.0f} s: {_how(meta)}.",
        "",
        "| " + " | ".join(HEADER) + " |",
        "|---|" + "---:|" * (len(HEADER) - 1),
    ]
    for row in rows(results):
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
    lines.append("")
    own = _tx_own_reference_cases(results)
    if own:
        lines.append(
            f"tx's ratio is to NumPy's float32 call (torch's default dtype) in {', '.join(own)}; "
            "the NumPy column shows NumPy's default float64 call."
        )
        lines.append("")
    for c in checks:
        value = "n/a" if c["value"] is None else f"{c['value']:.2f}×"
        status = "n/a" if c["met"] is None else ("met" if c["met"] else "MISSED")
        missed = ", ".join(f"{t} {v:.2f}×" for t, v in c["missed_by"])
        lines.append(
            f"- {c['lib']}: {c['target']}: {status} ({value} over {c['cases']} cases){': ' + missed if missed else ''}"
        )
    return "\n".join(lines) + "\n"


def print_report(results, checks, meta, console):
    from rich.markup import escape
    from rich.table import Table

    title = "ratio of the least times" if meta.get("stat") == "min" else "paired ratio (median of rounds)"
    table = Table(title=f"The whole surface: {title} to NumPy", header_style="bold")
    for i, h in enumerate(HEADER):
        table.add_column(h, justify="left" if i == 0 else "right", no_wrap=True)
    for row in rows(results):
        table.add_row(escape(row[0]), *row[1:])
    console.print(table)
    own = _tx_own_reference_cases(results)
    if own:
        console.print(
            f"tx's ratio is to NumPy's float32 call (torch's default dtype) in {', '.join(own)}",
            markup=False,
            highlight=False,
        )
    errs = [(r["case"], lib, e) for r in results for lib, e in r["errors"].items()]
    if errs:
        console.print("[bold]n/a cells[/bold]:")
        for case, lib, e in errs:
            console.print(f"  {case} [{lib}]: {e}", markup=False, highlight=False)
    for c in checks:
        status = "n/a" if c["met"] is None else ("[green]met[/green]" if c["met"] else "[red]MISSED[/red]")
        value = "n/a" if c["value"] is None else f"{c['value']:.2f}×"
        console.print(f"{c['lib']}: {escape(c['target'])}: {status} ({value} over {c['cases']} cases)")
        for t, v in c["missed_by"]:
            console.print(f"    {escape(t)}: {v:.2f}×", highlight=False)
    console.print(f"surface: {len(results)} cases in {meta['elapsed_s']:.0f} s, {_how(meta)}", highlight=False)


def main(argv=None, console=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks.surface", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="smoke run: 10**4 instead of 10**6 elements, short samples")
    p.add_argument("--repeats", type=int, default=None, help="interleaved rounds per case (default 7, quick 3)")
    p.add_argument("--min-time", type=float, default=None, help="seconds per sample (default 0.02, quick 0.002)")
    p.add_argument("-k", "--filter", default=None, help="only cases whose key contains this substring")
    p.add_argument(
        "--stat",
        choices=("median", "min"),
        default="median",
        help="median of paired per-round ratios (default), or the ratio of the least times (steadier on a busy machine)",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=None,
        help="fresh interpreters the rounds are spread over, one after the other (default: one per round; "
        "1: every round in this process)",
    )
    p.add_argument("--json", metavar="PATH", help="write the results as JSON")
    p.add_argument("--markdown", metavar="PATH", help="write the table and targets as Markdown")
    p.add_argument("--worker", nargs=2, metavar=("PLAN", "OUT"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    cases = make_cases(args.quick, args.filter)
    if args.worker:
        return _worker(*args.worker, cases)
    repeats = args.repeats or (3 if args.quick else 7)
    min_time = args.min_time or (0.002 if args.quick else 0.02)
    processes = max(1, min(repeats, args.processes or repeats))
    if console is None:
        from rich.console import Console

        console = Console() if sys.stdout.isatty() else Console(width=200)
    mods, missing = _namespaces()
    uncovered = sorted(standard_names() - covered_names())
    if uncovered:
        console.print(f"[red]functions without a case[/red]: {', '.join(uncovered)}")
    start = time.perf_counter()
    machine_before = cpu_seconds()
    worker_argv = (["--quick"] if args.quick else []) + (["-k", args.filter] if args.filter else [])
    try:
        results = run_cases(
            cases, mods, missing, repeats, min_time, stat=args.stat, processes=processes, worker_argv=worker_argv
        )
    except RuntimeError as e:  # a worker failed: no partial figures
        console.print(f"[red]surface: not measured[/red]: {e}", highlight=False)
        return 2
    machine_after = cpu_seconds()
    meta = run_meta(
        start,
        repeats,
        min_time,
        args,
        # the CPU time other processes took while the cases ran (a busy machine moves small ratios)
        other_cpu_s=None
        if machine_before is None or machine_after is None
        else (machine_after[0] - machine_before[0]) - (machine_after[1] - machine_before[1]),
        compiled_fast_paths=_compiled(),
        processes=processes,
    )
    checks = check_targets(results)
    print_report(results, checks, meta, console)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(results, checks, meta))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "results": results, "targets": checks}, f, indent=1, default=str)
    return 0 if not uncovered else 1


if __name__ == "__main__":
    sys.exit(main())
