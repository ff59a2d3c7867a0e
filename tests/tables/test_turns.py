"""Who acts next and what a table must do by itself, as pure functions of the game and the timing: no event
loop, no store, no clock."""

from __future__ import annotations

import random

from skatbot.ai import Level
from skatbot.engine import Declare, GameType, Kontra, Pass, Phase, Re, RuleSet
from skatbot.models import Due, DueKind
from skatbot.tables.game import TableGame
from skatbot.tables.log import Act, AddAI, Entry, Join, NewDeal, Start
from skatbot.tables.turns import (
    TableTiming,
    ai_delay,
    ai_to_move,
    due_steps,
    human_turn,
    humans_may_speak,
    leader_waits,
    side_calls_due,
)

TIMING = TableTiming(turn_seconds=120, warn_after=90, kontra_window=8, ai_pause=2)


KONTRA_RULES = RuleSet(kontra=True)


def seated(humans: int, rules: RuleSet = KONTRA_RULES) -> TableGame:
    game = TableGame(size=3, deals=2, rules=rules, creator_id=100)
    entries: list[Entry] = [Join(100 + i, f"P{i}") for i in range(humans)]
    entries += [AddAI(Level.NORMAL, 100)] * (3 - humans) + [Start(0), NewDeal(0, 11)]
    for entry in entries:
        game.apply(entry)
    return game


def to_the_first_lead(game: TableGame, seed: int = 4) -> None:
    """Bid and declare (forehand passes, never a null) until the first card is due."""
    rng = random.Random(seed)
    deal = game.deal
    assert deal is not None
    while deal.phase is not Phase.PLAY:
        assert deal.current_seat is not None
        actions = deal.legal_actions()
        keen = [a for a in actions if not isinstance(a, Pass)] if deal.phase is Phase.AUCTION else actions
        plain = [a for a in keen if not isinstance(a, Declare) or a.contract.game is not GameType.NULL]
        choice = Pass() if deal.current_seat == 0 and Pass() in actions else rng.choice(plain or keen or actions)
        game.apply(Act(0, deal.current_seat, choice))


def test_a_human_turn_is_due_to_be_warned_and_timed_out() -> None:
    game = seated(3)
    turn = human_turn(game)
    assert turn is not None and turn[0] == (0, 0)
    assert due_steps(game, TIMING, set(), window_waited=False) == [Due(DueKind.WARN, 90), Due(DueKind.TIMEOUT, 120)]
    no_warning = TableTiming(turn_seconds=120, warn_after=120)
    assert due_steps(game, no_warning, set(), window_waited=False) == [Due(DueKind.TIMEOUT, 120)]


def test_a_human_leader_waits_the_kontra_window_only_when_it_has_seconds_and_others_may_speak() -> None:
    game = seated(3)
    to_the_first_lead(game)
    deal = game.deal
    assert deal is not None and deal.current_seat == 0 and deal.declarer not in (None, 0)
    assert humans_may_speak(game, besides=0) and leader_waits(game, TIMING)
    assert Due(DueKind.KONTRA, 8) in due_steps(game, TIMING, set(), window_waited=False)
    closed = TableTiming(kontra_window=0)
    assert not leader_waits(game, closed)  # SKATBOT_KONTRA_WINDOW=0: no window, no row to close it
    assert all(d.kind is not DueKind.KONTRA for d in due_steps(game, closed, set(), window_waited=False))
    other_defender = 3 - deal.declarer
    game.apply(Act(0, other_defender, Kontra()))  # said: only the declarer's Re is left
    assert humans_may_speak(game, besides=0) == (Re() in deal.side_actions(deal.declarer))


def test_an_ai_seat_acts_and_waits_the_window_once_and_its_pause() -> None:
    game = seated(1)  # the human is forehand; two computer players
    deal = game.deal
    assert deal is not None and deal.current_seat == 1
    assert ai_to_move(game) == 1 and human_turn(game) is None
    assert ai_delay(game, TIMING, set(), window_waited=False) == 2  # the pause people watch
    steps = due_steps(game, TIMING, set(), window_waited=False)
    assert steps == [Due(DueKind.AI, 2)]


def test_computer_players_are_asked_once_each_for_kontra_and_re() -> None:
    game = seated(1)
    deal = game.deal
    assert deal is not None
    rng = random.Random(2)
    while deal.phase is not Phase.PLAY and not deal.is_over:
        assert deal.current_seat is not None
        actions = deal.legal_actions()
        keen = [a for a in actions if not isinstance(a, Pass)] if deal.phase is Phase.AUCTION else actions
        plain = [a for a in keen if not isinstance(a, Declare) or a.contract.game is not GameType.NULL]
        game.apply(Act(0, deal.current_seat, rng.choice(plain or keen or actions)))
    calls = side_calls_due(game, set())
    assert all(not game.occupant_of_seat(seat).plays_itself for seat, _ in calls)
    asked = {(0, seat, kind) for seat, kind in calls}
    assert side_calls_due(game, asked) == []
    if calls:  # a Kontra or Re is asked at once, before any wait, and does not shorten the wait of the AI's move
        assert ai_delay(game, TIMING, set(), window_waited=False) == ai_delay(game, TIMING, asked, window_waited=False)


def test_a_finished_deal_is_followed_by_the_next() -> None:
    game = seated(3, RuleSet())
    deal = game.deal
    assert deal is not None
    for seat in (1, 2, 0):
        game.apply(Act(0, seat, Pass()))
    assert deal.is_over and game.needs_new_deal
    assert due_steps(game, TIMING, set(), window_waited=False) == [Due(DueKind.FOLLOW)]
    assert ai_to_move(game) is None and human_turn(game) is None
