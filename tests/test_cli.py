"""The ``array-api-promo`` command line, run for real in a subprocess."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SVG_NS = "{http://www.w3.org/2000/svg}"


def run(*args, cwd=None):
    env = dict(os.environ, COLUMNS="200", PYTHONPATH=os.pathsep.join([str(ROOT), str(pathlib.Path(__file__).parent)]))
    return subprocess.run(
        [sys.executable, "-m", "array_api_promo._cli", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or ROOT,
        timeout=300,
    )


def one_line_error(proc, *needles):
    assert proc.returncode == 2, proc
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("array-api-promo: error: ")
    for n in needles:
        assert n in lines[0], lines[0]


# -- result-type ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "policy,operands,expected",
    [
        ("numpy", ["int64", "float32"], "float64"),
        ("numpy", ["uint64", "0d:int64"], "float64"),
        ("numpy", ["float32", "1.5"], "float32"),
        ("numpy", ["float32", "1j"], "complex64"),
        ("numpy", ["bool", "7"], "int64"),
        ("torch", ["int8", "1.5"], "float32"),
        ("torch", ["int8", "0d:float64"], "float64"),
        ("array_api", ["int8", "int16", "7"], "int16"),
        ("jax", ["uint32", "int32"], "int32"),
        ("jax_x64", ["uint64", "int64"], "float64"),
        ("jax", ["int8", "float16"], "float16"),
        ("jax", ["bool", "True"], "bool"),
    ],
)
def test_result_type_single_policy_prints_the_dtype(policy, operands, expected):
    proc = run("result-type", *operands, "--policy", policy)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == expected


def test_result_type_all_policies_is_a_table():
    proc = run("result-type", "int8", "1.5")
    # array_api refuses int8 + Python float, so the exit code says "raises somewhere"
    assert proc.returncode == 1
    out = proc.stdout
    for name in ("array_api", "numpy", "torch", "jax", "jax_x64"):
        assert name in out
    assert "float64" in out and "float32" in out and "PromotionError" in out


def test_result_type_all_policies_agreeing_exits_0():
    proc = run("result-type", "float32", "float32")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("float32") >= 5


def test_result_type_raising_exits_1_with_message():
    proc = run("result-type", "int8", "1000", "--policy", "numpy", "--op", "add")  # (np.result_type checks no value)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "OverflowError" in proc.stderr and "1000" in proc.stderr
    assert run("result-type", "int8", "1000", "--policy", "numpy").stdout.strip() == "int8"
    proc = run("result-type", "bool", "int8", "-p", "array_api")
    assert proc.returncode == 1 and "do not promote" in proc.stderr


def test_result_type_explain():
    proc = run("result-type", "int8", "0d:float64", "--explain", "--policy", "torch")
    assert proc.returncode == 0
    assert "result_type under policy 'torch'" in proc.stdout
    assert proc.stdout.rstrip().endswith("=> float64")
    proc = run("result-type", "int8", "uint16", "--explain", "-p", "numpy", "-p", "array_api")
    assert proc.returncode == 0
    assert "np.promote_types(uint16, int8) = int32" in proc.stdout
    assert "policy 'array_api'" in proc.stdout


def test_result_type_user_policy_by_module_attribute():
    proc = run("result-type", "int8", "float32", "-p", "test_user_policy:IntToFloat")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "float32"


def test_the_console_script_imports_a_user_policy_from_the_current_directory(tmp_path):
    """The installed `array-api-promo` (not `python -m`) finds mypkg.rules:MyPolicy in the cwd."""
    (tmp_path / "mypkg").mkdir()
    (tmp_path / "mypkg" / "__init__.py").write_text("")
    (tmp_path / "mypkg" / "rules.py").write_text(
        "from array_api_promo import promotion\n\nclass MyPolicy(promotion.ArrayAPIPolicy):\n    name = 'my_policy'\n"
    )
    script = pathlib.Path(sys.executable).with_name("array-api-promo")
    if not script.exists():
        pytest.skip("the console script is not installed next to this interpreter")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [str(script), "result-type", "int8", "int16", "-p", "mypkg.rules:MyPolicy"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "int16"


@pytest.mark.parametrize(
    "args,needles",
    [
        (["result-type", "int9"], ["unknown dtype 'int9'"]),
        (["result-type", "0d:floot"], ["unknown dtype 'floot'"]),
        (["result-type", "0d:"], ["malformed operand"]),
        (["result-type", "xx:int8"], ["malformed operand"]),
        (["result-type", "1+"], ["malformed operand"]),
        (["result-type", "[1]"], ["malformed operand", "literal"]),
        (["result-type", "true"], ["malformed operand", "True and False"]),
        (["result-type", "int8", "--policy", "nope"], ["unknown policy 'nope'", "numpy"]),
        (["result-type", "int8", "-p", "no_such_module_x:P"], ["cannot import"]),
        (["result-type", "int8", "-p", "os:path"], ["not a promotion Policy"]),
        (["result-type", "int8", "0d:int64=abc"], ["malformed operand '0d:int64=abc'", "the value 'abc' is not"]),
        (["result-type", "int8", "0d:int64=[1]"], ["the value '[1]' is not a Python bool, int, float or complex"]),
        (["result-type", "int8", "nd:int8=3"], ["only a 0-d array"]),
        (["result-type"], ["required"]),
        (["frobnicate"], ["invalid choice"]),
        (["--bogus"], ["unknown option --bogus"]),
        (["--bogus", "info"], ["unknown option --bogus"]),
        (["info", "extra"], ["unexpected argument extra"]),
        ([], ["a command is required: one of result-type, explain"]),
        (["compare", "numpy"], ["at least two"]),
        (["compare", "numpy", "nope"], ["unknown policy"]),
        (["lattice", "-p", "numpy", "-o", "x.pdf"], [".svg or .png"]),
        (["lattice", "-o", "x.svg"], ["required"]),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, needles):
    one_line_error(run(*args), *needles)


# -- compare ----------------------------------------------------------------------------------
def test_compare_lists_disagreements():
    proc = run("compare", "numpy", "jax_x64")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "operand mixes differ" in out
    # int64 + float16: numpy float64, jax float16
    line = next(ln for ln in out.splitlines() if "│ int64, float16 " in ln)
    assert "float64" in line and "float16" in line


def test_compare_check_exit_codes():
    proc = run("compare", "numpy", "jax_x64", "--check", "--limit", "3")
    assert proc.returncode == 1
    assert "more (use --limit)" in proc.stdout
    proc = run("compare", "numpy", "numpy", "--check")
    assert proc.returncode == 0
    assert "no differences" in proc.stdout


def test_compare_counts_one_policy_raising_as_a_difference():
    proc = run("compare", "array_api", "numpy", "--check")
    assert proc.returncode == 1
    line = next(ln for ln in proc.stdout.splitlines() if "│ bool, int8 " in ln)
    assert "PromotionError" in line and "int8" in line


def test_compare_user_policy():
    proc = run("compare", "array_api", "test_user_policy:IntToFloat", "--check")
    assert proc.returncode == 1
    assert "int8, float32" in proc.stdout


# -- lattice ----------------------------------------------------------------------------------
@pytest.mark.parametrize("policy", ["array_api", "numpy", "torch", "jax", "jax_x64"])
def test_lattice_svg_is_valid(tmp_path, policy):
    out = tmp_path / f"{policy}.svg"
    proc = run("lattice", "--policy", policy, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert f"wrote {out}" in proc.stdout
    root = ET.parse(out).getroot()
    assert root.tag == f"{SVG_NS}svg"
    nodes = {g.get("data-dtype") for g in root.iter(f"{SVG_NS}g") if g.get("class") == "node"}
    from array_api_promo import promotion

    assert nodes == {d.name for d in promotion.get_policy(policy).dtypes}
    edges = {(p.get("data-from"), p.get("data-to")) for p in root.iter(f"{SVG_NS}path") if p.get("class") == "edge"}
    assert edges
    if policy == "array_api":
        assert ("int8", "int16") in edges and ("uint8", "int16") in edges
        assert ("int8", "int32") not in edges  # transitive: no edge
        assert not any(a == "bool" for a, _ in edges)  # bool promotes with nothing
    if policy == "numpy":
        assert ("int8", "float16") in edges and ("int64", "float64") in edges


def test_lattice_png(tmp_path):
    out = tmp_path / "numpy.png"
    proc = run("lattice", "-p", "numpy", "-o", str(out))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        one_line_error(proc, "matplotlib", "pip install")
        return
    assert proc.returncode == 0, proc.stderr
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and b"IEND" in data[-16:]


def test_committed_lattice_pictures_are_current():
    """docs/lattice-<policy>.svg is what the command draws today."""
    from array_api_promo import _cli, promotion

    for policy in ("array_api", "numpy", "torch", "jax", "jax_x64", "jax_explicit_x64"):
        path = ROOT / "docs" / f"lattice-{policy}.svg"
        assert path.read_text() == _cli.lattice_svg(promotion.get_policy(policy)), (
            f"regenerate: array-api-promo lattice -p {policy} -o {path.relative_to(ROOT)}"
        )


def test_policies_command():
    proc = run("policies")
    assert proc.returncode == 0
    for name in ("array_api", "numpy", "torch", "jax", "jax_x64", "jax_explicit_x64"):
        assert name in proc.stdout


# -- explain, info, --version -----------------------------------------------------------------
def test_version():
    from array_api_promo import __version__

    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout.strip() == f"array-api-promo {__version__}"


def test_info_says_whether_the_compiled_paths_are_in_use():
    from array_api_promo import _core

    proc = run("info")
    assert proc.returncode == 0, proc.stderr
    assert "policies: array_api, " in proc.stdout
    assert ("compiled fast paths: in use" in proc.stdout) == _core.COMPILED
    env = dict(os.environ, ARRAY_API_PROMO_PURE_PYTHON="1")
    pure = subprocess.run(
        [sys.executable, "-m", "array_api_promo._cli", "info"], capture_output=True, text=True, env=env
    )
    assert "compiled fast paths: not in use: turned off by ARRAY_API_PROMO_PURE_PYTHON=1" in pure.stdout


def test_explain_an_operation():
    proc = run("explain", "--op", "sum", "uint8", "-p", "torch")
    assert proc.returncode == 0, proc.stderr
    assert "sum of uint8 input returns int64" in proc.stdout and proc.stdout.rstrip().endswith("=> int64")
    proc = run("explain", "--op", "mean", "int8", "-p", "torch")
    assert proc.returncode == 1 and "PromotionError: mean: torch does not support int8 input" in proc.stdout
    proc = run("result-type", "--op", "divide", "int8", "int8", "-p", "numpy")
    assert (proc.returncode, proc.stdout.strip()) == (0, "float64")


def test_an_unknown_operation_is_a_usage_error():
    proc = run("explain", "--op", "no_such_op", "int8")
    assert proc.returncode == 2 and proc.stderr.startswith("array-api-promo: error: unknown operation 'no_such_op'")


@pytest.mark.parametrize(("pure", "warns"), [("", True), ("1", False)])
def test_a_missing_compiled_module_warns_once_unless_pure_python_is_asked_for(pure, warns):
    code = "import sys; sys.modules['array_api_promo._fastpath'] = None; import array_api_promo"
    env = dict(os.environ, ARRAY_API_PROMO_PURE_PYTHON=pure)
    proc = subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if "compiled fast paths are not available" in ln]
    assert len(lines) == (1 if warns else 0), proc.stderr
