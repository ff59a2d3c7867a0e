"""A club evening through the real bot process: 7 humans, one table of four and one of three, 2 series of 3
deals (4 at the table of four), the bot killed in the middle of series 1 and restarted; the final list is
checked against the Seeger-Fabian sums recomputed from the stored deal records."""

from __future__ import annotations

import csv
import io
import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Channel, FakeDiscord, Message, User
from tests.e2e.skat_helpers import public_texts, start_skatbot
from tests.e2e.skat_players import button_move, play_out

PLAYERS = ("anna", "bert", "cara", "dirk", "emma", "finn", "gina")


async def tournament(fake: FakeDiscord, user: User, channel: Channel, subcommand: str, **options: Any) -> Message:
    ix = await fake.slash(user, channel, "tournament", subcommand=subcommand, options=options)
    return await ix.wait_message(60)


def tournament_tables(database: Path) -> dict[int, tuple[int, int]]:
    """table id -> (series, table number), from the tournament's stored log."""
    with sqlite3.connect(database) as db:
        entries = [row[0] for row in db.execute("SELECT entry FROM tournament_log ORDER BY seq")]
    found = {}
    for entry in entries:
        if entry.startswith("table "):
            _, series, index, table_id = entry.split()
            found[int(table_id)] = (int(series), int(index))
    return found


def seeger_sums(database: Path, tables: list[int]) -> dict[int, int]:
    """Seeger-Fabian points per player over the stored deal records of these tables, summed here."""
    marks = ",".join("?" * len(tables))
    with sqlite3.connect(database) as db:
        rows = db.execute(f"SELECT s.player_id, SUM(s.seeger) FROM deal_scores s JOIN deals d ON d.deal_id = s.deal_id "
                          f"WHERE d.table_id IN ({marks}) GROUP BY s.player_id", tables).fetchall()
    return {int(player): int(points) for player, points in rows}


def deals_stored(database: Path, tables: list[int]) -> int:
    marks = ",".join("?" * len(tables))
    with sqlite3.connect(database) as db:
        return int(db.execute(f"SELECT COUNT(*) FROM deals WHERE table_id IN ({marks})", tables).fetchone()[0])


def stored_state(database: Path) -> str:
    """The tournament's state in its row: an ended one says so once its final list and what follows it (the
    standings marked final, the scheduled event) are stored as shown, a moment after the list is posted."""
    with sqlite3.connect(database) as db:
        return str(db.execute("SELECT state FROM tournaments").fetchone()[0])


LINE = re.compile(r"^(\d+)\. (\w+) · ([+-]?\d+) · (\d+)/(\d+)")


def listed(text: str) -> list[tuple[int, str, int]]:
    """(place, name, points) of each line of a list."""
    return [(int(m[1]), m[2], int(m[3])) for line in text.splitlines() if (m := LINE.match(line))]


