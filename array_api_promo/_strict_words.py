"""array-api-strict's words: the texts of the refusals the stand-in shares with it, and how it prints arrays.

``python -m array_api_promo.standin`` puts a namespace of ours where consumers expect
array-api-strict, and consumers match array-api-strict's messages: ``pytest.raises(TypeError,
match="cannot be type promoted together")``, lists of message fragments that turn a failure into
an xfail (marray's ``"Only numeric dtypes are allowed in"``).  So where the stand-in refuses a
call that array-api-strict refuses too, its message is array-api-strict's text, then ours::

    TypeError: array_api_strict.int64 and array_api_strict.float32 cannot be type promoted together
    (array_api_promo: add: int64 and float32 do not promote: mixed kinds ... (policy 'array_api'))

The main namespace (and every namespace but the stand-in's) keeps our words alone.

How
---
A raise site of the runtime names the *kind* of its refusal and the facts it refused::

    raise self._refusal(ValueError(f"{func}: arrays are on different devices ..."), "devices", func, d1, d2)

``RuntimeBase._refusal`` returns the exception as it is; the stand-in's runtime
(``standin.StandinRuntime``) hands it to :func:`reworded`, which asks the kind's chooser in
``_KINDS`` for array-api-strict's words and puts them first.  A chooser answers ``None`` where
array-api-strict would accept the call (the policy is not the standard's, or ours is stricter):
our words then stand alone.  Refusals the policy decides (``PromotionError``: promotion, domains,
in-place casts) know no runtime: the runtime's call site that asked the policy names them
(``except PromotionError as exc: raise self._refusal(exc, "elementwise", name, x1, x2) from None``).
Only error paths come here: a success path never looks anything up.

The choosers replay array-api-strict's own checks in its order on the refused call's operands
(which check array-api-strict makes first decides its message: ``bool_array + 1.5`` is "Only
numeric dtypes are allowed in __add__" there, not the Python float's refusal), with
array-api-strict's categories (``_CATEGORY_OF``).  Which operator a refused elementwise operation
was called by (``x += y`` is ``__iadd__``'s words, ``add(x, y)`` the function's) is read from the
stack on the error path, as ``_devices.operation_name()`` names the operation of a device refusal: no
signature of a hot path carries it.

Two refusals have no raise site of the runtime: values a policy's kernels refuse (a negative
shift, an integer to a negative power: :func:`kernel_refusal`, for the stand-in's kernel wrapper),
and operands an operator declines (NotImplemented, then Python's own ``TypeError``): the stand-in's
``_declined`` asks the other operand's reflected operator (:func:`reflected_operator`, Python's next
step) and refuses in array-api-strict's words where that declines too.

``WORDS`` is the one home of array-api-strict's texts, as release ``MIRRORED_VERSION`` words
them, with the exception class it raises (``NUMPY_WORDS``: NumPy's, which it lets through); the
table writes each as array-api-strict raises it, ``TypeError("...")``.  Where array-api-strict
raises a class ours is not, the stand-in raises one that is both (:class:`StrictValueError`).
"""

from __future__ import annotations

import math
import os
import sys
import warnings
from types import FrameType

import numpy as np

from . import _dtypes as D
from ._array import OPERATORS, Array
from ._devices import CPU, Device, strict_device_name
from .promotion import OPS, PromotionError
from .promotion.array_api import ARRAY_API_LATTICE

__all__ = [
    "MIRRORED_VERSION",
    "NUMPY_DTYPE_COMPARISON",
    "NUMPY_WORDS",
    "WORDS",
    "StrictValueError",
    "array_repr",
    "dtype_equality",
    "kernel_refusal",
    "reflected_operator",
    "reworded",
]

MIRRORED_VERSION = "2.6.1"  # the array-api-strict release whose words (and extras: see standin) are mirrored


class StrictValueError(TypeError, ValueError):
    """A refusal that is our ``TypeError`` and array-api-strict's ``ValueError`` (a ``dtype=`` that is
    no dtype, ``meshgrid`` of two dtypes): the stand-in's, so that either ``except`` catches it."""

    __module__ = "array_api_promo"


class StrictPromotionValueError(PromotionError, StrictValueError):
    """The same for a policy's refusal (our ``PromotionError``): ``fft.fftfreq(n, dtype=int64)``."""

    __module__ = "array_api_promo"


