"""Devices: the CPU and one further logical device, so that device rules are testable.

Both keep their data in NumPy arrays on the host; what differs is identity:
arrays on two devices never combine, and ``to_device`` copies.

Devices are values: there is one object per device, and ``Device(name)``
returns it (``Device("cpu") is CPU``), so a device built from its name and
``x.device`` are the same thing everywhere a ``device=`` is taken.  An
unknown name is a ``ValueError``.  array-api-strict's names are accepted as
aliases, so that code written against it runs here unchanged (see
``array_api_promo.standin``): ``"CPU_DEVICE"`` is the CPU and ``"device1"``
is ``device1``.  array-api-strict's other devices (``device2``,
``no_float64``, ``no_x64``) restrict or change the default dtypes per
device, which this package does not model: they are refused.
"""

from __future__ import annotations

__all__ = ["ALL_DEVICES", "CPU", "DEVICE1", "DEVICE_ALIASES", "Device", "device_by_name", "device_of"]


class Device:
    """A device of this package; ``Device(name)`` is the one device of that name."""

    __slots__ = ("name",)

    def __new__(cls, name: str = "cpu"):
        return device_by_name(name)

    @classmethod
    def _create(cls, name: str) -> Device:
        device = object.__new__(cls)
        device.name = name
        return device

    def __repr__(self) -> str:
        return f"array_api_promo.Device({self.name!r})"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self):
        return (device_by_name, (self.name,))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


CPU = Device._create("cpu")
DEVICE1 = Device._create("device1")  # a logical second device (host memory, separate identity)
ALL_DEVICES = (CPU, DEVICE1)
# array-api-strict's names for the same devices.
DEVICE_ALIASES = {"CPU_DEVICE": CPU}
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
