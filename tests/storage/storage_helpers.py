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


async def play_series(storage: SqliteStorage, *, table_id: int, seed: int, deals: int | None = None) -> None:
    """Play a table's series with seeded random legal actions, logging every action and storing every deal
    as the tables layer does (the log first, then the record with the series row)."""
    import random

    from skatbot.engine import Deal
    from skatbot.engine.series import Series
    from skatbot.storage import LogKind
    from skatbot.storage.recording import deal_record
    from skatbot.storage.replay import deal_payload, rules_of

    table = await storage.tables.get(table_id=table_id)
    rules = rules_of(table.rules)
    names = [str(player) for player in table.seats]
    series = Series(names, table.series_length, rules)
    rng = random.Random(seed)
    seq = 0
    for number in range(1, (deals or table.series_length) + 1):
        seating = series.next_deal_seats()
        deal = Deal.new(seed * 1000 + number, rules)
        await storage.tables.append(table_id=table_id, seq=seq, deal_number=number, kind=LogKind.DEAL,
                                    payload=deal_payload(deal, dealer=seating.dealer), now=NOW)
        seq += 1
        while not deal.is_over:
            seat = deal.current_seat
            action = rng.choice(deal.legal_actions())
            if deal.declarer is not None and not deal.tricks and rng.random() < 0.5:
                defenders = [s for s in range(3) if s != deal.declarer and deal.side_actions(s)]
                side = deal.side_actions(defenders[0])[0] if defenders else None
                if side is not None and str(side) == "kontra":
                    seat, action = defenders[0], side
            deal.apply(action, seat)
            await storage.tables.append(table_id=table_id, seq=seq, deal_number=number, kind=LogKind.ACTION,
                                        payload=str(action), seat=seat, now=NOW)
            seq += 1
        row = series.record(deal.result, deal)
        await storage.deals.store(record=deal_record(
            table_id=table_id, server_id=table.server_id, deal_number=number, deal=deal, players=table.seats,
            names=names, seats=row.seats, scores=row.scores, seeger=row.seeger, bock=row.bock, started_at=NOW,
            finished_at=NOW))
