"""The `strong` level: bidding, the skat, the declaration, Kontra and Re by search over sampled worlds
(see `contracts`), and card play by search (in Ramsch too: see `ramsch`).

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from skatbot.engine.actions import PICK_UP, RE, Action, Declare, Discard, Kontra, PlayCard
from skatbot.engine.cards import CARDS, Card, mask_of, points_of
from skatbot.engine.deal import Phase
from skatbot.engine.games import Contract, GameType
from skatbot.engine.views import SeatView

from . import contracts
from .auction import TRUMP_GAMES, auction_action
from .base import Level, register_level
from .cardplay import choose_card
from .contracts import (
    FIXED,
    HAND,
    PICKUP,
    Candidate,
    Estimate,
    bidding_candidates,
    discard_candidates,
    null_options,
)
from .evaluation import null_probability, ramsch_expectation
from .inference import auction_facts, seat_likelihood
from .knowledge import Knowledge, cards, read_view
from .normal import NormalPlayer, Option
from .play_inference import play_likelihood
from .ramsch import ramsch_card
from .sampling import Sampler, World
from .solver import Mode, Position, SearchAborted, Solver, move_classes

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
INFERENCE_TRIES = 4
"""Draws per card-play world while looking for one the auction makes likely (see `draw_inferred`)."""
KONTRA_BELOW = 0.35
"""A defender says Kontra when the declarer's estimated chance (calibrated, see `contracts`) is below this."""
RE_ABOVE = 0.8
"""The declarer answers Re when its estimated chance is above this."""
NULL_BID = 0.66
NULL_HAND_BID = 0.85
"""The null chances `normal` bids a null at (`normal.bid_basis`)."""
SEARCH_CONTRACTS = True
SEARCH_BIDDING = True
INFER_AUCTION = True
"""The issue-25 searches: the skat, the game, Kontra and Re by search (`SEARCH_CONTRACTS`), the auction too
(`SEARCH_BIDDING`), and card play's worlds weighted by the auction (`INFER_AUCTION`). On by default, with
`SHARP_AUCTION`, `RACE_CONTRACTS`, `CAPPED_SOLVES` and `FIT_NULL`: together they beat strong as it was before
them (d12d2ea, normal's bidding and declaration) in duplicate play by +3.14 SF points per deal [+1.14, +5.14]
over 479 deals (benchmarks/README.md, issue 25). Alone they did not: all three, -2.08 [-7.46, +3.30] over
60 deals. A benchmark turns each off by name (benchmarks/ai_variants.py: `strong+no-bidding`)."""
SHARP_AUCTION = True
"""Contracts judged in worlds drawn in proportion to the auction's likelihood under a sharper model
(`contracts.solve` with facts, `inference.SHARP_MISFIT`), not uniform worlds weighted softly. With the other
searches on (`strong+contracts+bidding+inference+sharp`) against d12d2ea: +1.23 SF points per deal [-1.11,
+3.56] over 335 deals, not above zero alone; on by default with `RACE_CONTRACTS`, `CAPPED_SOLVES` and `FIT_NULL`
(see `SEARCH_CONTRACTS`)."""
STEADY_HAND = False
"""A hand game over the pickup only when it expects more by at least `HAND_MARGIN` standard errors of the
difference, paired world by world (`contracts.advantage`), not merely by a larger mean: the larger of two
estimates from 16 worlds favours the riskier one, and a hand grand lost costs some 300 points. In the sharp
variant's duplicate deals against d12d2ea (benchmarks/README.md, issue 25), the seats where it played hand
more often than the baseline lost about one SF point per deal, its largest loss by kind of decision; there a
hand grand was often chosen on one to three worlds solved (the node budget ran out on the hard ones), so a hand
game solved in fewer than two of the pickup's worlds is not chosen either. Replayed on those 335 deals
(benchmarks/seating_replay.py): +0.30 [-0.00, +0.61] per deal, not above zero; on the 479 deals of the variant now
strong's default (capped+nullfit), -0.08 [-0.46, +0.30] over seeds 40001-40228 and +0.32 [-0.40, +1.04] over
30001-30251, about +0.13 per deal in all: it stays off."""
RACE_CONTRACTS = True
"""The contract evaluation as a race (`contracts.solve` with `race`): a candidate clearly hopeless after three
worlds (its calibrated chance's upper bound under `contracts.RACE_CHANCE`) is not solved in later worlds, and
the budget it no longer takes buys up to `contracts.RACE_WORLDS` worlds for the contenders (the marginal
pickups and bids were judged on 5-8 worlds, the budget spent on hand games that could not be chosen). With the
other searches on (`strong+contracts+bidding+inference+sharp+race`) against d12d2ea on fresh seeds 636-822:
+2.74 SF points per deal [-0.30, +5.78] over 187 deals, not above zero alone (on by default with `CAPPED_SOLVES`
and `FIT_NULL`, see `SEARCH_CONTRACTS`); on the opening bid
(benchmarks/bid_noise.py, deals 24-63) it loses 1.27 [+0.25, +2.29] SF points per hand less to the worlds'
noise than `sharp` alone; bidding CPU p95 767 ms, skat/declaration 745 ms (benchmarks/README.md, issue 25)."""
TWO_PHASE = False
"""The contract evaluation's second search (76 or 46) in every other world only (`contracts.solve` with
`two_phase`), the others judged by the 61 search and the chance carried over from the refined ones: more
worlds for the same nodes. On the opening bid against a 64-world reference (benchmarks/bid_noise.py, 120 hands
of deals 24-63, three player seeds each), it erred on
43 of 360 declare-or-pass decisions where `race` alone erred on 44 (the reference's loss per hand 2.00 against
1.96): no gain on top of `race`, so it stays off (benchmarks/README.md, issue 25)."""
CAPPED_SOLVES = True
"""A contract verdict cut off at `contracts.CAPPED_CAP` nodes (a third of `SOLVE_CAP`) counts at the mean chance
of such worlds, not dropped (`contracts.solve` with `capped`): a fifth of an opening evaluation's nodes went to
solves that gave no verdict, and the worlds left out were the close ones. On by default (see `SEARCH_CONTRACTS`)."""
CURSE_SELECTION = False
"""Every contract choice by its candidates' lower bounds, not their means (`contracts.lower_bound`: the mean less
`contracts.CURSE_K` standard errors): the bid limit (the best bound against passing, at each value of the
ladder), hand or pickup, and the game and discard. The largest of several noisy estimates is biased upward (the
winner's curse), most where the candidates are close and their worlds few. On the opening bid against the 64-world
reference (benchmarks/bid_noise.py, three player seeds a hand, on top of `race`): deals 24-63, 1.83 [1.04, 2.62]
SF points lost per hand against race's 1.96, paired +0.13 [-0.67, +0.92]; fresh deals 64-103, 1.88 against 2.04,
paired +0.16 [-0.53, +0.85]; declaring 159 and 143 of 360 decisions (race 184 and 169, the references 186 and
171): wrong declarations become wrong passes nearly one for one. At `CURSE_K` 0.25 the same (pooled over both
ranges +0.14 [-0.33, +0.62], as at 0.5). On top of `capped` +0.01 [-0.52, +0.54]. No gain shown, so it stays off
(benchmarks/README.md, issue 25)."""
FIT_NULL = True
"""A null after the pickup judged by its chance measured against strong's play (`contracts.fitted_null_chance`:
0.98 and 0.66 where `normal`'s rule of thumb says 0.9 and 0.3), not by the rule of thumb, which is pessimistic
there: strong declared a suit game it expected to lose rather than a null it would win two times in three.
On by default (see `SEARCH_CONTRACTS`)."""
INFER_PLAY = False
"""Card play's worlds weighted by the other seats' cards so far, as `normal` would have played them with the
world's hands (`play_inference`): each world's utilities count with that weight in the sum. On the ISS records
(benchmarks/ai_iss_quality.py, the ISS players' cards as the others' play, paired with strong on the same worlds)
it changed 10 of 1,189 suit and grand decisions per seed and lost 0.041 [+0.001, +0.081] and 0.016 [-0.012,
+0.044] points per decision more (seeds 1, 2); at `CARD_MISFIT` 0.8, +0.016 [-0.008, +0.040]; weighing leads only,
+0.009 [-0.028, +0.046]. People do not play like `normal`, and its misfits tilt the sum at random: off
(benchmarks/README.md, issue 25). A model of play closer to the table's (learned from records) may change that."""
HAND_MARGIN = 1.0
"""Standard errors a hand game's paired advantage over the pickup must clear (`STEADY_HAND`)."""
SIDE_WORLDS = 16
"""Worlds for the Kontra and Re estimate."""


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
                 clock: Callable[[], float] | None = None, seconds: float | None = None,
                 contract_worlds: int = contracts.WORLDS, contract_budget: int = contracts.NODE_BUDGET) -> None:
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
        self.search_contracts = SEARCH_CONTRACTS  # skat, declaration, Kontra and Re by search (else normal's)
        self.search_bidding = SEARCH_BIDDING  # the auction too (with search_contracts)
        self.infer_auction = INFER_AUCTION  # card play's worlds weighted by the auction
        self.sharp_auction = SHARP_AUCTION  # contracts judged in worlds drawn by the auction (see contracts.solve)
        self.steady_hand = STEADY_HAND  # hand over pickup only by a margin of its standard error
        self.race_contracts = RACE_CONTRACTS  # hopeless candidates dropped, their budget spent on more worlds
        self.two_phase = TWO_PHASE  # the verdict's second search in every other world only
        self.capped_solves = CAPPED_SOLVES  # a verdict cut off at a lower cap counts at such worlds' mean chance
        self.curse_selection = CURSE_SELECTION  # contracts chosen by lower bounds, not means (the winner's curse)
        self.fit_null = FIT_NULL  # a null after the pickup at its chance measured against strong's play
        self.infer_play = INFER_PLAY  # card play's worlds weighted by the other seats' cards so far
        if contract_worlds < 1 or contract_budget < 1:
            raise ValueError("contract_worlds and contract_budget must be positive")
        self.contract_worlds = contract_worlds
        self.contract_budget = contract_budget

    # --- bidding, skat, declaration (see `contracts`) -------------------------------------------------

    def decide_contract(self, view: SeatView) -> Action | None:
        """The auction, hand or pickup, the discard and the game by their estimated value; None outside
        those phases (or when no world could be solved: then `normal` decides)."""
        phase = view.phase
        if phase is Phase.AUCTION:
            if not self.search_bidding:
                return None
            limit = self.bid_limit(view)
            return None if limit is None else auction_action(view, limit)
        if phase is Phase.SKAT:
            return self.hand_or_pickup(view)
        if phase is Phase.DISCARD:
            plan = self.plan_discard(view, view.hand)
            if plan is None:
                return None
            first, second = sorted(cards(plan[1]))
            return Discard(first, second)
        if phase is Phase.DECLARE:
            return self.declare(view)
        return None

    def _estimates(self, view: SeatView, mine: int, bid: int,
                   candidates: tuple[Candidate, ...]) -> list[Estimate]:
        return contracts.evaluate(self.seed, view.seat, mine, bid, candidates, view.auction,
                                  view.rules.bid_ladder, self.contract_worlds, self.contract_budget,
                                  self.sharp_auction, self.race_contracts, self.two_phase, self.capped_solves)

    def _values(self, estimates: Sequence[Estimate], bid: int) -> list[float | None]:
        """Each candidate's value at `bid` as the choice judges it: its mean, or with `curse_selection` its lower
        bound (`contracts.lower_bound`), so that a lead won by a few lucky worlds does not decide; where no
        candidate has a bound (none solved in two worlds), the means."""
        means = [e.expected(bid) for e in estimates]
        if not self.curse_selection:
            return means
        bounds = [contracts.lower_bound(e, bid, contracts.CURSE_K) for e in estimates]
        return bounds if any(b is not None for b in bounds) else means

    def bid_limit(self, view: SeatView) -> int | None:
        """The highest bid at which the best way to play this hand still expects to gain (a pass scores
        nothing); None when no world was solved."""
        estimates = self._estimates(view, mask_of(view.hand), 18, bidding_candidates(view.hand, view.seat))
        if all(e.expected(18) is None for e in estimates):
            return None
        limit = 0
        passing = self.pass_value(view)
        for value in view.rules.bid_ladder:
            best = max((e for e in self._values(estimates, value) if e is not None), default=None)
            if best is not None and best > passing:
                limit = value
        return max(limit, null_limit(view.hand))

    def pass_value(self, view: SeatView) -> float:
        """What passing is worth against the table (see `contracts.passing`): defending where another seat
        would play a game; where everyone passes, nothing if the cards are thrown in, the hand's expected
        Ramsch score (`ramsch_expectation`, with the table's Jungfrau) where a Ramsch follows."""
        after = contracts.passing(self.seed, view.seat, mask_of(view.hand), bidding_candidates(view.hand, view.seat),
                                  view.auction, view.rules.bid_ladder, view.bid, self.contract_worlds,
                                  self.contract_budget, self.sharp_auction, self.race_contracts, self.two_phase,
                                  self.capped_solves)
        value = after.defending
        if view.rules.ramsch and not view.bid:
            value += after.all_pass * ramsch_expectation(view.hand, view.rules.ramsch_jungfrau)
        return value

    def hand_or_pickup(self, view: SeatView) -> Action | None:
        """Play hand when a hand game's estimate beats the pickup's."""
        candidates = bidding_candidates(view.hand, view.seat)
        estimates = self._estimates(view, mask_of(view.hand), view.bid, candidates)
        values = self._values(estimates, view.bid)
        pickups = [(e, x) for x, e in zip(estimates, values, strict=True) if x.candidate.kind == PICKUP
                   and e is not None]
        pickup, pickup_estimate = max(pickups, key=lambda p: p[0], default=(None, None))
        best: tuple[float, Contract] | None = None
        for estimate, value in zip(estimates, values, strict=True):
            if (value is not None and estimate.candidate.kind == HAND and estimate.candidate.game is not None
                    and (best is None or value > best[0])):
                if self.steady_hand and pickup_estimate is not None and pickup is not None and value > pickup:
                    paired = contracts.advantage(estimate, pickup_estimate, view.bid)
                    if paired is None or paired[0] - HAND_MARGIN * paired[1] <= 0:
                        continue  # not clearly better than picking up (or solved in under two of its worlds)
                best = (value, Contract(estimate.candidate.game, True))
        for option in null_options(view.hand, view.bid, True):
            if best is None or option.expected > best[0]:
                best = (option.expected, option.contract)
        if pickup is None and best is None:
            return None
        if best is not None and (pickup is None or best[0] > pickup):
            return Declare(best[1])
        return PICK_UP

    def plan_discard(self, view: SeatView, twelve: tuple[Card, ...]) -> tuple[Contract, int] | None:
        """The game and the two cards to put away (mask) that expect the most, from the twelve cards."""
        candidates = discard_candidates(twelve, view.seat, view.bid)
        estimates = self._estimates(view, mask_of(twelve), view.bid, candidates)
        best: tuple[float, Contract, int] | None = None
        for estimate, value in zip(estimates, self._values(estimates, view.bid), strict=True):
            game = estimate.candidate.game
            if value is not None and game is not None and (best is None or value > best[0]):
                best = (value, Contract(game), estimate.candidate.discard)
        for option in null_options(twelve, view.bid, False, twelve=True, fitted=self.fit_null):
            assert option.discard is not None
            if best is None or option.expected > best[0]:
                best = (option.expected, option.contract, mask_of(option.discard))
        return None if best is None else (best[1], best[2])

    def declare(self, view: SeatView) -> Action | None:
        """The game planned with the discard (the same evaluation, remembered); had the discard been another,
        the best game with the cards actually put away."""
        twelve = tuple(sorted(view.hand + view.skat, key=lambda c: c.index))
        plan = self.plan_discard(view, twelve)
        away = mask_of(view.skat)
        if plan is not None and plan[1] == away:
            return Declare(plan[0])
        candidates = tuple(Candidate(FIXED, game, away) for game in TRUMP_GAMES)
        estimates = self._estimates(view, mask_of(twelve), view.bid, candidates)
        best: tuple[float, Contract] | None = None
        for estimate, value in zip(estimates, self._values(estimates, view.bid), strict=True):
            if value is not None and estimate.candidate.game is not None and (best is None or value > best[0]):
                best = (value, Contract(estimate.candidate.game))
        options: list[Option] = null_options(list(view.hand), view.bid, False)
        for option in options:
            if option.contract.hand is False and (best is None or option.expected > best[0]):
                best = (option.expected, option.contract)
        return None if best is None else Declare(best[1])

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        if self.search_contracts:
            action = self.decide_contract(view)
            if action is not None and action in view.legal_actions:
                return action
        contract = view.contract
        if (view.phase is Phase.PLAY and contract is not None and view.declarer is not None
                and contract.game is not GameType.RAMSCH):
            return self.play_card(view, rng)
        if view.phase is Phase.PLAY and contract is not None and contract.game is GameType.RAMSCH:
            card = ramsch_card(view, rng)
            if card is not None:
                return card
        return super().decide(view, rng)

    # --- Kontra and Re --------------------------------------------------------------------------------

    def decide_side(self, view: SeatView, offered: Action, rng: random.Random) -> Action | None:
        contract = view.contract
        if not self.search_contracts or contract is None or contract.game is GameType.NULL:
            return super().decide_side(view, offered, rng)
        chance = self.declarer_chance(view, rng)
        if chance is None:
            return super().decide_side(view, offered, rng)
        if isinstance(offered, Kontra):
            return offered if chance < KONTRA_BELOW else None
        return RE if chance > RE_ABOVE else None

    def declarer_chance(self, view: SeatView, rng: random.Random) -> float | None:
        """The declarer's calibrated chance to make the game, over worlds the auction makes likely (None:
        none solved, or a goal other than points)."""
        goal = goal_of(view)
        declarer = view.declarer
        assert view.contract is not None and declarer is not None
        if goal.mode is not Mode.POINTS:
            return None
        sampler = Sampler(view)
        dealt = dealt_cards(view)
        facts = auction_facts(view.auction, view.rules.bid_ladder)
        solver = Solver(view.contract.game, declarer, Mode.POINTS)
        total, solved = 0.0, 0
        for _ in range(min(SIDE_WORLDS, self.contract_worlds)):
            world = draw_inferred(sampler, view, facts, dealt, rng, INFERENCE_TRIES)
            solver.reset()
            solver.node_limit = solver.nodes + contracts.SOLVE_CAP
            skat_points = points_of(mask_of(view.skat)) if view.skat else points_of(world.skat)
            try:
                total += contracts.calibrated(solver, Position(world.hands, 0), skat_points + 61 - goal.target)
            except SearchAborted:
                continue
            solved += 1
        return total / solved if solved else None

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
        dealt = dealt_cards(view)
        facts = auction_facts(view.auction, view.rules.bid_ladder)
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
            world = draw_inferred(sampler, view, facts, dealt, rng, INFERENCE_TRIES if self.infer_auction else 0)
            solver.node_limit = min(hard_cap, solver.nodes + world_cap)
            try:
                utilities = [world_utility(view, know, goal, world, card, solver) for card in candidates]
            except SearchAborted:
                continue  # a world too hard to solve in time: draw another
            weight = sign * (play_likelihood(view, world) if self.infer_play else 1.0)
            for card, utility in zip(candidates, utilities, strict=True):
                totals[card] += weight * utility
            worlds += 1
        self.last_worlds = worlds
        if not worlds:
            return None
        return totals


