"""Building blocks for promotion tables.

A :class:`PromotionTable` answers ``join(a, b)`` (the promoted dtype of two
dtypes, or ``None`` where there is none) by one dictionary lookup.  It is
built either from a lattice (each dtype and its immediate supertypes, as in
JAX's ``dtypes.py``: upper bounds are precomputed, the join is the least
common upper bound) or from explicit rows of a lookup table (as PyTorch's
``c10/core/ScalarType.cpp`` writes it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .._dtypes import DType

__all__ = ["PromotionTable"]


class PromotionTable:
    """A symmetric ``(dtype, dtype) -> dtype | None`` table."""

    __slots__ = ("dtypes", "_joins")

    def __init__(self, dtypes: Sequence[DType], joins: Mapping[tuple[DType, DType], DType | None]):
        self.dtypes = tuple(dtypes)
        self._joins = dict(joins)

    # -- construction -------------------------------------------------------
    @classmethod
    def from_lattice(cls, supertypes: Mapping[DType, Iterable[DType]]) -> PromotionTable:
        """Build from each dtype's immediate supertypes.

        The join of ``a`` and ``b`` is the unique least element of their
        common upper bounds; where the bounds are empty (no promotion) or have
        no least element, the join is ``None``.
        """
        dtypes = list(supertypes)
        for sups in supertypes.values():
            for s in sups:
                if s not in supertypes:
                    dtypes.append(s)
        upper: dict[DType, frozenset[DType]] = {}

        def bounds(t: DType, seen=()) -> frozenset[DType]:
            if t in upper:
                return upper[t]
            if t in seen:
                raise ValueError(f"the lattice has a cycle through {t.name}")
            result = {t}
            for s in supertypes.get(t, ()):
                result |= bounds(s, seen + (t,))
            upper[t] = frozenset(result)
            return upper[t]

        for t in dtypes:
            bounds(t)
        joins = {}
        for a in dtypes:
            for b in dtypes:
                common = upper[a] & upper[b]
                least = [c for c in common if upper[c] >= common]
                joins[a, b] = least[0] if len(least) == 1 else None
        return cls(dtypes, joins)

    @classmethod
    def from_rows(cls, order: Sequence[DType], rows: Sequence[Sequence[DType | None]]) -> PromotionTable:
        """Build from a square lookup table whose axes follow ``order``."""
        if len(rows) != len(order) or any(len(r) != len(order) for r in rows):
            raise ValueError("a promotion table must be square and match its axis order")
        joins = {}
        for a, row in zip(order, rows):
            for b, result in zip(order, row):
                joins[a, b] = result
        table = cls(order, joins)
        for a in order:
            for b in order:
                if joins[a, b] is not joins[b, a]:
                    raise ValueError(f"promotion table is not symmetric at {a.name}, {b.name}")
        return table

    # -- queries ------------------------------------------------------------
    def join(self, a: DType, b: DType) -> DType | None:
        """The promoted dtype of ``a`` and ``b``, or ``None`` if they do not promote."""
        return self._joins.get((a, b))

    def __contains__(self, dtype: DType) -> bool:
        return dtype in self.dtypes
