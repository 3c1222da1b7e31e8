"""The audit's records: what a policy makes of a call (:class:`Outcome`), a site where outcomes differ
(:class:`Record`), a process's set of them (:class:`RecordSet`) and the folder where the runner
collects every process's records.

Used by both comparisons (the audited array-API namespace, :mod:`.namespace`; plain NumPy code,
:mod:`.numpy_compare`) and read by the reports (:mod:`.reports`) and the runners (:mod:`.cli`).
Imports nothing of NumPy or of the namespaces: the site hook's processes load it early.
"""

from __future__ import annotations

import atexit
import json
import os
import sys
import threading
import types
import warnings
from typing import NamedTuple

# pytest leaves this module's frames out of its tracebacks (a warning made an error passes through them)
__tracebackhide__ = True

__all__ = [
    "ENV_RECORDS_DIR",
    "SITE_PREFIX",
    "Outcome",
    "Record",
    "RecordSet",
    "check_against",
    "differ",
    "error_name",
    "merge",
    "read_folder",
    "user_frame",
    "warn_at",
    "worst_first",
]

# The runner's folder for every process's records (a JSON file each, written at exit).
ENV_RECORDS_DIR = "ARRAY_API_PROMO_AUDIT_DIR"


# The functions the NumPy audit compiles into the user's modules, one per operation site: at the
# user's line, but not the user's function (one leading underscore: never name-mangled).
SITE_PREFIX = "_array_api_promo_"
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def user_frame(depth: int = 2) -> types.FrameType | None:
    """The first frame outside this package and its per-site functions (the user's call)."""
    frame: types.FrameType | None = sys._getframe(depth)
    while frame is not None and (
        frame.f_code.co_filename.startswith(_PACKAGE_DIR) or frame.f_code.co_name.startswith(SITE_PREFIX)
    ):
        frame = frame.f_back
    return frame


def warn_at(frame: types.FrameType, message: str, category: type[Warning]) -> None:
    """``warnings.warn``'s own path (filters, registry, ``-W error``) with ``frame`` as the caller."""
    level, caller = 1, sys._getframe(0)  # type: tuple[int, types.FrameType | None]
    while caller is not None and caller is not frame:
        caller, level = caller.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


def check_against(against) -> tuple:
    """The policies named, each once (ValueError otherwise)."""
    from ..promotion import get_policy

    others = tuple(get_policy(p) for p in against)
    if not others:
        raise ValueError("audit: --against must name at least one policy to compare with")
    if len({p.name for p in others}) != len(others):
        raise ValueError(f"audit: --against names a policy twice ({', '.join(p.name for p in others)})")
    return others


class Outcome(NamedTuple):
    """What one policy makes of one call."""

    dtype: str | None  # the result's dtype (several joined by ", "), None for no array result or a refusal
    error: str | None  # the exception type of a refusal
    conversion: str | None = None  # per Python scalar operand: kept, rounded, wrapped, overflowed, refused
    value: bool | None = None  # a bool result (can_cast)
    computed: str | None = None  # the dtype the values were computed in, where the stored values differ

    def text(self) -> str:
        if self.error is not None:
            return f"raises {self.error}"  # (a refusal of a scalar's value is this too)
        parts = [self.dtype if self.dtype is not None else ("" if self.value is None else str(self.value))]
        if self.conversion:
            parts.append(f"(scalar {self.conversion})")
        if self.computed:
            parts.append(f"(computed in {self.computed})")
        return " ".join(p for p in parts if p) or "no dtype"

    def as_json(self) -> dict:
        out: dict = {"dtype": self.dtype, "error": self.error}
        if self.conversion is not None:
            out["conversion"] = self.conversion
        if self.value is not None:
            out["value"] = self.value
        if self.computed is not None:
            out["computed"] = self.computed
        return out

    @classmethod
    def from_json(cls, data: dict) -> Outcome:
        return cls(
            data.get("dtype"), data.get("error"), data.get("conversion"), data.get("value"), data.get("computed")
        )

    def severity(self, other: Outcome) -> int:
        """3: one refuses what the other computes; 2: dtypes or values differ; 1: only a scalar's conversion."""
        if (self.error is None) != (other.error is None):
            return 3
        if (self.dtype, self.value, self.error, self.computed) != (
            other.dtype,
            other.value,
            other.error,
            other.computed,
        ):
            return 2
        return 1


def differ(mine: Outcome, other: Outcome) -> bool:
    """Whether two outcomes differ for the user: a call refused under both fails under both, whatever
    each's exception (one checks shapes first, the other dtypes), and is no difference."""
    return mine != other and not (mine.error is not None and other.error is not None)


def error_name(error: BaseException) -> str:
    """The built-in exception class a refusal is (PromotionError is a TypeError): what callers catch."""
    for cls in type(error).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return type(error).__name__


# A record's first fields (its site, call and count): in JSON as they are, under their own names.
_PLAIN_FIELDS = ("file", "line", "function", "op", "operands", "count")


