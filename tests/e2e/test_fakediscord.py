"""The fake Discord end to end: the sample bot runs as its own process through launch_bot, unmodified,
and scripted users drive it with slash commands, autocomplete, buttons, selects and modals."""

from __future__ import annotations

import aiohttp
import pytest

from tests.e2e.conftest import Club, StartBot, build_club
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.fakediscord.state import MANAGE_GUILD

PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)


async def test_bot_connects_identifies_and_syncs_commands(club: Club, start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    session = fake.gateway.live
    assert session is not None
    assert session.query == {"v": "10", "encoding": "json"}  # launch_bot turned zlib-stream off
    assert session.identify["token"] == fake.token
    assert session.intents and not session.intents & PRIVILEGED_INTENTS
    await fake.wait_for(lambda: session.heartbeats >= 1, 30, "a heartbeat")
    skat = fake.commands()["skat"]
    assert {o["name"] for o in skat["options"]} >= {"ping", "echo", "counter", "bid", "hand", "slow"}
    routes = {(c.method, c.route) for c in fake.rest_log}
    assert ("GET", "/api/v10/users/@me") in routes
    assert ("GET", "/api/v10/oauth2/applications/@me") in routes
    assert ("PUT", "/api/v10/applications/{app_id}/commands") in routes
    fake.assert_clean(allow_rejections=False)


async def test_an_auto_sharded_bot_finds_the_gateway_through_gateway_bot(club: Club,
                                                                         start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake, env={"SAMPLE_SHARDED": "1"})
    assert ("GET", "/api/v10/gateway/bot") in {(c.method, c.route) for c in fake.rest_log}
    session = fake.gateway.live
    assert session is not None and session.identify["shard"] == [0, 1]
    ix = await fake.slash(club.alice, club.channel, "skat", subcommand="ping")
    assert (await ix.wait_message()).content == "pong"
    fake.assert_clean(allow_rejections=False)


async def test_ephemeral_reply_is_only_visible_to_the_invoker(club: Club, start_bot: StartBot) -> None:
    await start_bot(club.fake)
    ix = await club.fake.slash(club.alice, club.channel, "skat", subcommand="ping")
    msg = await ix.wait_message()
    assert (msg.content, msg.visibility, msg.viewer_id) == ("pong", "ephemeral", club.alice.id)
    assert ix.callback_type == 4 and ix.acked_at is not None and ix.acked_at < 3.0
    assert msg.is_visible_to(club.alice) and not msg.is_visible_to(club.bob)
    assert club.fake.messages(club.channel, visible_to=club.bob) == []
    club.fake.assert_clean(allow_rejections=False)


async def test_discord_py_reads_members_channels_permissions_and_times(club: Club,
                                                                      start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    fake.give_role(club.guild, club.bob, fake.add_role(club.guild, "admins", MANAGE_GUILD))
    carl = fake.add_user("carl", locale="de")
    answers = []
    for user in (club.alice, club.bob, carl):
        ix = await fake.slash(user, club.channel, "skat", subcommand="whoami")
        answers.append((await ix.wait_message()).content)
    assert answers[0] == ("user=Member:alice guild=Skat Club channel=TextChannel:skat manage_guild=False "
                          "bot_can_send=True locale=en-US expired=False me_in_guild=True")
    assert "user=Member:bob" in answers[1] and "manage_guild=True" in answers[1]
    assert "locale=de" in answers[2]
    in_dm = await fake.slash(club.alice, fake.dm_channel(club.alice), "skat", subcommand="whoami")
    assert (await in_dm.wait_message()).content.startswith("user=User:alice guild=None channel=DMChannel")


async def test_echo_posts_publicly_with_the_option_value(club: Club, start_bot: StartBot) -> None:
    await start_bot(club.fake)
    ix = await club.fake.slash(club.alice, club.channel, "skat", subcommand="echo",
                               options={"text": "Grand hand!"})
    msg = await ix.wait_message()
    assert msg.content == "Grand hand!" and msg.visibility == "public" and msg.is_visible_to(club.bob)
    assert msg.interaction_metadata is not None
    assert msg.interaction_metadata["user"]["id"] == str(club.alice.id)


async def test_button_callback_edits_the_message_and_keeps_history(club: Club, start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    msg = await (await fake.slash(club.alice, club.channel, "skat", subcommand="counter")).wait_message()
    assert msg.button_labels() == ["Count"]
    click = await fake.click(club.bob, msg, "sample:count")
    assert await click.wait_acked() == 7
    again = await fake.click(club.alice, msg, "sample:count")
    await again.wait_acked()
    assert [v.content for v in msg.history] == ["count 0", "count 1", "count 2"]
    assert msg.edited_at is not None and click.original is msg
    fake.assert_clean(allow_rejections=False)


async def test_select_menu_sends_the_chosen_values(club: Club, start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    menu = await (await fake.slash(club.alice, club.channel, "skat", subcommand="pick")).wait_message()
    ix = await fake.select(club.bob, menu, "sample:pick", ["S", "H"])
    reply = await ix.wait_message()
    assert reply.content == "picked S,H" and reply.viewer_id == club.bob.id
    with pytest.raises(ValueError, match="no option"):
        await fake.select(club.bob, menu, "sample:pick", ["X"])
    with pytest.raises(ValueError, match="1..2 values"):
        await fake.select(club.bob, menu, "sample:pick", ["C", "S", "H"])


async def test_autocomplete_offers_choices_then_the_command_runs(club: Club, start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    choices = await fake.autocomplete(club.alice, club.channel, "skat", subcommand="bid", focused="value",
                                      options={"value": "2"})
    assert [c["value"] for c in choices] == [20, 22, 23, 24, 27]
    assert fake.interactions[-1].kind == 4 and fake.interactions[-1].callback_type == 8
    ix = await fake.slash(club.alice, club.channel, "skat", subcommand="bid", options={"value": 18})
    assert (await ix.wait_message()).content == "you bid 18"


async def test_dm_reaches_open_dms_and_closed_dms_surface_50007(club: Club, start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    ok = await fake.slash(club.alice, club.channel, "skat", subcommand="hand")
    assert (await ok.wait_message()).content == "sent you a DM"
    [dm] = fake.dms(club.alice)
    assert (dm.content, dm.visibility, dm.viewer_id) == ("your hand: CJ SJ HA", "dm", club.alice.id)
    closed = await fake.slash(club.bob, club.channel, "skat", subcommand="hand")
    assert (await closed.wait_message()).content == "cannot DM you (50007)"
    assert fake.dms(club.bob) == []
    [refused] = fake.rejections
    assert refused.status == 403 and refused.route == "/api/v10/channels/{channel_id}/messages"


async def test_buttons_in_a_dm_are_clicked_from_the_dm_channel(club: Club, start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    await (await fake.slash(club.alice, club.channel, "skat", subcommand="hand")).wait_message()
    [dm] = fake.dms(club.alice)
    assert dm.button_labels() == ["Play CJ"]
    with pytest.raises(ValueError, match="cannot see"):
        await fake.click(club.bob, dm, "sample:play:CJ")
    click = await fake.click(club.alice, dm, "sample:play:CJ")
    assert click.payload["user"]["id"] == str(club.alice.id) and "member" not in click.payload
    edited = await click.wait_message()
    assert click.callback_type == 6 and edited is dm
    assert (dm.content, dm.components, len(dm.history)) == ("played CJ (alice)", [], 2)
    fake.assert_clean(allow_rejections=False)


async def test_the_bot_resumes_after_op_7_and_after_a_dropped_connection(club: Club,
                                                                         start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    session = fake.gateway.live
    assert session is not None
    await fake.reconnect_bot()
    await fake.wait_for(lambda: session.resumes == 1 and fake.gateway.live is session, 10, "a RESUME")
    await fake.drop_bot_connection()
    await fake.wait_for(lambda: session.resumes == 2 and fake.gateway.live is session, 10, "a second RESUME")
    assert fake.gateway.sessions == [session]  # resumed, never identified again
    ix = await fake.slash(club.alice, club.channel, "skat", subcommand="ping")
    assert (await ix.wait_message()).content == "pong"
    fake.assert_clean(allow_rejections=False)


async def test_injected_errors_reach_the_bot_and_latency_slows_every_call(club: Club,
                                                                          start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    fake.inject_error("POST", "/api/v10/channels/{channel_id}/messages", status=403, code=50007,
                      message="Cannot send messages to this user")
    refused = await fake.slash(club.alice, club.channel, "skat", subcommand="hand")
    assert (await refused.wait_message()).content == "cannot DM you (50007)"
    assert fake.dms(club.alice) == []
    fake.rest_latency = 0.05
    ok = await fake.slash(club.alice, club.channel, "skat", subcommand="hand")
    assert (await ok.wait_message()).content == "sent you a DM"
    assert ok.acked_at is not None and ok.acked_at >= 0.05 * 2  # the DM send, then the callback
    assert [m.content for m in fake.dms(club.alice)] == ["your hand: CJ SJ HA"]


async def test_late_acknowledgement_is_a_violation_and_fails_with_10062(start_bot: StartBot) -> None:
    async with FakeDiscord(ack_timeout=0.5) as fake:
        club = build_club(fake)
        bot = await start_bot(fake)
        ix = await fake.slash(club.alice, club.channel, "skat", subcommand="slow", options={"seconds": 0.8})
        notice = await fake.wait_for_message(club.channel, lambda m: m.content.startswith("too late"))
        assert notice.content == "too late (10062)"
        assert not ix.acknowledged
        assert [v.kind for v in fake.violations] == ["ack_timeout", "late_callback"]
        with pytest.raises(AssertionError, match="ack_timeout"):
            fake.assert_clean()
        await bot.stop()  # before this fake goes away, or the bot would log reconnect attempts


async def test_second_initial_response_gets_40060(club: Club, start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    ix = await fake.slash(club.alice, club.channel, "skat", subcommand="double")
    report = await ix.wait_followup()
    assert report.content == "results ['40060', 'ok']"
    assert [v.kind for v in fake.violations] == ["double_ack"]
    assert ix.original is not None and ix.original.content in ("one", "two")


async def test_deferred_response_follow_ups_and_original_edit(club: Club, start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    ix = await fake.slash(club.alice, club.channel, "skat", subcommand="think")
    assert await ix.wait_acked() == 5
    await fake.wait_for(lambda: ix.original is not None and ix.original.content == "thought harder")
    original = ix.original
    assert original is not None and [v.content for v in original.history] == ["", "thought", "thought harder"]
    assert original.history[0].flags & (1 << 7) and not original.loading
    [secret] = ix.followups
    assert (secret.content, secret.visibility, secret.viewer_id) == ("a secret", "ephemeral", club.alice.id)
    fake.assert_clean(allow_rejections=False)


async def test_attachments_are_stored_and_downloadable(club: Club, start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    msg = await (await fake.slash(club.alice, club.channel, "skat", subcommand="file")).wait_message()
    [att] = msg.attachments
    assert (att.filename, att.data) == ("jacks.txt", b"CJ SJ HJ DJ")
    async with aiohttp.ClientSession() as http, http.get(att.url) as resp:
        assert await resp.read() == b"CJ SJ HJ DJ"


async def test_threads_from_a_message_and_private_with_members(club: Club, start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    reply = await (await fake.slash(club.alice, club.channel, "skat", subcommand="table")).wait_message()
    public, private = fake.threads(club.channel)
    assert reply.content == f"opened <#{public.id}>"
    assert public.type == 11 and public.name == "skat table" and fake.message(public.id).content == "table"
    assert [m.content for m in fake.messages(public)] == ["welcome to the table"]
    assert private.type == 12 and club.alice.id in private.thread_member_ids
    assert [m.content for m in fake.messages(private, visible_to=club.alice)] == ["psst"]
    assert fake.messages(private, visible_to=club.bob) == []


async def test_missing_thread_permission_is_403_50013(fake: FakeDiscord, start_bot: StartBot) -> None:
    guild = fake.add_guild("Strict")
    channel = fake.add_channel(guild, "no-threads", allow_threads=False)
    alice = fake.add_user("alice")
    await start_bot(fake)
    reply = await (await fake.slash(alice, channel, "skat", subcommand="table")).wait_message()
    assert reply.content == "no table here (50013)" and fake.threads() == []


async def test_oversized_message_is_refused_with_50035(club: Club, start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    ix = await fake.slash(club.alice, club.channel, "skat", subcommand="long")
    assert (await ix.wait_message()).content == "refused (50035)"
    [refused] = fake.rejections
    assert refused.status == 400 and refused.route.endswith("/callback")


async def test_modal_is_shown_and_submitted(club: Club, start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    ix = await fake.slash(club.alice, club.channel, "skat", subcommand="name")
    assert await ix.wait_acked() == 9 and ix.modal is not None and ix.modal["title"] == "Your name"
    submitted = await fake.submit_modal(ix, {"sample:name": "Anna"})
    assert (await submitted.wait_message()).content == "hello Anna"


async def test_channel_messages_can_be_edited_deleted_fetched_and_listed(club: Club,
                                                                         start_bot: StartBot) -> None:
    fake = club.fake
    await start_bot(fake)
    ix = await fake.slash(club.alice, club.channel, "skat", subcommand="post")
    report = await ix.wait_message()
    assert report.content == "fetched final; history ['final']"
    final, doomed = [m for m in fake.messages(club.channel, include_deleted=True) if not m.ephemeral]
    assert [v.content for v in final.history] == ["draft", "final"] and final.attachments[0].data == b"x"
    assert doomed.deleted and doomed.content == "doomed"
    assert fake.messages(club.channel, visible_to=club.bob) == [final]


async def test_a_restarted_bot_identifies_again_and_old_buttons_still_work(club: Club,
                                                                           start_bot: StartBot) -> None:
    fake = club.fake
    bot = await start_bot(fake)
    msg = await (await fake.slash(club.alice, club.channel, "skat", subcommand="counter")).wait_message()
    await bot.kill()
    await fake.wait_for(lambda: fake.gateway.live is None, 30, "the dead bot's session to close")
    with pytest.raises(RuntimeError, match="no bot is connected"):
        await fake.click(club.alice, msg, "sample:count")
    await bot.start()
    await bot.wait_connected()
    await bot.wait_for_output("READY as skatbot")  # on_ready of the second start
    assert [s.identified for s in fake.gateway.sessions] == [True, True]
    click = await fake.click(club.alice, msg, "sample:count")
    await click.wait_acked()
    assert msg.content == "count 1"
    fake.assert_clean(allow_rejections=False)
