"""The fake Discord at the wire: a raw websocket/HTTP client checks the gateway protocol, Discord's limits
and interaction rules precisely, without a bot process in between."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord.gateway
import pytest

from tests.e2e.conftest import Club, build_club
from tests.e2e.fakediscord import FakeDiscord, launch_bot
from tests.e2e.fakediscord.state import MANAGE_GUILD, Snowflakes

SKAT_COMMAND = {
    "name": "skat", "description": "Skat", "options": [
        {"type": 1, "name": "bid", "description": "Bid", "options": [
            {"type": 4, "name": "value", "description": "Value", "required": True, "autocomplete": True}]},
        {"type": 1, "name": "play", "description": "Play", "options": [
            {"type": 3, "name": "card", "description": "Card", "required": True},
            {"type": 3, "name": "style", "description": "Style",
             "choices": [{"name": "French", "value": "fr"}, {"name": "German", "value": "de"}]}]},
        {"type": 2, "name": "admin", "description": "Admin", "options": [
            {"type": 1, "name": "kick", "description": "Kick", "options": [
                {"type": 6, "name": "player", "description": "Player", "required": True}]}]},
    ],
}


class RawBot:
    """A minimal gateway + REST client speaking the protocol by hand."""

    def __init__(self, fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
        self.fake = fake
        self.http = http
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.hello: dict[str, Any] = {}
        self.ready: dict[str, Any] = {}
        self.guilds: list[dict[str, Any]] = []

    async def connect(self, token: str | None = None) -> None:
        url = f"{self.fake.gateway_url}?v=10&encoding=json&compress=zlib-stream"
        self.ws = await self.http.ws_connect(url)
        self.hello = await self.ws.receive_json(timeout=5)
        await self.ws.send_json({"op": 2, "d": {"token": token or self.fake.token, "intents": 1,
                                                "properties": {"os": "linux"}}})
        ready = await self.ws.receive_json(timeout=5)
        self.ready = ready["d"]
        for _ in self.ready["guilds"]:
            self.guilds.append((await self.ws.receive_json(timeout=5))["d"])

    async def event(self, name: str) -> dict[str, Any]:
        assert self.ws is not None
        while True:
            msg = await self.ws.receive_json(timeout=5)
            if msg.get("t") == name:
                return msg["d"]

    async def rest(self, method: str, path: str, body: Any = None, *, auth: bool = True) -> tuple[int, Any]:
        headers = {"Authorization": f"Bot {self.fake.token}"} if auth else {}
        async with self.http.request(method, self.fake.rest_url + path, json=body, headers=headers) as resp:
            assert resp.status == 204 or resp.headers["Content-Type"] == "application/json"
            return resp.status, (await resp.json() if resp.status != 204 else None)

    async def sync(self, *, guild_id: int | None = None, commands: list | None = None) -> None:
        scope = f"/guilds/{guild_id}" if guild_id else ""
        path = f"/applications/{self.fake.application_id}{scope}/commands"
        status, _ = await self.rest("PUT", path, commands if commands is not None else [SKAT_COMMAND])
        assert status == 200

    async def callback(self, ix: dict[str, Any], kind: int,
                       data: dict[str, Any] | None = None) -> tuple[int, Any]:
        body = {"type": kind, **({"data": data} if data is not None else {})}
        path = f"/interactions/{ix['id']}/{ix['token']}/callback?with_response=true"
        return await self.rest("POST", path, body, auth=False)


@pytest.fixture
async def raw(club: Club) -> AsyncIterator[RawBot]:
    async with aiohttp.ClientSession() as http:
        bot = RawBot(club.fake, http)
        await bot.connect()
        await bot.sync()
        yield bot


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
    assert (await raw.ws.receive_json(timeout=5))["op"] == 11
    await raw.ws.send_json({"op": 6, "d": {"token": club.fake.token, "session_id": "x", "seq": 1}})
    assert await raw.ws.receive_json(timeout=5) == {"op": 9, "d": False, "s": None, "t": None}


async def test_gateway_rejects_a_wrong_token_with_4004(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(fake.gateway_url + "?v=10&encoding=json")
        await ws.receive_json(timeout=5)
        await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 1, "properties": {}}})
        closing = await ws.receive(timeout=5)
        assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4004


async def test_privileged_intents_are_refused_with_4014_unless_enabled() -> None:
    for enabled, expected in ((0, 4014), (1 << 1, None)):
        async with FakeDiscord(privileged_intents=enabled) as fake, aiohttp.ClientSession() as http:
            build_club(fake)
            ws = await http.ws_connect(fake.gateway_url + "?v=10&encoding=json")
            await ws.receive_json(timeout=5)
            identify = {"token": fake.token, "intents": 1 | (1 << 1), "properties": {}}
            await ws.send_json({"op": 2, "d": identify})
            first = await ws.receive(timeout=5)
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


async def test_member_list_needs_the_members_intent_and_foreign_guilds_are_missing_access(
        club: Club, raw: RawBot) -> None:
    assert (await raw.rest("GET", f"/guilds/{club.guild.id}/members?limit=10"))[1]["code"] == 50001
    status, member = await raw.rest("GET", f"/guilds/{club.guild.id}/members/{club.alice.id}")
    assert status == 200 and member["user"]["username"] == "alice"
    app = club.fake.application_id
    status, body = await raw.rest("PUT", f"/applications/{app}/guilds/12345/commands", [])
    assert (status, body["code"]) == (403, 50001)


async def test_rest_needs_the_token_and_records_unknown_routes(raw: RawBot) -> None:
    assert (await raw.rest("GET", "/users/@me", auth=False))[0] == 401
    status, body = await raw.rest("GET", "/guilds/1/audit-logs")
    assert status == 404 and body["message"] == "404: Not Found"
    assert [c.path for c in raw.fake.unknown_routes] == ["/api/v10/guilds/1/audit-logs"]
    with pytest.raises(AssertionError, match="unknown route GET /api/v10/guilds/1/audit-logs"):
        raw.fake.assert_clean()
    raw.fake.unknown_routes.clear()  # deliberate here; the `fake` fixture fails tests that leave any
    status, body = await raw.rest("GET", "/gateway/bot")
    assert status == 200 and body["url"] == raw.fake.gateway_url and body["shards"] == 1
    times = [c.at for c in raw.fake.rest_log]
    assert times == sorted(times) and times[-1] <= asyncio.get_running_loop().time()


def _rows(n_rows: int, per_row: int) -> list[dict[str, Any]]:
    return [{"type": 1, "components": [{"type": 2, "style": 1, "label": f"b{r}{i}", "custom_id": f"c{r}-{i}"}
                                       for i in range(per_row)]} for r in range(n_rows)]


def _select(n: int, custom_id: str = "s") -> list[dict[str, Any]]:
    return [{"type": 1, "components": [{"type": 3, "custom_id": custom_id,
                                        "options": [{"label": str(i), "value": str(i)} for i in range(n)]}]}]


ACCEPTED = {
    "2000 chars": {"content": "x" * 2000},
    "10 embeds": {"embeds": [{"title": "t"}] * 10},
    "25 fields": {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 25}]},
    "title 256, description 4096": {"embeds": [{"title": "t" * 256, "description": "d" * 4096}]},
    "5 rows of 5 buttons": {"components": _rows(5, 5)},
    "select with 25 options": {"components": _select(25)},
    "custom_id 100, label 80": {"components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "l" * 80, "custom_id": "c" * 100}]}]},
}
V2 = 1 << 15
_V2_BUTTON = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}
_V2_CONTAINER = {"type": 17, "components": [{"type": 10, "content": "t" * 4000}, _V2_BUTTON]}
ACCEPTED["components v2: 4000 chars of text"] = {"flags": V2, "components": [_V2_CONTAINER]}
REFUSED = {
    "2001 chars": ({"content": "x" * 2001}, "content"),
    "11 embeds": ({"embeds": [{"title": "t"}] * 11}, "embeds"),
    "embeds over 6000": ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "embeds"),
    "title 257": ({"embeds": [{"title": "t" * 257}]}, "embeds.0.title"),
    "description 4097": ({"embeds": [{"description": "d" * 4097}]}, "embeds.0.description"),
    "26 fields": ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "embeds.0.fields"),
    "6 rows": ({"components": _rows(6, 1)}, "components"),
    "6 buttons in a row": ({"components": _rows(1, 6)}, "components.0.components"),
    "select without options": ({"components": _select(0)}, "components.0.components.0.options"),
    "select with 26 options": ({"components": _select(26)}, "components.0.components.0.options"),
    "custom_id 101": ({"components": _select(2, "c" * 101)}, "components.0.components.0.custom_id"),
    "v2 with content": ({"flags": V2, "content": "x", "components": [_V2_BUTTON]}, "content"),
    "v2 text over 4000": ({"flags": V2, "components": [{"type": 10, "content": "t" * 4001}]}, "components"),
    "v2 over 40 components": ({"flags": V2, "components": [{"type": 10, "content": "t"}] * 41}, "components"),
    "label 81": ({"components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "l" * 81, "custom_id": "c"}]}]}, "components.0.components.0.label"),
}


@pytest.mark.parametrize("payload", ACCEPTED.values(), ids=ACCEPTED.keys())
async def test_messages_at_the_limits_are_accepted(club: Club, raw: RawBot, payload: dict[str, Any]) -> None:
    status, body = await raw.rest("POST", f"/channels/{club.channel.id}/messages", payload)
    assert status == 200, body
    message = club.fake.message(int(body["id"]))
    assert message.visibility == "public" and message.history[0].content == payload.get("content", "")


@pytest.mark.parametrize("payload,path", REFUSED.values(), ids=REFUSED.keys())
async def test_messages_over_the_limits_get_50035(club: Club, raw: RawBot, payload: dict[str, Any],
                                                  path: str) -> None:
    status, body = await raw.rest("POST", f"/channels/{club.channel.id}/messages", payload)
    assert (status, body["code"], body["message"]) == (400, 50035, "Invalid Form Body")
    node = body["errors"]
    for key in path.split("."):
        node = node[key]
    assert node["_errors"]
    assert club.fake.messages(club.channel) == []


async def test_a_components_v2_message_stays_v2_when_edited_without_flags(club: Club, raw: RawBot) -> None:
    path = f"/channels/{club.channel.id}/messages"
    _, body = await raw.rest("POST", path, {"flags": V2, "components": [_V2_CONTAINER]})
    text_only = {"components": [{"type": 10, "content": "x"}]}
    status, edited = await raw.rest("PATCH", f"{path}/{body['id']}", text_only)
    assert status == 200 and edited["flags"] & V2 and edited["components"][0]["content"] == "x"
    assert club.fake.message(int(body["id"])).text == "x"
    status, _ = await raw.rest("PATCH", f"{path}/{body['id']}", {"content": "legacy"})
    assert status == 400


async def test_components_get_numeric_ids_like_discord_assigns(club: Club, raw: RawBot) -> None:
    rows = _rows(2, 2)
    rows[1]["components"][0]["id"] = 2
    _, body = await raw.rest("POST", f"/channels/{club.channel.id}/messages", {"components": rows})
    ids = [[row["id"], *[c["id"] for c in row["components"]]] for row in body["components"]]
    assert ids == [[1, 3, 4], [5, 2, 6]]


async def test_roles_raise_a_members_permissions_in_interactions(club: Club, raw: RawBot) -> None:
    admins = club.fake.add_role(club.guild, "admins", MANAGE_GUILD)
    role_event = await raw.event("GUILD_ROLE_CREATE")
    assert role_event["role"]["id"] == str(admins.id)
    await club.fake.slash(club.bob, club.channel, "skat", subcommand="play", options={"card": "CJ"})
    before = int((await raw.event("INTERACTION_CREATE"))["member"]["permissions"])
    club.fake.give_role(club.guild, club.bob, admins)
    await club.fake.slash(club.bob, club.channel, "skat", subcommand="play", options={"card": "CJ"})
    after = await raw.event("INTERACTION_CREATE")
    assert not before & MANAGE_GUILD and int(after["member"]["permissions"]) & MANAGE_GUILD
    assert str(admins.id) in after["member"]["roles"]


async def test_dms_need_a_shared_guild(club: Club, raw: RawBot) -> None:
    stranger = club.fake.add_user("stranger", guilds=[])
    _, dm = await raw.rest("POST", "/users/@me/channels", {"recipient_id": str(stranger.id)})
    assert (await raw.rest("POST", f"/channels/{dm['id']}/messages", {"content": "hi"}))[1]["code"] == 50007


async def test_empty_ephemeral_and_closed_dm_messages_are_refused(club: Club, raw: RawBot) -> None:
    channel_path = f"/channels/{club.channel.id}/messages"
    assert (await raw.rest("POST", channel_path, {"content": ""}))[1]["code"] == 50006
    assert (await raw.rest("POST", channel_path, {"content": "hi", "flags": 64}))[1]["code"] == 50035
    status, dm = await raw.rest("POST", "/users/@me/channels", {"recipient_id": str(club.bob.id)})
    assert status == 200 and dm["type"] == 1 and dm["recipients"][0]["id"] == str(club.bob.id)
    status, body = await raw.rest("POST", f"/channels/{dm['id']}/messages", {"content": "your hand"})
    assert (status, body) == (403, {"code": 50007, "message": "Cannot send messages to this user"})
    club.fake.set_dms_open(club.bob, True)
    assert (await raw.rest("POST", f"/channels/{dm['id']}/messages", {"content": "your hand"}))[0] == 200
    assert [m.content for m in club.fake.dms(club.bob)] == ["your hand"]


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
        await fake.wait_for(lambda: fake.violations, 2, "the ack timer")
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


async def test_channel_history_excludes_ephemeral_and_pages(club: Club, raw: RawBot) -> None:
    path = f"/channels/{club.channel.id}/messages"
    ids = [int((await raw.rest("POST", path, {"content": str(i)}))[1]["id"]) for i in range(5)]
    status, newest = await raw.rest("GET", f"{path}?limit=2")
    assert status == 200 and [m["content"] for m in newest] == ["4", "3"]
    _, older = await raw.rest("GET", f"{path}?limit=10&before={ids[2]}")
    assert [m["content"] for m in older] == ["1", "0"]
    _, edited = await raw.rest("PATCH", f"{path}/{ids[0]}", {"content": "zero"})
    assert edited["content"] == "zero" and edited["edited_timestamp"] is not None
    assert (await raw.rest("DELETE", f"{path}/{ids[1]}"))[0] == 204
    assert (await raw.rest("GET", f"{path}/{ids[1]}"))[0] == 404
    _, everything = await raw.rest("GET", path)
    assert [m["content"] for m in everything] == ["4", "3", "2", "zero"]


async def test_threads_need_permission_and_a_valid_name(fake: FakeDiscord) -> None:
    guild = fake.add_guild("Club")
    open_channel = fake.add_channel(guild, "open")
    closed = fake.add_channel(guild, "closed", allow_threads=False, bot_can_send=False)
    async with aiohttp.ClientSession() as http:
        raw = RawBot(fake, http)
        await raw.connect()
        closed_path, open_path = f"/channels/{closed.id}", f"/channels/{open_channel.id}"
        thread_body = {"name": "t", "type": 11}
        assert (await raw.rest("POST", f"{closed_path}/threads", thread_body))[1]["code"] == 50013
        assert (await raw.rest("POST", f"{closed_path}/messages", {"content": "x"}))[1]["code"] == 50013
        assert (await raw.rest("POST", f"{open_path}/threads", {"name": "", "type": 11}))[0] == 400
        status, thread = await raw.rest("POST", f"{open_path}/threads", {"name": "t", "type": 11})
        assert status == 201 and thread["parent_id"] == str(open_channel.id)
        created = await raw.event("THREAD_CREATE")
        assert created["id"] == thread["id"] and created["newly_created"] is True


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


async def test_message_text_is_what_a_reader_sees(club: Club, raw: RawBot) -> None:
    embed = {"title": "Grand", "author": {"name": "alice"}, "description": "won with 61",
             "fields": [{"name": "Value", "value": "48"}], "footer": {"text": "deal 1"}}
    path = f"/channels/{club.channel.id}/messages"
    _, body = await raw.rest("POST", path, {"content": "Result", "embeds": [embed]})
    assert club.fake.message(int(body["id"])).text == "Result\nGrand\nalice\nwon with 61\nValue\n48\ndeal 1"
