"""A process run by the stand-in (``python -m array_api_promo.standin``), as a consumer's suite meets it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TESTS)


def standin_env(path: tuple = ()) -> dict:
    """The environment of a run: this checkout and ``path`` first on ``PYTHONPATH``, no flag or
    policy of ours or array-api-strict's."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([ROOT, *path] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    for var in list(env):
        if var.startswith(("ARRAY_API_STRICT_", "ARRAY_API_PROMO_")):
            del env[var]
    return env


def run_standin(command: list, *options: str, cwd=None, env=None, timeout: float = 300):
    """``command`` run by the stand-in with ``options`` (in ``standin_env()`` unless ``env`` is given),
    its output captured as text: it exits 0, else its output is the failure."""
    proc = subprocess.run(
        [sys.executable, "-m", "array_api_promo.standin", *options, "--", *command],
        check=False,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=standin_env() if env is None else env,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def through_standin(code: str, *options: str, path: tuple = ()):
    """What ``code`` (Python that prints one JSON document) prints in a process run by the stand-in
    with ``options``, in ``standin_env(path)``."""
    proc = run_standin([sys.executable, "-c", code], *options, env=standin_env(path))
    return json.loads(proc.stdout.splitlines()[-1])
