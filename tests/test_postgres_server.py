"""How the tests find PostgreSQL (tests/postgres_server.py): a given URL that does not answer is named, and
the last resort, a throwaway server from PostgreSQL's own programs, really starts, answers and goes away."""

from __future__ import annotations

import asyncio
import os

import asyncpg
import pytest

from tests.postgres_server import URL_VAR, Unavailable, server, throwaway_server


def test_a_given_url_that_does_not_answer_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(URL_VAR, "postgresql://nobody@127.0.0.1:1/none")
    with pytest.raises(Unavailable, match=f"{URL_VAR} is set but the server does not answer"), server():
        pass


def test_a_throwaway_server_starts_answers_and_is_removed() -> None:
    async def version(url: str) -> str:
        connection = await asyncpg.connect(url)
        try:
            return str(await connection.fetchval("SHOW server_version"))
        finally:
            await connection.close()

    try:
        with throwaway_server() as url:
            assert asyncio.run(version(url))
    except Unavailable as error:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no PostgreSQL programs here: {error}")
    with pytest.raises(OSError):
        asyncio.run(version(url))
