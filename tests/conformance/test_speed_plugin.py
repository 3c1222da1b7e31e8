"""The plugin every run of the suite loads for speed (``_pytest_speed``): what it remembers gives
the same draws and the same failure text as without it."""

from __future__ import annotations

import ast
import inspect
import json
import os
import random
import re
import subprocess
import sys
import textwrap
import types
from decimal import Decimal
from pathlib import Path

import hypothesis.control
import hypothesis.core
import hypothesis.strategies
import numpy as np
import pytest
from _pytest._code import source as pytest_source
from hypothesis import given, settings, strategies as st
from hypothesis.extra import array_api
from hypothesis.internal.cache import LRUReusedCache
from hypothesis.strategies._internal import core as strategies_core, utils as strategy_utils
from hypothesis.strategies._internal.strategies import FilteredStrategy

import array_api_promo as xp
from array_api_promo.conformance import SPEED_PLUGIN, _pytest_speed, normalize, runner, suite


def test_every_run_loads_it():
    info = suite.SuiteInfo(path=Path("/nonexistent"), suite_commit="unknown", spec_commit="unknown")
    cmd = runner.build_command(info, Path("r.json"), max_examples=2, seed=3, workers=1)
    assert cmd[cmd.index(SPEED_PLUGIN) - 1] == "-p" and _pytest_speed.__name__ == SPEED_PLUGIN


def test_every_line_gets_pytests_own_range_and_each_text_is_parsed_once(monkeypatch):
    text = inspect.getsource(runner)  # a real module: nested blocks, decorators, strings
    src = pytest_source.Source(text)
    tree = ast.parse(text)
    parses = []
    real_parse = ast.parse
    monkeypatch.setattr(ast, "parse", lambda *a, **k: parses.append(1) or real_parse(*a, **k))
    monkeypatch.setattr(_pytest_speed, "_by_text", {})
    for assertion in (False, True):
        for lineno in range(0, len(src.lines), 5):
            expected = _pytest_speed._computed_range(lineno, src, assertion, tree)[1:]
            assert _pytest_speed.getstatementrange_ast(lineno, src, assertion)[1:] == expected, lineno
            # again, from another Source of the same text (pytest makes a new one per traceback)
            again = _pytest_speed.getstatementrange_ast(lineno, pytest_source.Source(text), assertion)
            assert again[1:] == expected
    assert len(parses) == 1


#: pytest's own, as imported (no test installs the plugin's in this process for good).
PYTESTS_STATEMENT_STARTEND = pytest_source.get_statement_startend2

STATEMENTS = textwrap.dedent(
    """
    @decorator(
        1,
    )
    @other
    class A:
        @property
        def x(self):
            try:
                return 1
            except (ValueError,
                    TypeError):
                pass
            else:
                y = 2
            finally:
                z = 3

        async def y(self):
            for i in range(3):
                pass
            else:
                return (
                    4
                )
            while True:
                break
            if x:
                pass
            elif y:
                pass
            else:
                pass
    """
)


@pytest.mark.parametrize("text", [STATEMENTS, inspect.getsource(runner), inspect.getsource(hypothesis.core)])
def test_statement_lines_are_pytests_and_listed_once_per_tree(monkeypatch, text):
    tree = ast.parse(text)
    walks = []
    real_walk = ast.walk
    monkeypatch.setattr(ast, "walk", lambda node: walks.append(1) or real_walk(node))
    monkeypatch.setattr(_pytest_speed, "_statement_lines", {})
    first = min(node.lineno - 1 for node in tree.body)  # before it, pytest 9.2 answers (0, None)
    for lineno in range(first, len(text.splitlines())):
        expected = PYTESTS_STATEMENT_STARTEND(lineno, tree)  # pytest's own
        assert _pytest_speed.get_statement_startend2(lineno, tree) == expected, lineno
    pytests_walks = 1 if _pytest_speed.PYTEST_LISTS_STATEMENTS else len(text.splitlines()) - first
    assert len(walks) == pytests_walks + 1  # ours once
    other = ast.parse(text)  # another tree, whatever its id: listed on its own
    assert _pytest_speed.get_statement_startend2(first, other) == PYTESTS_STATEMENT_STARTEND(first, other)


