"""The Kontra window: before the first card of a deal, the others may say Kontra or Re.

Their buttons reach them a moment after the declaration, so a quick first card would take their say away: a
human about to lead the first trick waits `TableTiming.kontra_window` seconds while another human may still
speak (the window ends early once no one else can), and an AI leader waits the same time before its card.
Each happens once a deal.

`KontraWindow` is that lifecycle as one process sees it, a plain object of the game and the timing: the table
asks it after each step what changed (`follow`), tells it when the window ran out (`ran_out`), and asks it
whether a leader's card must wait (`holds_card`) and how long an AI waits (`ai_delay`). The table keeps the
clock, the timer task and the stored row that keeps the window's end for other processes.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass, field
from enum import Enum

from .game import TableGame
from .turns import TableTiming, ai_delay, ai_to_move, humans_may_speak, leader_waits, side_calls_due


class Change(Enum):
    """What a step did to the window: it opened (start its timer) or closed early (show the leader ready)."""

    OPENED = "opened"
    CLOSED = "closed"


@dataclass(slots=True)
class KontraWindow:
    """One table's Kontra window in one process."""

    open: int | None = None
    """The deal whose human leader waits now (None: no one waits)."""
    opened: set[int] = field(default_factory=set)
    """Deals whose human leader's window opened, here or as stored (once a deal)."""
    ai_waited: set[int] = field(default_factory=set)
    """Deals whose AI leader waited the window (once a deal)."""

    def follow(self, game: TableGame, timing: TableTiming) -> tuple[Change, int] | None:
        """The table moved on (a step stored or caught up): the window opens for a human about to lead the first
        trick while others may speak (once a deal), and closes early once its deal moved on or no one else can
        speak. Returns the change and its deal, if any."""
        deal, number = game.deal, game.deal_number
        if self.open is not None:
            if self.open != number or deal is None or deal.current_seat is None or \
                    not humans_may_speak(game, besides=deal.current_seat):
                closed, self.open = self.open, None
                return Change.CLOSED, closed
            return None
        if number in self.opened or not leader_waits(game, timing):
            return None
        self.opened.add(number)
        self.open = number
        return Change.OPENED, number

    def ran_out(self, number: int) -> bool:
        """Deal `number`'s window is over (its time ran out here, or its stored end was claimed): True if it was
        open here. It does not open again for that deal."""
        self.opened.add(number)
        if self.open == number:
            self.open = None
            return True
        return False

    def forget(self) -> int | None:
        """This process stops keeping the window (the table closes): the deal it was open for."""
        closed, self.open = self.open, None
        return closed

    def lead_waits(self, game: TableGame) -> bool:
        """Whether the leader of the current deal is shown waiting."""
        return self.open is not None and self.open == game.deal_number

    def holds_card(self, game: TableGame, timing: TableTiming) -> bool | None:
        """Whether the human leader's first card must wait: as this process saw the window when it opened here,
        else False when no window applies, else None: the window opened in another process (it stored the
        declaration), so its end as stored decides."""
        number = game.deal_number
        if number in self.opened:
            return self.open == number
        return False if not leader_waits(game, timing) else None

    def ai_delay(self, game: TableGame, timing: TableTiming, asked: Set[tuple[int, int, str]]) -> float:
        """How long the AI waits before the move it decides next (`turns.ai_delay`: the window before an AI
        leads, once a deal, and the pause people watch); the window counts as waited from now on."""
        number = game.deal_number
        delay = ai_delay(game, timing, asked, window_waited=number in self.ai_waited)
        if ai_to_move(game) is not None and not side_calls_due(game, asked) and humans_may_speak(game):
            self.ai_waited.add(number)
        return delay

    def ai_window_waited(self, game: TableGame) -> bool:
        """Whether the AI leader of the current deal waited the window already (the due steps stored say so)."""
        return game.deal_number in self.ai_waited


__all__ = ["Change", "KontraWindow"]
