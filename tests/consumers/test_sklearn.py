"""scikit-learn with ``array_api_dispatch=True`` on array_api_promo arrays (xp and tx, CPU and device1).

Every estimator here has ``array_api_support`` in its tags (scikit-learn 1.9);
each result is compared with the same estimator run on NumPy arrays.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn")

from _consumer_check import (  # noqa: E402
    DEVICES,
    MIXED_DEVICE_ERROR,
    NAMESPACES,
    assert_ours,
    assert_scalar,
    to_numpy,
)
from sklearn import metrics  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.kernel_approximation import Nystroem  # noqa: E402
from sklearn.linear_model import LogisticRegression, PoissonRegressor, Ridge, RidgeClassifier, RidgeCV  # noqa: E402
from sklearn.mixture import GaussianMixture  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.preprocessing import (  # noqa: E402
    Binarizer,
    KernelCenterer,
    LabelEncoder,
    MaxAbsScaler,
    MinMaxScaler,
    Normalizer,
    PolynomialFeatures,
    StandardScaler,
)

import array_api_promo as xp  # noqa: E402
import array_api_promo.torch as tx  # noqa: E402

pytestmark = pytest.mark.filterwarnings(
    # Ridge(solver="auto") and randomized SVD warn about their array API fallbacks.
    "ignore::UserWarning:sklearn",
    # StandardScaler's 0/0 (see test_standard_scaler_emits_no_floating_point_warning).
    "ignore:invalid value encountered in divide:RuntimeWarning",
)

_rng = np.random.default_rng(0)
X = _rng.standard_normal((60, 4))
Y_REG = X @ np.arange(1.0, 5.0) + 0.1 * _rng.standard_normal(60)
Y3 = np.digitize(X[:, 0] + 0.3 * X[:, 1], [-0.5, 0.5]).astype(np.int64)  # three classes
Y_PRED3 = np.where(np.arange(60) % 7 == 0, (Y3 + 1) % 3, Y3)  # mostly right
Y2 = (X[:, 0] > 0).astype(np.int64)


def numpy_run(f, *args):
    """The reference: the same workload on NumPy arrays, dispatch off."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args)


def ours(f, ns, device, *args):
    conv = [ns.asarray(a, device=device, copy=True) for a in args]
    with sklearn.config_context(array_api_dispatch=True):
        return f(*conv)


# name -> (workload on (X, y3, y_reg), tolerance)
ESTIMATORS = {
    "PCA(full).fit.transform": (lambda X, y, r: PCA(3, svd_solver="full").fit(X).transform(X), 1e-7),
    "PCA(full,whiten).inverse_transform": (
        lambda X, y, r: (lambda p: p.inverse_transform(p.transform(X)))(PCA(3, svd_solver="full", whiten=True).fit(X)),
        1e-7,
    ),
    "PCA(full).components_": (lambda X, y, r: PCA(3, svd_solver="full").fit(X).components_, 1e-7),
    "PCA(covariance_eigh).fit_transform": (lambda X, y, r: PCA(2, svd_solver="covariance_eigh").fit_transform(X), 1e-7),
    "LDA.predict": (lambda X, y, r: LinearDiscriminantAnalysis().fit(X, y).predict(X), 0),
    "LDA.predict_proba": (lambda X, y, r: LinearDiscriminantAnalysis().fit(X, y).predict_proba(X), 1e-7),
    "LDA.transform": (lambda X, y, r: LinearDiscriminantAnalysis().fit(X, y).transform(X), 1e-7),
    "Ridge(svd).predict": (lambda X, y, r: Ridge(solver="svd", alpha=0.5).fit(X, r).predict(X), 1e-7),
    "Ridge(svd).coef_": (lambda X, y, r: Ridge(solver="svd", alpha=0.5).fit(X, r).coef_, 1e-7),
    "RidgeCV.predict": (lambda X, y, r: RidgeCV(alphas=(0.1, 1.0, 10.0)).fit(X, r).predict(X), 1e-7),
    "RidgeClassifier(svd).decision_function": (
        lambda X, y, r: RidgeClassifier(solver="svd").fit(X, y).decision_function(X),
        1e-7,
    ),
    "StandardScaler": (lambda X, y, r: StandardScaler().fit_transform(X), 1e-7),
    "StandardScaler.inverse_transform": (
        lambda X, y, r: (lambda s: s.inverse_transform(s.transform(X)))(StandardScaler().fit(X)),
        1e-7,
    ),
    "MinMaxScaler": (lambda X, y, r: MinMaxScaler().fit_transform(X), 1e-7),
    "MaxAbsScaler": (lambda X, y, r: MaxAbsScaler().fit_transform(X), 1e-7),
    "Normalizer": (lambda X, y, r: Normalizer().fit_transform(X), 1e-7),
    "Binarizer": (lambda X, y, r: Binarizer(threshold=0.2).fit_transform(X), 0),
    "PolynomialFeatures(2)": (lambda X, y, r: PolynomialFeatures(2).fit_transform(X), 1e-7),
    "KernelCenterer": (lambda X, y, r: KernelCenterer().fit_transform(X @ X.T), 1e-7),
    "LabelEncoder": (lambda X, y, r: LabelEncoder().fit_transform(y * 3 + 1), 0),
    "GaussianNB.predict_proba": (lambda X, y, r: GaussianNB().fit(X, y).predict_proba(X), 1e-7),
    "LogisticRegression(lbfgs).predict_proba": (
        lambda X, y, r: LogisticRegression().fit(X, y).predict_proba(X),
        1e-5,
    ),
    "PoissonRegressor(lbfgs).predict": (lambda X, y, r: PoissonRegressor().fit(X, y).predict(X), 1e-5),
    "Nystroem.fit_transform": (lambda X, y, r: Nystroem(n_components=10, random_state=0).fit_transform(X), 1e-7),
    "GaussianMixture(random_from_data).predict_proba": (
        lambda X, y, r: GaussianMixture(2, init_params="random_from_data", random_state=0).fit(X).predict_proba(X),
        1e-6,
    ),
}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("ns", NAMESPACES)
@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_estimator(name, ns, device):
    f, tol = ESTIMATORS[name]
    expected = numpy_run(f, X, Y3, Y_REG)
    out = ours(f, ns, device, X, Y3, Y_REG)
    assert_ours(out, ns, device, expected, rtol=tol, atol=tol * 1e-2)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("ns", NAMESPACES)
