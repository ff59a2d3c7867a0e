"""/challenge and its controls through discord.py's own paths (tests/cogs/helpers.py): the server's number of
deals (managers only), the hand sent by DM, a press that moves the attempt on and stores before it shows, a
press drawn for an earlier moment refused with the message redrawn, a press on another day's attempt refused,
and the board of a player who has not played today (today's results hidden). The AI levels are lowered to
normal here: the flow is under test, not the strong AI."""

from __future__ import annotations

import asyncio
import functools
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from types import ModuleType
from typing import Any, cast

import pytest

from skatbot.ai import Level
from skatbot.challenge import Attempt, Move, ai_decision, par_line
from skatbot.engine import parse_action
from skatbot.interactions.replies import reader_style
from skatbot.storage.sql.connection import Statement
from tests.challenge.challenge_helpers import players_turn
from tests.cogs.helpers import GUILD_ID, CogBot, FakeChannel, FakeMessage, FakeUser


def loaded(world: CogBot) -> ModuleType:
    """cogs.challenge as the bot loaded it (load_extension makes a module object of its own)."""
    return sys.modules[type(world.bot.get_cog("ChallengeCog")).__module__]


@pytest.fixture(autouse=True)
def quick_ais(world: CogBot, monkeypatch: pytest.MonkeyPatch) -> None:
    module = loaded(world)
    monkeypatch.setattr(module, "CHALLENGE_LEVEL", Level.NORMAL)
    monkeypatch.setattr(module, "par_line", functools.partial(par_line, level=Level.NORMAL, opponents=Level.NORMAL))


def with_dm(world: CogBot, name: str) -> tuple[FakeUser, FakeChannel]:
    user = world.user(name)
    dm = world.surface.dm(user.id)

    async def create_dm() -> FakeChannel:
        return dm

    user.dm_channel = None  # type: ignore[attr-defined]  # the fake user as discord.py's User reads
    user.create_dm = create_dm  # type: ignore[attr-defined]
    return user, dm


def challenge_message(dm: FakeChannel) -> FakeMessage:
    return [m for m in dm.messages.values() if m.content and "Daily challenge" in m.content][-1]


def moves_of(view: Any) -> list[str]:
    return [str(c["custom_id"]) for row in view.to_components() for c in row["components"]
            if c["type"] == 2 and not c.get("disabled")]


async def stored_moves(world: CogBot, user: FakeUser) -> tuple[str, ...]:
    stored = await world.bot.storage.challenge.attempt(day=loaded(world).today(), player_id=user.id)
    assert stored is not None
    return stored.moves


async def test_servers_choose_their_number_of_deals_and_only_managers_may(world: CogBot) -> None:
    bob = world.user("bob")
    refused = await world.run("challenge", bob, deals=4)
    assert "Only members who may manage the server" in refused.text
    chosen = await world.run("challenge", bob, world.interaction(bob, manage_guild=True), deals=4)
    assert "now has 4 deals" in chosen.text
    assert await world.bot.storage.challenge.deals(server_id=chosen.guild_id or 0) == 4


async def test_a_press_moves_the_attempt_on_and_a_stale_one_is_refused_and_redrawn(world: CogBot) -> None:
    await world.run("challenge", world.user("admin"), world.interaction(world.user("admin"), manage_guild=True),
                    deals=3)
    alice, dm = with_dm(world, "alice")
    started = await world.run("challenge", alice)
    assert "Your daily challenge is in your DMs: deal 1 of 3" in (started.replies[-1].content or "")
    message = challenge_message(dm)
    assert message.content is not None and message.content.startswith("**Your hand** · deal 1")
    pressed = moves_of(message.view)[0]
    before = await stored_moves(world, alice)
    click = await world.click(alice, message, pressed)
    after = await stored_moves(world, alice)
    assert len(after) > len(before) and click.replies[-1].how == "edit_original"
    redrawn = click.replies[-1].view
    assert redrawn is not None and pressed not in moves_of(redrawn)

    again = await world.click(alice, message, pressed)  # the same button, drawn for the moment before
    assert await stored_moves(world, alice) == after
    assert [r.how for r in again.replies] == ["edit_original", "followup"]
    assert "earlier moment of the deal: nothing was played" in (again.replies[1].content or "")
    assert again.replies[1].ephemeral

    fresh = moves_of(redrawn)[0]
    message.view = redrawn  # the message as the player now sees it
    tomorrow = loaded(world).today() + timedelta(days=1)
    with pytest.MonkeyPatch.context() as later:
        later.setattr(loaded(world), "today", lambda: tomorrow)
        over = await world.click(alice, message, fresh)
    assert "closed at midnight UTC before you finished a deal: nothing of it counts" in (over.replies[-1].content or "")
    assert await stored_moves(world, alice) == after


