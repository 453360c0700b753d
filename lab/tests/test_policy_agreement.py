"""lab/policy_agreement.py: a model's agreement with a level, by kind of decision."""

from __future__ import annotations

from tests.script_loader import load_script


def test_a_level_agrees_with_itself_and_every_kind_of_decision_is_told_apart() -> None:
    script = load_script("lab/policy_agreement.py")
    records = script.play_deal("royal-mastheads", "greedy", "greedy", 3)
    assert {kind for kind, _, _ in records} == {"pot", "lead", "follow"}
    assert all(agreed for _, _, agreed in records)
    assert all(n > 1 for _, n, _ in records)
    e, bits = script.fit(records)
    # every move foreseen: the smallest e of the grid, and log2(legal) bits a decision
    assert e == 0.02
    assert bits > 1.0


def test_a_random_level_is_foreseen_about_as_often_as_chance() -> None:
    script = load_script("lab/policy_agreement.py")
    records = script.play_deal("royal-mastheads", "random", "greedy", 3)
    agreed = sum(a for _, _, a in records) / len(records)
    chance = sum(1 / n for _, n, _ in records) / len(records)
    assert abs(agreed - chance) < 0.25
    e, bits = script.fit(records)
    assert e > 0.5 and bits < 0.3
