"""How long an AI turn waits when the process that should play it dies: the takeover time.

Each trial: process A (its own storage connection, store and table manager) opens a table with one human
and two AI seats and plays the human's turns until an AI seat must move; A's AI never answers and A then
goes away (its connection closed), leaving the AI step due and held by A for the lease. Process B (its own
connection, a table manager with its scheduler running at the bot's settings) claims the step once the
lease runs out and plays the move. Printed: the time from the step's due moment (A stored the entry that
made it due) to B having stored the AI's move, per backend (p50, max), with the lease and poll interval.

    .venv/bin/python -m benchmarks.due_takeover [--trials 5] [--backend sqlite|postgres|both] [--postgres URL]
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import tempfile
import time
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import asyncpg

from skatbot.ai import Level
from skatbot.engine import RuleSet
from skatbot.models import DUE_LEASE
from skatbot.storage import PostgresStorage, SqliteStorage, Storage
from skatbot.tables import TableTiming
from skatbot.tables.manager import TableManager
from skatbot.tables.memory import RecordingPresenter
from skatbot.tables.scheduler import POLL_SECONDS
from skatbot.wiring import StorageTables

HUMAN = 101
TIMING = TableTiming(turn_seconds=3600, warn_after=3000, kontra_window=0.0)


class Thinking(Executor):
    """A process that dies while its AI thinks: the answer never comes."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


async def trial(open_storage: Any, seed: int) -> float:
    first: Storage = await open_storage()
    store = StorageTables(first)
    dying = TableManager(catalog=store, store=store, presenter=RecordingPresenter(), executor=Thinking(),
                         timing=TIMING, new_seed=lambda: seed)
    await store.save_player(player_id=HUMAN, name="Anna", is_ai=False)
    table = await dying.create(guild_id=7, channel_id=70 + seed, creator_id=HUMAN, creator_name="Anna", size=3,
                               deals=1, rules=RuleSet())
    await table.add_ai(HUMAN, Level.NORMAL)
    await table.add_ai(HUMAN, Level.NORMAL)
    await table.start(HUMAN)
    for _ in range(50):
        deal = table.game.deal
        assert deal is not None and deal.current_seat is not None
        if not table.game.occupant_of_seat(deal.current_seat).plays_itself:
            break
        await table.act(HUMAN, deal.legal_actions()[0])
    due_at, seq = time.monotonic(), table.seq
    for task in (table._driver, table._timer):  # noqa: SLF001 - the process is gone: its tasks with it
        if task is not None:
            task.cancel()
    await first.close()

    second: Storage = await open_storage()
    store = StorageTables(second)
    taking = TableManager(catalog=store, store=store, presenter=RecordingPresenter(), timing=TIMING)
    taking.start_scheduler(store)
    try:
        while len(await second.tables.log(table_id=table.id)) <= seq:
            await asyncio.sleep(0.01)
        return time.monotonic() - due_at
    finally:
        await taking.close()
        await second.close()


async def run(backend: str, trials: int, postgres: str) -> list[float]:
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "takeover.sqlite3"

            async def open_sqlite() -> Storage:
                return await SqliteStorage.open(path)

            return [await trial(open_sqlite, seed) for seed in range(trials)]
    name = f"due_takeover_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(postgres)
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        url = postgres.rsplit("/", 1)[0] + f"/{name}"

        async def open_postgres() -> Storage:
            return await PostgresStorage.open(url)

        return [await trial(open_postgres, seed) for seed in range(trials)]
    finally:
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        await admin.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    print(f"lease {DUE_LEASE} s, poll {POLL_SECONDS} s")
    for backend in ("sqlite", "postgres") if args.backend == "both" else (args.backend,):
        taken = await run(backend, args.trials, args.postgres)
        print(f"{backend}_takeover_p50_s: {statistics.median(taken):.2f}")
        print(f"{backend}_takeover_max_s: {max(taken):.2f}")


if __name__ == "__main__":
    asyncio.run(main())
