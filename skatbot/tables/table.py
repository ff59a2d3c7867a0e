"""A running table: one lock, every accepted step stored before it is shown, AI turns off the loop.

Data flow of one action: the cog calls `Table.act(user_id, action)`; under the table's lock (in this
process, then the store's across processes) the table catches up with entries other processes stored,
the entry is applied to the `TableGame`, appended to the store, and only then queued for the presenter.
AI seats are played by the table's `AIDriver` (driver.py), which asks the AI in an executor and submits
through the same path; its turn timer and Kontra window timer are its `Timers` (timers.py).

Timers and AI turns are also rows in the store (`Due`), written with the entry that makes them due: the
process that wrote them fires them itself at once (the driver's and the timers' tasks); when it dies, another
process's scheduler claims them once their lease runs out and calls `fire`, which acts only if the table is
still at the row's sequence number, so each step happens once.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TYPE_CHECKING

from skatbot.ai import Level
from skatbot.engine import Action, Claim, Concede, GameType, PlayCard
from skatbot.engine.views import SeatView, seat_view
from skatbot.models import Due, DueKind, DueStep, StoreBusy, TableState, counted

from . import events as ev
from .ai_bridge import hint_for, judge_claim
from .driver import AIDriver, MovedPast
from .due import DueSteps
from .errors import NotAllowed, NotAtTable, TableError, WrongTableState
from .game import FinishedDeal, TableGame
from .kontra import KontraWindow
from .log import Act, AddAI, Close, Entry, Join, Leave, NewDeal, RemoveAI, StandIn, Start, parse_entry
from .ports import Presenter, SeatGuard, TableStore
from .replay import replay_log
from .showing import Showing
from .timers import Sleep, Timers
from .turns import (
    DEFAULT_TIMING,
    TableTiming,
    due_steps,
    human_turn,
    moment,
)
from .view import Step, TableView, view_of

Meant = Callable[[SeatView], Action]
"""A typed command whose action depends on the sender's own view of the deal (`/skat bid value:0` passes a
player answering a bid), read by the table from the seat it looks up under its lock."""

if TYPE_CHECKING:
    from skatbot.ai.hint_values import Hint

log = logging.getLogger(__name__)

SETTLE_SECONDS = 60.0
"""How long `Table.settle` waits at most for what a table shows and its AI's thinking (tests)."""
CLOSE_SECONDS = 20.0
"""How long a closing table waits at most for its messages to be shown (a shutdown; they are stored)."""


def joining(user_id: int, name: str) -> Join:
    """A player's join, their name kept to one short line (as the lobby and the list show it)."""
    return Join(user_id, name.replace("\n", " ")[:64] or str(user_id))


async def _anyone(player_id: int, table_id: int | None, channel_id: int | None, *,
                  asked_by: int | None = None) -> None:
    """Anyone may sit at a table made outside a manager (tests): no guard."""


