"""``array-api-promo``: explore and compare promotion policies from the command line.

Commands::

    array-api-promo result-type OPERAND... [--op OP] [--policy P ...] [--explain]
    array-api-promo explain --op OP OPERAND... [--policy P ...]
    array-api-promo compare P1 P2 [P3 ...] [--check] [--limit N]
    array-api-promo lattice --policy P -o FILE.svg|FILE.png
    array-api-promo policies
    array-api-promo seeds [--check]
    array-api-promo info
    array-api-promo --version

Operands: ``int8`` (or ``nd:int8``) is an n-d array of that dtype, ``0d:float64`` a
0-d array (``0d:int64=300`` one holding 300: value-dependent policies such as
``numpy_legacy`` look at it), and a Python literal (``7``, ``1.5``, ``True``, ``1j``, ``(1-2j)``,
``2**63`` is not a literal: write ``9223372036854775808``) a Python scalar.
Policies are registered names (``array-api-promo policies``) or ``module:attribute``
naming a :class:`~array_api_promo.promotion.Policy` instance or subclass.

Exit codes: 0 success; 1 the promotion raises under a requested policy
(``result-type``) or the policies disagree (``compare --check``); 2 bad usage or
input (unknown dtype or policy, malformed operand, missing optional package).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import itertools
import math
import os
import sys
from xml.sax.saxutils import escape

from . import _dtypes as D
from .promotion import Operand, OperandKind, Policy, ValueOperand, available_policies, get_policy, nd, zero_d

__all__ = ["main", "parse_operand", "load_policy", "hasse_edges", "lattice_svg"]

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
_SCALAR_TYPES = (bool, int, float, complex)


class UsageError(Exception):
    """Bad input: reported as one line on stderr, exit code 2."""


# -- input ----------------------------------------------------------------------------
def _dtype(name: str) -> D.DType:
    extra = _extra_dtypes()
    if name in extra:
        return extra[name]
    try:
        return D.dtype_by_name(name)
    except ValueError:
        known = ", ".join(d.name for d in D.ALL_DTYPES)
        raise UsageError(f"unknown dtype {name!r} (known: {known})") from None


def _extra_dtypes() -> dict:
    """Dtypes that exist only in some policy (none today beyond ``ALL_DTYPES``)."""
    return {}


def parse_operand(text: str):
    """``int8``/``nd:int8`` -> n-d operand, ``0d:int8`` -> 0-d operand, a literal -> Python scalar."""
    text = text.strip()
    kind, sep, rest = text.partition(":")
    if sep:
        if kind in ("nd", "0d"):
            if not rest:
                raise UsageError(f"malformed operand {text!r}: a dtype must follow {kind}:")
            name, eq, literal = rest.partition("=")
            if eq:
                if kind == "nd":
                    raise UsageError(f"malformed operand {text!r}: only a 0-d array (0d:DTYPE=VALUE) holds a value")
                return zero_d(_dtype(name), _value_literal(literal.strip(), text))
            dtype = _dtype(rest)
            return nd(dtype) if kind == "nd" else zero_d(dtype)
        raise UsageError(f"malformed operand {text!r}: use DTYPE, nd:DTYPE, 0d:DTYPE or a Python literal")
    if text.isidentifier() and text not in ("True", "False"):
        if text.lower() in ("true", "false"):
            raise UsageError(f"malformed operand {text!r}: Python booleans are True and False")
        return nd(_dtype(text))
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise UsageError(
            f"malformed operand {text!r}: use DTYPE, nd:DTYPE, 0d:DTYPE or a Python bool/int/float/complex literal"
        ) from None
    if type(value) not in _SCALAR_TYPES:
        raise UsageError(f"malformed operand {text!r}: a literal must be a Python bool, int, float or complex")
    return value


def _value_literal(literal: str, text: str):
    """The VALUE of ``0d:DTYPE=VALUE``: a Python literal; an error quotes the whole operand ``text``."""
    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        value = None
    if type(value) not in _SCALAR_TYPES:
        raise UsageError(
            f"malformed operand {text!r}: the value {literal!r} is not a Python bool, int, float or complex literal"
        )
    return value


def load_policy(spec: str) -> Policy:
    """A registered policy name, or ``module:attribute`` (a Policy instance or subclass)."""
    if ":" in spec:
        module_name, _, attr = spec.partition(":")
        if not module_name or not attr:
            raise UsageError(f"malformed policy {spec!r}: use NAME or module:attribute")
        # As `python -m` would: a module in the current directory is importable (a console
        # script's sys.path starts at its own bin directory instead).
        if os.getcwd() not in sys.path and "" not in sys.path:
            sys.path.insert(0, os.getcwd())
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise UsageError(f"cannot import policy module {module_name!r}: {exc}") from None
        obj = module
        for part in attr.split("."):
            try:
                obj = getattr(obj, part)
            except AttributeError:
                raise UsageError(f"module {module_name!r} has no attribute {attr!r}") from None
        if isinstance(obj, type) and issubclass(obj, Policy):
            try:
                obj = obj()
            except Exception as exc:  # noqa: BLE001 - a user class that cannot be built
                raise UsageError(f"cannot instantiate policy class {spec!r}: {type(exc).__name__}: {exc}") from None
        if not isinstance(obj, Policy):
            raise UsageError(f"{spec!r} is not a promotion Policy instance or subclass (got {type(obj).__name__})")
        return obj
    try:
        return get_policy(spec)
    except (ValueError, TypeError):
        raise UsageError(
            f"unknown policy {spec!r} (available: {', '.join(available_policies())}; or module:attribute)"
        ) from None


def _label(op) -> str:
    if isinstance(op, ValueOperand):
        return f"0d:{op.dtype.name}={op.value!r}"
    if isinstance(op, Operand):
        return f"0d:{op.dtype.name}" if op.kind is OperandKind.ZERO_D else op.dtype.name
    return repr(op)


def _outcome(policy: Policy, operands, op: str = "result_type"):
    """(dtype name, None) or (None, 'ExceptionType: message'): what ``op`` gives (through
    ``explain``, which reads the rules the namespace's functions read)."""
    if op == "result_type":
        try:
            return policy.result_type(*operands).name, None
        except (TypeError, ValueError, OverflowError) as exc:
            return None, f"{type(exc).__name__}: {exc}"
    trace = policy.explain(*operands, op=op)
    if trace.error is not None:
        return None, f"{type(trace.error).__name__}: {trace.error}"
    return trace.result.name, None


def _check_op(op: str) -> str:
    from .promotion import OPS
    from .promotion._policy import FUNCTION_DOMAINS

    if op not in OPS and op not in FUNCTION_DOMAINS:
        known = sorted(set(OPS) | set(FUNCTION_DOMAINS))
        raise UsageError(f"unknown operation {op!r}; known: {', '.join(known)}")
    return op


def _console(stderr=False):
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=False, width=max(100, _term_width()))


