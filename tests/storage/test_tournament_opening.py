"""A tournament's tables opened through the TableManager, and a restart in the middle of opening them (a kill
while a draw is being turned into tables): the new process opens only what is missing, so no player sits at two
tables and the draw is shown once. On SQLite and PostgreSQL, with a real TableManager over storage."""

from __future__ import annotations

import asyncio
import random

import pytest

from skatbot.engine import RuleSet
from skatbot.organiser import Organiser, Running
from skatbot.storage import Player, TableState
from skatbot.tables.events import LobbyChanged
from skatbot.tables.manager import TableManager
from skatbot.tables.memory import RecordingPresenter
from skatbot.tournaments import Drawn, Joined, Shown, TableDraw, TournamentError, TournamentSettings
from skatbot.wiring import StorageTables
from tests.storage.storage_helpers import NOW, AnyStorage, add_players
from tests.tables.kit import InlineExecutor, ManualClock

PEOPLE = {11: "Anna", 12: "Bert", 13: "Cara", 14: "Dirk", 15: "Emma", 16: "Finn", 17: "Gina"}


class Port:
    """The Discord side, recorded: threads get ids from `first_thread` on; `fail_at` makes that thread fail
    (the crash)."""

    def __init__(self, fail_at: int | None = None, first_thread: int = 9001) -> None:
        self.threads: list[tuple[int, int]] = []
        self.first_thread = first_thread
        self.draws: list[int] = []
        self.fail_at = fail_at

    async def open_thread(self, run: Running, series: int, index: int, draw: TableDraw) -> int:
        if self.fail_at == len(self.threads) + 1:
            raise RuntimeError("the process died here")
        self.threads.append((series, index))
        return self.first_thread + len(self.threads) - 1

    async def drawn(self, run: Running, drawn: Drawn) -> int:
        self.draws.append(drawn.series)
        return 700

    async def changed(self, run: Running) -> None:
        return None

    async def series_done(self, run: Running, series: int, waiting: TournamentError | None = None) -> int:
        return 800

    async def ended(self, run: Running) -> int:
        return 900

    async def closed(self, run: Running) -> None:
        return None


def process(storage: AnyStorage, port: Port, seed: int) -> tuple[Organiser, TableManager]:
    """One bot process: its table manager and organiser over the shared storage."""
    store = StorageTables(storage)
    seeds = random.Random(seed)
    manager = TableManager(catalog=store, store=store, presenter=RecordingPresenter(), executor=InlineExecutor(),
                           sleep=ManualClock().sleep, new_seed=lambda: seeds.randrange(1 << 40))
    organiser = Organiser(storage, manager, clock=lambda: NOW, new_seed=lambda: 4242)
    organiser.port = port
    return organiser, manager


async def seated(storage: AnyStorage) -> dict[int, list[int]]:
    """Player -> the tournament tables they are seated at and playing."""
    found: dict[int, list[int]] = {}
    for player in PEOPLE:
        found[player] = await storage.tables.playing_with(player_id=player)
    return found


async def test_a_restart_in_the_middle_of_opening_opens_only_the_missing_tables(storage: AnyStorage) -> None:
    await add_players(storage, *(Player(pid, name) for pid, name in PEOPLE.items()))
    first, manager = process(storage, Port(fail_at=2), seed=1)
    run = await first.create(server_id=100, channel_id=555, organiser_id=9,
                             settings=TournamentSettings("Club evening", deals=3))
    await first.commit(run, lambda _: [Joined(pid, name) for pid, name in PEOPLE.items()])
    with pytest.raises(RuntimeError, match="died"):
        await first.start(run)  # table 1 opened and started; the process dies opening table 2's thread
    assert run.state.series == 1 and list(run.state.tables) == [(1, 1)]
    await manager.close()

    again, restarted = process(storage, port := Port(first_thread=9101), seed=2)
    (resumed,) = await again.resume()
    drawn = resumed.state.current()
    assert drawn is not None and drawn.seed == 4242
    assert sorted(resumed.state.tables) == [(1, 1), (1, 2)] and port.threads == [(1, 2)]
    assert port.draws == [1]  # the draw is shown once, when every table is open
    tables = await seated(storage)
    assert all(len(ids) == 1 for ids in tables.values()), tables  # nobody at two tables
    for (_, index), table_id in resumed.state.tables.items():
        stored = await storage.tables.get(table_id=table_id)
        assert stored.state is TableState.PLAYING and stored.series_length == (4 if stored.size == 4 else 3)
        assert set(stored.seats) == set(drawn.tables[index - 1].players)
    assert len(await storage.tables.all_ids()) == 2
    await restarted.close()


