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

import numpy as np  # noqa: E402

# The rules name array-api-strict 2.6.1's differences as it runs on NumPy 2.4 and 2.5 (the .ci/run
# environment and nox's newest). It hands many arguments to NumPy, and NumPy before 2.4 takes more
# of them (keepdims=np.bool_(True), empty(None), a NumPy bool as an index): there the reference moves.
pytestmark = pytest.mark.skipif(
    tuple(int(p) for p in np.__version__.split(".")[:2]) < (2, 4),
    reason=f"the reference is array-api-strict on NumPy 2.4+, not on NumPy {np.__version__}",
)

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
    "tensordot with a negative integer axes": Rule(
        "strict deviates",
        "array-api-strict lets NumPy contract over axes=-1 (an outer product of the leading axes); the standard "
        "(tensordot, axes): 'An integer ``axes`` value **must** be nonnegative.' (ours: ValueError)",
        lambda c, r, o: _name(c) in ("tensordot", "linalg.tensordot") and _result(r) and _says(o, "non-negative"),
    ),
    "n-d FFTs with s but no axes": Rule(
        "strict deviates",
        "array-api-strict transforms NumPy's last len(s) axes; the standard (fftn, ifftn, rfftn, irfftn, s): 'If "
        "``s`` is not ``None``, ``axes`` must not be ``None``.' (ours: ValueError)",
        lambda c, r, o: _name(c).startswith("fft.") and _result(r) and _says(o, "when s is given, axes must be"),
    ),
    "arange's length": Rule(
        "strict deviates",
        "array-api-strict gives NumPy's length: one value for step=inf, none for arange(0, 2**63) (NumPy's overflow); "
        "the standard (arange, returns): 'The length of the output array must be ``ceil((stop-start)/step)`` if "
        "``stop - start`` and ``step`` have the same sign' (ours: 0 values for step=inf; for 2**63 values a "
        "ValueError: no array of that length can be made)",
        lambda c, r, o: (
            _name(c) == "arange"
            and _result(r)
            and (_says(o, "more than NumPy can index") or (_result(o) and r[2] == (1,) and o[2] == (0,)))
        ),
    ),
    "matrix_rank with an rtol that broadcasts the stack": Rule(
        "strict deviates",
        "array-api-strict broadcasts rtol of shape (1,) against a single matrix to a rank of shape (1,); the "
        "standard (matrix_rank, returns): 'must have shape ``(...)`` (i.e., must have a shape equal to "
        "``shape(x)[:-2]``)' (ours: ValueError, rtol does not broadcast to the stack shape)",
        lambda c, r, o: _name(c) == "linalg.matrix_rank" and _result(r) and _says(o, "does not broadcast to the stack"),
    ),
    # -- the package's documented choices ---------------------------------------------------------
    "np.float64 and np.complex128 are Python numbers": Rule(
        "choice",
        "they are instances of float and complex, the standard's Python scalar types; array-api-strict "
        "refuses subclasses (a TypeError, or a KeyError from full); consumers (SciPy's lp2bp, qmc_quad, "
        "Rotation) pass them (docs/guide/standin.md)",
        lambda c, r, o: _raises(r, "TypeError", "KeyError") and _has(c, _numpy_number) and (_result(o) or _raises(o)),
    ),
    "integers with __index__ where an int is asked": Rule(
        "choice",
        "an np.int64 or a 0-d integer array is taken by __index__ wherever an int is asked (axes, counts, "
        "shifts: SciPy passes np.int64 from NumPy computations), as array-api-strict takes it in every other "
        "function; its roll and repeat refuse it (ValueError/TypeError)",
        lambda c, r, o: (
            _name(c) in ("roll", "repeat")
            and _raises(r)
            and _result(o)
            and (_has(c, lambda s: s[0] == "NP" and s[1] == "int64") or _has(c, lambda s: s == grid.A("int64", ())))
        ),
    ),
    "0-d array bounds of arange": Rule(
        "choice",
        "a 0-d integer or real array bound is the number it holds (SciPy: arange(1, n + 1) with a 0-d n): a float "
        "one gives the default float dtype, as the standard asks of a float bound; array-api-strict gives its "
        "default integer dtype whatever the bound (arange(0-d 0.5) is int64 [0]: a silent wrong dtype) and "
        "refuses an integer one by accident (its own integer division)",
        lambda c, r, o: (
            _name(c) == "arange"
            and _has(c, lambda s: s[0] == "A" and s[2] == ())
            and (_says(r, "Only floating-point dtypes are allowed in __r?truediv__") or (_result(r) and _result(o)))
        ),
    ),
    "ordering complex numbers": Rule(
        "choice",
        "array-api-strict orders a Python complex against a real array (NumPy's lexicographic order) in <, <=, >, "
        ">=, less, ..., maximum and minimum, while it refuses complex arrays there; the standard: x2 'Should have a "
        "real-valued data type' and 'inequality comparison of complex numbers is unspecified'; the array_api policy "
        "refuses to order complex values anywhere (unordered_dtypes), so no value rests on an order no other "
        "library shares",
        lambda c, r, o: _result(r) and _says(o, "Python complex is not allowed; the standard requires real-valued"),
    ),
    "matmul with a Python scalar": Rule(
        "choice",
        "x @ 1 is Python's TypeError ('unsupported operand type(s)': our @ returns NotImplemented, as a type it "
        "does not take); array-api-strict converts the scalar and NumPy refuses the 0-d operand (ValueError), or "
        "its bounds check refuses 300 for int8 (OverflowError); the standard's Python scalars mix with arrays "
        "'where <op> is a built-in operator ... excluding the matmul @ operator' (type promotion rules)",
        lambda c, r, o: (
            _name(c) in ("matmul", "imatmul")
            and c.target[0] in ("op", "iop")
            and _raises(r)
            and _says(o, "unsupported operand type")
        ),
    ),
    "clip bounds beyond 64 bits": Rule(
        "choice",
        "array-api-strict fails to make an int64 of a Python int beyond 64 bits (NumPy's asarray: OverflowError), "
        "while its operators take the same int with a float array and its clip takes ints beyond the dtype's "
        "range (clip(int8, None, 300)); ours clips by the int's value (nothing is lost)",
        lambda c, r, o: _name(c) == "clip" and _says(r, "Integer out of bounds for array dtypes"),
    ),
    "fftshift of a 0-d array": Rule(
        "choice",
        "array-api-strict fails on a 0-d x by accident (NumPy's unpacking of its shape: ValueError 'not enough "
        "values to unpack'); the standard (fftshift, axes): 'If None, the function must shift all axes' (none): ours "
        "returns x",
        lambda c, r, o: (
            _name(c) in ("fft.fftshift", "fft.ifftshift") and _says(r, "not enough values to unpack") and _result(o)
        ),
    ),
    "NumPy readings that give wrong values or dtypes": Rule(
        "choice",
        "array-api-strict lets NumPy read arguments whose result would be silently wrong, which the array_api "
        "policy refuses (the project's rule: never a silent wrong dtype or value): qr(mode='r') (NumPy's R alone, "
        "unpacked as the rows Q and R), a complex rtol (a rank by lexicographic order), a complex d in "
        "fftfreq/rfftfreq (complex frequencies; the standard returns a real floating dtype), rfftfreq(-1) (an "
        "empty array for a window length that is no length)",
        lambda c, r, o: (
            _result(r)
            and _raises(o)
            and (
                (_name(c) == "linalg.qr" and ("mode", grid.V("r")) in c.kwargs)
                or (_name(c) in ("linalg.matrix_rank", "linalg.pinv") and ("rtol", grid.V(1j)) in c.kwargs)
                or (_name(c) in ("fft.fftfreq", "fft.rfftfreq") and ("d", grid.V(1j)) in c.kwargs)
                or (_name(c) == "fft.rfftfreq" and c.args == (grid.V(-1),))
            )
        ),
    ),
    "info of an object that is no device": Rule(
        "choice",
        "array-api-strict's __array_namespace_info__().dtypes() and default_dtypes() ignore a device they do not "
        "know (object()) and answer for the CPU; ours refuses it (ValueError), as every function of ours does",
        lambda c, r, o: c.target[0] == "info" and _result(r) and _says(o, "unknown device"),
    ),
    "conversions that lose data": Rule(
        "choice",
        "a float with a fraction into an integer dtype, a complex into a real one, an int beyond the "
        "dtype: the standard: 'Conversions not specified according to type-promotion rules may or may not "
        "be permitted'; the main namespace refuses what loses data, the stand-in converts as "
        "array-api-strict (docs/guide/standin.md, 'Conversions left to the library')",
        lambda c, r, o: (
            (
                _name(c) in ("asarray", "full", "full_like", "linspace", "setitem")
                and (
                    _says(o, "not a whole number|cannot make|needs a complex dtype|out of bounds|too large")
                    or _says(r, "out of bounds|too large|C long|Integer out of bounds|object")
                )
            )
            # sum, prod, cumulative_sum, trace of complex input with a real dtype=: NumPy drops the imaginary part
            or (_result(r) and _says(o, "would discard the imaginary part"))
        ),
    ),
    "mixed kinds in linear algebra": Rule(
        "choice",
        "array-api-strict lets NumPy promote an integer with a floating matrix in matmul, tensordot, "
        "vecdot, cross and outer (and an integer prepend or append with a floating x in diff), while its "
        "operators and elementwise functions refuse the same pair; the standard: their result dtype is "
        "'determined by Type Promotion Rules', which define no promotion between kinds; the array_api policy "
        "refuses it everywhere",
        lambda c, r, o: (_name(c) in _LINALG_PAIRS or _name(c) == "diff") and _says(o, "do not promote"),
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
        "iterable'/'cannot be interpreted', ValueError 'not enough values to unpack'; a NumPy scalar or a Python "
        "number where an array is asked, which NumPy then refuses by its shape or device; NumPy's 'axes don't "
        "match array', 'shape mismatch: indexing arrays could not be broadcast', its result_type of Python "
        "numbers in concat/stack; a NumPy scalar stored by __setitem__, refused for its device 'cpu'; its own "
        "integer division in arange): a refusal in no class it chose. Ours is the class Python's convention "
        "names: a TypeError for an argument of the wrong type (an array is asked: 'must be an array of'), a "
        "ValueError for a wrong value or shape, an IndexError for an index",
        lambda c, r, o: (
            _raises(o, "TypeError", "ValueError", "IndexError")
            and (
                _raises(r, "AttributeError", "KeyError", "ZeroDivisionError")
                or _says(r, "index out of range|not iterable|cannot be interpreted|not enough values to unpack")
                or (_raises(o, "TypeError") and _says(o, r"must be an array of|must be an array, an int"))
                or (_raises(o, "TypeError") and _says(r, "mismatched devices|at least one array or dtype"))
                or (_raises(o, "TypeError") and _says(r, "axes don't match array"))
                or (_raises(o, "ValueError") and _says(r, "shape mismatch: indexing arrays could not be broadcast"))
                or (_raises(o, "ValueError") and _says(r, "Only floating-point dtypes are allowed in __rtruediv__"))
            )
        ),
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
OPEN_AT_MOST: dict[str, int] = {}  # (none open: issue 50's last, indexing, closed by undefined_refusals)


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
