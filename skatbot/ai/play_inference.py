"""Card-play inference: how likely the other seats' cards so far were, given the hands a world gives them.

The auction's inference (`inference`) weighs a world by the bids; this weighs it by the cards. The model of
play is our own `normal` level's card play: for each card another seat played where it had a choice, the seat's
view at that moment is rebuilt with the hand the world gives it (its cards now and the ones it played since),
and a card `normal` would not have played there (nor one just as good, `solver.move_classes`) multiplies the
world's weight by `CARD_MISFIT`. People and strong do not play like `normal`, so no world is ruled out: the
weight only tilts the sum over worlds towards those where what the table saw makes sense (Rebstock et al. 2019
weight card play's worlds by each past card this way, with a learned policy).
"""

from __future__ import annotations

import random

from skatbot.engine.actions import PlayCard
from skatbot.engine.cards import Card, cards_of
from skatbot.engine.deal import Phase
from skatbot.engine.games import TRICK_TABLES, Trick
from skatbot.engine.views import SeatView

from .cardplay import choose_card
from .sampling import World
from .solver import move_classes

CARD_MISFIT = 0.5
"""Weight factor for each card another seat played that `normal` would not have played with the world's hand."""

def _cards(mask: int) -> tuple[Card, ...]:
    return tuple(cards_of(mask))


def moments(view: SeatView) -> list[tuple[int, int, tuple[Trick, ...], tuple[tuple[int, Card], ...]]]:
    """Every card played so far, in order: (seat, card index, the tricks finished before it, the cards of its
    trick before it)."""
    played: list[tuple[int, int, tuple[Trick, ...], tuple[tuple[int, Card], ...]]] = []
    for number, trick in enumerate(view.tricks):
        before = view.tricks[:number]
        partial = tuple((trick.seat_of(position), trick.cards[position]) for position in range(3))
        for position in range(3):
            played.append((trick.seat_of(position), trick.cards[position].index, before, partial[:position]))
    for position, (seat, card) in enumerate(view.current_trick):
        played.append((seat, card.index, view.tricks, view.current_trick[:position]))
    return played


def play_likelihood(view: SeatView, world: World, misfit: float = CARD_MISFIT) -> float:
    """How well the other seats' cards so far fit the model (`normal`) with the hands `world` gives them."""
    contract = view.contract
    if contract is None or view.declarer is None:
        return 1.0
    table = TRICK_TABLES[contract.game]
    held = list(world.hands)
    weight = 1.0
    rng = random.Random(0)  # normal's suit and grand play draws nothing; the Ramsch search is not modelled here
    for seat, card, tricks, partial in reversed(moments(view)):
        held[seat] |= 1 << card
        if seat == view.seat or seat in view.open_hands:
            continue  # our own cards, or a hand every world shares: nothing to learn
        hand = held[seat]
        legal = hand & table.follow_mask[table.effective_suit[partial[0][1].index]] if partial else 0
        legal = legal or hand
        if legal & (legal - 1) == 0:
            continue  # one legal card: no choice, no information
        past = _past_view(view, seat, hand, legal, tricks, partial, world, held)
        chosen = choose_card(past, rng).card.index
        if chosen != card and not _equivalent(past, legal, chosen, card):
            weight *= misfit
    return weight


def _past_view(view: SeatView, seat: int, hand: int, legal: int, tricks: tuple[Trick, ...],
               partial: tuple[tuple[int, Card], ...], world: World, held: list[int]) -> SeatView:
    """`seat`'s view when it played, had the world been the deal: its hand then, what it had seen then (an
    ouvert declarer's hand as it was then: `held`, each seat's cards now and those it played since)."""
    declarer = view.declarer
    skat = _cards(world.skat) if seat == declarer and view.picked_up else ()
    open_hands = {s: _cards(held[s]) for s in view.open_hands if s != seat}
    return SeatView(
        seat=seat, phase=Phase.PLAY, current_seat=seat, hand=_cards(hand), auction=view.auction, bid=view.bid,
        declarer=declarer, contract=view.contract, picked_up=view.picked_up, skat=skat, tricks=tricks,
        current_trick=partial, open_hands=open_hands, kontra=view.kontra, re=view.re,
        legal_actions=tuple(PlayCard(card) for card in _cards(legal)), side_actions=(),
        highest_bid_by=view.highest_bid_by, rules=view.rules)


def _equivalent(past: SeatView, legal: int, one: int, other: int) -> bool:
    """Whether two of a seat's `legal` cards are just as good (next to each other among the live cards of one
    effective suit and worth the same: `solver.move_classes`)."""
    classes = move_classes(past, [card.index for card in cards_of(legal)])
    return classes[one] == classes[other]
