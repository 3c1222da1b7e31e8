"""A pytest plugin (loaded with ``-p array_api_promo.conformance._pytest_speed``) that every run
of the suite loads for speed alone: each thing it remembers is a pure function of what it is
remembered under, so the suite draws the same examples and reports the same text, byte for byte.

Where the time went (py-spy of a torch run, 2026-11-27: 172 s alone; 118 s with the first two):

- **Failures formatted once.** To show the statement of every traceback entry, pytest parses the
  entry's whole source file with ``ast.parse`` and walks the tree (``getstatementrange_ast``),
  keeping the tree only for the one traceback it is formatting. Hypothesis formats each distinct
  failure it meets while generating and pytest formats the last one again, so a run with failures
  (torch: 72, through the suite's 2,000-line test modules) spent a fifth of its time parsing the
  same files again. The range depends on the file's text, the line and ``assertion`` alone.
- **Array strategies made once.** The suite builds its strategies inside the tests, once per
  example (``hh.arrays(dtype=..., shape=x.shape)``: Hypothesis' ``arrays`` and ``from_dtype`` for
  the drawn dtype and shape), and Hypothesis validates each new strategy object before drawing
  from it; over a tenth of the run went there. The strategies these two return hold nothing but
  their arguments, so equal arguments get the same object (Hypothesis' own ``cacheable`` does the
  same for its built-in strategies) and it is validated once.
- **Hypothesis' own strategy cache kept.** Hypothesis returns the strategy it made before for
  equal hashable arguments (``cacheable``), in a cache of 1,024 that evicts new entries first once
  it is full of reused ones. A run of the suite fills it early, and from then on the strategies its
  tests build per example (``hh.arrays``' ``builds``, ``tuples``, ``array_shapes``) are made and
  validated anew each time (2,227 times in ``test_nan_propagation``). The plugin gives the cache
  ``MAX_REMEMBERED`` entries. ``sampled_from`` of a list, which that cache cannot key, is
  remembered by the list's contents.
- **Filters validated once.** Validating a filter re-initialises it, which forgot that it was
  validated: the suite's shape filters were validated again at every draw (see
  ``validate_filter_once``).
"""

from __future__ import annotations

import math

import hypothesis.strategies
import pytest
from _pytest._code import code as _code, source as _source
from hypothesis.extra import array_api as _array_api
from hypothesis.internal.cache import LRUReusedCache
from hypothesis.strategies._internal import utils as _strategy_utils
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


# -- array strategies made once -------------------------------------------------------------------
#: Remembered strategies per function before the memo starts again (a run of the suite makes a few
#: thousand distinct ones); forgetting only costs the validation again.
MAX_REMEMBERED = 100_000


def argument_key(value):
    """``value`` as a key that tells apart what ``==`` does not: 0.0 from -0.0, NaN from itself,
    True from 1, a NumPy float from a Python one; TypeError for what cannot be a key. Strategies
    are keys by identity."""
    if isinstance(value, float):
        return (type(value), math.copysign(1.0, value), "nan" if value != value else value)
    if isinstance(value, (tuple, list)):
        return (type(value), tuple(argument_key(v) for v in value))
    if isinstance(value, dict):
        return (dict, tuple(sorted((k, argument_key(v)) for k, v in value.items())))
    hash(value)
    return (type(value), value)


def remembering(make):
    """``make`` returning the object it made before for the same arguments."""
    made: dict = {}

    def remembered(*args, **kwargs):
        try:
            key = (tuple(map(argument_key, args)), tuple(sorted((k, argument_key(v)) for k, v in kwargs.items())))
            found = made.get(key)
        except TypeError:
            return make(*args, **kwargs)
        if found is None:
            if len(made) >= MAX_REMEMBERED:
                made.clear()
            found = made[key] = make(*args, **kwargs)
        return found

    remembered.remembers = make  # type: ignore[attr-defined]
    return remembered


_make_namespace = _array_api.make_strategies_namespace


def make_strategies_namespace(xp, *, api_version=None):
    namespace = _make_namespace(xp, api_version=api_version)  # Hypothesis keeps one per (xp, version)
    if not hasattr(namespace.arrays, "remembers"):
        namespace.arrays = remembering(namespace.arrays)
        namespace.from_dtype = remembering(namespace.from_dtype)
    return namespace


def remember_array_strategies() -> None:
    """Hypothesis' array strategies at both levels: the namespace's ``arrays`` and ``from_dtype``
    (each call a new lazy strategy), and the module's ``_arrays`` and ``_from_dtype`` that these
    call, by name, again for each dtype or shape drawn from a strategy."""
    if not hasattr(_array_api._arrays, "remembers"):
        _array_api._arrays = remembering(_array_api._arrays)
        _array_api._from_dtype = remembering(_array_api._from_dtype)
    _array_api.make_strategies_namespace = make_strategies_namespace


def keep_hypothesis_strategies() -> None:
    """Hypothesis' cache of the strategies it made, ``MAX_REMEMBERED`` entries instead of 1,024, and
    ``sampled_from`` remembered by the contents of its list (the cache keys hashable arguments only).
    Both give an equal call the object an earlier one made; Hypothesis' cache does that already,
    and a ``SampledFromStrategy`` holds nothing but a tuple of its elements."""
    if _strategy_utils._STRATEGY_CACHE.max_size < MAX_REMEMBERED:
        _strategy_utils._STRATEGY_CACHE = LRUReusedCache(MAX_REMEMBERED)
    if not hasattr(hypothesis.strategies.sampled_from, "remembers"):
        # the suite imports it from hypothesis.strategies, by name or as st.sampled_from
        hypothesis.strategies.sampled_from = remembering(hypothesis.strategies.sampled_from)


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


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    # Before the suite's conftest imports its package, which makes its strategies namespace.
    remember_array_strategies()
    keep_hypothesis_strategies()
    _FilteredStrategy.do_validate = validate_filter_once
    # pytest's traceback code imported the function by name: both homes get the remembering one.
    _code.getstatementrange_ast = getstatementrange_ast
    _source.getstatementrange_ast = getstatementrange_ast
