"""Leaderboards, player statistics and histories against hand-computed expectations.

Server 100: table A (Anna, Bert, Carla), table B (Anna, Bert, the AI); server 200 has one deal of Anna's
that must never show on server 100. Now is 2026-11-30 12:00 UTC; the week starts 2026-11-23 12:00,
and deals B3/B4 sit one hour inside and outside that start on the same UTC day.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from skatbot.engine import OFFICIAL, GameType
from skatbot.models import Deck, LeaderboardRow
from skatbot.storage import NotFound, Player, Window
from skatbot.ui.languages import Lang
from tests.storage.storage_helpers import NOW, AnyStorage, add_players, record

ANNA, BERT, CARLA, AI = 1, 2, 3, -1
DAY, HOUR = timedelta(days=1), timedelta(hours=1)

#        table number declarer game  hand   ouvert won  scores                      seeger                             when
CLUBS, HEARTS, GRAND = GameType.CLUBS, GameType.HEARTS, GameType.GRAND

DEALS = [
    ("A", 1, ANNA, "clubs", False, False, True, {ANNA: 24, BERT: 0, CARLA: 0}, {ANNA: 74}, NOW - DAY),
    ("A", 2, BERT, "grand", True, False, False, {ANNA: 0, BERT: -96, CARLA: 0}, {BERT: -146, ANNA: 40, CARLA: 40},
     NOW - 3 * DAY),
    ("A", 3, CARLA, "null", False, True, True, {ANNA: 0, BERT: 0, CARLA: 46}, {CARLA: 96}, NOW - 10 * DAY),
    ("A", 4, ANNA, "spades", False, False, False, {ANNA: -44, BERT: 0, CARLA: 0}, {ANNA: -94, BERT: 40, CARLA: 40},
     NOW - 40 * DAY),
    ("B", 1, AI, "hearts", False, False, True, {ANNA: 0, BERT: 0, AI: 20}, {AI: 70}, NOW - 2 * DAY),
    ("B", 2, ANNA, "grand", True, False, True, {ANNA: 96, BERT: 0, AI: 0}, {ANNA: 146}, NOW - 8 * DAY),
    ("B", 3, BERT, "diamonds", False, False, True, {ANNA: 0, BERT: 18, AI: 0}, {BERT: 68}, NOW - 7 * DAY + HOUR),
    ("B", 4, ANNA, "clubs", False, False, False, {ANNA: -72, BERT: 0, AI: 0}, {ANNA: -122, BERT: 40, AI: 40},
     NOW - 7 * DAY - HOUR),
]


@pytest.fixture
async def filled(storage: AnyStorage) -> AnyStorage:
    await add_players(storage, Player(ANNA, "Anna"), Player(BERT, "Bert"), Player(CARLA, "Carla"),
                      Player(AI, "AI Easy", is_ai=True))
    tables = {}
    for name, seats in (("A", (ANNA, BERT, CARLA)), ("B", (ANNA, BERT, AI))):
        table = await storage.tables.create(server_id=100, channel_id=1, creator_id=ANNA, rule_preset="official",
                                            rules=OFFICIAL.to_dict(), series_length=4, seats=seats, now=NOW - 50 * DAY)
        tables[name] = table.table_id
    for name, number, declarer, game, hand, ouvert, won, scores, seeger, when in DEALS:
        await storage.deals.store(record=record(
            table_id=tables[name], number=number, server_id=100, declarer=declarer, game=game, hand=hand,
            ouvert=ouvert, won=won, scores=scores, seeger=seeger, finished_at=when))
    await storage.deals.finish_series(table_id=tables["A"], now=NOW - 12 * HOUR)
    other = await storage.tables.create(server_id=200, channel_id=2, creator_id=ANNA, rule_preset="official",
                                        rules={}, series_length=1, seats=(ANNA, BERT, CARLA), now=NOW)
    await storage.deals.store(record=record(table_id=other.table_id, number=1, server_id=200, declarer=ANNA,
                                            scores={ANNA: 1000, BERT: 0, CARLA: 0}, finished_at=NOW - DAY))
    return storage


def _rows(rows: tuple[LeaderboardRow, ...]) -> list[tuple[object, ...]]:
    return [(r.rank, r.display_name, r.points, r.seeger, r.deals, r.declared, r.won, r.series, r.series_points)
            for r in rows]


async def test_week_leaderboard_is_exact_at_the_window_start(filled: AnyStorage) -> None:
    board = await filled.stats.leaderboard(server_id=100, window=Window.WEEK, now=NOW)
    assert _rows(board.humans) == [
        (1, "Anna", 24, 114, 4, 1, 1, 1, -20),
        (2, "Carla", 0, 40, 2, 0, 0, 1, 46),
        (3, "Bert", -78, -78, 4, 2, 1, 1, -96),
    ]
    assert _rows(board.ai) == [(1, "AI Easy", 20, 70, 2, 1, 1, 0, 0)]
    assert board.humans[2].win_share == 0.5 and board.humans[1].win_share == 0.0
    human, ai = board.humans[0], board.ai[0]
    assert human.series_points / human.series == -20.0 and ai.series_points == 0


async def test_month_and_all_time_leaderboards(filled: AnyStorage) -> None:
    month = await filled.stats.leaderboard(server_id=100, window=Window.MONTH, now=NOW)
    assert _rows(month.humans) == [
        (1, "Anna", 48, 138, 7, 3, 2, 1, -20),
        (2, "Carla", 46, 136, 3, 1, 1, 1, 46),
        (3, "Bert", -78, -38, 7, 2, 1, 1, -96),
    ]
    assert _rows(month.ai) == [(1, "AI Easy", 20, 110, 4, 1, 1, 0, 0)]
    everything = await filled.stats.leaderboard(server_id=100, window=Window.ALL, now=NOW)
    assert _rows(everything.humans) == [
        (1, "Carla", 46, 176, 4, 1, 1, 1, 46),
        (2, "Anna", 4, 44, 8, 4, 2, 1, -20),
        (3, "Bert", -78, 2, 8, 2, 1, 1, -96),
    ]


async def test_the_leaderboard_ranks_by_seeger_fabian_points_on_request(filled: AnyStorage) -> None:
    board = await filled.stats.leaderboard(server_id=100, window=Window.ALL, now=NOW, by="seeger")
    assert [(r.rank, r.display_name, r.seeger) for r in board.humans] == [
        (1, "Carla", 176), (2, "Anna", 44), (3, "Bert", 2)]
    month = await filled.stats.leaderboard(server_id=100, window=Window.MONTH, now=NOW, by="seeger")
    assert [(r.display_name, r.seeger) for r in month.humans] == [("Anna", 138), ("Carla", 136), ("Bert", -38)]
    with pytest.raises(ValueError, match="rank by one of points, seeger"):
        await filled.stats.leaderboard(server_id=100, window=Window.ALL, now=NOW, by="luck")


async def test_leaderboards_page_and_keep_servers_apart(filled: AnyStorage) -> None:
    first = await filled.stats.leaderboard(server_id=100, window=Window.WEEK, now=NOW, page=1, page_size=2)
    second = await filled.stats.leaderboard(server_id=100, window=Window.WEEK, now=NOW, page=2, page_size=2)
    assert [r.display_name for r in first.humans] == ["Anna", "Carla"]
    assert [(r.rank, r.display_name) for r in second.humans] == [(3, "Bert")]
    assert first.total_humans == 3 and first.pages == 2
    other = await filled.stats.leaderboard(server_id=200, window=Window.ALL, now=NOW)
    assert [(r.display_name, r.points) for r in other.humans] == [("Anna", 1000), ("Bert", 0), ("Carla", 0)]
    empty = await filled.stats.leaderboard(server_id=300, window=Window.ALL, now=NOW)
    assert empty.humans == () and empty.ai == () and empty.pages == 1
    with pytest.raises(ValueError):
        await filled.stats.leaderboard(server_id=100, window=Window.ALL, now=NOW, page=0)


async def test_a_later_now_moves_the_window(filled: AnyStorage) -> None:
    board = await filled.stats.leaderboard(server_id=100, window=Window.WEEK, now=NOW + 2 * DAY + 30 * timedelta(
        minutes=1))
    # Since 2026-11-25 12:30: A1 (Nov 29), B1 (Nov 28) and A2 (Nov 27) remain; B3 has dropped out.
    assert [(r.display_name, r.points, r.deals) for r in board.humans] == [
        ("Anna", 24, 3), ("Carla", 0, 2), ("Bert", -96, 3)]


async def test_player_stats_all_time(filled: AnyStorage) -> None:
    anna = await filled.stats.player_stats(server_id=100, player_id=ANNA, window=Window.ALL, now=NOW)
    assert (anna.display_name, anna.deals, anna.points, anna.seeger) == ("Anna", 8, 4, 44)
    assert anna.games_by_type == {"suits": 3, "grand": 1, "null": 0, "hand": 1, "ouvert": 0}
    assert (anna.declared, anna.declared_won) == (4, 2)
    assert (anna.defended, anna.defended_won) == (4, 1)
    assert anna.biggest_win is not None and anna.biggest_win.score == 96
    assert anna.biggest_loss is not None and anna.biggest_loss.score == -72
    assert anna.best_series is not None and (anna.best_series.place, anna.best_series.total) == (2, -20)
    carla = await filled.stats.player_stats(server_id=100, player_id=CARLA, window=Window.ALL, now=NOW)
    assert carla.games_by_type == {"suits": 0, "grand": 0, "null": 1, "hand": 0, "ouvert": 1}
    assert carla.best_series is not None and carla.best_series.place == 1
    assert carla.biggest_loss is None


async def test_player_stats_in_the_week(filled: AnyStorage) -> None:
    anna = await filled.stats.player_stats(server_id=100, player_id=ANNA, window=Window.WEEK, now=NOW)
    assert (anna.deals, anna.points, anna.declared, anna.declared_won, anna.defended, anna.defended_won) == (
        4, 24, 1, 1, 3, 1)
    assert anna.biggest_loss is None and anna.biggest_win is not None and anna.biggest_win.score == 24
    ai = await filled.stats.player_stats(server_id=100, player_id=AI, window=Window.WEEK, now=NOW)
    assert ai.is_ai and ai.best_series is None
    with pytest.raises(NotFound):
        await filled.stats.player_stats(server_id=100, player_id=99, window=Window.ALL, now=NOW)


async def test_histories_are_newest_first(filled: AnyStorage) -> None:
    server = await filled.stats.server_history(server_id=100, limit=3)
    assert [(d.deal_number, d.game, d.won) for d in server] == [(1, CLUBS, True), (1, HEARTS, True),
                                                                (2, GRAND, False)]
    bert = await filled.stats.player_history(server_id=100, player_id=BERT, limit=3)
    assert [(d.game, d.player_score) for d in bert] == [(CLUBS, 0), (HEARTS, 0), (GRAND, -96)]
    with pytest.raises(ValueError):
        await filled.stats.server_history(server_id=100, limit=0)


async def test_a_history_shows_a_kontra_and_re_deal_at_the_score_the_list_wrote(storage: AnyStorage) -> None:
    """The official score of a lost 54 is -108; with Kontra and Re the list wrote -432, and so does the history."""
    from dataclasses import replace

    from skatbot.ui.server_text import history_text

    await add_players(storage, Player(ANNA, "Anna"), Player(BERT, "Bert"), Player(CARLA, "Carla"))
    table = await storage.tables.create(server_id=100, channel_id=1, creator_id=ANNA, rule_preset="pub",
                                        rules=OFFICIAL.to_dict(), series_length=1, seats=(ANNA, BERT, CARLA),
                                        now=NOW - DAY)
    lost = record(table_id=table.table_id, number=1, server_id=100, declarer=ANNA, game="grand", won=False,
                  value=54, scores={ANNA: -432, BERT: 0, CARLA: 0}, finished_at=NOW)
    await storage.deals.store(record=replace(lost, score=-108, kontra=True, re=True))
    server = await storage.stats.server_history(server_id=100)
    bert = await storage.stats.player_history(server_id=100, player_id=BERT)
    assert [d.score for d in server] == [-432] and [(d.score, d.player_score) for d in bert] == [(-432, 0)]
    assert "value 54 (−432)" in history_text(server, {ANNA: "Anna"}, Lang("en"), Deck.FRENCH, None)
