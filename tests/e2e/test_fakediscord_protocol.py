"""The fake Discord at the wire: a raw websocket/HTTP client checks the gateway protocol and the
interaction rules precisely, without a bot process in between."""

from __future__ import annotations

import asyncio
import datetime as dt

import aiohttp
import discord.gateway
import pytest

from tests.e2e.conftest import Club, build_club
from tests.e2e.fakediscord import FakeDiscord, launch_bot
from tests.e2e.fakediscord.state import Snowflakes
from tests.e2e.rawbot import SKAT_COMMAND, RawBot


async def test_gateway_hello_ready_and_guild_create(club: Club, raw: RawBot) -> None:
    assert raw.hello["op"] == 10 and raw.hello["d"]["heartbeat_interval"] > 0
    assert raw.ready["user"]["id"] == str(club.fake.bot.id) and raw.ready["user"]["bot"] is True
    assert raw.ready["application"]["id"] == str(club.fake.application_id)
    assert raw.ready["guilds"] == [{"id": str(club.guild.id), "unavailable": True}]
    assert raw.ready["resume_gateway_url"] == club.fake.gateway_url
    [guild] = raw.guilds
    assert [c["name"] for c in guild["channels"]] == ["skat"]
    member_ids = {m["user"]["id"] for m in guild["members"]}
    assert {str(club.alice.id), str(club.bob.id), str(club.fake.bot.id)} <= member_ids
    assert guild["roles"][0]["id"] == str(club.guild.id) and guild["unavailable"] is False
    assert raw.ws is not None
    await raw.ws.send_json({"op": 1, "d": 1})
    assert (await raw.ws.receive_json(timeout=30))["op"] == 11
    await raw.ws.send_json({"op": 6, "d": {"token": club.fake.token, "session_id": "unknown", "seq": 1}})
    assert await raw.ws.receive_json(timeout=30) == {"op": 9, "d": False, "s": None, "t": None}


async def test_a_dropped_session_resumes_on_a_new_connection_and_gets_what_it_missed(club: Club,
                                                                                   raw: RawBot) -> None:
    fake = club.fake
    session = fake.gateway.live
    assert session is not None and raw.ws is not None
    await fake.drop_bot_connection()
    await fake.wait_for(lambda: fake.gateway.live is None, 30, "the drop")
    channel = fake.add_channel(club.guild, "late")  # announced to nobody: the bot is away
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(fake.gateway_url + "?v=10&encoding=json")
        assert (await ws.receive_json(timeout=30))["op"] == 10
        await ws.send_json({"op": 6, "d": {"token": fake.token, "session_id": session.session_id, "seq": 1}})
        replayed = [await ws.receive_json(timeout=30) for _ in range(3)]
        assert [(e["t"], e["s"]) for e in replayed] == [("GUILD_CREATE", 2), ("CHANNEL_CREATE", 3), ("RESUMED", 4)]
        assert replayed[1]["d"]["id"] == str(channel.id)
        assert fake.gateway.live is session and session.resumes == 1 and len(fake.gateway.sessions) == 1
        await fake.slash(club.alice, club.channel, "skat", subcommand="play", options={"card": "CJ"})
        assert (await ws.receive_json(timeout=30))["t"] == "INTERACTION_CREATE"


async def test_gateway_rejects_a_wrong_token_with_4004(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(fake.gateway_url + "?v=10&encoding=json")
        await ws.receive_json(timeout=30)
        await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 1, "properties": {}}})
        closing = await ws.receive(timeout=30)
        assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4004


async def test_privileged_intents_are_refused_with_4014_unless_enabled() -> None:
    for enabled, expected in ((0, 4014), (1 << 1, None)):
        async with FakeDiscord(privileged_intents=enabled) as fake, aiohttp.ClientSession() as http:
            build_club(fake)
            ws = await http.ws_connect(fake.gateway_url + "?v=10&encoding=json")
            await ws.receive_json(timeout=30)
            identify = {"token": fake.token, "intents": 1 | (1 << 1), "properties": {}}
            await ws.send_json({"op": 2, "d": identify})
            first = await ws.receive(timeout=30)
            if expected is None:
                assert first.json()["t"] == "READY"
            else:
                assert first.type is aiohttp.WSMsgType.CLOSE and first.data == expected


async def test_member_requests_get_one_chunk(club: Club, raw: RawBot) -> None:
    assert raw.ws is not None
    await raw.ws.send_json({"op": 8, "d": {"guild_id": str(club.guild.id), "query": "al", "limit": 0,
                                           "nonce": "n1"}})
    chunk = await raw.event("GUILD_MEMBERS_CHUNK")
    assert chunk["nonce"] == "n1" and [m["user"]["username"] for m in chunk["members"]] == ["alice"]


