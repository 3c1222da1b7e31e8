"""The Dask runtime's package: its shape, its namespace's signatures, and its error without dask.

* Without dask installed, ``namespace(..., storage="dask")`` names the extra to install.
* The Dask namespace's functions have the NumPy namespace's signatures (names, kinds, defaults,
  annotations) and summaries; the only extra parameter is ``chunks`` of the creation functions
  (documented in docs/guide/dask.md and in each function's summary).
* ``array_api_promo/_dask/``: every module says what it is for, no class is over 500 lines, and
  no module imports another module's underscore name (the three mixin helpers below aside).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import os
import pkgutil
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

import array_api_promo as app

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "array_api_promo" / "_dask"


def test_without_dask_the_error_names_the_extra():
    code = textwrap.dedent(
        """
        import sys

        class NoDask:  # as if dask were not installed
            def find_spec(self, name, path=None, target=None):
                if name == "dask" or name.startswith("dask."):
                    raise ModuleNotFoundError(f"No module named {name!r}", name=name)

        sys.meta_path.insert(0, NoDask())
        import array_api_promo

        array_api_promo.namespace("torch")  # the NumPy storage needs no dask
        try:
            array_api_promo.namespace("torch", storage="dask")
        except ModuleNotFoundError as exc:
            print(exc.name)
            print(exc)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    name, message = proc.stdout.splitlines()
    assert name == "dask"
    assert "pip install 'array_api_promo[dask]'" in message and "No module named 'dask'" in message, message


# -- signatures ----------------------------------------------------------------------------------
pytest.importorskip("dask.array")

from array_api_promo._dask.base import EXTRA_PARAMETERS  # noqa: E402
from array_api_promo._dask.runtime import DaskRuntime  # noqa: E402
from array_api_promo._namespace import Runtime  # noqa: E402

# The functions that take ``chunks=``: the creation functions that make an array from no array of ours.
WITH_CHUNKS = {
    "arange",
    "asarray",
    "empty",
    "empty_like",
    "eye",
    "full",
    "full_like",
    "linspace",
    "ones",
    "ones_like",
    "zeros",
    "zeros_like",
}
# linalg's aliases of main-namespace functions: the NumPy runtime's methods, which call the Dask ones.
INHERITED_ALIASES = {"linalg_matmul", "linalg_matrix_transpose", "linalg_tensordot", "linalg_vecdot"}


def _functions(ns) -> dict:
    out = {}
    for name in ns.__all__:
        value = getattr(ns, name)
        if name in ("linalg", "fft"):
            out.update({f"{name}.{sub}": getattr(value, sub) for sub in value.__all__})
        elif isinstance(value, types.FunctionType):
            out[name] = value
    return out


@pytest.mark.parametrize(("policy", "version"), [("array_api", "2025.12"), ("torch", "2023.12"), ("numpy", "2022.12")])
def test_the_dask_namespace_has_the_numpy_namespaces_signatures_and_summaries(policy, version):
    numpy_functions = _functions(app.namespace(policy, version))
    dask_functions = _functions(app.namespace(policy, version, storage="dask"))
    numpy_functions.pop("namespace", None)  # the package module's own
    assert set(dask_functions) - set(numpy_functions) == {"compute", "persist"}
    assert set(numpy_functions) <= set(dask_functions)
    extended = set()
    for name, numpy_function in numpy_functions.items():
        signature = inspect.signature(dask_functions[name])
        extra = [p for p in signature.parameters if p in EXTRA_PARAMETERS]
        if extra:
            extended.add(name)
            signature = signature.replace(parameters=[p for p in signature.parameters.values() if p.name not in extra])
        assert signature == inspect.signature(numpy_function), name  # annotations included
        summary = "\n\n".join([numpy_function.__doc__, *(EXTRA_PARAMETERS[p][1] for p in extra)])
        assert dask_functions[name].__doc__ == summary, name
    assert extended == WITH_CHUNKS & set(numpy_functions)
    for name in extended:
        parameter = inspect.signature(dask_functions[name]).parameters["chunks"]
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY and parameter.annotation is not inspect.Parameter.empty


def test_every_linalg_and_fft_method_is_the_dask_runtimes_or_an_alias_that_calls_one():
    names = [n for n in dir(Runtime) if n.startswith(("linalg_", "fft_"))]
    inherited = {n for n in names if getattr(DaskRuntime, n) is getattr(Runtime, n)}
    assert inherited == INHERITED_ALIASES


# -- the package's shape ---------------------------------------------------------------------------
MODULES = sorted(info.name for info in pkgutil.iter_modules([str(PACKAGE)]))
# Helpers of the NumPy runtime's mixins the package imports until those modules give them public names.
PRIVATE_IMPORTS: set = set()  # (none: the NumPy mixins' helpers it uses are public)


def test_the_package_has_one_module_per_group_over_shared_ones():
    assert MODULES == [
        "along_axis",
        "base",
        "blocks",
        "blockwise",
        "contractions",
        "creation",
        "indexing",
        "manipulation",
        "reductions",
        "runtime",
    ]


@pytest.mark.parametrize("name", ["__init__", *MODULES])
def test_every_module_says_what_it_is_for(name):
    tree = ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree)
    assert doc and len(doc.splitlines()[0]) > 20, name


@pytest.mark.parametrize("name", MODULES)
def test_no_class_is_over_500_lines(name):
    tree = ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            assert node.end_lineno - node.lineno + 1 <= 500, (name, node.name)


@pytest.mark.parametrize("name", MODULES)
def test_no_module_imports_another_modules_underscore_name(name):
    module = importlib.import_module(f"array_api_promo._dask.{name}")
    tree = ast.parse(inspect.getsource(module))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = importlib.import_module(
                importlib.util.resolve_name("." * node.level + (node.module or ""), module.__package__)
            )
            for alias in node.names:
                value = getattr(source, alias.name)
                if alias.name.startswith("_") and not isinstance(value, types.ModuleType):  # a module is its own
                    found.add((name, alias.name))
    assert found == {(m, n) for m, n in PRIVATE_IMPORTS if m == name}
