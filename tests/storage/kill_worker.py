"""A process that plays and stores Skat deals, for the kill-and-restart test (run as a script).

`setup DB TABLES DEALS` creates the players and tables. `play DB` restores every unfinished table by
replaying its log (as the bot does at start-up), then plays on with seeded random legal actions. Every
action is stored before `ack TABLE SEQ ACTION` is printed; every finished deal is stored with its score
rows before `deal TABLE NUMBER` is printed. The test SIGKILLs this process at random points.
"""

from __future__ import annotations

import asyncio
import random
import sys
from datetime import UTC, datetime
from pathlib import Path

from skatbot.engine import Deal, RuleSet
from skatbot.engine.series import Series
from skatbot.storage import LogKind, Player, SqliteStorage, TableState, UnfinishedTable
from skatbot.storage.recording import deal_record
from skatbot.storage.replay import deal_payload, replay_deals, rules_of

PLAYERS = (Player(101, "Anna"), Player(102, "Bert"), Player(103, "Carla"), Player(-1, "AI Easy", is_ai=True))
SERVER = 7


def now() -> datetime:
    return datetime.now(UTC)


async def setup(path: Path, tables: int, deals: int) -> None:
    storage = await SqliteStorage.open(path)
    try:
        for player in PLAYERS:
            await storage.players.save(player=player, now=now())
        rules = RuleSet.preset("pub")
        for number in range(tables):
            seats = [p.player_id for p in PLAYERS] if number % 2 else [p.player_id for p in PLAYERS[:3]]
            table = await storage.tables.create(
                server_id=SERVER, channel_id=1000 + number, creator_id=101, rule_preset="pub",
                rules=rules.to_dict(), series_length=deals, seats=seats, now=now())
            await storage.tables.set_state(table_id=table.table_id, state=TableState.PLAYING, now=now())
    finally:
        await storage.close()


def choose(deal: Deal, table_id: int, seq: int) -> object:
    """A seeded random legal action: the same position always gets the same choice."""
    return random.Random(f"{table_id}/{seq}").choice(deal.legal_actions())


async def play_table(storage: SqliteStorage, unfinished: UnfinishedTable) -> None:
    table = unfinished.table
    rules = rules_of(table.rules)
    names = [str(player) for player in table.seats]
    series = Series(names, table.series_length, rules)
    replayed = replay_deals(unfinished.log, rules)
    seq = unfinished.next_seq
    current: Deal | None = None
    for item in replayed:
        if not item.deal.is_over:
            current = item.deal
            break
        row = series.record(item.deal.result, item.deal)
        # Store every finished deal again: a deal stored before the kill is a no-op retry, one finished
        # but not stored yet (killed between its last action and the record) is stored now.
        await store(storage, table.table_id, table.server_id, table.seats, names, item.number, item.deal, row)
    while True:
        if current is None:
            if series.is_over:
                await storage.deals.finish_series(table_id=table.table_id, now=now())
                print(f"finished {table.table_id}", flush=True)
                return
            number = len(series.rows) + 1
            seating = series.next_deal_seats()
            current = Deal.new(table.table_id * 1000 + number, rules)
            await storage.tables.append(table_id=table.table_id, seq=seq, deal_number=number, kind=LogKind.DEAL,
                                        payload=deal_payload(current, dealer=seating.dealer), now=now())
            print(f"ack {table.table_id} {seq} deal", flush=True)
            seq += 1
        number = len(series.rows) + 1
        while not current.is_over:
            seat = current.current_seat
            action = choose(current, table.table_id, seq)
            await storage.tables.append(table_id=table.table_id, seq=seq, deal_number=number, kind=LogKind.ACTION,
                                        payload=str(action), seat=seat, now=now())
            print(f"ack {table.table_id} {seq} {action}", flush=True)
            current.apply(action, seat)  # type: ignore[arg-type]
            seq += 1
        row = series.record(current.result, current)
        await store(storage, table.table_id, table.server_id, table.seats, names, number, current, row)
        current = None


async def store(storage: SqliteStorage, table_id: int, server_id: int, players: tuple[int, ...], names: list[str],
                number: int, deal: Deal, row: object) -> None:
    moment = now()
    record = deal_record(table_id=table_id, server_id=server_id, deal_number=number, deal=deal, players=players,
                         names=names, seats=row.seats, scores=row.scores, seeger=row.seeger,  # type: ignore[attr-defined]
                         bock=row.bock, started_at=moment, finished_at=moment)  # type: ignore[attr-defined]
    await storage.deals.store(record=record)
    print(f"deal {table_id} {number}", flush=True)


async def play(path: Path) -> None:
    storage = await SqliteStorage.open(path)
    try:
        for unfinished in await storage.load_unfinished_tables():
            await play_table(storage, unfinished)
    finally:
        await storage.close()
    print("done", flush=True)


def main(argv: list[str]) -> None:
    if argv[:1] == ["setup"] and len(argv) == 4:
        asyncio.run(setup(Path(argv[1]), int(argv[2]), int(argv[3])))
    elif argv[:1] == ["play"] and len(argv) == 2:
        asyncio.run(play(Path(argv[1])))
    else:
        raise SystemExit("usage: kill_worker.py setup DB TABLES DEALS | play DB")


if __name__ == "__main__":
    main(sys.argv[1:])
