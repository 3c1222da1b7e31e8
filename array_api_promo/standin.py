"""Stand in for array-api-strict: run any program with ``import array_api_strict`` giving a namespace of ours.

    python -m array_api_promo.standin [--policy P] [--api-version V] -- pytest --pyargs sklearn -k "array_api and strict"

Library authors test their array-API code against array-api-strict.  Through
this runner the same tests run against ``array_api_promo`` under any
promotion policy: the program (and every Python subprocess it starts, e.g.
pytest-xdist workers) imports a module named ``array_api_strict`` that is a
namespace of the chosen policy and API version.

How: the runner puts ``array_api_promo/_standin_site`` first on
``PYTHONPATH``; its ``sitecustomize`` (chaining to any other
``sitecustomize``) installs an import hook at the front of ``sys.meta_path``
when ``ARRAY_API_PROMO_STANDIN`` is set, so ``array_api_strict`` resolves to
the stand-in whatever ``sys.path`` holds: pytest's ``prepend`` import mode
puts ``site-packages`` first when it imports an installed package's tests
(``--pyargs``), and the hook still wins; ``append`` and ``importlib`` modes
need nothing either.  The real array-api-strict need not be installed.

The module presents the name ``array_api_strict`` (consumers key their
branches, skip lists and xfail markers on ``xp.__name__``: scikit-learn's
``_convert_to_numpy``, SciPy's ``is_array_api_strict`` and its
``skip_xp_backends``), holds the namespace's public names, and adds
array-api-strict's extras:

* ``set_array_api_strict_flags``, ``get_array_api_strict_flags``,
  ``reset_array_api_strict_flags``, ``ArrayAPIStrictFlags``, as in
  array-api-strict 2.6.1 (``tests/test_standin_parity.py`` compares them):
  ``api_version`` rebinds the module to the namespace of that version (global,
  as there; arrays made before keep working, their operations take the version
  they were made at; a function of a later version is present and raises
  ``RuntimeError`` when called); ``enabled_extensions`` removes or restores
  ``linalg`` and ``fft`` (an extension newer than the version is a
  ``ValueError``); ``data_dependent_shapes=False`` makes ``unique_*``,
  ``nonzero`` and ``repeat`` with array ``repeats`` raise ``RuntimeError``;
  ``boolean_indexing=False`` makes boolean-mask indexing and setitem raise
  ``RuntimeError``; ``capabilities()`` reports both.  The flags belong to this
  module: other namespaces are untouched.  The environment variables
  ``ARRAY_API_STRICT_API_VERSION``, ``..._BOOLEAN_INDEXING``,
  ``..._DATA_DEPENDENT_SHAPES`` and ``..._ENABLED_EXTENSIONS`` are read at
  import, as by array-api-strict.
* ``Device``: array-api-strict's five devices (see ``_devices``):
  ``CPU_DEVICE`` (the CPU), ``device1``, ``device2`` (float32 defaults),
  ``no_float64`` and ``no_x64`` (no double precision, no 64-bit dtypes), with
  the same dtype sets, defaults and refusals.
* ``__version__``: the array-api-strict release whose interface is mirrored
  (consumers check it), ``Array``.

The policy is ``ARRAY_API_PROMO_POLICY`` (a name, or ``pkg.mod:ATTR`` naming a
Policy), the version ``ARRAY_API_STRICT_API_VERSION``; the runner sets both.
"""

from __future__ import annotations

import argparse
import enum
import importlib
import importlib.machinery
import os
import shutil
import sys
import types
import typing

from . import _dtypes as D
from ._array import Array
from ._data_type_functions import finfo_object, iinfo_object
from ._devices import ALL_DEVICES, CPU, NO_FLOAT64, NO_X64, Device, show_as_array_api_strict
from ._elementwise_functions import kernel_for
from ._linear_algebra_functions import EighResult, EigResult, QRResult, SlogdetResult, SVDResult
from ._namespace import ADDED_IN, API_VERSIONS, DEFAULT_API_VERSION, Runtime, _populate
from ._set_functions import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ._standin_shape import MODULES as SHAPE
from .from_env import _load_policy

__all__ = ["MIRRORED_VERSION", "SHAPE", "SITE_DIR", "StandinRuntime", "install", "main", "make_module"]

