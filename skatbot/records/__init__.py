"""Command line for game records: `python -m skatbot.records replay FILE` (see `__main__`).

A thin shell over `skatbot.engine.records`, which holds the record formats and the replay.
"""

from __future__ import annotations

from typing import Any

from skatbot.engine import Ending, game_text
from skatbot.engine.deal import Deal


def summary(record_id: str, deal: Deal) -> dict[str, Any]:
    """The replayed result of one record, with exactly the keys the replay command prints. `score` is
    the declarer's written score under the deal's rules (the official score under the official rules)."""
    result = deal.result
    contract = result.contract
    return {
        "id": record_id,
        "declarer": result.declarer,
        "game": "penalty" if result.ending is Ending.PENALTY else game_text(result.game),  # no game: not "passed"
        "hand": bool(contract and contract.hand),
        "ouvert": bool(contract and contract.ouvert),
        "won": result.won,
        "overbid": result.overbid,
        "schneider": result.schneider,
        "schwarz": result.schwarz,
        "score": result.score if result.declarer is None else result.seat_scores[result.declarer],
        "matadors": result.matadors,
        "declarer_points": result.declarer_points,
        "declarer_tricks": result.declarer_tricks,
        "seat_scores": list(result.seat_scores),
    }
