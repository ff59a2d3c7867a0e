"""Card play: leading, following suit, trick winners, early endings, and what each seat may see."""

from __future__ import annotations

import pytest

from skatbot.engine import (
    CLAIM,
    CONCEDE,
    KONTRA,
    PICK_UP,
    RE,
    Contract,
    Deal,
    Declare,
    Discard,
    Ending,
    GameType,
    IllegalAction,
    IllegalCard,
    NotYourTurn,
    Phase,
    RuleSet,
    TimeOut,
    WrongPhase,
    parse_cards,
)
from skatbot.engine.actions import PLAY
from skatbot.engine.cards import mask_of, points_of
from skatbot.engine.games import TRICK_TABLES, trick_winner
from skatbot.engine.views import seat_view
from tests.engine.deal_helpers import card, declare, make_deal, play, refused, win_auction

# Middlehand is void in hearts; the skat holds HK HQ.
FOREHAND = "CJ HJ CA CT C7 SA S7 HA H7 D7"
MIDDLEHAND = "SJ DJ CK CQ SK SQ DK DQ D9 D8"
REARHAND = "C9 C8 ST S9 S8 HT H9 H8 DA DT"
SKAT = "HK HQ"


def middlehand_plays(contract: str, rules: RuleSet | None = None) -> Deal:
    deal = make_deal(FOREHAND, MIDDLEHAND, REARHAND, SKAT, *((rules,) if rules else ()))
    win_auction(deal, 1, 18)
    declare(deal, contract)
    return deal


def legal(deal: Deal) -> set[str]:
    return {c.iss for c in deal.legal_cards()}


def winner(game: GameType, cards: str) -> int:
    return trick_winner(TRICK_TABLES[game], [c.index for c in parse_cards(cards)])


def test_forehand_leads_the_first_trick_with_any_card() -> None:
    deal = middlehand_plays("clubs hand")
    assert deal.phase is Phase.PLAY and deal.current_seat == 0
    assert legal(deal) == set(FOREHAND.split())


def test_follow_suit_jacks_are_trumps_not_their_printed_suit() -> None:
    deal = middlehand_plays("clubs hand")
    play(deal, "SA")
    assert legal(deal) == {"SK", "SQ"}, "the spade jack is a trump, not a spade"
    error = refused(deal, PLAY[card("SJ").index])
    assert isinstance(error, IllegalCard) and "you must follow spades" in str(error)
    play(deal, "SK")
    assert legal(deal) == {"ST", "S9", "S8"}
    play(deal, "S8")
    assert deal.tricks[-1].winner == 0 and deal.current_seat == 0


def test_a_led_jack_calls_for_trumps() -> None:
    deal = middlehand_plays("clubs hand")
    play(deal, "HJ")
    assert legal(deal) == {"SJ", "DJ", "CK", "CQ"}
    error = refused(deal, PLAY[card("SK").index])
    assert isinstance(error, IllegalCard) and "you must follow trumps" in str(error)
    play(deal, "SJ")
    assert legal(deal) == {"C9", "C8"}
    play(deal, "C9")
    assert deal.tricks[-1].winner == 1, "the spade jack beats the heart jack"
    assert deal.current_seat == 1, "the winner leads the next trick"


def test_grand_has_only_jacks_as_trumps() -> None:
    deal = middlehand_plays("grand hand")
    play(deal, "CA")
    assert legal(deal) == {"CK", "CQ"}
    play(deal, "CK")
    play(deal, "C9")
    play(deal, "HJ")
    assert legal(deal) == {"SJ", "DJ"}


def test_void_may_trump_and_the_trump_wins() -> None:
    deal = middlehand_plays("clubs hand")
    play(deal, "HA")
    assert legal(deal) == set(MIDDLEHAND.split()), "a void hand may play any card"
    play(deal, "CQ")
    assert legal(deal) == {"HT", "H9", "H8"}
    play(deal, "HT")
    trick = deal.tricks[-1]
    assert trick.winner == 1 and trick.points == 11 + 3 + 10
    assert deal.trick_count(1) == 1 and points_of(deal.taken_mask(1)) == 24


def test_in_null_jacks_belong_to_their_suit() -> None:
    deal = middlehand_plays("null hand")
    play(deal, "S7")
    assert legal(deal) == {"SJ", "SK", "SQ"}
    play(deal, "SQ")
    play(deal, "ST")
    assert deal.tricks[-1].winner == 1


@pytest.mark.parametrize(
    ("game", "cards", "position"),
    [
        (GameType.CLUBS, "CJ SJ HJ", 0), (GameType.CLUBS, "DJ HJ CA", 1), (GameType.CLUBS, "CA DJ CT", 1),
        (GameType.CLUBS, "C7 HA SA", 0), (GameType.CLUBS, "HK HT HA", 2), (GameType.CLUBS, "HQ HK HT", 2),
        (GameType.CLUBS, "H9 C7 HA", 1), (GameType.CLUBS, "CT CK CA", 2), (GameType.HEARTS, "HA D7 H7", 0),
        (GameType.GRAND, "CA CT DJ", 2), (GameType.GRAND, "SJ CJ C7", 1), (GameType.GRAND, "HA SA HT", 0),
        (GameType.DIAMONDS, "DA DJ D7", 1), (GameType.DIAMONDS, "S7 SA D7", 2),
    ],
)
def test_highest_trump_wins_else_highest_of_the_suit_led(game: GameType, cards: str, position: int) -> None:
    assert winner(game, cards) == position


