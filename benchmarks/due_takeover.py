"""How long an AI turn waits when the process that should play it dies: the takeover time.

Each trial: process A (its own storage connection, store and table manager) opens `--tables` tables, each
with one human and two AI seats, and plays the human's turns until an AI seat must move; A's AI never
answers and A then goes away (its connection closed), leaving the AI steps due and held by A for the lease.
Process B (its own connection, a table manager with its scheduler running at the bot's settings) claims the
steps once the lease runs out and plays the moves. Printed per backend: the time from A's death to B having
stored each table's AI move (p50, max), with the lease and poll interval. With one table A dies the moment
the step is due, so this is the wait a player sees.

    .venv/bin/python -m benchmarks.due_takeover [--trials 5] [--tables 1] [--backend sqlite|postgres|both]
        [--postgres URL]
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


async def trial(open_storage: Any, seed: int, tables: int) -> list[float]:
    """One process dies with an AI turn due at each of `tables` tables; the seconds until each was played."""
    first: Storage = await open_storage()
    store = StorageTables(first)
    dying = TableManager(catalog=store, store=store, presenter=RecordingPresenter(), executor=Thinking(),
                         timing=TIMING, new_seed=lambda: seed)
    await store.save_player(player_id=HUMAN, name="Anna", is_ai=False)
    due: dict[int, int] = {}  # table -> the sequence number its AI turn is due at
    held = []
    for number in range(tables):
        table = await dying.create(guild_id=7, channel_id=1000 * seed + number, creator_id=HUMAN,
                                   creator_name="Anna", size=3, deals=1, rules=RuleSet())
        await table.add_ai(HUMAN, Level.NORMAL)
        await table.add_ai(HUMAN, Level.NORMAL)
        await table.start(HUMAN)
        for _ in range(50):
            deal = table.game.deal
            assert deal is not None and deal.current_seat is not None
            if not table.game.occupant_of_seat(deal.current_seat).plays_itself:
                break
            await table.act(HUMAN, deal.legal_actions()[0])
        due[table.id] = table.seq
        held.append(table)
    for table in held:  # the process is gone: its tasks with it
        for task in (table.ai.task, table.timers.turn):
            if task is not None:
                task.cancel()
    await first.close()
    died = time.monotonic()

    second: Storage = await open_storage()
    store = StorageTables(second)
    taking = TableManager(catalog=store, store=store, presenter=RecordingPresenter(), timing=TIMING)
    taking.start_scheduler(store)
    taken: dict[int, float] = {}
    try:
        while len(taken) < len(due):
            for table_id, seq in due.items():
                if table_id not in taken and len(await second.tables.log(table_id=table_id)) > seq:
                    taken[table_id] = time.monotonic() - died
            await asyncio.sleep(0.02)
        return list(taken.values())
    finally:
        await taking.close()
        await second.close()


async def run(backend: str, trials: int, tables: int, postgres: str) -> list[float]:
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "takeover.sqlite3"

            async def open_sqlite() -> Storage:
                return await SqliteStorage.open(path)

            return [took for seed in range(trials) for took in await trial(open_sqlite, seed + 1, tables)]
    name = f"due_takeover_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(postgres)
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        url = postgres.rsplit("/", 1)[0] + f"/{name}"

        async def open_postgres() -> Storage:
            return await PostgresStorage.open(url)

        return [took for seed in range(trials) for took in await trial(open_postgres, seed + 1, tables)]
    finally:
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        await admin.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--tables", type=int, default=1, help="tables the dying process leaves an AI turn at")
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    print(f"lease {DUE_LEASE} s, poll {POLL_SECONDS} s, {args.tables} tables per dying process")
    for backend in ("sqlite", "postgres") if args.backend == "both" else (args.backend,):
        taken = await run(backend, args.trials, args.tables, args.postgres)
        print(f"{backend}_takeover_p50_s: {statistics.median(taken):.2f}")
        print(f"{backend}_takeover_max_s: {max(taken):.2f}")


if __name__ == "__main__":
    asyncio.run(main())
