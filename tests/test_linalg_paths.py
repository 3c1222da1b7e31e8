"""The faster paths of the linear algebra and fft functions answer as the general path does.

- The policy's dtypes for a function of one matrix or of two arrays are remembered per
  (function, dtype[, dtype]) once the general path has allowed them: a warmed-up namespace gives
  what a fresh one gives (array, or error and message, and warnings), under every policy, on
  the special values.
- ``matmul`` tries the ``@`` kernel first and judges the shapes only when it fails: the errors
  stay the ones of the checks in their order (foreign arrays, then shapes, then devices, dtypes).
- ``vecdot`` is NumPy's ``vecdot`` ufunc: bit for bit the former product of ``conj(x1)`` moved
  to a row with ``x2`` moved to a column, re-computed here.
- ``vector_norm`` of real input with ``ord=2`` squares without ``abs`` (``x*x`` is ``|x|*|x|``).
- ``fftfreq``/``rfftfreq`` make NumPy's integers in float64 in place: NumPy's values, cast.
- The kernels run in a context with NumPy's floating-point warnings off, as ``np.errstate`` did.

Every test here runs on the compiled and the pure-Python paths alike (CI runs the suite both ways).
"""

from __future__ import annotations

import contextlib
import math
import warnings

import numpy as np
import pytest
from fast_path_helpers import fresh_namespace, outcome  # tests/ is on sys.path (rootdir-relative import mode)
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import array_api_promo as xp
import array_api_promo.torch as tx
from array_api_promo import DEVICE1, promotion

POLICIES = promotion.available_policies()
NAMESPACES = pytest.mark.parametrize("ns", [xp, tx], ids=["array_api", "torch"])


def _describe(out):
    if isinstance(out, tuple):
        return tuple(_describe(o) for o in out)
    data = np.asarray(out._data)
    return ("array", out.dtype, out.device, data.dtype, data.shape, data.tobytes())


def _special(dtype) -> np.ndarray:
    name = dtype.name
    if name == "bool":
        values = [True, False, True]
    elif name.startswith(("int", "uint")):
        info = np.iinfo(dtype.numpy)
        values = [int(info.min), int(info.max), 0, 1, 2]
    elif name.startswith("complex"):
        values = [complex(math.nan, 1.0), complex(0.0, -0.0), 1.5 - 2j, complex(math.inf, 0.0), 2 + 1j]
    else:
        values = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.5, -2.5, 5e-324, 1e300]
    with np.errstate(all="ignore"):
        return np.array(values, dtype=dtype.numpy)


def _matrices(ns, dtype, shape=(2, 3, 3)):
    return ns.asarray(np.resize(_special(dtype), shape))


def _plain(ns, dtype, shape=(2, 3, 3)):
    """Ordinary values of ``dtype`` (an SPD-like diagonal): the warm-up of a signature."""
    data = np.broadcast_to(np.eye(shape[-1]) * 2 + 1, shape).astype(dtype.numpy)
    return ns.asarray(data)


def _dtypes(ns):
    return list(ns.__array_namespace_info__().dtypes().values())


_ONE_MATRIX = {
    "det": lambda ns, x: ns.linalg.det(x),
    "inv": lambda ns, x: ns.linalg.inv(x),
    "cholesky": lambda ns, x: ns.linalg.cholesky(x),
    "slogdet": lambda ns, x: ns.linalg.slogdet(x),
    "eigvalsh": lambda ns, x: ns.linalg.eigvalsh(x),
    "svdvals": lambda ns, x: ns.linalg.svdvals(x),
    "eigh": lambda ns, x: ns.linalg.eigh(x),
    "eig": lambda ns, x: ns.linalg.eig(x),
    "eigvals": lambda ns, x: ns.linalg.eigvals(x),
    "svd": lambda ns, x: ns.linalg.svd(x),
    "svd reduced": lambda ns, x: ns.linalg.svd(x, full_matrices=False),
    "qr": lambda ns, x: ns.linalg.qr(x),
    "qr complete": lambda ns, x: ns.linalg.qr(x, mode="complete"),
    "pinv": lambda ns, x: ns.linalg.pinv(x),
    "pinv rtol": lambda ns, x: ns.linalg.pinv(x, rtol=0.5),
    "matrix_norm": lambda ns, x: ns.linalg.matrix_norm(x),
    "matrix_power": lambda ns, x: ns.linalg.matrix_power(x, 2),
    "trace": lambda ns, x: ns.linalg.trace(x),
    "trace offset": lambda ns, x: ns.linalg.trace(x, offset=1),
    "vector_norm": lambda ns, x: ns.linalg.vector_norm(x),
    "vector_norm axis": lambda ns, x: ns.linalg.vector_norm(x, axis=-1, keepdims=True),
    "vector_norm 1": lambda ns, x: ns.linalg.vector_norm(x, ord=1),
    "vector_norm inf": lambda ns, x: ns.linalg.vector_norm(x, ord=math.inf),
    "vector_norm 3": lambda ns, x: ns.linalg.vector_norm(x, axis=(0, 2), ord=3),
}

