"""The auction: the bid ladder, who bids to whom, holding and passing, and refused bids."""

from __future__ import annotations

import pytest

from skatbot.engine import (
    BID_LADDER,
    HOLD,
    PASS,
    PICK_UP,
    AllPass,
    Bid,
    Contract,
    Deal,
    Declare,
    Ending,
    GameType,
    IllegalBid,
    NotYourTurn,
    Phase,
    RuleSet,
    WrongPhase,
    is_bid_value,
    next_bid,
)
from skatbot.engine.actions import PLAY
from tests.engine.deal_helpers import card, refused

EXPECTED_LADDER = (
    18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60, 63, 66, 70, 72, 77, 80, 81,
    84, 88, 90, 96, 99, 100, 108, 110, 117, 120, 121, 126, 130, 132, 135, 140, 143, 144, 150, 153, 154, 156,
    160, 162, 165, 168, 170, 176, 180, 187, 192, 198, 204, 216, 240, 264,
)


def new_deal(rules: RuleSet | None = None) -> Deal:
    return Deal.new(7, rules) if rules else Deal.new(7)


def test_bid_ladder_is_every_game_value_from_18_to_264() -> None:
    assert BID_LADDER == EXPECTED_LADDER
    # Independently: suit bases 9..12 times 2..18 (11 matadors + game + 6 steps), grand 24 times 2..11,
    # the four null values.
    values = {base * m for base in (9, 10, 11, 12) for m in range(2, 19)} | {24 * m for m in range(2, 12)}
    values |= {23, 35, 46, 59}
    assert tuple(sorted(values)) == BID_LADDER
    assert BID_LADDER[0] == 18 and BID_LADDER[-1] == 264


def test_ladder_lookups() -> None:
    assert all(is_bid_value(v) for v in EXPECTED_LADDER)
    assert not any(is_bid_value(v) for v in (0, 17, 19, 21, 25, 26, 28, 31, 34, 37, 263, 265, 288))
    assert next_bid(0) == 18
    assert next_bid(18) == 20
    assert next_bid(23) == 24
    assert next_bid(33) == 35
    assert next_bid(59) == 60
    assert next_bid(240) == 264
    assert next_bid(264) is None


def test_middlehand_bids_to_forehand_first() -> None:
    deal = new_deal()
    assert deal.phase is Phase.AUCTION
    assert deal.current_seat == 1
    assert deal.legal_actions() == [*(Bid(v) for v in EXPECTED_LADDER), PASS]
    deal.apply(Bid(18))
    assert deal.current_seat == 0
    assert deal.legal_actions() == [HOLD, PASS]
    deal.apply(HOLD)
    assert deal.current_seat == 1
    assert deal.legal_actions() == [*(Bid(v) for v in EXPECTED_LADDER[1:]), PASS]
    assert deal.bid == 18
    assert deal.highest_bid_by == [18, 18, 0]


def test_worked_auction_forehand_holds_to_33_and_plays() -> None:
    """Ben bids 18..33 to Alice, who holds every one; Ben passes, Cara passes rather than say 35."""
    deal = new_deal()
    for value in (18, 20, 22, 23, 24, 27, 30, 33):
        deal.apply(Bid(value))
        deal.apply(HOLD)
    deal.apply(PASS)  # Ben
    assert deal.current_seat == 2
    assert deal.legal_actions()[0] == Bid(35), "rearhand bids from the next value up"
    deal.apply(PASS)  # Cara
    assert (deal.phase, deal.declarer, deal.bid, deal.current_seat) == (Phase.SKAT, 0, 33, 0)
    assert [(seat, str(a)) for seat, a in deal.history][-3:] == [(0, "hold"), (1, "pass"), (2, "pass")]


def test_rearhand_bids_to_the_survivor_from_the_next_value_up() -> None:
    deal = new_deal()
    deal.apply(Bid(30))
    deal.apply(PASS)  # forehand leaves: middlehand survives at 30
    assert deal.current_seat == 2
    assert deal.legal_actions() == [*(Bid(v) for v in EXPECTED_LADDER if v > 30), PASS]
    error = refused(deal, Bid(30))
    assert isinstance(error, IllegalBid) and "more than 30" in str(error)
    deal.apply(Bid(33))
    assert deal.current_seat == 1, "the survivor (middlehand) answers rearhand"
    deal.apply(HOLD)
    deal.apply(Bid(36))
    deal.apply(PASS)
    assert (deal.phase, deal.declarer, deal.bid) == (Phase.SKAT, 2, 36)
    assert deal.highest_bid_by == [0, 33, 36]


