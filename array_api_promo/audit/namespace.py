"""The audited array-API namespace: it computes as one policy's and records every call another would change.

``audit(policy, against=[...])`` (``array_api_promo.audit(...)``; and, under the runner
``python -m array_api_promo.audit``, the stand-in module that :mod:`array_api_promo.standin`'s import
hook gives for ``import array_api_strict``) is a namespace whose runtime is an ordinary
runtime of ``policy`` (the same code, the same results) with one layer on top:
each call the user makes (a function of the namespace, an operator, ``x[k] = v``)
also runs in the namespaces of the ``against`` policies, on the same operands,
and the outcomes are compared.  An outcome is what a policy decides: the result
dtype(s), or the refusal (its exception type), and for a Python scalar operand
whether its value is kept, rounded, wrapped, overflowed or refused.  A call whose
outcomes differ is recorded at the user's line (the first frame outside this
package), deduplicated by (file, line, operation, operands), with a count, and
raises :class:`PromotionDifferenceWarning` once per record.

Each call is compared on its own: the against namespaces see the operands the
program holds under ``policy`` (an array of a dtype the other policy lacks enters
it as that policy's ``asarray`` makes NumPy data of that dtype).  Outcomes are
cached per call signature (:mod:`.signatures`), so a signature runs in the other
namespaces once; after that a call costs its own work, the signature and one
lookup.  Calls made by the namespace's own functions (``mean`` calling ``sum``)
are not the user's and are not compared.  The ordinary namespaces are untouched:
everything here lives in a runtime subclass.
"""

from __future__ import annotations

import math
import os
import threading
import types

import numpy as np

from .. import _dtypes as D
from .._array import OPERATORS, Array
from .._dtypes import PY_SCALARS, DType
from .._namespace import API_VERSIONS, DEFAULT_API_VERSION, PUBLIC_METHODS, Runtime, namespace, populate
from ..promotion import OPS, get_policy
from ..promotion._policy import PromotionDifferenceWarning
from .records import Outcome, Record, RecordSet, differ, error_name, user_frame, warn_at
from .signatures import call_key, describe_call, values_text

__all__ = [
    "REFUSALS",
    "Audit",
    "AuditRuntime",
    "NotCompared",
    "audit",
    "audited_runtime_class",
    "check_policies",
    "dtype_text",
    "make_standin_module",
]

# The refusals a policy makes (PromotionError is a TypeError; a dtype a policy lacks, a ValueError;
# a Python scalar out of range, an OverflowError).  Any other exception (a stand-in flag's
# RuntimeError, a MemoryError) is not a policy's outcome: the call is not compared.
REFUSALS = (TypeError, ValueError, OverflowError, IndexError, ZeroDivisionError)
_DUNDERS = {(name, form): dunder for dunder, (name, form) in OPERATORS.items()}
# The calls that write into their first argument (the other policies run on a copy of it).
_WRITES = frozenset([d for d, (_, form) in OPERATORS.items() if form == "inplace"] + ["__setitem__"])
# Creation functions: a Python scalar argument becomes a value of the result's dtype (create_scalar).
_CREATED = ("asarray", "full", "full_like")
_OPERANDS = frozenset({Array, *PY_SCALARS})
_SEQUENCES = frozenset({list, tuple})
_NUMBER_TYPES = frozenset(PY_SCALARS)  # what an elementwise function's two operands may be


class NotCompared(Exception):
    """Another policy's run failed other than by refusing (a warning made an error, no memory)."""


class _State(threading.local):
    depth = 0  # > 0 while the namespace runs a call: calls it makes itself are not the user's


_state = _State()


def dtype_text(result) -> str | None:
    if type(result) is Array:
        return result._dtype.name
    if type(result) is DType:
        return result.name
    if isinstance(result, (tuple, list)):
        names = [dtype_text(r) for r in result]
        return ", ".join(n for n in names if n) or None
    dtype = getattr(result, "dtype", None)  # finfo/iinfo objects
    return dtype.name if type(dtype) is DType else None


