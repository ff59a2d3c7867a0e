"""The one reply path: refusals of commands and of controls, forged control values, very long input,
unexpected failures, and answers Discord no longer takes."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest

from skatbot.engine import Card, Declare, Discard, Phase
from skatbot.tables import Table
from skatbot.ui.cards import GERMAN, card_label
from skatbot.ui.server_text import HELP_PAGES
from tests.cogs.helpers import CogBot, FakeInteraction, FakeMessage, FakeUser
from tests.cogs.table_helpers import deal_of, move, three_humans, to_act, to_the_declaration
from tests.controls import control_kind

ISS_CODES = [suit + rank for suit in "CSHD" for rank in "789TJQKA"]
BAD_CONTROL = "Not allowed: that button or menu choice is not one I offered."
UNEXPECTED = "Something went wrong on our side; it has been logged. Please try again."


def hand_message(world: CogBot, user: FakeUser) -> FakeMessage:
    """The player's newest hand message in their DM (the one with buttons)."""
    messages = [m for m in world.surface.dm(user.id).messages.values() if not m.deleted and m.view is not None]
    return messages[-1]


def ids_of(message: FakeMessage, kind: str) -> list[str]:
    assert message.view is not None
    return [str(c["custom_id"]) for row in message.view.to_components() for c in row["components"]
            if control_kind(c) == kind]


def prefix(message: FakeMessage) -> str:
    """`sk:TABLE:DEAL:` of the message's controls."""
    assert message.view is not None, "the message has no controls"
    first = next(str(c["custom_id"]) for row in message.view.to_components() for c in row["components"])
    return ":".join(first.split(":")[:3]) + ":"


def unchanged(table: Table) -> tuple[Any, ...]:
    deal = deal_of(table)
    return tuple(deal.history), deal.phase, deal.current_seat, len(table.game.places)


async def refused(world: CogBot, user: FakeUser, message: FakeMessage, custom_id: str,
                  values: tuple[str, ...] = (), component_type: int = 2) -> str:
    click = await world.click(user, message, custom_id, values, component_type=component_type)
    assert click.answer.ephemeral, click.replies
    return click.text


async def test_forged_values_of_every_control_are_refused_and_change_nothing(world: CogBot) -> None:
    table, users = await three_humans(world)
    first = to_act(table, users)
    hand = hand_message(world, first)
    sk = prefix(hand)
    before = unchanged(table)
    # buttons: a bid that is no number, one off the ladder, a card that is none, an action that is none
    assert await refused(world, first, hand, sk + "bid abc") == BAD_CONTROL
    assert await refused(world, first, hand, sk + "bid " + "9" * 80) == \
        "Not allowed: " + "9" * 80 + " is not on the bid ladder (18, 20, 22, 23, 24, 27, …)."
    assert "bid ladder" in await refused(world, first, hand, sk + "bid 5")
    assert await refused(world, first, hand, sk + "play ZZ") == BAD_CONTROL
    assert await refused(world, first, hand, sk + "boom") == BAD_CONTROL
    # ids drawn before moves carried their action (still in old messages after a deploy): stale, never misread
    for old in ("bid:18", "card:CJ", "pass:", "boom:", "bids:", "declare:0"):
        assert await refused(world, first, hand, sk + old) == \
            "That was for an earlier moment of the deal, so nothing was recorded: use your newest hand message.", old
    # menus: no number, no choice, an unknown game, too few or unknown cards
    for verb, values in (("", ("bid abc",)), ("", ()), ("", ("declare chess",)), ("", ("chess",)),
                         ("discard", ("CJ",)), ("discard", ("ZZ", "QQ")), ("discard", ("CJ", "SJ", "HJ"))):
        answer = await refused(world, first, hand, sk + "menu0:" + verb, values, component_type=3)
        assert answer == BAD_CONTROL, (verb, values, answer)
    # ids in no shape we draw, and a table that does not exist
    assert await refused(world, first, hand, "sk:1:x:pass:") == BAD_CONTROL
    assert await refused(world, first, hand, "sk:" + "1" * 95) == BAD_CONTROL
    assert await refused(world, first, hand, "sk:99:0:pass:") == "Not allowed: that table no longer exists."
    assert unchanged(table) == before


