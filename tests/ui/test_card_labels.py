"""Card labels in every language and both decks, and typing them back: what the bot shows, a player can type."""

from __future__ import annotations

import pytest

from skatbot.engine import CARDS, Card, GameType, Rank, Suit
from skatbot.models import Deck
from skatbot.ui.cards import (
    DECLARABLE,
    FRENCH,
    GERMAN,
    card_from_text,
    card_label,
    cards_text,
    game_from_text,
    game_name,
    typed_games,
    typed_labels,
)
from skatbot.ui.i18n import CODES, t
from skatbot.ui.languages import Lang
from skatbot.ui.refusals import CommandRefusal, refusal_reply

COURT = (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
LETTERS = {"en": "JQKA", "de": "BDKA", "da": "BDKE", "fr": "VDRA"}
"""Jack, queen, king, ace as each language letters them: Bube/Dame/König/Ass; bonde/dame/konge/es (the Danish
rules text); valet/dame/roi/as."""


@pytest.mark.parametrize("lang", CODES)
def test_the_french_deck_is_lettered_in_the_readers_language(lang: Lang) -> None:
    for rank, letter in zip(COURT, LETTERS[lang], strict=True):
        assert card_label(Card(Suit.CLUBS, rank), FRENCH, lang) == "♣" + letter
    assert card_label(Card.parse("ST"), FRENCH, lang) == "♠10" and card_label(Card.parse("D7"), FRENCH, lang) == "♦7"
    labels = {card_label(card, FRENCH, lang) for card in CARDS}
    assert len(labels) == 32 and all(label[0] in "♣♠♥♦" for label in labels)


@pytest.mark.parametrize("lang", CODES)
def test_the_german_deck_keeps_its_german_names_in_every_language(lang: Lang) -> None:
    assert card_label(Card.parse("CJ"), GERMAN, lang) == "Ei-U"
    assert card_label(Card.parse("SQ"), GERMAN, lang) == "Gr-O"
    assert card_label(Card.parse("HA"), GERMAN, lang) == "Rot-D"
    assert card_label(Card.parse("D7"), GERMAN, lang) == "Sch-7"
    assert len({card_label(card, GERMAN, lang) for card in CARDS}) == 32


@pytest.mark.parametrize("lang", CODES)
@pytest.mark.parametrize("deck", (FRENCH, GERMAN))
def test_every_suit_is_named_in_every_language(lang: Lang, deck: Deck) -> None:
    names = {game_name(GameType(suit.english), lang, deck) for suit in Suit}
    assert len(names) == 4 and all(name.strip() for name in names)


def test_suit_names_come_from_the_rules_texts() -> None:
    def suits(lang: Lang, deck: Deck) -> list[str]:
        return [game_name(GameType(suit.english), lang, deck) for suit in (Suit.CLUBS, Suit.SPADES, Suit.HEARTS,
                                                                            Suit.DIAMONDS)]
    assert suits(Lang("da"), FRENCH) == ["♣ Klør", "♠ Spar", "♥ Hjerter", "♦ Ruder"]
    assert suits(Lang("fr"), FRENCH) == ["♣ Trèfle", "♠ Pique", "♥ Cœur", "♦ Carreau"]
    assert [name.split(" (")[0] for name in suits(Lang("fr"), GERMAN)] == ["Gland", "Feuille", "Cœur", "Grelot"]


@pytest.mark.parametrize("lang", CODES)
@pytest.mark.parametrize("deck", (FRENCH, GERMAN))
def test_what_the_bot_shows_is_read_back_when_typed(lang: Lang, deck: Deck) -> None:
    for card in CARDS:
        label = card_label(card, deck, lang)
        for typed in (label, label.lower(), label.upper(), f"  {label} ", label.replace("-", " ")):
            assert card_from_text(typed) is card, (lang, deck, typed)
    shown = cards_text(CARDS[:5], deck, lang).split()
    assert [card_from_text(label) for label in shown] == list(CARDS[:5])


def test_the_rank_may_come_before_the_suit_symbol() -> None:
    assert card_from_text("B♣") is Card.parse("CJ")
    assert card_from_text("d ♥") is Card.parse("HQ")
    assert card_from_text("R♦") is Card.parse("DK")
    assert card_from_text("E♠") is Card.parse("SA")


def test_iss_codes_keep_their_meaning() -> None:
    assert card_from_text("DK") is Card.parse("DK")  # diamonds king, not a 'D' (Dame) of some suit
    assert card_from_text("CJ") is Card(Suit.CLUBS, Rank.JACK)


def test_no_typed_form_names_two_cards() -> None:
    forms = typed_labels()  # raises when two languages letter two different ranks alike
    assert len(set(forms.values())) == 32


@pytest.mark.parametrize("text", ["♣X", "♣", "Gr-X", "B", "♣B♣", "Kn♣", "XY"])
def test_text_that_is_no_card_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        card_from_text(text)


# --- game names ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", CODES)
@pytest.mark.parametrize("deck", [FRENCH, GERMAN])
def test_every_game_name_the_bot_shows_is_read_back_when_typed(lang: Lang, deck: Deck) -> None:
    for game in DECLARABLE:
        shown = game_name(game, lang, deck)
        assert game_from_text(shown) is game
        assert game_from_text(f"  {shown.upper()} ") is game
        assert game_from_text(t(lang, f"choice.game.{game.value}")) is game  # the slash command's choice name


@pytest.mark.parametrize(("text", "game"), [
    ("Kreuz", GameType.CLUBS), ("pik", GameType.SPADES), ("Eichel", GameType.CLUBS), ("Grün", GameType.SPADES),
    ("rot", GameType.HEARTS), ("Schellen", GameType.DIAMONDS), ("klør", GameType.CLUBS), ("nolo", GameType.NULL),
    ("Bjælder", GameType.DIAMONDS), ("trefle", GameType.CLUBS), ("Cœur", GameType.HEARTS), ("coeur", GameType.HEARTS),
    ("Acorns", GameType.CLUBS), ("clubs", GameType.CLUBS), ("G", GameType.GRAND), ("null", GameType.NULL)])
def test_game_names_of_every_language_are_understood(text: str, game: GameType) -> None:
    assert game_from_text(text) is game


@pytest.mark.parametrize("text", ["chess", "ramsch", "", "♣", "null ouvert"])
def test_text_that_is_no_game_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        game_from_text(text)


def test_no_typed_form_names_two_games() -> None:
    assert len(set(typed_games().values())) == len(DECLARABLE)


@pytest.mark.parametrize(("lang", "deck", "expected"), [
    ("en", FRENCH, "'chess' is not a game. Choose ♣ Clubs, ♠ Spades, ♥ Hearts, ♦ Diamonds, Grand or Null."),
    ("de", GERMAN, "'chess' ist kein Spiel. Wähle Eichel, Grün, Rot, Schellen, Grand oder Null."),
    ("da", FRENCH, "'chess' er ikke et spil. Vælg ♣ Klør, ♠ Spar, ♥ Hjerter, ♦ Ruder, Grand eller Nolo."),
    ("fr", FRENCH, "'chess' n’est pas un jeu. Choisissez ♣ Trèfle, ♠ Pique, ♥ Cœur, ♦ Carreau, Grand ou Null.")])
def test_the_not_a_game_refusal_names_the_games_as_the_player_does(lang: Lang, deck: Deck, expected: str) -> None:
    assert refusal_reply(CommandRefusal("bad_game", text="chess"), lang, deck) == expected
