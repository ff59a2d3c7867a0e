"""Strangers, out-of-turn and illegal moves: a friendly ephemeral answer each time, and nothing changes."""

from __future__ import annotations

import asyncio
import functools
import random
import sqlite3
from pathlib import Path
from typing import Any

from skatbot.engine import Card
from skatbot.ui.cards import GERMAN, card_label
from tests.controls import control_arg
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Channel, FakeDiscord, Interaction, Message, User
from tests.e2e.skat_helpers import control_id, open_table, public_texts, start_skatbot
from tests.e2e.skat_leaks import assert_hands_match_database, assert_no_public_leaks
from tests.e2e.skat_players import (
    button_move,
    cards_in,
    game_controls,
    kind_of,
    latest_hand,
    play_out,
    slash_move,
    whose_turn,
)
from tests.e2e.test_skatbot_play import open_against_ais


def log_rows(database: Path) -> int:
    with sqlite3.connect(database) as db:
        return int(db.execute("SELECT COUNT(*) FROM table_log").fetchone()[0])


class Snapshot:
    """The database log and every public message, to prove a refusal changed nothing."""

    def __init__(self, fake: FakeDiscord, channel: Channel, database: Path) -> None:
        self.fake, self.channel, self.database = fake, channel, database
        self.before = self.take()

    def take(self) -> tuple[int, list[tuple[int, int]]]:
        public = [(m.id, len(m.history)) for m in self.fake.messages(self.channel) if m.visibility == "public"]
        return log_rows(self.database), public

    def assert_unchanged(self) -> None:
        assert self.take() == self.before


QUIET = 2.0
"""Seconds without a change after which a table has settled: twice the presenter's pacing of board edits (1 s),
so that an edit still waiting to go out (later still on a loaded machine) is not taken for one a refusal caused."""


async def settled(fake: FakeDiscord, channel: Channel, database: Path) -> Snapshot:
    """A snapshot once the table has stopped moving: log and public messages unchanged for `QUIET` seconds
    (the channel's messages follow the players' DMs on a queue of their own)."""
    for _ in range(20):
        snapshot = Snapshot(fake, channel, database)
        await asyncio.sleep(QUIET)
        if snapshot.take() == snapshot.before:
            return snapshot
    raise AssertionError("the table never settled")


async def refused(fake: FakeDiscord, user: User, channel: Channel, command: str, **options: Any) -> str:
    """Run a slash command that must be refused; returns the ephemeral answer."""
    reply = await (await fake.slash(user, channel, "skat", subcommand=command, options=options)).wait_message()
    assert reply.visibility == "ephemeral" and reply.viewer_id == user.id
    return reply.content


RECORDED = "Your move is recorded."


def clicker_was_told(ix: Interaction) -> list[str]:
    """The ephemeral answers the clicker sees: the reply (also one that replaced a "thinking…") and follow-ups."""
    original = ix.original if ix.callback_type in (4, 5) else None
    shown = [*([original] if original is not None and not original.loading else []), *ix.followups]
    return [m.content for m in shown if m.visibility == "ephemeral"]


def told_both(both: tuple[Interaction, Interaction]) -> list[list[str]] | None:
    """What each of two clickers was told, once every click that gets an answer has it (a deferred update,
    the move shown on the hand message, gets none)."""
    said = [clicker_was_told(ix) for ix in both]
    return said if all(told or ix.callback_type == 6 for told, ix in zip(said, both, strict=True)) else None


async def forged_click(fake: FakeDiscord, user: User, seen: Message, custom_id: str) -> str:
    """A click on a control the user cannot see (someone's DM button), sent as if from a message they can see."""
    data = {"custom_id": custom_id, "component_type": 2}
    ix = await fake._dispatch(3, user, fake.channel(seen.channel_id), data, seen)
    reply = await (ix.wait_message() if await ix.wait_acked() in (4, 5) else ix.wait_followup())
    assert reply.visibility == "ephemeral" and reply.viewer_id == user.id
    return reply.content


