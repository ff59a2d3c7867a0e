"""/skat new, join, leave, add-ai, remove-ai, start, stop, table, list, hand: replies and refusals."""

from __future__ import annotations

import discord

from skatbot.pictures import cards_shown
from skatbot.tables import TableState
from tests.cogs.helpers import CogBot, FakeMessage, FakeUser, all_permissions
from tests.controls import control_kind


async def open_table(world: CogBot, creator: FakeUser, **options: object) -> None:
    assert (await world.run("skat new", creator, None, **options)).text == "Table #1 is open."


async def test_new_opens_a_table_and_shows_its_lobby(world: CogBot) -> None:
    alice = world.user("alice")
    new = await world.run("skat new", alice, seats=4, deals=2, rules="pub")
    assert new.response.deferred is None  # stored at once: answered once stored, privately, not deferred first
    assert new.answer.how == "message" and new.answer.ephemeral and new.text == "Table #1 is open."
    table = world.skat.manager.in_channel(20)
    assert table.game.size == 4 and table.game.deals == 2 and table.game.rules.kontra
    lobby = world.surface.channel(20).texts()
    assert any("Skat table #1" in text and "1. alice" in text for text in lobby), lobby


async def test_new_is_refused_in_a_dm_without_permissions_and_in_a_busy_channel(world: CogBot) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    in_dm = await world.run("skat new", alice, interaction=world.interaction(alice, guild_id=None))
    assert in_dm.text == "Not allowed: tables are opened in a server channel, not in direct messages."
    mute = discord.Permissions(view_channel=True, read_message_history=True)
    muted = await world.run("skat new", alice, interaction=world.interaction(alice, app_permissions=mute))
    assert muted.text == "I am missing permissions in this channel: send_messages."
    assert world.skat.manager.in_channel(20) is None
    await open_table(world, alice)
    busy = await world.run("skat new", bob)
    assert busy.answer.ephemeral and busy.text == "This channel already has a table (#1). Join it, or stop it first."
    unknown = await world.run("skat new", bob, interaction=world.interaction(bob, channel_id=21), rules="casino")
    assert unknown.text.startswith("Not allowed: ") and "casino" in unknown.text
    assert world.skat.manager.in_channel(21) is None


async def test_join_and_leave(world: CogBot) -> None:
    alice, bob, eve = world.user("alice"), world.user("bob"), world.user("eve")
    assert "no table" in (await world.run("skat join", bob)).text
    await open_table(world, alice)
    joined = await world.run("skat join", bob)
    assert joined.answer.ephemeral and joined.text == "You sit at table #1."
    assert (await world.run("skat join", bob)).text == "Not allowed: you are already sitting at this table."
    assert (await world.run("skat leave", eve)).text == "You are not sitting at this table."
    assert (await world.run("skat leave", bob)).text == "You left table #1."
    assert [o.name for o in world.skat.manager.in_channel(20).game.places] == ["alice"]


async def test_add_ai_and_remove_ai(world: CogBot) -> None:
    alice, eve = world.user("alice"), world.user("eve")
    assert "no table" in (await world.run("skat add-ai", alice)).text
    await open_table(world, alice)
    assert (await world.run("skat remove-ai", alice)).text == "Not allowed: there is no AI player at this table."
    assert (await world.run("skat add-ai", eve)).text == "Only players at this table can do that."
    assert (await world.run("skat add-ai", alice, level="genius")).text == \
        "Not allowed: unknown AI level 'genius': choose easy, normal or strong."
    assert (await world.run("skat add-ai", alice, level="strong")).text == "Done."
    game = world.skat.manager.in_channel(20).game
    assert [o.is_ai for o in game.places] == [False, True]
    assert (await world.run("skat remove-ai", alice)).text == "Done."
    assert [o.is_ai for o in game.places] == [False]