def _term_width() -> int:
    import shutil

    return shutil.get_terminal_size((120, 24)).columns


# -- result-type -------------------------------------------------------------------------
def cmd_result_type(args) -> int:
    operands = [parse_operand(t) for t in args.operands]
    op = _check_op(args.op)
    policies = [load_policy(p) for p in args.policy] if args.policy else [get_policy(n) for n in available_policies()]
    failed = False
    if args.explain:
        for pol in policies:
            trace = pol.explain(*operands, op=op)
            print(str(trace))
            failed |= trace.error is not None
        return EXIT_FAIL if failed else EXIT_OK
    if len(policies) == 1 and args.policy:
        name, err = _outcome(policies[0], operands, op)
        if err is not None:
            print(f"array-api-promo: {policies[0].name}: {err}", file=sys.stderr)
            return EXIT_FAIL
        print(name)
        return EXIT_OK
    from rich.table import Table

    table = Table(title=f"{op}({', '.join(_label(o) for o in operands)})")
    table.add_column("policy", style="bold")
    table.add_column("result")
    for pol in policies:
        name, err = _outcome(pol, operands, op)
        failed |= err is not None
        table.add_row(pol.name, name if err is None else f"[red]{escape_markup(err)}[/red]")
    _console().print(table)
    return EXIT_FAIL if failed else EXIT_OK


def escape_markup(text: str) -> str:
    from rich.markup import escape as _escape

    return _escape(text)


# -- compare -----------------------------------------------------------------------------
_COMPARE_SCALARS = (True, 1, 1.5, 1j)