def test_a_pytest_that_lists_statement_lines_itself_keeps_its_own(monkeypatch):
    monkeypatch.setattr(pytest_source, "get_statement_startend2", PYTESTS_STATEMENT_STARTEND)
    _pytest_speed.list_statement_lines_once()
    installed = pytest_source.get_statement_startend2
    if hasattr(pytest_source, "_statement_linenos"):  # pytest >= 9.2
        assert installed is PYTESTS_STATEMENT_STARTEND
    else:
        assert installed is _pytest_speed.get_statement_startend2
    monkeypatch.setattr(_pytest_speed, "PYTEST_LISTS_STATEMENTS", not _pytest_speed.PYTEST_LISTS_STATEMENTS)
    monkeypatch.setattr(pytest_source, "get_statement_startend2", PYTESTS_STATEMENT_STARTEND)
    _pytest_speed.list_statement_lines_once()
    assert (pytest_source.get_statement_startend2 is PYTESTS_STATEMENT_STARTEND) == (
        _pytest_speed.PYTEST_LISTS_STATEMENTS
    )


FAILING = textwrap.dedent(
    """
    import pytest
    from hypothesis import given, settings, strategies as st


    def helper(x):
        if x > 2:
            raise ValueError(
                f"too big: {x}"
            )
        return x


    @settings(database=None, derandomize=True)
    @given(st.integers(0, 10))
    def test_hypothesis(x):
        assert helper(x) < 3


    @pytest.mark.parametrize("n", [1, 2])
    def test_plain(n):
        for i in range(3):
            helper(i + n)


    class TestNested:
        def test_assert(self):
            values = [1, 2, 3]
            assert sum(values) == (
                7
            )
    """
)


CONFTEST = textwrap.dedent(
    """
    import array_api_promo
    from hypothesis.extra import array_api

    xps = array_api.make_strategies_namespace(array_api_promo)  # at import, as the suite's package
    """
)

REMEMBERS = textwrap.dedent(
    """
    from conftest import xps


    def test_namespace():
        assert hasattr(xps.arrays, "remembers"), "not remembering"
    """
)


def _pytest_in(path, *args):
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args, "--tb=long", "-q"],
        cwd=path,
        env=env,
        capture_output=True,
        text=True,
    ).stdout
    out = re.sub(r" at 0x[0-9a-f]+", " at 0x?", out)  # addresses differ from run to run
    out = re.sub(r" in [0-9.]+s\b.*", " in ?s", out)  # and so does the timing
    return out.splitlines()


def test_failures_read_the_same_with_it(tmp_path):
    (tmp_path / "test_failing.py").write_text(FAILING)
    plain = _pytest_in(tmp_path, "test_failing.py")
    remembered = _pytest_in(tmp_path, "test_failing.py", "-p", SPEED_PLUGIN)
    assert sum("Error" in line for line in plain) >= 4  # the failures were formatted
    assert remembered == plain


def test_the_suites_namespace_remembers_though_its_conftest_makes_it_first(tmp_path):
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_remembers.py").write_text(REMEMBERS)
    assert any("1 passed" in line for line in _pytest_in(tmp_path, "-p", SPEED_PLUGIN))
    assert any("not remembering" in line for line in _pytest_in(tmp_path))


HELPERS = textwrap.dedent(
    """
    from hypothesis import strategies as st

    made = []


    def arrays(dtype, *args, elements=None, **kwargs):
        made.append(1)
        return st.builds(lambda d: (d, args, elements, kwargs), dtype)


    def arrays_no_scalars(dtype, *args, **kwargs):
        made.append(1)
        return st.just((dtype, args, kwargs))


    def shapes(**kw):
        made.append(1)
        return st.tuples(st.integers(0, kw.get("min_side", 0) + 3))
    """
)

