"""Ratings through Discord: a finished series changes the players' ratings (the AI level's too), the rating
leaderboard and the stats show them, and `python -m skatbot.storage ratings --rebuild` gives the same numbers."""

from __future__ import annotations

import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

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
