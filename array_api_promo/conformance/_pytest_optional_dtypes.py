"""A pytest plugin (``-p array_api_promo.conformance._pytest_optional_dtypes``) that lets the pinned
suite import a namespace without some of the standard's dtypes, which the draft of the next standard
makes optional ("should" support): the library's tests that apply run, those that need an absent
dtype are reported as not applicable.

The pinned suite cannot import such a namespace: its ``dtype_helpers.py`` takes the widest complex
dtype with ``max()`` of the complex dtypes it found (an empty list without any: ``ValueError``), and
reads ``xp.float64`` and ``xp.float32`` at import (``AttributeError`` without them). While that
module is executed, this plugin gives it a ``max`` that answers an empty list with an absent-dtype
placeholder and a namespace whose absent dtypes are placeholders; once it is imported, it sees the
library's own namespace again. The placeholder is no dtype of the library (nothing equals it), so a
test that reaches it fails, naming it: the harness reports such a test as not applicable
(``normalize.not_applicable``). Loaded by the harness only for a namespace that lacks a dtype
(``CONFORMANCE_ABSENT_DTYPES``, from its probe).
"""

from __future__ import annotations

import builtins
import importlib.abc
import importlib.machinery
import os
import sys

ENV_ABSENT = "CONFORMANCE_ABSENT_DTYPES"
TARGET = "array_api_tests.dtype_helpers"


class AbsentDtype:
    """Stands for a dtype the namespace does not have (``<absent dtype 'complex128'>``)."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<absent dtype {self.name!r}>"


class _Namespace:
    """The library's namespace, with placeholders for its absent dtypes (during the import only)."""

    def __init__(self, real, absent):
        self._real = real
        self._absent = {name: AbsentDtype(name) for name in absent}

    def __getattr__(self, name):
        try:
            return getattr(self._real, name)
        except AttributeError:
            if name in self._absent:
                return self._absent[name]
            raise


#: What the suite's ``widest_complex_dtype`` is without a complex dtype.
WIDEST_COMPLEX = AbsentDtype("complex128")


def _max(*args, **kwargs):
    """``max``, but an empty sequence of (dtype, bits) pairs gives an absent dtype of 0 bits."""
    if len(args) == 1 and not isinstance(args[0], (str, bytes)):
        items = list(args[0])
        if not items and "default" not in kwargs:
            return (WIDEST_COMPLEX, 0)
        return builtins.max(items, **kwargs)
    return builtins.max(*args, **kwargs)


class _Loader(importlib.abc.Loader):
    def __init__(self, real: importlib.abc.Loader, absent):
        self.real = real
        self.absent = absent

    def create_module(self, spec):
        return self.real.create_module(spec)

    def exec_module(self, module):
        package = sys.modules["array_api_tests"]
        real_xp = package.xp
        package.xp = _Namespace(real_xp, self.absent)
        module.max = _max  # type: ignore[attr-defined]
        try:
            self.real.exec_module(module)
        finally:
            package.xp = real_xp
            module.xp = real_xp  # type: ignore[attr-defined]
            del module.max
        # the placeholder has a name (the suite looks every dtype it uses up by name, e.g. to find
        # out that the namespace lacks it)
        names = module.dtype_to_name  # type: ignore[attr-defined]
        module.dtype_to_name = type(names)([*names._key_value_pairs, (WIDEST_COMPLEX, WIDEST_COMPLEX.name)])  # type: ignore[attr-defined]


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, absent):
        self.absent = absent

    def find_spec(self, fullname, path, target=None):
        if fullname != TARGET:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader, self.absent)
        return spec


_ABSENT = tuple(n for n in os.environ.get(ENV_ABSENT, "").split(",") if n)
if _ABSENT and not any(isinstance(f, _Finder) for f in sys.meta_path):
    sys.meta_path.insert(0, _Finder(_ABSENT))
