"""The runtime base: what a namespace's functions share (policy, API version, the common checks).

Every public function of the standard is written once, as a method of a
class that inherits :class:`RuntimeBase` (one per spec category,
``_creation_functions.py`` ...).  ``_namespace.Runtime`` combines them and
binds them to one policy and one API version; the module object users see
holds the runtime's bound methods.  An array reaches its runtime through its
``_runtime`` slot.  The policy, version and dtypes never change after
construction; the plan caches fill as signatures are met.
"""

from __future__ import annotations

import contextvars
import operator
import os
import sys
import threading

import numpy as np

from . import _core, _dtypes as D
from ._array import Array, new_array
from ._devices import ALL_DEVICES, CPU, DEVICE1, DEVICE2, Device, device_by_name, device_of, operation_name
from ._dtypes import PY_SCALARS, DType
from ._errors import ArgumentError, AxisError
from .promotion import INDEXING_REFUSALS, Operand, OperandKind, PromotionError, scalar_type, zero_d_value

__all__ = [
    "BoundedTable",
    "RuntimeBase",
    "describe_value",
    "new_array",
    "PLAIN_LENGTH",
    "check_broadcast",
    "silent_context",
    "silently",
]

_ARRAY = OperandKind.ARRAY
_ZERO_D = OperandKind.ZERO_D
_SCALAR = OperandKind.SCALAR
_new_object = object.__new__