_TWO_ARRAYS = {
    "vecdot": lambda ns, a, b: ns.vecdot(a, b),
    "linalg.vecdot": lambda ns, a, b: ns.linalg.vecdot(a, b),
    "linalg.vecdot axis": lambda ns, a, b: ns.linalg.vecdot(a, b, axis=-2),
    "tensordot": lambda ns, a, b: ns.tensordot(a, b, axes=1),
    "tensordot pairs": lambda ns, a, b: ns.linalg.tensordot(a, b, axes=((1, 2), (2, 1))),
    "outer": lambda ns, a, b: ns.linalg.outer(a[0, 0], b[0, 1]),
    "cross": lambda ns, a, b: ns.linalg.cross(a, b),
    "solve": lambda ns, a, b: ns.linalg.solve(a, b),
    "solve vector": lambda ns, a, b: ns.linalg.solve(a, b[0, 0]),
    "matmul": lambda ns, a, b: ns.matmul(a, b),
}


def _general_then_fast(policy, call, warm):
    """(general outcome, fast outcome): a fresh namespace's first call, and one warmed up by ``warm``."""
    general = outcome(lambda: call(fresh_namespace(policy)), _describe)
    ns = fresh_namespace(policy)
    with contextlib.suppress(Exception):  # a signature refused: nothing to remember
        warm(ns)
    return general, outcome(lambda: call(ns), _describe)


@pytest.mark.parametrize("policy", POLICIES)
def test_functions_of_one_matrix_answer_as_the_general_path(policy):
    for dtype in _dtypes(fresh_namespace(policy)):
        for name, function in _ONE_MATRIX.items():

            def call(ns, dtype=dtype, function=function):
                return function(ns, _matrices(ns, dtype))

            def warm(ns, dtype=dtype, function=function):
                return function(ns, _plain(ns, dtype))

            general, fast = _general_then_fast(policy, call, warm)
            assert fast == general, (policy, dtype, name)


@pytest.mark.parametrize("policy", POLICIES)
def test_functions_of_one_matrix_of_ordinary_values_answer_as_the_general_path(policy):
    """The plain cases where LAPACK succeeds: a symmetric matrix and a general one, a stack and one matrix."""
    rng = np.random.default_rng(51)
    general_matrix = rng.standard_normal((2, 3, 3))
    for dtype in _dtypes(fresh_namespace(policy)):
        for data in (np.eye(3) * 2 + 1, general_matrix, general_matrix[0] + general_matrix[0].T):
            with np.errstate(all="ignore"):
                data = data.astype(dtype.numpy)
            for name, function in _ONE_MATRIX.items():

                def call(ns, data=data, function=function):
                    return function(ns, ns.asarray(data))

                general, fast = _general_then_fast(policy, call, call)
                assert fast == general, (policy, dtype, data.shape, name)


@pytest.mark.parametrize("policy", POLICIES)
def test_functions_of_two_arrays_answer_as_the_general_path(policy):
    dtypes = _dtypes(fresh_namespace(policy))
    for d1 in dtypes:
        for d2 in {d1, dtypes[-1], dtypes[1]}:
            for name, function in _TWO_ARRAYS.items():

                def call(ns, d1=d1, d2=d2, function=function):
                    return function(ns, _matrices(ns, d1), _matrices(ns, d2)[..., ::-1, :])

                def warm(ns, d1=d1, d2=d2, function=function):
                    return function(ns, _plain(ns, d1), _plain(ns, d2))

                general, fast = _general_then_fast(policy, call, warm)
                assert fast == general, (policy, d1, d2, name)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("errstate", ["raise", "warn"])
