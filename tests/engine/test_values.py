"""Game values and results: every worked example of the rules texts, played through real deals.

The scripted lines below are complete legal card sequences (three cards a trick, `/` between tricks)
chosen so that the declarer ends with the card points each example states.
"""

from __future__ import annotations

import pytest

from skatbot.engine import CONCEDE, HOLD, PASS, Bid, Contract, Deal, Ending, GameType, parse_cards
from skatbot.engine.cards import mask_of, points_of
from skatbot.engine.scoring import game_multiplier, matadors
from tests.engine.deal_helpers import declare, make_deal, play, play_out, win_auction

# --- Alice's clubs game (000, "A worked deal") -------------------------------------------------------
# Alice (forehand): club and spade jacks, five clubs, the ace of hearts, two small cards (a lone D9).
# The skat holds the ten of diamonds and the queen of spades; she buries the ten with her nine.
ALICE = "CJ SJ CA CT CK CQ C9 HA D9 S8"
BEN = "HJ C8 SA ST SK HT HK DA DK D7"
CARA = "DJ C7 S9 S7 HQ H9 H8 H7 DQ D8"
ALICE_SKAT = "DT SQ"
ALICE_WINS_64 = ("CJ C8 C7 / SQ ST S7 / DA DQ HA / HT H9 CK / C9 HJ DJ / D7 D8 CT / SJ DK HQ / S8 SK S9 / "
                 "HK H7 CA / CQ SA H8")
ALICE_TAKES_48 = ("CJ C8 C7 / CT HJ DJ / DA DQ HA / D7 D8 CK / C9 SK HQ / CQ DK H9 / SQ ST S7 / HK H8 SJ / "
                  "CA SA H7 / S8 HT S9")


def line(text: str) -> str:
    return text.replace("/", " ")


def swap(text: str, a: str, b: str) -> str:
    return " ".join(b if w == a else a if w == b else w for w in text.split())


def alice_deal(alice: str = ALICE, ben: str = BEN) -> Deal:
    """Ben bids 18..33 to Alice, who holds every one; Ben passes, Cara passes; Alice picks up."""
    deal = make_deal(alice, ben, CARA, ALICE_SKAT)
    for value in (18, 20, 22, 23, 24, 27, 30, 33):
        deal.apply(Bid(value))
        deal.apply(HOLD)
    deal.apply(PASS)
    deal.apply(PASS)
    declare(deal, "clubs", discard="DT D9")
    return deal


def test_alice_clubs_with_2_bid_33_won_with_74() -> None:
    deal = alice_deal()
    play(deal, line(ALICE_WINS_64))
    assert deal.ending is Ending.PLAYED_OUT
    assert points_of(deal.taken_mask(0)) == 64
    result = deal.result
    assert result.declarer_points == 74, "64 in tricks and the buried ten"
    assert (result.matadors, result.multiplier, result.value) == (2, 3, 36)
    assert result.won and not result.overbid and not result.schneider
    assert result.score == 36 and result.seat_scores == (36, 0, 0)


def test_alice_clubs_lost_with_58() -> None:
    deal = alice_deal()
    play(deal, line(ALICE_TAKES_48))
    result = deal.result
    assert result.declarer_points == 58
    assert not result.won and not result.overbid and result.value == 36
    assert result.score == -72 and result.seat_scores == (-72, 0, 0), "the defenders write nothing"


def test_alice_with_the_club_jack_alone_has_overbid() -> None:
    """With 1 the game is 24, short of 33: lost as an overbid, valued at 36 (3 x 12), written -72."""
    deal = alice_deal(swap(ALICE, "SJ", "HJ"), swap(BEN, "HJ", "SJ"))
    play(deal, line(swap(ALICE_WINS_64, "SJ", "HJ")))
    result = deal.result
    assert result.declarer_points == 74 and result.matadors == 1
    assert result.multiplier == 2
    assert result.overbid and not result.won
    assert result.value == 36 and result.score == -72


def test_overbid_is_judged_on_the_levels_reached() -> None:
    """With 1 and schneider the same clubs game is worth 36, which covers 33."""
    deal = make_deal("CJ HJ CA CT CK CQ C9 HA SA DA", "SJ DJ C8 ST SK HT HK DT DK D7",
                     "C7 S9 S7 HQ H9 H8 H7 DQ D8 D9", "SQ S8")
    win_auction(deal, 0, 33)
    declare(deal, "clubs", discard="SQ S8")
    play_out(deal, prefer="CJ HJ CA CT CK CQ C9 HA SA DA")
    result = deal.result
    assert result.declarer_points == 116 and result.schneider and not result.schwarz
    assert result.matadors == 1 and result.multiplier == 3
    assert not result.overbid and result.won
    assert result.value == 36 and result.score == 36


