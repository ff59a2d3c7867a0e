"""House rules through the bot (Kontra and Re, Ramsch on all-pass with the "pub" preset) and closing a table."""

from __future__ import annotations

import random
from pathlib import Path

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message, User
from tests.e2e.skat_helpers import KONTRA_WINDOW, control_id, open_table, public_texts, start_skatbot
from tests.e2e.skat_leaks import assert_hands_match_database, assert_no_public_leaks
from tests.e2e.skat_players import button_move, kind_of, latest_hand, play_out, slash_move
from tests.e2e.test_skatbot_refusals import refused


def side_button(message: Message | None, kind: str) -> bool:
    return message is not None and any(kind_of(c) == kind and not c.get("disabled") for c in message.buttons())


async def test_kontra_re_and_ramsch_under_the_pub_preset(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    carol, dave = fake.add_user("carol"), fake.add_user("dave")
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"), SKATBOT_KONTRA_WINDOW=KONTRA_WINDOW)
    _, channel = await open_table(fake, alice, club.channel, deals=3, rules="pub")
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    assert "Rules: pub" in lobby.content
    for user in (carol, dave):
        await (await fake.slash(user, channel, "skat", subcommand="join")).wait_message()
    await (await fake.slash(alice, channel, "skat", subcommand="start")).wait_message()
    players = [alice, carol, dave]
    rng = random.Random(21)
    said: list[tuple[str, str]] = []

    async def speak_up() -> None:
        """Before the first card: a defender says Kontra, then the declarer Re (once each per deal)."""
        for kind in ("kontra", "re"):
            for user in players:
                hand = latest_hand(fake, user)
                deal = hand.content.split(" · ")[1] if hand is not None else ""
                if side_button(hand, kind) and (kind, deal) not in said:
                    if kind == "re":
                        others = [u for u in players if u is not user]
                        assert "only the declarer may answer Re" in await refused(fake, others[0], channel, "re")
                    said.append((kind, deal))
                    done = await (await fake.slash(user, channel, "skat", subcommand=kind)).wait_message()
                    assert done.content.startswith(f"You said {'Kontra' if kind == 'kontra' else 'Re'}."), done.content
                    def answered(user: User = user, kind: str = kind) -> bool:
                        return not side_button(latest_hand(fake, user), kind)
                    await fake.wait_for(answered, 30, kind)
                    if kind == "kontra":  # the declarer's Re button follows the Kontra (before the first card)
                        await fake.wait_for(lambda: any(side_button(latest_hand(fake, u), "re") for u in players), 30,
                                            "the declarer's Re button")

    async def move(user: User, message: Message) -> None:
        await speak_up()
        if latest_hand(fake, user) is not message:
            return
        await (slash_move(fake, user, channel, message, rng) if rng.random() < 0.3
               else button_move(fake, user, message, rng))

    await play_out(fake, players, lambda: any("The series is over" in t for t in public_texts(fake, channel)), move)
    texts = public_texts(fake, channel)
    kinds = {kind for kind, _ in said}
    assert "kontra" in kinds, "no defender ever had the chance to say Kontra"
    assert any("Kontra" in t and t.startswith("**Deal") for t in texts)
    if "re" in kinds:
        assert any("Kontra and Re!" in t for t in texts)
    assert any("with Kontra" in t for t in texts if t.startswith("**Result"))
    assert_no_public_leaks(fake, players, min_deals=3, database=tmp_path / "skat.sqlite3")
    assert_hands_match_database(fake, players, tmp_path / "skat.sqlite3")
    fake.assert_clean(allow_rejections=False)


async def test_leaving_the_lobby_and_stopping_a_table(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    carol = fake.add_user("carol")
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    _, channel = await open_table(fake, alice, club.channel, deals=1)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    await (await fake.click(carol, lobby, control_id(lobby, "join"))).wait_acked()
    await fake.wait_for(lambda: "2. carol" in lobby.content, 30, "carol seated")
    await (await fake.click(carol, lobby, control_id(lobby, "leave"))).wait_acked()
    await fake.wait_for(lambda: "2. carol" not in lobby.content, 30, "carol gone")
    assert "only the table's creator" in await refused(fake, carol, channel, "stop")
    assert (await (await fake.slash(alice, channel, "skat", subcommand="stop")).wait_message()).content == "Done."
    await fake.wait_for(lambda: any("The table was closed: its creator or a server manager stopped it." in t for t in public_texts(fake, channel)), 30,
                        "the closing notice")
    await fake.wait_for(lambda: not lobby.buttons(), 30, "the lobby without buttons")
    reopened, _ = await open_table(fake, carol, club.channel, deals=1)
    assert reopened == "Table #2 is open."
    fake.assert_clean(allow_rejections=False)