def test_vecdot_overflows_silently_on_both_paths(policy, errstate):
    """vecdot's remembered plan (compiled: NumPy's vecdot entered into the quiet context in C) against
    the general path, on products and sums that overflow or meet inf - inf, whatever the caller's error
    state; and on tame ones, which the compiled plan runs by NumPy's vecdot loop."""
    for values in ([1e200, 1e200], [np.inf, -np.inf], [1e-200, 1e-200], [3e38, 3e38], [1.5, -2.25]):
        for dtype in ("float64", "float32", "complex128"):
            data = np.array([values, values[::-1]], dtype=dtype)

            def call(ns, data=data):
                with np.errstate(all=errstate):
                    return ns.linalg.vecdot(ns.asarray(data), ns.asarray(data))

            general, fast = _general_then_fast(policy, call, call)
            assert fast == general, (policy, values, dtype)


def test_remembered_dtypes_still_check_devices_dimensions_and_namespaces():
    ns = fresh_namespace("array_api")
    a = ns.asarray(np.eye(3))
    ns.vecdot(a, a), ns.linalg.det(a), ns.linalg.trace(a)  # remembered
    with pytest.raises(ValueError, match="different devices"):
        ns.vecdot(a, a.to_device(DEVICE1))
    with pytest.raises(ValueError, match="at least one dimension"):
        ns.vecdot(a, ns.asarray(1.0))
    with pytest.raises(TypeError, match="cannot mix arrays"):
        ns.vecdot(a, tx.asarray(np.eye(3)))
    for vecdot in (ns.vecdot, ns.linalg.vecdot):  # (linalg.vecdot: vecdot's compiled path, then its own)
        with pytest.raises(ValueError, match="different devices"):
            vecdot(a, a.to_device(DEVICE1))
        with pytest.raises(ValueError, match="^vecdot: operands must have at least one dimension"):
            vecdot(a, ns.asarray(1.0))
        with pytest.raises(ValueError, match="^vecdot: the vectors have different sizes"):
            vecdot(a, ns.asarray(np.ones((3, 2))))
    with pytest.raises(TypeError, match="cannot mix arrays"):
        ns.linalg.det(tx.asarray(np.eye(3)))
    with pytest.raises(ValueError, match="square"):
        ns.linalg.det(ns.asarray(np.ones((2, 3))))
    with pytest.raises(TypeError, match="dtype=float32 would discard"):
        ns.linalg.trace(ns.asarray(np.eye(3) + 0j), dtype=ns.float32)
    assert ns.linalg.trace(a, dtype=ns.float32).dtype == ns.float32


# -- matmul --------------------------------------------------------------------------------------------
@NAMESPACES
def test_matmul_errors_keep_the_order_of_the_checks(ns):
    a = ns.asarray(np.ones((2, 3)))
    b = ns.asarray(np.ones((4, 2)))
    flags = ns.asarray(np.ones((4, 2), dtype=bool))
    with pytest.raises(ValueError, match=r"matmul: inner dimensions differ: shapes \(2, 3\) and \(4, 2\) \(3 != 4\)"):
        ns.matmul(a, b.to_device(DEVICE1))  # the shapes before the devices
    if ns is xp:  # an operand matmul never takes (bool under the standard) before the shapes, as array-api-strict
        with pytest.raises(TypeError, match="matmul: bool array and bool array is not allowed"):
            ns.matmul(a, flags)
    else:
        with pytest.raises(ValueError, match="inner dimensions differ"):
            ns.matmul(a, flags)  # the shapes before the dtypes (torch multiplies bool matrices)
    with pytest.raises(ValueError, match="operands must have at least one dimension"):
        ns.matmul(a, ns.asarray(1.0))
    with pytest.raises(ValueError, match="stack dimensions"):
        ns.matmul(ns.asarray(np.ones((2, 2, 2))), ns.asarray(np.ones((3, 2, 2))))
    other = xp.torch if ns is xp else xp
    with pytest.raises(TypeError, match="matmul: x2 must be an array|cannot mix arrays"):
        ns.matmul(a, other.asarray(np.ones((4, 2))))  # a foreign array before the shapes
    with pytest.raises(TypeError, match="matmul: x2 must be an array"):
        ns.matmul(a, np.ones((3, 2)))
    with pytest.raises(ValueError, match="different devices"):
        ns.matmul(a, a.mT.to_device(DEVICE1))


