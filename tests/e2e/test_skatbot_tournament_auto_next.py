"""A tournament whose next series starts by itself, through the real bot process: two tables of three, 2 series
of 3 deals. Table 1 finishes first and one of its players opens an ordinary table against two AIs meanwhile (free
to: their table has finished its series). When table 2 finishes, the next series waits for that player, and the
channel is told so and why, naming them, instead of being sent to /tournament next; once they close their table,
series 2 starts by itself (the tournament's clock, 2 s here)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message, User
from tests.e2e.skat_helpers import control_id, open_table, public_texts, start_skatbot
from tests.e2e.skat_players import button_move, play_out
from tests.e2e.test_skatbot_tournament_kills import tournament

PLAYERS = ("ida", "jan", "kai", "lea", "max", "nia")


async def test_an_automatic_next_series_that_waits_says_for_whom_and_starts_once_they_are_free(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, channel, owner = club.fake, club.channel, club.fake.world.owner
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"), SKATBOT_TOURNAMENT_CLOCK="2")
    side = fake.add_channel(club.guild, "side")
    people = {name: fake.add_user(name) for name in PLAYERS}
    created = await tournament(fake, owner, channel, "new", name="Evening", series=2, deals=3, auto_next=True)
    assert created.content.startswith("Tournament #1 (Evening) is open for sign-up"), created.content
    for user in people.values():
        assert "You are signed up" in (await tournament(fake, user, channel, "join")).content
    started = await tournament(fake, owner, channel, "start")
    assert started.content.startswith("Started: 2 tables drawn by lot"), started.content
    drawn = await fake.wait_for_message(channel, lambda m: m.content.startswith("🎲 **Series 1"), timeout=60)
    tables = re.findall(r"^Table (\d): (.*?) → <#(\d+)>$", drawn.content, re.M)
    assert len(tables) == 2, drawn.content
    seated = {int(index): [people[name] for name in names.split(", ")] for index, names, _ in tables}
    threads = {int(index): next(t for t in fake.threads(channel) if t.id == int(thread)) for index, _, thread in tables}
    rng = random.Random(11)

    async def move(user: User, message: Message) -> None:
        await button_move(fake, user, message, rng, avoid=("pass",) if rng.random() < 0.6 else ())

    def results(index: int) -> int:
        return sum(1 for text in public_texts(fake, threads[index]) if text.startswith("**Result of deal"))

    await play_out(fake, seated[1], lambda: results(1) >= 3, move, limit=2000)
    free = seated[1][0]  # their table has finished its series: they may sit elsewhere until the next draw
    opened, place = await open_table(fake, free, side, deals=6)
    assert opened.startswith("Table #"), opened
    lobby = await fake.wait_for_message(place, lambda m: "Skat table" in m.content)
    for _ in range(2):
        await (await fake.click(free, lobby, control_id(lobby, "addai"))).wait_acked()
    await fake.wait_for(lambda: "AI 2" in lobby.content, 30, "two AIs seated")
    await (await fake.click(free, lobby, control_id(lobby, "start"))).wait_acked()

    await play_out(fake, seated[2], lambda: results(2) >= 3, move, limit=2000)
    waits = await fake.wait_for_message(channel, lambda m: m.content.startswith("✅ Series 1 of Evening is over"),
                                        timeout=60)
    assert waits.content == (
        "✅ Series 1 of Evening is over at every table. The next series waits for players still seated at another "
        f"running table: {free.name}. It starts by itself as soon as they are free (nobody plays at two tables at "
        "once)."), waits.content
    assert not any(m.content.startswith("🎲 **Series 2") for m in fake.messages(channel))

    stopped = await (await fake.slash(free, place, "skat", subcommand="stop")).wait_message(30)
    assert stopped.visibility == "ephemeral", stopped
    second = await fake.wait_for_message(channel, lambda m: m.content.startswith("🎲 **Series 2"), timeout=60)
    assert free.name in second.content
    assert [m.content.startswith("✅ Series 1 of Evening is over") for m in fake.messages(channel)].count(True) == 1
    fake.assert_clean()
