"""Claims judged by the table with the solver: a claim that holds ends the deal as claimed, a wrong one is
refused with nothing stored and play goes on."""

from __future__ import annotations

import random

import pytest

from skatbot.engine import Claim, Concede, Ending, GameType, Phase
from skatbot.tables import TableState
from skatbot.tables.ai_bridge import judge_claim
from skatbot.tables.errors import NotAllowed
from tests.tables.kit import TableKit
from tests.tables.test_table import seat_three


def claim_holds(kit: TableKit) -> bool:
    deal = kit.table.game.deal
    assert deal is not None and deal.contract is not None and deal.declarer is not None
    return judge_claim(deal.contract.game, deal.declarer, (deal.hand_mask(0), deal.hand_mask(1), deal.hand_mask(2)),
                       deal.trick_leader, tuple(card.index for _, card in deal.current_trick))


async def test_a_wrong_claim_is_refused_and_a_right_one_ends_the_deal() -> None:
    seen = {True: False, False: False}
    for seed in range(40):
        kit = TableKit(deals=1, seed=seed)
        await seat_three(kit)
        await kit.table.start(100)
        rng = random.Random(seed)
        table = kit.table
        while not all(seen.values()):
            await table.settle()
            deal = table.game.deal
            if deal is None or deal.is_over:
                break
            declarer = deal.declarer
            if deal.phase is Phase.PLAY and declarer is not None and Claim() in deal.side_actions(declarer):
                claimant = table.game.occupant_of_seat(declarer).user_id
                assert claimant is not None
                holds = claim_holds(kit)
                if not seen[holds]:
                    stored = list(kit.store.logs[1])
                    if holds:
                        await table.act(claimant, Claim())
                        await table.settle()
                        assert deal.is_over and deal.ending is Ending.CLAIMED
                        if deal.contract is not None and deal.contract.game is not GameType.NULL:
                            assert deal.trick_count(declarer) + sum(
                                deal.trick_count(s) for s in range(3) if s != declarer) == 10
                        assert kit.store.logs[1][len(stored):len(stored) + 3] == [
                            f"act 0 {declarer} claim", f"act 0 {(declarer + 1) % 3} concede",
                            f"act 0 {(declarer + 2) % 3} concede"]
                        assert table.game.state is TableState.FINISHED and kit.store.deals
                    else:
                        with pytest.raises(NotAllowed, match="does not hold"):
                            await table.act(claimant, Claim())
                        assert kit.store.logs[1] == stored and not deal.is_over and not deal.claimed
                    seen[holds] = True
                    if holds:
                        break
            seat = deal.current_seat
            assert seat is not None
            user = table.game.occupant_of_seat(seat).user_id
            assert user is not None
            actions = [a for a in deal.legal_actions() if not isinstance(a, Concede)]
            await table.act(user, actions[rng.randrange(len(actions))])
        if all(seen.values()):
            return
    pytest.fail(f"not both kinds of claim were met: {seen}")
