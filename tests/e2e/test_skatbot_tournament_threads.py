"""A tournament whose tables' threads Discord will not open, through the real bot process.

Each table of a tournament plays in a thread of its own (several tables share the tournament's channel, which
holds only one table). Where the bot may not open threads, `/tournament start` is refused before anything is
drawn, saying which permission is missing. Where Discord refuses a thread after the draw (here: too many active
threads, code 160006, as Discord documents it), the table's notice in the channel and the organiser's reply say
so; the bot tries again on its clock, reusing the one notice, and the tournament plays on once Discord lets it.
"""

from __future__ import annotations

import random
from pathlib import Path

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message, User
from tests.e2e.skat_helpers import public_texts, start_skatbot
from tests.e2e.skat_players import button_move, play_out
from tests.e2e.test_skatbot_outbox import public
from tests.e2e.test_skatbot_tournament_kills import THREADS, logged, signed_up, tournament

NOTICE = "🏆 Kill night · series 1 · table 1:"


async def test_a_tournament_refused_its_threads_says_so_and_plays_once_discord_lets_it(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, channel, organiser = club.fake, club.channel, club.fake.world.owner
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    people = await signed_up(fake, channel)

    # A server manager took Create Public Threads away after the sign-up: the start is refused, nothing drawn.
    fake.set_bot_permissions(channel, allow_threads=False)
    refused = await tournament(fake, organiser, channel, "start")
    assert refused.content == ("A tournament plays each table in a thread of its own, and the bot may not open "
                               "threads here (missing: Create Public Threads)."), refused.content
    assert not logged(database, "draw %") and fake.threads(channel) == [] and public(fake, channel, NOTICE) == []

    # Allowed again; Discord still refuses the thread once (too many active threads in the server).
    fake.set_bot_permissions(channel)
    fake.inject_error("POST", THREADS, status=400, code=160006, message="Maximum number of active threads reached")
    answer = await tournament(fake, organiser, channel, "start")
    assert answer.content == (
        "The tables are drawn, but Discord did not let me open the thread of table 1 (400 Maximum number of "
        "active threads reached). I try again every 15 seconds: the table opens as soon as Discord lets me."), \
        answer.content
    (notice,) = public(fake, channel, NOTICE)
    assert "⚠️ Discord did not let me open its thread (400 Maximum number of active threads reached)" in notice.content

    # The clock tries again with the same notice: one notice, one thread, and the notice no longer warns.
    await fake.wait_for(lambda: fake.threads(channel), 40, "the table's thread, opened by the clock")
    (thread,) = fake.threads(channel)
    assert thread.id == notice.id and [m.id for m in public(fake, channel, NOTICE)] == [notice.id]
    await fake.wait_for(lambda: "⚠️" not in notice.content, 30, "the notice without its warning")
    drawn = await fake.wait_for_message(channel, lambda m: m.content.startswith("🎲 **Series 1"), timeout=30)
    assert f"<#{thread.id}>" in drawn.content
    rng = random.Random(5)

    async def move(user: User, message: Message) -> None:
        await button_move(fake, user, message, rng, avoid=("pass",) if rng.random() < 0.6 else ())

    def final() -> list[str]:
        return [text for text in public_texts(fake, channel) if text.startswith("🏆 **Kill night (#1): the final list")]

    await play_out(fake, people, lambda: bool(final()), move)
    assert len(final()) == 1
    fake.assert_clean()