def _classify_conversion(made, value, dtype: DType) -> str:
    """What became of the Python scalar ``value`` made a ``dtype`` value ``made``."""
    if type(made) is np.ndarray:
        made = made[()]
    got = made.item() if isinstance(made, np.generic) else made
    if type(value) is complex or type(got) is complex:
        pairs = [(complex(got).real, complex(value).real), (complex(got).imag, complex(value).imag)]
    else:
        pairs = [(got, value)]
    for g, v in pairs:
        if g == v or (g != g and v != v):
            continue
        if isinstance(g, float) and math.isinf(g) and not (isinstance(v, float) and math.isinf(v)):
            return "overflowed"
        if dtype.category == D.CATEGORY_INTEGER and type(v) is int:
            return "saturated" if g in D.INT_BOUNDS[dtype] else "wrapped"
        return "rounded"
    return "kept"


def _scalar_targets(runtime, op: str, name: str, args: tuple, kwargs: dict, result) -> list:
    """``(value, convert)`` for each Python scalar argument: the policy's rule that makes it a value
    (``convert(value)`` -> ``(made, dtype)``), as the namespace's functions apply it."""
    policy = runtime.policy
    scalars = [a for a in args if type(a) in PY_SCALARS]
    if name in _CREATED:  # asarray(obj), full(shape, fill_value), full_like(x, fill_value)
        given = args[0] if name == "asarray" and args else args[1] if len(args) > 1 else kwargs.get("fill_value")
        scalars = [given] if type(given) in PY_SCALARS else []
        target = getattr(result, "_dtype", None)
        return [(v, lambda v: (policy.create_scalar(v, target, name), target)) for v in scalars if target]
    if op == "__setitem__":  # x[key] = value: the value (a key's ints are positions)
        target = args[0]._dtype
        value = args[2]
        return [(value, lambda v: (policy.convert_scalar(v, target, op), target))] if type(value) in PY_SCALARS else []
    if name == "clip":
        bounds = {
            "min": args[1] if len(args) > 1 else kwargs.get("min"),
            "max": args[2] if len(args) > 2 else kwargs.get("max"),
        }
        _, _, decision = runtime._clip_decision(args[0], bounds["min"], bounds["max"])
        target = decision.compute
        return [
            (v, lambda v, b=b: (policy.convert_bound(v, target, b), target))
            for b, v in bounds.items()
            if type(v) in PY_SCALARS
        ]
    if name == "where":
        target = getattr(result, "_dtype", None)
        return [(v, lambda v: (policy.convert_scalar(v, target, name), target)) for v in scalars if target]
    if name in OPS and name != "result_type" and len(args) == 2 and scalars and all(type(a) in _OPERANDS for a in args):
        decision = policy.decide(OPS[name], tuple(runtime._operand(a) for a in args))
        target = decision.scalar or decision.compute
        return [(v, lambda v: (policy.convert_scalar(v, target, name), target)) for v in scalars]
    return []


def _conversions(runtime, op: str, name: str, args: tuple, kwargs: dict, result) -> str | None:
    """How each Python scalar argument of the call becomes a value under ``runtime``'s policy."""
    targets = _scalar_targets(runtime, op, name, args, kwargs, result)
    if not targets:
        return None
    words = []
    for value, convert in targets:
        try:
            made, dtype = convert(value)
            words.append(_classify_conversion(made, value, dtype))
        except REFUSALS:
            words.append("refused")
    return ", ".join(words)


def _outcome(runtime, op: str, name: str, args: tuple, kwargs: dict, result, error) -> Outcome:
    if error is not None:
        return Outcome(None, error_name(error))
    try:
        conversion = _conversions(runtime, op, name, args, kwargs, result)
    except REFUSALS:  # the policy computed it: its conversion rule agrees it may
        conversion = None
    value = result if type(result) is bool else None
    return Outcome(dtype_text(result), None, conversion, value)


