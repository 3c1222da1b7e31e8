"""A class that augments its private (name-mangled) attributes, plain and NumPy."""

import numpy as np


class Counter:
    def __init__(self):
        self.__n = 0
        self.__total = np.zeros(2, dtype=np.float32)
        self._Counter__seen = []

    def add(self, k):
        self.__n += k
        self.__total += np.float32(k)
        self.__seen.append(k)
        return self.__n

    @property
    def total(self):
        return self.__total


c = Counter()
print(c.add(1), c.add(2), c.total, c._Counter__n, c._Counter__seen)
