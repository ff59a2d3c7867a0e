"""Shared test setup. bot.py, skatbot/ and cogs/ are importable via pyproject's `pythonpath = ["."]`.

Hypothesis profiles: "dev" (the default) explores new random examples on each run; "ci" (chosen when
the CI variable is set, as in .ci/run) is derandomized so a CI verdict does not depend on luck. Neither
has a deadline: timing belongs in benchmarks/, and a busy 2-core machine must not fail a property test.
Choose one explicitly with HYPOTHESIS_PROFILE=dev|ci.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Iterator

import pytest
from hypothesis import settings

settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """This test run's own PostgreSQL database (created with a random name, dropped at the end).

    Where no server can be reached or started, the PostgreSQL tests skip locally, and fail under CI."""
    from tests.postgres_server import Unavailable, run_database

    try:
        with run_database() as url:
            yield url
    except Unavailable as error:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is needed under CI and none could be reached or started: {error}")
        pytest.skip(f"no PostgreSQL for these tests: {error}")


@pytest.fixture
async def schema_url(postgres_url: str) -> AsyncIterator[str]:
    """A PostgreSQL schema of this test's own, empty, dropped afterwards: its URL selects it."""
    import asyncpg

    schema = f"test_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(postgres_url)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        yield f"{postgres_url}?search_path={schema}"
    finally:
        for attempt in range(5):  # a killed bot's server session may still be running a statement there:
            try:              # the drop that deadlocks with it (and is chosen to give way) is tried again
                await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
                break
            except asyncpg.DeadlockDetectedError:
                if attempt == 4:
                    raise
                await asyncio.sleep(0.5)
        await admin.close()
