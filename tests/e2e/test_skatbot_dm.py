"""What a player's direct message shows: the auction (who bid what, whom they answer), the last trick
(cards, who took it, points), at the end the result with its value explained; and that a hand message
stops asking for moves once the deal ends, the table is stopped or the player leaves."""

from __future__ import annotations

import random
from pathlib import Path

from tests.controls import control_kind
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import FakeDiscord, Message, User
from tests.e2e.skat_helpers import open_table, public_texts, start_skatbot
from tests.e2e.skat_players import button_move, latest_hand, play_out, whose_turn
from tests.e2e.test_skatbot_play import open_against_ais

ASKING = ("Your turn", "Waiting for")


def versions(fake: FakeDiscord, user: User) -> list[str]:
    """Every version of every hand message the user was sent."""
    return [v.content for m in fake.messages(fake.dm_channel(user), include_deleted=True) for v in m.history
            if v.content.startswith("**Your hand**")]


def lobby_control(lobby: Message, kind: str) -> str:
    return next(str(c["custom_id"]) for c in lobby.buttons() if control_kind(c) == kind)


async def test_the_dm_shows_the_auction_the_last_trick_and_the_result(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    _, channel = await open_against_ais(fake, alice, club, deals=1)
    rng = random.Random(8)
    await play_out(fake, [alice], lambda: any("Result of deal 1" in t for t in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    seen = versions(fake, alice)
    auction = [v for v in seen if "\nAuction: " in v]
    assert auction, seen[:4]
    assert any(("bids" in v and "to you. Hold (yes) or pass." in v) or "Your turn: bid to " in v
               or "Your turn: both others passed. Play at 18, or pass." in v for v in auction), auction
    assert not any("current bid" in v for v in seen)
    tricks = [line for v in seen for line in v.splitlines() if line.startswith("Last trick (")]
    assert tricks and all(" → " in line and line.endswith(" points)") for line in tricks), tricks
    def with_result() -> Message | None:
        hand = latest_hand(fake, alice)
        return hand if hand is not None and not hand.buttons() and "🧮" in hand.content else None
    final = await fake.wait_for(with_result, 30, "the result in the DM")
    result = next(t for t in public_texts(fake, channel) if t.startswith("**Result of deal 1**"))
    assert result.splitlines()[1] in final.content and result.splitlines()[2] in final.content
    assert not any(word in final.content for word in ASKING), final.content
    fake.assert_clean(allow_rejections=False)


async def test_leave_is_announced_and_ends_the_leavers_hand_message(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    carol = fake.add_user("carol")
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    _, channel = await open_table(fake, alice, club.channel, deals=3)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    await (await fake.click(carol, lobby, lobby_control(lobby, "join"))).wait_acked()
    await fake.wait_for(lambda: "carol" in lobby.content, 30, "carol seated")
    await (await fake.click(alice, lobby, lobby_control(lobby, "addai"))).wait_acked()
    await fake.wait_for(lambda: "AI 1" in lobby.content, 30, "the AI seated")
    await (await fake.click(alice, lobby, lobby_control(lobby, "start"))).wait_acked()
    hand = await fake.wait_for(lambda: latest_hand(fake, carol), 30, "carol's hand")
    left = await (await fake.slash(carol, channel, "skat", subcommand="leave")).wait_message()
    assert "You left table #1" in left.content
    await fake.wait_for(lambda: any("carol left the table" in t for t in public_texts(fake, channel)), 30,
                        "the table announces it")
    await fake.wait_for(lambda: "The computer plays for you now" in (latest_hand(fake, carol) or hand).content, 30,
                        "the hand says so")
    now = latest_hand(fake, carol)
    assert now is not None and not [c for c in now.walk_components() if c.get("type") in (2, 3)]
    assert not any(word in now.content for word in ASKING), now.content
    fake.assert_clean(allow_rejections=False)


async def test_a_stopped_table_closes_the_hand_message(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    _, channel = await open_against_ais(fake, alice, club, deals=3)
    await fake.wait_for(lambda: whose_turn(fake, [alice]) or None, 30, "alice's turn")
    stopped = await (await fake.slash(alice, channel, "skat", subcommand="stop")).wait_message()
    assert stopped.visibility == "ephemeral"
    await fake.wait_for(lambda: any("closed: its creator or a server manager stopped it" in t
                                    for t in public_texts(fake, channel)), 10, "the closing notice")
    hand = latest_hand(fake, alice)
    assert hand is not None
    await fake.wait_for(lambda: "this deal ends here" in hand.content and not hand.buttons(), 30,
                        "the hand message closed")
    assert not any(word in hand.content for word in ASKING), hand.content
    fake.assert_clean(allow_rejections=False)
