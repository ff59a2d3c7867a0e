"""Helpers for engine tests: build deals from card text, drive auctions, play scripted lines.

Kept in one place so that every test states its deal as readable ISS card codes and the moves as
the text a player would type.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

from skatbot.engine import (
    HOLD,
    OFFICIAL,
    PASS,
    PICK_UP,
    Bid,
    Contract,
    Deal,
    Declare,
    Discard,
    IllegalAction,
    RuleSet,
    parse_action,
    parse_cards,
)
from skatbot.engine.actions import PLAY, Action
from skatbot.engine.cards import Card


def make_deal(forehand: str, middlehand: str, rearhand: str, skat: str, rules: RuleSet = OFFICIAL) -> Deal:
    """A deal with the given hands (seats 0, 1, 2) and skat, written as ISS codes."""
    return Deal([parse_cards(forehand), parse_cards(middlehand), parse_cards(rearhand)], parse_cards(skat), rules)


def win_auction(deal: Deal, declarer: int, bid: int) -> None:
    """Drive the auction so that `declarer` wins it at exactly `bid`."""
    steps: list[Action]
    if declarer == 0:
        steps = [Bid(bid), HOLD, PASS, PASS]  # middlehand bids, forehand holds, both others pass
    elif declarer == 1:
        steps = [Bid(bid), PASS, PASS]  # forehand passes, rearhand passes
    else:
        steps = [PASS, Bid(bid), PASS]  # middlehand passes, rearhand bids, forehand passes
    for step in steps:
        deal.apply(step)
    assert deal.declarer == declarer and deal.bid == bid


def declare(deal: Deal, contract: str, discard: str | None = None) -> None:
    """Declare `contract` (hand games as written); with `discard`, pick up and discard those two cards."""
    if discard is not None:
        first, second = parse_cards(discard)
        deal.apply(PICK_UP)
        deal.apply(Discard(first, second))
    deal.apply(Declare(Contract.parse(contract)))


def play(deal: Deal, cards: str) -> None:
    """Play cards in order, each by the seat to move."""
    for card in parse_cards(cards):
        deal.apply(PLAY[card.index])


def apply_all(deal: Deal, actions: Iterable[str]) -> None:
    for text in actions:
        deal.apply(parse_action(text))


def snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything a deal holds, deep-copied, plus what its public queries answer."""
    public = (
        deal.phase, deal.current_seat, [deal.hand(s) for s in range(3)], list(deal.skat), list(deal.history),
        deal.bid, deal.declarer, deal.contract, list(deal.tricks), deal.current_trick,
        [deal.trick_count(s) for s in range(3)], [deal.taken_mask(s) for s in range(3)],
        list(deal.legal_actions()), [list(deal.side_actions(s)) for s in range(3)], deal.ending,
    )
    return _copied(vars(deal)), public


def _copied(state: dict[str, object]) -> dict[str, object]:
    """A copy deep enough for a deal: its containers hold only immutable values (cards, actions, tricks)."""
    out: dict[str, object] = {}
    for name, value in state.items():
        if isinstance(value, (list, set, dict)):
            value = copy.deepcopy(value) if _nested(value) else copy.copy(value)
        out[name] = value
    return out


def _nested(container: list[object] | set[object] | dict[object, object]) -> bool:
    values = container.values() if isinstance(container, dict) else container
    return any(isinstance(v, (list, set, dict)) for v in values)


def refused(deal: Deal, action: Action, seat: int | None = None) -> IllegalAction:
    """Apply an action that must be refused; check the message is there and nothing changed."""
    before = snapshot(deal)
    try:
        deal.apply(action, seat)
    except IllegalAction as error:
        assert str(error), "a refusal must say why"
        assert snapshot(deal) == before, f"refused {action} changed the deal"
        return error
    raise AssertionError(f"{action} was accepted")


def card(text: str) -> Card:
    return Card.parse(text)


def play_out(deal: Deal, prefer: str = "") -> None:
    """Finish the deal: each seat plays the first card of `prefer` it may play, else its lowest legal card."""
    order = parse_cards(prefer)
    while not deal.is_over:
        legal = deal.legal_cards()
        choice = next((c for c in order if c in legal), legal[0])
        deal.apply(PLAY[choice.index])
