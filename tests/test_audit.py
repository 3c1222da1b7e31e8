"""The audit: an audited namespace computes as its policy's and records, at the user's line,
every call whose outcome another policy changes (tests for each operation family, the
records, the warnings, value-dependent policies and the runner with pytest-xdist)."""

import contextlib
import json
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import array_api_promo
from array_api_promo import PromotionDifferenceWarning, audit, namespace


def _line(offset=0):
    return sys._getframe(1).f_lineno + offset


@pytest.fixture
def xp():
    module = audit("array_api", against=["torch", "numpy"])
    module.__audit__.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PromotionDifferenceWarning)
        yield module
    module.__audit__.clear()


@contextlib.contextmanager
def quiet(policy, against, **kwargs):
    """An audited namespace with no records yet, its warnings ignored inside the block."""
    module = audit(policy, against=against, **kwargs)
    module.__audit__.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PromotionDifferenceWarning)
        yield module


def records(xp, op=None):
    return [r for r in xp.__audit__.records if op is None or r.op == op]


def only(xp, op):
    found = records(xp, op)
    assert len(found) == 1, found
    return found[0]


def outcomes(record):
    return record.policy_outcome.text(), {n: o.text() for n, o in record.against.items()}


# -- it computes as the policy's namespace ---------------------------------------------------------
def test_results_are_the_policys_own():
    plain = namespace("torch")
    audited = audit("torch", against="array_api")
    for make in (
        lambda m: m.asarray([1, 2, 3], dtype=m.int8) / 2,
        lambda m: m.sum(m.asarray([1, 2], dtype=m.uint8)),
        lambda m: m.asarray([1.5, 2.5]) + m.asarray(1, dtype=m.int64),
        lambda m: m.where(m.asarray([True, False]), m.asarray([1, 2], dtype=m.int16), 2.5),
        lambda m: m.linalg.inv(m.asarray([[2.0, 0.0], [0.0, 4.0]], dtype=m.float32)),
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PromotionDifferenceWarning)
            got = make(audited)
        want = make(plain)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    assert type(audited.asarray([1]).__array_namespace__()) is type(audited)
    assert audited.asarray([1]).__array_namespace__() is audited
    other = audited.asarray([1]).__array_namespace__(api_version="2023.12")
    assert other.__array_api_version__ == "2023.12" and other.__audit__ is audited.__audit__


def test_ordinary_namespaces_are_untouched():
    audit("array_api", against="torch")
    for module in (array_api_promo, namespace("torch")):
        assert type(module._runtime._fast) is dict  # the compiled operators read it as it was
        assert type(module._runtime).__name__ == "Runtime"


def test_refusals_are_the_policys(xp):
    x = xp.asarray([1, 2, 3], dtype=xp.int8)
    with pytest.raises(TypeError, match="policy 'array_api'"):
        x / 2  # refused under array_api: the audited namespace refuses it too
    assert outcomes(only(xp, "__truediv__")) == (
        "raises TypeError",
        {"torch": "float32 (scalar kept)", "numpy": "float64 (scalar kept)"},
    )


# -- each operation family -------------------------------------------------------------------------
def test_operators_forward_reflected_inplace_unary():
    with quiet("torch", against="array_api") as xp:
        x = xp.asarray([1, 2, 3], dtype=xp.int16)
        f = xp.asarray([1.0, 2.0], dtype=xp.float32)
        forward = x * 1.5
        reflected = 2 / x
        f += xp.asarray(1, dtype=xp.int64)
        absolute = abs(xp.asarray([True, False]))
    assert forward.dtype == reflected.dtype == xp.float32 and f.dtype == xp.float32 and absolute.dtype == xp.bool
    ops = {r.op: outcomes(r) for r in xp.__audit__.records}
    assert ops["__mul__"] == ("float32 (scalar kept)", {"array_api": "raises TypeError"})
    assert ops["__rtruediv__"] == ("float32 (scalar kept)", {"array_api": "raises TypeError"})
    assert ops["__iadd__"] == ("float32", {"array_api": "raises TypeError"})
    assert ops["__abs__"] == ("bool", {"array_api": "raises TypeError"})