# -- array-api-strict's texts ------------------------------------------------------------------------
# key -> the refusal as array-api-strict raises it (its class, its text); ``{}`` fields are filled by the
# kind's chooser, dtypes as ``array_api_strict.int64``, devices as ``array_api_strict.Device('device1')``,
# types as ``<class 'str'>``.  (NumPy's: a text array-api-strict passes on from NumPy, which consumers meet
# as its.)  ``WORDS``: the same as (class, text).
_RAISED = {
    # promotion (_dtypes._result_type, Array._promote_scalar, Array._check_allowed_dtypes)
    "promote": TypeError("{} and {} cannot be type promoted together"),
    "bool_scalar": TypeError("Python bool scalars can only be promoted with bool arrays"),
    "int_scalar_with_bool": TypeError("Python int scalars cannot be promoted with bool arrays"),
    "int_scalar_range": OverflowError("Python int scalars must be within the bounds of the dtype for integer arrays"),
    "float_scalar": TypeError("Python float scalars can only be promoted with floating-point arrays."),
    "complex_scalar": TypeError("Python complex scalars can only be promoted with floating-point arrays."),
    "inplace": TypeError("Cannot perform {} with dtypes {} and {}"),
    "setitem_dtypes": TypeError("mismatched dtypes: self.dtype = {} and other.dtype = {}"),
    # dtype categories
    "only_in": TypeError("Only {} dtypes are allowed in {}"),  # operators, most functions
    "only_in_unary": TypeError("Only {} dtypes are allowed in {}; got {}."),  # unary elementwise functions
    "only_in_binary": TypeError("Only {} dtypes are allowed in {}(...). Got {} and {}."),  # two arrays
    "only_with_scalar": TypeError("Only {} dtypes are allowed {}. Got {}."),  # an array and a Python scalar
    "matrix_power_dtype": TypeError("Only floating-point dtypes are allowed for the first argument of matrix_power"),
    "astype": TypeError(
        "The Array API standard stipulates that casting {} to {} should not be permitted. "
        "array-api-strict thus prohibits this conversion."
    ),
    "freq_dtype": ValueError("`dtype` must be a real floating-point type. Got dtype={}."),
    # operands
    "operand": TypeError("Expected Array or Python scalar; got {}"),
    "two_scalars": TypeError("Two scalars not allowed, got type(x1) = {} and type(x2) ={}"),
    "not_operands": TypeError("Argument(s) are neither Array nor Python scalars: type(x1)={} and type(x2)={}"),
    "not_array": TypeError("Only Array objects are allowed; got {}"),
    "condition_not_array": TypeError("`condition` must be an Array; got {}"),
    "condition_dtype": TypeError("`condition` must be have a boolean data type"),
    "clip_bound_type": TypeError("{} must be None, int, float, or Array; got {}"),
    "clip_integral": TypeError("{} must be integral when x is integral"),
    "clip_floating": TypeError("{} must be floating-point when x is floating-point"),
    "clip_crossed": ValueError("min must be less than or equal to max"),
    # devices
    "devices": ValueError("Arrays from two different devices ({} and {}) can not be combined."),
    "concat_devices": ValueError("concat inputs must all be on the same device"),
    "meshgrid_devices": ValueError("meshgrid inputs must all be on the same device"),
    "where_devices": ValueError("Inputs to `where` must all use the same device"),
    "index_devices": ValueError(
        "Array indexing is only allowed when array to be indexed and all indexing arrays are on the same device."
    ),
    "setitem_devices": ValueError("mismatched devices: self.device = {} != value.device ={}."),
    "device_dtype": ValueError("Device {} does not support dtype={}."),
    "device_arg": ValueError("Unsupported device {!r}"),
    "device_name": ValueError("The device '{}' is not a valid choice."),
    "to_device_stream": ValueError("The stream argument to to_device() is not supported"),
    "host_conversion": RuntimeError("Can't convert array on the '{}' device to a NumPy array."),
    # creation
    "dtype_arg": ValueError("dtype must be one of the supported dtypes, got {!r}"),
    "fill_value": TypeError("Expected Python scalar fill_value, got type {}"),
    "int_out_of_bounds": OverflowError("Integer out of bounds for array dtypes"),
    "no_such_dtype": TypeError("The array_api_strict namespace does not support the dtype '{}'"),
    "meshgrid_dtypes": ValueError("meshgrid inputs must all have the same dtype"),
    "min_2d": ValueError("x must be at least 2-dimensional for {}"),
    "direct_array": TypeError(
        "The array_api_strict Array object should not be instantiated directly. "
        "Use an array creation function, such as asarray(), instead."
    ),
    # data type functions
    "result_type_inputs": TypeError("result_type() inputs must be Array API arrays, dtypes, or scalars"),
    "result_type_scalars": TypeError("result_type() inputs must be Array API arrays or dtypes"),
    "no_dtype": ValueError("at least one array or dtype is required"),
    "can_cast_from": TypeError("from_={!r}, but should be an array_api array or dtype"),
    "can_cast_to": TypeError("to={!r}, but should be a dtype"),
    "isdtype_dtype": TypeError("'dtype' must be a dtype, not a {!r}"),
    "isdtype_kind": ValueError("Unrecognized data type kind: {!r}"),
    "isdtype_kind_type": TypeError("'kind' must be a dtype, str, or tuple of dtypes and strs, not {}"),
    "isdtype_nested": TypeError("'kind' must be a dtype, str, or tuple of dtypes and strs"),
    "info_type": TypeError("'type' must be a dtype or array, not {!r}"),
    "info_kind": ValueError("unsupported kind: {!r}"),
    # the array object
    "scalar_ndim": TypeError("{} is only allowed on arrays with 0 dimensions"),
    "scalar_complex": TypeError("{} is not allowed on complex floating-point arrays"),
    "index_scalar": TypeError("only integer scalar arrays can be converted to a scalar index"),  # NumPy's
    "len": TypeError("object of type 'Array' has no len()"),  # Python's: its Array has no __len__
    "nd_iteration": TypeError("array iteration is not allowed in array-api-strict"),
    "iter_0d": TypeError("iteration over a 0-d array"),  # NumPy's
    "transpose": ValueError(
        "x.T requires x to have 2 dimensions. Use x.mT to transpose stacks of matrices and permute_dims() "
        "to permute dimensions."
    ),
    # indexing
    "index_type": IndexError(
        "Single-axes index {} has type(i)={}, but only integers, slices (:), ellipsis (...), newaxis (None), "
        "zero-dimensional integer arrays and boolean arrays are specified in the Array API."
    ),
    "index_numpy": IndexError("Index arrays for array_api_strict must be array_api_strict arrays"),
    "implicit_axes": IndexError(
        "self.ndim={}, but the multi-axes index only specifies {} dimensions. If this was intentional, add a "
        "trailing ellipsis (...) which expands into as many slices (:) as necessary - this is what np.ndarray "
        "arrays implicitly do, but such flat indexing behaviour is not specified in the Array API."
    ),
    "slice_bounds": IndexError(
        "Slice {} contains {}={}, but should be {} for an axis of size {} (out-of-bounds {}s are not specified "
        "in the Array API)"
    ),
    "setitem_index_array": IndexError("Fancy indexing __setitem__ is not supported."),
    "index_array_mix": IndexError("Integer index arrays are only allowed with integer indices; got {}."),
    "boolean_indexing": RuntimeError("The boolean_indexing flag has been disabled for array-api-strict"),
    "take_dtype": TypeError("Only integer dtypes are allowed in indexing"),
    "take_axis": ValueError("axis must be specified when ndim > 1"),
    "take_indices_ndim": ValueError("Only 1-dim indices array is supported"),
    # manipulation, searching, statistics, linear algebra
    "nonzero_0d": ValueError("nonzero is not allowed on 0-dimensional arrays"),
    "cumulative_axis": ValueError("axis must be specified in {} for more than one dimension"),
    "cumulative_0d": ValueError("Only ndim >= 1 arrays are allowed in cumulative_prod"),
    "negative_axis": ValueError("axis must be negative in {}"),
    "outer_ndim": ValueError("The input arrays to outer must be 1-dimensional"),
    "cross_size": ValueError("cross() dimension must equal 3"),
    "cross_0d": ValueError("cross() requires arrays of dimension at least 1"),
    "vecdot_size": ValueError("x1 and x2 must have the same size along the given axis"),
    "index_mask_in_tuple": IndexError(
        "Single-axes index {} is a boolean array and len(key)={}, but masking is only specified in the Array API "
        "when the array is the sole index."
    ),
    "repeats_type": TypeError("repeats must be an int or array"),
    "roll_shift": ValueError("`shift` can only be an int or a tuple, got type(shift)={} instead."),
    "repeats_dtype": TypeError("The repeats array must have an integer dtype"),
    "reshape_size": ValueError("cannot reshape array of size {} into shape {}"),  # NumPy's
    "inplace_broadcast": ValueError(  # NumPy's
        "non-broadcastable output operand with shape {} doesn't match the broadcast shape {}"
    ),
    "reshape_shape": TypeError("`shape` must be a tuple of ints; got shape={!r} instead."),
    "tile_repetitions": TypeError("repetitions must be a tuple"),
    "arange_bool": TypeError(  # NumPy's
        "arange() is only supported for booleans when the result has at most length 2."
    ),
    # values (the raise sites: the default policy's value checks)
    "negative_shift": ValueError("bitwise_left_shift(x1, x2) is only defined for x2 >= 0"),  # (its words for both)
    "negative_power": ValueError("Integers to negative integer powers are not allowed."),  # NumPy's
    # flags (standin's own raise sites)
    "api_version": ValueError("Unsupported standard version {!r}"),
    "extension": ValueError("Unsupported extension {}"),
    "extension_version": ValueError("Extension {} requires standard version {} or later"),
    "later_version": RuntimeError(
        "The function {} requires API version {} or later, but the current API version for array-api-strict is {}"
    ),
    "data_dependent": RuntimeError(
        "The function {} requires data-dependent shapes, but the data_dependent_shapes flag has been disabled "
        "for array-api-strict"
    ),
    "repeat_data_dependent": RuntimeError(
        "repeat() with repeats as an array requires data-dependent shapes, but the data_dependent_shapes flag "
        "has been disabled for array-api-strict"
    ),
    "extension_disabled": AttributeError("The {!r} extension has been disabled for array_api_strict"),
    "extension_required": RuntimeError(
        "The function {} requires the {} extension, but it has been disabled for array-api-strict"
    ),
}
WORDS: dict[str, tuple[type, str]] = {key: (type(exc), exc.args[0]) for key, exc in _RAISED.items()}