async def test_a_table_made_before_the_crash_is_taken_up_not_made_again(storage: AnyStorage) -> None:
    """Killed after table 1 was stored in its thread but before the tournament's log named it: the restarted
    process finds the table in the thread, seats the rest of the draw, starts it and names it."""
    await add_players(storage, *(Player(pid, name) for pid, name in PEOPLE.items()))
    first, manager = process(storage, Port(), seed=1)
    run = await first.create(server_id=100, channel_id=555, organiser_id=9,
                             settings=TournamentSettings("Club evening", deals=3))
    await first.commit(run, lambda _: [Joined(pid, name) for pid, name in PEOPLE.items()])
    draw = (TableDraw((11, 12, 13, 14)), TableDraw((15, 16, 17)))
    await first.commit(run, lambda _: [Drawn(1, 4242, draw), Shown("thread-1-1", 8001)])
    await manager.create(guild_id=100, channel_id=8001, parent_id=555, creator_id=11, creator_name="Anna", size=4,
                         deals=4, rules=RuleSet.preset("tournament"))
    await manager.close()

    again, restarted = process(storage, port := Port(), seed=2)
    (resumed,) = await again.resume()
    assert port.threads == [(1, 2)]  # only table 2 needed a thread
    assert len(await storage.tables.all_ids()) == 2
    tables = await seated(storage)
    assert all(len(ids) == 1 for ids in tables.values()), tables
    assert (await storage.tables.get(table_id=resumed.state.tables[(1, 1)])).thread_id == 8001
    await restarted.close()



class CountingPort(Port):
    def __init__(self, first_thread: int = 9001) -> None:
        super().__init__(first_thread=first_thread)
        self.ends = 0
        self.closings = 0
        self.series_ends: list[int] = []
        self.waits: list[tuple[str, dict[str, object]] | None] = []  # why each next series waited

    async def series_done(self, run: Running, series: int, waiting: TournamentError | None = None) -> int:
        self.series_ends.append(series)
        self.waits.append(None if waiting is None else (waiting.key, dict(waiting.values)))
        return 800

    async def ended(self, run: Running) -> int:
        self.ends += 1
        return 900

    async def closed(self, run: Running) -> None:
        self.closings += 1


async def _started(storage: AnyStorage, port: Port, **settings: object) -> tuple[Organiser, TableManager, Running]:
    await add_players(storage, *(Player(pid, name) for pid, name in PEOPLE.items()))
    organiser, manager = process(storage, port, seed=1)
    run = await organiser.create(server_id=100, channel_id=555, organiser_id=9,
                                 settings=TournamentSettings("Club evening", deals=3, **settings))  # type: ignore[arg-type]
    await organiser.commit(run, lambda _: [Joined(pid, name) for pid, name in PEOPLE.items()])
    await organiser.start(run)
    return organiser, manager, run


async def _close_series(storage: AnyStorage, run: Running) -> None:
    """Every table of the current series ends (closed early: it counts as done with what it stored)."""
    for table_id in run.state.series_tables(run.state.series).values():
        await storage.tables.set_state(table_id=table_id, state=TableState.ABANDONED, now=NOW)


