"""Finished deals (exactly once, with their score rows) and series lists."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from skatbot.engine import Ending, game_text, parse_game_text
from skatbot.models import (
    DealRecord,
    DealScore,
    Role,
    SeriesStanding,
    TableState,
    check_id,
    from_seconds,
    to_seconds,
)

from ..errors import DealConflict, NotFound, SeriesConflict
from .connection import INTEGRITY_ERRORS, Connection, SqlDatabase, Statement, in_list, is_foreign_key_error

DAY = 86400

_DEAL_COLUMNS = ("deal_id, table_id, deal_number, server_id, declarer_id, game, contract, hand, ouvert, bid, won, "
                 "overbid, schneider, schwarz, matadors, declarer_points, declarer_tricks, multiplier, game_value, "
                 "score, ending, kontra, re, bock, started_at, finished_at")


def rank(totals: Sequence[tuple[int, int, int, int]]) -> list[SeriesStanding]:
    """(player, total, seeger, deals) -> standings by list points; equal totals share a place, as on the
    Skatliste (listed by Seeger points within the tie)."""
    ordered = sorted(totals, key=lambda t: (-t[1], -t[2], t[0]))
    standings: list[SeriesStanding] = []
    for index, (player, total, seeger, deals) in enumerate(ordered):
        place = index + 1
        if standings and standings[-1].total == total:
            place = standings[-1].place
        standings.append(SeriesStanding(player, place, total, seeger, deals))
    return standings


class SqlDeals:
    def __init__(self, database: SqlDatabase) -> None:
        self._db = database

    async def store(self, *, record: DealRecord) -> DealRecord:
        """Write the deal, its records and score rows in one transaction, exactly once.

        Storing the same (table, deal number) again is a no-op that returns the stored deal; storing a
        different result under that key raises DealConflict and changes nothing.
        """
        _check_record(record)
        key = {"table_id": record.table_id, "deal_number": record.deal_number}

        def new_deal(rows: list[Any], _: int) -> None:  # checked inside the write: nothing stored unless new
            if not rows:
                raise NotFound(f"no table {record.table_id}")
            if rows[0][0] != record.server_id:
                raise ValueError(f"table {record.table_id} belongs to server {rows[0][0]}, not {record.server_id}")
            if rows[0][1] is not None:
                raise _StoredBefore

        try:
            *_, written = await self._db.write([
                Statement("SELECT t.server_id, d.deal_id FROM tables t LEFT JOIN deals d ON d.table_id = t.table_id "
                          "AND d.deal_number = :deal_number WHERE t.table_id = :table_id", key, check=new_deal),
                *_insert(record),
                Statement("SELECT deal_id FROM deals WHERE table_id = :table_id AND deal_number = :deal_number", key)])
        except _StoredBefore:
            return await self._stored_before(record)
        except INTEGRITY_ERRORS as error:
            if is_foreign_key_error(error):
                raise NotFound(f"a player of deal {record.deal_number} at table {record.table_id} is not a stored "
                               "player") from None
            return await self._stored_before(record)  # another process stored it a moment ago
        return replace(record, deal_id=int(written.rows[0][0]), started_at=from_seconds(to_seconds(record.started_at)),
                       finished_at=from_seconds(to_seconds(record.finished_at)),
                       scores=tuple(sorted(record.scores, key=_score_order)))

    async def _stored_before(self, record: DealRecord) -> DealRecord:
        """The deal under `record`'s key, stored before: the same result (returned), or DealConflict."""
        existing = await self.by_number(table_id=record.table_id, deal_number=record.deal_number)
        if existing.result_key() != record.result_key():
            raise DealConflict(f"deal {record.deal_number} of table {record.table_id} is stored with a "
                               "different result; it was not overwritten")
        return existing

    async def get(self, *, deal_id: int) -> DealRecord:
        async with self._db.reading() as connection:
            deals = await _load_deals(connection, "WHERE deal_id = :deal_id", {"deal_id": deal_id})
        if not deals:
            raise NotFound(f"no deal {deal_id}")
        return deals[0]

    async def by_number(self, *, table_id: int, deal_number: int) -> DealRecord:
        async with self._db.reading() as connection:
            deals = await _load_deals(connection, "WHERE table_id = :table_id AND deal_number = :deal_number",
                                      {"table_id": table_id, "deal_number": deal_number})
        if not deals:
            raise NotFound(f"table {table_id} has no stored deal {deal_number}")
        return deals[0]

    async def for_table(self, *, table_id: int) -> list[DealRecord]:
        async with self._db.reading() as connection:
            return await _load_deals(connection, "WHERE table_id = :table_id", {"table_id": table_id})

    async def counts(self, *, table_ids: Sequence[int]) -> dict[int, int]:
        """How many deals each of these tables has stored (tables with none are left out): one query, so a
        process can look often for deals another process stored (a tournament's tables)."""
        wanted = sorted(set(table_ids))
        if not wanted:
            return {}
        marks, params = in_list("t", wanted)
        rows = await self._db.fetch_all(
            f"SELECT table_id, COUNT(*) AS n FROM deals WHERE table_id IN ({marks}) GROUP BY table_id", params)
        return {int(row["table_id"]): int(row["n"]) for row in rows}

    async def iter_all(self, *, after_deal_id: int = 0, limit: int = 500) -> list[DealRecord]:
        """Deals in id order, a batch at a time (the maintenance check walks every deal)."""
        async with self._db.reading() as connection:
            return await _load_deals(connection, "WHERE deal_id > :after ORDER BY deal_id LIMIT :limit",
                                     {"after": after_deal_id, "limit": limit}, order=False)

    async def export_json(self, *, deal_id: int) -> str:
        return (await self.get(deal_id=deal_id)).record_json

    # --- series ------------------------------------------------------------------------------------

    async def finish_series(self, *, table_id: int, now: datetime) -> list[SeriesStanding]:
        """Write the final ranking (from the stored deals) and mark the table finished, exactly once. The list
        is read first, then written in one write that checks nothing changed meanwhile (else it is read again)."""
        while True:
            found, final_rows, total_rows, seat_rows = await self._db.read([
                Statement("SELECT server_id, state, (SELECT COUNT(*) FROM deals WHERE table_id = :t) FROM tables "
                          "WHERE table_id = :t", {"t": table_id}),
                Statement(_FINAL_SQL, {"t": table_id}), Statement(_TOTALS_SQL, {"t": table_id}),
                Statement(_SEATS_SQL, {"t": table_id})])
            if not found:
                raise NotFound(f"no table {table_id}")
            row = found[0]
            final = _final_from(final_rows)
            if final:
                return final
            if row[1] == TableState.ABANDONED.value:
                raise SeriesConflict(f"table {table_id} was abandoned; its series cannot be finished")
            standings = _list_from(total_rows, seat_rows)
            server_id, deals = row[0], row[2]

            def unchanged(rows: list[Any], _: int, deals: int = deals) -> None:  # inside the write: still the list
                if rows[0][2]:
                    raise _SeriesChanged
                if rows[0][0] == TableState.ABANDONED.value:
                    raise SeriesConflict(f"table {table_id} was abandoned; its series cannot be finished")
                if rows[0][1] != deals:
                    raise _SeriesChanged

            try:
                await self._db.write([
                    Statement("SELECT state, (SELECT COUNT(*) FROM deals WHERE table_id = :t), "
                              "(SELECT COUNT(*) FROM series_results WHERE table_id = :t) FROM tables WHERE table_id = :t",
                              {"t": table_id}, check=unchanged),
                    Statement("INSERT INTO series_results (table_id, player_id, server_id, place, total, seeger, deals, "
                              "finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                              many=[(table_id, s.player_id, server_id, s.place, s.total, s.seeger, s.deals,
                                     to_seconds(now)) for s in standings]),
                    Statement("UPDATE tables SET state = 'finished', updated_at = :now WHERE table_id = :t",
                              {"now": to_seconds(now), "t": table_id})])
            except _SeriesChanged:
                continue  # finished by another process a moment ago, or a deal came in: read again
            return standings

    async def export_series_json(self, *, table_id: int) -> str:
        """The series as JSON: table, players, every deal with its score lines, and the list."""
        async with self._db.reading() as connection:
            async with connection.execute(
                    "SELECT server_id, rule_preset, rules_json, series_length, state, created_at FROM tables "
                    "WHERE table_id = :t", {"t": table_id}) as cursor:
                table = await cursor.fetchone()
            if table is None:
                raise NotFound(f"no table {table_id}")
            async with connection.execute(
                    "SELECT p.player_id, p.display_name, p.is_ai FROM table_seats s JOIN players p "
                    "ON p.player_id = s.player_id WHERE s.table_id = :t ORDER BY s.seat", {"t": table_id}) as cursor:
                players = [{"id": r[0], "name": r[1], "ai": bool(r[2])} for r in await cursor.fetchall()]
            deals = await _load_deals(connection, "WHERE table_id = :t", {"t": table_id})
            final = await _final_ranking(connection, table_id)
            standings = final or await _running_list(connection, table_id)
        document = {
            "table": table_id, "server": table["server_id"], "rule_preset": table["rule_preset"],
            "rules": json.loads(table["rules_json"]), "series_length": table["series_length"],
            "state": table["state"], "started": from_seconds(table["created_at"]).isoformat(),
            "players": players,
            "deals": [{"number": d.deal_number, "declarer": d.declarer_id, "game": game_text(d.game), "contract": d.contract,
                       "won": d.won, "value": d.value, "bock": d.bock, "kontra": d.kontra, "re": d.re,
                       "finished": d.finished_at.isoformat(),
                       "scores": {str(s.player_id): {"score": s.score, "seeger": s.seeger} for s in d.scores}}
                      for d in deals],
            "final": bool(final),
            "standings": [{"player": s.player_id, "place": s.place, "total": s.total, "seeger": s.seeger,
                           "deals": s.deals} for s in standings],
        }
        return json.dumps(document, sort_keys=True)


