"""Load: the real bot process against the loopback Discord with many tables playing at once.

    .venv/bin/python -m benchmarks.bot_load                  # 50 tables, one deal each
    .venv/bin/python -m benchmarks.bot_load --tables 20 --deals 2
    .venv/bin/python -m benchmarks.bot_load --tables 20 --level strong

Each table has one scripted human (a channel and a user of its own) and two AIs of one level (normal
unless --level says otherwise; a table needs a human). The humans open their tables with /skat new, seat the AIs and start with the lobby
buttons, then play every turn by pressing the controls on their hand message as soon as it offers them,
and look at /skat table now and then. Prints, as `name: value` lines:
- ack_p50_ms / ack_p99_ms: time from an interaction's arrival (the fake dispatching it on the gateway)
  to the bot's acknowledgement reaching the fake (a move is acknowledged once it is stored, or after
  150 ms at the latest, so these include SQLite under load); missed_3s: not acknowledged within 3 s;
- kb_per_table: the bot process's resident memory with every table open and playing, minus its memory
  before the first table, divided by the number of tables;
- the run's size (interactions, REST calls, seconds), Discord rule violations, and public_leaks: every
  public message checked for hidden cards, as in the end-to-end tests.
Targets: p99 < 250 ms, none missed, < 500 KB per table.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from tests.e2e.fakediscord import BotProcess, Channel, FakeDiscord, Message, User
from tests.e2e.skat_helpers import control_id
from tests.e2e.skat_leaks import dealt_from_database, public_leaks

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

        world.post_message = indexed

    def newest(self, channel_id: int, prefix: str | tuple[str, ...]) -> Message | None:
        for message in reversed(self.by_channel.get(channel_id, [])):
            if not message.deleted and message.content.startswith(prefix):
                return message
        return None


def controls(message: Message) -> list[dict[str, Any]]:
    return [c for c in message.walk_components() if c.get("type") in (2, 3) and not c.get("disabled")
            and str(c.get("custom_id", "")).split(":")[3] not in SIDE_KINDS]


class Player:
    """One scripted human and their table."""

    def __init__(self, fake: FakeDiscord, index: Index, user: User, channel: Channel, seed: int) -> None:
        self.fake, self.index, self.user, self.channel = fake, index, user, channel
        self.rng = random.Random(seed)
        self.dm = fake.dm_channel(user)
        self.pressed: set[tuple[int, int]] = set()

    async def wait(self, condition: Any, timeout: float = 120.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.user.name}: timed out")
            await self.fake.world.signal.wait(0.25)

    async def open_table(self) -> None:
        fake = self.fake
        await (await fake.slash(self.user, self.channel, "skat", subcommand="new", options={"deals": DEALS})).wait_acked()
        lobby = await self.wait(lambda: self.index.newest(self.channel.id, "🃏"))
        for _ in range(2):
            if LEVEL == "normal":  # the lobby's button seats a normal AI; other levels by command
                await (await fake.click(self.user, lobby, control_id(lobby, "addai"))).wait_acked()
            else:
                await (await fake.slash(self.user, self.channel, "skat", subcommand="add-ai",
                                        options={"level": LEVEL})).wait_acked()
        await self.wait(lambda: "AI 2" in lobby.content)
        await (await fake.click(self.user, lobby, control_id(lobby, "start"))).wait_acked()

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
            self.pressed.add((hand.id, len(hand.history)))
            choices = controls(hand)
            control = self.rng.choice([c for c in choices if "pass" not in c["custom_id"]] or choices)
            if control["type"] == 2:
                ix = await fake.click(self.user, hand, control["custom_id"])
            else:
                values = [o["value"] for o in control["options"]]
                ix = await fake.select(self.user, hand, control["custom_id"],
                                       self.rng.sample(values, control.get("min_values", 1)))
            await ix.wait_acked(10)
            moves += 1
            if moves % 5 == 0:
                await (await fake.slash(self.user, self.channel, "skat", subcommand="table")).wait_acked(10)


DEALS = 1
LEVEL = "normal"


async def run(tables: int, deals: int, seed: int, level: str = "normal", pictures: bool = True) -> dict[str, float]:
    global DEALS, LEVEL
    DEALS = deals
    LEVEL = level
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Load")
        index = Index(fake)
        players = []
        for number in range(tables):
            channel = fake.add_channel(guild, f"table-{number}")
            players.append((channel, fake.add_user(f"player{number}")))
        with tempfile.TemporaryDirectory() as folder:
            database = Path(folder) / "load.sqlite3"
            proc = BotProcess(fake, "bot.py", env={
                "SKATBOT_DATABASE": str(database), "SKATBOT_AI_PAUSE": "0",
                "SKATBOT_LOG_LEVEL": "WARNING"})
            await proc.start()
            try:
                await proc.wait_connected(commands=("skat",))
                if not pictures:  # the server's owner turns them off (/skat settings), as an admin would
                    await (await fake.slash(fake.world.owner, players[0][0], "skat", subcommand="settings",
                                            options={"pictures": "off"})).wait_message()
                assert proc.proc is not None
                pid = proc.proc.pid
                await asyncio.sleep(1.0)
                before = rss_kb(pid)
                peak = before
                started = time.monotonic()
                scripted = [Player(fake, index, user, channel, seed + n) for n, (channel, user) in enumerate(players)]

                async def one(player: Player) -> None:
                    await player.open_table()
                    await player.play()

                async def sample_memory() -> None:
                    nonlocal peak
                    while True:
                        peak = max(peak, rss_kb(pid))
                        await asyncio.sleep(0.25)

                sampler = asyncio.create_task(sample_memory())
                results = await asyncio.gather(*(one(p) for p in scripted), return_exceptions=True)
                sampler.cancel()
                failures = [r for r in results if isinstance(r, BaseException)]
                if failures:
                    print(proc.output()[-4000:])
                    raise failures[0]
                seconds = time.monotonic() - started
            finally:
                await proc.stop()
                proc.close()
            leaks: list[str] = []
            checked = 0
            for channel, user in players:  # each table against its stored deals
                lobby = index.newest(channel.id, "🃏")
                table_id = int(lobby.content.split("#")[1].split("*")[0]) if lobby else 0
                dealt = dealt_from_database(database, table_id)
                checked += bool(dealt)
                leaks += public_leaks(fake, [user], channel, dealt=dealt)
        for problem in leaks[:5]:
            print("LEAK", problem)
        files = [len(a.data) for m in fake.messages(include_deleted=True) for v in m.history for a in v.attachments]
        latencies = [ix.acked_at for ix in fake.interactions if ix.acked_at is not None]
        missed = sum(1 for ix in fake.interactions if ix.acked_at is None or ix.acked_at > 3.0)
        latencies.sort()
        p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
        return {
            "tables": tables, "deals_per_table": deals, "interactions": len(fake.interactions),
            "rest_calls": len(fake.rest_log), "seconds": round(seconds, 1),
            "ack_p50_ms": round(statistics.median(latencies) * 1000, 1), "ack_p99_ms": round(p99 * 1000, 1),
            "ack_max_ms": round(latencies[-1] * 1000, 1), "missed_3s": missed,
            "violations": len(fake.violations), "public_leaks": len(leaks), "tables_checked_against_db": checked, "kb_per_table": round((peak - before) / tables, 1),
            "bot_rss_mb_before": round(before / 1024, 1), "bot_rss_mb_peak": round(peak / 1024, 1),
            "pictures_sent": len(files), "picture_kb_per_table": round(sum(files) / 1024 / tables, 1),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "strong"), help="the AIs' level")
    parser.add_argument("--no-pictures", action="store_true", help="with /skat settings pictures: off")
    args = parser.parse_args()
    for name, value in asyncio.run(run(args.tables, args.deals, args.seed, args.level,
                                       pictures=not args.no_pictures)).items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    main()