def test_pca_attributes_are_ours(ns, device):
    """Fitted attributes live in our namespace on the input's device (a GPU user's check)."""
    with sklearn.config_context(array_api_dispatch=True):
        pca = PCA(2, svd_solver="full").fit(ns.asarray(X, device=device))
    ref = PCA(2, svd_solver="full").fit(X)
    for attr in ("mean_", "explained_variance_", "explained_variance_ratio_", "singular_values_"):
        assert_ours(getattr(pca, attr), ns, device, getattr(ref, attr))


# name -> (metric on (a, b), first argument kind)
METRICS_FLOAT = {
    "accuracy_score": (lambda a, b: metrics.accuracy_score(a, b), "labels"),
    "f1_score(macro)": (lambda a, b: metrics.f1_score(a, b, average="macro"), "labels"),
    "precision_score(macro)": (lambda a, b: metrics.precision_score(a, b, average="macro"), "labels"),
    "recall_score(micro)": (lambda a, b: metrics.recall_score(a, b, average="micro"), "labels"),
    "zero_one_loss": (lambda a, b: metrics.zero_one_loss(a, b), "labels"),
    "r2_score": (lambda a, b: metrics.r2_score(a, b), "reg"),
    "mean_squared_error": (lambda a, b: metrics.mean_squared_error(a, b), "reg"),
    "mean_absolute_error": (lambda a, b: metrics.mean_absolute_error(a, b), "reg"),
    "mean_absolute_percentage_error": (lambda a, b: metrics.mean_absolute_percentage_error(a, b), "reg"),
    "explained_variance_score": (lambda a, b: metrics.explained_variance_score(a, b), "reg"),
}


def _metric_args(kind):
    if kind == "labels":
        return Y3, Y_PRED3
    return Y_REG, 0.9 * Y_REG + 0.1


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("ns", NAMESPACES)
@pytest.mark.parametrize("name", list(METRICS_FLOAT))
def test_metric_float(name, ns, device):
    f, kind = METRICS_FLOAT[name]
    args = _metric_args(kind)
    # zero_one_loss creates a float from a Python scalar without dtype=: under the torch
    # policy the default real floating dtype is float32, as in torch, so the loss is float32.
    rtol = 1e-6 if (ns is tx and name == "zero_one_loss") else 1e-7
    assert_scalar(ours(f, ns, device, *args), numpy_run(f, *args), rtol=rtol)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("ns", NAMESPACES)
def test_log_loss(ns, device):
    proba = np.clip(0.5 + 0.3 * X[:, 0], 0.01, 0.99)
    assert_scalar(ours(metrics.log_loss, ns, device, Y2, proba), metrics.log_loss(Y2, proba))