@pytest.mark.parametrize("policy", POLICIES)
def test_matmul_of_valid_shapes_answers_as_the_kernel_of_the_operator(policy):
    ns = fresh_namespace(policy)
    dtypes = _dtypes(ns)
    for d1 in dtypes:
        for d2 in {d1, dtypes[-1], dtypes[1]}:
            for s1, s2 in [((3, 3), (3, 3)), ((3,), (3, 2)), ((2, 3), (3,)), ((3,), (3,)), ((2, 1, 1, 3), (4, 3, 2))]:
                with np.errstate(all="ignore"):  # a policy without float64 (MLX) casts the values
                    a = ns.asarray(np.resize(_special(d1), s1))
                    b = ns.asarray(np.resize(_special(d2), s2))
                function = outcome(lambda a=a, b=b: ns.matmul(a, b), _describe)
                kernel = outcome(lambda a=a, b=b: ns._runtime._apply2("matmul", a, b, False), _describe)
                assert function == kernel, (policy, d1, d2, s1, s2)


# -- vecdot ---------------------------------------------------------------------------------------------
def _former_vecdot(d1, d2, axis):
    """The general formula the ufunc replaced: conj(x1) moved to a row, x2 to a column, matmul."""
    with np.errstate(all="ignore"):
        if d1.dtype.kind == "c":
            d1 = np.conjugate(d1)
        a = np.moveaxis(d1, axis, -1)[..., None, :]
        b = np.moveaxis(d2, axis, -1)[..., :, None]
        return np.matmul(a, b)[..., 0, 0]


_VECDOT_DTYPES = ["float32", "float64", "complex64", "complex128", "int8", "int64", "uint8", "uint64"]


@NAMESPACES
@settings(max_examples=60, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(_VECDOT_DTYPES), axis=st.sampled_from([-1, -2]))
def test_vecdot_is_the_former_product_bit_for_bit(ns, data, dtype, axis):
    if dtype not in {d.name for d in _dtypes(ns)}:
        return
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=2, max_dims=3, max_side=5))
    s1, s2 = shapes.input_shapes
    k = data.draw(st.integers(0, 6))
    s1 = s1[:axis] + (k,) + (s1[axis + 1 :] if axis == -2 else ())
    s2 = s2[:axis] + (k,) + (s2[axis + 1 :] if axis == -2 else ())
    elements = hnp.from_dtype(np.dtype(dtype), allow_nan=True, allow_infinity=True)
    a = data.draw(hnp.arrays(dtype, s1, elements=elements))
    b = data.draw(hnp.arrays(dtype, s2, elements=elements))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            out = ns.vecdot(ns.asarray(a), ns.asarray(b), axis=axis)
        except TypeError:  # refused by the policy (torch: integer vecdot)
            return
    expected = np.asarray(_former_vecdot(a, b, axis))
    assert out._data.dtype == expected.dtype and out._data.shape == expected.shape
    assert out._data.tobytes() == expected.tobytes() or _same_nans(out._data, expected)


def _same_nans(a, b):
    """Equal, NaN where NaN (a NaN's sign and payload may differ between kernels)."""
    if a.dtype.kind != "c":
        return bool(np.array_equal(a, b, equal_nan=True)) and _same_signs(a, b)
    return _same_nans(a.real, b.real) and _same_nans(a.imag, b.imag)


def _same_signs(a, b):
    numbers = ~np.isnan(a)
    return bool(np.array_equal(np.signbit(a[numbers]), np.signbit(b[numbers])))


@NAMESPACES
def test_vecdot_of_the_special_values_is_the_former_product(ns):
    for dtype in _dtypes(ns):
        if dtype.name == "bool" or dtype.name not in _VECDOT_DTYPES:
            continue
        values = _special(dtype)
        a = np.array(np.meshgrid(values, values)).reshape(2, -1).T.copy()  # every pair of values
        for b in (a, a[::-1].copy()):
            try:
                out = ns.vecdot(ns.asarray(a), ns.asarray(b))
            except TypeError:  # refused by the policy (torch: integer vecdot)
                break
            assert _same_nans(out._data, _former_vecdot(a, b, -1)), dtype


