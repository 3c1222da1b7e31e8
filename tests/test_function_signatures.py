"""Every function of the default namespace has the standard's signature, annotated, and a summary line.

The reference is array-api-strict (its ``inspect.signature``, which follows the standard): the
parameter names, kinds and defaults must be its own, and every parameter it annotates must be
annotated here too, as must every return. Only ``inspect.signature`` and ``__doc__`` are read, so
the namespace's functions may be bound methods of the runtime or plain functions alike.
"""

from __future__ import annotations

import inspect

import pytest

import array_api_promo as xp

strict = pytest.importorskip("array_api_strict")

# Callables of the package module that are not functions of the standard.
PACKAGE_EXTRAS = {"audit", "namespace"}
# array-api-strict's own functions, outside the standard.
STRICT_EXTRAS = {"get_array_api_strict_flags", "reset_array_api_strict_flags", "set_array_api_strict_flags"}
# Where array-api-strict's default is a sentinel of its own (``Undef``: "not given", told apart from
# None); the standard's default, and ours, is None.
SENTINEL_DEFAULTS = {
    ("astype", "device"),
    ("from_dlpack", "device"),
    ("from_dlpack", "copy"),
}


def _functions(module, prefix: str = "") -> dict:
    """``{dotted name: function}`` of the public functions of a namespace module (no classes, no dtypes)."""
    out = {}
    for name in module.__all__:
        value = getattr(module, name)
        if callable(value) and not isinstance(value, type) and type(value).__name__ != "DType":
            out[prefix + name] = value
    return out


def _namespace_functions(ns) -> dict:
    functions = _functions(ns)
    functions.update(_functions(ns.linalg, "linalg."))
    functions.update(_functions(ns.fft, "fft."))
    return functions


OURS = {name: f for name, f in _namespace_functions(xp).items() if name not in PACKAGE_EXTRAS}
STRICT = {name: f for name, f in _namespace_functions(strict).items() if name not in STRICT_EXTRAS}


def _parameters(function) -> list[tuple]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


def test_the_namespace_has_every_function_array_api_strict_has():
    assert set(STRICT) <= set(OURS)
    assert len(OURS) > 170  # (the test below reads them all)


@pytest.mark.parametrize("name", sorted(set(STRICT) & set(OURS)))
def test_parameters_are_array_api_stricts(name):
    ours, theirs = inspect.signature(OURS[name]), inspect.signature(STRICT[name])
    expected = []
    for p in theirs.parameters.values():
        default = p.default
        if (name, p.name) in SENTINEL_DEFAULTS:
            assert type(default).__name__ == "Undef", f"{name}: {p.name}'s default is no longer a sentinel"
            default = None
        expected.append((p.name, p.kind, default))
    assert _parameters(OURS[name]) == expected, f"{name}{ours} is not {name}{theirs}"


@pytest.mark.parametrize("name", sorted(set(STRICT) & set(OURS)))
def test_what_array_api_strict_annotates_is_annotated(name):
    ours = inspect.signature(OURS[name])
    theirs = inspect.signature(STRICT[name])
    annotated = [p.name for p in theirs.parameters.values() if p.annotation is not p.empty]
    missing = [n for n in annotated if ours.parameters[n].annotation is inspect.Parameter.empty]
    assert not missing, f"{name}{ours}: {missing} not annotated"
    assert ours.return_annotation is not inspect.Signature.empty, f"{name}{ours}: no return annotation"


@pytest.mark.parametrize("name", sorted(set(OURS) - set(STRICT)))
def test_functions_array_api_strict_lacks_are_annotated_throughout(name):
    # the standard's later functions (linalg.eig, linalg.eigvals): every parameter and the return
    signature = inspect.signature(OURS[name])
    assert all(p.annotation is not p.empty for p in signature.parameters.values()), f"{name}{signature}"
    assert signature.return_annotation is not signature.empty, f"{name}{signature}"


@pytest.mark.parametrize("name", sorted(OURS))
def test_every_function_has_a_summary_line(name):
    doc = OURS[name].__doc__
    assert doc and doc.splitlines()[0].strip(), f"{name}: no one-line summary opens its docstring"
