"""A module of the program's own, imported by kinds.py: its lines are the user's too."""

import sys

import numpy as np


def probe(call):
    line = sys._getframe(1).f_lineno
    try:
        result = call()
        outcome = result.name if isinstance(result, np.dtype) else result.dtype.name
    except (TypeError, ValueError, OverflowError) as exc:
        builtin = next(c for c in type(exc).__mro__ if c.__module__ == "builtins")  # UFuncTypeError: TypeError
        outcome = f"raises {builtin.__name__}"
    print(f"probe {line}: {outcome}")


def offset(x, by):
    return x - by  # [offset]


class Accumulator:
    def __init__(self, dtype):
        self.total = np.zeros(2, dtype=dtype)

    def add(self, amount):
        self.total += amount  # [accumulate]
        return self.total
