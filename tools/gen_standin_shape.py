#!/usr/bin/env python
"""Generate ``array_api_promo/_standin_shape.json``: array-api-strict's package shape, from the real package.

Run:  python tools/gen_standin_shape.py      (needs ``pip install array-api-strict==2.6.1``;
                                             the version is recorded and must be the one the
                                             stand-in mirrors)

For every module of the installed ``array_api_strict`` package (its ``tests`` excepted), the
names a consumer can import from it: every name not starting with ``_``, and the dunders the
module defines itself (``__array_namespace_info__``, ``__version__``).  Each name says where
the stand-in finds its value:

* ``("ns",)``: the object of the same name in the package's namespace (``asarray``,
  ``Array``, ``float32``): the stand-in's, at the version bound when the module is read;
* ``("linalg",)`` / ``("fft",)``: the object of the same name in that extension;
* ``("module", name)``: a module (``numpy``, ``sys``; ``array_api_strict`` itself);
* ``("external", module, qualname)``: an object defined outside array-api-strict
  (``typing.Any``, ``functools.wraps``), the same object;
* ``("value", literal)``: a constant (a ``str``, number, tuple ...), in the JSON as its Python literal;
* ``("own",)``: an object array-api-strict defines for itself (a helper, a result class):
  the stand-in provides its own equivalent (``array_api_promo.standin._OWN``).
"""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import sys
import types
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "array_api_promo" / "_standin_shape.json"
_MODULE_DUNDERS = {
    "__name__", "__doc__", "__file__", "__loader__", "__spec__", "__package__", "__builtins__",
    "__cached__", "__path__", "__annotations__", "__all__",
}  # fmt: skip


def _literal(value) -> bool:
    try:
        return ast.literal_eval(repr(value)) == value
    except (ValueError, SyntaxError):
        return False


def _external(value):
    module, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if not module or not qualname or module.startswith("array_api_strict"):
        return None
    for home in (module, "types"):  # types.NoneType says it is builtins'
        try:
            found = importlib.import_module(home)
            for part in qualname.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError):
            continue
        if found is value:
            return ("external", home, qualname)
    return None


# The namespace's names beyond its __all__ (array-api-strict's package also holds the names
# its modules import, such as np and ModuleType: those are not the namespace's).
_ALSO_NAMESPACE = ("Array", "__array_namespace_info__", "__version__")


def where(pkg, name: str, value) -> tuple:
    if (name in pkg.__all__ or name in _ALSO_NAMESPACE) and getattr(pkg, name, None) is value:
        return ("ns",)
    for ext in ("linalg", "fft"):
        if (
            getattr(getattr(pkg, ext), name, None) is value
            and callable(value)
            and getattr(value, "__module__", None) == f"array_api_strict._{ext}"
            and not isinstance(value, type)
        ):
            return (ext,)
    if isinstance(value, types.ModuleType):
        return ("module", value.__name__)
    if value.__class__.__module__ == "__future__":  # `from __future__ import annotations`
        return ("external", "__future__", name)
    if (
        value is not None and getattr(types, name, None) is value
    ):  # types.EllipsisType's qualname is builtins' "ellipsis"
        return ("external", "types", name)
    found = _external(value)
    if found is not None:
        return found
    if _literal(value):
        return ("value", value)
    return ("own",)


def shape() -> dict[str, dict[str, tuple]]:
    import array_api_strict as pkg

    out: dict[str, dict[str, tuple]] = {}
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.ispkg:  # array_api_strict.tests: array-api-strict's own test suite
            continue
        module = importlib.import_module(f"array_api_strict.{info.name}")
        names = sorted(
            n
            for n in vars(module)
            if not n.startswith("_") or (n.startswith("__") and n.endswith("__") and n not in _MODULE_DUNDERS)
        )
        out[info.name] = {n: where(pkg, n, getattr(module, n)) for n in names}
    return out


def _entry(where: tuple) -> list:
    """A name's entry in JSON: a constant as its Python literal (``repr``: a tuple stays a tuple)."""
    return ["value", repr(where[1])] if where[0] == "value" else list(where)


def as_json(version: str, table: dict[str, dict[str, tuple]]) -> str:
    """The table as JSON, a module's names one a line (a diff between releases reads name by name)."""
    modules = []
    for module, names in sorted(table.items()):
        entries = ",\n".join(f"      {json.dumps(n)}: {json.dumps(_entry(w))}" for n, w in sorted(names.items()))
        modules.append(f"    {json.dumps(module)}: {{\n{entries}\n    }}")
    return (
        "{\n"
        f'  "generated_by": "tools/gen_standin_shape.py from the real package (see there what each entry means)",\n'
        f'  "version": {json.dumps(version)},\n'
        '  "modules": {\n' + ",\n".join(modules) + "\n  }\n}\n"
    )


def main() -> int:
    import array_api_strict

    sys.path.insert(0, str(OUT.parent.parent))
    from array_api_promo.standin import MIRRORED_VERSION

    if array_api_strict.__version__ != MIRRORED_VERSION:
        print(
            f"array-api-strict {array_api_strict.__version__} is installed; the stand-in mirrors "
            f"{MIRRORED_VERSION}: install that release (nothing written)",
            file=sys.stderr,
        )
        return 1
    table = shape()
    OUT.write_text(as_json(array_api_strict.__version__, table))
    print(f"wrote {OUT.name}: {len(table)} modules, {sum(map(len, table.values()))} names")
    return 0


if __name__ == "__main__":
    sys.exit(main())
