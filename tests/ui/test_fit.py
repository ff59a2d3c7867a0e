"""Text fitted to Discord's limits: never longer than the limit, shortened text marked by "…"."""

from __future__ import annotations

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from skatbot.ui.fit import ELLIPSIS, Limit, fit, fit_embed, fit_lines
from tests.e2e.fakediscord.validation import check_message


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


def test_an_embed_is_fitted_field_by_field_and_in_total() -> None:
    embed = discord.Embed(title="T" * 300, description="D" * 5000)
    embed.set_footer(text="F" * 3000)
    embed.set_author(name="A" * 300)
    for _ in range(30):
        embed.add_field(name="N" * 300, value="V" * 2000)
    fitted = fit_embed(embed)
    assert not check_message({"embeds": [fitted.to_dict()]})  # Discord's own checks, as the fake makes them
    assert len(fitted) <= Limit.EMBED_TOTAL and len(fitted.fields) == 25
    assert fitted.title == "T" * 255 + ELLIPSIS and fitted.description and fitted.description.endswith(ELLIPSIS)


def test_a_small_embed_is_left_alone() -> None:
    embed = discord.Embed(title="Deal 1", description="♣J ♠J")
    embed.add_field(name="Alice", value="+48")
    assert fit_embed(embed).to_dict() == discord.Embed(title="Deal 1", description="♣J ♠J").add_field(
        name="Alice", value="+48").to_dict()