# --- Ben's null hand ---------------------------------------------------------------------------------
NULL_FOREHAND = "CA CK CQ CJ SA SK SQ SJ HA HK"
NULL_BEN = "C7 C8 C9 S7 S8 H7 H8 H9 D7 D8"
NULL_REARHAND = "CT ST HT HQ HJ DA DK DQ DJ DT"


def test_null_hand_won_is_35() -> None:
    deal = make_deal(NULL_FOREHAND, NULL_BEN, NULL_REARHAND, "S9 D9")
    win_auction(deal, 1, 35)
    declare(deal, "null hand")
    play_out(deal)
    result = deal.result
    assert deal.ending is Ending.PLAYED_OUT and result.declarer_tricks == 0
    assert result.won and result.value == 35 and result.score == 35 and result.matadors == 0


def test_null_hand_lost_at_the_first_trick_is_minus_70() -> None:
    deal = make_deal(swap(NULL_FOREHAND, "CA", "C7"), swap(NULL_BEN, "C7", "CA"), NULL_REARHAND, "S9 D9")
    win_auction(deal, 1, 35)
    declare(deal, "null hand")
    play(deal, "C7 CA CT")
    assert deal.is_over and len(deal.tricks) == 1
    result = deal.result
    assert not result.won and result.value == 35 and result.score == -70


@pytest.mark.parametrize(("contract", "value"),
                         [("null", 23), ("null hand", 35), ("null ouvert", 46), ("null hand ouvert", 59)])
def test_null_values(contract: str, value: int) -> None:
    deal = make_deal(NULL_FOREHAND, NULL_BEN, NULL_REARHAND, "S9 D9")
    win_auction(deal, 1, 23)
    declare(deal, contract, discard=None if "hand" in contract else "S9 D9")
    play_out(deal)
    assert deal.result.won and deal.result.value == value and deal.result.score == value


# --- Spades: with 2 (club and spade jacks, not hearts) -----------------------------------------------
SPADES = ("CJ SJ SA ST SK SQ S9 CA CT HA", "HJ DJ S8 CK CQ C9 HT HK H9 DA", "S7 C8 C7 HQ H8 H7 DT DK DQ D9")
SPADES_SKAT = "D8 D7"
SPADES_77 = "ST S8 S7 / CT CQ C8 / SK HJ H8 / DJ DT SQ / DA D9 HA / HK HQ CJ / CA CK C7 / S9 H9 DK / SA HT H7 / SJ C9 DQ"
SPADES_114 = "ST S8 S7 / SK DJ C7 / CK C8 CA / CJ HJ D9 / SQ DA H7 / SA CQ DT / CT C9 DK / SJ H9 H8 / HA HT HQ / S9 HK DQ"
SPADES_60 = "CT CK C8 / CJ S8 S7 / ST DJ DQ / H9 H8 HA / SA HJ H7 / DA DT CA / CQ C7 SJ / SK C9 D9 / S9 HK HQ / SQ HT DK"
SPADES_61 = "SJ S8 S7 / HA H9 HQ / ST HJ DT / HT H8 CA / DJ DQ SA / C9 C8 CT / SQ CQ DK / S9 HK C7 / CJ CK D9 / SK DA H7"


def spades_deal(contract: str, bid: int = 33) -> Deal:
    deal = make_deal(*SPADES, SPADES_SKAT)
    win_auction(deal, 0, bid)
    declare(deal, contract, discard=None if "hand" in contract else "D8 D7")
    return deal


def test_spades_with_2_is_33() -> None:
    deal = spades_deal("spades")
    play(deal, line(SPADES_77))
    result = deal.result
    assert result.declarer_points == 77
    assert (result.matadors, result.multiplier, result.value, result.score) == (2, 3, 33, 33)


def test_spades_with_2_won_schneider_is_44() -> None:
    deal = spades_deal("spades")
    play(deal, line(SPADES_114))
    result = deal.result
    assert result.declarer_points == 114 and result.schneider and not result.schwarz
    assert (result.multiplier, result.value, result.score) == (4, 44, 44)


def test_spades_hand_with_2_won_schneider_is_55() -> None:
    """004: Leaves hand, with 2, schneider: 11 x 5 = 55."""
    deal = spades_deal("spades hand", bid=22)
    play(deal, line(SPADES_114))
    result = deal.result
    assert result.declarer_points == 114 and result.schneider
    assert (result.multiplier, result.value, result.score) == (5, 55, 55)


