"""The shape of the house: imports form a plain chain, operators live in Array, rules have one home."""

from __future__ import annotations

import ast
import pathlib
import pickle
import subprocess
import sys
import traceback

import numpy as np
import pytest

import array_api_promo as xp
from array_api_promo import _core, _dtypes as D, promotion
from array_api_promo._array import Array

PACKAGE = pathlib.Path(xp.__file__).parent


# -- imports -------------------------------------------------------------------------------------
def _module_name(path: pathlib.Path, package: pathlib.Path = PACKAGE) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph(package: pathlib.Path = PACKAGE) -> dict[str, set[str]]:
    """``module -> package modules it imports``, module-level and inside functions alike.

    ``from . import x`` counts as an import of the submodule ``x`` when there is one;
    the implicit import of a package's ``__init__`` by its submodules is Python's
    machinery, not an edge.
    """
    modules = {_module_name(p, package): p for p in package.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            else:
                continue
            edges.update(t for t in targets if t in modules and t != name)
        graph[name] = edges
    return graph


def _cycles(graph):
    cycles, state, stack = [], {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                cycles.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return cycles


def test_no_import_cycle_among_the_package_modules():
    graph = _import_graph()
    assert "array_api_promo._array" in graph and len(graph) > 20
    assert _cycles(graph) == []


def test_no_import_cycle_in_the_harness():
    """The harness imports one way too (library ran in a circle with library_report once)."""
    graph = _import_graph()
    harness = "array_api_promo.conformance"
    assert f"{harness}.library" in graph and f"{harness}.library_report" in graph
    assert _cycles(graph) == []
    assert f"{harness}.library" not in graph[f"{harness}.library_report"]


def test_the_namespace_does_not_import_the_harness():
    graph = _import_graph()
    harness = "array_api_promo.conformance"
    leaks = {m: sorted(t for t in ts if t.startswith(harness)) for m, ts in graph.items() if not m.startswith(harness)}
    assert not {m: ts for m, ts in leaks.items() if ts}


def test_the_array_module_imports_neither_the_runtime_nor_the_namespace():
    allowed = {"array_api_promo._devices", "array_api_promo._dtypes", "array_api_promo._core"}
    assert _import_graph()["array_api_promo._array"] <= allowed
    # _core itself imports only the compiled module
    assert _import_graph()["array_api_promo._core"] <= {"array_api_promo._fastpath"}


def test_function_mixins_inherit_the_runtime_base():
    from array_api_promo._namespace import _MIXINS
    from array_api_promo._runtime import RuntimeBase

    assert all(issubclass(m, RuntimeBase) for m in _MIXINS)


MAX_CLASS_LINES = 500  # a class past this does more than one job: split it along its seams (a mixin per job)


def test_no_class_of_the_package_is_over_500_lines():
    too_long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > MAX_CLASS_LINES:
                lines = node.end_lineno - node.lineno + 1
                too_long.append(f"{path.relative_to(PACKAGE.parent)}: {node.name} ({lines} lines)")
    assert not too_long, "\n".join(too_long)


def test_mixins_composed_by_a_function_mixin_give_the_namespace_their_functions():
    """The public methods of the mixins a category's class composes (creation: from data, fills,
    ranges) are the namespace's too."""
    from array_api_promo._namespace import PUBLIC_METHODS

    composed = {"asarray", "zeros_like", "arange", "clip", "where", "concat", "unstack", "linalg_svd", "linalg_qr"}
    assert composed <= set(PUBLIC_METHODS)
    assert callable(xp.full_like) and callable(xp.meshgrid) and callable(xp.linalg.qr) and callable(xp.unstack)


def _run_fresh(code: str) -> subprocess.CompletedProcess:
    """``code`` run in a fresh interpreter importing this checkout."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=PACKAGE.parent,
        env={"PYTHONPATH": str(PACKAGE.parent)},
    )


def test_missing_ml_dtypes_fails_at_first_use_with_its_name():
    # (array_api_promo.torch runs on its first use: importlib's LazyLoader, see the package's _on_first_use)
    proc = _run_fresh("import sys; sys.modules['ml_dtypes'] = None\nimport array_api_promo.torch as tx\ntx.add")
    assert proc.returncode != 0
    assert "ModuleNotFoundError" in proc.stderr and "ml_dtypes" in proc.stderr


def _fresh(code: str) -> str:
    """What ``code`` prints in a fresh interpreter importing this checkout."""
    proc = _run_fresh(code)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


# What loads on first use (for the import time) is still there when first used.
FIRST_USES = [
    "import array_api_promo as xp; print(xp.torch.__name__ == 'array_api_promo.torch')",
    "import array_api_promo as xp; print(xp.namespace('torch') is xp.torch)",
    "import array_api_promo as xp; print(hasattr(xp, 'torch') and 'torch' in dir(xp))",
    "from array_api_promo import promotion as P; print(P.get_policy('jax').table is P.JAX_LATTICE_X32)",
    "from array_api_promo import promotion as P; print(P.NumPyPolicy is P.numpy.NumPyPolicy)",
    "from array_api_promo import promotion as P; print(set(P.__all__) <= set(dir(P)))",
    "from array_api_promo import promotion as P; print(len(P.available_policies()) == 12)",
    "import pickle, array_api_promo._dtypes as D; print(pickle.loads(pickle.dumps(D.bfloat16)).numpy.name == 'bfloat16')",
    "import ml_dtypes, numpy as np, array_api_promo as xp; print(xp.torch.asarray(np.ones(2, ml_dtypes.bfloat16)).dtype"
    " is xp.torch.bfloat16)",
    "import array_api_promo as xp; print(xp.namespace('jax').finfo(xp.namespace('jax').bfloat16).bits == 16)",
]


@pytest.mark.parametrize("code", FIRST_USES)
def test_what_loads_on_first_use_is_there(code):
    assert _fresh(code) == "True"


# Modules `import array_api_promo` leaves for first use: milliseconds of its import time.
LOADED_ON_FIRST_USE = [
    "array_api_promo.torch",
    "array_api_promo.promotion.jax",
    "array_api_promo.promotion.numpy",
    "array_api_promo.promotion.numpy_legacy",
    "ml_dtypes",
    "array_api_promo._dask",
    "dask",
]


def test_the_package_import_leaves_some_modules_for_first_use():
    # a module made for its first use (importlib's LazyLoader) has not run: its class is still the lazy one
    code = (
        "import sys, types, array_api_promo\n"
        f"print([m for m in {LOADED_ON_FIRST_USE!r} if m in sys.modules and"
        " object.__getattribute__(sys.modules[m], '__class__') is types.ModuleType])"
    )
    assert _fresh(code) == "[]"


def test_the_package_has_no_module_getattr():
    """CPython 3.11-3.13 specialise no attribute load on a module with a ``__getattr__``: each
    ``xp.add`` would pay a dictionary lookup and the hook's check (about 18 ns)."""
    assert "__getattr__" not in vars(xp)


# -- operators -----------------------------------------------------------------------------------
OPERATORS = [
    "__add__",
    "__radd__",
    "__iadd__",
    "__sub__",
    "__rsub__",
    "__isub__",
    "__mul__",
    "__matmul__",
    "__truediv__",
    "__floordiv__",
    "__mod__",
    "__pow__",
    "__and__",
    "__or__",
    "__xor__",
    "__lshift__",
    "__rshift__",
    "__rlshift__",
    "__irshift__",
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__neg__",
    "__pos__",
    "__abs__",
    "__invert__",
]


@pytest.mark.parametrize("dunder", OPERATORS)
def test_operators_are_defined_in_the_class_body_with_their_names(dunder):
    method = vars(Array)[dunder]
    assert method.__name__ == dunder and method.__qualname__ == f"Array.{dunder}"
    # with the compiled fast paths, the Python function they mirror (and call for the rest)
    function = method.fallback if _core.COMPILED else method
    assert function.__code__.co_name == dunder
    assert method.__module__ == function.__module__ == "array_api_promo._array"
    assert vars(Array)["__hash__"] is None


def test_tracebacks_name_the_operator():
    a = xp.asarray([1, 2], dtype=xp.int8)
    with pytest.raises(TypeError) as info:
        a + xp.asarray([True, False])
    names = [frame.name for frame in traceback.extract_tb(info.value.__traceback__)]
    assert "__add__" in names and "op" not in names


def test_pickling_and_other_versions_go_through_the_runtime():
    a = xp.torch.asarray([1.0, 2.0])
    b = pickle.loads(pickle.dumps(a))
    assert b.__array_namespace__() is xp.torch and np.asarray(b).tolist() == [1.0, 2.0]
    assert a.__array_namespace__(api_version="2023.12") is xp.namespace("torch", "2023.12")
    assert xp.namespace("torch") is xp.torch


# -- one home per rule -----------------------------------------------------------------------------
def test_wrap_around_and_range_check_live_in_the_policy_base():
    P = promotion.Policy
    assert P.wrap_int(1000, D.int8) == -24 and P.wrap_int(-1, D.uint8) == 255 and P.wrap_int(2**64, D.uint64) == 0
    assert P.int_fits(127, D.int8) and not P.int_fits(128, D.int8) and P.int_fits(2**64 - 1, D.uint64)
    with pytest.raises(OverflowError, match=r"add: Python int 128 is out of bounds for int8 \[-128, 127\]"):
        promotion.get_policy("array_api").check_int_range(128, D.int8, "add")
    with pytest.raises(OverflowError, match="Python integer 128 out of bounds for int8"):
        promotion.get_policy("numpy").check_int_range(128, D.int8, "add")
    with pytest.raises(OverflowError, match="too large for JAX's default integer int32"):
        promotion.get_policy("jax").check_scalar_value(2**31, "add")
    # torch and JAX convert by the one wrap-around
    assert promotion.get_policy("torch").convert_scalar(1000, D.int8).item() == -24
    assert promotion.get_policy("jax").convert_scalar(1000, D.int8).item() == -24


def test_jax_sign_refuses_bool_and_accepts_complex():
    jx = xp.namespace("jax")
    with pytest.raises(TypeError, match="sign: JAX does not accept bool"):
        jx.sign(jx.asarray([True]))
    assert jx.sign(jx.asarray([1 + 1j], dtype=jx.complex64)).dtype is jx.complex64


def test_storage_substitutions_are_read_by_the_torch_policy():
    class WideComplexHalf(promotion.TorchPolicy):
        storage_substitutions = {"complex32": D.complex128}

    policy = WideComplexHalf()
    policy.name = "torch_wide_complex_half"
    assert promotion.get_policy("torch").result_type(D.float16, 1j) is D.complex64
    assert policy.result_type(D.float16, 1j) is D.complex128


class _Hooks(promotion.ArrayAPIPolicy):
    """The dtype decisions outside promotion proper are policy hooks a user policy can change."""

    name = "hooks_test"

    def astype_allowed(self, from_, to):
        return True

    def complex_of(self, dtype):
        return D.complex128

    def versioned_accumulation(self, op, result, api_version):
        return D.float64 if result is D.float32 else result


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
def test_dtype_decisions_are_policy_hooks():
    policy = promotion.register_policy(_Hooks(), replace=True)
    ns = xp.namespace(policy)
    z = ns.asarray([1 + 2j], dtype=ns.complex64)
    assert ns.astype(z, ns.float32).dtype is ns.float32
    assert ns.linalg.eigvals(ns.eye(2, dtype=ns.float32)).dtype is ns.complex128
    assert ns.sum(ns.ones(3, dtype=ns.float32)).dtype is ns.float64
    # the standard's defaults, unchanged
    with pytest.raises(TypeError, match="complex64 to float32 is not allowed"):
        xp.astype(xp.asarray([1j], dtype=xp.complex64), xp.float32)
    assert xp.linalg.eigvals(xp.eye(2, dtype=xp.float32)).dtype is xp.complex64
    assert xp.sum(xp.ones(3, dtype=xp.float32)).dtype is xp.float32
    old = xp.namespace("array_api", "2022.12")
    assert old.sum(old.ones(3, dtype=old.float32)).dtype is old.float64


def test_no_module_imports_another_modules_underscore_name():
    """Modules talk through interfaces: a name one module takes from another is public (modules of the
    package may be private, ``from . import _dtypes``; a name inside one may not)."""
    import ast
    import importlib.util
    import pathlib

    root = pathlib.Path(__file__).resolve().parent.parent / "array_api_promo"
    found = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        package = parts[:-1] if path.name != "__init__.py" else parts[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = list(package[: len(package) - node.level + 1])
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if not module.startswith("array_api_promo"):
                continue
            for alias in node.names:
                name = alias.name
                if not name.startswith("_") or (name.startswith("__") and name.endswith("__")):
                    continue
                if importlib.util.find_spec(f"{module}.{name}") is None:  # a module of the package is fine
                    found.append(f"{path.relative_to(root.parent)}: {name} from {module}")
    assert not found, "\n".join(found)
