"""The `strong` level: the normal level's bidding, skat and declaration, and card play by search (in
Ramsch too: see `ramsch`).

Card play is perfect-information Monte Carlo: deal the unseen cards many times consistently with the
view (see `sampling`), solve each world double-dummy for every card this seat may play (see `solver`),
and play the card that does best on average. Worlds are judged on what decides the score: whether the
declarer makes the game (61, or 90 / every trick when schneider / schwarz was announced, or no trick in
null), then, as a smaller step, schneider either way. Ties fall to the normal level's heuristics.

The effort per decision is a budget of solver nodes (deterministic; the default keeps decisions under a
second at p95), or an exact number of worlds. Either way a world that needs more than
WORLD_CAP_FACTOR of the budget is dropped for another, and the search stops at HARD_CAP_FACTOR times the
budget (early in a deal that can leave no world solved: then the normal level's card is played). Node
counts do not depend on the machine, so a seed fixes every decision; a clock can be injected to cap
wall time as well, as the AI itself reads no clock.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from skatbot.engine.actions import Action, PlayCard
from skatbot.engine.cards import CARDS, mask_of, points_of
from skatbot.engine.deal import Phase
from skatbot.engine.games import GameType
from skatbot.engine.views import SeatView

from .base import Level, register_level
from .cardplay import choose_card
from .knowledge import Knowledge, read_view
from .normal import NormalPlayer
from .ramsch import ramsch_card
from .sampling import Sampler, World
from .solver import Mode, Position, SearchAborted, Solver, layout

DEFAULT_NODE_BUDGET = 1_000_000
"""Solver nodes (second cards of a trick tried) per card decision. With the compiled search, on one core
here: median 19 ms, p95 0.5 s, max 0.75 s per decision, and at least one world solved even on the first
trick (benchmarks/ai_speed.py)."""
MAX_WORLDS = 64
"""Enough worlds for a clear choice; late in a deal the searches cost almost nothing."""
HARD_CAP_FACTOR = 2.0
"""No world is searched past this multiple of the budget (nodes for the whole decision)."""
WORLD_CAP_FACTOR = 1.0
"""A single world (every candidate card in it) may use this share of the budget; a harder world is
dropped and another drawn, so one hard world early in a deal does not use up the decision."""
SCHNEIDER_WEIGHT = 0.1
"""Schneider changes the score by one multiplier step; winning or losing the game swings about ten."""


@dataclass(frozen=True, slots=True)
class Goal:
    """What the declarer must reach, in the solver's units, and which solver counts it."""

    mode: Mode
    target: int  # declarer's final total: points (61/90), cards taken (schwarz: 30), or 1 card in null
    secondary: bool  # also judge schneider (points games without schneider/schwarz announced)


def goal_of(view: SeatView) -> Goal:
    contract = view.contract
    assert contract is not None
    if contract.game is GameType.NULL:
        return Goal(Mode.NULL, 1, False)
    if contract.schwarz:
        return Goal(Mode.TRICKS, 30, False)
    if contract.schneider:
        return Goal(Mode.POINTS, 90, False)
    return Goal(Mode.POINTS, 61, True)


class StrongPlayer(NormalPlayer):
    """Search-based card play on top of the normal level's auction, skat and declaration."""

    level = Level.STRONG

    def __init__(self, seed: int, samples: int | None = None, node_budget: int = DEFAULT_NODE_BUDGET,
                 clock: Callable[[], float] | None = None, seconds: float | None = None) -> None:
        super().__init__(seed)
        if samples is not None and samples < 1:
            raise ValueError("samples must be at least 1")
        if node_budget < 1:
            raise ValueError("node_budget must be positive")
        if (clock is None) != (seconds is None):
            raise ValueError("a time budget needs both a clock and seconds")
        self.samples = samples
        self.node_budget = node_budget
        self.clock = clock
        self.seconds = seconds
        self.last_worlds = 0  # worlds solved for the last card decision (benchmarks report it)

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        contract = view.contract
        if (view.phase is Phase.PLAY and contract is not None and view.declarer is not None
                and contract.game is not GameType.RAMSCH):
            return self.play_card(view, rng)
        if view.phase is Phase.PLAY and contract is not None and contract.game is GameType.RAMSCH:
            card = ramsch_card(view, rng)
            if card is not None:
                return card
        return super().decide(view, rng)

    # --- card play ---------------------------------------------------------------------------------

    def play_card(self, view: SeatView, rng: random.Random) -> PlayCard:
        legal = [a.card.index for a in view.legal_actions if isinstance(a, PlayCard)]
        self.last_worlds = 0
        if len(legal) == 1:
            return PlayCard(CARDS[legal[0]])
        know = read_view(view)
        classes = move_classes(view, legal)
        candidates = [card for card in legal if classes[card] == card]
        heuristic = choose_card(view, random.Random(rng.random()))
        if len(candidates) == 1:
            if classes[heuristic.card.index] == candidates[0]:
                return heuristic
            return PlayCard(CARDS[candidates[0]])
        scores = self._evaluate(view, know, candidates, rng)
        if scores is None:
            return heuristic
        best = max(scores.values())
        tied = [c for c in candidates if scores[c] >= best - 1e-9]
        if classes[heuristic.card.index] in tied:  # the heuristic's card, or one just as good
            return heuristic
        return PlayCard(CARDS[tied[0]])

    def _evaluate(self, view: SeatView, know: Knowledge, candidates: list[int],
                  rng: random.Random) -> dict[int, float] | None:
        """Sum over sampled worlds of the declarer-side utility of each candidate, signed for this seat."""
        contract = view.contract
        declarer = view.declarer
        assert contract is not None and declarer is not None
        goal = goal_of(view)
        game = contract.game
        solver = Solver(game, declarer, goal.mode)
        sampler = Sampler(view, know)
        sign = 1.0 if view.seat == declarer else -1.0
        totals = dict.fromkeys(candidates, 0.0)
        hard_cap = int(self.node_budget * HARD_CAP_FACTOR)
        world_cap = max(1, int(self.node_budget * WORLD_CAP_FACTOR))
        start = self.clock() if self.clock is not None else 0.0
        worlds = 0
        while True:
            used = solver.nodes + worlds * len(candidates)
            if self.samples is not None:
                if worlds >= self.samples:
                    break
            elif worlds >= MAX_WORLDS or worlds and (used >= self.node_budget or (
                    self.clock is not None and self.clock() - start >= (self.seconds or 0.0))):
                break
            if solver.nodes >= hard_cap:
                break
            world = sampler.draw_plausible(rng)
            solver.node_limit = min(hard_cap, solver.nodes + world_cap)
            try:
                utilities = [world_utility(view, know, goal, world, card, solver) for card in candidates]
            except SearchAborted:
                continue  # a world too hard to solve in time: draw another
            for card, utility in zip(candidates, utilities, strict=True):
                totals[card] += sign * utility
            worlds += 1
        self.last_worlds = worlds
        if not worlds:
            return None
        return totals