async def test_start_needs_every_seat_and_then_deals(world: CogBot) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    await open_table(world, alice)
    too_few = await world.run("skat start", alice)
    # answered at once, never deferred first: a deferral would look like acceptance before anything is stored
    assert not too_few.response.deferred and too_few.answer.how == "message"
    assert too_few.text == "Not allowed: the table needs 3 players to start; 1 seated."
    await world.run("skat join", bob)
    await world.run("skat add-ai", alice)
    started = await world.run("skat start", alice)
    assert started.text == "Done." and started.answer.ephemeral
    table = world.skat.manager.in_channel(20)
    assert table.game.state is TableState.PLAYING
    assert (await world.run("skat start", alice)).text == "Not allowed: the game has already started."
    assert (await world.run("skat join", world.user("carol"))).text == \
        "Not allowed: the game has started: you cannot join now."
    # each human got their hand by DM, with buttons
    assert world.surface.dm(alice.id).messages and world.surface.dm(bob.id).messages


async def test_stop_by_the_creator_or_a_server_manager_only(world: CogBot) -> None:
    alice, bob, admin = world.user("alice"), world.user("bob"), world.user("admin")
    await open_table(world, alice)
    await world.run("skat join", bob)
    assert (await world.run("skat stop", bob)).text == \
        "Not allowed: only the table's creator or a server manager can stop the table."
    assert world.skat.manager.in_channel(20) is not None
    stopped = await world.run("skat stop", admin, interaction=world.interaction(admin, manage_guild=True))
    assert stopped.text == "Done."
    assert world.skat.manager.in_channel(20) is None
    assert "no table" in (await world.run("skat stop", alice)).text


async def test_table_list_and_hand(world: CogBot) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    for command in ("skat table", "skat list", "skat hand"):
        assert "no table" in (await world.run(command, alice)).text
    await open_table(world, alice)
    shown = await world.run("skat table", bob)
    assert shown.answer.ephemeral and "Skat table #1" in shown.text and "1. alice" in shown.text
    assert (await world.run("skat hand", alice)).text.startswith("Not allowed: ")  # no cards before the start
    await world.run("skat join", bob)
    await world.run("skat add-ai", alice)
    await world.run("skat start", alice)
    during = await world.run("skat table", bob)
    assert "Deal 1" in during.text, during.text
    score_list = await world.run("skat list", bob)
    assert score_list.answer.ephemeral and score_list.text.startswith("**Score list** (0 of 6 deals)")
    table = world.skat.manager.in_channel(20)
    deal = table.game.deal
    for user in (alice, bob):
        hand = await world.run("skat hand", user)
        assert hand.answer.ephemeral and hand.text.startswith("**Your hand** · deal 1")
        picture = hand.answer.file  # the hand's picture, as the DM has it, only for its player
        assert picture is not None and picture.filename == "hand-1.png"
        assert set(cards_shown(picture.fp.read()) or ()) == set(deal.hand(table.game.seat_of_user(user.id)))
        my_turn = table.game.occupant_of_seat(deal.current_seat).user_id == user.id
        assert bool(hand.answer.custom_ids()) == my_turn  # buttons for what they may do now
    stranger = await world.run("skat hand", world.user("eve"))
    assert stranger.text == "You are not sitting at this table."


async def test_a_table_with_very_long_names_still_answers_within_discords_limit(world: CogBot) -> None:
    alice = FakeUser(500, "A" * 32)
    await open_table(world, alice, seats=4)
    for n in range(3):
        await world.run("skat join", FakeUser(501 + n, chr(66 + n) * 32))
    shown = await world.run("skat table", alice)
    assert len(shown.text) <= 2000 and shown.answer.how == "message"


async def test_the_permissions_checked_are_the_bots_own(world: CogBot) -> None:
    alice = world.user("alice")
    full = world.interaction(alice, app_permissions=all_permissions())
    assert (await world.run("skat new", alice, interaction=full)).text == "Table #1 is open."


