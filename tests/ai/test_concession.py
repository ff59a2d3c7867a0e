"""A computer defender concedes only when, in every world it cannot tell from the real one, the declarer
still makes the game."""

from __future__ import annotations

from skatbot.ai.concession import sees_no_chance
from skatbot.engine import PLAY, Contract, Deal, Declare, GameType
from skatbot.engine.cards import points_of
from skatbot.engine.views import seat_view
from tests.ai.ai_helpers import make_deal, win_auction


def sure_grand() -> Deal:
    # Forehand holds all four jacks and clubs from the ace down: every trick is the declarer's.
    deal = make_deal("CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK",
                     "HQ H9 H8 H7 DA DT DK DQ D9 D8", "C7 D7")
    win_auction(deal, 0)
    deal.apply(Declare(Contract(GameType.GRAND, hand=True)))
    return deal


def test_a_defender_against_a_sure_game_sees_no_chance() -> None:
    deal = sure_grand()
    deal.apply(PLAY[deal.legal_cards()[0].index])
    # After one trick the defenders cannot know that the declarer holds nothing but winners.
    assert not sees_no_chance(seat_view(deal, 1), seed=1)
    while points_of(deal.taken_mask(0)) < 61 or deal.current_trick:
        deal.apply(PLAY[deal.legal_cards()[0].index])
    # Once the declarer's tricks hold 61 points, no world is left for the defenders.
    assert sees_no_chance(seat_view(deal, 1), seed=1)
    assert sees_no_chance(seat_view(deal, 2), seed=2)


def test_a_defender_whose_side_can_still_win_plays_on() -> None:
    # The same cards, but middlehand declares a grand: forehand's jacks and clubs beat it.
    deal = make_deal("CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK",
                     "HQ H9 H8 H7 DA DT DK DQ D9 D8", "C7 D7")
    win_auction(deal, 1)
    deal.apply(Declare(Contract(GameType.GRAND, hand=True)))
    assert not sees_no_chance(seat_view(deal, 2), seed=3)
    assert not sees_no_chance(seat_view(deal, 0), seed=4)


def test_only_defenders_in_card_play_are_asked() -> None:
    deal = sure_grand()
    assert not sees_no_chance(seat_view(deal, 0), seed=1)  # the declarer
