"""One step of a finished deal's replay as a picture: every hand open, a row per seat, and beside each hand the
card that seat played to the trick (the leader marked with an arrow, the winner's card framed), or at the
start the skat; the running card points in the corner.

Only for finished deals: every card is public once a deal is over. Drawn from plain values, cached by content.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from skatbot.engine import Card, Trick
from skatbot.models import Deck

from .faces import ENGLISH, RankLetters, card_face, deck_letters
from .picture import Picture, encode
from .suits import FRENCH
from .tricks import _fit, _font, draw_name

CARD_WIDTH = 44
CARD_HEIGHT = 66
OVERLAP = 31  # a hand's cards overlap: each shows its corner
ROW = 76
NAME = 112
HEADER = 30
HAND_CARDS = 12  # the widest hand: the declarer's twelve cards after the pickup, before the discard
PLAYED_X = NAME + (HAND_CARDS - 1) * OVERLAP + CARD_WIDTH + 36
WIDTH = PLAYED_X + CARD_WIDTH + 20
WINNER = (230, 170, 20)
_INK = (230, 232, 236)
_MUTED = (160, 165, 175)
_BACKGROUND = (47, 49, 54, 255)
_DECLARER = (79, 163, 224)


@lru_cache(maxsize=128)
def _replay_png(names: tuple[str, str, str], hands: tuple[tuple[Card, ...], ...], trick: Trick | None,
                skat: tuple[Card, ...], title: str, points: str, declarer: int | None, deck: Deck, skat_label: str,
                letters: RankLetters) -> bytes:
    height = HEADER + 3 * ROW + (ROW if skat else 0) + 6
    canvas = Image.new("RGBA", (WIDTH, height), _BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    if title:
        draw.text((10, HEADER // 2), _fit(draw, title, WIDTH // 2, 15), font=_font(15), fill=_INK, anchor="lm")
    if points:
        draw.text((WIDTH - 10, HEADER // 2), _fit(draw, points, WIDTH // 2 - 20, 15), font=_font(15), fill=WINNER,
                  anchor="rm")
    for seat in range(3):
        top = HEADER + seat * ROW
        colour = _DECLARER if seat == declarer else _INK
        draw_name(draw, (10, top + ROW // 2), names[seat], NAME - 16, 15, colour, "lm")
        y = top + (ROW - CARD_HEIGHT) // 2
        for index, card in enumerate(hands[seat]):
            canvas.alpha_composite(card_face(card, deck, CARD_WIDTH, letters), (NAME + index * OVERLAP, y))
        if trick is not None and seat in _seats(trick):
            position = _seats(trick).index(seat)
            x = PLAYED_X
            if seat == trick.winner:
                draw.rounded_rectangle((x - 4, y - 4, x + CARD_WIDTH + 3, y + CARD_HEIGHT + 3), radius=7,
                                       outline=WINNER, width=3)
            canvas.alpha_composite(card_face(trick.cards[position], deck, CARD_WIDTH, letters), (x, y))
            if position == 0:
                ax, ay = x - 10, y + CARD_HEIGHT // 2
                draw.polygon([(ax - 9, ay - 7), (ax, ay), (ax - 9, ay + 7)], fill=_INK)
    if skat:
        top = HEADER + 3 * ROW
        draw.line((8, top + 2, WIDTH - 8, top + 2), fill=_MUTED, width=1)
        draw.text((10, top + ROW // 2), skat_label, font=_font(15), fill=_MUTED, anchor="lm")
        for index, card in enumerate(skat):
            canvas.alpha_composite(card_face(card, deck, CARD_WIDTH, letters),
                                   (NAME + index * (CARD_WIDTH + 8), top + (ROW - CARD_HEIGHT) // 2))
    shown = tuple(card for hand in hands for card in hand) + (trick.cards if trick is not None else ()) + skat
    return encode(canvas, shown)


def _seats(trick: Trick) -> tuple[int, ...]:
    return tuple(trick.seat_of(position) for position in range(len(trick.cards)))


def replay_picture(names: Sequence[str], hands: Sequence[Sequence[Card]], trick: Trick | None = None, *,
                   skat: Sequence[Card] = (), title: str = "", points: str = "", declarer: int | None = None,
                   deck: Deck = FRENCH, skat_label: str = "Skat", description: str = "",
                   letters: RankLetters = ENGLISH) -> Picture:
    """A replay step: `hands` by seat (forehand, middlehand, rearhand) as the caller sorted them, the trick the
    step shows (None at the start or the end), the skat (at the start, or the skat as it lay at the end);
    `title` and `points` are written at the top, the declarer's name in blue."""
    a, b, c = names
    held = tuple(tuple(hand) for hand in hands)
    if len(held) != 3 or any(len(hand) > HAND_CARDS for hand in held):
        raise ValueError("three hands of at most twelve cards")
    png = _replay_png((a, b, c), held, trick, tuple(skat), title, points, declarer, deck, skat_label,
                      deck_letters(deck, letters))
    shown = tuple(card for hand in held for card in hand) + (trick.cards if trick is not None else ()) + tuple(skat)
    return Picture(png, "replay.png", description, shown)


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """What one replay picture shows (the arguments of `replay_picture`), so two can be drawn side by side."""

    names: tuple[str, str, str]
    hands: tuple[tuple[Card, ...], ...]
    trick: Trick | None = None
    skat: tuple[Card, ...] = ()
    title: str = ""
    points: str = ""
    declarer: int | None = None


def replay_pair(left: ReplayStep, right: ReplayStep, *, deck: Deck = FRENCH, skat_label: str = "Skat",
                description: str = "", letters: RankLetters = ENGLISH) -> Picture:
    """Two replay steps side by side: a challenge deal as the player played it, and as the par AI did."""
    pictures = [replay_picture(step.names, step.hands, step.trick, skat=step.skat, title=step.title,
                               points=step.points, declarer=step.declarer, deck=deck, skat_label=skat_label,
                               letters=letters) for step in (left, right)]
    images = [Image.open(io.BytesIO(picture.png)).convert("RGBA") for picture in pictures]
    gap = 12
    canvas = Image.new("RGBA", (images[0].width + gap + images[1].width, max(i.height for i in images)), _BACKGROUND)
    canvas.alpha_composite(images[0], (0, 0))
    canvas.alpha_composite(images[1], (images[0].width + gap, 0))
    ImageDraw.Draw(canvas).line((images[0].width + gap // 2, 6, images[0].width + gap // 2, canvas.height - 6),
                                fill=_MUTED, width=1)
    shown = pictures[0].cards + pictures[1].cards
    return Picture(encode(canvas, shown), "replay.png", description, shown)
