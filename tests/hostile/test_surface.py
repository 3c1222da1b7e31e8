"""Every public operation of both namespaces, called with arguments from the hostile pool.

Quick profile (CI): a few examples per operation.  Deep profile, at least 100,000 calls::

    HOSTILE_PROFILE=deep python -m pytest -q -p no:cacheprovider tests/hostile/test_surface.py

(the figures are printed at the end; ``HOSTILE_REPORT=path.json`` also writes them).
"""

from __future__ import annotations

import os
import types

import _fuzz
import pytest
from hypothesis import HealthCheck, Phase, given, note, seed, settings, strategies as st

import array_api_promo as xp
import array_api_promo.torch as tx

NAMESPACES = {"xp": xp, "tx": tx}
TARGETS = [t for prefix, ns in NAMESPACES.items() for t in _fuzz.surface(ns, prefix)]
PROFILE = _fuzz.profile_settings()
# HOSTILE_NO_SHRINK=1: report the first failing example as found (a faster survey).
# HOSTILE_SEED=n: other examples than the reproducible default (derandomized) ones.
SEED = int(os.environ["HOSTILE_SEED"]) if os.environ.get("HOSTILE_SEED") else None
PHASES = [p for p in Phase if not (os.environ.get("HOSTILE_NO_SHRINK") and p is Phase.shrink)]


def test_surface_is_found_by_introspection():
    keys = {t.key for t in TARGETS}
    for prefix, ns in NAMESPACES.items():
        for name in ns.__all__:
            if isinstance(getattr(ns, name), types.MethodType):  # every function of the namespace
                assert f"{prefix}.{name}" in keys
        for ext in ("linalg", "fft"):
            for name in getattr(ns, ext).__all__:
                assert f"{prefix}.{ext}.{name}" in keys
        for name in dir(xp.Array):  # every method, operator and property of the array
            if not name.startswith("_") or (
                name.startswith("__") and name not in _fuzz._NOT_CALLABLE_MEMBERS and name in vars(xp.Array)
            ):
                assert f"{prefix}.Array.{name}" in keys
    for expected in ("tx.Array.__iadd__", "xp.Array.__rmatmul__", "xp.Array.mT", "xp.info.default_dtypes", "namespace"):
        assert expected in keys


@pytest.mark.parametrize("target", TARGETS, ids=[t.key for t in TARGETS])
def test_hostile_call(target):
    ns = NAMESPACES[target.key.split(".")[0]] if target.key != "namespace" else xp

    @settings(
        max_examples=PROFILE["examples"],
        deadline=None,
        database=None,
        derandomize=SEED is None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
        phases=PHASES,
    )
    @seed(SEED)
    @given(st.data())
    def run(data):
        self_array = None
        if target.kind in ("method", "property", "operator"):
            self_array = _fuzz.plausible(data, ns, "array", st, [])
            if not isinstance(self_array, xp.Array):
                self_array = _fuzz.plausible_array(ns, ns.float64, (3,), 1)
            if data.draw(st.integers(0, 5), label="edge self") == 0:
                _cls, _label, factory = data.draw(st.sampled_from([r for r in _fuzz.HOSTILE if r[0] == "edge_array"]))
                self_array = factory(ns)
        drawn = _fuzz.draw_call(data, ns, target, st)
        if target.kind == "operator":
            drawn.via_operator = data.draw(st.integers(0, 3), label="via operator") != 0
        note(f"args={drawn.labels} classes={sorted(drawn.classes)}")
        _fuzz.call_and_check(ns, target, self_array, drawn, PROFILE["time_limit"])

    run()
