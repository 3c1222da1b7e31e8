"""Attributing dtype failures to the promotion policy rule that produced them,
through the engine's ``explain``."""

from __future__ import annotations

import re

from .model import generic_rule
from .normalize import WRONG_DTYPE, elementwise_name, split_nodeid

_PY = {"bool": True, "int": 1, "float": 1.0, "complex": 1j}
_REDUCTIONS = ("sum", "prod", "cumulative_sum", "cumulative_prod")


def _engine():
    try:
        from array_api_promo import promotion
        from array_api_promo._dtypes import dtype_by_name
    except ImportError:
        return None, None
    return promotion, dtype_by_name


def _policy(promotion, name: str):
    try:
        return promotion.get_policy(name)
    except (TypeError, ValueError):  # not a registered policy name
        return None


def _dtype_names(dtype_by_name) -> list:
    names = []
    for n in (
        "bool",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "int8",
        "int16",
        "int32",
        "int64",
        "float16",
        "bfloat16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    ):
        try:
            dtype_by_name(n)
            names.append(n)
        except ValueError:  # e.g. bfloat16 without ml_dtypes
            pass
    return names


def attribute(policy_name, entry: dict) -> dict | None:
    """{'trace': str(explain), 'rule': generic rule, 'engine_result': ..., 'explained': bool}."""
    counterpart = _missing_counterpart(policy_name, entry)
    if counterpart is not None:
        return counterpart
    unknown = _unknown_size(entry)
    if unknown is not None:
        return unknown
    detail = entry.get("dtype")
    if entry.get("kind") != WRONG_DTYPE or not detail:
        return None
    promotion, dtype_by_name = _engine()
    if promotion is None:
        return None
    pol = _policy(promotion, policy_name)
    if pol is None:
        return None
    ins = detail.get("inputs") or []
    call = detail.get("call")
    if call and call.get("operands") and call.get("function") not in _REDUCTIONS:
        return _attribute_call(promotion, dtype_by_name, pol, detail, call)
    ranks = detail.get("ranks") or {}
    labels = sorted(ranks)
    ops = []
    try:
        for i, name in enumerate(ins):
            if name in _PY:
                ops.append(_PY[name])
                continue
            dt = dtype_by_name(name)
            rank = ranks.get(labels[i]) if i < len(labels) else None
            ops.append(promotion.zero_d(dt) if rank == "0-d" else promotion.nd(dt))
        _, _, _, param = split_nodeid(entry["nodeid"])
        if len(ins) == 1 and param and "(x, s)" in param:
            kind = (
                "bool"
                if ins[0] == "bool"
                else "int"
                if "int" in ins[0]
                else "complex"
                if "complex" in ins[0]
                else "float"
            )
            ops.append(_PY[kind])
    except ValueError:  # a dtype name the engine does not know
        return None
    func = detail.get("function", "")
    if func in _REDUCTIONS and len(ins) == 1 and ins[0] not in _PY and hasattr(pol, "accumulation_dtype"):
        try:
            acc = pol.accumulation_dtype(func, dtype_by_name(ins[0]))
        except (TypeError, ValueError):  # unknown dtype, or one the policy cannot accumulate
            return None
        got = detail.get("got")
        explained = acc.name == got
        rule = (
            "accumulation dtype of sum/prod-like reductions"
            if explained
            else f"not explained by the policy: its accumulation dtype is {acc.name}, the namespace returned {got}"
        )
        trace = (
            f"{func} under policy {getattr(pol, 'name', '?')!r}:\n  operands: {ins[0]} array\n"
            f"  - accumulation_dtype({func!r}, {ins[0]}) = {acc.name}\n  => {acc.name}"
        )
        return {"trace": trace, "rule": rule, "engine_result": acc.name, "explained": explained}
    op = elementwise_name(func)
    if op not in getattr(promotion, "OPS", {}):
        op = "result_type"
    return _explained(pol, ops, op, detail.get("got"), dtype_by_name)


# The suite's dtype_helpers.complex_dtype_for maps float32 -> complex64 and float64 -> complex128
# and raises where the namespace lacks the counterpart.
_SUITE_COUNTERPART = re.compile(r"ValueError: no complex dtype to match (?:\S+\.)?(float32|float64)\b")
_COMPLEX_NAME = {"float32": "complex64", "float64": "complex128"}


def _missing_counterpart(policy_name, entry: dict) -> dict | None:
    """A failure of the suite's own expectation, not of the namespace: the policy has ``float64`` but
    no ``complex128`` (MLX), so the suite cannot name the dtype it expects of ``rfft(float64)``."""
    found = _SUITE_COUNTERPART.match(entry.get("message") or "")
    promotion, _ = _engine()
    pol = _policy(promotion, policy_name) if found and promotion is not None else None
    if pol is None:
        return None
    real, wanted = found.group(1), _COMPLEX_NAME[found.group(1)]
    names = {d.name for d in pol.dtypes}
    if real not in names or wanted in names:
        return None
    trace = (
        f"policy {pol.name!r} has {real} but no {wanted}: the suite's complex_dtype_for({real}) raises "
        f"before the namespace is checked (its complex dtypes: {', '.join(sorted(n for n in names if 'complex' in n))})"
    )
    rule = f"the policy has {real} but no {wanted} (the suite expects the standard's counterpart)"
    return {"trace": trace, "rule": rule, "engine_result": None, "explained": True}


# Functions whose output size depends on the values: under a lazy storage it is unknown (None).
_DATA_DEPENDENT = frozenset(
    ("nonzero", "unique_all", "unique_counts", "unique_inverse", "unique_values", "repeat", "array.__getitem__")
)
_NONE_SIZE = re.compile(r"\(None\) dimensions|'NoneType'|shape=\([^)]*None")


def _unknown_size(entry: dict) -> dict | None:
    """A failure of the Dask storage's unknown sizes: ``nonzero``, ``unique_*``, a boolean mask or
    ``repeat`` by an array give ``None`` in ``shape`` until computed, which the suite cannot use."""
    message = entry.get("message") or ""
    func = entry.get("spec_function") or ""
    if func not in _DATA_DEPENDENT or "<dask shape=" not in message or not _NONE_SIZE.search(message):
        return None
    trace = (
        "nonzero, unique_*, a boolean mask and repeat by an array on the Dask storage: the size of the result "
        "depends on the values, so it is None in shape until computed, as the standard has it for a lazy "
        "library (array.shape: 'An array dimension must be None if and only if a dimension is unknown'); "
        "the suite needs every size before it computes (ndindex refuses None dimensions)"
    )
    rule = "data-dependent size, unknown (None) until computed on the lazy Dask storage"
    return {"trace": trace, "rule": rule, "engine_result": None, "explained": True, "heading": "Why"}


def _literal(text: str):
    if text in ("inf", "nan"):
        return float(text)
    if text in ("True", "False"):
        return text == "True"
    return complex(text) if text.endswith("j") else (float(text) if any(c in text for c in ".e") else int(text))


def _attribute_call(promotion, dtype_by_name, pol, detail, call):
    """Attribution from the exact operands of the suite's failing call."""
    ops = []
    try:
        for o in call["operands"]:
            if o["rank"] == "scalar":
                ops.append(_literal(o["value"]))
            else:
                dt = dtype_by_name(o["dtype"])
                ops.append(promotion.zero_d(dt) if o["rank"] == "0-d" else promotion.nd(dt))
    except ValueError:  # an unparsable literal or unknown dtype name
        return None
    func = call["function"]
    if func.startswith("__i") and func.endswith("__"):
        func = "__" + func[3:]
    op = elementwise_name(func)
    if op not in getattr(promotion, "OPS", {}):
        op = "result_type"
    return _explained(pol, ops, op, detail.get("got"), dtype_by_name)


def _explained(pol, ops, op, got, dtype_by_name):
    try:
        trace = pol.explain(*ops, op=op)
    except (TypeError, ValueError):  # operands explain() cannot take (it reports bad promotions itself)
        return None
    result = getattr(trace.result, "name", None)
    explained = result == got
    steps = list(getattr(trace, "steps", []))
    names = _dtype_names(dtype_by_name)
    if explained:
        rule = generic_rule(steps[-1], names) if steps else "plain table lookup"
    elif trace.error is not None:
        rule = (
            "policy refuses these operands (" + type(trace.error).__name__ + "), yet the namespace returned " + str(got)
        )
    else:
        rule = f"not explained by the policy: its engine gives {result}, the namespace returned {got}"
    return {"trace": str(trace), "rule": rule, "engine_result": result, "explained": explained}