async def test_slash_payload_has_nested_options_member_and_resolved_users(club: Club, raw: RawBot) -> None:
    ix = await club.fake.slash(club.alice, club.channel, "skat", group="admin", subcommand="kick",
                               options={"player": club.bob})
    data = await raw.event("INTERACTION_CREATE")
    assert data["type"] == 2 and data["token"] == ix.token and data["guild_id"] == str(club.guild.id)
    assert data["member"]["user"]["id"] == str(club.alice.id) and int(data["member"]["permissions"]) > 0
    assert data["channel"]["id"] == str(club.channel.id) and int(data["app_permissions"]) > 0
    [group] = data["data"]["options"]
    assert (group["type"], group["name"], group["options"][0]["name"]) == (2, "admin", "kick")
    [player] = group["options"][0]["options"]
    assert player == {"name": "player", "type": 6, "value": str(club.bob.id)}
    assert data["data"]["resolved"]["users"][str(club.bob.id)]["username"] == "bob"
    assert "guild_id" not in data["data"]


async def test_interactions_carry_the_users_and_the_guilds_locale(fake: FakeDiscord) -> None:
    guild = fake.add_guild("Skatclub", locale="de")
    channel = fake.add_channel(guild, "skat")
    karl = fake.add_user("karl", locale="de")
    async with aiohttp.ClientSession() as http:
        raw = RawBot(fake, http)
        await raw.connect()
        await raw.sync()
        assert raw.guilds[0]["preferred_locale"] == "de"
        await fake.slash(karl, channel, "skat", subcommand="play", options={"card": "CJ"})
        data = await raw.event("INTERACTION_CREATE")
        assert (data["locale"], data["guild_locale"]) == ("de", "de")


async def test_autocomplete_sends_focused_text_and_only_accepts_choices(club: Club, raw: RawBot) -> None:
    task = asyncio.ensure_future(club.fake.autocomplete(club.alice, club.channel, "skat", subcommand="bid",
                                                        focused="value", options={"value": "1"}))
    data = await raw.event("INTERACTION_CREATE")
    [option] = data["data"]["options"][0]["options"]
    assert option == {"name": "value", "type": 4, "value": "1", "focused": True} and data["type"] == 4
    assert (await raw.callback(data, 4, {"content": "no"}))[0] == 400
    status, _ = await raw.callback(data, 8, {"choices": [{"name": "18", "value": 18}]})
    assert status == 200 and await task == [{"name": "18", "value": 18}]


async def test_initial_response_rules_double_ack_and_wrong_type(club: Club, raw: RawBot) -> None:
    ix = await club.fake.slash(club.alice, club.channel, "skat", subcommand="play", options={"card": "CJ"})
    data = await raw.event("INTERACTION_CREATE")
    assert (await raw.callback(data, 7, {"content": "x"}))[0] == 400
    hook = f"/webhooks/{club.fake.application_id}/{ix.token}"
    status, _ = await raw.rest("POST", hook, {"content": "early"})
    assert status == 404
    status, body = await raw.callback(data, 4, {"content": "played", "flags": 64})
    assert status == 200 and body["interaction"]["response_message_ephemeral"] is True
    assert body["resource"]["message"]["content"] == "played"
    status, body = await raw.callback(data, 4, {"content": "again"})
    assert (status, body["code"]) == (400, 40060)
    assert [v.kind for v in club.fake.violations] == ["double_ack"]
    assert ix.original is not None
    assert (ix.original.content, ix.original.viewer_id) == ("played", club.alice.id)


async def test_followups_and_original_edits_through_the_webhook(club: Club, raw: RawBot) -> None:
    ix = await club.fake.slash(club.alice, club.channel, "skat", subcommand="play", options={"card": "SJ"})
    data = await raw.event("INTERACTION_CREATE")
    assert (await raw.callback(data, 5))[0] == 200
    assert ix.original is not None and ix.original.loading
    hook = f"/webhooks/{club.fake.application_id}/{ix.token}"
    status, first = await raw.rest("POST", hook, {"content": "first"}, auth=False)
    assert status == 200 and first["id"] == str(ix.original.id) and not ix.original.loading
    status, second = await raw.rest("POST", hook, {"content": "second", "flags": 64}, auth=False)
    assert status == 200 and ix.followups[0].visibility == "ephemeral"
    second_path = f"{hook}/messages/{second['id']}"
    original_path = f"{hook}/messages/@original"
    assert (await raw.rest("PATCH", original_path, {"content": "edited"}, auth=False))[0] == 200
    assert (await raw.rest("PATCH", second_path, {"content": "x" * 2001}, auth=False))[0] == 400
    assert (await raw.rest("DELETE", f"{hook}/messages/{second['id']}", auth=False))[0] == 204
    assert (await raw.rest("GET", f"{hook}/messages/{second['id']}", auth=False))[0] == 404
    assert [v.content for v in ix.original.history] == ["", "first", "edited"]
    assert ix.followups[0].deleted


