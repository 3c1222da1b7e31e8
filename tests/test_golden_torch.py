"""The ``torch`` policy against golden tables generated from real PyTorch 2.13.0.

The tables (``tests/data/torch_2.13.0_*.json``) are produced by
``tools/gen_torch_golden.py`` and ``tools/gen_torch_op_golden.py``; these tests need
no torch.  ``test_live_*`` additionally compare against torch itself when it is
importable (and is 2.13.0).

Mapping of torch outcomes to ours:

* a dtype name -> the policy returns that dtype, except ``complex32`` (torch's
  ComplexHalf, which NumPy cannot store): the policy must return complex64 AND
  declare ``storage_substitutions["complex32"] is complex64`` -- counted and
  asserted, never silently passed;
* ``RuntimeError`` (promotion refused) -> ``TypeError``;
* ``OverflowError`` (Python int cannot be unpacked) -> ``OverflowError``;
* ``NotImplementedError ... not implemented for 'X'`` (no CPU kernel for the
  computed dtype X; promotion itself succeeded) -> the policy's promoted dtype is X.
"""

from __future__ import annotations

import ast
import json
import math
import pathlib
from collections import defaultdict

import numpy as np
import pytest
from golden_helpers import decide  # tests/ is on sys.path (rootdir-relative import mode)

from array_api_promo import promotion
from array_api_promo._dtypes import dtype_by_name

DATA = pathlib.Path(__file__).parent / "data"
PROMOTION_JSON = DATA / "torch_2.13.0_promotion.json"
OPS_JSON = DATA / "torch_2.13.0_ops.json"


def _load(path):
    with open(path) as fh:
        return json.load(fh)


GOLDEN = _load(PROMOTION_JSON)
DEFAULTS = ("float32", "float64")


def policy_for(default: str):
    pol = promotion.get_policy("torch@2.13")
    if default == "float32":
        return pol
    return pol.with_default_dtype(dtype_by_name(default))


def operand(spec: str):
    kind, _, val = spec.partition(":")
    if kind == "py":
        return ast.literal_eval(val)
    if kind == "nd":
        return promotion.nd(dtype_by_name(val))
    if kind == "0d":
        return promotion.zero_d(dtype_by_name(val))
    raise ValueError(spec)


class Expect:
    """What torch's record demands of the policy."""

    def __init__(self, record):
        self.record = record
        self.complex32 = False
        if isinstance(record, str):
            self.error = None
            self.dtype = record
            if record == "complex32":
                self.complex32 = True
                self.dtype = "complex64"
        elif "kernel_dtype" in record:
            # promotion succeeded; only the CPU kernel is missing
            self.error = None
            self.dtype = record["kernel_dtype"]
            if self.dtype == "complex32":
                self.complex32 = True
                self.dtype = "complex64"
        else:
            self.dtype = None
            self.error = {"RuntimeError": TypeError, "OverflowError": OverflowError}[record["error"]]


def outcome(fn, *args):
    """(dtype name or None, exception type or None, message)"""
    try:
        res = fn(*args)
    except (TypeError, OverflowError) as exc:
        return None, type(exc), str(exc)
    return res.name, None, ""


def mismatch(expect: Expect, got) -> str | None:
    name, exc, msg = got
    if expect.error is not None:
        if exc is None:
            return f"torch raises {expect.record['error']}: {expect.record['message']!r}; policy gave {name}"
        if not issubclass(exc, expect.error):
            return (
                f"torch raises {expect.record['error']} ({expect.record['message']!r}); policy "
                f"raised {exc.__name__}: {msg}"
            )
        return None
    if exc is not None:
        return f"torch gives {expect.record}; policy raised {exc.__name__}: {msg}"
    if name != expect.dtype:
        return f"torch gives {expect.record}; policy gave {name}"
    return None


