"""A table of four: the dealer sits out each deal, and their commands and buttons say so clearly."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message, User
from tests.e2e.skat_helpers import control_id, open_table, public_texts, start_skatbot
from tests.e2e.skat_leaks import assert_hands_match_database, assert_no_public_leaks
from tests.e2e.skat_players import button_move, latest_hand, play_out, whose_turn
from tests.e2e.test_skatbot_refusals import forged_click, refused


def dealer_of(board: str, players: list[User]) -> User:
    """The player the board names as the dealer sitting out."""
    sitting = [user for user in players if f"{user.name} deals and sits out." in board]
    assert len(sitting) == 1, board
    return sitting[0]


async def test_four_players_the_dealer_sits_out(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    carol, dave, frank = fake.add_user("carol"), fake.add_user("dave"), fake.add_user("frank")
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    _, channel = await open_table(fake, alice, channel, seats=4, deals=2)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    assert "4 seats" in lobby.content
    for user in (carol, dave, frank):
        await (await fake.click(user, lobby, control_id(lobby, "join"))).wait_acked()
    await fake.wait_for(lambda: "4. frank" in lobby.content, 30, "four seated")
    await (await fake.click(carol, lobby, control_id(lobby, "start"))).wait_acked()
    players = [alice, carol, dave, frank]
    rng = random.Random(2)

    # Deal 1: the dealer drawn at the start deals and sits out.
    board = await fake.wait_for_message(channel, lambda m: m.content.startswith("**Deal 1 of 2**"))
    first = dealer_of(board.content, players)
    await fake.wait_for(lambda: whose_turn(fake, players), 30, "the first turn")
    assert latest_hand(fake, first) is None, "the dealer gets no cards"
    assert "sit out this deal:" in await refused(fake, first, channel, "bid", value=18)
    assert "sit out this deal:" in await refused(fake, first, channel, "hand")
    assert await fake.autocomplete(first, channel, "skat", subcommand="play", focused="card") == []
    assert "sit out this deal:" in await forged_click(fake, first, lobby, "sk:1:s0:pass")

    def deal_over(number: int) -> Callable[[], bool]:
        return lambda: any(f"Result of deal {number}" in t for t in public_texts(fake, channel))

    async def move(user: User, message: Message) -> None:
        await button_move(fake, user, message, rng, avoid=("pass",) if rng.random() < 0.5 else ())

    await play_out(fake, players, deal_over(1), move)
    # Deal 2: the next player round the table deals; their buttons from deal 1 are gone or stale, and they
    # are told they sit out.
    board2 = await fake.wait_for_message(channel, lambda m: m.content.startswith("**Deal 2 of 2**"))
    second = dealer_of(board2.content, players)
    assert second is players[(players.index(first) + 1) % 4]
    old = latest_hand(fake, second)
    assert old is not None and old.content.startswith("**Your hand** · deal 1") and not old.buttons()
    playing = next(player for player in players if player is not second)
    assert "earlier moment of the deal" in await forged_click(fake, playing, lobby, "sk:1:0:pass:")
    assert "earlier moment of the deal" in await forged_click(fake, playing, lobby, "sk:1:s3:pass:")
    assert "sit out this deal:" in await forged_click(fake, second, lobby, "sk:1:s3:pass")
    assert "sit out this deal:" in await refused(fake, second, channel, "pass")
    await play_out(fake, players, lambda: any("The series is over" in t for t in public_texts(fake, channel)), move)
    listed = await (await fake.slash(frank, channel, "skat", subcommand="list")).wait_message()
    assert "(2 of 2 deals)" in listed.content and all(n in listed.content for n in ("alice", "carol", "dave", "frank"))
    assert_no_public_leaks(fake, players, min_deals=2, database=tmp_path / "skat.sqlite3")
    assert_hands_match_database(fake, players, tmp_path / "skat.sqlite3")
    fake.assert_clean(allow_rejections=False)