MIRRORED_VERSION = "2.6.1"  # the array-api-strict release whose extras this module mirrors
MODULE_NAME = "array_api_strict"
SITE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_standin_site")
_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_EXTENSIONS = {"linalg": "2021.12", "fft": "2022.12"}
_DATA_DEPENDENT = ("unique_all", "unique_counts", "unique_inverse", "unique_values", "nonzero", "repeat")


class _Standin:
    """The state behind one stand-in module: its policy and the current flags (array-api-strict's)."""

    def __init__(self, module: types.ModuleType, policy, make_runtime=None):
        self.module = module
        self.policy = policy
        # (policy, api_version, state) -> the runtime of a version (the audit's layers it)
        self.make_runtime = make_runtime or StandinRuntime
        self.api_version = ""  # none bound yet: the first set_flags binds one
        self.boolean_indexing = True
        self.data_dependent_shapes = True
        self.extensions = tuple(_EXTENSIONS)
        self._runtimes: dict = {}
        self._names: set = set()
        # array-api-strict's modules (``array_api_strict._array_object`` ...), each with its names
        self.submodules = {short: _submodule(module.__name__, short) for short in SHAPE}
        own = _own_names(self)
        self._static = {
            short: {n: v for n, where in names.items() if (v := _static_value(module, where, n, own)) is not _BOUND}
            for short, names in SHAPE.items()
        }

    # -- flags ---------------------------------------------------------------------------
    def set_flags(
        self, *, api_version=None, boolean_indexing=None, data_dependent_shapes=None, enabled_extensions=None
    ) -> None:
        if api_version is not None and api_version not in API_VERSIONS:
            raise ValueError(
                f"set_array_api_strict_flags: api_version {api_version!r} is not supported by "
                f"array_api_promo; supported: {', '.join(API_VERSIONS)}"
            )
        version = api_version or self.api_version or DEFAULT_API_VERSION
        if enabled_extensions is not None:
            for ext in enabled_extensions:
                if ext not in _EXTENSIONS:
                    raise ValueError(
                        f"set_array_api_strict_flags: unknown extension {ext!r}; extensions: {', '.join(_EXTENSIONS)}"
                    )
                if _EXTENSIONS[ext] > version:
                    raise ValueError(
                        f"set_array_api_strict_flags: extension {ext} requires standard version "
                        f"{_EXTENSIONS[ext]} or later, not {version}"
                    )
            extensions = tuple(enabled_extensions)
        else:  # as array-api-strict: an extension the version lacks stays off until enabled again
            extensions = tuple(e for e in self.extensions if _EXTENSIONS[e] <= version)
        if boolean_indexing is not None:
            self.boolean_indexing = bool(boolean_indexing)
        changed = version != self.api_version or extensions != self.extensions
        if data_dependent_shapes is not None and bool(data_dependent_shapes) != self.data_dependent_shapes:
            self.data_dependent_shapes = bool(data_dependent_shapes)
            changed = True
        self.extensions = extensions
        if changed:
            self._bind(version)

    def get_flags(self) -> dict:
        return {
            "api_version": self.api_version,
            "boolean_indexing": self.boolean_indexing,
            "data_dependent_shapes": self.data_dependent_shapes,
            "enabled_extensions": self.extensions,
        }

    def reset_flags(self) -> None:
        self.boolean_indexing = True
        self.data_dependent_shapes = True
        self.extensions = tuple(_EXTENSIONS)
        self._bind(DEFAULT_API_VERSION)

    # -- binding -------------------------------------------------------------------------
    def _bind(self, api_version: str) -> None:
        module = self.module
        for name in self._names:  # the previous version's names
            module.__dict__.pop(name, None)
        runtime = self._runtimes.get(api_version)
        if runtime is None:
            runtime = self._runtimes[api_version] = self.make_runtime(self.policy, api_version, self)
        _populate(module, runtime)
        self.api_version = api_version
        names = set(module.__all__)
        extensions = {ext: module.__dict__.get(ext) for ext in _EXTENSIONS}  # before the flags remove any
        for ext in _EXTENSIONS:
            if ext in names and ext not in self.extensions:
                del module.__dict__[ext]
                names.discard(ext)
        if not self.data_dependent_shapes:
            for name in _DATA_DEPENDENT:
                if name in names:
                    setattr(module, name, _without_data_dependent_shapes(name, getattr(module, name)))
        # As array-api-strict: a function of a later version is there, and says so when called.
        later = [n for n, v in ADDED_IN.items() if v > api_version and "." not in n and n not in _NOT_FUNCTIONS]
        for name in later:
            setattr(module, name, _of_later_version(name, ADDED_IN[name], api_version))
        self._names = names | set(later)
        module.__all__ = sorted(names) + [
            "Device",
            "set_array_api_strict_flags",
            "get_array_api_strict_flags",
            "reset_array_api_strict_flags",
            "ArrayAPIStrictFlags",
            "__array_api_version__",
        ]
        self._bind_submodules(extensions)

    def _bind_submodules(self, extensions: dict) -> None:
        """Fill array-api-strict's modules with this version's objects (what a consumer imports
        from them is what the package gives at this version, as there)."""
        module = self.module
        flags = {
            "API_VERSION": self.api_version,
            "BOOLEAN_INDEXING": self.boolean_indexing,
            "DATA_DEPENDENT_SHAPES": self.data_dependent_shapes,
            "ENABLED_EXTENSIONS": self.extensions,
        }
        for short, names in SHAPE.items():
            sub = self.submodules[short]
            static = self._static[short]
            for name, where in names.items():
                if name in static:
                    value = flags.get(name, static[name]) if short == "_flags" else static[name]
                elif where[0] == "ns":
                    value = module.__dict__.get(name, _MISSING)
                else:  # "linalg" / "fft": the extension's function, even while the flags disable it
                    value = getattr(extensions[where[0]], name, _MISSING)
                if value is _MISSING:
                    sub.__dict__.pop(name, None)
                else:
                    setattr(sub, name, value)


