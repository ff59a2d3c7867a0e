"""Storage at scale, on SQLite and on PostgreSQL: fill a database with many deals, then time the leaderboard,
player statistics and storing one finished deal through the real repositories.

    .venv/bin/python -m benchmarks.storage                   # 1,000,000 deals across 1,000 servers, both backends
    .venv/bin/python -m benchmarks.storage --deals 100000    # smaller
    .venv/bin/python -m benchmarks.storage --backend sqlite --database big.sqlite3 --keep   # reuse the file
    .venv/bin/python -m benchmarks.storage --postgres postgresql://postgres@127.0.0.1/postgres

PostgreSQL gets the same rows: the filled SQLite file is moved into a fresh database (created on the
--postgres server with a random name, dropped afterwards) by `python -m skatbot.storage copy`'s code.

Prints `leaderboard_ms`, `player_stats_ms` (medians of warm runs on the busiest server and its busiest
player, the slowest of the three windows) and `store_deal_p99_ms` (one deal with its score rows in one
transaction, synchronous=NORMAL as the bot runs; --synchronous FULL adds an fsync per commit), each as
`backend_name: value` on its own line. Targets: < 50, < 50, < 10. `append_action_p99_ms` adds what storing one
move costs before it is acknowledged.
The fill bypasses the repositories (bulk inserts, the same rows the deal writer produces) so that a
million deals take minutes, not hours; the deal texts are real ISS and JSON records of played deals.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from skatbot.engine import Deal, RuleSet, game_text
from skatbot.engine.series import Series
from skatbot.storage import DealRecord, Player, PostgresStorage, SqliteStorage, Window
from skatbot.storage.copying import copy_database
from skatbot.storage.recording import deal_record

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
DAY = 86400
SERIES_LENGTH = 36
WARM_UP = 200
"""Stores timed but left out of the p99: right after opening, SQLite's cache and the OS page cache hold
none of a 2 GB file's index pages; a running bot keeps its active servers' pages hot."""
HUMANS_PER_SERVER = 30
AI_PLAYERS = (-1, -2, -3)


def _sample_records(count: int) -> list[DealRecord]:
    """Records of really played deals (players 1, 2, 3), reused so the file has realistic row sizes and every
    deal row agrees with its ISS and JSON records (`python -m skatbot.storage check` passes on the fill)."""
    rules = RuleSet()
    out: list[DealRecord] = []
    rng = random.Random(1)
    seed = 0
    while len(out) < count:
        seed += 1
        deal = Deal.new(seed, rules)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.result.passed:
            continue
        series = Series(["a", "b", "c"], 1, rules)
        row = series.record(deal.result, deal)
        out.append(deal_record(table_id=1, server_id=1, deal_number=1, deal=deal, players=(1, 2, 3),
                               names=("a", "b", "c"), seats=row.seats, scores=row.scores, seeger=row.seeger,
                               bock=False, started_at=NOW, finished_at=NOW))
    return out


def fill(path: Path, deals: int, servers: int, seed: int = 7) -> None:
    """Bulk-insert `deals` finished deals (with score rows and series results) across `servers`; the
    leaderboard summary fills itself by trigger, as in the bot."""
    asyncio.run(_create_schema(path))
    rng = random.Random(seed)
    samples = _sample_records(200)
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode = OFF")  # one bulk transaction into a fresh file: no journal
    connection.execute("PRAGMA synchronous = OFF")
    connection.execute("PRAGMA cache_size = -1000000")
    connection.execute("BEGIN")
    stamp = int(NOW.timestamp())
    connection.executemany("INSERT INTO players (player_id, display_name, is_ai, updated_at) VALUES (?, ?, ?, ?)",
                           [(ai, f"AI {-ai}", 1, stamp) for ai in AI_PLAYERS])
    connection.executemany(
        "INSERT INTO players (player_id, display_name, is_ai, updated_at) VALUES (?, ?, 0, ?)",
        [(_human(server, k), f"player {server}/{k}", stamp) for server in range(1, servers + 1)
         for k in range(HUMANS_PER_SERVER)])
    connection.executemany("INSERT INTO servers (server_id, updated_at) VALUES (?, ?)",
                           [(server, stamp) for server in range(1, servers + 1)])
    # Deals per server vary (a few busy servers, many quiet ones), summing to `deals`.
    weights = [rng.paretovariate(1.5) for _ in range(servers)]
    scale = deals / sum(weights)
    per_server = [max(1, int(w * scale)) for w in weights]
    per_server[0] += deals - sum(per_server)
    deal_id = 0
    table_id = 0
    batch_deals: list[tuple[object, ...]] = []
    batch_records: list[tuple[int, str, str]] = []
    batch_scores: list[tuple[object, ...]] = []
    for server, count in enumerate(per_server, start=1):
        pool = [_human(server, k) for k in range(HUMANS_PER_SERVER)] + list(AI_PLAYERS)
        start_times = sorted(rng.randrange(stamp - 365 * DAY, stamp) for _ in range(-(-count // SERIES_LENGTH)))
        remaining = count
        for started in start_times:
            table_id += 1
            seats = rng.sample(pool[:HUMANS_PER_SERVER], 2) + [rng.choice(pool)]
            if len(set(seats)) < 3:
                seats[2] = next(p for p in pool if p not in seats)
            length = min(SERIES_LENGTH, remaining)
            remaining -= length
            finished = length == SERIES_LENGTH
            connection.execute(
                "INSERT INTO tables (table_id, server_id, channel_id, creator_id, rule_preset, rules_json, "
                "series_length, state, created_at, updated_at) VALUES (?, ?, ?, ?, 'official', '{}', ?, ?, ?, ?)",
                (table_id, server, server * 10, seats[0], SERIES_LENGTH, "finished" if finished else "playing",
                 started, started))
            connection.executemany("INSERT INTO table_seats (table_id, seat, player_id) VALUES (?, ?, ?)",
                                   [(table_id, s, p) for s, p in enumerate(seats)])
            totals = {p: [0, 0, 0] for p in seats}
            moment = started
            for number in range(1, length + 1):
                deal_id += 1
                moment += rng.randrange(60, 240)
                sample = samples[deal_id % len(samples)]
                player_of = dict(zip((1, 2, 3), seats, strict=True))  # the sample's players are 1, 2, 3
                declarer = None if sample.declarer_id is None else player_of[sample.declarer_id]
                batch_deals.append((deal_id, table_id, number, server, declarer, game_text(sample.game),
                                    sample.contract, int(sample.hand), int(sample.ouvert), sample.bid, int(sample.won),
                                    int(sample.overbid), int(sample.schneider), int(sample.schwarz), sample.matadors,
                                    sample.declarer_points, sample.declarer_tricks, sample.multiplier, sample.value,
                                    sample.score, sample.ending.value, int(sample.kontra), int(sample.re), 0,
                                    moment - 120, moment))
                batch_records.append((deal_id, sample.iss, sample.record_json))
                for line in sample.scores:
                    player = player_of[line.player_id]
                    batch_scores.append((deal_id, player, line.seat, line.role.value,
                                         None if line.won is None else int(line.won), line.score, line.seeger, server,
                                         moment))
                    totals[player][0] += line.score
                    totals[player][1] += line.seeger
                    totals[player][2] += 1
            if finished:
                ranked = sorted(totals.items(), key=lambda item: (-item[1][0], -item[1][1], item[0]))
                connection.executemany(
                    "INSERT INTO series_results (table_id, player_id, server_id, place, total, seeger, deals, "
                    "finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [(table_id, p, server, place, t[0], t[1], t[2], moment)
                     for place, (p, t) in enumerate(ranked, start=1)])
            if len(batch_deals) >= 20000:
                _flush(connection, batch_deals, batch_records, batch_scores)
    _flush(connection, batch_deals, batch_records, batch_scores)
    connection.execute("COMMIT")
    connection.execute("ANALYZE")
    connection.execute("PRAGMA journal_mode = WAL")
    connection.close()


def _human(server: int, k: int) -> int:
    return server * 1000 + k


def _flush(connection: sqlite3.Connection, deals: list[tuple[object, ...]], records: list[tuple[int, str, str]],
           scores: list[tuple[object, ...]]) -> None:
    connection.executemany(f"INSERT INTO deals VALUES ({', '.join('?' * 26)})", deals)
    connection.executemany("INSERT INTO deal_records (deal_id, iss, record_json) VALUES (?, ?, ?)", records)
    connection.executemany("INSERT INTO deal_scores (deal_id, player_id, seat, role, won, score, seeger, server_id, "
                           "finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", scores)
    deals.clear()
    records.clear()
    scores.clear()


async def _create_schema(path: Path) -> None:
    await (await SqliteStorage.open(path)).close()


async def _time(call: Callable[[], Awaitable[object]], runs: int) -> float:
    await call()  # warm the cache
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


async def measure(path: Path, stores: int, runs: int, synchronous: str) -> dict[str, float]:
    storage = await SqliteStorage.open(path, synchronous=synchronous)
    try:
        return await _measure(storage, stores, runs)
    finally:
        await storage.close()


async def measure_postgres(path: Path, admin_url: str, stores: int, runs: int) -> dict[str, float]:
    """Move the filled SQLite file into a fresh PostgreSQL database, time the same calls, drop the database."""
    name = f"skatbot_bench_{secrets.token_hex(4)}"
    parts = urlsplit(admin_url)
    url = urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))
    admin = await asyncpg.connect(admin_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            source = await SqliteStorage.open(path)
            target = await PostgresStorage.open(url)
            try:
                started = time.perf_counter()
                await copy_database(source, target)  # ends with VACUUM (ANALYZE), as the copy command does
                print(f"copied into PostgreSQL ({name}) in {time.perf_counter() - started:.0f} s")
                return await _measure(target, stores, runs)
            finally:
                await source.close()
                await target.close()
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


async def _measure(storage: SqliteStorage | PostgresStorage, stores: int, runs: int) -> dict[str, float]:
    busiest = (await storage.database.fetch_all(
        "SELECT server_id, COUNT(*) AS n FROM deals GROUP BY server_id ORDER BY n DESC LIMIT 1"))[0]
    server = busiest["server_id"]
    player = (await storage.database.fetch_all(
        "SELECT player_id, COUNT(*) AS n FROM deal_scores WHERE server_id = :s GROUP BY player_id "
        "ORDER BY n DESC LIMIT 1", {"s": server}))[0]["player_id"]
    print(f"busiest server: {server} with {busiest['n']} deals; its busiest player: {player}")
    figures: dict[str, float] = {}
    leaderboard = []
    stats = []
    for window in Window:
        leaderboard.append(await _time(partial(storage.stats.leaderboard, server_id=server, window=window, now=NOW),
                                       runs))
        stats.append(await _time(partial(storage.stats.player_stats, server_id=server, player_id=player,
                                         window=window, now=NOW), runs))
        print(f"  {window.name.lower():5} leaderboard {leaderboard[-1]:.2f} ms, player stats {stats[-1]:.2f} ms")
    figures["leaderboard_ms"] = max(leaderboard)
    figures["player_stats_ms"] = max(stats)
    figures["store_deal_p99_ms"] = await _store_deals(storage, stores)
    figures["append_action_p99_ms"] = await _append_actions(storage, stores)
    return figures


async def _store_deals(storage: SqliteStorage | PostgresStorage, count: int) -> float:
    """Store really played deals through the repository (each table's deals on one random server, as a
    series goes); the p99 of one store after the warm-up, in ms."""
    rules = RuleSet()
    rng = random.Random(3)
    for player in (Player(-11, "bench a"), Player(-12, "bench b"), Player(-13, "bench c")):
        await storage.players.save(player=player, now=NOW)
    prepared = []
    table = None
    for index in range(WARM_UP + count):
        if index % SERIES_LENGTH == 0:
            table = await storage.tables.create(server_id=rng.randint(1, 1000), channel_id=1, creator_id=-11,
                                                rule_preset="official", rules=rules.to_dict(),
                                                series_length=SERIES_LENGTH, seats=(-11, -12, -13), now=NOW)
            series = Series(["a", "b", "c"], SERIES_LENGTH, rules)
        deal = Deal.new(index, rules)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        row = series.record(deal.result, deal)
        assert table is not None
        when = NOW + timedelta(seconds=index)
        prepared.append(deal_record(table_id=table.table_id, server_id=table.server_id,
                                    deal_number=index % SERIES_LENGTH + 1, deal=deal, players=(-11, -12, -13),
                                    names=("a", "b", "c"), seats=row.seats, scores=row.scores, seeger=row.seeger,
                                    bock=row.bock, started_at=when, finished_at=when))
    samples = []
    for record in prepared:
        started = time.perf_counter()
        await storage.deals.store(record=record)
        samples.append((time.perf_counter() - started) * 1000)
    cold, warm = sorted(samples[:WARM_UP]), sorted(samples[WARM_UP:])
    print(f"  first {WARM_UP} stores after opening (cold pages): median {statistics.median(cold):.2f} ms, "
          f"p99 {_p99(cold):.2f} ms, max {cold[-1]:.2f} ms")
    print(f"  next {len(warm)} stores: median {statistics.median(warm):.2f} ms, max {warm[-1]:.2f} ms")
    return _p99(warm)


async def _append_actions(storage: SqliteStorage | PostgresStorage, count: int) -> float:
    """Append `count` actions to a table log (what every acknowledged move costs); the p99, in ms."""
    table = await storage.tables.create(server_id=1, channel_id=1, creator_id=-11, rule_preset="official",
                                        rules=RuleSet().to_dict(), series_length=1, seats=(-11, -12, -13), now=NOW)
    samples = []
    for seq in range(count):
        started = time.perf_counter()
        await storage.tables.append(table_id=table.table_id, seq=seq, entry=f"act 0 {seq % 3} play CJ", now=NOW)
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    print(f"  append_action median {statistics.median(samples):.2f} ms over {count} appends")
    return _p99(samples)


def _p99(samples: list[float]) -> float:
    return samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--database", type=Path, help="the file to fill (default: a temporary file)")
    parser.add_argument("--keep", action="store_true", help="keep a filled --database and reuse it next time")
    parser.add_argument("--stores", type=int, default=1000, help="deals stored for the p99 figure")
    parser.add_argument("--runs", type=int, default=20, help="timed runs per query")
    parser.add_argument("--synchronous", choices=("FULL", "NORMAL"), default="NORMAL",
                        help="SQLite's synchronous mode for the stores (the bot's default is NORMAL)")
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--postgres", default=os.environ.get("SKATBOT_TEST_DATABASE_URL")
                        or "postgresql://postgres@127.0.0.1:5432/postgres",
                        help="a PostgreSQL server (any database on it) where a scratch database may be created")
    args = parser.parse_args()
    folder = None
    path = args.database
    if path is None:
        folder = tempfile.TemporaryDirectory(prefix="skatbot-bench-")
        path = Path(folder.name) / "bench.sqlite3"
    if not (args.keep and path.exists()):
        if path.exists():
            raise SystemExit(f"{path} exists; remove it or pass --keep to reuse it")
        started = time.perf_counter()
        fill(path, args.deals, args.servers)
        size = path.stat().st_size / 2**20
        print(f"filled {args.deals} deals across {args.servers} servers in {time.perf_counter() - started:.0f} s "
              f"({size:.0f} MiB)")
    figures: dict[str, float] = {}
    if args.backend in ("sqlite", "both"):
        print("== SQLite")
        for name, value in asyncio.run(measure(path, args.stores, args.runs, args.synchronous)).items():
            figures[f"sqlite_{name}"] = value
    if args.backend in ("postgres", "both"):
        print("== PostgreSQL")
        for name, value in asyncio.run(measure_postgres(path, args.postgres, args.stores, args.runs)).items():
            figures[f"postgres_{name}"] = value
    print(f"== {args.deals} deals across {args.servers} servers")
    for name, value in figures.items():
        print(f"{name}: {value:.2f}")
    if folder is not None:
        folder.cleanup()
    elif not args.keep:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)


if __name__ == "__main__":
    main()
