"""What the golden-table tests of several libraries share: an op's decision as the library makes it,
and the entry points a NumPy scalar is passed to."""

from __future__ import annotations

from array_api_promo import promotion


def decide(policy, name, operands, what=None):
    """``policy``'s decision for the op ``name`` on ``operands``, its Python scalars checked against the
    computation dtype as the op checks them (``what`` names the op in the errors; ``name`` if not given)."""
    sig, scalars = policy.signature(operands)
    decision = policy.decide(promotion.op_spec(name), sig)
    for value in scalars:
        policy.check_scalar(value, decision.compute, what or name)
    return decision


#: The entry points a NumPy scalar ``s`` reaches beside an array ``x`` of the namespace ``ns``.
SCALAR_CALLS = {
    "operator": lambda ns, x, s: x + s,
    "reflected": lambda ns, x, s: s + x,
    "function": lambda ns, x, s: ns.add(x, s),
    "result_type": lambda ns, x, s: ns.result_type(x, s),
    "where": lambda ns, x, s: ns.where(ns.asarray([True, False]), x, s),
    "clip_min": lambda ns, x, s: ns.clip(x, s, None),
    "asarray": lambda ns, x, s: ns.asarray(s),
    "full": lambda ns, x, s: ns.full(2, s),
}


def note(bad: list, label: str, why: str | None) -> None:
    """``label: why`` added to ``bad`` where a comparison says ``why`` it differs."""
    if why:
        bad.append(f"{label}: {why}")
