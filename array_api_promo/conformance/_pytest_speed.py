"""A pytest plugin (loaded with ``-p array_api_promo.conformance._pytest_speed``) that every run
of the suite loads for speed alone: each thing it remembers is a pure function of what it is
remembered under, and what it skips changes nothing a test can see (where that could fail, it
checks), so the suite draws the same examples and reports the same text, byte for byte.

Where the time went (py-spy of a torch run, 2026-11-27: 172 s alone; 118 s with the first two):

- **Failures formatted once.** To show the statement of every traceback entry, pytest parses the
  entry's whole source file with ``ast.parse`` and walks the tree (``getstatementrange_ast``),
  keeping the tree only for the one traceback it is formatting. Hypothesis formats each distinct
  failure it meets while generating and pytest formats the last one again, so a run with failures
  (torch: 72, through the suite's 2,000-line test modules) spent a fifth of its time parsing the
  same files again. The range depends on the file's text, the line and ``assertion`` alone. Then
  for each line pytest before 9.2 walked the whole tree to list where statements start: listed
  once per tree (2.5% of a torch run, py-spy, 2026-11-27; pytest 9.2 lists them once itself).
- **Array strategies made once.** The suite builds its strategies inside the tests, once per
  example (``hh.arrays(dtype=..., shape=x.shape)``: Hypothesis' ``arrays`` and ``from_dtype`` for
  the drawn dtype and shape), and Hypothesis validates each new strategy object before drawing
  from it; over a tenth of the run went there. The strategies these two return hold nothing but
  their arguments, so equal arguments get the same object (Hypothesis' own ``cacheable`` does the
  same for its built-in strategies) and it is validated once. So do the namespace's shapes, axes
  and indices, which the suite also asks for inside its tests from drawn integers
  (``xps.array_shapes(min_dims=2, max_dims=2)`` in ``matrix_shapes`` alone was 1.2% of a torch
  run, py-spy, 2026-11-27).
- **The suite's strategy helpers made once.** The suite's own ``arrays``, ``arrays_no_scalars``,
  ``shapes``, ``mutually_broadcastable_shapes`` and ``axes`` (``hypothesis_helpers``) wrap
  Hypothesis' strategies in new objects at each call: ``arrays`` is a ``builds`` over a new
  ``flatmap`` when the dtype is a strategy, which Hypothesis' cache cannot key and validates anew
  (about 1 ms each), and ``shapes`` a new filter, which makes each ``arrays`` over it new too. A
  torch run called ``arrays`` 23,265 times for 3,235 distinct arguments (2026-11-27). Each returns
  a function of its arguments alone and none a ``shared`` strategy (whose draws go by the
  object), so equal arguments get the same object, as for Hypothesis' ``arrays``.
- **Hypothesis' own strategy cache kept.** Hypothesis returns the strategy it made before for
  equal hashable arguments (``cacheable``), in a cache of 1,024 that evicts new entries first once
  it is full of reused ones. A run of the suite fills it early, and from then on the strategies its
  tests build per example (``hh.arrays``' ``builds``, ``tuples``, ``array_shapes``) are made and
  validated anew each time (2,227 times in ``test_nan_propagation``). The plugin gives the cache
  ``MAX_REMEMBERED`` entries. ``sampled_from`` of a list, which that cache cannot key, is
  remembered by the list's contents.
- **Broadcast indices listed once.** The suite walks every element of each drawn shape (and of
  shapes broadcast together) with ndindex's ``iter_indices``, which builds a type-checked ndindex
  ``Tuple`` per element: 4% of an ``array_api`` run (py-spy, 2026-11-27), in 4,801 calls of which
  552 differed. The index tuples of each (shapes, ``skip_axes``) are listed once.
- **Filters validated once.** Validating a filter re-initialises it, which forgot that it was
  validated: the suite's shape filters were validated again at every draw (see
  ``validate_filter_once``).
- **No garbage hunt after the report** (``pytest_unconfigure``).
- **Global random generators left alone, and checked.** Around every example Hypothesis saves,
  seeds and restores Python's ``random``, NumPy's global ``RandomState`` and any registered one
  (``deterministic_PRNG``), and around every draw it compares ``random``'s state to warn of a
  strategy that used it (``deprecate_random_in_strategy``): 11% of an ``array_api`` run (py-spy,
  2026-11-27). The seeding matters only to an example that uses one of those generators, and none
  of the suite's does (its ``.example()`` shuffles with ``random`` outside any example). Inside
  Hypothesis' engine the plugin skips both; it compares the generators' states before and after the
  engine runs a test's examples, and stops the run (which then writes nothing) if one changed.
  Explicit ``@example`` cases, which run outside the engine, keep Hypothesis' own seeding.
"""

from __future__ import annotations

