"""Suit symbols as vector shapes, for both decks, drawn into any box.

French four-colour tournament deck: clubs black, spades green, hearts red, diamonds yellow-orange.
German deck: Eichel (acorn), Grün (leaf), Rot (heart), Schellen (bell). Shapes are polygons and ellipses in
unit coordinates (0..1 in the box), so the same code draws a 12 px symbol and a 200 px one.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import ImageDraw

from skatbot.engine import Suit
from skatbot.models import Deck

FRENCH, GERMAN = Deck.FRENCH, Deck.GERMAN
Box = tuple[float, float, float, float]  # left, top, width, height
Point = tuple[float, float]

INK = {  # (shape fill, outline, text) per deck and suit
    (FRENCH, Suit.CLUBS): ((17, 17, 17), (0, 0, 0), (17, 17, 17)),
    (FRENCH, Suit.SPADES): ((22, 135, 48), (10, 90, 30), (16, 115, 40)),
    (FRENCH, Suit.HEARTS): ((214, 22, 32), (150, 10, 20), (200, 16, 28)),
    (FRENCH, Suit.DIAMONDS): ((245, 166, 0), (176, 100, 0), (200, 115, 0)),
    (GERMAN, Suit.CLUBS): ((150, 95, 40), (80, 45, 15), (110, 65, 25)),
    (GERMAN, Suit.SPADES): ((40, 145, 50), (15, 85, 25), (25, 115, 40)),
    (GERMAN, Suit.HEARTS): ((212, 20, 42), (140, 10, 25), (200, 16, 36)),
    (GERMAN, Suit.DIAMONDS): ((240, 180, 20), (160, 95, 0), (195, 120, 0)),
}


def text_ink(deck: Deck, suit: Suit) -> tuple[int, int, int]:
    return INK[(deck, suit)][2]


def _heart_points(steps: int = 48) -> list[Point]:
    """The classic heart curve, scaled into the unit box (point down)."""
    raw = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        raw.append((x, -y))
    xs, ys = [p[0] for p in raw], [p[1] for p in raw]
    left, top, width, height = min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
    return [((x - left) / width, (y - top) / height) for x, y in raw]


HEART = _heart_points()


def _place(box: Box, points: list[Point]) -> list[Point]:
    left, top, width, height = box
    return [(left + x * width, top + y * height) for x, y in points]


def _ellipse(draw: ImageDraw.ImageDraw, box: Box, cx: float, cy: float, rx: float, ry: float,
             fill: tuple[int, int, int], outline: tuple[int, int, int] | None = None, width: int = 0) -> None:
    left, top, w, h = box
    draw.ellipse((left + (cx - rx) * w, top + (cy - ry) * h, left + (cx + rx) * w, top + (cy + ry) * h),
                 fill=fill, outline=outline, width=width)


def _line_width(box: Box) -> int:
    return max(1, round(box[2] / 28))


def heart(draw: ImageDraw.ImageDraw, box: Box, fill: tuple[int, int, int], outline: tuple[int, int, int]) -> None:
    draw.polygon(_place(box, [(0.04 + 0.92 * x, 0.04 + 0.9 * y) for x, y in HEART]), fill=fill, outline=outline,
                 width=_line_width(box))


def diamond(draw: ImageDraw.ImageDraw, box: Box, fill: tuple[int, int, int], outline: tuple[int, int, int]) -> None:
    """A rhombus with slightly hollow sides, as on printed cards."""
    corners = [(0.5, 0.0), (0.92, 0.5), (0.5, 1.0), (0.08, 0.5)]
    points: list[Point] = []
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1], strict=True):
        for k in range(8):
            f = k / 8
            sag = 0.06 * math.sin(math.pi * f)  # pulled towards the centre
            x, y = x0 + (x1 - x0) * f, y0 + (y1 - y0) * f
            points.append((x + (0.5 - x) * sag * 2, y + (0.5 - y) * sag * 2))
    draw.polygon(_place(box, points), fill=fill, outline=outline, width=_line_width(box))


def _stem(draw: ImageDraw.ImageDraw, box: Box, fill: tuple[int, int, int]) -> None:
    draw.polygon(_place(box, [(0.5, 0.55), (0.7, 1.0), (0.3, 1.0)]), fill=fill)


def spade(draw: ImageDraw.ImageDraw, box: Box, fill: tuple[int, int, int], outline: tuple[int, int, int]) -> None:
    """An upside-down heart on a stem."""
    _stem(draw, box, fill)
    draw.polygon(_place(box, [(0.05 + 0.9 * x, 0.8 * (1 - y)) for x, y in HEART]), fill=fill, outline=outline,
                 width=_line_width(box))


def club(draw: ImageDraw.ImageDraw, box: Box, fill: tuple[int, int, int], outline: tuple[int, int, int]) -> None:
    """Three round leaves and a stem."""
    _stem(draw, box, fill)
    for cx, cy in ((0.5, 0.25), (0.25, 0.58), (0.75, 0.58)):
        _ellipse(draw, box, cx, cy, 0.23, 0.23, fill)
    _ellipse(draw, box, 0.5, 0.5, 0.12, 0.12, fill)


def acorn(draw: ImageDraw.ImageDraw, box: Box, fill: tuple[int, int, int], outline: tuple[int, int, int]) -> None:
    """Eichel: a nut under a cross-hatched cap, with a short stalk."""
    w = _line_width(box)
    _ellipse(draw, box, 0.5, 0.64, 0.3, 0.34, fill, outline, w)  # the nut
    left, top, width, height = box
    draw.rectangle((left + 0.46 * width, top, left + 0.54 * width, top + 0.2 * height), fill=outline)  # stalk
    cap = (left + 0.12 * width, top + 0.12 * height, left + 0.88 * width, top + 0.62 * height)
    draw.chord(cap, 180, 360, fill=outline)
    draw.rectangle((cap[0], top + 0.36 * height, cap[2], top + 0.44 * height), fill=outline)
    for k in range(1, 4):  # the cap's hatching, light on dark
        x = cap[0] + (cap[2] - cap[0]) * k / 4
        draw.line((x, top + 0.2 * height, x, top + 0.42 * height), fill=fill, width=max(1, w // 2))


def leaf(draw: ImageDraw.ImageDraw, box: Box, fill: tuple[int, int, int], outline: tuple[int, int, int]) -> None:
    """Grün: a broad leaf, point up, on a stalk, with its midrib."""
    w = _line_width(box)
    left, top, width, height = box
    draw.line((left + 0.5 * width, top + 0.7 * height, left + 0.5 * width, top + height), fill=outline, width=w * 2)
    points: list[Point] = []
    for i in range(40):
        t = math.pi * i / 39  # the right edge, top to bottom
        points.append((0.5 + 0.42 * math.sin(t) ** 1.2, 0.02 + 0.8 * (1 - math.cos(t)) / 2))
    points += [(1 - x, y) for x, y in reversed(points)]
    draw.polygon(_place(box, points), fill=fill, outline=outline, width=w)
    draw.line((left + 0.5 * width, top + 0.12 * height, left + 0.5 * width, top + 0.8 * height),
              fill=outline, width=w)


def bell(draw: ImageDraw.ImageDraw, box: Box, fill: tuple[int, int, int], outline: tuple[int, int, int]) -> None:
    """Schellen: a round sleigh bell with a red band, a slot and a knob."""
    w = _line_width(box)
    left, top, width, height = box
    _ellipse(draw, box, 0.5, 0.08, 0.08, 0.08, outline)  # the knob
    _ellipse(draw, box, 0.5, 0.56, 0.42, 0.42, fill, outline, w)
    draw.rectangle((left + 0.1 * width, top + 0.47 * height, left + 0.9 * width, top + 0.57 * height),
                   fill=(200, 30, 30))
    _ellipse(draw, box, 0.5, 0.82, 0.05, 0.05, outline)
    draw.line((left + 0.5 * width, top + 0.82 * height, left + 0.5 * width, top + 0.97 * height), fill=outline,
              width=w)


SHAPES: dict[tuple[str, Suit], Callable[..., None]] = {
    (FRENCH, Suit.CLUBS): club, (FRENCH, Suit.SPADES): spade, (FRENCH, Suit.HEARTS): heart,
    (FRENCH, Suit.DIAMONDS): diamond,
    (GERMAN, Suit.CLUBS): acorn, (GERMAN, Suit.SPADES): leaf, (GERMAN, Suit.HEARTS): heart,
    (GERMAN, Suit.DIAMONDS): bell,
}


def draw_suit(draw: ImageDraw.ImageDraw, deck: Deck, suit: Suit, box: Box) -> None:
    """The suit's symbol, filling `box` (left, top, width, height)."""
    fill, outline, _ = INK[(deck, suit)]
    SHAPES[(deck, suit)](draw, box, fill, outline)
