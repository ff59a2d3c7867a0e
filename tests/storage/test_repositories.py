"""Settings, players, tables, the table log, deal records and series lists on a real SQLite file."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from skatbot.engine import OFFICIAL, InvalidRuleSet, RuleSet
from skatbot.models import Deck, Lang
from skatbot.storage import (
    DealConflict,
    LogConflict,
    NotFound,
    Player,
    SeriesConflict,
    ServerSettings,
    TableState,
    Window,
)
from tests.storage.storage_helpers import NOW, AnyStorage, add_players, final_ranking, record, series_list

ANNA, BERT, CARLA, DIRK = Player(1, "Anna"), Player(2, "Bert"), Player(3, "Carla"), Player(4, "Dirk")


async def _table(storage: AnyStorage, seats: tuple[int, ...] = (1, 2, 3), server_id: int = 100) -> int:
    await add_players(storage, ANNA, BERT, CARLA, DIRK)
    table = await storage.tables.create(server_id=server_id, channel_id=555, creator_id=1, rule_preset="official",
                                        rules=OFFICIAL.to_dict(), series_length=3, seats=seats, now=NOW)
    return table.table_id


async def test_an_unconfigured_server_has_the_default_settings(storage: AnyStorage) -> None:
    assert await storage.settings.get(server_id=42) == ServerSettings(42)


async def test_settings_round_trip_and_overwrite(storage: AnyStorage) -> None:
    chosen = ServerSettings(42, rule_preset="pub", rules={"kontra": True}, turn_seconds=90, warning_seconds=20,
                            deck_style=Deck.GERMAN, language=Lang("de"), channel_policy="channel", allowed_channels=(7, 8),
                            pictures=False)
    await storage.settings.save(settings=chosen, now=NOW)
    assert await storage.settings.get(server_id=42) == chosen
    await storage.settings.save(settings=ServerSettings(42, language=Lang("da")), now=NOW)
    assert await storage.settings.get(server_id=42) == ServerSettings(42, language=Lang("da"))


@pytest.mark.parametrize("bad", [{"deck_style": "tarot"}, {"channel_policy": "dm"}, {"turn_seconds": 0},
                                 {"warning_seconds": 60}, {"language": ""}, {"server_id": 2**64 - 1}])
def test_bad_settings_are_refused_with_the_field_named(bad: dict[str, object]) -> None:
    fields = {"server_id": 1, **bad}
    with pytest.raises(ValueError, match=str(next(iter(bad))).split("_")[0]):
        ServerSettings(**fields)  # type: ignore[arg-type]  # bad values on purpose


async def test_players_keep_the_last_display_name_and_missing_ones_are_not_found(storage: AnyStorage) -> None:
    await storage.players.save(player=Player(9, "old name"), now=NOW)
    await storage.players.save(player=Player(9, "new name"), now=NOW)
    assert await storage.players.get(player_id=9) == Player(9, "new name")
    with pytest.raises(NotFound):
        await storage.players.get(player_id=10)
    with pytest.raises(ValueError, match="display name"):
        await storage.players.save(player=Player(11, "  "), now=NOW)


async def test_a_players_language_is_kept_with_the_player(storage: AnyStorage) -> None:
    """Their direct messages' language, stored with them (a new player too), survives a later sighting."""
    await storage.players.save(player=Player(9, "karen"), now=NOW)
    assert await storage.players.languages(player_ids=[9, 12]) == {}
    await storage.players.set_language(player=Player(9, "karen"), language=Lang("da"), now=NOW)
    await storage.players.set_language(player=Player(12, "amelie"), language=Lang("fr"), now=NOW)  # not seen before
    await storage.players.save(player=Player(9, "Karen"), now=NOW)  # a later sighting keeps the language
    assert await storage.players.languages(player_ids=[9, 12, 13]) == {9: "da", 12: "fr"}
    assert await storage.players.get(player_id=12) == Player(12, "amelie")
    await storage.players.set_language(player=Player(9, "Karen"), language=Lang("de"), now=NOW)
    assert await storage.players.languages(player_ids=[9]) == {9: "de"}
    assert await storage.players.languages(player_ids=[]) == {}


