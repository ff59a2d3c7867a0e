"""Skill ratings in messages: the rating leaderboard's pages, the rating line of a player's stats, and its chart.

Humans are ranked by the cautious estimate mu - 3 sigma once they have `MIN_RATED` rated series or challenge
days; the AI levels are rated too and listed apart (never ranked), so a person sees how they compare with
"strong".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from babel.numbers import format_decimal

from skatbot.pictures.charts import rating_chart
from skatbot.ratings import MIN_RATED, Rating, RatingPoint, RatingRow

from .i18n import MINUS, t, tn
from .languages import BY_CODE, SOURCE, Lang
from .leaderboard import PAGE_SIZE, PageOutOfRange
from .pictures import ShownPicture, _drawn


@dataclass(frozen=True, slots=True)
class RatingPage:
    page: int
    pages: int
    ranked: tuple[tuple[int, RatingRow], ...]  # (rank, row) of this page's humans
    ai: tuple[RatingRow, ...]  # the AI levels, unranked
    ranked_total: int
    unranked: int  # rated humans below the minimum of rated events
    period: str = "all"  # "week", "month": only those rated in that time, with the change of their rating in it


def decimal(lang: Lang, value: float) -> str:
    """A rating with one decimal in the reader's digits: 21.3 · 21,3."""
    text = format_decimal(round(abs(value), 1), format="0.0", locale=lang if lang in BY_CODE else SOURCE)
    return f"{MINUS}{text}" if round(value, 1) < 0 else text


def rating_page(rows: Sequence[RatingRow], page: int, page_size: int = PAGE_SIZE,
                minimum: int = MIN_RATED, period: str = "all") -> RatingPage:
    """One page of the rating ranking (rows as storage gives them, best first: for a `period` other than "all",
    those rated in it); PageOutOfRange outside."""
    humans = sorted((row for row in rows if row.level is None and row.rating.rated >= minimum),
                    key=lambda row: (-row.rating.conservative, row.rated_id))
    unranked = sum(1 for row in rows if row.level is None and row.rating.rated < minimum)
    ranked: list[tuple[int, RatingRow]] = []
    for index, row in enumerate(humans):
        tied = ranked and round(ranked[-1][1].rating.conservative, 1) == round(row.rating.conservative, 1)
        ranked.append((ranked[-1][0] if tied else index + 1, row))
    pages = max(1, -(-len(ranked) // page_size))
    if not 1 <= page <= pages:
        raise PageOutOfRange(page, pages)
    ai = tuple(sorted((row for row in rows if row.level is not None), key=lambda row: -row.rating.conservative))
    start = (page - 1) * page_size
    return RatingPage(page, pages, tuple(ranked[start:start + page_size]), ai, len(ranked), unranked, period)


def _numbers(rating: Rating, lang: Lang, change: float | None = None) -> dict[str, str]:
    numbers = {"value": decimal(lang, rating.conservative), "mu": decimal(lang, rating.mu),
               "sigma": decimal(lang, rating.sigma), "rated": tn(lang, "count.rated", rating.rated)}
    if change is not None:
        numbers["change"] = ("+" if round(change, 1) > 0 else "") + decimal(lang, change)
    return numbers


def _name(name: str) -> str:
    return name.replace("*", "").replace("_", "").replace("`", "").replace("@", "")[:40]


def rating_board_text(board: RatingPage, lang: Lang) -> str:
    """The rating board: all time, or (a week, a month) those rated in that time with how much their rating moved
    in it (a rating is the whole history's estimate: a period chooses who is listed, not what is counted)."""
    timed = board.period != "all"
    period = t(lang, f"lb.period.{board.period}")
    lines = [t(lang, "rating.title.period", period=period) if timed else t(lang, "rating.title")]
    if not board.ranked and not board.ai and not board.unranked:
        lines.append(t(lang, "rating.empty.period", period=period) if timed else t(lang, "rating.empty"))
        return "\n".join(lines)
    row_key, ai_key = ("rating.row.period", "rating.ai_row.period") if timed else ("rating.row", "rating.ai_row")
    for rank, row in board.ranked:
        lines.append(t(lang, row_key, rank=rank, name=_name(row.display_name),
                       **_numbers(row.rating, lang, row.change if timed else None)))
    if board.unranked:
        lines.append(tn(lang, "rating.unranked", board.unranked, minimum=MIN_RATED))
    if board.ai:
        lines.append("")
        lines.append(t(lang, "rating.ai_title"))
        for row in board.ai:
            lines.append(t(lang, ai_key, name=t(lang, f"level.{row.level}"),
                           **_numbers(row.rating, lang, row.change if timed else None)))
    lines.append("")
    lines.append(t(lang, "lb.footer", page=board.page, pages=board.pages, players=board.ranked_total))
    return "\n".join(lines)


def rating_stats_line(rating: Rating, lang: Lang) -> str:
    """The rating line under a player's stats."""
    return t(lang, "stats.rating", **_numbers(rating, lang))


async def rating_shown(name: str, points: Sequence[RatingPoint], lang: Lang) -> ShownPicture | None:
    """The player's rating after each rated event as a chart (None before the first)."""
    if not points:
        return None
    alt = t(lang, "picture.rating", name=name, events=len(points))
    values = [(point.at, point.mu, point.sigma) for point in points]
    picture = await _drawn(rating_chart, name, values, title=t(lang, "lb.scoring.rating"), description=alt)
    return ShownPicture(f"rating:{len(points)}", picture)
