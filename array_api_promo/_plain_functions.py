"""A namespace's functions as plain Python functions, each standing for a runtime's bound method.

Consumers treat a namespace's functions as array-api-strict's: plain functions that they
copy into namespaces of their own, set attributes on (``__signature__``, ``__doc__``), read
``inspect.signature`` of, and pickle by module and name.  ``_namespace`` makes one function
per public method with :func:`plain_function`.

Each function has its method's signature (names, kinds, defaults, annotations) and forwards
a call in the form it was made: arguments left at their defaults are left out, so that the
method's compiled fast paths (which take only the plain call forms) see the caller's call.
The code sits at the method's file and line (tracebacks, the package's frame checks).
With the compiled module the call does not even run the function's code: ``forward_calls``
sends it straight to the method in C, where the interpreter lets it (CPython 3.10 and 3.12+;
3.11 runs a Python function's code itself, one small frame).  The code of a method's
function is made once per process, when the first namespace is built.
"""

from __future__ import annotations

import types

from . import _core

__all__ = ["plain_function"]

_CO_VARARGS, _CO_VARKEYWORDS = 0x04, 0x08
# method's function -> the factory that makes a plain function forwarding to a bound method of it
_FACTORIES: dict = {}


def plain_function(method, name: str, module_name: str) -> types.FunctionType:
    """``method`` (a runtime's bound method) as the function ``name`` of the namespace module ``module_name``."""
    function_of_method = _python_function(method.__func__)
    factory = _FACTORIES.get(function_of_method)
    if factory is None:
        factory = _FACTORIES[function_of_method] = _make_factory(function_of_method)
    function = factory(method)
    function.__name__ = function.__qualname__ = name
    function.__module__ = module_name
    function.__doc__ = method.__doc__
    function.__annotations__ = {k: v for k, v in function_of_method.__annotations__.items() if k != "self"}
    _core.forward_calls(function)
    return function


def _python_function(func):
    """The Python function under a compiled fast path (``fast_path`` keeps it as ``__wrapped__``)."""
    while not isinstance(func, types.FunctionType):
        func = func.__wrapped__
    return func


def _make_factory(func: types.FunctionType):
    """``factory(target)``: a function with ``func``'s signature, less ``self``, calling ``target``."""
    code = func.__code__
    names = code.co_varnames
    n_positional, n_kwonly = code.co_argcount, code.co_kwonlyargcount
    positional = list(names[1:n_positional])  # self is the bound method's
    kwonly = list(names[n_positional : n_positional + n_kwonly])
    at = n_positional + n_kwonly
    varargs = names[at] if code.co_flags & _CO_VARARGS else None
    varkw = names[at + bool(varargs)] if code.co_flags & _CO_VARKEYWORDS else None
    if "target" in names or "factory" in names:
        raise TypeError(f"{func.__qualname__}: a parameter named 'target' or 'factory' would shadow the forwarding")
    defaults = func.__defaults__ or ()
    kwdefaults = func.__kwdefaults__ or {}
    # The defaults are the method's own objects, named d_<parameter> in the code's globals.
    scope: dict = {"__builtins__": __builtins__}
    first_default = len(positional) - len(defaults)
    params = []
    for i, p in enumerate(positional):
        if i >= first_default:
            scope[f"d_{p}"] = defaults[i - first_default]
            params.append(f"{p}=d_{p}")
        else:
            params.append(p)
        if i + 2 == code.co_posonlyargcount:
            params.append("/")
    if varargs:
        params.append(f"*{varargs}")
    elif kwonly:
        params.append("*")
    for p in kwonly:
        if p in kwdefaults:
            scope[f"d_{p}"] = kwdefaults[p]
            params.append(f"{p}=d_{p}")
        else:
            params.append(p)
    if varkw:
        params.append(f"**{varkw}")

    star = [f"*{varargs}"] if varargs else []

    def call(args, keywords):
        return f"return target({', '.join(args + keywords)})"

    optional_kw = [p for p in kwonly if p in kwdefaults]
    required_kw = [f"{p}={p}" for p in kwonly if p not in kwdefaults]
    all_kw = [f"{p}={p}" for p in kwonly] + ([f"**{varkw}"] if varkw else [])
    lines = [f"def {func.__name__}({', '.join(params)}):"]
    indent = "    "
    if optional_kw and not varkw:
        lines.append(f"    if {' and '.join(f'{p} is d_{p}' for p in optional_kw)}:")
        indent = "        "
    if not varkw:
        # trailing positional arguments at their defaults left out, the longest run first
        n_defaulted = 0 if varargs else len(positional) - first_default
        for k in range(n_defaulted, 0, -1):
            kept, dropped = positional[: len(positional) - k], positional[len(positional) - k :]
            lines.append(f"{indent}if {' and '.join(f'{p} is d_{p}' for p in dropped)}:")
            lines.append(f"{indent}    {call(kept + star, required_kw)}")
        lines.append(f"{indent}{call(positional + star, required_kw)}")
    if optional_kw or varkw:
        lines.append(f"    {call(positional + star, all_kw)}")
    source = "def factory(target):\n" + "".join(f"    {line}\n" for line in lines) + f"    return {func.__name__}\n"
    # Placed at the method's own file and line: a traceback's frame of it (3.11) shows the method's
    # definition, and the package's frame checks (the audit's user frame, warnings) count it as ours.
    source = "\n" * max(code.co_firstlineno - 2, 0) + source
    exec(compile(source, code.co_filename, "exec"), scope)
    return scope["factory"]
