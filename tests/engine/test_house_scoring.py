"""House rules in whole deals: Kontra and Re, single losses, Seeger-Fabian, Ramsch, Danish open play,
Dækker at 69 and Musik."""

from __future__ import annotations

import pytest

from skatbot.engine import (
    KONTRA,
    OFFICIAL,
    PASS,
    PICK_UP,
    PLAY,
    RE,
    AllPass,
    Bid,
    Contract,
    Deal,
    Declare,
    Discard,
    GameType,
    IllegalBid,
    IllegalDeclaration,
    RuleSet,
    parse_cards,
)
from skatbot.engine.rules import Losses
from skatbot.engine.scoring import (
    declarer_score,
    game_multiplier,
    ramsch_scores,
    seeger_defender_bonus,
    seeger_fabian_points,
    written_scores,
)
from tests.engine.deal_helpers import declare, make_deal, refused, win_auction

# Forehand holds nine clubs trumps from the top; middlehand the last club; rearhand hearts and diamonds.
CLUBS_HAND = "CJ SJ HJ DJ CA CT CK CQ C9 C7"
MIDDLE = "C8 SA ST SK SQ S9 S8 S7 HA HT"
REAR = "HK HQ H9 H8 H7 DA DT DK DQ D9"
SKAT = "D8 D7"
DANISH = RuleSet.preset("danish")


def deal_a(rules: RuleSet = OFFICIAL) -> Deal:
    return make_deal(CLUBS_HAND, MIDDLE, REAR, SKAT, rules)


def play_rest(deal: Deal, declarer_order: str = "") -> None:
    """The declarer plays `declarer_order` in turn; everyone else plays their first legal card."""
    order = list(parse_cards(declarer_order))
    while not deal.is_over:
        if order and deal.current_seat == deal.declarer:
            deal.apply(PLAY[order.pop(0).index])
        else:
            deal.apply(deal.legal_actions()[0])


# --- Kontra and Re -------------------------------------------------------------------------------------

def test_kontra_and_re_double_twice() -> None:
    deal = deal_a(RuleSet(kontra=True))
    win_auction(deal, 0, 18)
    declare(deal, "clubs hand")
    deal.apply(KONTRA, 1)
    deal.apply(RE, 0)
    play_rest(deal, CLUBS_HAND)
    result = deal.result
    assert result.kontra and result.re and result.won
    assert result.value == 12 * (9 + 1 + 1 + 1 + 1)  # with 9, game, hand, schneider, schwarz
    assert result.score == result.value  # the official score of the game itself
    assert result.seat_scores == (4 * result.value, 0, 0)


def test_kontra_only_from_a_defender_who_bid() -> None:
    deal = deal_a(RuleSet(kontra=True, kontra_needs_bid=True))
    win_auction(deal, 0, 18)  # middlehand bid 18, rearhand passed without a bid
    declare(deal, "clubs hand")
    error = refused(deal, KONTRA, 2)
    assert "who bid" in str(error)
    deal.apply(KONTRA, 1)
    play_rest(deal, CLUBS_HAND)
    assert deal.result.seat_scores[0] == 2 * deal.result.value


def test_kontra_and_re_on_a_lost_game_under_single_losses() -> None:
    assert declarer_score(RuleSet(losses=Losses.SINGLE, kontra=True), 24, False, False, True, True) == -96
    assert declarer_score(RuleSet(losses=Losses.SINGLE, kontra=True), 24, False, True, True, False) == -96
    assert declarer_score(OFFICIAL, 24, False, False, True, True) == -192
    assert declarer_score(OFFICIAL, 24, True, False, False, False, bock=True) == 48


# --- losses and Seeger-Fabian -------------------------------------------------------------------------

def lost_null(rules: RuleSet, hand: bool) -> Deal:
    deal = deal_a(rules)
    win_auction(deal, 0, 18)
    if hand:
        declare(deal, "null hand")
    else:
        declare(deal, "null", discard="D8 D7")
    play_rest(deal, "CJ")  # the club jack wins the first trick: the null is lost
    return deal


@pytest.mark.parametrize(("rules", "hand", "expected"), [
    (OFFICIAL, False, (-46, 0, 0)),
    (OFFICIAL, True, (-70, 0, 0)),
    (RuleSet.preset("pre-1999"), False, (-23, 0, 0)),  # a lost game costs its value once
    (RuleSet.preset("pre-1999"), True, (-70, 0, 0)),  # ... only a lost hand game is doubled
    (RuleSet.preset("tournament"), False, (-96, 40, 40)),  # -2 x 23 - 50, and 40 to each other seat
    (RuleSet.preset("tournament"), True, (-120, 40, 40)),
])
def test_lost_games_under_each_loss_rule(rules: RuleSet, hand: bool, expected: tuple[int, int, int]) -> None:
    deal = lost_null(rules, hand)
    assert not deal.result.won
    assert deal.result.score == -2 * deal.result.value  # the official score is kept as it is
    assert deal.result.seat_scores == expected


