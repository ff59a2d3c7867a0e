"""The strong level's Ramsch card play: legal cards chosen by search once the deal is small enough."""

from __future__ import annotations

import random

from skatbot.ai import make_player
from skatbot.ai.ramsch import ramsch_card
from skatbot.engine import Deal, GameType, Pass, Phase
from skatbot.engine.rules import AllPass, RuleSet
from skatbot.engine.views import seat_view


def ramsch(seed: int) -> Deal:
    deal = Deal.new(seed, RuleSet(all_pass=AllPass.RAMSCH))
    while deal.phase is not Phase.PLAY:
        deal.apply(Pass())
    return deal


def test_strong_plays_whole_ramsch_deals_with_legal_cards_and_searches_late() -> None:
    searched = 0
    for seed in range(2):
        deal = ramsch(seed)
        players = [make_player("strong", seed * 3 + seat) for seat in range(3)]
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            view = seat_view(deal, seat)
            if len(deal.tricks) >= 5 and len(deal.legal_cards()) > 1:
                card = ramsch_card(view, random.Random(seed), 1_000_000)
                assert card is not None and card in view.legal_actions
                searched += 1
            action = players[seat].choose(view)
            assert action in view.legal_actions
            deal.apply(action, seat)
        assert deal.result.game is GameType.RAMSCH
    assert searched >= 4