def test_functions_where_clip_reductions_creation(xp):
    u8 = xp.asarray([1, 2], dtype=xp.uint8)
    xp.sum(u8)  # array_api: uint64; torch: int64
    xp.where(xp.asarray([True, False]), u8, xp.asarray([1, 2], dtype=xp.int8))  # the same everywhere
    xp.asarray(1.5)  # torch's default float is float32
    xp.arange(3)  # the same
    xp.clip(xp.asarray([1, 2], dtype=xp.int8), 0, 300)  # the bound saturates under both
    assert outcomes(only(xp, "sum")) == ("uint64", {"torch": "int64", "numpy": "uint64"})
    assert outcomes(only(xp, "asarray")) == (
        "float64 (scalar kept)",
        {"torch": "float32 (scalar kept)", "numpy": "float64 (scalar kept)"},
    )
    assert not records(xp, "where") and not records(xp, "arange") and not records(xp, "clip")


def test_result_type_astype_can_cast_linalg_fft(xp):
    with pytest.raises(TypeError):
        xp.result_type(xp.asarray([1], dtype=xp.int8), 1.0)
    xp.can_cast(xp.int8, xp.uint8)
    with pytest.raises(TypeError):
        xp.fft.fft(xp.asarray([1.0, 2.0], dtype=xp.float32))
    xp.linalg.matrix_norm(xp.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=xp.float32))  # the same everywhere
    with pytest.raises(TypeError):
        xp.astype(xp.asarray([1j]), xp.float64)
    assert outcomes(only(xp, "result_type"))[1] == {"torch": "float32", "numpy": "float64"}  # (no value converted)
    assert outcomes(only(xp, "can_cast")) == ("False", {"torch": "True", "numpy": "False"})
    assert outcomes(only(xp, "fft.fft")) == ("raises TypeError", {"torch": "complex64", "numpy": "raises TypeError"})
    assert not records(xp, "linalg.matrix_norm")
    # torch and NumPy refuse a complex-to-real astype too: no record (the standard leaves it out)
    assert not records(xp, "astype")


def test_scalar_conversions_kept_wrapped_refused():
    with quiet("array_api", against=["megengine", "torch"]) as xp:
        x = xp.asarray([1, 2], dtype=xp.uint8)
        with pytest.raises(OverflowError):
            xp.add(x, 300)
        with pytest.raises(OverflowError):
            xp.asarray(300, dtype=xp.int8)
    add = only(xp, "add")
    assert (add.operands, add.values) == ("uint8 array, Python int", "300")  # the value shown: it decides
    assert outcomes(add)[1]["torch"] == "uint8 (scalar wrapped)"
    created = only(xp, "asarray")
    assert outcomes(created) == (
        "raises OverflowError",
        {"megengine": "int8 (scalar wrapped)", "torch": "raises OverflowError"},
    )
    assert created.against["megengine"].as_json() == {"dtype": "int8", "error": None, "conversion": "wrapped"}


def test_setitem_is_compared_and_the_others_never_write_into_the_users_array():
    xp = audit("torch", against="array_api")
    xp.__audit__.clear()
    x = xp.asarray([1, 2, 3], dtype=xp.int8)
    y = xp.asarray([1, 2, 3], dtype=xp.int8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PromotionDifferenceWarning)
        x[0] = 1000  # torch wraps the value into int8; the standard refuses it
        y += 1  # the same under both: the other namespace runs on a copy
    assert np.asarray(x).tolist() == [-24, 2, 3] and np.asarray(y).tolist() == [2, 3, 4]
    assert outcomes(only(xp, "__setitem__")) == ("int8 (scalar wrapped)", {"array_api": "raises OverflowError"})
    assert not records(xp, "__iadd__")


