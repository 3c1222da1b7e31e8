"""Warnings raised and caught by the program, and by another thread, while NumPy operations are compared."""

import threading
import warnings

import numpy as np

warnings.simplefilter("always", UserWarning)


def noisy(n):
    for i in range(n):
        warnings.warn(f"from the thread {i}", UserWarning, stacklevel=1)


def deprecated():
    warnings.warn("deprecated() is deprecated", DeprecationWarning, stacklevel=2)


thread = threading.Thread(target=noisy, args=(200,))
thread.start()
x = np.ones(4, dtype=np.float32)
for _ in range(2000):
    y = x * np.float32(0.5) + 1.0
thread.join()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    deprecated()
    warnings.warn("caught by the program")  # noqa: B028 - at this line, deliberately
print([(w.category.__name__, str(w.message), w.lineno) for w in caught])
with np.errstate(over="warn"):
    print(np.float32(3e38) * np.float32(10))  # NumPy's own RuntimeWarning, at this line
warnings.warn("uncaught, at the end", UserWarning)  # noqa: B028
