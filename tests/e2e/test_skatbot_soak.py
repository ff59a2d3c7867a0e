"""Opt-in soak (./run-tests -m slow tests/e2e/test_skatbot_soak.py -s): the bot is SIGKILLed at random
moments over many deals, and restarted each time. In the end every stored deal's result card was shown
exactly once, the final ranking once, and every move the bot acknowledged is in the table's log.

SKATBOT_SOAK_DEALS (default 12) and SKATBOT_SOAK_SEED (default 1) choose the length and the moments.
"""

from __future__ import annotations

import os
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.controls import control_kind
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message
from tests.e2e.skat_helpers import start_skatbot
from tests.e2e.skat_players import game_controls, latest_hand
from tests.e2e.test_skatbot_outbox import public, stored_deals, table_against_ais


def logged(database: Path) -> dict[int, str]:
    with sqlite3.connect(database) as db:
        return {int(seq): str(entry) for seq, entry in db.execute("SELECT seq, entry FROM table_log")}


@pytest.mark.slow
async def test_random_kills_never_lose_a_result_or_an_acknowledged_move(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    deals = int(os.environ.get("SKATBOT_SOAK_DEALS", "12"))
    rng = random.Random(int(os.environ.get("SKATBOT_SOAK_SEED", "1")))
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    channel, _ = await table_against_ais(fake, alice, channel, deals=deals)
    acknowledged: list[tuple[int, str]] = []  # (the moment the control was drawn for, its kind)
    kills = 0

    def over() -> bool:
        return bool(public(fake, channel, "The series is over"))

    for _ in range(20 * deals * 12):
        if over():
            break

        def turn() -> tuple[Message, list[dict[str, Any]]] | str | None:  # alice's hand with controls drawn for now
            hand = latest_hand(fake, alice)
            if over():
                return "over"
            now = f":s{len(logged(database))}:"
            controls = list(game_controls(hand)) if hand is not None else []
            return (hand, controls) if hand is not None and any(now in str(c["custom_id"]) for c in controls) \
                else None

        try:
            found: tuple[Message, list[dict[str, Any]]] | str = await fake.wait_for(turn, 3, "alice's turn")
        except TimeoutError:  # the table moved on by itself (AIs), or a hand is being redrawn: look again
            continue
        if isinstance(found, str):  # "over"
            break
        hand, controls = found
        control = rng.choice([c for c in controls if control_kind(c) != "pass"] or controls)
        custom_id = str(control["custom_id"])
        if control["type"] == 3:
            values = [o["value"] for o in control["options"]]
            ix = await fake.select(alice, hand, custom_id, rng.sample(values, control.get("min_values", 1)))
        else:
            ix = await fake.click(alice, hand, custom_id)
        kind = await ix.wait_acked(10)
        if kind in (5, 6) and (kind == 6 or (await ix.wait_message(30)).content == "Your move is recorded."):
            acknowledged.append((int(custom_id.split(":")[2][1:]), control_kind(control)))
        if rng.random() < 0.08:  # a kill at a random moment: right after a move, while the bot shows it
            await fake.wait_for(lambda: True, 0.01 + rng.random() * 0.3, "")
            await proc.kill()
            kills += 1
            await proc.restart()
            await proc.wait_connected(commands=("skat",))
    await fake.wait_for(over, 60, "the end of the series")
    stored = stored_deals(database)
    shown = {n: len(public(fake, channel, f"**Result of deal {n}**")) for n in range(1, stored + 1)}
    log = logged(database)
    missing = [(seq, kind) for seq, kind in acknowledged if not log.get(seq, "").startswith("act ")]
    print(f"\nsoak: {stored} deals, {kills} kills, {sum(shown.values())} results shown, "
          f"{len(acknowledged)} acknowledged moves checked, {len(missing)} missing")
    assert stored == deals
    assert all(count == 1 for count in shown.values()), shown
    assert len(public(fake, channel, "Final ranking")) == 1
    assert not missing, missing