# With a value-dependent policy (NumPy 1.x) the values decide: Python scalars at the
# boundaries where NumPy 1.x's choice changes, and 0-d arrays holding a small value and one
# that needs their whole dtype.
_VALUE_SCALARS = (True, 1, -1, 200, 300, -200, 70000, 2**40, 1.5, 1e5, 1e39, 1j, 1e39j)
_WIDE_VALUES = {
    "bool": True,
    "int8": -100,
    "int16": -1000,
    "int32": -100000,
    "int64": -(2**40),
    "uint8": 200,
    "uint16": 60000,
    "uint32": 2**31,
    "uint64": 2**63,
    "float16": 1000.0,
    "float32": 1e5,
    "float64": 1e300,
    "complex64": 1e5j,
    "complex128": 1e300j,
}


def operand_mixes(policies):
    """Every pair of n-d/0-d operands of the dtypes all ``policies`` have, and each with a
    Python bool/int/float/complex (both orders); where a policy depends on values, the 0-d
    arrays hold 1 and a value that needs their whole dtype, and the Python scalars span the
    value classes."""
    common = [d for d in policies[0].dtypes if all(d in p.dtypes for p in policies[1:])]
    if any(p.value_dependent for p in policies):
        zero = [
            zero_d(d, v)
            for d in common
            for v in dict.fromkeys((True if d.category == 0 else 1, _WIDE_VALUES.get(d.name, 1)))
        ]
        scalars = _VALUE_SCALARS
    else:
        zero, scalars = [zero_d(d) for d in common], _COMPARE_SCALARS
    arrays = [nd(d) for d in common] + zero
    for a, b in itertools.product(arrays, repeat=2):
        yield (a, b)
    for a in arrays:
        for s in scalars:
            yield (a, s)
            yield (s, a)


def cmd_compare(args) -> int:
    policies = [load_policy(p) for p in args.policies]
    if len(policies) < 2:
        raise UsageError("compare needs at least two policies")
    names = [p.name for p in policies]
    if len(set(names)) < len(names):
        names = [f"{n} ({spec})" for n, spec in zip(names, args.policies)]
    rows, total = [], 0
    for ops in operand_mixes(policies):
        total += 1
        outcomes = [_outcome(p, ops) for p in policies]
        keys = [name if err is None else err.split(":", 1)[0] for name, err in outcomes]
        if len(set(keys)) > 1:
            rows.append((ops, outcomes))
    from rich.table import Table

    table = Table(title=f"{len(rows)} of {total} operand mixes differ: {' vs '.join(names)}")
    table.add_column("operands")
    for n in names:
        table.add_column(n)
    shown = rows if args.limit is None else rows[: args.limit]
    for ops, outcomes in shown:
        cells = [name if err is None else f"[red]{escape_markup(_short(err))}[/red]" for name, err in outcomes]
        table.add_row(", ".join(_label(o) for o in ops), *cells)
    console = _console()
    if rows:
        console.print(table)
        if len(shown) < len(rows):
            console.print(f"... {len(rows) - len(shown)} more (use --limit)")
    else:
        console.print(f"no differences in {total} operand mixes: {' vs '.join(names)}")
    return EXIT_FAIL if rows and args.check else EXIT_OK


def _short(err: str, width: int = 60) -> str:
    kind, _, msg = err.partition(": ")
    msg = msg.split(" (policy ")[0].removeprefix("result_type: ")
    text = f"{kind}: {msg}"
    return text if len(text) <= width else text[: width - 1] + "…"


# -- lattice -----------------------------------------------------------------------------
_KIND_LANES = (D.BOOL, D.UNSIGNED_INTEGER, D.SIGNED_INTEGER, D.REAL_FLOATING, D.COMPLEX_FLOATING)
_KIND_TITLES = {
    D.BOOL: "boolean",
    D.UNSIGNED_INTEGER: "unsigned integer",
    D.SIGNED_INTEGER: "signed integer",
    D.REAL_FLOATING: "real floating",
    D.COMPLEX_FLOATING: "complex floating",
}
_KIND_COLOURS = {
    D.BOOL: "#f2f2f2",
    D.UNSIGNED_INTEGER: "#e3f0fb",
    D.SIGNED_INTEGER: "#e6f5e6",
    D.REAL_FLOATING: "#fdf0dc",
    D.COMPLEX_FLOATING: "#f5e6f5",
}


def promotes_to(policy: Policy, a, b) -> bool:
    """``a`` promotes to ``b``: the policy's result for two n-d arrays of a and b is b."""
    if a is b:
        return True
    try:
        return policy.resolve((nd(a), nd(b))) is b
    except (TypeError, ValueError, OverflowError):
        return False


