"""`python -m skatbot.storage copy SQLITE_FILE postgresql://...` on a real server's database: tables played
through the tables layer (finished, playing and open), settings and players, copied into PostgreSQL with
every row counted, `check` passing there, and the same lists and the same tables restored from it."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from skatbot.ai import Level
from skatbot.engine import RuleSet
from skatbot.models import Deck, Lang, counted
from skatbot.storage import PostgresStorage, ServerSettings, SqliteStorage, Storage, Window
from skatbot.storage.__main__ import main
from skatbot.tables import Table, TableState, TableTiming
from skatbot.tables.manager import TableManager
from skatbot.tables.memory import RecordingPresenter
from skatbot.wiring import StorageTables
from tests.storage.storage_helpers import series_list

SERVER = 900
NAMES = dict(zip(range(11, 18), ["Anna", "Bert", "Carla", "Dora", "Emil", "Frieda", "Gustav"], strict=True))


async def _play(table: Table, humans: set[int], rng: random.Random, steps: int) -> None:
    """The humans click seeded random legal moves; AI seats move by themselves."""
    for _ in range(steps):
        await table.settle()
        game = table.game
        if game.state is not TableState.PLAYING or game.deal is None:
            return
        seat = game.deal.current_seat
        occupant = game.occupant_of_seat(seat) if seat is not None else None
        if occupant is not None and occupant.user_id in humans and occupant.plays_itself:
            actions = game.deal.legal_actions()
            await table.act(occupant.user_id, actions[rng.randrange(len(actions))])
        else:
            await asyncio.sleep(0.02)


async def _server(path: Path) -> dict[int, tuple[str, int, int]]:
    """A server's SQLite database made by playing; returns each table's (state, deal number, finished deals)."""
    storage = await SqliteStorage.open(path)
    store = StorageTables(storage)
    seeds = random.Random(5)
    manager = TableManager(catalog=store, store=store, presenter=RecordingPresenter(),
                           timing=TableTiming(turn_seconds=3600, warn_after=3000, kontra_window=0.0),
                           new_seed=lambda: seeds.randrange(1 << 40))
    rng = random.Random(11)
    try:
        await storage.settings.save(settings=ServerSettings(SERVER, deck_style=Deck.GERMAN, language=Lang("de")),
                                    now=datetime.now(UTC))
        for player_id, name in NAMES.items():
            await store.save_player(player_id=player_id, name=name, is_ai=False)
        done = await manager.create(guild_id=SERVER, channel_id=901, creator_id=11, creator_name="Anna", size=3,
                                    deals=2, rules=RuleSet.preset("official"))
        await done.join(12, "Bert")
        await done.join(13, "Carla")
        await done.start(11)
        await _play(done, {11, 12, 13}, rng, 400)
        playing = await manager.create(guild_id=SERVER, channel_id=9021, creator_id=14, creator_name="Dora", size=4,
                                       deals=6, rules=RuleSet.preset("pub"), parent_id=902)
        await playing.join(15, "Emil")
        await playing.add_ai(14, Level.EASY)
        await playing.join(16, "Frieda")
        await playing.start(14)
        await _play(playing, {14, 15, 16}, rng, 50)
        lobby = await manager.create(guild_id=SERVER, channel_id=903, creator_id=17, creator_name="Gustav", size=3,
                                     deals=3, rules=RuleSet.preset("official"))
        await lobby.add_ai(17, Level.NORMAL)
        tables = {t.id: (t.game.state.value, t.game.deal_number, len(t.game.finished)) for t in (done, playing, lobby)}
        await manager.close()
    finally:
        await storage.close()
    assert tables[done.id][0] == "finished" and tables[playing.id][2] >= 1
    return tables


@pytest.fixture
def target(schema_url: str) -> str:
    return schema_url


async def _lists(storage: Storage, table_ids: list[int]) -> tuple[object, ...]:
    now = datetime.now(UTC)
    players = sorted({p for t in table_ids for p in (await storage.tables.get(table_id=t)).seats})
    return (await storage.settings.get(server_id=SERVER),
            await storage.stats.leaderboard(server_id=SERVER, window=Window.ALL, now=now, page_size=100),
            [await storage.stats.player_stats(server_id=SERVER, player_id=p, window=Window.ALL, now=now)
             for p in players],
            await storage.stats.server_history(server_id=SERVER, limit=100),
            [await storage.tables.get(table_id=t) for t in table_ids],
            [await storage.tables.log(table_id=t) for t in table_ids],
            [await storage.deals.for_table(table_id=t) for t in table_ids],
            [await series_list(storage, t) for t in table_ids],
            [await storage.deals.export_series_json(table_id=t) for t in table_ids])


async def _restored(storage: Storage) -> dict[int, tuple[str, int, int, list[str]]]:
    store = StorageTables(storage)
    manager = TableManager(catalog=store, store=store, presenter=RecordingPresenter())
    tables = await manager.restore()
    out = {t.id: (t.game.state.value, t.game.deal_number, len(t.game.finished), [str(e) for e in t.entries])
           for t in tables}
    await manager.close()
    return out


async def test_a_played_server_moves_into_postgresql_with_nothing_lost(
        tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "server.sqlite3"
    played = await _server(path)
    assert await asyncio.to_thread(main, ["copy", str(path), target]) == 0
    out = capsys.readouterr().out
    assert "every table has the same number of rows" in out
    deals = sum(finished for _, _, finished in played.values())
    assert f"checked {counted(deals, 'deal')} in {counted(len(played), 'table')}: ok" in out
    for name in ("servers", "players", "tables", "table_seats", "table_log", "deals", "deal_scores", "player_days",
                 "series_results"):
        line = next(line for line in out.splitlines() if line.startswith(f"{name} "))
        _, before, after = line.split()
        assert before == after and (int(before) > 0 or name == "series_results"), line
    sqlite = await SqliteStorage.open(path)
    postgres = await PostgresStorage.open(target)
    try:
        ids = sorted(played)
        assert await _lists(postgres, ids) == await _lists(sqlite, ids)
        assert await _restored(postgres) == await _restored(sqlite)
        assert sorted(await _restored(postgres)) == sorted(t for t, (state, _, _) in played.items()
                                                           if state in ("open", "playing"))
        # New tables and deals in PostgreSQL get ids after the copied ones.
        table = await postgres.tables.create(server_id=SERVER, channel_id=1, creator_id=11, rule_preset="official",
                                             rules={}, series_length=1, now=datetime.now(UTC))
        assert table.table_id == max(ids) + 1
    finally:
        await sqlite.close()
        await postgres.close()
    # A second copy into the now full database is refused and writes nothing.
    assert await asyncio.to_thread(main, ["copy", str(path), target]) == 2
    assert "already has rows" in capsys.readouterr().err


def test_copy_refuses_a_missing_file_or_a_target_that_is_not_postgresql(tmp_path: Path) -> None:
    assert main(["copy", str(tmp_path / "missing.sqlite3"), "postgresql://x@127.0.0.1/x"]) == 2
    (tmp_path / "real.sqlite3").touch()
    assert main(["copy", str(tmp_path / "real.sqlite3"), str(tmp_path / "other.sqlite3")]) == 2