SUITE_TEST = textwrap.dedent(
    """
    from hypothesis import strategies as st

    from array_api_tests import hypothesis_helpers as hh
    from array_api_tests.hypothesis_helpers import arrays  # by name, as test_linalg does

    DTYPES = st.sampled_from(["int8", "float32"])


    def test_helpers():
        assert hasattr(arrays, "remembers"), "not remembering"
        assert arrays(DTYPES, shape=(2, 3), elements={"min_value": 0.0}) is hh.arrays(
            DTYPES, shape=(2, 3), elements={"min_value": 0.0}
        )
        assert arrays(DTYPES, shape=(2, 3), elements={"min_value": -0.0}) is not hh.arrays(
            DTYPES, shape=(2, 3), elements={"min_value": 0.0}
        )
        assert arrays(DTYPES, shape=[2, 3]) is not arrays(DTYPES, shape=(2, 3))
        assert hh.arrays_no_scalars("int8", (1,)) is hh.arrays_no_scalars("int8", (1,))
        assert arrays(DTYPES, shape=hh.shapes(min_side=1)) is arrays(DTYPES, shape=hh.shapes(min_side=1))
        assert len(hh.made) == 7
    """
)


def _fake_suite(path, helpers=HELPERS):
    package = path / "array_api_tests"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "hypothesis_helpers.py").write_text(helpers)
    (package / "test_suite.py").write_text(SUITE_TEST)


def test_the_suites_strategy_helpers_are_remembered_before_its_tests_import_them(tmp_path):
    _fake_suite(tmp_path)
    assert any("1 passed" in line for line in _pytest_in(tmp_path, "-p", SPEED_PLUGIN))
    assert any("not remembering" in line for line in _pytest_in(tmp_path))


def test_helpers_that_cannot_be_imported_fail_the_collection_as_without_it(tmp_path):
    _fake_suite(tmp_path, helpers="raise ImportError('the library under test is broken')\n")
    plain = _pytest_in(tmp_path)
    assert any("the library under test is broken" in line for line in plain)
    assert any("1 error" in line for line in plain)
    assert _pytest_in(tmp_path, "-p", SPEED_PLUGIN) == plain


def test_remembered_suite_helpers_draw_the_same_examples():
    namespace = array_api.make_strategies_namespace(xp)
    arrays = getattr(namespace.arrays, "remembers", namespace.arrays)
    from_dtype = getattr(namespace.from_dtype, "remembers", namespace.from_dtype)

    def suite_arrays(dtype, *args, elements=None, **kwargs):  # the suite's, over a dtype strategy
        if isinstance(dtype, st.SearchStrategy):
            return dtype.flatmap(lambda d: suite_arrays(d, *args, elements=elements, **kwargs))
        return st.builds(lambda a, flag: a, arrays(dtype, *args, elements=elements, **kwargs), st.booleans())

    dtypes = st.sampled_from([xp.int8, xp.float32])
    seen = {}
    for name, helper in [("plain", suite_arrays), ("remembered", _pytest_speed.remembering(suite_arrays))]:
        seen[name] = _drawn(lambda dtype, shape, elements: helper(dtypes, shape, elements=None), from_dtype)
    assert repr(seen["remembered"]) == repr(seen["plain"])  # NaNs drawn: their text is equal


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (0.0, -0.0),
        (0.5, np.float64(0.5)),
        (1, True),
        (0, False),
        (1.0, 1),
        ((1, 2), [1, 2]),
        ({"x": 0.0}, {"x": -0.0}),
        (2**63, 2**63 - 1),
        ((1, True), (1, 1)),
        ((0.0,), (-0.0,)),
        (None, 0),
        ("1", 1),
        (((1,), 2), ((True,), 2)),
        (np.float32(0.0), np.float32(-0.0)),
        (np.float16(-0.0), np.float16(0.0)),
        (0j, complex(-0.0, 0.0)),
        (0j, complex(0.0, -0.0)),
        (np.complex64(0j), np.complex64(complex(-0.0, 0.0))),
        (np.complex128(complex(0.0, -0.0)), np.complex128(0j)),
        (Decimal("0"), Decimal("-0")),
        (Decimal("1.0"), Decimal("1.00")),
        ((np.float32(0.0),), (np.float32(-0.0),)),
        ({"x": 0j}, {"x": -0j}),
    ],
)
def test_keys_tell_apart_what_equality_does_not(a, b):
    assert _pytest_speed.argument_key(a) != _pytest_speed.argument_key(b)
    assert _pytest_speed.argument_key(a) == _pytest_speed.argument_key(a)