class Audit(RecordSet):
    """The comparison state of an audited namespace: its policies, cached outcomes and records."""

    warns = True  # a PromotionDifferenceWarning per new record (the NumPy audit keeps the output the program's)

    def __init__(self, policy, against, api_version: str):
        self.policy = policy
        self.against = tuple(against)
        self.api_version = api_version
        self.value_dependent = policy.value_dependent or any(p.value_dependent for p in self.against)
        self._outcomes: dict = {}
        super().__init__(policy.name, [p.name for p in self.against])

    def __repr__(self) -> str:
        names = ", ".join(p.name for p in self.against)
        return f"<array_api_promo audit: policy {self.policy.name!r} against {names}; {len(self.records)} sites>"

    # -- one call ------------------------------------------------------------------------------
    def call(self, runtime, op: str, name: str, run, run_against, args: tuple, kwargs: dict):
        """``run(*args, **kwargs)``, compared with ``run_against(other runtime, *args, **kwargs)``."""
        writes = op in _WRITES
        # The signature before the call: an in-place operator or x[k] = v changes its target.
        key = call_key(runtime.api_version, op, args, kwargs)
        outcomes = self._outcomes.get(key) if key is not None else None
        before = None
        if writes and (outcomes is None or self.value_dependent):
            target = args[0]
            before = (
                Array._new(target._data.copy(), target._dtype, runtime, target._device),
                values_text(args, kwargs),
            )
            before[0]._data.flags.writeable = target._data.flags.writeable
        _state.depth += 1
        try:
            result = run(*args, **kwargs)
            error = None
        except REFUSALS as exc:
            result, error = None, exc
        finally:
            _state.depth -= 1
        if result is NotImplemented:  # an operator handing over to Python (a foreign operand)
            return result
        compared = args if before is None else (before[0], *args[1:])
        if outcomes is None:
            mine = _outcome(runtime, op, name, compared, kwargs, result, error)
            try:
                theirs = self._against(runtime, op, name, run_against, compared, kwargs)
            except NotCompared:
                theirs = None
            if theirs is not None:
                outcomes = (mine, theirs)
                # Cached only when the call computed: a refusal may come from what the signature
                # leaves out (shapes that do not broadcast), so a refused call is compared each time.
                if key is not None and error is None:
                    self._outcomes[key] = outcomes
        if outcomes is not None and any(differ(outcomes[0], o) for o in outcomes[1]):
            mine, theirs = outcomes
            try:
                self._record(op, args, kwargs, mine, theirs, before[1] if before is not None else None)
            except Warning:  # -W error: the warning is the error, unless the call itself was refused
                if error is None:
                    raise
        if error is not None:
            raise error
        return result

    def _against(self, runtime, op, name, run_against, args, kwargs) -> tuple:
        # The other policies' runs are silent (np.errstate: per thread, unlike the warning filters):
        # their NumPy warnings (an overflow in another dtype) are not the program's.
        with np.errstate(all="ignore"):
            return tuple(self._run_against(runtime, op, name, run_against, args, kwargs))

    def _run_against(self, runtime, op, name, run_against, args, kwargs):
        writes = op in _WRITES
        for policy in self.against:
            other = namespace(policy, runtime.api_version)._runtime
            try:
                moved_args = tuple(_move(a, other) for a in args)
                moved_kwargs = {k: _move(v, other) for k, v in kwargs.items()}
                if writes:  # the target is written: a copy of it, read-only if it is
                    target = moved_args[0]
                    copy = target._data.copy()
                    copy.flags.writeable = args[0]._data.flags.writeable
                    moved_args = (Array._new(copy, target._dtype, other, target._device), *moved_args[1:])
                result = run_against(other, *moved_args, **moved_kwargs)
                yield _outcome(other, op, name, moved_args, moved_kwargs, result, None)
            except REFUSALS as exc:
                yield _outcome(other, op, name, args, kwargs, None, exc)
            except Exception:  # a warning made an error by the program's filters, a MemoryError: not an outcome
                raise NotCompared from None

    def _record(self, op, args, kwargs, mine: Outcome, theirs: tuple, values: str | None = None) -> None:
        frame = user_frame()
        if frame is None:
            return
        # A scalar's value is shown where it decides: a value-dependent policy, or a value not kept.
        changed = any(c not in (None, "kept") for o in (mine, *theirs) for c in (o.conversion or "").split(", ") if c)
        shown = self.value_dependent or changed or mine.error == "OverflowError"
        operands = describe_call(args, kwargs)
        code = frame.f_code
        key = (code.co_filename, frame.f_lineno, op, operands, mine, theirs)
        if self.count(key):
            return
        against = {p.name: o for p, o in zip(self.against, theirs)}
        if not shown:
            values = None
        elif values is None:
            values = values_text(args, kwargs)
        function = getattr(code, "co_qualname", code.co_name)
        record = Record(code.co_filename, frame.f_lineno, function, op, operands, 1, mine, against, values)
        if self.add(key, record) is not record or not self.warns:
            return  # (another thread made it first, and warned)
        differing = "; ".join(f"under {n!r} {o.text()}" for n, o in against.items() if differ(mine, o))
        example = f" (values {record.values})" if record.values else ""
        message = f"{op}({operands}){example}: under policy {self.policy.name!r} {mine.text()}, but {differing}"
        warn_at(frame, message, PromotionDifferenceWarning)