def _score_order(line: DealScore) -> tuple[bool, int, int]:
    """Seated players in seat order, then the dealer sitting out (the order rows are read back in)."""
    return (line.seat is None, line.seat or 0, line.player_id)


def _check_record(record: DealRecord) -> None:
    if record.deal_number < 1:
        raise ValueError("deal numbers start at 1")
    if record.finished_at < record.started_at:
        raise ValueError("a deal cannot finish before it started")
    players = [s.player_id for s in record.scores]
    if not 3 <= len(players) <= 4 or len(set(players)) != len(players):
        raise ValueError("a deal has a score line for each of three or four different players")
    declarers = [s.player_id for s in record.scores if s.role is Role.DECLARER]
    if declarers != ([record.declarer_id] if record.declarer_id is not None else []):
        raise ValueError("the declarer's score line must match declarer_id")
    for player in players:
        check_id("player_id", player)


class _SeriesChanged(Exception):
    """Inside `SqlDeals.finish_series`'s write: the list changed since it was read (nothing is written)."""


class _StoredBefore(Exception):
    """Inside `SqlDeals.store`'s write: the deal is stored already (nothing is written)."""


def _insert(r: DealRecord) -> list[Statement]:
    """The deal's rows as a write's statements; the deal's id is found by its key (table, deal number)."""
    finished = to_seconds(r.finished_at)
    deal_id = "(SELECT deal_id FROM deals WHERE table_id = ? AND deal_number = ?)"
    return [
        Statement(f"INSERT INTO deals ({_DEAL_COLUMNS.removeprefix('deal_id, ')}) VALUES "
                  "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (r.table_id, r.deal_number, r.server_id, r.declarer_id, game_text(r.game), r.contract, int(r.hand),
                   int(r.ouvert), r.bid, int(r.won), int(r.overbid), int(r.schneider), int(r.schwarz), r.matadors,
                   r.declarer_points, r.declarer_tricks, r.multiplier, r.value, r.score, r.ending.value,
                   int(r.kontra), int(r.re), r.bock, to_seconds(r.started_at), finished)),
        Statement(f"INSERT INTO deal_records (deal_id, iss, record_json) VALUES ({deal_id}, ?, ?)",
                  (r.table_id, r.deal_number, r.iss, r.record_json)),
        # player_days, the leaderboard summary, follows deal_scores by trigger (migration 0003).
        Statement("INSERT INTO deal_scores (deal_id, player_id, seat, role, won, score, seeger, server_id, "
                  f"finished_at) VALUES ({deal_id}, ?, ?, ?, ?, ?, ?, ?, ?)",
                  many=[(r.table_id, r.deal_number, s.player_id, s.seat, s.role.value,
                         None if s.won is None else int(s.won), s.score, s.seeger, r.server_id, finished)
                        for s in r.scores])]