def test_value_dependent_policies_are_compared_with_the_real_values():
    with quiet("numpy", against="numpy_legacy") as xp:
        x = xp.asarray([1, 2], dtype=xp.int8)
        for value in (1, 2, 3):
            x + xp.asarray(value, dtype=xp.int64)  # NumPy 2: int64; NumPy 1: int8 (the value fits)
        x + xp.asarray(1000, dtype=xp.int64)  # NumPy 1: int16
        x + 1  # int8 under both
        with pytest.raises(OverflowError):
            x + 1000  # NumPy 2 refuses; NumPy 1 gives int16
    found = {(r.operands, r.count, r.values): outcomes(r) for r in records(xp, "__add__")}
    assert found == {  # calls of one outcome at one site are one record, the first call's values its example
        ("int8 array, 0-d int64 array", 3, "1"): ("int64", {"numpy_legacy": "int8"}),
        ("int8 array, 0-d int64 array", 1, "1000"): ("int64", {"numpy_legacy": "int16"}),
        ("int8 array, Python int", 1, "1000"): ("raises OverflowError", {"numpy_legacy": "int16 (scalar kept)"}),
    }


# -- records: sites, deduplication, counts, internal calls -----------------------------------------
def test_records_are_deduplicated_by_site_with_counts(xp):
    x = xp.asarray([1, 2], dtype=xp.uint8)
    first = _line(2)
    for _ in range(5):
        xp.sum(x)
    second = _line(1)
    xp.sum(x)
    sites = sorted((r.line, r.count) for r in records(xp, "sum"))
    assert sites == [(first, 5), (second, 1)]
    record = records(xp, "sum")[0]
    assert record.file == __file__ and record.function.endswith("test_records_are_deduplicated_by_site_with_counts")


def test_calls_the_namespace_makes_itself_are_not_recorded(xp):
    # vector_norm computes with other functions of the namespace: only the user's call counts
    xp.linalg.vector_norm(xp.asarray([3.0, 4.0], dtype=xp.float32))
    xp.std(xp.asarray([1.0, 2.0], dtype=xp.float32))
    assert records(xp) == []


def test_a_program_that_never_differs_has_no_records():
    xp = audit("array_api", against="numpy")
    xp.__audit__.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning would fail the test
        x = xp.asarray([1.0, 2.0, 3.0])
        y = xp.sqrt(x * 2.0 + 1) / xp.sum(x)
        z = xp.concat([x, y])
        z[0] = 5.0
        xp.argsort(z)
        xp.linalg.matmul(xp.reshape(z[:4], (2, 2)), xp.eye(2))
    assert xp.__audit__.records == []


# -- warnings --------------------------------------------------------------------------------------
def test_warnings_once_per_site_pointing_at_the_users_line():
    xp = audit("array_api", against="torch")
    xp.__audit__.clear()
    x = xp.asarray([1, 2], dtype=xp.uint8)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = _line(2)
        for _ in range(3):
            xp.sum(x)
    assert len(caught) == 1
    (w,) = caught
    assert w.category is PromotionDifferenceWarning and issubclass(w.category, UserWarning)
    assert (w.filename, w.lineno) == (__file__, line)
    assert str(w.message) == "sum(uint8 array): under policy 'array_api' uint64, but under 'torch' int64"


def test_warning_filters_turn_them_into_errors():
    xp = audit("array_api", against="torch")
    xp.__audit__.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error", PromotionDifferenceWarning)
        with pytest.raises(PromotionDifferenceWarning, match="sum"):
            xp.sum(xp.asarray([1, 2], dtype=xp.uint8))


@pytest.mark.filterwarnings("ignore::array_api_promo.PromotionDifferenceWarning")
def test_pytest_filterwarnings_names_it():
    xp = audit("array_api", against="torch")
    xp.sum(xp.asarray([1, 2], dtype=xp.uint8))


def test_bad_arguments():
    with pytest.raises(ValueError, match="audit: policy 'torch' cannot be audited against itself"):
        audit("torch", against="torch")
    with pytest.raises(ValueError, match="audit: unknown promotion policy 'nope'"):
        audit("array_api", against="nope")
    with pytest.raises(ValueError, match="at least one"):
        audit("array_api", against=[])
    with pytest.raises(ValueError, match="audit: unsupported api_version"):
        audit("array_api", against="torch", api_version="2020.01")


