"""The namespace against the real array-api-strict 2.6.1, call for call, over a generated grid.

``strict_differential/grid.py`` builds ~50,000 calls from array-api-strict's own functions
and parameters (every function of ``__all__``, ``linalg.*``, ``fft.*``, every operator,
reflected and in place, indexing, conversions, properties and methods) over every dtype, 0-d,
n-d and empty arrays, Python and NumPy scalars, lists, ``None``, foreign objects and
out-of-domain values. Each call runs on array-api-strict, on the main namespace (policy
``array_api``) and, in a subprocess, through the stand-in (``python -m
array_api_promo.standin``, where ``import array_api_strict`` is ours), and the outcomes are
compared by class: the result's dtype name, shape and values, or the built-in classes of the
exception (ours must be an instance of each built-in class array-api-strict's is: what a user
catching that would catch).

Every difference that remains is named by one rule of ``KNOWN`` below, with its reason:
array-api-strict deviating from the standard's text (quoted), a choice of this package that
its docs state, or an open difference (listed so that it is seen, to be closed). A difference
no rule names fails the test. Through the stand-in the exception messages are compared too
(``test_standin_messages``: where array-api-strict words a refusal itself, the stand-in's message
starts with its words; ``python tests/test_strict_differential.py`` prints every difference and message).
"""

from __future__ import annotations

import os
import pickle
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

import pytest
from strict_differential import grid  # tests/ is on sys.path (rootdir-relative import mode)

import array_api_promo as xp

array_api_strict = pytest.importorskip("array_api_strict")

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TESTS)


class Rule(NamedTuple):
    """A kind of difference that is known: its reason, and which differences it names."""

    kind: str  # "strict deviates" (from the standard's text), "choice" (ours, documented) or "open"
    reason: str
    applies: Callable[[grid.Case, tuple, tuple], bool]


def _name(case: grid.Case) -> str:
    return case.target[1] if len(case.target) > 1 else case.target[0]


def _specs(case: grid.Case):
    for s in case.args + tuple(v for _, v in case.kwargs):
        yield s
        if s[0] == "SEQ":
            yield from s[2]


def _raises(o: tuple, *classes: str) -> bool:
    return o[0] == "raise" and (not classes or any(c in o[1] for c in classes))


def _says(o: tuple, pattern: str) -> bool:
    return o[0] == "raise" and re.search(pattern, o[3]) is not None


def _result(o: tuple) -> bool:
    return o[0] != "raise"


def _has(case: grid.Case, predicate) -> bool:
    return any(predicate(s) for s in _specs(case))


def _numpy_number(s) -> bool:
    return s[0] == "NP" and s[1] in ("float64", "complex128")


_LINALG_PAIRS = {"matmul", "tensordot", "vecdot", "linalg.matmul", "linalg.tensordot", "linalg.vecdot",
                 "linalg.cross", "linalg.outer", "imatmul"}  # fmt: skip
_SHIFT_OPERATORS = {"lshift", "rshift", "ilshift", "irshift"}

