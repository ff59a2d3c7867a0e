"""The solver against a frozen copy of its earlier compiled core (reference_solver_core) on positions
too large for brute force: whole deals and deals a trick or two in, of every game type and mode.

Any rework of the search (move ordering, bounds, table use) must leave every value unchanged; the
brute-force comparisons in test_solver.py cover the small endgames, this covers the big trees where
pruning and the transposition table do their work."""

from __future__ import annotations

import random

import pytest

import tests.ai.reference_solver_core as reference
from skatbot.ai.solver import Mode, Solver, position_from_deal
from skatbot.engine import Contract, Deal, Declare, GameType, Pass, Phase
from skatbot.engine.rules import AllPass, RuleSet
from tests.ai.ai_helpers import win_auction

GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND, GameType.NULL)
_REFERENCE_TABLE = reference.new_transposition_table()
_REFERENCE_SCRATCH = reference.new_scratch()


class ReferenceSolver(Solver):
    """The same card numbering, validation and Python driver, searching with the frozen core."""

    def _start(self, ha: int, hb: int, hc: int, leader: int, rest: int, alpha: int, beta: int) -> int:
        return int(reference.start(self._tables, _REFERENCE_TABLE, self._history, _REFERENCE_SCRATCH,
                                   self._counters, ha, hb, hc, leader, rest, alpha, beta))


def position(seed: int, game: GameType, cards_played: int) -> Deal | None:
    """A hand game declared by a random seat, played at random until `cards_played` cards are down."""
    rng = random.Random(seed)
    deal = Deal.new(seed)
    win_auction(deal, rng.randrange(3))
    deal.apply(Declare(Contract(game, hand=True)))
    while len(deal.tricks) * 3 + len(deal.current_trick) < cards_played:
        if deal.is_over:
            return None
        deal.apply(rng.choice(deal.legal_actions()))
    return None if deal.is_over else deal


def check(seed: int, game: GameType, cards_played: int, mode: Mode) -> None:
    deal = position(seed, game, cards_played)
    if deal is None:  # a null lost early: nothing to compare
        return
    assert deal.declarer is not None
    where = position_from_deal(deal)
    expected = ReferenceSolver(game, deal.declarer, mode).value(where)
    assert Solver(game, deal.declarer, mode).value(where) == expected
    if mode is Mode.POINTS:  # the win-or-lose question the AI asks most, either side of the value
        solver = Solver(game, deal.declarer, mode)
        for target in (expected, expected + 1, 61):
            assert solver.reaches(where, target) == (expected >= target)


def ramsch_position(seed: int, cards_played: int) -> Deal:
    """A Ramsch deal (everyone passed) played at random until `cards_played` cards are down."""
    rng = random.Random(seed)
    deal = Deal.new(seed, RuleSet(all_pass=AllPass.RAMSCH))
    while deal.phase is not Phase.PLAY:
        deal.apply(Pass())
    while len(deal.tricks) * 3 + len(deal.current_trick) < cards_played:
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def mode_of(game: GameType, seed: int) -> Mode:
    if game is GameType.NULL:
        return Mode.NULL
    return Mode.TRICKS if seed % 4 == 3 else Mode.POINTS


@pytest.mark.parametrize("seed", range(24))
def test_positions_eight_tricks_from_the_end_match_the_reference(seed: int) -> None:
    game = GAMES[seed % len(GAMES)]
    check(seed, game, 6 + seed % 3, mode_of(game, seed))


@pytest.mark.parametrize("seed", range(6))
def test_ramsch_positions_match_the_reference(seed: int) -> None:
    deal = ramsch_position(seed, 9 + seed % 3)
    where = position_from_deal(deal)
    me = seed % 3
    assert Solver(GameType.RAMSCH, me).value(where) == ReferenceSolver(GameType.RAMSCH, me).value(where)


@pytest.mark.parametrize("seed", [*range(12), *(pytest.param(s, marks=pytest.mark.slow) for s in range(12, 60))])
def test_whole_deals_match_the_reference(seed: int) -> None:
    game = GAMES[seed % len(GAMES)]
    check(seed + 100, game, seed % 3, mode_of(game, seed))