def _check_complex32(pol, expect: Expect, counter):
    if expect.complex32:
        subs = getattr(pol, "storage_substitutions", {})
        assert subs.get("complex32") is dtype_by_name("complex64"), (
            "torch yields complex32 here; the policy must declare storage_substitutions['complex32'] -> complex64"
        )
        counter["complex32"] += 1


def _report(mismatches, total):
    if mismatches:
        shown = "\n".join(mismatches[:60])
        more = f"\n... and {len(mismatches) - 60} more" if len(mismatches) > 60 else ""
        pytest.fail(f"{len(mismatches)} of {total} cases differ from torch 2.13.0:\n{shown}{more}")


# -- table sanity ------------------------------------------------------------------------
def test_table_metadata():
    assert GOLDEN["generator"] == "tools/gen_torch_golden.py"
    assert GOLDEN["torch_version"] == "2.13.0"
    assert GOLDEN["three_operand_op"] == "torch.addcmul"
    pol = promotion.get_policy("torch@2.13")
    assert sorted(d.name for d in pol.dtypes) == sorted(GOLDEN["dtypes"])
    # every pair of 46 operands, for both default dtypes
    n = 2 * len(GOLDEN["dtypes"]) + len(GOLDEN["py_literals"])
    assert len(GOLDEN["cases"]) == 2 * n * n


def test_table_add_agrees_with_result_type():
    """Eager ``a + b`` and ``torch.result_type`` agree wherever ``+`` has a kernel."""
    for case in GOLDEN["cases"]:
        rt, add = case["result_type"], case["add"]
        if isinstance(add, dict) and "kernel_dtype" in add:
            assert rt == add["kernel_dtype"], case
        else:
            assert rt == add, case


# -- pairs -------------------------------------------------------------------------------
_PAIRS = defaultdict(list)
for _case in GOLDEN["cases"]:
    _PAIRS[(_case["default_dtype"], _case["operands"][0])].append(_case)


def _check_cases(default, cases, key, call):
    """The policy's ``result_type`` against torch's dtype ``case[key]`` (of ``torch.<call>``) for each case."""
    pol = policy_for(default)
    counter = defaultdict(int)
    bad = []
    for case in cases:
        expect = Expect(case[key])
        why = mismatch(expect, outcome(pol.result_type, *map(operand, case["operands"])))
        if why:
            bad.append(f"{default} {call}({', '.join(case['operands'])}): {why}")
        else:
            _check_complex32(pol, expect, counter)
    _report(bad, len(cases))


@pytest.mark.parametrize("default,first", sorted(_PAIRS), ids=lambda v: str(v))
def test_pairs(default, first):
    _check_cases(default, _PAIRS[(default, first)], "result_type", "result_type")


def test_complex32_substitution_is_documented():
    """The only deviation from torch: complex32 results are stored as complex64."""
    pol = promotion.get_policy("torch@2.13")
    assert pol.storage_substitutions == {"complex32": dtype_by_name("complex64")}
    c32 = [c for c in GOLDEN["cases"] if c["result_type"] == "complex32"]
    assert c32, "the table should contain complex32 results (float16 + complex)"
    for case in c32:
        assert "float16" in " ".join(case["operands"])
        pol_d = policy_for(case["default_dtype"])
        assert pol_d.result_type(*map(operand, case["operands"])) is dtype_by_name("complex64")


def test_errors_name_the_policy():
    pol = promotion.get_policy("torch@2.13")
    with pytest.raises(TypeError, match="torch"):
        pol.result_type(promotion.nd(dtype_by_name("uint16")), promotion.nd(dtype_by_name("int8")))
    with pytest.raises(OverflowError, match="torch"):
        pol.result_type(promotion.nd(dtype_by_name("float32")), 2**64)


# -- three operands (torch.addcmul) -------------------------------------------------------
_TRIPLES = defaultdict(list)
for _case in GOLDEN["three_operand_cases"]:
    _TRIPLES[(_case["default_dtype"], _case["operands"][0])].append(_case)


