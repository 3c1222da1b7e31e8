"""The stand-in for array-api-strict (``python -m array_api_promo.standin``).

A consumer-style module written against ``array_api_strict`` runs through the
stand-in, under each policy, in a subprocess (as a consumer's suite would),
and reports the dtypes and errors it met; the decoy ``array_api_strict.py``
next to it proves that the stand-in wins over ``sys.path`` (pytest's
``prepend`` import mode puts that directory first).
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
import warnings

import numpy as np
import pytest
from standin_process import run_standin, standin_env  # tests/ is on sys.path (rootdir-relative import mode)

import array_api_promo as xp
from array_api_promo.standin import MIRRORED_VERSION, main, make_module

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CONSUMER = textwrap.dedent(
    '''
    import json, subprocess, sys

    import numpy as np
    import array_api_strict as xp


    def standardize(x):
        """A consumer's function: centre and scale the columns."""
        mean = xp.mean(x, axis=0)
        return (x - mean) / xp.std(x, axis=0)


    def outcome(f):
        try:
            return str(f().dtype)
        except Exception as exc:
            return type(exc).__name__


    def report():
        x32 = xp.asarray([[1.0, 2.0], [3.0, 5.0]], dtype=xp.float32)
        u8 = xp.asarray([1, 2], dtype=xp.uint8)
        i8 = xp.asarray([1, 2], dtype=xp.int8)
        out = {
            "name": xp.__name__,
            "standardize": str(standardize(x32).dtype),
            "namespace": x32.__array_namespace__() is xp,
            "float32 + 0-d float64": outcome(lambda: x32 + xp.asarray(1.0, dtype=xp.float64)),
            "int8 + float32": outcome(lambda: i8 + xp.asarray([1.0], dtype=xp.float32)),
            "uint8 + 1000": outcome(lambda: u8 + 1000),
            "int8 / 2": outcome(lambda: i8 / 2),
        }
        # array-api-strict's devices and NumPy scalars, as scikit-learn's tests use them.
        dev = xp.Device("device1")
        y = xp.asarray([1.0, 2.0], device=dev)
        y[0] = np.float64(0.5)
        info = xp.__array_namespace_info__()
        out["device1"] = [str(y.device), str((y + xp.ones(2, device=y.device)).device)]
        out["dtypes on devices"] = [
            sorted(info.dtypes(device=d, kind="real floating")) for d in (xp.Device("CPU_DEVICE"), dev)
        ]
        out["to host"] = np.asarray(xp.asarray(y, device=xp.Device("CPU_DEVICE"))).tolist()
        # Flags map onto API versions, as with array-api-strict.
        with xp.ArrayAPIStrictFlags(api_version="2023.12"):
            out["2023.12"] = [xp.__array_api_version__, hasattr(xp, "isin")]
        out["after"] = [xp.get_array_api_strict_flags()["api_version"], hasattr(xp, "isin")]
        child = "import array_api_strict as s; print(s.__name__, s.float32 is s.asarray(1.0, dtype=s.float32).dtype)"
        out["subprocess"] = subprocess.run(
            [sys.executable, "-c", child], capture_output=True, text=True, check=True
        ).stdout.split()
        return out


    def test_report():
        print("REPORT " + json.dumps(report()))


    if __name__ == "__main__":
        print("REPORT " + json.dumps(report()))
    '''
)

# dtypes print as array-api-strict's in a process run by the stand-in (as devices do)
EXPECTED = {
    "array_api": {
        "standardize": "array_api_strict.float32",
        "float32 + 0-d float64": "array_api_strict.float64",
        "int8 + float32": "PromotionError",
        "uint8 + 1000": "OverflowError",
        "int8 / 2": "PromotionError",
    },
    "torch": {
        "standardize": "array_api_strict.float32",
        "float32 + 0-d float64": "array_api_strict.float32",  # a 0-d array does not widen an n-d one
        "int8 + float32": "array_api_strict.float32",
        "uint8 + 1000": "array_api_strict.uint8",  # the wrapped number wraps around
        "int8 / 2": "array_api_strict.float32",  # integer true division gives the default float
    },
}
COMMON = {
    "name": "array_api_strict",
    "namespace": True,
    # devices print as array-api-strict's (str is its repr), in a process run by the stand-in
    "device1": ["array_api_strict.Device('device1')"] * 2,
    "dtypes on devices": [["float32", "float64"], ["float32", "float64"]],
    "to host": [0.5, 2.0],
    "2023.12": ["2023.12", True],  # as array-api-strict: isin is there, and a call says it is of 2025.12
    "after": ["2025.12", True],
    "subprocess": ["array_api_strict", "True"],
}


def _report(stdout: str) -> dict:
    lines = [line for line in stdout.splitlines() if line.startswith("REPORT ")]
    assert lines, stdout
    return json.loads(lines[-1][len("REPORT ") :])


@pytest.mark.parametrize("policy", ["array_api", "torch"])
def test_consumer_script_under_policy(tmp_path, policy):
    (tmp_path / "consumer.py").write_text(CONSUMER)
    proc = run_standin([sys.executable, "consumer.py"], "--policy", policy, cwd=tmp_path, timeout=120)
    assert _report(proc.stdout) == {**COMMON, **EXPECTED[policy]}


@pytest.mark.parametrize("import_mode", ["prepend", "importlib"])
def test_consumer_pytest_suite_import_modes(tmp_path, import_mode):
    # The decoy sits in the test's directory, which prepend mode puts first on sys.path.
    (tmp_path / "array_api_strict.py").write_text("raise ImportError('the decoy was imported')\n")
    (tmp_path / "test_consumer.py").write_text(CONSUMER)
    pytest_run = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", f"--import-mode={import_mode}"]
    env = {**standin_env(), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    proc = run_standin([*pytest_run, "test_consumer.py"], "--policy", "torch", cwd=tmp_path, env=env, timeout=120)
    assert _report(proc.stdout) == {**COMMON, **EXPECTED["torch"]}


def test_runner_usage_errors(capsys):
    for args, message in (
        ([], "no program given"),
        (["--policy", "nope", "--", "python"], "nope"),
        (["--api-version", "2020.01", "--", "python"], "invalid choice"),
        (["--", "no-such-program-xyz"], "program not found"),
    ):
        with pytest.raises(SystemExit) as exc:
            main(args)
        assert exc.value.code == 2 and message in capsys.readouterr().err, args


def test_flags_in_process(monkeypatch):
    monkeypatch.delenv("ARRAY_API_STRICT_API_VERSION", raising=False)
    ns = make_module("torch", "2024.12")
    assert ns.__name__ == "array_api_strict" and ns.__version__ == MIRRORED_VERSION
    assert ns.get_array_api_strict_flags() == {
        "api_version": "2024.12",
        "boolean_indexing": True,
        "data_dependent_shapes": True,
        "enabled_extensions": ("linalg", "fft"),
    }
    assert ns.Device("CPU_DEVICE") is xp.CPU
    with pytest.raises(RuntimeError, match="isin requires API version 2025.12 or later"):
        ns.isin(ns.asarray([1]), ns.asarray([1]))  # there, as in array-api-strict, and refusing
    a = ns.asarray([1, 2])
    assert a.__array_namespace__() is ns
    # Asking an array for a version sets it globally, as array-api-strict does.
    assert a.__array_namespace__(api_version="2025.12") is ns and ns.isin(a, a).shape == (2,)
    ns.set_array_api_strict_flags(enabled_extensions=("linalg",), data_dependent_shapes=False)
    assert not hasattr(ns, "fft") and hasattr(ns, "linalg")
    with pytest.raises(RuntimeError, match="unique_values: data-dependent shapes are disabled"):
        ns.unique_values(a)
    assert ns.repeat(a, 2).shape == (4,)  # an int repeats is not data-dependent
    with pytest.raises(RuntimeError, match="repeat"):
        ns.repeat(a, ns.asarray([1, 2]))
    ns.reset_array_api_strict_flags()
    assert hasattr(ns, "fft") and ns.unique_values(a).shape == (2,)
    with ns.ArrayAPIStrictFlags(api_version="2021.12"):
        assert ns.__array_api_version__ == "2021.12" and not hasattr(ns, "fft")
        assert not hasattr(ns, "complex64")
    assert ns.__array_api_version__ == "2025.12" and hasattr(ns, "complex64")
    with pytest.raises(ValueError, match="api_version '2030.12' is not supported"):
        ns.set_array_api_strict_flags(api_version="2030.12")
    ns.set_array_api_strict_flags(boolean_indexing=False)
    with pytest.raises(RuntimeError, match="boolean indexing is disabled"):
        a[ns.asarray([True, False])]
    ns.reset_array_api_strict_flags()
    with pytest.raises(ValueError, match="unknown extension"):
        ns.set_array_api_strict_flags(enabled_extensions=("sparse",))
    # Arrays made at another version still combine with the current one's.
    with ns.ArrayAPIStrictFlags(api_version="2023.12"):
        b = ns.asarray([1, 1])
    assert (ns.asarray([1, 2]) + b).shape == (2,)


def test_environment_variables(monkeypatch):
    monkeypatch.setenv("ARRAY_API_STRICT_API_VERSION", "2023.12")
    monkeypatch.setenv("ARRAY_API_STRICT_ENABLED_EXTENSIONS", "fft")
    ns = make_module("array_api")
    assert ns.__array_api_version__ == "2023.12" and hasattr(ns, "fft") and not hasattr(ns, "linalg")
    monkeypatch.setenv("ARRAY_API_STRICT_DATA_DEPENDENT_SHAPES", "maybe")
    with pytest.raises(ValueError, match="ARRAY_API_STRICT_DATA_DEPENDENT_SHAPES"):
        make_module("array_api")


@pytest.mark.parametrize("page", ["README.md", "docs/guide/standin.md"])
def test_documented_consumer_commands_enable_their_array_api_tests(page):
    # scikit-learn and SciPy skip every array-API test unless SCIPY_ARRAY_API is set: a command
    # without it "passes" with nothing run (README's once gave 1 passed, 1094 skipped).
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        commands = [ln for ln in f.read().splitlines() if "array_api_promo.standin" in ln and "--pyargs" in ln]
    assert commands
    for command in commands:
        if "sklearn" in command or "scipy" in command or "$MODS" in command:
            assert command.startswith("SCIPY_ARRAY_API="), command


def test_complex_sign_is_array_api_strict_s_bit_for_bit():
    """array-api-strict's complex ``sign`` is ``x / abs(where(x != 0, x, 1))``, not ``numpy.sign``, whose
    quotient differs in the last place for most finite values (288 of 300 random complex64 arrays of
    marray's distribution): the stand-in computes it so, special values included (``sign(inf + 0j)`` is
    NaN there); the main namespace keeps ``numpy.sign`` with the standard's special cases."""
    array_api_strict = pytest.importorskip("array_api_strict")
    ns = make_module("array_api", name="array_api_strict_sign")
    rng = np.random.default_rng(11)
    special = [0j, complex(0, -0.0), complex(np.inf, 0), complex(np.nan, 1), complex(-np.inf, np.nan), 1e-30 + 1e-30j]
    for dtype in ("complex64", "complex128"):
        values = (rng.standard_normal(500) * 10 + 1j * rng.standard_normal(500) * 10).astype(dtype)
        for data in (values, np.asarray(special, dtype=dtype), values[:7].reshape(7, 1), values[0].reshape(())):
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = np.asarray(array_api_strict.sign(array_api_strict.asarray(data)))
                got = np.asarray(ns.sign(ns.asarray(data)))
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (dtype, data, got, want)
    with np.errstate(all="ignore"):
        assert complex(xp.sign(xp.asarray(complex(np.inf, 0)))) == 1 + 0j  # (the standard's x / |x|)


def test_unstable_argsort_is_array_api_strict_s_order():
    """``argsort(x, stable=False)``: array-api-strict sorts with NumPy's ``kind="quicksort"`` (descending: the
    flipped ``x``'s, flipped back), which orders equal elements otherwise than a stable sort; the stand-in
    gives its indices (random integer data of marray's distribution differ on most draws); with
    ``stable=True``, and in the main namespace, the stable order."""
    array_api_strict = pytest.importorskip("array_api_strict")
    ns = make_module("array_api", name="array_api_strict_argsort")
    rng = np.random.default_rng(5)
    for dtype in ("int8", "int32", "int64", "uint32", "float32", "float64"):
        data = (rng.standard_normal((6, 40)) * 10).astype(dtype)
        for axis in (-1, 0):
            for descending in (False, True):
                for stable in (False, True):
                    kw = dict(axis=axis, descending=descending, stable=stable)
                    want = np.asarray(array_api_strict.argsort(array_api_strict.asarray(data), **kw))
                    got = np.asarray(ns.argsort(ns.asarray(data), **kw))
                    assert got.dtype == want.dtype and np.array_equal(got, want), (dtype, kw)
    ties = np.zeros(40, dtype=np.int64)
    assert np.array_equal(np.asarray(xp.argsort(xp.asarray(ties), stable=False)), np.arange(40))


@pytest.mark.parametrize("which", ["array_api", "torch", "standin"])
def test_in_place_operators_compute_in_place(which):
    """``x *= y`` of two arrays of x's dtype computes into x, as NumPy's in-place operator (array-api-strict's)
    does: NumPy's complex multiply of one element differs in the last place in place and out of place
    (about half of random pairs; 8 of 300 random draws of marray's distribution, sweep of the stand-in),
    and the general path computed out of place and stored (the compiled fast path already wrote into x)."""
    import array_api_promo.torch as tx

    ns = {"array_api": xp, "torch": tx}.get(which) or make_module("array_api", name="array_api_strict_inplace")
    rng = np.random.default_rng(2)
    differ = 0
    for dtype in ("complex64", "complex128", "float32", "float64"):
        for shape, other in [((1,), (1,)), ((3, 1), (1,)), ((4,), (4,)), ((), ())]:
            for _ in range(20):
                a, b = (rng.standard_normal(s) * 10 + 1j * rng.standard_normal(s) * 10 for s in (shape, other))
                a, b = (v.astype(dtype) if dtype.startswith("complex") else v.real.astype(dtype) for v in (a, b))
                want = a.copy()
                want *= b
                differ += not np.array_equal(want, a * b)
                for call in ("first", "second"):  # a signature's first call takes the general path, later ones
                    x = ns.asarray(a.copy())  # the compiled one (not the stand-in's)
                    x *= ns.asarray(b)
                    assert np.asarray(x).tobytes() == want.tobytes(), (dtype, shape, other, call)
    assert differ > 5  # the cases exist on this NumPy
