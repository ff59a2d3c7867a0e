"""The hidden-card checker itself: it passes honest tables and catches every kind of leak."""

from __future__ import annotations

from pathlib import Path

import pytest

from skatbot.engine import Deal
from skatbot.models import Deck
from tests.e2e.fakediscord import FakeDiscord, MessageVersion, User
from tests.e2e.fakediscord.state import Attachment
from tests.e2e.skat_leaks import assert_no_public_leaks, public_leaks

ALICE_HAND = "♣J ♠J ♥A ♥10 ♥K ♦A ♦10 ♠7 ♠8 ♣9"
HAND = f"**Your hand** · deal 1 · you are Forehand\n{ALICE_HAND}\nYour turn: play a card."
BOARD = ("**Deal 1 of 1** · dealer: bob\nForehand: alice · Middlehand: carol · Rearhand: bob\n"
         "Auction: carol 18 · alice yes\n🎯 alice plays **♥ Hearts** (bid 18)\n")


def world(hand: str = HAND) -> tuple[FakeDiscord, User]:
    fake = FakeDiscord()
    guild = fake.add_guild("g")
    fake.add_channel(guild, "skat")
    alice = fake.add_user("alice")
    fake.world.post_message(fake.dm_channel(alice), MessageVersion(hand, [], [], [], 0))
    return fake, alice


def post_public(fake: FakeDiscord, content: str) -> None:
    channel = next(c for c in fake.world.channels.values() if c.name == "skat")
    fake.world.post_message(channel, MessageVersion(content, [], [], [], 0))


def test_an_honest_board_passes() -> None:
    fake, alice = world()
    post_public(fake, BOARD + "1. alice ♥A · carol ♥7 · bob ♥8 → alice (11)\nOn the table: alice ♣J")
    post_public(fake, "**Result of deal 1**\n✅ alice won\nSkat: ♦7 ♦8")
    assert_no_public_leaks(fake, [alice])


@pytest.mark.parametrize("content, why", [
    ("The game starts! alice holds ♣J", "hidden cards"),
    (BOARD + "1. alice ♦9 · carol ♥7 · bob ♥8 → alice (11)", "never held"),
    (BOARD + "1. carol ♥A · alice ♥7 · bob ♥8 → carol (11)", "shown as played by carol"),
    (BOARD + "Open hand of carol: ♣A ♣K", "not the declarer"),
    (BOARD + "1. alice ♥A · carol ♥7 · bob ♥8 → alice (11)\n2. alice ♥A · carol ♥9 · bob ♥Q → alice (14)",
     "played twice"),
    ("**Deal 1 of 1** · dealer: bob\nSkat: ♦7 ♦8", "hidden cards"),
])
def test_each_kind_of_leak_is_caught(content: str, why: str) -> None:
    fake, alice = world()
    post_public(fake, content)
    problems = public_leaks(fake, [alice])
    assert problems and why in problems[0], problems


def test_an_edited_version_is_checked_too() -> None:
    fake, alice = world()
    post_public(fake, BOARD)
    message = fake.messages()[-1]
    fake.world.edit_message(message, {"content": BOARD + "alice still has ♠7"}, [])
    fake.world.edit_message(message, {"content": BOARD}, [])
    assert any("hidden cards" in p for p in public_leaks(fake, [alice]))


def test_the_check_refuses_to_pass_when_it_saw_no_hand() -> None:
    fake = FakeDiscord()
    fake.add_guild("g")
    with pytest.raises(AssertionError, match="hands of only 0 deals"):
        assert_no_public_leaks(fake, [fake.add_user("nobody")])


SEED = 1
DEALT = Deal.new(SEED)  # alice forehand, carol middlehand, bob rearhand
ALICE, CAROL, BOB = ([card.display for card in hand] for hand in DEALT.dealt_hands)
SEEDED_HAND = f"**Your hand** · deal 1 · you are Forehand\n{' '.join(ALICE)}\nYour turn: play a card."


def stored_deal(tmp_path: Path) -> Path:
    """A table log with one deal, as the tables layer stores it: dealt from seed 1."""
    import sqlite3

    database = tmp_path / "log.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE table_log (table_id, seq, entry, at)")
        db.execute("INSERT INTO table_log VALUES (1, 0, ?, 0)", (f"deal 0 {SEED}",))
    return database


def test_played_cards_are_checked_against_the_stored_deal(tmp_path: Path) -> None:
    database = stored_deal(tmp_path)
    fake, alice = world(SEEDED_HAND)
    post_public(fake, BOARD + f"On the table: alice {ALICE[0]} · carol {CAROL[0]}")
    assert public_leaks(fake, [alice], database=database) == []
    post_public(fake, BOARD + f"On the table: alice {ALICE[0]} · carol {BOB[2]}")
    problems = public_leaks(fake, [alice], database=database)
    assert len(problems) == 1 and "who was not dealt it" in problems[0]


def test_a_hand_message_must_show_the_dealt_hand(tmp_path: Path) -> None:
    from tests.e2e.skat_leaks import assert_hands_match_database

    database = stored_deal(tmp_path)
    fake, alice = world(SEEDED_HAND)
    assert assert_hands_match_database(fake, [alice], database) == 1
    wrong = SEEDED_HAND.replace(ALICE[-1], BOB[2])
    fake.world.post_message(fake.dm_channel(alice), MessageVersion(wrong, [], [], [], 0))
    with pytest.raises(AssertionError):
        assert_hands_match_database(fake, [alice], database)


def _picture(filename: str, cards: str) -> Attachment:
    from skatbot.engine import parse_cards
    from skatbot.pictures.hand import hand_picture

    png = hand_picture(parse_cards(cards), Deck.FRENCH).png
    return Attachment(0, filename, png, "image/png", "http://x/" + filename)


def post_picture(fake: FakeDiscord, content: str, attachment: Attachment) -> None:
    channel = next(c for c in fake.world.channels.values() if c.name == "skat")
    fake.world.post_message(channel, MessageVersion(content, [], [], [attachment], 0))


def test_pictures_of_public_cards_under_the_result_pass() -> None:
    fake, alice = world()
    post_public(fake, BOARD + "1. alice ♥A · carol ♥7 · bob ♥8 → alice (11)")
    post_picture(fake, "**Result of deal 1**\n✅ alice won\nSkat: ♦7 ♦8", _picture("tricks.png", "♥A ♥7 ♥8 ♦7 ♦8"))
    assert_no_public_leaks(fake, [alice])


@pytest.mark.parametrize("content, cards, why", [
    ("**Result of deal 1**\n✅ alice won\nSkat: ♦7 ♦8", "♥A ♥7 ♠7", "never shown in deal 1"),  # ♠7 still in hand
    (BOARD, "♣J", "outside a result"),  # a hand picture on the board
    ("Look at my cards", ALICE_HAND, "outside a result"),
])
def test_a_picture_showing_a_hidden_card_is_caught(content: str, cards: str, why: str) -> None:
    fake, alice = world()
    post_public(fake, BOARD + "1. alice ♥A · carol ♥7 · bob ♥8 → alice (11)")
    post_picture(fake, content, _picture("cards.png", cards))
    problems = public_leaks(fake, [alice])
    assert problems and why in problems[-1], problems


def test_a_picture_that_does_not_say_its_cards_is_caught() -> None:
    fake, alice = world()
    import io

    from PIL import Image

    photo = io.BytesIO()
    Image.new("RGB", (4, 4)).save(photo, format="PNG")
    post_picture(fake, "a photo", Attachment(0, "photo.png", photo.getvalue(), "image/png", "http://x/p"))
    assert any("does not say" in p for p in public_leaks(fake, [alice]))
