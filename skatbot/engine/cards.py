"""Cards of the 32-card Skat pack, with text forms that round-trip.

A card is one of 32 shared instances, so identity is equality and the engine can keep hands as
bitmasks over `Card.index` (suit * 8 + rank) on its hot paths.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from .errors import MalformedText


class Suit(IntEnum):
    """The four suits, valued in their bidding order (clubs is highest)."""

    DIAMONDS = 0
    HEARTS = 1
    SPADES = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """The ISS letter: C, S, H, D."""
        return "DHSC"[self]

    @property
    def symbol(self) -> str:
        return "♦♥♠♣"[self]

    @property
    def english(self) -> str:
        return ("diamonds", "hearts", "spades", "clubs")[self]

    @classmethod
    def from_letter(cls, letter: str) -> Suit:
        try:
            return cls("DHSC".index(letter.upper()))
        except ValueError:
            raise MalformedText(f"unknown suit {letter!r}: use C, S, H or D") from None


class Rank(IntEnum):
    """Ranks in their plain order; trick order depends on the game and lives in `games`."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def letter(self) -> str:
        """The ISS letter: 7 8 9 T J Q K A."""
        return "789TJQKA"[self]

    @property
    def display(self) -> str:
        return ("7", "8", "9", "10", "J", "Q", "K", "A")[self]

    @property
    def points(self) -> int:
        return RANK_POINTS[self]

    @classmethod
    def from_text(cls, text: str) -> Rank:
        key = text.upper()
        if key == "10":
            return cls.TEN
        try:
            return cls("789TJQKA".index(key)) if len(key) == 1 else _raise()
        except ValueError:
            raise MalformedText(f"unknown rank {text!r}: use 7 8 9 T(10) J Q K A") from None


def _raise() -> Rank:
    raise ValueError


RANK_POINTS: tuple[int, ...] = (0, 0, 0, 10, 2, 3, 4, 11)


class Card:
    """One card of the pack. Construct with `Card(suit, rank)`, `Card.parse(text)` or `CARDS[index]`."""

    __slots__ = ("suit", "rank", "index", "points")
    suit: Suit
    rank: Rank
    index: int
    points: int

    def __new__(cls, suit: Suit | int, rank: Rank | int) -> Card:
        return CARDS[int(suit) * 8 + int(rank)]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "suit", Suit(index // 8))
        object.__setattr__(card, "rank", Rank(index % 8))
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "points", RANK_POINTS[index % 8])
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card_from_index, (self.index,))

    def __repr__(self) -> str:
        return f"Card.parse({self.iss!r})"

    def __str__(self) -> str:
        return self.display

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    @property
    def iss(self) -> str:
        """ISS code such as `CJ`, `ST`, `H7`."""
        return self.suit.letter + self.rank.letter

    @property
    def display(self) -> str:
        """Display form such as `♣J`, `♠10`."""
        return self.suit.symbol + self.rank.display

    @property
    def is_jack(self) -> bool:
        return self.rank is Rank.JACK

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read an ISS code (`CJ`, `ST`), a display form (`♣J`, `♠10`) or `10S`-style text."""
        raw = text.strip()
        if len(raw) < 2:
            raise MalformedText(f"not a card: {text!r}")
        first, rest, last = raw[0], raw[1:], raw[-1]
        try:
            if first in _SYMBOL_SUITS:
                return cls(_SYMBOL_SUITS[first], Rank.from_text(rest))
            if last in _SYMBOL_SUITS:
                return cls(_SYMBOL_SUITS[last], Rank.from_text(raw[:-1]))
            if first.upper() in "CSHD" and rest.upper() not in ("C", "S", "H", "D"):
                return cls(Suit.from_letter(first), Rank.from_text(rest))
            if last.upper() in "CSHD":
                return cls(Suit.from_letter(last), Rank.from_text(raw[:-1]))
        except ValueError:
            pass
        raise MalformedText(f"not a card: {text!r} (write it like CJ, ST, ♠10)")


_SYMBOL_SUITS = {"♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES, "♣": Suit.CLUBS}

CARDS: tuple[Card, ...] = tuple(Card._make(i) for i in range(32))
"""All 32 cards, indexed by `Card.index`."""

def card_from_index(index: int) -> Card:
    return CARDS[index]


def mask_of(cards: Iterable[Card]) -> int:
    """Bitmask of a set of cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def cards_of(mask: int) -> list[Card]:
    """Cards in a bitmask, in index order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


_RANK_MASK_POINTS: tuple[int, ...] = tuple(
    sum(RANK_POINTS[rank] for rank in range(8) if byte >> rank & 1) for byte in range(256))
"""Card points of each set of ranks in one suit (one byte of a card mask): four look-ups per mask."""


def points_of(mask: int) -> int:
    """Card points in a bitmask."""
    table = _RANK_MASK_POINTS
    return table[mask & 255] + table[mask >> 8 & 255] + table[mask >> 16 & 255] + table[mask >> 24 & 255]


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by dots, commas or spaces (`CJ.ST`, `♣J ♠10`)."""
    parts = [p for p in text.replace(",", " ").replace(".", " ").split() if p]
    return [Card.parse(p) for p in parts]
