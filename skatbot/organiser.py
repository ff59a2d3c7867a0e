"""Runs tournaments: stores their steps in their own log, opens ordinary tables for every series, and follows
the deals those tables store.

A tournament never reaches into a table: it opens tables through the `TableManager` as /skat new does (in a
thread of their own, the drawn players seated, started at once), and learns that a deal finished through one
narrow hook, `StorageTables.deal_listeners` (called after a deal record is stored). What it computes from
results (standings, the end of a series) is always read back from the stored deal records of its tables, so a
restart, a missed hook or another process serving a table changes nothing: `catch_up` looks again.

Every step is checked against the tournament as stored (`TournamentState`, replayed from the log) and stored
before anything is shown; a refusal (`TournamentError`) changes nothing. Steps that need Discord (a thread to
play in, the messages) go through the `TournamentPort` the cog provides.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from skatbot.ai import Level
from skatbot.engine import RuleSet, game_text
from skatbot.models import TableState
from skatbot.storage import LogConflict, NotFound, Storage, StoredTournament
from skatbot.tables import Table, TableError
from skatbot.tables.game import TableGame
from skatbot.tables.log import Act, AddAI, Start
from skatbot.tables.log import Entry as TableEntry
from skatbot.tables.log import parse_entry as parse_table_entry
from skatbot.tables.manager import TableManager
from skatbot.tables.table import joining
from skatbot.tournaments import (
    DealLine,
    DrawError,
    Drawn,
    Ended,
    Entry,
    Joined,
    Left,
    Shown,
    Standing,
    TableDraw,
    TableOpened,
    TournamentError,
    TournamentSettings,
    TournamentState,
    draw_by_lot,
    fees_of,
    seeded_draw,
    standings,
)
from skatbot.tournaments.log import Stage

log = logging.getLogger(__name__)

AI_LEVEL = Level.NORMAL
"""Computer players that fill seats when the count cannot be split into tables of three and four."""
RUNNING_TABLE = (TableState.OPEN, TableState.PLAYING)
"""A table in these states holds its players (`may_sit`)."""


class TournamentPort(Protocol):
    """What the Discord side does for a tournament (the cog)."""

    async def open_thread(self, run: Running, series: int, index: int, draw: TableDraw) -> int:
        """A thread for table `index` of `series` under the tournament's channel; its id."""

    async def drawn(self, run: Running, drawn: Drawn) -> int:
        """Every table of a series is open: post the draw (its seed, the tables, their threads); the id."""

    async def changed(self, run: Running) -> None:
        """The sign-ups or the standings changed: refresh the messages (coalesced by the cog)."""

    async def series_done(self, run: Running, series: int, waiting: TournamentError | None = None) -> int:
        """Every table of `series` finished and another follows: say so (and, when the next series would start
        by itself, why it waits: `waiting`); the message's id."""

    async def ended(self, run: Running) -> int:
        """The tournament ended: post the final list (nothing else: its id is stored at once); the message's id."""

    async def closed(self, run: Running) -> None:
        """The final list is shown: the scheduled event and the sign-up and standings messages follow it. Asked
        again after a restart that came before it was stored as done, so it must be idempotent."""


@dataclass
class Running:
    """A tournament as this process knows it: its row, its log and what the log says."""

    tournament_id: int
    server_id: int
    channel_id: int
    organiser_id: int
    name: str
    state: TournamentState
    log: list[str] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    opening: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)  # one opening of its tables at a time

    @property
    def settings(self) -> TournamentSettings:
        return self.state.settings


def stand_in_deals(*, size: int, deals: int, rules: RuleSet, creator_id: int, entries: Sequence[str]) -> dict[int, int]:
    """Per human player, how many deals of this table log an AI stand-in played a move in for them (they left
    or ran out of time): what the list marks. Replayed through `TableGame` as the tables layer replays it."""
    game = TableGame(size=size, deals=deals, rules=rules, creator_id=creator_id)
    counts: dict[int, int] = {}
    marked: set[int] = set()
    for text in entries:
        entry = parse_table_entry(text)
        if isinstance(entry, Act) and entry.seat is not None and game.deal is not None:
            occupant = game.places[game.place_of_seat(entry.seat)]
            if occupant.user_id is not None and occupant.stand_in is not None:
                marked.add(occupant.user_id)
        if game.apply(entry) is not None:
            for player in marked:
                counts[player] = counts.get(player, 0) + 1
            marked.clear()
    return counts


