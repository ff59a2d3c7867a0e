"""Ramsch card play by search, for the strong level: do not end with the most card points.

For the last MAXN_CARDS tricks, perfect-information Monte Carlo like the strong level's declared games:
the unseen cards are dealt consistently with the view (see `sampling`: cards played are gone, a seat
that did not follow a suit holds none of it), and in each world every card this seat may play is
searched to the end of the deal by max-n (see `ramsch_core`): every seat minimises its own points, and
the skat goes to the winner of the last trick. That gives every seat's final points, so each card is
judged by the Ramsch score it leads to under the table's rules (`SeatView.rules`: minus the points when
they are the most, doubled by a Jungfrau where played, +120 for a Durchmarsch where played, else the 120
points lost) less a small weight per own point: a card that leaves this seat safe is nearly as good as
one that takes nothing.

Earlier in the deal the normal level's heuristics decide. Duplicate matches against the normal level
(benchmarks/ramsch_match.py) measured this; a paranoid search from seven or six cards on (the other two
seats playing to give this one points), tried before, lost to the heuristics there, and max-n from six
cards was no better than from five but several times slower.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skatbot.engine.actions import PlayCard
from skatbot.engine.cards import CARDS, mask_of, points_of
from skatbot.engine.games import GameType
from skatbot.engine.rules import RuleSet
from skatbot.engine.scoring import ramsch_scores
from skatbot.engine.views import SeatView

from .knowledge import read_view
from .ramsch_search import RamschSearch, Taken
from .sampling import Sampler
from .solver import Position, SearchAborted, layout

MAX_WORLDS = 24
"""Worlds per decision at most."""
MAXN_CARDS = 5
"""Max-n from this many cards in hand on (one world of six cards takes about 0.1 s, of five 15 ms)."""
MAXN_BUDGET = 60_000
"""Max-n leads searched per decision (a world with five cards in hand needs about 2,000 to 6,000): when
it runs out, the worlds solved so far decide (none: the heuristics)."""
POINT_WEIGHT = 0.1
"""Score per own card point taken, next to the Ramsch score itself (it breaks ties between safe cards,
and the worlds' play is only a model of the others')."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The search's judgement of the cards this seat may play: best first, over `worlds` sampled worlds,
    and per card the worlds in which this seat does not end as the loser."""

    ranked: tuple[int, ...]
    worlds: int
    safe: dict[int, int]


def ramsch_card(view: SeatView, rng: random.Random) -> PlayCard | None:
    """The card the search prefers over sampled worlds; None when the heuristics should decide."""
    legal = [a.card.index for a in view.legal_actions if isinstance(a, PlayCard)]
    if len(legal) == 1:
        return PlayCard(CARDS[legal[0]])
    candidates = ramsch_candidates(view, legal)
    if len(candidates) == 1:
        return PlayCard(CARDS[candidates[0]])
    verdict = judge(view, candidates, rng)
    return PlayCard(CARDS[verdict.ranked[0]]) if verdict is not None else None


def judge(view: SeatView, candidates: list[int], rng: random.Random) -> Verdict | None:
    """Each candidate card's Ramsch score over sampled worlds, every seat playing max-n to the end; None
    before the last MAXN_CARDS tricks or when no world was solved."""
    if len(view.hand) > MAXN_CARDS:
        return None
    know = read_view(view)
    sampler = Sampler(view, know)
    search = RamschSearch(view.seat)
    counts = [0, 0, 0]
    for done in view.tricks:
        counts[done.winner] += 1
    trick = tuple(card.index for _, card in view.current_trick)
    leader = _leader(view)
    totals = dict.fromkeys(candidates, 0.0)
    safe = dict.fromkeys(candidates, 0)
    worlds = 0
    search.node_limit = MAXN_BUDGET
    while worlds < MAX_WORLDS:
        world = sampler.draw(rng)
        search.reset(points_of(world.skat))
        position = Position(world.hands, leader, trick)
        try:
            outcomes = [search.outcome(_after(position, card)) for card in candidates]
        except SearchAborted:
            break
        for card, outcome in zip(candidates, outcomes, strict=True):
            totals[card] += utility(view.rules, view.seat, know.points, counts, outcome)
            safe[card] += score(view.rules, view.seat, know.points, counts, outcome) >= 0
        worlds += 1
    if not worlds:
        return None
    ranked = sorted(candidates, key=lambda card: (-totals[card], card))
    return Verdict(tuple(ranked), worlds, safe)


def score(rules: RuleSet, seat: int, points: tuple[int, int, int], tricks: list[int], outcome: Taken) -> int:
    """This seat's Ramsch score at the end under the table's `rules` (the engine's own scoring): the most
    points lose them, a Durchmarsch wins 120 where played, a Jungfrau doubles the loss where played."""
    final = (points[0] + outcome.points[0], points[1] + outcome.points[1], points[2] + outcome.points[2])
    taken = [tricks[s] + outcome.tricks[s] for s in range(3)]
    return ramsch_scores(rules, final, taken)[seat]


def utility(rules: RuleSet, seat: int, points: tuple[int, int, int], tricks: list[int], outcome: Taken) -> float:
    """The Ramsch score less POINT_WEIGHT per own point (none after a Durchmarsch that scores)."""
    result = score(rules, seat, points, tricks, outcome)
    if rules.ramsch_durchmarsch and 10 in (tricks[s] + outcome.tricks[s] for s in range(3)):
        return float(result)
    return result - POINT_WEIGHT * (points[seat] + outcome.points[seat])


def _after(position: Position, card: int) -> Position:
    """The position once the seat to move has played `card` (the trick left open when it is full)."""
    hands = list(position.hands)
    hands[position.to_move] ^= 1 << card
    return Position((hands[0], hands[1], hands[2]), position.leader, position.trick + (card,))


def _leader(view: SeatView) -> int:
    if view.current_trick:
        return view.current_trick[0][0]
    if view.tricks:
        return view.tricks[-1].winner
    return 0


def ramsch_candidates(view: SeatView, legal: list[int]) -> list[int]:
    """One card per class of cards next to each other among the cards still in play (grand's order: the
    jacks are the only trumps) and worth the same points: they take the same points in every world."""
    lay = layout(GameType.GRAND)
    finished = 0
    for trick in view.tricks:
        finished |= mask_of(trick.cards)
    alive = lay.internal_mask(((1 << 32) - 1) & ~finished)
    legal_internal = lay.internal_mask(mask_of(CARDS[c] for c in legal))
    keep = []
    for card in sorted(lay.to_internal[c] for c in legal):
        higher = alive & lay.above[card]
        if higher:
            next_up = (higher & -higher).bit_length() - 1
            if legal_internal >> next_up & 1 and lay.points[card] == lay.points[next_up]:
                continue  # the next live card up is also ours and worth the same: keep that one
        keep.append(lay.to_engine[card])
    return keep
