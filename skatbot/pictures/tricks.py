"""The ten tricks of a finished deal as one sheet: a column per seat, a row per trick, the leader marked
with an arrow, the winner's card framed, and the card points each trick brought; the skat below."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from skatbot.engine import Card, Trick
from skatbot.models import Deck

from .faces import ENGLISH, RankLetters, card_face, deck_letters
from .picture import Picture, encode
from .suits import FRENCH

CARD_WIDTH = 44
CARD_HEIGHT = 66
ROW = 74
COLUMN = 120
LEFT = 34
HEADER = 30
WINNER = (230, 170, 20)
_INK = (230, 232, 236)
_MUTED = (160, 165, 175)
_BACKGROUND = (47, 49, 54, 255)


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _fit(draw: ImageDraw.ImageDraw, text: str, width: int, size: int) -> str:
    """The name shortened with "…" so that it fits the column; characters the bundled font lacks (emoji such
    as the computer players' 🤖) are left out."""
    font = _font(size)
    text = "".join(ch for ch in text if ord(ch) < 0x2000).strip() or "?"
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


@lru_cache(maxsize=64)
def _sheet_png(names: tuple[str, str, str], tricks: tuple[Trick, ...], skat: tuple[Card, ...],
               deck: Deck, skat_label: str, letters: RankLetters) -> bytes:
    width = LEFT + 3 * COLUMN + 60
    height = HEADER + ROW * len(tricks) + (ROW + 6 if skat else 0) + 8
    canvas = Image.new("RGBA", (width, height), _BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    for seat, name in enumerate(names):
        draw.text((LEFT + seat * COLUMN + COLUMN // 2, HEADER // 2), _fit(draw, name, COLUMN - 8, 15),
                  font=_font(15), fill=_INK, anchor="mm")
    for row, trick in enumerate(tricks):
        top = HEADER + row * ROW
        draw.text((LEFT - 8, top + ROW // 2), str(row + 1), font=_font(15), fill=_MUTED, anchor="rm")
        for position, card in enumerate(trick.cards):
            seat = (trick.leader + position) % 3
            x = LEFT + seat * COLUMN + (COLUMN - CARD_WIDTH) // 2
            y = top + (ROW - CARD_HEIGHT) // 2
            if seat == trick.winner:
                draw.rounded_rectangle((x - 4, y - 4, x + CARD_WIDTH + 3, y + CARD_HEIGHT + 3), radius=7,
                                       outline=WINNER, width=3)
            canvas.alpha_composite(card_face(card, deck, CARD_WIDTH, letters), (x, y))
            if position == 0:  # the leader: an arrow left of the card
                ax, ay = x - 10, y + CARD_HEIGHT // 2
                draw.polygon([(ax - 9, ay - 7), (ax, ay), (ax - 9, ay + 7)], fill=_INK)
        draw.text((LEFT + 3 * COLUMN + 30, top + ROW // 2), str(trick.points), font=_font(16),
                  fill=WINNER if trick.points else _MUTED, anchor="mm")
    if skat:
        top = HEADER + ROW * len(tricks) + 6
        draw.line((8, top - 3, width - 8, top - 3), fill=_MUTED, width=1)
        draw.text((LEFT + COLUMN // 2, top + ROW // 2), skat_label, font=_font(15), fill=_MUTED, anchor="mm")
        for index, card in enumerate(skat):
            x = LEFT + COLUMN + 10 + index * (CARD_WIDTH + 10)
            canvas.alpha_composite(card_face(card, deck, CARD_WIDTH, letters), (x, top + (ROW - CARD_HEIGHT) // 2))
    shown = tuple(card for trick in tricks for card in trick.cards) + skat
    return encode(canvas, shown)


def trick_sheet(names: Sequence[str], tricks: Sequence[Trick], skat: Sequence[Card] = (),
                deck: Deck = FRENCH, *, skat_label: str = "Skat", description: str = "",
                letters: RankLetters = ENGLISH) -> Picture:
    """The sheet of a finished deal; `names` by seat (forehand, middlehand, rearhand), the French deck lettered
    with `letters` (the reader's language). Only what is public once the deal is over: the played cards and
    the skat."""
    a, b, c = names
    sheet = tuple(tricks)
    png = _sheet_png((a, b, c), sheet, tuple(skat), deck, skat_label, deck_letters(deck, letters))
    return Picture(png, "tricks.png", description, tuple(card for t in sheet for card in t.cards) + tuple(skat))
