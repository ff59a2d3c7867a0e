"""Leaderboard ranking and paging: scorings, shared ranks, AI players apart, pages out of range."""

from __future__ import annotations

import pytest

from skatbot.models import LeaderboardRow
from skatbot.ui.languages import Lang
from skatbot.ui.leaderboard import PageOutOfRange, Scoring, leaderboard_text, page_of, rank


def row(player_id: int, points: int, seeger: int = 0, won: int = 0, declared: int = 0,
        is_ai: bool = False) -> LeaderboardRow:
    return LeaderboardRow(rank=0, player_id=player_id, display_name=f"p{player_id}", is_ai=is_ai, points=points,
                          seeger=seeger, deals=10, declared=declared, won=won, series=1, series_points=points)


ROWS = [row(n, points=100 - 7 * n, seeger=n * 10, won=n % 4, declared=4) for n in range(1, 24)]
ROWS += [row(-1, points=999, seeger=999, won=9, declared=9, is_ai=True)]


def test_each_scoring_orders_the_humans_and_leaves_the_ai_out() -> None:
    assert [r.player_id for r in rank(ROWS, Scoring.LIST)][:3] == [1, 2, 3]
    assert [r.player_id for r in rank(ROWS, Scoring.SEEGER)][:3] == [23, 22, 21]
    by_won = rank(ROWS, Scoring.WON)
    assert {r.won for r in by_won[:5]} == {3} and all(not r.is_ai for r in by_won)
    assert len(by_won) == 23


def test_equal_values_share_a_rank() -> None:
    ranked = rank([row(1, 50), row(2, 50), row(3, 40)], Scoring.LIST)
    assert [(r.player_id, r.rank) for r in ranked] == [(1, 1), (2, 1), (3, 3)]


def test_pages_of_ten_and_the_last_page_holds_the_rest() -> None:
    first = page_of(ROWS, period="all", scoring=Scoring.LIST, page=1)
    last = page_of(ROWS, period="all", scoring=Scoring.LIST, page=3)
    assert (first.pages, len(first.humans), len(last.humans), first.total_humans) == (3, 10, 3, 23)
    assert [r.rank for r in last.humans] == [21, 22, 23]
    assert [r.player_id for r in first.ai] == [-1] and first.ai == last.ai


@pytest.mark.parametrize("page", [0, 4, 99])
def test_a_page_out_of_range_is_refused(page: int) -> None:
    with pytest.raises(PageOutOfRange) as refused:
        page_of(ROWS, period="all", scoring=Scoring.LIST, page=page)
    assert refused.value.values == {"page": page, "n": 3}


def test_an_empty_server_has_one_empty_page() -> None:
    board = page_of([], period="week", scoring=Scoring.SEEGER, page=1)
    assert board.pages == 1 and "No deals have been played" in leaderboard_text(board, Lang("en"))
    assert "noch nicht gespielt" in leaderboard_text(board, Lang("de"))


def test_the_page_text_marks_computer_players() -> None:
    text = leaderboard_text(page_of(ROWS, period="month", scoring=Scoring.WON, page=2), Lang("en"))
    assert "this month · games won" in text and "Page 2 of 3 · 23 ranked players" in text
    assert "🤖 p-1 — 9" in text and text.count("🤖") == 2  # the heading and the one AI