async def test_forged_cards_and_discards_are_refused_in_play_and_at_the_skat(world: CogBot) -> None:
    table, users = await three_humans(world)
    deal = deal_of(table)
    while deal.phase is Phase.AUCTION:  # 18 said and held, the rest pass
        await move(world, table, users, _auction_step(deal))
    declarer = to_act(table, users)
    await move(world, table, users, next(a for a in deal.legal_actions() if type(a).__name__ == "PickUpSkat"))
    hand = hand_message(world, declarer)
    sk = prefix(hand)
    before = unchanged(table)
    absent = next(iss for iss in ("CJ", "SJ", "HJ", "DJ", "CA", "SA", "HA", "DA", "C7", "S7")
                  if all(c.iss != iss for c in deal.hand(deal.declarer or 0)))
    answer = await refused(world, declarer, hand, sk + "menu0:discard", (absent, absent), component_type=3)
    assert answer.startswith("Not allowed: ") and answer != BAD_CONTROL
    assert unchanged(table) == before
    discard = next(a for a in deal.legal_actions() if isinstance(a, Discard))
    done = await world.click(declarer, hand, sk + "menu0:discard", (discard.first.iss, discard.second.iss),
                             component_type=3)
    # acknowledged; the DM hand is updated through this click's own interaction
    assert done.replies and all(reply.how == "edit_original" for reply in done.replies) and done.response.is_done()
    assert deal.phase is Phase.DECLARE


def _auction_step(deal: Any) -> Any:
    legal = deal.legal_actions()
    bids = [a for a in legal if type(a).__name__ == "Bid"]
    holds = [a for a in legal if type(a).__name__ == "Hold"]
    if bids and deal.bid == 0:
        return bids[0]
    if holds:
        return holds[0]
    return next(a for a in legal if type(a).__name__ == "Pass")


async def test_forged_lobby_clicks(world: CogBot) -> None:
    alice, eve = world.user("alice"), world.user("eve")
    await world.run("skat new", alice)
    lobby = next(m for m in world.surface.channel(20).messages.values() if m.view is not None)
    assert await refused(world, alice, lobby, "sk:1:0:addai:genius") == \
        "Not allowed: unknown AI level 'genius': choose easy, normal or strong."
    assert await refused(world, alice, lobby, "sk:1:0:addai:" + "g" * 80) == \
        "Not allowed: unknown AI level '" + "g" * 59 + "…': choose easy, normal or strong."
    start = await world.click(eve, lobby, "sk:1:0:start:")
    assert start.text == "Only players at this table can do that."
    assert [o.name for o in world.skat.manager.in_channel(20).game.places] == ["alice"]


async def test_forged_page_buttons(world: CogBot) -> None:
    alice = world.user("alice")
    shown = await world.run("skat help play", alice)
    message = FakeMessage(5, 20, shown.text, shown.answer.view, ephemeral=True)
    assert await refused(world, alice, message, "help:en:99") == BAD_CONTROL  # not on the message
    assert await refused(world, alice, message, "help:en:x") == BAD_CONTROL  # in no shape we draw
    board = await world.run("skat scores leaderboard", alice)
    listing = FakeMessage(6, 20, board.text, board.answer.view)
    assert await refused(world, alice, listing, "lb:en:decade:list:1") == BAD_CONTROL
    assert await refused(world, alice, listing, "lb:en:all:list:7") == BAD_CONTROL
    assert await refused(world, alice, listing, "lb:en:all:list:2", component_type=3) == BAD_CONTROL
    other = await world.click(alice, listing, "elsewhere:1")  # not ours: left to whoever owns it
    assert other.replies == [] and not other.response.is_done()


async def test_a_refusal_echoing_six_thousand_characters_is_a_valid_reply(world: CogBot) -> None:
    table, users = await three_humans(world)
    first = to_act(table, users)
    typed = "Q" * 6000
    answer = await world.run("skat play", first, card=typed)
    assert answer.answer.ephemeral and len(answer.text) <= 2000
    assert answer.text == "'" + "Q" * 59 + "…' is not a card. Write it as the bot shows it, like ♣J, ♠10, ♥Q (or CJ, ST), or pick one from the list."
    preset = await world.run("skat new", first, interaction=world.interaction(first, channel_id=30), rules=typed)
    assert len(preset.text) <= 2000 and preset.text.startswith("Not allowed: ") and "Q" * 59 + "…" in preset.text
    assert await world.complete("skat play", first, "card", typed) == []


async def test_a_refusal_in_a_dm_uses_the_deck_of_the_players_server(world: CogBot) -> None:
    admin = world.user("admin")
    await world.run("skat settings", admin, interaction=world.interaction(admin, manage_guild=True), deck="german")
    table, users = await three_humans(world)
    await to_the_declaration(world, table, users)
    deal = deal_of(table)
    await move(world, table, users, next(a for a in deal.legal_actions() if isinstance(a, Declare)))
    leader = to_act(table, users)
    seat = deal.current_seat or 0
    absent = next(Card.parse(iss) for iss in ISS_CODES if Card.parse(iss) not in deal.hand(seat))
    in_dm = world.interaction(leader, guild_id=None, channel_id=leader.id + 1, locale="de")
    answer = await world.run("skat play", leader, interaction=in_dm, card=absent.iss)
    assert answer.text == f"Nicht erlaubt: {card_label(absent, GERMAN, 'de')} hast du nicht auf der Hand."