def world_utility(view: SeatView, know: Knowledge, goal: Goal, world: World, card: int,
                  main: Solver) -> float:
    """The declarer's utility in `world` after this seat plays `card`, both sides then playing perfectly."""
    declarer = view.declarer
    assert declarer is not None
    position = Position(world.hands, _leader(view), tuple(c.index for _, c in view.current_trick))
    after, gain = main.play(position, card)
    closed = len(position.trick) == 2
    if goal.mode is Mode.NULL:
        if gain:
            return 0.0
        return 0.0 if main.reaches(after, 1) else 1.0
    if goal.mode is Mode.TRICKS:
        if any(t.winner != declarer for t in view.tricks) or (closed and not gain):
            return 0.0
        rest = sum(h.bit_count() for h in after.hands) + len(after.trick)
        return 1.0 if not rest or main.reaches(after, rest) else 0.0
    have = know.points[declarer] + points_of(world.skat) + gain
    rest = _rest_points(after)
    utility = 0.0
    won = _reaches(main, after, goal.target - have, rest)
    if won:
        utility += 1.0
    if goal.secondary:
        if won:
            utility += SCHNEIDER_WEIGHT * _reaches(main, after, 90 - have, rest)
        else:
            utility += SCHNEIDER_WEIGHT * _reaches(main, after, 31 - have, rest)
    return utility


def _reaches(solver: Solver, position: Position, needed: int, rest: int) -> bool:
    if needed <= 0:
        return True
    if needed > rest:
        return False
    return solver.reaches(position, needed)


def _rest_points(position: Position) -> int:
    cards = position.hands[0] | position.hands[1] | position.hands[2]
    for c in position.trick:
        cards |= 1 << c
    return points_of(cards)


def _leader(view: SeatView) -> int:
    if view.current_trick:
        return view.current_trick[0][0]
    if view.tricks:
        return view.tricks[-1].winner
    return 0


def root_moves(view: SeatView, know: Knowledge, legal: list[int]) -> list[int]:
    """One legal card per class of cards that are equivalent in every world (see `move_classes`)."""
    classes = move_classes(view, legal)
    return [card for card in legal if classes[card] == card]


def move_classes(view: SeatView, legal: list[int]) -> dict[int, int]:
    """Each legal card mapped to the highest card of its class: cards next to each other among the cards
    still in play in the same effective suit, and worth the same points (any two in null)."""
    contract = view.contract
    assert contract is not None
    lay = layout(contract.game)
    finished = 0
    for trick in view.tricks:
        finished |= mask_of(trick.cards)
    alive = lay.internal_mask(((1 << 32) - 1) & ~finished & ~mask_of(view.skat))
    null = contract.game is GameType.NULL
    legal_internal = lay.internal_mask(mask_of(CARDS[c] for c in legal))
    head: dict[int, int] = {}
    for c in sorted((lay.to_internal[e] for e in legal), reverse=True):
        head[c] = c
        nxt = alive & lay.above[c]
        if nxt:
            nb = (nxt & -nxt).bit_length() - 1
            if legal_internal >> nb & 1 and (null or lay.points[c] == lay.points[nb]):
                head[c] = head[nb]
    return {lay.to_engine[c]: lay.to_engine[h] for c, h in head.items()}


def _make(seed: int) -> StrongPlayer:
    return StrongPlayer(seed)


register_level(Level.STRONG, _make)