_MISSING = object()  # a name this version (or this package) does not have
_BOUND = object()  # a name whose value follows the bound version


def _submodule(package: str, short: str) -> types.ModuleType:
    sub = types.ModuleType(
        f"{package}.{short}", f"array-api-strict {MIRRORED_VERSION}'s {short} (the stand-in's objects)."
    )
    sub.__package__ = package
    sub.__spec__ = importlib.machinery.ModuleSpec(sub.__name__, None, origin="array_api_promo.standin")
    return sub


def _static_value(module, where: tuple, name: str, own: dict):
    """The value of a name that does not follow the bound version, else ``_BOUND``."""
    kind = where[0]
    if kind in ("ns", "linalg", "fft"):
        return _BOUND
    if kind == "module":
        return module if where[1] == MODULE_NAME else importlib.import_module(where[1])
    if kind == "external":
        value = importlib.import_module(where[1])
        for part in where[2].split("."):
            value = getattr(value, part)
        return value
    if kind == "value":
        return where[1]
    return own.get(name, _MISSING)


# -- array-api-strict's own helpers and types, over the stand-in's objects -----------------------
class Undef(enum.Enum):
    """array-api-strict's marker of an argument not given."""

    UNDEF = 0


_T_co = typing.TypeVar("_T_co", covariant=True)


class NestedSequence(typing.Protocol[_T_co]):
    def __getitem__(self, key: int, /) -> _T_co | NestedSequence[_T_co]: ...
    def __len__(self, /) -> int: ...


class SupportsDLPack(typing.Protocol):
    def __dlpack__(self, /, *, stream: None = ...) -> typing.Any: ...


Capabilities = typing.TypedDict(
    "Capabilities", {"boolean indexing": bool, "data-dependent shapes": bool, "max dimensions": int}
)
DefaultDataTypes = typing.TypedDict(
    "DefaultDataTypes",
    {"real floating": D.DType, "complex floating": D.DType, "integral": D.DType, "indexing": D.DType},
)


class DataTypes(typing.TypedDict, total=False):
    bool: D.DType
    float32: D.DType
    float64: D.DType
    complex64: D.DType
    complex128: D.DType
    int8: D.DType
    int16: D.DType
    int32: D.DType
    int64: D.DType
    uint8: D.DType
    uint16: D.DType
    uint32: D.DType
    uint64: D.DType


