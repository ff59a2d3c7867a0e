"""ISS game records: every recorded result reproduced, export/import exact, JSON, bad records, the CLI.

The corpus (tests/data/iss/games.sgf) holds 29 real server games; each `R[...]` field is the server's
own result, so every field is compared against the engine's replay.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatbot.engine import (
    KONTRA,
    OFFICIAL,
    PASS,
    PICK_UP,
    Bid,
    Card,
    Contract,
    Deal,
    Declare,
    Ending,
    GameType,
    Phase,
    RuleSet,
    TimeOut,
    parse_cards,
)
from skatbot.engine.records import (
    IssResult,
    RecordError,
    contract_letters,
    deal_from_json,
    deal_to_json,
    export_record,
    parse_record,
    replay,
)
from skatbot.engine.records import json as json_records

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "iss" / "games.sgf"
LINES = [line for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
BY_ID = {parse_record(line).id: line for line in LINES}
SUMMARY_KEYS = ["id", "declarer", "game", "hand", "ouvert", "won", "overbid", "schneider", "schwarz", "score",
                "matadors", "declarer_points", "declarer_tricks", "seat_scores"]


def raw_result(line: str) -> dict[str, str]:
    """The R field read independently of the module under test: `key:value` pairs and bare words."""
    found = re.search(r"\]R\[([^\]]*)\]", line)
    assert found is not None, line
    text = found.group(1)
    out: dict[str, str] = {}
    for word in text.split():
        key, colon, value = word.partition(":")
        out[key if colon else word] = value if colon else "yes"
    return out


def with_moves(line: str, old: str, new: str) -> str:
    """The record with one stretch of its text replaced (it must occur exactly once)."""
    assert line.count(old) == 1, old
    return line.replace(old, new)


def replay_error(line: str) -> RecordError:
    with pytest.raises(RecordError) as caught:
        replay(parse_record(line))
    return caught.value


def test_the_corpus_has_29_records() -> None:
    assert len(LINES) == 29 and len(BY_ID) == 29


# --- conformance -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("record_id", list(BY_ID))
def test_record_replays_to_its_recorded_result(record_id: str) -> None:
    line = BY_ID[record_id]
    deal = replay(parse_record(line))
    assert deal.is_over
    result, recorded = deal.result, raw_result(line)
    if "passed" in recorded:
        assert result.passed and result.declarer is None and result.score == 0
        return
    assert result.declarer == int(recorded["d"])
    assert result.won == ("win" in recorded) and ("win" in recorded) != ("loss" in recorded)
    assert result.score == int(recorded["v"])
    assert result.matadors == int(recorded["m"])
    assert result.overbid == ("overbid" in recorded) and ("overbid" in recorded) != ("bidok" in recorded)
    assert result.declarer_points == int(recorded["p"])
    assert result.declarer_tricks == int(recorded["t"])
    assert result.schneider == (recorded["s"] == "1")
    assert result.schwarz == (recorded["z"] == "1")
    assert (deal.timed_out if deal.timed_out is not None else -1) == int(recorded.get("to", "-1"))
    if "r" in recorded:
        conceded = deal.ending in (Ending.DECLARER_CONCEDED, Ending.DEFENDERS_CONCEDED, Ending.CLAIMED)
        assert conceded == (recorded["r"] == "1")
    assert result.seat_scores[result.declarer] == result.score
    assert sum(result.seat_scores) == result.score


@pytest.mark.parametrize("record_id", list(BY_ID))
def test_parsed_result_field_matches_the_text(record_id: str) -> None:
    line = BY_ID[record_id]
    parsed, recorded = parse_record(line).result, raw_result(line)
    assert parsed is not None
    if parsed.passed:
        assert recorded == {"passed": "yes"}
        return
    assert (parsed.declarer, parsed.score, parsed.matadors) == (int(recorded["d"]), int(recorded["v"]),
                                                                 int(recorded["m"]))
    computed = IssResult.of_deal(replay(parse_record(line)))
    if "r" not in recorded:  # older servers did not write r: (ended by resignation)
        computed = dataclasses.replace(computed, resigned=False)
    assert computed == parsed


# --- conventions the records follow ------------------------------------------------------------------------

def test_parsed_record_structure() -> None:
    record = parse_record(BY_ID["6997010"])
    assert record.players == ("theCount", "blkkjk", "zoot")
    assert record.hands[0] == tuple(parse_cards("HQ.HA.H7.CT.ST.SK.SA.HJ.CJ.CK"))
    assert record.skat == tuple(parse_cards("DA.C9"))
    assert record.moves[:3] == (("1", "p"), ("2", "18"), ("0", "y"))
    assert record.field("SE") == "344037"


def test_discards_with_the_contract_and_the_skat_reveal() -> None:
    deal = replay(parse_record(BY_ID["6997010"]))
    assert deal.picked_up and deal.discarded == tuple(parse_cards("H7.HQ"))
    assert deal.contract == Contract(GameType.GRAND) and deal.bid == 46


@pytest.mark.parametrize("record_id, discards", [("10327743", "SK.S7"), ("596891", "D9.DQ")])
def test_discards_as_the_seats_next_move(record_id: str, discards: str) -> None:
    deal = replay(parse_record(BY_ID[record_id]))
    assert deal.discarded == tuple(parse_cards(discards))


def test_null_ouvert_after_pickup_names_its_discards() -> None:
    deal = replay(parse_record(BY_ID["1390253"]))
    assert deal.contract == Contract(GameType.NULL, ouvert=True)
    assert deal.discarded == tuple(parse_cards("HA.HQ")) and deal.result.declarer_points == 14
    assert deal.ending is Ending.DEFENDERS_CONCEDED


def test_claim_changes_nothing_and_play_goes_on() -> None:
    deal = replay(parse_record(BY_ID["6997012"]))  # 1 SC 1 CJ 0 RE 2 RE
    assert deal.claimed and deal.ending is Ending.CLAIMED
    assert deal.current_trick == [(1, Card.parse("CJ"))] and len(deal.tricks) == 4
    assert deal.trick_count(1) == 7, "one trick won, then the open one and five unplayed"


def test_record_ending_on_one_defenders_resignation_counts_as_both() -> None:
    record = parse_record(BY_ID["272095"])
    assert record.moves[-1] == ("2", "RE")
    deal = replay(record)
    assert deal.claimed and deal.ending is Ending.CLAIMED and deal.conceded == {1, 2}  # '0 SC' came first
    unfinished = replay(record, complete=False)
    assert not unfinished.is_over and unfinished.conceded == {2}


def test_server_time_out_gives_the_rest_to_the_other_side() -> None:
    deal = replay(parse_record(BY_ID["136415"]))
    assert deal.ending is Ending.TIME_OUT and deal.timed_out == 2
    assert deal.history[-1] == (None, TimeOut(2))


@pytest.mark.parametrize("record_id, contract", [
    ("727", Contract(GameType.GRAND, True, True, True, True)),
    ("26496", Contract(GameType.CLUBS, True, True, True)),
    ("25", Contract(GameType.NULL, True, ouvert=True)),
    ("13577", Contract(GameType.CLUBS, True, True, True, True)),
    ("6997013", Contract(GameType.GRAND, True)),
])
def test_hand_contract_letters(record_id: str, contract: Contract) -> None:
    deal = replay(parse_record(BY_ID[record_id]))
    assert deal.contract == contract and not deal.picked_up


@pytest.mark.parametrize("contract, letters", [
    (Contract(GameType.GRAND), "G"), (Contract(GameType.CLUBS, True, True, True), "CHZ"),
    (Contract(GameType.GRAND, True, True, True, True), "GO"), (Contract(GameType.NULL, True, ouvert=True), "NHO"),
    (Contract(GameType.HEARTS, True, True), "HHS"), (Contract(GameType.NULL, ouvert=True), "NO"),
])
def test_contract_letters_leave_out_what_the_rules_imply(contract: Contract, letters: str) -> None:
    assert contract_letters(contract) == letters


def test_ouvert_shown_cards_must_be_the_declarers() -> None:
    line = BY_ID["727"]  # 0 GO: grand ouvert hand by forehand
    hand = "HJ.HA.DJ.HQ.SA.H7.CA.CJ.HT.H8"
    deal = replay(parse_record(with_moves(line, "0 GO ", f"0 GO.{hand} ")))
    assert deal.contract is not None and deal.contract.ouvert
    error = replay_error(with_moves(line, "0 GO ", "0 GO.D7 "))
    assert error.move == "0 GO.D7" and "shown cards" in error.reason
    error = replay_error(with_moves(line, "0 GO ", f"0 GH.{hand} "))
    assert error.move == f"0 GH.{hand}" and "only an ouvert" in error.reason


def test_hand_letter_after_a_pickup_is_refused() -> None:
    error = replay_error(with_moves(BY_ID["6997010"], "0 G.H7.HQ", "0 GH.H7.HQ"))
    assert error.record_id == "6997010" and error.move == "0 GH.H7.HQ" and "hand" in error.reason


# --- malformed records -----------------------------------------------------------------------------------

LINE = BY_ID["6997010"]


@pytest.mark.parametrize("old, new, move, words", [
    ("1 S9 2 DJ", "1 SX 2 DJ", "1 SX", "not a card"),  # bad card in a play
    ("2 18 0 y", "2 19 0 y", "2 19", "ladder"),  # not a bid value
    ("1 S9 2 DJ", "1 SJ 2 DJ", "1 SJ", "not in your hand"),  # a card another seat holds
    ("0 CJ 1 S9", "1 S9 0 CJ", "1 S9", "not your turn"),  # out of turn
    ("0 ST 1 SQ 2 S7", "0 ST 1 SQ 2 DJ", "2 DJ", "not in your hand"),  # already played
    ("0 G.H7.HQ", "0 X.H7.HQ", "0 X.H7.HQ", "unknown contract"),
    ("0 G.H7.HQ", "0 GQ.H7.HQ", "0 GQ.H7.HQ", "unknown contract"),
    ("0 G.H7.HQ", "0 G.H7", "0 G.H7", "two discards"),
    ("w DA.C9", "w DA.C8", "w DA.C8", "does not match"),
    ("1 p 2 18", "1 x 2 18", "1 x", "auction"),
    ("2 DK ]", "2 DK w TI.1 ]", "w TI.1", "after the end"),
    ("0 CJ 1 S9", "0 CJ w 7 1 S9", "w 7", "unexpected server move"),
    ("0 CJ 1 S9", "0 CJ 3 S9", "3 S9", "unknown actor"),
])
def test_malformed_or_illegal_move_names_record_and_move(old: str, new: str, move: str, words: str) -> None:
    line = with_moves(LINE, old, new)
    with pytest.raises(RecordError) as caught:
        replay(parse_record(line))
    error = caught.value
    assert error.record_id == "6997010" and error.move == move
    assert words in error.reason.lower() or words in str(error).lower()
    assert "6997010" in str(error) and move in str(error)


def test_follow_suit_refusal_names_the_move() -> None:
    # trick 1 of 6997011: 0 DA 1 D7 2 DJ -- middlehand holds D7 and may not throw a club instead
    error = replay_error(with_moves(BY_ID["6997011"], "0 DA 1 D7 2 DJ", "0 DA 1 C7 2 DJ"))
    assert error.move == "1 C7" and "follow" in error.reason


def test_bad_card_in_the_deal() -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(LINE.replace("w HQ.HA", "w HX.HA"))
    assert caught.value.record_id == "6997010" and (caught.value.move or "").startswith("w HX.HA")
    assert "'HX'" in caught.value.reason


def test_duplicate_card_in_the_deal() -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(LINE.replace("DA.C9 1 p", "DA.HQ 1 p"))
    assert caught.value.record_id == "6997010" and (caught.value.move or "").startswith("w HQ.HA")
    assert "twice: HQ" in caught.value.reason


def test_truncated_moves() -> None:
    line = with_moves(LINE, " 0 CK 1 C7 2 CQ 0 C9", " 0 CK 1 C7 ]R[d:0 win] ;)").split(" ;)")[0] + " ;)"
    line = re.sub(r"\]R\[[^\]]*\]", "]", line)
    error = replay_error(line)
    assert error.record_id == "6997010" and error.move == "1 C7" and "before the game is over" in error.reason
    deal = replay(parse_record(line), complete=False)
    assert deal.phase is Phase.PLAY and deal.current_seat == 2


def test_truncated_line() -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(LINE[: len(LINE) // 2])
    assert caught.value.record_id == "6997010" and "truncated" in caught.value.reason


@pytest.mark.parametrize("text, words", [
    ("(;GM[Skat]MV[w CJ] ;)", "no ID"),
    ("(;GM[Chess]ID[5]MV[w CJ] ;)", "not a skat record"),
    ("(;GM[Skat]ID[5] ;)", "no moves"),
    ("(;GM[Skat]ID[5]MV[w] ;)", "pairs"),
    ("(;GM[Skat]ID[5]ID[6]MV[w CJ] ;)", "twice"),
    ("(;GM[Skat]ID[5]MV[w CJ.SJ] ;)", "32 cards"),
    ("(;GM[Skat]ID[5]MV[1 p] ;)", "server's deal"),
    ("(;GM[Skat]ID[5] junk MV[w CJ] ;)", "unreadable"),
])
def test_malformed_record_text(text: str, words: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    assert words.lower() in str(caught.value).lower()


def test_unreadable_result_field() -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(re.sub(r"\]R\[[^\]]*\]", "]R[d:0 win v:48]", LINE))
    assert caught.value.record_id == "6997010" and "result" in caught.value.reason


# --- export -> import -> replay ---------------------------------------------------------------------------

def assert_same_deal(first: Deal, second: Deal) -> None:
    assert second.history == first.history
    assert second.dealt_hands == first.dealt_hands and second.dealt_skat == first.dealt_skat
    assert second.phase is first.phase
    if first.is_over:
        assert second.result == first.result


@pytest.mark.parametrize("record_id", list(BY_ID))
def test_export_import_replay_is_exact_for_every_record(record_id: str) -> None:
    record = parse_record(BY_ID[record_id])
    deal = replay(record)
    line = export_record(deal, record.id, record.players, date="2026-01-01")
    again = parse_record(line)
    assert again.id == record.id and again.players == record.players and again.field("DT") == "2026-01-01"
    replayed = replay(again)
    assert_same_deal(deal, replayed)
    assert export_record(replayed, record.id, record.players, date="2026-01-01") == line
    assert again.result == IssResult.of_deal(deal)


def random_deal(seed: int, rules: RuleSet = OFFICIAL) -> Deal:
    """A deal driven by random legal actions, now and then a claim, concession or time-out; some stop early."""
    rng = random.Random(seed)
    deal = Deal.new(seed, rules)
    stop_after = rng.randrange(60) if rng.random() < 0.2 else None
    while not deal.is_over and len(deal.history) != stop_after:
        if deal.phase is Phase.PLAY and deal.declarer is not None and rng.random() < 0.04:
            seat = rng.randrange(3)
            if rng.random() < 0.3:
                deal.apply(TimeOut(seat))
            elif deal.side_actions(seat):
                deal.apply(rng.choice(deal.side_actions(seat)), seat)
            continue
        actions = deal.legal_actions()
        if deal.phase is Phase.SKAT and rng.random() < 0.5:
            deal.apply(PICK_UP)
        elif deal.phase is Phase.AUCTION and rng.random() < 0.4:
            deal.apply(actions[-1])  # pass
        else:
            deal.apply(rng.choice(actions))
    return deal


@settings(max_examples=150)
@given(st.integers(min_value=0, max_value=2**32))
def test_export_import_replay_is_exact_for_random_deals(seed: int) -> None:
    deal = random_deal(seed)
    line = export_record(deal, str(seed), ("A]b", "c\\d", "e f"))
    record = parse_record(line)
    assert record.players == ("A]b", "c\\d", "e f")
    replayed = replay(record, complete=False)
    assert_same_deal(deal, replayed)
    assert export_record(replayed, str(seed), ("A]b", "c\\d", "e f")) == line
    assert (record.result is not None) == deal.is_over


def test_export_refuses_what_iss_cannot_write() -> None:
    deal = Deal.new(3, RuleSet(kontra=True))
    for action in (Bid(18), PASS, PASS, Declare(Contract(GameType.GRAND, hand=True))):
        deal.apply(action)
    deal.apply(KONTRA, seat=0)
    with pytest.raises(RecordError) as caught:
        export_record(deal, "k1")
    assert caught.value.record_id == "k1" and caught.value.move == "kontra"


def test_export_refuses_musik() -> None:
    for seed in range(200):  # a deal whose middlehand may announce Musik in a hand game
        deal = Deal.new(seed, RuleSet.preset("danish"))
        for action in (Bid(18), PASS, PASS):
            deal.apply(action)
        musik = [a for a in deal.legal_actions() if isinstance(a, Declare) and a.contract.musik]
        if musik:
            break
    deal.apply(musik[0])
    with pytest.raises(RecordError) as caught:
        export_record(deal, "m1")
    assert caught.value.record_id == "m1" and "Musik" in caught.value.reason


def test_export_refuses_ramsch() -> None:
    deal = Deal.new(4, RuleSet.preset("pub"))
    for _ in range(3):
        deal.apply(deal.legal_actions()[-1])  # pass, pass, pass
    assert deal.contract is not None and deal.contract.game is GameType.RAMSCH
    with pytest.raises(RecordError, match="ramsch"):
        export_record(deal, "r1")


# --- JSON -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("record_id", list(BY_ID))
def test_json_round_trip_for_every_record(record_id: str) -> None:
    deal = replay(parse_record(BY_ID[record_id]))
    data = deal_to_json(deal, record_id)
    text = json.dumps(data)
    assert_same_deal(deal, deal_from_json(json.loads(text)))
    assert data["version"] == 1 and data["id"] == record_id and len(data["hands"]) == 3


@settings(max_examples=100)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(["official", "pub", "danish", "tournament"]))
def test_json_round_trip_for_random_deals(seed: int, preset: str) -> None:
    deal = random_deal(seed, RuleSet.preset(preset))
    text = json_records.dumps(deal)
    again = json_records.loads(text)
    assert_same_deal(deal, again)
    assert again.rules == deal.rules and again.seed == seed
    assert json_records.dumps(again) == text


def test_json_with_only_a_seed_deals_the_cards() -> None:
    deal = Deal.new(11)
    again = deal_from_json({"version": 1, "seed": 11, "actions": [[1, "pass"], [2, "pass"], [0, "pass"]]})
    assert again.dealt_hands == deal.dealt_hands and again.result.passed


@pytest.mark.parametrize("change, words", [
    ({"version": 2}, "version"),
    ({"hands": [["CJ"]]}, "hands"),
    ({"skat": ["XX", "CJ"]}, "not an iss card"),
    ({"rules": {"colour": "red"}}, "rules"),
    ({"rules": {"kontra": "yes"}}, "rules"),
    ({"seed": "7"}, "seed"),
    ({"actions": [[1, "bid 19"]]}, "'1 bid 19'"),
    ({"actions": [[0, "bid 18"]]}, "'0 bid 18'"),
    ({"actions": [[1, "fly away"]]}, "'1 fly away'"),
    ({"actions": [[5, "pass"]]}, "[5, 'pass']"),
])
def test_malformed_json_deal(change: dict[str, object], words: str) -> None:
    data = deal_to_json(Deal.new(7), "j7")
    data.update(change)
    with pytest.raises(RecordError) as caught:
        deal_from_json(data)
    assert "record j7" in str(caught.value) and words in str(caught.value).lower()


def test_json_text_that_is_not_json() -> None:
    with pytest.raises(RecordError, match="not JSON"):
        json_records.loads("{nope")


def test_deal_with_repeated_cards_in_json() -> None:
    data = deal_to_json(Deal.new(7))
    data["skat"] = [data["hands"][0][0], data["hands"][0][1]]
    with pytest.raises(RecordError, match="exactly once"):
        deal_from_json(data)


# --- command line ----------------------------------------------------------------------------------------

def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skatbot.records", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_cli_replays_the_corpus() -> None:
    done = run_cli("replay", str(CORPUS))
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["id"] for row in rows] == list(BY_ID)
    for row in rows:
        assert list(row) == SUMMARY_KEYS
        recorded = raw_result(BY_ID[row["id"]])
        if "passed" in recorded:
            assert row["game"] == "passed" and row["declarer"] is None and row["seat_scores"] == [0, 0, 0]
            continue
        assert (row["declarer"], row["score"], row["matadors"]) == (
            int(recorded["d"]), int(recorded["v"]), int(recorded["m"]))
        assert (row["declarer_points"], row["declarer_tricks"]) == (int(recorded["p"]), int(recorded["t"]))
        assert (row["won"], row["overbid"]) == ("win" in recorded, "overbid" in recorded)
        assert (row["schneider"], row["schwarz"]) == (recorded["s"] == "1", recorded["z"] == "1")
        assert row["seat_scores"][row["declarer"]] == row["score"]
        assert all(isinstance(row[key], bool) for key in ("hand", "ouvert", "won", "overbid", "schneider"))
    by_id = {row["id"]: row for row in rows}
    assert by_id["727"]["game"] == "grand" and by_id["727"]["hand"] and by_id["727"]["ouvert"]


def test_cli_one_good_one_bad_record(tmp_path: Path) -> None:
    bad = with_moves(BY_ID["6997011"], "1 S8 2 HJ", "1 S8 2 HX")
    path = tmp_path / "two.sgf"
    path.write_text(BY_ID["6997010"] + "\n\n" + bad + "\n", encoding="utf-8")
    done = run_cli("replay", str(path))
    assert done.returncode != 0
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["id"] for row in rows] == ["6997010"]
    assert "6997011" in done.stderr and "2 HX" in done.stderr and "6997010" not in done.stderr


def test_cli_malformed_record_alone(tmp_path: Path) -> None:
    path = tmp_path / "bad.sgf"
    path.write_text(with_moves(LINE, "0 G.H7.HQ", "0 Q.H7.HQ") + "\n", encoding="utf-8")
    done = run_cli("replay", str(path))
    assert done.returncode != 0 and done.stdout == ""
    assert "6997010" in done.stderr and "0 Q.H7.HQ" in done.stderr


def test_cli_rules_option_and_missing_file(tmp_path: Path) -> None:
    assert run_cli("replay", "--rules", "official", str(CORPUS)).returncode == 0
    refused = run_cli("replay", "--rules", "nonsense", str(CORPUS))
    assert refused.returncode == 2 and "official" in refused.stderr and refused.stdout == ""
    missing = run_cli("replay", str(tmp_path / "none.sgf"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
