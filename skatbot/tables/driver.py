"""The computer players at one table in one process: they decide off the event loop and submit moves.

`AIDriver` plays the AI seats' turns (a computer player, or a stand-in for an absent human) while this
process holds the table's due steps: which seat acts is `turns.ai_to_move` and `turns.side_calls_due`, how
long it waits first is the Kontra window's (`KontraWindow.ai_delay`). It asks the AI in the executor (`ask`,
with the step's lease kept meanwhile: `thinking`) and stores what it chose through `Table.commit`, like any
player's move (`submit`); a move prepared for a moment the table has moved past stores nothing. A computer
defender also answers its partner's concession here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import BrokenExecutor, Executor
from typing import Protocol, TypeVar

from skatbot.ai import Level
from skatbot.engine import Action, Concede
from skatbot.engine.views import seat_view
from skatbot.models import DueKind, StoreBusy, TableState

from . import events as ev
from .ai_bridge import answer_concession, decide, decide_side
from .due import DueSteps
from .errors import WrongTableState
from .game import TableGame
from .kontra import KontraWindow
from .log import Act, Entry
from .timers import Sleep
from .turns import Moment, TableTiming, ai_acts, ai_to_move, moment, side_calls_due
from .view import Step

log = logging.getLogger(__name__)

T = TypeVar("T")

Asked = set[tuple[int, int, str]]
"""The Kontra and Re calls the AI seats were asked for: (deal, seat, "kontra" or "re")."""


class MovedPast(Exception):
    """A step prepared for a moment the table has moved past (another process, or a player, was first)."""


class Driven(Protocol):
    """What the driver reads of its table (`Table`); `game`, `timing`, `sleep` and `executor` as they are now."""

    id: int
    game: TableGame
    timing: TableTiming
    sleep: Sleep
    executor: Executor | None
    due: DueSteps
    window: KontraWindow

    @property
    def seq(self) -> int: ...

    def publish(self, shown: list[ev.Event]) -> None: ...

    async def commit(self, steps: Callable[[], Awaitable[list[ev.Event]]]) -> Step: ...

    async def apply_and_store(self, entry: Entry, by: ev.Actor) -> list[ev.Event]: ...

    async def follow_up(self) -> list[ev.Event]: ...


class AIDriver:
    """One table's computer players in this process."""

    def __init__(self, table: Driven) -> None:
        self.table = table
        self.task: asyncio.Task[None] | None = None  # the AI seats' turns being played
        self.asked: Asked = set()
        self.no_wait_at = -1  # the seq at which a claimed AI step was due already: the driver does not wait

    def start(self) -> None:
        """Play the AI seats' turns when one must act (unless they are being played)."""
        if (self.task is None or self.task.done()) and ai_acts(self.table.game, self.asked):
            self.task = asyncio.create_task(self._run_logged())

    async def fire(self, seq: int) -> None:
        """The AI step due at `seq` was claimed from the store (its row was due after any wait already):
        play on from there, and return once the AI seats have nothing more to do."""
        if self.task is None or self.task.done():
            self.no_wait_at = seq
            self.task = asyncio.create_task(self._run_logged())
        await self.task

    def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()

    async def _run_logged(self) -> None:
        try:
            await self._run()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the AI driver stopped", self.table.id)

    def _holds(self) -> bool:
        """Whether this process holds the table's due steps at its current moment (wrote it, or claimed it)."""
        return self.table.due.holds(self.table.seq)

    async def _run(self) -> None:
        """Play the AI seats' turns while this process holds the table's due steps: it wrote the latest
        entry, or claimed the AI step. A copy that another process moved on stops (that process plays)."""
        table = self.table
        while table.game.state is TableState.PLAYING and self._holds():
            game = table.game
            deal = game.deal
            if deal is None:
                return
            number, steps = game.deal_number, len(deal.history)
            side = side_calls_due(game, self.asked)
            if side:
                caller, kind = side[0]
                self.asked.add((number, caller, kind))
                view = seat_view(deal, caller)
                seq = table.seq
                call = await self.thinking(seq, DueKind.AI, decide_side, self._level(caller),
                                           self.seed(number, steps, caller), view)
                if call is not None and moment(table.game) == (number, steps):
                    await self.submit(Act(number, caller, call), seq)
                continue
            seat = ai_to_move(game)
            if seat is None:
                return
            delay = table.window.ai_delay(game, table.timing, self.asked)
            if delay and self.no_wait_at != table.seq:  # (a claimed step: its row was due after the wait already)
                await table.sleep(delay)
                if moment(table.game) != (number, steps):
                    continue
            view = seat_view(deal, seat)
            seq = table.seq
            action = await self.thinking(seq, DueKind.AI, decide, self._level(seat), self.seed(number, steps, seat),
                                         view)
            if moment(table.game) == (number, steps):
                await self.submit(Act(number, seat, action), seq)

    async def answer_concession(self, seat: int) -> None:
        """A defender conceded: a computer partner answers, conceding too only when it sees no chance."""
        table = self.table
        game = table.game
        deal = game.deal
        if deal is None or deal.is_over or deal.declarer is None or deal.declarer == seat:
            return
        partner = 3 - seat - deal.declarer
        if game.occupant_of_seat(partner).plays_itself or partner in deal.conceded:
            return
        number, steps, seq = game.deal_number, len(deal.history), table.seq
        agrees = await self.thinking(seq, self._held_kind(), answer_concession, self.seed(number, steps, partner),
                                     seat_view(deal, partner))
        if moment(table.game) != (number, steps):
            return
        if agrees:
            await self.submit(Act(number, partner, Concede()), seq)
        else:
            table.publish([ev.ConcessionDeclined(game.place_of_seat(partner))])

    async def submit(self, entry: Act, seq: int) -> None:
        """Store an AI's decision for the table at `seq`. When the table as stored has moved past that moment,
        nothing is stored and the driver looks at the table again: moved on by this process (a player left
        while the AI thought: a Leave, no move), it holds the table's due steps and plays on; moved on by
        another process, it does not, and stops (that process plays the next AI turns). (It used to stop either
        way; as `start` and `fire` leave a running driver be, the turn after such a leave was played by nobody
        and the table stood still.)"""
        table = self.table
        occupant = table.game.occupant_of_seat(entry.seat) if entry.seat is not None else None
        by = ev.Actor.AI if occupant is None or occupant.is_ai else ev.Actor.STAND_IN

        async def steps() -> list[ev.Event]:
            if table.seq != seq or table.game.state is not TableState.PLAYING:
                log.info("table %s: the table moved past seq %d while its AI decided; %s is not stored",
                         table.id, seq, entry)
                raise MovedPast
            return [*await table.apply_and_store(entry, by), *await table.follow_up()]

        try:
            await table.commit(steps)
        except MovedPast:
            return
        except StoreBusy:  # asked again after a pause (the driver loops while the deal waits for this seat)
            await table.sleep(1.0)
        except (ValueError, WrongTableState):
            log.exception("table %s: the AI chose an action the table refused: %s", table.id, entry)

    async def stand_in(self, seq: int, key: Moment, seat: int) -> Action:
        """The normal level's move for a human whose time ran out at the moment `key` (the table at `seq`),
        their time-out step kept held meanwhile."""
        deal = self.table.game.deal
        assert deal is not None
        return await self.thinking(seq, DueKind.TIMEOUT, decide, Level.NORMAL, self.seed(key[0], key[1], seat),
                                   seat_view(deal, seat))

    async def thinking(self, seq: int, kind: DueKind, decision: Callable[..., T], *args: object) -> T:
        """An AI decision for the table at `seq` (asked as `ask` does), its `kind` step kept held meanwhile."""
        return await self.table.due.keeping(seq, kind, self.ask(decision, *args))

    def _held_kind(self) -> DueKind:
        """The step of the table's current moment that an AI deciding out of turn (a partner answering a
        concession) keeps held: the AI seat's move when one must act (due first), else the human's time-out."""
        return DueKind.AI if ai_acts(self.table.game, self.asked) else DueKind.TIMEOUT

    async def ask(self, decision: Callable[..., T], *args: object) -> T:
        """Run an AI decision in the executor; if the executor itself is broken (a worker process died, or
        it was shut down), decide here instead, so that the table never stalls."""
        try:
            return await asyncio.get_running_loop().run_in_executor(self.table.executor, decision, *args)
        except (BrokenExecutor, RuntimeError) as error:
            log.error("table %s: the AI executor failed (%r); deciding on the event loop", self.table.id, error)
            return decision(*args)

    def _level(self, seat: int) -> Level:
        return self.table.game.occupant_of_seat(seat).acting_level or Level.NORMAL

    def seed(self, number: int, steps: int, seat: int) -> int:
        """The seed of a decision: from public facts only (table, deal, step and seat), so it is reproducible."""
        return hash((self.table.id, number, steps, seat)) & 0xFFFFFFFF


__all__ = ["AIDriver", "Asked", "Driven", "MovedPast"]
