"""Hints before card play give the figures the hand evaluation computed: the bid the hand supports and
the game behind it, the best game with or without the skat, the points a discard buries."""

from __future__ import annotations

import re

from skatbot.ai.hints import Reason, hint
from skatbot.engine import Bid, Deal, Declare, Discard, Hold, Pass, Phase, PickUpSkat
from skatbot.engine.views import seat_view
from skatbot.ui.hint_text import hint_text


def hints_until_play(seed: int) -> list[tuple[Deal, str, object]]:
    """Follow each hint from the deal's start to the first card: (deal then, hint text, hint)."""
    deal = Deal.new(seed)
    seen = []
    while deal.phase is not Phase.PLAY and not deal.is_over:
        seat = deal.current_seat
        assert seat is not None
        given = hint(seat_view(deal, seat), seed)
        seen.append((deal.clone(), hint_text(given, "en"), given))
        deal.apply(given.action, seat)
    return seen


def test_every_decision_before_card_play_gets_a_reason_with_its_figures() -> None:
    kinds: set[Reason] = set()
    for seed in range(40):
        for deal, text, given in hints_until_play(seed):
            action, basis = given.action, given.basis
            assert basis is not None, f"no reason for {action}"
            kinds.add(basis.reason)
            assert "the strong AI's choice from its evaluation" not in text  # not the generic line
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
    texts = {lang: hint_text(given, lang) for lang in ("en", "de", "fr", "da")}
    assert len(set(texts.values())) == 4
    assert all("{" not in text for text in texts.values())
