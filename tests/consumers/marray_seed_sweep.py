"""marray's own tests over many seeds, with array-api-strict and through the stand-in, compared call by call.

A developer's tool, not a test (too slow for CI: about 25 s of CPU per seed and side for the whole
``array_api_strict`` selection).  marray's tests draw unseeded data (``get_arrays(..., seed=None)``), so
``test_marray.py`` meets one random draw per run; this sweep calls every collected test function that
takes ``seed`` with each seed of a range, in one pytest process with the real array-api-strict and one
through ``python -m array_api_promo.standin`` (this checkout first on ``PYTHONPATH``), records each
call's outcome class -- pass, xfail or skip with its text (ours after `` (array_api_promo: `` left
out), or the failure's exception chain -- and prints every (test, seed) whose class differs::

    python tests/consumers/marray_seed_sweep.py --seeds 0:20 [-k "test_arithmetic_binary and complex64"]

(``-k`` takes pytest's words, not ids' punctuation: ``x ** y`` cannot be named.)  With the complex
``pow`` fix (2e3e688) reverted, seeds 0:80 of ``test_arithmetic_binary and complex64`` give 4
differing calls of 800 (the power tests; seeds 4 and 50 among them); with it, none.

Exit status 1 when a call differs.  Tests without a ``seed`` parameter are called once.  The first
sweep (marray 0.0.12, after 2e3e688) compared 79,063 calls and found no difference: seeds 0-4 of all
3,899 tests, 1000-1049 of the arithmetic, in-place, comparison, bitwise, take, where, clip and
cumulative tests, 2000-2014 (in part) of the elementwise, statistical, diff and count tests.  marray's tests
do not tell last-place values apart (``assert_allclose``; its in-place test compares a buffer with
itself), so the functions were also compared directly on marray's distribution, bit for bit: that
found complex ``sign``, ``mean``, ``x *= y`` and ``cumulative_prod(include_initial=True)`` in the last
place, the NaN of ``var`` without degrees of freedom, ``argsort(stable=False)``'s order and the
shifts' order of checks, since made array-api-strict's.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import re
import subprocess
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
_OURS = re.compile(r" \(array_api_promo: .*\)$", re.DOTALL)


# -- the pytest plugin (``-p marray_seed_sweep``): each test function called once per seed -------------
def _classify(exc) -> tuple[str, str]:
    import pytest

    if isinstance(exc, (pytest.xfail.Exception, pytest.skip.Exception)):
        kind = "xfail" if isinstance(exc, pytest.xfail.Exception) else "skip"
        return kind, _OURS.sub("", str(getattr(exc, "msg", exc)))
    chain, inner = [], exc
    while exc is not None:
        chain.append(type(exc).__name__)
        inner = exc
        exc = exc.__cause__ or (None if exc.__suppress_context__ else exc.__context__)
    return "fail:" + "<-".join(chain), str(inner)[:300]


def pytest_pyfunc_call(pyfuncitem):
    f = pyfuncitem.obj
    args = {a: pyfuncitem.funcargs[a] for a in pyfuncitem._fixtureinfo.argnames}
    takes_seed = "seed" in inspect.signature(f).parameters and "seed" not in args
    lo, hi = (int(v) for v in os.environ["MARRAY_SEED_SWEEP_SEEDS"].split(":"))
    with open(os.environ["MARRAY_SEED_SWEEP_OUT"], "a") as out:
        for seed in range(lo, hi) if takes_seed else [None]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    f(**args, **({"seed": seed} if takes_seed else {}))
                    outcome, detail = "pass", ""
                except Exception as exc:  # noqa: BLE001 - every outcome is recorded
                    outcome, detail = _classify(exc)
            out.write(json.dumps({"id": pyfuncitem.nodeid, "seed": seed, "outcome": outcome, "detail": detail}) + "\n")
    return True


# -- the driver ------------------------------------------------------------------------------------------
def _run(standin: bool, seeds: str, select: str, out: str, tests: str) -> dict:
    sys.path.insert(0, HERE)
    from _standin_suite import env

    environ = env()
    environ["PYTHONPATH"] = os.pathsep.join([HERE, environ["PYTHONPATH"]])
    environ.update(MARRAY_SEED_SWEEP_SEEDS=seeds, MARRAY_SEED_SWEEP_OUT=out)
    runner = [sys.executable, "-m", "array_api_promo.standin", "--"] if standin else []
    command = [*runner, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "marray_seed_sweep"]
    return subprocess.Popen([*command, "-k", select, tests], env=environ, cwd=os.path.dirname(out),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)  # fmt: skip


def _load(path: str) -> dict:
    with open(path) as f:
        return {(r["id"], r["seed"]): r for r in map(json.loads, f)}


def _key(r: dict) -> str:
    return r["outcome"] + (":" + r["detail"] if r["outcome"] in ("xfail", "skip") else "")


def main(argv=None) -> int:
    import marray

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0:10", help="a range of seeds, START:STOP (default 0:10)")
    parser.add_argument("-k", dest="select", default="", help="more of pytest's -k (and-ed with array_api_strict)")
    args = parser.parse_args(argv)
    select = "array_api_strict" + (f" and ({args.select})" if args.select else "")
    tests = os.path.join(os.path.dirname(os.path.abspath(marray.__file__)), "tests")
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, "reference.jsonl"), os.path.join(tmp, "standin.jsonl")]
        procs = [_run(side, args.seeds, select, path, tests) for side, path in zip((False, True), paths)]
        for proc in procs:
            _, err = proc.communicate()
            if proc.returncode not in (0, 1):
                print(err[-3000:], file=sys.stderr)
                return 2
        ref, ours = (_load(p) for p in paths)
    common = sorted(ref.keys() & ours.keys(), key=str)
    differ = [k for k in common if _key(ref[k]) != _key(ours[k])]
    print(f"marray {marray.__version__}, seeds {args.seeds}: {len(common)} calls compared, {len(differ)} differ")
    for k in differ:
        print(f"  {k[0]} seed={k[1]}")
        for side, r in (("array-api-strict", ref[k]), ("stand-in", ours[k])):
            print(f"    {side + ':':17} {_key(r)[:200]} {' / '.join(r['detail'].split())[:200]}")
    if ref.keys() != ours.keys():
        print(f"  {len(ref.keys() ^ ours.keys())} calls ran on one side only")
    return 1 if differ or ref.keys() != ours.keys() else 0


if __name__ == "__main__":
    sys.exit(main())