def test_nan_is_a_key_equal_to_itself():
    nan = float("nan")
    assert _pytest_speed.argument_key(nan) == _pytest_speed.argument_key(float("nan"))
    assert _pytest_speed.argument_key(-nan) != _pytest_speed.argument_key(nan)  # the sign is kept


def test_remembering_returns_what_it_made_for_equal_arguments(monkeypatch):
    calls = []

    def make(*args, **kwargs):
        calls.append((args, kwargs))
        return object()

    remembered = _pytest_speed.remembering(make)
    first = remembered(xp.float32, (2, 3), elements={"min_value": 0.0})
    assert remembered(xp.float32, (2, 3), elements={"min_value": 0.0}) is first
    assert remembered(xp.float32, (2, 3), elements={"min_value": -0.0}) is not first
    assert remembered(xp.float64, (2, 3), elements={"min_value": 0.0}) is not first
    assert remembered(xp.float32, [2, 3], elements={"min_value": 0.0}) is not first
    assert len(calls) == 4
    unhashable = np.zeros(2)
    one, two = remembered(unhashable), remembered(unhashable)
    assert one is not two  # made each time, never a wrong hit
    monkeypatch.setattr(_pytest_speed, "MAX_REMEMBERED", 1)
    small = _pytest_speed.remembering(make)
    a = small(1)
    small(2)  # forgets 1
    assert small(1) is not a


def _drawn(arrays, from_dtype):
    """What a test drawing arrays as the suite does (a dtype, a shape, then an array of them,
    inside the test) draws, under a fixed seed."""
    seen = []

    @settings(max_examples=150, database=None, derandomize=True, deadline=None)
    @given(st.data())
    def draws(data):
        dtype = data.draw(st.sampled_from([xp.bool, xp.int8, xp.uint16, xp.float32, xp.float64]))
        shape = data.draw(st.tuples(*[st.integers(0, 3)] * data.draw(st.integers(0, 2))))
        elements = None if dtype == xp.bool else from_dtype(dtype, min_value=0, max_value=5)
        x = data.draw(arrays(dtype, shape, elements=elements))
        seen.append((str(x.dtype), x.shape, np.asarray(x).tolist()))

    draws()
    return seen


def test_remembered_strategies_draw_the_same_examples():
    namespace = array_api.make_strategies_namespace(xp)
    arrays = getattr(namespace.arrays, "remembers", namespace.arrays)
    from_dtype = getattr(namespace.from_dtype, "remembers", namespace.from_dtype)
    made = []
    counted = _pytest_speed.remembering(lambda *a, **k: made.append(1) or arrays(*a, **k))
    plain = _drawn(arrays, from_dtype)
    remembered = _drawn(counted, _pytest_speed.remembering(from_dtype))
    assert remembered == plain
    assert len(made) < len(plain) / 2  # the memo was used: most draws asked for a strategy made before


