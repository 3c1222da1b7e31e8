"""Devices: the CPU and four logical devices, array-api-strict's, so that device rules are testable.

All keep their data in NumPy arrays on the host; what differs is identity and
what each device holds:

========== ============================================ ===========================
device     dtypes it cannot hold                        its defaults
========== ============================================ ===========================
cpu        none                                         the policy's
device1    none                                         the policy's
device2    none                                         float32, complex64 (as a torch CPU)
no_float64 float64, complex128 (as Apple's MPS)         float32, complex64
no_x64     float64, complex128, int64, uint64 (as JAX)  float32, complex64, int32, int32
========== ============================================ ===========================

(array-api-strict 2.6.1's devices, with its names and dtype sets.)  Arrays on
two devices never combine, and ``to_device`` copies.  A device's limits
compose with any policy: the policy decides a result's dtype, and an array of
a dtype its device cannot hold is refused (``ValueError``, from
:meth:`Device.admit`, the one place that checks); creation without ``dtype=``
takes the device's defaults where it has its own, else the policy's.

Devices are values: there is one object per device, and ``Device(name)``
returns it (``Device("cpu") is CPU``), so a device built from its name and
``x.device`` are the same thing everywhere a ``device=`` is taken.  An
unknown name is a ``ValueError``.  ``"CPU_DEVICE"``, array-api-strict's name
for its CPU, is the CPU here too, so that code written against it runs here
unchanged (see ``array_api_promo.standin``).

A device hashes as array-api-strict's of the same name does (``hash(("Device",
"CPU_DEVICE"))`` for the CPU), in every namespace.  Its ``repr`` and ``str`` are
this package's (``array_api_promo.Device('cpu')``, ``cpu``) except in a process
whose ``array_api_strict`` is the stand-in, where :func:`show_as_array_api_strict`
makes every device print as array-api-strict's does
(``array_api_strict.Device('CPU_DEVICE')``, for ``repr`` and ``str`` alike): the
device objects are shared by every namespace (the compiled paths know the CPU by
identity), so how they print is a property of the process.
"""

from __future__ import annotations

import os
import sys
from types import FrameType

__all__ = [
    "ALL_DEVICES",
    "CPU",
    "DEVICE1",
    "DEVICE2",
    "DEVICE_ALIASES",
    "NO_FLOAT64",
    "NO_X64",
    "Device",
    "device_by_name",
    "device_of",
    "show_as_array_api_strict",
    "strict_device_name",
]


class Device:
    """A device of this package; ``Device(name)`` is the one device of that name."""

    __slots__ = ("name", "excluded", "defaults", "why")

    def __new__(cls, name: str = "cpu"):
        return device_by_name(name)

    @classmethod
    def _create(cls, name: str, excluded=(), defaults=None, why: str = "") -> Device:
        device = object.__new__(cls)
        device.name = name
        device.excluded = frozenset(excluded)  # names of the dtypes it cannot hold
        device.defaults = dict(defaults or {})  # kind ("real floating" ...) -> dtype name, where it has its own
        device.why = why
        return device

    def admit(self, dtype, runtime) -> None:
        """Refuse an array of ``dtype`` on this device if the device cannot hold it."""
        if dtype.name in self.excluded:
            held = ", ".join(sorted(self.excluded))
            raise runtime._refusal(
                ValueError(
                    f"{operation_name()}: Device({self.name!r}) does not support dtype={dtype.name}, the result's dtype "
                    f"under policy {runtime.policy.name!r} ({self.name} {self.why}: it cannot hold {held}); "
                    "ask for a dtype it holds, or move the data with to_device()"
                ),
                "device_dtype",
                self,
                dtype,
            )

    def __repr__(self) -> str:
        if _SHOWN_AS_STRICT:
            return f"array_api_strict.Device({_STRICT_NAMES.get(self.name, self.name)!r})"
        return f"array_api_promo.Device({self.name!r})"

    def __str__(self) -> str:
        return repr(self) if _SHOWN_AS_STRICT else self.name

    # (equality is identity: one object per device, so equal by name, as array-api-strict's)
    def __hash__(self) -> int:  # array-api-strict's: by its name for the device
        return hash(("Device", _STRICT_NAMES.get(self.name, self.name)))

    def __reduce__(self):
        return (device_by_name, (self.name,))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


_SINGLE = {"real floating": "float32", "complex floating": "complex64"}
CPU = Device._create("cpu")
DEVICE1 = Device._create("device1")  # a logical second device (host memory, separate identity)
DEVICE2 = Device._create("device2", defaults=_SINGLE, why="defaults to single precision, as a torch CPU")
NO_FLOAT64 = Device._create(
    "no_float64", ("float64", "complex128"), _SINGLE, why="has no double precision, as Apple's MPS"
)
NO_X64 = Device._create(
    "no_x64",
    ("float64", "complex128", "int64", "uint64"),
    {**_SINGLE, "integral": "int32", "indexing": "int32"},
    why="has no 64-bit dtype, as JAX without x64",
)
ALL_DEVICES = (CPU, DEVICE1, DEVICE2, NO_FLOAT64, NO_X64)
# array-api-strict's names for the same devices.
DEVICE_ALIASES = {"CPU_DEVICE": CPU}
_STRICT_NAMES = {d.name: alias for alias, d in DEVICE_ALIASES.items()}
_SHOWN_AS_STRICT = False


def strict_device_name(device: Device) -> str:
    """array-api-strict's name for ``device`` (``CPU_DEVICE`` for the CPU)."""
    return _STRICT_NAMES.get(device.name, device.name)


def show_as_array_api_strict() -> None:
    """Print every device as array-api-strict prints its own, for the rest of the process
    (the stand-in's import hook calls it: the process's ``array_api_strict`` is then ours)."""
    global _SHOWN_AS_STRICT
    _SHOWN_AS_STRICT = True


_BY_NAME = {d.name: d for d in ALL_DEVICES} | DEVICE_ALIASES


def device_by_name(name: str) -> Device:
    """The device called ``name`` (or one of array-api-strict's names for it)."""
    if type(name) is Device:
        return name
    if not isinstance(name, str):
        raise TypeError(f"Device: a device name must be a str, got {type(name).__name__} {name!r}")
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(
            f"unknown device {name!r}; devices are {', '.join(repr(d.name) for d in ALL_DEVICES)} "
            f"(array-api-strict's {', '.join(map(repr, DEVICE_ALIASES))} also names the CPU)"
        ) from None


def device_of(device) -> Device | None:
    """``device`` as one of ours: a device itself, or a device's name; ``None`` if it is neither."""
    if type(device) is Device:
        return device
    if isinstance(device, str):
        return _BY_NAME.get(device)
    return None


_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def operation_name() -> str:
    """The public operation being run: the outermost frame of this package (``sum``, ``__add__`` ...)."""
    frame: FrameType | None = sys._getframe(2)
    name = "array"
    while frame is not None:
        if os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE:
            name = frame.f_code.co_name
        elif name != "array":
            break
        frame = frame.f_back
    return name
