"""Tournaments stored like tables, on SQLite and PostgreSQL: the row, the log replayed, conflicts, lookups."""

from __future__ import annotations

from datetime import timedelta

import pytest

from skatbot.models import Lang
from skatbot.storage import LogConflict, NotFound, ServerSettings
from skatbot.tournaments import TournamentSettings, TournamentState
from tests.storage.storage_helpers import NOW, AnyStorage

SETTINGS = TournamentSettings("Club evening", series=2, deals=3, entry_fee=500, lost_fee=50)


async def test_a_tournament_is_stored_with_its_log_and_replays(storage: AnyStorage) -> None:
    start = NOW + timedelta(hours=2)
    tid = await storage.tournaments.create(server_id=100, channel_id=555, organiser_id=9, name="Club evening",
                                           settings_json=SETTINGS.to_json(), now=NOW, start_at=start,
                                           entries=["join 11 Alice", "shown signup 900"])
    await storage.tournaments.append(tournament_id=tid, seq=2, entries=["join 12 Ben", "join 13 Cara"], now=NOW)
    await storage.tournaments.append(tournament_id=tid, seq=4, entries=["draw 1 77 13,11,12", "table 1 1 5"],
                                     now=NOW, state="playing")
    stored = await storage.tournaments.get(tournament_id=tid)
    assert (stored.server_id, stored.channel_id, stored.organiser_id, stored.name, stored.state) == (
        100, 555, 9, "Club evening", "playing")
    assert stored.start_at == start.replace(microsecond=0)
    state = TournamentState.replay(TournamentSettings.from_json(stored.settings_json), stored.organiser_id,
                                   stored.log)
    assert state.settings == SETTINGS
    assert list(state.players) == [11, 12, 13] and state.tables == {(1, 1): 5} and state.shown == {"signup": 900}
    assert await storage.tournaments.running() == [tid]
    assert await storage.tournaments.in_channel(channel_id=555) == [tid]
    assert [t.tournament_id for t in await storage.tournaments.in_server(server_id=100)] == [tid]


async def test_a_second_writer_of_the_same_entry_is_refused_and_nothing_is_written(storage: AnyStorage) -> None:
    tid = await storage.tournaments.create(server_id=100, channel_id=555, organiser_id=9, name="x",
                                           settings_json=SETTINGS.to_json(), now=NOW, entries=["join 11 Alice"])
    with pytest.raises(LogConflict):
        await storage.tournaments.append(tournament_id=tid, seq=0, entries=["join 12 Ben"], now=NOW, state="stopped")
    stored = await storage.tournaments.get(tournament_id=tid)
    assert stored.log == ("join 11 Alice",) and stored.state == "signup"

    with pytest.raises(LogConflict, match="the next log entry is 1, not 2"):  # a writer whose view runs ahead
        await storage.tournaments.append(tournament_id=tid, seq=2, entries=["join 12 Ben"], now=NOW, state="stopped")
    stored = await storage.tournaments.get(tournament_id=tid)
    assert stored.log == ("join 11 Alice",) and stored.state == "signup"


async def test_ended_tournaments_are_not_taken_up_again(storage: AnyStorage) -> None:
    tid = await storage.tournaments.create(server_id=100, channel_id=555, organiser_id=9, name="x",
                                           settings_json=SETTINGS.to_json(), now=NOW)
    await storage.tournaments.append(tournament_id=tid, seq=0, entries=["end stopped"], now=NOW, state="stopped")
    assert await storage.tournaments.running() == []
    with pytest.raises(NotFound):
        await storage.tournaments.get(tournament_id=tid + 1)


async def test_the_organiser_role_is_a_server_setting(storage: AnyStorage) -> None:
    assert (await storage.settings.get(server_id=42)).organiser_role is None
    await storage.settings.save(settings=ServerSettings(42, organiser_role=777), now=NOW)
    assert (await storage.settings.get(server_id=42)).organiser_role == 777
    await storage.settings.save(settings=ServerSettings(42, language=Lang("de")), now=NOW)
    assert (await storage.settings.get(server_id=42)) == ServerSettings(42, language=Lang("de"))