def _own_names(state: _Standin) -> dict:
    """The objects array-api-strict defines for itself, by name: the stand-in's equivalents."""
    module = state.module

    def device_supports_dtype(device, dtype) -> bool:
        return dtype.name not in device.excluded

    def check_device(device) -> None:
        if device is not None and type(device) is not Device:
            raise ValueError(f"Unsupported device {device!r}")

    def get_default_dtypes(device=None) -> dict:
        return module.__array_namespace_info__().default_dtypes(device=device)

    def _refusing(check, words):
        def decorator(func):
            def run(*args, **kwargs):
                if not check():
                    raise RuntimeError(f"{func.__name__} {words()}")
                return func(*args, **kwargs)

            run.__name__, run.__qualname__, run.__doc__ = func.__name__, func.__qualname__, func.__doc__
            return run

        return decorator

    def requires_api_version(version):
        return _refusing(
            lambda: state.api_version >= version,
            lambda: f"requires API version {version} or later, but the current API version is {state.api_version}",
        )

    def requires_extension(extension):
        return _refusing(lambda: extension in state.extensions, lambda: f"requires the {extension} extension")

    def requires_data_dependent_shapes(func):
        return _refusing(lambda: state.data_dependent_shapes, lambda: "requires data-dependent shapes")(func)

    return {
        "Array": Array,
        "DType": D.DType,
        "xp_bool": D.bool_,
        "CPU_DEVICE": CPU,
        "NO_FLOAT64_DEVICE": NO_FLOAT64,
        "NO_X64_DEVICE": NO_X64,
        "ALL_DEVICES": ALL_DEVICES,
        "device_supports_dtype": device_supports_dtype,
        "check_device": check_device,
        "get_default_dtypes": get_default_dtypes,
        "requires_api_version": requires_api_version,
        "requires_extension": requires_extension,
        "requires_data_dependent_shapes": requires_data_dependent_shapes,
        "set_flags_from_environment": lambda: state.set_flags(**_env_flags()),
        "Undef": Undef,
        "NestedSequence": NestedSequence,
        "SupportsDLPack": SupportsDLPack,
        "Capabilities": Capabilities,
        "DataTypes": DataTypes,
        "DefaultDataTypes": DefaultDataTypes,
        "P": typing.ParamSpec("P"),
        "T": typing.TypeVar("T"),
        "finfo_object": finfo_object,
        "iinfo_object": iinfo_object,
        "EigResult": EigResult,
        "EighResult": EighResult,
        "QRResult": QRResult,
        "SVDResult": SVDResult,
        "SlogdetResult": SlogdetResult,
        "UniqueAllResult": UniqueAllResult,
        "UniqueCountsResult": UniqueCountsResult,
        "UniqueInverseResult": UniqueInverseResult,
    }


# The classes whose objects consumers inspect, and the array-api-strict module each is of.
_PRESENTED_IN = {Array: "_array_object", D.DType: "_dtypes", Device: "_devices"}


def install(module: types.ModuleType) -> None:
    """Make ``module`` (a stand-in named ``array_api_strict``) the process's array-api-strict.

    Its modules become importable (``from array_api_strict._array_object import Array``),
    and the package's arrays, dtypes and devices present themselves as array-api-strict's:
    ``type(x).__module__`` is ``array_api_strict._array_object``, devices print as
    ``array_api_strict.Device('CPU_DEVICE')``.  The classes are this package's own (the
    compiled paths know them by identity), so that holds for the whole process: only the
    import hook of ``python -m array_api_promo.standin`` calls this.
    """
    for short, sub in module._standin.submodules.items():
        sys.modules[sub.__name__] = sub
        setattr(module, short, sub)
    for cls, short in _PRESENTED_IN.items():
        cls.__module__ = f"{module.__name__}.{short}"
    show_as_array_api_strict()


class StandinRuntime(Runtime):
    """A runtime whose arrays' ``__array_namespace__`` is the stand-in module, at any version,
    and whose optional capabilities follow the stand-in's flags."""

    listed_devices = ALL_DEVICES  # all five, as array-api-strict lists them

    def __init__(self, policy, api_version: str, standin: _Standin):
        super().__init__(policy, api_version)
        self.standin = standin

    @property  # type: ignore[override]  # a flag of the stand-in, not a constant
    def boolean_indexing(self) -> bool:
        return self.standin.boolean_indexing

    @property  # type: ignore[override]
    def data_dependent_shapes(self) -> bool:
        return self.standin.data_dependent_shapes

    @staticmethod
    def _kernel_for(name, numpy_dtype):
        """The kernel, called from a function of a module named ``array_api_strict._kernels``:
        NumPy attributes its floating-point warnings (``invalid value encountered in
        subtract``) to the calling module, and consumers filter them by array-api-strict's
        module (array-api-extra: ``ignore:invalid value encountered:RuntimeWarning:array_api_strict``).
        The stand-in's elementwise operations take the general path, not the compiled one."""
        return _attributed(kernel_for(name, numpy_dtype))

    def namespace_at(self, api_version: str):
        # As array-api-strict: asking an array for a version sets that version globally.
        self.standin.set_flags(api_version=api_version)
        return self.module

    def reduce_array(self, x) -> tuple:
        """A copy (``copy.deepcopy``, pickle to a joblib worker) stays an array of the stand-in."""
        return (_unpickle_standin, (x._data, self.policy.name, self.api_version, x._device))