class RuntimeBase:
    """Policy, version and the shared argument checks of one namespace."""

    _by_value = False  # the policy's decisions depend on values (see __init__)
    storage = "numpy"  # where arrays keep their data ("dask": _dask.runtime.DaskRuntime)
    # The standard's optional capabilities (__array_namespace_info__().capabilities()); the
    # stand-in for array-api-strict turns them off with its flags.
    boolean_indexing = True
    data_dependent_shapes = True
    # What __array_namespace_info__().devices() lists: the devices that hold every dtype.
    # no_float64 and no_x64 exist (by name, and under the stand-in, which lists all five as
    # array-api-strict does); code that moves any array to any listed device (the upstream
    # suite's test_from_dlpack) then never meets a device that cannot hold it.
    listed_devices = (CPU, DEVICE1, DEVICE2)

    def __init__(self, policy, api_version: str):
        self.policy = policy
        self.api_version = api_version
        self.module = None  # the module object users see; set by the namespace factory
        self.dtypes = tuple(d for d in policy.dtypes if _dtype_in_version(d, api_version))
        self._dtype_set = frozenset(self.dtypes)
        # NumPy's native dtype objects are singletons: asarray looks them up by id.
        # (A NumPy dtype the policy's library converts, MLX's float64, is not wrapped as it is.)
        converted = policy.numpy_array_dtypes
        self._native_dtypes = {id(d.numpy): d for d in self.dtypes if d.name not in converted}
        # Python scalars as arguments of elementwise functions: 2024.12 and later.
        self.scalars_in_functions = api_version >= "2024.12"
        # Elementwise plans per signature, filled on first use (see _elementwise_functions).
        self._plans: dict = {}
        # The plans any operands of their dtypes meet, by (name, dtype, dtype or scalar type) or
        # (name, dtype): the operators' fast path (see _elementwise_functions).
        self._fast: dict = {}
        self._result_types: dict = {}  # result_type of two arrays, by the same keys
        self._can_casts: dict = {}  # can_cast's answers by (from_, to), two dtypes of this namespace
        # What the general path of a linear algebra or fft function has decided once, one home per
        # kind of answer: result dtypes by (op, dtype) (_function_result, linalg.trace's accumulation);
        # the compute dtype of two arrays by (function, dtype, dtype) (_two_arrays, vecdot); and
        # one array's plan by (function, dtype) (fft's FunctionDtype decision, _linalg_input's
        # (compute dtype, working NumPy dtype), vector_norm of all of x's (working, result)).
        self._function_results: dict = {}
        self._function_pair_dtypes: dict = {}
        self._function_plans: dict = {}
        # astype casts the general path has allowed, by to, then from: whether NumPy must be quiet.
        self._casts: dict = {}
        # Result dtypes of the reductions the general path has allowed with no dtype= (sum, prod, max,
        # min over any axis; mean, var, std over the whole array; ...), by (function, dtype).
        self._accumulations: dict = {}
        # Decisions of clip with two Python bounds of one type and of where with two arrays, by
        # their signature (see _elementwise_functions).
        self._clip_plans: dict = {}
        self._where_plans: dict = {}
        # x[key] = Python scalar (a basic key or a mask of x's shape): the policy's converter, by
        # (x's dtype, the scalar's type), once the general path has allowed such a store (see
        # _indexing_functions). Not a plain dict (the audit's): no store takes Array.__setitem__'s path.
        self._setitem_converters: dict = {}
        self._flat_keys = not policy.zero_d_matters
        # The indexing keys the policy refuses (Policy.undefined_refusals): where any, the fast paths
        # take a key that is not plain (every axis named, slices in bounds) to _indexing_functions' check.
        self._key_refusals = policy.undefined_refusals & INDEXING_REFUSALS
        # Value-dependent policies (numpy_legacy): plans that involve a 0-d array or a
        # Python scalar are cached per value class, never under the plain signature key.
        # (Instance attributes only for them: the others' runtimes stay as they were.)
        if policy.value_dependent:
            self._by_value = True
            self._value_plans: dict = {}
            self._operand = self._operand_with_value  # type: ignore[method-assign]  # this runtime only

    def __repr__(self) -> str:
        return f"<array_api_promo namespace policy={self.policy.name!r} api_version={self.api_version!r}>"

    @property
    def label(self) -> str:
        return f"array_api_promo (policy {self.policy.name!r}, api_version {self.api_version})"

    # -- refusals -------------------------------------------------------------------------
    # Whether arrays print by the runtime's ``_repr`` (lazy storage; the stand-in prints array-api-strict's).
    own_repr = False

    def _refusal(self, exc: BaseException, kind: str, *facts) -> BaseException:
        """The exception a refusal of ``kind`` raises (``raise self._refusal(TypeError(...), kind, *facts)``):
        ``exc`` itself, in our words.  The stand-in for array-api-strict's runtime puts array-api-strict's
        words first where it refuses the same call (``_strict_words``: the kinds, their facts, the texts).
        Called on error paths only."""
        return exc

    def _scalar_converter(self, scalar_type: type, dtype: DType, op: str):
        """The policy's converter of a plan's Python scalars of ``scalar_type`` to ``dtype`` (made once per plan;
        the stand-in's words its out-of-range refusals)."""
        return self.policy.scalar_converter(scalar_type, dtype, op)

    # -- arrays -----------------------------------------------------------------------
    def _new(self, data: np.ndarray, dtype: DType, device: Device) -> Array:
        return Array._new(data, dtype, self, device)

    def _check_array(self, x, func: str, arg: str = "x") -> Array:
        """``x`` itself if it is an array this namespace may use, else a clear ``TypeError``."""
        if type(x) is Array:
            if x._runtime is not self and (x._runtime.policy is not self.policy or x._runtime.storage != self.storage):
                self._foreign(x, func)
            return x
        raise self._refusal(
            TypeError(f"{func}: {arg} must be an array of {self.label}, got {describe_value(x)}"),
            "not_array",
            func,
            arg,
            x,
        )

    def _ordered_array(self, x, func: str) -> Array:
        """``x`` checked as ``_check_array`` does, refused if the policy cannot order its dtype
        (the sorting and searching functions)."""
        x = self._check_array(x, func)
        if x._dtype in self.policy.unordered_dtypes:
            try:
                self.policy.refuse_ordering(func, x._dtype)
            except PromotionError as exc:
                raise self._refusal(exc, "function_domain", func, x._dtype) from None
        return x

    def _foreign(self, x: Array, func: str):
        raise TypeError(
            f"{func}: cannot mix arrays of {x._runtime.label} with {self.label}; convert with "
            "asarray() of the target namespace"
        )

    def _same_device(self, func: str, *arrays: Array) -> Device:
        device = arrays[0]._device
        for a in arrays[1:]:
            if a._device is not device:
                raise self._refusal(
                    ValueError(
                        f"{func}: arrays are on different devices ({device.name} and {a._device.name}); "
                        "move one with to_device()"
                    ),
                    "devices",
                    func,
                    device,
                    a._device,
                )
        return device

    # -- arguments ----------------------------------------------------------------------
    def _check_dtype(self, dtype, func: str, arg: str = "dtype") -> DType:
        if type(dtype) is DType and dtype in self._dtype_set:
            return dtype
        if type(dtype) is DType:
            raise ValueError(f"{func}: {arg} {dtype.name} does not exist under {self.label}")
        if dtype is bool and "python_bool_dtype" not in self.policy.undefined_refusals:
            # NumPy users write dtype=bool; it names exactly one dtype, so it is accepted
            # (int/float/complex would name a policy-dependent default and stay errors).
            return D.bool_
        # a TypeError, and the ValueError array-api-strict raises ("dtype must be one of the supported dtypes")
        raise self._refusal(
            ArgumentError(f"{func}: {arg} must be a dtype of {self.label}, got {describe_value(dtype)}"),
            "dtype_arg",
            func,
            arg,
            dtype,
        )

    def _default(self, kind: str, device: Device = CPU) -> DType:
        """The default dtype of ``kind`` ("real floating", "complex floating", "integral",
        "indexing") on ``device``: the device's own where it has one (array-api-strict's
        ``device2``, ``no_float64``, ``no_x64``) and this namespace has that dtype, else the policy's."""
        own = device.defaults.get(kind) if device is not CPU else None
        if own is not None:
            for dtype in self.dtypes:
                if dtype.name == own:
                    return dtype
        policy = self.policy
        if kind == "real floating":
            return policy.default_float
        if kind == "integral":
            return policy.default_int
        if kind == "complex floating":
            if policy.default_complex is None:
                raise TypeError(f"{operation_name()}: {self.label} has no complex dtype")
            return policy.default_complex
        return policy.default_index

    def _check_device(self, device, func: str, names: bool = False) -> Device:
        """``device`` as one of our devices (``None``: the CPU); ``names`` also takes a device's name."""
        if device is None:
            return CPU
        if type(device) is Device:
            return device
        if names and isinstance(device, str):
            try:
                return device_by_name(device)
            except ValueError as exc:
                raise self._refusal(ValueError(f"{func}: {exc}"), "device_arg", func, device) from None
        if isinstance(device, str) and device_of(device) is not None:
            raise self._refusal(
                ValueError(f"{func}: device must be a Device, not its name {device!r}; pass Device({device!r})"),
                "device_arg",
                func,
                device,
            )
        known = ", ".join(repr(d.name) for d in ALL_DEVICES)
        raise self._refusal(
            ValueError(
                f"{func}: unknown device {device!r}; devices are {known} "
                "(give Device(name), x.device, or one of __array_namespace_info__().devices())"
            ),
            "device_arg",
            func,
            device,
        )

    def _operand(self, x) -> Operand:
        """The promotion operand of an array (of a subclass too) or Python scalar."""
        if type(x) is Array or isinstance(x, Array):
            return Operand(_ZERO_D if x._data.ndim == 0 else _ARRAY, x._dtype)
        return Operand(_SCALAR, scalar_type(x))

    def _operand_with_value(self, x):
        """:meth:`_operand` for a value-dependent policy: 0-d arrays and scalars with their value class."""
        operand = RuntimeBase._operand(self, x)
        if operand.kind is _ARRAY:
            return operand
        return self.policy.value_operand(operand, zero_d_value(x) if type(x) is Array else x)

    def _promote(self, func: str, *args) -> DType:
        """The policy's result dtype of arrays (and scalars) ``args`` for ``func``."""
        try:
            return self.policy.resolve(tuple(self._operand(a) for a in args), func)
        except PromotionError as exc:
            raise self._refusal(exc, "promotion", func, *args) from None

    def _function_result(self, op: str, dtype: DType) -> DType:
        """The policy's result dtype of the non-elementwise ``op`` on ``dtype`` (remembered)."""
        result = self._function_results.get((op, dtype))
        if result is None:
            try:
                result = self._function_results[op, dtype] = self.policy.function_dtype(op, dtype).result
            except PromotionError as exc:
                raise self._refusal(exc, "function_domain", op, dtype) from None
        return result

    def _normalize_axis(self, axis: int, ndim: int, func: str) -> int:
        if type(axis) is not int and not isinstance(axis, int):
            # An integer that is not a Python int (np.int64 from a NumPy computation, as
            # SciPy's ``cumulative_simpson`` passes): its __index__, as Python's own
            # sequences and NumPy take it.  A float or np.bool_ has none.
            try:
                if isinstance(axis, np.bool_):  # NumPy < 2.3 still gives it an __index__ (deprecated)
                    raise TypeError
                axis = operator.index(axis)
            except TypeError:
                raise TypeError(f"{func}: axis must be an int, got {describe_value(axis)}") from None
        if not -ndim <= axis < ndim:  # NumPy's words and class (an IndexError and a ValueError)
            raise AxisError(f"{func}: axis {axis} is out of bounds for array of dimension {ndim}")
        return axis % ndim if ndim else 0

    def _flag(self, value, func: str, arg: str, *, integer: bool = False) -> bool:
        """The flag ``arg`` given as ``value``, which is not a Python bool (callers test that first):
        under a policy that reads arguments as NumPy does (``Policy.numpy_argument_reading``), its
        truth, or with ``integer`` its ``__index__`` (as NumPy's reductions read ``keepdims``: 1, not
        None); else our TypeError."""
        if self.policy.numpy_argument_reading:
            try:
                if not integer:
                    return bool(value)
                if not isinstance(value, np.bool_):
                    return bool(operator.index(value))
            except Exception:  # (a __bool__ or __index__ that raises: our words below)
                pass
        raise TypeError(f"{func}: {arg} must be a bool, got {type(value).__name__}")

    def _int(self, value, func: str, arg: str) -> int:
        """The int ``arg`` given as ``value``, which is not a Python int (callers test that first): an
        integer with ``__index__`` (np.int64 from a NumPy computation); a bool, too, under a policy that
        reads arguments as NumPy does; else our TypeError."""
        if type(value) is not bool or self.policy.numpy_argument_reading:
            try:
                if not isinstance(value, np.bool_):
                    return operator.index(value)
            except Exception:  # (an __index__ that raises: our words below)
                pass
        raise TypeError(f"{func}: {arg} must be an int, got {type(value).__name__}")

    def _normalize_axes(self, axis, ndim: int, func: str) -> tuple[int, ...]:
        """``axis`` (None, int or tuple) as a tuple of distinct non-negative axes."""
        if axis is None:
            return tuple(range(ndim))
        if isinstance(axis, tuple):
            axes = tuple(self._normalize_axis(a, ndim, func) for a in axis)
            if len(set(axes)) != len(axes):
                raise ValueError(f"{func}: repeated axis in {axis}")
            return axes
        return (self._normalize_axis(axis, ndim, func),)


