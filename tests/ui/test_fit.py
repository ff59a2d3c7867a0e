"""Text fitted to Discord's limits: never longer than the limit, shortened text marked by "…"."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skatbot.ui.fit import ELLIPSIS, Limit, fit, fit_lines


def test_text_within_the_limit_is_left_alone() -> None:
    assert fit("Table #1 is open.", Limit.CONTENT) == "Table #1 is open."
    assert fit("x" * 80, Limit.BUTTON_LABEL) == "x" * 80


def test_long_text_ends_in_an_ellipsis_at_exactly_the_limit() -> None:
    assert fit("x" * 6000, Limit.CONTENT) == "x" * 1999 + ELLIPSIS
    assert fit("Grand Hand Schneider angesagt Schwarz angesagt Ouvert", 20) == "Grand Hand Schneide…"


def test_lines_are_cut_at_a_line_break_near_the_end() -> None:
    text = "\n".join(f"line {n:02}" for n in range(30))  # 7 characters a line
    fitted = fit(text, 50)
    assert fitted == "line 00\nline 01\nline 02\nline 03\nline 04\nline 05\n" + ELLIPSIS


def test_every_limit_is_discords() -> None:
    assert (Limit.CONTENT, Limit.EMBED_DESCRIPTION, Limit.FIELD_VALUE, Limit.EMBED_TITLE, Limit.BUTTON_LABEL,
            Limit.OPTION_LABEL, Limit.CHOICE_NAME, Limit.EMBED_TOTAL) == (2000, 4096, 1024, 256, 80, 100, 100, 6000)


def test_a_limit_below_one_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        fit("x", 0)


@given(st.text(max_size=300), st.integers(min_value=1, max_value=120))
def test_fitted_text_never_exceeds_the_limit(text: str, limit: int) -> None:
    fitted = fit(text, limit)
    assert len(fitted) <= limit
    assert fitted == text or fitted.endswith(ELLIPSIS)


def test_fit_lines_drops_old_lines_and_a_too_long_single_line_is_cut() -> None:
    assert fit_lines(["title", "x" * 500], 100, first_droppable=1) == "title\n" + ELLIPSIS
    assert fit_lines(["y" * 500], 100) == "y" * 99 + ELLIPSIS
