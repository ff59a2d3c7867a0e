"""The challenge's pure core: the day's deals from the date and the secret, seats, seeds, the par line, and
the scores, boards and percentiles made from results."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from skatbot.ai import Level
from skatbot.challenge import (
    MAX_DEALS,
    Attempt,
    AttemptError,
    ChallengeDay,
    ChallengeScore,
    Move,
    ai_decision,
    board,
    new_secret,
    par_line,
    percentile,
    seeger_fabian_score,
    week_board,
)
from skatbot.challenge.results import field_average
from skatbot.engine import IllegalAction, Pass, PlayCard, Rank, Suit
from skatbot.engine.cards import Card
from tests.challenge.challenge_helpers import players_turn

SECRET = "a" * 64
DAY = date(2026, 12, 7)


def _hands(day: ChallengeDay) -> list[tuple[object, ...]]:
    return [(day.new_deal(n).dealt_hands, day.new_deal(n).dealt_skat) for n in range(MAX_DEALS)]


def test_a_day_is_the_same_wherever_it_is_computed() -> None:
    first, again = ChallengeDay.of(SECRET, DAY), ChallengeDay.of(SECRET, DAY)
    assert _hands(first) == _hands(again)
    assert [first.player_seat(n) for n in range(MAX_DEALS)] == [again.player_seat(n) for n in range(MAX_DEALS)]
    assert first.ai_seed(2, 1, 7) == again.ai_seed(2, 1, 7)


def test_the_deals_of_a_day_differ_from_each_other_and_from_other_days() -> None:
    today = ChallengeDay.of(SECRET, DAY)
    tomorrow = ChallengeDay.of(SECRET, date(2026, 12, 8))
    hands = _hands(today)
    assert len({str(h) for h in hands}) == MAX_DEALS
    assert not set(map(str, hands)) & set(map(str, _hands(tomorrow)))


def test_the_secret_decides_the_deals() -> None:
    mine, theirs = ChallengeDay.of(SECRET, DAY), ChallengeDay.of("b" * 64, DAY)
    assert not set(map(str, _hands(mine))) & set(map(str, _hands(theirs)))
    assert new_secret() != new_secret() and len(new_secret()) == 64
    with pytest.raises(ValueError):
        ChallengeDay.of("", DAY)


def test_the_player_takes_every_seat_in_turn() -> None:
    day = ChallengeDay.of(SECRET, DAY)
    seats = [day.player_seat(n) for n in range(6)]
    assert sorted(seats) == [0, 0, 1, 1, 2, 2]
    assert all(seats[n + 1] == (seats[n] + 1) % 3 for n in range(5))


def test_the_opponents_seeds_depend_on_deal_seat_and_step() -> None:
    day = ChallengeDay.of(SECRET, DAY)
    seeds = {day.ai_seed(n, seat, step) for n in range(3) for seat in range(3) for step in range(10)}
    assert len(seeds) == 90
    assert day.par_seed(0, 0) not in seeds


def test_the_par_is_reproducible_and_the_same_play_meets_the_same_answers() -> None:
    """The strong AI's line twice gives the same par; a player who plays that line's cards in the seat meets
    exactly the par line's opponents and scores the par."""
    day = ChallengeDay.of(SECRET, DAY)
    number = next(n for n in range(MAX_DEALS) if len(par_line(day, n, Level.NORMAL, Level.NORMAL).moves) > 3)
    par = par_line(day, number)
    assert par == par_line(day, number)
    seat = day.player_seat(number)
    attempt = Attempt(day, number + 1, [Move.parse(text) for n in range(number)
                                        for text in par_line(day, n, Level.RANDOM, Level.RANDOM).moves])
    assert attempt.number == number and attempt.seat == seat
    mine = iter(Move.parse(text) for text in par.moves if Move.parse(text).seat == seat)
    while not attempt.is_over:
        turn = attempt.opponent_to_move()
        if turn is None:
            attempt.apply(attempt.players_move(next(mine).action))
        else:
            opponent, seed, view = turn
            attempt.apply(Move(number, opponent, ai_decision(Level.STRONG, seed, view)))
    assert [str(move) for move in attempt.moves if move.number == number] == list(par.moves)
    assert attempt.scores()[number] == par.score