_quiet = threading.local()


class BoundedTable(dict):
    """A module's table of values it computed once, by key, of at most ``limit`` entries: a full
    table is emptied before its next entry (each value is cheap to make again; the bound keeps the
    memory flat whatever keys a program asks for).  Read with ``dict.get``."""

    __slots__ = ("limit",)

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def keep(self, key, value):
        """``value``, kept as ``self[key]``."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


def quietly(function, *args, **kwargs):
    """``function(*args, **kwargs)`` with NumPy's overflow and invalid-value warnings off.

    For casts and reductions whose IEEE results (inf, NaN) are the standard's: entering
    ``np.errstate`` costs microseconds, so each thread keeps a context made once inside it
    (NumPy reads its error state from a context variable).  ``function`` must be a NumPy
    call that does not come back into this package.
    """
    return quiet_context().run(function, *args, **kwargs)


def quiet_context() -> contextvars.Context:
    """The context :func:`quietly` runs in on this thread, made on the thread's first use.

    The one way to it: the fast paths of astype and sum call it, and the compiled astype keeps
    what it returns in the thread state (``_fastpath.c``, ``thread_quiet_context``).
    """
    try:
        return _quiet.context
    except AttributeError:
        # Every mode named: the context is a snapshot, and a first call made inside the caller's
        # np.errstate(under="raise") must not make every later quiet cast of the thread raise.
        with np.errstate(divide="warn", over="ignore", under="ignore", invalid="ignore"):
            context = _quiet.context = contextvars.copy_context()
        return context


_core.register_quiet_context(quiet_context)  # the compiled astype runs its quiet casts in it


_silent = threading.local()


def silent_context() -> contextvars.Context:
    """A context with every NumPy floating-point warning off, made once per thread: entering
    ``np.errstate`` costs microseconds a small matrix's kernel does not (see ``quietly``,
    which keeps divide-by-zero warnings, as ``log(0)`` in ``slogdet`` must not)."""
    try:
        return _silent.context
    except AttributeError:
        with np.errstate(all="ignore"):
            context = _silent.context = contextvars.copy_context()
        return context


_lapack = threading.local()


def _refuse_lapack_result(error: str, flag: int):
    raise np.linalg.LinAlgError(f"LAPACK failed ({error})")


def lapack_context() -> contextvars.Context:
    """The context np.linalg's functions call their LAPACK gufuncs in, made once per thread: an
    invalid value (a singular matrix, no convergence) raises ``LinAlgError``, the other floating-point
    conditions pass silently (their ``np.errstate(call=..., invalid="call", ...)``)."""
    try:
        return _lapack.context
    except AttributeError:
        with np.errstate(call=_refuse_lapack_result, invalid="call", over="ignore", divide="ignore", under="ignore"):
            context = _lapack.context = contextvars.copy_context()
        return context


def silently(function, *args, **kwargs):
    """``function(*args, **kwargs)`` with NumPy's floating-point warnings off (a NumPy call)."""
    return silent_context().run(function, *args, **kwargs)