# -- the runner ------------------------------------------------------------------------------------
def _run(tmp_path, program_args, against="torch,numpy", policy="array_api", extra=()):
    out = tmp_path / "audit.json"
    markdown = tmp_path / "audit.md"
    command = [sys.executable, "-m", "array_api_promo.audit", "--policy", policy, "--against", against]
    command += ["--json", str(out), "--markdown", str(markdown), *extra, "--", *program_args]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    report = json.loads(out.read_text()) if out.exists() else None
    return done, report, markdown


PROGRAM = textwrap.dedent(
    """
    import sys
    import array_api_strict as xp
    x = xp.asarray([1, 2, 3], dtype=xp.int8)
    for i in range(4):
        y = x * 2
        z = xp.sum(xp.asarray([1, 2], dtype=xp.uint8))
    sys.exit(3)
    """
)


def test_runner_on_a_script(tmp_path):
    (tmp_path / "program.py").write_text(PROGRAM)
    done, report, markdown = _run(tmp_path, [sys.executable, "program.py"])
    assert done.returncode == 3, done.stderr  # the program's own exit status
    assert report["policy"] == "array_api" and report["against"] == ["torch", "numpy"]
    (record,) = report["records"]
    assert record == {
        "file": "program.py",  # relative to the working directory: no machine's paths in a report
        "line": 7,
        "function": "<module>",
        "op": "sum",
        "operands": "uint8 array",
        "count": 4,
        "policy_outcome": {"dtype": "uint64", "error": None},
        "against": {"torch": {"dtype": "int64", "error": None}, "numpy": {"dtype": "uint64", "error": None}},
    }
    assert "program.py:7" in done.stderr and done.stdout == ""  # the table on stderr: stdout is the program's
    text = markdown.read_text()
    assert "## `sum(uint8 array)`" in text and "- `program.py:7` (<module>), 4 calls" in text
    assert "python -m array_api_promo.audit --policy array_api --against torch,numpy" in text


def test_runner_without_a_bfloat16_policy(tmp_path):
    # no policy with bfloat16 in the process: ml_dtypes is not loaded when a float's class is taken
    (tmp_path / "program.py").write_text(
        "import array_api_strict as xp\nx = xp.ones(2, dtype=xp.float32) * 3.3\nprint(x.dtype)\n"
    )
    done, report, _ = _run(tmp_path, [sys.executable, "program.py"], policy="numpy", against="numpy_legacy")
    assert done.returncode == 0, done.stderr
    assert report["records"] == []


def test_runner_merges_pytest_xdist_workers(tmp_path):
    (tmp_path / "test_program.py").write_text(
        textwrap.dedent(
            """
            import array_api_strict as xp
            import pytest

            @pytest.mark.parametrize("i", range(6))
            def test_sum(i):
                assert xp.sum(xp.asarray([i], dtype=xp.uint8)).dtype == xp.uint64
            """
        )
    )
    pytest_args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2", "test_program.py"]
    done, report, _ = _run(tmp_path, pytest_args, against="torch")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 passed" in done.stdout
    (record,) = report["records"]
    assert (record["line"], record["count"], record["op"]) == (7, 6, "sum")


def test_runner_for_a_program_that_never_differs(tmp_path):
    (tmp_path / "program.py").write_text("import array_api_strict as xp\nprint(xp.sum(xp.ones(3, dtype=xp.float32)))\n")
    done, report, markdown = _run(tmp_path, [sys.executable, "program.py"])
    assert done.returncode == 0, done.stderr
    assert report["records"] == [] and "no call differs" in done.stderr
    assert "No call differs." in markdown.read_text()


def test_runner_refuses_bad_arguments(tmp_path):
    done, _, _ = _run(tmp_path, [sys.executable, "-c", "pass"], against="nope")
    assert done.returncode == 2 and "unknown policy 'nope'" in done.stderr
    done, _, _ = _run(tmp_path, [sys.executable, "-c", "pass"], against="array_api")
    assert done.returncode == 2 and "cannot be audited against itself" in done.stderr
    done, _, _ = _run(tmp_path, ["no-such-program-anywhere"])
    assert done.returncode == 2 and "program not found" in done.stderr


def test_environment_of_the_runner_is_not_inherited_by_plain_namespaces():
    assert "ARRAY_API_PROMO_AUDIT_AGAINST" not in os.environ