def test_the_namespace_of_a_run_remembers_its_array_strategies(monkeypatch):
    monkeypatch.setattr(array_api, "make_strategies_namespace", array_api.make_strategies_namespace)
    namespace = _pytest_speed.make_strategies_namespace(xp)
    try:
        assert namespace.arrays(xp.int8, (2,)) is namespace.arrays(xp.int8, (2,))
        assert namespace.from_dtype(xp.float32, min_value=0.0) is namespace.from_dtype(xp.float32, min_value=0.0)
        assert namespace.array_shapes(min_dims=2, max_dims=2) is namespace.array_shapes(min_dims=2, max_dims=2)
        assert namespace.broadcastable_shapes((2, 3), max_side=3) is namespace.broadcastable_shapes((2, 3), max_side=3)
        assert namespace.broadcastable_shapes((2, 3)) is not namespace.broadcastable_shapes([2, 3])
        assert namespace.valid_tuple_axes(3) is namespace.valid_tuple_axes(3)
        assert namespace.indices((4, 2)) is namespace.indices((4, 2))
        assert namespace.mutually_broadcastable_shapes(2) is namespace.mutually_broadcastable_shapes(2)
        assert _pytest_speed.make_strategies_namespace(xp).arrays is namespace.arrays  # wrapped once
    finally:  # Hypothesis keeps the namespace per module: leave it as it was
        for name in _pytest_speed.NAMESPACE_REMEMBERED:
            setattr(namespace, name, getattr(namespace, name).remembers)


def _shapes_drawn(namespace):
    """What a test drawing shapes, axes and indices from drawn integers, as the suite does,
    draws under a fixed seed."""
    seen = []

    @settings(max_examples=150, database=None, derandomize=True, deadline=None)
    @given(st.data())
    def draws(data):
        shape = data.draw(namespace.array_shapes(min_dims=1, max_dims=data.draw(st.integers(1, 3))))
        seen.append(shape)
        seen.append(data.draw(namespace.broadcastable_shapes(shape, max_side=max(shape) or None)))
        seen.append(data.draw(namespace.valid_tuple_axes(len(shape))))
        seen.append(data.draw(namespace.mutually_broadcastable_shapes(2, base_shape=shape)))
        if all(shape):
            seen.append(repr(data.draw(namespace.indices(shape))))

    draws()
    return seen


def test_remembered_namespace_shapes_draw_the_same_examples():
    plain = array_api.make_strategies_namespace(xp)
    remembered = types.SimpleNamespace(
        **{
            name: _pytest_speed.remembering(getattr(getattr(plain, name), "remembers", getattr(plain, name)))
            for name in _pytest_speed.NAMESPACE_REMEMBERED
        }
    )
    fresh = types.SimpleNamespace(
        **{
            name: getattr(getattr(plain, name), "remembers", getattr(plain, name))
            for name in _pytest_speed.NAMESPACE_REMEMBERED
        }
    )
    assert _shapes_drawn(remembered) == _shapes_drawn(fresh)
    assert len(remembered.array_shapes.made) <= 3  # asked again and again, made once per max_dims


def _filtered_draws():
    """What drawing fresh filtered strategies inside a test draws, under a fixed seed."""
    seen = []
    shapes = st.tuples(st.integers(0, 4), st.integers(0, 4)).filter(lambda s: s[0] * s[1] <= 6)
    evens = st.integers(-20, 20).filter(lambda v: v % 2 == 0).filter(lambda v: v > -10)

    @settings(max_examples=100, database=None, derandomize=True, deadline=None)
    @given(st.data())
    def draws(data):
        seen.append((data.draw(shapes), data.draw(evens), data.draw(st.integers(0, 9).filter(lambda v: v != 3))))

    draws()
    return seen, [shapes, evens]


def test_filters_are_validated_once_and_draw_the_same(monkeypatch):
    plain, _ = _filtered_draws()
    monkeypatch.setattr(FilteredStrategy, "do_validate", _pytest_speed.validate_filter_once)
    once, filters = _filtered_draws()
    assert once == plain
    for lazy in filters:
        strategy = lazy.wrapped_strategy
        assert isinstance(strategy, FilteredStrategy)
        assert strategy.validate_called  # kept: the next draw does not validate it again
        before = (strategy.filtered_strategy, strategy.flat_conditions)
        _pytest_speed._validate_filter(strategy)  # validating again makes the same filter
        assert (strategy.filtered_strategy, strategy.flat_conditions) == before


