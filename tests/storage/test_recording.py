"""From a finished engine deal and its list row to the stored record: roles, players, records."""

from __future__ import annotations

import json
import random

import pytest

from skatbot.engine import HOLD, OFFICIAL, PASS, Bid, Deal, GameType, RuleSet
from skatbot.engine.records import parse_record
from skatbot.engine.series import Row, Series
from skatbot.models import DealRecord
from skatbot.storage import Role
from skatbot.storage.recording import deal_record, result_mismatches
from tests.storage.storage_helpers import NOW

PLAYERS = (11, 12, 13, 14)
NAMES = ("Anna", "Bert", "Carla", "Dirk")


def _finish(deal: Deal, seed: int) -> Deal:
    rng = random.Random(seed)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def _record(deal: Deal, rules: RuleSet, players: int = 4) -> tuple[Row, DealRecord]:
    series = Series(list(NAMES[:players]), 4, rules)
    row = series.record(deal.result, deal)
    return row, deal_record(table_id=3, server_id=9, deal_number=1, deal=deal, players=PLAYERS[:players],
                            names=NAMES[:players], seats=row.seats, scores=row.scores, seeger=row.seeger,
                            bock=row.bock, started_at=NOW, finished_at=NOW)


def test_a_declared_game_at_four_maps_seats_roles_and_the_dealer_sitting_out() -> None:
    deal = Deal.new(21)
    deal.apply(Bid(18))
    deal.apply(HOLD)
    deal.apply(PASS)  # middlehand passes: forehand is declarer unless rearhand bids
    deal.apply(PASS)
    row, record = _record(_finish(deal, 1), OFFICIAL)
    assert row.seats == (1, 2, 3) and row.dealer == 0  # Anna deals and sits out; Bert is forehand
    lines = {line.player_id: line for line in record.scores}
    assert lines[11].role is Role.OUT and lines[11].seat is None and lines[11].won is None
    assert record.declarer_id == 12 and lines[12].role is Role.DECLARER and lines[12].won == record.won
    assert lines[13].role is Role.DEFENDER and lines[13].won is (not record.won)
    assert [lines[p].score for p in PLAYERS] == list(row.scores)
    assert [lines[p].seeger for p in PLAYERS] == list(row.seeger)
    assert result_mismatches(record, deal) == []
    iss = parse_record(record.iss)
    assert iss.players == ("Bert", "Carla", "Dirk") and iss.id == "3-1"
    assert json.loads(record.record_json)["players"] == [12, 13, 14]


def test_a_passed_deal_and_a_ramsch() -> None:
    passed = Deal.new(5)
    for _ in range(3):
        passed.apply(PASS)
    _, record = _record(passed, OFFICIAL, players=3)
    assert record.game is None and record.contract == "" and record.declarer_id is None
    assert {line.role for line in record.scores} == {Role.PASSED}
    pub = RuleSet.preset("pub")
    ramsch = Deal.new(5, pub)
    for _ in range(3):
        ramsch.apply(PASS)
    _, record = _record(_finish(ramsch, 2), pub, players=3)
    assert record.game is GameType.RAMSCH and record.iss == ""  # the ISS format has no Ramsch; the JSON has it all
    assert {line.role for line in record.scores} == {Role.RAMSCH}
    assert json.loads(record.record_json)["rules"]["all_pass"] == "ramsch"


def test_bad_arguments_are_refused() -> None:
    deal = Deal.new(5)
    with pytest.raises(ValueError, match="only a finished deal"):
        deal_record(table_id=1, server_id=1, deal_number=1, deal=deal, players=(1, 2, 3), names=("a", "b", "c"),
                    seats=(0, 1, 2), scores=(0, 0, 0), seeger=(0, 0, 0), bock=False, started_at=NOW, finished_at=NOW)
    for _ in range(3):
        deal.apply(PASS)
    with pytest.raises(ValueError, match="three different players"):
        deal_record(table_id=1, server_id=1, deal_number=1, deal=deal, players=(1, 2, 3), names=("a", "b", "c"),
                    seats=(0, 0, 1), scores=(0, 0, 0), seeger=(0, 0, 0), bock=False, started_at=NOW, finished_at=NOW)
    with pytest.raises(ValueError, match="each of the 3 or 4"):
        deal_record(table_id=1, server_id=1, deal_number=1, deal=deal, players=(1, 2), names=("a", "b"),
                    seats=(0, 1, 2), scores=(0, 0), seeger=(0, 0), bock=False, started_at=NOW, finished_at=NOW)