@pytest.mark.parametrize("default,first", sorted(_TRIPLES), ids=lambda v: str(v))
def test_three_operands(default, first):
    _check_cases(default, _TRIPLES[(default, first)], "result", "addcmul")


# -- scalar values: wrap-around and inf ------------------------------------------------
def _golden_value(v):
    if isinstance(v, str):
        return {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}[v]
    return v


@pytest.mark.parametrize("default", DEFAULTS)
def test_scalar_values(default):
    pol = policy_for(default)
    bad = []
    cases = [c for c in GOLDEN["scalar_values"] if c["default_dtype"] == default]
    checked = 0
    for case in cases:
        value = ast.literal_eval(case["scalar"][3:])
        tensor = operand(case["tensor"])
        # the value torch stores: from "+" or, where + lacks a kernel, from "| 0"
        rec = case["add"]
        if (
            isinstance(rec, dict)
            and "kernel_dtype" in rec
            and isinstance(case["bitwise_or"], dict)
            and "values" in case["bitwise_or"]
        ):
            rec = case["bitwise_or"]
        label = f"{default} {case['tensor']} + {case['scalar']}"
        if "error" in rec:
            if "kernel_dtype" in rec:
                continue
            got = outcome(pol.result_type, tensor, value)
            why = mismatch(Expect(rec), got)
            if why:
                bad.append(f"{label}: {why}")
            continue
        rtype = outcome(pol.result_type, tensor, value)
        if rtype[0] != rec["dtype"]:
            bad.append(f"{label}: torch dtype {rec['dtype']}, policy {rtype}")
            continue
        try:
            stored = pol.convert_scalar(value, dtype_by_name(rec["dtype"]))
        except (TypeError, OverflowError, ValueError) as exc:
            bad.append(f"{label}: convert_scalar raised {type(exc).__name__}: {exc}")
            continue
        want = _golden_value(rec["values"][0])
        got_v = stored.item() if hasattr(stored, "item") else stored
        if isinstance(want, float):
            ok = float(got_v) == want or (math.isnan(want) and math.isnan(float(got_v)))
        else:
            ok = int(got_v) == want
        checked += 1
        if not ok:
            bad.append(f"{label}: torch stores {want!r}, policy converts to {got_v!r}")
    assert checked > 100
    _report(bad, len(cases))


# -- per-operation dtypes (torch_2.13.0_ops.json) -------------------------------------
OPS_GOLDEN = _load(OPS_JSON)

# reductions / ops without an OpSpec: checked through the dedicated hooks below
_ACCUMULATING = {"sum", "prod", "cumulative_sum"}
_INPLACE = {"iadd": "add", "imul": "multiply", "itruediv": "divide", "ifloordiv": "floor_divide"}
# ops of the table that the engine does not describe (no OpSpec / hook): not compared
_NOT_MODELLED = {"mean", "max", "argmax", "std", "var", "vector_norm"}


def _classify_op_record(rec):
    """'dtype' | 'refuse' | 'kernel' | 'signature' (torch API takes no Python scalar)."""
    if isinstance(rec, str):
        return "dtype"
    if "kernel_dtype" in rec:
        return "kernel"
    if rec["error"] == "TypeError" and "must be Tensor" in rec["message"]:
        return "signature"
    return "refuse"


def _policy_op(pol, name, operands):
    """Result dtype name of op ``name`` under ``pol`` (raises TypeError/OverflowError)."""
    if name in _ACCUMULATING:
        (op,) = operands
        return pol.accumulation_dtype(name, op.dtype)
    if name in _INPLACE:
        target = operands[0].dtype
        decision = decide(pol, _INPLACE[name], operands, what=name)
        pol.inplace_result(name, decision.result, target)
        return target
    sig, scalars = pol.signature(operands)
    decision = pol.decide(promotion.op_spec(name), sig)
    for value in scalars:
        pol.check_scalar(value, decision.compute, name)
        if name in ("clip", "where"):  # converted, not promoted: torch's checked_convert
            pol.convert_scalar(value, decision.compute, name)
    return decision.result


