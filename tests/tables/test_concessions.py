"""A human defender's concession with a computer partner: the partner answers (with the solver)."""

from __future__ import annotations

import random

import pytest

from skatbot.ai import Level
from skatbot.engine import Concede, Ending, Phase
from skatbot.engine.views import SeatView
from skatbot.tables import driver as driver_module
from skatbot.tables import events as ev
from tests.tables.kit import TableKit

ALICE = 100


async def alice_defends(kit: TableKit) -> int | None:
    """Alice with two AIs, played (first legal actions, Alice at random) until Alice defends in card play;
    returns her seat, or None if this deal never gets there."""
    await kit.table.join(ALICE, "Alice")
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.add_ai(ALICE, Level.NORMAL)
    await kit.table.start(ALICE)
    rng = random.Random(5)
    for _ in range(100):
        await kit.table.settle()
        deal = kit.table.game.deal
        if deal is None or deal.is_over:
            return None
        seat = kit.table.game.seat_of_user(ALICE)
        if deal.phase is Phase.PLAY and deal.declarer is not None and deal.declarer != seat:
            return seat
        if deal.current_seat == seat:
            actions = deal.legal_actions()
            await kit.table.act(ALICE, actions[rng.randrange(len(actions))])
    return None


@pytest.mark.parametrize("meant", [False, True], ids=["action", "meant"])
@pytest.mark.parametrize("agrees", [True, False])
async def test_the_computer_partner_answers_a_concession(monkeypatch: pytest.MonkeyPatch, ai_first_legal: None,
                                                         agrees: bool, meant: bool) -> None:
    """Conceded as an action (a button) or read from the player's view by the table (`Meant`, as /skat concede
    hands it over, asking first when it costs schneider or schwarz)."""
    asked: list[SeatView] = []

    def answer(seed: int, view: SeatView) -> bool:
        asked.append(view)
        return agrees

    monkeypatch.setattr(driver_module, "answer_concession", answer)
    for seed in range(20):
        kit = TableKit(deals=1, seed=seed)
        seat = await alice_defends(kit)
        if seat is None:
            continue
        deal = kit.table.game.deal
        assert deal is not None and deal.declarer is not None
        partner = 3 - seat - deal.declarer
        await kit.table.act(ALICE, (lambda view: Concede()) if meant else Concede())
        await kit.table.settle()
        assert len(asked) == 1 and asked[0].seat == partner
        if agrees:
            assert deal.is_over and deal.ending is Ending.DEFENDERS_CONCEDED
            assert kit.store.logs[1][-2:] == [f"act 0 {seat} concede", f"act 0 {partner} concede"]
        else:
            assert not deal.is_over and partner not in deal.conceded
            declined = [e for e in kit.presenter.events if isinstance(e, ev.ConcessionDeclined)]
            assert [e.place for e in declined] == [kit.table.game.place_of_seat(partner)]
        return
    pytest.fail("Alice never defended")
