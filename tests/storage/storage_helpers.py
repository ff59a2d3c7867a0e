"""Helpers for the storage tests: a fixed clock, hand-made deal records, and series played as the tables layer plays them."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from datetime import UTC, datetime

from skatbot.engine import Ending, RuleSet, parse_game_text
from skatbot.models import SeriesStanding
from skatbot.storage import DealRecord, DealScore, Player, PostgresStorage, Role, SqliteStorage, Storage
from skatbot.storage.database import Database
from skatbot.storage.postgres.database import PostgresDatabase
from skatbot.storage.recording import deal_record
from skatbot.tables.game import FinishedDeal, TableGame
from skatbot.tables.log import Act, Entry, Join, NewDeal, Start

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
AnyStorage = SqliteStorage | PostgresStorage
"""What the `storage` fixture gives: either backend (tests may read its `database` directly)."""


async def schema_version(database: Database | PostgresDatabase) -> int:
    """The version of the migrations applied, as the database keeps it (SQLite's user_version, PostgreSQL's
    schema_version table)."""
    if isinstance(database, Database):
        rows = await database.fetch_all("PRAGMA user_version")
    else:
        rows = await database.fetch_all("SELECT COALESCE(MAX(version), 0) FROM schema_version")
    return int(rows[0][0])


async def series_list(storage: Storage, table_id: int) -> tuple[bool, list[SeriesStanding]]:
    """The series' list as /skat scores export gives it (`export_series_json`): whether it is final, and its lines
    (the running list until then)."""
    document = json.loads(await storage.deals.export_series_json(table_id=table_id))
    return document["final"], [SeriesStanding(s["player"], s["place"], s["total"], s["seeger"], s["deals"])
                               for s in document["standings"]]


async def final_ranking(storage: Storage, table_id: int) -> list[SeriesStanding]:
    """The series' final list; the series must be finished."""
    final, lines = await series_list(storage, table_id)
    assert final, f"the series of table {table_id} is not finished"
    return lines


async def add_players(storage: Storage, *players: Player) -> None:
    for player in players:
        await storage.players.save(player=player, now=NOW)


def record(*, table_id: int, number: int, server_id: int, scores: Mapping[int, int], finished_at: datetime,
           declarer: int | None = None, game: str = "clubs", contract: str | None = None, won: bool = True,
           value: int = 24, hand: bool = False, ouvert: bool = False, seeger: Mapping[int, int] | None = None,
           out: int | None = None, bock: int = 0) -> DealRecord:
    """A deal record with hand-chosen numbers: `scores` maps player id to list points (in seat order)."""
    lines = []
    for seat, (player, score) in enumerate(p for p in scores.items() if p[0] != out):
        if declarer is None:
            role, side_won = (Role.PASSED if game == "passed" else Role.RAMSCH), None
        elif player == declarer:
            role, side_won = Role.DECLARER, won
        else:
            role, side_won = Role.DEFENDER, not won
        lines.append(DealScore(player, seat, role, side_won, score, (seeger or {}).get(player, 0)))
    if out is not None:
        lines.append(DealScore(out, None, Role.OUT, None, scores[out], (seeger or {}).get(out, 0)))
    return DealRecord(
        table_id=table_id, deal_number=number, server_id=server_id, declarer_id=declarer, game=parse_game_text(game),
        contract=contract if contract is not None else ("" if game == "passed" else game), hand=hand,
        ouvert=ouvert, bid=18, won=won, overbid=False, schneider=False, schwarz=False, matadors=1,
        declarer_points=70, declarer_tricks=6, multiplier=2, value=value,
        score=scores[declarer] if declarer is not None else 0, ending=Ending.PLAYED_OUT, kontra=False, re=False,
        bock=bock, iss=f"(;GM[Skat]ID[{table_id}-{number}] ;)", record_json=f'{{"deal": {number}}}',
        started_at=finished_at, finished_at=finished_at, scores=tuple(lines))


async def play_series(storage: Storage, *, table_id: int, seed: int, deals: int | None = None) -> None:
    """Play a table's series as the tables layer does: its seats join, play starts, each deal is dealt from
    a seed and played with seeded random legal actions (now and then a Kontra). Every entry goes through
    `TableGame` and is logged in its text form under the table's sequence number before the next; every
    finished deal is stored with its list row."""
    table = await storage.tables.get(table_id=table_id)
    assert len(table.seats) == table.size, "seat every player of the table first"
    game = TableGame(size=table.size, deals=table.series_length, rules=RuleSet.from_dict(table.rules),
                     creator_id=table.creator_id)
    rng = random.Random(seed)
    seq = 0

    async def log(entry: Entry) -> FinishedDeal | None:
        nonlocal seq
        finished = game.apply(entry)
        await storage.tables.append(table_id=table_id, seq=seq, entry=str(entry), now=NOW)
        seq += 1
        return finished

    for player in table.seats:
        await log(Join(player, str(player)))
    await log(Start())
    for number in range(deals or table.series_length):
        await log(NewDeal(number, seed * 1000 + number))
        row = None
        while row is None:
            deal = game.deal
            assert deal is not None
            seat, action = deal.current_seat, rng.choice(deal.legal_actions())
            if deal.declarer is not None and not deal.tricks and rng.random() < 0.5:
                defenders = [s for s in range(3) if s != deal.declarer and deal.side_actions(s)]
                side = deal.side_actions(defenders[0])[0] if defenders else None
                if side is not None and str(side) == "kontra":
                    seat, action = defenders[0], side
            row = await log(Act(number, seat, action))
        await storage.deals.store(record=deal_record(
            table_id=table_id, server_id=table.server_id, deal_number=number + 1, deal=row.deal,
            players=table.seats, names=game.list_names(), seats=row.places, scores=row.place_scores,
            seeger=row.row.seeger, bock=row.row.bock, started_at=NOW, finished_at=NOW))
