"""Ratings in storage, on both backends: a finished series and a challenge day are rated exactly once, the
AI levels are rated identities, and a rebuild from the stored results gives the same numbers."""

from __future__ import annotations

import asyncio
from datetime import date, datetime, timedelta

import pytest

from skatbot.challenge import ChallengeScore
from skatbot.engine import OFFICIAL
from skatbot.ratings import MODEL, EventKind, Rating, level_identity, rate
from skatbot.storage import NotFound, Player
from skatbot.storage.sql.connection import Statement
from tests.storage.storage_helpers import NOW, AnyStorage, add_players, record

ANNA, BERT, CARLA, DORA = 11, 12, 13, 14
STRONG_1, STRONG_2 = -301, -302  # two AI seats of the strong level
SERVER = 100
HOUR = timedelta(hours=1)


async def _series(storage: AnyStorage, seats: tuple[int, int, int], scores: list[dict[int, int]],
                  server_id: int = SERVER, finish: bool = True) -> int:
    table = await storage.tables.create(server_id=server_id, channel_id=1, creator_id=ANNA, rule_preset="official",
                                        rules=OFFICIAL.to_dict(), series_length=len(scores), seats=seats,
                                        now=NOW - 50 * HOUR)
    for number, row in enumerate(scores, start=1):
        declarer = max(row, key=lambda p: abs(row[p]))
        await storage.deals.store(record=record(table_id=table.table_id, number=number, server_id=server_id,
                                                declarer=declarer, scores=row, won=row[declarer] > 0,
                                                finished_at=NOW))
    if finish:
        await storage.deals.finish_series(table_id=table.table_id, now=NOW)
    return table.table_id


@pytest.fixture
async def people(storage: AnyStorage) -> AnyStorage:
    await add_players(storage, Player(ANNA, "Anna"), Player(BERT, "Bert"), Player(CARLA, "Carla"),
                      Player(DORA, "Dora"), Player(STRONG_1, "AI 1 (strong)", True),
                      Player(STRONG_2, "AI 2 (strong)", True))
    return storage


async def _snapshot(storage: AnyStorage) -> tuple[list[tuple[object, ...]], ...]:
    tables = []
    for sql in (
            "SELECT server_id, rated_id, mu, sigma, series, days, updated_at FROM ratings ORDER BY server_id, rated_id",
            "SELECT server_id, rated_id, seq, mu, sigma, rated_at FROM rating_history ORDER BY server_id, rated_id, seq",
            "SELECT server_id, seq, kind, event_key, results, rated_at FROM rating_events ORDER BY server_id, seq"):
        tables.append([tuple(row) for row in await storage.database.fetch_all(sql)])
    return tuple(tables)


async def test_a_finished_series_is_rated_once_by_its_list(people: AnyStorage) -> None:
    storage = people
    table = await _series(storage, (ANNA, BERT, STRONG_1), [{ANNA: 48, BERT: 0, STRONG_1: 0},
                                                            {ANNA: 0, BERT: 0, STRONG_1: -40}])
    with pytest.raises(NotFound):
        await storage.ratings.of(server_id=SERVER, player_id=ANNA)
    assert await storage.ratings.rate_series(table_id=table, now=NOW) is True
    assert await storage.ratings.rate_series(table_id=table, now=NOW + HOUR) is False  # once only
    anna = await storage.ratings.of(server_id=SERVER, player_id=ANNA)
    bert = await storage.ratings.of(server_id=SERVER, player_id=BERT)
    strong = await storage.ratings.of(server_id=SERVER, player_id=STRONG_1)
    # Anna won the list, Bert came second, the strong AI last: the library's numbers, not ours
    expected = rate({}, [(ANNA, 1), (BERT, 2), (STRONG_1, 3)], EventKind.SERIES)
    assert anna == expected[ANNA] and bert == expected[BERT] and strong == expected[level_identity("strong")]
    assert anna.mu > MODEL.mu > strong.mu and anna.series == 1 and anna.days == 0
    assert await storage.ratings.of(server_id=SERVER, player_id=STRONG_2) == strong  # one identity per level
    assert await storage.ratings.events(server_id=SERVER) == 1
    history = await storage.ratings.history(server_id=SERVER, player_id=ANNA)
    assert [(p.mu, p.sigma) for p in history] == [(anna.mu, anna.sigma)]


