"""A player at a running tournament table sits at no other table, through the real bot process: the Join button
of an ordinary table's lobby, /skat join and /skat new are refused with a private message naming the tournament,
and nothing changes (no seat, no table, no message); a lobby they sat in before the tournament began does not
start while their table plays (its Start says who and why); once their table has finished its series, they may
join again and that table starts. Ordinary players keep what they had."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Channel, FakeDiscord, Message, User
from tests.e2e.skat_helpers import control_id, open_table, start_skatbot
from tests.e2e.skat_players import button_move, play_out

REFUSED = ("You are playing in the tournament Friday Skat at table 1 (series 1). Once your table has finished its "
           "series, you can join or open another table.")
NOT_STARTED = ("kai is playing in the tournament Friday Skat at table 1 (series 1). This table can start once they "
               "have left it or their tournament table has finished its series.")


async def tournament(fake: FakeDiscord, user: User, channel: Channel, subcommand: str, **options: Any) -> Message:
    ix = await fake.slash(user, channel, "tournament", subcommand=subcommand, options=options)
    return await ix.wait_message(60)


def state_of(database: Path, table_id: int) -> str:
    with sqlite3.connect(database) as db:
        return str(db.execute("SELECT state FROM tables WHERE table_id = ?", (table_id,)).fetchone()[0])


def stored(database: Path) -> tuple[int, int]:
    """(tables, log entries) as stored."""
    with sqlite3.connect(database) as db:
        return (int(db.execute("SELECT COUNT(*) FROM tables").fetchone()[0]),
                int(db.execute("SELECT COUNT(*) FROM table_log").fetchone()[0]))


async def test_a_tournament_player_cannot_join_or_open_another_table_until_their_table_finished(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, channel, owner = club.fake, club.channel, club.fake.world.owner
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    side, empty = fake.add_channel(club.guild, "side"), fake.add_channel(club.guild, "empty")
    xaver = fake.add_user("xaver")
    people = [fake.add_user(name) for name in ("ida", "jan", "kai")]
    ida, jan, kai = people
    opened, _ = await open_table(fake, xaver, side, seats=4)  # an ordinary table's lobby, in #side
    assert opened == "Table #1 is open.", opened
    lobby = await fake.wait_for_message(side, lambda m: "Skat table" in m.content)
    early = await (await fake.slash(kai, side, "skat", subcommand="join")).wait_message(30)  # before the start
    assert early.content == "You sit at table #1.", early.content

    created = await tournament(fake, owner, channel, "new", name="Friday Skat", series=2, deals=3)
    assert created.content.startswith("Tournament #1 (Friday Skat) is open for sign-up"), created.content
    for user in people:
        assert "You are signed up" in (await tournament(fake, user, channel, "join")).content
    started = await tournament(fake, owner, channel, "start")
    assert started.content.startswith("Started: 1 table"), started.content
    await fake.wait_for_message(channel, lambda m: m.content.startswith("🎲 **Series 1"), timeout=60)
    await fake.wait_for(lambda: stored(database)[0] == 2, 30, "the tournament's table stored")

    before, shown = stored(database), lobby.content
    pressed = await (await fake.click(ida, lobby, control_id(lobby, "join"))).wait_message(30)
    assert pressed.visibility == "ephemeral" and pressed.content == REFUSED, pressed.content
    typed = await (await fake.slash(jan, side, "skat", subcommand="join")).wait_message(30)
    assert typed.visibility == "ephemeral" and typed.content == REFUSED, typed.content
    new = await (await fake.slash(kai, empty, "skat", subcommand="new")).wait_message(30)
    assert new.visibility == "ephemeral" and new.content == REFUSED, new.content
    assert stored(database)[0] == before[0]  # no table opened; and no seat taken at the lobby
    assert lobby.content == shown and "ida" not in lobby.content and "jan" not in lobby.content
    assert "kai" in lobby.content
    assert not [m for m in fake.messages(empty) if m.visibility == "public"] and not fake.threads(empty)
    # Ordinary players as before: anyone else joins, and a player may sit at two ordinary tables.
    bert = fake.add_user("bert")
    assert (await (await fake.slash(bert, side, "skat", subcommand="join")).wait_message(30)).content == \
        "You sit at table #1."
    assert (await open_table(fake, bert, empty))[0] == "Table #3 is open."
    await fake.wait_for(lambda: "bert" in lobby.content, 30, "bert in the lobby")
    blocked = await (await fake.click(xaver, lobby, control_id(lobby, "start"))).wait_message(30)
    assert blocked.visibility == "ephemeral" and blocked.content == NOT_STARTED, blocked.content
    assert state_of(database, 1) == "open"

    rng = random.Random(7)

    async def move(user: User, message: Message) -> None:
        await button_move(fake, user, message, rng, avoid=("pass",) if rng.random() < 0.6 else ())

    def series_over() -> bool:
        return any(m.content.startswith("✅ Series 1 of Friday Skat is over") for m in fake.messages(channel))

    await play_out(fake, people, series_over, move, limit=2000)
    # Their table has finished its series (the next one not drawn yet): they may sit elsewhere again.
    back = await (await fake.slash(jan, side, "skat", subcommand="join")).wait_message(30)
    assert back.content == "You sit at table #1.", back.content
    await fake.wait_for(lambda: "jan" in lobby.content, 30, "jan in the lobby")
    await (await fake.click(xaver, lobby, control_id(lobby, "start"))).wait_acked(30)
    await fake.wait_for(lambda: state_of(database, 1) == "playing", 30, "the ordinary table started")
    fake.assert_clean()
