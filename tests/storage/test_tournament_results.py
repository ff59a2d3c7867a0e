"""A tournament's results are a function of its tables' stored deals, on SQLite and PostgreSQL: the standings
agree with sums recomputed from the deal rows, a restarted organiser (a fresh one over the same database) says
the same, a deal stored twice counts once, and a series is finished only when every table's deals are stored.
A player seated at a running table is refused at the start (nothing stored)."""

from __future__ import annotations

from typing import cast

import pytest

from skatbot.engine import RuleSet
from skatbot.organiser import Organiser
from skatbot.storage import Player, TableState
from skatbot.tables.manager import TableManager
from skatbot.tournaments import Drawn, Joined, TableDraw, TableOpened, TournamentError, TournamentSettings
from tests.storage.storage_helpers import NOW, AnyStorage, add_players, play_series

PEOPLE = {11: "Anna", 12: "Bert", 13: "Cara", 14: "Dirk", 15: "Emma", 16: "Finn", 17: "Gina"}
NO_TABLES = cast(TableManager, None)  # results and refusals need no running tables


async def _tournament(storage: AnyStorage) -> tuple[Organiser, int]:
    await add_players(storage, *(Player(pid, name) for pid, name in PEOPLE.items()))
    organiser = Organiser(storage, NO_TABLES, clock=lambda: NOW)
    run = await organiser.create(server_id=100, channel_id=555, organiser_id=9,
                                 settings=TournamentSettings("Club evening", series=2, deals=3, entry_fee=500,
                                                             lost_fee=50))
    await organiser.commit(run, lambda _: [Joined(pid, name) for pid, name in PEOPLE.items()])
    return organiser, run.tournament_id


async def _table(storage: AnyStorage, seats: tuple[int, ...], deals: int) -> int:
    table = await storage.tables.create(server_id=100, channel_id=555, creator_id=seats[0], rule_preset="tournament",
                                        rules=RuleSet.preset("tournament").to_dict(), series_length=deals, now=NOW,
                                        seats=seats, size=len(seats))
    return table.table_id


async def test_standings_are_the_sums_of_the_stored_deals_and_survive_a_restart(storage: AnyStorage) -> None:
    organiser, tid = await _tournament(storage)
    run = await organiser.get(tid)
    four, three = (11, 12, 13, 14), (15, 16, 17)
    await organiser.commit(run, lambda _: [Drawn(1, 42, (TableDraw(four), TableDraw(three)))])
    first, second = await _table(storage, four, 4), await _table(storage, three, 3)
    await organiser.commit(run, lambda _: [TableOpened(1, 1, first), TableOpened(1, 2, second)])
    await play_series(storage, table_id=first, seed=3, deals=2)
    assert not await organiser.series_finished(run)  # two of the four deals of table 1 stored
    await play_series(storage, table_id=second, seed=4)
    assert not await organiser.series_finished(run)

    rows = await storage.database.fetch_all(
        "SELECT s.player_id, SUM(s.seeger) AS points FROM deal_scores s JOIN deals d ON d.deal_id = s.deal_id "
        "WHERE d.table_id IN (:a, :b) GROUP BY s.player_id", {"a": first, "b": second})
    sums = {int(r["player_id"]): int(r["points"]) for r in rows}
    table = await organiser.standings(run)
    assert {s.player: s.points for s in table} == {pid: sums.get(pid, 0) for pid in PEOPLE}
    assert [s.points for s in table] == sorted((s.points for s in table), reverse=True)
    assert any(s.points for s in table)
    assert {s.player: s.table for s in table} == {**dict.fromkeys(four, 1), **dict.fromkeys(three, 2)}

    stored = await storage.deals.for_table(table_id=second)
    await storage.deals.store(record=stored[0])  # the same deal again: a no-op, counted once
    restarted = Organiser(storage, NO_TABLES, clock=lambda: NOW)  # a fresh process over the same database
    again = await restarted.get(tid)
    assert await restarted.standings(again) == table
    assert again.state.tables == {(1, 1): first, (1, 2): second}

    rows_out, document = await restarted.export(again)
    assert len(document["deals"]) == 2 + 3 and len(rows_out) == 2 * 4 + 3 * 3
    assert sum(r["seeger"] for r in rows_out if r["player_id"] == 15) == sums.get(15, 0)
    for listed in document["standings"]:  # the fees booked, as the final list says (entry 5.00, 0.50 a lost game)
        assert listed["fees_cents"] == {"entry": 500, "lost_games": 50 * listed["lost"],
                                        "total": 500 + 50 * listed["lost"]}, listed


