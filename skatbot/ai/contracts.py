"""Contracts by search (the `strong` level's bidding, skat, declaration, Kontra and Re; Kermit's way,
Buro et al. 2009): the value of each candidate contract is estimated from sampled worlds, each solved
double-dummy.

A world deals the cards this seat cannot see (the other hands, and the skat until it is picked up) at
random, kept with the likelihood of what the other seats said in the auction (see `inference`). For each
candidate (a suit game or grand after a pickup, with the discard the `normal` level would make in that
world; a game played hand; a game with a discard chosen here) the solver says how many points the declarer
makes with every hand open (at least 76, 61, 46, or fewer). That verdict is calibrated to a chance of
winning at the table (`CALIBRATION`) and turned into the expected Seeger-Fabian result against the table, as a duplicate match counts it (this
seat's score minus the others' mean: a win pays the value + 50, a loss costs twice the value + 50 and 40
to each opponent, so twice the value + 90); an overbid game is lost at the value
that covers the bid. Null games are judged by `normal`'s null evaluation (the double-dummy verdict on a
null is far more pessimistic than play), so they take no search.

The effort is a budget of solver nodes per evaluation, spent world by world over all candidates (so
every candidate sees the same worlds); a single solve past `SOLVE_CAP` is dropped (with `capped`, one past
`CAPPED_CAP` counts at the mean chance of such worlds). Evaluations are pure
functions of their arguments (a generator seeded from them) and remembered per process, so the auction's
later decisions reuse the first one's solves.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from skatbot.engine.actions import Action
from skatbot.engine.cards import CARDS, Card, mask_of, points_of
from skatbot.engine.games import Contract, GameType
from skatbot.engine.scoring import matadors

from .auction import TRUMP_GAMES
from .evaluation import (
    HAND_SKAT_POINTS,
    null_danger,
    null_discard,
    null_probability,
    strength,
    win_probability,
)
from .inference import MISFIT, SHARP_MISFIT, auction_facts, model_limit, seat_likelihood
from .knowledge import FULL, bits, cards
from .normal import BURIED_POINT_WEIGHT, Option, _best_discard, best_option, skat_options
from .solver import Mode, Position, SearchAborted, Solver

WORLDS = 16
"""Worlds per evaluation at most (fewer when the node budget runs out first)."""
NODE_BUDGET = 1_200_000
"""Solver nodes per evaluation: about half a second on one core here (see benchmarks/ai_speed)."""
SOLVE_CAP = 150_000
"""Nodes one solve may take; a harder world is left out for that candidate."""
CALIBRATION = ((76, 0.97), (61, 0.86), (46, 0.58), (0, 0.15))
"""The declarer's chance to win at the table by its double-dummy card points (with the skat): at least 76,
61, 46, or fewer. Measured on the 481 suit games and grands (no schneider announced) the `normal` level
declared and played in deals 1-600: 76-120 points double-dummy won 97% at the table, 61-75 86%, 46-60 58%,
0-45 15% (defenders who do not see the cards let a declarer through that perfect defence would stop).
Checked against strong's play (benchmarks/contract_calibration.py, 105 hands declared at 18, issue 25): the
evaluator's mean estimate 0.712, won 0.714; the rows refitted to strong's play (1.00, 0.97, 0.67, 0.12 by the
real deal's verdict) made the estimate optimistic (mean 0.777) and its Brier score worse (0.180 against
0.176), so these rows stay."""
PICKUP = "pickup"
HAND = "hand"
FIXED = "fixed"


@dataclass(frozen=True, slots=True)
class Candidate:
    """A way to play: `kind` PICKUP (the skat unseen: `normal`'s game and discard in each world, or the
    game given), HAND (play `game` without the skat), or FIXED (the skat seen: `game` with `discard`)."""

    kind: str
    game: GameType | None  # None with PICKUP: whichever game `normal` picks in each world
    discard: int = 0  # FIXED: the two cards put away (mask)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A candidate's outcomes in the worlds where it was solved."""

    candidate: Candidate
    outcomes: tuple[tuple[float, int, float], ...]  # (world weight, value written, chance to win)
    worlds: tuple[int, ...] = ()  # the index of each outcome's world (`evaluate`; empty: not known)

    def utility(self, value: int, chance: float, bid: int) -> float:
        """The expected result against the table in one world (overbid: lost at the value covering `bid`)."""
        if value < bid:
            base = _base(self.candidate, value)
            value, chance = -(-bid // base) * base, 0.0
        return chance * (value + 50) - (1 - chance) * (2 * value + 90)

    def expected(self, bid: int) -> float | None:
        """Expected Seeger-Fabian result against the table at `bid` (an overbid world is a loss at the
        value covering the bid); None when no world was solved."""
        total = weight = 0.0
        for w, value, chance in self.outcomes:
            total += w * self.utility(value, chance, bid)
            weight += w
        return total / weight if weight else None


def advantage(first: Estimate, second: Estimate, bid: int) -> tuple[float, float] | None:
    """How much `first` expects more than `second` at `bid`, paired world by world over the worlds both were
    solved in (the same worlds, so most of their luck cancels), with the standard error of that mean (the
    worlds' weights taken as importance weights: effective count (sum w)^2 / sum w^2); None under two worlds.
    A choice by the larger of two estimates from 16 worlds favours whichever got the kinder worlds, most of
    all the riskier one (a hand grand's result swings by some 300 points between a win and a loss)."""
    seconds = {world: (w, value, chance) for world, (w, value, chance) in zip(second.worlds, second.outcomes,
                                                                              strict=True)}
    pairs = []
    for world, (w, value, chance) in zip(first.worlds, first.outcomes, strict=True):
        other = seconds.get(world)
        if other is not None and w > 0:
            pairs.append((w, first.utility(value, chance, bid) - second.utility(other[1], other[2], bid)))
    return weighted_mean(pairs)


def weighted_mean(pairs: Sequence[tuple[float, float]]) -> tuple[float, float] | None:
    """The mean of (weight, value) pairs and its standard error, the weights taken as importance weights
    (effective count (sum w)^2 / sum w^2); None under two pairs or two effective worlds."""
    total = sum(w for w, _ in pairs)
    if len(pairs) < 2 or total <= 0:
        return None
    mean = sum(w * d for w, d in pairs) / total
    variance = sum(w * (d - mean) ** 2 for w, d in pairs) / total
    effective = total ** 2 / sum(w * w for w, _ in pairs)
    if effective <= 1:
        return None
    return mean, (variance * effective / (effective - 1) / effective) ** 0.5


CURSE_K = 0.5
"""Standard errors `lower_bound` takes off a candidate's mean (the `curse` switch). The best of several estimates
from the same few worlds is chosen partly for its luck (the winner's curse: the searched extra bids were estimated
at +15.8 SF points and got +0.5). The larger of two equally good candidates whose errors correlate by rho exceeds
the truth by sqrt((1 - rho) / pi) of a standard error: 0.40 to 0.50 for rho 0.5 to 0.2 (a hand game and its
pickup, judged in the same worlds, the skat kept or played); the pickups committed to a game are near copies of the free one (rho
near 1, no curse), and a candidate far ahead of the rest is chosen for its value, not its luck. Half a standard
error is the size of the curse where it bites, set by that reasoning, not fitted. Measured afterwards against the
same model's 64-world judgement (benchmarks/bid_noise.py, the race variant's opening hands, deals 24-103): no bias
overall (-0.63 and -1.84 SF points), +4.6 to +6.6 where the best mean leads passing by 0-30, where half a
standard error takes 10-12 off: about twice the curse that reference sees (itself a maximum over 64 worlds)."""


def lower_bound(estimate: Estimate, bid: int, k: float = CURSE_K) -> float | None:
    """`estimate.expected(bid)` less `k` standard errors of that world-weighted mean (the weights as importance
    weights: effective count (sum w)^2 / sum w^2, as in `advantage`); None under two effective worlds, where the
    mean says nothing of its own noise. Choosing by it, a candidate that leads only by the luck of a few worlds
    (a hand grand on three, with its 300-point swing) no longer wins the choice over a steadier one."""
    found = weighted_mean([(w, estimate.utility(value, chance, bid)) for w, value, chance in estimate.outcomes
                           if w > 0])
    if found is None:
        return None
    mean, error = found
    return mean - k * error


def _base(candidate: Candidate, value: int) -> int:
    if candidate.game is not None:
        return candidate.game.base_value
    for base in (24, 12, 11, 10, 9):  # PICKUP without a fixed game: the value says which game it was
        if value % base == 0:
            return base
    return 9


def calibrated(solver: Solver, position: Position, counted: int) -> float:
    """The declarer's chance at the table (`CALIBRATION`) from two null-window searches: 61, then 76 or 46
    (`counted`: the points already the declarer's, the skat)."""
    return refined(solver, position, counted, solver.reaches(position, 61 - counted))


def refined(solver: Solver, position: Position, counted: int, made: bool) -> float:
    """`calibrated` once the 61 search said `made`: the second search (76 if made, else 46) picks the row."""
    if made:
        return CALIBRATION[0][1] if solver.reaches(position, 76 - counted) else CALIBRATION[1][1]
    return CALIBRATION[2][1] if solver.reaches(position, 46 - counted) else CALIBRATION[3][1]


# --- worlds --------------------------------------------------------------------------------------

def draw_world(rng: random.Random, seat: int, mine: int) -> tuple[tuple[int, int, int], int]:
    """The other two hands dealt at random from the cards this seat cannot see (`mine`: its ten cards, or
    its twelve after a pickup), and the skat from what is left (nothing after a pickup)."""
    unseen = bits(FULL & ~mine)
    rng.shuffle(unseen)
    hands = [0, 0, 0]
    hands[seat] = mine
    others = [s for s in range(3) if s != seat]
    hands[others[0]] = mask_of(CARDS[c] for c in unseen[:10])
    hands[others[1]] = mask_of(CARDS[c] for c in unseen[10:20])
    skat = mask_of(CARDS[c] for c in unseen[20:])
    return (hands[0], hands[1], hands[2]), skat


def world_weight(facts: dict[int, tuple[int, int]], seat: int, hands: tuple[int, int, int],
                 misfit: float = MISFIT) -> float:
    """How likely the other seats' auction is in a world where they hold `hands` (see `inference`)."""
    weight = 1.0
    for other, said in facts.items():
        if other != seat:
            weight *= seat_likelihood(said, hands[other], other, misfit)
    return weight


Facts = tuple[tuple[int, tuple[int, int]], ...]
"""`inference.auction_facts` as a sorted tuple (a cache key): empty for uniform worlds."""

SHARP_TRIES = 24
"""Draws per sharp world (see `solve`): enough to find a world that fits a bid of 30 most of the time."""


def facts_key(auction: Sequence[tuple[int, Action]], ladder: Sequence[int]) -> Facts:
    return tuple(sorted(auction_facts(auction, ladder).items()))


def draw_sharp(rng: random.Random, seat: int, mine: int, facts: Facts) -> tuple[tuple[int, int, int], int]:
    """A world kept with its likelihood under `SHARP_MISFIT` (rejection sampling), within `SHARP_TRIES` draws."""
    said = dict(facts)
    for attempt in range(SHARP_TRIES):
        hands, skat = draw_world(rng, seat, mine)
        weight = world_weight(said, seat, hands, SHARP_MISFIT)
        if weight >= 1.0 or rng.random() < weight or attempt == SHARP_TRIES - 1:
            break
    return hands, skat


# --- evaluation ----------------------------------------------------------------------------------

def _declarer_cards(candidate: Candidate, seat: int, bid: int, mine: int,
                    skat: int) -> tuple[GameType, int, int, bool] | None:
    """(game, the ten cards played, the two cards counted for the declarer, hand) in one world; None when
    `normal` would pick a null there (judged without search)."""
    if candidate.kind == HAND:
        assert candidate.game is not None
        return candidate.game, mine, skat, True
    if candidate.kind == FIXED:  # `mine` holds the twelve cards
        assert candidate.game is not None
        return candidate.game, mine & ~candidate.discard, candidate.discard, False
    twelve = cards(mine | skat)
    if candidate.game is None:
        option = best_option(skat_options(twelve, seat, bid))
        assert option is not None and option.discard is not None
        game = option.contract.game
        if game is GameType.NULL:
            return None
        discard = option.discard
    else:
        game = candidate.game
        chosen = _best_discard(twelve, game, seat == 0, bid).discard
        assert chosen is not None
        discard = chosen
    away = mask_of(discard)
    return game, (mine | skat) & ~away, away, False


Solved = tuple[tuple[tuple[int, int, int], ...], tuple[tuple[tuple[int, float] | None, ...], ...]]
"""The worlds' hands, and per world per candidate (value written, calibrated chance) or None (not solved)."""


RACE_MIN = 3
"""Worlds a candidate is tried in (solved or not) before the race may drop it (`solve` with `race`)."""
RACE_CHANCE = 0.45
"""A candidate whose calibrated chance is clearly below this is out of the race: at a chance under 2/3 a game
expects less the more it is worth, and under 0.45 even an 18 expects -38 or worse against the table, below
passing (defending costs 11-21) and below a contender's."""
RACE_SPREAD = 0.25
"""The least spread of a candidate's verdicts the race assumes (three verdicts of 0.15 do not prove a spread
of 0): its upper bound is the mean chance plus two standard errors of this spread or the sample's, whichever
is larger."""
RACE_ABORTED = 0.7
"""What a solve past `SOLVE_CAP` counts as in the race (a hard world is a close one; such a candidate stays)."""
RACE_WORLDS = 24
"""Worlds per evaluation at most in the race: the budget the dropped candidates no longer take buys worlds for
the contenders, and the marginal decisions (a pickup on 5-8 worlds) were the noisy ones."""


def race_out(tried: Sequence[float | None]) -> float | None:
    """The upper bound on a candidate's mean chance from its verdicts so far (None: past `SOLVE_CAP`, counted as
    `RACE_ABORTED`), or None before `RACE_MIN` tries."""
    if len(tried) < RACE_MIN:
        return None
    chances = [RACE_ABORTED if c is None else c for c in tried]
    n = len(chances)
    mean = sum(chances) / n
    spread = max(RACE_SPREAD, math.sqrt(sum((c - mean) ** 2 for c in chances) / (n - 1)))
    return mean + 2 * spread / math.sqrt(n)


def racing(tries: Sequence[Sequence[float | None]], active: Sequence[bool]) -> list[bool]:
    """Which candidates stay in the race: one whose upper bound (`race_out`) is below `RACE_CHANCE` drops out,
    unless no candidate still running has a better mean chance (the best of a bad lot is still needed: after
    the pickup one game must be declared; of equal means the first stays). A candidate tried fewer than
    `RACE_MIN` times stays."""
    means = [sum(RACE_ABORTED if c is None else c for c in t) / len(t) if t else None for t in tries]
    out = list(active)

    def better(j: int, i: int) -> bool:
        mj, mi = means[j], means[i]
        return mj is not None and mi is not None and (mj > mi + 1e-9 or (abs(mj - mi) <= 1e-9 and j < i))

    for i, t in enumerate(tries):
        bound = race_out(t)
        if out[i] and bound is not None and bound < RACE_CHANCE and any(
                out[j] and j != i and better(j, i) for j in range(len(tries))):
            out[i] = False
    return out


def race_over(tries: Sequence[Sequence[float | None]], active: Sequence[bool]) -> bool:
    """Whether every candidate still running is out of the race by its bound (a hopeless hand: more worlds
    would not change what it does)."""
    return any(active) and all(not a or (b := race_out(t)) is not None and b < RACE_CHANCE
                               for a, t in zip(active, tries, strict=True))


TWO_PHASE_EVERY = 2
"""With `two_phase` (`solve`), one world in this many gets the full verdict (61, then 76 or 46), the others the
61 search only."""
WON_61 = 2.0
LOST_61 = -1.0
"""Markers, inside `solve`, of a world judged by the 61 search alone (replaced by `impute`'s chances)."""
PRIOR_61 = ((CALIBRATION[0][1] + CALIBRATION[1][1]) / 2, (CALIBRATION[2][1] + CALIBRATION[3][1]) / 2)
"""The chance a world with 61 made (and one without) stands for before any full verdict says more."""
PRIOR_WORLDS = 2
"""How many full verdicts `PRIOR_61` counts as (a shrinkage toward it when few worlds were refined)."""

CAPPED_CAP = 50_000
"""Nodes one verdict may take with `capped` (`solve`): a third of `SOLVE_CAP`. On the opening hands of deals
4-13 (the race variant's bid limit) 61 of 1,073 verdicts ran past `SOLVE_CAP` and took 29% of the nodes for no
verdict; at this cap 217 run past it, and the nodes spent fall by 38%."""
CAPPED_MADE = PRIOR_61[0]
CAPPED_LOST = 0.45
CAPPED_UNKNOWN = 0.7
"""The chance a verdict cut off at `CAPPED_CAP` stands for: after the 61 search said made (`CAPPED_MADE`) or not
(`CAPPED_LOST`), or before it ended (`CAPPED_UNKNOWN`). Solved to the end instead (deals 4-13, the opening hands),
such worlds came out at 0.91, 0.44 and 0.70 on average: a hard world is a close one, so dropping it (as past
`SOLVE_CAP`) leaves a candidate judged on its clear worlds."""


def capped_chance(solver: Solver, position: Position, counted: int) -> float:
    """`calibrated`, but a search cut off by the solver's node limit gives the mean chance of such worlds
    (`CAPPED_MADE`, `CAPPED_LOST` or `CAPPED_UNKNOWN`, by what the 61 search said) instead of no verdict."""
    try:
        made = solver.reaches(position, 61 - counted)
    except SearchAborted:
        return CAPPED_UNKNOWN
    try:
        return refined(solver, position, counted, made)
    except SearchAborted:
        return CAPPED_MADE if made else CAPPED_LOST


def impute(chances: Sequence[float]) -> tuple[float, float]:
    """The chance to stand for a world judged by the 61 search alone, made and not made: the mean full verdict
    of the candidate's refined worlds on the same side of 61, shrunk toward `PRIOR_61` by `PRIOR_WORLDS`
    (two-phase sampling: the cheap search in every world, the dear refinement in some, its mean per side
    carried over to the rest)."""
    won = [c for c in chances if 0.0 <= c <= 1.0 and c >= CALIBRATION[1][1]]
    lost = [c for c in chances if 0.0 <= c <= 1.0 and c < CALIBRATION[1][1]]
    return ((sum(won) + PRIOR_WORLDS * PRIOR_61[0]) / (len(won) + PRIOR_WORLDS),
            (sum(lost) + PRIOR_WORLDS * PRIOR_61[1]) / (len(lost) + PRIOR_WORLDS))


@lru_cache(maxsize=256)
def solve(seed: int, seat: int, mine: int, bid: int, candidates: tuple[Candidate, ...], worlds_at_most: int = WORLDS,
          budget: int = NODE_BUDGET, sharp: Facts = (), share: bool = True, race: bool = False,
          two_phase: bool = False, capped: bool = False) -> Solved:
    """Each candidate in the same worlds. `mine`: this seat's ten cards (PICKUP and HAND candidates) or its
    twelve after the pickup (FIXED). Without `sharp` the worlds are drawn uniformly and remembered: the
    auction's later decisions only weigh them anew. With the auction's facts as `sharp`, each world is drawn
    in proportion to its likelihood under `SHARP_MISFIT` (`draw_sharp`), so a bid of 30 is not judged mostly
    in worlds where the bidder could not have made it; each new fact then costs a new search.

    Two candidates often play the same cards in a world (the free pickup and the pickup committed to the
    game `normal` picks there; a hand game and its pickup when the skat is put back); with `share` such a
    position is solved once and its verdict reused, its nodes still charged to the budget, so the worlds and
    verdicts are exactly those of solving it again, at less CPU (`share=False` solves every one).

    With `race` (a racing algorithm's way to spend a budget on the contenders): a candidate whose chance is
    clearly hopeless after `RACE_MIN` worlds (`racing`) is not solved in the later worlds (its outcomes stop
    there), a shared position is charged once (the budget counts the CPU actually spent), and up to
    `RACE_WORLDS` worlds are drawn, so the budget goes to more worlds for the candidates that can still be
    chosen; when every candidate left is hopeless the evaluation stops (`race_over`).

    With `two_phase` the second search of a verdict (76 or 46, the dearer one: 62% of the nodes on the opening
    hands of deals 4-9) is made in one world of `TWO_PHASE_EVERY` only; the others get the 61 search alone and
    the chance `impute` carries over from the refined worlds, so the budget buys more worlds.

    With `capped` a verdict may take `CAPPED_CAP` nodes, not `SOLVE_CAP`, and one cut off there still counts, at
    the mean chance of such worlds (`capped_chance`): the budget no longer goes to solves that end in nothing,
    and a candidate's hard (close) worlds are no longer left out of its estimate."""
    rng = random.Random(f"contracts|{seed}|{seat}|{mine}|{bid}|{candidates}|{sharp}")
    solvers: dict[GameType, Solver] = {}
    worlds: list[tuple[int, int, int]] = []
    results: list[tuple[tuple[int, float] | None, ...]] = []
    spent = 0
    active = [True] * len(candidates)
    tries: list[list[float | None]] = [[] for _ in candidates]
    most = max(worlds_at_most, RACE_WORLDS) if race else worlds_at_most
    while len(worlds) < most and spent < budget:
        hands, world_skat = draw_sharp(rng, seat, mine, sharp) if sharp else draw_world(rng, seat, mine)
        row: list[tuple[int, float] | None] = []
        solved: dict[tuple[GameType, int, int], tuple[float | None, int]] = {}  # verdict (None: aborted), nodes
        for i, candidate in enumerate(candidates):
            if not active[i]:
                row.append(None)
                continue
            played = _declarer_cards(candidate, seat, bid, mine, world_skat)
            if played is None:
                row.append(None)
                continue
            game, kept, counted, hand = played
            value = game.base_value * (abs(matadors(game, kept | counted)) + 1 + int(hand))
            known = solved.get((game, kept, counted)) if share else None
            if known is None:
                refine = not two_phase or len(worlds) % TWO_PHASE_EVERY == 0
                known = _verdict(solvers, game, seat, hands, kept, counted, refine, capped)
                solved[(game, kept, counted)] = known
                spent += known[1]
            elif not race:
                spent += known[1]
            chance = known[0]
            tries[i].append(chance if chance is None or 0.0 <= chance <= 1.0 else
                            PRIOR_61[0] if chance == WON_61 else PRIOR_61[1])
            row.append(None if chance is None else (value, chance))
        worlds.append(hands)
        results.append(tuple(row))
        if race:
            active = racing(tries, active)
            if race_over(tries, active):
                break
    if two_phase:
        results = _imputed(results, len(candidates))
    return tuple(worlds), tuple(results)


def _imputed(results: list[tuple[tuple[int, float] | None, ...]],
             count: int) -> list[tuple[tuple[int, float] | None, ...]]:
    """`results` with each 61-only verdict (`WON_61`, `LOST_61`) replaced by its candidate's `impute`d chance."""
    sides = [impute([cell[1] for r in results if (cell := r[i]) is not None]) for i in range(count)]
    out = []
    for row in results:
        new: list[tuple[int, float] | None] = []
        for i, cell in enumerate(row):
            if cell is not None and cell[1] == WON_61:
                cell = (cell[0], sides[i][0])
            elif cell is not None and cell[1] == LOST_61:
                cell = (cell[0], sides[i][1])
            new.append(cell)
        out.append(tuple(new))
    return out


def _verdict(solvers: dict[GameType, Solver], game: GameType, seat: int, hands: tuple[int, int, int], kept: int,
             counted: int, refine: bool = True, capped: bool = False) -> tuple[float | None, int]:
    """The calibrated chance of `game` with `kept` in this seat's hand of the world (None past `SOLVE_CAP`;
    without `refine` only whether it makes 61: `WON_61` or `LOST_61`; `capped`: past `CAPPED_CAP`, the mean
    chance of such worlds), and the nodes it took."""
    solver = solvers.get(game)
    if solver is None:
        solver = solvers[game] = Solver(game, seat, Mode.POINTS)
    solver.reset()
    before = solver.nodes
    solver.node_limit = before + (CAPPED_CAP if capped else SOLVE_CAP)
    position = list(hands)
    position[seat] = kept
    start = Position((position[0], position[1], position[2]), 0)
    if capped and refine:
        return capped_chance(solver, start, points_of(counted)), solver.nodes - before
    try:
        if not refine:
            made = solver.reaches(start, 61 - points_of(counted))
            return (WON_61 if made else LOST_61), solver.nodes - before
        return calibrated(solver, start, points_of(counted)), solver.nodes - before
    except SearchAborted:
        return (CAPPED_UNKNOWN if capped else None), solver.nodes - before


DECLARER_WINS = 0.8
"""How often a declared game is won at the table (the `normal` level's declarers win 78-81%)."""


def defending_value(value: int) -> float:
    """A defender's expected result against the table's mean when another seat plays a game worth
    `value`: a won game gives the declarer value + 50 (this seat: minus half of it against the others'
    mean), a lost one gives each defender 40 and the declarer minus twice the value + 50 (this seat: the
    value + 45)."""
    return DECLARER_WINS * -(value + 50) / 2 + (1 - DECLARER_WINS) * (value + 45)


@dataclass(frozen=True, slots=True)
class Passing:
    """What passing leads to, over the bidding's worlds weighted by the auction: the chance that every
    other seat still in the auction passes too, and the expected result of defending otherwise."""

    all_pass: float
    defending: float  # expected result over the worlds where another seat plays (weighted share included)


def passing(seed: int, seat: int, mine: int, candidates: tuple[Candidate, ...], auction: Sequence[tuple[int, Action]],
            ladder: Sequence[int], bid: int, worlds_at_most: int = WORLDS, budget: int = NODE_BUDGET,
            sharp: bool = False, race: bool = False, two_phase: bool = False, capped: bool = False) -> Passing:
    """Another seat still in the auction plays when `inference`'s model gives it a limit above the current
    bid (18 with none yet), at the value of that limit; `sharp`: in `solve`'s sharp worlds, and at least at
    what it has said (it has said it, so it plays if this seat passes and the third is out)."""
    facts = auction_facts(auction, ladder)
    key = facts_key(auction, ladder) if sharp else ()
    worlds, _ = solve(seed, seat, mine, 18, candidates, worlds_at_most, budget, key, True, race, two_phase, capped)
    out = {other for other, (_, refused) in facts.items() if refused}
    total = quiet = defending = 0.0
    for hands in worlds:
        weight = world_weight(facts, seat, hands, SHARP_MISFIT if sharp else MISFIT)
        total += weight
        limits = [max(model_limit(hands[other], other), facts.get(other, (0, 0))[0] if sharp else 0)
                  for other in range(3) if other != seat and other not in out]
        playing = max((limit for limit in limits if limit >= max(18, bid)), default=0)
        if playing:
            defending += weight * defending_value(playing)
        else:
            quiet += weight
    if not total:
        return Passing(0.0, 0.0)
    return Passing(quiet / total, defending / total)


def evaluate(seed: int, seat: int, mine: int, bid: int, candidates: tuple[Candidate, ...],
             auction: Sequence[tuple[int, Action]], ladder: Sequence[int], worlds_at_most: int = WORLDS,
             budget: int = NODE_BUDGET, sharp: bool = False, race: bool = False,
             two_phase: bool = False, capped: bool = False) -> list[Estimate]:
    """Each candidate's outcomes, the worlds weighted by how likely they make the auction so far (`sharp`:
    in worlds drawn by that likelihood, weighted by it again: a world drawn after every try failed counts
    little)."""
    facts = auction_facts(auction, ladder)
    key = facts_key(auction, ladder) if sharp else ()
    worlds, results = solve(seed, seat, mine, bid, candidates, worlds_at_most, budget, key, True, race, two_phase,
                            capped)
    weights = [world_weight(facts, seat, hands, SHARP_MISFIT if sharp else MISFIT) for hands in worlds]
    out = []
    for i, candidate in enumerate(candidates):
        outcomes = []
        indices = []
        for world, (weight, row) in enumerate(zip(weights, results, strict=True)):
            result = row[i]
            if result is not None:
                outcomes.append((weight, result[0], result[1]))
                indices.append(world)
        out.append(Estimate(candidate, tuple(outcomes), tuple(indices)))
    return out


# --- candidates ----------------------------------------------------------------------------------

PICKUP_GAMES = 2
"""Pickups committed to a game, beside the free one: the best games by `normal`'s strength before the skat.
The free pickup is solved with the game `normal` picks at 18, so at a higher bid its worlds with a cheaper
game count as overbid and lost; a grand hand then bid 22 where `normal` bids 48. A pickup committed to the
grand says what the hand makes at 48 (the bid takes the best candidate, not the best per world, so the
worlds' open cards choose nothing)."""


def bidding_candidates(hand: Sequence[Card], seat: int, pickup_games: int = PICKUP_GAMES) -> tuple[Candidate, ...]:
    """Before the skat: a pickup (whatever `normal` then picks), pickups committed to the games the hand points
    to, and those games played hand (the best two by `normal`'s strength)."""
    forehand = seat == 0
    ranked = sorted(TRUMP_GAMES, key=lambda g: -win_probability(g, strength(hand, g, forehand)
                                                              + HAND_SKAT_POINTS))
    return (Candidate(PICKUP, None), *(Candidate(PICKUP, g) for g in ranked[:pickup_games]),
            *(Candidate(HAND, g) for g in ranked[:2]))


def discard_candidates(twelve: Sequence[Card], seat: int, bid: int, per_game: int = 2,
                       games: int = 3) -> tuple[Candidate, ...]:
    """After the pickup: for the best `games` suit games or grand by `normal`'s judgement, its best
    `per_game` discards (by `normal`'s strength of the ten kept plus the points buried)."""
    forehand = seat == 0
    ranked = sorted(TRUMP_GAMES, key=lambda g: -_best_discard(twelve, g, forehand, bid).expected)
    out: list[Candidate] = []
    for game in ranked[:games]:
        scored = []
        for first, second in combinations(twelve, 2):
            kept = [c for c in twelve if c is not first and c is not second]
            score = strength(kept, game, forehand) + (first.points + second.points) * BURIED_POINT_WEIGHT
            scored.append((score, mask_of((first, second))))
        scored.sort(key=lambda s: (-s[0], s[1]))
        out.extend(Candidate(FIXED, game, discard) for _, discard in scored[:per_game])
    return tuple(out)


NULL_AFTER_PICKUP = (0.98, 0.66)
"""The chance a null (not ouvert) after the pickup wins with strong's card play on all three seats, by how many
cards of the ten kept are dangerous (`null_danger`: none, one), where `null_probability` says 0.9 and 0.3
(benchmarks/contract_calibration.py --null --play strong, seeds 20001-21000: won 53 of 53 and 45 of 68, here as
(won + 1) / (hands + 2); checked on seeds 21001-22000: 49 of 50 and 45 of 67, Brier score 0.135 against the rule
of thumb's 0.216; `normal`'s play on the same 238 hands: 97% and 64%). Not the double-dummy verdict: a null the
real deal loses with every card open is still won 37% of the time."""


def fitted_null_chance(kept: Sequence[Card], ouvert: bool = False) -> float:
    """`null_probability` of the ten cards kept after the pickup, measured against strong's play where it was
    (`NULL_AFTER_PICKUP`): the rule of thumb says 0.3 where a null with one dangerous card wins two times in
    three, so strong played a suit game it expected to lose rather than such a null."""
    danger = null_danger(kept)
    if ouvert or danger >= len(NULL_AFTER_PICKUP):
        return null_probability(kept, ouvert=ouvert)
    return NULL_AFTER_PICKUP[danger]


def null_options(hand: Sequence[Card], bid: int, hand_game: bool, twelve: bool = False,
                 fitted: bool = False) -> list[Option]:
    """Null games worth the bid, judged by `normal` (with a discard still to come for `twelve` cards; `fitted`:
    the chance of a null after the pickup as measured against strong's play, `fitted_null_chance`)."""
    out = []
    if twelve:
        first, second = null_discard(hand)
        kept = [c for c in hand if c is not first and c is not second]
        for ouvert, value in ((False, 23), (True, 46)):
            if value >= bid:
                chance = fitted_null_chance(kept, ouvert) if fitted else null_probability(kept, ouvert=ouvert)
                out.append(Option(Contract(GameType.NULL, ouvert=ouvert), value, chance, (first, second)))
        return out
    values = ((False, 35), (True, 59)) if hand_game else ((False, 23), (True, 46))
    for ouvert, value in values:
        if value >= bid:
            chance = null_probability(hand, ouvert=ouvert, discards_to_come=0 if hand_game else 2)
            out.append(Option(Contract(GameType.NULL, hand_game, ouvert=ouvert), value, chance))
    return out
