"""The fake's application emojis as Discord has them: create, list, rename, delete; names, image size and
count limits; and components may only use emojis that exist."""

from __future__ import annotations

import base64

from tests.e2e.conftest import Club
from tests.e2e.fakediscord import emojis
from tests.e2e.rawbot import RawBot

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64


def _uri(data: bytes = PNG) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


async def test_emojis_are_created_listed_renamed_and_deleted(raw: RawBot) -> None:
    base = f"/applications/{raw.fake.application_id}/emojis"
    status, made = await raw.rest("POST", base, {"name": "sk_f_CJ", "image": _uri()})
    assert status == 201 and made["name"] == "sk_f_CJ" and made["id"]
    status, listed = await raw.rest("GET", base)
    assert status == 200 and [e["name"] for e in listed["items"]] == ["sk_f_CJ"]
    status, renamed = await raw.rest("PATCH", f"{base}/{made['id']}", {"name": "sk_f_CQ"})
    assert status == 200 and renamed["name"] == "sk_f_CQ"
    assert (await raw.rest("DELETE", f"{base}/{made['id']}"))[0] == 204
    assert (await raw.rest("GET", base))[1]["items"] == []
    status, body = await raw.rest("DELETE", f"{base}/{made['id']}")
    assert (status, body["code"]) == (404, 10014)


async def test_discords_rules_for_names_images_and_the_count(raw: RawBot) -> None:
    base = f"/applications/{raw.fake.application_id}/emojis"
    for name in ("x", "a" * 33, "has space", "bad-dash"):
        status, body = await raw.rest("POST", base, {"name": name, "image": _uri()})
        assert (status, body["code"]) == (400, 50035) and "name" in body["errors"], name
    status, body = await raw.rest("POST", base, {"name": "big", "image": _uri(b"\0" * (256 * 1024 + 1))})
    assert (status, body["code"]) == (400, 50035) and "image" in body["errors"]
    status, body = await raw.rest("POST", base, {"name": "nodata", "image": "not a data uri"})
    assert status == 400 and "image" in body["errors"]
    assert (await raw.rest("POST", base, {"name": "twice", "image": _uri()}))[0] == 201
    status, body = await raw.rest("POST", base, {"name": "twice", "image": _uri()})
    assert status == 400 and body["errors"]["name"]["_errors"][0]["code"] == "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"
    for index in range(emojis.MAX_EMOJIS - 1):  # fill up to the limit directly: 2000 uploads would be slow
        raw.fake.world.application_emojis[-index - 1] = emojis.AppEmoji(-index - 1, f"e{index}", PNG)
    status, body = await raw.rest("POST", base, {"name": "one_more", "image": _uri()})
    assert (status, body["code"]) == (400, 30008)
    status, body = await raw.rest("POST", "/applications/999/emojis", {"name": "other", "image": _uri()})
    assert (status, body["code"]) == (403, 50001)


async def test_a_button_with_an_unknown_emoji_is_refused(club: Club, raw: RawBot) -> None:
    base = f"/applications/{raw.fake.application_id}/emojis"
    made = (await raw.rest("POST", base, {"name": "sk_f_CJ", "image": _uri()}))[1]

    def row(emoji_id: str) -> list[dict[str, object]]:
        return [{"type": 1, "components": [{"type": 2, "style": 1, "label": "♣J", "custom_id": "c",
                                            "emoji": {"id": emoji_id, "name": "sk_f_CJ"}}]}]

    path = f"/channels/{club.channel.id}/messages"
    status, body = await raw.rest("POST", path, {"content": "x", "components": row("12345")})
    assert (status, body["code"]) == (400, 50035)
    assert body["errors"]["components"]["0"]["components"]["0"]["emoji"]["_errors"][0]["code"] == \
        "COMPONENT_INVALID_EMOJI"
    status, message = await raw.rest("POST", path, {"content": "x", "components": row(made["id"])})
    assert status == 200
    status, body = await raw.rest("PATCH", f"{path}/{message['id']}", {"components": row("777")})
    assert (status, body["code"]) == (400, 50035)