class _SignUpsChanged(Exception):
    """The sign-ups changed between /tournament start's check of the players and its draw: check again."""


def _unless_opened(entry: TableOpened) -> Callable[[TournamentState], list[Entry]]:
    def build(state: TournamentState) -> list[Entry]:
        return [] if (entry.series, entry.index) in state.tables else [entry]
    return build


def _state_column(state: TournamentState, *, stored: bool = False) -> str:
    """The tournament's state for queries. `stored`: as kept in its row, where an ended tournament stays
    "playing" until its final list was shown and the messages that follow it were marked (`closed`): what is
    owed, a restart takes up and does."""
    if state.phase is not Stage.ENDED:
        return state.phase.value
    if stored and "closed" not in state.shown:
        return Stage.PLAYING.value
    return "stopped" if state.ended == "stopped" else "finished"


def _fees_json(standing: Standing, settings: TournamentSettings) -> dict[str, int]:
    """A player's fees as booked (cents): the entry, the lost games' and the total, as the final list says."""
    fees = fees_of(standing, entry_fee=settings.entry_fee, per_lost_game=settings.lost_fee)
    return {"entry": fees.entry, "lost_games": fees.lost_games, "total": fees.total}


class Organiser:
    def __init__(self, storage: Storage, tables: TableManager,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 new_seed: Callable[[], int] = lambda: secrets.randbits(31)) -> None:
        self.storage = storage
        self.tables = tables
        self.clock = clock
        self.new_seed = new_seed
        self.port: TournamentPort | None = None
        # The servers this process shows tournaments for (several shard processes: each its own servers', so
        # a series' end or the final list is posted by one process); a deal another process stored is caught
        # up by the serving process's clock.
        self.serves: Callable[[int], bool] = lambda server_id: True
        self.running: dict[int, Running] = {}
        self.by_table: dict[int, int] = {}  # table id -> tournament id
        self._follow: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._stand_ins: dict[int, tuple[int, dict[int, int]]] = {}  # table id -> (log length, counts)
        self._counted: dict[int, int] = {}  # table id -> its stored deals when last looked (`look_for_deals`)

    # --- loading ----------------------------------------------------------------------------------------

    async def get(self, tournament_id: int) -> Running:
        """The tournament as stored now (NotFound for none)."""
        run = self.running.get(tournament_id)
        if run is None:
            stored = await self.storage.tournaments.get(tournament_id=tournament_id)
            made = self._made(stored)
            run = self.running.setdefault(tournament_id, made)  # two first looks at once: one Running (one lock)
            if run is not made:
                await self._catch_up(run)
        else:
            await self._catch_up(run)
        return run

    def _made(self, stored: StoredTournament) -> Running:
        state = TournamentState.replay(TournamentSettings.from_json(stored.settings_json), stored.organiser_id,
                                       stored.log)
        run = Running(stored.tournament_id, stored.server_id, stored.channel_id, stored.organiser_id, stored.name,
                      state, list(stored.log))
        for table_id in state.tables.values():
            self.by_table[table_id] = run.tournament_id
        return run

    async def _catch_up(self, run: Running) -> None:
        """What another process appended (PostgreSQL): the log read again, taken when it is longer than the one
        this process knows. Never shorter: the log only grows (appended at its stored end, `commit`), so a read
        that began before a step was stored and ended after this process stored it (a lookup racing the draw)
        is older, and taking it would put the tournament back before the step (the draw made, the state saying
        sign-up). Without the lock: a lookup does not wait for a step's write."""
        stored = await self.storage.tournaments.get(tournament_id=run.tournament_id)
        if len(stored.log) > len(run.log):
            fresh = self._made(stored)
            run.state, run.log = fresh.state, fresh.log

    async def in_channel(self, channel_id: int) -> Running | None:
        """The channel's tournament: the newest one still running, else the newest (for its list)."""
        ids = await self.storage.tournaments.in_channel(channel_id=channel_id)
        found = [await self.get(tid) for tid in ids[:5]]
        return next((r for r in found if r.state.phase is not Stage.ENDED), found[0] if found else None)

    # --- steps -------------------------------------------------------------------------------------------

    async def create(self, *, server_id: int, channel_id: int, organiser_id: int,
                     settings: TournamentSettings) -> Running:
        start_at = None if settings.start_at is None else datetime.fromtimestamp(settings.start_at, UTC)
        tid = await self.storage.tournaments.create(server_id=server_id, channel_id=channel_id,
                                                    organiser_id=organiser_id, name=settings.name,
                                                    settings_json=settings.to_json(), now=self.clock(),
                                                    start_at=start_at)
        return await self.get(tid)

    async def commit(self, run: Running, build: Callable[[TournamentState], Sequence[Entry]]) -> list[Entry]:
        """Append what `build` makes of the tournament as stored, checked first (a TournamentError changes
        nothing); another process's write in between: read again and build again."""
        async with run.lock:
            for _ in range(5):
                entries = list(build(run.state))
                if not entries:
                    return []
                texts = [str(e) for e in entries]
                grown = [*run.log, *texts]
                state = TournamentState.replay(run.settings, run.organiser_id, grown)
                try:
                    await self.storage.tournaments.append(tournament_id=run.tournament_id, seq=len(run.log),
                                                          entries=texts, now=self.clock(),
                                                          state=_state_column(state, stored=True))
                except LogConflict:
                    await self._catch_up(run)
                    continue
                if len(grown) > len(run.log):  # else a lookup took the stored log, these entries and more, meanwhile
                    run.state, run.log = state, grown
                return entries
        raise TournamentError("busy")

    async def join(self, run: Running, player: int, name: str) -> None:
        await self.commit(run, lambda _: [Joined(player, " ".join(name.split())[:64] or "?")])
        await self._changed(run)

    async def leave(self, run: Running, player: int) -> None:
        await self.commit(run, lambda _: [Left(player)])
        await self._changed(run)

    async def start(self, run: Running) -> Drawn:
        """The first series: the draw by lot from a new seed (stored and shown), every table opened at once. The
        draw seats only the players checked to be at no running table: one who signed up while that check was
        under way (or whose sign-up another process stored first) is checked too before anything is drawn."""
        seed = self.new_seed()
        for _ in range(5):
            checked = dict(run.state.players)
            if run.state.phase is Stage.SIGNUP:
                await self._refuse_busy(run, checked)

            def draw(state: TournamentState, checked: dict[int, str] = checked) -> list[Entry]:
                if state.phase is not Stage.SIGNUP:
                    raise TournamentError("already_started")
                if set(state.players) != set(checked):
                    raise _SignUpsChanged
                try:
                    tables = draw_by_lot(list(state.players), seed, three=state.settings.three,
                                         ai_fill=state.settings.ai_fill)
                except DrawError as error:
                    raise TournamentError(error.key, **error.values) from None
                return [Drawn(1, seed, tables)]

            try:
                (drawn,) = await self.commit(run, draw)
            except _SignUpsChanged:
                continue  # checked again, with the sign-ups as they are now
            assert isinstance(drawn, Drawn)
            await self.open_tables(run)
            return drawn
        raise TournamentError("busy")

    async def next_series(self, run: Running) -> Drawn:
        """The next series, set by the standings, once every table of this one has finished."""
        if run.state.phase is not Stage.PLAYING:
            raise TournamentError("not_started" if run.state.phase is Stage.SIGNUP else "tournament_ended")
        series = run.state.series
        if not await self.series_finished(run):
            raise TournamentError("series_running")
        ranked = [s.player for s in await self.standings(run)]
        try:
            await self._refuse_busy(run)
        except TournamentError:
            await self._catch_up(run)
            if run.state.series != series:  # seated at the tables another /tournament next just opened
                raise TournamentError("series_running") from None
            raise

        def draw(state: TournamentState) -> list[Entry]:
            before = state.current()
            assert before is not None
            if state.series != series:  # another /tournament next (or the automatic start) drew it meanwhile
                raise TournamentError("series_running")
            if state.series >= state.settings.series:
                raise TournamentError("no_more_series")
            tables = seeded_draw(ranked, before.tables, three=state.settings.three, ai_fill=state.settings.ai_fill)
            return [Drawn(state.series + 1, 0, tables)]

        (drawn,) = await self.commit(run, draw)
        assert isinstance(drawn, Drawn)
        await self.open_tables(run)
        return drawn

    async def _refuse_busy(self, run: Running, players: dict[int, str] | None = None) -> None:
        """A player of the tournament (or of `players`) still seated at a running table other than its own: a
        draw now would seat them at two tables at once (the start, and between series: an ordinary table joined
        meanwhile)."""
        own = set(run.state.tables.values())
        busy = [name for player, name in (run.state.players if players is None else players).items()
                if set(await self.storage.tables.playing_with(player_id=player)) - own]
        if busy:
            raise TournamentError("player_busy", names=", ".join(busy))

    async def may_sit(self, player_id: int, table_id: int | None = None, channel_id: int | None = None, *,
                      asked_by: int | None = None) -> None:
        """The tables' seat guard (`TableManager.seat_guards`): a player drawn to a table of a series under way
        sits at no other table and opens none until that table has finished its series (TournamentError
        "at_tournament_table", naming the tournament; nothing changed). Their own table (`table_id`, or its
        thread `channel_id` while it is being opened) is theirs: coming back after leaving it, or seated there
        by the organiser. A table drawn but not open yet counts as running: it is about to be.

        Read as stored (the tournaments under way, their logs, the table's state), so a tournament another
        process runs refuses here too: one query, and per tournament under way its log and that player's
        table. A sign-up is no seat (/tournament start refuses a player still playing elsewhere; one seated in a
        lobby then is refused when that table starts: `asked_by`, whoever starts it, hears the player named,
        "player_at_tournament_table")."""
        for tournament_id in await self.storage.tournaments.under_way():
            run = await self.get(tournament_id)
            drawn = run.state.current()
            if run.state.phase is not Stage.PLAYING or drawn is None:
                continue  # ended, its final list (or what follows it) still owed
            index = next((i for i, draw in enumerate(drawn.tables, 1) if player_id in draw.players), None)
            if index is None:
                continue
            own = run.state.tables.get((drawn.series, index))
            thread = run.state.shown.get(f"thread-{drawn.series}-{index}")
            if (table_id is not None and table_id == own) or (channel_id is not None and channel_id == thread):
                continue
            if own is not None and (await self.storage.tables.get(table_id=own)).state not in RUNNING_TABLE:
                continue  # their table has finished its series (or was closed): free until the next draw
            if asked_by is not None and asked_by != player_id:
                raise TournamentError("player_at_tournament_table", player=run.state.players.get(player_id, "?"),
                                      name=run.name, series=drawn.series, table=index)
            raise TournamentError("at_tournament_table", name=run.name, series=drawn.series, table=index)

    async def stop(self, run: Running) -> None:
        """Ended early by the organiser: the standings stay as they are, its running tables are closed. A series'
        tables being opened are opened first (then closed with the rest): none is left playing unrecorded."""
        async with run.opening:
            await self.commit(run, lambda _: [Ended("stopped")])
        for table_id in run.state.series_tables(run.state.series).values():
            try:
                table = await self.tables.load(table_id)
                if table.game.state in (TableState.OPEN, TableState.PLAYING):
                    await table.stop(run.organiser_id, is_admin=True)
            except TableError:
                log.info("tournament %s: table %s was closed already", run.tournament_id, table_id)
        await self._show_end(run)

    # --- tables ------------------------------------------------------------------------------------------

    async def open_tables(self, run: Running) -> None:
        """Open every table of the current series not opened yet (all of them after a draw; after a restart
        in the middle of opening, the rest): each step is looked up before it is done again. One opening at a
        time (a deal's hook catching up while /tournament next opens the tables waits, then finds them open)."""
        async with run.opening:
            for index, draw in run.state.unopened():
                series = run.state.series
                table = await self._open_one(run, series, index, draw)
                await self.commit(run, _unless_opened(TableOpened(series, index, table.id)))
                self.by_table[table.id] = run.tournament_id
            drawn = run.state.current()
            kind = f"draw-{run.state.series}"
            if drawn is not None and run.state.phase is Stage.PLAYING and kind not in run.state.shown and self.port:
                message = await self.port.drawn(run, drawn)
                await self.commit(run, lambda state: [] if kind in state.shown else [Shown(kind, message)])
        await self._changed(run)

    async def _open_one(self, run: Running, series: int, index: int, draw: TableDraw) -> Table:
        assert self.port is not None
        kind = f"thread-{series}-{index}"
        thread = run.state.shown.get(kind)
        if thread is None:
            thread = await self.port.open_thread(run, series, index, draw)
            await self.commit(run, lambda _: [Shown(kind, thread)])
        table = await self.tables.find_in_channel(thread, finished_too=True)
        names = run.state.players
        creator = draw.players[0]
        if table is None:  # stored seated and started in one write: never an open lobby anyone could join
            timing = await self.tables.timing_for(run.server_id) if self.tables.timing_for is not None else None
            first: list[TableEntry] = [joining(player, names.get(player, "?")) for player in draw.players[1:]]
            first += [AddAI(AI_LEVEL, creator) for _ in range(draw.ais)]
            first.append(Start(secrets.randbelow(draw.size)))  # the first dealer, drawn as a start draws it
            table = await self.tables.create(
                guild_id=run.server_id, channel_id=thread, parent_id=run.channel_id, creator_id=creator,
                creator_name=names.get(creator, "?"), size=draw.size, deals=run.settings.deals_at(draw.size),
                rules=RuleSet.preset(run.settings.preset), timing=timing, seated=first)
        elif table.game.state is TableState.PLAYING:  # found after a restart: killed before its seats were written?
            stored = await self.storage.tables.get(table_id=table.id)
            if stored.state is TableState.OPEN or not stored.seats:
                await self.tables.store.table_started(table=table.current())
                await self.tables.store.set_table_state(table_id=table.id, state=TableState.PLAYING)
            table.opened()  # its lobby (no buttons: it plays), had the kill come before it was shown; else edited
        if table.game.state is TableState.OPEN:  # a table opened (one by one) before tables were stored started
            seated = {o.player_id for o in table.game.places}
            for player in draw.players[1:]:
                if player not in seated:
                    await table.join(player, names.get(player, "?"))
            for _ in range(draw.ais - sum(1 for o in table.game.places if o.is_ai)):
                await table.add_ai(creator, AI_LEVEL)
            await table.start(creator)
        return table

    # --- results -----------------------------------------------------------------------------------------

    async def lines(self, run: Running) -> list[DealLine]:
        """Every stored deal of the tournament's tables."""
        out = []
        for (series, index), table_id in sorted(run.state.tables.items()):
            for record in await self.storage.deals.for_table(table_id=table_id):
                out.append(DealLine(series, index, table_id, record.deal_number,
                                    {s.player_id: s.seeger for s in record.scores}, record.declarer_id,
                                    None if record.game is None else record.won))
        return out

    async def standings(self, run: Running) -> list[Standing]:
        first = run.state.draws[0] if run.state.draws else None
        return standings(list(run.state.players), await self.lines(run), series=run.settings.series,
                         names=run.state.players, lot=[p for t in first.tables for p in t.players] if first else ())

    async def export(self, run: Running) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Every deal's record of the tournament: CSV rows (one per player and deal) and a JSON document (the
        tournament, its draws, the standings, each deal with its full record)."""
        names = run.state.players
        rows: list[dict[str, Any]] = []
        deals: list[dict[str, Any]] = []
        for (series, index), table_id in sorted(run.state.tables.items()):
            for record in await self.storage.deals.for_table(table_id=table_id):
                game = game_text(record.game)
                deals.append({
                    "series": series, "table": index, "table_id": table_id, "deal": record.deal_number,
                    "deal_id": record.deal_id, "declarer_id": record.declarer_id, "game": game,
                    "contract": record.contract, "won": record.won if record.game is not None else None,
                    "value": record.value, "scores": [
                        {"player_id": s.player_id, "player": names.get(s.player_id), "seat": s.seat,
                         "role": s.role.value, "score": s.score, "seeger": s.seeger} for s in record.scores],
                    "record": json.loads(record.record_json) if record.record_json else None})
                rows += [{"series": series, "table": index, "table_id": table_id, "deal": record.deal_number,
                          "player_id": s.player_id, "player": names.get(s.player_id, ""), "seeger": s.seeger,
                          "score": s.score, "role": s.role.value, "declarer_id": record.declarer_id or "",
                          "game": game, "contract": record.contract,
                          "won": "" if record.game is None else record.won, "value": record.value}
                         for s in record.scores]
        table = await self.standings(run)
        stand_ins = await self.stand_ins(run)
        document = {
            "tournament": {"id": run.tournament_id, "name": run.name, "server_id": run.server_id,
                           "channel_id": run.channel_id, "organiser_id": run.organiser_id,
                           "settings": json.loads(run.settings.to_json()), "state": _state_column(run.state),
                           "players": {str(p): n for p, n in names.items()},
                           "draws": [{"series": d.series, "seed": d.seed, "tables": [str(t) for t in d.tables]}
                                     for d in run.state.draws],
                           "tables": [{"series": s, "table": i, "table_id": tid}
                                      for (s, i), tid in sorted(run.state.tables.items())]},
            "tie_break": "Seeger-Fabian points; then more games won, then fewer games lost (as declarer), then the lot:"
                         " the order series 1 was drawn in (Skatwettspielordnung)",
            "standings": [{"place": s.place, "player_id": s.player, "player": names.get(s.player),
                           "seeger": s.points, "won": s.won, "lost": s.lost, "series": list(s.series),
                           "table": s.table, "deals": s.deals, "stand_in_deals": stand_ins.get(s.player, 0),
                           "fees_cents": _fees_json(s, run.settings)}
                          for s in table],
            "deals": deals}
        return rows, document

    async def stand_ins(self, run: Running) -> dict[int, int]:
        """Per player, the deals of the tournament an AI stand-in played in for them (from the tables' logs;
        a table's count is kept while its log has not grown)."""
        total: dict[int, int] = {}
        for table_id in run.state.tables.values():
            log_entries = await self.storage.tables.log(table_id=table_id)
            known = self._stand_ins.get(table_id)
            if known is None or known[0] != len(log_entries):
                table = await self.storage.tables.get(table_id=table_id)
                try:
                    counted = stand_in_deals(size=table.size, deals=table.series_length,
                                             rules=RuleSet.from_dict(table.rules), creator_id=table.creator_id,
                                             entries=[e.entry for e in log_entries])
                except (TableError, ValueError):
                    log.exception("tournament %s: the log of table %s does not replay", run.tournament_id, table_id)
                    counted = {}
                known = (len(log_entries), counted)
                self._stand_ins[table_id] = known
            for player, deals in known[1].items():
                total[player] = total.get(player, 0) + deals
        return total

    async def series_finished(self, run: Running, series: int | None = None) -> bool:
        """Every table of the series opened and done: its deals all stored, or the table closed early."""
        series = series or run.state.series
        drawn = run.state.draws[series - 1] if 0 < series <= len(run.state.draws) else None
        opened = run.state.series_tables(series)
        if drawn is None or len(opened) < len(drawn.tables):
            return False
        for index, table_id in opened.items():
            try:
                stored = await self.storage.tables.get(table_id=table_id)
            except NotFound:
                continue
            if stored.state in (TableState.FINISHED, TableState.ABANDONED):
                continue
            played = len(await self.storage.deals.for_table(table_id=table_id))
            if played < run.settings.deals_at(drawn.tables[index - 1].size):
                return False
        return True

    # --- following the tables ----------------------------------------------------------------------------

    def deal_stored(self, table_id: int) -> None:
        """The hook: a deal of `table_id` was stored. Looks at its tournament soon (never in the table's step)."""
        tid = self.by_table.get(table_id)
        if tid is not None:
            self.follow(tid)

    def follow(self, tournament_id: int) -> None:
        """Catch up with `tournament_id` in a task of its own, once at a time (a call meanwhile runs it again)."""
        task = self._follow.get(tournament_id)
        if task is not None and not task.done():
            self._again.add(tournament_id)
            return
        self._follow[tournament_id] = asyncio.create_task(self._following(tournament_id),
                                                          name=f"tournament-{tournament_id}")

    async def _following(self, tournament_id: int) -> None:
        while True:
            self._again.discard(tournament_id)
            try:
                run = await self.get(tournament_id)
                if self.serves(run.server_id):
                    await self.catch_up(run)
            except TournamentError as error:  # e.g. a table's thread refused: said where it shows, tried again
                log.info("tournament %s: catching up waits: %s", tournament_id, error)
            except Exception:
                log.exception("tournament %s: catching up failed", tournament_id)
            if tournament_id not in self._again:
                return

    async def look_for_deals(self) -> None:
        """Deals stored at the tables of the tournaments this process shows, by whichever process (with several
        shard processes a hand's click, and so the deal it finishes, is often stored by another): one query
        for all of them, and each tournament whose tables stored a deal since the last look is followed now."""
        tables = {table_id: run.tournament_id for run in self.running.values()
                  if run.state.phase is Stage.PLAYING and self.serves(run.server_id)
                  for table_id in run.state.series_tables(run.state.series).values()}
        if not tables:
            return
        counts = await self.storage.deals.counts(table_ids=list(tables))
        for table_id, count in counts.items():
            if self._counted.get(table_id) != count:
                self._counted[table_id] = count
                self.follow(tables[table_id])

    async def catch_up(self, run: Running) -> None:
        """From the stored deals: the standings shown, and a finished series closed (the end, the next series,
        or the organiser told). Idempotent: what was shown is in the log."""
        if run.state.phase is Stage.PLAYING:
            await self.open_tables(run)  # a restart in the middle of opening
        await self._changed(run)
        if run.state.phase is not Stage.PLAYING or not await self.series_finished(run):
            if run.state.phase is Stage.ENDED:
                await self._show_end(run)
            return
        series = run.state.series
        if series >= run.settings.series:
            await self.commit(run, lambda state: [] if state.phase is Stage.ENDED else [Ended("finished")])
            await self._show_end(run)
            return
        waiting: TournamentError | None = None
        if run.settings.auto_next:
            try:
                await self.next_series(run)
                return
            except TournamentError as error:  # e.g. a player sat down at another table: tried again, and said
                log.info("tournament %s: the next series waits: %s", run.tournament_id, error.key)
                if run.state.series != series:
                    return  # drawn; a table's thread waits, and its notice says so
                waiting = error
        if f"series-{series}" not in run.state.shown and self.port is not None:
            message = await self.port.series_done(run, series, waiting)
            await self.commit(run, lambda state: [] if f"series-{series}" in state.shown
                              else [Shown(f"series-{series}", message)])

    async def _show_end(self, run: Running) -> None:
        """The final list, its id stored as soon as it is posted (a kill between the two posts it again, with its
        nonce); then the scheduled event and the standings follow it (`closed`, which waits on Discord's rate
        limits), and only once that is stored too does the tournament's row say it ended. Each step is looked
        up before it is done again, so a restart after the list does only the rest."""
        if "closed" in run.state.shown or self.port is None:
            return
        if "final" not in run.state.shown:
            message = await self.port.ended(run)
            await self.commit(run, lambda state: [] if "final" in state.shown else [Shown("final", message)])
        await self.port.closed(run)
        final = run.state.shown["final"]
        await self.commit(run, lambda state: [] if "closed" in state.shown else [Shown("closed", final)])

    async def _changed(self, run: Running) -> None:
        if self.port is not None:
            await self.port.changed(run)

    async def resume(self) -> list[Running]:
        """After a start: every running tournament taken up again from its log and its tables' deals."""
        resumed = []
        for tid in await self.storage.tournaments.running():
            run = await self.get(tid)
            if self.serves(run.server_id):
                try:
                    await self.catch_up(run)
                except TournamentError as error:  # the clock tries again
                    log.info("tournament %s: resuming waits: %s", tid, error)
                resumed.append(run)
        return resumed

    async def close(self) -> None:
        for task in self._follow.values():
            task.cancel()
        await asyncio.gather(*self._follow.values(), return_exceptions=True)
