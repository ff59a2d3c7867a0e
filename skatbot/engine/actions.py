"""What a seat can do, as small immutable values with text forms that round-trip.

`str(action)` is the form stored in table logs and JSON records; `parse_action` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CARDS, Card
from .errors import MalformedText
from .games import Contract


@dataclass(frozen=True, slots=True)
class Bid:
    """Say a number in the auction (the bidder's turn)."""

    value: int

    def __str__(self) -> str:
        return f"bid {self.value}"


@dataclass(frozen=True, slots=True)
class Hold:
    """Hold the last number said ("yes"; the listener's turn)."""

    def __str__(self) -> str:
        return "hold"


@dataclass(frozen=True, slots=True)
class Pass:
    """Leave the auction (final)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class PickUpSkat:
    """The declarer takes the skat into the hand (the game can no longer be hand)."""

    def __str__(self) -> str:
        return "pickup"


@dataclass(frozen=True, slots=True)
class Discard:
    """After picking up, put two cards back as the new skat (they count for the declarer)."""

    first: Card
    second: Card

    def __str__(self) -> str:
        return f"discard {self.first.iss} {self.second.iss}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Name the game. Declaring without picking up makes it a hand game."""

    contract: Contract

    def __str__(self) -> str:
        return f"declare {self.contract}"


@dataclass(frozen=True, slots=True)
class PlayCard:
    card: Card

    def __str__(self) -> str:
        return f"play {self.card.iss}"


@dataclass(frozen=True, slots=True)
class Kontra:
    """A defender doubles the game before the first lead (house rule)."""

    def __str__(self) -> str:
        return "kontra"


@dataclass(frozen=True, slots=True)
class Re:
    """The declarer answers a Kontra, doubling again (house rule)."""

    def __str__(self) -> str:
        return "re"


@dataclass(frozen=True, slots=True)
class Claim:
    """The declarer shows the cards and claims every remaining trick; play goes on until conceded."""

    def __str__(self) -> str:
        return "claim"


@dataclass(frozen=True, slots=True)
class Concede:
    """Give up: a declarer's concession ends the deal; the defenders end it when both have conceded."""

    def __str__(self) -> str:
        return "concede"


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The table rules that `seat` ran out of time (or, with `left`, left the table): in play the remaining
    tricks go to the other side; in the auction the deal ends without a game (a penalty, as ISS records it).
    `contract` is the game a declarer had named before timing out ahead of the discard (ISS lets the
    declarer name it first), which the declarer then loses."""

    seat: int
    left: bool = False
    contract: Contract | None = None

    def __str__(self) -> str:
        text = f"{'left' if self.left else 'timeout'} {self.seat}"
        return text if self.contract is None else f"{text} {self.contract}"


Action = Bid | Hold | Pass | PickUpSkat | Discard | Declare | PlayCard | Kontra | Re | Claim | Concede | TimeOut

HOLD = Hold()
PASS = Pass()
PICK_UP = PickUpSkat()
KONTRA = Kontra()
RE = Re()
CLAIM = Claim()
CONCEDE = Concede()
PLAY: tuple[PlayCard, ...] = tuple(PlayCard(card) for card in CARDS)
"""One shared PlayCard per card, indexed by `Card.index` (no allocation on the hot path)."""

_SIMPLE: dict[str, Action] = {"hold": HOLD, "pass": PASS, "pickup": PICK_UP, "kontra": KONTRA, "re": RE,
                              "claim": CLAIM, "concede": CONCEDE}


def parse_action(text: str) -> Action:
    """Read the `str` form of an action; raises ValueError with the reason."""
    words = text.strip().split()
    if not words:
        raise MalformedText("empty action")
    verb, args = words[0].lower(), words[1:]
    if verb in _SIMPLE and not args:
        return _SIMPLE[verb]
    try:
        if verb == "bid" and len(args) == 1:
            return Bid(int(args[0]))
        if verb == "play" and len(args) == 1:
            return PLAY[Card.parse(args[0]).index]
        if verb == "discard" and len(args) == 2:
            return Discard(Card.parse(args[0]), Card.parse(args[1]))
        if verb == "declare" and args:
            return Declare(Contract.parse(" ".join(args)))
        if verb in ("timeout", "left") and args:
            contract = Contract.parse(" ".join(args[1:])) if len(args) > 1 else None
            return TimeOut(int(args[0]), verb == "left", contract)
    except ValueError as error:
        raise MalformedText(f"malformed action {text!r}: {error}") from None
    raise MalformedText(f"malformed action {text!r}")
