"""Load: the real bot process against the loopback Discord with many tables playing at once.

    .venv/bin/python -m benchmarks.bot_load                  # 50 tables: SQLite in one process, then
                                                             # PostgreSQL in two (side by side)
    .venv/bin/python -m benchmarks.bot_load --tables 100 --backend postgres --processes 3
    .venv/bin/python -m benchmarks.bot_load --tables 20 --deals 2 --backend sqlite
    .venv/bin/python -m benchmarks.bot_load --tables 20 --level strong
    .venv/bin/python -m benchmarks.bot_load --tables 100 --think 2 --ramp 30   # people, arriving over 30 s

Each table has one scripted human (a channel and a user of its own) and two AIs of one level (normal
unless --level says otherwise; a table needs a human). The tables' channels are spread over --servers
servers. The humans open their tables with /skat new, seat the AIs and start with the lobby buttons, then
play every turn by pressing the controls on their hand message as soon as it offers them (or, with
--think S, after looking at it for 0.5 S to 1.5 S seconds, as a person would, and likewise before each lobby
click), and look at /skat table now and then. Without --think the players form a closed loop with no pause: the
bot is always busy, and a faster bot plays the same deals sooner rather than answering sooner. Without --ramp
every table opens in the same instant (100 /skat new, then 200 seatings and 100 starts, each dealing, within a
second or two: a stampede); --ramp S has each player come to their table at a random moment of the first S
seconds, as people do.

Configurations: SQLite runs one bot process; PostgreSQL runs --processes processes (default 2) against a
scratch database created on the --postgres server and dropped afterwards, process k running shard k of
SKATBOT_SHARD_COUNT=N. The loopback Discord routes a server's interactions to shard (server_id >> 22) % N
and direct messages (every click on a hand) to shard 0, and the servers alternate between the shards: so
a table's lobby and /skat table are served by its server's process, its hand's clicks by shard 0's.

Prints, as `name: value` lines for one configuration, side by side for both:
- ack_p50_ms / ack_p99_ms: time from an interaction's arrival (the fake dispatching it on the gateway)
  to the bot's acknowledgement reaching the fake (a move is acknowledged once it is stored, or after
  150 ms at the latest, so these include the database under load); missed_3s: not acknowledged within 3 s;
  hand_click_ack_p99_ms: the same p99 for the clicks on hand messages alone (the moves, in direct messages),
  without the burst of every table opening, seating its AIs and starting at once;
- store_append_p50_ms / store_append_p99_ms: how long the store took to append one log entry (a move,
  a deal, a seat), as the bot logs it (skatbot.timing at DEBUG, see benchmarks/load_bot.py);
  catch_up_read_p99_ms: the read of what other processes appended, done under the table's lock each step;
  move_arrival_p99_ms: from the interaction's creation (its id's clock) to its handler's start in the bot (the
  gateway, discord.py's parsing and dispatch); move_stored_p99_ms: from there until the move was stored (or shown
  pending); table_lock_p99_ms: how long taking a table's lock took (on PostgreSQL an advisory lock, taken
  with the read of what other processes appended; catch_up_read is then only the reads outside a step);
- loop_lag_p50_ms / loop_lag_p99_ms: how late the bot's event loop wakes a 50 ms sleep (sampled throughout,
  every process's samples together): what every callback waits for while the loop is busy, acknowledgements
  included; gc_pauses_5ms / gc_pause_max_ms: the garbage collector's passes that took 5 ms or more of the loop
  thread's CPU time (the loop stands still meanwhile), and the longest;
- kb_per_table: the bot processes' resident memory with every table open and playing, minus their memory
  before the first table, divided by the number of tables; bot_cpu_s: their CPU time during the run
  (without their worker processes); workers_cpu_s: their AI workers' and picture processes';
  fake_discord_cpu_s: this process's (the loopback Discord and the scripted players share the machine with the
  bot);
- the run's size (interactions, REST calls, seconds), Discord rule violations, and public_leaks: every
  public message checked for hidden cards (against the deals stored in the database), as in the
  end-to-end tests.
Targets: p99 <= 100 ms at 100 tables, none missed, < 500 KB per table. `--profile PREFIX` runs each bot
process under cProfile (statistics in PREFIX-BACKEND-SHARD.prof).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import secrets
import sqlite3
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from tests.e2e.fakediscord import BotProcess, Channel, FakeDiscord, Interaction, Message, User
from tests.e2e.skat_helpers import control_id
from tests.e2e.skat_leaks import dealt_from_entries, public_leaks

HAND_PREFIXES = ("**Your hand**",)
SIDE_KINDS = ("claim", "concede", "kontra", "re")
SERIES_OVER = "🏁"


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Index:
    """Messages by channel, kept as the fake stores them (the fake's own queries scan every message)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.by_channel: dict[int, list[Message]] = defaultdict(list)
        world = fake.world
        post = world.post_message

        def indexed(channel: Channel, version: Any, **kwargs: Any) -> Message:
            message = post(channel, version, **kwargs)
            self.by_channel[channel.id].append(message)
            return message

        world.post_message = indexed  # type: ignore[method-assign]  # index each message as the fake posts it

    def newest(self, channel_id: int, prefix: str | tuple[str, ...]) -> Message | None:
        for message in reversed(self.by_channel.get(channel_id, [])):
            if not message.deleted and message.content.startswith(prefix):
                return message
        return None


def controls(message: Message) -> list[dict[str, Any]]:
    return [c for c in message.walk_components() if c.get("type") in (2, 3) and not c.get("disabled")
            and str(c.get("custom_id", "")).split(":")[3] not in SIDE_KINDS]


async def acked(ix: Interaction) -> bool:
    """Wait up to 10 s for the acknowledgement; one that does not come is counted as missed, not fatal: the
    player does it again, as a person would (a second press of a move that did go through is refused)."""
    try:
        await ix.wait_acked(10)
    except TimeoutError:
        return False
    return True


class Player:
    """One scripted human and their table."""

    def __init__(self, fake: FakeDiscord, index: Index, user: User, channel: Channel, seed: int) -> None:
        self.fake, self.index, self.user, self.channel = fake, index, user, channel
        self.rng = random.Random(seed)
        self.dm = fake.dm_channel(user)
        self.pressed: set[tuple[int, int]] = set()

    async def wait(self, condition: Any, timeout: float = 120.0, required: bool = True) -> Any:
        """Until `condition()` holds (its value); after `timeout` an error, or None when not `required`."""
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                if not required:
                    return None
                raise TimeoutError(f"{self.user.name}: timed out")
            await self.fake.world.signal.wait(0.25)

    async def until(self, done: Any, step: Any) -> Any:
        """Do `step()` (send an interaction) until `done()` holds: again when the bot missed it."""
        while True:
            answered = await acked(await step())
            value = await self.wait(done, 120 if answered else 10, required=not answered)
            if value:
                return value

    async def look(self) -> None:
        """With --think, the pause of a person reading what the bot showed before their next click."""
        if THINK:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * THINK)

    async def open_table(self) -> None:
        fake = self.fake
        if RAMP:  # the players come to their tables over the first RAMP seconds, not all in the same instant
            await asyncio.sleep(self.rng.uniform(0, RAMP))
        lobby: Message = await self.until(
            lambda: self.index.newest(self.channel.id, "🃏"),
            lambda: fake.slash(self.user, self.channel, "skat", subcommand="new", options={"deals": DEALS}))
        for seated in ("AI 1", "AI 2"):
            await self.look()
            if LEVEL == "normal":  # the lobby's button seats a normal AI; other levels by command
                await self.until(lambda seated=seated: seated in lobby.content,
                                 lambda: fake.click(self.user, lobby, control_id(lobby, "addai")))
            else:
                await self.until(lambda seated=seated: seated in lobby.content,
                                 lambda: fake.slash(self.user, self.channel, "skat", subcommand="add-ai",
                                                    options={"level": LEVEL}))
        await self.look()
        await self.until(lambda: self.index.newest(self.dm.id, HAND_PREFIXES) or self.over(),
                         lambda: fake.click(self.user, lobby, control_id(lobby, "start")))

    def over(self) -> bool:
        return self.index.newest(self.channel.id, SERIES_OVER) is not None

    def my_turn(self) -> Message | str | None:
        if self.over():
            return "over"
        hand = self.index.newest(self.dm.id, HAND_PREFIXES)
        if hand is None or (hand.id, len(hand.history)) in self.pressed or not controls(hand):
            return None
        return hand

    async def play(self) -> None:
        fake = self.fake
        moves = 0
        while True:
            found = await self.wait(self.my_turn)
            if found == "over":
                return
            hand: Message = found
            if THINK:  # a person looks at their hand first
                await self.look()
                if self.my_turn() is not hand:
                    continue
            self.pressed.add((hand.id, len(hand.history)))
            choices = controls(hand)
            control = self.rng.choice([c for c in choices if "pass" not in c["custom_id"]] or choices)
            if control["type"] == 2:
                ix = await fake.click(self.user, hand, control["custom_id"])
            else:
                values = [o["value"] for o in control["options"]]
                ix = await fake.select(self.user, hand, control["custom_id"],
                                       self.rng.sample(values, control.get("min_values", 1)))
            if not await acked(ix):
                self.pressed.discard((hand.id, len(hand.history)))  # missed: pressed again unless the hand moves on
            moves += 1
            if moves % 5 == 0:
                await acked(await fake.slash(self.user, self.channel, "skat", subcommand="table"))


