"""A probe of array-api-strict's flags and devices: what a consumer can observe of them.

``probe(xp)`` runs the same calls on a module that is (or stands in for)
``array_api_strict`` and returns ``{what was asked: what came back}``:
dtype names, device names, flag values, and for a refusal its exception type
(and, where consumers match on a message, whether it matches).  The parity
test compares the stand-in's answers, in a process run by
``python -m array_api_promo.standin`` (devices print as array-api-strict's only
there), with the real array-api-strict's; run this file to print both side by side.
"""

from __future__ import annotations

import re
import warnings

import numpy as np

DEVICE_NAMES = ("CPU_DEVICE", "device1", "device2", "no_float64", "no_x64")
# array-api-extra's test_at::test_incompatible_dtype and SciPy match dtype refusals on this.
DTYPE_REFUSAL = re.compile(r"cast|promote|dtype")


def _device_name(device) -> str:
    """A device as it prints (``array_api_strict.Device('CPU_DEVICE')``): consumers print and compare them."""
    return repr(device)


def _outcome(call, show=None) -> str:
    """What ``call()`` gives, shown by ``show`` (``_show`` if not given), or the built-in class it raises."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = call()
    except Exception as exc:  # the exception's built-in class is the observation
        return f"raises {_builtin_class(exc)}"
    return (show or _show)(value)


def _builtin_class(exc: BaseException) -> str:
    """The first built-in class of ``exc`` (our PromotionError is a TypeError)."""
    return next(c.__name__ for c in type(exc).__mro__ if c.__module__ == "builtins")


def _dtype_name(dtype) -> str:
    return str(dtype).rsplit(".", 1)[-1]


def _show(value) -> str:
    if hasattr(value, "dtype") and hasattr(value, "device"):
        return f"{_dtype_name(value.dtype)} on {_device_name(value.device)} shape {tuple(value.shape)}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if type(value).__name__ == "Device":
        return _device_name(value)
    if type(value).__name__ in ("DType", "dtype"):
        return _dtype_name(value)
    return str(value)


def _message_matches(call, pattern=DTYPE_REFUSAL) -> str:
    try:
        call()
    except Exception as exc:
        return f"{_builtin_class(exc)}, matches {pattern.pattern!r}: {bool(pattern.search(str(exc)))}"
    return "no error"


def probe(xp) -> dict[str, str]:
    seen: dict[str, str] = {}
    xp.reset_array_api_strict_flags()
    info = xp.__array_namespace_info__()
    seen["flags at start"] = _show(xp.get_array_api_strict_flags())
    seen["devices"] = _show(info.devices())
    seen["default device"] = _show(info.default_device())
    seen["Device()"] = _outcome(lambda: xp.Device())
    seen["Device('nowhere')"] = _outcome(lambda: xp.Device("nowhere"))
    seen["Device equality"] = str(xp.Device("device2") == xp.Device("device2"))
    # How devices print, compare and hash (consumers print them, compare them, key dicts on them).
    cpu = xp.Device()
    seen["repr(Device())"] = repr(cpu)
    seen["str(Device())"] = str(cpu)
    seen["str(Device('device1'))"] = str(xp.Device("device1"))
    seen["repr(asarray(1).device)"] = repr(xp.asarray(1).device)
    seen["Device() == Device('CPU_DEVICE')"] = str(cpu == xp.Device("CPU_DEVICE"))
    seen["Device() == Device('device1')"] = str(cpu == xp.Device("device1"))
    seen["Device() == 'CPU_DEVICE'"] = str(cpu == "CPU_DEVICE")
    seen["hash(Device(n)) == hash(('Device', n))"] = str(
        [hash(xp.Device(n)) == hash(("Device", n)) for n in DEVICE_NAMES]
    )
    seen["type(Device()).__module__"] = type(cpu).__module__

    for name in DEVICE_NAMES:
        d = xp.Device(name)
        p = f"[{name}] "
        seen[p + "dtypes"] = ", ".join(sorted(info.dtypes(device=d)))  # (the order is not the standard's)
        seen[p + "dtypes(kind='real floating')"] = ", ".join(sorted(info.dtypes(device=d, kind="real floating")))
        seen[p + "default_dtypes"] = _show(info.default_dtypes(device=d))
        for label, call in {
            "asarray(1)": lambda: xp.asarray(1, device=d),
            "asarray(1.5)": lambda: xp.asarray(1.5, device=d),
            "asarray(1j)": lambda: xp.asarray(1j, device=d),
            "asarray(True)": lambda: xp.asarray(True, device=d),
            "asarray([1, 2])": lambda: xp.asarray([1, 2], device=d),
            "asarray(np.float64 array)": lambda: xp.asarray(np.ones(2), device=d),
            "asarray(np.int64 array)": lambda: xp.asarray(np.ones(2, dtype=np.int64), device=d),
            "asarray(1.5, dtype=float64)": lambda: xp.asarray(1.5, dtype=xp.float64, device=d),
            "asarray(1, dtype=int64)": lambda: xp.asarray(1, dtype=xp.int64, device=d),
            "zeros(2)": lambda: xp.zeros(2, device=d),
            "ones(2, dtype=float64)": lambda: xp.ones(2, dtype=xp.float64, device=d),
            "empty(2)": lambda: xp.empty(2, device=d),
            "full(2, 1.5)": lambda: xp.full(2, 1.5, device=d),
            "full(2, 1)": lambda: xp.full(2, 1, device=d),
            "arange(3)": lambda: xp.arange(3, device=d),
            "arange(3.0)": lambda: xp.arange(3.0, device=d),
            "linspace(0, 1, 3)": lambda: xp.linspace(0, 1, 3, device=d),
            "eye(2)": lambda: xp.eye(2, device=d),
            "fft.fftfreq(4)": lambda: xp.fft.fftfreq(4, device=d),
        }.items():
            seen[p + label] = _outcome(call)
        f32 = xp.ones(3, dtype=xp.float32, device=d)
        i32 = xp.ones(3, dtype=xp.int32, device=d)
        u32 = xp.ones(3, dtype=xp.uint32, device=d)
        for label, call in {
            "float32 + float32": lambda: f32 + f32,
            "float32 * 2.5": lambda: f32 * 2.5,
            "int32 + 1": lambda: i32 + 1,
            "int32 + uint32": lambda: i32 + u32,
            "sqrt(float32)": lambda: xp.sqrt(f32),
            "sum(int32)": lambda: xp.sum(i32),
            "sum(float32)": lambda: xp.sum(f32),
            "prod(uint32)": lambda: xp.prod(u32),
            "mean(float32)": lambda: xp.mean(f32),
            "cumulative_sum(int32)": lambda: xp.cumulative_sum(i32),
            "argmax(float32)": lambda: xp.argmax(f32),
            "nonzero(int32)": lambda: xp.nonzero(i32)[0],
            "astype(float32 -> float64)": lambda: xp.astype(f32, xp.float64),
            "astype(int32 -> int64)": lambda: xp.astype(i32, xp.int64),
            "zeros_like(float32)": lambda: xp.zeros_like(f32),
            "zeros_like(float32, dtype=float64)": lambda: xp.zeros_like(f32, dtype=xp.float64),
            "f32[0]": lambda: f32[0],
            "matmul(float32, float32)": lambda: f32 @ f32,
            "linalg.vector_norm(float32)": lambda: xp.linalg.vector_norm(f32),
            "fft.fft(float32)": lambda: xp.fft.fft(f32),
            "to_device(CPU_DEVICE)": lambda: f32.to_device(xp.Device("CPU_DEVICE")),
            "float32 + float32 on CPU_DEVICE": lambda: f32 + xp.ones(3, dtype=xp.float32),
            "where(b, float32, float32 on CPU_DEVICE)": lambda: xp.where(f32 > 0, f32, xp.ones(3, dtype=xp.float32)),
            "asarray(array, device=device1)": lambda: xp.asarray(f32, device=xp.Device("device1")),
        }.items():
            seen[p + label] = _outcome(call)

    # Flags.
    x = xp.asarray([1, 2, 3])
    mask = xp.asarray([True, False, True])
    xp.set_array_api_strict_flags(boolean_indexing=False)
    seen["boolean_indexing=False: flags"] = _show(xp.get_array_api_strict_flags())
    seen["boolean_indexing=False: x[mask]"] = _outcome(lambda: x[mask])
    seen["boolean_indexing=False: x[mask] = 0"] = _outcome(lambda: x.__setitem__(mask, 0))
    seen["boolean_indexing=False: x[0]"] = _outcome(lambda: x[0])
    seen["boolean_indexing=False: capabilities"] = _show(info.capabilities())
    xp.reset_array_api_strict_flags()
    seen["after reset: x[mask]"] = _outcome(lambda: x[mask])
    xp.set_array_api_strict_flags(data_dependent_shapes=False)
    seen["data_dependent_shapes=False: flags"] = _show(xp.get_array_api_strict_flags())
    for label, call in {
        "unique_values": lambda: xp.unique_values(x),
        "unique_all": lambda: xp.unique_all(x)[0],
        "nonzero": lambda: xp.nonzero(x)[0],
        "repeat(x, 2)": lambda: xp.repeat(x, 2),
        "repeat(x, array)": lambda: xp.repeat(x, xp.asarray([1, 1, 2])),
        "x[mask]": lambda: x[mask],
        "capabilities": lambda: info.capabilities(),
    }.items():
        seen[f"data_dependent_shapes=False: {label}"] = _outcome(call)
    xp.reset_array_api_strict_flags()
    with xp.ArrayAPIStrictFlags(boolean_indexing=False, data_dependent_shapes=False):
        seen["in ArrayAPIStrictFlags: flags"] = _show(xp.get_array_api_strict_flags())
    seen["after ArrayAPIStrictFlags: flags"] = _show(xp.get_array_api_strict_flags())

    xp.set_array_api_strict_flags(enabled_extensions=("fft",))
    seen["enabled_extensions=('fft',): flags"] = _show(xp.get_array_api_strict_flags())
    seen["enabled_extensions=('fft',): hasattr(xp, 'linalg')"] = str(hasattr(xp, "linalg"))
    seen["enabled_extensions=('fft',): 'linalg' in __all__"] = str("linalg" in xp.__all__)
    seen["enabled_extensions=('fft',): linalg.vector_norm"] = _outcome(lambda: xp.linalg.vector_norm(x * 1.0))
    seen["enabled_extensions=('fft',): fft.fft"] = _outcome(lambda: xp.fft.fft(x * 1.0))
    seen["enabled_extensions=('fft',): matmul"] = _outcome(lambda: xp.matmul(x, x))
    xp.reset_array_api_strict_flags()
    seen["enabled_extensions=('nope',)"] = _outcome(lambda: xp.set_array_api_strict_flags(enabled_extensions=("nope",)))
    xp.reset_array_api_strict_flags()
    seen["api_version='1999.12'"] = _outcome(lambda: xp.set_array_api_strict_flags(api_version="1999.12"))
    xp.reset_array_api_strict_flags()
    xp.set_array_api_strict_flags(api_version="2023.12")
    seen["api_version=2023.12: flags"] = _show(xp.get_array_api_strict_flags())
    seen["api_version=2023.12: __array_api_version__"] = xp.__array_api_version__
    seen["api_version=2023.12: xp.isin"] = _outcome(lambda: xp.isin(x, x))
    seen["api_version=2023.12: clip"] = _outcome(lambda: xp.clip(x, 0, 1))
    seen["api_version=2023.12 then 2022.12, enabled_extensions=('linalg', 'fft')"] = _outcome(
        lambda: xp.set_array_api_strict_flags(api_version="2021.12", enabled_extensions=("linalg", "fft"))
    )
    xp.reset_array_api_strict_flags()

    # Refusals consumers match on.
    i64 = xp.asarray([1, 2, 3])
    seen["int64 x[:] = 1.1"] = _message_matches(lambda: i64.__setitem__(slice(None), 1.1))
    seen["int64 + float32"] = _message_matches(lambda: i64 + xp.asarray([1.0], dtype=xp.float32))
    seen["int64 += 1.5"] = _message_matches(lambda: i64.__iadd__(1.5))
    seen["astype(int64, complex) then back"] = _message_matches(lambda: xp.astype(xp.asarray([1j]), xp.int64))
    xp.reset_array_api_strict_flags()
    return seen


def side_by_side(ask, script: str, *, every_row: bool) -> None:
    """Print what array-api-strict and the stand-in answer to ``ask(module)``: every answer, or
    only those that differ. ``script`` is the caller's file, run again by the stand-in's runner
    with ``--json`` (where ``array_api_strict`` is the stand-in) to print its answers."""
    import json
    import os
    import subprocess
    import sys

    import array_api_strict

    if len(sys.argv) > 1 and sys.argv[1] == "--json":  # in a process run by the stand-in
        print(json.dumps(ask(array_api_strict)))
        return
    real = ask(array_api_strict)
    command = [sys.executable, "-m", "array_api_promo.standin", "--", sys.executable, os.path.abspath(script), "--json"]
    ours = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    width = max(map(len, real))
    for key in real:
        mark = " " if real[key] == ours.get(key) else "!"
        if every_row or mark == "!":
            print(f"{mark} {key:<{width}}  {real[key]}")
        if mark == "!":
            print(f"  {'':<{width}}  {ours.get(key)}  (stand-in)")
    print(f"{sum(real[k] != ours.get(k) for k in real)} of {len(real)} differ")


if __name__ == "__main__":  # python tests/standin_probe.py: both side by side
    side_by_side(probe, __file__, every_row=True)
