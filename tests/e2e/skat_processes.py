"""Several bot processes sharing one PostgreSQL database, each running its own shards of one fake Discord:
the harness of the multi-process scenarios (any process serves any table).

    procs = await start_processes(fake, start_bot, schema_url, ["0", "1"])   # FakeDiscord(shard_count=2)

Process i runs the shards `shard_ids[i]` (SKATBOT_SHARD_IDS: "0", "1-3", "0,2") of the fake's shard count.
They start one after the other, each until it is connected and logged in, shard 0's process until it has
published the commands (only it does). A process is an ordinary `BotProcess`: `kill()` (SIGKILL),
`start()` again, `wait_connected()`, `output()`; the `start_bot` fixture stops them all afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skatbot.storage import PostgresStorage
from tests.e2e.fakediscord import BotProcess, FakeDiscord
from tests.e2e.skat_helpers import BOT, faces_uploaded


def process_env(database_url: str, shard_count: int, shard_ids: str, **env: str) -> dict[str, str]:
    """The environment of one process: the shared database, the shard count, its own shards."""
    return {"SKATBOT_DATABASE_URL": database_url, "SKATBOT_SHARD_COUNT": str(shard_count),
            "SKATBOT_SHARD_IDS": shard_ids, "SKATBOT_AI_PAUSE": "0", "SKATBOT_LOG_LEVEL": "INFO", **env}


def runs_shard_zero(shard_ids: str) -> bool:
    for part in shard_ids.split(","):
        first = part.split("-")[0].strip()
        if first and int(first) == 0:
            return True
    return False


async def start_processes(fake: FakeDiscord, start_bot: Any, database_url: str, shard_ids: Sequence[str], *,
                          strict_output: bool = False, **env: str) -> list[BotProcess]:
    """One bot process per entry of `shard_ids`, all on `database_url` (a PostgreSQL URL, e.g. the
    `schema_url` fixture) with the fake's shard count; `env` is added to each process's environment.

    `strict_output`: the fixture fails the test if a process logged a traceback, also while it was being
    stopped (a process still closing its database pool after Ctrl-C may print one from the AI workers'
    exit); by default a test calls `assert_no_tracebacks` itself while the processes run. The application has
    its card faces already (`skat_helpers.faces_uploaded`)."""
    faces_uploaded(fake)
    count = fake.gateway.shard_count
    procs = []
    for ids in shard_ids:
        proc = await start_bot(fake, BOT, env=process_env(database_url, count, ids, **env),
                               commands=("skat",) if runs_shard_zero(ids) else (), strict_output=strict_output)
        await proc.wait_for_output("logged in as", timeout=20)
        procs.append(proc)
    return procs


def assert_no_tracebacks(procs: Sequence[BotProcess]) -> None:
    """No process logged an exception since its latest start (call it while they run: a process stopped by
    Ctrl-C while its AI workers start may print their interrupted start-up)."""
    for number, proc in enumerate(procs):
        output = proc.output().rsplit(f"--- start #{proc.starts}\n", 1)[-1]
        assert "Traceback (most recent call last)" not in output, f"process {number} logged a traceback:\n{output}"


async def stored_log(database_url: str, table_id: int) -> list[str]:
    """The table's log entries as stored (what every process replays)."""
    storage = await PostgresStorage.open(database_url)
    try:
        return [entry.entry for entry in await storage.tables.log(table_id=table_id)]
    finally:
        await storage.close()