KNOWN: dict[str, Rule] = {
    # -- array-api-strict deviates from the standard's text -----------------------------------------
    "isin ignores invert": Rule(
        "strict deviates",
        "array-api-strict 2.6.1 calls np.isin without invert=; the standard (isin, invert): 'If True, the "
        "function must test whether each element in x1 is not in x2.'",
        lambda c, r, o: _name(c) == "isin" and ("invert", grid.V(True)) in c.kwargs and _result(r) and _result(o),
    ),
    "shift operators by negative amounts": Rule(
        "strict deviates",
        "array-api-strict's << and >> (and <<=, >>=) give NumPy's value for a negative amount, where its "
        "bitwise_left_shift/bitwise_right_shift refuse it (ValueError, as we do for both); the standard "
        "(__lshift__, __rshift__): 'Each element must be greater than or equal to 0' and 'Element-wise "
        "results must equal the results returned by the equivalent element-wise function'",
        lambda c, r, o: _name(c) in _SHIFT_OPERATORS and _result(r) and _says(o, "a shift by a negative amount"),
    ),
    "std/var with correction beyond the count": Rule(
        "strict deviates",
        "array-api-strict gives inf (NumPy's division by a negative count); the standard (std, var): 'If "
        "M - correction is less than or equal to 0, the standard deviation/variance must be NaN.'",
        lambda c, r, o: _name(c) in ("std", "var") and _result(r) and _result(o) and c.kwargs[-1][0] == "correction",
    ),
    "bitwise shifts check the sign before the dtype": Rule(
        "strict deviates",
        "array-api-strict's bitwise_left_shift/bitwise_right_shift test x2 < 0 before the dtypes, so a "
        "negative floating or boolean x2 is a ValueError rather than its TypeError for such dtypes (ours); "
        "the standard (bitwise_left_shift): 'x1: Should have an integer data type', 'x2: ... Each element "
        "must be greater than or equal to 0' (the dtype is the argument's first requirement)",
        lambda c, r, o: (
            _name(c) in ("bitwise_left_shift", "bitwise_right_shift")
            and _says(r, "only defined for x2 >= 0")
            and _raises(o, "TypeError", "OverflowError")
        ),
    ),
    # -- the package's documented choices ---------------------------------------------------------
    "np.float64 and np.complex128 are Python numbers": Rule(
        "choice",
        "they are instances of float and complex, the standard's Python scalar types; array-api-strict "
        "refuses subclasses; consumers (SciPy's lp2bp, qmc_quad, Rotation) pass them (docs/guide/standin.md)",
        lambda c, r, o: _raises(r, "TypeError") and _has(c, _numpy_number) and (_result(o) or _raises(o)),
    ),
    "conversions that lose data": Rule(
        "choice",
        "a float with a fraction into an integer dtype, a complex into a real one, an int beyond the "
        "dtype: the standard: 'Conversions not specified according to type-promotion rules may or may not "
        "be permitted'; the main namespace refuses what loses data, the stand-in converts as "
        "array-api-strict (docs/guide/standin.md, 'Conversions left to the library')",
        lambda c, r, o: (
            _name(c) in ("asarray", "full", "full_like", "linspace", "setitem")
            and (
                _says(o, "not a whole number|cannot make|needs a complex dtype|out of bounds|too large")
                or _says(r, "out of bounds|too large|C long|Integer out of bounds|object")
            )
        ),
    ),
    "mixed kinds in linear algebra": Rule(
        "choice",
        "array-api-strict lets NumPy promote an integer with a floating matrix in matmul, tensordot, "
        "vecdot, cross and outer, while its operators and elementwise functions refuse the same pair; the "
        "standard: their result dtype is 'determined by Type Promotion Rules', which define no promotion "
        "between kinds; the array_api policy refuses it everywhere",
        lambda c, r, o: _name(c) in _LINALG_PAIRS and _says(o, "do not promote"),
    ),
    "devices the namespace lists": Rule(
        "choice",
        "__array_namespace_info__().devices() lists the devices that hold every dtype (_runtime.py: "
        "listed_devices); no_float64 and no_x64 exist and the stand-in lists all five",
        lambda c, r, o: c.target == ("info", "devices"),
    ),
    # -- exceptions array-api-strict raises by accident -------------------------------------------
    "array-api-strict's accidental exceptions": Rule(
        "choice",
        "array-api-strict lets Python or NumPy fail on an argument it does not check (AttributeError "
        "'has no attribute', KeyError, ZeroDivisionError, IndexError 'index out of range', TypeError 'not "
        "iterable'/'cannot be interpreted', ValueError 'not enough values to unpack'): a refusal in no class "
        "it chose; ours is a worded TypeError or ValueError",
        lambda c, r, o: (
            _raises(o)
            and (
                _raises(r, "AttributeError", "KeyError", "ZeroDivisionError")
                or _says(r, "index out of range|not iterable|cannot be interpreted|not enough values to unpack")
            )
        ),
    ),
    # -- open: found by this test, not yet closed ---------------------------------------------------
    "open: out-of-bounds axis is an IndexError only": Rule(
        "open",
        "NumPy's AxisError (array-api-strict's) is a ValueError and an IndexError; ours is an IndexError "
        "(the standard: 'must raise an exception', expand_dims: 'an IndexError should be raised')",
        lambda c, r, o: _raises(r) and r[2] == "AxisError" and _raises(o),
    ),
    "open: argument types the standard does not name": Rule(
        "open",
        "array-api-strict passes an argument of a type the standard does not name (keepdims=1, n=True, "
        "np.int64 counts, norm=None, copy=1, a non-tuple axis, shape or shift) to NumPy, which takes it; "
        "ours checks it (TypeError or ValueError), or the classes differ (array-api-strict: ValueError for "
        "dtype=float, ours TypeError)",
        lambda c, r, o: (
            _raises(o)
            and (
                _says(o, r"must be (a |an |True|one|None|'|non-negative|positive|the)|must have|must not be zero")
                or _says(r, "dtype must be one of the supported dtypes|should be a dtype|should be an integer")
            )
        ),
    ),
    "open: indexing array-api-strict refuses": Rule(
        "open",
        "array-api-strict refuses (IndexError) out-of-bounds slice bounds, a key that leaves axes implicit "
        "(x2d[0]), None in a setitem key, integer arrays in setitem; the standard leaves them unspecified",
        lambda c, r, o: c.target[0] in ("getitem", "setitem") and _raises(r, "IndexError"),
    ),
    "open: shapes and values NumPy takes": Rule(
        "open",
        "NumPy's broadcasting or conversions make a result where ours refuses: roll of a tuple shift on one "
        "axis, meshgrid of arrays that are not 1-d, n-d FFTs with s but no axes, cumulative_sum of a 0-d "
        "array, diff with 0-d prepend/append, repeat with 0-d repeats, reshape with a negative size, a "
        "squeeze of a 0-d array's axis 0, fftfreq's negative n, info's dtypes of an unknown device",
        lambda c, r, o: _result(r) and _raises(o, "ValueError", "IndexError", "TypeError"),
    ),
    "open: values array-api-strict refuses": Rule(
        "open",
        "array-api-strict refuses where ours computes: int(x)/float(x) of an array holding NaN or infinity "
        "the other way round, clip bounds beyond 64 bits (NumPy's asarray), matmul of a vector in place, "
        "to_device(None), nested 0-d arrays in asarray, a 0-d fftshift, arange of 0-d arrays",
        lambda c, r, o: _raises(r) and _result(o),
    ),
    "open: exception classes": Rule(
        "open",
        "both refuse, in different built-in classes (matmul with a Python scalar: NumPy's ValueError, ours "
        "TypeError; finfo/iinfo of the wrong kind of dtype: NumPy's ValueError, ours TypeError; ...)",
        lambda c, r, o: _raises(r) and _raises(o),
    ),
    "open: results": Rule(
        "open",
        "both compute, with a different dtype or values (arange of 0-d float bounds: int64 there)",
        lambda c, r, o: _result(r) and _result(o),
    ),
}