async def test_an_unfinished_series_is_not_rated(people: AnyStorage) -> None:
    table = await _series(people, (ANNA, BERT, CARLA), [{ANNA: 24, BERT: 0, CARLA: 0}], finish=False)
    with pytest.raises(NotFound):
        await people.ratings.rate_series(table_id=table, now=NOW)
    assert await people.ratings.catch_up(now=NOW) == 0
    assert await people.ratings.board(server_id=SERVER) == []


async def test_catch_up_rates_every_unrated_series_in_finish_order(people: AnyStorage) -> None:
    first = await _series(people, (ANNA, BERT, CARLA), [{ANNA: 24, BERT: 0, CARLA: 0}])
    await _series(people, (ANNA, BERT, CARLA), [{ANNA: 0, BERT: 0, CARLA: 30}])
    assert await people.ratings.rate_series(table_id=first, now=NOW) is True
    assert await people.ratings.catch_up(now=NOW) == 1
    assert await people.ratings.catch_up(now=NOW) == 0
    assert (await people.ratings.of(server_id=SERVER, player_id=ANNA)).series == 2


async def test_a_challenge_day_is_ranked_by_score_against_par_with_strong_at_par(people: AnyStorage) -> None:
    day = date(2026, 11, 29)
    results = [(ANNA, 300, 250), (BERT, 100, 250)]
    assert await people.ratings.rate_challenge_day(server_id=SERVER, day=day, results=results, now=NOW) is True
    assert await people.ratings.rate_challenge_day(server_id=SERVER, day=day, results=results, now=NOW) is False
    anna = await people.ratings.of(server_id=SERVER, player_id=ANNA)
    bert = await people.ratings.of(server_id=SERVER, player_id=BERT)
    strong = await people.ratings.of(server_id=SERVER, player_id=level_identity("strong"))
    assert anna.mu > strong.mu > bert.mu  # above par, at par, below par
    assert (anna.days, anna.series, strong.days) == (1, 0, 1)
    with pytest.raises(ValueError, match="twice"):
        await people.ratings.rate_challenge_day(server_id=SERVER, day=day + timedelta(days=1),
                                                results=[(ANNA, 1, 0), (ANNA, 2, 0)], now=NOW)


async def test_servers_are_rated_apart(people: AnyStorage) -> None:
    await _series(people, (ANNA, BERT, CARLA), [{ANNA: 24, BERT: 0, CARLA: 0}], server_id=SERVER)
    await _series(people, (ANNA, BERT, CARLA), [{ANNA: -48, BERT: 0, CARLA: 0}], server_id=SERVER + 1)
    await people.ratings.catch_up(now=NOW)
    here = await people.ratings.of(server_id=SERVER, player_id=ANNA)
    there = await people.ratings.of(server_id=SERVER + 1, player_id=ANNA)
    assert here.mu > MODEL.mu > there.mu


async def test_the_board_orders_by_the_conservative_estimate_and_names_ai_levels(people: AnyStorage) -> None:
    for _ in range(3):
        await _series(people, (ANNA, BERT, STRONG_1), [{ANNA: 60, BERT: 20, STRONG_1: -30}])
    await people.ratings.catch_up(now=NOW)
    board = await people.ratings.board(server_id=SERVER)
    assert [row.rated_id for row in board] == [ANNA, BERT, level_identity("strong")]
    assert [row.display_name for row in board[:2]] == ["Anna", "Bert"] and board[2].level == "strong"
    values = [row.rating.conservative for row in board]
    assert values == sorted(values, reverse=True)
    assert board[0].rating == Rating(board[0].rating.mu, board[0].rating.sigma, 3, 0)