async def test_a_club_evening_of_seven_over_two_series_survives_a_kill(club: Club, start_bot: StartBot,
                                                                       tmp_path: Path) -> None:
    fake, channel = club.fake, club.channel
    organiser = fake.world.owner  # Manage Server
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    fake.enable_rate_limits(channels=[channel])  # Discord's: five messages, edits and deletions per 5 s
    people = [fake.add_user(name) for name in PLAYERS]
    by_name = {user.name: user for user in people}

    refused = await tournament(fake, people[0], channel, "new", name="Club evening")
    assert refused.visibility == "ephemeral" and "Only organisers" in refused.content
    created = await tournament(fake, organiser, channel, "new", name="Club evening", series=2, deals=3)
    assert created.content.startswith("Tournament #1 (Club evening) is open for sign-up"), created.content
    signup = await fake.wait_for_message(channel, lambda m: m.content.startswith("🏆 **Tournament #1: Club evening**"))
    assert "2 series · 3 deals at three, 4 at four" in signup.content
    second = await tournament(fake, organiser, channel, "new", name="Another")
    assert second.content.startswith("Tournament #1 (Club evening) is still running in this channel")

    # Sign-up: by the buttons and by the command; twice is refused, and starting with too few too.
    for user in people[:4]:
        click = await fake.click(user, signup, "tournament:join:1")
        answer = await click.wait_message(30)
        assert answer.visibility == "ephemeral" and "You are signed up for Club evening" in answer.content
    twice = await tournament(fake, people[0], channel, "join")
    assert twice.content == "You are signed up already."
    await tournament(fake, people[4], channel, "join")
    too_few = await tournament(fake, organiser, channel, "start")
    assert "5 players cannot be split into tables of three and four" in too_few.content, too_few.content
    not_organiser = await tournament(fake, people[1], channel, "start")
    assert "Only organisers" in not_organiser.content
    for user in people[5:]:
        await tournament(fake, user, channel, "join")
    await fake.wait_for(lambda: "**Signed up (7):**" in signup.content and "7. gina" in signup.content, 30,
                        "the sign-up list with all seven")
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT COUNT(*) FROM tournament_log WHERE entry LIKE 'draw %'").fetchone()[0] == 0

    started = await tournament(fake, organiser, channel, "start")
    seed = re.search(r"seed (\d+)", started.content)
    assert started.content.startswith("Started: 2 tables drawn by lot") and seed, started.content
    drawn = await fake.wait_for_message(channel, lambda m: m.content.startswith("🎲 **Series 1"))
    assert f"seed {seed[1]}" in drawn.content
    threads = fake.threads(channel)
    assert len(threads) == 2
    seated = {t: re.findall(r"^Table (\d): (.*?) → <#(\d+)>$", drawn.content, re.M) for t in (1,)}[1]
    assert [len(names.split(", ")) for _, names, _ in seated] == [4, 3]  # one table of four, one of three
    assert sorted(n for _, names, _ in seated for n in names.split(", ")) == sorted(PLAYERS)
    await fake.wait_for(lambda: "Sign-up is closed" in signup.content and not signup.buttons(), 30, "sign-up closed")
    late = await tournament(fake, fake.add_user("hugo"), channel, "join")
    assert late.visibility == "ephemeral" and late.content.startswith(  # no late entries, as at a club evening
        "Club evening has started: late entries are not taken. The draw of every series seats only those who "
        "signed up before the start"), late.content
    assert "hugo" not in signup.content

    rng = random.Random(23)

    async def move(user: User, message: Message) -> None:  # bids on more often than not, so games are played
        await button_move(fake, user, message, rng, avoid=("pass",) if rng.random() < 0.6 else ())

    def results() -> int:
        return sum(1 for thread in threads for text in public_texts(fake, thread) if text.startswith("**Result of deal"))

    # Series 1: killed once the first deal of it is stored and shown, in the middle of the series.
    await play_out(fake, people, lambda: results() >= 1, move)
    tables = tournament_tables(database)
    assert sorted(tables.values()) == [(1, 1), (1, 2)]
    assert deals_stored(database, list(tables)) >= 1
    await proc.kill()
    await proc.start()
    await proc.wait_connected(commands=("skat", "tournament"))

    def said(start: str) -> Message | None:
        return next((m for m in fake.messages(channel) if m.content.startswith(start)), None)

    await play_out(fake, people, lambda: said("✅ Series 1 of Club evening is over") is not None, move, limit=2000)
    assert deals_stored(database, list(tournament_tables(database))) == 3 + 4  # each deal stored once
    standings = await fake.wait_for(lambda: said("📊 **Club evening (#1)**"), 30, "the live standings")
    early = await tournament(fake, organiser, channel, "start")
    assert early.content.startswith("The tournament has started already")

    following = await tournament(fake, organiser, channel, "next")
    assert following.content == "Series 2 started at 2 tables, set by the standings.", following.content
    second = await fake.wait_for(lambda: said("🎲 **Series 2"), 30, "the second draw")
    tables = tournament_tables(database)
    assert sorted(tables.values()) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    # Set by the standings, and no three of one table of series 1 together again.
    first_tables = [set(names.split(", ")) for _, names, _ in seated]
    for _, names, _ in re.findall(r"^Table (\d): (.*?) → <#(\d+)>$", second.content, re.M):
        for earlier in first_tables:
            assert len(set(names.split(", ")) & earlier) <= 2, (names, earlier)
    threads = fake.threads(channel)
    assert len(threads) == 4
    await play_out(fake, people, lambda: said("🏆 **Club evening (#1): the final list**") is not None, move,
                   limit=2000)

    final = said("🏆 **Club evening (#1): the final list**")
    assert final is not None
    sums = seeger_sums(database, list(tables))
    assert deals_stored(database, list(tables)) == 2 * (3 + 4)
    with sqlite3.connect(database) as db:
        games = db.execute(f"SELECT COUNT(*) FROM deals WHERE game <> 'passed' AND table_id IN "
                           f"({','.join('?' * len(tables))})", list(tables)).fetchone()[0]
    assert games >= 3, games  # the sums below are sums of real games
    lines = listed(final.content)
    assert sorted(name for _, name, _ in lines) == sorted(PLAYERS)
    for name_points in lines:
        _, name, points = name_points
        assert points == sums[by_name[name].id], (name, points, sums)
    assert [place for place, _, _ in lines] == sorted(place for place, _, _ in lines) and lines[0][0] == 1
    assert [points for _, _, points in lines] == sorted((points for _, _, points in lines), reverse=True)
    assert any(points != 0 for _, _, points in lines)
    assert "Ties, as the Skatwettspielordnung rules: more games won come first" in final.content
    assert [a.filename for a in final.attachments] == ["final.png"]  # and as a picture
    # The live standings message was edited as deals finished, never posted twice, and ends as the final list.
    assert [m.id for m in fake.messages(channel) if m.content.startswith("📊 **Club evening (#1)**")] == [standings.id]
    await fake.wait_for(lambda: "final standings" in standings.content, 30, "the standings marked final")
    assert listed(standings.content) == lines and len(standings.history) > 2
    # Edits are coalesced: at most one per change of the list (14 deals, 2 series, the end), none per tick.
    assert len(standings.history) <= 14 + 4, len(standings.history)
    assert len(signup.history) <= 1 + 7 + 1, len(signup.history)  # posted, each sign-up at most, closed

    # /skat scores stats lists the player's tournaments with their place and points.
    place, name, points = lines[-1]
    stats = await (await fake.slash(people[0], channel, "skat", group="scores", subcommand="stats",
                                    options={"player": by_name[name]})).wait_message(60)
    signed = f"+{points}" if points > 0 else str(points)
    assert f"🏆 **Tournaments**\nClub evening (#1): place {place} of 7, {signed} Seeger-Fabian points" in \
        stats.content, stats.content
    shown = await tournament(fake, people[3], channel, "standings")  # anyone
    assert listed(shown.content) == lines
    export = await tournament(fake, people[2], channel, "export")
    files = {a.filename: a for a in export.attachments}
    assert set(files) == {"tournament-1.csv", "tournament-1.json"}
    document = json.loads(files["tournament-1.json"].data)
    assert len(document["deals"]) == 14 and all(d["record"] for d in document["deals"])
    assert document["tournament"]["draws"][0]["seed"] == int(seed[1])
    rows = list(csv.DictReader(io.StringIO(files["tournament-1.csv"].data.decode())))
    from_csv: dict[str, int] = {}
    for row in rows:
        from_csv[row["player"]] = from_csv.get(row["player"], 0) + int(row["seeger"])
    assert {name: from_csv[name] for name in PLAYERS} == {name: points for _, name, points in lines}
    await fake.wait_for(lambda: stored_state(database) == "finished", 30, "the tournament's row finished")
    fake.assert_clean()