async def test_the_board_hides_today_from_those_who_have_not_played(world: CogBot) -> None:
    bob = world.user("bob")
    board = await world.run("skat scores challenge", bob)
    assert "stay hidden until you have played" in board.text and not board.answer.ephemeral
    assert "No one on this server has finished a challenge" in board.text


async def test_each_deals_par_is_computed_once_per_day_and_stored(world: CogBot, monkeypatch: pytest.MonkeyPatch) -> None:
    computed: list[int] = []
    quick = functools.partial(par_line, level=Level.NORMAL, opponents=Level.NORMAL)

    def counted(day: Any, number: int) -> Any:
        computed.append(number)
        return quick(day, number)

    monkeypatch.setattr(loaded(world), "par_line", counted)
    await world.run("challenge", world.user("admin"), world.interaction(world.user("admin"), manage_guild=True),
                    deals=3)
    for name in ("alice", "bob", "carol"):
        user, _ = with_dm(world, name)
        await world.run("challenge", user)
    cog: Any = world.bot.get_cog("ChallengeCog")
    for task in list(cog._warming):  # the background computation the first start began
        await task
    assert sorted(computed) == [0, 1, 2]
    day = loaded(world).today()
    stored = [await world.bot.storage.challenge.par(day=day, number=n) for n in range(3)]
    assert all(line is not None and line.moves for line in stored)


async def play_out(world: CogBot, user: FakeUser, deals: int | None = None) -> None:
    """The player's attempt goes on, their moves chosen by the normal AI, until `deals` deals are finished (default:
    all), stored as a press stores them, the opponents answering."""
    cog: Any = world.bot.get_cog("ChallengeCog")
    day = await cog.day(loaded(world).today())
    while True:
        stored, attempt = await cog.load(day, user.id)
        if attempt.is_over or (deals is not None and len(attempt.played) >= deals):
            return
        if players_turn(attempt):
            action = ai_decision(Level.NORMAL, attempt.seq, attempt.view())
            await cog._store(stored, attempt, [attempt.players_move(action)])
        await cog.advance(stored, attempt)


async def summary_of(world: CogBot, user: FakeUser, guild_id: int = GUILD_ID) -> str:
    """The text of the player's day summary, as the last press of their attempt shows it."""
    cog: Any = world.bot.get_cog("ChallengeCog")
    stored, attempt = await cog.load(await cog.day(loaded(world).today()), user.id)
    assert attempt.is_over
    lang, deck = await reader_style(cast(Any, world.interaction(user, guild_id=guild_id)))
    content, _ = await cog.message(stored, attempt, lang, deck)
    return str(content)


async def deals_for(world: CogBot, guild_id: int, deals: int) -> None:
    admin = world.user("admin")
    await world.run("challenge", admin, world.interaction(admin, guild_id=guild_id, manage_guild=True), deals=deals)


async def test_the_percentile_compares_attempts_of_as_many_deals(world: CogBot) -> None:
    other = GUILD_ID + 1
    await deals_for(world, GUILD_ID, 3)
    await deals_for(world, other, 4)
    alice, bob, carol = world.user("alice"), world.user("bob"), world.user("carol")
    for user, guild in ((alice, GUILD_ID), (bob, GUILD_ID), (carol, other)):
        await world.run("challenge", user, world.interaction(user, guild_id=guild))
        await play_out(world, user)
    for user in (alice, bob):
        assert "Among everyone the bot served today on 3 deals (2 players): at least as good as " in \
            await summary_of(world, user)
    assert "Among everyone the bot served today on 4 deals (1 player): at least as good as 100% of the others" in \
        await summary_of(world, carol, other)