async def _load_deals(connection: Connection, where: str, params: dict[str, object],
                      order: bool = True) -> list[DealRecord]:
    sql = f"SELECT {_DEAL_COLUMNS} FROM deals {where}" + (" ORDER BY table_id, deal_number" if order else "")
    async with connection.execute(sql, params) as cursor:
        rows = list(await cursor.fetchall())
    out = []
    for row in rows:
        async with connection.execute(
                "SELECT player_id, seat, role, won, score, seeger FROM deal_scores WHERE deal_id = :d "
                "ORDER BY seat IS NULL, seat, player_id", {"d": row["deal_id"]}) as cursor:
            scores = tuple(DealScore(s[0], s[1], Role(s[2]), None if s[3] is None else bool(s[3]), s[4], s[5])
                           for s in await cursor.fetchall())
        async with connection.execute("SELECT iss, record_json FROM deal_records WHERE deal_id = :d",
                                      {"d": row["deal_id"]}) as cursor:
            records = await cursor.fetchone()
        out.append(DealRecord(
            table_id=row["table_id"], deal_number=row["deal_number"], server_id=row["server_id"],
            declarer_id=row["declarer_id"], game=parse_game_text(row["game"]), contract=row["contract"], hand=bool(row["hand"]),
            ouvert=bool(row["ouvert"]), bid=row["bid"], won=bool(row["won"]), overbid=bool(row["overbid"]),
            schneider=bool(row["schneider"]), schwarz=bool(row["schwarz"]), matadors=row["matadors"],
            declarer_points=row["declarer_points"], declarer_tricks=row["declarer_tricks"],
            multiplier=row["multiplier"], value=row["game_value"], score=row["score"], ending=Ending(row["ending"]),
            kontra=bool(row["kontra"]), re=bool(row["re"]), bock=row["bock"],
            iss=records["iss"] if records else "", record_json=records["record_json"] if records else "",
            started_at=from_seconds(row["started_at"]), finished_at=from_seconds(row["finished_at"]),
            scores=scores, deal_id=row["deal_id"]))
    return out