def test_null_order_is_a_k_q_j_10_9_8_7() -> None:
    order = parse_cards("SA SK SQ SJ ST S9 S8 S7")
    for high_index, high in enumerate(order):
        for low in order[high_index + 1:]:
            assert trick_winner(TRICK_TABLES[GameType.NULL], [low.index, high.index, card("H7").index]) == 1
            assert trick_winner(TRICK_TABLES[GameType.NULL], [high.index, low.index, card("HA").index]) == 0
    assert winner(GameType.NULL, "S7 CJ HA") == 0, "no trumps in null: only the suit led wins"


def test_trump_orders() -> None:
    assert [c.iss for c in TRICK_TABLES[GameType.CLUBS].trump_order] == ["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9", "C8", "C7"]
    assert [c.iss for c in TRICK_TABLES[GameType.GRAND].trump_order] == ["CJ", "SJ", "HJ", "DJ"]
    assert TRICK_TABLES[GameType.NULL].trump_order == ()


def test_play_refusals_leave_the_deal_unchanged() -> None:
    deal = middlehand_plays("clubs hand")
    error = refused(deal, PLAY[card("SJ").index])
    assert isinstance(error, IllegalCard) and "is not in your hand" in str(error)
    error = refused(deal, PLAY[card("SJ").index], seat=1)
    assert isinstance(error, NotYourTurn)
    error = refused(deal, PICK_UP)
    assert isinstance(error, WrongPhase) and "play a card" in str(error)
    error = refused(deal, Declare(Contract(GameType.GRAND, True)))
    assert isinstance(error, WrongPhase)


def test_null_ends_when_the_declarer_takes_a_trick() -> None:
    deal = middlehand_plays("null hand")
    play(deal, "S7 SJ S8")
    assert deal.is_over and deal.ending is Ending.SETTLED
    assert len(deal.tricks) == 1 and deal.trick_count(1) == 1
    result = deal.result
    assert not result.won and result.value == 35 and result.score == -70
    assert refused(deal, PLAY[card("CJ").index])


def test_null_goes_on_while_the_declarer_ducks() -> None:
    deal = middlehand_plays("null hand")
    play(deal, "SA SK S8")
    assert not deal.is_over and deal.current_seat == 0


def test_announced_schwarz_ends_when_the_defenders_take_a_trick() -> None:
    deal = middlehand_plays("clubs hand schwarz")
    play(deal, "HA CQ HT")  # the declarer takes the first trick: play goes on
    assert not deal.is_over
    play(deal, "DJ C8 CJ")  # forehand's club jack wins: schwarz is lost
    assert deal.is_over and deal.ending is Ending.SETTLED
    result = deal.result
    assert not result.won and result.matadors == -1
    assert result.value == 12 * 7, "against 1, game 2, hand, schneider, announced, schwarz, announced"
    assert result.score == -168


def test_declarer_concedes_with_an_open_trick_rest_to_defenders() -> None:
    deal = middlehand_plays("clubs hand")
    play(deal, "HA CQ HT")
    play(deal, "SK")  # middlehand leads, trick open
    assert deal.side_actions(1) == [CLAIM, CONCEDE]
    deal.apply(CONCEDE, seat=1)
    assert deal.is_over and deal.ending is Ending.DECLARER_CONCEDED
    assert deal.trick_count(1) == 1
    assert deal.trick_count(0) + deal.trick_count(2) == 9, "the open trick counts as one"
    defenders = deal.taken_mask(0) | deal.taken_mask(2)
    assert defenders | deal.taken_mask(1) | mask_of(deal.skat) == (1 << 32) - 1
    result = deal.result
    assert not result.won and result.declarer_points == 24 + 7  # the first trick plus the skat (hand game)


def test_defenders_both_concede_rest_to_declarer() -> None:
    deal = middlehand_plays("clubs hand")
    play(deal, "HA")
    deal.apply(CONCEDE, seat=0)
    assert not deal.is_over, "one defender's concession is not enough"
    error = refused(deal, CONCEDE, seat=0)
    assert "already conceded" in str(error)
    deal.apply(CONCEDE, seat=2)
    assert deal.is_over and deal.ending is Ending.DEFENDERS_CONCEDED
    assert deal.trick_count(1) == 10 and deal.trick_count(0) == deal.trick_count(2) == 0
    result = deal.result
    assert result.won and result.schwarz and result.declarer_points == 120