async def test_the_field_is_everyone_who_finished_and_the_summary_says_so(world: CogBot) -> None:
    await deals_for(world, GUILD_ID, 3)
    alice, bob = world.user("alice"), world.user("bob")
    for user in (alice, bob):
        await world.run("challenge", user)
    await play_out(world, bob, deals=1)  # bob stops after his first deal: his attempt is not finished
    await play_out(world, alice)
    day = loaded(world).today()
    played = await world.bot.storage.challenge.results(first=day, last=day, finished_only=False)
    mine = {row.number: row.score for row in played if row.player_id == alice.id}
    his = [row.score for row in played if row.player_id == bob.id]
    assert len(his) == 1 and len(mine) == 3
    if his[0] == mine[0]:  # the same score on deal 1 would hide him: give his stored result another one
        await world.bot.storage.challenge._db.write([Statement(  # type: ignore[attr-defined]
            "UPDATE challenge_results SET score = score + 120 WHERE player_id = :p", {"p": bob.id})])
    summary = await summary_of(world, alice)
    lines = [line for line in summary.splitlines() if line.startswith("Deal ")]
    assert [line.rsplit(" · field ", 1)[1] for line in lines] == [f"{mine[n]:.0f}" for n in range(3)]
    assert "Field: the average score on each deal of everyone who has finished today's challenge." in summary


async def test_an_attempt_left_unfinished_at_midnight_is_closed_and_the_player_told(world: CogBot) -> None:
    await deals_for(world, GUILD_ID, 3)
    alice, dm = with_dm(world, "alice")
    await world.run("challenge", alice)
    message = challenge_message(dm)
    button = moves_of(message.view)[0]
    await play_out(world, alice, deals=1)
    day = loaded(world).today()
    [result] = await world.bot.storage.challenge.results(first=day, last=day, finished_only=False)
    tomorrow = day + timedelta(days=1)
    told = (f"Your daily challenge of {day.isoformat()} closed at midnight UTC after 1 of 3 deals: the deals you "
            f"finished count as played, {result.score} against a par of {result.par}. A deal left in play does not "
            "count, and an unfinished attempt is not ranked.")
    with pytest.MonkeyPatch.context() as later:
        later.setattr(loaded(world), "today", lambda: tomorrow)
        pressed = await world.click(alice, message, button)  # a press on yesterday's hand message
        assert pressed.replies[-1].content == told
        started = await world.run("challenge", alice)  # today's challenge: told once, then today's begins
        assert started.replies[-1].content is not None
        assert started.replies[-1].content.startswith(told + "\nYour daily challenge is in your DMs: deal 1 of 3")
        again = await world.run("challenge", alice)  # told once: not again
        assert (again.replies[-1].content or "").startswith("Your daily challenge ")
        assert "closed at midnight" not in (again.replies[-1].content or "")
    bob, _ = with_dm(world, "bob")
    await world.run("challenge", bob)  # bob finishes no deal before midnight
    with pytest.MonkeyPatch.context() as later:
        later.setattr(loaded(world), "today", lambda: tomorrow)
        started = await world.run("challenge", bob)
        assert (started.replies[-1].content or "").startswith(
            f"Your daily challenge of {day.isoformat()} closed at midnight UTC before you finished a deal: nothing "
            "of it counts.\nYour daily challenge is in your DMs")


