"""Turning a bidding limit into an auction move, and game values a hand can promise.

Every level decides the highest number it is willing to say or hold (its limit, computed from its own
hand evaluation); this module does the rest of the auction's bookkeeping the same way for all levels.
"""

from __future__ import annotations

from collections.abc import Iterable

from skatbot.engine.actions import HOLD, PASS, Action, Bid, Hold
from skatbot.engine.cards import Card, mask_of
from skatbot.engine.games import GameType
from skatbot.engine.scoring import matadors
from skatbot.engine.views import SeatView

SUIT_GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS)
TRUMP_GAMES = (*SUIT_GAMES, GameType.GRAND)


def auction_action(view: SeatView, limit: int) -> Action:
    """Bid the next number, hold, or pass, never going past `limit`."""
    legal = view.legal_actions
    bids = [a.value for a in legal if isinstance(a, Bid)]
    if bids:
        lowest = min(bids)
        return Bid(lowest) if lowest <= limit else PASS
    if any(isinstance(a, Hold) for a in legal):
        return HOLD if view.bid <= limit else PASS
    return PASS


def game_value(game: GameType, hand: Iterable[Card], hand_game: bool = False) -> int:
    """What `game` is worth with the matadors in `hand`, played with (or without) the skat, no schneider."""
    if game is GameType.NULL:
        return 35 if hand_game else 23
    tops = abs(matadors(game, mask_of(hand)))
    return game.base_value * (tops + 1 + int(hand_game))


def value_chance(game: GameType, hand: Iterable[Card], bid: int, hand_game: bool = False) -> float:
    """Chance that `game` is still worth `bid` once the unseen skat counts for the matadors.

    "With" matadors can only grow with the skat; "against k" shrinks if the skat holds one of the k
    missing top trumps, so a bid that needs j of them against is safe only when none of those j lie in
    the skat (probability C(22 - j, 2) / C(22, 2)).
    """
    if game is GameType.NULL:
        return 1.0 if game_value(game, hand, hand_game) >= bid else 0.0
    extra = 1 + int(hand_game)
    if game.base_value * (1 + extra) >= bid:  # even "with 1" or "against 1" is enough
        return 1.0
    tops = matadors(game, mask_of(hand))
    needed = -(-bid // game.base_value) - extra
    if abs(tops) < needed:
        return 0.0
    if tops > 0:
        return 1.0
    return (22 - needed) * (21 - needed) / (22 * 21)
