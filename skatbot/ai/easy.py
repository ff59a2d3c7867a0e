"""The `easy` level: plausible and beatable.

Bids on jacks and trump length alone, always picks up the skat, buries high singletons, names its
longest suit (grand with three jacks and two aces, never null), and plays by two rules: win the trick
cheaply when it can, otherwise throw its lowest card. It does not count cards or remember voids.
"""

from __future__ import annotations

import random

from skatbot.engine.actions import PICK_UP, Action, Declare, Discard, PickUpSkat, PlayCard
from skatbot.engine.cards import Card, Rank, Suit
from skatbot.engine.deal import Phase
from skatbot.engine.games import TRICK_TABLES, Contract, GameType
from skatbot.engine.views import SeatView

from .auction import auction_action, game_value
from .base import BasePlayer, Level
from .knowledge import beats, trick_state


class EasyPlayer(BasePlayer):
    level = Level.EASY

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        phase = view.phase
        if phase is Phase.AUCTION:
            return auction_action(view, bid_limit(view.hand))
        if phase is Phase.SKAT:
            if PICK_UP in view.legal_actions:
                return PICK_UP
            return _declare(view, rng)
        if phase is Phase.DISCARD:
            return _discard(view.hand)
        if phase is Phase.DECLARE:
            return _declare(view, rng)
        return _play(view)


def _longest_suit(hand: tuple[Card, ...] | list[Card]) -> Suit:
    counts = {suit: sum(1 for c in hand if c.suit is suit and not c.is_jack) for suit in Suit}
    return max(Suit, key=lambda s: (counts[s], s))


def _wants_grand(hand: tuple[Card, ...] | list[Card]) -> bool:
    jacks = sum(1 for c in hand if c.is_jack)
    aces = sum(1 for c in hand if c.rank is Rank.ACE)
    return jacks >= 3 and aces >= 2


def bid_limit(hand: tuple[Card, ...]) -> int:
    """The value of the game the hand shows at a glance, or 0 to pass."""
    if _wants_grand(hand):
        return game_value(GameType.GRAND, hand)
    jacks = sum(1 for c in hand if c.is_jack)
    suit = _longest_suit(hand)
    trumps = jacks + sum(1 for c in hand if c.suit is suit and not c.is_jack)
    if trumps >= 6 or (trumps >= 5 and jacks >= 2):
        return game_value(GameType.from_suit(suit), hand)
    return 0


def _discard(hand: tuple[Card, ...]) -> Discard:
    """Bury the two highest non-trump cards, singletons first."""
    trump = _longest_suit(hand)
    grand = _wants_grand(hand)
    candidates = [c for c in hand if not c.is_jack and (grand or c.suit is not trump)]
    if len(candidates) < 2:
        candidates = [c for c in hand if not c.is_jack] or list(hand)
    if len(candidates) < 2:
        candidates = list(hand)

    def badness(card: Card) -> tuple[int, int]:
        single = sum(1 for c in hand if c.suit is card.suit and not c.is_jack) == 1
        return (card.points + (5 if single else 0), int(card.rank))

    first, second = sorted(candidates, key=badness, reverse=True)[:2]
    return Discard(min(first, second), max(first, second))


def _declare(view: SeatView, rng: random.Random) -> Action:
    hand = list(view.hand) + list(view.skat) if view.picked_up else list(view.hand)
    hand_game = not view.picked_up
    wanted = [GameType.GRAND] if _wants_grand(view.hand) else []
    wanted.append(GameType.from_suit(_longest_suit(view.hand)))
    wanted += [g for g in (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS,
                           GameType.GRAND) if g not in wanted]
    for game in wanted:
        if game_value(game, hand, hand_game) >= view.bid:
            return _declaration(view, game, hand_game)
    return _declaration(view, wanted[0], hand_game)


def _declaration(view: SeatView, game: GameType, hand_game: bool) -> Action:
    action = Declare(Contract(game, hand_game))
    if action in view.legal_actions:
        return action
    return next(a for a in view.legal_actions if isinstance(a, (Declare, PickUpSkat)))


def _play(view: SeatView) -> PlayCard:
    legal = [a.card for a in view.legal_actions if isinstance(a, PlayCard)]
    assert view.contract is not None  # cards are played once a game (or Ramsch) is set
    game = view.contract.game
    table = TRICK_TABLES[game]

    def low(card: Card) -> tuple[int, int]:
        return (card.points, table.power[card.index])

    if not view.current_trick:
        aces = [c for c in legal if c.rank is Rank.ACE and table.effective_suit[c.index] != 4]
        if aces and game not in (GameType.NULL, GameType.RAMSCH):
            return PlayCard(aces[0])
        return PlayCard(min(legal, key=low))
    led, best, best_seat, _ = trick_state(view)
    winners = [c for c in legal if beats(table, c.index, best, led)]
    partner_wins = view.declarer is not None and best_seat != view.declarer and view.seat != view.declarer
    if game is GameType.NULL:
        if view.is_declarer:
            losers = [c for c in legal if c not in winners]
            return PlayCard(max(losers, key=low) if losers else min(legal, key=low))
        return PlayCard(min(legal, key=low))
    if winners and not partner_wins and game is not GameType.RAMSCH:
        return PlayCard(min(winners, key=low))
    return PlayCard(min(legal, key=low))
