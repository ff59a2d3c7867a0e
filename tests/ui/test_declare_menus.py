"""The declaration menus offer every declarable game, within Discord's 25 options per menu."""

from __future__ import annotations

import pytest

from skatbot.engine import HOLD, PASS, PICK_UP, Bid, Deal, Declare, RuleSet
from skatbot.engine.games import Contract
from skatbot.engine.views import seat_view
from skatbot.ui.controls import (
    CUSTOM_ID_LIMIT,
    MoveButton,
    MoveControl,
    MoveMenu,
    hand_view,
    move_id,
    parse_control,
)
from skatbot.ui.languages import Lang


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
    view = hand_view(7, 0, seat_view(deal, deal.current_seat), Lang("en"))
    menus = [item for item in view.children if isinstance(item, MoveMenu)]
    assert all(1 <= len(menu.item.options) <= 25 for menu in menus)
    assert len({menu.item.custom_id for menu in menus}) == len(menus)
    offered = []
    for menu in menus:
        for option in menu.item.options:  # each option's value is the action's own text
            chosen = parse_control(str(menu.item.custom_id), (option.value,))
            assert isinstance(chosen, MoveControl) and chosen.table_id == 7 and chosen.seq == 0
            offered.append(chosen.action)
    legal = [a for a in deal.legal_actions() if isinstance(a, Declare)]
    assert sorted(map(str, offered)) == sorted(map(str, legal))


def test_every_move_fits_a_custom_id_and_reads_back() -> None:
    """Discord's custom_id holds 100 characters: the longest action text (a declaration with every
    announcement) fits with a table id and moment of 19 and 9 digits, and every drawn action reads back."""
    longest = Declare(Contract.parse("diamonds hand schneider schwarz ouvert musik"))
    custom_id = move_id(2**63 - 1, 999_999_999, longest)
    assert len(custom_id) <= CUSTOM_ID_LIMIT
    assert parse_control(custom_id) == MoveControl(2**63 - 1, 999_999_999, longest)
    deal = Deal.new(5)
    assert deal.current_seat is not None
    buttons = [item for item in hand_view(3, 12, seat_view(deal, deal.current_seat), Lang("en")).children
               if isinstance(item, MoveButton)]
    assert buttons and all(parse_control(str(b.item.custom_id)) == b.control for b in buttons)
