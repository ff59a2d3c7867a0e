"""benchmarks/seating_replay: the change a new variant makes on a match's seating is that of playing the
seating again with it, found by replaying only where its contract decisions differ."""

from __future__ import annotations

import pytest

from benchmarks.ai_tournament import SEATINGS
from benchmarks.seating_replay import players, replay
from skatbot.ai import play_deal
from skatbot.engine.deal import Deal
from skatbot.engine.rules import AllPass, RuleSet

RULES = RuleSet(all_pass=AllPass.THROW_IN, kontra=False, seeger_fabian=True)


def a_minus_b(seed: int, number: int, a: str) -> float:
    seating = SEATINGS[number]
    scores = play_deal(Deal.new(seed, RULES), players(seed, number, seating, a, "normal")).seat_scores
    return sum(s if who == "A" else -s for s, who in zip(scores, seating, strict=True)) / 9


def test_the_same_variant_changes_nothing() -> None:
    assert replay(5, 0, RULES, "normal", "normal", "normal") is None


def test_a_change_is_the_difference_of_the_two_games() -> None:
    changed = 0
    for seed in range(1, 30):
        for number in range(len(SEATINGS)):
            outcome = replay(seed, number, RULES, "easy", "normal", "normal")
            if outcome is None:
                continue
            changed += 1
            assert outcome[0] == pytest.approx(a_minus_b(seed, number, "normal") - a_minus_b(seed, number, "easy"))
    assert changed > 0
