"""Leaderboards, player statistics and histories, per server.

Windows are exact: whole UTC days inside the window come from the `player_days` summary, the partial
first day from the raw score rows, so a leaderboard costs a few hundred rows whatever the history size.
The caller passes `now`; nothing here reads a clock.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from skatbot.engine import parse_game_text
from skatbot.models import (
    DealSummary,
    Leaderboard,
    LeaderboardRow,
    PlayerStats,
    ScoreMark,
    SeriesStanding,
    Window,
    from_seconds,
    to_seconds,
)

from ..errors import NotFound
from .connection import SqlDatabase
from .deals import DAY

SUIT_GAMES = ("diamonds", "hearts", "spades", "clubs")
_NO_WINDOW_DAY = -(2**40)

_LEADERBOARD = """
WITH parts AS (
    SELECT player_id, points, seeger, deals, declared, won FROM player_days
    WHERE server_id = :server AND day >= :first_day
    UNION ALL
    SELECT player_id, score, seeger,
           CASE WHEN role <> 'out' THEN 1 ELSE 0 END,
           CASE WHEN role = 'declarer' THEN 1 ELSE 0 END,
           CASE WHEN role = 'declarer' AND won = 1 THEN 1 ELSE 0 END
    FROM deal_scores WHERE server_id = :server AND finished_at >= :since AND finished_at < :first_day_start
), totals AS (
    SELECT player_id, CAST(SUM(points) AS BIGINT) AS points, CAST(SUM(seeger) AS BIGINT) AS seeger,
           CAST(SUM(deals) AS BIGINT) AS deals, CAST(SUM(declared) AS BIGINT) AS declared,
           CAST(SUM(won) AS BIGINT) AS won
    FROM parts GROUP BY player_id
), series AS (
    SELECT player_id, COUNT(*) AS series, CAST(SUM(total) AS BIGINT) AS series_points FROM series_results
    WHERE server_id = :server AND finished_at >= :since GROUP BY player_id
)
SELECT t.player_id, p.display_name, p.is_ai, t.points, t.seeger, t.deals, t.declared, t.won,
       COALESCE(s.series, 0) AS series, COALESCE(s.series_points, 0) AS series_points
