"""Part of DEVIATIONS.md generated from the promotion engine (not the suite):
where each policy goes beyond or against the standard's promotion tables."""

from __future__ import annotations

UNSPEC = "unspecified"

# section -> [(operands, op, what the standard says)]
# operands: "nd:<dtype>" (array, ndim>0), "0d:<dtype>" (0-d array), "py:<literal>" (Python scalar)
SECTIONS = {
    "Cross-kind mixes (arrays)": [
        (("nd:bool", "nd:int8"), "add", UNSPEC),
        (("nd:bool", "nd:float32"), "add", UNSPEC),
        (("nd:int8", "nd:uint8"), "add", "int16"),
        (("nd:int64", "nd:uint64"), "add", UNSPEC),
        (("nd:int32", "nd:float32"), "add", UNSPEC),
        (("nd:int64", "nd:float64"), "add", UNSPEC),
        (("nd:uint8", "nd:float16"), "add", UNSPEC),
        (("nd:float16", "nd:bfloat16"), "add", UNSPEC),
        (("nd:float64", "nd:complex64"), "add", "complex128"),
        (("nd:int16", "nd:complex64"), "add", UNSPEC),
    ],
    "0-d arrays": [
        (("nd:int8", "0d:int64"), "add", "int64"),
        (("nd:uint8", "0d:int8"), "add", "int16"),
        (("nd:float32", "0d:float64"), "add", "float64"),
        (("nd:float32", "0d:complex128"), "add", "complex128"),
        (("nd:int8", "0d:float32"), "add", UNSPEC),
        (("0d:int8", "0d:int64"), "add", "int64"),
        (("0d:int32", "nd:float32"), "add", UNSPEC),
    ],
    "Python scalars": [
        (("nd:int8", "py:1"), "add", "int8"),
        (("nd:uint8", "py:1000"), "add", UNSPEC + " (out of bounds)"),
        (("nd:int32", "py:1.0"), "add", UNSPEC),
        (("nd:float32", "py:1.0"), "add", "float32"),
        (("nd:float32", "py:1j"), "add", "complex64"),
        (("nd:int8", "py:1j"), "add", UNSPEC),
        (("nd:bool", "py:True"), "bitwise_and", "bool"),
        (("nd:bool", "py:1"), "add", UNSPEC),
        (("0d:int8", "py:1"), "add", "int8"),
        (("0d:int8", "py:1.0"), "add", UNSPEC),
    ],
    "Integer division": [
        (("nd:int8", "nd:int8"), "divide", UNSPEC + " (integer input)"),
        (("nd:int64", "nd:int64"), "divide", UNSPEC + " (integer input)"),
        (("nd:int32", "py:2"), "divide", UNSPEC + " (integer input)"),
        (("nd:float32", "py:2"), "divide", "float32"),
        (("nd:int8", "nd:int8"), "floor_divide", "int8"),
        (("nd:uint8", "py:2"), "floor_divide", "uint8"),
    ],
}

_SYMBOL = {"add": "+", "divide": "/", "floor_divide": "//", "bitwise_and": "&"}


def _describe(operands, op) -> str:
    parts = []
    for o in operands:
        tag, _, val = o.partition(":")
        parts.append({"nd": f"{val} array", "0d": f"0-d {val}", "py": f"`{val}`"}[tag])
    return f" {_SYMBOL.get(op, op)} ".join(parts)


def _operands(promotion, dtype_by_name, operands):
    out = []
    for o in operands:
        tag, _, val = o.partition(":")
        if tag == "py":
            out.append(eval(val, {}))  # literals only
            continue
        dt = dtype_by_name(val)
        # a 0-d array holds 1: value-dependent policies (numpy_legacy) look at it
        out.append(promotion.nd(dt) if tag == "nd" else promotion.zero_d(dt, True if val == "bool" else 1))
    return out


def _missing(policy, operands) -> str | None:
    """The first array dtype of ``operands`` that ``policy`` does not have (jax: no int64)."""
    have = {d.name for d in policy.dtypes}
    for o in operands:
        tag, _, val = o.partition(":")
        if tag in ("nd", "0d") and val not in have:
            return val
    return None


def _cell(promotion, policy, ops, op):
    try:
        trace = policy.explain(*ops, op=op) if op != "result_type" else policy.explain(*ops)
    except (TypeError, ValueError, OverflowError) as exc:  # explain() reports these itself; belt and braces
        return f"{type(exc).__name__}"
    if trace.error is not None:
        return type(trace.error).__name__ if not isinstance(trace.error, TypeError) else "TypeError"
    return trace.result.name


def _policy_order(names):
    first = [n for n in ("array_api", "torch") if n in names]
    return first + sorted(n for n in names if n not in first)


def render_engine_part() -> list:
    """Markdown lines; a note instead of tables when the engine is unavailable."""
    try:
        from array_api_promo import promotion
        from array_api_promo._dtypes import dtype_by_name
    except ImportError as exc:
        return [f"_The promotion engine could not be imported ({type(exc).__name__}); this part is empty._", ""]
    names = _policy_order(list(promotion.available_policies()))
    policies = [promotion.get_policy(n) for n in names]
    lines = [
        "Generated from `array_api_promo.promotion` (every built-in policy), not from the suite. "
        "Operands: *array* has ndim > 0, *0-d* is a 0-d array (holding 1, which only the "
        "value-based `numpy_legacy` policy looks at), `literal` is a Python scalar. "
        "A cell is the result dtype, or the exception raised. "
        "**Bold**: differs from what the standard requires. "
        "*Italic*: the standard leaves the case unspecified and the policy defines it. "
        "*n/a*: the policy has no such dtype, so the operands cannot exist under it.",
        "",
        "The columns:",
        "",
    ]
    lines += [f"- `{n}`: {p.summary}" for n, p in zip(names, policies)]
    lines.append("")
    section = None
    for sec, cases in SECTIONS.items():
        for operands, op, std in cases:
            try:
                ops = _operands(promotion, dtype_by_name, operands)
            except ValueError:
                continue  # a dtype the engine does not know (e.g. no ml_dtypes)
            if sec != section:
                if section is not None:
                    lines.append("")
                section = sec
                lines += [
                    f"### {sec}",
                    "",
                    "| Operation | Standard | " + " | ".join(f"`{n}`" for n in names) + " |",
                    "|---|---|" + "---|" * len(names),
                ]
            cells = []
            for pol in policies:
                missing = _missing(pol, operands)
                if missing:
                    cells.append(f"n/a (no {missing})")
                    continue
                c = _cell(promotion, pol, ops, op)
                if std.startswith(UNSPEC):
                    if c not in ("TypeError", "OverflowError"):
                        c = f"*{c}*"
                elif c != std:
                    c = f"**{c}**"
                cells.append(c)
            op_txt = f"`{op}`: " if op not in ("add",) else ""
            lines.append(f"| {op_txt}{_describe(operands, op)} | {std} | " + " | ".join(cells) + " |")
    lines.append("")
    return lines
