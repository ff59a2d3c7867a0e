"""Schneider and schwarz of a game settled early are judged on the tricks actually taken.

ISS record 13577: clubs ouvert lost at the defenders' first trick reports `s:0 z:0`. Only one trick was
played, so neither side is schneider or schwarz; the value still counts every announced level.
"""

from __future__ import annotations

from skatbot.engine import CONCEDE, Ending
from tests.engine.deal_helpers import declare, make_deal, play, win_auction

HANDS = ("H9.HT.C8.SA.D8.DQ.CQ.SJ.SQ.CK", "S8.CT.C7.CA.C9.D7.CJ.H7.H8.HJ", "HA.HK.S9.DT.S7.DJ.DK.SK.D9.DA")
SKAT = "HQ.ST"


def test_ouvert_lost_in_the_first_trick_is_neither_schneider_nor_schwarz() -> None:
    deal = make_deal(*HANDS, SKAT)
    win_auction(deal, declarer=1, bid=18)
    declare(deal, "clubs hand ouvert")
    play(deal, "SA S8 SK")  # forehand's ace wins: the announced schwarz is lost
    assert deal.is_over and deal.ending is Ending.SETTLED
    result = deal.result
    assert not result.won and not result.schneider and not result.schwarz
    assert result.declarer_points == 13 and result.declarer_tricks == 0
    assert result.value == 12 * 8, "with 1, game, hand, schneider, announced, schwarz, announced, ouvert"
    assert result.score == -192


def test_declarer_with_90_before_losing_the_announced_schwarz_is_schneider() -> None:
    deal = make_deal("CJ.SJ.HJ.DJ.CA.SA.ST.HA.HT.D7", "CK.CQ.C9.SK.SQ.S9.S8.HK.HQ.H9",
                     "C8.C7.S7.H8.H7.DA.DT.DK.DQ.D9", "CT.D8")
    win_auction(deal, declarer=0, bid=18)
    declare(deal, "clubs hand schwarz")
    play(deal, "CJ CK C8 SJ CQ C7 HJ C9 DA SA SK S7 ST SQ DT HA HK H8 HT HQ H7")
    assert not deal.is_over and deal.trick_count(0) == 7
    play(deal, "D7 S9 DK")  # rearhand takes a trick: the announced schwarz is lost
    result = deal.result
    assert deal.ending is Ending.SETTLED and result.declarer_points == 100
    assert result.schneider and not result.schwarz and not result.won
    assert result.value == 12 * 12, "with 6, game, hand, schneider, announced, schwarz, announced"


def test_a_conceded_game_still_counts_the_rest_for_schneider_and_schwarz() -> None:
    deal = make_deal(*HANDS, SKAT)
    win_auction(deal, declarer=1, bid=18)
    declare(deal, "clubs hand")
    play(deal, "SA S8 SK")
    deal.apply(CONCEDE, seat=1)
    result = deal.result
    assert result.declarer_points == 13 and result.declarer_tricks == 0
    assert result.schneider and result.schwarz and not result.won