def _move(x, runtime):
    """``x`` as an operand of ``runtime``'s namespace: our arrays by their data, containers item by item."""
    t = type(x)
    if t is Array:
        if x._dtype in runtime._dtype_set:
            return Array._new(x._data, x._dtype, runtime, x._device)
        return runtime.asarray(x._data)  # a dtype it lacks: as its asarray takes such NumPy data
    if t is list or t is tuple:
        return t(_move(i, runtime) for i in x)
    return x


# -- the runtime -------------------------------------------------------------------------------
class _NeverFast(dict):
    """An audited runtime's fast table: always empty, so every operator takes the runtime's path
    (which is audited); the compiled paths hand a non-exact dict to the Python code."""

    def __setitem__(self, key, value):
        pass

    def get(self, key, default=None):
        return default


def _public_name(name: str) -> str:
    prefix, _, rest = name.partition("_")
    return f"{prefix}.{rest}" if prefix in ("linalg", "fft") and rest else name


def _audited_method(name: str, original):
    op = _public_name(name)

    def method(self, *args, **kwargs):
        bound = original.__get__(self, type(self))
        if _state.depth:  # the namespace calling itself
            return bound(*args, **kwargs)
        return self.audit.call(self, op, name, bound, _run_function(name), args, kwargs)

    method.__name__ = name
    method.__qualname__ = f"Audited.{name}"
    method.__doc__ = getattr(original, "__doc__", None)
    method.__wrapped__ = original  # inspect.signature shows the function's own
    return method


def _run_function(name: str):
    def run(runtime, *args, **kwargs):
        return getattr(runtime, name)(*args, **kwargs)

    return run


class _AuditedRuntime:
    """The audit layer of a runtime class (combined with it by :func:`audited_runtime_class`)."""

    audit: Audit

    def _audit_init(self, audit: Audit) -> None:
        self.audit = audit
        self._fast = _NeverFast()
        self._setitem_converters = _NeverFast()  # x[i] = value goes through the audited _setitem

    def _apply2(self, name, x1, x2, operator):
        apply2 = super()._apply2  # type: ignore[misc]
        if not operator or _state.depth:
            return apply2(name, x1, x2, operator)
        form = "binary" if type(x1) is Array and x1._runtime.policy is self.policy else "reflected"
        op = _DUNDERS.get((name, form), name)

        def against(runtime, a, b):
            return runtime._apply2(name, a, b, True)

        return self.audit.call(self, op, name, lambda a, b: apply2(name, a, b, True), against, (x1, x2), {})

    def _apply1(self, name, x):
        apply1 = super()._apply1  # type: ignore[misc]
        if _state.depth:
            return apply1(name, x)
        op = _DUNDERS.get((name, "unary"), name)
        return self.audit.call(self, op, name, lambda a: apply1(name, a), lambda r, a: r._apply1(name, a), (x,), {})

    def _inplace(self, name, x1, x2):
        inplace = super()._inplace  # type: ignore[misc]
        if _state.depth:
            return inplace(name, x1, x2)
        op = _DUNDERS.get((name, "inplace"), name)

        def against(runtime, a, b):
            return runtime._inplace(name, a, b)

        return self.audit.call(self, op, name, lambda a, b: inplace(name, a, b), against, (x1, x2), {})

    def _setitem(self, x, key, value):
        setitem = super()._setitem  # type: ignore[misc]
        if _state.depth:
            return setitem(x, key, value)

        def against(runtime, a, k, v):
            return runtime._setitem(a, k, v)

        def run(a, k, v):
            setitem(a, k, v)
            return a  # the outcome is x's dtype (None would read as "no dtype")

        self.audit.call(self, "__setitem__", "__setitem__", run, _returning_target(against), (x, key, value), {})


def _returning_target(function):
    def run(runtime, a, *rest):
        function(runtime, a, *rest)
        return a

    return run


_CLASSES: dict = {}