def hasse_edges(policy: Policy):
    """``(dtypes, edges)``: edge a -> b when b is an immediate upper bound of a (a < b with
    nothing between): the transitive reduction of the policy's pairwise promotion order."""
    dtypes = list(policy.dtypes)
    less = {(a, b) for a in dtypes for b in dtypes if a is not b and promotes_to(policy, a, b)}
    edges = []
    for a, b in sorted(less, key=lambda e: (dtypes.index(e[0]), dtypes.index(e[1]))):
        if not any((a, c) in less and (c, b) in less for c in dtypes if c is not a and c is not b):
            edges.append((a, b))
    return dtypes, edges


def _layout(dtypes):
    """Node centres: a lane (row) per kind, a column per bit width; same cell -> stacked."""
    widths = sorted({d.bits for d in dtypes})
    col = {w: i for i, w in enumerate(widths)}
    lanes = [k for k in _KIND_LANES if any(d.kind == k for d in dtypes)]
    stack: dict = {}
    for d in dtypes:
        stack.setdefault((d.kind, d.bits), []).append(d)
    lane_height = {k: max(len(v) for (kk, _), v in stack.items() if kk == k) for k in lanes}
    node_w, node_h, gap_x, gap_y, margin, title_h = 120, 36, 70, 26, 30, 50
    pos, boxes = {}, []
    y = margin + title_h
    for k in lanes:
        h = lane_height[k] * (node_h + 10) - 10
        boxes.append((k, y - 14, h + 28))
        for (kk, bits), items in stack.items():
            if kk != k:
                continue
            for i, d in enumerate(items):
                x = margin + 120 + col[bits] * (node_w + gap_x) + node_w / 2
                pos[d] = (x, y + i * (node_h + 10) + node_h / 2)
        y += h + 28 + gap_y
    width = margin * 2 + 120 + len(widths) * (node_w + gap_x) - gap_x
    height = y - gap_y + margin
    return pos, boxes, widths, (width, height), (node_w, node_h, margin, col)


def _clip_to_box(x1, y1, x2, y2, node_w, node_h):
    """Point where the segment from (x1, y1) towards (x2, y2) leaves the node box at (x1, y1)."""
    dx, dy = x2 - x1, y2 - y1
    if dx == 0 and dy == 0:
        return x1, y1
    tx = (node_w / 2) / abs(dx) if dx else math.inf
    ty = (node_h / 2) / abs(dy) if dy else math.inf
    t = min(tx, ty)
    return x1 + dx * t, y1 + dy * t


def _crosses_a_node(pos, a, b, node_w, node_h) -> bool:
    (xa, ya), (xb, yb) = pos[a], pos[b]
    for d, (x, y) in pos.items():
        if d is a or d is b:
            continue
        for i in range(1, 40):
            t = i / 40
            px, py = xa + (xb - xa) * t, ya + (yb - ya) * t
            if abs(px - x) < node_w / 2 + 4 and abs(py - y) < node_h / 2 + 4:
                return True
    return False


def _edge_geometry(pos, edges, node_w, node_h):
    """Edge endpoints and, for edges inside one lane that skip a column, a curve control point."""
    out = []
    for a, b in edges:
        (xa, ya), (xb, yb) = pos[a], pos[b]
        sx, sy = _clip_to_box(xa, ya, xb, yb, node_w, node_h)
        ex, ey = _clip_to_box(xb, yb, xa, ya, node_w, node_h)
        ctrl = None
        if _crosses_a_node(pos, a, b, node_w, node_h):
            # bow the edge sideways around the node(s) in its way
            mx, my = (xa + xb) / 2, (ya + yb) / 2
            length = math.hypot(xb - xa, yb - ya) or 1.0
            nx, ny = -(yb - ya) / length, (xb - xa) / length
            bow = node_w * 0.75
            ctrl = (mx + nx * bow, my + ny * bow)
            sx, sy = _clip_to_box(xa, ya, *ctrl, node_w, node_h)
            ex, ey = _clip_to_box(xb, yb, *ctrl, node_w, node_h)
        elif ya == yb and abs(xb - xa) > node_w * 1.8:
            ctrl = ((xa + xb) / 2, ya - node_h * 1.3)
            sx, sy = xa + (node_w / 4 if xb > xa else -node_w / 4), ya - node_h / 2
            ex, ey = xb - (node_w / 4 if xb > xa else -node_w / 4), yb - node_h / 2
        out.append((a, b, (sx, sy), (ex, ey), ctrl))
    return out


