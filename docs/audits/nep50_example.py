"""A small image pipeline written in NumPy 1.x days, audited for NumPy 2 (NEP 50).

Run it under the audit (see nep50.md) and the runner's ``array_api_strict`` is a namespace of
policy ``numpy`` (NumPy 2's rules) that records every line where ``numpy_legacy`` (NumPy 1.x's
value-based casting) would have given another dtype or refused differently.
"""

import array_api_strict as xp


def brighten(image, amount):
    # uint8 + a Python int: NumPy 1 widened for a value beyond uint8; NumPy 2 keeps uint8 or refuses
    return xp.clip(image + amount, 0, 255)


def normalize(image, mean, std):
    # float32 data with 0-d float64 statistics: NumPy 1 kept float32 (the 0-d values fit), NumPy 2 gives float64
    return (xp.astype(image, xp.float32) - mean) / std


def offsets(counts, base):
    # int8 counts shifted by a 0-d int64: NumPy 1 kept int8 while the value fit
    return counts + base


def main():
    image = xp.asarray([[0, 64], [128, 250]], dtype=xp.uint8)
    brighter = brighten(image, 3)  # the same under both: 3 fits uint8
    print("brighten by 3:", brighter.dtype)
    try:
        print("brighten by 300:", brighten(image, 300).dtype)
    except OverflowError as exc:  # NumPy 2: 300 does not fit uint8
        print("brighten by 300: OverflowError:", exc)
    stats = xp.astype(image, xp.float64)
    mean, std = xp.mean(stats), xp.std(stats)
    print("normalize:", normalize(image, mean, std).dtype)
    counts = xp.asarray([1, 2, 3], dtype=xp.int8)
    for base in (1, 2, 1000):
        print(f"offsets + {base}:", offsets(counts, xp.asarray(base, dtype=xp.int64)).dtype)
    print("halved:", (xp.astype(image, xp.float32) * 0.5).dtype)  # a Python float: float32 under both


if __name__ == "__main__":
    main()