def test_claim_shows_the_hand_and_defenders_may_accept() -> None:
    deal = middlehand_plays("clubs hand")
    assert seat_view(deal, 0).open_hands == {}
    error = refused(deal, CLAIM, seat=0)
    assert "only the declarer may claim" in str(error)
    deal.apply(CLAIM, seat=1)
    assert deal.claimed and not deal.is_over
    assert seat_view(deal, 0).open_hands == {1: tuple(deal.hand(1))}
    error = refused(deal, CLAIM, seat=1)
    assert "already claimed" in str(error)
    play(deal, "HA CQ HT")  # defenders play on
    deal.apply(CONCEDE, seat=0)
    deal.apply(CONCEDE, seat=2)
    assert deal.ending is Ending.CLAIMED and deal.result.won


def test_null_declarer_never_receives_tricks_by_concession_or_timeout() -> None:
    deal = middlehand_plays("null hand")
    play(deal, "SA SK")
    deal.apply(CONCEDE, seat=0)
    deal.apply(CONCEDE, seat=2)
    assert deal.is_over and deal.trick_count(1) == 0 and deal.taken_mask(1) == 0
    assert deal.result.won and deal.result.score == 35
    deal = middlehand_plays("null hand")
    deal.apply(TimeOut(2))
    assert deal.ending is Ending.TIME_OUT and deal.trick_count(1) == 0 and deal.result.won


@pytest.mark.parametrize(("seat", "declarer_wins"), [(0, True), (2, True), (1, False)])
def test_time_out_gives_the_rest_to_the_other_side(seat: int, declarer_wins: bool) -> None:
    deal = middlehand_plays("clubs hand")
    play(deal, "HA CQ HT")
    deal.apply(TimeOut(seat))
    assert deal.ending is Ending.TIME_OUT and deal.timed_out == seat
    if declarer_wins:
        assert deal.trick_count(1) == 10 and deal.result.won
    else:
        assert deal.trick_count(1) == 1 and not deal.result.won
    assert deal.is_over and deal.current_seat is None
    assert deal.history[-1] == (None, TimeOut(seat))


def test_endings_are_refused_outside_play() -> None:
    deal = Deal.new(3)
    assert isinstance(refused(deal, TimeOut(1, contract=Contract(GameType.CLUBS))), WrongPhase)
    for seat in range(3):
        for action in (CONCEDE, CLAIM, KONTRA, RE):
            assert isinstance(refused(deal, action, seat=seat), IllegalAction)
    deal = middlehand_plays("clubs hand")
    error = refused(deal, TimeOut(3))
    assert "no seat 3" in str(error)
    error = refused(deal, KONTRA, seat=0)
    assert "Kontra is not played" in str(error)


def test_kontra_and_re_before_the_first_card() -> None:
    deal = middlehand_plays("clubs hand", RuleSet(kontra=True))
    assert KONTRA in deal.side_actions(0)
    assert "only a defender" in str(refused(deal, KONTRA, seat=1))
    assert "nobody said Kontra" in str(refused(deal, RE, seat=1))
    deal.apply(KONTRA, seat=0)
    assert "already been said" in str(refused(deal, KONTRA, seat=2))
    deal.apply(RE, seat=1)
    assert deal.kontra and deal.re
    play(deal, "HA")
    assert KONTRA not in deal.side_actions(2)


def test_views_hide_other_hands_until_revealed() -> None:
    deal = make_deal(FOREHAND, MIDDLEHAND, REARHAND, SKAT)
    for seat in range(3):
        view = seat_view(deal, seat)
        assert set(view.hand) == set(deal.hand(seat))
        assert view.open_hands == {} and view.skat == ()
        assert view.legal_actions == (tuple(deal.legal_actions()) if seat == 1 else ())
    win_auction(deal, 1, 18)
    deal.apply(PICK_UP)
    assert len(seat_view(deal, 1).hand) == 12, "the declarer holds the skat before discarding"
    assert len(seat_view(deal, 0).hand) == 10
    deal.apply(Discard(card("D9"), card("D8")))
    assert seat_view(deal, 1).skat == (card("D9"), card("D8"))
    assert seat_view(deal, 0).skat == () and seat_view(deal, 2).skat == ()
    deal.apply(Declare(Contract(GameType.CLUBS)))
    view = seat_view(deal, 0)
    assert view.open_hands == {} and len(view.hand) == 10
    assert all(c not in view.hand for c in deal.hand(1) + deal.hand(2))
    deal.apply(CONCEDE, seat=1)
    for seat in range(3):
        view = seat_view(deal, seat)
        assert set(view.open_hands) == {0, 1, 2}
        assert set(view.skat) == {card("D9"), card("D8")}


def test_ouvert_reveals_the_declarers_hand_to_everyone() -> None:
    deal = middlehand_plays("null hand ouvert", None)
    for seat in (0, 2):
        assert seat_view(deal, seat).open_hands == {1: tuple(deal.hand(1))}
    play(deal, "SA SK")
    assert seat_view(deal, 0).open_hands[1] == tuple(deal.hand(1))