def lattice_svg(policy: Policy) -> str:
    dtypes, edges = hasse_edges(policy)
    pos, boxes, widths, (width, height), (node_w, node_h, margin, col) = _layout(dtypes)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="Helvetica, Arial, sans-serif">',
        f"<title>Promotion lattice of policy {escape(policy.name)}</title>",
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
        'fill="#444"/></marker></defs>',
        f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" fill="white"/>',
        f'<text x="{margin}" y="{margin + 8}" font-size="18" font-weight="bold">'
        f"Type promotion lattice: policy {escape(policy.name)}</text>",
        f'<text x="{margin}" y="{margin + 28}" font-size="12" fill="#555">'
        "edge a → b: b is an immediate upper bound of a (result_type of two n-d arrays); "
        "columns by bit width</text>",
    ]
    for bits in widths:
        x = margin + 120 + col[bits] * (node_w + 70) + node_w / 2
        out.append(
            f'<text x="{x:.1f}" y="{margin + 46}" font-size="11" fill="#777" text-anchor="middle">{bits}-bit</text>'
        )
    for kind, y, h in boxes:
        out.append(
            f'<g class="kind" data-kind="{escape(kind)}">'
            f'<rect x="{margin / 2:.1f}" y="{y:.1f}" width="{width - margin:.1f}" height="{h:.1f}" '
            f'rx="10" fill="{_KIND_COLOURS[kind]}" stroke="#bbb"/>'
            f'<text x="{margin:.1f}" y="{y + h / 2 + 4:.1f}" font-size="12" fill="#333">'
            f"{escape(_KIND_TITLES[kind])}</text></g>"
        )
    for a, b, (sx, sy), (ex, ey), ctrl in _edge_geometry(pos, edges, node_w, node_h):
        path = f"M {sx:.1f} {sy:.1f} " + (
            f"Q {ctrl[0]:.1f} {ctrl[1]:.1f} {ex:.1f} {ey:.1f}" if ctrl else f"L {ex:.1f} {ey:.1f}"
        )
        out.append(
            f'<path class="edge" data-from="{a.name}" data-to="{b.name}" d="{path}" '
            f'fill="none" stroke="#444" stroke-width="1.4" marker-end="url(#arrow)"/>'
        )
    for d in dtypes:
        x, y = pos[d]
        out.append(
            f'<g class="node" data-dtype="{d.name}">'
            f'<rect x="{x - node_w / 2:.1f}" y="{y - node_h / 2:.1f}" width="{node_w}" '
            f'height="{node_h}" rx="6" fill="white" stroke="#333" stroke-width="1.2"/>'
            f'<text x="{x:.1f}" y="{y + 5:.1f}" font-size="14" text-anchor="middle">'
            f"{escape(d.name)}</text></g>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def lattice_png(policy: Policy, path: str) -> None:
    try:
        import matplotlib
    except ImportError:
        raise UsageError(
            "PNG output needs matplotlib, which is not installed: pip install 'array_api_promo[cli]' "
            "(or pip install matplotlib), or write an .svg file"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    dtypes, edges = hasse_edges(policy)
    pos, boxes, widths, (width, height), (node_w, node_h, margin, col) = _layout(dtypes)
    dpi = 100
    fig = plt.figure(figsize=(width / dpi, height / dpi), dpi=dpi)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")
    ax.text(
        margin,
        margin + 8,
        f"Type promotion lattice: policy {policy.name}",
        fontsize=13,
        fontweight="bold",
        va="baseline",
    )
    for kind, y, h in boxes:
        ax.add_patch(
            FancyBboxPatch(
                (margin / 2, y),
                width - margin,
                h,
                boxstyle="round,pad=0,rounding_size=10",
                facecolor=_KIND_COLOURS[kind],
                edgecolor="#bbbbbb",
            )
        )
        ax.text(margin, y + h / 2, _KIND_TITLES[kind], fontsize=9, va="center")
    for bits in widths:
        x = margin + 120 + col[bits] * (node_w + 70) + node_w / 2
        ax.text(x, margin + 46, f"{bits}-bit", fontsize=8, color="#777777", ha="center")
    for _a, _b, start, end, ctrl in _edge_geometry(pos, edges, node_w, node_h):
        style = "arc3,rad=0"
        if ctrl:
            # arc3's rad: the control point's offset from the chord midpoint / chord length
            dx, dy = end[0] - start[0], end[1] - start[1]
            mx, my = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
            chord = math.hypot(dx, dy) or 1.0
            side = ((ctrl[0] - mx) * dy - (ctrl[1] - my) * dx) / chord
            style = f"arc3,rad={side / chord:.3f}"
        ax.add_patch(
            FancyArrowPatch(
                start, end, arrowstyle="-|>", mutation_scale=12, connectionstyle=style, color="#444444", linewidth=1.2
            )
        )
    for d in dtypes:
        x, y = pos[d]
        ax.add_patch(
            FancyBboxPatch(
                (x - node_w / 2, y - node_h / 2),
                node_w,
                node_h,
                boxstyle="round,pad=0,rounding_size=6",
                facecolor="white",
                edgecolor="#333333",
            )
        )
        ax.text(x, y, d.name, fontsize=10, ha="center", va="center")
    fig.savefig(path, format="png", dpi=dpi)
    plt.close(fig)


def cmd_lattice(args) -> int:
    policy = load_policy(args.policy)
    out = args.output
    lower = out.lower()
    if lower.endswith(".svg"):
        text = lattice_svg(policy)
        _write(out, text)
    elif lower.endswith(".png"):
        lattice_png(policy, out)
    else:
        raise UsageError(f"output file {out!r} must end in .svg or .png")
    dtypes, edges = hasse_edges(policy)
    print(f"wrote {out}: {len(dtypes)} dtypes, {len(edges)} edges (policy {policy.name})")
    return EXIT_OK


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise UsageError(f"cannot write {path!r}: {exc.strerror}") from None


# -- policies ------------------------------------------------------------------------------
def cmd_policies(args) -> int:
    from rich.table import Table

    table = Table(title="registered promotion policies")
    table.add_column("name", style="bold")
    table.add_column("dtypes")
    table.add_column("defaults (int, float, complex)")
    for n in available_policies():
        p = get_policy(n)
        table.add_row(
            n,
            " ".join(d.name for d in p.dtypes),
            f"{p.default_int.name}, {p.default_float.name}, "
            + (p.default_complex.name if p.default_complex is not None else "no complex"),
        )
    _console().print(table)
    return EXIT_OK


# -- seeds -----------------------------------------------------------------------------------
def cmd_seeds(args) -> int:
    """The seeds' example tables regenerated from the policies, each cell beside the seed's."""
    from rich.table import Table

    from ._seed_tables import SEED_POLICIES, SEED_TABLES, evaluate

    console = _console()
    differ = 0
    for title, rows in SEED_TABLES.items():
        table = Table(title=title)
        table.add_column("expression (as the seed writes it)")
        for policy in SEED_POLICIES:
            table.add_column(f"{policy} (seed)")
        table.add_column("seed's note")
        for row in rows:
            cells = []
            for policy in SEED_POLICIES:
                stated = row.stated.get(policy)
                if stated is None:
                    cells.append("")
                    continue
                got = evaluate(row, policy)
                want = (row.seed_wrong or {}).get(policy, stated)
                mark = "" if got == want else " [red]≠[/red]"
                differ += got != want
                cells.append(f"{escape_markup(got)} ({stated}){mark}")
            table.add_row(row.expression, *cells, row.note)
        console.print(table)
    console.print(f"{differ} cell(s) differ from the seeds" if differ else "every cell matches the seeds")
    return EXIT_FAIL if differ and args.check else EXIT_OK


# -- info ----------------------------------------------------------------------------------
def cmd_info(args) -> int:
    import platform

    import numpy

    from . import __version__, _core

    compiled = "in use" if _core.COMPILED else f"not in use: {_core.NOT_COMPILED_BECAUSE}"
    print(f"array_api_promo {__version__}")
    print(f"Python {platform.python_version()}, NumPy {numpy.__version__}")
    print(f"policies: {', '.join(available_policies())}")
    print(f"compiled fast paths: {compiled}")
    return EXIT_OK


# -- entry point ---------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line on stderr, exit 2
        raise UsageError(f"{message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="array-api-promo",
        description="Explore and compare array API type promotion policies.",
        epilog="exit codes: 0 ok, 1 the promotion raises / policies disagree (compare --check), 2 bad usage or input",
    )
    from . import __version__

    parser.add_argument("--version", action="version", version=f"array-api-promo {__version__}")
    # Not required=True: argparse would then report a missing command before an unknown flag
    # (`array-api-promo --bogus`); main() checks both, the unknown flag first.
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    rt = sub.add_parser(
        "result-type",
        help="the result dtype of a mix of operands",
        description="Print the promoted dtype of OPERANDs under one policy (just the name) "
        "or, without --policy, under every registered policy (a table).",
    )
    rt.add_argument(
        "operands",
        nargs="+",
        metavar="OPERAND",
        help="DTYPE or nd:DTYPE (n-d array), 0d:DTYPE (0-d array), or a Python literal (7, 1.5, True, 1j)",
    )
    rt.add_argument(
        "--policy",
        "-p",
        action="append",
        metavar="P",
        help="policy name or module:attribute (repeatable; default: all registered)",
    )
    rt.add_argument("--explain", action="store_true", help="print each policy's explanation trace")
    rt.add_argument(
        "--op",
        default="result_type",
        metavar="OP",
        help="the operation (add, divide, sqrt, where, sum, mean, linalg's det, ...; default result_type)",
    )
    rt.set_defaults(func=cmd_result_type)

    ex = sub.add_parser(
        "explain",
        help="how an operation decides its dtype, step by step",
        description="Print each policy's trace of how OP decides the dtype of OPERANDs, or why it refuses them.",
    )
    ex.add_argument("operands", nargs="+", metavar="OPERAND", help="as for result-type")
    ex.add_argument("--op", default="result_type", metavar="OP", help="the operation (default result_type)")
    ex.add_argument("--policy", "-p", action="append", metavar="P", help="policy (repeatable; default: all)")
    ex.set_defaults(func=cmd_result_type, explain=True)

    cmp_ = sub.add_parser(
        "compare",
        help="operand mixes where policies disagree",
        description="List every operand mix (pairs of n-d/0-d arrays of the dtypes all policies "
        "have, and each with a Python bool/int/float/complex) where the policies "
        "disagree, including one of them raising.",
    )
    cmp_.add_argument("policies", nargs="+", metavar="P", help="policy name or module:attribute (two or more)")
    cmp_.add_argument("--check", action="store_true", help="exit 1 if the policies disagree anywhere")
    cmp_.add_argument("--limit", type=int, default=None, metavar="N", help="show at most N rows")
    cmp_.set_defaults(func=cmd_compare)

    lat = sub.add_parser(
        "lattice",
        help="draw a policy's promotion lattice (SVG, or PNG with matplotlib)",
        description="Draw the Hasse diagram of the policy's dtypes under its pairwise promotion.",
    )
    lat.add_argument("--policy", "-p", required=True, metavar="P")
    lat.add_argument("--output", "-o", required=True, metavar="FILE", help="FILE.svg or FILE.png")
    lat.set_defaults(func=cmd_lattice)

    seeds = sub.add_parser(
        "seeds",
        help="regenerate the seeds' example tables (MEP 3, PyTorch #9515)",
        description="Evaluate MegEngine MEP 3's NumPy 1.x / PyTorch example table and the "
        "PyTorch promotion proposal's worked examples under the numpy_legacy and "
        "torch policies, each cell beside what the seed states.",
    )
    seeds.add_argument("--check", action="store_true", help="exit 1 if a cell differs from the seed")
    seeds.set_defaults(func=cmd_seeds)

    pol = sub.add_parser("policies", help="list the registered policies")
    pol.set_defaults(func=cmd_policies)

    info = sub.add_parser("info", help="version, policies, and whether the compiled fast paths are in use")
    info.set_defaults(func=cmd_info)
    return parser


def main(argv=None) -> int:
    try:
        parser = build_parser()
        args, extra = parser.parse_known_args(argv)
        if extra:
            flags = [a for a in extra if a.startswith("-")]
            if flags:
                parser.error(f"unknown option{'s' if len(flags) > 1 else ''} {' '.join(flags)}")
            parser.error(f"unexpected argument{'s' if len(extra) > 1 else ''} {' '.join(extra)}")
        if args.command is None:
            commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
            parser.error(f"a command is required: one of {', '.join(commands)}")
        return args.func(args)
    except UsageError as exc:
        print(f"array-api-promo: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # e.g. piped into head
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
