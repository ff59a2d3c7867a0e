"""/challenge and its controls through discord.py's own paths (tests/cogs/helpers.py): the server's number of
deals (managers only), the hand sent by DM, a press that moves the attempt on and stores before it shows, a
press drawn for an earlier moment refused with the message redrawn, a press on another day's attempt refused,
and the board of a player who has not played today (today's results hidden). The AI levels are lowered to
normal here: the flow is under test, not the strong AI."""

from __future__ import annotations

import functools
import sys
from datetime import timedelta
from types import ModuleType
from typing import Any

import pytest

from skatbot.ai import Level
from skatbot.challenge import par_line
from tests.cogs.helpers import CogBot, FakeChannel, FakeMessage, FakeUser


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
    assert "That day's challenge is over" in (over.replies[-1].content or "")
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