def test_seeger_fabian_won_game_adds_50() -> None:
    deal = deal_a(RuleSet.preset("tournament"))
    win_auction(deal, 0, 18)
    declare(deal, "clubs hand")
    play_rest(deal, CLUBS_HAND)
    assert deal.result.seat_scores == (deal.result.value + 50, 0, 0)


def test_seeger_fabian_helpers_at_three_and_four() -> None:
    assert seeger_fabian_points(36, True) == 86 and seeger_fabian_points(36, False) == -122
    assert seeger_fabian_points(36, False, kontra=True) == -194
    assert (seeger_defender_bonus(3), seeger_defender_bonus(4)) == (40, 30)
    with pytest.raises(ValueError, match="three or four"):
        seeger_defender_bonus(5)
    assert written_scores(RuleSet(seeger_fabian=True), 1, 36, False, False, False, False) == (40, -122, 40)


# --- Ramsch -----------------------------------------------------------------------------------------------

RAMSCH = RuleSet(all_pass=AllPass.RAMSCH)


def all_pass(deal: Deal) -> None:
    for _ in range(3):
        deal.apply(PASS)


def test_ramsch_played_out_scores_the_most_points() -> None:
    deal = make_deal("C7 C8 C9 S7 S8 S9 H7 H8 H9 D7", "CT CJ CQ CK CA ST SJ SQ SK SA",
                     "HT HJ HQ HK HA DT DJ DQ DK DA", "D8 D9", RAMSCH)
    all_pass(deal)
    assert deal.contract == Contract(GameType.RAMSCH) and deal.declarer is None
    play_rest(deal)
    result = deal.result
    assert result.game is GameType.RAMSCH and sum(result.seat_points) == 120
    most = max(result.seat_points)
    assert result.seat_scores == tuple(-most if p == most else 0 for p in result.seat_points)
    assert result.value == most


def test_ramsch_durchmarsch_in_a_whole_deal() -> None:
    hands = ("CJ SJ HJ DJ CA CT CK CQ C9 C8", "C7 SA ST SK SQ S9 S8 S7 HA HT", REAR, SKAT)
    deal = make_deal(*hands, RAMSCH)
    all_pass(deal)
    play_rest(deal)
    assert deal.trick_count(0) == 10 and deal.result.durchmarsch
    assert deal.result.seat_scores == (120, 0, 0)
    without = make_deal(*hands, RAMSCH.with_options(ramsch_durchmarsch=False))
    all_pass(without)
    play_rest(without)
    assert not without.result.durchmarsch and without.result.seat_scores == (-120, 0, 0)


def test_ramsch_scores_ties_jungfrau_and_bock() -> None:
    assert ramsch_scores(RAMSCH, (50, 50, 20), (4, 4, 2)) == [-50, -50, 0]  # a tie: both lose their points
    assert ramsch_scores(RAMSCH, (60, 60, 0), (5, 5, 0)) == [-60, -60, 0]
    jungfrau = RAMSCH.with_options(ramsch_jungfrau=True)
    assert ramsch_scores(jungfrau, (70, 50, 0), (6, 4, 0)) == [-140, 0, 0]  # rearhand took no trick
    assert ramsch_scores(jungfrau, (70, 30, 20), (6, 2, 2)) == [-70, 0, 0]
    assert ramsch_scores(RAMSCH, (70, 30, 20), (6, 2, 2), bock=True) == [-140, 0, 0]
    assert ramsch_scores(jungfrau, (120, 0, 0), (10, 0, 0), bock=True) == [240, 0, 0]


# --- Danish: open play for every game, Dækker, Musik ----------------------------------------------------

def test_open_suit_game_after_pickup_is_one_more_step() -> None:
    refusing = deal_a(OFFICIAL)
    win_auction(refusing, 0, 18)
    refusing.apply(PICK_UP)
    refusing.apply(Discard(*parse_cards("D8 D7")))
    refused(refusing, Declare(Contract.parse("clubs ouvert")))
    deal = deal_a(DANISH)
    win_auction(deal, 0, 18)
    declare(deal, "clubs ouvert", discard="D8 D7")
    assert deal.contract == Contract(GameType.CLUBS, ouvert=True)  # no schneider or schwarz implied
    play_rest(deal, CLUBS_HAND)
    result = deal.result
    assert result.won and result.multiplier == 9 + 1 + 1 + 1 + 1  # with 9, game, schneider, schwarz, ouvert
    assert result.value == 12 * 13


