"""The value calculator against the worked examples of the rules texts (shared/seeds/README.md)."""

from __future__ import annotations

import pytest

from skatbot.engine import GameType
from skatbot.engine.rules import PRESETS
from skatbot.models import Deck
from skatbot.ui.calculator import ValueInputError, ValueQuestion, answer
from skatbot.ui.languages import Lang
from skatbot.ui.server_text import value_text

CLUBS, SPADES, HEARTS, GRAND, NULL = GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.GRAND, GameType.NULL


def test_clubs_with_two_bid_33_is_worth_36() -> None:
    result = answer(ValueQuestion(CLUBS, matadors=2, bid=33))
    assert (result.multiplier, result.value, result.covers) == (3, 36, True)
    assert (result.won_score, result.lost_score) == (36, -72)
    assert [(step.key, step.total) for step in result.steps] == [("value.step.with", 2), ("value.step.game", 3)]


def test_clubs_with_one_at_bid_33_is_overbid_and_costs_twice_36() -> None:
    result = answer(ValueQuestion(CLUBS, matadors=1, bid=33))
    assert (result.value, result.covers, result.charged, result.lost_score) == (24, False, 36, -72)


def test_null_hand_is_35_and_loses_70() -> None:
    result = answer(ValueQuestion(NULL, hand=True))
    assert (result.value, result.won_score, result.lost_score, result.steps) == (35, 35, -70, ())


def test_spades_with_two_is_33_and_44_schneider() -> None:
    assert answer(ValueQuestion(SPADES, matadors=2)).value == 33
    assert answer(ValueQuestion(SPADES, matadors=2, schneider=True)).value == 44


def test_hearts_against_three_is_40() -> None:
    result = answer(ValueQuestion(HEARTS, matadors=3, against=True, bid=40))
    assert (result.multiplier, result.value, result.covers) == (4, 40, True)
    assert result.steps[0].key == "value.step.against"


def test_grand_ouvert_with_four_is_the_biggest_game() -> None:
    result = answer(ValueQuestion(GRAND, matadors=4, ouvert=True))
    assert (result.multiplier, result.value) == (11, 264)
    assert result.implied == ("value.implied.hand", "value.implied.schwarz")
    assert result.contract.hand and result.contract.schwarz and result.contract.schneider


def test_spades_hand_with_two_won_schneider_is_55() -> None:
    result = answer(ValueQuestion(SPADES, matadors=2, hand=True, schneider=True))
    assert (result.multiplier, result.value) == (5, 55)
    assert [step.total for step in result.steps] == [2, 3, 4, 5]


def test_an_overbid_is_charged_the_lowest_covering_multiple() -> None:
    result = answer(ValueQuestion(HEARTS, matadors=1, bid=36))
    assert (result.value, result.charged, result.lost_score) == (20, 40, -80)


def test_schwarz_made_counts_schneider_too_and_announcements_add_steps() -> None:
    result = answer(ValueQuestion(CLUBS, matadors=1, hand=True, schwarz=True, announced="schwarz"))
    keys = [step.key for step in result.steps]
    assert keys == ["value.step.with", "value.step.game", "value.step.hand", "value.step.schneider",
                    "value.step.schneider_announced", "value.step.schwarz", "value.step.schwarz_announced"]
    assert result.value == 12 * 7


def test_danish_open_play_does_not_imply_hand() -> None:
    result = answer(ValueQuestion(CLUBS, matadors=1, ouvert=True), PRESETS["danish"])
    assert (result.multiplier, result.implied) == (3, ())
    assert answer(ValueQuestion(NULL, hand=True, ouvert=True, bid=69), PRESETS["danish"]).value == 69


@pytest.mark.parametrize(("question", "key"), [
    (ValueQuestion(HEARTS), "value.error.matadors_missing"),
    (ValueQuestion(GRAND, matadors=5), "value.error.matadors_range"),
    (ValueQuestion(CLUBS, matadors=12), "value.error.matadors_range"),
    (ValueQuestion(CLUBS, matadors=1, bid=19), "value.error.bid"),
    (ValueQuestion(NULL, schneider=True), "value.error.null_schneider"),
    (ValueQuestion(NULL, announced="schwarz"), "value.error.null_schneider"),
    (ValueQuestion(CLUBS, matadors=1, announced="schneider"), "value.error.announce_hand"),
    (ValueQuestion(CLUBS, matadors=1, announced="maybe"), "value.error.announced"),
    (ValueQuestion(GameType.RAMSCH), "value.error.ramsch"),
])
def test_bad_questions_are_refused_with_a_catalog_key(question: ValueQuestion, key: str) -> None:
    with pytest.raises(ValueInputError) as refused:
        answer(question)
    assert refused.value.key == key


def test_the_explanation_reads_like_the_rules_texts() -> None:
    english = value_text(answer(ValueQuestion(SPADES, matadors=2, hand=True, schneider=True)), Lang("en"), Deck.FRENCH)
    assert "1. with 2 matadors → 2\n2. game → 3\n3. hand → 4\n4. schneider → 5" in english
    assert "5 ×\u00a011 (base value of ♠ Spades) = **55**" in english
    german = value_text(answer(ValueQuestion(SPADES, matadors=2, hand=True, schneider=True)), Lang("de"), Deck.GERMAN)
    assert "1. mit 2 Spitzen → 2" in german and "(Grundwert von Grün) = **55**" in german
    overbid = value_text(answer(ValueQuestion(CLUBS, matadors=1, bid=33)), Lang("en"), Deck.FRENCH)
    assert "1. with 1 matador → 1" in overbid
    assert "1. mit 1 Spitze → 1" in value_text(answer(ValueQuestion(CLUBS, matadors=1)), Lang("de"), Deck.GERMAN)
    assert "lowest multiple of 12 that reaches the bid, 36, twice: −72" in overbid