def known(case: grid.Case, ref: tuple, ours: tuple) -> str | None:
    """The name of the first rule that names this difference, else None."""
    for name, rule in KNOWN.items():
        if rule.applies(case, ref, ours):
            return name
    return None


# -- the runs (once per session) ----------------------------------------------------------------
_RUNS: dict = {}


def _cases() -> list[grid.Case]:
    if "cases" not in _RUNS:
        _RUNS["cases"] = grid.build(array_api_strict)
    return _RUNS["cases"]


def _reference() -> list[tuple]:
    if "strict" not in _RUNS:
        _RUNS["strict"] = grid.run(array_api_strict, _cases())
    return _RUNS["strict"]


def _main() -> list[tuple]:
    if "main" not in _RUNS:
        _RUNS["main"] = grid.run(xp, _cases())
    return _RUNS["main"]


def _standin() -> list[tuple]:
    """The grid's outcomes in a process run by the stand-in (``import array_api_strict`` is ours)."""
    if "standin" not in _RUNS:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [ROOT, TESTS] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
        )
        for var in list(env):
            if var.startswith("ARRAY_API_STRICT_"):
                del env[var]
        with tempfile.TemporaryDirectory() as tmp:
            cases_file, outcomes_file = os.path.join(tmp, "cases.pickle"), os.path.join(tmp, "outcomes.pickle")
            with open(cases_file, "wb") as f:
                pickle.dump(_cases(), f)
            proc = subprocess.run(
                [sys.executable, "-m", "array_api_promo.standin", "--policy", "array_api", "--",
                 sys.executable, "-c", _GRID_MAIN, cases_file, outcomes_file],
                check=False, capture_output=True, text=True, env=env, timeout=600,
            )  # fmt: skip
            assert proc.returncode == 0, proc.stderr[-3000:]
            with open(outcomes_file, "rb") as f:
                _RUNS["standin"] = pickle.load(f)
    return _RUNS["standin"]


