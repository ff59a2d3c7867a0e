"""The table log: every accepted step of a table as one line of text, append-only.

The log is the truth: replaying it through `TableGame` rebuilds the table exactly (seats, series,
the deal in progress). Entries are small values whose `str` form is what storage keeps.
"""

from __future__ import annotations

from dataclasses import dataclass

from skatbot.ai import Level
from skatbot.engine import Action, MalformedText, parse_action


@dataclass(frozen=True, slots=True)
class Join:
    user_id: int
    name: str

    def __str__(self) -> str:
        return f"join {self.user_id} {self.name}"


@dataclass(frozen=True, slots=True)
class Leave:
    user_id: int

    def __str__(self) -> str:
        return f"leave {self.user_id}"


@dataclass(frozen=True, slots=True)
class AddAI:
    """A computer player of `level` takes the next seat. `by`: the player who asked (None in logs written
    before it was kept), so that two players' requests, pending together, are told apart in the log."""

    level: Level
    by: int | None = None

    def __str__(self) -> str:
        return f"add-ai {self.level}" if self.by is None else f"add-ai {self.level} {self.by}"


@dataclass(frozen=True, slots=True)
class RemoveAI:
    """The last seated computer player leaves; `by` as for `AddAI`."""

    by: int | None = None

    def __str__(self) -> str:
        return "remove-ai" if self.by is None else f"remove-ai {self.by}"


@dataclass(frozen=True, slots=True)
class Start:
    """Play begins; `first_dealer` (a table place) was drawn at random, as the rules texts choose the
    first dealer, and is kept so a replay deals exactly as the table did."""

    first_dealer: int = 0

    def __str__(self) -> str:
        return f"start {self.first_dealer}" if self.first_dealer else "start"


@dataclass(frozen=True, slots=True)
class NewDeal:
    """A deal begins; the seed fixes its cards."""

    number: int
    seed: int

    def __str__(self) -> str:
        return f"deal {self.number} {self.seed}"


@dataclass(frozen=True, slots=True)
class Act:
    """An action in deal `number` by engine seat `seat` (None: the table itself). `timed_out`: the player
    let the turn run out and the table acted for them (`timeout ...`): counted with the table, so every
    process agrees when an AI stands in for a player who keeps missing turns."""

    number: int
    seat: int | None
    action: Action
    timed_out: bool = False

    def __str__(self) -> str:
        verb = "timeout" if self.timed_out else "act"
        return f"{verb} {self.number} {'-' if self.seat is None else self.seat} {self.action}"


@dataclass(frozen=True, slots=True)
class StandIn:
    """An AI takes over table seat `place` for a human who left or ran out of time."""

    place: int
    level: Level

    def __str__(self) -> str:
        return f"stand-in {self.place} {self.level}"


@dataclass(frozen=True, slots=True)
class Close:
    reason: str

    def __str__(self) -> str:
        return f"close {self.reason}"


@dataclass(frozen=True, slots=True)
class Hints:
    """The table offers hints (`/skat new hints:True`): set before the start, shown in lobby and list."""

    def __str__(self) -> str:
        return "hints"


Entry = Join | Leave | AddAI | RemoveAI | Start | NewDeal | Act | StandIn | Close | Hints


def parse_entry(text: str) -> Entry:
    """Read the `str` form of a log entry; raises ValueError naming what is wrong."""
    verb, _, rest = text.strip().partition(" ")
    try:
        if verb == "join":
            user, _, name = rest.partition(" ")
            return Join(int(user), name)
        if verb == "leave":
            return Leave(int(rest))
        if verb == "add-ai":
            level, _, by = rest.partition(" ")
            return AddAI(Level.parse(level), int(by) if by else None)
        if verb == "remove-ai":
            return RemoveAI(int(rest) if rest else None)
        if verb == "start":
            return Start(int(rest) if rest else 0)  # logs from before the random first dealer: place 0
        if verb == "deal":
            number, seed = rest.split()
            return NewDeal(int(number), int(seed))
        if verb in ("act", "timeout"):
            number, seat, action = rest.split(" ", 2)
            return Act(int(number), None if seat == "-" else int(seat), parse_action(action), verb == "timeout")
        if verb == "stand-in":
            place, level = rest.split()
            return StandIn(int(place), Level.parse(level))
        if verb == "close":
            return Close(rest)
        if verb == "hints" and not rest:
            return Hints()
    except ValueError as error:
        raise MalformedText(f"malformed table log entry {text!r}: {error}") from None
    raise MalformedText(f"malformed table log entry {text!r}")