# The texts that are NumPy's or Python's (array-api-strict lets their refusal through): not in its own source.
NUMPY_WORDS = frozenset(
    {"index_scalar", "reshape_size", "arange_bool", "inplace_broadcast", "negative_power", "iter_0d", "len"}
)

# -- array-api-strict's categories, by the function or operator that checks them -------------------------
_REAL = (D.CATEGORY_INTEGER, D.CATEGORY_FLOATING)
_CATEGORIES: dict[str, tuple[int, ...]] = {
    "all": (D.CATEGORY_BOOL, D.CATEGORY_INTEGER, D.CATEGORY_FLOATING, D.CATEGORY_COMPLEX),
    "real numeric": _REAL,
    "numeric": _REAL + (D.CATEGORY_COMPLEX,),
    "integer": (D.CATEGORY_INTEGER,),
    "integer or boolean": (D.CATEGORY_BOOL, D.CATEGORY_INTEGER),
    "boolean": (D.CATEGORY_BOOL,),
    "real floating-point": (D.CATEGORY_FLOATING,),
    "complex floating-point": (D.CATEGORY_COMPLEX,),
    "floating-point": (D.CATEGORY_FLOATING, D.CATEGORY_COMPLEX),
}


def _named_categories(**by_category: str) -> dict[str, str]:
    return {
        name: category.replace("_point", "-point").replace("_", " ")
        for category, names in by_category.items()
        for name in names.split()
    }


# Elementwise functions (_elementwise_functions._binary_funcs and the unary ones; an operator checks
# the category of the function behind it), and the other functions' own checks.
_CATEGORY_OF: dict[str, str] = _named_categories(
    numeric="add subtract multiply pow matmul abs conj negative positive real round square isfinite isinf isnan "
    "sign sum prod cumulative_sum cumulative_prod diff cross outer trace tensordot vecdot",
    real_numeric="floor_divide remainder greater greater_equal less less_equal maximum minimum ceil floor trunc "
    "max min argmax argmin sort argsort searchsorted clip",
    integer="bitwise_left_shift bitwise_right_shift",
    integer_or_boolean="bitwise_and bitwise_or bitwise_xor bitwise_invert",
    boolean="logical_and logical_or logical_xor logical_not",
    floating_point="divide acos acosh asin asinh atan atanh cos cosh exp expm1 log log10 log1p log2 reciprocal sin "
    "sinh sqrt tan tanh mean cholesky det eigh eigvalsh eigvals eig inv matrix_norm matrix_power pinv qr slogdet "
    "solve svd svdvals vector_norm fftshift ifftshift",
    real_floating_point="atan2 copysign hypot logaddexp nextafter signbit std var rfft rfftn ihfft",
    complex_floating_point="imag fft ifft fftn ifftn irfft irfftn hfft",
    all="equal not_equal where",
)
_UNARY_OPERATORS = {
    "__neg__": "numeric",
    "__pos__": "numeric",
    "__abs__": "numeric",
    "__invert__": "integer or boolean",
}
# array-api-strict's name for a function in its words (its shift functions check through private ones).
_NAMED_AS = {
    "vector_norm": "norm",
    "bitwise_left_shift": "_bitwise_left_shift",
    "bitwise_right_shift": "_bitwise_right_shift",
}
_STRICT_DTYPES = frozenset(d.name for d in D.STANDARD_DTYPES)


# -- how array-api-strict prints what it names --------------------------------------------------------
def _dtype(dtype) -> str:
    return f"array_api_strict.{dtype.name}"


def _device(device) -> str:
    return f"array_api_strict.Device({strict_device_name(device)!r})"


def _type(x) -> str:
    return "<class 'array_api_strict._array_object.Array'>" if type(x) is Array else str(type(x))