async def test_a_server_that_changes_its_number_of_deals_mid_day_ranks_like_with_like(world: CogBot) -> None:
    """Alice and Bob finish three deals; then the server's managers choose four, and Carol finishes four. Each is
    ranked (on the board and in their summary) among the attempts of the same deals only, and both say so."""
    alice, bob, carol = (with_dm(world, name)[0] for name in ("alice", "bob", "carol"))
    await deals_for(world, GUILD_ID, 3)
    for user in (alice, bob):
        await world.run("challenge", user)
        await play_out(world, user)
    await deals_for(world, GUILD_ID, 4)
    await world.run("challenge", carol)
    await play_out(world, carol)
    changed = "This server changed its number of deals today: your place is among the attempts on the same"
    carols = await summary_of(world, carol)
    assert "On this server: place 1 of 1 player" in carols and f"{changed} 4 deals." in carols
    for user in (alice, bob):
        summary = await summary_of(world, user)
        assert "of 2 players" in summary and f"{changed} 3 deals." in summary
        assert "carol" not in summary  # not ranked with them
    shown = (await world.run("skat scores challenge", alice)).text.splitlines()
    assert shown[1:3] == ["This server changed its number of deals that day: each attempt is ranked only among "
                          "those on the same deals.", "**4 deals**"]
    assert shown[3].startswith("1. carol: ") and shown[4] == "**3 deals**"
    assert shown[5].startswith("1. ") and shown[6].startswith("2. ") and len(shown) == 7
    assert {shown[5].split(":")[0][3:], shown[6].split(":")[0][3:]} == {"alice", "bob"}


async def test_a_server_on_one_number_of_deals_is_told_nothing_of_it(world: CogBot) -> None:
    await deals_for(world, GUILD_ID, 3)
    await deals_for(world, GUILD_ID + 1, 4)  # another server on four deals: its attempts are elsewhere
    alice, bob = with_dm(world, "alice")[0], with_dm(world, "bob")[0]
    for user, guild in ((alice, GUILD_ID), (bob, GUILD_ID + 1)):
        await world.run("challenge", user, world.interaction(user, guild_id=guild))
        await play_out(world, user)
    summary = await summary_of(world, alice)
    assert "changed its number of deals" not in summary and "On this server: place 1 of 1 player" in summary
    shown = (await world.run("skat scores challenge", alice)).text.splitlines()
    assert len(shown) == 2 and shown[1].startswith("1. alice: ")


async def test_a_strangers_press_on_anothers_challenge_moves_nothing(world: CogBot) -> None:
    await deals_for(world, GUILD_ID, 3)
    alice, dm = with_dm(world, "alice")
    await world.run("challenge", alice)
    message = challenge_message(dm)
    before = await stored_moves(world, alice)
    stranger = world.user("mallory")  # no attempt of her own today
    pressed = await world.click(stranger, message, moves_of(message.view)[0])
    assert (pressed.replies[-1].content or "") == "This is not your challenge: start your own with /challenge."
    assert pressed.replies[-1].ephemeral and await stored_moves(world, alice) == before
    assert await world.bot.storage.challenge.attempt(day=loaded(world).today(), player_id=stranger.id) is None