async def test_a_series_is_finished_when_every_table_has_stored_its_deals(storage: AnyStorage) -> None:
    organiser, tid = await _tournament(storage)
    run = await organiser.get(tid)
    four, three = (11, 12, 13, 14), (15, 16, 17)
    await organiser.commit(run, lambda _: [Drawn(1, 42, (TableDraw(four), TableDraw(three)))])
    first, second = await _table(storage, four, 4), await _table(storage, three, 3)
    await organiser.commit(run, lambda _: [TableOpened(1, 1, first)])
    await play_series(storage, table_id=first, seed=3)
    await play_series(storage, table_id=second, seed=4)
    assert not await organiser.series_finished(run)  # table 2 not opened (in the log) yet
    await organiser.commit(run, lambda _: [TableOpened(1, 2, second)])
    assert await organiser.series_finished(run)


async def test_a_player_at_a_running_table_cannot_be_drawn_and_nothing_is_stored(storage: AnyStorage) -> None:
    organiser, tid = await _tournament(storage)
    await add_players(storage, Player(1, "Xaver"), Player(2, "Yvonne"))
    elsewhere = await _table(storage, (13, 1, 2), 6)  # Cara plays at another table
    await storage.tables.set_state(table_id=elsewhere, state=TableState.PLAYING, now=NOW)
    run = await organiser.get(tid)
    before = list(run.log)
    with pytest.raises(TournamentError) as refused:
        await organiser.start(run)
    assert refused.value.key == "player_busy" and refused.value.values == {"names": "Cara"}
    assert (await storage.tournaments.get(tournament_id=tid)).log == tuple(before)
    assert (await organiser.get(tid)).state.series == 0



async def test_two_processes_signing_players_up_at_once_both_land_once(storage: AnyStorage) -> None:
    """Two organisers over one database (two shard processes): each writes from a copy that has not seen the
    other's entry; the second append meets the stored number, reads the log again and appends after it."""
    organiser, tid = await _tournament(storage)
    other = Organiser(storage, NO_TABLES, clock=lambda: NOW)
    mine, theirs = await organiser.get(tid), await other.get(tid)
    await organiser.commit(mine, lambda _: [Joined(21, "Hugo")])
    await other.commit(theirs, lambda _: [Joined(22, "Ida")])  # its copy was one entry behind
    with pytest.raises(TournamentError) as refused:  # and a check runs on the log as stored
        await other.commit(theirs, lambda _: [Joined(21, "Hugo")])
    assert refused.value.key == "already_joined"
    stored = await storage.tournaments.get(tournament_id=tid)
    assert stored.log[-2:] == ("join 21 Hugo", "join 22 Ida")
    assert list((await organiser.get(tid)).state.players)[-2:] == [21, 22]


async def test_deals_another_process_stored_are_found_by_one_count_and_followed_once(storage: AnyStorage) -> None:
    organiser, tid = await _tournament(storage)  # the process that shows the tournament
    run = await organiser.get(tid)
    four, three = (11, 12, 13, 14), (15, 16, 17)
    await organiser.commit(run, lambda _: [Drawn(1, 42, (TableDraw(four), TableDraw(three)))])
    first, second = await _table(storage, four, 4), await _table(storage, three, 3)
    await organiser.commit(run, lambda _: [TableOpened(1, 1, first), TableOpened(1, 2, second)])
    followed: list[int] = []
    organiser.follow = followed.append  # type: ignore[method-assign, assignment]
    await organiser.look_for_deals()
    assert followed == []  # nothing stored yet

    await play_series(storage, table_id=second, seed=4, deals=2)  # stored by another process: no hook here
    assert await storage.deals.counts(table_ids=[first, second, 999]) == {second: 2}
    await organiser.look_for_deals()
    await organiser.look_for_deals()
    assert followed == [tid]  # once per change
    organiser.serves = lambda server_id: False  # another process's server: it looks for itself
    await play_series(storage, table_id=first, seed=3, deals=1)
    await organiser.look_for_deals()
    assert followed == [tid]