async def test_rebuild_gives_the_same_ratings_history_and_events(people: AnyStorage) -> None:
    await _series(people, (ANNA, BERT, STRONG_1), [{ANNA: 60, BERT: 20, STRONG_1: -30}])
    await people.ratings.catch_up(now=NOW)
    await people.ratings.rate_challenge_day(server_id=SERVER, day=date(2026, 11, 29),
                                            results=[(ANNA, 10, 50), (CARLA, 90, 50)], now=NOW + HOUR)
    await _series(people, (CARLA, STRONG_1, STRONG_2), [{CARLA: -30, STRONG_1: 40, STRONG_2: 0}])
    await _series(people, (ANNA, BERT, DORA), [{ANNA: 0, BERT: 70, DORA: 0}], server_id=SERVER + 1)
    await people.ratings.catch_up(now=NOW + 2 * HOUR)
    before = await _snapshot(people)
    assert len(before[2]) == 4 and len(before[0]) == 4 + 3
    assert await people.ratings.rebuild(now=NOW + 9 * HOUR) == 4
    assert await _snapshot(people) == before
    # a lost rating is rebuilt too: the stored results are the truth
    await people.database.write([Statement("UPDATE ratings SET mu = 0"), Statement("DELETE FROM rating_history")])
    assert await _snapshot(people) != before
    await people.ratings.rebuild(now=NOW + 9 * HOUR)
    assert await _snapshot(people) == before


async def _challenge(storage: AnyStorage, day: date, player: int, scores: list[tuple[int, int]],
                     finished: bool = True, server_id: int = SERVER) -> None:
    await storage.challenge.start(day=day, player_id=player, server_id=server_id, name=str(player),
                                  deals=len(scores), now=NOW)
    results = [ChallengeScore(day, player, server_id, number, score, par)
               for number, (score, par) in enumerate(scores)]
    await storage.challenge.append(day=day, player_id=player, seq=0, entries=["x"], now=NOW, results=results,
                                   finished=finished)


async def test_ended_challenge_days_are_rated_from_the_challenges_stored_results(people: AnyStorage) -> None:
    day = date(2026, 11, 29)  # NOW is the 30th: the day has ended
    await _challenge(people, day, ANNA, [(120, 40), (-90, 60)])  # 20 below par
    await _challenge(people, day, BERT, [(50, 40), (90, 60)])  # 40 above par
    await _challenge(people, day, CARLA, [(500, 40)], finished=False)  # not finished: not rated
    await _challenge(people, NOW.date(), DORA, [(500, 40)])  # today: not over yet
    assert await people.ratings.catch_up(now=NOW) == 1
    assert await people.ratings.catch_up(now=NOW) == 0
    expected = rate({}, [(BERT, 1), (level_identity("strong"), 2), (ANNA, 3)], EventKind.CHALLENGE)
    assert await people.ratings.of(server_id=SERVER, player_id=BERT) == expected[BERT]
    assert await people.ratings.of(server_id=SERVER, player_id=ANNA) == expected[ANNA]
    board = {row.rated_id: row.display_name for row in await people.ratings.board(server_id=SERVER)}
    assert board[BERT] == "Bert" and board[level_identity("strong")] == "strong"
    earlier = day - timedelta(days=1)
    await people.challenge.start(day=earlier, player_id=77, server_id=SERVER, name="Ida", deals=1, now=NOW)
    await people.challenge.append(day=earlier, player_id=77, seq=0, entries=["x"], now=NOW, finished=True,
                                  results=[ChallengeScore(earlier, 77, SERVER, 0, 10, 0)])
    assert await people.ratings.catch_up(now=NOW) == 1
    board = {row.rated_id: row.display_name for row in await people.ratings.board(server_id=SERVER)}
    assert board[77] == "Ida"  # she played only the challenge: named as the challenge knows her
    # a result that comes in after its day was rated (an attempt resumed late) changes neither the ratings
    # nor what a rebuild makes of them
    await _challenge(people, day, DORA + 1, [(400, 0)])
    rated = await _snapshot(people)
    await people.ratings.rebuild(now=NOW)
    assert await _snapshot(people) == rated
    for absent in (CARLA, DORA):
        with pytest.raises(NotFound):
            await people.ratings.of(server_id=SERVER, player_id=absent)
    before = await _snapshot(people)
    await people.ratings.rebuild(now=NOW)
    assert await _snapshot(people) == before
    assert await people.ratings.catch_up(now=NOW + timedelta(days=1)) == 1  # Dora's day has ended


