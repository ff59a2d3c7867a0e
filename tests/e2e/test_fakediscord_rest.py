"""The fake Discord's REST side with a raw client: Discord's message limits, channels, DMs, threads,
permissions and the REST log."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

import aiohttp
import pytest

from tests.e2e.conftest import Club
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.fakediscord.state import MANAGE_EVENTS, MANAGE_GUILD
from tests.e2e.rawbot import RawBot


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


async def test_message_text_is_what_a_reader_sees(club: Club, raw: RawBot) -> None:
    embed = {"title": "Grand", "author": {"name": "alice"}, "description": "won with 61",
             "fields": [{"name": "Value", "value": "48"}], "footer": {"text": "deal 1"}}
    path = f"/channels/{club.channel.id}/messages"
    _, body = await raw.rest("POST", path, {"content": "Result", "embeds": [embed]})
    assert club.fake.message(int(body["id"])).text == "Result\nGrand\nalice\nwon with 61\nValue\n48\ndeal 1"


async def test_a_fault_can_pick_calls_by_their_body_and_lets_the_others_through(club: Club, raw: RawBot) -> None:
    path = f"/channels/{club.channel.id}/messages"
    fault = raw.fake.inject_error("POST", "/api/v10/channels/{channel_id}/messages", status=500, times=10,
                                  where=lambda body: "Result" in str((body or {}).get("content")))
    status, _ = await raw.rest("POST", path, {"content": "Result of deal 1"})
    assert status == 500 and fault.times == 9
    status, posted = await raw.rest("POST", path, {"content": "a trick"})  # its body read once, then handled
    assert status == 200 and posted["content"] == "a trick" and fault.times == 9
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "Result of deal 2"}', content_type="application/json")
    form.add_field("files[0]", b"png", filename="list.png", content_type="image/png")
    async with raw.http.post(raw.fake.rest_url + path, data=form,
                             headers={"Authorization": f"Bot {raw.fake.token}"}) as response:
        assert response.status == 500 and fault.times == 8
    assert [m.content for m in raw.fake.messages(club.channel)] == ["a trick"]


async def test_scheduled_events_follow_discords_rules(club: Club, raw: RawBot) -> None:
    """POST /guilds/{id}/scheduled-events: Manage Events, and an external event's location and end time."""
    start = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
    event = {"name": "Club evening", "privacy_level": 2, "entity_type": 3, "scheduled_start_time": start.isoformat(),
             "scheduled_end_time": (start + dt.timedelta(hours=3)).isoformat(),
             "entity_metadata": {"location": "#skat"}}
    path = f"/guilds/{club.guild.id}/scheduled-events"
    status, body = await raw.rest("POST", path, event)
    assert (status, body["code"]) == (403, 50013)  # the bot may not create events (yet)
    bot_role = next(r for r in club.guild.roles.values() if r.name == club.fake.world.bot.name)
    bot_role.permissions |= MANAGE_EVENTS
    for broken, field in (({"scheduled_end_time": None}, "scheduled_end_time"),
                          ({"entity_metadata": {}}, "entity_metadata"), ({"name": ""}, "name"),
                          ({"scheduled_start_time": "2001-01-01T00:00:00+00:00"}, "scheduled_start_time")):
        status, body = await raw.rest("POST", path, {**event, **broken})
        assert (status, body["code"]) == (400, 50035) and field in body["errors"], (broken, body)
    assert club.fake.world.scheduled_events == {}
    status, body = await raw.rest("POST", path, event)
    assert status == 200 and body["name"] == "Club evening" and body["status"] == 1
    status, listed = await raw.rest("GET", path)
    assert status == 200 and [e["id"] for e in listed] == [body["id"]]
