"""Helpers for AI tests: deals from card text, a scripted start, and asking one player for a decision."""

from __future__ import annotations

from skatbot.engine import HOLD, OFFICIAL, PASS, Bid, Deal, RuleSet, parse_action, parse_cards
from skatbot.engine.actions import Action
from skatbot.engine.views import SeatView, seat_view


def make_deal(forehand: str, middlehand: str, rearhand: str, skat: str, rules: RuleSet = OFFICIAL) -> Deal:
    """A deal with the given hands (seats 0, 1, 2) and skat, written as ISS codes."""
    return Deal([parse_cards(forehand), parse_cards(middlehand), parse_cards(rearhand)], parse_cards(skat), rules)


def win_auction(deal: Deal, declarer: int, bid: int = 18) -> None:
    """Drive the auction so that `declarer` wins it at exactly `bid`."""
    by_declarer: dict[int, list[Action]] = {
        0: [Bid(bid), HOLD, PASS, PASS], 1: [Bid(bid), PASS, PASS], 2: [PASS, Bid(bid), PASS]}
    steps = by_declarer[declarer]
    for step in steps:
        deal.apply(step)
    assert deal.declarer == declarer and deal.bid == bid


def apply_all(deal: Deal, moves: str) -> None:
    """Apply moves written as the text a player types, separated by semicolons."""
    for text in moves.split(";"):
        if text.strip():
            deal.apply(parse_action(text))


def view_of(deal: Deal, seat: int | None = None) -> SeatView:
    """What `seat` (default: the seat to move, which a deal in play has) sees."""
    if seat is None:
        assert deal.current_seat is not None, "nobody is to move: the deal is over"
        seat = deal.current_seat
    return seat_view(deal, seat)
