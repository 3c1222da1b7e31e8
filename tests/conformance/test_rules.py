"""DEVIATIONS.md complete by rule (Part 4): every deviation a policy's rules can cause in a suite test,
derived from the policy, each confirmed by a reproducer, and held against what runs of the suite (ours
and the real libraries') found."""

from __future__ import annotations

import pytest

from array_api_promo.conformance import RESULTS_DIR, library, normalize, render, reproduce, rules
from array_api_promo.conformance.report import group_key


@pytest.fixture(scope="module")
def nodeids():
    """The suite's tests, as the committed results of the standard policy list them (all ran)."""
    return sorted(e["nodeid"] for e in normalize.load(RESULTS_DIR / "array_api-2025.12.json")["tests"])


@pytest.fixture(scope="module")
def torch_rules(nodeids):
    return rules.derive("torch", nodeids)


def test_test_clip_is_named_under_torch_with_its_rule(torch_rules):
    (clip,) = [e for e in torch_rules if e.ops == ["clip"]]
    assert clip.tests == ["array_api_tests/test_operators_and_elementwise_functions.py::test_clip"]
    assert "n-d array bound" in clip.heading and clip.forms == ["bounds"]
    (output,) = reproduce.execute([clip.snippet])
    assert rules.confirmed(clip, output)
    assert "torch -> TypeError: clip: an n-d array bound cannot be combined with a Python number bound" in output


def test_every_failure_of_a_torch_run_is_one_of_its_derived_rules(torch_rules):
    """Each failure of the committed torch results that the policy explains (a dtype by a rule, or a
    refusal) is a test of the derived entry of that rule: the derivation reaches what the draws did."""
    by_key = {e.key: set(e.tests) for e in torch_rules}
    torch = normalize.load(RESULTS_DIR / "torch-2025.12.json")
    explained = [e for e in torch["tests"] if e["outcome"] in normalize.FAILING and render.policy_explained(e)]
    assert len(explained) > 50
    for e in explained:
        key = group_key(e)[1]
        assert e["nodeid"] in by_key.get(key, set()), (e["nodeid"], key)


def test_every_promotion_failure_of_real_pytorch_is_a_derived_test(torch_rules):
    """The real library agrees: every failure of the committed torch reports that policy torch
    reproduces as a promotion rule is a test some derived torch rule can fail."""
    tests = {t for e in torch_rules for t in e.tests}
    seen = 0
    for name in ("torch-2.13", "torch-2.15"):
        r = normalize.load(library.REPORTS_DIR / name / library.RESULTS_NAME)
        for e in r["tests"]:
            if (e.get("cause") or {}).get("cause") == "promotion rule" and e["kind"] == normalize.WRONG_DTYPE:
                seen += 1
                assert e["nodeid"] in tests, (name, e["nodeid"])
    assert seen


def test_numpy_has_no_rule_the_suite_can_reach(nodeids):
    """NumPy 2's rules differ from the standard only where the standard has no promotion (mixed kinds,
    uint64 with a signed integer), which the suite does not draw: no entry, and real NumPy's report has
    no promotion failure either."""
    assert rules.derive("numpy", nodeids) == []
    real = normalize.load(library.REPORTS_DIR / "numpy-2.4" / library.RESULTS_NAME)
    assert not [e for e in real["tests"] if e.get("kind") == normalize.WRONG_DTYPE]
    # a value-dependent policy is derived with the values the suite draws: NumPy 1.x's 0-d arrays
    legacy = {e.example: e for e in rules.derive("numpy_legacy", nodeids)}
    assert legacy["add(int8 array, 0-d int16 array): int8, the standard int16"].forms == ["0-d"]
    assert legacy["ceil(int8 array): float16, the standard int8"].tests  # NumPy 1.26's first ufunc loop


@pytest.mark.parametrize("policy", ["torch", "paddle", "mlx", "numpy_legacy", "jax_x64"])
def test_every_derived_rule_is_confirmed_by_its_reproducer(policy, nodeids):
    entries = rules.derive(policy, nodeids)
    assert entries and all(e.tests for e in entries)
    outputs = reproduce.execute([e.snippet for e in entries])
    for e, output in zip(entries, outputs):
        assert rules.confirmed(e, output), (e.heading, output)


def test_deviations_md_renders_part_4_for_every_intentional_policy_it_holds(tmp_path):
    results = normalize.load_all(RESULTS_DIR)
    text = render.render(results, engine_part=lambda: [])
    part4 = text[text.index("## Part 4: Every deviation a policy's rules can cause in a suite test") :]
    for policy in ("torch", "paddle", "mlx"):
        assert f"### `{policy}`" in part4
    assert "- Confirmed by its reproducer: **no**" not in part4
    clip = part4[part4.index("`clip` with a Python number bound") :]
    assert "- `array_api_tests/test_operators_and_elementwise_functions.py::test_clip`" in clip.split("</details>")[0]
