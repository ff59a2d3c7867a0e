"""`python -m skatbot.storage ratings --rebuild`: the ratings rebuilt from the stored results are the same."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from skatbot.engine import RuleSet
from skatbot.storage import Player, PostgresStorage, SqliteStorage
from skatbot.storage.__main__ import main
from tests.storage.storage_helpers import NOW, add_players, play_series

QUERIES = ("SELECT * FROM ratings ORDER BY server_id, rated_id",
           "SELECT * FROM rating_history ORDER BY server_id, rated_id, seq",
           "SELECT * FROM rating_events ORDER BY server_id, seq")


def _rows(path: Path) -> list[list[tuple[object, ...]]]:
    with sqlite3.connect(path) as connection:
        return [[tuple(row) for row in connection.execute(sql)] for sql in QUERIES]


async def _played(path: Path) -> None:
    storage = await SqliteStorage.open(path)
    await add_players(storage, Player(1, "Anna"), Player(2, "Bert"), Player(3, "Carla"),
                      Player(-301, "AI 1 (strong)", True))
    for seed, seats in enumerate(((1, 2, 3), (1, 2, -301), (3, 2, -301)), start=1):
        table = await storage.tables.create(server_id=5, channel_id=5, creator_id=1, rule_preset="official",
                                            rules=RuleSet.preset("official").to_dict(), series_length=3,
                                            seats=seats, now=NOW)
        await play_series(storage, table_id=table.table_id, seed=seed)
        await storage.deals.finish_series(table_id=table.table_id, now=NOW)
        assert await storage.ratings.rate_series(table_id=table.table_id, now=NOW)
    await storage.close()


def test_rebuild_reproduces_every_rating(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bot.sqlite3"
    asyncio.run(_played(path))
    before = _rows(path)
    assert len(before[2]) == 3 and len(before[0]) == 4  # three series; Anna, Bert, Carla and "strong"
    with sqlite3.connect(path) as connection:  # ratings lost or damaged: the stored results are the truth
        connection.execute("UPDATE ratings SET mu = 1, sigma = 1")
        connection.execute("DELETE FROM rating_history WHERE seq = 2")
    assert _rows(path) != before
    assert main(["--database", str(path), "ratings", "--rebuild"]) == 0
    assert "rebuilt the ratings from 3 rated series and challenge days" in capsys.readouterr().out
    assert _rows(path) == before


def test_rebuild_of_a_missing_database_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--database", str(tmp_path / "none.sqlite3"), "ratings", "--rebuild"]) == 2
    assert "no database" in capsys.readouterr().err


async def _ratings_of(storage: SqliteStorage | PostgresStorage) -> list[list[tuple[object, ...]]]:
    return [[tuple(row) for row in await storage.database.fetch_all(sql)] for sql in QUERIES]


async def test_the_ratings_move_into_postgresql_exactly_and_rebuild_the_same_there(
        tmp_path: Path, schema_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bot.sqlite3"
    await _played(path)
    before = _rows(path)
    assert await asyncio.to_thread(main, ["copy", str(path), schema_url]) == 0
    assert "every table has the same number of rows" in capsys.readouterr().out
    postgres = await PostgresStorage.open(schema_url)
    try:
        assert await _ratings_of(postgres) == before  # doubles both sides: every bit kept
        await postgres.ratings.rebuild(now=NOW)
        assert await _ratings_of(postgres) == before
    finally:
        await postgres.close()