async def test_concurrent_ratings_write_each_event_once_in_one_order(people: AnyStorage) -> None:
    first = await _series(people, (ANNA, BERT, CARLA), [{ANNA: 24, BERT: 0, CARLA: 0}])
    second = await _series(people, (ANNA, BERT, DORA), [{ANNA: 0, BERT: 0, DORA: 36}])
    outcomes = await asyncio.gather(*(people.ratings.rate_series(table_id=table, now=NOW)
                                      for table in (first, second, first, second, first)))
    assert sorted(outcomes) == [False, False, False, True, True]
    assert await people.ratings.events(server_id=SERVER) == 2
    assert (await people.ratings.of(server_id=SERVER, player_id=ANNA)).series == 2
    before = await _snapshot(people)
    await people.ratings.rebuild(now=NOW)
    assert await _snapshot(people) == before  # whichever came first, the rebuild follows that order


async def test_a_day_is_rated_on_every_server_that_played_it(people: AnyStorage) -> None:
    day = date(2026, 11, 28)
    await _challenge(people, day, ANNA, [(100, 40)], server_id=SERVER)
    await _challenge(people, day, BERT, [(10, 40)], server_id=SERVER)
    await _challenge(people, day, CARLA, [(90, 40)], server_id=SERVER + 1)
    day_after = datetime.combine(day + timedelta(days=1), NOW.timetz())  # the day has ended: the catch-up rates it
    assert await people.ratings.catch_up(now=day_after) == 2
    assert await people.ratings.catch_up(now=day_after) == 0
    assert (await people.ratings.of(server_id=SERVER + 1, player_id=CARLA)).days == 1
    with pytest.raises(NotFound):
        await people.ratings.of(server_id=SERVER, player_id=CARLA)


async def test_a_periods_board_lists_those_rated_since_with_the_change_since(people: AnyStorage) -> None:
    early, late = NOW - timedelta(days=40), NOW
    for offset in range(2):
        await people.ratings.rate_challenge_day(server_id=SERVER, day=date(2026, 1, 1) + timedelta(days=offset),
                                                results=[(11, 90, 0), (12, 0, 0)], now=early)
    await people.ratings.rate_challenge_day(server_id=SERVER, day=date(2026, 3, 1), results=[(11, 90, 0), (13, 0, 0)],
                                            now=late)
    since = NOW - timedelta(days=7)
    board = {row.rated_id: row for row in await people.ratings.board(server_id=SERVER, since=since)}
    assert {rated for rated in board if rated > 0} == {11, 13}  # 12 was rated only before the week
    [_, second, _] = await people.ratings.history(server_id=SERVER, player_id=11)
    assert board[11].change == pytest.approx(board[11].rating.conservative - (second.mu - 3 * second.sigma))
    assert board[13].change == pytest.approx(board[13].rating.conservative - Rating().conservative)
    assert all(row.change is None for row in await people.ratings.board(server_id=SERVER))


async def test_a_day_of_attempts_on_different_numbers_of_deals_is_rated_on_the_deals_all_played(
        people: AnyStorage) -> None:
    """The server changed its number of deals during the day: Anna played three deals, Bert four. They are compared
    on the three deals both played (Bert's fourth, far above par, does not lift him over her)."""
    day = date(2026, 11, 29)
    await _challenge(people, day, ANNA, [(60, 40), (60, 40), (60, 40)])  # 60 above par
    await _challenge(people, day, BERT, [(40, 40), (40, 40), (40, 40), (500, 0)])  # at par on the same three
    assert await people.ratings.catch_up(now=NOW) == 1
    expected = rate({}, [(ANNA, 1), (BERT, 2), (level_identity("strong"), 2)], EventKind.CHALLENGE)
    assert await people.ratings.of(server_id=SERVER, player_id=ANNA) == expected[ANNA]
    assert await people.ratings.of(server_id=SERVER, player_id=BERT) == expected[BERT]
    before = await _snapshot(people)
    await people.ratings.rebuild(now=NOW)
    assert await _snapshot(people) == before