def test_sixty_sixty_loses_and_sixty_one_wins() -> None:
    deal = spades_deal("spades hand", bid=18)
    play(deal, line(SPADES_60))
    result = deal.result
    assert result.declarer_points == 60 and not result.won
    assert result.value == 44 and result.score == -88
    deal = spades_deal("spades hand", bid=18)
    play(deal, line(SPADES_61))
    assert deal.result.declarer_points == 61 and deal.result.won and deal.result.score == 44


def test_skat_of_a_hand_game_counts_for_the_declarer() -> None:
    deal = spades_deal("spades hand", bid=18)
    play(deal, line(SPADES_60))
    skat = mask_of(parse_cards(SPADES_SKAT))
    assert deal.result.declarer_points == points_of(deal.taken_mask(0) | skat)


# --- Hearts against 3 ----------------------------------------------------------------------------------
HEARTS = ("DJ HA HT HK HQ H9 H8 SA CA DA", "CJ SJ H7 ST SK CT CK DT DK S7", "HJ SQ S9 S8 CQ C9 C8 DQ D9 D8")
HEARTS_80 = "HA SJ HJ / S7 S9 SA / DJ CJ C8 / ST S8 CA / H7 D9 H8 / H9 CK C9 / HT SK CQ / HK DT D8 / DA DK DQ / HQ CT SQ"


def test_hearts_best_trump_the_diamond_jack_against_3_is_40() -> None:
    deal = make_deal(*HEARTS, "C7 D7")
    win_auction(deal, 0, 40)
    declare(deal, "hearts", discard="C7 D7")
    play(deal, line(HEARTS_80))
    result = deal.result
    assert result.declarer_points == 80
    assert (result.matadors, result.multiplier, result.value, result.score) == (-3, 4, 40, 40)


def test_overbid_loss_is_twice_the_smallest_covering_multiple() -> None:
    """Hearts with 1 is worth 20; bid 36: the lowest multiple of 10 reaching 36 is 40, written -80."""
    forehand = swap(HEARTS[0], "DJ", "CJ")
    middlehand = swap(HEARTS[1], "CJ", "DJ")
    deal = make_deal(forehand, middlehand, HEARTS[2], "C7 D7")
    win_auction(deal, 0, 36)
    declare(deal, "hearts", discard="C7 D7")
    play_out(deal)
    result = deal.result
    assert result.matadors == 1 and not result.schwarz
    assert result.overbid and not result.won
    assert result.value == 40 and result.score == -80


# --- Grand ouvert with all four jacks ------------------------------------------------------------------

def test_grand_ouvert_with_all_four_jacks_is_264() -> None:
    deal = make_deal("CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK",
                     "HQ H9 H8 H7 DA DT DK DQ D9 D8", "C7 D7")
    win_auction(deal, 0, 264)
    declare(deal, "grand ouvert")
    assert deal.contract == Contract(GameType.GRAND, True, True, True, True)
    play_out(deal, prefer="CJ SJ HJ DJ CA CT CK CQ C9 C8")
    result = deal.result
    assert result.won and result.schwarz and result.declarer_tricks == 10
    assert (result.matadors, result.multiplier, result.value, result.score) == (4, 11, 264, 264)


# --- Matadors, schneider and the multiplier ------------------------------------------------------------

CLUBS_TRUMPS = parse_cards("CJ SJ HJ DJ CA CT CK CQ C9 C8 C7")


@pytest.mark.parametrize("count", range(1, 12))
def test_matadors_with_and_against_up_to_11(count: int) -> None:
    with_mask = mask_of(CLUBS_TRUMPS[:count])
    against_mask = mask_of(CLUBS_TRUMPS[count:])
    assert matadors(GameType.CLUBS, with_mask) == count
    if count < 11:
        assert matadors(GameType.CLUBS, against_mask) == -count
    else:
        assert matadors(GameType.CLUBS, mask_of(parse_cards("HA HT SA"))) == -11


@pytest.mark.parametrize("count", range(1, 4))
def test_grand_matadors_are_jacks_only(count: int) -> None:
    jacks = parse_cards("CJ SJ HJ DJ")
    assert matadors(GameType.GRAND, mask_of(jacks[:count] + parse_cards("CA CT"))) == count
    assert matadors(GameType.GRAND, mask_of(jacks[count:] + parse_cards("CA CT"))) == -count
    assert matadors(GameType.GRAND, mask_of(jacks)) == 4
    assert matadors(GameType.GRAND, mask_of(parse_cards("CA CT"))) == -4
    assert matadors(GameType.NULL, mask_of(jacks)) == 0


