"""The bot draws its pictures in a process of its own: the same pictures as drawn in a thread, and when that
process is gone, the picture is drawn in a thread after all (the player still gets it)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

import pytest

from skatbot.engine import Deal, RuleSet
from skatbot.engine.views import seat_view
from skatbot.pictures import cards_shown
from skatbot.ui.cards import FRENCH
from skatbot.ui.languages import Lang
from skatbot.ui.pictures import draw_in, hand_shown


@pytest.fixture
def drawing_process() -> Iterator[ProcessPoolExecutor]:
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    draw_in(pool)
    try:
        yield pool
    finally:
        draw_in(None)
        pool.shutdown(wait=True, cancel_futures=True)


async def test_a_hand_drawn_in_the_picture_process_is_the_one_drawn_in_a_thread(
        drawing_process: ProcessPoolExecutor) -> None:
    deal = Deal.new(11, RuleSet())
    there = await hand_shown(seat_view(deal, 1), FRENCH, Lang("fr"))
    draw_in(None)
    here = await hand_shown(seat_view(deal, 1), FRENCH, Lang("fr"))
    assert there.picture.png == here.picture.png
    assert there.picture.description == here.picture.description
    assert set(cards_shown(there.picture.png) or ()) == set(deal.hand(1))


async def test_when_the_picture_process_is_gone_the_picture_is_drawn_anyway(
        drawing_process: ProcessPoolExecutor) -> None:
    drawing_process.shutdown(wait=True)  # as after a crash: submitting to it fails
    deal = Deal.new(12, RuleSet())
    shown = await hand_shown(seat_view(deal, 2), FRENCH, Lang("en"))
    assert set(cards_shown(shown.picture.png) or ()) == set(deal.hand(2))
