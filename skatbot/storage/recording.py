"""Turn a finished engine Deal and its score-list row into the DealRecord that storage keeps (pure).

The list points and Seeger-Fabian points come from the series (the Skatliste writes them, one place
for those rules); this module only maps seats to players and the result to stored fields.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from skatbot.engine import Deal, game_text
from skatbot.engine.records import RecordError, deal_to_json, export_record
from skatbot.models import DealRecord, DealScore, Role


def deal_record(*, table_id: int, server_id: int, deal_number: int, deal: Deal, players: Sequence[int],
                names: Sequence[str], seats: Sequence[int], scores: Sequence[int], seeger: Sequence[int],
                bock: bool, started_at: datetime, finished_at: datetime) -> DealRecord:
    """The stored form of a finished deal.

    `players`/`names` are the table's players (3 or 4) in list order; `seats` gives, for forehand,
    middlehand and rearhand, the index of the player there; `scores` and `seeger` are the list row
    (per player, in list order). The player not in `seats` sat out as dealer.
    """
    if not deal.is_over:
        raise ValueError("only a finished deal is recorded")
    count = len(players)
    if count not in (3, 4) or len(names) != count or len(scores) != count or len(seeger) != count:
        raise ValueError("give players, names, scores and Seeger points for each of the 3 or 4 players")
    if len(seats) != 3 or len(set(seats)) != 3 or not all(0 <= s < count for s in seats):
        raise ValueError("seats names three different players for forehand, middlehand and rearhand")
    result = deal.result
    contract = result.contract
    lines = []
    for index, player in enumerate(players):
        seat = seats.index(index) if index in seats else None
        if seat is None:
            role, won = Role.OUT, None
        elif result.passed:
            role, won = Role.PASSED, None
        elif result.declarer is None:
            role, won = Role.RAMSCH, None
        elif seat == result.declarer:
            role, won = Role.DECLARER, result.won
        else:
            role, won = Role.DEFENDER, not result.won
        lines.append(DealScore(player, seat, role, won, scores[index], seeger[index]))
    record_id = f"{table_id}-{deal_number}"
    try:
        iss = export_record(deal, record_id, [names[i] for i in seats], date=finished_at.strftime("%Y-%m-%d/%H:%M:%S/UTC"))
    except RecordError:
        iss = ""  # Ramsch has no ISS form; the JSON record is complete
    document = deal_to_json(deal, record_id)
    document["players"] = [players[i] for i in seats]
    return DealRecord(
        table_id=table_id, deal_number=deal_number, server_id=server_id,
        declarer_id=None if result.declarer is None else players[seats[result.declarer]], game=result.game,
        contract="" if contract is None else str(contract), hand=bool(contract and contract.hand),
        ouvert=bool(contract and contract.ouvert), bid=result.bid, won=result.won, overbid=result.overbid,
        schneider=result.schneider, schwarz=result.schwarz, matadors=result.matadors,
        declarer_points=result.declarer_points, declarer_tricks=result.declarer_tricks,
        multiplier=result.multiplier, value=result.value, score=result.score, ending=result.ending,
        kontra=result.kontra, re=result.re, bock=int(bock), iss=iss,
        record_json=json.dumps(document, sort_keys=True), started_at=started_at, finished_at=finished_at,
        scores=tuple(lines))


def result_mismatches(record: DealRecord, deal: Deal) -> list[str]:
    """Where a stored record disagrees with the result of its replayed deal (empty: it agrees)."""
    result = deal.result
    contract = result.contract
    expected = {
        "game": game_text(result.game), "contract": "" if contract is None else str(contract), "bid": result.bid,
        "won": result.won, "overbid": result.overbid, "schneider": result.schneider, "schwarz": result.schwarz,
        "matadors": result.matadors, "declarer_points": result.declarer_points,
        "declarer_tricks": result.declarer_tricks, "multiplier": result.multiplier, "value": result.value,
        "score": result.score, "ending": result.ending.value, "kontra": result.kontra, "re": result.re,
    }
    stored = {name: getattr(record, name) for name in expected}
    stored.update(game=game_text(record.game), ending=record.ending.value)  # as the database keeps them
    return [f"{name}: stored {stored[name]!r}, replay gives {value!r}"
            for name, value in expected.items() if stored[name] != value]