def test_clubs_ouvert_with_11_is_216() -> None:
    deal = make_deal("CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK",
                     "HQ H9 H8 H7 DA DT DK DQ D9 D8", "C7 D7")
    win_auction(deal, 0, 216)
    declare(deal, "clubs ouvert")
    play_out(deal, prefer="CJ SJ HJ DJ CA CT CK CQ C9 C8")
    result = deal.result
    assert result.matadors == 11, "the unseen skat counts for matadors in a hand game"
    assert (result.multiplier, result.value, result.score) == (18, 216, 216)


def test_clubs_against_11() -> None:
    deal = make_deal("SA ST SK SQ S9 S8 S7 HA HT HK", "CJ SJ HJ DJ CA CT CK CQ C9 C8",
                     "HQ H9 H8 H7 DA DT DK DQ D9 C7", "D8 D7")
    win_auction(deal, 0, 18)
    declare(deal, "clubs hand")
    play_out(deal)
    result = deal.result
    assert result.matadors == -11 and not result.won
    assert result.declarer_tricks == 0 and result.declarer_points == 0
    assert (result.multiplier, result.value, result.score) == (15, 180, -360), "11 + game, hand, schneider, schwarz"


def test_matadors_count_the_original_hand_and_skat_not_the_discard() -> None:
    deal = alice_deal()
    assert deal.discarded and mask_of(parse_cards("CJ SJ")) & deal.hand_mask(0)
    # Alice discarding both jacks still plays "with 2": matadors are fixed by the twelve cards.
    deal = make_deal(ALICE, BEN, CARA, ALICE_SKAT)
    win_auction(deal, 0, 18)
    declare(deal, "clubs", discard="CJ SJ")
    deal.apply(CONCEDE, seat=0)
    assert deal.result.matadors == 2


def test_declarer_schneidered_at_30_counts_the_level() -> None:
    """Rearhand's weak diamonds hand: against 5, game 6, hand 7, schneidered 8: 72, written -144."""
    deal = make_deal(*SPADES, SPADES_SKAT)
    win_auction(deal, 2, 18)
    declare(deal, "diamonds hand")
    play(deal, line("SQ S8 S7 / SA C9 H7 / HA H9 H8 / CA CK C7 / SJ DA DT / SK DJ HQ / HK C8 ST / HT DK S9 / "
                    "D9 CJ HJ / CT CQ DQ"))
    result = deal.result
    assert result.declarer_points == 30 and result.declarer_tricks == 2
    assert result.schneider and not result.schwarz and not result.won
    assert (result.matadors, result.multiplier, result.value, result.score) == (-5, 8, 72, -144)


def test_declarer_at_31_is_not_schneidered() -> None:
    deal = make_deal(*SPADES, SPADES_SKAT)
    win_auction(deal, 2, 18)
    declare(deal, "diamonds hand")
    play(deal, line("CA CK C7 / SK S8 S7 / CT CQ C8 / CJ HJ D9 / SJ DJ DK / ST DA H8 / HT HQ HA / S9 H9 H7 / "
                    "SQ C9 DQ / DT SA HK"))
    result = deal.result
    assert result.declarer_points == 31 and not result.schneider
    assert (result.multiplier, result.value, result.score) == (7, 63, -126)


def test_announced_schneider_not_made_loses_with_its_levels() -> None:
    deal = spades_deal("spades hand schneider", bid=18)
    play(deal, line(SPADES_77))
    result = deal.result
    assert result.declarer_points == 77 and not result.won
    assert (result.multiplier, result.value, result.score) == (6, 66, -132)


@pytest.mark.parametrize(
    ("contract", "m", "schneider", "schwarz", "steps"),
    [("clubs", 2, False, False, 3), ("clubs hand", 2, False, False, 4), ("clubs hand", 2, True, False, 5),
     ("clubs hand schneider", 2, True, False, 6), ("clubs hand schneider", 2, True, True, 7),
     ("clubs hand schwarz", 2, True, True, 8), ("clubs hand ouvert", 2, True, True, 9),
     ("grand hand ouvert", -4, True, True, 11), ("clubs", -3, False, False, 4)],
)
def test_multiplier_steps(contract: str, m: int, schneider: bool, schwarz: bool, steps: int) -> None:
    parsed = Contract.parse(contract)
    if parsed.ouvert:
        parsed = Contract(parsed.game, True, True, True, True)
    elif parsed.schwarz:
        parsed = Contract(parsed.game, parsed.hand, True, True)
    assert game_multiplier(parsed, m, schneider, schwarz) == steps
