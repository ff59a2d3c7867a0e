"""What a Skat player would notice at once: the normal level's bids, games, discards and card play."""

from __future__ import annotations

import random

from skatbot.ai import Level, make_player
from skatbot.ai.auction import TRUMP_GAMES, game_value
from skatbot.ai.normal import bid_limit, defender_strong
from skatbot.engine import (
    CARDS,
    KONTRA,
    PASS,
    PICK_UP,
    AllPass,
    Bid,
    Contract,
    Declare,
    Discard,
    GameType,
    Phase,
    PlayCard,
    RuleSet,
    Suit,
    parse_cards,
)
from skatbot.engine.deal import Deal
from skatbot.engine.views import seat_view
from tests.ai.ai_helpers import apply_all, make_deal, view_of, win_auction

JUNK = "D7 D8 H7 H9 HQ S8 SQ C7 C9 HK"


def _play_declaration(deal: Deal, seed: int = 5) -> GameType:
    """Let the normal player take the declarer's decisions from the skat to the declaration."""
    player = make_player(Level.NORMAL, seed)
    while deal.phase in (Phase.SKAT, Phase.DISCARD, Phase.DECLARE):
        deal.apply(player.choose(view_of(deal)))
    assert deal.contract is not None
    return deal.contract.game


def test_junk_hand_passes_at_18() -> None:
    deal = make_deal("CJ SJ CA CT CK CQ C8 SA HA DA", JUNK, "HJ DJ ST SK S9 HT H8 DT DK DQ", "S7 D9")
    assert make_player(Level.NORMAL, 1).choose(view_of(deal)) == PASS  # middlehand is to bid
    assert bid_limit(parse_cards(JUNK), 1) == 0


def test_never_bids_past_what_the_hand_can_be_worth() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        hand = rng.sample(CARDS, 10)
        limit = bid_limit(hand, rng.randrange(3))
        worth = max([game_value(g, hand, hand_game=True) for g in TRUMP_GAMES] + [59])
        assert limit <= worth
        if limit >= 48:  # a big bid needs a hand to match: a jack, or a long suit to play "against" many
            longest = max(sum(1 for c in hand if c.suit is s and not c.is_jack) for s in Suit)
            assert any(c.is_jack for c in hand) or longest >= 5


def test_takes_an_obvious_grand() -> None:
    deal = make_deal("CJ SJ HJ DJ CA CT SA ST HA DK", JUNK, "C8 CK CQ S9 S7 HT H8 DT DQ D9", "DA SK")
    assert bid_limit(deal.hand(0), 0) >= 120
    win_auction(deal, 0, 18)
    assert _play_declaration(deal) is GameType.GRAND


def test_takes_an_obvious_null() -> None:
    hand = "C7 C8 C9 S7 S8 S9 H7 H8 D7 D9"
    deal = make_deal(hand, "CJ SJ CA CT CK SA ST SK HA HT", "HJ DJ CQ SQ HK HQ H9 DA DT DK", "D8 DQ")
    assert bid_limit(deal.hand(0), 0) >= 23
    win_auction(deal, 0, 23)
    assert _play_declaration(deal) is GameType.NULL


def test_discard_buries_a_bare_ten_and_keeps_the_jacks() -> None:
    # forehand: four clubs and two jacks, a side ace, a bare spade ten; the skat brings a queen and a seven
    deal = make_deal("CJ SJ CA CT CK C9 HA D9 ST D8", "HJ DJ SA SK S9 S8 HT HK HQ DT",
                     "C8 C7 SQ S7 H9 H8 H7 DK DQ DA", "CQ D7")
    win_auction(deal, 0, 18)
    player = make_player(Level.NORMAL, 3)
    assert player.choose(view_of(deal)) == PICK_UP
    deal.apply(PICK_UP)
    discard = player.choose(view_of(deal))
    assert isinstance(discard, Discard)
    buried = {discard.first.iss, discard.second.iss}
    assert "ST" in buried and not any(card.endswith("J") for card in buried)
    deal.apply(discard)
    assert _play_declaration(deal) in (GameType.CLUBS, GameType.GRAND)  # two jacks, three aces: either


HANDS = ("CJ SJ HJ DJ CA CT CK CQ H7 S7", "HA HK S8 S9 SQ D7 D8 D9 DQ DK", "HT H8 H9 SA SK DA DT C7 C8 C9", "ST HQ")


def _clubs_hand_deal() -> Deal:
    deal = make_deal(*HANDS)
    win_auction(deal, 0, 18)
    deal.apply(Declare(Contract(GameType.CLUBS, True)))
    return deal


def test_declarer_draws_trumps_first() -> None:
    deal = _clubs_hand_deal()
    action = make_player(Level.NORMAL, 1).choose(view_of(deal))
    assert isinstance(action, PlayCard) and action.card.is_jack


def test_defender_puts_points_on_the_partners_trick() -> None:
    deal = _clubs_hand_deal()
    apply_all(deal, "play H7; play HA")  # the partner's ace holds the trick; rearhand plays last
    assert make_player(Level.NORMAL, 1).choose(view_of(deal)) == PlayCard(parse_cards("HT")[0])


def test_defender_throws_nothing_on_the_declarers_trick() -> None:
    deal = _clubs_hand_deal()
    apply_all(deal, "play CJ")  # middlehand has no trump left to follow with
    action = make_player(Level.NORMAL, 1).choose(view_of(deal))
    assert isinstance(action, PlayCard) and action.card.points == 0


def test_defender_takes_the_declarers_trick_when_it_can() -> None:
    deal = _clubs_hand_deal()
    apply_all(deal, "play S7; play S8")  # rearhand holds the spade ace and king behind the declarer
    assert make_player(Level.NORMAL, 1).choose(view_of(deal)) == PlayCard(parse_cards("SA")[0])


def test_kontra_on_a_strong_defence() -> None:
    rules = RuleSet(kontra=True)
    deal = make_deal("SJ DJ C7 C8 C9 CK SA HA D7 D8", "CJ HJ CA CT CQ S7 S8 H7 H8 H9", "ST SK SQ S9 HT HK HQ DA DT DK",
                     "D9 DQ", rules)
    deal.apply(Bid(18))
    for step in (PASS, PASS):  # forehand passes, rearhand passes: middlehand declares
        deal.apply(step)
    deal.apply(Declare(Contract(GameType.CLUBS, True)))
    assert defender_strong(deal.hand(0), GameType.CLUBS)
    assert make_player(Level.NORMAL, 1).side_action(seat_view(deal, 0)) == KONTRA
    assert make_player(Level.NORMAL, 1).side_action(seat_view(deal, 2)) is None


def test_ramsch_keeps_points_out_of_its_own_tricks() -> None:
    rules = RuleSet(all_pass=AllPass.RAMSCH)
    deal = make_deal("CJ SJ CA CT CK C9 HA DA ST D8", "HJ DJ SA SK S9 S8 HT HK HQ DT",
                     "C8 C7 SQ S7 H9 H8 H7 DK DQ D9", "CQ D7", rules)
    apply_all(deal, "pass; pass; pass")
    assert deal.contract is not None and deal.contract.game is GameType.RAMSCH
    apply_all(deal, "play D8")  # middlehand follows under the eight with nothing higher than the ten
    action = make_player(Level.NORMAL, 1).choose(view_of(deal))
    assert isinstance(action, PlayCard)
    assert action == PlayCard(parse_cards("DT")[0]) or action.card.points == 0