async def test_with_auto_next_the_next_series_starts_by_itself_set_by_the_standings(storage: AnyStorage) -> None:
    organiser, manager, run = await _started(storage, port := CountingPort(), series=2, auto_next=True)
    await organiser.catch_up(run)
    assert run.state.series == 1  # its tables are still playing
    await _close_series(storage, run)
    await organiser.catch_up(run)
    assert run.state.series == 2 and sorted(run.state.tables) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    second = run.state.current()
    assert second is not None and second.seed == 0  # set by the standings, not drawn by lot
    first = run.state.draws[0]
    for table in second.tables:
        assert not any(len(set(table.players) & set(earlier.players)) >= 3 for earlier in first.tables)
    assert port.draws == [1, 2] and port.series_ends == []
    await organiser.catch_up(run)  # again: nothing more happens
    assert run.state.series == 2 and len(await storage.tables.all_ids()) == 4
    await _close_series(storage, run)
    await organiser.catch_up(run)
    await organiser.catch_up(run)
    assert run.state.ended == "finished" and port.ends == 1  # the final list once
    assert (await storage.tournaments.get(tournament_id=run.tournament_id)).state == "finished"
    await manager.close()


async def test_without_auto_next_the_organiser_is_told_once_and_starts_it(storage: AnyStorage) -> None:
    organiser, manager, run = await _started(storage, port := CountingPort(), series=2)
    await _close_series(storage, run)
    await organiser.catch_up(run)
    await organiser.catch_up(run)
    assert run.state.series == 1 and port.series_ends == [1] and port.waits == [None]  # the organiser starts it
    await organiser.next_series(run)
    assert run.state.series == 2 and port.draws == [1, 2]
    await manager.close()


async def test_a_tournament_table_is_shown_first_already_started_never_as_an_open_lobby(storage: AnyStorage) -> None:
    """The tournament seats its tables itself: nobody may press Join, Leave or Add AI there. Every view the
    presenter is handed shows the table playing with the drawn players, from the first (a lobby shown while
    the table was open would carry those buttons, if only for a moment)."""
    await add_players(storage, *(Player(pid, name) for pid, name in PEOPLE.items()))
    organiser, manager = process(storage, Port(), seed=1)
    presenter = manager.presenter
    assert isinstance(presenter, RecordingPresenter)
    run = await organiser.create(server_id=100, channel_id=555, organiser_id=9,
                                 settings=TournamentSettings("Club evening", deals=3))
    await organiser.commit(run, lambda _: [Joined(pid, name) for pid, name in PEOPLE.items()])
    drawn = await organiser.start(run)
    for table in manager.tables.values():
        await table.settle()
    assert presenter.steps, "the tables were shown"
    assert all(step.view.state is TableState.PLAYING for step in presenter.steps), \
        [(step.view.id, step.view.state) for step in presenter.steps]
    for (_, index), table_id in run.state.tables.items():
        first = next(step for step in presenter.steps if step.view.id == table_id)
        assert {place.player_id for place in first.view.places} == set(drawn.tables[index - 1].players)
        stored = await storage.tables.get(table_id=table_id)
        assert stored.state is TableState.PLAYING and set(stored.seats) == set(drawn.tables[index - 1].players)
    await manager.close()


class RefusingPort(CountingPort):
    """Discord refuses the final list the first `refusals` times it is posted."""

    def __init__(self, refusals: int) -> None:
        super().__init__()
        self.refusals = refusals

    async def ended(self, run: Running) -> int:
        if self.refusals:
            self.refusals -= 1
            raise RuntimeError("Discord refused the final list")
        return await super().ended(run)


async def test_a_final_list_not_yet_shown_is_owed_and_shown_after_a_restart(storage: AnyStorage) -> None:
    """Stopped, but the final list was refused (or the process died before posting it): the tournament's row
    says it is still under way until the list is shown, so the restarted process takes it up and posts it."""
    organiser, manager, run = await _started(storage, RefusingPort(refusals=1))
    with pytest.raises(RuntimeError, match="refused"):
        await organiser.stop(run)
    assert run.state.ended == "stopped" and "final" not in run.state.shown
    assert (await storage.tournaments.get(tournament_id=run.tournament_id)).state == "playing"
    assert run.tournament_id in await storage.tournaments.running()
    await manager.close()

    again, restarted = process(storage, port := CountingPort(), seed=2)
    (resumed,) = await again.resume()
    assert port.ends == 1 and "final" in resumed.state.shown
    assert (await storage.tournaments.get(tournament_id=run.tournament_id)).state == "stopped"
    assert await storage.tournaments.running() == []
    assert await again.resume() == [] and port.ends == 1  # shown once
    await restarted.close()


