"""What the fast-path tests share: a namespace whose caches start empty, and a call's whole outcome."""

from __future__ import annotations

import warnings

from array_api_promo import namespace, promotion


def fresh_namespace(base, version="2025.12"):
    """A namespace of a new user policy like ``base`` (and named alike): its caches start empty."""

    class Fresh(type(promotion.get_policy(base))):
        name = f"fresh_{base}"

    return namespace(Fresh(), version)


def outcome(call, describe):
    """What a call gives, ``describe(result)`` or its error (class and message), with its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = call()
        except Exception as exc:  # noqa: BLE001 - the error is the outcome
            result = ("error", type(exc), str(exc))
        else:
            result = describe(out)
    return result, [(w.category, str(w.message)) for w in caught]
