"""Every card of both decks is drawn, distinct, small enough for Discord, and in its suit's colour."""

from __future__ import annotations

import io
import re

import numpy
import pytest
from PIL import Image, ImageChops, ImageStat

from skatbot.engine import CARDS, Card, Rank, Suit
from skatbot.models import Deck
from skatbot.pictures import card_face, emoji_name, emoji_png
from skatbot.pictures.faces import EMOJI_SIZE, EMOJI_VERSION, emoji_image, rank_text
from skatbot.pictures.hand import hand_picture
from skatbot.pictures.suits import FRENCH, GERMAN, INK

DECKS = (FRENCH, GERMAN)


def fill_of(deck: Deck, suit: Suit) -> tuple[int, int, int]:
    """The colour a suit's symbols are filled with in `deck`."""
    return INK[(deck, suit)][0]


def _strongly_different(a: Image.Image, b: Image.Image) -> int:
    """How many pixels differ by more than a quarter of the grey scale."""
    return sum(ImageChops.difference(a, b).histogram()[65:])


def _difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel, 0..255."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


@pytest.mark.parametrize("deck", DECKS)
def test_every_card_has_a_face_and_an_emoji_of_its_own(deck: Deck) -> None:
    faces = [card_face(card, deck, 84) for card in CARDS]
    emojis = [emoji_png(card, deck) for card in CARDS]
    assert {face.size for face in faces} == {(84, 126)}
    assert len({face.tobytes() for face in faces}) == 32
    assert len(set(emojis)) == 32
    for png in emojis:
        assert len(png) < 256 * 1024  # Discord's limit for an emoji image
        with Image.open(io.BytesIO(png)) as image:
            assert image.size == (EMOJI_SIZE, EMOJI_SIZE) and image.format == "PNG"


@pytest.mark.parametrize("deck", DECKS)
def test_cards_can_be_told_apart_at_emoji_size(deck: Deck) -> None:
    """At 32 px (the smallest size Discord shows an emoji) no two cards look nearly alike."""
    small = {card: emoji_image(card, deck).resize((32, 32), Image.Resampling.LANCZOS).convert("L") for card in CARDS}
    closest = min((_strongly_different(small[a], small[b]), a, b) for a in CARDS for b in CARDS
                  if a.index < b.index)
    assert closest[0] >= 6, f"{closest[1]} and {closest[2]} look alike at 32 px"


def test_the_two_decks_differ() -> None:
    for card in CARDS:
        assert _difference(emoji_image(card, FRENCH), emoji_image(card, GERMAN)) > 1, card


def _share_of_colour(image: Image.Image, colour: tuple[int, int, int]) -> float:
    """The share of pixels within a small distance of `colour`."""
    pixels = numpy.asarray(image.convert("RGB"), dtype=int).reshape(-1, 3)
    near = numpy.abs(pixels - numpy.array(colour)).sum(axis=1) < 60
    return float(near.mean())


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("suit", list(Suit))
def test_each_suit_is_in_its_own_colour(deck: Deck, suit: Suit) -> None:
    """Four colours: ♣ black, ♠ green, ♥ red, ♦ yellow-orange (Eichel brown, Grün, Rot, Schellen gold)."""
    card = Card(suit, CARDS[0].rank)
    image = emoji_image(card, deck)
    own = _share_of_colour(image, fill_of(deck, suit))
    assert own > 0.03
    for other in Suit:
        if other is not suit:
            assert _share_of_colour(image, fill_of(deck, other)) < own / 2, (suit, other)


def test_the_four_french_colours_are_the_tournament_colours() -> None:
    red, green, blue = fill_of(FRENCH, Suit.HEARTS)
    assert red > 180 and green < 60 and blue < 60
    red, green, blue = fill_of(FRENCH, Suit.SPADES)
    assert green > red + 60 and green > blue + 60
    assert max(fill_of(FRENCH, Suit.CLUBS)) < 40
    red, green, blue = fill_of(FRENCH, Suit.DIAMONDS)
    assert red > 200 and green > 120 and blue < 60