async def test_a_late_callback_gets_10062_and_two_violations() -> None:
    async with FakeDiscord(ack_timeout=0.2) as fake, aiohttp.ClientSession() as http:
        club = build_club(fake)
        raw = RawBot(fake, http)
        await raw.connect()
        await raw.sync()
        late = await fake.slash(club.alice, club.channel, "skat", subcommand="play", options={"card": "HJ"})
        late_data = await raw.event("INTERACTION_CREATE")
        await fake.wait_for(lambda: fake.violations, 30, "the ack timer")
        status, body = await raw.callback(late_data, 4, {"content": "late"})
        assert (status, body["code"], body["message"]) == (404, 10062, "Unknown interaction")
        assert [v.kind for v in fake.violations] == ["ack_timeout", "late_callback"] and not late.acknowledged
        assert fake.messages() == []


async def test_follow_ups_fail_once_the_token_is_15_minutes_old(club: Club, raw: RawBot) -> None:
    ix = await club.fake.slash(club.alice, club.channel, "skat", subcommand="play", options={"card": "DJ"})
    assert (await raw.callback(await raw.event("INTERACTION_CREATE"), 5))[0] == 200
    hook = f"/webhooks/{club.fake.application_id}/{ix.token}"
    ix.created_at -= 15 * 60 + 1  # as if the interaction had been created a quarter of an hour ago
    status, body = await raw.rest("POST", hook, {"content": "too late"}, auth=False)
    assert (status, body["code"]) == (401, 50027)
    assert club.fake.violations == []


async def test_guild_commands_take_precedence_and_bad_commands_are_refused(club: Club, raw: RawBot) -> None:
    guild_skat = {**SKAT_COMMAND, "description": "Guild Skat"}
    await raw.sync(guild_id=club.guild.id, commands=[guild_skat])
    app = club.fake.application_id
    status, listed = await raw.rest("GET", f"/applications/{app}/guilds/{club.guild.id}/commands")
    assert status == 200 and [c["description"] for c in listed] == ["Guild Skat"]
    await club.fake.slash(club.alice, club.channel, "skat", subcommand="play", options={"card": "CA"})
    assert (await raw.event("INTERACTION_CREATE"))["data"]["guild_id"] == str(club.guild.id)
    bad = [{"name": "Bad Name", "description": "x"}]
    status, body = await raw.rest("PUT", f"/applications/{club.fake.application_id}/commands", bad)
    assert (status, body["code"]) == (400, 50035) and "skat" in club.fake.commands()


async def test_the_test_api_refuses_what_a_discord_client_could_not_do(club: Club, raw: RawBot) -> None:
    fake = club.fake
    with pytest.raises(LookupError, match="/nope is not registered"):
        await fake.slash(club.alice, club.channel, "nope")
    with pytest.raises(ValueError, match="needs a subcommand"):
        await fake.slash(club.alice, club.channel, "skat")
    with pytest.raises(ValueError, match="missing required"):
        await fake.slash(club.alice, club.channel, "skat", subcommand="play")
    with pytest.raises(ValueError, match="no option"):
        await fake.slash(club.alice, club.channel, "skat", subcommand="play", options={"card": "CJ", "x": 1})
    with pytest.raises(ValueError, match="must be one of"):
        await fake.slash(club.alice, club.channel, "skat", subcommand="play",
                         options={"card": "CJ", "style": "it"})
    ix = await fake.slash(club.alice, club.channel, "skat", subcommand="play", options={"card": "CJ"})
    components = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Play", "custom_id": "play"},
        {"type": 2, "style": 1, "label": "Gone", "custom_id": "gone", "disabled": True}]}]
    await raw.callback(await raw.event("INTERACTION_CREATE"), 4, {"content": "hand", "flags": 64,
                                                                   "components": components})
    hand = await ix.wait_message()
    with pytest.raises(ValueError, match="cannot see"):
        await fake.click(club.bob, hand, "play")
    with pytest.raises(ValueError, match="disabled"):
        await fake.click(club.alice, hand, "gone")
    with pytest.raises(LookupError, match="no component"):
        await fake.click(club.alice, hand, "missing")
    click = await fake.click(club.alice, hand, "play")
    event = await raw.event("INTERACTION_CREATE")
    assert (event["type"], event["message"]["id"], event["data"]["custom_id"]) == (3, str(hand.id), "play")
    assert (await raw.callback(event, 6))[0] == 200 and click.original is hand