def _builds_kept_once_the_cache_is_full() -> bool:
    """Whether Hypothesis gives a second equal ``builds`` the object of the first, asked after its
    strategy cache has filled with reused entries (as a run of the suite fills it early)."""
    for i in range(1100):
        st.integers(i, i + 1)
        st.integers(i, i + 1)  # reused
    inner = st.integers(-5, -1)
    return st.builds(divmod, inner, st.booleans()) is st.builds(divmod, inner, st.booleans())


def test_hypothesis_keeps_the_strategies_a_run_makes(monkeypatch):
    monkeypatch.setattr(hypothesis.strategies, "sampled_from", hypothesis.strategies.sampled_from)
    monkeypatch.setattr(strategy_utils, "_STRATEGY_CACHE", LRUReusedCache(1024))  # as Hypothesis makes it
    assert not _builds_kept_once_the_cache_is_full()  # made (and validated) anew at each call
    _pytest_speed.keep_hypothesis_strategies()
    assert strategy_utils._STRATEGY_CACHE.max_size == _pytest_speed.MAX_REMEMBERED
    assert _builds_kept_once_the_cache_is_full()


def test_sampled_from_a_list_is_remembered_by_its_contents(monkeypatch):
    monkeypatch.setattr(hypothesis.strategies, "sampled_from", hypothesis.strategies.sampled_from)
    plain = hypothesis.strategies.sampled_from
    _pytest_speed.keep_hypothesis_strategies()
    sampled = hypothesis.strategies.sampled_from
    assert sampled.remembers is plain
    dtypes = [xp.int8, xp.int16]
    assert sampled(dtypes) is sampled(list(dtypes))
    for a, b in (([1, 2], [True, 2]), ([1, 2], (1, 2)), ([0.0], [-0.0]), ([1, 2], [2, 1])):
        assert sampled(a) is not sampled(b)
    assert repr(sampled([1, 2])) == repr(plain([1, 2])) == "sampled_from([1, 2])"
    unhashable = [np.zeros(1)]
    assert sampled(unhashable) is not sampled(unhashable)  # made each time


def _sampled_draws(sampled):
    seen = []

    @settings(max_examples=150, database=None, derandomize=True, deadline=None)
    @given(st.data())
    def draws(data):
        n = data.draw(st.integers(1, 4))
        seen.append(data.draw(sampled([xp.int8, xp.uint16, xp.float32, xp.complex64][:n])))
        seen.append(data.draw(sampled([0.0, -0.0, 1, True][n - 1 :])))

    draws()
    return seen


def test_remembered_sampled_from_draws_the_same_examples():
    plain = getattr(hypothesis.strategies.sampled_from, "remembers", hypothesis.strategies.sampled_from)
    remembered = _sampled_draws(_pytest_speed.remembering(plain))
    assert [(type(v), repr(v)) for v in remembered] == [(type(v), repr(v)) for v in _sampled_draws(plain)]


# -- global random generators left alone, and checked --------------------------------------------
@pytest.fixture
def randoms_left_alone(monkeypatch):
    """The plugin's patches of Hypothesis, undone after the test."""
    for module, name in (
        (hypothesis.core, "deterministic_PRNG"),
        (hypothesis.control, "deprecate_random_in_strategy"),
        (strategies_core, "deprecate_random_in_strategy"),
        (hypothesis.core.StateForActualGivenExecution, "run_engine"),
    ):
        monkeypatch.setattr(module, name, getattr(module, name))
    _pytest_speed.leave_global_randoms_alone()


def _examples(use=None):
    """The values a seeded @given test draws (and what it read from ``use`` in each example)."""
    seen = []

    @settings(max_examples=60, database=None, deadline=None)
    @hypothesis.seed(7)
    @given(st.lists(st.floats(allow_nan=False), max_size=4), st.data())
    def drawing(values, data):
        seen.append((values, data.draw(st.sampled_from([xp.int8, xp.float32])), use() if use else None))

    drawing()
    return seen


