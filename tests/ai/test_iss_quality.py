"""The double-dummy judgement of benchmarks/ai_iss_quality.py on hand-made endgames: a card that throws
points away loses exactly those points, and the outcome it turns is counted, in a grand and in a null."""

from __future__ import annotations

import pytest

from benchmarks.ai_iss_quality import Judge, clustered_mean, verdict
from skatbot.ai.solver import Position
from skatbot.engine.cards import Card, mask_of
from skatbot.engine.games import GameType


def cards(text: str) -> int:
    return mask_of(Card.parse(code) for code in text.split())


def card(code: str) -> int:
    return Card.parse(code).index


def test_a_defender_who_drops_his_ace_under_the_declarers_jack_loses_its_eleven_points() -> None:
    # Grand, declarer (seat 0) has led CJ and keeps H8; the defender to move holds HA and H7, his partner
    # S7 and S8. HA falls to the jack (declarer 2 + 11 + 0); H7 keeps the ace, which takes the last trick
    # over the declarer's H8 (declarer 2 + 0 + 0). The declarer's side has 50 points banked.
    position = Position((cards("H8"), cards("HA H7"), cards("S7 S8")), 0, (card("CJ"),))
    values = Judge(GameType.GRAND, 0, 61, False).values(position, 50)
    assert values == {card("HA"): (120 - 63, True), card("H7"): (120 - 52, False)}
    assert verdict(values, card("HA")).loss == 11
    assert verdict(values, card("HA")).turned  # 63 points: the declarer wins instead of losing
    assert verdict(values, card("H7")).loss == 0 and not verdict(values, card("H7")).turned


def test_the_declarers_loss_is_his_own_sides_and_a_lost_null_costs_the_game() -> None:
    # Grand from the declarer's seat: the same cards, but the declarer (seat 1) holds HA and H7 after a
    # defender's CJ, which keeps H8: HA gives the defenders 13 points; H7 keeps the ace for the last trick.
    grand = Position((cards("H8"), cards("HA H7"), cards("S7 S8")), 0, (card("CJ"),))
    values = Judge(GameType.GRAND, 1, 61, False).values(grand, 40)
    assert verdict(values, card("HA")).loss == 11 and not verdict(values, card("HA")).turned  # 40 or 51: lost
    # Null, declarer seat 0 to follow a heart 9 with HT or H7, the others void: HT takes the trick.
    null = Position((cards("HT H7"), cards("D7 D8"), cards("S7")), 2, (card("H9"),))
    values = Judge(GameType.NULL, 0, 61, False).values(null, 0)
    assert values == {card("HT"): (0, False), card("H7"): (1, True)}
    assert verdict(values, card("HT")).loss == 1 and verdict(values, card("HT")).turned


def test_runs_pool_into_a_mean_per_decision_with_decisions_clustered_by_record() -> None:
    def row(record: str, strong: int, iss: int, null: bool = False) -> dict[str, object]:
        return {"file": "f", "record": record, "null": null, "strong": [0, strong, False], "ISS": [0, iss, False]}

    rows = [row("a", 2, 1), row("a", 0, 1), row("b", 0, 0), row("b", 1, 1, null=True)]
    count, mean, half = clustered_mean(rows, "strong")
    # 2 points over 3 decisions; records a (2 over 2) and b (0 over 1) around 2/3: (2/3)^2 + (2/3)^2, times
    # k / (k - 1) = 2, square root 4/3, over 3 decisions
    assert count == 3 and mean == pytest.approx(2 / 3) and half == pytest.approx(1.96 * 4 / 3 / 3)
    assert clustered_mean(rows, "strong", "ISS") == (3, 0.0, 0.0)  # the same points lost as the ISS players