def array_repr(x) -> str:
    """``repr(x)`` (and ``str(x)``) of an array as array-api-strict 2.6.1's ``Array.__repr__`` prints it."""
    data = x._data if type(x._data) is np.ndarray else x._runtime._to_numpy(x)
    suffix = f", dtype={_dtype(x._dtype)}" + (f", device={_device(x._device)})" if x._device is not CPU else ")")
    if 0 in data.shape:
        return f"empty({data.shape}{suffix}"
    return "Array(" + np.array2string(data, separator=", ", prefix="Array(", suffix=suffix) + suffix


# -- dtypes compared with NumPy's -------------------------------------------------------------------------
# array-api-strict's warning where one of its dtypes is compared with a NumPy dtype or scalar type (its
# DType.__eq__): False either way, but said, and a failure under ``-W error::UserWarning``.
NUMPY_DTYPE_COMPARISON = (
    "You are comparing a array_api_strict dtype against a NumPy native dtype object, but you probably don't "
    "want to do this. array_api_strict dtype objects compare unequal to their NumPy equivalents. Such "
    "cross-library comparison is not supported by the standard."
)


def warn_of_numpy_dtype(other: object, stacklevel: int = 2) -> None:
    """array-api-strict's UserWarning where ``other``, compared with one of its dtypes, is a NumPy dtype
    or scalar type (``stacklevel`` counted from here, as ``warnings.warn`` counts it)."""
    if isinstance(other, np.dtype) or (isinstance(other, type) and issubclass(other, np.generic)):
        warnings.warn(NUMPY_DTYPE_COMPARISON, stacklevel=stacklevel)


def dtype_equality(dtype: D.DType, other: object) -> bool:
    """array-api-strict's ``==`` of a dtype (the stand-in's, ``_dtypes.show_as_array_api_strict``): the
    same dtype only, and its warning of a NumPy dtype."""
    warn_of_numpy_dtype(other, stacklevel=3)
    return dtype is other


# -- rewording ------------------------------------------------------------------------------------------
def reworded(exc: BaseException, kind: str, facts: tuple, runtime) -> BaseException:
    """``exc`` (a refusal of ``kind``, in our words) with array-api-strict's words first, where
    array-api-strict refuses the same call; else ``exc`` itself."""
    choice = _KINDS[kind](runtime, *facts)
    if choice is None:
        return exc
    key, *args = choice
    theirs_class, text = WORDS[key]
    ours = getattr(exc, "ours", exc)  # a refusal worded already (by a call inside this one): ours as they were
    new = _class_of(type(ours), theirs_class)(f"{text.format(*args)} (array_api_promo: {ours})")
    new.ours = ours
    return new


# Kernels a policy makes refuse values (``_special_values``: the ``negative_shift`` and ``negative_power``
# of ``Policy.undefined_refusals``), by the operation, and the kind of their refusal.
_KERNEL_KINDS = {
    "bitwise_left_shift": "negative_shift",
    "bitwise_right_shift": "negative_shift",
    "pow": "negative_power",
}


def kernel_refusal(name: str):
    """For the stand-in's kernels of ``name`` (``StandinRuntime._kernel_for``): ``refused(exc, operands)``,
    the ``ValueError`` a kernel raised in array-api-strict's words where it is a refusal of a negative
    second operand, or ``None`` where array-api-strict computes the call (a shift operator: NumPy's
    values); ``None`` for an operation whose kernels refuse no value."""
    kind = _KERNEL_KINDS.get(name)
    if kind is None:
        return None

    def refused(exc: BaseException, operands: tuple) -> BaseException | None:
        other = np.asarray(operands[-1])
        if other.dtype.kind not in "iu" or not (other < 0).any():
            return exc  # (shapes that do not broadcast: worded by the runtime)
        if kind == "negative_shift" and _operator_called() is not None:
            return None  # array-api-strict's << and >> let NumPy shift by a negative amount
        return reworded(exc, kind, (), None)

    return refused


def negative_shift_amount(x2) -> bool:
    """``np.any(x2._array < 0) if isinstance(x2, Array) else x2 < 0``: array-api-strict's first test in
    ``bitwise_left_shift`` and ``bitwise_right_shift``, whatever the dtypes (a float or complex ``x2``
    with a negative element is a ``ValueError`` there, else the dtype's ``TypeError``)."""
    try:
        return bool(np.any(np.asarray(x2._data) < 0)) if type(x2) is Array else bool(x2 < 0)
    except (TypeError, ValueError):  # (a complex scalar, a foreign sequence: array-api-strict fails on it)
        return False


def _class_of(ours: type, theirs: type) -> type:
    """The class of a reworded refusal: ours where it is array-api-strict's too, else one that is both."""
    if issubclass(ours, theirs):
        return ours
    if theirs is ValueError and issubclass(ours, TypeError):
        return StrictPromotionValueError if issubclass(ours, PromotionError) else StrictValueError
    return ours  # (no such pair among the kinds: the test of the words says so)


def _in(category: str, dtype) -> bool:
    return dtype.category in _CATEGORIES[category]


def _strict_dtypes(*dtypes) -> bool:
    """Whether array-api-strict has every one of ``dtypes`` (it has no float16: no words of its for one)."""
    return all(d.name in _STRICT_DTYPES for d in dtypes)


def _join(a, b):
    return ARRAY_API_LATTICE.join(a, b)  # array-api-strict's promotion table is the standard's lattice


def _scalar(value, dtype):
    """array-api-strict's ``Array._promote_scalar``: ``(refusal key,)`` or the dtype the scalar takes."""
    if isinstance(value, bool):
        return ("bool_scalar",) if dtype.category != D.CATEGORY_BOOL else dtype
    if isinstance(value, int):
        if dtype.category == D.CATEGORY_BOOL:
            return ("int_scalar_with_bool",)
        if dtype.category == D.CATEGORY_INTEGER:
            lo, hi = D.INT_BOUNDS[dtype]
            if not lo <= value <= hi:
                return ("int_scalar_range",)
        return dtype
    if isinstance(value, float):
        return ("float_scalar",) if dtype.category < D.CATEGORY_FLOATING else dtype
    if isinstance(value, complex):
        if dtype.category < D.CATEGORY_FLOATING:
            return ("complex_scalar",)
        return D.COMPLEX_OF.get(dtype, dtype)
    return None