async def test_a_refusal_in_a_dm_uses_the_deck_of_a_server_whose_table_another_process_serves(
        world: CogBot) -> None:
    """The player's table is served by another process (this one does not hold it): a card this process
    cannot read is refused, before any table is looked up, with the examples of that server's deck."""
    admin = world.user("admin")
    await world.run("skat settings", admin, interaction=world.interaction(admin, manage_guild=True), deck="german")
    table, users = await three_humans(world)
    player = next(iter(users.values()))
    in_channel = await world.run("skat play", player, interaction=world.interaction(player, locale="de"), card="QQ")
    assert "Q" in in_channel.text and "♣J" not in in_channel.text  # the German deck's examples
    await table.close()
    del world.skat.manager.tables[table.id]  # another process serves it
    in_dm = world.interaction(player, guild_id=None, channel_id=player.id + 1, locale="de")
    answer = await world.run("skat play", player, interaction=in_dm, card="QQ")
    assert answer.text == in_channel.text


async def test_an_unexpected_failure_is_logged_once_and_answered_kindly(world: CogBot, caplog: pytest.LogCaptureFixture,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    alice = world.user("alice")
    await world.run("skat new", alice)
    table = world.skat.manager.in_channel(20)

    async def broken(*_: object, **__: object) -> None:
        raise RuntimeError("invalid literal for int() with base 10: 'secret'")

    monkeypatch.setattr(table, "join", broken)
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        joined = await world.run("skat join", world.user("bob"))
    assert joined.answer.ephemeral and joined.text == UNEXPECTED
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None and "secret" in str(errors[0].exc_info[1])
    lobby = next(m for m in world.surface.channel(20).messages.values() if m.view is not None)
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        click = await world.click(world.user("carol"), lobby, "sk:1:0:join:")
    assert click.answer.ephemeral and click.text == UNEXPECTED
    assert len([r for r in caplog.records if r.levelno >= logging.ERROR]) == 1


async def test_the_database_failing_still_gets_an_answer_in_the_readers_language(
        world: CogBot, monkeypatch: pytest.MonkeyPatch) -> None:
    alice = world.user("alice")

    async def down(**_: object) -> None:
        raise OSError("disk I/O error")

    monkeypatch.setattr(world.bot.storage.settings, "get", down)
    answer = await world.run("skat scores stats", alice, interaction=world.interaction(alice, locale="de"))
    assert answer.text == "Bei uns ist etwas schiefgegangen; es wurde protokolliert. Bitte versuch es noch einmal."


async def test_an_answer_discord_no_longer_takes_is_logged_not_raised(world: CogBot,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    alice = world.user("alice")
    expired = world.interaction(alice)

    async def gone(*_: object, **__: object) -> None:
        raise discord.NotFound(type("R", (), {"status": 404, "reason": "Not Found"})(),
                               {"code": 10062, "message": "Unknown interaction"})

    expired.response.send_message = gone  # type: ignore[method-assign]  # the interaction's token expired
    with caplog.at_level(logging.WARNING):
        await world.run("skat join", alice, interaction=expired)  # no table: a refusal nobody can see
    assert any("could not answer interaction" in r.getMessage() for r in caplog.records)


async def test_a_followup_after_a_deferral_carries_the_refusal(world: CogBot) -> None:
    alice = world.user("alice")
    deferred: FakeInteraction = world.interaction(alice)
    await deferred.response.defer(ephemeral=True)
    await world.run("skat join", alice, interaction=deferred)
    assert deferred.answer.how == "followup" and deferred.answer.ephemeral and "no table" in deferred.text


async def test_option_values_outside_their_range_are_refused(world: CogBot) -> None:
    alice = world.user("alice")
    assert (await world.run("skat new", alice, deals=10**6)).text == "Not allowed: deals must be between 1 and 96."
    assert world.skat.manager.in_channel(20) is None
    assert (await world.run("skat help play", alice, page=99)).text == \
        f"Not allowed: page must be between 1 and {HELP_PAGES}."
    assert (await world.run("skat new", alice, seats=5)).text.startswith("Not allowed: ")


async def test_valueless_controls_pressed_by_a_stranger_or_from_another_deal(world: CogBot) -> None:
    table, users = await three_humans(world)
    first = to_act(table, users)
    hand = hand_message(world, first)
    sk = prefix(hand)
    eve = world.user("eve")
    before = unchanged(table)
    for kind in ("hold", "pass", "pickup", "kontra", "re", "claim", "concede", "concede:", "show:"):
        assert await refused(world, eve, hand, sk + kind) == "You are not sitting at this table.", kind
        stale = "sk:1:s7:" + kind
        answer = await refused(world, first, hand, stale)
        assert answer == ("That was for an earlier moment of the deal, so nothing was recorded: use your newest hand "
                          "message.") or kind == "show:", kind
    assert unchanged(table) == before