async def test_remove_ai_after_the_start_is_refused(world: CogBot) -> None:
    alice = world.user("alice")
    await open_table(world, alice)
    await world.run("skat add-ai", alice)
    await world.run("skat add-ai", alice)
    await world.run("skat start", alice)
    assert (await world.run("skat remove-ai", alice)).text == \
        "Not allowed: AI players can only be removed before the start."
    assert (await world.run("skat add-ai", alice)).text == "Not allowed: AI players can only be added before the start."


async def test_a_server_that_wants_threads_gets_the_channel_where_none_can_be_opened(world: CogBot) -> None:
    admin, alice = world.user("admin"), world.user("alice")
    await world.run("skat settings", admin, interaction=world.interaction(admin, manage_guild=True), tables="thread")
    await open_table(world, alice)  # a fake channel is no text channel: the table plays in it, and says why
    assert world.skat.manager.in_channel(20) is not None
    assert any("thread" in text.lower() for text in world.surface.channel(20).texts())


async def test_a_table_another_process_opened_in_the_channel_refuses_a_new_one_before_any_notice(
        world: CogBot) -> None:
    """The quick check of `/skat new` reads the database: a table another process opened (not held here) is
    seen before the "no thread here" notice, so a refused table posts nothing in the channel."""
    admin, alice, bob = world.user("admin"), world.user("alice"), world.user("bob")
    await world.run("skat settings", admin, interaction=world.interaction(admin, manage_guild=True), tables="thread")
    await open_table(world, alice)
    table = world.skat.manager.in_channel(20)
    await table.close()
    del world.skat.manager.tables[table.id]  # another process holds it
    shown = world.surface.channel(20).texts()
    busy = await world.run("skat new", bob)
    assert busy.text == "This channel already has a table (#1). Join it, or stop it first."
    assert world.surface.channel(20).texts() == shown


async def test_closed_dms_play_from_an_ephemeral_hand(world: CogBot) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    world.surface.closed_dms.add(alice.id)
    await open_table(world, alice)
    await world.run("skat join", bob)
    await world.run("skat add-ai", alice)
    await world.run("skat start", alice)
    channel = world.surface.channel(20)
    notice = next(m for m in channel.messages.values()
                  if f"<@{alice.id}>" in (m.content or "") and m.view is not None)
    show = next(c for c in ids_on(notice) if c.endswith(":show:"))
    shown = await world.click(alice, notice, show)
    assert shown.answer.ephemeral and shown.text.startswith("**Your hand**")
    table = world.skat.manager.in_channel(20)
    deal = table.game.deal
    while table.game.occupant_of_seat(deal.current_seat).user_id != alice.id:  # bob passes until alice is asked
        await world.run("skat pass", bob)
    mine = await world.click(alice, notice, show)
    hand = FakeMessage(9, 20, mine.text, mine.answer.view, ephemeral=True)
    passed = next(c for c in ids_on(hand) if control_kind(c) == "pass")
    before = len(deal.history)
    moved = await world.click(alice, hand, passed)
    assert len(deal.history) > before  # the move was made, from the ephemeral message
    # the ephemeral hand shows the hand as it is now (and, as the others move, again through this interaction)
    assert moved.replies and all(reply.how in ("edit", "edit_original") for reply in moved.replies)
    assert all(passed not in reply.custom_ids() for reply in moved.replies)
    assert not world.surface.dm(alice.id).messages


def ids_on(message: FakeMessage) -> list[str]:
    assert message.view is not None
    return [str(c["custom_id"]) for row in message.view.to_components() for c in row["components"]
            if "custom_id" in c]


async def test_without_pictures_the_ephemeral_hand_is_text_only(world: CogBot) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    admin = world.user("admin")
    await world.run("skat settings", admin, interaction=world.interaction(admin, manage_guild=True), pictures="off")
    await open_table(world, alice)
    await world.run("skat join", bob)
    await world.run("skat add-ai", alice)
    await world.run("skat start", alice)
    hand = await world.run("skat hand", alice)
    assert hand.text.startswith("**Your hand** · deal 1") and hand.answer.file is None