# The code of each operator's Python function (the compiled fast path's: its __wrapped__), by which the
# stack shows that an operator was called.
_OPERATOR_CODES = {
    getattr(Array.__dict__[dunder], "__wrapped__", Array.__dict__[dunder]).__code__: dunder for dunder in OPERATORS
}
_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def _operator_called() -> str | None:
    """The operator (``__iadd__`` ...) the user's code called, where the outermost frame of this package
    on the stack is one: the form of an elementwise refusal's words."""
    frame: FrameType | None = sys._getframe(2)
    outermost = None
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith("<array_api_promo") or os.path.dirname(os.path.abspath(filename)) == _PACKAGE:
            outermost = frame.f_code
        elif outermost is not None:
            break
        frame = frame.f_back
    return _OPERATOR_CODES.get(outermost)


def _is_array(x) -> bool:
    return type(x) is Array


# -- the choosers: (key, *fields) of array-api-strict's words for a refused call, or None -------------------
def _elementwise(runtime, name, x1, x2=None):
    """An elementwise operation refused by the policy (its decision or its in-place rule): ``x1`` the array
    (``x2`` the other operand, an array or a Python scalar), or for a unary operation the array's dtype."""
    dunder = _operator_called()
    if dunder is not None and OPERATORS[dunder][0] != name:
        dunder = None  # an operation an operator made inside this package: the function's words
    if x2 is None:
        return _unary(name, x1, dunder)
    dtypes = [x._dtype for x in (x1, x2) if _is_array(x)]
    if not _strict_dtypes(*dtypes):
        return None
    category = _CATEGORY_OF.get(name)
    if category is None:
        return None
    if dunder is not None:
        return _operator(category, dunder, x1, x2)
    if name == "matmul":  # linalg's matmul checks only the category (NumPy promotes)
        return None if all(_in("numeric", d) for d in dtypes) else ("only_in", "numeric", "matmul")
    return _function(runtime, category, name, x1, x2)


def _unary(name, dtype, dunder):
    if not _strict_dtypes(dtype):
        return None
    if dunder is not None:
        category = _UNARY_OPERATORS.get(dunder)
        if category is None or _in(category, dtype):
            return None
        return ("only_in", category, dunder)
    category = _CATEGORY_OF.get(name)
    if category is None or _in(category, dtype):
        return None
    if name == "sign":
        return ("only_in", category, name)
    return ("only_in_unary", category, name, _dtype(dtype))


def _operator(category, dunder, x1, x2):
    """``Array._check_allowed_dtypes`` of the array ``x1`` (``self``) with ``x2`` for ``dunder``."""
    if not _in(category, x1._dtype) or (_is_array(x2) and not _in(category, x2._dtype)):
        return ("only_in", category, dunder)
    refusal, other, result = _promoted(x1, x2)
    if result is None:
        return refusal
    if dunder.startswith("__i") and result is not x1._dtype:
        return ("inplace", dunder, _dtype(x1._dtype), _dtype(other))
    return None


def _promoted(x, other):
    """array-api-strict's promotion of the array ``x`` with ``other``, an array or a Python scalar (by
    ``_promote_scalar``): ``(refusal, other's dtype, result)``, the result None where it refuses (the
    refusal's ``(key, *fields)``, or None: none of its words)."""
    if _is_array(other):
        dtype = other._dtype
    else:
        dtype = _scalar(other, x._dtype)
        if type(dtype) is not D.DType:
            return dtype, None, None
    result = _join(x._dtype, dtype)
    if result is None:
        return ("promote", _dtype(x._dtype), _dtype(dtype)), dtype, None
    return None, dtype, result


def _function(runtime, category, name, x1, x2):
    """``_helpers._maybe_normalize_py_scalars`` (from API version 2024.12) and ``_result_type``."""
    named = _NAMED_AS.get(name, name)
    if runtime.api_version >= "2024.12":
        if not _is_array(x2):
            if not _in(category, x1._dtype):
                return ("only_with_scalar", category, named, _dtype(x1._dtype))
            other = _scalar(x2, x1._dtype)
            return other if type(other) is not D.DType else None
        if not (_in(category, x1._dtype) and _in(category, x2._dtype)):
            return ("only_in_binary", category, named, _dtype(x1._dtype), _dtype(x2._dtype))
    elif not _is_array(x2):
        return None  # (array-api-strict fails on the scalar's missing attributes)
    if _join(x1._dtype, x2._dtype) is None:
        return ("promote", _dtype(x1._dtype), _dtype(x2._dtype))
    return None


def _clip(runtime, x, lo, hi):
    """``clip``'s own checks (it promotes nothing)."""
    arrays = [x] + [b for b in (lo, hi) if _is_array(b)]
    if not _strict_dtypes(*(a._dtype for a in arrays)):
        return None
    if not all(_in("real numeric", a._dtype) for a in arrays):
        return ("only_in", "real numeric", "clip")
    for bound, arg in ((lo, "min"), (hi, "max")):
        if bound is None:
            continue
        if not _is_array(bound) and type(bound) not in (int, float):  # (not a bool, nor NumPy's float64)
            return ("clip_bound_type", arg, _type(bound))
        if x._dtype.category == D.CATEGORY_INTEGER and (
            isinstance(bound, float) or (_is_array(bound) and bound._dtype.category == D.CATEGORY_FLOATING)
        ):
            return ("clip_integral", arg)
        if (
            x._dtype.category == D.CATEGORY_FLOATING
            and _is_array(bound)
            and bound._dtype.category == D.CATEGORY_INTEGER
        ):
            return ("clip_floating", array_repr(bound))
    return None


