"""The standard's inspection API: ``__array_namespace_info__()``.

What it reports comes from the namespace: its dtypes (those of the standard
that exist under its policy and API version) and its policy's defaults.
"""

from __future__ import annotations

from . import _dtypes as D
from ._devices import CPU
from ._errors import ArgumentError
from ._runtime import RuntimeBase

__all__ = ["InfoFunctions", "Info"]

_KINDS = {
    "bool": (D.BOOL,),
    "signed integer": (D.SIGNED_INTEGER,),
    "unsigned integer": (D.UNSIGNED_INTEGER,),
    "integral": (D.SIGNED_INTEGER, D.UNSIGNED_INTEGER),
    "real floating": (D.REAL_FLOATING,),
    "complex floating": (D.COMPLEX_FLOATING,),
    "numeric": (D.SIGNED_INTEGER, D.UNSIGNED_INTEGER, D.REAL_FLOATING, D.COMPLEX_FLOATING),
}
_STANDARD = frozenset(D.STANDARD_DTYPES)
MAX_DIMENSIONS = 64  # NumPy 2's NPY_MAXDIMS


class Info:
    """Inspection utilities of one namespace (``xp.__array_namespace_info__()``)."""

    __slots__ = ("_runtime",)

    def __init__(self, runtime):
        self._runtime = runtime

    def __repr__(self) -> str:
        return f"<array namespace info of {self._runtime.label}>"

    def capabilities(self) -> dict:
        runtime = self._runtime
        caps: dict[str, bool | int] = {
            "boolean indexing": runtime.boolean_indexing,
            "data-dependent shapes": runtime.data_dependent_shapes,
        }
        if self._runtime.api_version >= "2024.12":
            caps["max dimensions"] = MAX_DIMENSIONS
        return caps

    def default_device(self):
        return CPU

    def devices(self):
        # A list until 2024.12, a tuple since 2025.12.
        listed = self._runtime.listed_devices
        return tuple(listed) if self._runtime.api_version >= "2025.12" else list(listed)

    def default_dtypes(self, *, device=None) -> dict:
        runtime = self._runtime
        device = runtime._check_device(device, "default_dtypes", names=True)
        kinds = ("real floating", "complex floating", "integral", "indexing")
        # (a policy without complex dtypes has no complex default)
        defaults = {kind: runtime._default(kind, device) for kind in kinds if kind != "complex floating"}
        if runtime.policy.default_complex is not None:
            defaults["complex floating"] = runtime._default("complex floating", device)
        return {k: defaults[k] for k in kinds if k in defaults}

    def dtypes(self, *, device=None, kind=None) -> dict:
        device = self._runtime._check_device(device, "dtypes", names=True)
        kinds: set | None = None
        if kind is not None:
            names = (kind,) if isinstance(kind, str) else kind
            if not isinstance(names, tuple):
                # (a TypeError, and the ValueError array-api-strict raises: "unsupported kind")
                raise self._runtime._refusal(
                    ArgumentError(f"dtypes: kind must be None, a str or a tuple of str, got {type(kind).__name__}"),
                    "info_kind",
                    kind,
                )
            kinds = set()
            for name in names:
                if not isinstance(name, str):
                    raise TypeError(f"dtypes: kind must be None, a str or a tuple of str, got {name!r} in {kind!r}")
                if name not in _KINDS:
                    raise self._runtime._refusal(
                        ValueError(f"dtypes: unknown kind {name!r}; kinds are {', '.join(map(repr, _KINDS))}"),
                        "info_kind",
                        name,
                    )
                kinds.update(_KINDS[name])
        # Only the standard's dtypes: float16/bfloat16 of a policy are extensions.
        excluded = device.excluded
        return {
            d.name: d
            for d in self._runtime.dtypes
            if d in _STANDARD and d.name not in excluded and (kinds is None or d.kind in kinds)
        }


class InfoFunctions(RuntimeBase):
    """Mixin: ``__array_namespace_info__``."""

    def __array_namespace_info__(self) -> Info:
        """The inspection utilities of this namespace."""
        return Info(self)
