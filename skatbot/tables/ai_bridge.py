"""Calls into the AI from an executor: top-level functions of plain, picklable arguments.

A fresh player per decision, seeded from the table, deal and step: decisions are reproducible and
no AI state has to survive between turns (or a restart).
"""

from __future__ import annotations

from skatbot.engine import Action
from skatbot.engine.views import SeatView


def decide(level: str, seed: int, view: SeatView) -> Action:
    """The AI's in-turn action for `view`."""
    from skatbot.ai import make_player

    return make_player(level, seed).choose(view)


def decide_side(level: str, seed: int, view: SeatView) -> Action | None:
    """Kontra or Re when the AI wants to say it, else None."""
    from skatbot.ai import make_player

    return make_player(level, seed).side_action(view)