async def test_entity_selects_send_ids_and_resolved_users(club: Club, raw: RawBot) -> None:
    ix = await club.fake.slash(club.alice, club.channel, "skat", subcommand="play", options={"card": "CJ"})
    picker = [{"type": 1, "components": [{"type": 5, "custom_id": "who", "max_values": 2}]}]
    await raw.callback(await raw.event("INTERACTION_CREATE"), 4, {"content": "who?", "components": picker})
    message = await ix.wait_message()
    await club.fake.select(club.alice, message, "who", [club.bob, club.alice])
    data = (await raw.event("INTERACTION_CREATE"))["data"]
    assert data["values"] == [str(club.bob.id), str(club.alice.id)] and data["component_type"] == 5
    assert set(data["resolved"]["users"]) == set(data["resolved"]["members"]) == set(data["values"])


def test_snowflakes_are_unique_increasing_and_carry_the_current_time() -> None:
    ids = Snowflakes()
    made = [ids.next() for _ in range(10000)]
    assert made == sorted(set(made))
    age = dt.datetime.now(dt.UTC) - Snowflakes.time_of(made[-1])
    assert abs(age.total_seconds()) < 5


def test_launch_bot_refuses_without_its_environment_or_patch_points(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit, match="usage"):
        launch_bot.main(["launch_bot"])
    monkeypatch.delenv("FAKE_DISCORD_REST", raising=False)
    with pytest.raises(SystemExit, match="FAKE_DISCORD_REST"):
        launch_bot.main(["launch_bot", "bot.py"])
    monkeypatch.delattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY")
    with pytest.raises(RuntimeError, match="DEFAULT_GATEWAY"):
        launch_bot.patch_discord("http://127.0.0.1:1/api/v10", "ws://127.0.0.1:1/gateway", 0.2)


async def test_shards_get_their_own_servers_and_direct_messages_go_to_shard_zero() -> None:
    async with FakeDiscord(shard_count=2) as fake, aiohttp.ClientSession() as http:
        zero_guild, one_guild = fake.add_guild("Zero", shard=0), fake.add_guild("One", shard=1)
        zero_channel, one_channel = fake.add_channel(zero_guild, "skat"), fake.add_channel(one_guild, "skat")
        alice = fake.add_user("alice")
        status, body = await RawBot(fake, http).rest("GET", "/gateway/bot")
        assert status == 200 and body["shards"] == 2
        shard0, shard1 = RawBot(fake, http), RawBot(fake, http)
        await shard0.connect(shard=[0, 2])
        await shard1.connect(shard=[1, 2])
        assert [g["id"] for g in shard0.ready["guilds"]] == [str(zero_guild.id)] and shard0.ready["shard"] == [0, 2]
        assert [g["name"] for g in shard1.guilds] == ["One"]
        await shard0.sync()

        in_one = await fake.slash(alice, one_channel, "skat", subcommand="bid", options={"value": 18})
        assert (await shard1.event("INTERACTION_CREATE"))["id"] == str(in_one.id) and in_one.shard == 1
        in_zero = await fake.slash(alice, zero_channel, "skat", subcommand="bid", options={"value": 18})
        in_dm = await fake.slash(alice, fake.dm_channel(alice), "skat", subcommand="bid", options={"value": 18})
        assert [(await shard0.event("INTERACTION_CREATE"))["id"] for _ in range(2)] == [str(in_zero.id), str(in_dm.id)]
        assert (in_zero.shard, in_dm.shard) == (0, 0)
        later = fake.add_guild("Later", shard=1)  # announced to its shard only
        assert (await shard1.event("GUILD_CREATE"))["id"] == str(later.id)
        assert all(s.serves(later.id) == (s.shard == (1, 2)) for s in fake.gateway.sessions)

        ws = await http.ws_connect(fake.gateway_url + "?v=10&encoding=json")
        await ws.receive_json(timeout=30)
        await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "properties": {}, "shard": [2, 2]}})
        closing = await ws.receive(timeout=30)
        assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4010