def _promotion(runtime, func, *operands):
    """A function that promotes its operands (``_promote``, ``result_type``, ``concat``/``stack``,
    ``__setitem__``), refused: the words of the function's own checks."""
    dtypes = [o._dtype if _is_array(o) else o for o in operands if _is_array(o) or type(o) is D.DType]
    if not _strict_dtypes(*dtypes):
        return None
    if func == "__setitem__":
        return _setitem(runtime, *operands)
    if func in ("isin", "where"):
        if not any(_is_array(o) for o in operands):
            return None
        return _function(runtime, "integer" if func == "isin" else "all", func, *_array_first(*operands))
    if func == "searchsorted":
        return _searchsorted(runtime, *operands)
    if func not in ("result_type", "concat", "stack"):
        # the others check their inputs' category, then let NumPy promote (vecdot, linalg.solve ...)
        short = func.rpartition(".")[2]
        category = _CATEGORY_OF.get(short) if short != "diff" else None  # (diff checks x alone)
        if category is not None and not all(_in(category, d) for d in dtypes):
            return ("only_in", category, _NAMED_AS.get(short, short))
        return None
    if not dtypes:
        return ("no_dtype",)
    result = dtypes[0]
    for d in dtypes[1:]:
        joined = _join(result, d)
        if joined is None:
            return ("promote", _dtype(result), _dtype(d))
        result = joined
    scalars = [o for o in operands if not (_is_array(o) or type(o) is D.DType)]
    if scalars and runtime.api_version <= "2023.12":
        return ("result_type_scalars",)
    for s in scalars:
        taken = _scalar(s, result)
        if type(taken) is not D.DType:
            return taken
        result = _join(taken, result)
    return None


def _searchsorted(runtime, x1, x2):
    """``searchsorted``: a Python scalar ``x2`` promoted with ``x1`` (from 2025.12), then both real numeric."""
    if not _is_array(x1):
        return ("only_in", "real numeric", "searchsorted") if hasattr(x1, "dtype") else None
    if _is_array(x2):
        other = x2._dtype
    elif isinstance(x2, (bool, int, float, complex)) and runtime.api_version >= "2025.12":
        other = _scalar(x2, x1._dtype)
        if type(other) is not D.DType:
            return other
    elif hasattr(x2, "dtype"):  # a NumPy scalar or array: its (NumPy) dtype is no real numeric one there
        return ("only_in", "real numeric", "searchsorted")
    else:
        return None  # (array-api-strict fails on its missing attributes)
    if not _strict_dtypes(x1._dtype, other):
        return None
    if _in("real numeric", x1._dtype) and _in("real numeric", other):
        return None
    return ("only_in", "real numeric", "searchsorted")


def _isin_operands(runtime, x1, x2):
    """``isin`` of something that is not an array or a Python int."""
    if not (_is_array(x1) or _is_array(x2)):
        return _operands(runtime, x1, x2)
    if all(_is_array(x) or type(x) in D.PY_SCALARS for x in (x1, x2)):
        return _promotion(runtime, "isin", x1, x2)
    return _operands(runtime, x1, x2)


def _array_first(x1, x2):
    return (x1, x2) if _is_array(x1) else (x2, x1)


def _setitem(runtime, x, value):
    """``Array.__setitem__``'s value: a scalar by ``_promote_scalar``, an array by ``_result_type``, and
    the promoted dtype must be ``x``'s."""
    refusal, other, result = _promoted(x, value)
    if result is None:
        return refusal
    if result is not x._dtype:
        return ("setitem_dtypes", _dtype(x._dtype), _dtype(other))
    return None


def _function_domain(runtime, op, dtype):
    """A function's input dtype refused by the policy (``function_dtype``): the function's category check."""
    if not _strict_dtypes(dtype):
        return None
    if op in ("fftfreq", "rfftfreq"):
        return None if _in("real floating-point", dtype) else ("freq_dtype", _dtype(dtype))
    category = _CATEGORY_OF.get(op)
    if op == "mean" and runtime.api_version <= "2023.12":
        category = "real floating-point"  # (its words say "floating-point" all the same)
        return None if _in(category, dtype) else ("only_in", "floating-point", "mean")
    if category is None or _in(category, dtype):
        return None
    if op == "matrix_power":
        return ("matrix_power_dtype",)
    return ("only_in", category, _NAMED_AS.get(op, op))


def _operands(runtime, x1, x2):
    """Operands of an elementwise operation that are neither arrays nor Python scalars (``x + "a"``,
    ``add(x, np.float32(1))``), or two Python scalars."""
    dunder = _operator_called()
    if dunder is not None:
        return _foreign_operand(dunder, *_array_first(x1, x2))
    if runtime.api_version < "2024.12":
        return None  # (array-api-strict fails on a scalar's missing attributes)
    if type(x1) in D.PY_SCALARS and type(x2) in D.PY_SCALARS:
        return ("two_scalars", _type(x1), _type(x2))
    return ("not_operands", _type(x1), _type(x2))


# The reflection of a comparison (Python asks ``y > x`` when ``x < y`` is NotImplemented).
_REFLECTED_COMPARISON = {"less": "__gt__", "less_equal": "__ge__", "greater": "__lt__", "greater_equal": "__le__"}


def reflected_operator(name: str, x1, x2):
    """What Python asks once the operator ``name`` of ours declines ``x1`` and ``x2`` (NotImplemented): the
    other operand's reflected operator, bound (``None``: there is none, or ours is the reflected one, the
    other's asked first); Python raises its ``TypeError`` where it answers NotImplemented too."""
    if not _is_array(x1):
        return None
    reflected = _REFLECTED_COMPARISON.get(name) or next(
        (d for d, (n, form) in OPERATORS.items() if n == name and form == "reflected"), None
    )
    if reflected is None:
        return None
    # (the class's own attribute, as Python looks it up: not its metaclass's, type's __ror__ for X | None)
    owner = next((k for k in type(x2).__mro__ if reflected in k.__dict__), object)
    return None if owner is object else getattr(x2, reflected)


# The operators of array-api-strict that check their array's category before the other operand's type
# (``Array._check_allowed_dtypes`` first: it answers NotImplemented for an operand of another type).
_CATEGORY_FIRST = {
    "__imatmul__",
    "__rmatmul__",
    "__rmod__",
    "__rmul__",
    "__rrshift__",
    "__rsub__",
    "__rtruediv__",
    "__rxor__",
}


def _foreign_operand(dunder, array, other):
    """The operator ``dunder`` of ``array`` given ``other``, neither an array nor a Python scalar."""
    if dunder in _CATEGORY_FIRST:
        category = _CATEGORY_OF[OPERATORS[dunder][0]]
        if not _in(category, array._dtype):
            return ("only_in", category, dunder)
        if isinstance(other, (bool, int, float, complex)):  # (np.float64 is a float there)
            return _operator(category, dunder, array, other)
        if dunder != "__imatmul__":
            return None  # NotImplemented there, then Python's TypeError: none of array-api-strict's words
        # (__imatmul__'s NotImplemented: Python asks __matmul__, which checks the type first)
    return ("operand", _type(other))