ARRAY_METRICS = {
    "confusion_matrix": (lambda a, b: metrics.confusion_matrix(a, b), (Y3, Y_PRED3)),
    "pairwise_distances(euclidean)": (lambda a: metrics.pairwise_distances(a), (X,)),
    "pairwise_distances(manhattan)": (lambda a: metrics.pairwise_distances(a, metric="manhattan"), (X,)),
    "euclidean_distances(X,Y)": (lambda a: metrics.pairwise.euclidean_distances(a, a[:7, ...]), (X,)),
    "cosine_similarity": (lambda a: metrics.pairwise.cosine_similarity(a), (X,)),
    "rbf_kernel": (lambda a: metrics.pairwise.rbf_kernel(a, gamma=0.3), (X,)),
    "polynomial_kernel": (lambda a: metrics.pairwise.polynomial_kernel(a, degree=2), (X,)),
    "additive_chi2_kernel": (lambda a: metrics.pairwise.additive_chi2_kernel(a), (np.abs(X),)),
}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("ns", NAMESPACES)
@pytest.mark.parametrize("name", list(ARRAY_METRICS))
def test_array_metric(name, ns, device):
    f, args = ARRAY_METRICS[name]
    # Distances are computed with the expanded ||x||^2 - 2 x.y + ||y||^2 formula on both
    # sides; a zero diagonal comes out as ~1e-7 after the sqrt, hence the absolute tolerance.
    assert_ours(ours(f, ns, device, *args), ns, device, numpy_run(f, *args), rtol=1e-7, atol=1e-6)


# ---- consumer limitations: scikit-learn bugs, documented in the README (Real consumers) -----------------


@pytest.mark.xfail(
    raises=TypeError,
    strict=False,
    reason="sklearn bug: roc_curve calls xp.diff(fps, 2) with n positional; the standard's "
    "signature is diff(x, /, *, axis=-1, n=1) (array-api-strict refuses it as well)",
)
@pytest.mark.parametrize("ns", NAMESPACES)
def test_roc_auc_score(ns):
    out = ours(metrics.roc_auc_score, ns, xp.CPU, Y2, X[:, 0])
    assert_scalar(out, metrics.roc_auc_score(Y2, X[:, 0]))


@pytest.mark.parametrize("ns", NAMESPACES)
def test_precision_without_true_positives(ns):
    """sklearn's pathological branch mixes xp.zeros() (float64) with bincount counts (int64).

    NumPy and torch promote int64 - float64; the standard (policy array_api) has no
    mixed-kind promotion, so the strict namespace refuses, as array-api-strict does.
    """
    y, wrong = Y2, 1 - Y2
    expected = metrics.precision_score(y, wrong, zero_division=0)
    if ns is xp:
        from array_api_promo.promotion import PromotionError

        with pytest.raises(PromotionError, match="subtract: int64 and float64"):
            ours(lambda a, b: metrics.precision_score(a, b, zero_division=0), ns, xp.CPU, y, wrong)
    else:
        out = ours(lambda a, b: metrics.precision_score(a, b, zero_division=0), ns, xp.CPU, y, wrong)
        assert_scalar(out, expected)


@pytest.mark.parametrize("ns", NAMESPACES)
def test_precision_without_true_positives_device1(ns):
    """Same branch: sklearn's xp.zeros(n) has no device=, so it lands on the CPU."""
    with pytest.raises(MIXED_DEVICE_ERROR[0], match=MIXED_DEVICE_ERROR[1]):
        ours(lambda a, b: metrics.precision_score(a, b, zero_division=0), ns, xp.DEVICE1, Y2, 1 - Y2)


def test_dispatch_is_needed():
    """Without array_api_dispatch, sklearn converts through __array__ and returns NumPy."""
    out = StandardScaler().fit_transform(xp.asarray(X))
    assert type(out) is np.ndarray
    np.testing.assert_allclose(out, StandardScaler().fit_transform(X))
    # ... which cannot work for an array off the CPU.
    with pytest.raises(RuntimeError, match="__array__: the array is on device1"):
        StandardScaler().fit_transform(xp.asarray(X, device=xp.DEVICE1))
    assert to_numpy(xp.asarray(X, device=xp.DEVICE1)).shape == X.shape


@pytest.mark.parametrize("ns", NAMESPACES)
def test_standard_scaler_passes_numpy_floating_point_warnings_through(ns):
    """A deliberate choice: NumPy's RuntimeWarnings (0/0 -> nan) pass through, as with
    array-api-strict. sklearn silences them with np.errstate only for NumPy itself; entering
    np.errstate costs ~3.5 us, more than the whole elementwise call, so the kernels do not."""
    with (
        pytest.warns(RuntimeWarning, match="invalid value encountered"),
        sklearn.config_context(array_api_dispatch=True),
    ):
        StandardScaler().fit(ns.asarray(X))
