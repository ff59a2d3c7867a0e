"""A table's clock in one process: the turn timer of the human to move, and the Kontra window's timer.

The table arms its timers after each step it commits (only in the process that holds its due steps). The
turn timer warns the player, then has the table play for them (`Table.time_out`, through the one commit
path); the Kontra window's timer ends the window when the stored one ends. What they decide is decided by
pure functions (`turns.human_turn`, `KontraWindow`); this module keeps the tasks and the sleeps. The warning
and the window's end are shown by whichever process drops or closes their stored rows, so once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from skatbot.models import DueKind, TableState

from . import events as ev
from .due import DueSteps
from .game import TableGame
from .kontra import Change, KontraWindow
from .ports import TableStore
from .turns import Moment, TableTiming, human_turn, moment

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]

TimerKey = tuple[int, int, int]
"""What a turn timer runs for: the deal number, the steps in the deal, the table's seq."""


class Timed(Protocol):
    """What the timers read of their table (`Table`); `game`, `timing` and `sleep` as they are now."""

    id: int
    game: TableGame
    timing: TableTiming
    sleep: Sleep
    lock: asyncio.Lock
    store: TableStore
    due: DueSteps
    window: KontraWindow

    @property
    def seq(self) -> int: ...

    def publish(self, shown: list[ev.Event]) -> None: ...

    async def time_out(self, key: Moment, place: int, seq: int) -> None: ...


class Timers:
    """One table's turn timer and Kontra window timer in this process."""

    def __init__(self, table: Timed) -> None:
        self.table = table
        self.turn: asyncio.Task[None] | None = None  # the turn timer of the human to move
        self.key: TimerKey | None = None  # what `turn` runs for
        self.kontra: asyncio.Task[None] | None = None  # the Kontra window's timer

    def arm(self) -> None:
        """The table moved on (this process holds its due steps): the Kontra window follows, and the turn timer
        runs for the human to move now (kept when it already does, stopped when no human is to move)."""
        table = self.table
        if table.game.state is TableState.PLAYING:
            self._follow_kontra_window()
        turn = human_turn(table.game)
        if turn is None:
            self.cancel()
            return
        (number, steps), place = turn
        key = (number, steps, table.seq)
        if key == self.key and self.turn is not None and not self.turn.done():
            return
        self.cancel()
        self.key = key
        self.turn = asyncio.create_task(self._run(key, place))

    def cancel(self) -> None:
        """The turn timer stops (unless it is what runs now: it ends by itself)."""
        if self.turn is not None and not self.turn.done() and self.turn is not asyncio.current_task():
            self.turn.cancel()
        self.turn = None
        self.key = None

    def ran_out(self) -> None:
        """The running turn timer did its work (the table played for the player): the next turn arms its own."""
        if self.turn is asyncio.current_task():
            self.turn = None
            self.key = None

    def stop(self) -> None:
        """Both timers stop (the table closes in this process)."""
        for task in (self.turn, self.kontra):
            if task is not None and not task.done():
                task.cancel()

    async def _run(self, key: TimerKey, place: int) -> None:
        table = self.table
        timing = table.timing
        number, steps, seq = key
        await table.sleep(timing.warn_after)
        if moment(table.game) != (number, steps):
            return
        if timing.turn_seconds > timing.warn_after:  # a server may turn the warning off (0 s before the end)
            await self.warn(seq, place)
            await table.sleep(timing.turn_seconds - timing.warn_after)
        if moment(table.game) != (number, steps):
            return
        await table.time_out((number, steps), place, seq)

    async def warn(self, seq: int, place: int) -> None:
        """The turn's warning, shown by whichever process drops its row (so once, even after a takeover)."""
        table = self.table
        if await table.due.drop(seq, DueKind.WARN):
            table.publish([ev.TurnWarning(place, table.timing.turn_seconds - table.timing.warn_after)])

    # --- the Kontra window -----------------------------------------------------------------------

    def _follow_kontra_window(self) -> None:
        """The table moved on: its Kontra window opens (its timer starts) or closes early (the leader is shown
        ready), as `KontraWindow.follow` says."""
        table = self.table
        change = table.window.follow(table.game, table.timing)
        if change is None:
            return
        what, number = change
        if what is Change.OPENED:
            self.kontra = asyncio.create_task(self._kontra_window_runs(number))
        else:
            self._stop_kontra()
            table.publish([ev.KontraWindowClosed(number)])

    async def _kontra_window_runs(self, number: int) -> None:
        """The window ends when the stored one does: it may have opened in another process, a while ago."""
        table = self.table
        seconds = table.timing.kontra_window
        if seconds > 0:
            try:
                seconds = min(seconds, await table.store.window_left(table_id=table.id))
            except Exception as error:  # the database away for a moment: the whole window, as this process saw it
                log.warning("table %s: reading the Kontra window's end failed: %r", table.id, error)
        await table.sleep(seconds)
        if table.window.open == number:
            async with table.lock:  # no step half stored: the window's row is the one at `seq`
                if table.window.open == number:
                    await self.end_kontra_window(number, table.seq)

    async def end_kontra_window(self, number: int, seq: int) -> None:
        """The Kontra window of deal `number` ended (as stored): this process's window closes, and the leader's
        hand is shown ready by whichever process closes the window's stored row at `seq` (this one when its own
        window ran out; another that claimed the row when this one died in the window), so once. Under a lock."""
        table = self.table
        if table.window.ran_out(number):
            self._stop_kontra()
        try:
            closed = await table.store.close_window(table_id=table.id, seq=seq)
        except Exception as error:  # shown here all the same; a scheduler may show it once more (a redraw)
            log.warning("table %s: closing the Kontra window's row failed: %r", table.id, error)
            closed = True
        if closed:
            table.publish([ev.KontraWindowClosed(number)])

    def _stop_kontra(self) -> None:
        """The window's timer stops (unless it is what ends the window)."""
        timer, self.kontra = self.kontra, None
        if timer is not None and not timer.done() and timer is not asyncio.current_task():
            timer.cancel()


__all__ = ["Timed", "TimerKey", "Timers"]
