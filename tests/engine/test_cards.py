"""The 32-card pack and its text forms: ISS codes, display forms, German names."""

from __future__ import annotations

import pickle

import pytest

from skatbot.engine import CARDS, Card, Rank, Suit, parse_cards
from skatbot.engine.cards import cards_of, mask_of, points_of


def test_pack_has_32_distinct_cards_indexed_by_suit_and_rank() -> None:
    assert len(CARDS) == 32
    assert len({(c.suit, c.rank) for c in CARDS}) == 32
    for index, card in enumerate(CARDS):
        assert card.index == index == int(card.suit) * 8 + int(card.rank)
        assert Card(card.suit, card.rank) is card


def test_card_points_total_120() -> None:
    assert sum(c.points for c in CARDS) == 120
    assert {r: r.points for r in Rank} == {
        Rank.SEVEN: 0, Rank.EIGHT: 0, Rank.NINE: 0, Rank.TEN: 10, Rank.JACK: 2, Rank.QUEEN: 3, Rank.KING: 4,
        Rank.ACE: 11}
    assert points_of((1 << 32) - 1) == 120


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.iss)
def test_iss_code_round_trips(card: Card) -> None:
    assert Card.parse(card.iss) is card
    assert Card.parse(card.iss.lower()) is card


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.iss)
def test_display_form_round_trips(card: Card) -> None:
    assert Card.parse(card.display) is card
    assert Card.parse(str(card)) is card
    assert eval(repr(card), {"Card": Card}) is card  # noqa: S307 - repr is documented as Card.parse(...)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("CJ", (Suit.CLUBS, Rank.JACK)), ("ST", (Suit.SPADES, Rank.TEN)), ("H7", (Suit.HEARTS, Rank.SEVEN)),
     ("DA", (Suit.DIAMONDS, Rank.ACE)), ("♠10", (Suit.SPADES, Rank.TEN)), ("♣J", (Suit.CLUBS, Rank.JACK)),
     ("10S", (Suit.SPADES, Rank.TEN)), ("S10", (Suit.SPADES, Rank.TEN)), ("  hq ", (Suit.HEARTS, Rank.QUEEN)),
     ("Q♥", (Suit.HEARTS, Rank.QUEEN))],
)
def test_parse_accepts_the_documented_forms(text: str, expected: tuple[Suit, Rank]) -> None:
    card = Card.parse(text)
    assert (card.suit, card.rank) == expected


def test_iss_and_display_examples() -> None:
    assert Card(Suit.CLUBS, Rank.JACK).iss == "CJ"
    assert Card(Suit.SPADES, Rank.TEN).iss == "ST"
    assert Card(Suit.SPADES, Rank.TEN).display == "♠10"
    assert Card(Suit.DIAMONDS, Rank.ACE).display == "♦A"
    assert [s.letter for s in Suit] == ["D", "H", "S", "C"]
    assert [r.letter for r in Rank] == list("789TJQKA")


@pytest.mark.parametrize("text", ["", "C", "XJ", "C1", "CJJ", "11S", "♣", "J", "CC", "SD", "♣11", "joker"])
def test_parse_errors_are_clear(text: str) -> None:
    with pytest.raises(ValueError, match="not a card") as info:
        Card.parse(text)
    assert repr(text.strip()) in str(info.value) or repr(text) in str(info.value)


def test_suit_and_rank_errors_name_the_bad_input() -> None:
    with pytest.raises(ValueError, match="unknown suit 'X'"):
        Suit.from_letter("X")
    with pytest.raises(ValueError, match="unknown rank '1'"):
        Rank.from_text("1")


def test_parse_cards_separators_and_masks() -> None:
    hand = parse_cards("CJ.ST, ♥A  D7")
    assert [c.iss for c in hand] == ["CJ", "ST", "HA", "D7"]
    assert cards_of(mask_of(hand)) == sorted(hand)
    assert points_of(mask_of(hand)) == 2 + 10 + 11 + 0
    with pytest.raises(ValueError, match="not a card: 'ZZ'"):
        parse_cards("CJ ZZ")


def test_cards_are_immutable_shared_and_pickle_to_themselves() -> None:
    card = Card.parse("CJ")
    with pytest.raises(AttributeError):
        card.rank = Rank.ACE
    assert pickle.loads(pickle.dumps(card)) is card
    assert Card(3, 4) is card
    assert sorted(CARDS, reverse=True)[0] is Card.parse("CA")
