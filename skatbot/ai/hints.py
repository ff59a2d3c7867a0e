"""Hints for learners: the strong level's choice for a seat's own decision, with a one-line reason.

A hint reads nothing but that seat's view (the same `SeatView` the AI players get), so it cannot use a
card the player cannot see; its randomness comes from a seed the caller derives from public facts.
For card play the reason is what the search computed: in how many of the sampled worlds each card
wins the game for the player's side. Other decisions (bids, skat, discard, game) follow the hand
evaluation (the normal level's, which strong falls back on when its search solves no world), not strong's
search over sampled worlds (see `contracts`), so that the reason is what that choice was computed from (a `Basis`): the bid the hand
supports and the game behind it, the best game with or without the skat, what a discard buries and
leaves. A learner can follow those figures; an expected score over sixteen solved worlds would not explain.
The answer is plain data (`hint_values`), so the bot process unpickles it without this module's solver.
"""

from __future__ import annotations

import random

from skatbot.engine.actions import Action, Declare, Discard, Pass, PlayCard
from skatbot.engine.cards import CARDS
from skatbot.engine.deal import Phase
from skatbot.engine.games import Contract, GameType
from skatbot.engine.views import SeatView

from .hint_values import Basis, Hint, Reason
from .knowledge import read_view
from .normal import (
    Option,
    best_option,
    bid_basis,
    declare_options,
    hand_options,
    skat_options,
)
from .ramsch import judge, ramsch_candidates
from .sampling import Sampler
from .solver import SearchAborted, Solver, move_classes
from .strong import DEFAULT_NODE_BUDGET, StrongPlayer, goal_of, world_utility

WORLDS = 32
"""Sampled worlds for a card hint (fewer when the node budget runs out first)."""


def hint(view: SeatView, seed: int) -> Hint:
    """The strong level's choice for `view.seat`, which must be the seat to move."""
    if view.current_seat != view.seat or not view.legal_actions:
        raise ValueError("a hint is for the seat to move")
    rng = random.Random(seed)
    contract = view.contract
    if (view.phase is Phase.PLAY and contract is not None and view.declarer is not None
            and contract.game is not GameType.RAMSCH):
        return _card_hint(view, rng) or Hint(StrongPlayer(seed).choose(view))
    if view.phase is Phase.PLAY and contract is not None and contract.game is GameType.RAMSCH:
        return _ramsch_hint(view, rng) or Hint(StrongPlayer(seed).choose(view))
    player = StrongPlayer(seed)
    player.search_contracts = False  # the hand evaluation a reason can show its figures from (see module)
    action = player.choose(view)
    return Hint(action, basis=basis(view, action))


def basis(view: SeatView, action: Action) -> Basis | None:
    """The hand evaluation behind `action` (the strong level's choice) before card play; None in play.

    The hint decides these like the normal level, from the same functions, so the figures here are the
    ones its choice came from."""
    hand, seat, bid = view.hand, view.seat, view.bid
    if view.phase is Phase.AUCTION:
        found = bid_basis(hand, seat, StrongPlayer.bid_confidence)
        game = Contract(found.game, found.hand_game) if found.game is not None else None
        reason = Reason.PASS if isinstance(action, Pass) else Reason.BID
        return Basis(reason, game, found.chance, found.limit)
    if view.phase is Phase.SKAT:
        options = hand_options(hand, seat, bid)
        if isinstance(action, Declare):
            chosen = [o for o in options if o.contract == action.contract]
            return Basis(Reason.HAND, action.contract, chosen[0].chance if chosen else 0.0, _value(chosen))
        best = best_option(options)
        if best is None:
            return Basis(Reason.PICK_UP)
        return Basis(Reason.PICK_UP, best.contract, best.chance, best.value)
    if view.phase is Phase.DISCARD and isinstance(action, Discard):
        option = best_option(skat_options(hand, seat, bid))
        if option is None:
            return None
        return Basis(Reason.DISCARD, option.contract, option.chance, option.value,
                     action.first.points + action.second.points)
    if view.phase is Phase.DECLARE and isinstance(action, Declare):
        chosen = [o for o in declare_options(hand, view.skat, seat, bid) if o.contract == action.contract]
        return Basis(Reason.DECLARE, action.contract, chosen[0].chance if chosen else 0.0, _value(chosen))
    return None


def _value(options: list[Option]) -> int:
    return options[0].value if options else 0


def _ramsch_hint(view: SeatView, rng: random.Random) -> Hint | None:
    """Over the last tricks of a Ramsch: the search's card, and in how many worlds it (and the next
    best card) leaves the player without the most points; None while the heuristics play."""
    legal = [a.card.index for a in view.legal_actions if isinstance(a, PlayCard)]
    candidates = ramsch_candidates(view, legal)
    if len(candidates) < 2:
        return None
    verdict = judge(view, candidates, rng)
    if verdict is None:
        return None
    best, runner = verdict.ranked[0], verdict.ranked[1]
    return Hint(PlayCard(CARDS[best]), verdict.worlds, verdict.safe[best], CARDS[runner], verdict.safe[runner],
                ramsch=True)


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