def test_an_attempt_replays_from_its_log_and_refuses_what_it_cannot_take() -> None:
    day = ChallengeDay.of(SECRET, DAY)
    attempt = Attempt(day, 3)
    while not players_turn(attempt):
        seat, seed, view = attempt.opponent_to_move() or pytest.fail("no one to move")
        attempt.apply(Move(0, seat, ai_decision(Level.NORMAL, seed, view)))
    with pytest.raises(AttemptError) as wait:
        Attempt(day, 3, attempt.moves).apply(Move(0, (attempt.seat + 1) % 3, Pass()))
    assert wait.value.reason == "out_of_turn"
    stored = list(attempt.moves)
    with pytest.raises(IllegalAction):  # a card in the auction: the engine says why, nothing changes
        attempt.players_move(PlayCard(Card(Suit.CLUBS, Rank.JACK)))
    assert attempt.moves == stored and attempt.deal.history == Attempt(day, 3, stored).deal.history
    attempt.apply(attempt.players_move(Pass()))
    copy = Attempt(day, 3, [Move.parse(str(move)) for move in attempt.moves])
    assert copy.seq == attempt.seq and copy.deal.history == attempt.deal.history


def test_seeger_fabian_scores_of_declarer_defenders_and_a_passed_deal() -> None:
    day = ChallengeDay.of(SECRET, DAY)
    results = []
    for number in range(MAX_DEALS):
        deal = day.new_deal(number)
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            from skatbot.engine.views import seat_view
            deal.apply(ai_decision(Level.NORMAL, number * 100 + len(deal.history), seat_view(deal, seat)), seat)
        results.append(deal.result)
    for result in results:
        scores = [seeger_fabian_score(result, seat) for seat in range(3)]
        if result.declarer is None:
            assert scores == [0, 0, 0]
            continue
        declarer = scores[result.declarer]
        defenders = [s for seat, s in enumerate(scores) if seat != result.declarer]
        if result.won:
            assert declarer == result.value + 50 and defenders == [0, 0]
        else:
            assert declarer == -2 * result.value - 50 and defenders == [40, 40]


def test_boards_rank_by_score_against_par_and_percentiles_place_a_player_in_the_field() -> None:
    rows = [ChallengeScore(DAY, 1, 10, 0, 110, 60), ChallengeScore(DAY, 1, 10, 1, 0, 40),  # +50 - 40 = +10
            ChallengeScore(DAY, 2, 10, 0, 60, 60), ChallengeScore(DAY, 2, 10, 1, 40, 40),  # 0, more points
            ChallengeScore(DAY, 3, 10, 0, 120, 60), ChallengeScore(DAY, 3, 10, 1, -110, 40)]  # -90
    ranked = board(rows, {1: "Anna", 2: "Ben"})
    assert [(r.name, r.margin, r.score) for r in ranked] == [("Anna", 10, 110), ("Ben", 0, 100), ("3", -90, 10)]
    assert percentile(10, [10, 0, -90]) == 100
    assert percentile(0, [10, 0, -90]) == 50
    assert percentile(-90, [10, 0, -90]) == 0
    assert percentile(5, [5]) == 100 and percentile(5, [5, 5]) == 100 and percentile(5, [5, 9, 9, 1]) == 33
    assert field_average([90, 60, 120]) == 90 and field_average([]) is None


def _days(player: int, *days: tuple[date, int, int]) -> list[ChallengeScore]:
    """`player`'s results: per (day, deals, margin per deal) that many deals, par 40 each."""
    return [ChallengeScore(day, player, 10, number, 40 + margin, 40) for day, deals, margin in days
            for number in range(deals)]


def test_a_week_ranks_by_score_against_par_per_deal_whatever_each_days_number_of_deals() -> None:
    """Worked example: the server played 12 deals on Monday and changed to 3 from Tuesday on. Anna played Monday
    only, +15 a deal against the par (+180); Ben Tuesday and Wednesday, +25 a deal (+150 on 6 deals); Cara
    Monday at -5 a deal and Tuesday at +60 (+120 on 15 deals: +8 a deal); Dora Wednesday, +15 a deal (+45).
    Summed, Monday's twelve deals would put Anna above Ben, who played better on every deal; per deal Ben
    leads, and Anna and Dora tie at +15 a deal, Anna first on more deals played."""
    monday, tuesday, wednesday = date(2026, 12, 7), date(2026, 12, 8), date(2026, 12, 9)
    rows = [*_days(1, (monday, 12, 15)), *_days(2, (tuesday, 3, 25), (wednesday, 3, 25)),
            *_days(3, (monday, 12, -5), (tuesday, 3, 60)), *_days(4, (wednesday, 3, 15))]
    names = {1: "Anna", 2: "Ben", 3: "Cara", 4: "Dora"}
    assert [r.name for r in board(rows, names)] == ["Anna", "Ben", "Cara", "Dora"]  # the sum: volume decides
    ranked = week_board(rows, names)
    assert [(r.name, r.margin, r.deals, r.days, r.per_deal) for r in ranked] == [
        ("Ben", 150, 6, 2, Fraction(25)), ("Anna", 180, 12, 1, Fraction(15)), ("Dora", 45, 3, 1, Fraction(15)),
        ("Cara", 120, 15, 2, Fraction(8))]
