"""Deal analysis: its turnings agree with exact solver values at every card, its alternatives win."""

from __future__ import annotations

import pytest

from skatbot.ai import Level, make_player
from skatbot.ai.analysis import THRESHOLDS, analyse
from skatbot.ai.runner import ask_side_actions
from skatbot.ai.solver import Mode, Position, Solver, position_from_deal
from skatbot.ai.verdict import NotAnalysable, WinLevel
from skatbot.engine import PLAY, Contract, Deal, Declare, Discard, GameType, PickUpSkat
from skatbot.engine.actions import PlayCard
from skatbot.engine.cards import mask_of, points_of
from skatbot.engine.views import seat_view
from tests.ai.ai_helpers import make_deal, win_auction


def played_by_normal(seed: int) -> Deal:
    deal = Deal.new(seed)
    players = [make_player(Level.NORMAL, seed * 3 + seat) for seat in range(3)]
    asked: set[tuple[int, str]] = set()
    while not deal.is_over:
        ask_side_actions(deal, players, asked)
        seat = deal.current_seat
        assert seat is not None
        deal.apply(players[seat].choose(seat_view(deal, seat)), seat)
    return deal


def level_of(points: int) -> WinLevel:
    return WinLevel(sum(points >= t for t in THRESHOLDS))


def exact_levels(deal: Deal) -> list[WinLevel]:
    """The level before each card and after the last one, from exact values (bisection, not thresholds)."""
    assert deal.declarer is not None and deal.contract is not None
    game = deal.contract.game
    skat = points_of(mask_of(deal.discarded if deal.picked_up else deal.dealt_skat))
    replay = Deal(deal.dealt_hands, deal.dealt_skat, deal.rules)
    levels: list[WinLevel] = []
    for seat, action in deal.history:
        if isinstance(action, PlayCard):
            taken = replay.taken_mask(deal.declarer)
            position = position_from_deal(replay)
            if game is GameType.NULL:
                won = taken == 0 and Solver(game, deal.declarer, Mode.NULL).null_won(position)
                levels.append(WinLevel.WON if won else WinLevel.LOST)
            else:
                levels.append(level_of(skat + points_of(taken) + Solver(game, deal.declarer).value(position)))
        replay.apply(action, seat)
        if replay.is_over:
            break
    taken = replay.taken_mask(deal.declarer)
    if game is GameType.NULL:
        levels.append(WinLevel.LOST if taken else WinLevel.WON)
    else:
        levels.append(level_of(skat + points_of(taken)))
    return levels


@pytest.mark.parametrize("seed", [1, 4])
def test_turnings_are_exactly_the_cards_that_change_the_exact_level(seed: int) -> None:
    deal = played_by_normal(seed)
    analysis = analyse(deal)
    levels = exact_levels(deal)
    cards = [(seat, action.card) for seat, action in deal.history if isinstance(action, PlayCard)]
    expected = [(i // 3 + 1, cards[i][1], levels[i], levels[i + 1])
                for i in range(len(cards)) if levels[i] != levels[i + 1]]
    assert [(t.trick, t.card, t.before, t.after) for t in analysis.turnings] == expected
    assert expected, "these seeds were picked because a card turned the deal"
    assert analysis.start == levels[0]
    assert analysis.could_win == (levels[0] >= WinLevel.WON and not deal.result.overbid)
    for turning in analysis.turnings:
        assert turning.better is not None and turning.better != turning.card
    points = [t for t in analysis.turnings if t.better_points is not None]
    assert points, "exact points are left out only when their search is too long"
    for turning in points:
        assert turning.better_points is not None and level_of(turning.better_points) == turning.before


def test_a_defender_who_gives_the_game_away_is_named_with_the_card_that_kept_it() -> None:
    # Normal-level defenders do misplay now and then: the first such card of these deals must be named
    # with a card the same defender held that would have kept the outcome.
    for seed in (1, 3, 4, 8, 11, 12):
        deal = played_by_normal(seed)
        analysis = analyse(deal)
        defenders = [t for t in analysis.turnings if t.seat != analysis.declarer]
        if defenders:
            turning = defenders[0]
            assert turning.after > turning.before  # a defender's mistake helps the declarer
            assert turning.better in deal.dealt_hands[turning.seat]
            return
    pytest.fail("no defender turned any of these deals")


def test_a_skat_choice_wins_when_played_with_every_card_open() -> None:
    for seed in (3, 7, 13, 14):
        deal = played_by_normal(seed)
        analysis = analyse(deal)
        assert deal.picked_up
        for choice in analysis.skat_choices:
            assert deal.declarer is not None
            twelve = mask_of(deal.dealt_hands[deal.declarer]) | mask_of(deal.dealt_skat)
            assert mask_of(choice.discard) & ~twelve == 0
            hands = [mask_of(h) for h in deal.dealt_hands]
            hands[deal.declarer] = twelve & ~mask_of(choice.discard)
            position = Position((hands[0], hands[1], hands[2]), 0)
            game = choice.contract.game
            if game is GameType.NULL:
                assert Solver(game, deal.declarer, Mode.NULL).null_won(position)
            else:
                assert points_of(mask_of(choice.discard)) + Solver(game, deal.declarer).value(position) >= 61


def test_a_sure_grand_played_out_has_nothing_to_regret() -> None:
    deal = make_deal("CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK",
                     "HQ H9 H8 H7 DA DT DK DQ D9 D8", "C7 D7")
    win_auction(deal, 0)
    deal.apply(Declare(Contract(GameType.GRAND, hand=True)))
    while not deal.is_over:
        deal.apply(PLAY[deal.legal_cards()[0].index])
    analysis = analyse(deal)
    assert analysis.start is WinLevel.SCHNEIDER and analysis.could_win and analysis.won
    assert analysis.start_points == 120 and analysis.turnings == () and analysis.skat_choices == ()


def test_deals_without_a_declared_game_are_refused() -> None:
    deal = Deal.new(5)
    with pytest.raises(NotAnalysable):
        analyse(deal)  # not over
    deal = make_deal("CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK",
                     "HQ H9 H8 H7 DA DT DK DQ D9 D8", "C7 D7")
    win_auction(deal, 0)
    deal.apply(PickUpSkat())
    deal.apply(Discard(*deal.hand(0)[-2:]))
    with pytest.raises(NotAnalysable):
        analyse(deal)