import ast
import bisect
import contextlib
import gc
import importlib
import math
import numbers
import pickle
import sys

import hypothesis.core
import hypothesis.strategies
import pytest
from _pytest._code import code as _code, source as _source
from hypothesis import control as _control
from hypothesis.extra import array_api as _array_api
from hypothesis.internal import entropy as _entropy
from hypothesis.internal.cache import LRUReusedCache
from hypothesis.strategies._internal import core as _strategies_core, utils as _strategy_utils
from hypothesis.strategies._internal.strategies import FilteredStrategy as _FilteredStrategy

# -- failures formatted once ----------------------------------------------------------------------
_computed_range = _source.getstatementrange_ast
_by_text: dict[str, dict] = {}  # file text -> {"tree": its AST, (line, assertion): (tree, start, end)}


def getstatementrange_ast(lineno, source, assertion=False, astnode=None):
    known = _by_text.setdefault("\n".join(source.lines), {})
    found = known.get((lineno, assertion))
    if found is None:
        found = _computed_range(lineno, source, assertion, known.get("tree") if astnode is None else astnode)
        known["tree"] = found[0]
        known[lineno, assertion] = found
    return found


_statement_lines: dict[int, tuple[ast.AST, list[int]]] = {}  # id(tree) -> (tree, its statement lines)
#: pytest 9.2 lists a tree's statement lines once itself (on the tree); before, it walked the whole
#: tree again for each line, and the plugin lists them once instead.
PYTEST_LISTS_STATEMENTS = hasattr(_source, "_statement_linenos")


def statement_lines(tree: ast.AST) -> list[int]:
    """The 0-based lines where a statement of ``tree`` starts, as pytest counts them (a decorated
    definition at its first decorator, a ``finally``/``else`` block on the line before its first
    statement), sorted."""
    lines: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.stmt, ast.ExceptHandler)):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                lines.extend(d.lineno - 1 for d in node.decorator_list)
            lines.append(node.lineno - 1)
            for block in (getattr(node, "finalbody", None), getattr(node, "orelse", None)):
                if block:
                    lines.append(block[0].lineno - 2)
    lines.sort()
    return lines


def get_statement_startend2(lineno: int, node: ast.AST) -> tuple[int, int | None]:
    """pytest's before 9.2: the statement around ``lineno`` (its first line, the next
    statement's), with the tree's statement lines listed once."""
    known = _statement_lines.get(id(node))
    if known is None or known[0] is not node:
        known = _statement_lines[id(node)] = (node, statement_lines(node))
    lines = known[1]
    after = bisect.bisect_right(lines, lineno)
    return lines[after - 1], lines[after] if after < len(lines) else None


def list_statement_lines_once() -> None:
    """Where pytest walks the tree for each line (before 9.2); a later pytest's own is kept."""
    if not PYTEST_LISTS_STATEMENTS:
        _source.get_statement_startend2 = get_statement_startend2


# -- array strategies made once -------------------------------------------------------------------
#: Remembered strategies per function before the memo starts again (a run of the suite makes a few
#: thousand distinct ones); forgetting only costs the validation again.
MAX_REMEMBERED = 100_000


#: Types whose values are their own key (hashable, and ``==`` tells them apart), with the classes
#: found to compare by identity (dtypes, strategies) added as they come: the keys were 2% of a run.
_AS_THEY_ARE = {int, bool, str, type(None)}


def argument_key(value):
    """``value`` as a key that tells apart what ``==`` does not: every signed zero (0.0 from -0.0,
    ``np.float32(-0.0)`` from ``np.float32(0.0)``, ``-0j`` from ``0j``, ``Decimal('-0')`` from
    ``Decimal('0')``), NaN from itself, True from 1, a NumPy float from a Python one; TypeError for what cannot be a key. Strategies
    are keys by identity."""
    t = type(value)
    if t in _AS_THEY_ARE:
        return (t, value)
    if t is tuple or t is list:
        return (t, tuple(map(argument_key, value)))
    if isinstance(value, float):
        return (type(value), math.copysign(1.0, value), "nan" if value != value else value)
    if isinstance(value, numbers.Number):
        # NumPy's float32 and float16 (not float subclasses), complex numbers and Decimal: equal
        # values that differ in sign (-0.0, 0j against -0j, Decimal('-0')) or in form
        # (Decimal('1.0') and Decimal('1.00')) have reprs of their own; a NaN's is its sign too.
        hash(value)
        return (t, repr(value))
    if isinstance(value, (tuple, list)):
        return (type(value), tuple(argument_key(v) for v in value))
    if isinstance(value, dict):
        return (dict, tuple(sorted((k, argument_key(v)) for k, v in value.items())))
    hash(value)
    if t.__eq__ is object.__eq__ and t.__hash__ is object.__hash__:
        _AS_THEY_ARE.add(t)  # compared by identity: each value is its own key
    return (t, value)