async def test_tables_store_seats_rules_and_state(storage: AnyStorage) -> None:
    table_id = await _table(storage)
    table = await storage.tables.get(table_id=table_id)
    assert (table.server_id, table.channel_id, table.thread_id, table.seats) == (100, 555, None, (1, 2, 3))
    assert table.state is TableState.OPEN and table.rules == OFFICIAL.to_dict()
    await storage.tables.set_seats(table_id=table_id, seats=(1, 2, 3, 4), now=NOW)
    await storage.tables.set_state(table_id=table_id, state=TableState.PLAYING, now=NOW + timedelta(minutes=1))
    table = await storage.tables.get(table_id=table_id)
    assert table.seats == (1, 2, 3, 4) and table.state is TableState.PLAYING
    assert table.updated_at == NOW + timedelta(minutes=1)
    assert [t.table_id for t in await storage.tables.in_channel(channel_id=555)] == [table_id]
    await storage.tables.set_state(table_id=table_id, state=TableState.ABANDONED, now=NOW)
    assert await storage.tables.in_channel(channel_id=555) == []


async def test_bad_tables_are_refused_and_change_nothing(storage: AnyStorage) -> None:
    table_id = await _table(storage)
    with pytest.raises(NotFound):
        await storage.tables.get(table_id=table_id + 1)
    with pytest.raises(NotFound):
        await storage.tables.set_state(table_id=table_id + 1, state=TableState.FINISHED, now=NOW)
    with pytest.raises(ValueError, match="only one seat"):
        await storage.tables.set_seats(table_id=table_id, seats=(1, 1, 2), now=NOW)
    with pytest.raises(NotFound, match="not a stored player"):
        await storage.tables.set_seats(table_id=table_id, seats=(1, 2, 99), now=NOW)
    assert (await storage.tables.get(table_id=table_id)).seats == (1, 2, 3)
    with pytest.raises(ValueError, match="series_length"):
        await storage.tables.create(server_id=1, channel_id=1, creator_id=1, rule_preset="official", rules={},
                                    series_length=0, now=NOW)


async def test_the_log_is_append_only_in_order(storage: AnyStorage) -> None:
    table_id = await _table(storage)
    await storage.tables.append(table_id=table_id, seq=0, entry="join 1 Anna", now=NOW)
    await storage.tables.append(table_id=table_id, seq=1, entry="act 0 1 bid 18", now=NOW + timedelta(seconds=3))
    with pytest.raises(LogConflict, match="got there first"):  # a second writer with a stale view
        await storage.tables.append(table_id=table_id, seq=1, entry="act 0 1 pass", now=NOW)
    with pytest.raises(LogConflict, match="next log entry is 2"):  # no gaps
        await storage.tables.append(table_id=table_id, seq=5, entry="act 0 0 pass", now=NOW)
    with pytest.raises(NotFound):
        await storage.tables.append(table_id=table_id + 7, seq=0, entry="act 0 0 pass", now=NOW)
    with pytest.raises(ValueError, match="one non-empty line"):
        await storage.tables.append(table_id=table_id, seq=2, entry="pass\nstart", now=NOW)
    log = await storage.tables.log(table_id=table_id)
    assert [(e.seq, e.entry, e.at) for e in log] == [
        (0, "join 1 Anna", NOW), (1, "act 0 1 bid 18", NOW + timedelta(seconds=3))]


async def test_unfinished_tables_come_back_with_their_logs_and_stored_deals(storage: AnyStorage) -> None:
    playing = await _table(storage)
    finished = await _table(storage)
    await storage.tables.set_state(table_id=playing, state=TableState.PLAYING, now=NOW)
    await storage.tables.set_state(table_id=finished, state=TableState.FINISHED, now=NOW)
    await storage.tables.append(table_id=playing, seq=0, entry="join 1 Anna", now=NOW)
    await storage.deals.store(record=record(table_id=playing, number=1, server_id=100, declarer=1,
                                            scores={1: 24, 2: 0, 3: 0}, finished_at=NOW))
    [unfinished] = await storage.load_unfinished_tables()
    assert unfinished.table.table_id == playing
    assert [e.seq for e in unfinished.log] == [0]
    assert unfinished.stored_deals == frozenset({1})


