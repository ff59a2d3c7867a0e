"""Hints: only at tables opened with them, only for the player's own decision, and from nothing but what
that player can see (two deals that differ only in hidden cards give the same hint)."""

from __future__ import annotations

import random

import pytest

from skatbot.ai import Level
from skatbot.ai.hints import hint
from skatbot.engine import Deal, Phase, PlayCard
from skatbot.engine.games import TRICK_TABLES
from skatbot.engine.views import seat_view
from skatbot.tables import Table
from skatbot.tables import events as ev
from skatbot.tables.errors import NotAllowed
from skatbot.tables.log import Hints
from tests.tables.kit import TableKit

ALICE = 100


async def offer_hints(table: Table) -> None:
    """Hints offered at the table (as /skat new hints:true stores them with its first entries, before the start)."""
    async def steps() -> list[ev.Event]:
        return await table.apply_and_store(Hints(), ev.Actor.PLAYER)

    await table.commit(steps)


async def hinted_table(seed: int, hints: bool = True) -> TableKit:
    kit = TableKit(deals=1, seed=seed)
    await kit.table.join(ALICE, "Alice")
    if hints:
        await offer_hints(kit.table)
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.start(ALICE)
    return kit


async def to_alice_in_card_play(kit: TableKit, rng: random.Random, tricks: int) -> bool:
    for _ in range(200):
        await kit.table.settle()
        game = kit.table.game
        deal = game.deal
        if deal is None or deal.is_over:
            return False
        seat = game.seat_of_user(ALICE)
        if deal.current_seat == seat:
            if deal.phase is Phase.PLAY and len(deal.tricks) >= tricks and len(deal.legal_cards()) > 1:
                return True
            actions = [a for a in deal.legal_actions() if str(a) != "pass"] or deal.legal_actions()
            await kit.table.act(ALICE, actions[rng.randrange(len(actions))])
    return False


def hidden_twin(deal: Deal, seat: int) -> Deal:
    """The same deal with two unplayed cards of one effective suit swapped between the other two hands
    (the skat and every action untouched): everything `seat` sees is the same."""
    assert deal.contract is not None  # asked in card play
    table = TRICK_TABLES[deal.contract.game]
    a, b = (seat + 1) % 3, (seat + 2) % 3
    for x in deal.hand(a):
        for y in deal.hand(b):
            if table.effective_suit[x.index] == table.effective_suit[y.index] and x != y:
                hands = [list(h) for h in deal.dealt_hands]
                hands[a] = [y if c == x else c for c in hands[a]]
                hands[b] = [x if c == y else c for c in hands[b]]
                twin = Deal(hands, deal.dealt_skat, deal.rules)
                for who, action in deal.history:
                    twin.apply(action, who)
                return twin
    raise AssertionError("no two cards to swap")


async def test_two_deals_differing_only_in_hidden_cards_get_the_same_hint() -> None:
    compared = 0
    for seed in range(12):
        kit = await hinted_table(seed)
        if not await to_alice_in_card_play(kit, random.Random(seed), tricks=2):
            continue
        game = kit.table.game
        deal = game.deal
        assert deal is not None
        seat = game.seat_of_user(ALICE)
        twin = hidden_twin(deal, seat)
        assert any(deal.hand(s) != twin.hand(s) for s in range(3))
        assert seat_view(twin, seat) == seat_view(deal, seat)
        first = await kit.table.hint(ALICE)
        game.deal = twin  # the same table, step and seat: only cards Alice cannot see differ
        second = await kit.table.hint(ALICE)
        assert first == second and isinstance(first.action, PlayCard)
        assert first.worlds > 0 and 0 <= first.wins <= first.worlds
        assert first.action in seat_view(deal, seat).legal_actions
        compared += 1
        if compared == 3:
            return
    pytest.fail(f"only {compared} positions compared")


async def test_a_hint_names_the_strong_levels_choice_and_is_only_for_the_player_to_move() -> None:
    kit = await hinted_table(3)
    assert await to_alice_in_card_play(kit, random.Random(3), tricks=0)
    deal = kit.table.game.deal
    assert deal is not None
    seat = kit.table.game.seat_of_user(ALICE)
    suggestion = await kit.table.hint(ALICE)
    assert suggestion == hint(seat_view(deal, seat), kit.table.ai.seed(kit.table.game.deal_number,
                                                                       len(deal.history), seat))
    stored = list(kit.store.logs[1])
    assert kit.store.logs[1] == stored  # asking changes nothing
    plain = await hinted_table(3, hints=False)
    assert await to_alice_in_card_play(plain, random.Random(3), tricks=0)
    with pytest.raises(NotAllowed, match="no hints"):
        await plain.table.hint(ALICE)
    assert "hints" not in plain.store.logs[1] and "hints" in kit.store.logs[1]


async def test_hints_are_refused_out_of_turn() -> None:
    for seed in range(10):
        kit = await hinted_table(seed)
        rng = random.Random(seed)
        for _ in range(60):
            await kit.table.settle()
            deal = kit.table.game.deal
            if deal is None or deal.is_over:
                break
            if deal.current_seat != kit.table.game.seat_of_user(ALICE):
                continue
            actions = [a for a in deal.legal_actions() if str(a) != "pass"] or deal.legal_actions()
            await kit.table.act(ALICE, actions[rng.randrange(len(actions))])
            # straight after her move, before the computer players answer, it is not her decision
            if not deal.is_over and deal.current_seat != kit.table.game.seat_of_user(ALICE):
                with pytest.raises(NotAllowed, match="wait for your turn"):
                    await kit.table.hint(ALICE)
                return
    pytest.fail("Alice never waited for another player")
