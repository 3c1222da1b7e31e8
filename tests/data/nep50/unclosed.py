"""Files written and never closed, an atexit hook, a thread still running at the end, and sys.exit(3)."""

import atexit
import sys
import threading
import time

import numpy as np

log = open("log.txt", "w")  # noqa: SIM115 - never closed: flushed when the interpreter shuts down
log.write("x" * 31)
data = open("data.bin", "wb")  # noqa: SIM115
data.write(np.arange(4, dtype=np.uint8).tobytes() + (np.ones(2, dtype=np.float32) * 2.5).tobytes())


def late():
    time.sleep(0.3)
    with open("thread.txt", "w") as f:
        f.write("written by a thread after the main script ended\n")
    print("thread done", flush=True)


atexit.register(lambda: print("atexit hook ran"))
threading.Thread(target=late).start()
print("main script ends")
sys.exit(3)
