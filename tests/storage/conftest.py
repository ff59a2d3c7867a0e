"""Storage tests run against real databases, no mocks: every test of the `storage` fixture runs twice, on
a SQLite file in a temporary folder and on PostgreSQL (a schema of its own in this run's database, see
tests/postgres_server.py)."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from skatbot.storage import PostgresStorage, SqliteStorage, Storage


@pytest.fixture(params=["sqlite", "postgres"])
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    if request.param == "sqlite":
        opened: Storage = await SqliteStorage.open(tmp_path / "skatbot.sqlite3")
        try:
            yield opened
        finally:
            await opened.close()
        return
    url: str = request.getfixturevalue("postgres_url")
    schema = f"test_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        opened = await PostgresStorage.open(f"{url}?search_path={schema}")
        try:
            yield opened
        finally:
            await opened.close()
    finally:
        await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        await admin.close()
