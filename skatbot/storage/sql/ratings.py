"""Skill ratings (skatbot.ratings) kept per server: each finished series and each challenge day rated once.

An event is rated from what it stored (a series from its final list in `series_results`, a challenge day
from the day's results it was given) and written with the new ratings in one transaction; UNIQUE
(server, kind, key) makes it exactly once, and the write checks that no other event of the server came in
since the ratings were read (else they are read again). `rebuild` rates every stored event again from scratch
in the order they were first rated, so its numbers are the same.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from skatbot.models import from_seconds, to_seconds
from skatbot.ratings import (
    EventKind,
    Rating,
    RatingPoint,
    RatingRow,
    challenge_placing,
    identity_level,
    level_identity,
    rate,
    rated_identity,
)

from ..errors import NotFound, StorageError
from .connection import INTEGRITY_ERRORS, SqlDatabase, Statement, in_list

EPOCH = date(1970, 1, 1)
_ATTEMPTS = 20  # reads and writes of one event while other events of the server keep coming in


@dataclass(frozen=True, slots=True)
class _Event:
    server_id: int
    seq: int
    kind: EventKind
    key: int
    results: str  # JSON: a series' [[player, place], ...], a challenge day's [[player, score, par], ...]
    rated_at: int


class _Changed(Exception):
    """Inside a rating write: another event of the server was rated since the ratings were read."""


def day_key(day: date) -> int:
    """A challenge day as an event key: days since 1970-01-01."""
    return (day - EPOCH).days


def _placing(event: _Event) -> list[tuple[int, int]]:
    rows = json.loads(event.results)
    if event.kind is EventKind.SERIES:
        return [(int(player), int(place)) for player, place in rows]
    return challenge_placing([(int(player), int(score), int(par)) for player, score, par in rows])


def _rateable(player_id: int) -> bool:
    try:
        rated_identity(player_id)
    except ValueError:
        return False
    return True


def _rating(row: Any) -> Rating:
    return Rating(float(row["mu"]), float(row["sigma"]), int(row["series"]), int(row["days"]))


class SqlRatings:
    def __init__(self, database: SqlDatabase) -> None:
        self._db = database

    # --- reading -----------------------------------------------------------------------------------

    async def of(self, *, server_id: int, player_id: int) -> Rating:
        """A player's (or an AI seat's level's) rating on the server; NotFound before their first rated event."""
        rows = await self._db.fetch_all(
            "SELECT mu, sigma, series, days FROM ratings WHERE server_id = :s AND rated_id = :r",
            {"s": server_id, "r": rated_identity(player_id)})
        if not rows:
            raise NotFound(f"player {player_id} has no rating on server {server_id}")
        return _rating(rows[0])

    async def history(self, *, server_id: int, player_id: int) -> list[RatingPoint]:
        """The rating after each of the player's rated events, oldest first."""
        rows = await self._db.fetch_all(
            "SELECT rated_at, mu, sigma FROM rating_history WHERE server_id = :s AND rated_id = :r ORDER BY seq",
            {"s": server_id, "r": rated_identity(player_id)})
        return [RatingPoint(from_seconds(row["rated_at"]), float(row["mu"]), float(row["sigma"])) for row in rows]

    async def board(self, *, server_id: int, since: datetime | None = None) -> list[RatingRow]:
        """Every rated identity of the server, best conservative estimate first (AI levels included). With `since`:
        only those rated since then, each with the change of its conservative estimate since then (from its rating
        before, or from the start)."""
        rows = await self._db.fetch_all(
            "SELECT r.rated_id, r.mu, r.sigma, r.series, r.days, COALESCE(p.display_name, (SELECT a.name FROM "
            "challenge_attempts a WHERE a.player_id = r.rated_id ORDER BY a.day DESC LIMIT 1)) AS display_name "
            "FROM ratings r LEFT JOIN players p ON p.player_id = r.rated_id WHERE r.server_id = :s",
            {"s": server_id})  # a player seen only in the daily challenge is named as the challenge knows them
        before: dict[int, float] = {}
        active: set[int] | None = None
        if since is not None:
            stamp = to_seconds(since)
            rated = await self._db.fetch_all(
                "SELECT DISTINCT rated_id FROM rating_history WHERE server_id = :s AND rated_at >= :since",
                {"s": server_id, "since": stamp})
            active = {int(row["rated_id"]) for row in rated}
            earlier = await self._db.fetch_all(
                "SELECT h.rated_id, h.mu, h.sigma FROM rating_history h WHERE h.server_id = :s AND h.seq = ("
                "SELECT MAX(x.seq) FROM rating_history x WHERE x.server_id = h.server_id AND x.rated_id = h.rated_id "
                "AND x.rated_at < :since)", {"s": server_id, "since": stamp})
            before = {int(row["rated_id"]): Rating(float(row["mu"]), float(row["sigma"])).conservative
                      for row in earlier}
        out = []
        for row in rows:
            rated_id = int(row["rated_id"])
            if active is not None and rated_id not in active:
                continue
            level = identity_level(rated_id)
            name = row["display_name"] or (level or str(rated_id))
            rating = _rating(row)
            change = None if active is None else rating.conservative - before.get(rated_id, Rating().conservative)
            out.append(RatingRow(rated_id, str(name), level, rating, change))
        return sorted(out, key=lambda r: (-r.rating.conservative, r.rated_id))

    async def events(self, *, server_id: int) -> int:
        rows = await self._db.fetch_all("SELECT COUNT(*) FROM rating_events WHERE server_id = :s", {"s": server_id})
        return int(rows[0][0])

    # --- rating ------------------------------------------------------------------------------------

    async def rate_series(self, *, table_id: int, now: datetime) -> bool:
        """Rate the finished series of a table by its final list (places as the series scored: list points,
        which are Seeger-Fabian points at a Seeger-Fabian table). True when rated now; False when it was rated
        before; NotFound while the series is not finished."""
        rows = await self._db.fetch_all(
            "SELECT server_id, player_id, place FROM series_results WHERE table_id = :t ORDER BY place, player_id",
            {"t": table_id})
        if not rows:
            raise NotFound(f"the series of table {table_id} is not finished")
        results = [[int(row["player_id"]), int(row["place"])] for row in rows if _rateable(int(row["player_id"]))]
        return await self._rate(int(rows[0]["server_id"]), EventKind.SERIES, table_id, results, now)

    async def rate_challenge_day(self, *, server_id: int, day: date, results: Sequence[tuple[int, int, int]],
                                 now: datetime) -> bool:
        """Rate one server's challenge day: `results` holds (player id, the day's score, the day's par) for
        each player who played it; they are ranked by score against par, with the strong AI at par. True when
        rated now, False when the day was rated before (a second call changes nothing)."""
        players = [player for player, _, _ in results]
        if len(set(players)) != len(players):
            raise ValueError("a player appears twice in the day's results")
        rows = [[int(player), int(score), int(par)] for player, score, par in results if _rateable(player)]
        return await self._rate(server_id, EventKind.CHALLENGE, day_key(day), rows, now)

    async def _challenge_results(self, day: date) -> dict[int, list[tuple[int, int, int]]]:
        """A day's (player, score, par) per server, from the challenge's stored results of finished attempts: over the
        deals all of that server's finished attempts played (the first of the day's deals, as many as its shortest
        attempt had), so that everyone is compared on the same deals when the server changed its number that day."""
        rows = await self._db.fetch_all(
            "SELECT r.server_id, r.player_id, SUM(r.score) AS score, SUM(r.par) AS par FROM challenge_results r "
            "JOIN challenge_attempts a ON a.day = r.day AND a.player_id = r.player_id "
            "WHERE r.day = :day AND a.finished_at IS NOT NULL AND r.deal_number < (SELECT MIN(b.deals) FROM "
            "challenge_attempts b WHERE b.day = r.day AND b.server_id = r.server_id AND b.finished_at IS NOT NULL) "
            "GROUP BY r.server_id, r.player_id ORDER BY r.server_id, r.player_id", {"day": day.isoformat()})
        out: dict[int, list[tuple[int, int, int]]] = {}
        for row in rows:
            out.setdefault(int(row["server_id"]), []).append(
                (int(row["player_id"]), int(row["score"]), int(row["par"])))
        return out

    async def catch_up(self, *, now: datetime) -> int:
        """Rate every finished series not rated yet, in the order they finished (after a restart between a
        series' end and its rating, and once for the series finished before ratings existed), then every
        challenge day that has ended (UTC) and is not rated yet on a server that played it. Returns how many
        events were rated."""
        rows = await self._db.fetch_all(
            "SELECT s.table_id, MIN(s.finished_at) AS finished FROM series_results s WHERE NOT EXISTS (SELECT 1 FROM "
            "rating_events e WHERE e.server_id = s.server_id AND e.kind = 'series' AND e.event_key = s.table_id) "
            "GROUP BY s.table_id ORDER BY finished, s.table_id")
        count = 0
        for row in rows:
            count += await self.rate_series(table_id=int(row["table_id"]), now=now)
        played, rated = await self._db.read([
            Statement("SELECT DISTINCT r.server_id, r.day FROM challenge_results r JOIN challenge_attempts a "
                      "ON a.day = r.day AND a.player_id = r.player_id WHERE a.finished_at IS NOT NULL "
                      "AND r.day < :today ORDER BY r.day, r.server_id", {"today": now.date().isoformat()}),
            Statement("SELECT server_id, event_key FROM rating_events WHERE kind = 'challenge'")])
        done = {(int(row[0]), int(row[1])) for row in rated}
        for row in played:
            server_id, day = int(row[0]), date.fromisoformat(str(row[1]))
            if (server_id, day_key(day)) in done:
                continue
            results = (await self._challenge_results(day)).get(server_id, [])
            count += await self.rate_challenge_day(server_id=server_id, day=day, results=results, now=now)
        return count

    async def _rate(self, server_id: int, kind: EventKind, key: int, results: list[list[int]], now: datetime) -> bool:
        event_json = json.dumps(results)
        identities = sorted({rated_identity(row[0]) for row in results} | (
            {level_identity("strong")} if kind is EventKind.CHALLENGE else set()))
        among, wanted = in_list("r", identities)
        for _ in range(_ATTEMPTS):
            seen = await self._db.read([
                Statement("SELECT COALESCE(MAX(seq), 0) FROM rating_events WHERE server_id = :s", {"s": server_id}),
                Statement("SELECT 1 FROM rating_events WHERE server_id = :s AND kind = :k AND event_key = :e",
                          {"s": server_id, "k": kind.value, "e": key}),
                Statement(f"SELECT rated_id, mu, sigma, series, days FROM ratings WHERE server_id = :s "
                          f"AND rated_id IN ({among})", {"s": server_id, **wanted})])
            last, before, current = int(seen[0][0][0]), seen[1], seen[2]
            if before:
                return False
            ratings = {int(row["rated_id"]): _rating(row) for row in current}
            event = _Event(server_id, last + 1, kind, key, event_json, to_seconds(now))
            new = rate(ratings, _placing(event), kind)

            def unchanged(rows: list[Any], _: int, last: int = last) -> None:
                if int(rows[0][0]) != last:
                    raise _Changed

            try:
                await self._db.write([
                    Statement("SELECT COALESCE(MAX(seq), 0) FROM rating_events WHERE server_id = :s",
                              {"s": server_id}, check=unchanged),
                    *_event_statements(event, new)])
            except _Changed:
                continue
            except INTEGRITY_ERRORS:
                continue  # another process rated this event (or one of the server's) a moment ago: read again
            return True
        raise StorageError(f"the {kind.value} {key} of server {server_id} could not be rated: the server's ratings "
                           f"kept changing or a row was refused, {_ATTEMPTS} times")

    async def rebuild(self, *, now: datetime) -> int:
        """Rate every stored event again from scratch, server by server in the order each was first rated
        (a series from its stored final list, a challenge day from the day's results it was rated with), then
        whatever was never rated; written in one transaction. Returns how many events were rated."""
        event_rows = await self._db.fetch_all(
            "SELECT server_id, seq, kind, event_key, results, rated_at FROM rating_events ORDER BY server_id, seq")
        final = await self._db.fetch_all(
            "SELECT table_id, player_id, place FROM series_results ORDER BY table_id, place, player_id")
        lists: dict[int, list[list[int]]] = {}
        for row in final:
            if _rateable(int(row["player_id"])):
                lists.setdefault(int(row["table_id"]), []).append([int(row["player_id"]), int(row["place"])])
        events = []
        for row in event_rows:
            kind, key = EventKind(row["kind"]), int(row["event_key"])
            # A series from its final list (which never changes once written); a challenge day from the results
            # it was rated with, kept with the event: an attempt finished after the day was rated (resumed late)
            # would otherwise make the rebuild differ from what the players saw.
            results = json.dumps(lists.get(key, [])) if kind is EventKind.SERIES else str(row["results"])
            events.append(_Event(int(row["server_id"]), int(row["seq"]), kind, key, results, int(row["rated_at"])))
        statements = [Statement("DELETE FROM rating_history"), Statement("DELETE FROM ratings"),
                      Statement("DELETE FROM rating_events")]
        state: dict[int, dict[int, Rating]] = {}
        for event in events:
            ratings = state.setdefault(event.server_id, {})
            new = rate(ratings, _placing(event), event.kind)
            ratings.update(new)
            statements += _event_statements(event, new)
        await self._db.write(statements)
        return len(events) + await self.catch_up(now=now)


def _event_statements(event: _Event, new: dict[int, Rating]) -> list[Statement]:
    """The event's row, the new ratings and their history rows."""
    return [
        Statement("INSERT INTO rating_events (server_id, seq, kind, event_key, results, rated_at) "
                  "VALUES (?, ?, ?, ?, ?, ?)",
                  (event.server_id, event.seq, event.kind.value, event.key, event.results, event.rated_at)),
        Statement("INSERT INTO ratings (server_id, rated_id, mu, sigma, series, days, updated_at) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (server_id, rated_id) DO UPDATE SET mu = excluded.mu, "
                  "sigma = excluded.sigma, series = excluded.series, days = excluded.days, "
                  "updated_at = excluded.updated_at",
                  many=[(event.server_id, identity, r.mu, r.sigma, r.series, r.days, event.rated_at)
                        for identity, r in sorted(new.items())]),
        Statement("INSERT INTO rating_history (server_id, rated_id, seq, mu, sigma, rated_at) VALUES (?, ?, ?, ?, ?, ?)",
                  many=[(event.server_id, identity, event.seq, r.mu, r.sigma, event.rated_at)
                        for identity, r in sorted(new.items())])]