async def test_strangers_and_illegal_moves_are_refused(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    carol, dave, eve = fake.add_user("carol"), fake.add_user("dave"), fake.add_user("eve")
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    assert "no table" in await refused(fake, eve, channel, "join")
    _, channel = await open_table(fake, alice, channel, deals=1)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    already = await refused(fake, carol, channel, "new")
    assert "already has a table (#1)" in already

    # A stranger cannot start or fill someone else's table.
    snapshot = await settled(fake, channel, database)
    click = await fake.click(eve, lobby, control_id(lobby, "start"))
    answer = await (click.wait_message() if await click.wait_acked() in (4, 5) else click.wait_followup())
    assert answer.visibility == "ephemeral" and "Only players at this table" in answer.content
    assert "Only players at this table" in await refused(fake, eve, channel, "add-ai")
    snapshot.assert_unchanged()

    await (await fake.slash(carol, channel, "skat", subcommand="join")).wait_message()
    await (await fake.slash(dave, channel, "skat", subcommand="join")).wait_message()
    assert await refused(fake, eve, channel, "join") == "This table is full."
    assert "need" not in await refused(fake, alice, channel, "start")
    players = [alice, carol, dave]
    user, hand = await fake.wait_for(lambda: whose_turn(fake, players), 30, "the first bid")
    other = next(u for u in players if u is not user and latest_hand(fake, u) is not None)

    snapshot = await settled(fake, channel, database)
    assert "not your turn yet" in await refused(fake, other, channel, "bid", value=18)
    assert "not on the bid ladder" in await refused(fake, user, channel, "bid", value=19)
    assert "not sitting at this table" in await refused(fake, eve, channel, "pass")
    assert "not sitting at this table" in await forged_click(fake, eve, lobby, "sk:1:s0:pass")
    assert "earlier moment of the deal" in await forged_click(fake, user, lobby, "sk:1:s2:pass")
    # ids in the shapes drawn before moves carried their action (old messages after a deploy): stale
    assert "earlier moment of the deal" in await forged_click(fake, user, lobby, "sk:1:7:pass:")
    assert "earlier moment of the deal" in await forged_click(fake, user, lobby, "sk:1:s2:pass:")
    assert "not a card" in await refused(fake, user, channel, "play", card="XY")
    assert "the auction is not over" in await refused(fake, user, channel, "discard", first="CJ", second="SJ")
    assert await refused(fake, user, channel, "declare", game="grand") == "Not allowed: the auction is not over."
    # In a direct message the bot finds the one table the player sits at.
    dm = fake.dm_channel(user)
    offered = await fake.autocomplete(user, dm, "skat", subcommand="bid", focused="value")
    assert offered and offered[0]["value"] == 18
    assert "not on the bid ladder" in await refused(fake, user, dm, "bid", value=21)
    snapshot.assert_unchanged()

    # Play on until someone must follow suit and holds a card that does not.
    rng = random.Random(5)

    async def move(mover: User, message: Message) -> None:  # never passing, so the deal is played
        playing = any(kind_of(c) == "card" for c in game_controls(message))
        await (slash_move(fake, mover, channel, message, rng) if playing and rng.random() < 0.5
               else button_move(fake, mover, message, rng, avoid=("pass",)))

    tried_illegal = double_clicked = False
    for _ in range(200):
        found: tuple[User, Message] | str = await fake.wait_for(
            lambda: "done" if any("Result of deal 1" in t for t in public_texts(fake, channel))
            else whose_turn(fake, players), 20, "a turn")
        if isinstance(found, str):  # "done"
            break
        mover, message = found
        if not tried_illegal and any(kind_of(c) == "card" for c in game_controls(message)):
            legal = {control_arg(c) for c in game_controls(message)}
            hand_cards = [control_arg(c) for c in message.buttons() if kind_of(c) == "card"]
            illegal = [c for c in hand_cards if c not in legal]
            if illegal:
                snapshot = await settled(fake, channel, database)
                refusal = await refused(fake, mover, channel, "play", card=illegal[0])
                assert "must follow" in refusal, refusal
                assert "not in your hand" in await refused(fake, mover, channel, "play", card=next(
                    f"{suit}{rank}" for suit in "CSHD" for rank in "JATKQ987" if f"{suit}{rank}" not in hand_cards))
                snapshot.assert_unchanged()
                shown = latest_hand(fake, mover)
                assert shown is not None and cards_in(shown) == cards_in(message)
                tried_illegal = True
        cards = [c for c in game_controls(message) if kind_of(c) == "card"]
        if not double_clicked and len(cards) >= 2:
            # Two clicks at once (a double click, two devices): exactly one card is played.
            before = cards_in(message)
            first, second = await asyncio.gather(fake.click(mover, message, cards[0]["custom_id"]),
                                                 fake.click(mover, message, cards[1]["custom_id"]))
            await first.wait_acked(30)
            await second.wait_acked(30)
            both = (first, second)
            # What each clicker is told: the move acknowledged once it was stored (silently, or after a
            # "thinking…" that a slow store shows, by "Your move is recorded."), the other click refused.
            seen = await fake.wait_for(functools.partial(told_both, both), 30, "the answers to both clicks")
            assert sorted(ix.callback_type == 6 or seen[i] == [RECORDED] for i, ix in enumerate(both)) == \
                [False, True], seen  # exactly one click was recorded
            answers = [a for said in seen for a in said if a != RECORDED]
            assert len(answers) == 1 and "earlier moment of the deal" in answers[0], seen
            def one_card_gone(mover: User = mover, before: list[str] = before) -> Message | None:
                hand = latest_hand(fake, mover)
                return hand if hand is not None and len(cards_in(hand)) == len(before) - 1 else None
            after = await fake.wait_for(one_card_gone, 30, "one card gone")
            assert len(set(before) - set(cards_in(after))) == 1
            double_clicked = True
            continue
        await move(mover, message)
    assert tried_illegal and double_clicked, (tried_illegal, double_clicked)
    await play_out(fake, players, lambda: any("The series is over" in t for t in public_texts(fake, channel)),
                   lambda u, m: move(u, m))
    assert_no_public_leaks(fake, players, database=database)
    assert_hands_match_database(fake, players, database)
    fake.assert_clean(allow_rejections=False)


async def test_new_says_which_permissions_are_missing(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    mute = fake.add_channel(club.guild, "announcements", bot_can_send=False)
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    answer = await refused(fake, alice, mute, "new")
    assert answer == "I am missing permissions in this channel: send_messages."
    assert not [m for m in fake.messages(mute) if m.visibility == "public"]
    opened, where = await open_table(fake, alice, club.channel)
    assert opened == "Table #1 is open." and where is club.channel
    fake.assert_clean(allow_rejections=False)


async def test_a_german_player_is_refused_in_german_with_the_servers_deck(club: Club, start_bot: StartBot,
                                                                        tmp_path: Path) -> None:
    """Table, lobby, Kontra and card refusals reach a German player in German; cards in German suits."""
    fake = club.fake
    dieter, greta = fake.add_user("dieter", locale="de"), fake.add_user("greta", locale="de")
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    admin = fake.world.owner
    await (await fake.slash(admin, club.channel, "skat", subcommand="settings",
                            options={"deck": "german"})).wait_message()
    assert await refused(fake, dieter, fake.dm_channel(dieter), "new") == \
        "Nicht erlaubt: Tische werden in einem Serverkanal eröffnet, nicht in Direktnachrichten."
    _, channel = await open_against_ais(fake, dieter, club, deals=1)
    await fake.wait_for(lambda: latest_hand(fake, dieter), 30, "dieter's cards")
    snapshot = await settled(fake, channel, database)
    assert await refused(fake, greta, channel, "join") == \
        "Nicht erlaubt: das Spiel hat begonnen: Du kannst dich jetzt nicht dazusetzen."
    assert await refused(fake, greta, channel, "pass") == "Du sitzt nicht an diesem Tisch."
    assert await refused(fake, greta, channel, "stop") == \
        "Nicht erlaubt: nur wer den Tisch eröffnet hat oder den Server verwaltet, kann ihn beenden."
    assert await refused(fake, dieter, channel, "kontra") == "Nicht erlaubt: an diesem Tisch wird ohne Kontra gespielt."
    snapshot.assert_unchanged()

    rng = random.Random(8)
    tried: list[str] = []

    async def move(user: User, message: Message) -> None:
        if not tried and any(kind_of(c) == "card" for c in game_controls(message)):
            hand = [control_arg(c) for c in message.buttons() if kind_of(c) == "card"]
            absent = next(iss for iss in ("CJ", "SJ", "HJ", "DJ", "CA", "SA", "HA", "DA") if iss not in hand)
            before = await settled(fake, channel, database)
            answer = await refused(fake, user, fake.dm_channel(user), "play", card=absent)
            assert answer == f"Nicht erlaubt: {card_label(Card.parse(absent), GERMAN, 'de')} hast du nicht auf der Hand."
            legal = {control_arg(c) for c in game_controls(message)}
            illegal = [iss for iss in hand if iss not in legal]
            if illegal:  # following a suit: named the German-suited way, without French symbols
                answer = await refused(fake, user, channel, "play", card=illegal[0])
                assert answer.startswith("Nicht erlaubt: du musst ") and answer.endswith(" bedienen."), answer
                assert not set("♣♠♥♦") & set(answer), answer
            before.assert_unchanged()
            tried.append(answer)
        await button_move(fake, user, message, rng, avoid=("pass",))

    await play_out(fake, [dieter], lambda: any("Result of deal 1" in t for t in public_texts(fake, channel)), move)
    assert tried, "dieter never had a card to play"
    fake.assert_clean(allow_rejections=False)
