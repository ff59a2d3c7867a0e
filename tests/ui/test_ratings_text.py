"""The rating leaderboard's text: humans ranked by mu - 3 sigma once rated often enough, AI levels apart."""

from __future__ import annotations

import pytest

from skatbot.ratings import MIN_RATED, Rating, RatingRow, level_identity
from skatbot.ui.languages import Lang
from skatbot.ui.leaderboard import PageOutOfRange
from skatbot.ui.ratings_text import decimal, rating_board_text, rating_page


def row(rated_id: int, name: str, mu: float, sigma: float, series: int = MIN_RATED, days: int = 0) -> RatingRow:
    level = {level_identity(lvl): lvl for lvl in ("easy", "normal", "strong")}.get(rated_id)
    return RatingRow(rated_id, name, level, Rating(mu, sigma, series, days))


ROWS = [row(1, "Anna", 30.0, 2.0), row(2, "Bert", 35.0, 5.0), row(3, "Carla", 40.0, 1.0, series=1, days=1),
        row(4, "Dora", 28.0, 1.0), row(level_identity("strong"), "strong", 29.0, 1.5)]


def test_humans_rank_by_the_cautious_estimate_and_the_minimum_counts() -> None:
    board = rating_page(ROWS, 1)
    assert [(rank, r.display_name) for rank, r in board.ranked] == [(1, "Dora"), (2, "Anna"), (3, "Bert")]
    assert board.unranked == 1 and board.ranked_total == 3 and [r.level for r in board.ai] == ["strong"]
    text = rating_board_text(board, Lang("en"))
    assert "1. **Dora** — 25.0 (μ 28.0, σ 1.0; 3 series or days rated)" in text
    assert "🤖 strong — 24.5 (μ 29.0, σ 1.5; 3 series or days rated)" in text
    assert "1 more player has a rating but fewer than 3 rated series or challenge days." in text
    assert "Carla" not in text


def test_equal_estimates_share_a_rank_and_pages_are_cut() -> None:
    rows = [row(n, f"P{n}", 30.0, 1.0) for n in range(1, 13)]
    first, second = rating_page(rows, 1), rating_page(rows, 2)
    assert {rank for rank, _ in first.ranked} == {1} and len(first.ranked) == 10 and len(second.ranked) == 2
    assert first.pages == 2
    with pytest.raises(PageOutOfRange):
        rating_page(rows, 3)


@pytest.mark.parametrize(("lang", "value", "text"), [("en", 21.34, "21.3"), ("de", 21.35, "21,4"),
                                                     ("fr", -3.0, "\u22123,0"), ("da", 0.04, "0,0")])
def test_ratings_are_written_in_the_readers_digits(lang: Lang, value: float, text: str) -> None:
    assert decimal(lang, value) == text


@pytest.mark.parametrize("lang", ["en", "de", "da", "fr"])
def test_every_language_writes_the_board(lang: Lang) -> None:
    text = rating_board_text(rating_page(ROWS, 1), lang)
    assert "Dora" in text and "μ" in text and "{" not in text
    assert rating_board_text(rating_page([], 1), lang).count("\n") == 1
