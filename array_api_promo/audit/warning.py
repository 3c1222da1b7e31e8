"""The warning mode's warning: :class:`NEP50Warning` (``array_api_promo.NEP50Warning``).

Defined apart so that the package can export it without loading the warning mode's front door
(:mod:`array_api_promo.nep50`, which ``python -m`` runs as ``__main__``); issued by the comparison
(:mod:`.numpy_compare`) at the user's line.
"""

__all__ = ["NEP50Warning"]


class NEP50Warning(UserWarning):
    """A NumPy operation whose result differs under other promotion rules (NEP 50's changes by default),
    issued at the line of the user's code that made it."""

    __module__ = "array_api_promo"