class _Int(int):
    """An int the plain cases do not take (``type(axis) is int``): the general path's."""


_VECDOT_SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((3,), (2, 3)), ((2, 3), (4, 3)), ((2, 3), (2, 4)), ((1, 3), (2, 3))]
_VECDOT_SHAPES += [((3,), ()), ((), ()), ((0, 3), (0, 3)), ((2, 0), (2, 0)), ((2, 1, 3), (4, 3)), ((2, 3), (3, 2))]


@pytest.mark.parametrize("policy", POLICIES)
def test_vecdot_of_two_arrays_of_one_dtype_answers_as_the_general_path(policy):
    """Once the general path has decided for a dtype, vecdot of two arrays of it (the compiled path's plan:
    NumPy's vecdot in the quiet context) gives what the same call with an axis the plain cases do not take
    gives, for every shape, the refused ones (a 0-d operand, sizes that differ, shapes that do not
    broadcast) included, and on special values; linalg.vecdot too."""
    ns = fresh_namespace(policy)
    for dtype in _dtypes(ns):
        with contextlib.suppress(Exception):  # a dtype the policy refuses: nothing remembered
            ns.vecdot(_plain(ns, dtype), _plain(ns, dtype))
        values = _special(dtype)
        for s1, s2 in _VECDOT_SHAPES:
            a, b = ns.asarray(np.resize(values, s1)), ns.asarray(np.resize(values[::-1], s2))
            general = outcome(lambda a=a, b=b: ns.vecdot(a, b, axis=_Int(-1)), _describe)
            for func in (ns.vecdot, ns.linalg.vecdot):
                assert outcome(lambda a=a, b=b, f=func: f(a, b), _describe) == general, (policy, dtype, s1, s2)
        a = ns.asarray(np.resize(values, (2, 3)))
        for b in (a.to_device(DEVICE1), tx.asarray(np.resize(values, (2, 3)))):
            assert outcome(lambda b=b: ns.vecdot(a, b), _describe) == outcome(
                lambda b=b: ns.vecdot(a, b, axis=_Int(-1)), _describe
            )


# -- det and slogdet ------------------------------------------------------------------------------------
def _determinant_inputs(dtype):
    """Stacks of square matrices of ``dtype``: random, singular, of special values, 1x1, empty, views."""
    rng = np.random.default_rng(51)
    values = _special(getattr(xp, dtype.name))
    with np.errstate(all="ignore"):
        random = (rng.standard_normal((4, 3, 3)) * 10).astype(dtype)
        if dtype.kind == "c":
            random = random + 1j * rng.standard_normal((4, 3, 3)).astype(dtype)
        return [
            random,
            random[0],
            random[:, ::-1].swapaxes(-1, -2),
            np.zeros((3, 3), dtype),
            np.ones((2, 2), dtype),
            np.resize(values, (3, 3)),
            np.resize(values, (2, 2, 2)),
            np.full((2, 2), 1e300, dtype),
            np.eye(4, dtype=dtype) * 1e-200,
            np.zeros((1, 1), dtype),
            np.zeros((0, 2, 2), dtype),
            np.zeros((0, 0), dtype),
        ]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_det_and_slogdet_are_numpys_bit_for_bit(dtype):
    """NumPy's own ufunc call (np.linalg.det's and slogdet's steps, without their Python layer) gives their
    results, type and bytes, with or without the namespace's plain case."""
    from array_api_promo import _linalg_decompositions as L

    def same(mine, numpys):
        assert type(mine) is type(numpys) and np.asarray(mine).dtype == np.asarray(numpys).dtype
        assert np.asarray(mine).shape == np.asarray(numpys).shape
        assert np.asarray(mine).tobytes() == np.asarray(numpys).tobytes()

    for a in _determinant_inputs(np.dtype(dtype)):
        with np.errstate(all="ignore"):
            same(L._det_of(a), np.linalg.det(a))
            for mine, numpys in zip(L._slogdet_of(a), np.linalg.slogdet(a)):
                same(mine, numpys)
        for ns in (xp, tx):
            x = ns.asarray(a)
            for _ in range(2):  # the general path, then the plain case
                with np.errstate(all="ignore"):
                    same(ns.linalg.det(x)._data, np.asarray(np.linalg.det(a)))
                    for mine, numpys in zip(ns.linalg.slogdet(x), np.linalg.slogdet(a)):
                        same(mine._data, np.asarray(numpys))


