"""The par of a challenge deal, and the computer opponents' decisions.

Top-level functions of picklable arguments: the bot runs them in its AI worker processes, never on the
event loop. Each decision is a fresh player seeded by the day, the deal, the seat and the step, so an
opponent answers the par player's line exactly as it answers a person who plays the same cards.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from skatbot.ai import Level, make_player
from skatbot.engine import Action
from skatbot.engine.views import SeatView, seat_view

from .day import CHALLENGE_LEVEL, ChallengeDay
from .results import seeger_fabian_score

log = logging.getLogger(__name__)


def ai_decision(level: Level, seed: int, view: SeatView) -> Action:
    """The AI's action for `view`. A failing AI must not stall an attempt: it is logged, and the first legal
    action is played instead (deterministically, so a replay agrees)."""
    try:
        action = make_player(level, seed).choose(view)
        if action in view.legal_actions:
            return action
        log.error("AI level %s chose %s, which is not legal in %s", level, action, view.phase.value)
    except Exception:
        log.exception("AI level %s failed to decide in %s", level, view.phase.value)
    return view.legal_actions[0]


@dataclass(frozen=True, slots=True)
class ParLine:
    """What the strong AI scored in the player's seat, and the deal's actions that got it there (text)."""

    number: int
    score: int
    moves: tuple[str, ...]


def par_line(day: ChallengeDay, number: int, level: Level = CHALLENGE_LEVEL,
             opponents: Level = CHALLENGE_LEVEL) -> ParLine:
    """Play deal `number` of `day` with the `level` AI in the player's seat against the day's opponents."""
    deal = day.new_deal(number)
    mine = day.player_seat(number)
    moves: list[str] = []
    while not deal.is_over:
        seat = deal.current_seat
        assert seat is not None
        step = len(deal.history)
        seed = day.par_seed(number, step) if seat == mine else day.ai_seed(number, seat, step)
        action = ai_decision(opponents if seat != mine else level, seed, seat_view(deal, seat))
        deal.apply(action, seat)
        moves.append(f"act {number} {seat} {action}")
    return ParLine(number, seeger_fabian_score(deal.result, mine), tuple(moves))
