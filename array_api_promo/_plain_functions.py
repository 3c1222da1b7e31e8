"""A namespace's functions as plain Python functions, each standing for a runtime's bound method.

Consumers treat a namespace's functions as array-api-strict's: plain functions that they
copy into namespaces of their own, set attributes on (``__signature__``, ``__doc__``), read
``inspect.signature`` of, and pickle by module and name.  ``_namespace`` makes one function
per public method with :func:`plain_function`.

Each function has its method's signature (names, kinds, defaults, annotations) and forwards
a call in the form it was made: arguments left at their defaults are left out, so that the
method's compiled fast paths (which take only the plain call forms) see the caller's call.
With the compiled module the call does not even run the function's code: ``forward_calls``
sends it straight to the method in C (on CPython 3.11, whose interpreter runs an exact
function's code itself, by making the function an instance of a subclass of the function
type).  The code is compiled once per signature shape (about twenty) and renamed per method.
"""

from __future__ import annotations

import inspect
import types

from . import _core

__all__ = ["plain_function"]

_CO_VARARGS, _CO_VARKEYWORDS = 0x04, 0x08
# method's function -> the factory that makes a plain function forwarding to a bound method of it
_FACTORIES: dict = {}
# a signature's shape -> the code of its factory (see _template)
_TEMPLATES: dict = {}


def plain_function(method, name: str, module_name: str) -> types.FunctionType:
    """``method`` (a runtime's bound method) as the function ``name`` of the namespace module ``module_name``."""
    function_of_method = _python_function(method.__func__)
    factory = _FACTORIES.get(function_of_method)
    if factory is None:
        factory = _FACTORIES[function_of_method] = _make_factory(function_of_method)
        # A call that does not bind (a missing or extra argument) is refused by whichever runs
        # first, the function's code or, forwarded in C, the method's: both name the function
        # as array-api-strict's errors do ("fftshift() missing 1 required positional argument").
        function_of_method.__qualname__ = name
    function = factory(method)
    function.__name__ = function.__qualname__ = name
    function.__module__ = module_name
    # an override without a docstring (a storage's runtime) has the method's it overrides
    function.__doc__ = method.__doc__ or inspect.getdoc(method)
    function.__annotations__ = {k: v for k, v in function_of_method.__annotations__.items() if k != "self"}
    _core.forward_calls(function)
    return function


def _python_function(func):
    """The Python function under a compiled fast path (``fast_path`` keeps it as ``__wrapped__``)."""
    while not isinstance(func, types.FunctionType):
        func = func.__wrapped__
    return func


def _make_factory(func: types.FunctionType):
    """``factory(target)``: a function with ``func``'s signature, less ``self``, calling ``target``.

    The code is a template's for the signature's shape (compiled once per shape, with the
    parameters named p0, p1 ...), renamed to ``func``'s parameters and placed at its file and
    line: a traceback's frame of it (3.11) shows the method's definition, and the package's frame
    checks (the audit's user frame, warnings) count it as ours."""
    code = func.__code__
    n_positional, n_kwonly = code.co_argcount, code.co_kwonlyargcount
    has_varargs, has_varkw = bool(code.co_flags & _CO_VARARGS), bool(code.co_flags & _CO_VARKEYWORDS)
    n_names = n_positional + n_kwonly + has_varargs + has_varkw
    names = code.co_varnames[1:n_names]  # self is the bound method's
    n_defaults = len(func.__defaults__ or ())
    kwdefaults = func.__kwdefaults__ or {}
    kw_defaulted = tuple(name in kwdefaults for name in code.co_varnames[n_positional : n_positional + n_kwonly])
    shape = (n_positional - 1, max(code.co_posonlyargcount - 1, 0), n_defaults, kw_defaulted, has_varargs, has_varkw)
    template = _TEMPLATES.get(shape)
    if template is None:
        template = _TEMPLATES[shape] = _template(*shape)
    # The defaults are the method's own objects, in the code's globals as d_p<i>.
    scope: dict = {"__builtins__": __builtins__}
    for i, value in enumerate(func.__defaults__ or ()):
        scope[f"d_p{n_positional - 1 - n_defaults + i}"] = value
    for i, name in enumerate(code.co_varnames[n_positional : n_positional + n_kwonly]):
        if name in kwdefaults:
            scope[f"d_p{n_positional - 1 + i}"] = kwdefaults[name]
    # The names also stand as constants: the keyword arguments' names of the forwarded calls
    # and of the keyword-only defaults.
    canonical = {f"p{i}": name for i, name in enumerate(names)}

    def rename(constant):
        if type(constant) is str:
            return canonical.get(constant, constant)
        if type(constant) is tuple:
            return tuple(rename(c) for c in constant)
        return constant

    inner = next(c for c in template.co_consts if isinstance(c, types.CodeType))
    renamed = inner.replace(
        co_varnames=names + inner.co_varnames[len(names) :],
        co_consts=tuple(rename(c) for c in inner.co_consts),
        co_name=func.__name__,
        co_filename=code.co_filename,
        co_firstlineno=code.co_firstlineno,
    )
    factory_code = template.replace(
        co_consts=tuple(renamed if c is inner else rename(c) for c in template.co_consts),
        co_filename=code.co_filename,
        co_firstlineno=code.co_firstlineno,
    )
    return types.FunctionType(factory_code, scope, "factory")


