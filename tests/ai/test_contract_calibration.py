"""The contract evaluator's calibration (benchmarks/contract_calibration.py): the records it keeps are the
evaluator's and the table's, and the monotone map it fits is monotone."""

from __future__ import annotations

import pytest

from benchmarks.contract_calibration import AUCTIONS, RULES, isotonic, record, world_bin
from skatbot.ai import contracts
from skatbot.ai.contracts import HAND, PICKUP, bidding_candidates
from skatbot.engine import Deal, GameType, Phase
from skatbot.engine.cards import parse_cards


def test_isotonic_pools_what_runs_downhill() -> None:
    steps = isotonic([(0.1, 0.0), (0.2, 1.0), (0.3, 0.0), (0.4, 1.0), (0.5, 1.0)])
    assert steps == [(0.1, 0.0, 1), (0.3, 0.5, 2), (0.5, 1.0, 2)]
    rates = [rate for _, rate, _ in isotonic([(x / 10, float(x % 3 == 0)) for x in range(10)])]
    assert rates == sorted(rates)


def test_the_forced_auctions_make_each_seat_declarer_at_18() -> None:
    for seat, auction in AUCTIONS.items():
        deal = Deal.new(3, RULES)
        for who, action in auction:
            deal.apply(action, who)
        assert deal.phase is Phase.SKAT and deal.declarer == seat and deal.bid == 18


def test_a_record_is_the_evaluators_estimate_and_the_tables_outcome() -> None:
    row = None
    for seed in range(1, 40):
        row = record(seed, 0, "normal", 2, 40_000)
        if row is not None:
            break
    assert row is not None
    worlds = row["worlds"]
    total = sum(w for w, _, _ in worlds)
    estimate = sum(w * contracts.CALIBRATION[b][1] for w, _, b in worlds) / total
    assert row["estimate"] == pytest.approx(estimate, abs=1e-3)
    assert 0 <= row["dd"] <= 120 and row["game"] != GameType.NULL.value
    assert row["sf_table"] == (row["value"] + 50 if row["won"] else -2 * row["value"] - 90)
    assert [world_bin(chance) for _, chance in contracts.CALIBRATION] == list(range(len(contracts.CALIBRATION)))


def test_the_bidding_weighs_pickups_committed_to_the_hands_games() -> None:
    grand = parse_cards("CJ SJ HJ CA CT C9 SA ST HA D7")
    candidates = bidding_candidates(grand, 0)
    pickups = [c.game for c in candidates if c.kind == PICKUP]
    hands = [c.game for c in candidates if c.kind == HAND]
    assert pickups[0] is None and len(pickups) == 1 + contracts.PICKUP_GAMES
    assert pickups[1:] == hands and GameType.GRAND in hands


def test_passing_is_scored_against_the_table_as_a_defender() -> None:
    """The seat that passes never declares: it is written 0 or the defenders' 40 while the others play on."""
    from benchmarks.contract_calibration import passed_result

    seen = set()
    for seed in range(1, 6):
        result = passed_result(seed, 0, "normal")
        seen.add(result)
        # passed out; won by another at v: -(v + 50) / 2; lost: 40 - (-2v - 50 + 40) / 2 = v + 45 (v >= 18)
        assert result == 0 or result <= -34 or result >= 63
    assert len(seen) > 1


def test_a_null_record_is_strongs_null_estimate_after_the_pickup_and_the_tables_outcome() -> None:
    from benchmarks.contract_calibration import null_record
    from skatbot.ai.evaluation import null_discard, null_probability

    rows = [row for seed in range(1, 60) for seat in range(3)
            if (row := null_record(seed, seat, "normal", 0.9)) is not None]
    assert rows
    for row in rows:
        deal = Deal.new(row["seed"], RULES)
        twelve = sorted((*deal.dealt_hands[row["seat"]], *deal.skat), key=lambda c: c.index)
        first, second = null_discard(twelve)
        kept = [c for c in twelve if c is not first and c is not second]
        assert row["kept"] == " ".join(c.iss for c in kept)
        assert row["estimate"] == null_probability(kept) >= 0.9 and row["value"] == 23
        assert row["sf_table"] == (73 if row["won"] else -176) and isinstance(row["dd_won"], bool)
    assert null_record(rows[0]["seed"], rows[0]["seat"], "normal", 0.95) is None
