"""Kill the storing process with SIGKILL at random points, restart it, and check nothing is lost or doubled.

The worker (kill_worker.py) acknowledges a log entry only after storing it, and kills itself a moment after a
random number of acknowledgements (its own progress, not how fast this test reads). After every kill it restarts,
restores its tables by replay and plays on. At the end: every acknowledged entry is in the log, every
deal is stored once, the lists add up, and the file is sound. SKATBOT_KILL_POINTS sets how many kills
(default 25, each table playing as many deals); the soak variant (-m slow) uses three tables and 200 kill
points.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from skatbot.engine import RuleSet
from skatbot.storage import SqliteStorage
from skatbot.storage.recording import result_mismatches
from skatbot.tables.replay import replay_log
from tests.storage.storage_helpers import final_ranking

WORKER = Path(__file__).with_name("kill_worker.py")
ROOT = Path(__file__).resolve().parents[2]
WORKER_TIMEOUT = 120.0


def _run(args: list[str]) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, str(WORKER), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=ROOT)


def _killed(process: subprocess.Popen[str], acked: dict[tuple[int, int], str], stored: list[tuple[int, int]]) -> bool:
    """Wait for a worker that kills itself (recording its acks); True if it finished first instead."""
    try:
        out, err = process.communicate(timeout=WORKER_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        raise AssertionError(f"the worker hung for {WORKER_TIMEOUT} s: {err}") from None
    for line in out.splitlines():  # every line printed before the kill was acknowledged
        _record(line, acked, stored)
    if process.returncode == 0:
        return "done" in out
    assert process.returncode == -signal.SIGKILL, err
    return False


def _record(line: str, acked: dict[tuple[int, int], str], stored: list[tuple[int, int]]) -> None:
    words = line.split(maxsplit=3)
    if words and words[0] == "ack":
        acked[(int(words[1]), int(words[2]))] = words[3].strip()
    elif words and words[0] == "deal":
        stored.append((int(words[1]), int(words[2])))


def _kill_and_restart(tmp_path: Path, tables: int, deals: int, kills: int, seed: int) -> None:
    database = tmp_path / "kill.sqlite3"
    setup = _run(["setup", str(database), str(tables), str(deals)])
    assert setup.wait(timeout=60) == 0, setup.stderr.read() if setup.stderr else ""
    rng = random.Random(seed)
    acked: dict[tuple[int, int], str] = {}
    stored: list[tuple[int, int]] = []
    killed = 0
    while killed < kills:  # the worker kills itself a moment after a random number of acknowledgements
        process = _run(["play", str(database), str(rng.randint(0, 40)), str(rng.choice((0, 0, 0.001, 0.003, 0.01)))])
        if _killed(process, acked, stored):
            break  # the series were over before all kill points were used
        killed += 1
    final = _run(["play", str(database)])
    try:
        out, err = final.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        final.kill()
        raise
    assert final.returncode == 0, err
    for line in out.splitlines():
        _record(line, acked, stored)
    print(f"kills: {killed}, acked: {len(acked)}, deals stored (with retries): {len(stored)}")
    assert killed == kills, "the worker finished before every kill point was used: give it more deals"
    asyncio.run(_check(database, tables, deals, acked, stored))


async def _check(database: Path, tables: int, deals: int, acked: dict[tuple[int, int], str],
                 stored: list[tuple[int, int]]) -> None:
    storage = await SqliteStorage.open(database)
    try:
        assert await storage.integrity_problems() == []
        assert await storage.load_unfinished_tables() == []
        logged: dict[tuple[int, int], str] = {}
        for table_id in range(1, tables + 1):
            table = await storage.tables.get(table_id=table_id)
            log = await storage.tables.log(table_id=table_id)
            assert [entry.seq for entry in log] == list(range(len(log))), "gaps in the log"
            for entry in log:
                logged[(table_id, entry.seq)] = entry.entry
            game = replay_log(size=table.size, deals=table.series_length, rules=RuleSet.from_dict(table.rules),
                              creator_id=table.creator_id, entries=[entry.entry for entry in log]).game
            records = await storage.deals.for_table(table_id=table_id)
            # Every deal exactly once, each agreeing with its replay, and the list adds up.
            assert [r.deal_number for r in records] == list(range(1, deals + 1))
            assert [row.number + 1 for row in game.finished] == list(range(1, deals + 1))
            for record, row in zip(records, game.finished, strict=True):
                assert result_mismatches(record, row.deal) == []
                assert [s.score for s in sorted(record.scores, key=lambda s: table.seats.index(s.player_id))] == list(
                    row.place_scores)
            final = {s.player_id: s.total for s in await final_ranking(storage, table_id)}
            assert final == {player: total for player, total in zip(table.seats, game.totals(), strict=True)}
        missing = {key: text for key, text in acked.items() if logged.get(key) != text}
        assert missing == {}, f"acknowledged but not in the log: {missing}"
        assert len(stored) >= tables * deals
    finally:
        await storage.close()
    _check_sums(database)


def _check_sums(database: Path) -> None:
    """Totals equal the sum of the deal rows, in the summary table and in the series results."""
    with sqlite3.connect(database) as connection:
        per_deal = dict(connection.execute(
            "SELECT player_id, SUM(score) FROM deal_scores GROUP BY player_id").fetchall())
        per_day = dict(connection.execute("SELECT player_id, SUM(points) FROM player_days GROUP BY player_id").fetchall())
        per_series = dict(connection.execute(
            "SELECT player_id, SUM(total) FROM series_results GROUP BY player_id").fetchall())
        deal_count = connection.execute("SELECT COUNT(*), COUNT(DISTINCT table_id || '/' || deal_number) FROM deals"
                                        ).fetchone()
        day_deals = connection.execute("SELECT SUM(deals) FROM player_days").fetchone()[0]
        score_rows = connection.execute("SELECT COUNT(*) FROM deal_scores WHERE role <> 'out'").fetchone()[0]
    assert per_deal == per_day == per_series
    assert deal_count[0] == deal_count[1]
    assert day_deals == score_rows


def test_kill_and_restart_loses_nothing_and_counts_nothing_twice(tmp_path: Path) -> None:
    kills = int(os.environ.get("SKATBOT_KILL_POINTS", "25"))
    _kill_and_restart(tmp_path, tables=2, deals=max(kills, 4), kills=kills, seed=kills)


@pytest.mark.slow
def test_kill_and_restart_soak(tmp_path: Path) -> None:
    _kill_and_restart(tmp_path, tables=3, deals=200, kills=200, seed=4)

