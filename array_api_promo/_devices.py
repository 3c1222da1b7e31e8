"""Devices: the CPU and one further logical device, so that device rules are testable.

Both keep their data in NumPy arrays on the host; what differs is identity:
arrays on two devices never combine, and ``to_device`` copies.
"""

from __future__ import annotations

__all__ = ["Device", "CPU", "DEVICE1", "ALL_DEVICES", "device_by_name"]


class Device:
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"array_api_promo.Device({self.name!r})"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self):
        return (device_by_name, (self.name,))


CPU = Device("cpu")
DEVICE1 = Device("device1")  # a logical second device (host memory, separate identity)
ALL_DEVICES = (CPU, DEVICE1)
_BY_NAME = {d.name: d for d in ALL_DEVICES}


def device_by_name(name: str) -> Device:
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown device {name!r}; devices: {', '.join(_BY_NAME)}") from None
