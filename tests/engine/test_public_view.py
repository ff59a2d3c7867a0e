"""The public view of a deal (what the board shows) holds what every seat sees alike, and no hidden card."""

from __future__ import annotations

import random

from skatbot.engine import Deal, RuleSet
from skatbot.engine.views import public_view, seat_view


def test_the_public_view_is_what_every_seat_sees_alike_and_hides_every_hand() -> None:
    for seed in range(30):
        rng = random.Random(seed)
        deal = Deal.new(seed, RuleSet())
        while True:
            public = public_view(deal)
            views = [seat_view(deal, seat) for seat in range(3)]
            for view in views:
                assert (view.phase, view.current_seat, view.auction, view.bid, view.declarer, view.contract,
                        view.tricks, view.current_trick, view.open_hands, view.kontra, view.re) == \
                    (public.phase, public.current_seat, public.auction, public.bid, public.declarer, public.contract,
                     public.tricks, public.current_trick, public.open_hands, public.kontra, public.re)
            if deal.is_over:
                assert public.is_over and public.skat == tuple(deal.skat)
                break
            shown = {card for cards in public.open_hands.values() for card in cards} | set(public.skat)
            hidden = {card for seat in range(3) if seat not in public.open_hands for card in deal.hand(seat)}
            assert not shown & (hidden | set(deal.skat)), "a hidden card in the public view"
            deal.apply(rng.choice(deal.legal_actions()))
