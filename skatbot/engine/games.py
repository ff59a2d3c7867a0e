"""Game types, contracts, the bid ladder, and the per-game trick tables.

Each game type has precomputed tables indexed by `Card.index`, so following suit and finding a
trick's winner are a few tuple look-ups on the engine's hot path.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .cards import CARDS, Card, Rank, Suit
from .errors import MalformedText

TRUMP = 4
"""The effective suit of a trump card in the trick tables."""


class GameType(Enum):
    """What is played. Values are the ISS names used in records and JSON."""

    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"
    CLUBS = "clubs"
    GRAND = "grand"
    NULL = "null"
    RAMSCH = "ramsch"

    @property
    def is_suit(self) -> bool:
        return self in _SUIT_GAMES

    @property
    def trump_suit(self) -> Suit | None:
        return _SUIT_GAMES.get(self)

    @property
    def base_value(self) -> int:
        """Grundwert: 9/10/11/12 for suits, 24 for grand, 23 for a plain null, 0 for ramsch."""
        return _BASE_VALUES[self]

    @property
    def iss_letter(self) -> str:
        return _ISS_LETTERS[self]

    @classmethod
    def from_suit(cls, suit: Suit) -> GameType:
        return _GAME_OF_SUIT[suit]

    @classmethod
    def parse(cls, text: str) -> GameType:
        """Read `clubs`, `grand`, `null`, or an ISS letter (`C`, `G`, `N`)."""
        key = text.strip().lower()
        for game in cls:
            if key in (game.value, game.iss_letter.lower()):
                return game
        raise MalformedText(f"unknown game {text!r}: use clubs, spades, hearts, diamonds, grand or null")


_SUIT_GAMES = {
    GameType.DIAMONDS: Suit.DIAMONDS,
    GameType.HEARTS: Suit.HEARTS,
    GameType.SPADES: Suit.SPADES,
    GameType.CLUBS: Suit.CLUBS,
}
_GAME_OF_SUIT = {suit: game for game, suit in _SUIT_GAMES.items()}
_BASE_VALUES = {
    GameType.DIAMONDS: 9,
    GameType.HEARTS: 10,
    GameType.SPADES: 11,
    GameType.CLUBS: 12,
    GameType.GRAND: 24,
    GameType.NULL: 23,
    GameType.RAMSCH: 0,
}
_ISS_LETTERS = {
    GameType.DIAMONDS: "D",
    GameType.HEARTS: "H",
    GameType.SPADES: "S",
    GameType.CLUBS: "C",
    GameType.GRAND: "G",
    GameType.NULL: "N",
    GameType.RAMSCH: "R",
}


@dataclass(frozen=True, slots=True)
class Contract:
    """The declared game with its announcements. Implied announcements are filled in by the deal."""

    game: GameType
    hand: bool = False
    schneider: bool = False
    schwarz: bool = False
    ouvert: bool = False
    musik: bool = False  # Danish house rule: last trick taken with the trump seven (grand: jack of diamonds)

    def __str__(self) -> str:
        words = [self.game.value]
        for flag in ("hand", "schneider", "schwarz", "ouvert", "musik"):
            if getattr(self, flag):
                words.append(flag)
        return " ".join(words)

    @property
    def musik_card(self) -> Card | None:
        """The card a Musik announcement must win the last trick with: the trump seven, in a grand the
        jack of diamonds; None for null and ramsch."""
        if self.game is GameType.GRAND:
            return Card(Suit.DIAMONDS, Rank.JACK)
        suit = self.game.trump_suit
        return Card(suit, Rank.SEVEN) if suit is not None else None

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Read `grand hand schneider`, `null ouvert`, ... (the `str` form)."""
        words = text.lower().split()
        if not words:
            raise MalformedText("empty contract")
        flags = set(words[1:])
        unknown = flags - {"hand", "schneider", "schwarz", "ouvert", "musik"}
        if unknown:
            raise MalformedText(f"unknown announcement(s): {', '.join(sorted(unknown))}")
        return cls(GameType.parse(words[0]), "hand" in flags, "schneider" in flags, "schwarz" in flags,
                   "ouvert" in flags, "musik" in flags)