def test_examples_are_drawn_as_with_hypothesis_seeding(randoms_left_alone):
    alone = _examples()
    with pytest.MonkeyPatch.context() as undo:  # Hypothesis' own seeding around each example
        undo.setattr(hypothesis.core, "deterministic_PRNG", _pytest_speed._deterministic_PRNG)
        undo.setattr(hypothesis.core.StateForActualGivenExecution, "run_engine", _pytest_speed._run_engine)
        seeded = _examples()
    assert [repr(e) for e in alone] == [repr(e) for e in seeded] and len(alone) == 60


@pytest.mark.parametrize("use", [lambda: random.random(), lambda: np.random.random(), lambda: random.seed(3)])
def test_a_run_whose_examples_use_a_global_generator_stops(randoms_left_alone, use):
    with pytest.raises(pytest.exit.Exception, match="changed the state of a global random generator") as stop:
        _examples(use)
    assert stop.value.returncode == 3


@pytest.mark.filterwarnings("ignore::hypothesis.errors.NonInteractiveExampleWarning")  # as the suite does
def test_global_generators_used_outside_the_examples_are_theirs(randoms_left_alone):
    random.seed(1)
    st.integers(0, 10**6).map(abs).example()  # the suite's test_unary: an engine, then random.shuffle
    np.random.random()
    assert random.getstate() != random.Random(1).getstate()  # used, and no stop: not in an example
    assert len(_examples()) == 60


def test_explicit_examples_keep_hypothesis_seeding(randoms_left_alone):
    seen = []

    @settings(max_examples=1, database=None, phases=[hypothesis.Phase.explicit])
    @hypothesis.example(0)
    @given(st.integers())
    def explicit(n):
        seen.append(random.random())

    explicit()
    assert seen == [random.Random(0).random()]  # seeded with 0, as Hypothesis does


USES_RANDOM = textwrap.dedent(
    """
    import random
    from hypothesis import given, settings, strategies as st


    @settings(database=None, max_examples=5)
    @given(st.integers())
    def test_uses_random(n):
        assert random.random() < 2
    """
)


def test_the_harness_reports_a_stopped_run_as_incomplete(tmp_path):
    (tmp_path / "test_uses_random.py").write_text(USES_RANDOM)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", SPEED_PLUGIN, "-q", "test_uses_random.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    problems = normalize.run_problems({"tests": []}, proc.stdout, proc.returncode, 1)
    assert proc.returncode == 3 and problems[0].startswith("pytest was stopped: " + SPEED_PLUGIN), proc.stdout
    assert problems[1:] == ["0 of 1 collected tests reported"]
    plain = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"], cwd=tmp_path)
    assert plain.returncode == 0  # without the plugin, Hypothesis seeds random for it


# -- broadcast indices listed once ----------------------------------------------------------------
def _walk(iterate, shapes, skip_axes):
    """What a walk of ``iterate(*shapes, skip_axes=...)`` gives: its raw index tuples, or the error."""
    try:
        return [tuple(i.raw for i in t) for t in iterate(*shapes, skip_axes=skip_axes)]
    except Exception as e:  # noqa: BLE001 - compared with ndindex's own
        return (type(e), str(e))


_small_shapes = st.lists(st.integers(0, 3), max_size=4).map(tuple)


@settings(max_examples=300, database=None, deadline=None)
@given(
    shapes=st.lists(_small_shapes, min_size=1, max_size=3),
    skip_axes=st.one_of(
        st.just(()),
        st.lists(st.integers(-4, 3), max_size=2, unique=True).map(tuple),
        st.lists(st.lists(st.integers(-4, 3), max_size=2, unique=True).map(tuple), min_size=1, max_size=3),
    ),
)
def test_listed_broadcast_indices_are_ndindexs(shapes, skip_axes):
    import ndindex

    plain = getattr(ndindex.iter_indices, "remembers", ndindex.iter_indices)
    listed = _pytest_speed.listing_once(plain)
    expected = _walk(plain, shapes, skip_axes)
    assert _walk(listed, shapes, skip_axes) == expected
    assert _walk(listed, shapes, skip_axes) == expected  # again, from the list
    if isinstance(expected, list) and expected:
        assert all(type(i) is ndindex.Tuple for t in listed(*shapes, skip_axes=skip_axes) for i in t)


