"""Stale controls of every kind: a button or menu drawn for an earlier moment is refused, nothing recorded.

Each player to act first asks for their hand with /skat hand (an ephemeral copy, as a player whose DMs
are closed, or one who asked twice, has), then moves from their DM. Every control on the ephemeral copy
now stands for a moment that has passed: pressing it must say so and change nothing. Once every kind
was tried, the same holds for the lobby after the start, and for any control after the series.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import FakeDiscord, Message, User
from tests.e2e.skat_helpers import (
    KONTRA_WINDOW,
    control_id,
    hand_message,
    open_table,
    public_texts,
    start_skatbot,
)
from tests.e2e.skat_players import button_move, game_controls, kind_of
from tests.e2e.test_skatbot_refusals import forged_click, log_rows

STALE = "earlier moment of the deal"
GAME_KINDS = {"bid", "hold", "pass", "pickup", "discard", "declare", "card"}


def drawn_at(control: dict[str, Any]) -> int:
    return int(str(control["custom_id"]).split(":")[2].removeprefix("s"))


def turn_in_dms(fake: FakeDiscord, users: list[User], database: Path) -> tuple[User, Message] | None:
    """Whose DM hand has controls drawn for now (the table's sequence number: its stored log entries)."""
    now = log_rows(database)
    for user in users:
        message = hand_message(fake, user)
        if message is not None and any(drawn_at(c) == now for c in game_controls(message)):
            return user, message
    return None


async def press(fake: FakeDiscord, user: User, message: Message, control: dict[str, Any]) -> str:
    """Press a control on `message` (a menu with its first allowed choice); returns the ephemeral answer."""
    if control["type"] == 3:
        values = [o["value"] for o in control["options"]][:control.get("min_values", 1)]
        ix = await fake.select(user, message, control["custom_id"], values)
    else:
        ix = await fake.click(user, message, control["custom_id"])
    reply = await (ix.wait_message() if await ix.wait_acked() in (4, 5) else ix.wait_followup())
    assert reply.visibility == "ephemeral" and reply.viewer_id == user.id, reply
    return reply.content


async def test_every_kind_of_stale_control_is_refused_and_changes_nothing(club: Club, start_bot: StartBot,
                                                                          tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    carol, dave = fake.add_user("carol"), fake.add_user("dave")
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database), SKATBOT_KONTRA_WINDOW=KONTRA_WINDOW)
    _, channel = await open_table(fake, alice, channel, deals=3, rules="pub")
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    for user in (carol, dave):
        await (await fake.click(user, lobby, control_id(lobby, "join"))).wait_acked()
    await fake.wait_for(lambda: "3. dave" in lobby.content, 30, "three seated")
    leave = control_id(lobby, "leave")
    await (await fake.click(alice, lobby, control_id(lobby, "start"))).wait_acked()

    # The lobby's Leave, pressed after the start, does not make carol leave the running game.
    rows = log_rows(database)
    assert "already started" in await forged_click(fake, carol, lobby, leave)
    assert log_rows(database) == rows

    players = [alice, carol, dave]
    rng = random.Random(5)
    tried: dict[str, int] = {}
    last_stale: tuple[User, Message, dict[str, Any]] | None = None

    def series_over() -> bool:
        return any("The series is over" in text for text in public_texts(fake, channel))

    for _ in range(400):
        found: tuple[User, Message] | str = await fake.wait_for(
            lambda: "done" if series_over() else turn_in_dms(fake, players, database), 30, "a turn or the end")
        if isinstance(found, str):  # "done"
            break
        user, dm = found
        copy = await (await fake.slash(user, channel, "skat", subcommand="hand")).wait_message()
        assert copy.visibility == "ephemeral" and copy.buttons() or copy.walk_components()
        controls = [c for c in copy.walk_components() if c.get("type") in (2, 3) and not c.get("disabled")]
        before, versions = log_rows(database), len(dm.history)
        avoid = ("pass",) if tried.get("pass") else ()
        await button_move(fake, user, dm, rng, avoid=("claim", "concede", *avoid))
        def stored(before: int = before) -> bool:
            return log_rows(database) > before

        def moved_on(dm: Message = dm, versions: int = versions) -> bool:
            return dm.deleted or len(dm.history) > versions
        await fake.wait_for(stored, 30, "the move stored")
        await fake.wait_for(moved_on, 30, "the DM hand moved on")
        for control in controls:
            kind = kind_of(control)
            if tried.get(kind, 0) >= 2 or series_over():
                continue
            rows = log_rows(database)
            answer = await press(fake, user, copy, control)
            assert STALE in answer, (kind, answer)
            assert log_rows(database) == rows, kind
            tried[kind] = tried.get(kind, 0) + 1
            last_stale = (user, copy, control)
    else:
        raise AssertionError("the series did not end")
    assert set(tried) >= GAME_KINDS, tried  # every kind of game control was tried
    assert {"kontra", "concede"} & set(tried), tried  # and the side controls ("pub" rules allow Kontra)

    # After the series, any control of this table says the series is over.
    assert last_stale is not None
    user, copy, control = last_stale
    rows = log_rows(database)
    assert "series is over" in await press(fake, user, copy, control)
    assert "series is over" in await forged_click(fake, alice, lobby, "sk:1:s0:show:")
    assert log_rows(database) == rows
    fake.assert_clean()