def audited_runtime_class(base: type) -> type:
    """``base`` (a runtime class) with the audit layer: every public function compared."""
    cls = _CLASSES.get(base)
    if cls is None:
        namespace_dict = {
            name: _audited_method(name, getattr(base, name)) for name in PUBLIC_METHODS if hasattr(base, name)
        }
        cls = _CLASSES[base] = type(f"Audited{base.__name__}", (_AuditedRuntime, base), namespace_dict)
    return cls


class AuditRuntime(audited_runtime_class(Runtime)):  # type: ignore[misc]
    """The runtime of an ``audit(...)`` namespace."""

    def __init__(self, policy, api_version: str, audit: Audit):
        super().__init__(policy, api_version)
        self._audit_init(audit)

    def namespace_at(self, api_version: str):
        super().namespace_at(api_version)  # the same checks and words
        return audit(self.policy, [p for p in self.audit.against], api_version)

    def reduce_array(self, x) -> tuple:
        """A copy (``copy.deepcopy``, pickle) stays an array of the audited namespace."""
        against = [p.name for p in self.audit.against]
        return (_unpickle_audited, (x._data, self.policy.name, against, self.api_version, x._device))


def _unpickle_audited(data, policy_name, against, api_version, device):
    runtime = audit(policy_name, against, api_version)._runtime
    return Array._new(data, D.dtype_of_numpy(data.dtype), runtime, device)


def make_standin_module():
    """The stand-in module under the audit's runner: ``$ARRAY_API_PROMO_POLICY`` audited against
    ``$ARRAY_API_PROMO_AUDIT_AGAINST`` (comma-separated), each version's runtime, one record set."""
    from ..from_env import policy_from_spec
    from ..standin import StandinRuntime, make_module

    policy = policy_from_spec(os.environ.get("ARRAY_API_PROMO_POLICY", "array_api"))
    against = [policy_from_spec(a) for a in os.environ["ARRAY_API_PROMO_AUDIT_AGAINST"].split(",") if a]
    main, others = check_policies(policy, against)
    state = Audit(main, others, DEFAULT_API_VERSION)
    cls = audited_runtime_class(StandinRuntime)

    def make(policy, api_version, standin):
        runtime = cls(policy, api_version, standin)
        runtime._audit_init(state)
        return runtime

    module = make_module(main, make_runtime=make)
    module.__audit__ = state
    return module


# -- the public function -----------------------------------------------------------------------
_MODULES: dict = {}
_STATES: dict = {}
_MAKING = threading.Lock()


def check_policies(policy, against) -> tuple:
    main = get_policy(policy)
    if isinstance(against, (str,)) or not hasattr(against, "__iter__"):
        against = [against]
    others = tuple(get_policy(p) for p in against)
    if not others:
        raise ValueError("audit: against must name at least one policy to compare with")
    for p in others:
        if p is main:
            raise ValueError(f"audit: policy {main.name!r} cannot be audited against itself")
    if len({p.name for p in others}) != len(others):
        raise ValueError(f"audit: against names a policy twice ({', '.join(p.name for p in others)})")
    return main, others


def audit(policy="array_api", against=("torch",), api_version: str | None = None) -> types.ModuleType:
    """A namespace that computes exactly as ``namespace(policy, api_version)`` and records (and warns
    about) every call of the user's whose outcome any policy of ``against`` would change.

    The records are the module's ``__audit__`` (an :class:`Audit`: ``records``, ``clear()``,
    ``as_json()``).  The same arguments give the same module.
    """
    try:
        main, others = check_policies(policy, against)
    except (TypeError, ValueError) as exc:
        raise type(exc)(exc if str(exc).startswith("audit:") else f"audit: {exc}") from None
    version = DEFAULT_API_VERSION if api_version is None else api_version
    if type(version) is not str or version not in API_VERSIONS:
        raise ValueError(f"audit: unsupported api_version {version!r}; supported: {', '.join(API_VERSIONS)}")
    key = (main, others, version)
    with _MAKING:
        module = _MODULES.get(key)
        if module is None:
            state = _STATES.get((main, others))  # one record set for every version of the pair
            if state is None:
                state = _STATES[(main, others)] = Audit(main, others, version)
            names = ",".join(p.name for p in others)
            module = types.ModuleType(
                f"array_api_promo.audit[{main.name} vs {names},{version}]",
                f"Array API namespace of policy {main.name!r} at {version}, audited against {names}.",
            )
            populate(module, AuditRuntime(main, version, state))
            module.__audit__ = state
            _MODULES[key] = module
    return module
