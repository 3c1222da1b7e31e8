"""The NumPy audit (``python -m array_api_promo.audit --numpy``) on plain NumPy programs.

The truth is tests/data/numpy_audit_golden.json, made by tools/gen_numpy_audit_golden.py from
runs of the probe programs under real NumPy 1.26.4 and NumPy 2 (no policy of ours): the audit
against ``numpy_legacy`` must report exactly the sites of the probes whose outcomes differ, with
their counts, and the audited run must print what the plain run prints.
"""

from __future__ import annotations

import ast
import collections
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from array_api_promo.audit.rewriter import rewrite, site_function

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(HERE, "data", "numpy_audit")
with open(os.path.join(HERE, "data", "numpy_audit_golden.json"), encoding="utf-8") as _f:
    GOLDEN = json.load(_f)

needs_new_numpy = pytest.mark.skipif(
    np.__version__ != GOLDEN["new_numpy"],
    reason=f"the golden outcomes are NumPy {GOLDEN['new_numpy']}'s; this is NumPy {np.__version__}",
)


# This checkout's package for the runner, wherever the program runs
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(HERE), os.environ.get("PYTHONPATH", "")]))


@pytest.fixture(autouse=True, scope="module")
def _rewrite_cache_of_the_tests(tmp_path_factory):
    """The tool's cache of rewritten modules in a folder of the tests' (not the user's), shared by the module's runs."""
    ENV["ARRAY_API_PROMO_REWRITE_CACHE"] = str(tmp_path_factory.mktemp("rewrite-cache"))


def _audit(tmp_path, command, against="numpy_legacy", extra=(), cwd=None):
    out = tmp_path / "audit.json"
    markdown = tmp_path / "audit.md"
    runner = [sys.executable, "-m", "array_api_promo.audit", "--numpy", "--against", against]
    runner += ["--json", str(out), "--markdown", str(markdown), *extra, "--", *command]
    done = subprocess.run(runner, capture_output=True, text=True, cwd=cwd or tmp_path, timeout=600, env=ENV)
    report = json.loads(out.read_text()) if out.exists() else None
    return done, report, markdown