_OP_CASES = defaultdict(list)
for _section in ("unary", "binary"):
    for _case in OPS_GOLDEN[_section]:
        if _case["op"] not in _NOT_MODELLED:
            _OP_CASES[(_case["default_dtype"], _case["op"])].append(_case)


@pytest.mark.parametrize("default,op", sorted(_OP_CASES), ids=lambda v: str(v))
def test_ops(default, op):
    """Result dtype of each op; torch's refusals must be refusals.

    A missing CPU kernel (``"add_stub" not implemented for 'UInt16'``) does not
    constrain the result (NumPy has the kernel); a torch function that takes no
    Python scalar (``torch.maximum(t, 1)``) does not constrain it either.
    """
    pol = policy_for(default)
    bad = []
    cases = _OP_CASES[(default, op)]
    for case in cases:
        rec = case["result"]
        kind = _classify_op_record(rec)
        if kind in ("kernel", "signature"):
            continue
        ops = [operand(s) for s in case["operands"]]
        got = outcome(lambda *a: _policy_op(pol, op, a), *ops)
        label = f"{default} {op}({', '.join(case['operands'])})"
        if kind == "refuse":
            if got[1] is None:
                bad.append(f"{label}: torch refuses ({rec['error']}: {rec['message']!r}); policy gave {got[0]}")
            continue
        want = "complex64" if rec == "complex32" else rec
        if got[1] is not None:
            bad.append(f"{label}: torch gives {rec}; policy raised {got[1].__name__}: {got[2]}")
        elif got[0] != want:
            bad.append(f"{label}: torch gives {rec}; policy gave {got[0]}")
    _report(bad, len(cases))


# -- live comparison with torch -------------------------------------------------------
def _live_torch():
    torch = pytest.importorskip("torch")
    if torch.__version__.split("+")[0] != GOLDEN["torch_version"]:
        pytest.skip(f"live comparison needs torch {GOLDEN['torch_version']}, found {torch.__version__}")
    return torch


def _torch_operand(torch, spec):
    kind, _, val = spec.partition(":")
    if kind == "py":
        return ast.literal_eval(val)
    shape = (2,) if kind == "nd" else ()
    return torch.ones(shape, dtype=getattr(torch, val))


@pytest.mark.parametrize("default", DEFAULTS)
def test_live_result_type_matches_table(default):
    """The committed table is what this torch computes (regenerate it otherwise)."""
    torch = _live_torch()
    previous = torch.get_default_dtype()
    torch.set_default_dtype(getattr(torch, default))
    try:
        for case in GOLDEN["cases"]:
            if case["default_dtype"] != default:
                continue
            a, b = (_torch_operand(torch, s) for s in case["operands"])
            try:
                got = str(torch.result_type(a, b)).removeprefix("torch.")
            except Exception as exc:  # noqa: BLE001
                got = {"error": type(exc).__name__, "message": str(exc).splitlines()[0]}
            assert got == case["result_type"], case
    finally:
        torch.set_default_dtype(previous)


def _torch_outcome(fn):
    """torch's result in the table's encoding."""
    try:
        out = fn()
        return str(getattr(out, "dtype", out)).removeprefix("torch.")
    except Exception as exc:  # noqa: BLE001
        rec = {"error": type(exc).__name__, "message": str(exc).splitlines()[0]}
        if isinstance(exc, NotImplementedError):
            import re

            m = re.search(r"not implemented for '(\w+)'", rec["message"])
            names = {
                "Bool": "bool",
                "Byte": "uint8",
                "Char": "int8",
                "Short": "int16",
                "Int": "int32",
                "Long": "int64",
                "UInt16": "uint16",
                "UInt32": "uint32",
                "UInt64": "uint64",
                "Half": "float16",
                "BFloat16": "bfloat16",
                "Float": "float32",
                "Double": "float64",
                "ComplexHalf": "complex32",
                "ComplexFloat": "complex64",
                "ComplexDouble": "complex128",
            }
            if m and m.group(1) in names:
                rec["kernel_dtype"] = names[m.group(1)]
        return rec