_NOT_FUNCTIONS = ("complex64", "complex128", "fft")


def _unpickle_standin(data, policy_name, api_version, device):
    """An array of the process's stand-in module at ``api_version`` (a namespace of the policy where
    ``array_api_strict`` is not the stand-in: a process not started by the runner)."""
    from ._namespace import namespace

    module = sys.modules.get(MODULE_NAME)
    state = getattr(module, "_standin", None)
    if state is None or state.policy.name != policy_name:
        runtime = namespace(policy_name, api_version)._runtime
    else:
        runtime = state._runtimes.get(api_version)
        if runtime is None:  # a version this process has not bound: bind it, then go back
            current = state.api_version
            state.set_flags(api_version=api_version)
            state.set_flags(api_version=current)
            runtime = state._runtimes[api_version]
    return Array._new(data, D.dtype_of_numpy(data.dtype), runtime, device)


# A function whose frame belongs to the module ``array_api_strict._kernels`` (warnings name the
# module of the frame that raises them).
_KERNELS_MODULE: dict = {"__name__": f"{MODULE_NAME}._kernels"}
exec(  # noqa: S102 - a fixed source: only its globals differ from this module's
    compile(
        "def _attributed(kernel):\n"
        "    def run(*args, **kwargs):\n"
        "        return kernel(*args, **kwargs)\n"
        "    run.__name__ = getattr(kernel, '__name__', 'kernel')\n"
        "    return run\n",
        "<array_api_promo stand-in kernels>",
        "exec",
    ),
    _KERNELS_MODULE,
)
_attributed = _KERNELS_MODULE["_attributed"]


def _of_later_version(name: str, added: str, api_version: str):
    def later(*args, **kwargs):
        raise RuntimeError(
            f"{name} requires API version {added} or later, but the current API version of the stand-in for "
            f"array-api-strict is {api_version} (set_array_api_strict_flags(api_version=...))"
        )

    later.__name__ = later.__qualname__ = name
    return later


def _without_data_dependent_shapes(name, func):
    def refuse(*args, **kwargs):
        if name == "repeat":
            repeats = args[1] if len(args) > 1 else kwargs.get("repeats")
            if isinstance(repeats, int):
                return func(*args, **kwargs)
        raise RuntimeError(
            f"{name}: data-dependent shapes are disabled (set_array_api_strict_flags(data_dependent_shapes=False))"
        )

    refuse.__name__ = refuse.__qualname__ = name
    refuse.__doc__ = func.__doc__
    return refuse


def _env_flags() -> dict:
    """array-api-strict's environment variables, as flags."""
    flags: dict[str, object] = {}
    if os.environ.get("ARRAY_API_STRICT_API_VERSION"):
        flags["api_version"] = os.environ["ARRAY_API_STRICT_API_VERSION"]
    for var, flag in (
        ("ARRAY_API_STRICT_BOOLEAN_INDEXING", "boolean_indexing"),
        ("ARRAY_API_STRICT_DATA_DEPENDENT_SHAPES", "data_dependent_shapes"),
    ):
        value = os.environ.get(var)
        if value:
            if value.lower() not in ("true", "false"):
                raise ValueError(f"{var} must be True or False, got {value!r}")
            flags[flag] = value.lower() == "true"
    if "ARRAY_API_STRICT_ENABLED_EXTENSIONS" in os.environ:
        value = os.environ["ARRAY_API_STRICT_ENABLED_EXTENSIONS"]
        flags["enabled_extensions"] = tuple(e for e in value.split(",") if e)
    return flags


