"""A bot process that dies with an AI turn due, for the takeover test (run as a script).

`python due_worker.py URL LEASE` opens the database (a PostgreSQL URL or a SQLite path), opens a table with
Anna and two AI seats, and plays Anna's turns (her first legal action) until an AI seat must move. Its AI
never answers (the process is about to die while thinking), so the AI step stays due, held by this process
for LEASE seconds past its time. It prints `due TABLE SEQ` and waits to be killed.
"""

from __future__ import annotations

import asyncio
import sys
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

from skatbot.ai import Level
from skatbot.engine import RuleSet
from skatbot.storage import open_storage
from skatbot.tables import TableTiming
from skatbot.tables.manager import TableManager
from skatbot.tables.memory import RecordingPresenter
from skatbot.wiring import StorageTables

ANNA = 101
TIMING = TableTiming(turn_seconds=3600, warn_after=3000, kontra_window=0.0)


class Thinking(Executor):
    """An AI that never answers."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


async def main(url: str, lease: float) -> None:
    storage = await open_storage(database_url=url if url.startswith("postgresql://") else None,
                                 database_path=Path(url))
    store = StorageTables(storage, lease=lease)
    manager = TableManager(catalog=store, store=store, presenter=RecordingPresenter(), executor=Thinking(),
                           timing=TIMING, new_seed=lambda: 424242)
    await store.save_player(player_id=ANNA, name="Anna", is_ai=False)
    table = await manager.create(guild_id=7, channel_id=70, creator_id=ANNA, creator_name="Anna", size=3, deals=2,
                                 rules=RuleSet())
    await table.add_ai(ANNA, Level.NORMAL)
    await table.add_ai(ANNA, Level.NORMAL)
    await table.start(ANNA)
    for _ in range(50):
        deal = table.game.deal
        assert deal is not None and deal.current_seat is not None
        if not table.game.occupant_of_seat(deal.current_seat).plays_itself:
            break
        await table.act(ANNA, deal.legal_actions()[0])
    else:
        raise SystemExit("no AI turn came")
    print(f"due {table.id} {table.seq}", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2])))
