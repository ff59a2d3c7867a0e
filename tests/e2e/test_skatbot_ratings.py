"""Ratings through Discord: a finished series changes the players' ratings (the AI level's too), the rating
leaderboard and the stats show them, and `python -m skatbot.storage ratings --rebuild` gives the same numbers."""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from skatbot.challenge import ChallengeScore
from skatbot.storage import SqliteStorage
from tests.e2e.conftest import Club, StartBot
from tests.e2e.skat_helpers import public_texts, start_skatbot
from tests.e2e.skat_players import button_move, play_out
from tests.e2e.test_skatbot_play import open_against_ais

ROOT = Path(__file__).resolve().parents[2]
QUERIES = ("SELECT * FROM ratings ORDER BY server_id, rated_id",
           "SELECT * FROM rating_history ORDER BY server_id, rated_id, seq",
           "SELECT * FROM rating_events ORDER BY server_id, seq")


def rows(path: Path) -> list[list[tuple[object, ...]]]:
    with sqlite3.connect(path) as connection:
        return [[tuple(row) for row in connection.execute(sql)] for sql in QUERIES]


async def test_a_series_changes_the_ratings_and_they_rebuild_the_same(club: Club, start_bot: StartBot,
                                                                      tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    before = await (await fake.slash(alice, club.channel, "skat", group="scores", subcommand="leaderboard",
                                     options={"scoring": "rating"})).wait_message()
    assert "Nobody has a skill rating on this server yet" in before.content

    _, channel = await open_against_ais(fake, alice, club, deals=1)
    rng = random.Random(7)
    await play_out(fake, [alice], lambda: any("Result of deal 1" in text for text in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    await fake.wait_for(lambda: any("The series is over" in text for text in public_texts(fake, channel)),
                        10, "the final ranking")

    board = await (await fake.slash(alice, club.channel, "skat", group="scores", subcommand="leaderboard",
                                    options={"scoring": "rating"})).wait_message()
    assert board.visibility == "public" and "Skill rating" in board.content
    assert "1 more player has a rating but fewer than 3 rated series or challenge days." in board.content
    level = re.search(r"🤖 (\w+) — ([−\d.]+) \(μ ([\d.]+), σ ([\d.]+); 1 series or day rated\)", board.content)
    assert level is not None, board.content  # both AIs are one rated identity: their level, rated once

    stats = await (await fake.slash(alice, club.channel, "skat", group="scores", subcommand="stats")).wait_message()
    found = re.search(r"📈 Skill rating: \*\*([−\d.]+)\*\* \(μ ([\d.]+), σ ([\d.]+); 1 series or day rated\)",
                      stats.content)
    assert found is not None, stats.content
    assert found.group(2) != "25.0" and found.group(3) != "8.3"  # rated: no longer the starting values
    assert any(a.filename == "rating.png" for a in stats.attachments), "the rating chart"
    await proc.stop()

    rated = rows(database)
    assert len(rated[2]) == 1 and len(rated[0]) == 2  # one series; alice and the AI level
    with sqlite3.connect(database) as connection:
        connection.execute("DELETE FROM ratings")
    rebuilt = subprocess.run([sys.executable, "-m", "skatbot.storage", "--database", str(database), "ratings",
                              "--rebuild"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "rebuilt the ratings from 1 rated series and challenge days" in rebuilt.stdout
    assert rows(database) == rated
    fake.assert_clean(allow_rejections=False)


async def test_an_ended_challenge_day_is_rated_by_score_against_par(club: Club, start_bot: StartBot,
                                                                   tmp_path: Path) -> None:
    """Yesterday's challenge as the challenge stores it (alice above par, bob below): the bot rates the ended
    day by itself (its catch-up at start-up), the rating board shows both beside "strong" at par, and a rebuild
    from the stored results gives the same numbers."""
    fake, alice, bob = club.fake, club.alice, club.bob
    database = tmp_path / "skat.sqlite3"
    now = datetime.now(UTC)
    day = now.date() - timedelta(days=1)
    storage = await SqliteStorage.open(database)
    try:
        for user, (score, par) in ((alice, (180, 60)), (bob, (-40, 60))):
            await storage.challenge.start(day=day, player_id=user.id, server_id=club.guild.id, name=user.name,
                                          deals=1, now=now)
            await storage.challenge.append(day=day, player_id=user.id, seq=0, entries=["x"], now=now, finished=True,
                                           results=[ChallengeScore(day, user.id, club.guild.id, 0, score, par)])
    finally:
        await storage.close()
    await start_skatbot(fake, start_bot, str(database))

    async def board() -> str:
        answer = await (await fake.slash(alice, club.channel, "skat", group="scores", subcommand="leaderboard",
                                         options={"scoring": "rating"})).wait_message()
        return answer.content

    text = await board()
    for _ in range(240):  # the catch-up runs beside the start: ask again until it has (a minute at most)
        if "Nobody has a skill rating" not in text:
            break
        await asyncio.sleep(0.25)
        text = await board()
    assert "2 more players have a rating but fewer than 3 rated series or challenge days." in text
    strong = re.search(r"🤖 strong — ([−\d.]+) \(μ ([\d.]+), σ ([\d.]+); 1 series or day rated\)", text)
    assert strong is not None, text
    # alice never sat at a table here: her stats are her rating alone, from the challenge day
    stats = await (await fake.slash(alice, club.channel, "skat", group="scores", subcommand="stats")).wait_message()
    assert stats.visibility == "public" and "📈 Skill rating: **" in stats.content, stats.content
    assert "1 series or day rated" in stats.content
    rated = {int(str(row[1])): float(str(row[2])) for row in rows(database)[0]}
    assert set(rated) == {alice.id, bob.id, -300}
    assert rated[alice.id] > rated[-300] > rated[bob.id]  # above par, at par, below par
    await start_bot.procs[-1].stop()
    before = rows(database)
    with sqlite3.connect(database) as connection:  # lost: the stored results are the truth
        connection.execute("DELETE FROM ratings")
        connection.execute("DELETE FROM rating_history")
    rebuilt = subprocess.run([sys.executable, "-m", "skatbot.storage", "--database", str(database), "ratings",
                              "--rebuild"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "rebuilt the ratings from 1 rated series and challenge days" in rebuilt.stdout
    assert rows(database) == before
    fake.assert_clean(allow_rejections=False)