def make_module(
    policy=None, api_version: str | None = None, name: str = MODULE_NAME, make_runtime=None
) -> types.ModuleType:
    """A new module ``name`` standing in for array-api-strict, of ``policy`` at ``api_version``.

    ``policy`` defaults to ``$ARRAY_API_PROMO_POLICY`` (else ``array_api``),
    ``api_version`` to ``$ARRAY_API_STRICT_API_VERSION`` (else 2025.12); ``make_runtime(policy,
    api_version, state)`` makes each version's runtime (the audit's runner layers its own).
    """
    if policy is None:
        policy = os.environ.get("ARRAY_API_PROMO_POLICY", "array_api")
    policy = (_load_policy(policy) if isinstance(policy, str) else policy).for_standin()
    module = types.ModuleType(name, f"array_api_promo standing in for array-api-strict (policy {policy.name!r}).")
    state = _Standin(module, policy, make_runtime)
    module._standin = state
    module.__path__ = []  # a package: its modules are the state's submodules
    module.__package__ = name
    module.__spec__ = importlib.machinery.ModuleSpec(name, None, origin="array_api_promo.standin", is_package=True)
    for short, sub in state.submodules.items():
        setattr(module, short, sub)
    module.__version__ = MIRRORED_VERSION
    module.Array = Array
    module.Device = Device
    module.set_array_api_strict_flags = state.set_flags
    module.get_array_api_strict_flags = state.get_flags
    module.reset_array_api_strict_flags = state.reset_flags
    module.ArrayAPIStrictFlags = _flags_context(state)
    flags = _env_flags()
    flags.setdefault("api_version", api_version or DEFAULT_API_VERSION)
    state.set_flags(**flags)
    return module


def _flags_context(state: _Standin):
    class ArrayAPIStrictFlags:
        """Set the stand-in's flags for the ``with`` block (array-api-strict's context manager)."""

        __slots__ = ("kwargs", "old_flags")

        def __init__(
            self, *, api_version=None, boolean_indexing=None, data_dependent_shapes=None, enabled_extensions=None
        ):
            self.kwargs = {
                "api_version": api_version,
                "boolean_indexing": boolean_indexing,
                "data_dependent_shapes": data_dependent_shapes,
                "enabled_extensions": enabled_extensions,
            }
            self.old_flags = None

        def __enter__(self):
            self.old_flags = state.get_flags()
            state.set_flags(**self.kwargs)

        def __exit__(self, *exc):
            state.set_flags(**self.old_flags)

    return ArrayAPIStrictFlags


# -- the runner ----------------------------------------------------------------------------------
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m array_api_promo.standin",
        description="Run a program with `import array_api_strict` giving array_api_promo's namespace "
        "of a policy and API version (in the program and its Python subprocesses).",
    )
    parser.add_argument(
        "--policy",
        default="array_api",
        help="a registered policy (array_api, torch, numpy, jax, ...) or pkg.mod:ATTR naming a Policy",
    )
    parser.add_argument(
        "--api-version",
        choices=API_VERSIONS,
        default=None,
        help="the standard's version (default: $ARRAY_API_STRICT_API_VERSION or 2025.12); "
        "the program may change it with set_array_api_strict_flags, as with array-api-strict",
    )
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the program and its arguments (after --)")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no program given: python -m array_api_promo.standin [options] -- PROGRAM [ARGS...]")
    try:
        _load_policy(args.policy)  # fail here, once, rather than in every import
    except (ImportError, TypeError, ValueError) as exc:
        parser.error(str(exc))
    env = dict(os.environ)
    env["ARRAY_API_PROMO_STANDIN"] = "1"
    env["ARRAY_API_PROMO_STANDIN_ROOT"] = _PACKAGE_ROOT
    env["ARRAY_API_PROMO_POLICY"] = args.policy
    if args.api_version:
        env["ARRAY_API_STRICT_API_VERSION"] = args.api_version
    env["PYTHONPATH"] = os.pathsep.join([SITE_DIR] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    program = command[0]
    if shutil.which(program, path=env.get("PATH")) is None:
        parser.error(f"program not found: {program}")
    sys.stdout.flush()
    sys.stderr.flush()
    os.execvpe(program, command, env)
    return 0  # pragma: no cover - exec does not return


if __name__ == "__main__":
    sys.exit(main())
