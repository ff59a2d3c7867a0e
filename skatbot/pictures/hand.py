"""A hand as one picture: the cards fanned left to right in the order given (sorted for the game), the
cards that came from the skat lifted and framed."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from skatbot.engine import Card
from skatbot.models import Deck

from .faces import ENGLISH, RankLetters, card_face, deck_letters
from .picture import Picture, encode
from .suits import FRENCH

CARD_WIDTH = 84
STEP = 38  # how far each card lies right of the one before: the corner index stays visible
MARK = (40, 110, 230)  # the frame of a card from the skat
_BACKGROUND = (0, 0, 0, 0)


@lru_cache(maxsize=256)
def _hand_png(cards: tuple[Card, ...], deck: Deck, marked: frozenset[Card], letters: RankLetters) -> bytes:
    count = len(cards)
    height = round(CARD_WIDTH * 1.5)
    spread = min(24.0, 3.0 * max(count - 1, 0))  # degrees from the first card to the last
    lift = 14
    width = CARD_WIDTH + STEP * max(count - 1, 0) + 40
    canvas = Image.new("RGBA", (width, height + 50 + lift), _BACKGROUND)
    for index, card in enumerate(cards):
        face = card_face(card, deck, CARD_WIDTH, letters)
        if card in marked:
            face = face.copy()
            ImageDraw.Draw(face).rounded_rectangle((1, 1, face.width - 2, face.height - 2), radius=CARD_WIDTH // 10,
                                                   outline=MARK, width=4)
        angle = spread / 2 - spread * index / (count - 1) if count > 1 else 0.0
        turned = face.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
        # Fanned around a point below the hand: the outer cards sit a little lower.
        drop = 18 * (1 - math.cos(math.radians(angle * 2.2)))
        x = 20 + STEP * index - (turned.width - CARD_WIDTH) // 2
        y = 8 + lift + round(drop) - (turned.height - height) // 2 - (lift if card in marked else 0)
        canvas.alpha_composite(turned, (max(0, x), max(0, y)))
    return encode(canvas.crop(canvas.getbbox() or (0, 0, 1, 1)), cards)


def hand_picture(cards: tuple[Card, ...] | list[Card], deck: Deck = FRENCH, marked: frozenset[Card] = frozenset(),
                 description: str = "", letters: RankLetters = ENGLISH) -> Picture:
    """The hand, fanned; `marked` cards (the skat just picked up) lifted and framed in blue; the French deck
    lettered with `letters` (the owner's language). Cached by content: the same hand is drawn once per language."""
    shown = tuple(cards)
    png = _hand_png(shown, deck, frozenset(marked) & frozenset(shown), deck_letters(deck, letters))
    return Picture(png, "hand.png", description, shown)
