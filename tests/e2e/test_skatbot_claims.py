"""Claims against computer players, through Discord: the table judges them with the solver."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from skatbot.ai.solver import Mode, Solver, position_from_deal
from skatbot.engine import OFFICIAL, Deal, Ending, GameType, Phase
from skatbot.tables.ai_bridge import judge_claim
from skatbot.tables.game import TableGame
from skatbot.tables.replay import replay_log
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message, User
from tests.e2e.skat_helpers import public_texts, start_skatbot
from tests.e2e.skat_leaks import assert_no_public_leaks
from tests.e2e.skat_players import _settled, button_move, play_out
from tests.e2e.test_skatbot_play import open_against_ais

DEALS = 48
"""Enough deals that a claim that holds comes up (the deals are random: alice declares most of them with a bid
of chance and loses many trick by trick; in 12 deals about one run in ten met none). The test ends as soon as
both kinds of claim were met, in a deal or two as a rule."""


def table_now(database: Path, creator: int) -> TableGame:
    """The table as its stored log leaves it (the test's own view of every hand: the oracle)."""
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT entry FROM table_log WHERE table_id = 1 ORDER BY seq").fetchall()
    return replay_log(size=3, deals=DEALS, rules=OFFICIAL, creator_id=creator, entries=[r[0] for r in rows]).game


def best_card(deal: Deal, seat: int) -> str:
    """The declarer's legal card (ISS code) after which their side takes the most tricks with best play."""
    assert deal.contract is not None
    solver = Solver(deal.contract.game, seat, Mode.TRICKS)
    position = position_from_deal(deal)
    scores = {}
    for card in deal.legal_cards():
        after, gain = solver.play(position, card.index)
        left = any(after.hands) or after.trick
        scores[card.iss] = gain + (solver.value(after) if left else 0)
    return max(scores, key=lambda iss: scores[iss])


async def test_a_wrong_claim_is_refused_and_a_right_one_ends_the_deal(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
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
        # Only on her own turn: then nothing moves between this look at the stored deal and her claim.
        if deal is not None and deal.phase is Phase.PLAY and deal.declarer == seat == deal.current_seat \
                and deal.contract is not None:
            holds = judge_claim(deal.contract.game, seat, (deal.hand_mask(0), deal.hand_mask(1), deal.hand_mask(2)),
                                deal.trick_leader, tuple(card.index for _, card in deal.current_trick))
            if holds not in tried:
                number = game.deal_number + 1
                reply = await (await fake.slash(alice, channel, "skat", subcommand="claim")).wait_message(timeout=30)
                tried[holds] = reply.content
                if holds:
                    await fake.wait_for(lambda: any(f"Result of deal {number}**" in text
                                                    for text in public_texts(fake, channel)), 30, "the claimed result")
                    assert table_now(database, alice.id).finished[-1].deal.ending is Ending.CLAIMED
                    results = [text for text in public_texts(fake, channel) if f"Result of deal {number}**" in text]
                    assert "claimed, the defenders accepted" in results[-1]
                    return
                assert reply.visibility == "ephemeral"
                after = table_now(database, alice.id).deal
                assert after is not None and not after.is_over and len(after.history) == len(deal.history)
            if holds in tried and deal.contract.game is not GameType.NULL:
                # Play the card that takes the most tricks (the oracle's solver), so that a claim that holds
                # comes up late in the deal.
                best = best_card(deal, seat)
                buttons = [c["custom_id"] for c in message.buttons() if c["custom_id"].endswith(f":card:{best}")]
                if buttons:
                    versions = len(message.history)
                    await (await fake.click(user, message, buttons[0])).wait_acked()
                    await _settled(fake, user, message, versions)
                    return
        await button_move(fake, user, message, rng, avoid=("pass", "claim", "concede"))

    await play_out(fake, [alice], lambda: len(tried) == 2 or any(
        "The series is over" in text for text in public_texts(fake, channel)), move, limit=30 * DEALS)
    assert set(tried) == {True, False}, f"alice did not meet both kinds of claim in {DEALS} deals: {tried}"
    assert "does not hold" in tried[False] and "Play goes on" in tried[False]
    assert "does not hold" not in tried[True]
    assert_no_public_leaks(fake, [alice], database=database)
