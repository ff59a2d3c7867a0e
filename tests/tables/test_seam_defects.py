"""Defects of the seam between a table and what shows it (issue 22), each shown as a player would meet it."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from skatbot.engine import Bid, Hold, Pass, PlayCard, RuleSet
from skatbot.engine.errors import Refusal
from skatbot.tables import TableTiming
from skatbot.tables.view import Step
from tests.tables.kit import TableKit
from tests.tables.test_due_steps import wake
from tests.tables.test_table import ALICE, _to_the_first_lead, seat_three


async def kontra_table_at_the_first_lead(timing: TableTiming) -> TableKit:
    """Alice, Bob and Carol at a Kontra table, bidding until forehand is about to lead the first trick."""
    kit = TableKit(rules=RuleSet(kontra=True))
    kit.table.timing = timing
    await seat_three(kit)
    await kit.table.start(ALICE)
    await _to_the_first_lead(kit, random.Random(4))
    return kit


async def test_a_leader_is_not_kept_waiting_when_the_kontra_window_is_zero() -> None:
    """SKATBOT_KONTRA_WINDOW=0: the human who leads the first trick is shown ready to play (their card
    buttons enabled), not "You lead the first trick in a moment" for good."""
    kit = await kontra_table_at_the_first_lead(TableTiming(kontra_window=0))
    for _ in range(3):  # a window of 0 s is over at once (the turn's timers sleep on)
        await wake(kit.clock, 0)
        await kit.table.settle()
    assert kit.presenter.lead_waits, "the table showed nothing"
    assert kit.presenter.lead_waits[-1] is False, "the leader's hand was last shown waiting for the window"
    deal = kit.table.game.deal
    assert deal is not None and deal.current_seat is not None and not deal.tricks and not deal.current_trick
    leader = kit.table.game.occupant_of_seat(deal.current_seat).user_id
    assert leader is not None
    card = next(a for a in deal.legal_actions() if isinstance(a, PlayCard))
    await kit.table.act(leader, card)
    assert deal.current_trick


async def test_a_refusal_out_of_turn_does_not_tell_the_leaders_cards() -> None:
    """While forehand waits out the Kontra window, another player's `/skat play` is refused for being out of
    turn whichever card they name: with one of forehand's cards, as with any other."""
    kit = await kontra_table_at_the_first_lead(TableTiming(kontra_window=8))
    table, game = kit.table, kit.table.game
    deal = game.deal
    assert deal is not None and deal.current_seat is not None
    assert table.kontra_window == game.deal_number, "forehand waits for the window"
    leaders_card = next(a for a in deal.legal_actions() if isinstance(a, PlayCard))
    other = next(s for s in range(3) if s != deal.current_seat)
    sender = game.occupant_of_seat(other).user_id
    assert sender is not None
    own_card = PlayCard(deal.hand(other)[0])
    refusals = []
    for card in (leaders_card, own_card):
        with pytest.raises(Refusal) as refused:
            await table.act(sender, card)
        refusals.append((refused.value.key, str(refused.value)))
    assert refusals[0] == refusals[1]
    assert refusals[0][0] == "not_your_turn"
    assert not deal.current_trick


async def three_at_the_auction() -> TableKit:
    kit = TableKit()
    await seat_three(kit)
    await kit.table.start(ALICE)
    await kit.table.settle()
    return kit


def user_at(kit: TableKit, seat: int) -> int:
    user = kit.table.game.occupant_of_seat(seat).user_id
    assert user is not None
    return user


async def test_three_passes_typed_at_once_record_only_the_one_whose_turn_it_was() -> None:
    """Three players type `/skat pass` at the same instant: the one whose turn it was passes; the others typed
    against a moment that is past once it is their turn, and are refused (the deal is not thrown in)."""
    kit = await three_at_the_auction()
    deal = kit.table.game.deal
    assert deal is not None and deal.current_seat == 1  # middlehand bids first
    typed = time.time()
    outcomes = await asyncio.gather(*(kit.table.act(user_at(kit, seat), Pass(), issued_at=typed) for seat in (1, 2, 0)),
                                    return_exceptions=True)
    assert isinstance(outcomes[0], Step)
    for refused in outcomes[1:]:
        assert isinstance(refused, Refusal) and refused.key in ("stale", "not_your_turn"), refused
    assert [e for e in kit.store.logs[1] if e.startswith("act ")] == ["act 0 1 pass"]


async def test_a_hold_typed_before_a_higher_bid_is_not_recorded_as_holding_it() -> None:
    """Middlehand's `/skat bid value:20` races forehand's `/skat hold` (typed against middlehand's 18, which
    forehand had held already): the bid is recorded, the hold is refused; forehand never holds a bid unseen."""
    kit = await three_at_the_auction()
    table = kit.table
    await table.act(user_at(kit, 1), Bid(18))
    await table.act(user_at(kit, 0), Hold())
    typed = time.time()
    bid, hold = await asyncio.gather(table.act(user_at(kit, 1), Bid(20), issued_at=typed),
                                     table.act(user_at(kit, 0), Hold(), issued_at=typed), return_exceptions=True)
    assert isinstance(bid, Step)
    assert isinstance(hold, Refusal) and hold.key == "stale", hold
    assert [e for e in kit.store.logs[1] if e.startswith("act ")][-2:] == ["act 0 0 hold", "act 0 1 bid 20"]


async def test_a_move_typed_after_the_table_moved_on_is_recorded() -> None:
    """The moment is the sender's: a move typed after what it answers was stored is judged as usual."""
    kit = await three_at_the_auction()
    await kit.table.act(user_at(kit, 1), Bid(18), issued_at=time.time())
    await kit.table.act(user_at(kit, 0), Hold(), issued_at=time.time() + 0.01)
    assert [e for e in kit.store.logs[1] if e.startswith("act ")] == ["act 0 1 bid 18", "act 0 0 hold"]