def remembering(make, keep=None):
    """``make`` returning the object it made before for the same arguments (each one it made, or
    each one ``keep`` accepts; the memo is the function's ``made``)."""
    made: dict = {}

    def remembered(*args, **kwargs):
        try:
            keywords = tuple(sorted((k, argument_key(v)) for k, v in kwargs.items())) if kwargs else ()
            key = (tuple(map(argument_key, args)), keywords)
            found = made.get(key)
        except TypeError:
            return make(*args, **kwargs)
        if found is None:
            found = make(*args, **kwargs)
            if keep is None or keep(found):
                if len(made) >= MAX_REMEMBERED:
                    made.clear()
                made[key] = found
        return found

    remembered.remembers = make  # type: ignore[attr-defined]
    remembered.made = made  # type: ignore[attr-defined]
    return remembered


def remember_each(owner, names) -> None:
    """``owner``'s functions ``names`` (those it has) remembering, each wrapped once."""
    for name in names:
        made = getattr(owner, name, None)
        if callable(made) and not hasattr(made, "remembers"):
            setattr(owner, name, remembering(made))


_make_namespace = _array_api.make_strategies_namespace


#: The namespace's strategy functions remembered: its arrays, and the shapes and indices the suite
#: asks of it inside its tests from drawn integers (each a new strategy of its arguments alone).
NAMESPACE_REMEMBERED = (
    "arrays",
    "from_dtype",
    "array_shapes",
    "broadcastable_shapes",
    "mutually_broadcastable_shapes",
    "valid_tuple_axes",
    "indices",
)


def make_strategies_namespace(xp, *, api_version=None):
    namespace = _make_namespace(xp, api_version=api_version)  # Hypothesis keeps one per (xp, version)
    remember_each(namespace, NAMESPACE_REMEMBERED)
    return namespace


def remember_array_strategies() -> None:
    """Hypothesis' array strategies at both levels: the namespace's ``arrays`` and ``from_dtype``
    (each call a new lazy strategy), and the module's ``_arrays`` and ``_from_dtype`` that these
    call, by name, again for each dtype or shape drawn from a strategy."""
    remember_each(_array_api, ("_arrays", "_from_dtype"))
    _array_api.make_strategies_namespace = make_strategies_namespace


def keep_hypothesis_strategies() -> None:
    """Hypothesis' cache of the strategies it made, ``MAX_REMEMBERED`` entries instead of 1,024, and
    ``sampled_from`` remembered by the contents of its list (the cache keys hashable arguments only).
    Both give an equal call the object an earlier one made; Hypothesis' cache does that already,
    and a ``SampledFromStrategy`` holds nothing but a tuple of its elements."""
    if _strategy_utils._STRATEGY_CACHE.max_size < MAX_REMEMBERED:
        _strategy_utils._STRATEGY_CACHE = LRUReusedCache(MAX_REMEMBERED)
    # the suite imports it from hypothesis.strategies, by name or as st.sampled_from
    remember_each(hypothesis.strategies, ("sampled_from",))


#: The suite's module and its helpers that make a strategy from their arguments alone (none of
#: them a ``shared`` one, whose draws go by the object).
SUITE_HELPERS = "array_api_tests.hypothesis_helpers"
SUITE_STRATEGY_HELPERS = ("arrays", "arrays_no_scalars", "shapes", "mutually_broadcastable_shapes", "axes")


def remember_suite_strategies() -> None:
    """The suite's ``SUITE_STRATEGY_HELPERS``, before its test modules import them by name
    (test_linalg does). The module is imported here, after the suite's conftest set up the
    package; if it cannot be, nothing is wrapped and the suite's collection meets and reports the
    same error."""
    try:
        helpers = importlib.import_module(SUITE_HELPERS)
    except Exception:
        return
    remember_each(helpers, SUITE_STRATEGY_HELPERS)


# -- broadcast indices listed once ----------------------------------------------------------------
#: Index lists longer than this are made again at each call (a few shapes with thousands of
#: elements would otherwise hold most of the memo).
MAX_LISTED = 1_000


def listing_once(iter_indices):
    """ndindex's ``iter_indices`` (the suite walks every element of each drawn shape with it),
    the index tuples of each (shapes, skip_axes) listed once: they are ndindex's immutable
    ``Tuple`` objects, a function of those integers alone. A generator still, which lists at its
    first ``next()`` and raises there what ndindex raises there. The lists: its ``listed``."""
    listed = remembering(
        lambda *shapes, skip_axes: list(iter_indices(*shapes, skip_axes=skip_axes)),
        keep=lambda found: len(found) <= MAX_LISTED,
    )

    def listed_indices(*shapes, skip_axes=()):
        yield from listed(*shapes, skip_axes=skip_axes)

    listed_indices.remembers = iter_indices  # type: ignore[attr-defined]
    listed_indices.listed = listed.made  # type: ignore[attr-defined]
    return listed_indices


