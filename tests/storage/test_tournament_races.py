"""A sign-up racing the draw of /tournament start, in the interleavings a bot meets: the tournament looked up
(every command and button does so first) while the draw is being stored, and a late /tournament join from
another process on PostgreSQL. Whatever the order, the draw seats exactly those signed up when it was stored,
a join after it is refused as a late entry and changes nothing, and the stored log replays."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import pytest

from skatbot.engine import RuleSet
from skatbot.organiser import Organiser, Running
from skatbot.storage import Player, PostgresStorage, Storage, StoredTournament, TableState
from skatbot.tables.manager import TableManager
from skatbot.tournaments import Drawn, Joined, TournamentError, TournamentSettings, TournamentState
from skatbot.tournaments.log import Stage
from tests.storage.storage_helpers import NOW, AnyStorage, add_players
from tests.storage.test_tournament_opening import PEOPLE, Port, process

LATE = (99, "Hugo")


class HeldTournaments:
    """The tournaments' storage with two hooks: `after_append` runs once an append is stored (before the writer
    hears so), and a read waits for `release` while `hold_reads` is set (it read the log before a step)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.after_append: Callable[[Sequence[str]], Awaitable[None]] | None = None
        self.hold_reads = False
        self.held = asyncio.Event()
        self.release = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def append(self, **kwargs: Any) -> None:
        await self._inner.append(**kwargs)
        if self.after_append is not None:
            await self.after_append(kwargs["entries"])

    async def get(self, *, tournament_id: int) -> StoredTournament:
        stored: StoredTournament = await self._inner.get(tournament_id=tournament_id)
        if self.hold_reads:
            self.hold_reads = False
            self.held.set()
            await self.release.wait()
        return stored


class WatchedTables:
    """The tables' storage; `on_playing_with` runs before the first look at where a player plays."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.on_playing_with: Callable[[], Awaitable[None]] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def playing_with(self, *, player_id: int) -> list[int]:
        hook, self.on_playing_with = self.on_playing_with, None
        if hook is not None:
            await hook()
        found: list[int] = await self._inner.playing_with(player_id=player_id)
        return found


class HeldStorage:
    def __init__(self, inner: Storage) -> None:
        self._inner = inner
        self.tournaments = HeldTournaments(inner.tournaments)
        self.tables = WatchedTables(inner.tables)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


async def _signed_up(storage: AnyStorage) -> tuple[HeldStorage, Organiser, TableManager, Running]:
    await add_players(storage, *(Player(pid, name) for pid, name in [*PEOPLE.items(), LATE]))
    organiser, manager = process(storage, Port(), seed=1)
    held = HeldStorage(storage)
    organiser.storage = held
    run = await organiser.create(server_id=100, channel_id=555, organiser_id=9,
                                 settings=TournamentSettings("Club evening", deals=3))
    await organiser.commit(run, lambda _: [Joined(pid, name) for pid, name in PEOPLE.items()])
    return held, organiser, manager, run


async def _consistent(storage: Storage, organiser: Organiser, run: Running) -> TournamentState:
    """The stored log replays; this process's view is that log; the draw seats exactly those signed up."""
    stored = await storage.tournaments.get(tournament_id=run.tournament_id)
    state = TournamentState.replay(run.settings, run.organiser_id, stored.log)
    assert run.log == list(stored.log), (run.log, stored.log)
    assert (await organiser.get(run.tournament_id)).log == list(stored.log)
    drawn = state.current()
    assert drawn is not None and state.phase is Stage.PLAYING
    assert sorted(p for t in drawn.tables for p in t.players) == sorted(state.players)
    return state


async def _late_join_refused(storage: Storage, organiser: Organiser, run: Running) -> None:
    before = (await storage.tournaments.get(tournament_id=run.tournament_id)).log
    with pytest.raises(TournamentError) as late:
        await organiser.join(await organiser.get(run.tournament_id), *LATE)
    assert late.value.key == "late_entry"
    assert (await storage.tournaments.get(tournament_id=run.tournament_id)).log == before


async def test_a_look_at_the_tournament_while_the_draw_is_stored_counts_the_draw_once(storage: AnyStorage) -> None:
    """A join's lookup reads the log just after the draw was written, before /tournament start's write returned:
    the draw was counted twice in this process's view (its next step, a table's thread, was refused as 'no more
    series' and the start failed half-way)."""
    held, organiser, manager, run = await _signed_up(storage)
    looks: list[asyncio.Task[Running]] = []

    async def look_now(entries: Sequence[str]) -> None:
        if any(e.startswith("draw ") for e in entries) and not looks:
            looks.append(asyncio.create_task(organiser.get(run.tournament_id)))
            await asyncio.sleep(0.05)  # the lookup runs as far as it can meanwhile

    held.tournaments.after_append = look_now
    drawn = await organiser.start(run)
    await asyncio.gather(*looks)
    assert sorted(run.state.tables) == [(1, 1), (1, 2)] and len(drawn.tables) == 2
    await _consistent(storage, organiser, run)
    await _late_join_refused(storage, organiser, run)
    await manager.close()