DEALS = 1
LEVEL = "normal"
THINK = 0.0
RAMP = 0.0
POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
TIMING = re.compile(r"skatbot\.timing: (append|catch_up) table=\d+ \S+ ms=([0-9.]+)")
LAG = re.compile(r"skatbot\.timing: loop_lag ms=([0-9.]+)")
MOVE = re.compile(r"skatbot\.timing: move table=\d+ arrived_ms=([0-9.-]+) stored_ms=([0-9.]+)")
LOCK = re.compile(r"skatbot\.timing: lock table=\d+ ms=([0-9.]+)")
GC = re.compile(r"skatbot\.timing: gc_pause gen=\d ms=([0-9.]+)")


@dataclass(frozen=True)
class Setup:
    """One configuration: the backend and how many bot processes share it (one shard each)."""

    backend: str  # "sqlite" or "postgres"
    processes: int = 1

    @property
    def label(self) -> str:
        return f"{self.backend} x{self.processes}"


@asynccontextmanager
async def scratch_database(admin_url: str) -> AsyncIterator[str]:
    """A fresh PostgreSQL database on the server of `admin_url` (random name), dropped afterwards."""
    name = f"skatbot_load_{secrets.token_hex(4)}"
    parts = urlsplit(admin_url)
    admin = await asyncpg.connect(admin_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


async def deal_entries(database: str, table_id: int) -> list[str]:
    """A table's `deal N SEED` log entries, from the SQLite file or the PostgreSQL database."""
    if database.startswith("postgresql://"):
        connection = await asyncpg.connect(database)
        try:
            rows = await connection.fetch("SELECT entry FROM table_log WHERE table_id = $1 AND entry LIKE 'deal %' "
                                          "ORDER BY seq", table_id)
        finally:
            await connection.close()
        return [str(row["entry"]) for row in rows]
    with sqlite3.connect(database) as db:
        return [str(row[0]) for row in db.execute(
            "SELECT entry FROM table_log WHERE table_id = ? AND entry LIKE 'deal %' ORDER BY seq", (table_id,))]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def workers_cpu_seconds(parents: list[int]) -> float:
    """CPU time so far of the bot processes' children (the AI workers and the picture process)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) in parents:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def run(tables: int, deals: int, seed: int, level: str = "normal", pictures: bool = True,
              setup: Setup = Setup("sqlite"), postgres: str = POSTGRES, servers: int = 10,
              profile: Path | None = None) -> dict[str, object]:
    """One load run: `tables` tables across `servers` servers, spread over the processes' shards."""
    if setup.backend == "postgres":
        async with scratch_database(postgres) as url:
            return await _run(tables, deals, seed, level, pictures, setup, url, servers, profile)
    with tempfile.TemporaryDirectory() as folder:
        return await _run(tables, deals, seed, level, pictures, setup, str(Path(folder) / "load.sqlite3"), servers,
                          profile)


async def _run(tables: int, deals: int, seed: int, level: str, pictures: bool, setup: Setup, database: str,
               servers: int, profile: Path | None) -> dict[str, object]:
    global DEALS, LEVEL
    DEALS = deals
    LEVEL = level
    count = setup.processes
    async with FakeDiscord(shard_count=count) as fake:
        guilds = [fake.add_guild(f"Load {k}", shard=k % count if count > 1 else None)
                  for k in range(max(1, min(servers, tables)))]
        index = Index(fake)
        players = []
        for number in range(tables):
            guild = guilds[number % len(guilds)]
            channel = fake.add_channel(guild, f"table-{number}")
            players.append((channel, fake.add_user(f"player{number}", guilds=[guild])))
        where = {"SKATBOT_DATABASE_URL": database} if setup.backend == "postgres" else {"SKATBOT_DATABASE": database}
        procs = []
        for shard in range(count):
            env = {**where, "SKATBOT_AI_PAUSE": "0", "SKATBOT_LOG_LEVEL": "WARNING"}
            if count > 1:
                env.update(SKATBOT_SHARD_COUNT=str(count), SKATBOT_SHARD_IDS=str(shard))
            if profile is not None:
                env["BOT_LOAD_PROFILE"] = str(profile.with_name(f"{profile.name}-{setup.backend}-{shard}.prof"))
            procs.append(BotProcess(fake, "benchmarks/load_bot.py", env=env))
        try:
            for proc in procs:  # one after the other: shard 0's process publishes the commands
                await proc.start()
                await proc.wait_connected(60, commands=("skat",))
            if not pictures:  # each server's owner turns them off (/skat settings), as an admin would
                for guild in guilds:
                    first = next(channel for channel, _ in players if channel.guild_id == guild.id)
                    await (await fake.slash(fake.world.owner, first, "skat", subcommand="settings",
                                            options={"pictures": "off"})).wait_message()
            pids = []
            for proc in procs:
                assert proc.proc is not None
                pids.append(proc.proc.pid)
            await asyncio.sleep(1.0)
            before = sum(rss_kb(pid) for pid in pids)
            cpu_before = sum(cpu_seconds(pid) for pid in pids)
            workers_before = workers_cpu_seconds(pids)
            harness_before = time.process_time()
            peak = before
            started = time.monotonic()
            scripted = [Player(fake, index, user, channel, seed + n) for n, (channel, user) in enumerate(players)]

            async def one(player: Player) -> None:
                await player.open_table()
                await player.play()

            async def sample_memory() -> None:
                nonlocal peak
                while True:
                    peak = max(peak, sum(rss_kb(pid) for pid in pids))
                    await asyncio.sleep(0.25)

            sampler = asyncio.create_task(sample_memory())
            results = await asyncio.gather(*(one(p) for p in scripted), return_exceptions=True)
            sampler.cancel()
            failures = [r for r in results if isinstance(r, BaseException)]
            if failures:
                for shard, proc in enumerate(procs):
                    kept = Path(tempfile.gettempdir()) / f"bot_load-{setup.backend}-{shard}.log"
                    kept.write_text(proc.output())
                    untimed = [line for line in proc.output().splitlines() if "skatbot.timing" not in line]
                    print(f"--- bot process {shard} (its whole output: {kept})", *untimed[-40:], sep="\n")
                raise failures[0]
            seconds = time.monotonic() - started
            cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before
            workers_cpu = workers_cpu_seconds(pids) - workers_before
            harness_cpu = time.process_time() - harness_before
        finally:
            for proc in procs:
                await proc.stop()
        output = "".join(proc.output() for proc in procs)
        for proc in procs:
            proc.close()
        leaks: list[str] = []
        checked = 0
        for channel, user in players:  # each table against its stored deals
            lobby = index.newest(channel.id, "🃏")
            table_id = int(lobby.content.split("#")[1].split("*")[0]) if lobby else 0
            dealt = dealt_from_entries(await deal_entries(database, table_id))
            checked += bool(dealt)
            leaks += public_leaks(fake, [user], channel, dealt=dealt)
        for problem in leaks[:5]:
            print("LEAK", problem)
        stored: dict[str, list[float]] = defaultdict(list)
        for kind, ms in TIMING.findall(output):
            stored[kind].append(float(ms))
        lags = [float(ms) for ms in LAG.findall(output)]
        pauses = [float(ms) for ms in GC.findall(output)]
        moved = MOVE.findall(output)
        locks = [float(ms) for ms in LOCK.findall(output)]
        files = [len(a.data) for m in fake.messages(include_deleted=True) for v in m.history for a in v.attachments]
        latencies = [ix.acked_at for ix in fake.interactions if ix.acked_at is not None]
        missed = sum(1 for ix in fake.interactions if ix.acked_at is None or ix.acked_at > 3.0)
        moves = [ix.acked_at for ix in fake.interactions if ix.acked_at is not None and ix.channel.is_dm]
        return {
            "tables": tables, "servers": len(guilds), "processes": count, "deals_per_table": deals,
            "interactions": len(fake.interactions), "rest_calls": len(fake.rest_log), "seconds": round(seconds, 1),
            "rest_by_route": dict(Counter(f"{call.method} {call.route.removeprefix('/api/v10')}"
                                          for call in fake.rest_log).most_common(8)),
            "ack_p50_ms": round(statistics.median(latencies) * 1000, 1),
            "ack_p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
            "ack_max_ms": round(max(latencies) * 1000, 1), "missed_3s": missed,
            "hand_click_ack_p99_ms": round(percentile(moves, 0.99) * 1000, 1),
            "store_appends": len(stored["append"]),
            "store_append_p50_ms": round(percentile(stored["append"], 0.5), 2),
            "store_append_p99_ms": round(percentile(stored["append"], 0.99), 2),
            "catch_up_read_p99_ms": round(percentile(stored["catch_up"], 0.99), 2),
            "move_arrival_p99_ms": round(percentile([float(a) for a, _ in moved], 0.99), 1),
            "move_stored_p99_ms": round(percentile([float(s) for _, s in moved], 0.99), 1),
            "table_lock_p99_ms": round(percentile(locks, 0.99), 2),
            "loop_lag_p50_ms": round(percentile(lags, 0.5), 1), "loop_lag_p99_ms": round(percentile(lags, 0.99), 1),
            "gc_pauses_5ms": len(pauses), "gc_pause_max_ms": round(max(pauses, default=0.0), 1),
            "bot_cpu_s": round(cpu, 1), "workers_cpu_s": round(workers_cpu, 1),
            "fake_discord_cpu_s": round(harness_cpu, 1),
            "violations": len(fake.violations), "public_leaks": len(leaks), "tables_checked_against_db": checked,
            "kb_per_table": round((peak - before) / tables, 1),
            "bot_rss_mb_before": round(before / 1024, 1), "bot_rss_mb_peak": round(peak / 1024, 1),
            "pictures_sent": len(files), "picture_kb_per_table": round(sum(files) / 1024 / tables, 1),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--servers", type=int, default=10, help="the tables' servers, spread over the shards")
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "strong"), help="the AIs' level")
    parser.add_argument("--no-pictures", action="store_true", help="with /skat settings pictures: off")
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--processes", type=int, default=2, help="bot processes on PostgreSQL, one shard each")
    parser.add_argument("--postgres", default=os.environ.get("SKATBOT_TEST_DATABASE_URL") or POSTGRES,
                        help="the server where a scratch database is created (and dropped afterwards)")
    parser.add_argument("--profile", type=Path, help="cProfile each bot process into PREFIX-BACKEND-SHARD.prof")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a player looks at their hand (or the lobby) before each click (on average; "
                             "0: at once)")
    parser.add_argument("--ramp", type=float, default=0.0,
                        help="the tables open at random moments over the first RAMP seconds (0: all at once)")
    args = parser.parse_args()
    global THINK, RAMP
    THINK, RAMP = args.think, args.ramp
    setups = [Setup(backend, 1 if backend == "sqlite" else args.processes)
              for backend in ("sqlite", "postgres") if args.backend in (backend, "both")]
    figures = []
    for setup in setups:  # each configuration's figures as soon as it is done, then side by side
        figures.append(asyncio.run(run(args.tables, args.deals, args.seed, args.level, pictures=not args.no_pictures,
                                       setup=setup, postgres=args.postgres, servers=args.servers,
                                       profile=args.profile)))
        lines = [f"{name}: {value}" for name, value in figures[-1].items()]
        print(*([f"--- {setup.label}"] if len(setups) > 1 else []), *lines, sep="\n", flush=True)
    if len(figures) == 1:
        return
    print(f"{'':<26}" + "".join(f"{setup.label:>14}" for setup in setups))
    for name in figures[0]:
        print(f"{name:<26}" + "".join(f"{f[name]!s:>14}" for f in figures))


if __name__ == "__main__":
    main()