def _template(n_positional, n_posonly, n_defaults, kw_defaulted, has_varargs, has_varkw) -> types.CodeType:
    """The factory's code for one signature shape: parameters p0, p1 ... (positional, then keyword-only,
    then ``*`` and ``**`` ones), defaults d_p<i> from the globals."""
    positional = [f"p{i}" for i in range(n_positional)]
    kwonly = [f"p{n_positional + i}" for i in range(len(kw_defaulted))]
    varargs = f"p{n_positional + len(kwonly)}" if has_varargs else None
    varkw = f"p{n_positional + len(kwonly) + has_varargs}" if has_varkw else None
    first_default = n_positional - n_defaults
    params = []
    for i, p in enumerate(positional):
        params.append(f"{p}=d_{p}" if i >= first_default else p)
        if i + 1 == n_posonly:
            params.append("/")
    if varargs:
        params.append(f"*{varargs}")
    elif kwonly:
        params.append("*")
    params += [f"{p}=d_{p}" if defaulted else p for p, defaulted in zip(kwonly, kw_defaulted)]
    if varkw:
        params.append(f"**{varkw}")
    star = [f"*{varargs}"] if varargs else []

    def call(args, keywords):
        return f"return target({', '.join(args + keywords)})"

    optional_kw = [p for p, defaulted in zip(kwonly, kw_defaulted) if defaulted]
    required_kw = [f"{p}={p}" for p, defaulted in zip(kwonly, kw_defaulted) if not defaulted]
    all_kw = [f"{p}={p}" for p in kwonly] + ([f"**{varkw}"] if varkw else [])
    lines = [f"def function({', '.join(params)}):"]
    indent = "    "
    if optional_kw and not varkw:
        lines.append(f"    if {' and '.join(f'{p} is d_{p}' for p in optional_kw)}:")
        indent = "        "
    if not varkw:
        # trailing positional arguments at their defaults left out, the longest run first
        for k in range(0 if varargs else n_defaults, 0, -1):
            kept, dropped = positional[: n_positional - k], positional[n_positional - k :]
            lines.append(f"{indent}if {' and '.join(f'{p} is d_{p}' for p in dropped)}:")
            lines.append(f"{indent}    {call(kept + star, required_kw)}")
        lines.append(f"{indent}{call(positional + star, required_kw)}")
    if optional_kw or varkw:
        lines.append(f"    {call(positional + star, all_kw)}")
    source = "def factory(target):\n" + "".join(f"    {line}\n" for line in lines) + "    return function\n"
    scope: dict = {}
    exec(compile(source, "<array_api_promo plain function>", "exec"), scope)
    return scope["factory"].__code__
