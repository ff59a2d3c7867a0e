"""Card-play inference: worlds weighed by whether the other seats' cards so far fit `normal`'s play there."""

from __future__ import annotations

import random

from skatbot.ai.knowledge import read_view
from skatbot.ai.normal import NormalPlayer
from skatbot.ai.play_inference import CARD_MISFIT, play_likelihood
from skatbot.ai.sampling import Sampler, World
from skatbot.ai.strong import StrongPlayer
from skatbot.engine import Deal, RuleSet
from skatbot.engine.deal import Phase
from skatbot.engine.games import GameType
from skatbot.engine.views import SeatView, seat_view


def card_decisions(seeds: range) -> list[tuple[Deal, SeatView, World]]:
    """Every card decision of deals three `normal` players play out, with the real deal as a world."""
    found: list[tuple[Deal, SeatView, World]] = []
    for seed in seeds:
        deal = Deal.new(seed, RuleSet())
        players = [NormalPlayer(seed * 3 + seat) for seat in range(3)]
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            view = seat_view(deal, seat)
            if deal.phase is Phase.PLAY and view.contract is not None and view.contract.game is not GameType.RAMSCH:
                real = World(hands=(deal.hand_mask(0), deal.hand_mask(1), deal.hand_mask(2)),
                             skat=sum(1 << card.index for card in deal.skat))
                found.append((deal, view, real))
            deal.apply(players[seat].choose(view))
    return found


def test_the_true_deal_fits_when_everyone_plays_as_normal_and_other_worlds_weigh_less() -> None:
    decisions = card_decisions(range(12))
    assert len(decisions) > 200
    powers = {CARD_MISFIT ** k for k in range(31)}
    lighter = 0
    for _, view, real in decisions:
        assert play_likelihood(view, real) == 1.0  # normal's own cards, in the hands they came from
        sampler = Sampler(view, read_view(view))
        rng = random.Random(len(view.tricks))
        for _ in range(3):
            weight = play_likelihood(view, sampler.draw_plausible(rng))
            assert weight in powers  # one factor per card that does not fit, no world ruled out
            lighter += weight < 1.0
    assert lighter > len(decisions)  # most worlds late in a deal do not fit every card seen


def test_strong_with_card_inference_plays_legal_cards_and_the_same_again() -> None:
    for seed in range(3):
        histories = []
        for _ in range(2):
            deal = Deal.new(seed, RuleSet())
            players = [StrongPlayer(seed * 3 + seat, node_budget=20_000) for seat in range(3)]
            for player in players:
                player.infer_play = True
                player.search_contracts = False  # the card play is under test; the auction as normal bids
            while not deal.is_over:
                seat = deal.current_seat
                assert seat is not None
                action = players[seat].choose(seat_view(deal, seat))
                assert action in deal.legal_actions()
                deal.apply(action)
            histories.append([str(action) for _, action in deal.history])
        assert histories[0] == histories[1]
