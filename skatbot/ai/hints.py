"""Hints for learners: the strong level's choice for a seat's own decision, with a one-line reason.

A hint reads nothing but that seat's view (the same `SeatView` the AI players get), so it cannot use a
card the player cannot see; its randomness comes from a seed the caller derives from public facts.
For card play the reason is what the search computed: in how many of the sampled worlds each card
wins the game for the player's side. Other decisions (bids, skat, discard, game) follow the strong
level's hand evaluation, and say so.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skatbot.engine.actions import Action, PlayCard
from skatbot.engine.cards import CARDS, Card
from skatbot.engine.deal import Phase
from skatbot.engine.games import GameType
from skatbot.engine.views import SeatView

from .knowledge import read_view
from .sampling import Sampler
from .solver import SearchAborted, Solver
from .strong import DEFAULT_NODE_BUDGET, StrongPlayer, goal_of, move_classes, world_utility

WORLDS = 32
"""Sampled worlds for a card hint (fewer when the node budget runs out first)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The suggested action and why: for cards, the share of sampled worlds each card wins in."""

    action: Action
    worlds: int = 0  # sampled worlds solved (0: the hand evaluation decided)
    wins: int = 0  # of them, worlds where the suggested card wins for the player's side
    second: Card | None = None  # the next best card, and its winning worlds
    second_wins: int = 0


def hint(view: SeatView, seed: int) -> Hint:
    """The strong level's choice for `view.seat`, which must be the seat to move."""
    if view.current_seat != view.seat or not view.legal_actions:
        raise ValueError("a hint is for the seat to move")
    rng = random.Random(seed)
    contract = view.contract
    if (view.phase is Phase.PLAY and contract is not None and view.declarer is not None
            and contract.game is not GameType.RAMSCH):
        return _card_hint(view, rng) or Hint(StrongPlayer(seed).choose(view))
    return Hint(StrongPlayer(seed).choose(view))


def _card_hint(view: SeatView, rng: random.Random) -> Hint | None:
    """Winning worlds per card class over sampled worlds (None when no world could be solved)."""
    contract, declarer = view.contract, view.declarer
    assert contract is not None and declarer is not None
    legal = [a.card.index for a in view.legal_actions if isinstance(a, PlayCard)]
    classes = move_classes(view, legal)
    candidates = [card for card in legal if classes[card] == card]
    if len(candidates) == 1:
        return Hint(PlayCard(CARDS[candidates[0]]))
    know = read_view(view)
    goal = goal_of(view)
    solver = Solver(contract.game, declarer, goal.mode, node_limit=DEFAULT_NODE_BUDGET)
    sampler = Sampler(view, know)
    ours = view.seat == declarer
    wins = dict.fromkeys(candidates, 0)
    value = dict.fromkeys(candidates, 0.0)
    worlds = 0
    for _ in range(WORLDS):
        world = sampler.draw_plausible(rng)
        try:
            utilities = [world_utility(view, know, goal, world, card, solver) for card in candidates]
        except SearchAborted:
            break
        worlds += 1
        for card, utility in zip(candidates, utilities, strict=True):
            won = utility >= 1.0 if ours else utility < 1.0
            wins[card] += won
            value[card] += utility if ours else -utility
    if not worlds:
        return None
    ranked = sorted(candidates, key=lambda c: (-value[c], c))
    best, runner = ranked[0], ranked[1]
    return Hint(PlayCard(CARDS[best]), worlds, wins[best], CARDS[runner], wins[runner])
