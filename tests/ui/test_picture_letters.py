"""Card pictures speak the reader's language: the French deck's court cards and aces carry the letters of the
hand's owner (DM pictures) or of the server (the trick sheet under the result); the German deck its own figures."""

from __future__ import annotations

from skatbot.engine import Deal, RuleSet
from skatbot.engine.views import seat_view
from skatbot.pictures import cards_shown
from skatbot.ui.cards import FRENCH, GERMAN, rank_letters
from skatbot.ui.languages import CODES, Lang
from skatbot.ui.pictures import hand_key, hand_shown


def court_hand_deal() -> tuple[Deal, int]:
    """A fresh deal and a seat whose hand holds court cards and aces (seed 7's forehand holds several)."""
    deal = Deal.new(7, RuleSet())
    return deal, 0


async def test_a_hand_picture_shows_its_owners_letters_and_is_redrawn_for_another_language() -> None:
    deal, seat = court_hand_deal()
    pictures = {lang: await hand_shown(seat_view(deal, seat), FRENCH, lang) for lang in CODES}
    assert len({shown.picture.png for shown in pictures.values()}) == 4  # J, B/D/K/A, B/D/K/E, V/D/R/A
    assert len({shown.key for shown in pictures.values()}) == 4  # so a language change redraws it
    for lang, shown in pictures.items():
        assert shown.key == hand_key(seat_view(deal, seat), FRENCH, lang)
        assert cards_shown(shown.picture.png) == tuple(shown.picture.cards)  # the same cards, only lettered
    assert {shown.picture.cards for shown in pictures.values()} == {pictures[Lang("en")].picture.cards}


async def test_the_german_deck_looks_the_same_to_every_reader() -> None:
    deal, seat = court_hand_deal()
    assert len({(await hand_shown(seat_view(deal, seat), GERMAN, lang)).picture.png for lang in CODES}) == 1


def test_the_letters_are_the_catalogs() -> None:
    assert rank_letters("en") == ("J", "Q", "K", "A")
    assert rank_letters("de") == ("B", "D", "K", "A")
    assert rank_letters("da") == ("B", "D", "K", "E")
    assert rank_letters("fr") == ("V", "D", "R", "A")
