"""The `normal` level: hand evaluation for bidding and the game choice, careful discards, and the
card-play heuristics of `cardplay`.

It bids only up to the value of a game it expects to win (value from its own matadors, so never past
what the hand can be worth), plays hand only when that pays better than the skat, buries points it
cannot protect, declares null when the hand is safe, and says Kontra/Re on clearly strong hands.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from skatbot.engine.actions import KONTRA, PICK_UP, RE, Action, Declare, Discard, Kontra
from skatbot.engine.cards import Card, Rank
from skatbot.engine.deal import Phase
from skatbot.engine.games import TRICK_TABLES, TRUMP, Contract, GameType
from skatbot.engine.views import SeatView

from .auction import TRUMP_GAMES, auction_action, game_value, value_chance
from .base import BasePlayer, Level
from .cardplay import choose_card
from .evaluation import (
    HAND_SKAT_POINTS,
    null_discard,
    null_probability,
    ramsch_expectation,
    strength,
    win_probability,
)

BID_CONFIDENCE = 0.5
"""Bid a game whose estimated chance (for the game the hand points to before the skat) is at least this.
Tuned by duplicate tournaments of normal against normal: 0.5 beat 0.6 by +1.5 points per deal (95% CI
+0.1..+2.8 over 600 deals) and 0.7 lost -1.9; the games actually declared win about 78% of the time,
since the declarer still picks the best game after seeing the skat."""
RAMSCH_CONFIDENCE_PER_POINT = 0.002
RAMSCH_CONFIDENCE_CAP = 0.15
"""Where an all-pass is played as Ramsch: the confidence a bid needs drops by this much per point the hand
is expected to lose in the Ramsch (at most by the cap)."""
BURIED_POINT_WEIGHT = 0.03
"""Strength per card point buried in the skat. The strength score already marks bare tens down, so
burying them pays twice; tournaments against 0.05 gave +0.5 (0.03) and -4.0 (0.1) points per deal."""


@dataclass(frozen=True, slots=True)
class Option:
    """A game the declarer could play: the contract, its value, the chance to win, and the discard."""

    contract: Contract
    value: int
    chance: float
    discard: tuple[Card, Card] | None = None

    @property
    def expected(self) -> float:
        """Expected Seeger-Fabian result for the declarer against the table (a loss also pays 80)."""
        return self.chance * (self.value + 50) - (1 - self.chance) * (2 * self.value + 130)


class NormalPlayer(BasePlayer):
    level = Level.NORMAL
    bid_confidence = BID_CONFIDENCE

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        phase = view.phase
        if phase is Phase.AUCTION:
            return auction_action(view, bid_limit(view.hand, view.seat, self.confidence(view)))
        if phase is Phase.SKAT:
            best_hand = best_option(hand_options(view.hand, view.seat, view.bid))
            pickup = pickup_expectation(view.hand, view.seat, view.bid)
            if best_hand is not None and (pickup is None or best_hand.expected > pickup):
                return Declare(best_hand.contract)
            return PICK_UP
        if phase is Phase.DISCARD:
            option = best_option(skat_options(view.hand, view.seat, view.bid))
            assert option is not None and option.discard is not None
            first, second = sorted(option.discard)
            return Discard(first, second)
        if phase is Phase.DECLARE:
            option = best_option(declare_options(view.hand, view.skat, view.seat, view.bid))
            assert option is not None
            return Declare(option.contract)
        return choose_card(view, rng)

    def confidence(self, view: SeatView) -> float:
        """The chance a game needs for a bid. Where all passing means Ramsch and nobody has bid yet, a hand
        likely to lose the Ramsch (by `ramsch_expectation`, with the table's Jungfrau) bids on less."""
        if not view.rules.ramsch or view.bid:
            return self.bid_confidence
        fear = max(0.0, -ramsch_expectation(view.hand, view.rules.ramsch_jungfrau))
        return self.bid_confidence - min(RAMSCH_CONFIDENCE_CAP, fear * RAMSCH_CONFIDENCE_PER_POINT)

    def decide_side(self, view: SeatView, offered: Action, rng: random.Random) -> Action | None:
        contract = view.contract
        if contract is None or contract.game is GameType.NULL:
            return None
        if isinstance(offered, Kontra):
            return KONTRA if defender_strong(view.hand, contract.game) else None
        options = declare_options(view.hand, view.skat, view.seat, view.bid)
        mine = [o for o in options if o.contract.game is contract.game]
        if mine and mine[0].chance >= 0.93:
            return RE
        return None


# --- bidding --------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class BidBasis:
    """What a bid limit rests on: the game behind it (None: no game), played hand or not, and its
    estimated chance to win; for a hand that supports no bid, the best game's chance all the same."""

    limit: int
    game: GameType | None
    hand_game: bool
    chance: float


def bid_limit(hand: Sequence[Card], seat: int, confidence: float = BID_CONFIDENCE) -> int:
    """The highest bid this hand supports: the value of the best game it wins often enough, counting the
    risk that the skat spoils matadors "against"."""
    return bid_basis(hand, seat, confidence).limit


def bid_basis(hand: Sequence[Card], seat: int, confidence: float = BID_CONFIDENCE) -> BidBasis:
    """`bid_limit` with the game that sets it (hints explain a bid with it)."""
    forehand = seat == 0
    best = BidBasis(0, None, False, 0.0)
    for game in TRUMP_GAMES:
        score = strength(hand, game, forehand)
        chances = ((False, win_probability(game, score, before_skat=True)),
                   (True, win_probability(game, score + HAND_SKAT_POINTS) * 0.85))
        for hand_game, chance in chances:
            value = game_value(game, hand, hand_game)
            while value > best.limit and chance * value_chance(game, hand, value, hand_game) < confidence:
                value -= game.base_value
            if value >= 18 and value > best.limit:
                best = BidBasis(value, game, hand_game, chance * value_chance(game, hand, value, hand_game))
            elif best.limit == 0 and chance > best.chance:
                best = BidBasis(0, game, hand_game, chance)
    null_chance = null_probability(hand, discards_to_come=2)
    if null_chance >= 0.66 and best.limit < 23:
        best = BidBasis(23, GameType.NULL, False, null_chance)
    null_hand = null_probability(hand)
    if null_hand >= 0.85 and best.limit < 35:
        best = BidBasis(35, GameType.NULL, True, null_hand)
    return best


def pickup_expectation(hand: Sequence[Card], seat: int, bid: int) -> float | None:
    """Expected result of picking up, judged before seeing the skat (None: nothing worth the bid)."""
    forehand = seat == 0
    best: float | None = None
    for game in TRUMP_GAMES:
        value = max(game_value(game, hand), bid)
        chance = win_probability(game, strength(hand, game, forehand), before_skat=True) * value_chance(
            game, hand, bid)
        if chance <= 0:
            continue
        expected = Option(Contract(game), value, chance).expected
        best = expected if best is None else max(best, expected)
    if bid <= 23:
        expected = Option(Contract(GameType.NULL), 23, null_probability(hand, discards_to_come=2)).expected
        best = expected if best is None else max(best, expected)
    return best


def hand_options(hand: Sequence[Card], seat: int, bid: int) -> list[Option]:
    """Games to play without the skat that are worth the bid."""
    forehand = seat == 0
    options = []
    for game in TRUMP_GAMES:
        value = game_value(game, hand, hand_game=True)
        if value >= bid:
            chance = win_probability(game, strength(hand, game, forehand) + HAND_SKAT_POINTS)
            options.append(Option(Contract(game, True), value, chance * value_chance(game, hand, bid, True)))
    for ouvert, value in ((False, 35), (True, 59)):
        if value >= bid:
            options.append(Option(Contract(GameType.NULL, True, ouvert=ouvert), value,
                                  null_probability(hand, ouvert=ouvert)))
    return options


def best_option(options: list[Option]) -> Option | None:
    return max(options, key=lambda o: o.expected, default=None)


# --- skat and declaration -------------------------------------------------------------------------

def skat_options(hand: Sequence[Card], seat: int, bid: int) -> list[Option]:
    """For each game, the best two cards to bury from the twelve and how the game then looks."""
    forehand = seat == 0
    options = []
    for game in TRUMP_GAMES:
        options.append(_best_discard(hand, game, forehand, bid))
    first, second = null_discard(hand)
    rest = [c for c in hand if c is not first and c is not second]
    options.extend(_null_options(rest, bid, (first, second)))
    return options


def declare_options(hand: Sequence[Card], skat: Sequence[Card], seat: int, bid: int) -> list[Option]:
    """The games open after the discard, judged on the ten cards kept plus the buried points."""
    forehand = seat == 0
    twelve = list(hand) + list(skat)
    buried = sum(c.points for c in skat) * BURIED_POINT_WEIGHT
    options = []
    for game in TRUMP_GAMES:
        worth = game_value(game, twelve)
        chance = win_probability(game, strength(hand, game, forehand) + buried) if worth >= bid else 0.0
        options.append(Option(Contract(game), _value_or_overbid(game, twelve, bid), chance))
    options.extend(_null_options(list(hand), bid, None))
    return options


def _null_options(kept: list[Card], bid: int, discard: tuple[Card, Card] | None) -> list[Option]:
    options = []
    for ouvert, value in ((False, 23), (True, 46)):
        if value >= bid:
            options.append(Option(Contract(GameType.NULL, ouvert=ouvert), value,
                                  null_probability(kept, ouvert=ouvert), discard))
    return options


def _value_or_overbid(game: GameType, twelve: Sequence[Card], bid: int) -> int:
    value = game_value(game, twelve)
    if value >= bid:
        return value
    return -(-bid // game.base_value) * game.base_value  # what an overbid game is charged at


def _best_discard(hand: Sequence[Card], game: GameType, forehand: bool, bid: int) -> Option:
    table = TRICK_TABLES[game]
    trumps_kept = [c for c in hand if table.effective_suit[c.index] == TRUMP]
    candidates = [c for c in hand if table.effective_suit[c.index] != TRUMP]
    if len(candidates) < 2:
        candidates = [c for c in hand if not c.is_jack] if len(trumps_kept) < 11 else list(hand)
    if len(candidates) < 2:
        candidates = list(hand)
    value = _value_or_overbid(game, hand, bid)
    best: tuple[float, tuple[Card, Card]] | None = None
    for first, second in combinations(candidates, 2):
        kept = [c for c in hand if c is not first and c is not second]
        score = strength(kept, game, forehand) + (first.points + second.points) * BURIED_POINT_WEIGHT
        if best is None or score > best[0]:
            best = (score, (first, second))
    assert best is not None
    overbid = game_value(game, hand) < bid
    chance = 0.0 if overbid else win_probability(game, best[0])
    return Option(Contract(game), value, chance, best[1])


# --- kontra ---------------------------------------------------------------------------------------

def defender_strong(hand: Sequence[Card], game: GameType) -> bool:
    """A defender's hand that makes the declared game likely to fail: trumps and aces behind it."""
    table = TRICK_TABLES[game]
    trumps = [c for c in hand if table.effective_suit[c.index] == TRUMP]
    jacks = sum(1 for c in trumps if c.is_jack)
    aces = sum(1 for c in hand if c.rank is Rank.ACE and table.effective_suit[c.index] != TRUMP)
    tens = sum(1 for c in hand if c.rank is Rank.TEN and table.effective_suit[c.index] != TRUMP
               and any(o.suit is c.suit and o.rank is Rank.ACE for o in hand))
    if game is GameType.GRAND:
        return (jacks >= 2 and aces + tens >= 3) or jacks >= 3
    return (len(trumps) >= 4 and jacks >= 1 and aces >= 2) or (len(trumps) >= 5 and aces >= 1)