class Record:
    """One site of the user's code where a call's outcome differs, with how often it ran."""

    __slots__ = ("file", "line", "function", "op", "operands", "count", "policy_outcome", "against", "values", "kind")

    def __init__(self, file, line, function, op, operands, count, policy_outcome, against, values=None, kind=None):
        self.file, self.line, self.function, self.op = file, line, function, op
        self.operands, self.count = operands, count
        # The scalar and 0-d values of the first call, where they decide (a value-dependent policy, or a
        # value not kept): an example of the values the record's calls had.
        self.values: str | None = values
        self.policy_outcome: Outcome = policy_outcome
        self.against: dict[str, Outcome] = against
        # None: a promotion change; "function": a function's own change between versions (np.ceil of
        # integers), which no promotion rule explains
        self.kind: str | None = kind

    @property
    def key(self) -> tuple:
        """What a record is unique by: its site, call and outcomes."""
        return (self.file, self.line, self.op, self.operands, self.policy_outcome, tuple(self.against.items()))

    @property
    def severity(self) -> int:
        found = [self.policy_outcome.severity(o) for o in self.against.values() if differ(self.policy_outcome, o)]
        return max(found, default=0)

    def as_json(self) -> dict:
        return {
            **{name: getattr(self, name) for name in _PLAIN_FIELDS},
            "policy_outcome": self.policy_outcome.as_json(),
            "against": {name: o.as_json() for name, o in self.against.items()},
            **({"values": self.values} if self.values is not None else {}),
            **({"kind": self.kind} if self.kind is not None else {}),
        }

    @classmethod
    def from_json(cls, data: dict) -> Record:
        return cls(
            **{name: data[name] for name in _PLAIN_FIELDS},
            policy_outcome=Outcome.from_json(data["policy_outcome"]),
            against={name: Outcome.from_json(o) for name, o in data["against"].items()},
            values=data.get("values"),
            kind=data.get("kind"),
        )

    def __repr__(self) -> str:
        against = "; ".join(f"{n}: {o.text()}" for n, o in self.against.items())
        values = f" [{self.values}]" if self.values else ""
        return (
            f"<{self.file}:{self.line} {self.op}({self.operands}){values} x{self.count}: "
            f"{self.policy_outcome.text()} vs {against}>"
        )


def worst_first(records) -> list[Record]:
    """Refusals, then dtype or value changes, then conversions; the most frequent first within; a
    function's own change (not promotion) after every promotion change."""
    return sorted(records, key=lambda r: (r.kind is not None, -r.severity, -r.count, r.file, r.line, r.op))


def merge(reports) -> list[Record]:
    """The records of several processes' reports as one list (counts of a site summed), worst first."""
    merged: dict = {}
    for report in reports:
        for data in report["records"]:
            record = Record.from_json(data)
            key = record.key
            if key in merged:
                merged[key].count += record.count
            else:
                merged[key] = record
    return worst_first(merged.values())


_SETS: list[RecordSet] = []  # this process's record sets, written into the runner's folder at exit


class RecordSet:
    """One comparison's records in this process: deduplicated by site, call and outcomes, counted."""

    def __init__(self, policy_name: str, against_names) -> None:
        self.policy_name = policy_name
        self.against_names = tuple(against_names)
        self._records: dict = {}
        self._lock = threading.Lock()
        _SETS.append(self)

    @property
    def records(self) -> list[Record]:
        """The sites recorded so far, worst first."""
        with self._lock:
            return worst_first(self._records.values())

    def clear(self) -> None:
        with self._lock:
            self._records.clear()

    def count(self, key) -> bool:
        """Count one more call of the record ``key`` (False: there is none yet)."""
        with self._lock:
            record = self._records.get(key)
            if record is None:
                return False
            record.count += 1
            return True

    def add(self, key, record: Record) -> Record:
        """The record ``key`` (``record`` unless another thread made it first), counted once more."""
        with self._lock:
            found = self._records.get(key)
            if found is not None:
                found.count += 1
                return found
            self._records[key] = record
            return record

    def written_at_exit(self) -> bool:
        """Whether the runner gets this set's report (one with no records says nothing)."""
        return bool(self._records)

    def as_json(self) -> dict:
        records = [r.as_json() for r in self.records]
        return {"policy": self.policy_name, "against": list(self.against_names), "records": records}


def read_folder(folder: str) -> list[dict]:
    """Every process's reports written into the runner's ``folder``."""
    reports: list = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                reports.extend(json.load(f))
    return reports


def _write_folder() -> None:
    """At exit, under a runner: this process's records into the runner's folder."""
    folder = os.environ.get(ENV_RECORDS_DIR)
    if not folder or not os.path.isdir(folder):
        return
    reports = [s.as_json() for s in _SETS if s.written_at_exit()]
    if not reports:
        return
    path = os.path.join(folder, f"records-{os.getpid()}-{threading.get_ident()}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(reports, f)


atexit.register(_write_folder)