_NUMPYS_ONE_MATRIX_FUNCTIONS = {
    "_inv_of": np.linalg.inv,
    "_cholesky_of": np.linalg.cholesky,
    "_eigvalsh_of": np.linalg.eigvalsh,
    "_eigh_of": np.linalg.eigh,
    "_eig_of": np.linalg.eig,
    "_eigvals_of": np.linalg.eigvals,
    "_svd_of": np.linalg.svd,
    "_svdvals_of": lambda a: np.linalg.svd(a, compute_uv=False),
    "_qr_of": np.linalg.qr,
}


def _one_matrix_inputs(dtype):
    """The determinant's inputs, and matrices each decomposition succeeds on: positive definite, symmetric,
    triangular (real eigenvalues of real input), rotations (complex ones), a stack of both."""
    rng = np.random.default_rng(52)
    general = rng.standard_normal((3, 4, 4))
    with np.errstate(all="ignore"):
        extra = [
            (general @ general.swapaxes(-1, -2) + 4 * np.eye(4)).astype(dtype),
            (general + general.swapaxes(-1, -2)).astype(dtype),
            np.triu(general).astype(dtype),
            np.array([[0.0, -1.0], [1.0, 0.0]], dtype),
            np.stack([np.diag([1.0, 2.0]), np.array([[0.0, -1.0], [1.0, 0.0]])]).astype(dtype),
        ]
    return _determinant_inputs(dtype) + extra


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("kernel", sorted(_NUMPYS_ONE_MATRIX_FUNCTIONS))
def test_the_plain_cases_lapack_kernels_are_numpys_functions_bit_for_bit(kernel, dtype):
    """The plain cases call np.linalg's LAPACK gufuncs as its functions do (signature, casts, eig's real
    results, the finite check), in ``lapack_context`` (its errstate): the same arrays, type and bytes, or
    LinAlgError where NumPy raises it, for every input."""
    from array_api_promo import _linalg_decompositions as L
    from array_api_promo._runtime import lapack_context

    mine_of, numpys_of = getattr(L, kernel), _NUMPYS_ONE_MATRIX_FUNCTIONS[kernel]

    def arrays(call):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = call()
            except np.linalg.LinAlgError:
                return "LinAlgError", []
        out = out if isinstance(out, tuple) else (out,)
        return [(type(o), o.dtype, o.shape, o.tobytes()) for o in out], [str(w.message) for w in caught]

    answered = 0
    for a in _one_matrix_inputs(np.dtype(dtype)):
        if a.shape[-1] != a.shape[-2]:
            continue
        mine, mine_warned = arrays(lambda a=a: lapack_context().run(mine_of, a))
        numpys, _ = arrays(lambda a=a: numpys_of(a))
        assert mine == numpys, (kernel, dtype, a.shape)
        assert mine_warned == [], (kernel, dtype, a.shape)
        answered += mine != "LinAlgError"
    assert answered >= 5  # (not only refusals)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "float32", "float64", "complex64"])
def test_the_contraction_over_an_int_of_axes_is_numpys_tensordot_bit_for_bit(dtype):
    """tensordot's kernel for an int ``axes`` (NumPy's reshapes and dot, without its axis handling) gives
    np.tensordot's array: dtype, shape, bytes; on strided views and empty axes too."""
    from array_api_promo._linear_algebra_functions import _contracted

    rng = np.random.default_rng(53)
    with np.errstate(all="ignore"):
        big = (rng.standard_normal((4, 3, 2, 3)) * 1e155).astype(dtype)
        pairs = [
            (big[0, 0, 0], big[1, 1, 1]),
            (big[0], big[1].transpose(1, 0, 2)[::-1]),
            (big, big.transpose(2, 1, 3, 0)),
            (big[:, :0], big[0, :0]),
            (np.asarray(big[0, 0, 0, 0]), big[0, 0]),
        ]
    for a, b in pairs:
        for k in range(min(a.ndim, b.ndim) + 1):
            if a.shape[a.ndim - k :] != b.shape[:k]:
                continue
            with np.errstate(all="ignore"):
                mine, numpys = _contracted(a, b, k), np.tensordot(a, b, axes=k)
            assert (mine.dtype, mine.shape, mine.tobytes()) == (numpys.dtype, numpys.shape, numpys.tobytes())


