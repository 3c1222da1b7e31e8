"""The language around NumPy operations: __future__ imports, decorators, generators, async code,
classes with their own operators, dataclasses, match, walrus, f-strings, comprehensions, super()."""

from __future__ import annotations

import asyncio
import dataclasses
import functools

import numpy as np


def logged(tag):
    def decorate(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            result = f(*args, **kwargs)
            print(f"{tag}: {f.__name__} -> {result!r}")
            return result

        return wrapper

    return decorate


@logged("dec")
def double(x: np.ndarray | int) -> np.ndarray | int:
    return x * 2


def squares(n):
    total = 0
    for i in range(n):
        total += i * i
        yield total
    yield from (np.int64(i) ** 2 for i in range(2))


async def fetch(i):
    await asyncio.sleep(0)
    return np.float32(i) / 2


async def gather():
    values = await asyncio.gather(*(fetch(i) for i in range(3)))
    return [float(v) + 0.5 for v in values]


class Vec:
    def __init__(self, *xs):
        self.xs = list(xs)

    def __add__(self, other):
        return Vec(*[a + b for a, b in zip(self.xs, other.xs)])

    def __radd__(self, other):
        return Vec(*[other + a for a in self.xs])

    def __iadd__(self, other):
        self.xs = [a + other for a in self.xs]
        return self

    def __lt__(self, other):
        return sum(self.xs) < sum(other.xs)

    def __getitem__(self, i):
        return self.xs[i]

    def __setitem__(self, i, v):
        self.xs[i] = v * 10

    def __neg__(self):
        return Vec(*[-a for a in self.xs])

    def __repr__(self):
        return f"Vec{tuple(self.xs)}"


class Child(Vec):
    def __init__(self, *xs):
        super().__init__(*xs)
        self.kind = type(self).__name__


@dataclasses.dataclass
class Point:
    x: float
    y: np.float32 = np.float32(1)

    def norm(self) -> float:
        return (self.x**2 + self.y**2) ** 0.5


v = Vec(1, 2) + Vec(3, 4)
v += 1
v[0] = 5
c = Child(1, 2)
w = 10 + c
print(v, w, -v, v < w, c.kind, v[1])
print(double(3), double(np.arange(2, dtype=np.int8)))
print(list(squares(4)))
print(asyncio.run(gather()))
print(Point(3.0).norm(), Point.__annotations__)
match np.int16(3) + 1:
    case 4:
        print("matched four")
if (n := np.uint8(7) + 1) > 7:
    print(f"walrus {n!r} {n + 1:.1f} {[i * 2 for i in range(3)]} {1 < 2 < 3}")
print({k: k * 1.5 for k in range(2)}, locals()["n"] == 8)