def index_int(value, func: str, arg: str = "axis") -> int:
    """``value`` as an int: a Python int, or an integer with ``__index__`` (np.int64 from a
    NumPy computation, as SciPy passes); a bool or a float is our TypeError naming ``arg``."""
    if type(value) is not bool:
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError(f"{func}: {arg} must be an int, got {type(value).__name__}")


def is_one_of(value, choices) -> bool:
    """``value in choices`` without ``==`` on foreign types: a NumPy array (ambiguous truth),
    ``1`` for ``True`` or ``np.bool_(True)`` for ``True`` are not one of them."""
    t = type(value)
    for c in choices:
        if value is c:
            return True
        tc = type(c)
        if (t is tc or (t in (int, float) and tc in (int, float))) and value == c:
            return True
    return False


def check_broadcast(name, shape1, shape2):
    """A ``ValueError`` in our words when two shapes do not broadcast (else return: the error was another)."""
    try:
        np.broadcast_shapes(shape1, shape2)
    except ValueError:
        raise ValueError(
            f"{name}: shapes {shape1} and {shape2} do not broadcast (each dimension must match or be 1); "
            "reshape or expand_dims one of the operands"
        ) from None


# -- memory: a shape that cannot fit is refused up front, in our words ------------------------
_SMALL_BYTES = 1 << 26  # below this, no shape is worth a look at the machine's limits


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not a POSIX system: only the address space bounds it
        return sys.maxsize