_LIVE_SCALARS = [
    0,
    7,
    -3,
    255,
    256,
    -(2**31),
    2**40,
    2**63 - 1,
    2**63,
    2**64 - 1,
    2**64,
    -(2**63),
    -(2**63) - 1,
    0.25,
    -2.5e300,
    float("inf"),
    True,
    False,
    2j,
    -1 + 0.5j,
]


def _tensor_operand(torch, name, nd):
    """A tensor of ``name`` (n-d or 0-d), the policy's operand for it, and its label."""
    return (
        torch.ones((2,) if nd else (), dtype=getattr(torch, name)),
        (promotion.nd if nd else promotion.zero_d)(dtype_by_name(name)),
        ("nd:" if nd else "0d:") + name,
    )


def _live_random(default, seed, draw, call, label):
    """2000 random cases, each the operands ``draw(torch, rng)`` yields: policy vs ``call(torch, *tensors)``'s dtype."""
    torch = _live_torch()
    rng = np.random.default_rng(seed)
    pol = policy_for(default)
    previous = torch.get_default_dtype()
    torch.set_default_dtype(getattr(torch, default))
    bad = []
    try:
        for _ in range(2000):
            t_ops, p_ops, labels = zip(*draw(torch, rng))
            rec = _torch_outcome(lambda: call(torch, *t_ops))
            why = mismatch(Expect(rec), outcome(pol.result_type, *p_ops))
            if why:
                bad.append(f"{default} {label(labels)}: {why}")
    finally:
        torch.set_default_dtype(previous)
    _report(sorted(set(bad)), 2000)


def _random_pair(torch, rng):
    """Two operands, each an n-d or 0-d tensor of any dtype or a Python scalar."""
    names = GOLDEN["dtypes"]
    for _k in range(2):
        r = rng.integers(3)
        if r == 2:
            v = _LIVE_SCALARS[rng.integers(len(_LIVE_SCALARS))]
            yield v, v, repr(v)
        else:
            yield _tensor_operand(torch, names[rng.integers(len(names))], r == 0)


def _random_triple(torch, rng):
    """Three n-d or 0-d tensors of any dtype."""
    names = GOLDEN["dtypes"]
    for _k in range(3):
        nd = bool(rng.integers(2))
        yield _tensor_operand(torch, names[rng.integers(len(names))], nd)


@pytest.mark.parametrize("default", DEFAULTS)
def test_live_random_pairs(default):
    """Random pairs of tensors (n-d, 0-d) and Python scalars: policy vs torch.result_type."""
    _live_random(default, 1234, _random_pair, lambda torch, *t: torch.result_type(*t), lambda ls: str(list(ls)))


@pytest.mark.filterwarnings("ignore:ComplexHalf support is experimental:UserWarning")  # real torch making complex32
@pytest.mark.parametrize("default", DEFAULTS)
def test_live_random_triples(default):
    """Random triples of n-d/0-d tensors of every dtype: policy vs torch.addcmul's dtype."""
    _live_random(default, 4321, _random_triple, lambda torch, *t: torch.addcmul(*t), lambda ls: f"addcmul{ls}")


@pytest.mark.parametrize("default", DEFAULTS)
def test_explain_agrees_with_result_type(default):
    """``explain`` traces the same decision ``result_type`` makes (sampled cases)."""
    pol = policy_for(default)
    cases = [c for c in GOLDEN["cases"] if c["default_dtype"] == default][::7]
    for case in cases:
        ops = [operand(s) for s in case["operands"]]
        name, exc, _ = outcome(pol.result_type, *ops)
        trace = pol.explain(*ops)
        text = str(trace)
        assert "torch" in text
        if exc is None:
            assert trace.error is None and trace.result.name == name, text
            assert text.rstrip().endswith(name), text
        else:
            assert isinstance(trace.error, exc), text
