"""Real ISS records of unusual kinds read and replay to what the server recorded: penalties in the auction
(a time-out, a player leaving), a card written `??` because a player left, and a declarer's time-out before
the discard (tests/data/iss/unusual-records.sgf)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from skatbot.engine import Contract, Deal, Ending, GameType, TimeOut, WrongPhase, parse_cards
from skatbot.engine.actions import parse_action
from skatbot.engine.records import (
    IssResult,
    RecordError,
    deal_from_json,
    deal_to_json,
    export_record,
    parse_record,
    replay,
)
from tests.engine.test_iss_records import raw_result

ROOT = Path(__file__).resolve().parents[2]
LINES = [line for line in (ROOT / "tests" / "data" / "iss" / "unusual-records.sgf").read_text(
    encoding="utf-8").splitlines() if line.strip()]
BY_ID = {parse_record(line).id: line for line in LINES}


def test_the_file_holds_the_four_records() -> None:
    assert list(BY_ID) == ["8", "30", "18358", "10330141"]


@pytest.mark.parametrize("record_id", list(BY_ID))
def test_every_record_reproduces_every_result_field(record_id: str) -> None:
    line = BY_ID[record_id]
    record = parse_record(line)
    deal = replay(record)
    assert deal.is_over
    recorded = raw_result(line)
    computed = IssResult.of_deal(deal)
    assert computed == record.result
    # field by field against the text, read independently of the module under test
    written = dict(word.partition(":")[::2] for word in str(computed).split() if ":" in word)
    fields = {key: value for key, value in recorded.items() if value != "yes"}
    assert {key: written[key] for key in fields} == fields  # (older servers wrote no r:)
    assert len(fields) >= 12
    assert ("penalty" in recorded) == computed.penalty
    assert ("win" in recorded) == computed.won


@pytest.mark.parametrize("record_id, seat, left", [("8", 2, False), ("30", 2, True)])
def test_a_time_out_or_leave_in_the_auction_is_a_penalty_without_a_game(record_id: str, seat: int,
                                                                         left: bool) -> None:
    deal = replay(parse_record(BY_ID[record_id]))
    assert deal.ending is Ending.PENALTY and deal.contract is None and deal.declarer is None
    assert deal.history[-1] == (None, TimeOut(seat, left))
    assert deal.result.seat_scores == (0, 0, 0) and deal.result.game is None
    penalties = IssResult.of_deal(deal).penalties
    assert penalties == tuple(int(s == seat) for s in range(3))


def test_a_card_written_as_unknown_is_not_played_and_the_leave_gives_the_rest() -> None:
    deal = replay(parse_record(BY_ID["18358"]))  # ... 2 G.DT.ST 0 ?? w LE.1
    assert deal.contract == Contract(GameType.GRAND) and deal.discarded == tuple(parse_cards("DT.ST"))
    assert deal.history[-1] == (None, TimeOut(1, left=True))
    assert deal.current_trick == [] and deal.tricks == []
    assert deal.result.won and deal.result.schwarz and deal.result.score == 96
    assert deal.trick_count(2) == 10


def test_a_declarer_timing_out_before_the_discard_loses_the_named_game() -> None:
    deal = replay(parse_record(BY_ID["10330141"]))  # ... 1 s w DA.H7 1 C w TI.1
    assert deal.contract == Contract(GameType.CLUBS) and deal.picked_up and deal.discarded == ()
    assert deal.history[-1] == (None, TimeOut(1, contract=Contract(GameType.CLUBS)))
    result = deal.result
    assert (result.won, result.score, result.matadors, result.declarer_points) == (False, -288, -11, 11)
    assert not result.schneider and not result.schwarz


@pytest.mark.parametrize("record_id", list(BY_ID))
def test_export_import_and_json_are_exact(record_id: str) -> None:
    record = parse_record(BY_ID[record_id])
    deal = replay(record)
    line = export_record(deal, record.id, record.players)
    again = replay(parse_record(line))
    assert again.history == deal.history and again.result == deal.result
    assert parse_record(line).result == record.result
    from_json = deal_from_json(deal_to_json(deal))
    assert from_json.history == deal.history and from_json.result == deal.result


@pytest.mark.parametrize("action", [TimeOut(2), TimeOut(1, left=True), TimeOut(0, contract=Contract(GameType.CLUBS)),
                                    TimeOut(2, True, Contract(GameType.NULL, True, ouvert=True))])
def test_time_out_text_round_trips(action: TimeOut) -> None:
    assert parse_action(str(action)) == action


def test_a_time_out_naming_a_game_is_only_the_declarers_after_the_auction() -> None:
    deal = replay(parse_record(BY_ID["10330141"]), complete=False)
    deal = Deal(deal.dealt_hands, deal.dealt_skat)
    with pytest.raises(WrongPhase):  # the auction: a penalty names no game
        deal.apply(TimeOut(1, contract=Contract(GameType.CLUBS)))
    assert deal.history == []


@pytest.mark.parametrize(("old", "new", "words"), [
    ("0 ?? w LE.1", "0 ?? 1 DA", "followed by the server's time-out or leave"),
    ("0 ?? w LE.1", "0 ??", "followed by the server's time-out or leave"),
    ("0 ?? w LE.1", "1 ?? w LE.1", "not to play"),
    ("w LE.1", "w LE.7", "names seat 0, 1 or 2"),
])
def test_malformed_unusual_records_get_a_clear_error(old: str, new: str, words: str) -> None:
    line = BY_ID["18358"]
    assert line.count(old) == 1
    with pytest.raises(RecordError) as caught:
        replay(parse_record(line.replace(old, new)))
    assert caught.value.record_id == "18358" and words in caught.value.reason


def test_a_time_out_before_the_discard_by_another_seat_is_refused() -> None:
    line = BY_ID["10330141"].replace("1 C w TI.1", "1 C w TI.2")
    with pytest.raises(RecordError) as caught:
        replay(parse_record(line))
    assert "seat 1 still owes the two discards" in caught.value.reason


def test_a_penalty_result_with_a_declarer_is_unreadable() -> None:
    line = BY_ID["8"].replace("d:-1 penalty", "d:1 penalty")
    with pytest.raises(RecordError) as caught:
        parse_record(line)
    assert "unreadable result" in caught.value.reason


def test_the_replay_command_reads_them_and_names_a_penalty() -> None:
    done = subprocess.run([sys.executable, "-m", "skatbot.records", "replay",
                           str(ROOT / "tests" / "data" / "iss" / "unusual-records.sgf")],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(p["id"], p["game"], p["score"]) for p in printed] == [
        ("8", "penalty", 0), ("30", "penalty", 0), ("18358", "grand", 96), ("10330141", "clubs", -288)]