def _declined(runtime, name, x1, x2):
    """An operator's operand it declines (NotImplemented) and no reflected operator takes: array-api-strict's
    operator refuses it (its type, or a Python scalar ``x @ 1.5`` by the scalar's rules)."""
    array, other = _array_first(x1, x2)
    if type(other) in D.PY_SCALARS:
        return _elementwise(runtime, name, array, other)
    dunder = _operator_called()
    return None if dunder is None else _foreign_operand(dunder, array, other)


def _index_error(runtime, key):
    """An index NumPy refused: array-api-strict refuses a boolean array beside other entries first."""
    if type(key) is tuple and len(key) != 1:
        mask = next((k for k in key if _is_array(k) and k._dtype.category == D.CATEGORY_BOOL), None)
        if mask is not None:
            return ("index_mask_in_tuple", array_repr(mask), len(key))
    return None


def _strict_key(key) -> str:
    """An index key as array-api-strict's f-string prints it (its arrays as its ``Array.__repr__``)."""
    if type(key) is not tuple:
        return array_repr(key) if _is_array(key) else repr(key)
    entries = [array_repr(k) if _is_array(k) else repr(k) for k in key]
    return "(" + ", ".join(entries) + ("," if len(entries) == 1 else "") + ")"


def _slice_bounds(runtime, s, which, bound, side):
    """A slice bound outside ``-side..side`` (``Policy.undefined_refusals``: ``slice_bounds``)."""
    allowed = "0 (or None)" if side == 0 else f"between -{side} and {side - 1} (or None)"
    return ("slice_bounds", s, which, bound, allowed, side, which)


def _not_array(runtime, func, arg, x):
    """A function given something that is no array (for its argument ``arg``) where it takes only an array."""
    if func == "where":
        return ("condition_not_array", _type(x)) if arg == "condition" else None
    if func == "clip" or func in _UNARY_NAMES:
        return ("not_array", _type(x))
    if func in ("concat", "stack"):  # (array-api-strict's result_type of them, which takes a dtype)
        return None if type(x) is D.DType else ("result_type_inputs",)
    if func == "searchsorted" and arg == "x1":
        return _searchsorted(runtime, x, None)
    if func == "take" and arg == "indices" and hasattr(x, "dtype"):
        return ("take_dtype",)
    short = func.rpartition(".")[2]
    category = _CATEGORY_OF.get(short)
    if category is not None and hasattr(x, "dtype"):
        # a NumPy scalar or array: array-api-strict checks its dtype (NumPy's) against its category first
        return (
            ("matrix_power_dtype",) if short == "matrix_power" else ("only_in", category, _NAMED_AS.get(short, short))
        )
    return None  # array-api-strict fails on the value's missing attributes


def _devices(runtime, func, d1, d2):
    """Arrays on two devices combined."""
    if func == "broadcast_arrays":
        return None  # (array-api-strict checks no device there)
    if func in ("concat", "stack"):
        return ("concat_devices",)
    if func in ("meshgrid", "where"):
        return (f"{func}_devices",)
    if func == "__getitem__":
        return ("index_devices",)
    if func == "__setitem__":
        return ("setitem_devices", _device(d1), _device(d2))
    return ("devices", _device(d1), _device(d2))


def _dtype_argument(runtime, func, arg, value):
    """A ``dtype=`` (or another dtype argument) that is no dtype of the namespace."""
    if func in _CREATION:  # (array-api-strict checks it in its creation functions, by ``in`` its dtypes)
        warn_of_numpy_dtype(value)  # (that comparison's warning, first)
        return ("dtype_arg", value)
    if func == "can_cast":
        return ("can_cast_from" if arg == "from_" else "can_cast_to", value)
    if func in ("finfo", "iinfo"):
        return ("info_type", value)
    if func in ("fft.fftfreq", "fft.rfftfreq"):  # (its ``{dtype=}``: the value's repr)
        return ("freq_dtype", repr(value))
    return None


def _device_argument(runtime, func, device):
    """A ``device=`` that is no device."""
    checked = func in _CREATION or func in ("to_device", "astype", "fft.fftfreq", "fft.rfftfreq")
    return ("device_arg", device) if checked else None


def _negative_axis(runtime, func, axis):
    """``vecdot``'s ``axis`` that compares ``>= 0`` (an int, or a float our policy refuses as no int):
    array-api-strict (from 2023.12) refuses it before reading it as an index."""
    if runtime.api_version < "2023.12":
        return None
    try:
        nonnegative = bool(axis >= 0)
    except Exception:  # (array-api-strict fails on the comparison itself: not its words)
        return None
    return ("negative_axis", func) if nonnegative else None


def _as_given(key):
    """A kind with one text, its fields the facts (dtypes and devices as array-api-strict prints them;
    none of its words for a dtype it does not have)."""

    def choose(runtime, *facts):
        if not _strict_dtypes(*(f for f in facts if type(f) is D.DType)):
            return None
        return (key, *(_field(f) for f in facts))

    return choose


def _asarray_int(runtime, value, dtype):
    """``asarray`` of a Python int NumPy has no dtype for (``dtype``: the one given, or None)."""
    if dtype is None and type(value) is int and not -(2**63) <= value <= 2**64:
        return ("int_out_of_bounds",)
    return None


def _repeats_type(runtime, repeats):
    return None if isinstance(repeats, int) else ("repeats_type",)  # (a bool is an int there)


def _arange_bool(runtime, start, stop, step):
    """``arange`` of bools: NumPy's refusal beyond two values (two it makes)."""
    try:
        n = math.ceil((stop - start) / step)
    except (ArithmeticError, TypeError, ValueError):
        return None
    return ("arange_bool",) if n > 2 else None


def _negative_shift(runtime):
    """A negative shift: array-api-strict's shift functions refuse it, its operators let NumPy shift."""
    return None if _operator_called() is not None else ("negative_shift",)


def _roll_shift(runtime, shift):
    return None if isinstance(shift, (int, tuple)) else ("roll_shift", type(shift))


def _result_type_input(runtime, x):
    return ("result_type_scalars",) if type(x) in D.PY_SCALARS else ("result_type_inputs",)


