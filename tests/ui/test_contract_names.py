"""Contract names read as each language's players say them: the ouvert word straight after the game, the
hand word after it with no comma ("Null ouvert Hand", "Nolo åbent på hånden", "Null ouvert de la main"),
the official ouvert game by its short name ("Grand ouvert"), announcements last."""

from __future__ import annotations

import pytest

from skatbot.engine import Contract, GameType
from skatbot.ui.cards import GERMAN, contract_name, fill_pattern
from skatbot.ui.languages import Lang

NULL_OUVERT_HAND = Contract(GameType.NULL, hand=True, ouvert=True)


@pytest.mark.parametrize(("lang", "name"), [("en", "Null ouvert hand"), ("de", "Null ouvert Hand"),
                                            ("da", "Nolo åbent på hånden"), ("fr", "Null ouvert de la main")])
def test_null_ouvert_hand_in_each_language(lang: Lang, name: str) -> None:
    assert contract_name(NULL_OUVERT_HAND, lang) == name


@pytest.mark.parametrize(("contract", "lang", "name"), [
    (Contract(GameType.NULL, hand=True), "de", "Null Hand"),
    (Contract(GameType.NULL, ouvert=True), "da", "Nolo åbent"),
    (Contract(GameType.GRAND, True, True, True, ouvert=True), "de", "Grand ouvert"),
    (Contract(GameType.GRAND, True, True, True, ouvert=True), "fr", "Grand ouvert"),
    (Contract(GameType.GRAND, True, schneider=True), "de", "Grand Hand, Schneider angesagt"),
    (Contract(GameType.GRAND, True, True, True), "fr", "Grand de la main, schwarz annoncé"),
    (Contract(GameType.SPADES, True, schneider=True), "da", "♠ Spar på hånden, skrædder meldt"),
    (Contract(GameType.CLUBS, True), "en", "♣ Clubs hand"),
    (Contract(GameType.HEARTS), "en", "♥ Hearts"),
])
def test_parts_in_the_languages_order(contract: Contract, lang: Lang, name: str) -> None:
    assert contract_name(contract, lang) == name


def test_danish_open_play_keeps_what_is_not_implied() -> None:
    """Under the Danish house rule an open suit game need not be hand or schwarz: the name says so."""
    assert contract_name(Contract(GameType.CLUBS, ouvert=True), Lang("de"), GERMAN) == "Eichel ouvert"
    assert contract_name(Contract(GameType.GRAND, True, ouvert=True), Lang("da")) == "Grand åbent på hånden"
    assert contract_name(Contract(GameType.GRAND, True, schneider=True, ouvert=True), Lang("en")) == \
        "Grand ouvert hand, schneider announced"


def test_an_empty_part_takes_its_separator_along() -> None:
    pattern = "{game} {ouvert} {hand}, {announced}, {musik}"
    assert fill_pattern(pattern, {"game": "Grand", "musik": "Musik"}) == "Grand, Musik"
    assert fill_pattern(pattern, {"game": "Grand"}) == "Grand"
    assert fill_pattern("{hand} {game}", {"game": "Grand", "hand": ""}) == "Grand"