class DyingAfterTheListPort(CountingPort):
    """Posts the final list, then dies before the standings and the scheduled event follow it."""

    async def closed(self, run: Running) -> None:
        raise RuntimeError("the process died here")


async def test_killed_after_the_final_list_the_restart_does_only_what_follows_it(storage: AnyStorage) -> None:
    """The final list's id is stored as soon as it is posted; killed before the standings were marked final, the
    row still says the tournament is under way, and the restarted process marks them without a second list."""
    organiser, manager, run = await _started(storage, dying := DyingAfterTheListPort())
    with pytest.raises(RuntimeError, match="died"):
        await organiser.stop(run)
    assert dying.ends == 1 and run.state.shown["final"] == 900 and "closed" not in run.state.shown
    assert run.tournament_id in await storage.tournaments.running()
    await manager.close()

    again, restarted = process(storage, port := CountingPort(), seed=2)
    (resumed,) = await again.resume()
    assert port.ends == 0 and port.closings == 1 and resumed.state.shown["closed"] == 900
    assert (await storage.tournaments.get(tournament_id=run.tournament_id)).state == "stopped"
    assert await again.resume() == [] and port.closings == 1
    await restarted.close()


async def test_a_table_killed_between_its_first_write_and_its_seats_is_completed_after_the_restart(
        storage: AnyStorage) -> None:
    """The table's first write holds its drawn players and the start; its seats and state are written right
    after. Killed in between, the restarted process finds the table playing, writes what was missing (so
    /tournament start's check that nobody plays elsewhere, and the stats, see its players) and deals on."""
    await add_players(storage, *(Player(pid, name) for pid, name in PEOPLE.items()))
    first, manager = process(storage, Port(), seed=1)
    run = await first.create(server_id=100, channel_id=555, organiser_id=9,
                             settings=TournamentSettings("Club evening", deals=3))
    await first.commit(run, lambda _: [Joined(pid, name) for pid, name in PEOPLE.items()])
    draw = (TableDraw((11, 12, 13, 14)), TableDraw((15, 16, 17)))
    await first.commit(run, lambda _: [Drawn(1, 4242, draw), Shown("thread-1-1", 8001)])
    store = StorageTables(storage)
    table_id = await store.create_table(guild_id=100, channel_id=8001, parent_id=555, creator_id=11, size=4, deals=4,
                                        rules=RuleSet.preset("tournament"), creator_name="Anna",
                                        entries=["join 11 Anna", "join 12 Bert", "join 13 Cara", "join 14 Dirk",
                                                 "start 2"])
    assert (await storage.tables.get(table_id=table_id)).seats == ()  # the kill: nothing after the first write
    await manager.close()

    again, restarted = process(storage, Port(), seed=2)
    await restarted.restore()
    (resumed,) = await again.resume()
    assert resumed.state.tables[(1, 1)] == table_id
    stored = await storage.tables.get(table_id=table_id)
    assert stored.state is TableState.PLAYING and set(stored.seats) == {11, 12, 13, 14}
    assert await storage.tables.playing_with(player_id=12) == [table_id]
    assert any(entry.entry.startswith("deal 0 ") for entry in await storage.tables.log(table_id=table_id))  # dealt
    presenter = restarted.presenter
    assert isinstance(presenter, RecordingPresenter)
    await restarted.tables[table_id].settle()
    shown = [step for step in presenter.steps if step.view.id == table_id]
    assert any(isinstance(event, LobbyChanged) for step in shown for event in step.events), "its lobby is shown"
    assert all(step.view.state is TableState.PLAYING for step in shown)
    await restarted.close()