_TOTALS_SQL = ("SELECT ds.player_id, SUM(ds.score), SUM(ds.seeger), COUNT(CASE WHEN ds.role <> 'out' THEN 1 END) "
               "FROM deals d JOIN deal_scores ds ON ds.deal_id = d.deal_id WHERE d.table_id = :t GROUP BY ds.player_id")
_SEATS_SQL = "SELECT player_id FROM table_seats WHERE table_id = :t"
_FINAL_SQL = ("SELECT player_id, place, total, seeger, deals FROM series_results WHERE table_id = :t "
              "ORDER BY place, player_id")


async def _running_list(connection: Connection, table_id: int) -> list[SeriesStanding]:
    async with connection.execute(_TOTALS_SQL, {"t": table_id}) as cursor:
        totals = await cursor.fetchall()
    async with connection.execute(_SEATS_SQL, {"t": table_id}) as cursor:
        seats = await cursor.fetchall()
    return _list_from(totals, seats)


def _list_from(total_rows: Iterable[Any], seat_rows: Iterable[Any]) -> list[SeriesStanding]:
    """The running list from the deal rows' sums per player and the seats (a seated player without deals
    has zeros)."""
    totals = {int(r[0]): (int(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in total_rows}
    for row in seat_rows:
        totals.setdefault(int(row[0]), (int(row[0]), 0, 0, 0))
    return rank(list(totals.values()))


async def _final_ranking(connection: Connection, table_id: int) -> list[SeriesStanding]:
    async with connection.execute(_FINAL_SQL, {"t": table_id}) as cursor:
        return _final_from(await cursor.fetchall())


def _final_from(rows: Iterable[Any]) -> list[SeriesStanding]:
    return [SeriesStanding(r[0], r[1], r[2], r[3], r[4]) for r in rows]
