"""Card faces as application emojis: uploaded once, on the hand's buttons and in the board's lines, and text
when Discord refuses them."""

from __future__ import annotations

import random
from pathlib import Path

from skatbot.engine import CARDS
from tests.controls import control_arg, control_kind
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.fakediscord.emojis import PNG_SIGNATURE, AppEmoji
from tests.e2e.skat_helpers import public_texts, start_skatbot_on_fresh_application
from tests.e2e.skat_leaks import FACE, assert_no_public_leaks
from tests.e2e.skat_players import button_move, play_out
from tests.e2e.test_skatbot_play import open_against_ais

EMOJIS = "/api/v10/applications/{app_id}/emojis"


def _posts(fake: FakeDiscord) -> int:
    return sum(1 for call in fake.rest_log if call.method == "POST" and call.route == EMOJIS)


async def test_faces_are_uploaded_once_and_shown_on_buttons_and_the_board(club: Club, start_bot: StartBot,
                                                                         tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    fake.world.application_emojis[1] = AppEmoji(1, "sk0_f_CJ", PNG_SIGNATURE)  # a face of an older drawing
    fake.world.application_emojis[2] = AppEmoji(2, "party", PNG_SIGNATURE)  # not ours: left alone
    database = str(tmp_path / "skat.sqlite3")
    proc = await start_skatbot_on_fresh_application(fake, start_bot, database)
    await proc.wait_for_output("card emojis ready: french, german", 30)
    names = {e.name: e.id for e in fake.world.application_emojis.values()}
    # the German deck's 32, the French deck's 32 and 20 more for the other languages' letters (B D E V R)
    assert len(names) == 85 and "party" in names and "sk0_f_CJ" not in names
    assert {f"sk1_{deck}_{card.iss}" for deck in "fg" for card in CARDS} <= set(names)
    assert {f"sk1_f_{suit}{letter}" for suit in "CSHD" for letter in "BDERV"} <= set(names)
    assert _posts(fake) == 84

    _, channel = await open_against_ais(fake, alice, club, deals=1)
    rng = random.Random(4)
    await play_out(fake, [alice], lambda: any("Result of deal 1" in text for text in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    card_buttons = [b for m in fake.dms(alice) for v in m.history for row in v.components
                    for b in row.get("components", []) if control_kind(b) == "card"]
    assert card_buttons, "alice never saw her cards as buttons"
    for button in card_buttons:  # the face of the very card, and its text label for screen readers
        card = control_arg(button)
        assert button["emoji"]["name"] == f"sk1_f_{card}" and int(button["emoji"]["id"]) == names[f"sk1_f_{card}"]
        assert button["label"]
    board = next(m for m in fake.messages(channel) if m.content.startswith("**Deal 1 of 1**"))
    faces = FACE.findall(board.content)
    assert len(faces) >= 3 and all(int(emoji_id) == names[f"sk1_{deck}_{card}"] for deck, card, emoji_id in faces)
    result = next(m.content for m in fake.messages(channel) if m.content.startswith("**Result of deal 1**"))
    assert len(FACE.findall(next(line for line in result.splitlines() if line.startswith("Skat: ")))) == 2
    assert_no_public_leaks(fake, [alice], database=database)

    await proc.stop()  # a restart finds its faces and uploads none
    await proc.start()
    await proc.wait_connected(commands=("skat",))
    await proc.wait_for_output("card emojis ready: french, german", 30)
    assert _posts(fake) == 84
    fake.assert_clean(allow_rejections=False)


async def test_a_refused_upload_leaves_the_cards_as_text(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    fake.inject_error("POST", EMOJIS, status=403, code=50013, message="Missing Permissions", times=1)
    proc = await start_skatbot_on_fresh_application(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    await proc.wait_for_output("cards are shown as text", 30)
    _, channel = await open_against_ais(fake, alice, club, deals=1)
    rng = random.Random(4)
    await play_out(fake, [alice], lambda: any("Result of deal 1" in text for text in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    buttons = [b for m in fake.dms(alice) for v in m.history for row in v.components for b in row.get("components", [])]
    assert buttons and not any(b.get("emoji") for b in buttons)
    assert not any(FACE.search(m.content) for m in fake.messages(include_deleted=True))
    assert any("♣" in text or "♠" in text or "♥" in text or "♦" in text for text in public_texts(fake, channel))
    assert proc.output().count("cards are shown as text") == 1  # said once
    assert_no_public_leaks(fake, [alice])
    fake.assert_clean(allow_rejections=True)
