"""The daily challenge's rows: the secret, the attempts and their logs, the results, the pars and each
server's number of deals (migration 0013). `skatbot.challenge` reads the logs and makes the boards.

A result is written in the transaction that stores the move which ended its deal, so a restart never finds a
finished deal without its result. Appending a move number that another writer stored first is a LogConflict
(nothing is written), as for a table's log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from skatbot.challenge import DEFAULT_DEALS, MAX_DEALS, MIN_DEALS, ChallengeScore, ParLine
from skatbot.models import check_id, from_seconds, to_seconds

from ..errors import LogConflict
from .connection import INTEGRITY_ERRORS, SqlDatabase, Statement
from .due import to_millis

SECRET_KEY = "challenge.secret"
PAR_LEASE = 90.0
"""Seconds a claim on the computing of a par lasts unless renewed: its holder renews it (`renew_par`) while the
computation runs, however long that takes; another process claims it again only once it ran out, that is when
the holder died (or stalled for a whole lease, and its renewal is then refused)."""


@dataclass(frozen=True, slots=True)
class ParClaim:
    """A held claim on the computing of a deal's par: `until` (milliseconds) is the end of its lease as its holder
    wrote it, so only the holder can renew it (a process that took the claim over after it ran out wrote another)."""

    day: date
    number: int
    until: int


@dataclass(frozen=True, slots=True)
class StoredAttempt:
    """One player's attempt at a day: where it was started, how many deals, its log, and when it ended."""

    day: date
    player_id: int
    server_id: int
    name: str
    deals: int
    started_at: datetime
    finished_at: datetime | None
    moves: tuple[str, ...] = ()

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


def _attempt(row: Any, moves: Sequence[Any] = ()) -> StoredAttempt:
    finished = row["finished_at"]
    return StoredAttempt(date.fromisoformat(str(row["day"])), int(row["player_id"]), int(row["server_id"]),
                         str(row["name"]), int(row["deals"]), from_seconds(int(row["started_at"])),
                         None if finished is None else from_seconds(int(finished)),
                         tuple(str(r["entry"]) for r in moves))


def _score(row: Any) -> ChallengeScore:
    return ChallengeScore(date.fromisoformat(str(row["day"])), int(row["player_id"]), int(row["server_id"]),
                     int(row["deal_number"]), int(row["score"]), int(row["par"]))


_ATTEMPT = "day, player_id, server_id, name, deals, started_at, finished_at"
_RESULT = "r.day, r.player_id, r.server_id, r.deal_number, r.score, r.par"


