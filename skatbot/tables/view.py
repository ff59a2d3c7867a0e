"""What a table hands out: a step as a value, and a frozen view of the table made under its lock.

Whoever shows or records a table (the presenter, the deal recorder, a tournament) reads these values and
never the live table: a view is the table as stored at its sequence number, with every seat's private view
and the public view of the deal built by the engine, so a hidden card reaches only its owner's view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from skatbot.engine import RuleSet
from skatbot.engine.views import PublicView, SeatView, public_view, seat_view
from skatbot.models import TableState, seen_number

from .events import Event
from .game import FinishedDeal, Occupant, Seating, TableGame


@dataclass(frozen=True, slots=True)
class TableView(Seating):
    """One table at one moment (its sequence number `seq`), read like a `TableGame` for who sits where.
    `board`: the public view of the current deal; `seats`: each seat's private view of it (both empty before
    the first deal); `lead_waits`: the human leader of the first trick waits while others may say Kontra."""

    id: int
    guild_id: int
    channel_id: int
    seq: int
    size: int
    deals: int
    rules: RuleSet
    creator_id: int
    state: TableState
    places: tuple[Occupant, ...]
    first_dealer: int
    deal_number: int
    board: PublicView | None
    seats: tuple[SeatView, ...]
    finished: tuple[FinishedDeal, ...]
    list_totals: tuple[int, ...]
    hints: bool = False
    close_reason: str | None = None
    lead_waits: bool = False

    @property
    def dealing(self) -> bool:
        return self.board is not None

    @property
    def number(self) -> int:
        """The current deal's number as people read it (1 for the first deal; 0 before it)."""
        return seen_number(self.deal_number)

    @property
    def playing(self) -> bool:
        """Whether a deal is being played now (the table plays and its current deal is not over)."""
        return self.state is TableState.PLAYING and self.board is not None and not self.board.is_over

    def totals(self) -> list[int]:
        """Running list points per table place."""
        return list(self.list_totals)

    def seat_view(self, user_id: int) -> SeatView:
        """The user's own view of the current deal (refused as `seat_of_user` refuses)."""
        return self.seats[self.seat_of_user(user_id)]


def view_of(game: TableGame, *, table_id: int, guild_id: int, channel_id: int, seq: int,
            lead_waits: bool = False) -> TableView:
    """A frozen view of `game` as it stands (call it while no step is half applied: under the table's lock)."""
    deal = game.deal
    return TableView(
        id=table_id, guild_id=guild_id, channel_id=channel_id, seq=seq, size=game.size, deals=game.deals,
        rules=game.rules, creator_id=game.creator_id, state=game.state,
        places=tuple(replace(occupant) for occupant in game.places), first_dealer=game.first_dealer,
        deal_number=game.deal_number, board=public_view(deal) if deal is not None else None,
        seats=tuple(seat_view(deal, seat) for seat in range(3)) if deal is not None else (),
        finished=tuple(game.finished), list_totals=tuple(game.totals()), hints=game.hints,
        close_reason=game.close_reason, lead_waits=lead_waits)


@dataclass(frozen=True, slots=True)
class Step:
    """What one or more accepted steps did: their `events`, and the table's `view` after them (at `seq`).
    `since`: the table's sequence number before them; a presenter that last showed another number knows the
    table moved on elsewhere meanwhile (another process showed those entries)."""

    since: int
    events: Sequence[Event]
    view: TableView

    @property
    def seq(self) -> int:
        return self.view.seq


__all__ = ["Step", "TableView", "view_of"]
