"""Hand evaluation for the `normal` level: how strong a hand is for each game, and the chance it wins.

Suit games and grand get a strength score from jacks, trump length, aces and tens, guarded and bare
tens, voids and position (the weights follow the usual rules of thumb: five or more trumps and an ace
or two for a suit game; three jacks with aces, or two jacks with suits full of aces and tens, for a
grand). A logistic curve, fitted on simulated deals played by this level, turns the score into a
probability of winning. Null hands are judged by their dangerous cards: a card is safe when enough
lower cards of its suit are in the hand to duck under every lead (the k-th lowest held card may be at
most the 2k-th lowest card of the suit).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from skatbot.engine.cards import Card, Rank, Suit
from skatbot.engine.games import GameType

JACK_WEIGHT = {Suit.CLUBS: 0.9, Suit.SPADES: 0.7, Suit.HEARTS: 0.5, Suit.DIAMONDS: 0.4}
GRAND_JACK_WEIGHT = {Suit.CLUBS: 1.5, Suit.SPADES: 1.3, Suit.HEARTS: 1.2, Suit.DIAMONDS: 1.1}
NULL_RANK = {Rank.SEVEN: 0, Rank.EIGHT: 1, Rank.NINE: 2, Rank.TEN: 3, Rank.JACK: 4, Rank.QUEEN: 5,
             Rank.KING: 6, Rank.ACE: 7}

# Logistic fits (strength at 50% and the spread) from 30 000 simulated games: 2 000 deals, each seat
# declaring each suit and grand at 18 after picking up, normal declarer against normal defenders.
# "Before the skat" scores the ten dealt cards; "after" scores the ten kept plus the buried points.
# The per-jack-count terms in the scores were then set so the curves also hold for 0 to 4 jacks
# (a grand with one jack wins far less often than its aces suggest).
SUIT_CURVE_BEFORE_SKAT = (8.15, 1.25)
SUIT_CURVE = (10.0, 0.95)
GRAND_CURVE_BEFORE_SKAT = (5.9, 1.5)
GRAND_CURVE = (7.6, 0.85)
HAND_SKAT_POINTS = 0.35
"""A hand game still gets the skat's points at the end: on average about 7, worth this much strength."""


def _by_suit(hand: Sequence[Card]) -> dict[Suit, list[Rank]]:
    suits: dict[Suit, list[Rank]] = {suit: [] for suit in Suit}
    for card in hand:
        if not card.is_jack:
            suits[card.suit].append(card.rank)
    return suits


def suit_strength(hand: Sequence[Card], trump: Suit, forehand: bool) -> float:
    """Strength of `hand` for a suit game with `trump` (jacks plus that suit are trumps)."""
    suits = _by_suit(hand)
    jacks = [c.suit for c in hand if c.is_jack]
    trump_ranks = suits[trump]
    trumps = len(jacks) + len(trump_ranks)
    score = float(trumps) + sum(JACK_WEIGHT[s] for s in jacks) + (0.0, 0.0, 0.15, 0.6, 1.2)[len(jacks)]
    if Rank.ACE in trump_ranks:
        score += 0.6
    if Rank.TEN in trump_ranks:
        score += 0.4
    for suit, ranks in suits.items():
        if suit is trump:
            continue
        score += _side_suit(ranks, trumps)
    if forehand:
        score += 0.4
    return score


def _side_suit(ranks: list[Rank], trumps: int) -> float:
    count = len(ranks)
    if count == 0:
        return 0.7 if trumps >= 5 else 0.3
    score = 0.0
    ace, ten = Rank.ACE in ranks, Rank.TEN in ranks
    if ace:
        score += 1.1
        if ten:
            score += 0.8
            if Rank.KING in ranks:
                score += 0.2
    elif ten:
        score += 0.2 if count >= 2 else -0.6
    if count == 1 and not ace and not ten:
        score += 0.2
    if count >= 4 and not ace:
        score -= 0.3
    return score


def grand_strength(hand: Sequence[Card], forehand: bool) -> float:
    """Strength of `hand` for a grand (only the four jacks are trumps)."""
    suits = _by_suit(hand)
    jacks = [c.suit for c in hand if c.is_jack]
    score = sum(GRAND_JACK_WEIGHT[s] for s in jacks) + (-4.3, -1.9, 0.75, 1.7, 1.7)[len(jacks)]
    for ranks in suits.values():
        count = len(ranks)
        ace, ten = Rank.ACE in ranks, Rank.TEN in ranks
        if ace:
            score += 1.2
            if ten:
                score += 1.0
                if Rank.KING in ranks:
                    score += 0.3
                score += 0.4 * max(0, count - 3)
        elif ten:
            score += 0.2 if count >= 3 else -0.6
        elif count >= 3:
            score -= 0.3
    if forehand:
        score += 0.7
    return score