def null_limit(hand: Sequence[Card]) -> int:
    """A null's bid as `normal` bids it (23 on a hand safe enough to pick up, 35 on a safe hand game): the
    null evaluation is a rule of thumb, not a search, so strong does not bid past what it was tuned for."""
    if null_probability(hand) >= NULL_HAND_BID:
        return 35
    return 23 if null_probability(hand, discards_to_come=2) >= NULL_BID else 0


def dealt_cards(view: SeatView) -> tuple[int, int, int]:
    """Per seat, the cards it has played so far (added to a world's hand, they give the hand it bid with)."""
    played = [0, 0, 0]
    for trick in view.tricks:
        for position, card in enumerate(trick.cards):
            played[trick.seat_of(position)] |= 1 << card.index
    for seat, card in view.current_trick:
        played[seat] |= 1 << card.index
    return played[0], played[1], played[2]


def draw_inferred(sampler: Sampler, view: SeatView, facts: dict[int, tuple[int, int]],
                  played: tuple[int, int, int], rng: random.Random, tries: int) -> World:
    """A world kept with the likelihood of the other seats' auction in it (policy-based inference, see
    `inference`), within `tries` draws; the declarer's bids count only in a hand game (after a pickup its
    dealt hand is not known even in a world: `plausible` judges it instead)."""
    contract = view.contract
    world = sampler.draw_plausible(rng)
    for attempt in range(tries):  # no tries: the plausible world as it is
        weight = 1.0
        for seat, said in facts.items():
            if seat == view.seat or (seat == view.declarer and not (contract is not None and contract.hand)):
                continue
            weight *= seat_likelihood(said, world.hands[seat] | played[seat], seat)
        if weight >= 1.0 or rng.random() < weight or attempt == tries - 1:
            return world
        world = sampler.draw_plausible(rng)
    return world


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


def _make(seed: int) -> StrongPlayer:
    return StrongPlayer(seed)


register_level(Level.STRONG, _make)