@pytest.mark.parametrize("op", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "rfftn", "irfftn"])
def test_the_plain_transforms_are_numpys_bit_for_bit(op):
    """The plain cases' kernels (numpy.fft's own pocketfft calls with its defaults, without its Python layers)
    give numpy.fft's arrays: dtype, shape and bytes, on 1-d to 3-d, odd and even, strided and special values;
    other dtypes go to NumPy's function."""
    from array_api_promo._fft import _PLAIN_KERNELS

    rng = np.random.default_rng(54)
    base = rng.standard_normal((3, 4, 6)) + 1j * rng.standard_normal((3, 4, 6))
    base[0, 0, :3] = [math.nan, math.inf, -0.0]
    shapes = [base[0, 0], base[0, 0, :5], base[0], base, base[:, ::-1, 1::2], base[1, :, :2], base[0, :1, :]]
    answered = 0
    for dtype in ("float32", "float64", "complex64", "complex128", "float16", "int64"):
        for data in shapes:
            with np.errstate(all="ignore"):
                a = (data if dtype.startswith("complex") else data.real).astype(dtype)
            if op in ("irfft", "hfft", "irfftn") and a.shape[-1] < 2:
                continue
            mine, numpys = _transformed(_PLAIN_KERNELS[op], a), _transformed(getattr(np.fft, op), a)
            assert mine == numpys, (op, dtype, a.shape)
            answered += mine[0] != "error"
    assert answered >= 24


def test_rfftn_takes_the_other_axes_in_numpys_order():
    """np.fft.rfftn's order over the axes before the last changed after NumPy 2.0: the order asked of
    NumPy at import gives its bytes on 3-d and 4-d inputs, and the other order does not (so the
    question tells them apart)."""
    from array_api_promo._fft import _RFFTN_OTHER_AXES, _rfftn_steps

    assert ("first first" if np.__version__.startswith("2.0.") else "last first") == _RFFTN_OTHER_AXES
    other = "first first" if _RFFTN_OTHER_AXES == "last first" else "last first"
    rng = np.random.default_rng(55)
    differs = 0
    for shape in [(3, 4, 6), (2, 3, 4, 5), (5, 2, 7)]:
        a = rng.standard_normal(shape)
        expected = np.fft.rfftn(a).tobytes()
        assert _rfftn_steps(a).tobytes() == expected
        differs += _rfftn_steps(a, other).tobytes() != expected
    assert differs


def _transformed(kernel, a):
    try:
        with np.errstate(all="ignore"):
            out = kernel(a)
    except TypeError as exc:  # (a real transform of complex input)
        return "error", str(exc)
    return type(out), out.dtype, out.shape, out.tobytes()


# -- vector_norm -----------------------------------------------------------------------------------------
@NAMESPACES
def test_vector_norm_of_real_input_squares_as_the_abs_formula(ns):
    for dtype in _dtypes(ns):
        if dtype.name.startswith("complex"):
            continue
        values = np.resize(_special(dtype), (4, 9))
        try:
            out = ns.linalg.vector_norm(ns.asarray(values), axis=-1)
        except TypeError:  # refused by the policy: as before, the abs path is not reached
            continue
        x = ns.asarray(values)
        _, _, data = x._runtime._linalg_input(x, "linalg.vector_norm", min_ndim=0)  # in the compute dtype
        with np.errstate(all="ignore"):
            a = np.abs(data)
            expected = np.asarray(np.sqrt(np.sum(a * a, axis=-1)), dtype=out._data.dtype)
        assert out._data.tobytes() == expected.tobytes(), dtype