def strength(hand: Sequence[Card], game: GameType, forehand: bool) -> float:
    if game is GameType.GRAND:
        return grand_strength(hand, forehand)
    trump = game.trump_suit
    if trump is None:
        raise ValueError(f"no strength score for {game.value}")
    return suit_strength(hand, trump, forehand)


def win_probability(game: GameType, score: float, before_skat: bool = False) -> float:
    """Chance that a declarer with this strength wins the game (logistic fit); `before_skat` judges the
    ten dealt cards of a declarer who will still pick up the skat and discard."""
    if game is GameType.GRAND:
        middle, spread = GRAND_CURVE_BEFORE_SKAT if before_skat else GRAND_CURVE
    else:
        middle, spread = SUIT_CURVE_BEFORE_SKAT if before_skat else SUIT_CURVE
    return 1.0 / (1.0 + math.exp(-(score - middle) / spread))


# --- null ---------------------------------------------------------------------------------------

def null_danger(hand: Sequence[Card]) -> int:
    """How many cards would have to go for every suit to be safe in a null (0: a safe null hand)."""
    danger = 0
    for suit in Suit:
        ranks = sorted(NULL_RANK[c.rank] for c in hand if c.suit is suit)
        keep = 0
        for position, rank in enumerate(ranks):
            if rank > 2 * position:
                break
            keep += 1
        danger += len(ranks) - keep
    return danger


def null_probability(hand: Sequence[Card], discards_to_come: int = 0, ouvert: bool = False) -> float:
    """Chance a null with this hand wins; `discards_to_come` cards can still be buried after a pickup."""
    danger = max(0, null_danger(hand) - discards_to_come)
    # after a pickup the skat may bring a dangerous card of its own
    table = (0.82, 0.55, 0.2) if discards_to_come else (0.9, 0.3, 0.08)
    chance = table[danger] if danger < len(table) else 0.02
    if ouvert:
        chance -= 0.08
    return chance


def null_discard(hand: Sequence[Card]) -> tuple[Card, Card]:
    """The two cards whose burial leaves the fewest dangerous cards (the highest of the unsafe ones)."""
    cards = list(hand)
    buried: list[Card] = []
    for _ in range(2):
        best = min(cards, key=lambda c: (null_danger([x for x in cards if x is not c]), -NULL_RANK[c.rank],
                                         -c.index))
        buried.append(best)
        cards.remove(best)
    return buried[0], buried[1]


# --- ramsch -------------------------------------------------------------------------------------

RAMSCH_WEIGHTS = (-2.57, -18.29, -11.70, -9.58, 2.44, 11.42, 14.84)
"""A seat's Ramsch score against the table (its score minus the others' mean) as a linear function of
its ten cards: constant, per jack, per ace, per ten, per king or queen, per seven, eight or nine, per
suit it is void in (jacks apart). Least squares over the 4,500 seats of 1,500 Ramsch deals the `normal`
level played (Durchmarsch on, Jungfrau off): scores' spread 53, the fit's residual 45."""
RAMSCH_JUNGFRAU_FACTOR = 1.27
"""With Jungfrau the same fit's weights grow by about this much (and the scores' spread from 53 to 68)."""


def ramsch_expectation(hand: Sequence[Card], jungfrau: bool = False) -> float:
    """The expected Ramsch score of this hand against the table (negative: likely to lose points)."""
    jacks = sum(1 for c in hand if c.is_jack)
    plain = [c for c in hand if not c.is_jack]
    features = (1, jacks, sum(1 for c in plain if c.rank is Rank.ACE), sum(1 for c in plain if c.rank is Rank.TEN),
                sum(1 for c in plain if c.rank in (Rank.KING, Rank.QUEEN)),
                sum(1 for c in hand if c.rank in (Rank.SEVEN, Rank.EIGHT, Rank.NINE)),
                sum(1 for suit in Suit if not any(c.suit is suit for c in plain)))
    value = sum(w * f for w, f in zip(RAMSCH_WEIGHTS, features, strict=True))
    return value * (RAMSCH_JUNGFRAU_FACTOR if jungfrau else 1.0)