class Table:
    """One table in a channel. All changes go through `commit`, under `lock`."""

    def __init__(self, *, table_id: int, guild_id: int, channel_id: int, game: TableGame, store: TableStore,
                 presenter: Presenter, executor: Executor | None = None, timing: TableTiming = DEFAULT_TIMING,
                 sleep: Sleep = asyncio.sleep, new_seed: Callable[[], int] = lambda: secrets.randbits(48),
                 entries: Sequence[Entry] = (), clock: Callable[[], float] = time.time) -> None:
        self.id = table_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.game = game
        self.store = store
        self.presenter = presenter
        self.executor = executor
        self.timing = timing
        self.sleep = sleep
        self.new_seed = new_seed
        self.entries: list[Entry] = list(entries)
        self.clock = clock
        self._stored_at = float("-inf")  # when this process last stored an entry (the clock's seconds)
        self.lock = asyncio.Lock()
        self.showing = Showing(self, len(self.entries))  # what is queued for the presenter
        self._stable: TableView | None = None  # the table as stored, viewed at the end of its last locked step
        self.due = DueSteps(store, table_id)  # the due steps this process holds, and their leases
        self.ai = AIDriver(self)  # the computer players, deciding off the event loop
        self.window = KontraWindow()  # the Kontra window as this process sees it
        self.timers = Timers(self)  # the turn timer and the Kontra window's, in this process
        self._in_flight = 0  # 1 while an applied entry is being stored: the game already shows it
        self.may_sit: SeatGuard = _anyone  # the manager's seat guards (a tournament's players sit nowhere else)

    def opened(self) -> None:
        """The table was just stored with its first entries (its creator seated): show its lobby."""
        self.publish([ev.LobbyChanged()])

    async def begun(self) -> None:
        """The table was stored started with its first entries (`TableManager.create`'s `seated`): what a start
        writes and shows next (its seats, the first deal)."""
        await self.store.table_started(table=self._view_now())
        await self.store.set_table_state(table_id=self.id, state=self.game.state)
        await self._commit([], [ev.LobbyChanged(), ev.GameStarted()])

    # --- what players do ---------------------------------------------------------------------------

    async def join(self, user_id: int, name: str) -> None:
        self.require_live()
        await self.may_sit(user_id, self.id, self.channel_id)  # e.g. not while at a running tournament table
        await self._commit([joining(user_id, name)], [ev.LobbyChanged()])

    async def leave(self, user_id: int) -> None:
        self.require_live()
        shown: list[ev.Event] = [ev.LobbyChanged()]

        def leaving() -> list[Entry]:  # checked on the caught-up table
            place = self.game.place_of(user_id)
            if self.game.state is TableState.PLAYING and place is not None:
                shown.append(ev.StandInStarted(place, "left"))  # the table says so: an AI plays for them now
            return [Leave(user_id)]

        await self._commit(leaving, shown)

    async def add_ai(self, user_id: int, level: Level) -> None:
        await self._commit(lambda: self._seated_or_creator(user_id, AddAI(level, user_id)), [ev.LobbyChanged()])

    async def remove_ai(self, user_id: int) -> None:
        await self._commit(lambda: self._seated_or_creator(user_id, RemoveAI(user_id)), [ev.LobbyChanged()])

    async def start(self, user_id: int) -> None:
        for place in list(self.game.places):  # seated in this lobby before their tournament began: not both
            if place.user_id is not None and not place.is_ai:
                await self.may_sit(place.user_id, self.id, self.channel_id, asked_by=user_id)
        # The rules texts draw the first dealer; the draw is stored with the start, so a replay is exact.
        first_dealer = self.new_seed() % self.game.size
        await self._commit(lambda: self._seated_or_creator(user_id, Start(first_dealer)), [ev.GameStarted()])

    async def stop(self, user_id: int, *, is_admin: bool = False) -> None:
        if user_id != self.game.creator_id and not is_admin:
            raise NotAllowed("stop_creator")
        await self._commit([Close("stopped")])

    async def hint(self, user_id: int, *, seq: int | None = None) -> Hint:
        """The strong level's choice for the player's own decision now, from their view alone (computed
        in the AI workers; the seed comes from public facts only: table, deal, step and seat)."""
        game = self.game
        if not game.hints:
            raise NotAllowed("no_hints")
        seat = game.seat_of_user(user_id)
        if seq is not None and seq != self.seq:  # a hint button drawn for an earlier moment
            raise WrongTableState("stale")
        deal = game.deal
        if deal is None or deal.is_over or deal.current_seat != seat:
            raise NotAllowed("hint_wait")
        number, steps = game.deal_number, len(deal.history)
        return await self.ai.ask(hint_for, self.ai.seed(number, steps, seat), seat_view(deal, seat))

    @property
    def kontra_window(self) -> int | None:
        """The deal whose human leader waits while others may say Kontra (None: no one waits)."""
        return self.window.open

    @property
    def seq(self) -> int:
        """The table's sequence number: how many log entries it has. A control drawn at one moment
        carries it, and is refused once the table has moved on."""
        return len(self.entries) + self._in_flight

    def _actor(self, user_id: int, seq: int | None, issued_at: float | None = None) -> int:
        """The seat a human acts for now; refused for a table that ended, a player an AI stands in for, a
        control drawn for an earlier moment (`seq`), and a move typed before this process stored the table's
        newest entry (`issued_at`: its sender cannot have seen that entry)."""
        game = self.game
        self.require_live()
        seat = game.seat_of_user(user_id)
        if game.occupant_of_seat(seat).stand_in is not None:
            raise NotAllowed("stood_in")
        if seq is not None and seq != self.seq or issued_at is not None and self._stored_at >= issued_at:
            raise WrongTableState("stale")
        return seat

    async def act(self, user_id: int, action: Action | Meant, *, seq: int | None = None,
                  issued_at: float | None = None) -> Step:
        """A human's action. `seq` (from a button or menu) is the moment it was drawn for; `issued_at` (a typed
        command, which carries no moment) when it was typed, on `clock`. Who may act, and for which moment, is
        decided under the lock, on the table as stored (a claim is judged under it too), so of two clicks drawn
        for the same moment, or two commands typed at once, only the first is recorded. Entries another
        process stored are judged as seen (this process does not know when they were stored). The seat is
        looked up here, once; a typed command whose meaning depends on it (`Meant`) is read there too."""
        acted: list[tuple[int, Action]] = []  # the seat and the move it made, once stored

        async def steps() -> list[ev.Event]:
            game = self.game
            seat = self._actor(user_id, seq, issued_at)
            deal = game.deal  # the sender's own card, judged for the sender's own seat: a refusal tells nothing
            if isinstance(action, Claim) and deal is not None and action in deal.side_actions(seat):
                return await self._claimed(seat)
            if callable(action):
                assert deal is not None  # a seat was found: a deal is dealt
                move = action(seat_view(deal, seat))
            else:
                move = action
            if isinstance(move, PlayCard) and deal is not None and deal.current_seat == seat \
                    and move in deal.legal_actions() and await self._lead_waits():  # else its own reason
                raise NotAllowed("kontra_window", seconds=int(self.timing.kontra_window))
            acted.append((seat, move))
            return [*await self.apply_and_store(Act(game.deal_number, seat, move), ev.Actor.PLAYER),
                    *await self.follow_up()]

        step = await self.commit(steps)
        if acted and isinstance(acted[0][1], Concede):
            await self.ai.answer_concession(acted[0][0])
        return step

    async def _lead_waits(self) -> bool:
        """Whether the human leader's first card must wait for the Kontra window: as this process's window
        says, else as stored (another process stored the declaration and opened it)."""
        holds = self.window.holds_card(self.game, self.timing)
        return holds if holds is not None else await self.store.window_left(table_id=self.id) > 0

    def require_live(self) -> None:
        """A control or command of a table whose series is over, or that was closed, says so."""
        if self.game.state is TableState.FINISHED:
            raise WrongTableState("series_over")
        if self.game.state is TableState.ABANDONED:
            raise WrongTableState("closed")

    async def _claimed(self, seat: int) -> list[ev.Event]:
        """The declarer claims every remaining trick (in a null: no more tricks). The solver judges it in
        the AI workers, under the table's lock (`act`'s step) so nothing moves meanwhile: when it holds against
        every defence, the deal ends as claimed (the claim and the defenders' concessions are stored);
        otherwise it is refused, nothing is stored, and play goes on."""
        game = self.game
        deal, number = game.deal, game.deal_number
        if deal is None or deal.is_over or deal.contract is None or deal.declarer != seat:
            raise WrongTableState("no_deal")
        hands = (deal.hand_mask(0), deal.hand_mask(1), deal.hand_mask(2))
        trick = tuple(card.index for _, card in deal.current_trick)
        holds = await self.ai.ask(judge_claim, deal.contract.game, seat, hands, deal.trick_leader, trick)
        if not holds:
            if deal.contract.game is GameType.NULL:
                raise NotAllowed("claim_refused_null")
            raise NotAllowed("claim_refused")
        shown = await self.apply_and_store(Act(number, seat, Claim()), ev.Actor.PLAYER)
        for defender in ((seat + 1) % 3, (seat + 2) % 3):
            if not self.game.deal or self.game.deal.is_over:
                break
            shown.extend(await self.apply_and_store(Act(number, defender, Concede()), ev.Actor.TABLE))
        shown.extend(await self.follow_up())
        return shown

    # --- the commit path --------------------------------------------------------------------------

    def _seated_or_creator(self, user_id: int, entry: Entry) -> list[Entry]:
        self.require_live()
        if user_id != self.game.creator_id and self.game.place_of(user_id) is None:
            raise NotAtTable("players_only")
        return [entry]

    async def commit(self, steps: Callable[[], Awaitable[list[ev.Event]]]) -> Step:
        """The one commit path. Under the table's locks, on the table caught up with its log, `steps()` checks
        what it is asked, applies and stores its entries (`apply_and_store`, each with its due steps) and
        says what happened; the step is then handed to the presenter, the AI and the timers, and returned:
        its events and the table's view after it. A refusal raised by `steps()` stores nothing."""
        async with self._locked():
            since = len(self.entries)
            shown = await steps()
        self.publish(shown)
        self._kick()
        return Step(since, tuple(shown), self.current())

    async def _commit(self, entries: Sequence[Entry] | Callable[[], Sequence[Entry] | Awaitable[Sequence[Entry]]],
                      extra_events: Sequence[ev.Event] = (), by: ev.Actor = ev.Actor.PLAYER) -> Step:
        """Apply and store `entries` (or what `entries()` builds, checked on the caught-up table) by `by`, then
        the table's own follow-up (the next deal, closing a table nobody plays at)."""
        async def steps() -> list[ev.Event]:
            built = entries() if callable(entries) else entries
            shown: list[ev.Event] = []
            for entry in (await built if inspect.isawaitable(built) else built):
                shown.extend(await self.apply_and_store(entry, by))
            shown.extend(extra_events)
            shown.extend(await self.follow_up())
            return shown

        return await self.commit(steps)

    @asynccontextmanager
    async def _locked(self) -> AsyncIterator[None]:
        """The table's lock in this process, then the store's across processes, then the log caught up: a
        step is checked against the table as stored, whichever process wrote its last entry. The table's view
        is made again at its end, still under the lock."""
        async with self.lock, self.store.lock_table(table_id=self.id, since=len(self.entries)) as stored:
            try:
                await self._apply_stored(stored)
                yield
            finally:
                self._stable = self._view_now()

    def _view_now(self) -> TableView:
        """The game as it stands, viewed: only while no step is half applied (under the lock, or before it)."""
        return view_of(self.game, table_id=self.id, guild_id=self.guild_id, channel_id=self.channel_id,
                       seq=len(self.entries))

    def current(self) -> TableView:
        """The table as stored at its sequence number, as a frozen view (made under the lock at the end of its
        last step; a step half applied is not in it). Its Kontra wait is as it is now."""
        if self._stable is None or self._stable.seq != len(self.entries) and not self.lock.locked():
            self._stable = self._view_now()
        waits = self.window.lead_waits(self.game)
        return self._stable if self._stable.lead_waits == waits else replace(self._stable, lead_waits=waits)

    async def _catch_up(self) -> None:
        """Apply what other processes appended since this one last looked (they showed it themselves)."""
        await self._apply_stored(await self.store.entries_since(table_id=self.id, seq=len(self.entries)))

    async def _apply_stored(self, stored: list[str]) -> None:
        if not stored:
            return
        try:
            for text in stored:
                entry = parse_entry(text)
                self.game.apply(entry)
                self.entries.append(entry)
        except (ValueError, TableError):
            log.exception("table %s: the stored log does not follow on from this process's copy; replaying it",
                          self.id)
            game = self.game
            replayed = replay_log(size=game.size, deals=game.deals, rules=game.rules, creator_id=game.creator_id,
                                  entries=await self.store.entries_since(table_id=self.id, seq=0))
            self.game, self.entries = replayed.game, list(replayed.entries)
        self.showing.since = len(self.entries)  # what this process hands out next begins after them
        log.info("table %s: caught up %s written by another process", self.id, counted(len(stored), "entry", "entries"))

    async def refresh(self, *, patience: float | None = None) -> None:
        """Catch up with what other processes stored, for a command that reads the table or the presenter.
        Under this process's lock only (the log only grows): a step in progress here ends first. `patience`:
        seconds to wait for it (a claim being judged holds the lock a while; Discord wants an answer within
        three), after which the copy is read as it is; None waits."""
        try:
            await asyncio.wait_for(self.lock.acquire(), patience)
        except TimeoutError:
            return
        try:
            await self._catch_up()
        finally:
            self._stable = self._view_now()
            self.lock.release()

    async def apply_and_store(self, entry: Entry, by: ev.Actor) -> list[ev.Event]:
        """Apply one entry, store it, and describe it. Must be called under the lock."""
        game = self.game
        tricks_before = len(game.deal.tricks) if game.deal else 0
        row = game.apply(entry)  # raises, changing nothing, when refused
        self._in_flight = 1  # controls drawn from the game now are drawn for the moment after this entry
        try:
            await self.store.append_log(table_id=self.id, seq=len(self.entries), entry=str(entry),
                                        due=self._due_now())
        except StoreBusy:  # another writer held the database: nothing stored; the step may be tried again
            log.warning("table %s: the store was busy; %s was not stored", self.id, entry)
            self._rebuild()
            self.publish([ev.StepUndone()])  # hands and board drawn meanwhile show the table as it is again
            raise
        except Exception:
            log.exception("table %s: storing %s failed; rebuilding from the log", self.id, entry)
            self._rebuild()
            raise
        finally:
            self._in_flight = 0
        self.entries.append(entry)
        self._stored_at = self.clock()
        self.due.hold(self.seq)  # the rows stored with it are this process's to fire
        out: list[ev.Event] = []
        if isinstance(entry, Act):
            out.append(ev.ActionTaken(entry.number, entry.seat, entry.action, by))
            deal = game.deal
            assert deal is not None
            for index in range(tricks_before, len(deal.tricks)):
                out.append(ev.TrickTaken(entry.number, deal.tricks[index], index))
        elif isinstance(entry, NewDeal):
            out.append(ev.DealStarted(entry.number))
        elif isinstance(entry, Close):
            out.append(ev.TableClosed(entry.reason, len(self.entries) - 1))
        if row is not None:
            await self._record(row)
            out.append(ev.DealFinished(row))
            if game.state is TableState.FINISHED:
                out.append(ev.SeriesFinished(row.seq))
        if isinstance(entry, Start):
            await self.store.table_started(table=self._view_now())
        if isinstance(entry, (Start, Close)) or row is not None and game.state is TableState.FINISHED:
            await self.store.set_table_state(table_id=self.id, state=game.state)
        return out

    async def _record(self, row: FinishedDeal) -> None:
        await self.store.record_deal(table_id=self.id, row=row, table=self._view_now())

    async def follow_up(self) -> list[ev.Event]:
        """Steps the table takes by itself: deal the next hand; close a table nobody plays at."""
        out: list[ev.Event] = []
        game = self.game
        if game.state is TableState.PLAYING and not game.present_humans:
            out.extend(await self.apply_and_store(Close("nobody left"), ev.Actor.TABLE))
        if game.needs_new_deal:
            out.extend(await self.apply_and_store(NewDeal(game.deal_number + 1, self.new_seed()), ev.Actor.TABLE))
        return out

    def _rebuild(self) -> None:
        fresh = TableGame(self.game.size, self.game.deals, self.game.rules, self.game.creator_id)
        for entry in self.entries:
            fresh.apply(entry)
        self.game = fresh

    # --- presenting -----------------------------------------------------------------------------

    def publish(self, shown: list[ev.Event]) -> None:
        """Queue events for the presenter (shown in order, one step at a time, after what is queued)."""
        self.showing.publish(shown)

    def _running(self) -> list[asyncio.Task[None]]:
        return [task for task in (self.showing.task, self.ai.task) if task is not None and not task.done()]

    def settled_now(self) -> bool:
        """Nothing being shown (what is queued is shown by the presenting task), no AI thinking."""
        return not self._running()

    async def settle(self, timeout: float = SETTLE_SECONDS) -> bool:
        """Wait, at most `timeout` seconds, until everything queued has been shown and no AI is thinking (tests,
        shutdown): on the tasks themselves, never by polling. True when it settled; False when the bound passed
        first (a presenter Discord does not answer): logged with what still ran. Nothing is lost then: every
        step shown is stored first, and what a table owes is shown after a restart (`catch_up`)."""
        try:
            await asyncio.wait_for(self._settled(), timeout)
        except TimeoutError:
            log.warning("table %s: not settled after %.1f s (presenting: %s, AI thinking: %s, %s queued); "
                        "going on without it", self.id, timeout, self.showing.task is not None and not
                        self.showing.task.done(), self.ai.task is not None and not self.ai.task.done(),
                        counted(len(self.showing.queued), "event"))
            return False
        return True

    async def _settled(self) -> None:
        while True:
            while running := self._running():  # a finished task may have started another (the AI plays on)
                await asyncio.wait(running)
            await self.presenter.idle(self.id)  # the channel's messages it queued
            if self.settled_now():
                return

    # --- what the table does by itself ------------------------------------------------------------

    def _kick(self) -> None:
        """Start the AI driver when an AI must act, and the turn timer when a human must: only in the process
        that holds the table's due steps (another process that moved it on does it there)."""
        if self.game.state is not TableState.PLAYING or not self.due.holds(self.seq):
            self.timers.cancel()
            return
        self.ai.start()
        self.timers.arm()

    def _due_now(self) -> list[Due]:
        """What the table as it stands must do by itself (see `turns.due_steps`)."""
        return due_steps(self.game, self.timing, self.ai.asked, window_waited=self.window.ai_window_waited(self.game))

    async def time_out(self, key: tuple[int, int], place: int, seq: int) -> None:
        """The player did not act: an AI plays this turn for them; after repeated misses it stays on."""
        deal = self.game.deal
        assert deal is not None
        seat = deal.current_seat
        assert seat is not None
        action = await self.ai.stand_in(seq, key, seat)
        if moment(self.game) != key:
            return
        async def steps() -> list[ev.Event]:
            if moment(self.game) != key or self.seq != seq:  # played meanwhile, or moved on by another process
                raise MovedPast
            shown: list[ev.Event] = [ev.StandInStarted(place, "timeout")]
            shown.extend(await self.apply_and_store(Act(key[0], seat, action, timed_out=True), ev.Actor.STAND_IN))
            if self.game.misses.get(place, 0) >= self.timing.misses_before_stand_in and \
                    self.game.state is TableState.PLAYING:  # not when that move ended the series
                shown.extend(await self.apply_and_store(StandIn(place, Level.NORMAL), ev.Actor.TABLE))
                shown.append(ev.StandInStarted(place, "absent"))
            shown.extend(await self.follow_up())
            self.timers.ran_out()  # (a timer that did this is done: the next turn arms its own)
            return shown

        with contextlib.suppress(MovedPast):
            await self.commit(steps)

    async def fire(self, step: DueStep) -> None:
        """A due step claimed from the store (the process that wrote it died, or is late): do it if the table
        is still at the step's sequence number, else drop it as stale. What it stores is checked under the
        table's locks like any move, so a step fired by two processes happens once. The end of a Kontra window
        shows the leader's hand ready to play (once: `Timers.end_kontra_window`)."""
        async with self._locked():
            current = self.seq == step.seq and self.game.state is TableState.PLAYING
            turn = human_turn(self.game)
            if current:
                self.due.hold(step.seq)  # claimed: this process's to fire now
                if step.kind is DueKind.KONTRA:  # its row is closed rather than dropped: it keeps the window's end
                    log.info("table %s: firing kontra due at %s (seq %d)", self.id, step.at, step.seq)
                    await self.timers.end_kontra_window(self.game.deal_number, step.seq)
                    return
        if current:
            log.info("table %s: firing %s due at %s (seq %d)", self.id, step.kind.value, step.at, step.seq)
            if step.kind is DueKind.AI:
                await self.ai.fire(step.seq)
                self.timers.arm()
            elif step.kind is DueKind.WARN and turn is not None:
                await self.timers.warn(step.seq, turn[1])
            elif step.kind is DueKind.TIMEOUT and turn is not None:
                await self.time_out(*turn, step.seq)
            elif step.kind is DueKind.FOLLOW:
                await self._commit([], by=ev.Actor.TABLE)
        await self.due.drop(step.seq, step.kind)  # done, or stale

    async def resume(self, *, announce: bool = True) -> None:
        """After a restore: take over the table's due steps unless another process holds them (it is playing
        this table now; if it died a moment ago, a scheduler claims them once its lease runs out), then deal on
        if a deal was due and start AI turns and timers again (their rows written afresh, held by this
        process). Never from the replay alone: two processes would play the same AI turn. `announce`: say so
        at the table (of several processes sharing it, the one that runs its server's shard does)."""
        async def steps() -> list[ev.Event]:
            shown: list[ev.Event] = []
            if self.game.state is TableState.PLAYING and announce:
                shown.append(ev.TableResumed())
            if await self.due.take_over(self.seq, self._due_now()) and self.game.state is TableState.PLAYING:
                shown.extend(await self.follow_up())
            return shown

        await self.commit(steps)

    async def close(self, *, release: bool = False, timeout: float = CLOSE_SECONDS) -> None:
        """Stop timers and AI tasks (bot shutdown); the table itself stays as stored. What is queued for the
        presenter is shown for at most `timeout` seconds, then stopped (it is shown after the restart). `release`
        (a clean shutdown): the due steps this process holds may be claimed by another process at once, not a
        lease later."""
        self.timers.stop()
        self.ai.stop()
        if not await self.settle(timeout):
            for task in self._running():
                task.cancel()
            await asyncio.gather(*self._running(), return_exceptions=True)
            self.showing.queued.clear()
        if release and self.game.state is TableState.PLAYING:
            await self.due.release(self.seq)
