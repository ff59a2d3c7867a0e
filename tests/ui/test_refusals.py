"""Refusal reasons are rendered in the player's language; English stays exactly as the engine says it."""

from __future__ import annotations

import pytest

from skatbot.engine import Bid, Deal, IllegalAction
from skatbot.ui.catalog_de import DE
from skatbot.ui.catalog_en import EN
from skatbot.ui.refusals import REASONS, reason_text

ENGINE_REASONS = [
    "you must follow hearts", "you must follow trumps", "19 is not on the bid ladder (18, 20, 22, 23, 24, 27, ...)",
    "bid more than 20", "you are listening: hold (yes) or pass", "pick up the skat or declare a hand game",
]


def test_every_reason_has_both_languages() -> None:
    for _, key in REASONS:
        assert key in EN and key in DE


@pytest.mark.parametrize("reason", ENGINE_REASONS)
def test_english_is_the_engine_text_and_german_differs(reason: str) -> None:
    assert reason_text(reason, "en") == reason
    assert reason_text(reason, "de") != reason


def test_an_unknown_reason_is_shown_as_it_came() -> None:
    assert reason_text("the moon is in the way.", "de") == "the moon is in the way"


def test_a_real_refusal_from_the_engine_is_translated() -> None:
    deal = Deal.new(7)
    with pytest.raises(IllegalAction) as refused:
        deal.apply(Bid(19))
    assert reason_text(str(refused.value), "de") == "19 ist kein Reizwert (18, 20, 22, 23, 24, 27, …)"