def test_the_other_policies_runs_are_silent():
    xp = audit("numpy", against="torch")
    xp.__audit__.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # the program's own filter
        warnings.simplefilter("ignore", PromotionDifferenceWarning)
        x = xp.asarray([3e38], dtype=xp.float32)
        y = x * xp.asarray(10.0)  # numpy: float64, no overflow; torch: float32, which overflows (silently here)
    assert y.dtype == xp.float64
    assert outcomes(only(xp, "__mul__")) == ("float64", {"torch": "float32"})


def test_a_refused_call_does_not_stand_for_its_signature():
    xp = audit("torch", against="array_api")
    xp.__audit__.clear()
    u8, f32 = xp.ones(3, dtype=xp.uint8), xp.ones(4, dtype=xp.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PromotionDifferenceWarning)
        with pytest.raises(ValueError):
            xp.add(u8, f32)  # shapes that do not broadcast: refused under both, no record ...
        assert records(xp, "add") == []
        xp.add(u8, f32[:3])  # ... and the same signature, computed, is compared: float32 against a refusal
    assert outcomes(only(xp, "add")) == ("float32", {"array_api": "raises TypeError"})


def test_result_type_with_a_dtype_and_a_python_scalar():
    # SciPy's xp_result_type calls result_type(1.0, float64): a dtype, not an operand to convert
    xp = audit("array_api", against="torch")
    xp.__audit__.clear()
    assert xp.result_type(1.5, xp.float64) == xp.float64
    assert xp.result_type(1.5, xp.float32) == xp.float32
    assert xp.__audit__.records == []


def test_markdown_report_groups_sites_by_rule_and_caps_the_list():
    from array_api_promo.audit import SITES_PER_RULE, Outcome, Record, merge, render_markdown

    mine, theirs = Outcome("uint64", None), Outcome("int64", None)
    sites = [
        Record("/x/site-packages/lib/m.py", line, "f", "sum", "uint8 array", line, mine, {"torch": theirs})
        for line in range(1, SITES_PER_RULE + 6)
    ]
    # two processes' reports of the same sites merge by summing counts
    merged = merge([{"records": [r.as_json() for r in sites]}, {"records": [sites[0].as_json()]}])
    assert len(merged) == len(sites) and max(r.count for r in merged) == SITES_PER_RULE + 5
    text = render_markdown(merged, "array_api", ["torch"], "python -m array_api_promo.audit ...")
    assert text.count("## `sum(uint8 array)`") == 1 and "`array_api`: uint64; `torch`: int64" in text
    assert "- `lib/m.py:25` (f), 25 calls" in text  # the site-packages path, most calls first
    assert "- ... and 5 more sites (" in text


def test_markdown_report_counts_one_in_the_singular():
    from array_api_promo.audit import Outcome, Record, render_markdown

    once = Record("prog.py", 13, "brighten", "__add__", "uint8 array, Python int", 1, Outcome("uint8", None), {})
    text = render_markdown([once], "numpy", ["numpy_legacy"], "python -m array_api_promo.audit ...")
    assert "1 site, 1 rule, 1 call." in text and "- `prog.py:13` (brighten), 1 call\n" in text
    assert "1 calls" not in text and "1 sites" not in text


# -- corners (found in review) ---------------------------------------------------------------------
def test_outcomes_are_per_api_version():
    # sum of float32 accumulates in float64 before 2023.12: one signature, two versions, two outcomes
    new, old = audit("array_api", against="torch"), audit("array_api", against="torch", api_version="2022.12")
    new.__audit__.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PromotionDifferenceWarning)
        new.sum(new.ones(2, dtype=new.float32))
        old.sum(old.ones(2, dtype=old.float32))
    (record,) = records(new, "sum")  # the two versions share one record set
    assert outcomes(record) == ("float64", {"torch": "float32"})
    new.__audit__.clear()


def test_the_comparison_leaves_the_warning_filters_alone():
    xp = audit("numpy", against="torch")
    xp.__audit__.clear()
    filters = list(warnings.filters)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PromotionDifferenceWarning)
        inner = list(warnings.filters)
        xp.asarray([1.0], dtype=xp.float32) * xp.asarray(3.0)
        assert warnings.filters == inner
    assert warnings.filters == filters