def test_broadcast_indices_are_listed_once_and_raise_where_ndindex_does():
    import ndindex

    plain = getattr(ndindex.iter_indices, "remembers", ndindex.iter_indices)
    calls = []
    listed = _pytest_speed.listing_once(lambda *s, **k: calls.append(s) or plain(*s, **k))
    first = list(listed((2, 1), (3,)))
    assert list(listed((2, 1), (3,))) == first and len(calls) == 1  # made once
    assert list(listed((2, 1), [3])) == first and len(calls) == 2  # another key: made again
    walk = listed((2,), (3,))  # does not broadcast: raises at the first next(), as ndindex does
    error, message = _walk(plain, [(2,), (3,)], ())
    with pytest.raises(error) as raised:
        next(walk)
    assert str(raised.value) == message
    long = (_pytest_speed.MAX_LISTED + 1,)
    assert len(list(listed(long))) == long[0]
    key = _pytest_speed.argument_key
    skip_none = (("skip_axes", key(())),)
    assert ((key(long),), skip_none) not in listed.listed  # too long to keep
    assert ((key((2, 1)), key((3,))), skip_none) in listed.listed


def test_the_suite_gets_the_listed_indices(monkeypatch):
    import ndindex

    monkeypatch.setattr(ndindex, "iter_indices", getattr(ndindex.iter_indices, "remembers", ndindex.iter_indices))
    _pytest_speed.list_broadcast_indices_once()
    once = ndindex.iter_indices
    assert hasattr(once, "remembers")  # listing
    _pytest_speed.list_broadcast_indices_once()
    assert ndindex.iter_indices is once  # wrapped once


@pytest.mark.skipif(not os.environ.get("ARRAY_API_TESTS_DIR"), reason="needs the pinned suite (ARRAY_API_TESTS_DIR)")
def test_a_slice_of_the_real_suite_reads_the_same_with_and_without_the_plugin(tmp_path):
    """Three modules of the real suite under the torch policy (30 tests, some failing by its rules),
    once with the speed plugin and once without, under the same Hypothesis, pytest and pytest-xdist:
    the same outcomes, failure kinds and failure texts, test for test."""
    from array_api_promo.conformance import plan

    info = suite.locate(os.environ["ARRAY_API_TESTS_DIR"], cloner=None)
    target = plan.resolve_policy("torch")
    modules = [
        str(info.tests_dir / f"{m}.py")
        for m in ("test_statistical_functions", "test_manipulation_functions", "test_searching_functions")
    ]
    outcomes = {}
    for with_plugin in (True, False):
        report = tmp_path / f"{with_plugin}.json"
        env = runner.build_env(target, "2025.12", tmp_path / f"{with_plugin}.progress", shrink=False)
        cmd = runner.build_command(info, report, max_examples=20, seed=3, workers=1, speed_plugin=with_plugin)
        cmd = [a for a in cmd if a != str(info.tests_dir)] + modules
        assert (SPEED_PLUGIN in cmd) == with_plugin
        subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, timeout=1200, check=False)
        raw = json.loads(report.read_text())
        r = normalize.normalise_report(
            raw,
            policy="torch",
            module=target.module,
            api_version="2025.12",
            suite_commit=info.suite_commit,
            spec_commit=info.spec_commit,
            max_examples=20,
            seed=3,
            roots=[info.path],
        )
        outcomes[with_plugin] = {
            e["nodeid"]: (e["outcome"], e.get("kind"), e.get("message"), e.get("example")) for e in r["tests"]
        }
    assert len(outcomes[True]) >= 30
    assert sum(o[0] == "failed" for o in outcomes[True].values()) >= 3
    assert outcomes[True] == outcomes[False]
