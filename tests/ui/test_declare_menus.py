"""The declaration menus offer every declarable game, within Discord's 25 options per menu."""

from __future__ import annotations

import pytest

from skatbot.engine import HOLD, PASS, PICK_UP, Bid, Deal, Declare, RuleSet
from skatbot.engine.views import seat_view
from skatbot.ui.controls import Control, ControlSelect, control_action, hand_view


@pytest.mark.parametrize("preset", ["official", "pub", "danish"])
@pytest.mark.parametrize("pick_up", [False, True])
def test_every_declarable_game_is_in_a_menu_and_reads_back(preset: str, pick_up: bool) -> None:
    deal = Deal.new(3, RuleSet.preset(preset))
    for action in (Bid(18), HOLD, PASS, PASS):
        deal.apply(action)
    if pick_up:
        deal.apply(PICK_UP)
        deal.apply(deal.legal_actions()[0])
    assert deal.current_seat is not None
    view = hand_view(7, 0, seat_view(deal, deal.current_seat), "en")
    menus = [item for item in view.children if isinstance(item, ControlSelect)]
    assert all(1 <= len(menu.item.options) <= 25 for menu in menus)
    assert len({menu.item.custom_id for menu in menus}) == len(menus)
    offered = [control_action(Control(7, 0, "declare", "", (option.value,)))
               for menu in menus for option in menu.item.options]
    legal = [a for a in deal.legal_actions() if isinstance(a, Declare)]
    assert sorted(map(str, offered)) == sorted(map(str, legal))
