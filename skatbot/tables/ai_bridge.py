"""Calls into the AI from an executor: top-level functions of plain, picklable arguments.

A fresh player per decision, seeded from the table, deal and step: decisions are reproducible and
no AI state has to survive between turns (or a restart).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from skatbot.ai.base import Level
from skatbot.engine import Action
from skatbot.engine.views import SeatView

if TYPE_CHECKING:
    from skatbot.ai.hint_values import Hint
    from skatbot.ai.verdict import DealAnalysis
    from skatbot.engine.games import GameType

log = logging.getLogger(__name__)


def decide(level: Level, seed: int, view: SeatView) -> Action:
    """The AI's in-turn action for `view`. An AI failure must not stall a table: it is logged, and the
    first legal action is played instead."""
    from skatbot.ai import make_player

    try:
        action = make_player(level, seed).choose(view)
        if action in view.legal_actions:
            return action
        log.error("AI level %s chose %s, which is not legal in %s", level, action, view.phase.value)
    except Exception:
        log.exception("AI level %s failed to decide in %s", level, view.phase.value)
    return view.legal_actions[0]


def decide_side(level: Level, seed: int, view: SeatView) -> Action | None:
    """Kontra or Re when the AI wants to say it, else None (also when the AI fails)."""
    from skatbot.ai import make_player

    try:
        action = make_player(level, seed).side_action(view)
    except Exception:
        log.exception("AI level %s failed to decide on Kontra/Re", level)
        return None
    return action if action is None or action in view.side_actions else None


def analyse_record(record_json: str) -> DealAnalysis:
    """The analysis of a stored deal (its JSON record); raises `NotAnalysable` for passed or ramsch deals.
    Runs in an AI worker: the record goes in as text, the analysis (plain frozen data) comes back."""
    import json

    from skatbot.ai.analysis import analyse
    from skatbot.engine.records.json import deal_from_json

    return analyse(deal_from_json(json.loads(record_json)))


def judge_claim(game: GameType, declarer: int, hands: tuple[int, int, int], leader: int,
                trick: tuple[int, ...]) -> bool:
    """Whether the declarer takes every remaining trick against every defence (null: takes none), with
    every hand open; hands are card masks by seat, the trick begun is in play order."""
    from skatbot.ai.solver import Mode, Position, Solver
    from skatbot.engine.games import GameType

    position = Position(hands, leader, trick)

    if game is GameType.NULL:
        return Solver(game, declarer, Mode.NULL).null_won(position)
    return Solver(game, declarer, Mode.TRICKS).schwarz(position)


def answer_concession(seed: int, view: SeatView) -> bool:
    """A computer defender's answer to its partner's concession (True: it concedes too). A failure is
    logged and answered "play on"."""
    from skatbot.ai.concession import sees_no_chance

    try:
        return sees_no_chance(view, seed)
    except Exception:
        log.exception("the AI failed to answer a concession")
        return False


def hint_for(seed: int, view: SeatView) -> Hint:
    """The strong level's choice for the seat of `view` (the seat to move), with its reason."""
    from skatbot.ai.hints import hint

    return hint(view, seed)
