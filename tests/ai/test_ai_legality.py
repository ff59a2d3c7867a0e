"""Every level plays complete deals of every game type under every house rule without an illegal move.

An illegal choice raises (the player checks its own choice, the engine refuses it), so finishing the
deal is the assertion; the totals check that each deal really ended with a result.
"""

from __future__ import annotations

import itertools
import os

import pytest

from skatbot.ai import Level, make_player, play_deal
from skatbot.ai.base import ComputerPlayer
from skatbot.engine import (
    PICK_UP,
    AllPass,
    Contract,
    Deal,
    Declare,
    Discard,
    Ending,
    GameType,
    Losses,
    Phase,
    RuleSet,
)
from skatbot.engine.cards import mask_of, points_of
from skatbot.engine.views import seat_view
from tests.ai.ai_helpers import win_auction

LEVELS = (Level.RANDOM, Level.EASY, Level.NORMAL)
RULES = {
    "official": RuleSet(),
    "ramsch-kontra": RuleSet(all_pass=AllPass.RAMSCH, kontra=True, seeger_fabian=True),
    "kontra-bid-single-open": RuleSet(all_pass=AllPass.RAMSCH, kontra=True, kontra_needs_bid=True,
                                      losses=Losses.SINGLE, ouvert_any_game=True),
}
SOAK = int(os.environ.get("SKATBOT_AI_SOAK", "0"))


def _lineups() -> list[tuple[Level, Level, Level]]:
    return list(itertools.product(LEVELS, LEVELS, LEVELS))


def _play(seed: int, rules: RuleSet, lineup: tuple[Level, Level, Level]) -> Deal:
    deal = Deal.new(seed, rules)
    play_deal(deal, [make_player(level, seed * 3 + seat) for seat, level in enumerate(lineup)])
    return deal


def _check_finished(deal: Deal) -> None:
    assert deal.is_over
    result = deal.result
    if result.passed:
        return
    if deal.ending is Ending.PLAYED_OUT:
        assert len(deal.tricks) == 10
        taken = [points_of(deal.taken_mask(seat)) for seat in range(3)]
        skat = 0 if result.game is GameType.RAMSCH else points_of(mask_of(deal.skat))
        assert sum(taken) + skat == 120


@pytest.mark.parametrize("rules_name", list(RULES))
def test_every_lineup_plays_deals_to_the_end(rules_name: str) -> None:
    rules = RULES[rules_name]
    games: set[GameType | None] = set()
    kontra = 0
    lineups = _lineups()
    for number in range(900):
        deal = _play(10_000 + number, rules, lineups[number % len(lineups)])
        _check_finished(deal)
        games.add(deal.result.game)
        kontra += deal.kontra
    assert {GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND} <= games
    if rules.ramsch:
        assert GameType.RAMSCH in games
    if rules.kontra:
        assert kontra > 0


def _force_game(seed: int, contract: Contract, pick_up: bool, players: list[ComputerPlayer], rules: RuleSet) -> Deal:
    """Seat seed % 3 wins the auction at 18 and declares `contract`; the players take it from there."""
    deal = Deal.new(seed, rules)
    win_auction(deal, seed % 3)
    if pick_up:
        deal.apply(PICK_UP)
        assert deal.declarer is not None
        hand = deal.hand(deal.declarer)
        deal.apply(Discard(hand[0], hand[1]))
    deal.apply(Declare(contract))
    play_deal(deal, players)
    return deal


CONTRACTS = [
    (Contract(GameType.CLUBS), True), (Contract(GameType.DIAMONDS), True), (Contract(GameType.HEARTS, True), False),
    (Contract(GameType.SPADES, True, schneider=True), False), (Contract(GameType.GRAND), True),
    (Contract(GameType.GRAND, True, True, True), False), (Contract(GameType.GRAND, True, ouvert=True), False),
    (Contract(GameType.NULL), True), (Contract(GameType.NULL, ouvert=True), True),
    (Contract(GameType.NULL, True), False), (Contract(GameType.NULL, True, ouvert=True), False),
]


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_every_game_type(level: Level) -> None:
    rules = RULES["ramsch-kontra"]
    for number, (contract, pick_up) in enumerate(CONTRACTS * 25):
        seed = 50_000 + number
        players = [make_player(level, seed * 3 + seat) for seat in range(3)]
        deal = _force_game(seed, contract, pick_up, players, rules)
        assert deal.is_over and deal.result.game is contract.game


@pytest.mark.parametrize("level", LEVELS)
def test_side_actions_are_offered_only_when_allowed(level: Level) -> None:
    """side_action returns None when nothing may be said, and otherwise only what the seat may say."""
    for seed in range(60):
        deal = Deal.new(seed, RULES["ramsch-kontra"])
        player = make_player(level, seed)
        while not deal.is_over:
            for seat in range(3):
                view = seat_view(deal, seat)
                said = player.side_action(view)
                assert said is None or said in view.side_actions
            assert deal.current_seat is not None
            deal.apply(make_player(level, seed).choose(seat_view(deal, deal.current_seat)))
        assert deal.phase is Phase.FINISHED


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", list(RULES))
def test_soak_many_deals(rules_name: str) -> None:
    """Opt-in soak: pytest -m slow (SKATBOT_AI_SOAK=N deals per rule set, default 20 000)."""
    lineups = _lineups()
    for number in range(SOAK or 20_000):
        _check_finished(_play(1_000_000 + number, RULES[rules_name], lineups[number % len(lineups)]))
