"""Replays in the bot: /skat scores replay, the 🎞 buttons on histories and analyses, ◀ ▶ stepping through a
finished deal, and the refusals (no such deal, another server's deal, a deal still in play)."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, date, datetime

from skatbot.challenge import Attempt, ChallengeDay, Move, ParLine
from skatbot.ui.analysis_text import analyse_view
from skatbot.ui.languages import Lang
from tests.cogs.helpers import CogBot, FakeMessage, FakeUser
from tests.cogs.table_helpers import command_for, one_deal_conceded, three_humans

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


async def test_a_finished_deal_is_stepped_through(world: CogBot) -> None:
    table, users, declarer = await one_deal_conceded(world)
    reader = world.user("dora")  # not a player: finished deals are public on their server
    opened = await world.run("skat scores replay", reader, deal=1)
    answer = opened.answer
    assert answer.ephemeral and answer.content is not None
    assert answer.content.startswith("🎞 **Replay of deal #1** · step 1 of 2")  # conceded before a trick
    assert "Auction:" in answer.content and "plays **" in answer.content
    assert answer.custom_ids() == ["rps:1:0", "rps:1:1"]
    assert answer.file is not None and answer.file.filename == "replay-1-1.png"
    shown = FakeMessage(1, 20, answer.content, answer.view)
    last = await world.click(reader, shown, "rps:1:1")
    # the picture is drawn after a deferred update (Discord waits 3 s only), then the same message is edited
    assert last.answer.how == "edit_original" and "step 2 of 2" in (last.answer.content or "")
    assert "declarer conceded" in (last.answer.content or "") or "conceded" in (last.answer.content or "")
    assert last.answer.custom_ids() == ["rps:1:0", "rps:1:1"]


async def test_history_and_analysis_offer_the_replay(world: CogBot) -> None:
    await one_deal_conceded(world)
    history = await world.run("skat scores history", world.user("dora"))
    assert "rpo:1" in history.answer.custom_ids()
    opened = await world.click(world.user("erik"), FakeMessage(2, 20, history.text, history.answer.view), "rpo:1")
    assert opened.answer.ephemeral and (opened.answer.content or "").startswith("🎞 **Replay of deal #1**")


async def test_unknown_foreign_and_unfinished_deals_are_refused(world: CogBot) -> None:
    reader = world.user("dora")
    refused = await world.run("skat scores replay", reader, deal=5)
    assert refused.answer.ephemeral and refused.text == (
        "There is no finished deal #5 on this server. Only finished deals can be replayed: a deal still in play "
        "opens once it is over.")
    table, users = await three_humans(world)  # a deal in play: never stored, never replayed
    assert (await world.run("skat scores replay", reader, deal=1)).text.startswith("There is no finished deal #1")
    card = FakeMessage(3, 20, "result", analyse_view(table.id, 1, Lang("en"), analysable=False))  # a stale or forged card
    in_play = await world.click(reader, card, f"rpt:{table.id}:1")
    assert in_play.answer.ephemeral
    assert in_play.text == (f"Deal 1 at table {table.id} is still being played: its replay opens once the deal "
                            "is over.")


async def test_a_deal_is_not_replayed_on_another_server(world: CogBot) -> None:
    await one_deal_conceded(world)
    stranger = world.user("zoe")
    elsewhere = world.interaction(stranger, guild_id=999)
    refused = await world.run("skat scores replay", stranger, interaction=elsewhere, deal=1)
    assert refused.text.startswith("There is no finished deal #1 on this server.")


async def _challenge_played(world: CogBot, user_id: int, day: date) -> None:
    """One finished challenge deal of `user_id` (random legal moves) and a par line for it."""
    storage = world.bot.storage
    today = ChallengeDay.of(await storage.challenge.secret(now=NOW), day)
    rng = random.Random(8)
    lines = []
    for _ in range(2):  # the player's attempt, then a par line: each a play of the day's first deal
        attempt = Attempt(today, 1)
        moves = []
        while not attempt.is_over:
            seat = attempt.deal.current_seat
            assert seat is not None
            move = Move(0, seat, rng.choice(attempt.deal.legal_actions()))
            attempt.apply(move)
            moves.append(str(move))
        lines.append(moves)
    await storage.challenge.start(day=day, player_id=user_id, server_id=1, name="alice", deals=1, now=NOW)
    await storage.challenge.append(day=day, player_id=user_id, seq=0, entries=lines[0], now=NOW, finished=True)
    await storage.challenge.store_par(day=day, line=ParLine(0, 0, tuple(lines[1])), now=NOW)


async def test_a_challenge_deal_replays_the_players_line_beside_the_par(world: CogBot) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    day = date(2026, 12, 5)
    await _challenge_played(world, alice.id, day)
    opened = await world.run("skat scores replay", alice, deal=1, day="2026-12-05")
    answer = opened.answer
    assert answer.ephemeral and (answer.content or "").startswith("🎞 **Challenge of 2026-12-05, deal 1** · step 1 of ")
    assert "**Your line:**" in (answer.content or "") and "**The par line (the strong AI in your seat):**" in (
        answer.content or "")
    assert answer.custom_ids()[0] == "rpc:20261205:0:0" and answer.file is not None
    steps = int((answer.content or "").splitlines()[0].rsplit(" ", 1)[1])
    if steps > 1:
        turned = await world.click(alice, FakeMessage(4, 20, answer.content or "", answer.view), "rpc:20261205:0:1")
        assert turned.answer.how == "edit_original" and "step 2 of" in (turned.answer.content or "")
    # nobody sees another's line; an unplayed deal and a bad day are refused
    assert (await world.run("skat scores replay", bob, deal=1, day="2026-12-05")).text == (
        "You have not played the challenge of 2026-12-05: only your own deals are replayed.")
    assert (await world.run("skat scores replay", alice, deal=2, day="2026-12-05")).text == (
        "Deal 2 of your challenge of 2026-12-05 is not finished: its replay opens once you have played it.")
    assert (await world.run("skat scores replay", alice, deal=1, day="yesterday")).text == (
        "'yesterday' is not a day: write it as 2026-12-06.")


async def test_with_pictures_off_the_replay_is_text_only(world: CogBot) -> None:
    table, _, _ = await one_deal_conceded(world)
    storage = world.bot.storage
    settings = await storage.settings.get(server_id=table.guild_id)
    await storage.settings.save(settings=dataclasses.replace(settings, pictures=False), now=NOW)
    opened = await world.run("skat scores replay", world.user("dora"), deal=1)
    assert (opened.answer.content or "").startswith("🎞 **Replay of deal #1**") and opened.answer.file is None


async def _deal_against_two_ais(world: CogBot) -> FakeUser:
    """Alice's one-deal table against two normal AIs, played to its end (she passes, then plays her first legal
    card each time); the AIs play inline."""
    alice = world.user("alice")
    await world.run("skat new", alice, deals=1, rules="pub")
    for _ in range(2):
        await world.run("skat add-ai", alice, level="normal")
    await world.run("skat start", alice)
    table = world.skat.manager.in_channel(20)
    for _ in range(60):
        await world.settle()
        deal = table.game.deal
        if deal is None or deal.is_over:
            break
        seat = deal.current_seat
        if seat is not None and table.game.occupant_of_seat(seat).user_id == alice.id:
            name, options = command_for(deal.legal_actions()[-1])  # pass in the auction, else a legal card
            await world.run(name, alice, **options)
    await world.settle()
    assert await world.bot.storage.deals.get(deal_id=1)
    return alice


async def test_a_replay_names_the_computer_players_as_everywhere_else(world: CogBot) -> None:
    alice = await _deal_against_two_ais(world)
    german = await world.run("skat scores replay", alice, interaction=world.interaction(alice, locale="de"), deal=1)
    seats = (german.answer.content or "").splitlines()[1]
    assert "🤖 KI 1 (normal)" in seats and "🤖 KI 2 (normal)" in seats and "alice" in seats
    assert "AI 1" not in (german.answer.content or "")  # the stored English name is never read back


async def test_a_challenge_replay_names_the_opponents_as_the_hand_did(world: CogBot) -> None:
    alice = world.user("alice")
    day = date(2026, 12, 5)
    await _challenge_played(world, alice.id, day)
    opened = await world.run("skat scores replay", alice, deal=1, day="2026-12-05")
    text = opened.answer.content or ""
    assert "🤖 AI 1 (strong)" in text and "🤖 AI 2 (strong)" in text and "🤖 par" in text
    assert "🤖 strong " not in text  # two opponents under one name could not be told apart


async def test_a_strangers_press_on_a_challenge_replay_shows_nothing_of_it(world: CogBot) -> None:
    alice, mallory = world.user("alice"), world.user("mallory")
    await _challenge_played(world, alice.id, date(2026, 12, 5))
    opened = await world.run("skat scores replay", alice, deal=1, day="2026-12-05")
    shown = FakeMessage(4, 20, opened.answer.content or "", opened.answer.view)
    pressed = await world.click(mallory, shown, "rpc:20261205:0:0")  # her press: only her own line would show
    assert pressed.answer.ephemeral and pressed.text == (
        "You have not played the challenge of 2026-12-05: only your own deals are replayed.")
    assert all(reply.file is None for reply in pressed.replies)
    assert "alice" not in pressed.text