class SqlChallenge:
    def __init__(self, database: SqlDatabase) -> None:
        self._db = database

    async def secret(self, *, now: datetime) -> str:
        """The bot-wide secret the days' deals come from: made by the first process that asks, then kept."""
        from skatbot.challenge import new_secret

        rows = await self._db.fetch_all("SELECT value FROM bot_meta WHERE key = :key", {"key": SECRET_KEY})
        if rows:
            return str(rows[0]["value"])
        await self._db.write([Statement(
            "INSERT INTO bot_meta (key, value, updated_at) VALUES (:key, :value, :now) ON CONFLICT (key) DO NOTHING",
            {"key": SECRET_KEY, "value": new_secret(), "now": to_seconds(now)})])
        rows = await self._db.fetch_all("SELECT value FROM bot_meta WHERE key = :key", {"key": SECRET_KEY})
        return str(rows[0]["value"])

    async def deals(self, *, server_id: int) -> int:
        """How many of the day's deals this server plays (DEFAULT_DEALS unless its admins chose)."""
        rows = await self._db.fetch_all("SELECT deals FROM challenge_servers WHERE server_id = :s", {"s": server_id})
        return int(rows[0]["deals"]) if rows else DEFAULT_DEALS

    async def set_deals(self, *, server_id: int, deals: int, now: datetime) -> None:
        if not MIN_DEALS <= deals <= MAX_DEALS:
            raise ValueError(f"a server's challenge has {MIN_DEALS} to {MAX_DEALS} deals")
        check_id("server_id", server_id)
        await self._db.write([Statement(
            "INSERT INTO challenge_servers (server_id, deals, updated_at) VALUES (:s, :d, :now) ON CONFLICT "
            "(server_id) DO UPDATE SET deals = excluded.deals, updated_at = excluded.updated_at",
            {"s": server_id, "d": deals, "now": to_seconds(now)})])

    async def attempt(self, *, day: date, player_id: int) -> StoredAttempt | None:
        """The player's attempt at `day` with its whole log (one snapshot), None before they started."""
        key = {"day": day.isoformat(), "p": player_id}
        rows, moves = await self._db.read([
            Statement(f"SELECT {_ATTEMPT} FROM challenge_attempts WHERE day = :day AND player_id = :p", key),
            Statement("SELECT entry FROM challenge_moves WHERE day = :day AND player_id = :p ORDER BY seq", key)])
        return _attempt(rows[0], moves) if rows else None

    async def start(self, *, day: date, player_id: int, server_id: int, name: str, deals: int,
                    now: datetime) -> StoredAttempt:
        """The player's attempt at `day`: a new one on `server_id`, or the one they started before (anywhere)."""
        check_id("player_id", player_id)
        check_id("server_id", server_id)
        await self._db.write([Statement(
            "INSERT INTO challenge_attempts (day, player_id, server_id, name, deals, started_at) VALUES "
            "(:day, :p, :s, :name, :deals, :now) ON CONFLICT (day, player_id) DO NOTHING",
            {"day": day.isoformat(), "p": player_id, "s": server_id, "name": name[:64] or str(player_id),
             "deals": deals, "now": to_seconds(now)})])
        stored = await self.attempt(day=day, player_id=player_id)
        assert stored is not None
        return stored

    async def append(self, *, day: date, player_id: int, seq: int, entries: Sequence[str], now: datetime,
                     results: Sequence[ChallengeScore] = (), finished: bool = False) -> None:
        """Moves from `seq` on, with the results of the deals they ended (and the attempt's end), in one
        transaction; LogConflict when another writer stored one of those move numbers first."""
        stamp, iso = to_seconds(now), day.isoformat()
        statements = [
            Statement("INSERT INTO challenge_moves (day, player_id, seq, entry, at) VALUES (?, ?, ?, ?, ?)",
                      many=[(iso, player_id, seq + i, entry, stamp) for i, entry in enumerate(entries)]),
            Statement("INSERT INTO challenge_results (day, player_id, server_id, deal_number, score, par, at) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?)",
                      many=[(iso, r.player_id, r.server_id, r.number, r.score, r.par, stamp) for r in results])]
        if finished:
            statements.append(Statement(
                "UPDATE challenge_attempts SET finished_at = :now WHERE day = :day AND player_id = :p",
                {"now": stamp, "day": iso, "p": player_id}))
        try:
            await self._db.write(statements)
        except INTEGRITY_ERRORS as error:
            raise LogConflict(f"challenge {iso} of {player_id}: move {seq} is stored already ({error})") from None

    async def par(self, *, day: date, number: int) -> ParLine | None:
        rows = await self._db.fetch_all("SELECT par, line FROM challenge_pars WHERE day = :day AND deal_number = :n",
                                        {"day": day.isoformat(), "n": number})
        if not rows:
            return None
        line = str(rows[0]["line"])
        return ParLine(number, int(rows[0]["par"]), tuple(line.split("\n")) if line else ())

    async def claim_par(self, *, day: date, number: int, now: datetime, lease: float = PAR_LEASE) -> ParClaim | None:
        """Take the computing of a deal's par (a lease row, `challenge_par_claims`): the claim for the one caller that
        may compute it now, on any process; None while another holds it (it stores the par, or its lease runs out
        and the par may be claimed again) or once the par is stored."""
        stamp = to_millis(now)
        key = {"day": day.isoformat(), "n": number}
        if await self._db.fetch_all("SELECT 1 FROM challenge_pars WHERE day = :day AND deal_number = :n", key):
            return None
        until = stamp + round(lease * 1000)
        [claimed] = await self._db.write([Statement(
            "INSERT INTO challenge_par_claims (day, deal_number, claimed_until) VALUES (:day, :n, :until) "
            "ON CONFLICT (day, deal_number) DO UPDATE SET claimed_until = excluded.claimed_until "
            "WHERE challenge_par_claims.claimed_until <= :now",
            {**key, "until": until, "now": stamp})])
        return ParClaim(day, number, until) if claimed.rowcount == 1 else None

    async def renew_par(self, *, claim: ParClaim, now: datetime, lease: float = PAR_LEASE) -> ParClaim | None:
        """Extend a held claim to `lease` seconds from `now`: the renewed claim, or None when it is no longer the
        holder's (it ran out and another process claimed the par, or the par was stored and the claim dropped)."""
        until = max(claim.until, to_millis(now) + round(lease * 1000))
        [renewed] = await self._db.write([Statement(
            "UPDATE challenge_par_claims SET claimed_until = :until WHERE day = :day AND deal_number = :n "
            "AND claimed_until = :held",
            {"day": claim.day.isoformat(), "n": claim.number, "until": until, "held": claim.until})])
        return ParClaim(claim.day, claim.number, until) if renewed.rowcount == 1 else None

    async def store_par(self, *, day: date, line: ParLine, now: datetime) -> None:
        """Keep a deal's par (the first one stored stands: every process computes the same), and drop its claim."""
        key = {"day": day.isoformat(), "n": line.number}
        await self._db.write([
            Statement("INSERT INTO challenge_pars (day, deal_number, par, line, at) VALUES (:day, :n, :par, :line, "
                      ":now) ON CONFLICT (day, deal_number) DO NOTHING",
                      {**key, "par": line.score, "line": "\n".join(line.moves), "now": to_seconds(now)}),
            Statement("DELETE FROM challenge_par_claims WHERE day = :day AND deal_number = :n", key)])

    async def results(self, *, first: date, last: date, server_id: int | None = None,
                      finished_only: bool = True, player_id: int | None = None) -> list[ChallengeScore]:
        """The result rows of the days `first` to `last` (of one server, or of all; of one player, or of all), by
        day, player and deal; with `finished_only` only those of finished attempts (a day's results for ratings,
        boards and the field)."""
        where = "r.day BETWEEN :first AND :last" + ("" if server_id is None else " AND r.server_id = :s")
        if player_id is not None:
            where += " AND r.player_id = :p"
        if finished_only:
            where += " AND a.finished_at IS NOT NULL"
        rows = await self._db.fetch_all(
            f"SELECT {_RESULT} FROM challenge_results r JOIN challenge_attempts a "
            f"ON a.day = r.day AND a.player_id = r.player_id WHERE {where} "
            "ORDER BY r.day, r.player_id, r.deal_number",
            {"first": first.isoformat(), "last": last.isoformat(), "s": server_id, "p": player_id})
        return [_score(row) for row in rows]

    async def finished_deals(self, *, day: date) -> dict[int, int]:
        """How many deals each finished attempt of `day` had (on every server), by player: a percentile compares
        only attempts of as many deals."""
        rows = await self._db.fetch_all(
            "SELECT player_id, deals FROM challenge_attempts WHERE day = :day AND finished_at IS NOT NULL",
            {"day": day.isoformat()})
        return {int(row["player_id"]): int(row["deals"]) for row in rows}

    async def previous_attempt(self, *, player_id: int, before: date) -> StoredAttempt | None:
        """The player's latest attempt of a day before `before` (no log), None if they have none."""
        rows = await self._db.fetch_all(
            f"SELECT {_ATTEMPT} FROM challenge_attempts WHERE player_id = :p AND day < :before "
            "ORDER BY day DESC LIMIT 1", {"p": player_id, "before": before.isoformat()})
        return _attempt(rows[0]) if rows else None

    async def day_results(self, *, day: date) -> list[ChallengeScore]:
        """A day's results on every server, finished attempts only: what ratings rate a challenge day by."""
        return await self.results(first=day, last=day)

    async def attempts(self, *, first: date, last: date, server_id: int) -> list[StoredAttempt]:
        """The attempts started on a server in those days (for the players' names on its boards), no logs."""
        rows = await self._db.fetch_all(
            f"SELECT {_ATTEMPT} FROM challenge_attempts WHERE server_id = :s AND day BETWEEN :first AND :last "
            "ORDER BY day, player_id", {"s": server_id, "first": first.isoformat(), "last": last.isoformat()})
        return [_attempt(row) for row in rows]