async def test_two_nexts_at_once_start_the_next_series_once_never_the_one_after(storage: AnyStorage) -> None:
    """Two organisers press /tournament next together (or the organiser and the automatic start, or two
    processes): series 2 is drawn and opened once, the other is refused, and series 3 is not drawn before
    series 2 is played."""
    organiser, manager, run = await _started(storage, port := CountingPort(), series=3)
    other, other_manager = process(storage, other_port := CountingPort(first_thread=9101), seed=3)  # Discord's ids are unique
    theirs = await other.get(run.tournament_id)
    await _close_series(storage, run)
    done = await asyncio.gather(organiser.next_series(run), organiser.next_series(run), other.next_series(theirs),
                                return_exceptions=True)
    refused = [d for d in done if isinstance(d, TournamentError)]
    assert [d.series for d in done if isinstance(d, Drawn)] == [2], done
    assert len(refused) == 2 and {r.key for r in refused} == {"series_running"}, done
    stored = await organiser.get(run.tournament_id)
    assert stored.state.series == 2 and sorted(stored.state.tables) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert len(await storage.tables.all_ids()) == 4
    assert port.draws + other_port.draws == [1, 2]
    await manager.close()
    await other_manager.close()


async def test_the_next_series_refuses_a_player_seated_at_another_running_table(storage: AnyStorage) -> None:
    """Between two series Cara sat down at an ordinary table: /tournament next would seat her at two tables at
    once. Refused naming her, nothing drawn; once that table is over the next series starts."""
    organiser, manager, run = await _started(storage, CountingPort(), series=2)
    await _close_series(storage, run)
    await add_players(storage, Player(1, "Xaver"), Player(2, "Yvonne"))
    elsewhere = await storage.tables.create(server_id=100, channel_id=556, creator_id=13, rule_preset="official",
                                            rules=RuleSet.preset("official").to_dict(), series_length=6, now=NOW,
                                            seats=(13, 1, 2), size=3)
    await storage.tables.set_state(table_id=elsewhere.table_id, state=TableState.PLAYING, now=NOW)
    before = (await storage.tournaments.get(tournament_id=run.tournament_id)).log
    with pytest.raises(TournamentError) as refused:
        await organiser.next_series(run)
    assert refused.value.key == "player_busy" and refused.value.values == {"names": "Cara"}
    assert (await storage.tournaments.get(tournament_id=run.tournament_id)).log == before
    await storage.tables.set_state(table_id=elsewhere.table_id, state=TableState.FINISHED, now=NOW)
    assert (await organiser.next_series(run)).series == 2
    await manager.close()


class CatchingUpPort(CountingPort):
    """While the first thread of series 2 is being opened, a deal's hook catches the tournament up (another
    task of the same process)."""

    def __init__(self) -> None:
        super().__init__()
        self.organiser: Organiser | None = None
        self.others: list[asyncio.Task[None]] = []

    async def open_thread(self, run: Running, series: int, index: int, draw: TableDraw) -> int:
        if series == 2 and not self.others and self.organiser is not None:
            self.others.append(asyncio.create_task(self.organiser.catch_up(run)))
            await asyncio.sleep(0.05)  # the other task runs as far as it can meanwhile
        return await super().open_thread(run, series, index, draw)


async def test_catching_up_while_the_next_series_opens_its_tables_opens_each_once(storage: AnyStorage) -> None:
    organiser, manager, run = await _started(storage, port := CatchingUpPort(), series=2)
    port.organiser = organiser
    await _close_series(storage, run)
    await organiser.next_series(run)
    await asyncio.gather(*port.others)
    assert port.threads == [(1, 1), (1, 2), (2, 1), (2, 2)]  # one thread per table
    assert port.draws == [1, 2] and len(await storage.tables.all_ids()) == 4
    assert sorted(run.state.tables) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    await manager.close()


