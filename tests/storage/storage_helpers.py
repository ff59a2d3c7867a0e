"""Helpers for the storage tests: a fixed clock and hand-made deal records."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from skatbot.storage import DealRecord, DealScore, Player, Role, SqliteStorage

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


async def add_players(storage: SqliteStorage, *players: Player) -> None:
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
        table_id=table_id, deal_number=number, server_id=server_id, declarer_id=declarer, game=game,
        contract=contract if contract is not None else ("" if game == "passed" else game), hand=hand,
        ouvert=ouvert, bid=18, won=won, overbid=False, schneider=False, schwarz=False, matadors=1,
        declarer_points=70, declarer_tricks=6, multiplier=2, value=value,
        score=scores[declarer] if declarer is not None else 0, ending="played out", kontra=False, re=False,
        bock=bock, iss=f"(;GM[Skat]ID[{table_id}-{number}] ;)", record_json=f'{{"deal": {number}}}',
        started_at=finished_at, finished_at=finished_at, scores=tuple(lines))