def _isdtype_kind_type(runtime, kind):
    return ("isdtype_nested",) if isinstance(kind, tuple) else ("isdtype_kind_type", type(kind).__name__)


def _only_for(key, *funcs):
    """A kind whose words are array-api-strict's only for ``funcs`` (the first fact)."""
    return lambda runtime, func, *facts: (key, *facts) if func in funcs else None


def _numpy_shape_of(shape) -> str:
    """A shape as NumPy's broadcasting errors print it: ``(3,)``, ``(2, 3)``, ``()``."""
    return str(tuple(shape))


def _numpy_shape(shape) -> str:
    """A shape as NumPy's reshape error prints it: ``(2,3)``, ``(2,newaxis)``, ``(2,)``."""
    parts = ["newaxis" if s == -1 else str(s) for s in shape]
    return "(" + ",".join(parts) + ("," if len(parts) == 1 else "") + ")"


def _field(fact):
    """A fact as array-api-strict's f-string prints it: dtypes, devices and the array class as its."""
    if type(fact) is D.DType:
        return _dtype(fact)
    if type(fact) is Device:
        return _device(fact)
    if fact is Array:
        return "<class 'array_api_strict._array_object.Array'>"
    return fact


def _int_range(runtime, value, dtype):
    return ("int_scalar_range",) if dtype.category == D.CATEGORY_INTEGER and _strict_dtypes(dtype) else None


def _astype(runtime, from_, to):
    if not _strict_dtypes(from_, to):
        return None
    if from_.category == D.CATEGORY_COMPLEX and to.category != D.CATEGORY_COMPLEX:
        return ("astype", _dtype(from_), _dtype(to))
    return None


def _index(runtime, key):
    """An index entry of a type the standard does not know."""
    if isinstance(key, np.ndarray):
        return ("index_numpy",)
    return ("index_type", key, type(key))


def _no_such_dtype(runtime, obj):
    """``asarray`` of something NumPy makes no array of one of the standard's dtypes of (a str, an object)."""
    try:
        return ("no_such_dtype", np.asarray(obj).dtype)
    except Exception:  # noqa: BLE001 - NumPy cannot either: no words of array-api-strict's to give
        return None


def _scalar_conversion(runtime, name, x):
    """``float(x)``, ``int(x)``, ``bool(x)``, ``complex(x)``, ``x.__index__()`` refused."""
    conversion = name.strip("_")
    if conversion == "index":
        return ("index_scalar",)
    if x._data.ndim != 0:
        return ("scalar_ndim", conversion)
    if conversion in ("float", "int") and x._dtype.category == D.CATEGORY_COMPLEX:
        return ("scalar_complex", conversion)
    return None


# The standard's unary elementwise functions (array-api-strict's).
_UNARY_NAMES = frozenset(name for name, spec in OPS.items() if spec.arity == 1)
_CREATION = frozenset(
    [
        "asarray",
        "arange",
        "empty",
        "empty_like",
        "eye",
        "full",
        "full_like",
        "linspace",
        "ones",
        "ones_like",
        "zeros",
        "zeros_like",
        "from_dlpack",
    ]
)

# kind -> chooser(runtime, *facts) -> (WORDS key, *fields) or None.  A raise site names its kind and facts.
_KINDS = {
    "elementwise": _elementwise,  # (name, array, other operand) or (name, dtype) of a unary operation
    "clip": _clip,  # (x, min, max)
    "promotion": _promotion,  # (func, *operands)
    "function_domain": _function_domain,  # (op, dtype)
    "int_range": _int_range,  # (value, dtype)
    "operands": _operands,  # (x1, x2)
    "not_array": _not_array,  # (func, arg, x)
    "devices": _devices,  # (func, device, other device)
    "device_dtype": _as_given("device_dtype"),  # (device, dtype)
    "dtype_arg": _dtype_argument,  # (func, arg, the value given)
    "device_arg": _device_argument,  # (func, the value given)
    "astype": _astype,  # (from, to)
    "freq_dtype": _function_domain,  # (op, dtype)
    "index": _index,  # (the index entry)
    "no_such_dtype": _no_such_dtype,  # (obj)
    "scalar_conversion": _scalar_conversion,  # (dunder, x)
    "reshape_size": lambda runtime, size, shape: ("reshape_size", size, _numpy_shape(shape)),  # (size, shape)
    "asarray_int": _asarray_int,  # (value, the dtype given)
    "repeats_type": _repeats_type,  # (repeats)
    "roll_shift": _roll_shift,  # (shift)
    "searchsorted": _searchsorted,  # (x1, x2)
    "isin_operands": _isin_operands,  # (x1, x2)
    "declined": _declined,  # (name, x1, x2)
    "index_error": _index_error,  # (key)
    "slice_bounds": _slice_bounds,  # (slice, "start" or "stop", bound, axis size)
    "index_array_mix": lambda runtime, key: ("index_array_mix", _strict_key(key)),  # (key)
    "index_mask_in_tuple": lambda runtime, mask, n: ("index_mask_in_tuple", array_repr(mask), n),  # (mask, entries)
    "inplace_broadcast": lambda runtime, name, shape, result: (
        None if name == "matmul" else ("inplace_broadcast", _numpy_shape_of(shape), _numpy_shape_of(result))
    ),  # (name, x1's shape, the result's)
    "arange_bool": _arange_bool,  # (start, stop, step)
    "negative_shift": _negative_shift,  # ()
    "result_type_input": _result_type_input,  # (x)
    "isdtype_kind_type": _isdtype_kind_type,  # (kind)
    "cumulative_0d": _only_for("cumulative_0d", "cumulative_prod"),  # (func)
    "take_dtype": _only_for("take_dtype", "take"),  # (func)
    "index_devices": _only_for("index_devices", "__getitem__"),  # (func)
    "min_2d": _as_given("min_2d"),  # (func)
    "cumulative_axis": _as_given("cumulative_axis"),  # (func)
    "negative_axis": _negative_axis,  # (func, axis)
    "meshgrid_dtypes": _as_given("meshgrid_dtypes"),  # ()
}
# Every other text is a kind of its own: its fields are the raise site's facts (dtypes and devices printed
# as array-api-strict prints them).
for _key in WORDS:
    _KINDS.setdefault(_key, _as_given(_key))
del _key