async def test_a_deal_is_stored_exactly_once(storage: AnyStorage) -> None:
    table_id = await _table(storage)
    deal = record(table_id=table_id, number=1, server_id=100, declarer=1, scores={1: 48, 2: 0, 3: 0},
                  seeger={1: 98}, finished_at=NOW)
    first = await storage.deals.store(record=deal)
    again = await storage.deals.store(record=deal)  # a retry after a crash: no-op
    assert first == again and first.deal_id is not None
    assert first.scores == deal.scores and first.iss == deal.iss and first.record_json == deal.record_json
    different = record(table_id=table_id, number=1, server_id=100, declarer=1, scores={1: -96, 2: 0, 3: 0},
                       won=False, finished_at=NOW)
    with pytest.raises(DealConflict):
        await storage.deals.store(record=different)
    assert [d.score for d in await storage.deals.for_table(table_id=table_id)] == [48]
    rows = await storage.database.fetch_all("SELECT SUM(points), SUM(deals) FROM player_days")
    assert tuple(rows[0]) == (48, 3)


async def test_a_deal_with_an_unknown_player_or_table_is_refused_whole(storage: AnyStorage) -> None:
    table_id = await _table(storage)
    with pytest.raises(NotFound, match="not a stored player"):
        await storage.deals.store(record=record(table_id=table_id, number=1, server_id=100, declarer=1,
                                                scores={1: 24, 2: 0, 77: 0}, finished_at=NOW))
    with pytest.raises(NotFound, match="no table"):
        await storage.deals.store(record=record(table_id=table_id + 1, number=1, server_id=100, declarer=1,
                                                scores={1: 24, 2: 0, 3: 0}, finished_at=NOW))
    with pytest.raises(ValueError, match="belongs to server 100"):
        await storage.deals.store(record=record(table_id=table_id, number=1, server_id=101, declarer=1,
                                                scores={1: 24, 2: 0, 3: 0}, finished_at=NOW))
    assert await storage.deals.for_table(table_id=table_id) == []
    assert await storage.database.fetch_all("SELECT * FROM deal_scores") == []
    assert await storage.database.fetch_all("SELECT * FROM player_days") == []
    with pytest.raises(NotFound):
        await storage.deals.get(deal_id=1)


async def test_series_list_runs_and_finishes_once(storage: AnyStorage) -> None:
    table_id = await _table(storage, seats=(1, 2, 3, 4))
    deals = [({1: 48, 2: 0, 3: 0, 4: 0}, 1, 4), ({1: 0, 2: -60, 3: 0, 4: 0}, 2, 1),
             ({1: 0, 2: 0, 3: 23, 4: 0}, 3, 2)]
    for number, (scores, declarer, out) in enumerate(deals, start=1):
        await storage.deals.store(record=record(table_id=table_id, number=number, server_id=100, declarer=declarer,
                                                scores=scores, won=scores[declarer] > 0, out=out,
                                                finished_at=NOW + timedelta(minutes=number)))
    final_yet, running = await series_list(storage, table_id)
    assert [(s.player_id, s.place, s.total, s.deals) for s in running] == [
        (1, 1, 48, 2), (3, 2, 23, 3), (4, 3, 0, 2), (2, 4, -60, 2)]
    assert not final_yet
    final = await storage.deals.finish_series(table_id=table_id, now=NOW + timedelta(hours=1))
    assert final == running
    assert await storage.deals.finish_series(table_id=table_id, now=NOW + timedelta(hours=2)) == final
    assert await final_ranking(storage, table_id) == final
    assert (await storage.tables.get(table_id=table_id)).state is TableState.FINISHED
    exported = json.loads(await storage.deals.export_series_json(table_id=table_id))
    assert exported["final"] is True and [d["number"] for d in exported["deals"]] == [1, 2, 3]
    assert exported["deals"][1]["scores"]["2"] == {"score": -60, "seeger": 0}
    assert [p["name"] for p in exported["players"]] == ["Anna", "Bert", "Carla", "Dirk"]
    assert [s["player"] for s in exported["standings"]] == [1, 3, 4, 2]