async def test_a_failed_renewal_of_a_pars_claim_does_not_lose_the_par(world: CogBot,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The database fails once while the claim on a par being computed is renewed: the par is still computed once,
    stored and given, the renewal tried again."""
    module = loaded(world)
    monkeypatch.setattr(module, "PAR_RENEW", 0.01)
    renewals: list[bool] = []
    storage = world.bot.storage.challenge
    renew = storage.renew_par

    async def flaky(**kwargs: Any) -> Any:
        renewals.append(True)
        if len(renewals) == 1:
            raise ConnectionError("the database went away for a moment")
        return await renew(**kwargs)

    monkeypatch.setattr(storage, "renew_par", flaky)
    quick = functools.partial(par_line, level=Level.NORMAL, opponents=Level.NORMAL)
    computed: list[int] = []
    go_on = threading.Event()

    def held_up(day: Any, number: int) -> Any:
        computed.append(number)
        if not go_on.wait(timeout=120):
            raise TimeoutError("never let go")
        return quick(day, number)

    monkeypatch.setattr(module, "par_line", held_up)
    world.bot.ai_executor = ThreadPoolExecutor(1)
    cog: Any = world.bot.get_cog("ChallengeCog")
    day = await cog.day(module.today())
    asked = asyncio.create_task(cog.par(day, 0))
    for _ in range(2400):  # a bound against hanging: the renewals come every 10 ms
        if len(renewals) >= 3 or asked.done():
            break
        await asyncio.sleep(0.025)
    go_on.set()
    line = await asked
    world.bot.ai_executor.shutdown()
    assert len(renewals) >= 3 and computed == [0]
    assert line == await storage.par(day=day.day, number=0) and line.moves


async def test_a_double_press_moves_once(world: CogBot) -> None:
    """The same button pressed twice at once (a double click, or two devices): one move is taken, the other press
    is told it came for an earlier moment, and the log holds the player's move once."""
    await deals_for(world, GUILD_ID, 3)
    alice, dm = with_dm(world, "alice")
    await world.run("challenge", alice)
    message = challenge_message(dm)
    pressed = moves_of(message.view)[0]
    before = await stored_moves(world, alice)
    clicks = await asyncio.gather(world.click(alice, message, pressed), world.click(alice, message, pressed))
    after = await stored_moves(world, alice)
    told = ["earlier moment of the deal: nothing was played" in (reply.content or "")
            for click in clicks for reply in click.replies]
    assert told.count(True) == 1
    # the log is that of one press: the player's move and the opponents' (seeded, so the same) answers
    cog: Any = world.bot.get_cog("ChallengeCog")
    probe = Attempt(await cog.day(loaded(world).today()), 3, [Move.parse(text) for text in before])
    probe.apply(probe.players_move(parse_action(pressed.split(":", 3)[3])))
    while (turn := probe.opponent_to_move()) is not None:
        seat, seed, view = turn
        probe.apply(Move(probe.number, seat, await cog._decide(seed, view)))
    assert after == tuple(str(move) for move in probe.moves)


async def test_a_press_on_the_hand_left_by_a_kill_after_the_last_move_was_stored_shows_the_summary(
        world: CogBot) -> None:
    """Killed after the attempt's last moves were stored, before the summary was shown: the DM message still
    shows a hand with its controls. A press there plays nothing; the message becomes the day's summary (with its
    replay buttons) and the player is told, only them, that the challenge is finished. Before, the press was
    refused and the hand stayed, its results never shown."""
    await deals_for(world, GUILD_ID, 3)
    alice, dm = with_dm(world, "alice")
    await world.run("challenge", alice)
    message = challenge_message(dm)
    pressed = moves_of(message.view)[0]
    await play_out(world, alice)  # stored as the presses store them; the message was never redrawn (the kill)
    after = await stored_moves(world, alice)
    click = await world.click(alice, message, pressed)
    assert await stored_moves(world, alice) == after
    assert [r.how for r in click.replies] == ["edit_original", "followup"], click.replies
    shown = click.replies[0]
    assert "**: done" in (shown.content or "") and "Your total" in (shown.content or "")
    assert shown.view is not None and not [c for c in moves_of(shown.view) if not c.startswith("rpd:")]
    told = click.replies[1]
    assert told.ephemeral and (told.content or "").startswith("You have finished this challenge")
    assert "nothing was played, and the message now shows your results" in (told.content or "")


async def test_challenge_after_a_finished_attempt_shows_its_summary_again_to_the_player_only(world: CogBot) -> None:
    """A kill that cut off the summary left the player only "played already: score against par" to see of their
    day. /challenge on a finished attempt answers that line and then the summary with its replay buttons, both
    only to them; another player, who has not played, still sees nothing of the day's results."""
    await deals_for(world, GUILD_ID, 3)
    alice, _ = with_dm(world, "alice")
    await world.run("challenge", alice)
    await play_out(world, alice)  # stored as the presses store them; the summary was never shown (the kill)
    again = await world.run("challenge", alice)
    assert all(reply.ephemeral for reply in again.replies), again.replies
    assert len(again.replies) == 2 and "You have played today's challenge already" in (again.replies[0].content or "")
    summary = again.replies[-1]
    assert (summary.content or "") == await summary_of(world, alice) and "Your total" in (summary.content or "")
    assert summary.view is not None and len(moves_of(summary.view)) == 3
    assert all(button.startswith("rpd:") for button in moves_of(summary.view))
    bob = world.user("bob")
    board = await world.run("skat scores challenge", bob)
    assert "stay hidden until you have played" in board.text and "alice" not in board.text
