"""Every namespace's public functions are plain Python functions, as array-api-strict's are.

Consumers copy them into namespaces of their own and set ``__signature__`` and ``__doc__`` on
them (marray's ``masked_namespace``), read ``inspect.signature``, and pickle them by name.  Each
forwards a call to its runtime's method in the form it was made (arguments at their defaults
left out), so the method's compiled fast paths see the caller's call.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import inspect
import io
import pickle
import types

import pytest

import array_api_promo as xp
import array_api_promo.torch as tx
from array_api_promo import _core, namespace
from array_api_promo._plain_functions import plain_function
from array_api_promo.promotion import ArrayAPIPolicy
from array_api_promo.standin import make_module


class _UserPolicy(ArrayAPIPolicy):
    name = "plain_functions_user_policy"


def _namespaces():
    out = [
        pytest.param(xp, id="xp"),
        pytest.param(tx, id="torch"),
        pytest.param(namespace("numpy", "2023.12"), id="numpy-2023.12"),
        pytest.param(namespace("jax", "2021.12"), id="jax-2021.12"),
        pytest.param(namespace(_UserPolicy()), id="user-policy"),
        pytest.param(make_module(name="array_api_strict_plain_functions_test"), id="standin"),
    ]
    with contextlib.suppress(ImportError):  # the dask extra
        out.append(pytest.param(namespace("torch", storage="dask"), id="torch-dask"))
    return out


# the package module's own functions beside its namespace's (array_api_promo.namespace, .audit)
_PACKAGE_EXTRAS = ("namespace", "audit")


def _public_functions(ns):
    """(dotted name, function) of every callable the namespace lists, its extensions' too."""
    found = []
    for name in ns.__all__:
        value = getattr(ns, name)
        if isinstance(value, types.ModuleType) and name in ("linalg", "fft"):
            found += [(f"{name}.{sub}", getattr(value, sub)) for sub in value.__all__]
        elif isinstance(value, types.ModuleType):
            continue
        elif callable(value) and not isinstance(value, type) and name not in _PACKAGE_EXTRAS:
            found.append((name, value))
    return found


@pytest.mark.parametrize("ns", _namespaces())
def test_every_public_function_is_a_plain_function(ns):
    functions = _public_functions(ns)
    assert len(functions) > 100
    for dotted, func in functions:
        assert isinstance(func, types.FunctionType), (dotted, type(func))
        # every attribute is the function type's (CPython 3.11's forwarding subclass adds only these)
        if type(func) is not types.FunctionType:
            assert set(vars(type(func))) <= {"__call__", "__reduce__"}, (dotted, vars(type(func)))
        assert not isinstance(func, types.MethodType), dotted
        assert func.__name__ == dotted.rpartition(".")[2], (dotted, func.__name__)
        assert func.__qualname__ == func.__name__, dotted
        owner = ns if "." not in dotted else getattr(ns, dotted.partition(".")[0])
        module = f"{ns.__name__}._flags" if dotted.endswith("_array_api_strict_flags") else owner.__name__
        assert func.__module__ == module, (dotted, func.__module__)
        assert (func.__doc__ or "").strip().splitlines()[0], f"{dotted} has no docstring"
        inspect.signature(func)  # readable


def test_attributes_can_be_set_as_consumers_do():
    """marray's masked_namespace sets __signature__, __doc__ and __name__ on the functions it copies."""
    ns = namespace("numpy", "2024.12")
    func = ns.sum
    signature = inspect.signature(func)
    doc, name = func.__doc__, func.__name__
    try:
        func.__signature__ = signature
        func.__doc__ = "Masked: " + doc
        func.__name__ = name
        func.some_attribute = 1
        assert inspect.signature(func) is signature
        assert func.__doc__.startswith("Masked: ")
    finally:
        del func.__signature__, func.some_attribute
        func.__doc__ = doc


def test_signatures_are_the_methods():
    for name in ("add", "asarray", "arange", "astype", "sum", "meshgrid", "broadcast_arrays", "reshape", "clip"):
        method = getattr(xp._runtime, name)
        assert inspect.signature(getattr(xp, name)) == inspect.signature(method), name
    assert inspect.signature(xp.linalg.solve) == inspect.signature(xp._runtime.linalg_solve)


