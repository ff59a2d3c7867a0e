"""The regression match's sequential test (benchmarks/ai_tournament.py): its arithmetic on worked examples,
since a wrong sign or bound would stop a match on the wrong verdict."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from benchmarks.ai_tournament import sprt


def test_worked_example_goes_on() -> None:
    # five deals: mean 4, sample variance (36 + 36 + 4 + 0 + 4) / 4 = 20;
    # LLR = n (mu1 - mu0) (2 mean - mu0 - mu1) / (2 s^2) = 5 * 5 * (8 - 5) / 40 = 1.875
    state = sprt([10, -2, 6, 4, 2], 0, 5)
    assert state.llr == pytest.approx(1.875)
    assert state.lower == pytest.approx(-math.log(19)) and state.upper == pytest.approx(math.log(19))
    assert state.verdict is None


def test_clear_gain_accepts_h1_and_clear_loss_h0() -> None:
    # mean 10, variance 2: LLR = 6 * 5 * (20 - 5) / 4 = 112.5
    gain = sprt([10, 8, 12, 9, 11, 10], 0, 5)
    assert gain.llr == pytest.approx(112.5) and gain.verdict == "H1"
    # mean -10: LLR = 6 * 5 * (-20 - 5) / 4 = -187.5
    loss = sprt([-10, -8, -12, -9, -11, -10], 0, 5)
    assert loss.llr == pytest.approx(-187.5) and loss.verdict == "H0"


def test_half_way_is_no_evidence_and_identical_players_decide_nothing() -> None:
    assert sprt([0, 5, 2.5, 7.5, -2.5], 0, 5).llr == pytest.approx(0.0)  # mean 2.5, half-way
    assert sprt([0.0] * 50, 0, 5).verdict is None  # the same code on both sides: every deal ties


def test_error_rates_set_the_bounds() -> None:
    state = sprt([], 0, 5, alpha=0.05, beta=0.1)
    assert state.upper == pytest.approx(math.log(0.9 / 0.05))
    assert state.lower == pytest.approx(math.log(0.1 / 0.95))
    with pytest.raises(ValueError):
        sprt([1, 2], 5, 0)


def test_benchmark_players_are_named_by_level_and_switches() -> None:
    from benchmarks import ai_variants
    from skatbot.ai.strong import StrongPlayer

    assert ai_variants.check("strong+contracts+bidding") is None
    assert ai_variants.check("normal+contracts") == "switches are for the strong level"
    assert "unknown switch" in str(ai_variants.check("strong+magic"))
    assert ai_variants.check("strong+no-bidding+steady") is None
    assert "unknown switch" in str(ai_variants.check("strong+no-magic"))
    player = ai_variants.make("strong+no-bidding+no-race", 3)
    assert isinstance(player, StrongPlayer)
    assert player.search_contracts and player.infer_auction and not player.search_bidding
    assert not player.race_contracts and player.capped_solves
    steady = ai_variants.make("strong+steady+twophase", 3)
    assert isinstance(steady, StrongPlayer) and steady.steady_hand and steady.two_phase and steady.race_contracts
    assert not (player.steady_hand or player.two_phase)


def test_a_duplicate_deal_notes_each_seating_and_who_declared() -> None:
    """--out keeps, per seating, which configuration declared what and how it ended: the figures the
    summary counts."""
    from benchmarks import ai_variants
    from benchmarks.ai_tournament import SEATINGS, duplicate
    from skatbot.engine import RuleSet

    outcome = duplicate(7, RuleSet(seeger_fabian=True),
                        lambda who, seed, deal: ai_variants.make("normal" if who == "A" else "easy", seed))
    assert len(outcome.seatings) == len(SEATINGS)
    for note, seating in zip(outcome.seatings, SEATINGS, strict=True):
        assert note.startswith("".join(seating))
    for who in ("A", "B"):
        declared = [n for n in outcome.seatings if n.split()[1][0] == who]
        assert len(declared) == outcome.games[who][0]
        assert sum(n.endswith(" won") for n in declared) == outcome.games[who][1]


def test_pooled_runs_count_each_seed_once_per_pairing(tmp_path: Path) -> None:
    from benchmarks.ai_tournament import pooled

    def line(seed: int, difference: float, a: str = "strong+sharp") -> str:
        return json.dumps({"seed": seed, "a": a, "b": "strong", "baseline": "d12d2ea", "difference": difference,
                           "seatings": ["ABB A0 clubs bid 18 value 24 won", "BAB B1 grand bid 24 value 48 lost",
                                        "BBA passed"]})

    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    one.write_text("\n".join([line(1, 2.0), line(2, 4.0)]) + "\n")
    two.write_text("\n".join([line(2, 99.0), line(3, 6.0), line(1, 0.0, a="strong")]) + "\n")
    lines = [line for line in pooled([one, two]) if not line.startswith("  ")]  # the sources below each pairing
    assert len(lines) == 2 and lines[0].startswith("strong vs strong (baseline d12d2ea): 1 deal")
    # seeds 1, 2, 3 once each: mean 4, sample sd 2, half-width 1.96 * 2 / sqrt(3)
    assert lines[1].startswith("strong+sharp vs strong (baseline d12d2ea): +4.00 [+1.74, +6.26] over 3 deals")
    assert lines[1].endswith("A declared 3, won 3; B declared 3, won 0")
