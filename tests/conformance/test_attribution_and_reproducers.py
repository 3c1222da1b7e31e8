"""Two harness behaviours found by running the suite under paddle and mlx: the suite's own failure
where a policy has float64 but no complex128 is explained, and reproducers of several policies
bound through environment variables each run under their own policy."""

from array_api_promo.conformance import reproduce
from array_api_promo.conformance.attribution import attribute

SUITE_FAILURE = {
    "kind": "unexpected exception",
    "message": "ValueError: no complex dtype to match array_api_promo.float64\n========== FAILING CODE SNIPPET:",
}


def test_a_policy_without_complex128_explains_the_suites_own_failure():
    found = attribute("mlx", SUITE_FAILURE)
    assert found["explained"] and "has float64 but no complex128" in found["rule"]
    assert attribute("array_api", SUITE_FAILURE) is None  # it has complex128: a real failure
    assert attribute("mlx", {**SUITE_FAILURE, "message": "ValueError: something else"}) is None


def test_reproducers_of_two_from_env_policies_in_one_process():
    snippets = [
        reproduce.import_line(
            "array_api_promo.from_env", {"ARRAY_API_PROMO_POLICY": policy, "ARRAY_API_PROMO_API_VERSION": "2025.12"}
        )
        + "\nprint(xp.asarray(1.5).dtype, xp._runtime.policy.name)"
        for policy in ("paddle", "mlx")
    ]
    outputs = reproduce.execute(snippets)
    assert [o.split()[-1] for o in outputs] == ["paddle", "mlx"]


def test_unknown_sizes_of_the_dask_storage_are_explained_and_nothing_else_is():
    message = (
        "ValueError: unknonwn (None) dimensions are not supported\n========== FAILING CODE SNIPPET:\n"
        "xp.unique_values(Array(<dask shape=(3,), chunksize=(3,)>, dtype=bool)\n===================="
    )
    entry = {"kind": "unexpected exception", "spec_function": "unique_values", "message": message, "nodeid": "t"}
    found = attribute("array_api", entry)
    assert found["explained"] and found["heading"] == "Why" and "unknown (None)" in found["rule"]
    numpy_storage = dict(entry, message=message.replace("<dask shape=(3,), chunksize=(3,)>", "[True, False]"))
    assert attribute("array_api", numpy_storage) is None  # the NumPy storage has no unknown sizes
    other_function = dict(entry, spec_function="sort")
    assert attribute("array_api", other_function) is None
    mask = dict(entry, spec_function="array.__getitem__", kind="wrong shape", message="out.shape=(None,) " + message)
    assert attribute("array_api", mask)["explained"]
