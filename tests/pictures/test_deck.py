"""Every card of both decks is drawn, distinct, small enough for Discord, and in its suit's colour."""

from __future__ import annotations

import io
import re

import numpy
import pytest
from PIL import Image, ImageChops, ImageStat

from skatbot.engine import CARDS, Card, Suit
from skatbot.pictures import card_face, emoji_name, emoji_png
from skatbot.pictures.faces import EMOJI_SIZE, emoji_image
from skatbot.pictures.suits import FRENCH, GERMAN, fill_of

DECKS = (FRENCH, GERMAN)


def _strongly_different(a: Image.Image, b: Image.Image) -> int:
    """How many pixels differ by more than a quarter of the grey scale."""
    return sum(ImageChops.difference(a, b).histogram()[65:])


def _difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel, 0..255."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


@pytest.mark.parametrize("deck", DECKS)
def test_every_card_has_a_face_and_an_emoji_of_its_own(deck: str) -> None:
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
def test_cards_can_be_told_apart_at_emoji_size(deck: str) -> None:
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
def test_each_suit_is_in_its_own_colour(deck: str, suit: Suit) -> None:
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
