"""A player at a running tournament table sits at no other table, on SQLite and PostgreSQL: joining an ordinary
table, or opening one, is refused with the tournament's name and nothing is stored, in a second process that
never ran the tournament (it reads the stored log and the table's state); their own table stays theirs; once
their table has finished its series they may sit anywhere again. Ordinary players keep what they had: a
player may sit at two ordinary tables at once."""

from __future__ import annotations

import pytest

from skatbot.engine import RuleSet
from skatbot.organiser import Organiser
from skatbot.storage import Player, TableState
from skatbot.tables.manager import TableManager
from skatbot.tournaments import Joined, TournamentError, TournamentSettings
from tests.storage.storage_helpers import NOW, AnyStorage, add_players
from tests.storage.test_tournament_opening import Port, process

CLUB = {11: "Anna", 12: "Bert", 13: "Cara"}
OTHERS = {21: "Xaver", 22: "Yvonne"}


def guarded(storage: AnyStorage, seed: int) -> tuple[Organiser, TableManager]:
    """One bot process with the tournament's seat guard on its tables, as the tournament cog sets it."""
    organiser, manager = process(storage, Port(), seed=seed)
    manager.seat_guards.append(organiser.may_sit)
    return organiser, manager


async def test_a_player_at_a_running_tournament_table_is_refused_another_seat_until_it_finished(
        storage: AnyStorage) -> None:
    await add_players(storage, *(Player(pid, name) for pid, name in (CLUB | OTHERS).items()))
    first, first_tables = guarded(storage, seed=1)
    run = await first.create(server_id=100, channel_id=555, organiser_id=9,
                             settings=TournamentSettings("Friday Skat", deals=3))
    await first.commit(run, lambda _: [Joined(pid, name) for pid, name in CLUB.items()])

    # A second process, which never saw the tournament: an ordinary table opened there before the start.
    _, tables = guarded(storage, seed=2)
    ordinary = await tables.create(guild_id=100, channel_id=777, creator_id=21, creator_name="Xaver", size=3,
                                   deals=6, rules=RuleSet.preset("pub"))
    await tables.may_sit(11)  # signed up only: no seat yet (the start refuses a player seated elsewhere)

    await first.start(run)
    own = run.state.tables[(1, 1)]
    assert (await storage.tables.get(table_id=own)).state is TableState.PLAYING
    stored = len(await storage.tables.log(table_id=ordinary.id))

    with pytest.raises(TournamentError) as joining:
        await ordinary.join(11, "Anna")
    assert joining.value.key == "at_tournament_table"
    assert joining.value.values == {"name": "Friday Skat", "series": 1, "table": 1}
    with pytest.raises(TournamentError) as opening:
        await tables.may_sit(12)  # /skat new asks this before it opens anything
    assert opening.value.key == "at_tournament_table"
    assert [o.player_id for o in ordinary.game.places] == [21]  # nothing changed, nothing stored
    assert len(await storage.tables.log(table_id=ordinary.id)) == stored
    assert len(await storage.tables.all_ids()) == 2

    await tables.may_sit(13, own, run.state.shown["thread-1-1"])  # their own table is theirs
    await tables.may_sit(21)  # ordinary players as before: Xaver may open another table...
    await ordinary.join(22, "Yvonne")
    second = await tables.create(guild_id=100, channel_id=778, creator_id=21, creator_name="Xaver", size=3,
                                 deals=6, rules=RuleSet.preset("pub"))
    await second.join(22, "Yvonne")  # ...and Yvonne sits at two ordinary tables at once
    assert [o.player_id for o in second.game.places] == [21, 22]

    await storage.tables.set_state(table_id=own, state=TableState.FINISHED, now=NOW)  # the series is over
    await ordinary.join(11, "Anna")
    await tables.may_sit(12)
    assert [o.player_id for o in ordinary.game.places] == [21, 22, 11]
    await first_tables.close()
    await tables.close()


async def test_a_lobby_taken_before_the_tournament_began_does_not_start_while_the_players_table_plays(
        storage: AnyStorage) -> None:
    """Cara sat down in an ordinary lobby during the sign-up (no seat yet, so allowed, and /tournament start sees
    no table playing with her). Once her tournament table plays, that lobby does not start: whoever presses Start
    hears her named (she herself, in her own words), nothing is stored; after her table's series it starts."""
    await add_players(storage, *(Player(pid, name) for pid, name in (CLUB | OTHERS).items()))
    first, first_tables = guarded(storage, seed=1)
    run = await first.create(server_id=100, channel_id=555, organiser_id=9,
                             settings=TournamentSettings("Friday Skat", deals=3))
    await first.commit(run, lambda _: [Joined(pid, name) for pid, name in CLUB.items()])
    _, tables = guarded(storage, seed=2)
    lobby = await tables.create(guild_id=100, channel_id=777, creator_id=21, creator_name="Xaver", size=3, deals=6,
                                rules=RuleSet.preset("pub"))
    await lobby.join(13, "Cara")
    await lobby.join(22, "Yvonne")
    await first.start(run)
    stored = len(await storage.tables.log(table_id=lobby.id))

    with pytest.raises(TournamentError) as starting:
        await lobby.start(21)
    assert starting.value.key == "player_at_tournament_table"
    assert starting.value.values == {"player": "Cara", "name": "Friday Skat", "series": 1, "table": 1}
    with pytest.raises(TournamentError) as herself:
        await lobby.start(13)
    assert herself.value.key == "at_tournament_table"
    assert lobby.game.state is TableState.OPEN and len(await storage.tables.log(table_id=lobby.id)) == stored

    await storage.tables.set_state(table_id=run.state.tables[(1, 1)], state=TableState.FINISHED, now=NOW)
    await lobby.start(21)
    assert lobby.current().state is TableState.PLAYING
    await first_tables.close()
    await tables.close()