def list_broadcast_indices_once() -> None:
    """Before the suite's shape helpers import ``iter_indices`` from ndindex by name."""
    try:
        import ndindex
    except ImportError:  # the suite cannot run without it; its own import error says so
        return
    if not hasattr(ndindex.iter_indices, "remembers"):
        ndindex.iter_indices = listing_once(ndindex.iter_indices)


# -- filters validated once -----------------------------------------------------------------------
_validate_filter = _FilteredStrategy.do_validate


def validate_filter_once(self) -> None:
    """Hypothesis validates a strategy once (``validate`` marks it in ``validate_called``), but a
    filter's validation re-initialises the filter with its rewritten conditions, and that forgets
    the mark: the suite's shape filters were validated again at every draw. The re-initialised
    filter is what validating it again would make (the same base and conditions), so the mark is
    kept."""
    called = self.validate_called
    _validate_filter(self)
    self.validate_called = called


# -- global random generators left alone, and checked ---------------------------------------------
#: Hypothesis trims its own frames off the start of a failure's traceback, and ours with this set
#: (run_engine stands between its frames): the failure reads as without the plugin.
__hypothesistracebackhide__ = True
_UNTOUCHED = contextlib.nullcontext()
_deterministic_PRNG = hypothesis.core.deterministic_PRNG
_deprecate_random_in_strategy = _control.deprecate_random_in_strategy
_run_engine = hypothesis.core.StateForActualGivenExecution.run_engine
_engines_running = 0  # run_engine calls under way (a test's .example() runs one inside another)


def deterministic_PRNG(seed=0):
    """Hypothesis' own outside its engine (explicit ``@example`` cases); inside, nothing."""
    return _UNTOUCHED if _engines_running else _deterministic_PRNG(seed)


def deprecate_random_in_strategy(fmt, *args):
    return _UNTOUCHED if _engines_running else _deprecate_random_in_strategy(fmt, *args)


def global_random_states() -> bytes:
    """The states of the generators Hypothesis would seed: Python's ``random`` and any passed to
    ``register_random``, and NumPy's global ``RandomState``."""
    states = [r.getstate() for r in list(_entropy.RANDOMS_TO_MANAGE.values())]
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        states.append(numpy.random.get_state())
    return pickle.dumps(states)


def run_engine(self):
    """Hypothesis' engine (every generated example of a test), with the global generators' states
    compared before and after: a change means that an example used one, which Hypothesis would
    have seeded, and the run stops."""
    global _engines_running
    before = global_random_states()
    _engines_running += 1
    try:
        return _run_engine(self)
    finally:
        _engines_running -= 1
        if global_random_states() != before:
            pytest.exit(
                f"{__name__}: a test changed the state of a global random generator (random, "
                "numpy.random or one registered with Hypothesis) in its examples, where Hypothesis "
                "would have seeded it; its examples would not be Hypothesis' own, so the run stops",
                returncode=3,
            )


def leave_global_randoms_alone() -> None:
    """No seeding and restoring of the global random generators around each generated example, and
    no comparison of ``random``'s state around each draw; a check around the engine instead."""
    hypothesis.core.deterministic_PRNG = deterministic_PRNG  # core.py imported it by name
    _control.deprecate_random_in_strategy = deprecate_random_in_strategy
    _strategies_core.deprecate_random_in_strategy = deprecate_random_in_strategy  # (as did this)
    hypothesis.core.StateForActualGivenExecution.run_engine = run_engine  # type: ignore[method-assign]


# -- no garbage hunt after the report ------------------------------------------------------------
@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """After the session (its report written, its summary printed) pytest collects garbage five
    times, to report exceptions raised in finalizers, over every object the run left: 1.5% of an
    ``array_api`` run (py-spy, 2026-11-27). Freezing the heap makes those collections look at
    nothing; the process ends right after."""
    gc.freeze()


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session):
    # After the suite's conftest imported its package, before collection imports its test modules
    # (and within pytest's recording of warnings, as the collection's own imports are).
    remember_suite_strategies()


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    # Before the suite's conftest imports its package, which makes its strategies namespace.
    remember_array_strategies()
    keep_hypothesis_strategies()
    _FilteredStrategy.do_validate = validate_filter_once
    list_broadcast_indices_once()
    leave_global_randoms_alone()
    # pytest's traceback code imported the function by name: both homes get the remembering one.
    _code.getstatementrange_ast = getstatementrange_ast
    _source.getstatementrange_ast = getstatementrange_ast
    list_statement_lines_once()