# The grid's main, its module imported as such (run as ``-m``, its classes would be ``__main__``'s, and
# messages naming a foreign object's class would differ from the reference's by that alone).
_GRID_MAIN = "import sys; from strict_differential import grid; sys.exit(grid.main(sys.argv[1:]))"


def differences(outcomes: list[tuple]) -> list[tuple]:
    """``(case, reference outcome, our outcome, why)`` for every call whose outcome class differs."""
    out = []
    for case, ref, ours in zip(_cases(), _reference(), outcomes):
        why = grid.compare(ref, ours)
        if why is not None:
            out.append((case, ref, ours, why))
    return out


def message_differences(outcomes: list[tuple]) -> list[tuple]:
    """``(case, array-api-strict's message, ours)`` for refusals of one class worded differently."""
    return [
        (case, ref[3], ours[3])
        for case, ref, ours in zip(_cases(), _reference(), outcomes)
        if grid.message_difference(ref, ours)
    ]


def _unexplained(diffs) -> list[str]:
    return [f"{c.id}: {why}" for c, r, o, why in diffs if known(c, r, o) is None]


# -- the tests --------------------------------------------------------------------------------------
def test_grid_covers_the_whole_namespace():
    cases = _cases()
    called = {c.target[1] for c in cases if c.target[0] == "fn"}
    assert set(grid.function_names(array_api_strict)) <= called
    operators = {c.target[1] for c in cases if c.target[0] in ("op", "iop")}
    assert set(grid.BINARY_OPERATORS) | set(grid._INPLACE.values()) | {"neg", "pos", "invert", "abs"} <= operators
    assert len(cases) > 40_000
    assert len({c.id for c in cases}) > 0.95 * len(cases)  # (ids repeat only where fills do not show)


def test_main_namespace_matches_array_api_strict():
    diffs = differences(_main())
    unexplained = _unexplained(diffs)
    assert not unexplained, f"{len(unexplained)} differences no rule names:\n" + "\n".join(unexplained[:60])


def test_standin_matches_array_api_strict():
    diffs = differences(_standin())
    unexplained = _unexplained(diffs)
    assert not unexplained, f"{len(unexplained)} differences no rule names:\n" + "\n".join(unexplained[:60])


# How many differences each open rule names at most: the rule may shrink as they are closed, never grow.
OPEN_AT_MOST = {
    "open: out-of-bounds axis is an IndexError only": 97,
    "open: argument types the standard does not name": 476,
    "open: indexing array-api-strict refuses": 34,
    "open: shapes and values NumPy takes": 180,
    "open: values array-api-strict refuses": 28,
    "open: exception classes": 465,
    "open: results": 3,
}


def test_open_differences_do_not_grow():
    used = Counter(known(c, r, o) for c, r, o, _ in differences(_main()))
    grown = {n: used[n] for n, limit in OPEN_AT_MOST.items() if used[n] > limit}
    assert not grown, f"open differences grew (the limits in OPEN_AT_MOST): {grown}"
    assert set(OPEN_AT_MOST) == {n for n, rule in KNOWN.items() if rule.kind == "open"}


def test_no_strict_deviation_left_unused():
    """Each rule that blames array-api-strict still names a difference (else it is stale)."""
    used = Counter(known(c, r, o) for c, r, o, _ in differences(_main()))
    stale = [n for n, rule in KNOWN.items() if rule.kind == "strict deviates" and not used[n]]
    assert not stale