def _program_copy(tmp_path):
    """The probe folder in a fresh directory (the audit's reports name files relative to it)."""
    folder = tmp_path / "programs"
    shutil.copytree(FOLDER, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


_TIMING = re.compile(r" in \d+\.\d+s")


def _plain(command, cwd):
    done = subprocess.run([sys.executable, *command[1:]], capture_output=True, text=True, cwd=cwd, timeout=600, env=ENV)
    return done


@needs_new_numpy
@pytest.mark.parametrize("program", sorted(GOLDEN["programs"]))
def test_reports_exactly_the_lines_numpy_1_and_2_disagree_on(tmp_path, program):
    folder = _program_copy(tmp_path)
    command = [sys.executable, *GOLDEN["programs"][program]["command"][1:]]
    probes = GOLDEN["programs"][program]["probes"]
    plain = _plain(command, folder)
    done, report, markdown = _audit(tmp_path, command, cwd=folder)
    assert done.returncode == plain.returncode == 0, done.stderr
    # the audited run prints what the plain run prints (pytest's timing aside)
    assert _TIMING.sub("", done.stdout) == _TIMING.sub("", plain.stdout)
    expected = collections.Counter(p["site"] for p in probes.values() if p["old"] != p["new"])
    reported = collections.Counter()
    for record in report["records"]:
        reported[f"{record['file']}:{record['line']}"] += record["count"]
    assert reported == expected
    # a probe's own line: the record says what each NumPy gave (the dtype, where the values differ too)
    source = (folder / program).read_text().splitlines()
    for line, probe in probes.items():
        if probe["old"] == probe["new"] or probe["site"] != f"{program}:{line}":
            continue
        (record,) = [r for r in report["records"] if r["file"] == program and r["line"] == int(line)]
        legacy = record["against"]["numpy_legacy"]
        assert _text(record["policy_outcome"]) == _longdouble(probe["new"].split(" [")[0])
        assert _text(legacy) == _longdouble(probe["old"].split(" [")[0])
        # np.ceil of integers is the function's own change, labelled so; every other is promotion's
        assert record.get("kind") == ("function" if source[int(line) - 1].endswith("# function") else None)
    assert report["policy"] == f"numpy {np.__version__}" and report["against"] == ["numpy_legacy"]
    assert report["uncompared"] == {}  # every NumPy call of the program was compared
    text = markdown.read_text()
    assert f"{sum(expected.values())} calls." in text and "--numpy --against numpy_legacy" in text


def _longdouble(name):
    """NumPy's name of its extended precision on this machine, as the reports name it."""
    return "longdouble" if name == np.dtype(np.longdouble).name and name != "float64" else name


def _text(outcome):
    return f"raises {outcome['error']}" if outcome["error"] else outcome["dtype"]


def test_the_numpy_1_era_program_is_the_issues():
    probes = GOLDEN["programs"]["numpy1_era.py"]["probes"]
    assert GOLDEN["generator"] == "tools/gen_numpy_audit_golden.py"
    assert GOLDEN["old_numpy"] == "1.26.4" and GOLDEN["new_numpy"].startswith("2.")
    changed = [p for p in probes.values() if p["old"] != p["new"]]
    assert (len(probes), len(changed)) == (33, 18)


@needs_new_numpy
def test_more_policies_and_include(tmp_path):
    folder = _program_copy(tmp_path)
    # --include the main script only: kinds_helpers.py's lines are not the user's
    done, report, _ = _audit(
        tmp_path,
        [sys.executable, "kinds.py"],
        against="numpy_legacy,torch",
        extra=["--include", "kinds.py"],
        cwd=folder,
    )
    assert done.returncode == 0, done.stderr
    files = {r["file"] for r in report["records"]}
    assert files == {"kinds.py"}
    assert report["against"] == ["numpy_legacy", "torch"]
    (record,) = [r for r in report["records"] if r["line"] == 17]  # 1000 + u8, reflected, in a lambda
    assert record["function"] == "<lambda>"
    assert record["op"] == "__radd__" and record["operands"] == "Python int, NumPy uint8 array"
    assert record["policy_outcome"]["error"] == "OverflowError"
    assert record["against"]["numpy_legacy"]["dtype"] == "uint16"


def test_a_program_without_numpy_differences_and_its_exit_status(tmp_path):
    (tmp_path / "program.py").write_text(
        textwrap.dedent(
            """
            import sys
            import numpy as np

            class Point:
                def __init__(self, x):
                    self.x = x

                def __add__(self, other):
                    return Point(self.x + other.x)

            p = Point(1) + Point(2)
            x = np.arange(4.0)
            x[1:3] += 1
            p.x += 1
            print(p.x, x.sum(), super, [i * 2 for i in range(3)], f"{x[0] + 1:.1f}")
            sys.exit(3)
            """
        )
    )
    plain = _plain([sys.executable, "program.py"], tmp_path)
    done, report, markdown = _audit(tmp_path, [sys.executable, "program.py"])
    assert done.returncode == plain.returncode == 3
    assert done.stdout == plain.stdout == "4 8.0 <class 'super'> [0, 2, 4] 1.0\n"
    assert report["records"] == [] and "No call differs." in markdown.read_text()


def test_an_uncaught_error_is_the_programs(tmp_path):
    (tmp_path / "program.py").write_text("import numpy as np\n\nx = np.zeros(2, np.uint8)\nx + 300\n")
    plain = _plain([sys.executable, "program.py"], tmp_path)
    done, report, _ = _audit(tmp_path, [sys.executable, "program.py"])
    assert done.returncode == plain.returncode == 1
    assert "OverflowError: Python integer 300 out of bounds for uint8" in done.stderr
    assert 'program.py", line 4, in <module>' in done.stderr
    (record,) = report["records"]
    assert (record["line"], record["op"]) == (4, "__add__")


@pytest.mark.parametrize("flag", ["--json", "--markdown"])
def test_output_paths_are_checked_before_the_program_runs(tmp_path, flag):
    marker = tmp_path / "ran"
    program = [sys.executable, "-c", f"open({str(marker)!r}, 'w').close()"]
    for path, words in [(tmp_path / "no" / "such" / "a.json", "no such directory"), (tmp_path, "is a directory")]:
        for numpy in ([], ["--numpy"]):
            runner = [sys.executable, "-m", "array_api_promo.audit", *numpy, "--against", "numpy_legacy"]
            runner += [flag, str(path), "--", *program]
            done = subprocess.run(runner, capture_output=True, text=True, cwd=tmp_path, timeout=300, env=ENV)
            assert done.returncode == 2
            assert done.stderr.count("\n") == 1 and words in done.stderr and flag in done.stderr
            assert not marker.exists()  # nothing ran


def test_bad_arguments_of_the_numpy_audit(tmp_path):
    def run(*args):
        runner = [sys.executable, "-m", "array_api_promo.audit", *args, "--", sys.executable, "-c", "pass"]
        return subprocess.run(runner, capture_output=True, text=True, cwd=tmp_path, timeout=300, env=ENV)

    done = run("--numpy", "--against", "nope")
    assert done.returncode == 2 and "unknown policy 'nope'" in done.stderr
    done = run("--numpy", "--policy", "numpy", "--against", "numpy_legacy")
    assert done.returncode == 2 and "--policy and --api-version do not apply" in done.stderr
    done = run("--include", "x", "--against", "torch")
    assert done.returncode == 2 and "--include applies to --numpy" in done.stderr


def test_the_rewriting_keeps_the_programs_meaning():
    source = textwrap.dedent(
        """
        def f(a: int | None, b, d) -> int | None:
            d[len(d)] = a + b
            d[0] -= 1
            c = -a
            c **= 2
            match 1 + 2j:
                case 1+2j:
                    found: int | None = 1
            return c < b, d, [x * 2 for x in (a, b)]

        result = f(2, 3, {0: 10}), f.__annotations__
        """
    )
    plain: dict = {}
    exec(compile(source, "<plain>", "exec"), plain)
    tree = rewrite(ast.parse(source))
    assert "__array_api_promo_audit__" in ast.unparse(tree)
    helpers = _Calls()
    audited = {"__array_api_promo_audit__": helpers}
    exec(compile(tree, "<audited>", "exec"), audited)
    assert audited["result"] == plain["result"]
    assert plain["result"][0] == (False, {0: 9, 1: 5}, [4, 6])
    assert helpers.calls == 7  # a + b, -a, c **=, 1 + 2j, c < b and x * 2 twice (a dict's d[...] = and -=: plain)


class _Calls:
    """The helpers' plain behaviour, counting the operations they are told of (the site functions
    perform the operations themselves)."""

    calls = 0
    slice = slice
    plain = frozenset()  # no fast path: every operation tells the helpers
    ndarray = type("NotAnArray", (), {})  # no operand of the program's is one: d[...] = v is plain
    partial = staticmethod(functools.partial)
    agreed: dict = {}  # no signature agreed before: every operation tells the helpers

    def _count(self, result=None):
        self.calls += 1
        return result

    def binary(self, site, name, a, b, result):
        return self._count(result)

    def unary(self, site, name, a, result):
        return self._count(result)

    def inplace_before(self, site, name, a, b):
        return self._count()

    def inplace(self, context, result):
        return self._count(result)

    def item_before(self, site, name, o, a, b):
        return None

    def item(self, context, a):
        self._count()

    def setitem(self, site, o, value):
        self._count()

    def w(self, f, site):
        return f

    def site(self, kind, name, line, filename, ref=None):
        return site_function(kind, name, line, filename, sys._getframe(1).f_globals, self, ref)

    binary_error = unary_error = inplace_error = item_error = setitem_error = None


def test_comparisons_are_recorded_exactly_where_the_policys_results_differ():
    """A comparison whose computing dtypes differ is recorded iff the policy's results differ from NumPy's
    on the real values (operands every computing dtype holds exactly are not computed again: same numbers)."""
    from array_api_promo import promotion
    from array_api_promo.audit.numpy_compare import FORWARD, Comparison, against_values

    policy = promotion.get_policy("numpy_legacy")
    scalars = [0, 1, 3, 255, 348, 70000, 2**24 + 1, -1, 0.1, 0.5, 3.0, 16777217.0, 1e40, float("nan"), True]
    numpy_scalars = [np.float32(0.1), np.float32(3.0), np.float16(0.5), np.int16(348), np.uint8(255), np.int8(-1)]
    arrays = [np.arange(4, dtype=np.float32) / 4, np.arange(4, dtype=np.int16) * 100, np.array([0.1, 3], np.float16)]
    arrays += [np.array(np.float32(0.1)), np.arange(3, dtype=np.uint8)]
    checked = differing = 0
    for a in numpy_scalars + arrays:
        for b in scalars + numpy_scalars:
            for name in ("eq", "ne", "lt", "ge"):
                with np.errstate(all="ignore"):
                    result = FORWARD[name](a, b)
                comparison = Comparison([policy])
                comparison.compare(("t.py", 1), "compare", f"__{name}__", name, (a, b), {}, result, None)
                try:
                    theirs = against_values(policy, "compare", name, (a, b), {})
                except Exception:
                    continue  # the policy refuses these operands: not a values comparison
                differs = theirs.shape != np.shape(result) or not np.array_equal(theirs, result)
                recorded = [r for r in comparison.records if r.policy_outcome.computed is not None]
                assert bool(recorded) == differs, (a, b, name)
                checked += 1
                differing += differs
    assert checked > 500 and differing >= 5  # both kinds