_PHYSICAL_MEMORY = _physical_memory()


def memory_ceiling() -> int:
    """The most bytes one array may take: the machine's memory, or the process's limit if lower."""
    ceiling = _PHYSICAL_MEMORY
    try:
        import resource  # here: only a shape of 64 MiB or more asks; at import it would cost 2 % of ours
    except ImportError:  # Windows
        return ceiling
    for limit in (resource.RLIMIT_AS, resource.RLIMIT_DATA):
        soft = resource.getrlimit(limit)[0]
        if soft != resource.RLIM_INFINITY and soft < ceiling:
            ceiling = soft
    return ceiling


# The length of a 1-d result whose plain case skips the general checks: its bytes stay below
# check_fits' threshold for every dtype, and its values within every integer dtype's range.
PLAIN_LENGTH = _SMALL_BYTES // 16  # (16 bytes: the widest dtype, complex128)


def check_fits(shape: tuple, itemsize: int, func: str, what: str = "the result", *, view: bool = False) -> None:
    """Raise a ``ValueError`` naming ``func`` if an array of ``shape`` cannot fit in memory.

    NumPy would raise its own ``ValueError`` ("array is too big") for a size
    beyond its index range, or a ``MemoryError`` after trying; neither names the
    function, and the attempt may take the machine's memory with it.  A ``view``
    (``broadcast_to``) takes no memory: only NumPy's index range bounds it.
    """
    n = nonzero = 1
    for dim in shape:
        n *= dim
        nonzero *= dim or 1
    if nonzero > sys.maxsize:  # NumPy refuses even an empty (2**40, 2**40, 0)
        raise ValueError(
            f"{func}: {what} of shape {tuple(shape)} spans {nonzero:.3g} elements, more than NumPy can index; "
            "use a smaller shape"
        )
    if view:
        return
    nbytes = n * itemsize
    if nbytes <= _SMALL_BYTES:
        return
    ceiling = memory_ceiling()
    if nbytes > ceiling or n > sys.maxsize:
        raise ValueError(
            f"{func}: {what} of shape {tuple(shape)} would take {_human_bytes(nbytes)}, more than "
            f"the {_human_bytes(ceiling)} this process can hold; use a smaller shape or dtype"
        )


def _human_bytes(n: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024:
            return f"{n:,} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1024
    return f"{n:,.1f} EiB" if n < 1e6 else f"{n:.3g} EiB"


def _dtype_in_version(dtype: DType, api_version: str) -> bool:
    if dtype.category == D.CATEGORY_COMPLEX:
        return api_version >= "2022.12"
    return True


def describe_value(x) -> str:
    """``x`` in a few words, for error messages."""
    if isinstance(x, np.ndarray):
        return f"a NumPy ndarray of dtype {x.dtype}"
    if isinstance(x, np.generic):
        return f"a NumPy scalar {x!r}"
    if type(x) in PY_SCALARS:
        return f"Python {type(x).__name__} {x!r}"
    if type(x) is Array:
        return f"an array of {x._runtime.label}"
    return f"{type(x).__name__} {x!r}" if len(repr(x)) < 60 else type(x).__name__