@NAMESPACES
@pytest.mark.parametrize("shape", [(9,), (3, 6), (0,)])
def test_vector_norm_of_all_of_float64_is_numpys_norm_and_float32_the_pairwise_sum(ns, shape):
    """The 2-norm of a whole float64 array is np.linalg.norm's one BLAS dot (a few ulps from the
    pairwise sum); float32 keeps NumPy's pairwise sum of squares (its BLAS dot accumulates in
    float32). No warning either way, whatever the caller's error state; the first call and the
    remembered path alike."""
    rng = np.random.default_rng(1)
    for values in (rng.standard_normal(shape) * 1e3, np.resize(_special(ns.float64), shape)):
        for dtype in (ns.float64, ns.float32):
            with np.errstate(all="ignore"):
                data = values.astype(dtype.numpy)
                expected = np.linalg.norm(data) if dtype == ns.float64 else np.sqrt(np.sum(data * data))
            for x in (ns.asarray(data), ns.asarray(data.T)):
                with np.errstate(all="raise"), warnings.catch_warnings():
                    warnings.simplefilter("error")
                    first, again = ns.linalg.vector_norm(x), ns.linalg.vector_norm(x)
                for out in (first, again):
                    assert out.dtype == dtype and out.shape == ()
                    assert np.asarray(expected, dtype=dtype.numpy).tobytes() == out._data.tobytes(), (dtype, values)


# -- fftfreq ------------------------------------------------------------------------------------------------
_FREQ_SPACINGS = (1.0, 0.1, -2.0, 3, 1e-300, 1e300, math.inf, -math.inf, math.nan, 1e-40, 1e40, 3e38, -1e-35)


@NAMESPACES
@pytest.mark.parametrize("errors", ["default", "warn"])
def test_fftfreq_is_numpys_cast_bit_for_bit(ns, errors):
    """Also past the size where a narrower dtype receives the products directly (4096), with
    every floating-point warning on: the same values and the same warnings as NumPy's cast."""
    state = {} if errors == "default" else {"all": "warn"}
    for function in ("fftfreq", "rfftfreq"):
        for n in [*range(1, 18), 100, 1001, 8190, 8193]:
            for d in _FREQ_SPACINGS:
                for dtype in (None, ns.float32, ns.float64):
                    with np.errstate(**state):
                        ours = outcome(
                            lambda f=function, n=n, d=d, t=dtype: getattr(ns.fft, f)(n, d=d, dtype=t), _describe
                        )
                        again = outcome(
                            lambda f=function, n=n, d=d, t=dtype: getattr(ns.fft, f)(n, d=d, dtype=t), _describe
                        )
                    assert again == ours, (function, n, d, dtype)  # (values made once: the same, warnings too)
                    assert ours[0][0] == "array"
                    target = ours[0][3]

                    def numpys(f=function, n=n, d=d, target=target):
                        return np.asarray(getattr(np.fft, f)(n, d=float(d)), dtype=target)

                    with np.errstate(**state):
                        expected = outcome(numpys, lambda out: out.tobytes())
                    assert ours[0][5] == expected[0] and ours[1] == expected[1], (function, n, d, dtype)


# -- warnings -----------------------------------------------------------------------------------------------
@NAMESPACES
def test_kernels_stay_quiet_whatever_the_callers_error_state(ns):
    big = ns.asarray(np.full((3, 3), 1e300))
    singular = ns.asarray(np.zeros((2, 2)))
    with warnings.catch_warnings(), np.errstate(all="raise"):
        warnings.simplefilter("error")
        for _ in range(2):  # the general path, then the plain case
            assert math.isinf(float(ns.vecdot(big[0, :], big[0, :])))
            assert float(ns.linalg.slogdet(singular).logabsdet) == -math.inf
            assert math.isinf(float(ns.linalg.vector_norm(big)))
            assert math.isinf(float(ns.linalg.outer(big[0, :], big[0, :])[0, 0]))
            assert math.isinf(float(ns.linalg.trace(big * 1e8)))
            assert math.isinf(float(ns.linalg.tensordot(big, big, axes=2)))
            assert math.isnan(float(ns.linalg.det(ns.asarray(np.full((2, 2), math.inf)))))
            np.asarray(ns.linalg.vector_norm(ns.asarray([0.0, 0.0]), ord=-1))  # 0 ** -1
