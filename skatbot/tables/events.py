"""What a table tells its presenter after each accepted step (the presenter renders it)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from skatbot.engine import Action, DealResult, Trick

from .game import FinishedDeal


class Actor(StrEnum):
    """Who decided an action or step; the value is the word the table's events and logs use."""

    PLAYER = "player"  # the human in the seat
    AI = "ai"  # a computer player in its own seat
    STAND_IN = "stand-in"  # an AI acting for an absent human
    TABLE = "table"  # the table itself: dealing on, closing, seating a stand-in


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    pass


@dataclass(frozen=True, slots=True)
class GameStarted:
    pass


@dataclass(frozen=True, slots=True)
class DealStarted:
    number: int


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """`seat` (engine seat, None for the table) did `action`; `by` says who decided it."""

    number: int
    seat: int | None
    action: Action
    by: Actor


@dataclass(frozen=True, slots=True)
class TrickTaken:
    number: int
    trick: Trick
    index: int  # 0..9


@dataclass(frozen=True, slots=True)
class DealFinished:
    row: FinishedDeal

    @property
    def result(self) -> DealResult:
        return self.row.result


@dataclass(frozen=True, slots=True)
class SeriesFinished:
    """The series' last deal finished (at log entry `seq`): its final ranking is owed."""

    seq: int


@dataclass(frozen=True, slots=True)
class TurnWarning:
    place: int
    seconds_left: float


@dataclass(frozen=True, slots=True)
class StandInStarted:
    """An AI now plays for the human at `place` (who left or ran out of time)."""

    place: int
    reason: str


@dataclass(frozen=True, slots=True)
class ConcessionDeclined:
    """The computer player at `place` plays on after its partner conceded: it still sees a chance."""

    place: int


@dataclass(frozen=True, slots=True)
class TableResumed:
    """The bot restarted and rebuilt this table from its log: the board and hands are shown afresh."""


@dataclass(frozen=True, slots=True)
class KontraWindowClosed:
    """The leader of deal `number` may play: the others' time to say Kontra or Re is over."""

    number: int


@dataclass(frozen=True, slots=True)
class StepUndone:
    """A step was applied but could not be stored (the store was busy): the table is as it was, and what was
    shown meanwhile is drawn again from it."""


@dataclass(frozen=True, slots=True)
class TableClosed:
    """The table was closed by its log entry `seq` (stopped, or nobody left): its closing notice is owed."""

    reason: str
    seq: int


Event = (LobbyChanged | GameStarted | DealStarted | ActionTaken | TrickTaken | DealFinished | SeriesFinished
         | TurnWarning | StandInStarted | ConcessionDeclined | TableResumed | StepUndone | KontraWindowClosed
         | TableClosed)
