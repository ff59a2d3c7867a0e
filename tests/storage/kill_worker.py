"""A process that plays and stores Skat deals, for the kill-and-restart test (run as a script).

`setup DB TABLES DEALS` creates the players and tables (seated, started). `play DB [ACKS PAUSE]` restores
every unfinished table by replaying its log with the tables layer's replayer (as the bot does at start-up),
then plays on with seeded random legal actions. Every log entry is stored before `ack TABLE SEQ ENTRY` is
printed; every finished deal is stored with its score rows before `deal TABLE NUMBER` is printed. With
ACKS and PAUSE, the process SIGKILLs itself PAUSE seconds after its ACKS-th acknowledgement, while it goes
on storing: a random point of its own progress, however fast the test reads what it printed.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

from skatbot.engine import Action, Deal, RuleSet
from skatbot.storage import Player, SqliteStorage, TableState, UnfinishedTable
from skatbot.storage.recording import deal_record
from skatbot.tables.game import FinishedDeal, TableGame
from skatbot.tables.log import Act, Join, NewDeal, Start
from skatbot.tables.replay import replay_log

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
                rules=rules.to_dict(), series_length=deals, seats=seats, size=len(seats), now=now())
            lobby = [*(Join(player, str(player)) for player in seats), Start()]
            for seq, entry in enumerate(lobby):
                await storage.tables.append(table_id=table.table_id, seq=seq, entry=str(entry), now=now())
            await storage.tables.set_state(table_id=table.table_id, state=TableState.PLAYING, now=now())
    finally:
        await storage.close()


def choose(deal: Deal, table_id: int, seq: int) -> Action:
    """A seeded random legal action: the same position always gets the same choice."""
    return random.Random(f"{table_id}/{seq}").choice(deal.legal_actions())


class Killer:
    """SIGKILL this process `pause` seconds after the `acks`-th acknowledgement (never with acks None)."""

    def __init__(self, acks: int | None, pause: float) -> None:
        self.left = acks
        self.pause = pause

    def start(self) -> None:
        """At start-up: with no acknowledgement to wait for, the kill comes while the tables are restored."""
        if self.left == 0:
            self._arm()

    def acked(self) -> None:
        if self.left is None or self.left <= 0:
            return
        self.left -= 1
        if self.left == 0:
            self._arm()

    def _arm(self) -> None:
        threading.Timer(self.pause, lambda: os.kill(os.getpid(), signal.SIGKILL)).start()


async def play_table(storage: SqliteStorage, unfinished: UnfinishedTable, killer: Killer) -> None:
    table = unfinished.table
    game = replay_log(size=table.size, deals=table.series_length, rules=RuleSet.from_dict(table.rules),
                      creator_id=table.creator_id, entries=[entry.entry for entry in unfinished.log]).game
    # Store every finished deal again: a deal stored before the kill is a no-op retry, one finished but not
    # stored yet (killed between its last action and the record) is stored now.
    for finished in game.finished:
        await store(storage, table.table_id, table.server_id, game, finished)
    seq = unfinished.log[-1].seq + 1 if unfinished.log else 0
    while True:
        if game.state.value == "finished":
            await storage.deals.finish_series(table_id=table.table_id, now=now())
            print(f"finished {table.table_id}", flush=True)
            return
        if game.needs_new_deal:
            entry: NewDeal | Act = NewDeal(game.deal_number + 1, table.table_id * 1000 + game.deal_number + 1)
        else:
            assert game.deal is not None
            entry = Act(game.deal_number, game.deal.current_seat, choose(game.deal, table.table_id, seq))
        await storage.tables.append(table_id=table.table_id, seq=seq, entry=str(entry), now=now())
        print(f"ack {table.table_id} {seq} {entry}", flush=True)
        killer.acked()
        seq += 1
        row = game.apply(entry)
        if row is not None:
            await store(storage, table.table_id, table.server_id, game, row)


async def store(storage: SqliteStorage, table_id: int, server_id: int, game: TableGame, row: FinishedDeal) -> None:
    moment = now()
    record = deal_record(table_id=table_id, server_id=server_id, deal_number=row.number + 1, deal=row.deal,
                         players=[o.player_id for o in game.places], names=game.list_names(), seats=row.places,
                         scores=row.place_scores, seeger=row.row.seeger, bock=row.row.bock, started_at=moment,
                         finished_at=moment)
    await storage.deals.store(record=record)
    print(f"deal {table_id} {row.number + 1}", flush=True)


async def play(path: Path, killer: Killer) -> None:
    storage = await SqliteStorage.open(path)
    try:
        killer.start()
        for unfinished in await storage.load_unfinished_tables():
            await play_table(storage, unfinished, killer)
    finally:
        await storage.close()
    print("done", flush=True)


def main(argv: list[str]) -> None:
    if argv[:1] == ["setup"] and len(argv) == 4:
        asyncio.run(setup(Path(argv[1]), int(argv[2]), int(argv[3])))
    elif argv[:1] == ["play"] and len(argv) == 2:
        asyncio.run(play(Path(argv[1]), Killer(None, 0.0)))
    elif argv[:1] == ["play"] and len(argv) == 4:
        asyncio.run(play(Path(argv[1]), Killer(int(argv[2]), float(argv[3]))))
    else:
        raise SystemExit("usage: kill_worker.py setup DB TABLES DEALS | play DB [ACKS PAUSE]")


if __name__ == "__main__":
    main(sys.argv[1:])