# --- bid ladder ----------------------------------------------------------------------------------

def _ladder() -> tuple[int, ...]:
    values: set[int] = {23, 35, 46, 59}
    for base in (9, 10, 11, 12, 24):
        for multiplier in range(2, 19):
            value = base * multiplier
            if value <= 264:
                values.add(value)
    return tuple(sorted(v for v in values if v >= 18))


BID_LADDER: tuple[int, ...] = _ladder()
"""Every value a game can be worth from 18 up to 264: the legal bids."""
_BID_SET = frozenset(BID_LADDER)


def is_bid_value(value: int) -> bool:
    return value in _BID_SET


def next_bid(value: int) -> int | None:
    """The lowest ladder value above `value`, or None above 264."""
    for bid in BID_LADDER:
        if bid > value:
            return bid
    return None


# --- trick tables ---------------------------------------------------------------------------------

_PLAIN_ORDER = {Rank.SEVEN: 0, Rank.EIGHT: 1, Rank.NINE: 2, Rank.QUEEN: 3, Rank.KING: 4, Rank.TEN: 5,
                Rank.ACE: 6}
_NULL_ORDER = {Rank.SEVEN: 0, Rank.EIGHT: 1, Rank.NINE: 2, Rank.TEN: 3, Rank.JACK: 4, Rank.QUEEN: 5,
               Rank.KING: 6, Rank.ACE: 7}


@dataclass(frozen=True, slots=True)
class TrickTable:
    """For each card: its effective suit (TRUMP for trumps) and its power within that suit."""

    effective_suit: tuple[int, ...]
    power: tuple[int, ...]
    follow_mask: tuple[int, ...]  # indexed by effective suit 0..4
    trump_order: tuple[Card, ...]  # trumps from highest to lowest (matadors count down this list)


def _table(game: GameType) -> TrickTable:
    trump_suit = game.trump_suit
    jacks_trump = game is not GameType.NULL
    eff: list[int] = []
    power: list[int] = []
    for card in CARDS:
        if jacks_trump and card.rank is Rank.JACK:
            eff.append(TRUMP)
            power.append(110 + int(card.suit))
        elif card.suit == trump_suit:
            eff.append(TRUMP)
            power.append(100 + _PLAIN_ORDER[card.rank])
        elif game is GameType.NULL:
            eff.append(int(card.suit))
            power.append(_NULL_ORDER[card.rank])
        else:
            eff.append(int(card.suit))
            power.append(_PLAIN_ORDER[card.rank])
    follow = [0] * 5
    for index, suit in enumerate(eff):
        follow[suit] |= 1 << index
    trumps = sorted((c for c in CARDS if eff[c.index] == TRUMP), key=lambda c: -power[c.index])
    return TrickTable(tuple(eff), tuple(power), tuple(follow), tuple(trumps))


TRICK_TABLES: dict[GameType, TrickTable] = {game: _table(game) for game in GameType}


def trick_winner(table: TrickTable, cards: tuple[int, ...] | list[int]) -> int:
    """Position (0..2) in the trick of the card that wins it."""
    eff, power = table.effective_suit, table.power
    led = eff[cards[0]]
    best, best_power = 0, power[cards[0]]
    for position in (1, 2):
        card = cards[position]
        suit = eff[card]
        if suit in (TRUMP, led) and power[card] > best_power:  # trumps (100+) outrank every plain card
            best, best_power = position, power[card]
    return best


def sort_key(game: GameType | None, card: Card) -> tuple[int, int]:
    """Order for showing a hand: trumps first, then suits clubs..diamonds, high to low."""
    table = TRICK_TABLES[game or GameType.GRAND]
    suit = table.effective_suit[card.index]
    return (-(suit if suit != TRUMP else 9), -table.power[card.index])


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    cards: tuple[Card, Card, Card]
    winner: int

    @property
    def points(self) -> int:
        return sum(card.points for card in self.cards)

    def seat_of(self, position: int) -> int:
        return (self.leader + position) % 3
