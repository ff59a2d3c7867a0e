"""Time per deal under Discord's rate limits: the real bot process against the loopback Discord with its
per-route limits on (five messages, five edits, five deletions per channel per 5 s, X-RateLimit headers
and 429 + retry_after, as `FakeDiscord.enable_rate_limits` emulates them, so discord.py's own limiter
engages). One scripted human plays every turn by pressing a control as soon as their DM offers it (never
passing, so the deals are played), against two AIs with no pause.

    .venv/bin/python -m benchmarks.rate_limited_deal             # 6 deals
    .venv/bin/python -m benchmarks.rate_limited_deal --deals 12 --seed 3

Prints, as `name: value` lines:
- seconds_per_deal: from the start to the last deal's result in the player's DM, divided by the deals;
  target < 3 s;
- channel_seconds_per_deal: the same up to the series' end in the channel (its messages follow the DMs);
- turn_p50_ms / turn_p95_ms / turn_max_ms: from a press to the player's next turn in their DM;
- rate_limited: calls the fake answered 429 (discord.py waits on the headers, so few or none).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from tests.e2e.fakediscord import BotProcess, FakeDiscord, Message, User
from tests.e2e.skat_players import button_move, latest_hand, whose_turn


def lobby_control(lobby: Message, kind: str) -> str:
    """The custom id of the lobby's button of this kind (join, addai, start)."""
    return next(str(c["custom_id"]) for c in lobby.buttons() if str(c["custom_id"]).split(":")[3] == kind)


async def run(deals: int, seed: int) -> dict[str, float]:
    async with FakeDiscord() as fake:
        limits = fake.enable_rate_limits()
        guild = fake.add_guild("Skat Club")
        channel = fake.add_channel(guild, "skat")
        alice = fake.add_user("alice")
        with tempfile.TemporaryDirectory() as folder:
            proc = BotProcess(fake, "bot.py", env={"SKATBOT_DATABASE": str(Path(folder) / "skat.sqlite3"),
                                                   "SKATBOT_AI_PAUSE": "0", "SKATBOT_LOG_LEVEL": "WARNING"})
            await proc.start()
            try:
                await proc.wait_connected(commands=("skat",))
                await (await fake.slash(alice, channel, "skat", subcommand="new",
                                        options={"deals": deals})).wait_message()
                lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
                for _ in range(2):
                    await (await fake.click(alice, lobby, lobby_control(lobby, "addai"))).wait_acked()
                await fake.wait_for(lambda: "AI 2" in lobby.content, 20, "two AIs seated")
                started = time.monotonic()
                await (await fake.click(alice, lobby, lobby_control(lobby, "start"))).wait_acked()

                def last_result_in_dm() -> bool:
                    hand = latest_hand(fake, alice)
                    return hand is not None and f"· deal {deals} ·" in hand.content and "🧮" in hand.content

                def turn_or_end() -> tuple[User, Message] | str | None:
                    return "done" if last_result_in_dm() else whose_turn(fake, [alice])

                rng = random.Random(seed)
                turns: list[float] = []
                while not last_result_in_dm():
                    found: tuple[User, Message] | str = await fake.wait_for(turn_or_end, 120, "alice's turn")
                    if isinstance(found, str):  # "done"
                        break
                    pressed = time.monotonic()
                    await button_move(fake, alice, found[1], rng, avoid=("pass",))
                    await fake.wait_for(lambda: last_result_in_dm() or whose_turn(fake, [alice]) or None, 120,
                                        "the next turn")
                    if whose_turn(fake, [alice]):
                        turns.append(time.monotonic() - pressed)
                in_dm = time.monotonic() - started
                await fake.wait_for(lambda: any(m.content.startswith("🏁") for m in fake.messages(channel)), 300,
                                    "the series' end in the channel")
                in_channel = time.monotonic() - started
            finally:
                await proc.stop()
                proc.close()
        turns.sort()
        return {"deals": deals, "seconds_per_deal": in_dm / deals, "channel_seconds_per_deal": in_channel / deals,
                "turn_p50_ms": 1000 * statistics.median(turns), "turn_p95_ms": 1000 * turns[int(0.95 * (len(turns) - 1))],
                "turn_max_ms": 1000 * turns[-1], "turns": len(turns), "rate_limited": limits.limited}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name, value in asyncio.run(run(args.deals, args.seed)).items():
        print(f"{name}: {value:.2f}" if isinstance(value, float) else f"{name}: {value}")


if __name__ == "__main__":
    main()
