"""Card faces and emoji tiles, drawn from code: a corner index (rank and suit) and a large suit symbol.

Drawn three times larger and scaled down, so edges are smooth at 32 px as at card size. Faces are cached
per (card, deck, width, letters): a hand or trick sheet only pastes them. The French deck's court cards and
aces carry the letters of the reader's language (`letters`: J Q K A, B D K A, B D K E, V D R A); the German
deck keeps its own figures (U O K D) in every language.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from skatbot.engine import Card, Rank
from skatbot.models import Deck

from .suits import FRENCH, GERMAN, draw_suit, text_ink

CARD_RATIO = 1.5
"""Height over width of a card face."""
EMOJI_SIZE = 128
"""Discord shows emojis at up to 48 px (128 px is its recommended upload size)."""
EMOJI_VERSION = 1
"""Goes up when the drawing of the emojis changes, so that the bot replaces its uploaded ones."""
_SCALE = 3
RankLetters = tuple[str, str, str, str]
"""Jack, queen, king and ace of the French deck as one language letters them."""
ENGLISH: RankLetters = ("J", "Q", "K", "A")
_PIPS = ("7", "8", "9", "10")
_GERMAN: RankLetters = ("U", "O", "K", "D")
_DECK_LETTER = {FRENCH: "f", GERMAN: "g"}


def deck_letters(deck: Deck, letters: RankLetters) -> RankLetters:
    """The letters a deck's faces show: the reader's for the French deck, Unter Ober König Daus for the German."""
    return _GERMAN if deck == GERMAN else letters


def rank_text(card: Card, deck: Deck, letters: RankLetters = ENGLISH) -> str:
    """The corner index: the pip's number, else the court card's or ace's letter (`deck_letters`)."""
    ranks = _PIPS + deck_letters(deck, letters)
    return ranks[card.rank]


@lru_cache(maxsize=1024)
def emoji_name(card: Card, deck: Deck, letters: RankLetters = ENGLISH) -> str:
    """The application emoji's name, e.g. `sk1_f_CJ`, `sk1_g_ST`, the Danish ace of clubs `sk1_f_CE`: drawing
    version, deck, suit and what the face shows (the ISS rank for the pips and English letters), so a face that
    looks the same in two languages is one emoji (letters, digits and underscores only, as Discord asks)."""
    shown = rank_text(card, deck, letters)
    rank = card.iss[1] if shown in _PIPS or deck == GERMAN else shown
    return f"sk{EMOJI_VERSION}_{_DECK_LETTER[deck]}_{card.iss[0]}{rank}"


@lru_cache(maxsize=16)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _text(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, height: float,
          fill: tuple[int, int, int]) -> None:
    """Text of about `height` pixels (cap height), centred; a thin stroke makes the default font bolder."""
    font = _font(max(6, round(height * 1.38)))
    draw.text(centre, text, font=font, fill=fill, anchor="mm", stroke_width=max(1, round(height / 14)),
              stroke_fill=fill)


def _paper(size: tuple[int, int], radius: int, border: tuple[int, int, int], border_width: int) -> tuple[
        Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=radius, fill=(255, 255, 255),
                           outline=border, width=border_width)
    return image, draw


def card_face(card: Card, deck: Deck = FRENCH, width: int = 84, letters: RankLetters = ENGLISH) -> Image.Image:
    """One card, `width` pixels wide (RGBA, rounded corners). The index sits in the top left corner, large,
    so that it stays readable where cards overlap in a fanned hand."""
    return _face(card, deck, width, deck_letters(deck, letters))


@lru_cache(maxsize=1024)
def _face(card: Card, deck: Deck, width: int, letters: RankLetters) -> Image.Image:
    w, h = width * _SCALE, round(width * CARD_RATIO) * _SCALE
    image, draw = _paper((w, h), radius=w // 10, border=(120, 120, 120), border_width=max(2, w // 60))
    ink = text_ink(deck, card.suit)
    rank = rank_text(card, deck, letters)
    index_w = w * 0.36
    _text(draw, (w * 0.04 + index_w / 2, h * 0.13), rank, w * (0.2 if len(rank) == 1 else 0.17), ink)
    symbol = w * 0.26
    draw_suit(draw, deck, card.suit, (w * 0.04 + (index_w - symbol) / 2, h * 0.24, symbol, symbol))
    if card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING):  # picture cards: a framed rank in the middle
        draw.rounded_rectangle((w * 0.36, h * 0.3, w * 0.92, h * 0.92), radius=w // 16, outline=ink,
                               width=max(2, w // 40))
        _text(draw, (w * 0.64, h * 0.47), rank, w * 0.22, ink)
        big = w * 0.3
        draw_suit(draw, deck, card.suit, (w * 0.64 - big / 2, h * 0.6, big, big))
    else:
        big = w * 0.5
        draw_suit(draw, deck, card.suit, (w * 0.64 - big / 2, h * 0.62 - big / 2, big, big))
    return image.resize((width, round(width * CARD_RATIO)), Image.Resampling.LANCZOS)


def emoji_image(card: Card, deck: Deck = FRENCH, letters: RankLetters = ENGLISH) -> Image.Image:
    """A square tile for an emoji: the rank above, the suit symbol below, both as large as fits."""
    return _tile(card, deck, rank_text(card, deck, letters))


@lru_cache(maxsize=128)
def _tile(card: Card, deck: Deck, rank: str) -> Image.Image:
    s = EMOJI_SIZE * _SCALE
    image, draw = _paper((s, s), radius=s // 7, border=text_ink(deck, card.suit), border_width=s // 24)
    _text(draw, (s * 0.5, s * 0.28), rank, s * (0.32 if len(rank) == 1 else 0.28), text_ink(deck, card.suit))
    symbol = s * 0.44
    draw_suit(draw, deck, card.suit, ((s - symbol) / 2, s * 0.5, symbol, symbol))
    return image.resize((EMOJI_SIZE, EMOJI_SIZE), Image.Resampling.LANCZOS)


def emoji_png(card: Card, deck: Deck = FRENCH, letters: RankLetters = ENGLISH) -> bytes:
    """The emoji's PNG (well under Discord's 256 KiB)."""
    out = io.BytesIO()
    emoji_image(card, deck, letters).save(out, format="PNG", optimize=True)
    return out.getvalue()