FROM totals t JOIN players p ON p.player_id = t.player_id LEFT JOIN series s ON s.player_id = t.player_id
"""
RANKINGS = ("points", "seeger")


def _bounds(window: Window, now: datetime) -> dict[str, int]:
    """Named parameters for a window: the exact start, and the first whole day inside it."""
    since = window.since(now)
    if since is None:
        return {"since": 0, "first_day": _NO_WINDOW_DAY, "first_day_start": 0}
    start = to_seconds(since)
    first_day = -(-start // DAY)
    return {"since": start, "first_day": first_day, "first_day_start": first_day * DAY}


class SqlStats:
    def __init__(self, database: SqlDatabase) -> None:
        self._db = database

    async def leaderboard(self, *, server_id: int, window: Window, now: datetime, page: int = 1,
                          page_size: int = 10, by: str = "points") -> Leaderboard:
        """A page of the human ranking by list points or Seeger-Fabian points (`by`); AI players are listed
        apart, not ranked among humans."""
        if page < 1 or not 1 <= page_size <= 100:
            raise ValueError("page starts at 1 and page_size is between 1 and 100")
        if by not in RANKINGS:
            raise ValueError(f"rank by one of {', '.join(RANKINGS)}")
        params: dict[str, object] = {"server": server_id, **_bounds(window, now)}
        rows = await self._db.fetch_all(_LEADERBOARD, params)
        first, second = ("points", "seeger") if by == "points" else ("seeger", "points")
        rows.sort(key=lambda row: (-row[first], -row[second], row["player_id"]))
        humans: list[LeaderboardRow] = []
        ai: list[LeaderboardRow] = []
        for row in rows:
            group = ai if row["is_ai"] else humans
            group.append(LeaderboardRow(
                rank=len(group) + 1, player_id=row["player_id"], display_name=row["display_name"],
                is_ai=bool(row["is_ai"]), points=row["points"], seeger=row["seeger"], deals=row["deals"],
                declared=row["declared"], won=row["won"], series=row["series"],
                series_points=row["series_points"]))
        start = (page - 1) * page_size
        return Leaderboard(server_id, window, page, page_size, len(humans),
                           tuple(humans[start:start + page_size]), tuple(ai))

    async def player_stats(self, *, server_id: int, player_id: int, window: Window, now: datetime) -> PlayerStats:
        params = {"server": server_id, "player": player_id, "since": _bounds(window, now)["since"]}
        async with self._db.reading() as connection:
            async with connection.execute("SELECT display_name, is_ai FROM players WHERE player_id = :player",
                                          params) as cursor:
                player = await cursor.fetchone()
            if player is None:
                raise NotFound(f"no player {player_id}")
            async with connection.execute(
                    "SELECT COUNT(CASE WHEN role <> 'out' THEN 1 END), CAST(COALESCE(SUM(score), 0) AS BIGINT), "
                    "CAST(COALESCE(SUM(seeger), 0) AS BIGINT), COUNT(CASE WHEN role = 'declarer' THEN 1 END), "
                    "COUNT(CASE WHEN role = 'declarer' AND won = 1 THEN 1 END), "
                    "COUNT(CASE WHEN role = 'defender' THEN 1 END), "
                    "COUNT(CASE WHEN role = 'defender' AND won = 1 THEN 1 END) FROM deal_scores "
                    "WHERE server_id = :server AND player_id = :player AND finished_at >= :since",
                    params) as cursor:
                totals = await cursor.fetchone()
            assert totals is not None  # an aggregate query returns one row
            async with connection.execute(
                    "SELECT game, hand, ouvert, COUNT(*) FROM deals WHERE server_id = :server "
                    "AND declarer_id = :player AND finished_at >= :since GROUP BY game, hand, ouvert",
                    params) as cursor:
                by_type = {"suits": 0, "grand": 0, "null": 0, "hand": 0, "ouvert": 0}
                for game, hand, ouvert, count in await cursor.fetchall():
                    by_type["suits" if game in SUIT_GAMES else game] = by_type.get(
                        "suits" if game in SUIT_GAMES else game, 0) + count
                    by_type["hand"] += count if hand else 0
                    by_type["ouvert"] += count if ouvert else 0
            marks = []
            for condition, order in (("score > 0", "DESC"), ("score < 0", "ASC")):
                async with connection.execute(
                        f"SELECT score, deal_id FROM deal_scores WHERE server_id = :server AND player_id = :player "
                        f"AND finished_at >= :since AND {condition} ORDER BY score {order}, finished_at, deal_id "
                        "LIMIT 1", params) as cursor:
                    mark = await cursor.fetchone()
                marks.append(ScoreMark(mark[0], mark[1]) if mark else None)
            async with connection.execute(
                    "SELECT table_id, place, total, seeger, deals FROM series_results WHERE server_id = :server "
                    "AND player_id = :player AND finished_at >= :since ORDER BY total DESC, finished_at, table_id "
                    "LIMIT 1", params) as cursor:
                best = await cursor.fetchone()
        return PlayerStats(
            server_id=server_id, player_id=player_id, display_name=player[0], is_ai=bool(player[1]),
            deals=totals[0], points=totals[1], seeger=totals[2], games_by_type=by_type, declared=totals[3],
            declared_won=totals[4], defended=totals[5], defended_won=totals[6], biggest_win=marks[0],
            biggest_loss=marks[1],
            best_series=SeriesStanding(player_id, best[1], best[2], best[3], best[4]) if best else None,
            best_series_table=best[0] if best else None)

    async def server_history(self, *, server_id: int, limit: int = 10) -> list[DealSummary]:
        """The server's most recent deals, newest first."""
        rows = await self._db.fetch_all(
            f"SELECT deal_id, table_id, deal_number, declarer_id, game, contract, won, game_value, {_WRITTEN}, "
            "finished_at FROM deals d WHERE server_id = :server ORDER BY finished_at DESC, deal_id DESC LIMIT :limit",
            {"server": server_id, "limit": _limit(limit)})
        return [_summary(row) for row in rows]

    async def player_history(self, *, server_id: int, player_id: int, limit: int = 10) -> list[DealSummary]:
        """One player's most recent deals on a server, newest first, with what they were written."""
        rows = await self._db.fetch_all(
            "SELECT d.deal_id, d.table_id, d.deal_number, d.declarer_id, d.game, d.contract, d.won, d.game_value, "
            f"{_WRITTEN}, d.finished_at, ds.score AS player_score FROM deal_scores ds JOIN deals d "
            "ON d.deal_id = ds.deal_id WHERE ds.server_id = :server AND ds.player_id = :player "
            "ORDER BY ds.finished_at DESC, ds.deal_id DESC LIMIT :limit",
            {"server": server_id, "player": player_id, "limit": _limit(limit)})
        return [_summary(row, row["player_score"]) for row in rows]


_WRITTEN = ("COALESCE((SELECT w.score FROM deal_scores w WHERE w.deal_id = d.deal_id AND w.role = 'declarer'), "
            "d.score) AS score")
"""The declarer's score as the list wrote it (Kontra, Re, Bock and the table's loss rule included)."""


def _limit(limit: int) -> int:
    if not 1 <= limit <= 100:
        raise ValueError("limit must be between 1 and 100")
    return limit


def _summary(row: sqlite3.Row, player_score: int | None = None) -> DealSummary:
    return DealSummary(row["deal_id"], row["table_id"], row["deal_number"], row["declarer_id"],
                       parse_game_text(row["game"]), row["contract"], bool(row["won"]), row["game_value"], row["score"],
                       from_seconds(row["finished_at"]), player_score)
