"""Types the standard's signatures name that no runtime object of the package stands for.

For annotations only: the function modules import them under ``TYPE_CHECKING``, so this
module is never loaded at run time.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

__all__ = ["NestedSequence", "SupportsBufferProtocol"]

_T_co = TypeVar("_T_co", covariant=True)


class NestedSequence(Protocol[_T_co]):
    """A sequence of ``_T_co``, or of sequences of it, to any depth (``asarray``'s nested lists)."""

    def __getitem__(self, key: int, /) -> _T_co | NestedSequence[_T_co]: ...

    def __len__(self, /) -> int: ...


# An object exposing the buffer protocol (collections.abc.Buffer from Python 3.12).
SupportsBufferProtocol = Any
