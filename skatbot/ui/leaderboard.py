"""`/skat scores leaderboard`: rank the server's players by a scoring, cut pages, write the page.

Storage ranks by list points; the other scorings (Seeger-Fabian points, games won as declarer) re-rank
the same rows here. Humans are ranked; computer players are listed apart and never take a place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import ClassVar

from skatbot.engine.errors import Refusal
from skatbot.models import LeaderboardRow, Window

from .i18n import number, signed, t, tn
from .languages import Lang
from .names import player_name_of

PAGE_SIZE = 10
PERIODS = {"week": Window.WEEK, "month": Window.MONTH, "all": Window.ALL}


class Scoring(Enum):
    LIST = "list"  # list points under each table's rules
    SEEGER = "seeger"  # Seeger-Fabian points
    WON = "won"  # games won as declarer

    def value_of(self, row: LeaderboardRow) -> int:
        if self is Scoring.LIST:
            return row.points
        if self is Scoring.SEEGER:
            return row.seeger
        return row.won

    def sort_key(self, row: LeaderboardRow) -> tuple[float, ...]:
        if self is Scoring.LIST:
            return (-row.points, -row.seeger, row.player_id)
        if self is Scoring.SEEGER:
            return (-row.seeger, -row.points, row.player_id)
        return (-row.won, -row.win_share, -row.points, row.player_id)


class PageOutOfRange(Refusal):
    """A page past the ranking's last (`n` pages: the catalog's plural count)."""

    whole = True
    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = {"lb.error.page": ("page", "n")}

    def __init__(self, page: int, pages: int) -> None:
        super().__init__("lb.error.page", page=page, n=pages)

    def __reduce__(self) -> tuple[object, ...]:
        return PageOutOfRange, (self.values["page"], self.values["n"])


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    period: str
    scoring: Scoring
    page: int
    pages: int
    humans: tuple[LeaderboardRow, ...]  # this page's ranked humans
    ai: tuple[LeaderboardRow, ...]  # every computer player, unranked
    total_humans: int


def rank(rows: list[LeaderboardRow] | tuple[LeaderboardRow, ...], scoring: Scoring) -> list[LeaderboardRow]:
    """Humans in order of the scoring, ranks 1..n (equal values share a rank); AI rows are dropped."""
    humans = sorted((row for row in rows if not row.is_ai), key=scoring.sort_key)
    out: list[LeaderboardRow] = []
    for index, row in enumerate(humans):
        same = out and scoring.value_of(out[-1]) == scoring.value_of(row)
        out.append(replace(row, rank=out[-1].rank if same else index + 1))
    return out


def page_of(rows: list[LeaderboardRow] | tuple[LeaderboardRow, ...], *, period: str, scoring: Scoring, page: int,
            page_size: int = PAGE_SIZE) -> LeaderboardPage:
    """One page of the ranking; PageOutOfRange when `page` is not between 1 and the last page."""
    ranked = rank(rows, scoring)
    pages = max(1, -(-len(ranked) // page_size))
    if not 1 <= page <= pages:
        raise PageOutOfRange(page, pages)
    start = (page - 1) * page_size
    ai = tuple(sorted((row for row in rows if row.is_ai), key=scoring.sort_key))
    return LeaderboardPage(period, scoring, page, pages, tuple(ranked[start:start + page_size]), ai, len(ranked))


def _value(scoring: Scoring, row: LeaderboardRow, lang: Lang) -> str:
    """Points with their sign (+140, −30), games won as a count; both in the reader's digits."""
    value = scoring.value_of(row)
    return number(lang, value) if scoring is Scoring.WON else signed(lang, value)


def leaderboard_text(board: LeaderboardPage, lang: Lang) -> str:
    scoring = board.scoring
    lines = [t(lang, "lb.title", period=t(lang, f"lb.period.{board.period}"),
               scoring=t(lang, f"lb.scoring.{scoring.value}"))]
    if not board.humans and not board.ai:
        lines.append(t(lang, "lb.empty"))
        return "\n".join(lines)
    for row in board.humans:
        lines.append(t(lang, "lb.row", rank=row.rank, name=_name(row.display_name), value=_value(scoring, row, lang),
                       deals=tn(lang, "count.deals", row.deals), won=row.won, declared=row.declared))
    if not board.humans:
        lines.append(t(lang, "lb.no_humans"))
    if board.ai:
        lines.append("")
        lines.append(t(lang, "lb.ai_title"))
        for row in board.ai[:PAGE_SIZE]:
            lines.append(t(lang, "lb.ai_row", name=_name(player_name_of(row.player_id, row.display_name, lang)), value=_value(scoring, row, lang),
                           deals=tn(lang, "count.deals", row.deals), won=row.won, declared=row.declared))
    lines.append("")
    lines.append(t(lang, "lb.footer", page=board.page, pages=board.pages, players=board.total_humans))
    return "\n".join(lines)


def _name(name: str) -> str:
    """A display name that cannot format the message (no markdown, no mentions)."""
    return name.replace("*", "").replace("_", "").replace("`", "").replace("@", "")[:40]