async def test_a_look_that_read_the_log_before_the_draw_does_not_take_the_tournament_back(
        storage: AnyStorage) -> None:
    """A join's lookup read the log before the draw was stored and returned after: the tournament was taken back
    to its sign-up in this process (the standings said sign-up, a join was built on it) until the next look."""
    held, organiser, manager, run = await _signed_up(storage)
    held.tournaments.hold_reads = True
    look = asyncio.create_task(organiser.get(run.tournament_id))
    await held.tournaments.held.wait()
    starting = asyncio.create_task(organiser.start(run))
    await asyncio.wait({starting}, timeout=1.0)  # it may wait for the lookup (or be done by now)
    held.tournaments.release.set()
    await look
    await starting
    assert run.state.phase is Stage.PLAYING and sorted(run.state.tables) == [(1, 1), (1, 2)]
    await _consistent(storage, organiser, run)
    await _late_join_refused(storage, organiser, run)
    await manager.close()


async def test_a_player_at_another_table_who_joins_while_the_start_checks_the_players_is_not_drawn(
        storage: AnyStorage) -> None:
    """/tournament start first checks that no one signed up is seated at a running table (one player at two
    tables). Hugo, playing at an ordinary table, joined while that check was under way: the draw was built from
    the sign-ups as they were then, Hugo in it unchecked, and he was seated at two tables at once. Now the draw
    is only made from the players checked: the start looks again and refuses, naming him; nothing drawn."""
    held, organiser, manager, run = await _signed_up(storage)
    await add_players(storage, Player(1, "Xaver"), Player(2, "Yvonne"))
    elsewhere = await storage.tables.create(server_id=100, channel_id=556, creator_id=1, rule_preset="official",
                                            rules=RuleSet.preset("official").to_dict(), series_length=6, now=NOW,
                                            seats=(1, 2, LATE[0]), size=3)
    await storage.tables.set_state(table_id=elsewhere.table_id, state=TableState.PLAYING, now=NOW)

    async def hugo_joins() -> None:
        await organiser.join(run, *LATE)

    held.tables.on_playing_with = hugo_joins
    with pytest.raises(TournamentError) as refused:
        await organiser.start(run)
    assert refused.value.key == "player_busy" and refused.value.values == {"names": "Hugo"}
    stored = await storage.tournaments.get(tournament_id=run.tournament_id)
    assert not any(entry.startswith("draw ") for entry in stored.log)
    assert await storage.tables.playing_with(player_id=LATE[0]) == [elsewhere.table_id]
    assert run.state.phase is Stage.SIGNUP and LATE[0] in run.state.players
    await manager.close()


@pytest.fixture
async def two_storages(schema_url: str) -> AsyncIterator[tuple[PostgresStorage, PostgresStorage]]:
    first = await PostgresStorage.open(schema_url)
    second = await PostgresStorage.open(schema_url)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


class SlowTournaments(HeldTournaments):
    """Each append waits `delay` first: the two processes' steps meet in another order each round."""

    def __init__(self, inner: Any, delay: float) -> None:
        super().__init__(inner)
        self.delay = delay

    async def append(self, **kwargs: Any) -> None:
        await asyncio.sleep(self.delay)
        await self._inner.append(**kwargs)


@pytest.mark.parametrize("start_delay, join_delay", [(0.0, 0.0), (0.0, 0.01), (0.01, 0.0), (0.03, 0.0),
                                                     (0.0, 0.03)])
async def test_a_join_from_another_process_racing_the_draw_is_in_the_draw_or_refused(
        two_storages: tuple[PostgresStorage, PostgresStorage], start_delay: float, join_delay: float) -> None:
    """Two bot processes on one PostgreSQL database: the organiser's /tournament start in one, Hugo's
    /tournament join (its lookup made before the draw) in the other, at once. Either Hugo joined first and sits
    at a table of the draw, or the draw came first and his join is refused as a late entry; never signed up and
    seated nowhere, never a log that does not replay."""
    first, second = two_storages
    await add_players(first, *(Player(pid, name) for pid, name in [*PEOPLE.items(), LATE]))
    starter, starter_tables = process(first, Port(), seed=1)
    joiner, joiner_tables = process(second, Port(first_thread=9101), seed=2)
    for organiser, delay in ((starter, start_delay), (joiner, join_delay)):
        slow = HeldStorage(organiser.storage)
        slow.tournaments = SlowTournaments(organiser.storage.tournaments, delay)
        organiser.storage = slow
    run = await starter.create(server_id=100, channel_id=555, organiser_id=9,
                               settings=TournamentSettings("Club evening", deals=3))
    await starter.commit(run, lambda _: [Joined(pid, name) for pid, name in PEOPLE.items()])
    theirs = await joiner.get(run.tournament_id)
    started, joined = await asyncio.gather(starter.start(run), joiner.join(theirs, *LATE), return_exceptions=True)
    assert isinstance(started, Drawn), started
    state = await _consistent(first, starter, run)
    seated = {p for t in started.tables for p in t.players}
    if isinstance(joined, BaseException):
        assert isinstance(joined, TournamentError) and joined.key == "late_entry", joined
        assert LATE[0] not in state.players and LATE[0] not in seated
    else:
        assert LATE[0] in state.players and LATE[0] in seated
    assert (await joiner.get(run.tournament_id)).log == run.log
    await _late_join_refused(second, joiner, run)
    for manager in (starter_tables, joiner_tables):
        await manager.close()