def test_middlehand_wins_when_forehand_and_rearhand_pass() -> None:
    deal = new_deal()
    deal.apply(Bid(18))
    deal.apply(PASS)
    deal.apply(PASS)
    assert (deal.declarer, deal.bid, deal.phase) == (1, 18, Phase.SKAT)


def test_forehand_wins_when_rearhand_passes_against_it() -> None:
    deal = new_deal()
    deal.apply(PASS)  # middlehand
    deal.apply(Bid(20))  # rearhand bids to forehand
    assert deal.current_seat == 0
    deal.apply(HOLD)
    deal.apply(PASS)
    assert (deal.declarer, deal.bid) == (0, 20)


def test_pass_is_final() -> None:
    deal = new_deal()
    deal.apply(PASS)  # middlehand is out
    error = refused(deal, Bid(18), seat=1)
    assert isinstance(error, NotYourTurn)
    deal.apply(Bid(18))  # rearhand to forehand
    deal.apply(PASS)  # forehand out
    assert deal.declarer == 2
    refused(deal, Bid(20), seat=0)
    refused(deal, Bid(20), seat=1)


def test_both_others_pass_forehand_may_play_18() -> None:
    deal = new_deal()
    deal.apply(PASS)
    deal.apply(PASS)
    assert deal.phase is Phase.AUCTION and deal.current_seat == 0
    assert deal.legal_actions() == [Bid(18), PASS]
    error = refused(deal, Bid(20))
    assert isinstance(error, IllegalBid) and "18" in str(error)
    refused(deal, HOLD)
    deal.apply(Bid(18))
    assert (deal.phase, deal.declarer, deal.bid) == (Phase.SKAT, 0, 18)


def test_all_pass_is_a_passed_deal() -> None:
    deal = new_deal()
    for _ in range(3):
        deal.apply(PASS)
    assert deal.phase is Phase.FINISHED and deal.is_over
    assert deal.ending is Ending.PASSED
    assert deal.current_seat is None and deal.legal_actions() == []
    assert deal.declarer is None
    result = deal.result
    assert result.passed and result.game is None
    assert result.score == 0 and result.seat_scores == (0, 0, 0)
    error = refused(deal, Bid(18))
    assert isinstance(error, WrongPhase) and "over" in str(error)


def test_all_pass_with_ramsch_rules_plays_ramsch() -> None:
    deal = new_deal(RuleSet(all_pass=AllPass.RAMSCH))
    for _ in range(3):
        deal.apply(PASS)
    assert deal.phase is Phase.PLAY and deal.current_seat == 0
    assert deal.contract == Contract(GameType.RAMSCH) and deal.declarer is None


@pytest.mark.parametrize("value", [0, -18, 17, 19, 21, 25, 37, 263, 265, 1000])
def test_bids_off_the_ladder_are_refused(value: int) -> None:
    deal = new_deal()
    error = refused(deal, Bid(value))
    assert isinstance(error, IllegalBid)
    assert f"{value} is not on the bid ladder" in str(error)


def test_bids_not_higher_are_refused() -> None:
    deal = new_deal()
    deal.apply(Bid(24))
    deal.apply(HOLD)
    for value in (18, 23, 24):
        error = refused(deal, Bid(value))
        assert isinstance(error, IllegalBid) and "bid more than 24" in str(error)
    deal.apply(Bid(27))
    assert deal.bid == 27


def test_out_of_turn_actions_are_refused() -> None:
    deal = new_deal()
    for seat, action in ((0, Bid(18)), (2, Bid(18)), (0, HOLD), (2, PASS)):
        error = refused(deal, action, seat=seat)
        assert isinstance(error, NotYourTurn)
        assert "middlehand is to act" in str(error)
    deal.apply(Bid(18))
    error = refused(deal, HOLD, seat=1)
    assert isinstance(error, NotYourTurn) and "forehand is to act" in str(error)


def test_wrong_moves_for_the_role_are_refused() -> None:
    deal = new_deal()
    error = refused(deal, HOLD)
    assert isinstance(error, IllegalBid) and "say a number or pass" in str(error)
    deal.apply(Bid(18))
    error = refused(deal, Bid(20))
    assert isinstance(error, IllegalBid) and "hold (yes) or pass" in str(error)


def test_skat_and_play_actions_are_refused_during_the_auction() -> None:
    deal = new_deal()
    for action in (PICK_UP, Declare(Contract(GameType.GRAND, hand=True))):
        error = refused(deal, action)
        assert isinstance(error, WrongPhase) and "auction" in str(error)
    own_card = deal.hand(1)[0]
    error = refused(deal, PLAY[own_card.index])
    assert isinstance(error, WrongPhase) and "after the declaration" in str(error)
    refused(deal, PLAY[card("CJ").index], seat=0)
