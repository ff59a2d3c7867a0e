"""Scores, boards and percentiles of challenge days: plain values, computed from stored results alone.

The stored shape of a result (storage's `challenge_results`, what ratings read): one row per player,
server, day and deal with the player's Seeger-Fabian score and the par of that deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from skatbot.engine import DealResult
from skatbot.engine.scoring import seeger_defender_bonus, seeger_fabian_points


def seeger_fabian_score(result: DealResult, seat: int) -> int:
    """What `seat` is written for one deal by Seeger-Fabian (three players): the declarer value + 50 won,
    -2 x value - 50 lost; each defender 40 when the declarer loses; nothing for a deal passed in."""
    if result.declarer is None:
        return 0
    if result.declarer == seat:
        return seeger_fabian_points(result.value, result.won, result.kontra, result.re)
    return 0 if result.won else seeger_defender_bonus(3)


@dataclass(frozen=True, slots=True)
class ChallengeScore:
    """One finished challenge deal of one player: the stored result row."""

    day: date
    player_id: int
    server_id: int
    number: int  # the deal of the day, 0 ..
    score: int  # the player's Seeger-Fabian score
    par: int  # the strong AI's score in the same seat against the same opponents

    @property
    def margin(self) -> int:
        return self.score - self.par


@dataclass(frozen=True, slots=True)
class BoardRow:
    """A player's line on a board: totals over their deals; ranked by score against par."""

    player_id: int
    name: str
    deals: int
    score: int
    par: int
    days: int = 1

    @property
    def margin(self) -> int:
        return self.score - self.par

    @property
    def per_deal(self) -> Fraction:
        """Score against par per deal (exact, so equal averages tie)."""
        return Fraction(self.margin, self.deals) if self.deals else Fraction(0)


def board(scores: Iterable[ChallengeScore], names: dict[int, str]) -> list[BoardRow]:
    """The players' totals, best first: by score against par, then by score, then by name."""
    totals: dict[int, list[int]] = {}
    days: dict[int, set[date]] = {}
    for row in scores:
        total = totals.setdefault(row.player_id, [0, 0, 0])
        total[0] += 1
        total[1] += row.score
        total[2] += row.par
        days.setdefault(row.player_id, set()).add(row.day)
    rows = [BoardRow(player, names.get(player, str(player)), deals, score, par, len(days[player]))
            for player, (deals, score, par) in totals.items()]
    return sorted(rows, key=lambda row: (-row.margin, -row.score, row.name.casefold(), row.player_id))


def week_board(scores: Iterable[ChallengeScore], names: dict[int, str]) -> list[BoardRow]:
    """A week's totals, best first by score against par per deal, then more deals played, then by name. The
    days of a week may differ in their number of deals (the server's setting, 3 to 12): summed, a day of twelve
    deals would weigh four times one of three, and a player who played more days would rise (or fall) by the
    volume alone; per deal, every deal weighs the same and the player is compared by how well they played."""
    return sorted(board(scores, names),
                  key=lambda row: (-row.per_deal, -row.deals, row.name.casefold(), row.player_id))


def percentile(mine: int, margins: Sequence[int]) -> int:
    """The share (0-100) of the others in `margins` (everyone's, one's own `mine` included once) that `mine` is
    at least as good as: 100 at the top or alone, 0 below everyone."""
    others = len(margins) - 1
    if others <= 0:
        return 100
    at_most = sum(1 for margin in margins if margin <= mine) - 1  # oneself
    return round(100 * at_most / others)


def field_average(scores: Iterable[int]) -> float | None:
    """The field's average score of one deal (None before anyone played it)."""
    values = list(scores)
    return sum(values) / len(values) if values else None