@pytest.mark.parametrize(
    "func, name",
    [(xp.add, "add"), (xp.linalg.solve, "solve"), (xp.fft.fft, "fft"), (tx.sum, "sum"), (xp.asarray, "asarray")],
)
def test_functions_of_importable_namespaces_pickle_by_name(func, name):
    assert pickle.loads(pickle.dumps(func)) is func
    stream = io.BytesIO()
    pickle._Pickler(stream).dump(func)  # the pure-Python pickler too
    assert pickle.loads(stream.getvalue()) is func
    assert copy.copy(func) is func and copy.deepcopy(func) is func  # as for any function
    assert func.__name__ == name


def test_functions_bind_as_functions_do():
    class Holder:
        asarray = xp.asarray
        static_sum = staticmethod(xp.sum)

    holder = Holder()
    assert holder.asarray.__self__ is holder  # a bound method, as a function in a class body gives
    assert float(holder.static_sum(xp.asarray([1.0, 2.0]))) == 3.0


class _Recorder:
    """Stands for a runtime: its method records the call's form."""

    def method(self, x, /, shape=None, step=1, *, dtype=None, copy=True):
        """Records."""
        return ("called", x, shape, step, dtype, copy)

    def variadic(self, *arrays, indexing="xy"):
        """Records."""
        return ("variadic", arrays, indexing)


class _Spy:
    """A bound-method stand-in that sees the positional and keyword arguments it gets."""

    def __init__(self, method):
        self.__func__ = method.__func__
        self.__doc__ = method.__doc__
        self.calls = []

    def __call__(self, *args, **kwargs):
        self.calls.append((args, kwargs))
        return len(self.calls)


@pytest.mark.parametrize(
    "call, made, expected",
    [
        (lambda f: f(1), ((1,), {}), ((1,), {})),
        (lambda f: f(1, (2,)), ((1, (2,)), {}), ((1, (2,)), {})),
        (lambda f: f(1, shape=(2,)), ((1,), {"shape": (2,)}), ((1, (2,)), {})),
        (lambda f: f(1, None, 3), ((1, None, 3), {}), ((1, None, 3), {})),
        (lambda f: f(1, step=3), ((1,), {"step": 3}), ((1, None, 3), {})),
        (lambda f: f(1, dtype="d"), ((1,), {"dtype": "d"}), ((1, None, 1), {"dtype": "d", "copy": True})),
        (lambda f: f(1, copy=False), ((1,), {"copy": False}), ((1, None, 1), {"dtype": None, "copy": False})),
    ],
)
def test_a_call_is_forwarded_in_the_form_it_was_made(call, made, expected):
    # Forwarded in C (with the compiled module) the method gets the call as made; through the
    # function's code (pure Python), with the arguments at their defaults left out.
    spy = _Spy(_Recorder().method)
    func = plain_function(spy, "method", __name__)
    call(func)
    assert spy.calls in ([made], [expected])
    assert str(inspect.signature(func)) == "(x, /, shape=None, step=1, *, dtype=None, copy=True)"


def test_variadic_calls_are_forwarded():
    spy = _Spy(_Recorder().variadic)
    func = plain_function(spy, "variadic", __name__)
    func(1, 2)
    func(1, 2, indexing="ij")
    assert spy.calls == [((1, 2), {}), ((1, 2), {"indexing": "ij"})]


def test_wrong_calls_raise_the_methods_errors():
    a = xp.asarray([1.0, 2.0])
    with pytest.raises(TypeError, match="add"):
        xp.add(a)
    with pytest.raises(TypeError):
        xp.sum(a, nope=1)


@pytest.mark.skipif(not _core.COMPILED, reason="the compiled module forwards calls in C")
def test_compiled_forwarding_does_not_run_the_functions_code():
    def make(target):
        def function(*args, **kwargs):
            raise AssertionError("the function's own code ran")
            return target(*args, **kwargs)  # the cell the forwarding reads

        return function

    func = make(lambda *args, **kwargs: (args, kwargs))
    _core.forward_calls(func)
    # called from C (functools.partial) and from Python code: CPython 3.11 runs an exact function's
    # code itself there, so on 3.11 the function's type is a subclass whose calls go by vectorcall
    assert functools.partial(func, 1)(2, k=3) == ((1, 2), {"k": 3})
    assert func(2, k=3) == ((2,), {"k": 3})
    assert isinstance(func, types.FunctionType) and inspect.isfunction(func)
    del func.__closure__[0].cell_contents
    with pytest.raises(RuntimeError, match="no longer has the function it stands for"):
        functools.partial(func)()
    with pytest.raises(TypeError, match="one filled cell"):
        _core.forward_calls(lambda: None)