def test_open_hand_game_under_danish_rules_implies_nothing() -> None:
    deal = deal_a(DANISH)
    win_auction(deal, 0, 18)
    assert Declare(Contract(GameType.CLUBS, hand=True, ouvert=True)) in deal.legal_actions()
    declare(deal, "clubs hand ouvert")
    assert deal.contract == Contract(GameType.CLUBS, hand=True, ouvert=True)
    assert game_multiplier(deal.contract, 9, False, False) == 9 + 1 + 1 + 1


def test_official_open_hand_game_implies_schwarz_announced() -> None:
    deal = deal_a(OFFICIAL)
    win_auction(deal, 0, 18)
    declare(deal, "clubs hand ouvert")
    assert deal.contract == Contract(GameType.CLUBS, True, True, True, True)


NULL_SAFE = ("C7 C8 C9 S7 S8 S9 H7 H8 H9 D7", "CT CJ CQ CK CA ST SJ SQ SK SA", "HT HJ HQ HK HA DT DJ DQ DK DA",
             "D8 D9")


def test_dakker_bid_and_played_at_69() -> None:
    official = make_deal(*NULL_SAFE)
    error = refused(official, Bid(69))
    assert isinstance(error, IllegalBid)
    deal = make_deal(*NULL_SAFE, DANISH)
    assert Bid(69) in deal.legal_actions()
    win_auction(deal, 0, 69)
    declare(deal, "null hand ouvert")
    play_rest(deal)
    assert deal.result.won and deal.result.value == 69 and deal.result.seat_scores == (69, 0, 0)


def test_null_ouvert_hand_under_59_cannot_cover_a_bid_of_60() -> None:
    deal = make_deal(*NULL_SAFE, DANISH.with_options(dakker_value=59))
    win_auction(deal, 0, 60)
    error = refused(deal, Declare(Contract.parse("null hand ouvert")))
    assert isinstance(error, IllegalDeclaration) and "59" in str(error)


def test_musik_made_with_the_trump_seven() -> None:
    deal = deal_a(DANISH)
    win_auction(deal, 0, 18)
    assert Declare(Contract(GameType.CLUBS, hand=True, musik=True)) in deal.legal_actions()
    assert Declare(Contract(GameType.SPADES, hand=True, musik=True)) not in deal.legal_actions()
    declare(deal, "clubs hand musik")
    play_rest(deal, CLUBS_HAND)  # the club seven takes the last trick
    result = deal.result
    assert result.won and result.multiplier == 9 + 1 + 1 + 1 + 1 + 1  # ... and one for Musik
    assert result.seat_scores == (result.value, 0, 0)


def test_musik_failed_loses_every_trick_taken() -> None:
    deal = deal_a(DANISH)
    win_auction(deal, 0, 18)
    declare(deal, "clubs hand musik")
    play_rest(deal, "CJ SJ HJ DJ CA CT CK CQ C7 C9")  # the seven goes in the ninth trick
    result = deal.result
    assert deal.trick_count(0) == 10 and not result.won and "musik failed" in result.notes
    assert result.seat_scores == (-2 * result.value, 0, 0)


def test_grand_musik_is_won_with_the_jack_of_diamonds() -> None:
    deal = make_deal("CJ SJ HJ DJ CA CT CK CQ C9 C8", "C7 SA ST SK SQ S9 S8 S7 HA HT", REAR, SKAT, DANISH)
    win_auction(deal, 0, 18)
    declare(deal, "grand hand musik")
    play_rest(deal, "CJ SJ HJ CA CT CK CQ C9 C8 DJ")
    assert deal.result.won and deal.result.multiplier == 4 + 1 + 1 + 1 + 1 + 1


def test_musik_refused_where_it_does_not_apply() -> None:
    official = deal_a(OFFICIAL)
    win_auction(official, 0, 18)
    assert "not played at this table" in str(refused(official, Declare(Contract.parse("clubs hand musik"))))
    deal = deal_a(DANISH)
    win_auction(deal, 0, 18)
    assert "S7" in str(refused(deal, Declare(Contract.parse("spades hand musik")))).replace("♠7", "S7")
    assert "suit game or a grand" in str(refused(deal, Declare(Contract.parse("null hand musik"))))


def test_musik_contract_text_round_trips() -> None:
    contract = Contract(GameType.GRAND, hand=True, musik=True)
    assert str(contract) == "grand hand musik" and Contract.parse(str(contract)) == contract
