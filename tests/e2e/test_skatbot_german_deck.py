"""With the German deck a player types cards as the bot shows them (`Gr-U`), and a wrong card's hint
names the German codes."""

from __future__ import annotations

import random
from pathlib import Path

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message, User
from tests.e2e.server_helpers import run
from tests.e2e.skat_helpers import public_texts, start_skatbot
from tests.e2e.skat_players import button_move, game_controls, kind_of, latest_hand, play_out
from tests.e2e.test_skatbot_play import open_against_ais
from tests.e2e.test_skatbot_server import admin_of


async def test_cards_are_typed_as_the_german_deck_shows_them(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    assert "German" in (await run(fake, admin_of(fake), club.channel, "settings", deck="german")).content
    _, channel = await open_against_ais(fake, alice, club, deals=1)
    rng = random.Random(3)
    typed: list[str] = []

    async def move(user: User, message: Message) -> None:
        cards = [c for c in game_controls(message) if kind_of(c) == "card"]
        if not cards:
            await button_move(fake, user, message, rng, avoid=("pass",))
            return
        label = rng.choice(cards)["label"]  # what the button says, e.g. Gr-U
        if not typed:
            wrong = await run(fake, user, channel, "play", card="Gr-X")
            assert "Ei-U" in wrong.content and "CJ" not in wrong.content, wrong.content
        reply = await run(fake, user, channel, "play", card=label)
        assert "not a card" not in reply.content and reply.visibility == "ephemeral", reply.content  # taken
        typed.append(label)
        await fake.wait_for(lambda: latest_hand(fake, user) is not message or message.content != before
                            or any("Result of deal 1" in t for t in public_texts(fake, channel)), 10, "moved")

    before = ""

    async def tracked(user: User, message: Message) -> None:
        nonlocal before
        before = message.content
        await move(user, message)

    await play_out(fake, [alice], lambda: any("Result of deal 1" in t for t in public_texts(fake, channel)), tracked)
    assert typed and all("-" in label for label in typed), typed
    fake.assert_clean()
