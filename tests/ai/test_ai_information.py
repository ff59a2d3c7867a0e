"""Decisions are reproducible for a seed and depend only on what the seat may see.

The hidden-information test builds two deals that differ only in cards the observing seat cannot see
(two same-suit cards swapped between the other hands, or between another hand and the skat) and
checks that every decision the observer makes before either card shows up is the same in both.
"""

from __future__ import annotations

import pytest

from skatbot.ai import Level, make_player, play_deal
from skatbot.engine import AllPass, Deal, Discard, PlayCard, RuleSet
from skatbot.engine.actions import Action
from skatbot.engine.cards import Card
from skatbot.engine.views import seat_view

LEVELS = (Level.RANDOM, Level.EASY, Level.NORMAL)
RULES = RuleSet(all_pass=AllPass.RAMSCH, kontra=True)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_replays_the_same_deal(level: Level) -> None:
    for seed in range(40):
        histories = []
        for _ in range(2):
            deal = Deal.new(seed, RULES)
            play_deal(deal, [make_player(level, 7 * seed + seat) for seat in range(3)])
            histories.append([(seat, str(action)) for seat, action in deal.history])
        assert histories[0] == histories[1]


@pytest.mark.parametrize("level", LEVELS)
def test_a_decision_does_not_depend_on_earlier_calls(level: Level) -> None:
    """Asking a fresh player and a player that has already decided many times gives the same answer."""
    busy = make_player(level, 99)
    for seed in range(20):
        deal = Deal.new(seed, RULES)
        while not deal.is_over:
            assert deal.current_seat is not None
            view = seat_view(deal, deal.current_seat)
            action = busy.choose(view)
            assert make_player(level, 99).choose(view) == action
            deal.apply(action)


def test_different_seeds_give_different_random_play() -> None:
    lines = set()
    for seed in range(5):
        deal = Deal.new(3, RULES)
        play_deal(deal, [make_player(Level.RANDOM, seed * 3 + seat) for seat in range(3)])
        lines.add(tuple(str(a) for _, a in deal.history))
    assert len(lines) > 1


def _swap(deal: Deal, first: Card, second: Card) -> Deal:
    def swapped(cards: tuple[Card, ...]) -> list[Card]:
        return [second if c is first else first if c is second else c for c in cards]
    return Deal([swapped(h) for h in deal.dealt_hands], swapped(deal.dealt_skat), deal.rules)


def _shows(action: Action, cards: set[Card]) -> bool:
    if isinstance(action, PlayCard):
        return action.card in cards
    if isinstance(action, Discard):
        return action.first in cards or action.second in cards
    return False


def _decisions(deal: Deal, history: list[tuple[int | None, Action]], observer: int, level: Level,
               hidden: set[Card]) -> list[tuple[str, str | None]]:
    """Replay `history` on `deal` and record the observer's choices until a hidden card is shown."""
    player = make_player(level, 1234)
    out: list[tuple[str, str | None]] = []
    for seat, action in history:
        if _shows(action, hidden) or (seat == observer and str(action) == "pickup"):
            break
        view = seat_view(deal, observer)
        side = player.side_action(view)
        out.append(("side", str(side) if side else None))
        if deal.current_seat == observer:
            out.append(("turn", str(player.choose(view))))
        deal.apply(action, seat)
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_ignore_cards_the_seat_cannot_see(level: Level) -> None:
    compared = 0
    for seed in range(60):
        original = Deal.new(seed, RULES)
        play_deal(original, [make_player(Level.NORMAL, seed * 3 + seat) for seat in range(3)])
        history = list(original.history)
        observer = seed % 3
        others = [(observer + 1) % 3, (observer + 2) % 3]
        piles = [original.dealt_hands[others[0]], original.dealt_hands[others[1]], original.dealt_skat]
        for a, b in ((0, 1), (0, 2), (1, 2)):
            pairs = [(x, y) for x in piles[a] for y in piles[b] if x.suit is y.suit and not x.is_jack
                     and not y.is_jack]
            if not pairs:
                continue
            x, y = pairs[0]
            before = _decisions(Deal(original.dealt_hands, original.dealt_skat, RULES), history, observer, level,
                                {x, y})
            after = _decisions(_swap(original, x, y), history, observer, level, {x, y})
            assert before == after
            compared += len(before)
    assert compared > 500
