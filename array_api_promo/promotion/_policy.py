"""The promotion policy interface, operand kinds, decisions and the registry.

A policy answers four questions, and nothing else in the package decides a
dtype:

(a) ``result_type``: the promoted dtype of any mix of operands;
(b) ``convert_scalar``: how a Python scalar becomes a value of a dtype;
(c) ``decide`` / ``inplace_result`` / ``function_dtype`` and the smaller
    hooks (``accumulation_dtype``, ``versioned_accumulation``,
    ``astype_allowed``, ``complex_of``): the operation-specific rules (true
    division of integers, floating functions of integer input, comparisons,
    in-place operators, ``sum`` and friends, ``astype``, eigenvalues);
(d) ``dtypes``: which dtypes exist under it.

Policies do not change after construction; their decisions are cached per
*signature* (operand kinds and dtypes), so after the first call a decision
is one dictionary lookup.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .. import _dtypes as D
from .._dtypes import DType
from ._ops import (  # (the function families, for the policy modules too)
    ACCUMULATING_FUNCTIONS,
    COMPLEX_TO_REAL_FUNCTIONS,
    COUNT_RESULT_FUNCTIONS,
    OPS,
    REAL_RESULT_FUNCTIONS,
    REAL_TO_COMPLEX_FUNCTIONS,
    Domain,
    OpSpec,
    ResultKind,
)
from ._scalars import FLOAT_INT_END, ScalarConverter, ScalarRules, int_text

__all__ = [
    "OperandKind",
    "Operand",
    "ValueOperand",
    "nd",
    "zero_d",
    "Decision",
    "Explanation",
    "Policy",
    "PromotionError",
    "PromotionDifferenceWarning",
    "LargeInt",
    "scalar_type",
    "register_policy",
    "get_policy",
    "available_policies",
    # (from _scalars, for the policy modules)
    "FLOAT_INT_END",
    "ScalarConverter",
    "int_text",
]


class OperandKind(enum.IntEnum):
    """Operand priority tiers, highest first (PyTorch's three slots)."""

    ARRAY = 0  # an array with ndim > 0 (or a dtype given to result_type)
    ZERO_D = 1  # a 0-d array
    SCALAR = 2  # a Python bool/int/float/complex: a "wrapped number", weakly typed


class Operand(NamedTuple):
    """One operand as promotion sees it: its kind and its dtype.

    For a Python scalar ``dtype`` is the Python type (``bool``, ``int``,
    ``float`` or ``complex``): the policy decides what dtype it stands for.
    """

    kind: OperandKind
    dtype: object

    def __str__(self) -> str:
        if self.kind is OperandKind.SCALAR:
            if self.dtype is LargeInt:
                return "Python int in [2**63, 2**64)"
            return f"Python {self.dtype.__name__}"
        prefix = "0-d " if self.kind is OperandKind.ZERO_D else ""
        return f"{prefix}{self.dtype.name} array"


class ValueOperand(NamedTuple):
    """A 0-d array or Python scalar together with its value, for value-dependent policies.

    Given by a user (``zero_d(int64, 300)``), ``value`` is the value itself; in a
    signature a value-dependent policy builds (:meth:`Policy.value_operand`) it is the
    policy's hashable *class* of the value (NumPy 1.x: the minimal dtype), so decisions
    stay cached per class rather than per value.
    """

    kind: OperandKind
    dtype: object
    value: object

    def __str__(self) -> str:
        return f"{Operand(self.kind, self.dtype)} ({self.value!r})"


def nd(dtype: DType) -> Operand:
    """An operand standing for an array with ``ndim > 0`` of ``dtype``."""
    return Operand(OperandKind.ARRAY, _check_dtype(dtype))


_NO_VALUE = object()


def zero_d(dtype: DType, value=_NO_VALUE):
    """An operand standing for a 0-d array of ``dtype`` (holding ``value``, if given:
    only value-dependent policies such as ``numpy_legacy`` look at it)."""
    if value is _NO_VALUE:
        return Operand(OperandKind.ZERO_D, _check_dtype(dtype))
    return ValueOperand(OperandKind.ZERO_D, _check_dtype(dtype), value)


def _check_dtype(dtype) -> DType:
    if type(dtype) is not DType:
        raise TypeError(f"expected an array_api_promo dtype, got {dtype!r} ({type(dtype).__name__})")
    return dtype


class LargeInt(int):
    """Type key of a Python int in [2**63, 2**64): too large for int64, fits uint64.

    Never instantiated; PyTorch unpacks such an int as a uint64 scalar, so the
    key has to differ from ``int``'s.
    """


_INT64_MAX = 2**63 - 1
_UINT64_END = 2**64


def scalar_type(value) -> type:
    """The promotion key of a Python scalar: its type, or ``LargeInt``."""
    t = type(value)
    if t is int and _INT64_MAX < value < _UINT64_END:
        return LargeInt
    return t


def classify(x) -> tuple[Operand, object]:
    """``(operand, python value or None)`` for anything promotion accepts.

    Accepted: operand markers, dtypes (as n-d arrays), objects with a ``dtype``
    that is one of ours and an ``ndim`` (arrays), and Python scalars.
    """
    t = type(x)
    if t is Operand:
        return x, None
    if t is ValueOperand:
        return Operand(x.kind, x.dtype), x.value
    if t is DType:
        return Operand(OperandKind.ARRAY, x), None
    if t in D.PY_SCALARS:
        return Operand(OperandKind.SCALAR, scalar_type(x)), x
    dtype = getattr(x, "dtype", None)
    if type(dtype) is DType:
        ndim = x.ndim
        return Operand(OperandKind.ZERO_D if ndim == 0 else OperandKind.ARRAY, dtype), None
    if isinstance(x, np.generic):
        raise TypeError(
            f"NumPy scalar {x!r} ({t.__name__}) is not an operand; convert it with "
            "float()/int()/bool()/complex() or wrap it with asarray()"
        )
    if isinstance(x, np.ndarray):
        raise TypeError("a NumPy ndarray is not an operand; wrap it with asarray()")
    raise TypeError(
        f"{x!r} ({t.__name__}) is not an operand: expected an array, a dtype or a Python bool, int, float or complex"
    )


def zero_d_value(x):
    """The value of a 0-d array (a NumPy scalar), or ``None`` for a marker or unknown type."""
    data = getattr(x, "_data", None)
    if type(data) is np.ndarray and data.ndim == 0:
        return data[()]
    return None


class Decision(NamedTuple):
    """What an operation computes in and returns."""

    compute: DType  # the dtype every operand is converted to
    result: DType  # the dtype of the returned array
    # The dtype a Python scalar operand is converted to first (None: straight to ``compute``);
    # MegEngine makes a number a tensor of its own dtype before the operator promotes.
    scalar: DType | None = None


class PromotionError(TypeError):
    """Operands that do not promote under a policy (a ``TypeError``)."""

    __module__ = "array_api_promo"  # the public path, which tracebacks print


class NoDtypeError(PromotionError, ValueError):
    """Only Python scalars, no array or dtype, to promote: also a ``ValueError``, which is
    what NumPy's and array-api-strict's ``result_type`` raise for it (SciPy's ``_logspace``
    catches that ``ValueError`` to fall back on the default float)."""

    __module__ = "array_api_promo"


class PromotionDifferenceWarning(UserWarning):
    """A call whose outcome another policy would change (raised by an audited namespace,
    ``array_api_promo.audit``, once per site of the user's code)."""

    __module__ = "array_api_promo"


class Explanation:
    """A readable trace of one promotion decision."""

    def __init__(self, policy: Policy, operands, op: str):
        self.policy = policy
        self.operands = list(operands)
        self.op = op
        self.steps: list[str] = []
        self.result: DType | None = None
        self.error: BaseException | None = None

    def step(self, text: str) -> None:
        self.steps.append(text)

    def __str__(self) -> str:
        lines = [f"{self.op} under policy {self.policy.name!r}:"]
        lines.append("  operands: " + ", ".join(self.operands))
        lines.extend(f"  - {s}" for s in self.steps)
        if self.error is not None:
            lines.append(f"  => {type(self.error).__name__}: {self.error}")
        else:
            lines.append(f"  => {self.result.name}")
        return "\n".join(lines)

    __repr__ = __str__


class _Failure(NamedTuple):
    """A cached refusal: raised anew on every call."""

    exc_type: type
    message: str


# Policy.integer_division_by_zero's rules (their kernels: _special_values._ZERO_DIVISION).
ZERO_DIVISION_RULES = ("zero", "warn", "raise", "xla", "mlx")
# Policy.undefined_refusals' names.
UNDEFINED_REFUSALS = (
    "negative_shift",
    "negative_power",
    "crossed_clip",
    "array_fill",
    "list_shape",
    "foreign_comparison",
    "foreign_operand",
    "non_integer_isin",
    "python_bool_dtype",
    "nested_arrays",
    "none_device",
    "len",
    "nd_iteration",
    "implicit_axes",
    "slice_bounds",
    "setitem_keys",
    "index_mixes",
)
# The names of UNDEFINED_REFUSALS that refuse indexing keys (the runtime checks a key only for them).
INDEXING_REFUSALS = frozenset({"implicit_axes", "slice_bounds", "setitem_keys", "index_mixes"})


class Policy(ScalarRules):
    """Base class of promotion policies.

    A subclass sets ``name``, ``dtypes`` and the defaults, and implements
    :meth:`_resolve`; the op-specific hooks have the standard's behaviour by
    default and are overridden where a real library differs.
    """

    name: str = "abstract"
    dtypes: tuple[DType, ...] = D.STANDARD_DTYPES
    default_int: DType = D.int64
    default_uint: DType = D.uint64
    default_float: DType = D.float64
    default_complex: DType = D.complex128
    default_index: DType = D.int64
    #: Results the policy's library has but NumPy cannot store: name -> stored dtype
    #: (read by the policy's ``_resolve``; e.g. torch's complex32 is stored as complex64).
    storage_substitutions: dict[str, DType] = {}
    #: Whether a 0-d array promotes differently from an n-d array of its dtype
    #: (PyTorch's 0-d slot); where not, decisions are cached without that flag.
    zero_d_matters: bool = True
    #: Whether decisions depend on the *values* of 0-d arrays and Python scalars, not only
    #: on kinds and dtypes (NumPy 1.x's value-based casting).  Value-independent policies
    #: keep one cached plan per signature; a value-dependent one gets signatures whose
    #: 0-d and scalar operands carry :meth:`value_operand`'s class of their value.
    value_dependent: bool = False
    #: Elementwise functions that take two Python scalars (a 0-d result of their promoted
    #: dtype); the standard requires an array, so none by default.
    scalar_pair_functions: frozenset = frozenset()
    #: Whether ``clip`` with a Python-number bound reads its 0-d array bounds as numbers
    #: too (``torch.clamp``'s Scalar overload); an n-d bound then cannot mix with a number.
    clip_number_bounds: bool = False
    #: How a NumPy scalar (``np.float64(1.5)``, ``np.int8(3)``) enters an operation:
    #: ``"refuse"`` (the standard knows no such operand), ``"array"`` (a 0-d array of its
    #: dtype, as NumPy does) or a mapping from its NumPy kind character to the Python type
    #: it counts as (torch reads it as a Python number).
    numpy_scalars: str | dict[str, type] = "refuse"
    #: Whether a NumPy scalar inside a nested sequence given to ``asarray`` (without a dtype)
    #: counts by its own dtype, joined with the Python scalars' defaults by the policy's
    #: promotion (torch's ``inferScalarType``); otherwise ``np.float64``/``np.complex128`` are
    #: the Python floats and complexes they subclass and other NumPy scalars are refused.
    sequence_numpy_scalars: bool = False
    #: What ``asarray`` makes of a NumPy array without ``dtype=`` where the library converts it:
    #: NumPy dtype name -> the name of the policy's dtype (MegEngine narrows int64 to int32, MLX
    #: float64 to float32); a dtype not named here keeps its dtype, or is refused if the policy
    #: lacks it.
    numpy_array_dtypes: dict[str, str] = {}
    #: Integer ``floor_divide``/``remainder`` by zero, which the standard leaves unspecified:
    #: ``"zero"`` NumPy's value (0) silently; ``"warn"`` the same with NumPy's ``RuntimeWarning:
    #: divide by zero encountered in ...``; ``"raise"`` a ZeroDivisionError (PyTorch); ``"xla"``
    #: JAX's values (quotient -1 for 0 // 0, else -2; unsigned all ones; remainder 0); ``"mlx"``
    #: MLX's (quotient 0, remainder x1). The kernels: ``_special_values._ZERO_DIVISION``.
    integer_division_by_zero: str = "zero"
    #: Calls the standard leaves undefined that the policy refuses, each by its name in
    #: ``UNDEFINED_REFUSALS``, where the base computes what NumPy computes (the ``array_api``
    #: policy refuses them all, as array-api-strict does): ``"negative_shift"``, a
    #: ``bitwise_left_shift``/``bitwise_right_shift`` by a negative amount (ValueError; the standard:
    #: "only defined for x2 >= 0"); ``"negative_power"``, an integer ``pow`` with a negative exponent
    #: (ValueError; else torch's truncated ``1 / x1 ** -x2``); ``"crossed_clip"``, ``clip`` with
    #: ``min > max`` (ValueError); ``"array_fill"``, an array as ``full``'s or ``full_like``'s
    #: ``fill_value`` (TypeError); ``"list_shape"``, a ``reshape`` shape or ``tile`` repetitions that
    #: is not a tuple (TypeError); ``"foreign_comparison"``, ``==``/``!=`` with an object that is
    #: neither an array nor a Python scalar (TypeError; else Python's identity comparison);
    #: ``"foreign_operand"``, any other operator with such an object (TypeError, the other object's
    #: reflected method not asked; else NotImplemented, so that Python asks it);
    #: ``"non_integer_isin"``,
    #: ``isin`` of arrays of a non-integer dtype (TypeError); ``"python_bool_dtype"``, ``dtype=bool``
    #: (Python's type) for the bool dtype (TypeError); ``"nested_arrays"``, arrays inside the sequence
    #: given to ``asarray`` (TypeError; else their values); ``"none_device"``, ``x.to_device(None)``
    #: (ValueError; else the CPU); ``"len"``, ``len(x)`` (TypeError: the standard's array has no
    #: ``__len__``; else x.shape[0]); ``"nd_iteration"``, iterating an array of more than one dimension
    #: (TypeError: the standard defines the iteration of 1-d arrays; else x[0, ...], x[1, ...], ...).
    #: ``"list_shape"`` also refuses a list as ``squeeze``'s axis or
    #: ``roll``'s shift. Indexing keys (IndexError; else NumPy's indexing): ``"implicit_axes"``, a key
    #: without an ellipsis that names fewer axes than x has (``x2d[0]``; a sole boolean mask excepted);
    #: ``"slice_bounds"``, a slice bound outside ``-n..n`` for an axis of size n; ``"setitem_keys"``,
    #: ``None`` or an integer array in a ``__setitem__`` key; ``"index_mixes"``, integer arrays beside
    #: a slice, an ellipsis or a mask, and a boolean mask beside any other entry.
    undefined_refusals: frozenset = frozenset()
    #: Dtypes whose values ``argmax``, ``argmin``, ``sort``, ``argsort`` and ``searchsorted`` refuse to
    #: order (a TypeError): none by default (NumPy orders booleans, and complex numbers lexicographically).
    unordered_dtypes: frozenset = frozenset()
    #: Whether ``searchsorted`` compares real values of kinds that do not promote (``int64`` with
    #: ``float64``) as NumPy compares them rather than refusing: the standard asks no promotion of
    #: its two arguments, only real-valued ones.
    search_mixed_kinds: bool = False
    #: Whether ``linspace`` and ``arange`` take ``dtype=bool`` (NumPy's values: ``linspace(0, 1, 2)``
    #: is ``[False, True]``; ``arange`` of more than two values is still refused, as NumPy refuses it).
    bool_ranges: bool = False
    #: Whether an argument of a type the standard does not name is read as NumPy reads it, as
    #: array-api-strict (which hands it to NumPy) takes it, rather than refused (TypeError): a flag
    #: such as ``keepdims``, ``descending`` or ``endpoint`` by its truth (``keepdims=1``; by its
    #: ``__index__`` where NumPy's reductions read it: ``sum(x, keepdims=None)`` stays refused); an
    #: int such as ``n``, ``k`` or ``num`` by its ``__index__`` (``True``, ``np.int64(3)``); ``norm=None``
    #: as ``"backward"``. Never where it would lose data or give a dtype the standard does not.
    numpy_argument_reading: bool = False

    @property
    def summary(self) -> str:
        """One line saying which rules these are (the class docstring's first line, by default)."""
        return ((type(self).__doc__ or "").strip().splitlines() or [self.name])[0]

    def __init__(self):
        self._result_cache: dict = {}
        self._decision_cache: dict = {}
        self._dtype_set = frozenset(self.dtypes)
        if self.integer_division_by_zero not in ZERO_DIVISION_RULES:
            raise ValueError(
                f"policy {self.name!r}: integer_division_by_zero must be one of {', '.join(map(repr, ZERO_DIVISION_RULES))}, "
                f"not {self.integer_division_by_zero!r}"
            )
        unknown = set(self.undefined_refusals) - set(UNDEFINED_REFUSALS)
        if unknown:
            raise ValueError(
                f"policy {self.name!r}: undefined_refusals names {', '.join(map(repr, sorted(unknown)))}; "
                f"the names are {', '.join(map(repr, UNDEFINED_REFUSALS))}"
            )
        if D.bfloat16 in self._dtype_set:
            D.load_ml_dtypes()
        if self.value_dependent:
            self.signature = self._signature_with_values

    def value_operand(self, operand: Operand, value):
        """``operand`` (a 0-d array or Python scalar) holding ``value``, as a hashable
        operand for signatures (value-dependent policies only; ``value`` is ``None``
        when unknown, e.g. a bare ``zero_d(dtype)`` marker)."""
        return operand

    def __repr__(self) -> str:
        return f"<promotion policy {self.name!r}>"

    # -- (a) result type ------------------------------------------------------
    def _resolve(self, signature: tuple[Operand, ...], trace: Explanation | None) -> DType:
        """The promoted dtype of ``signature``; raise :class:`PromotionError` if none."""
        raise NotImplementedError

    def signature(self, operands) -> tuple[tuple[Operand, ...], list]:
        sig = []
        scalars = []
        for x in operands:
            operand, value = classify(x)
            if operand.kind is not OperandKind.SCALAR and operand.dtype not in self._dtype_set:
                raise TypeError(f"dtype {operand.dtype.name} does not exist under policy {self.name!r}")
            sig.append(operand)
            if operand.kind is OperandKind.SCALAR:
                self.check_scalar_value(value, "result_type")
                scalars.append(value)
        return tuple(sig), scalars

    def _signature_with_values(self, operands):
        """:meth:`signature` of a value-dependent policy: 0-d arrays and scalars with their values."""
        sig, scalars = [], []
        for x in operands:
            operand, value = classify(x)
            kind = operand.kind
            if kind is not OperandKind.SCALAR and operand.dtype not in self._dtype_set:
                raise TypeError(f"dtype {operand.dtype.name} does not exist under policy {self.name!r}")
            if kind is OperandKind.SCALAR:
                self.check_scalar_value(value, "result_type")
                scalars.append(value)
            elif kind is OperandKind.ZERO_D and value is None:
                value = zero_d_value(x)
            sig.append(operand if kind is OperandKind.ARRAY else self.value_operand(operand, value))
        return tuple(sig), scalars

    def resolve(self, signature: tuple[Operand, ...], op: str = "result_type") -> DType:
        """The promoted dtype of a signature (cached)."""
        result = self._result_cache.get(signature)
        if result is None:
            try:
                result = self._resolve(signature, None)
            except PromotionError as exc:
                result = _Failure(type(exc), str(exc))
            self._result_cache[signature] = result
        if type(result) is _Failure:
            raise result.exc_type(f"{op}: {result.message}")
        return result

    def result_type(self, *operands) -> DType:
        """The dtype that promoting ``operands`` gives under this policy."""
        if not operands:
            raise ValueError(f"result_type: at least one array or dtype is required (policy {self.name!r})")
        sig, scalars = self.signature(operands)
        result = self.resolve(sig)
        for value in scalars:
            self.check_scalar(value, result, "result_type")
        return result

    def explain(self, *operands, op: str = "result_type") -> Explanation:
        """A readable trace of how ``operands`` promote (never raises for bad promotion)."""
        spec = OPS.get(op) if op != "result_type" else None
        trace = Explanation(self, (), op)
        try:
            if spec is None and op != "result_type" and op not in FUNCTION_DOMAINS:
                raise ValueError(f"explain: unknown operation {op!r}")
            sig, scalars = self.signature(operands)
            trace.operands = [str(s) for s in sig]
            if not sig:
                raise ValueError("at least one array or dtype is required")
            result = self._resolve(sig, trace)
            for value in scalars:
                self.check_scalar(value, result, op)
            if op in FUNCTION_DOMAINS:  # a reduction, linalg or fft function: what the function reads
                decision = self.function_dtype(op, result)
                if decision.result is not result:
                    trace.step(f"{op} of {result.name} input returns {decision.result.name}")
                result = decision.result
            elif spec is not None:
                decision = self.decide(spec, sig)
                if decision.compute is not result:
                    trace.step(f"{op} computes in {decision.compute.name} ({self._why_compute(spec)})")
                if decision.result is not decision.compute:
                    trace.step(f"{op} returns {decision.result.name} (result kind {spec.result.value})")
                result = decision.result
            trace.result = result
        except (TypeError, ValueError, OverflowError) as exc:
            trace.error = exc
        return trace

    def _why_compute(self, spec: OpSpec) -> str:
        return f"result kind {spec.result.value}"

    def foreign_numpy_scalar(self, name: str, op: str, others: tuple[DType, ...]) -> DType:
        """The dtype a NumPy scalar of a dtype the policy does not have enters ``op`` as (under the
        ``"array"`` rule of ``numpy_scalars``), next to arrays of dtypes ``others``: ml_dtypes' float8
        types, or bfloat16 under a policy without it. By default it is refused."""
        raise PromotionError(
            f"{op or 'operand'}: a NumPy scalar of dtype {name} is not an operand: the dtype does not exist "
            f"under policy {self.name!r}; convert it with float() first"
        )

    def for_standin(self) -> Policy:
        """This policy as ``python -m array_api_promo.standin`` runs it in place of array-api-strict:
        itself, unless the policy's module says how array-api-strict differs where the standard
        leaves a choice to the library (``array_api``: its conversions)."""
        return self

    # -- (c) operation rules ----------------------------------------------------
    def decide(self, spec: OpSpec, signature: tuple[Operand, ...]) -> Decision:
        """Compute and result dtype of the operation ``spec`` on ``signature`` (cached)."""
        key = (spec, signature)
        decision = self._decision_cache.get(key)
        if decision is None:
            try:
                common = self.resolve(signature, spec.name)
                decision = self._decide(spec, common, signature)
            except PromotionError as exc:
                decision = _Failure(type(exc), str(exc))
            self._decision_cache[key] = decision
        if type(decision) is _Failure:
            raise decision.exc_type(decision.message)
        return decision

    def _decide(self, spec: OpSpec, common: DType, signature) -> Decision:
        """The standard's rule: the inputs must be in the op's domain."""
        if not spec.domain.admits(common):
            raise PromotionError(
                f"{spec.name}: {describe_signature(signature)} is not allowed; the standard requires "
                f"{spec.domain.words} input (policy {self.name!r})"
            )
        if spec.result is ResultKind.FIRST and common is not signature[0].dtype:
            raise PromotionError(
                f"{spec.name}: {describe_signature(signature)} would change the dtype of x from "
                f"{signature[0].dtype.name} to {common.name}; the standard requires the result "
                f"to keep x's dtype (policy {self.name!r})"
            )
        return Decision(common, self.result_of_kind(spec.result, compute=common))

    def result_of_kind(self, kind: ResultKind, compute: DType) -> DType:
        """The result dtype of an operation of result ``kind`` computing in ``compute`` (the one home of
        the BOOL and REAL tails; FLOAT and the library-specific kinds are each policy's ``_decide``)."""
        if kind is ResultKind.BOOL:
            return D.bool_
        if kind is ResultKind.REAL and compute.category == D.CATEGORY_COMPLEX:
            return D.REAL_OF[compute]
        return compute

    def inplace_result(self, op: str, result: DType, target: DType) -> None:
        """Raise unless an in-place ``op`` may store a ``result`` value into ``target``.

        The standard: an in-place operation must not change the dtype of ``x1``.
        """
        if result is not target:
            raise PromotionError(
                f"{op}: in-place operation would change the dtype of x1 from {target.name} "
                f"to {result.name}; the standard does not allow it (policy {self.name!r})"
            )

    def refuse_ordering(self, op: str, dtype: DType) -> None:
        """Raise the refusal of ``op`` ordering ``dtype`` values (one of :attr:`unordered_dtypes`)."""
        raise PromotionError(
            f"{op}: {dtype.name} input is not allowed; the standard requires real-valued input, whose values "
            f"are ordered (policy {self.name!r})"
        )

    def accumulation_dtype(self, op: str, dtype: DType) -> DType:
        """Default result dtype of ``sum``/``prod``/``cumulative_sum``/``cumulative_prod``.

        The standard: integers narrower than the default integer accumulate in the
        default (unsigned) integer, booleans in the default integer, floats keep
        their dtype.
        """
        cat = dtype.category
        if cat == D.CATEGORY_BOOL:
            return self.default_int
        if cat == D.CATEGORY_INTEGER:
            if dtype.kind == D.UNSIGNED_INTEGER:
                return dtype if dtype.bits >= self.default_uint.bits else self.default_uint
            return dtype if dtype.bits >= self.default_int.bits else self.default_int
        return dtype

    def accumulation_decision(self, op: str, dtype: DType) -> Decision:
        """An accumulating function's decision: computed and returned in :meth:`accumulation_dtype`."""
        acc = self.accumulation_dtype(op, dtype)
        return Decision(acc, acc)

    def versioned_accumulation(self, op: str, result: DType, api_version: str) -> DType:
        """The default result dtype of ``sum``/``prod``/``trace`` at ``api_version``, given ``result``
        from :meth:`function_dtype` (the current standard's).

        Before 2023.12 the standard had them accumulate floating input in the default
        floating dtype (float32 -> float64 under a float64 default); since then they keep it.
        """
        if api_version >= "2023.12" or op not in ("sum", "prod", "trace"):
            return result
        if result.category == D.CATEGORY_FLOATING:
            default = self.default_float
        elif result.category == D.CATEGORY_COMPLEX:
            default = self.default_complex
        else:
            return result
        return default if default.bits > result.bits else result

    def astype_allowed(self, from_: DType, to: DType) -> bool:
        """Whether ``astype`` may convert ``from_`` to ``to``.

        The standard leaves complex -> real unspecified; refused rather than dropping
        the imaginary part.
        """
        return not (from_.category == D.CATEGORY_COMPLEX and to.category != D.CATEGORY_COMPLEX)

    def complex_of(self, dtype: DType) -> DType:
        """The complex dtype of ``dtype``'s precision: eigenvalues of a real matrix (``linalg.eig``).

        16-bit floats have no complex dtype of their own: complex64.
        """
        if dtype.category == D.CATEGORY_COMPLEX:
            return dtype
        if dtype.bits < 32:
            return D.complex64
        return D.COMPLEX_OF[dtype]

    def function_dtype(self, op: str, dtype: DType) -> Decision:
        """Compute and result dtype of a non-elementwise function ``op`` on ``dtype`` input.

        ``op`` is a statistical or linear-algebra function (``sum``, ``mean``,
        ``std``, ``diff``, ``trace``, ``vecdot``, ``inv``, ...; ``dtype`` is the
        dtype of its (promoted) input).  The standard: the input must be in the
        domain its stub names ("Should have a ... data type"); ``sum``, ``prod``,
        ``cumulative_*`` and ``trace`` return :meth:`accumulation_dtype`; norms, singular
        values, Hermitian eigenvalues and ``slogdet``'s logabsdet are real of the input's
        precision, ``matrix_rank`` the default integer; the others keep the dtype.
        """
        domain = FUNCTION_DOMAINS.get(op)
        if domain is None:
            raise ValueError(f"function_dtype: unknown function {op!r}")
        if not domain.admits(dtype):
            raise PromotionError(
                f"{op}: {dtype.name} input is not allowed; the standard requires "
                f"{domain.words} input (policy {self.name!r})"
            )
        if op in ACCUMULATING_FUNCTIONS:
            return self.accumulation_decision(op, dtype)
        if op in REAL_TO_COMPLEX_FUNCTIONS:
            return Decision(dtype, D.COMPLEX_OF[dtype])
        if op in COMPLEX_TO_REAL_FUNCTIONS:
            return Decision(dtype, D.REAL_OF[dtype])
        if op in REAL_RESULT_FUNCTIONS:
            return Decision(dtype, D.REAL_OF.get(dtype, dtype))
        if op in COUNT_RESULT_FUNCTIONS:
            return Decision(dtype, self.default_int)
        return Decision(dtype, dtype)

    def can_cast(self, from_: DType, to: DType) -> bool:
        """Whether ``from_`` promotes to ``to`` (the standard's ``can_cast``)."""
        try:
            return self.resolve((Operand(OperandKind.ARRAY, from_), Operand(OperandKind.ARRAY, to))) is to
        except TypeError:
            return False


class _Kinds(NamedTuple):
    """A domain that ``Domain`` does not name (duck-typed: ``words``, ``admits``)."""

    words: str
    kinds: frozenset

    def admits(self, dtype) -> bool:
        return dtype.kind in self.kinds


COMPLEX_FLOATING_INPUT = _Kinds("complex floating-point", frozenset({D.COMPLEX_FLOATING}))
FUNCTION_DOMAINS = {
    **dict.fromkeys(
        ["sum", "prod", "cumulative_sum", "cumulative_prod", "trace", "diff", "cross", "outer", "tensordot", "vecdot"],
        Domain.NUMERIC,
    ),
    **dict.fromkeys(["max", "min"], Domain.REAL_VALUED),
    **dict.fromkeys(["std", "var"], Domain.REAL_FLOATING),
    **dict.fromkeys(
        [
            "mean",
            "cholesky",
            "det",
            "eig",
            "eigvals",
            "eigh",
            "eigvalsh",
            "inv",
            "matrix_norm",
            "matrix_power",
            "matrix_rank",
            "pinv",
            "qr",
            "slogdet",
            "solve",
            "svd",
            "svdvals",
            "vector_norm",
            "fftshift",
            "ifftshift",
        ],
        Domain.FLOATING,
    ),
    **dict.fromkeys(["rfft", "rfftn", "ihfft", "fftfreq", "rfftfreq"], Domain.REAL_FLOATING),
    **dict.fromkeys(["fft", "ifft", "fftn", "ifftn", "irfft", "irfftn", "hfft"], COMPLEX_FLOATING_INPUT),
}


def describe_signature(signature) -> str:
    return " and ".join(str(s) for s in signature) if len(signature) > 1 else str(signature[0])


# -- registry -----------------------------------------------------------------
_REGISTRY: dict[str, Policy] = {}
# Built-in policies made when first asked for (promotion/__init__ says why): name -> maker.
_DEFERRED: dict[str, Callable[[], Policy]] = {}
_MAKING = threading.RLock()


def defer_policy(name: str, make: Callable[[], Policy]) -> None:
    """Register the policy ``make()`` under ``name`` when it is first asked for."""
    _DEFERRED[name] = make


def _made(name: str) -> Policy | None:
    """The registered policy ``name``, made now if it was deferred (``None`` if there is none)."""
    with _MAKING:  # threads asking at once get one policy; none sees the name missing meanwhile
        make = _DEFERRED.get(name)
        if make is not None:
            _REGISTRY[name] = make()
            del _DEFERRED[name]
        return _REGISTRY.get(name)


def register_policy(policy: Policy, *, replace: bool = False) -> Policy:
    """Make ``policy`` available by its name to ``get_policy`` and ``namespace``."""
    if not isinstance(policy, Policy):
        raise TypeError(f"register_policy: expected a Policy instance, got {type(policy).__name__}")
    if policy.name in _DEFERRED:
        _made(policy.name)  # a deferred built-in counts as registered
    if policy.name in _REGISTRY and not replace and _REGISTRY[policy.name] is not policy:
        raise ValueError(f"register_policy: a policy named {policy.name!r} is already registered")
    _REGISTRY[policy.name] = policy
    return policy


def get_policy(policy) -> Policy:
    """The policy called ``policy`` (or ``policy`` itself if it is one)."""
    if isinstance(policy, Policy):
        return policy
    if isinstance(policy, str):
        found = _REGISTRY.get(policy)
        if found is None:
            found = _made(policy)
            if found is None:
                raise ValueError(f"unknown promotion policy {policy!r}; available: {', '.join(available_policies())}")
        return found
    raise TypeError(f"a promotion policy is a Policy or its registered name, got {policy!r}")


def available_policies() -> tuple[str, ...]:
    return tuple(sorted(_REGISTRY.keys() | _DEFERRED.keys()))
