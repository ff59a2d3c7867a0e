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
    as the computer players' 🤖) are left out: `draw_name` draws 🤖 as a marker of its own."""
    font = _font(size)
    text = "".join(ch for ch in text if ord(ch) < 0x2000).strip() or "?"
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


AI_MARK = "🤖"
"""What marks a computer player's name (`ui.render.player_name`); the bundled font has no emoji, so the pictures
draw a small robot head in its place (`robot_mark`)."""


def robot_mark(draw: ImageDraw.ImageDraw, left: int, middle: int, size: int, fill: tuple[int, int, int]) -> None:
    """A robot's head `size` pixels high, its left edge at `left`, centred on `middle`: an antenna, a square head
    in `fill`, two eyes and a mouth cut out of it."""
    top = middle - size // 2
    head = top + size // 4
    draw.line((left + size // 2, top + 1, left + size // 2, head), fill=fill, width=1)
    draw.ellipse((left + size // 2 - 2, top - 1, left + size // 2 + 2, top + 3), fill=fill)
    draw.rounded_rectangle((left, head, left + size - 1, top + size - 1), radius=max(1, size // 6), fill=fill)
    eye = max(2, size // 6)
    eyes_y = head + (top + size - head) // 3
    for x in (left + size // 4, left + size - size // 4 - eye):
        draw.rectangle((x, eyes_y, x + eye - 1, eyes_y + eye - 1), fill=_BACKGROUND)
    mouth_y = top + size - 1 - max(2, size // 5)
    draw.line((left + size // 4, mouth_y, left + size - 1 - size // 4, mouth_y), fill=_BACKGROUND, width=1)


def draw_name(draw: ImageDraw.ImageDraw, at: tuple[int, int], name: str, width: int, size: int,
              fill: tuple[int, int, int], anchor: str) -> None:
    """A player's name fitted to `width` at `at` (anchor "mm": centred there, "lm": starting there); a computer
    player's 🤖 drawn as `robot_mark` before the name (the font lacks the emoji)."""
    if AI_MARK not in name:
        draw.text(at, _fit(draw, name, width, size), font=_font(size), fill=fill, anchor=anchor)
        return
    mark, gap = size, 4
    text = _fit(draw, name.replace(AI_MARK, ""), width - mark - gap, size)
    total = mark + gap + round(draw.textlength(text, font=_font(size)))
    x, y = at
    left = x - total // 2 if anchor == "mm" else x
    robot_mark(draw, left, y, mark, fill)
    draw.text((left + mark + gap, y), text, font=_font(size), fill=fill, anchor="lm")


@lru_cache(maxsize=64)
def _sheet_png(names: tuple[str, str, str], tricks: tuple[Trick, ...], skat: tuple[Card, ...],
               deck: Deck, skat_label: str, letters: RankLetters) -> bytes:
    width = LEFT + 3 * COLUMN + 60
    height = HEADER + ROW * len(tricks) + (ROW + 6 if skat else 0) + 8
    canvas = Image.new("RGBA", (width, height), _BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    for seat, name in enumerate(names):
        draw_name(draw, (LEFT + seat * COLUMN + COLUMN // 2, HEADER // 2), name, COLUMN - 8, 15, _INK, "mm")
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