def test_fixed_refusals_stay_fixed():
    """The issue's table: what array-api-strict refuses we refuse, in the same class, and what it accepts we accept."""
    fixed = re.compile(
        r"^(imag\((float|int|uint|bool)|arg(max|min)\((bool|complex)|(arg)?sort\((bool|complex)|"
        r"bitwise_(left|right)_shift\(int\d+\[3\], -1\)|pow\(int\d+\[3\], -[12]\)|full(_like)?\(.*float64\[\]|"
        r"reshape\(float64\[2, 3\], \[|linspace\(0, 1, 2, dtype=bool|arange\([12], dtype=bool|"
        r"searchsorted\((u?int\d+)\[5\]<sorted>, float64\[3\]\)$|clip\(\w+\[3\], 2, 1\))"
    )
    hits = [(c, r, o) for c, r, o in zip(_cases(), _reference(), _main()) if fixed.match(c.id)]
    assert len(hits) > 60
    wrong = [f"{c.id}: {grid.compare(r, o)}" for c, r, o in hits if grid.compare(r, o) is not None]
    assert not wrong, "\n".join(wrong)


# Refusals array-api-strict words itself (a text of ``_strict_words.WORDS``) that the stand-in does not
# word so, by the call's id, and why: where array-api-strict's words come from an accident of its own.
OWN_WORDS_KNOWN = {
    r"arange\((5, )?(step=)?float64\[3\]\)": "an n-d array as a bound: array-api-strict's bool() of it refuses",
    r"astype\(np\.\w+\(\S+\), float32\)": "a NumPy scalar as x: array-api-strict's isdtype reads its NumPy dtype",
    r"(concat|stack)\(\(float64\[3\], int8\)\)": "a dtype among the arrays: array-api-strict's result_type takes it",
    r"(std|var)\(float64\[3\], correction=float64\[\]\)": "an array as correction: array-api-strict compares it",
    r"\w+\[2, 2\]<m> @ np\.float64\(1\.5\)": "ours declines a NumPy float, whose reflected matmul NumPy answers",
}


def _own_words():
    """``{key: pattern}`` of array-api-strict's own texts (NumPy's that it passes on left out)."""
    from array_api_promo._strict_words import NUMPY_WORDS, WORDS

    return {
        key: re.compile(".*".join(re.escape(p) for p in re.split(r"\{[^}]*\}", text)), re.DOTALL)
        for key, (_, text) in WORDS.items()
        if key not in NUMPY_WORDS
    }


def test_standin_messages():
    """Through the stand-in, a refusal array-api-strict words itself has its words first (then ours);
    NumPy's and Python's messages that it lets through are not compared (``python
    tests/test_strict_differential.py`` prints every difference, grouped)."""
    own = _own_words().values()
    diffs = [
        (c, a, b)
        for c, a, b in message_differences(_standin())
        if any(p.fullmatch(a) for p in own) and not any(re.fullmatch(k, c.id) for k in OWN_WORDS_KNOWN)
    ]
    assert not diffs, f"{len(diffs)} messages differ, e.g.:\n" + "\n".join(
        f"{c.id}: {a!r} vs {b!r}" for c, a, b in diffs[:40]
    )
    met = {k for k in OWN_WORDS_KNOWN for c, a, b in message_differences(_standin()) if re.fullmatch(k, c.id)}
    assert met == set(OWN_WORDS_KNOWN)  # (a rule no call needs any more is stale)


def _report() -> None:  # pragma: no cover (a developer's view)
    import time

    for label, run in (("main namespace", _main), ("stand-in", _standin)):
        start = time.perf_counter()
        outcomes = run()
        diffs = differences(outcomes)
        print(f"== {label}: {len(_cases())} calls, {len(diffs)} differences ({time.perf_counter() - start:.1f} s)")
        by_rule = Counter(known(c, r, o) or "UNEXPLAINED" for c, r, o, _ in diffs)
        for name, n in by_rule.most_common():
            print(f"  {n:5d}  {name}")
            for c, _r, _o, why in [d for d in diffs if (known(*d[:3]) or "UNEXPLAINED") == name][:3]:
                print(f"           {c.id}: {why[:200]}")
    groups: dict = {}
    for c, a, b in message_differences(_standin()):
        groups.setdefault((_name(c), re.sub(r"\d+|'[^']*'", "#", a)[:90]), []).append((c, a, b))
    print(f"== stand-in messages: {sum(map(len, groups.values()))} differ, {len(groups)} groups")
    for _key, items in sorted(groups.items()):
        c, a, b = items[0]
        print(f"  {len(items):4d}  {c.id}\n          strict: {a}\n          ours:   {b}")


if __name__ == "__main__":  # pragma: no cover
    _report()
