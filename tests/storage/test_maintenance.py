"""The maintenance CLI: backup while the database is open, and the replay check that finds tampering."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from skatbot.engine import RuleSet
from skatbot.storage import Player, SqliteStorage
from skatbot.storage.__main__ import main
from skatbot.storage.database import load_migrations
from tests.storage.storage_helpers import NOW, add_players, play_series


async def _fill(path: Path) -> SqliteStorage:
    storage = await SqliteStorage.open(path)
    await add_players(storage, Player(1, "Anna"), Player(2, "Bert"), Player(3, "Carla"), Player(-1, "AI", True))
    for seed, (preset, seats) in enumerate((("pub", (1, 2, 3, -1)), ("official", (1, 2, 3))), start=1):
        table = await storage.tables.create(server_id=5, channel_id=5, creator_id=1, rule_preset=preset,
                                            rules=RuleSet.preset(preset).to_dict(), series_length=8, seats=seats,
                                            size=len(seats), now=NOW)
        await play_series(storage, table_id=table.table_id, seed=seed)
    return storage


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("played") / "bot.sqlite3"

    async def fill() -> None:
        await (await _fill(path)).close()

    asyncio.run(fill())
    return path


@pytest.fixture
def database(played: Path, tmp_path: Path) -> Path:
    """A fresh copy of the played database for each test (closed cleanly, so the WAL is checkpointed)."""
    path = tmp_path / "bot.sqlite3"
    shutil.copyfile(played, path)
    return path


def test_check_passes_on_played_deals(database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--database", str(database), "check"]) == 0
    assert "checked 16 deals in 2 tables: ok" in capsys.readouterr().out
    with sqlite3.connect(database) as connection:  # the played deals include ISS-less ones (Ramsch/Kontra)
        kinds = connection.execute("SELECT COUNT(*), SUM(iss = '') FROM deals JOIN deal_records USING (deal_id)"
                                   ).fetchone()
    assert kinds[0] == 16 and kinds[1] >= 1


def test_check_finds_a_tampered_result(database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(database) as connection:
        deal_id, value = connection.execute(
            "SELECT deal_id, game_value FROM deals WHERE game <> 'passed' ORDER BY deal_id LIMIT 1").fetchone()
        connection.execute("UPDATE deals SET game_value = game_value + 1 WHERE deal_id = ?", (deal_id,))
    assert main(["--database", str(database), "check"]) == 1
    out = capsys.readouterr().out
    assert f"deal {deal_id} " in out and f"value: stored {value + 1}, replay gives {value}" in out
    assert "(JSON)" in out and "(log)" in out


def test_check_finds_a_record_that_does_not_replay(database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(database) as connection:
        deal_id, text = connection.execute("SELECT deal_id, record_json FROM deal_records ORDER BY deal_id LIMIT 1"
                                           ).fetchone()
        document = json.loads(text)
        document["actions"] = document["actions"][:-1]
        connection.execute("UPDATE deal_records SET record_json = ? WHERE deal_id = ?",
                           (json.dumps(document), deal_id))
    assert main(["--database", str(database), "check"]) == 1
    assert f"deal {deal_id} (table" in capsys.readouterr().out


def test_backup_while_the_bot_has_the_database_open(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "live.sqlite3"
    target = tmp_path / "copy.sqlite3"

    async def scenario() -> None:
        storage = await _fill(path)  # still open, WAL not checkpointed: the bot is running
        try:
            monkeypatch.setenv("SKATBOT_DATABASE", str(path))
            assert await asyncio.to_thread(main, ["backup", str(target)]) == 0
        finally:
            await storage.close()

    asyncio.run(scenario())
    assert main(["--database", str(target), "check"]) == 0
    assert "checked 16 deals in 2 tables: ok" in capsys.readouterr().out
    assert main(["--database", str(path), "backup", str(target)]) == 2  # never overwrites


def test_cli_refuses_a_missing_or_newer_database(tmp_path: Path, database: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--database", str(tmp_path / "missing.sqlite3"), "check"]) == 2
    assert not (tmp_path / "missing.sqlite3").exists()
    with sqlite3.connect(database) as connection:
        connection.execute(f"PRAGMA user_version = {len(load_migrations()) + 1}")
    assert main(["--database", str(database), "check"]) == 2
    assert "newer skatbot" in capsys.readouterr().err


async def test_a_deal_the_iss_format_cannot_hold_has_no_iss_record_and_exports_as_json(database: Path) -> None:
    storage = await SqliteStorage.open(database)
    try:
        rows = await storage.database.fetch_all(
            "SELECT deal_id, iss <> '' AS has_iss FROM deal_records ORDER BY has_iss")
        without, with_iss = rows[0], rows[-1]
        assert not without["has_iss"] and with_iss["has_iss"]
        assert json.loads(await storage.deals.export_json(deal_id=without["deal_id"]))["actions"]
        assert (await storage.deals.get(deal_id=with_iss["deal_id"])).iss.startswith("(;GM[Skat]")
    finally:
        await storage.close()
