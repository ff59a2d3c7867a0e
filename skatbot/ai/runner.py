"""Play a deal to its end with one player per seat: the loop tests, benchmarks and the terminal share.

Kontra and Re are out-of-turn calls, so before the first card each seat that may call one is asked
once (defenders first, then the declarer for Re) through `ComputerPlayer.side_action`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from skatbot.engine.actions import Action, Kontra, Re
from skatbot.engine.deal import Deal, Phase
from skatbot.engine.scoring import DealResult
from skatbot.engine.views import seat_view

from .base import ComputerPlayer

Observer = Callable[[Deal, int, Action], None]
"""Called after each applied action with the deal, the acting seat and the action."""


def ask_side_actions(deal: Deal, players: Sequence[ComputerPlayer], asked: set[tuple[int, str]],
                     observer: Observer | None = None) -> None:
    """Offer Kontra/Re to each seat that may say it now and has not been asked for it yet."""
    changed = True
    while changed and deal.phase is Phase.PLAY and not deal.tricks and not deal.current_trick:
        changed = False
        for seat in _side_order(deal):
            offered = [a for a in deal.side_actions(seat) if isinstance(a, (Kontra, Re))]
            if not offered or (seat, str(offered[0])) in asked:
                continue
            asked.add((seat, str(offered[0])))
            action = players[seat].side_action(seat_view(deal, seat))
            if action is not None:
                deal.apply(action, seat)
                if observer is not None:
                    observer(deal, seat, action)
                changed = True


def _side_order(deal: Deal) -> list[int]:
    declarer = deal.declarer
    if declarer is None:
        return []
    return [(declarer + 1) % 3, (declarer + 2) % 3, declarer]


def play_deal(deal: Deal, players: Sequence[ComputerPlayer], observer: Observer | None = None) -> DealResult:
    """Let `players[seat]` make every decision of `seat` until the deal is over; returns the result."""
    if len(players) != 3:
        raise ValueError("a deal needs three players")
    asked: set[tuple[int, str]] = set()
    while not deal.is_over:
        ask_side_actions(deal, players, asked, observer)
        seat = deal.current_seat
        assert seat is not None
        action = players[seat].choose(seat_view(deal, seat))
        deal.apply(action, seat)
        if observer is not None:
            observer(deal, seat, action)
    return deal.result
