"""Claims against computer players, through Discord: the table judges them with the solver."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from skatbot.engine import OFFICIAL, Phase
from skatbot.tables.ai_bridge import judge_claim
from skatbot.tables.game import TableGame
from skatbot.tables.replay import replay_log
from tests.e2e.conftest import Club
from tests.e2e.fakediscord import Message, User
from tests.e2e.skat_helpers import public_texts, start_skatbot
from tests.e2e.skat_leaks import assert_no_public_leaks
from tests.e2e.skat_players import button_move, play_out
from tests.e2e.test_skatbot_play import open_against_ais

DEALS = 6


def table_now(database: Path, creator: int) -> TableGame:
    """The table as its stored log leaves it (the test's own view of every hand: the oracle)."""
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT entry FROM table_log WHERE table_id = 1 ORDER BY seq").fetchall()
    return replay_log(size=3, deals=DEALS, rules=OFFICIAL, creator_id=creator, entries=[r[0] for r in rows]).game


async def test_a_wrong_claim_is_refused_and_a_right_one_ends_the_deal(club: Club, start_bot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    _, channel = await open_against_ais(fake, alice, club, deals=DEALS)
    rng = random.Random(11)
    tried: dict[bool, str] = {}

    async def move(user: User, message: Message) -> None:
        game = table_now(database, alice.id)
        deal = game.deal
        seat = game.seat_of_user(alice.id)
        if deal is not None and deal.phase is Phase.PLAY and deal.declarer == seat and deal.contract is not None:
            holds = judge_claim(deal.contract.game, seat, (deal.hand_mask(0), deal.hand_mask(1), deal.hand_mask(2)),
                                deal.trick_leader, tuple(card.index for _, card in deal.current_trick))
            if holds not in tried:
                number = game.deal_number + 1
                reply = await (await fake.slash(alice, channel, "skat", subcommand="claim")).wait_message(timeout=30)
                tried[holds] = reply.content
                if holds:
                    await fake.wait_for(lambda: any(f"Result of deal {number}**" in text
                                                    for text in public_texts(fake, channel)), 30, "the claimed result")
                    assert table_now(database, alice.id).finished[-1].deal.ending.value == "defenders conceded"
                    return
                assert reply.visibility == "ephemeral"
                assert table_now(database, alice.id).deal is deal or not table_now(database, alice.id).deal.is_over
        await button_move(fake, user, message, rng, avoid=("pass", "claim", "concede"))

    await play_out(fake, [alice], lambda: len(tried) == 2 or any(
        "The series is over" in text for text in public_texts(fake, channel)), move)
    assert set(tried) == {True, False}, f"alice did not meet both kinds of claim in {DEALS} deals: {tried}"
    assert "does not hold" in tried[False] and "Play goes on" in tried[False]
    assert "does not hold" not in tried[True]
    assert_no_public_leaks(fake, [alice], database=database)