async def test_ties_share_a_place_and_an_abandoned_series_cannot_finish(storage: AnyStorage) -> None:
    table_id = await _table(storage)
    await storage.deals.store(record=record(table_id=table_id, number=1, server_id=100, declarer=1,
                                            scores={1: 20, 2: 0, 3: 0}, finished_at=NOW))
    await storage.deals.store(record=record(table_id=table_id, number=2, server_id=100, declarer=2,
                                            scores={1: 0, 2: 20, 3: 0}, finished_at=NOW))
    assert [(s.player_id, s.place) for s in (await series_list(storage, table_id))[1]] == [
        (1, 1), (2, 1), (3, 3)]
    await storage.tables.set_state(table_id=table_id, state=TableState.ABANDONED, now=NOW)
    with pytest.raises(SeriesConflict):
        await storage.deals.finish_series(table_id=table_id, now=NOW)
    with pytest.raises(NotFound):
        await storage.deals.finish_series(table_id=table_id + 1, now=NOW)


async def test_deal_exports(storage: AnyStorage) -> None:
    table_id = await _table(storage)
    stored = await storage.deals.store(record=record(table_id=table_id, number=1, server_id=100, declarer=1,
                                                     scores={1: 24, 2: 0, 3: 0}, finished_at=NOW))
    assert stored.deal_id is not None
    assert (await storage.deals.get(deal_id=stored.deal_id)).iss == f"(;GM[Skat]ID[{table_id}-1] ;)"
    assert json.loads(await storage.deals.export_json(deal_id=stored.deal_id)) == {"deal": 1}
    assert await storage.deals.by_number(table_id=table_id, deal_number=1) == stored
    with pytest.raises(NotFound):
        await storage.deals.by_number(table_id=table_id, deal_number=2)
    with pytest.raises(NotFound):
        await storage.deals.export_json(deal_id=stored.deal_id + 1)


async def test_rules_are_checked_before_anything_is_stored(storage: AnyStorage) -> None:
    assert ServerSettings(1, rule_preset="pub", rules={"ramsch_jungfrau": True}).rule_set == RuleSet.preset(
        "pub").with_options(ramsch_jungfrau=True)
    with pytest.raises(InvalidRuleSet, match="unknown rules preset"):
        ServerSettings(1, rule_preset="wild")
    with pytest.raises(InvalidRuleSet, match="unknown rule option"):
        ServerSettings(1, rules={"jokers": True})
    await add_players(storage, ANNA)
    with pytest.raises(InvalidRuleSet):
        await storage.tables.create(server_id=1, channel_id=1, creator_id=1, rule_preset="official",
                                    rules={"losses": "triple"}, series_length=3, now=NOW)
    assert await storage.tables.in_channel(channel_id=1) == []


async def test_naive_times_and_oversized_ids_are_refused(storage: AnyStorage) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        await storage.players.save(player=ANNA, now=NOW.replace(tzinfo=None))
    with pytest.raises(ValueError, match="timezone-aware"):
        await storage.stats.leaderboard(server_id=1, window=Window.WEEK, now=NOW.replace(tzinfo=None))
    await storage.players.save(player=Player(2**63 - 1, "largest snowflake"), now=NOW)
    with pytest.raises(ValueError, match="fits 64 bits"):
        await storage.players.save(player=Player(2**63, "too large"), now=NOW)
    with pytest.raises(NotFound):
        await storage.players.get(player_id=1)


async def test_the_leaderboard_summary_follows_the_score_rows(storage: AnyStorage) -> None:
    table_id = await _table(storage)
    for number, (declarer, points) in enumerate(((1, 48), (2, -60), (1, 23)), start=1):
        await storage.deals.store(record=record(
            table_id=table_id, number=number, server_id=100, declarer=declarer, won=points > 0,
            scores={1: 0, 2: 0, 3: 0} | {declarer: points}, seeger={3: 40}, finished_at=NOW))
    summary = "SELECT player_id, points, seeger, deals, declared, won FROM player_days ORDER BY player_id"
    assert [tuple(r) for r in await storage.database.fetch_all(summary)] == [
        (1, 71, 0, 3, 2, 2), (2, -60, 0, 3, 1, 0), (3, 0, 120, 3, 0, 0)]
    # Removing a deal (which the bot never does; a repair might) takes it out of the summary too.
    async with storage.database.transaction() as connection:
        await connection.execute("DELETE FROM deals WHERE deal_number = 2")
    assert [tuple(r) for r in await storage.database.fetch_all(summary)] == [
        (1, 71, 0, 2, 2, 2), (2, 0, 0, 2, 0, 0), (3, 0, 80, 2, 0, 0)]
