"""A rendered picture: PNG bytes, a file name, alt text, and the cards it shows (stored in the PNG too)."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, PngImagePlugin

from skatbot.engine import Card

CARDS_KEY = "skatbot:cards"
"""The PNG text chunk listing the cards a picture shows (ISS codes), so anyone can check it."""


@dataclass(frozen=True, slots=True)
class Picture:
    """One image to attach: `png` bytes, its `filename`, `description` (alt text for screen readers)
    and the `cards` it shows."""

    png: bytes
    filename: str
    description: str
    cards: tuple[Card, ...]


def encode(image: Image.Image, cards: tuple[Card, ...] = (), *, colours: int | None = 96) -> bytes:
    """PNG bytes of `image`, palette-reduced to `colours` (a few tens of KB), with the cards it shows."""
    info = PngImagePlugin.PngInfo()
    info.add_text(CARDS_KEY, " ".join(card.iss for card in cards))
    if colours is not None:
        image = image.convert("RGBA").quantize(colors=colours, method=Image.Quantize.FASTOCTREE,
                                               dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=colours is None, pnginfo=info)
    return out.getvalue()


def cards_shown(png: bytes) -> tuple[Card, ...] | None:
    """The cards a picture says it shows (None when it carries no such record: not one of ours)."""
    with Image.open(io.BytesIO(png)) as image:
        text = image.info.get(CARDS_KEY)
    if text is None:
        return None
    return tuple(Card.parse(code) for code in str(text).split())
