"""Hints before card play give the figures the hand evaluation computed: the bid the hand supports and
the game behind it, the best game with or without the skat, the points a discard buries."""

from __future__ import annotations

import random
import re

from skatbot.ai.hint_values import Hint, Reason
from skatbot.ai.hints import hint
from skatbot.engine import Bid, Deal, Declare, Discard, GameType, Hold, Pass, Phase, PickUpSkat, PlayCard
from skatbot.engine.games import TRICK_TABLES
from skatbot.engine.rules import AllPass, RuleSet
from skatbot.engine.views import seat_view
from skatbot.ui.hint_text import hint_text
from skatbot.ui.languages import Lang


def hints_until_play(seed: int) -> list[tuple[Deal, str, Hint]]:
    """Follow each hint from the deal's start to the first card: (deal then, hint text, hint)."""
    deal = Deal.new(seed)
    seen: list[tuple[Deal, str, Hint]] = []
    while deal.phase is not Phase.PLAY and not deal.is_over:
        seat = deal.current_seat
        assert seat is not None
        given = hint(seat_view(deal, seat), seed)
        seen.append((deal.clone(), hint_text(given, Lang("en")), given))
        deal.apply(given.action, seat)
    return seen


def test_every_decision_before_card_play_gets_a_reason_with_its_figures() -> None:
    kinds: set[Reason] = set()
    for seed in range(40):
        for deal, text, given in hints_until_play(seed):
            action, basis = given.action, given.basis
            assert basis is not None, f"no reason for {action}"
            kinds.add(basis.reason)
            assert "from the evaluation of your hand" not in text  # not the generic line
            percent = re.search(r"about (\d+)%", text)
            if isinstance(action, (Bid, Hold)):
                assert basis.reason is Reason.BID
                assert f"up to {basis.value}:" in text and basis.value >= deal.bid
                if isinstance(action, Bid):
                    assert action.value <= basis.value  # never bids past what it says the hand supports
            elif isinstance(action, Pass):
                assert basis.reason is Reason.PASS
                assert f"up to {basis.value} only" in text or "No game wins often enough" in text
            elif isinstance(action, Discard):
                assert f"buries {action.first.points + action.second.points} card points" in text
            elif isinstance(action, Declare) and deal.phase is Phase.SKAT:
                assert basis.reason is Reason.HAND and "Without the skat" in text
            elif isinstance(action, Declare):
                assert basis.reason is Reason.DECLARE and f"Worth {basis.value}," in text
            elif isinstance(action, PickUpSkat):
                assert basis.reason is Reason.PICK_UP
                assert "the skat pays better" in text or "No game without the skat" in text
            if basis.game is not None and basis.chance >= 0.005:
                assert percent is not None and int(percent.group(1)) == round(basis.chance * 100)
    assert {Reason.BID, Reason.PASS, Reason.PICK_UP, Reason.DISCARD, Reason.DECLARE} <= kinds


def test_a_hint_reason_reads_in_every_language() -> None:
    deal = Deal.new(3)
    seat = deal.current_seat
    assert seat is not None
    given = hint(seat_view(deal, seat), 3)
    texts = {lang: hint_text(given, lang) for lang in (Lang("en"), Lang("de"), Lang("fr"), Lang("da"))}
    assert len(set(texts.values())) == 4
    assert all("{" not in text for text in texts.values())


def test_a_ramsch_hint_late_in_the_deal_counts_the_worlds_where_the_player_does_not_lose() -> None:
    shown = twins = 0
    for seed in range(12):
        deal = Deal.new(seed, RuleSet(all_pass=AllPass.RAMSCH))
        rng = random.Random(seed)
        while deal.phase is not Phase.PLAY:
            deal.apply(Pass())
        while len(deal.tricks) < 6:
            deal.apply(rng.choice(deal.legal_actions()))
        seat = deal.current_seat
        assert seat is not None
        if len({card.points for card in deal.legal_cards()}) < 2:
            continue
        given = hint(seat_view(deal, seat), seed)
        assert given.ramsch and given.second is not None and given.action != PlayCard(given.second)
        assert 0 <= given.second_wins <= given.worlds and 0 <= given.wins <= given.worlds > 0
        text = hint_text(given, Lang("en"))
        assert f"in {given.wins} of {given.worlds} sampled worlds" in text and "most points" in text
        twin = hidden_twin(deal, seat)  # only cards the player cannot see differ: the same hint
        if twin is not None:
            assert seat_view(twin, seat) == seat_view(deal, seat)
            assert hint(seat_view(twin, seat), seed) == given
            twins += 1
        shown += 1
    assert shown >= 6 and twins >= 3


def hidden_twin(deal: Deal, seat: int) -> Deal | None:
    """The deal with one card of the same effective suit swapped between the other two hands (None if
    there is none): everything `seat` sees is the same."""
    suit = TRICK_TABLES[GameType.RAMSCH].effective_suit
    first, second = (seat + 1) % 3, (seat + 2) % 3
    for x in deal.hand(first):
        for y in deal.hand(second):
            if suit[x.index] == suit[y.index]:
                hands = [list(h) for h in deal.dealt_hands]
                hands[first] = [y if c == x else c for c in hands[first]]
                hands[second] = [x if c == y else c for c in hands[second]]
                twin = Deal(hands, deal.dealt_skat, deal.rules)
                for who, action in deal.history:
                    twin.apply(action, who)
                return twin
    return None
