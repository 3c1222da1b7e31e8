"""sys.exit with a message: printed on stderr, status 1."""

import sys

import numpy as np

x = np.arange(3)
if (x * 2).sum() == 6:
    sys.exit(f"done with {x.dtype}")
