"""The daily challenge end to end: two players on two servers play the same day's deals (the same cards, the
same seat) with different cards played, and each sees their score, the par and the field; the board of a server
names its own players only and hides today's results from those who have not played; a restart (SIGKILL) in the
middle of an attempt resumes it from the stored log (the same DM message's buttons go on working)."""

from __future__ import annotations

import dataclasses
import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import FakeDiscord, Message, User
from tests.e2e.skat_helpers import start_skatbot
from tests.e2e.skat_players import cards_in, dump, game_controls, is_hand_message, kind_of, pick_contract

WAIT = 240.0
"""Seconds a press may take on a loaded machine: the two strong opponents' answers and, at a deal's end, its par."""


def challenge_messages(fake: FakeDiscord, user: User) -> list[Message]:
    """The user's challenge messages: in their DMs, or shown only to them where their DMs are closed."""
    return [m for m in fake.messages(visible_to=user) if m.visibility in ("dm", "ephemeral")
            and m.viewer_id == user.id and "Daily challenge" in m.content]


def hand(fake: FakeDiscord, user: User) -> Message | None:
    """The user's newest challenge message, while it asks for a move."""
    shown = challenge_messages(fake, user)
    return shown[-1] if shown and is_hand_message(shown[-1]) and game_controls(shown[-1]) else None


def summary(fake: FakeDiscord, user: User) -> Message | None:
    done = [m for m in challenge_messages(fake, user) if "**: done" in m.content]
    return done[-1] if done else None


def moment(message: Message) -> set[str]:
    return {str(c["custom_id"]).split(":")[2] for c in game_controls(message)}


async def seeded_move(fake: FakeDiscord, user: User, message: Message, rng: random.Random) -> dict[str, Any]:
    """One seeded move on the challenge message (mostly not passing, so games are played), acknowledged; the
    control it used."""
    controls = game_controls(message)
    control = rng.choice([c for c in controls if kind_of(c) != "pass"] or controls)
    if control["type"] == 3:
        options = [o["value"] for o in control["options"]]
        values = [pick_contract(options, rng)] if kind_of(control) == "declare" else \
            rng.sample(options, control.get("min_values", 1))
        ix = await fake.select(user, message, control["custom_id"], values)
    else:
        ix = await fake.click(user, message, control["custom_id"])
    await ix.wait_acked()
    return control


async def press(fake: FakeDiscord, user: User, message: Message, rng: random.Random) -> None:
    """A seeded move (`seeded_move`), and wait until the message moved on to the next moment (or to the
    summary)."""
    before = moment(message)
    versions = len(message.history)
    control = await seeded_move(fake, user, message, rng)

    def moved() -> bool:
        then = dataclasses.replace(message, history=message.history[:versions])
        return len(message.history) > versions and moment(message) != before and moment(then) == before
    try:
        await fake.wait_for(moved, WAIT, f"{user.name}'s challenge to move on")
    except TimeoutError:
        raise AssertionError(f"{user.name}'s challenge did not move on after {kind_of(control)}:\n{dump(fake)}") from None


async def play(fake: FakeDiscord, user: User, rng: random.Random, moves: int | None = None) -> int:
    """Play the user's challenge (at most `moves` presses); returns the presses made."""
    made = 0
    while moves is None or made < moves:
        found = await fake.wait_for(lambda: hand(fake, user) or summary(fake, user), WAIT,
                                    f"{user.name}'s turn or summary")
        if found is summary(fake, user) and hand(fake, user) is None:
            break
        await press(fake, user, found, rng)
        made += 1
    return made


def logs(database: Path) -> dict[int, list[str]]:
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT player_id, entry FROM challenge_moves ORDER BY player_id, seq").fetchall()
    out: dict[int, list[str]] = {}
    for player, entry in rows:
        out.setdefault(int(player), []).append(str(entry))
    return out


