"""Three people play a whole series through the real bot: slash commands (with autocomplete) and buttons."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from tests.controls import control_kind
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message, User
from tests.e2e.skat_helpers import control_id, open_table, public_texts, start_skatbot
from tests.e2e.skat_leaks import WriteClock, assert_hands_match_database, assert_no_public_leaks
from tests.e2e.skat_players import Moves, button_move, game_controls, play_out, slash_move


def deal_rows(database: Path) -> list[tuple[int, int]]:
    """(table_id, deal_number) of every stored deal."""
    with sqlite3.connect(database) as db:
        return sorted(db.execute("SELECT table_id, deal_number FROM deals").fetchall())


async def test_three_humans_play_a_series_by_commands_and_buttons(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake = club.fake
    carol, dave = fake.add_user("carol"), fake.add_user("dave")
    database = tmp_path / "skat.sqlite3"
    clock = WriteClock(fake)
    await start_skatbot(fake, start_bot, str(database))
    alice, channel = club.alice, club.channel
    reply, channel = await open_table(fake, alice, channel, deals=3)
    assert reply == "Table #1 is open."
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table #1" in m.content)
    joined = await (await fake.slash(carol, channel, "skat", subcommand="join")).wait_message()
    assert joined.content == "You sit at table #1."
    await (await fake.click(dave, lobby, control_id(lobby, "join"))).wait_acked()
    await fake.wait_for(lambda: "3. dave" in lobby.content, 30, "dave seated")
    started = await (await fake.slash(alice, channel, "skat", subcommand="start")).wait_message()
    assert started.content == "Done."

    rng = random.Random(11)
    moves = Moves()

    claims: list[str] = []

    async def move(user: User, message: Message) -> None:
        kinds = {control_kind(c) for c in game_controls(message)}
        claim = [c["custom_id"] for c in message.buttons() if control_kind(c) == "claim"
                 and not c.get("disabled")]
        deal = message.content.splitlines()[0].split("deal ")[1].split()[0]  # "**Your hand** · deal 2 · ..."
        if claim and "card" in kinds and len(message.content.splitlines()[1].split()) <= 6 and \
                deal not in claims:  # the declarer claims the rest once per deal, late
            claims.append(deal)
            number = int(deal)
            reply = await (await fake.slash(user, channel, "skat", subcommand="claim")).wait_message(timeout=30)
            if not reply.content.startswith("You claimed the rest"):  # judged with every card open: refused, and play goes on
                assert reply.content.startswith("Not allowed: your claim does not hold"), reply.content
            else:  # the claim holds: the deal ends as claimed
                await fake.wait_for(lambda: any(t.startswith(f"**Result of deal {number}**")
                                                for t in public_texts(fake, channel)), 30, "the claimed result")
                return
        if kinds & {"pickup", "discard", "declare", "hold"} or rng.random() < 0.5:  # the skat always by command
            await slash_move(fake, user, channel, message, rng, moves)
        else:
            await button_move(fake, user, message, rng, moves)

    await play_out(fake, [alice, carol, dave], lambda: any(
        "The series is over" in text for text in public_texts(fake, channel)), move)
    clock.stop()
    # Coalesced edits: no public message is edited more than about once a second (Discord's rate limits).
    assert clock.busiest(channel.id, 5.0, edits_of_one=True) <= 7, clock.writes(channel.id)
    assert moves.slash >= 10 and moves.buttons >= 5, moves
    assert claims, "no declarer ever claimed"
    assert {"bid", "pass", "play"} <= set(moves.kinds) and {"pickup", "declare"} & set(moves.kinds), moves.kinds

    texts = public_texts(fake, channel)
    for number in (1, 2, 3):
        assert any(text.startswith(f"**Result of deal {number}**") for text in texts), number
    listed = await (await fake.slash(carol, channel, "skat", subcommand="list")).wait_message()
    assert listed.visibility == "ephemeral" and "(3 of 3 deals)" in listed.content
    assert deal_rows(database) == [(1, 1), (1, 2), (1, 3)]
    assert_no_public_leaks(fake, [alice, carol, dave], min_deals=3, database=database)
    assert_hands_match_database(fake, [alice, carol, dave], database)
    fake.assert_clean(allow_rejections=False)
