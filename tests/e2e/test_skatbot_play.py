"""The real bot, as its own process, against the fake Discord: one person against two computer players."""

from __future__ import annotations

import random
import re
from pathlib import Path

from tests.controls import control_kind
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Channel, FakeDiscord, User
from tests.e2e.skat_helpers import open_table, public_texts, start_skatbot
from tests.e2e.skat_leaks import FACE, assert_no_public_leaks
from tests.e2e.skat_players import button_move, latest_hand, play_out


async def open_against_ais(fake: FakeDiscord, user: User, club: Club, deals: int) -> tuple[str, Channel]:
    """`user` opens a table, seats two AIs with the lobby buttons and starts; returns the /skat new reply
    and the table's channel (its thread)."""
    reply, channel = await open_table(fake, user, club.channel, deals=deals)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    for _ in range(2):
        await (await fake.click(user, lobby, next(
            c["custom_id"] for c in lobby.buttons() if control_kind(c) == "addai"))).wait_acked()
    await fake.wait_for(lambda: "AI 2" in lobby.content, 30, "two AIs seated")
    start = next(c["custom_id"] for c in lobby.buttons() if control_kind(c) == "start")
    await (await fake.click(user, lobby, start)).wait_acked()
    return reply, channel


async def test_one_human_against_two_ais_plays_a_deal_by_buttons(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    opened, channel = await open_against_ais(fake, alice, club, deals=1)
    assert "is open" in opened
    rng = random.Random(4)
    await play_out(fake, [alice], lambda: any("Result of deal 1" in text for text in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    await fake.wait_for(lambda: any("The series is over" in text for text in public_texts(fake, channel)),
                        10, "the final ranking")
    board = next(m for m in fake.messages(channel) if m.content.startswith("**Deal 1 of 1**"))
    assert "10. " in board.content or "→" in board.content  # the tricks are shown as they fall

    # The result card: game, value, card points, won or lost, the skat and the running list.
    result = next(m.content for m in fake.messages(channel) if m.content.startswith("**Result of deal 1**"))
    head = result.splitlines()[1]
    found = re.search(r"(\S+(?: \(\w+\))?) (won|lost|overbid with) .*: value (\d+), (\d+) card points, ([+−]\d+|0)", head)
    assert found, head
    declarer, score = found[1], int(found[5].replace("−", "-"))  # scores carry a typeset minus
    assert 0 <= int(found[4]) <= 120
    assert (found[2] == "won") == (score > 0)
    assert re.search(r"^Skat: [♣♠♥♦]\S+ [♣♠♥♦]\S+$", FACE.sub("", result), re.M)  # faces aside
    assert "**Score list** (1 of 1 deal)" in result and f"{declarer} {found[5].lstrip('+')}" in result.split("Totals: ")[1]
    listed = await (await fake.slash(alice, channel, "skat", subcommand="list")).wait_message()
    assert listed.visibility == "ephemeral" and listed.content == result[result.index("**Score list**"):]
    last = latest_hand(fake, alice)
    assert last is not None and not last.buttons()
    assert_no_public_leaks(fake, [alice], database=tmp_path / "skat.sqlite3")
    fake.assert_clean(allow_rejections=False)


async def test_a_german_player_gets_german_texts(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, channel = club.fake, club.channel
    dieter = fake.add_user("dieter", locale="de")
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    opened, channel = await open_against_ais(fake, dieter, club, deals=1)
    assert opened == "Tisch #1 ist eröffnet."
    hand = await fake.wait_for(lambda: latest_hand(fake, dieter), 30, "dieter's cards")
    assert hand.content.startswith("**Deine Karten** · Spiel 1")
    labels = [b.get("label", "") for m in fake.dms(dieter) for b in m.buttons()]
    assert not {"Pass", "Pick up skat"} & set(labels)
    wrong = await (await fake.slash(dieter, channel, "skat", subcommand="bid", options={"value": 19})).wait_message()
    # which refusal depends on how far the AIs have bid: off the ladder, not his turn, or he listens; or an AI's bid
    # was stored after the command was sent, so its sender could not have seen the table (nothing recorded)
    assert wrong.content in ("Nicht erlaubt: 19 ist kein Reizwert (18, 20, 22, 23, 24, 27, …).",
                             "Du bist noch nicht dran: Warte auf die anderen (ich sage dir Bescheid).",
                             "Nicht erlaubt: du hörst: Sag ja oder passe.",
                             "Das galt für einen früheren Moment des Spiels, daher wurde nichts gespeichert: "
                             "Nimm deine neueste Handnachricht."), wrong.content
    rng = random.Random(6)
    await play_out(fake, [dieter], lambda: any("Result of deal 1" in text for text in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    assert any(label in ("Passe", "Skat aufnehmen") or label.endswith(" reizen") for label in
               [b.get("label", "") for m in fake.messages(include_deleted=True) if m.viewer_id == dieter.id
                for v in m.history for row in v.components for b in row.get("components", [])])
    listed = await (await fake.slash(dieter, channel, "skat", subcommand="list")).wait_message()
    assert listed.content.startswith("**Skatliste** (1 von 1 Spiel)")
    assert any(t.startswith("**Result of deal 1**") for t in public_texts(fake, channel)), "public: server language"
    assert_no_public_leaks(fake, [dieter], database=tmp_path / "skat.sqlite3")
    fake.assert_clean(allow_rejections=False)