async def test_two_servers_play_the_same_challenge_and_a_restart_resumes_it(fake: FakeDiscord, start_bot: StartBot,
                                                                          tmp_path: Path) -> None:
    alice, carol = fake.add_user("alice", guilds=[]), fake.add_user("carol", guilds=[])
    one, two = fake.add_guild("Skat One", owner=alice), fake.add_guild("Skat Two", owner=carol)
    here, there = fake.add_channel(one, "skat"), fake.add_channel(two, "skat")
    bob = fake.add_user("bob", guilds=[one])
    database = tmp_path / "skat.sqlite3"
    bot = await start_skatbot(fake, start_bot, str(database))
    await fake.wait_for_commands("challenge")

    refused = await (await fake.slash(bob, here, "challenge", options={"deals": 3})).wait_message()
    assert "Only members who may manage the server" in refused.content
    for owner, channel in ((alice, here), (carol, there)):
        set_ = await (await fake.slash(owner, channel, "challenge", options={"deals": 3})).wait_message()
        assert "now has 3 deals" in set_.content, set_.content

    started = await (await fake.slash(alice, here, "challenge")).wait_message(WAIT)
    assert "Your daily challenge is in your DMs: deal 1 of 3" in started.content, started.content
    await (await fake.slash(carol, there, "challenge")).wait_message(WAIT)
    first_alice = await fake.wait_for(lambda: hand(fake, alice), WAIT, "alice's first hand")
    first_carol = await fake.wait_for(lambda: hand(fake, carol), WAIT, "carol's first hand")
    # the same cards in the same seat on both servers
    assert cards_in(first_alice) == cards_in(first_carol) and len(cards_in(first_alice)) == 10
    assert first_alice.content.split("\n")[0] == first_carol.content.split("\n")[0]

    # alice plays hers out; carol plays a few moves, the bot restarts, and she goes on on the same message
    await play(fake, alice, random.Random(1))
    made = await play(fake, carol, random.Random(2), moves=4)
    assert made == 4 and hand(fake, carol) is not None
    stored_before = logs(database)[carol.id]
    await bot.kill()  # SIGKILL: no clean shutdown
    await bot.start()
    await bot.wait_connected(commands=("skat", "challenge"))
    assert await play(fake, carol, random.Random(4), moves=1) == 1  # the same message, pressed after the restart
    assert len(logs(database)[carol.id]) > len(stored_before)
    resumed = await (await fake.slash(carol, there, "challenge")).wait_message(WAIT)
    assert "Your daily challenge goes on in your DMs" in resumed.content, resumed.content
    assert logs(database)[carol.id][:len(stored_before)] == stored_before
    await play(fake, carol, random.Random(3))

    played = logs(database)
    assert played[alice.id] != played[carol.id]  # different cards played on the same deals
    mine, theirs = summary(fake, alice), summary(fake, carol)
    assert mine is not None and theirs is not None, dump(fake)
    for shown in (mine.content, theirs.content):
        lines = [line for line in shown.splitlines() if line.startswith("Deal ")]
        assert len(lines) == 3 and all(" · you " in line and " · par " in line and " · field " in line
                                       for line in lines), shown
        assert "Your total " in shown and "against the par" in shown
        assert "On this server: place 1 of 1 player" in shown
    assert "\n1. alice: " in mine.content and "carol" not in mine.content
    assert "\n1. carol: " in theirs.content and "alice" not in theirs.content  # no names from other servers
    assert "Among everyone the bot served today on 3 deals (1 player)" in mine.content
    assert "Among everyone the bot served today on 3 deals (2 players)" in theirs.content

    again = await (await fake.slash(alice, here, "challenge")).wait_message()
    assert "You have played today's challenge already" in again.content
    board = await (await fake.slash(alice, here, "skat", group="scores", subcommand="challenge")).wait_message()
    assert "1. alice" in board.content and "carol" not in board.content and board.visibility == "ephemeral"
    hidden = await (await fake.slash(bob, here, "skat", group="scores", subcommand="challenge")).wait_message()
    assert "stay hidden" in hidden.content and "alice" not in hidden.content
    public = [m.content for m in fake.messages(here) if m.visibility == "public"]
    assert not [text for text in public if "alice" in text or "Deal " in text], public


async def test_a_player_whose_dms_are_closed_plays_the_challenge_where_only_they_see_it(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, bob = club.fake, club.bob
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    await fake.wait_for_commands("challenge")
    await (await fake.slash(bob, club.channel, "challenge")).wait_message(WAIT)
    first = await fake.wait_for(lambda: hand(fake, bob), WAIT, "bob's hand, shown only to him")
    assert first.visibility == "ephemeral" and first.viewer_id == bob.id and len(cards_in(first)) == 10
    assert any("Your DMs are closed, so you play your daily challenge here" in m.content
               for m in fake.messages(visible_to=bob) if m.visibility == "ephemeral")
    assert await play(fake, bob, random.Random(5), moves=3) == 3
    assert not fake.dms(bob)
    assert not [m for m in fake.messages(club.channel) if m.visibility == "public" and "Daily challenge" in m.content]


async def test_a_whole_challenge_on_postgresql(fake: FakeDiscord, start_bot: StartBot, schema_url: str) -> None:
    """The same flow with the database on PostgreSQL (SKATBOT_DATABASE_URL): the server's setting, the attempt,
    its results, the pars and the summary are kept there."""
    alice = fake.add_user("alice", guilds=[])
    channel = fake.add_channel(fake.add_guild("Skat One", owner=alice), "skat")
    await start_skatbot(fake, start_bot, "unused.sqlite3", SKATBOT_DATABASE_URL=schema_url)
    await fake.wait_for_commands("challenge")
    chosen = await (await fake.slash(alice, channel, "challenge", options={"deals": 3})).wait_message()
    assert "now has 3 deals" in chosen.content, chosen.content
    started = await (await fake.slash(alice, channel, "challenge")).wait_message(WAIT)
    assert "deal 1 of 3" in started.content, started.content
    await play(fake, alice, random.Random(7))
    done = summary(fake, alice)
    assert done is not None and len([line for line in done.content.splitlines() if line.startswith("Deal ")]) == 3
    assert "\n1. alice: " in done.content and "(1 player)" in done.content
    replays = [str(c["custom_id"]) for c in done.walk_components() if c.get("type") == 2]
    assert replays == [f"rpd:{datetime.now(UTC):%Y%m%d}:{n}" for n in range(3)]  # 🎞 each deal beside the par line