def test_error_filter_keeps_the_calls_own_refusal():
    xp = audit("array_api", against="torch")
    xp.__audit__.clear()
    x = xp.asarray([1, 2], dtype=xp.int8)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PromotionDifferenceWarning)
        for _ in range(2):  # the first call records (its warning an error), the second is known
            with pytest.raises(TypeError, match="policy 'array_api'"):
                x / 2


def test_huge_ints_and_float_format_thresholds():
    xp = audit("torch", against="numpy_legacy")
    xp.__audit__.clear()
    plain = namespace("torch")
    h = xp.asarray([1.0], dtype=xp.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PromotionDifferenceWarning)
        with np.errstate(all="ignore"):
            for ns in (xp, plain):  # the same refusal, in words that do not print 5,000 digits
                with pytest.raises(OverflowError, match="<about 5,000 digits>"):
                    ns.asarray([1.0]) + 10**5000
            a = xp.where(xp.asarray([False]), h, 65510.0)  # rounds to 65504 in float16
            b = xp.where(xp.asarray([False]), h, 65530.0)  # beyond float16: inf
    assert np.asarray(a).tolist() == [65504.0] and np.asarray(b).tolist() == [np.inf]
    conversions = {r.values: r.policy_outcome.conversion for r in records(xp, "where")}
    # (NumPy 1.x widens to float32 for both values: records, whose torch outcomes differ in the conversion)
    assert conversions == {"65510.0": "rounded", "65530.0": "overflowed"}


def test_read_only_targets_and_shapes_are_not_differences():
    xp = audit("array_api", against="numpy")
    xp.__audit__.clear()
    view = xp.broadcast_to(xp.asarray([1, 2], dtype=xp.int8), (2, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PromotionDifferenceWarning)
        with pytest.raises(ValueError):
            view[0, :] = 1  # read-only under both
        with pytest.raises(ValueError):
            view += 1
        xp.full(300, 1, dtype=xp.int8)  # 300 is a shape, not a value to convert
    assert xp.__audit__.records == []


def test_inplace_calls_are_compared_on_the_operands_before_the_write():
    xp = audit("torch", against="array_api")
    xp.__audit__.clear()
    x = xp.asarray(5, dtype=xp.int8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PromotionDifferenceWarning)
        x += 1000  # torch wraps 1000 into int8; the standard refuses it
    assert int(x) == (5 + 1000 + 128) % 256 - 128
    record = only(xp, "__iadd__")
    assert record.values == "5, 1000" and outcomes(record) == (
        "int8 (scalar wrapped)",
        {"array_api": "raises OverflowError"},
    )


def test_copies_stay_in_the_audited_namespace():
    import copy
    import pickle

    xp = audit("torch", against="array_api")
    x = xp.asarray([1, 2], dtype=xp.int8)
    for y in (copy.deepcopy(x), pickle.loads(pickle.dumps(x))):
        assert y.__array_namespace__() is xp and np.asarray(y).tolist() == [1, 2]


def test_value_classes_know_which_float_formats_hold_a_number():
    import ml_dtypes

    from array_api_promo.audit.signatures import float_formats as _float_formats

    def held(v):
        out = []
        for make in (np.float16, ml_dtypes.bfloat16, np.float32, float):
            try:
                f = float(v)
                with np.errstate(all="ignore"):
                    out.append(f == v and float(make(f)) == v)
            except OverflowError:
                out.append(False)
        return tuple(out)

    rng = np.random.default_rng(0)
    values = [0.0, 0.1, 65504.0, 65505.0, 2**-24, 2**-25, 3 * 2**-25, 2**-133, 2**-134, 2**-149, 5e-324]
    values += [1e39, 3.4e38, 2**100, 2**100 + 1, 16777216, 16777217, 2**1100, -255.5]
    values += [float(v) for v in rng.uniform(-1e5, 1e5, 300)]
    values += [
        float(np.ldexp(m, e)) for m, e in zip(rng.choice([1, 1.5, 1.25, 1.001], 500), rng.integers(-1074, 1000, 500))
    ]
    assert [v for v in values if _float_formats(v)[:4] != held(v)] == []