def test_emoji_names_follow_discords_rules_and_are_unique() -> None:
    names = [emoji_name(card, deck) for deck in DECKS for card in CARDS]
    assert len(set(names)) == 64
    assert all(re.fullmatch(r"[A-Za-z0-9_]{2,32}", name) for name in names)


LETTERS = {"en": ("J", "Q", "K", "A"), "de": ("B", "D", "K", "A"), "da": ("B", "D", "K", "E"), "fr": ("V", "D", "R", "A")}
"""Jack, queen, king, ace as the rules texts letter the French deck: English, German (Bube, Dame, König, Ass),
Danish (bonde, dame, konge, es), French (valet, dame, roi, as)."""
COURT = (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)


@pytest.mark.parametrize("suit", list(Suit))
def test_the_french_deck_shows_the_letters_of_the_readers_language(suit: Suit) -> None:
    """Two languages draw a court card or ace alike exactly when they letter it alike (German and Danish jacks
    are both B, the English and German kings K, the Danish ace E is its own); the pips are the same everywhere."""
    for position, rank in enumerate(COURT):
        card = Card(suit, rank)
        for a in LETTERS:
            for b in LETTERS:
                same_letter = LETTERS[a][position] == LETTERS[b][position]
                same_face = card_face(card, FRENCH, 84, LETTERS[a]).tobytes() == \
                    card_face(card, FRENCH, 84, LETTERS[b]).tobytes()
                same_tile = emoji_image(card, FRENCH, LETTERS[a]).tobytes() == \
                    emoji_image(card, FRENCH, LETTERS[b]).tobytes()
                assert same_face == same_tile == same_letter, (card, a, b)
                assert (emoji_name(card, FRENCH, LETTERS[a]) == emoji_name(card, FRENCH, LETTERS[b])) == same_letter
    for rank in (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN):
        card = Card(suit, rank)
        assert len({card_face(card, FRENCH, 84, letters).tobytes() for letters in LETTERS.values()}) == 1
        assert len({emoji_name(card, FRENCH, letters) for letters in LETTERS.values()}) == 1


def test_the_german_deck_keeps_its_figures_in_every_language() -> None:
    for card in CARDS:
        assert len({card_face(card, GERMAN, 84, letters).tobytes() for letters in LETTERS.values()}) == 1
        assert len({emoji_name(card, GERMAN, letters) for letters in LETTERS.values()}) == 1
        assert rank_text(card, GERMAN, LETTERS["fr"]) == rank_text(card, GERMAN)


def test_english_faces_keep_their_emoji_names() -> None:
    """The emojis uploaded before the languages had faces of their own are still the English ones."""
    assert emoji_name(Card.parse("CJ"), FRENCH) == f"sk{EMOJI_VERSION}_f_CJ"
    assert emoji_name(Card.parse("ST"), FRENCH, LETTERS["da"]) == f"sk{EMOJI_VERSION}_f_ST"
    assert emoji_name(Card.parse("HA"), FRENCH, LETTERS["da"]) == f"sk{EMOJI_VERSION}_f_HE"
    assert emoji_name(Card.parse("DQ"), GERMAN, LETTERS["fr"]) == f"sk{EMOJI_VERSION}_g_DQ"


@pytest.mark.parametrize("lang", ["de", "da", "fr"])
def test_a_hand_picture_is_drawn_in_its_owners_letters(lang: str) -> None:
    court = [Card.parse(code) for code in ("CJ", "SQ", "HK", "DA")]
    pips = [Card.parse(code) for code in ("C7", "S8", "H9", "DT")]
    assert hand_picture(court, FRENCH, letters=LETTERS[lang]).png != hand_picture(court, FRENCH).png
    assert hand_picture(pips, FRENCH, letters=LETTERS[lang]).png == hand_picture(pips, FRENCH).png
    assert hand_picture(court, GERMAN, letters=LETTERS[lang]).png == hand_picture(court, GERMAN).png
