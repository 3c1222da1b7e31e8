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