async def test_an_automatic_next_series_that_must_wait_says_the_series_is_over_and_why(storage: AnyStorage) -> None:
    """With auto_next, a player seated at another running table holds the next series back: the channel is told
    the series is over and why the next waits, naming who holds it back (once), and the next series starts by
    itself once that table is over."""
    organiser, manager, run = await _started(storage, port := CountingPort(), series=2, auto_next=True)
    await _close_series(storage, run)
    elsewhere = await storage.tables.create(server_id=100, channel_id=556, creator_id=13, rule_preset="official",
                                            rules=RuleSet.preset("official").to_dict(), series_length=6, now=NOW,
                                            seats=(13, 11, 12), size=3)
    await storage.tables.set_state(table_id=elsewhere.table_id, state=TableState.PLAYING, now=NOW)
    await organiser.catch_up(run)
    await organiser.catch_up(run)
    assert run.state.series == 1 and port.series_ends == [1]
    assert port.waits == [("player_busy", {"names": "Anna, Bert, Cara"})]
    await storage.tables.set_state(table_id=elsewhere.table_id, state=TableState.FINISHED, now=NOW)
    await organiser.catch_up(run)
    assert run.state.series == 2 and port.series_ends == [1] and port.draws == [1, 2]
    await manager.close()


class StoppingPort(CountingPort):
    """The organiser's /tournament stop arrives while the first table of series 2 is being opened."""

    def __init__(self) -> None:
        super().__init__()
        self.organiser: Organiser | None = None
        self.stops: list[asyncio.Task[None]] = []

    async def open_thread(self, run: Running, series: int, index: int, draw: TableDraw) -> int:
        if series == 2 and not self.stops and self.organiser is not None:
            self.stops.append(asyncio.create_task(self.organiser.stop(run)))
            await asyncio.sleep(0.05)
        return await super().open_thread(run, series, index, draw)


async def test_a_stop_while_the_next_series_opens_its_tables_leaves_no_table_playing(storage: AnyStorage) -> None:
    organiser, manager, run = await _started(storage, port := StoppingPort(), series=2)
    port.organiser = organiser
    await _close_series(storage, run)
    await organiser.next_series(run)
    await asyncio.gather(*port.stops)
    assert run.state.ended == "stopped" and port.ends == 1
    playing = [t for t in await storage.tables.all_ids()
               if (await storage.tables.get(table_id=t)).state is TableState.PLAYING]
    assert playing == []  # every table the tournament opened is closed: nobody keeps playing a stopped tournament
    assert sorted(run.state.tables) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    await manager.close()


async def test_five_players_with_ai_fill_play_at_two_tables_one_seat_filled_by_a_computer(storage: AnyStorage) -> None:
    """Five cannot be split into tables of three and four: with ai_fill the second table of three gets a computer
    player, seated and started with the drawn players; the list counts only the five."""
    five = dict(list(PEOPLE.items())[:5])
    await add_players(storage, *(Player(pid, name) for pid, name in five.items()))
    organiser, manager = process(storage, port := CountingPort(), seed=1)
    run = await organiser.create(server_id=100, channel_id=555, organiser_id=9,
                                 settings=TournamentSettings("Club evening", deals=3, ai_fill=True))
    await organiser.commit(run, lambda _: [Joined(pid, name) for pid, name in five.items()])
    drawn = await organiser.start(run)
    assert [(len(t.players), t.ais) for t in drawn.tables] == [(3, 0), (2, 1)]
    assert port.draws == [1]
    filled = manager.tables[run.state.tables[(1, 2)]]
    await filled.settle()
    assert filled.game.state is TableState.PLAYING
    assert sum(1 for place in filled.game.places if place.is_ai) == 1
    assert {place.player_id for place in filled.game.places if not place.is_ai} == set(drawn.tables[1].players)
    stored = await storage.tables.get(table_id=filled.id)
    assert stored.state is TableState.PLAYING and set(drawn.tables[1].players) <= set(stored.seats)
    assert sorted(s.player for s in await organiser.standings(run)) == sorted(five)
    await manager.close()
