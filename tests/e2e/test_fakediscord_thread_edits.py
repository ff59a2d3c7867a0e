"""The fake Discord's thread edits with a raw client: its creator archives a thread, a message reopens it,
an archived thread's messages cannot be edited, and other edits need Manage Threads / Manage Channels."""

from __future__ import annotations

from tests.e2e.conftest import Club
from tests.e2e.rawbot import RawBot


async def test_the_creator_archives_its_thread_and_a_message_reopens_it(club: Club, raw: RawBot) -> None:
    fake = club.fake
    _, notice = await raw.rest("POST", f"/channels/{club.channel.id}/messages", {"content": "a table"})
    status, thread = await raw.rest("POST", f"/channels/{club.channel.id}/messages/{notice['id']}/threads",
                                    {"name": "Skat · alice's table", "auto_archive_duration": 60})
    assert status == 201 and thread["thread_metadata"]["auto_archive_duration"] == 60
    path = f"/channels/{thread['id']}"
    _, posted = await raw.rest("POST", f"{path}/messages", {"content": "lobby"})

    status, archived = await raw.rest("PATCH", path, {"archived": True})
    assert status == 200 and archived["thread_metadata"]["archived"] is True
    assert (await raw.event("THREAD_UPDATE"))["thread_metadata"]["archived"] is True
    assert fake.channel(int(thread["id"])).archived
    status, refused = await raw.rest("PATCH", f"{path}/messages/{posted['id']}", {"content": "edited"})
    assert (status, refused["code"]) == (400, 50083)
    assert (await raw.rest("PATCH", path, {"name": "renamed"}))[1]["code"] == 50083  # reopen first

    assert (await raw.rest("POST", f"{path}/messages", {"content": "back"}))[0] == 200
    assert not fake.channel(int(thread["id"])).archived
    assert (await raw.event("THREAD_UPDATE"))["thread_metadata"]["archived"] is False
    assert (await raw.rest("PATCH", f"{path}/messages/{posted['id']}", {"content": "edited"}))[0] == 200


async def test_other_thread_and_channel_edits_need_the_manage_permissions(club: Club, raw: RawBot) -> None:
    _, thread = await raw.rest("POST", f"/channels/{club.channel.id}/threads", {"name": "t", "type": 11})
    path = f"/channels/{thread['id']}"
    assert (await raw.rest("PATCH", path, {"locked": True}))[1]["code"] == 50013  # not the creator's to lock
    assert (await raw.rest("PATCH", path, {"auto_archive_duration": 5}))[0] == 400
    assert (await raw.rest("PATCH", path, {"name": ""}))[0] == 400
    status, renamed = await raw.rest("PATCH", path, {"name": "Skat table #1"})
    assert status == 200 and renamed["name"] == "Skat table #1"
    assert (await raw.rest("PATCH", f"/channels/{club.channel.id}", {"name": "x"}))[1]["code"] == 50013
    dm = club.fake.dm_channel(club.alice)
    assert (await raw.rest("PATCH", f"/channels/{dm.id}", {"name": "x"}))[1]["code"] == 50024
