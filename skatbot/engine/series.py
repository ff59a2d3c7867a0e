"""The score list (Skatliste): an agreed number of deals at a table of three or four players.

Players are listed clockwise in their seating order. The first dealer is `first_dealer` (player 0 by
default) and the deal passes clockwise after every deal, a passed (thrown-in) deal included. The dealer's
left neighbour is forehand, then middlehand, then rearhand; at three the dealer is rearhand, at four the
dealer sits out. Our readings, where the rules texts leave room:

- A passed deal is written as a row of zeros and counts as one of the agreed deals (the cards pass to
  the next dealer, so everyone still deals equally often); inside a Bock round it uses up one Bock deal.
- Each Bock trigger that fires queues one Bock round: one deal per player at the table (3 or 4) at double
  stakes, starting with the next deal; rounds queue one after another. Rounds still queued when the
  agreed deals are played lapse: the list does not grow.
- Bock doubles a declared game's written value (after Kontra and Re) and a Ramsch's scores; the
  Seeger-Fabian 50 and the 40/30 for the other players are not doubled.
- Seeger-Fabian points are kept for every row whatever the rules: declarer won value + 50, lost
  -2 x value - 50 (Kontra and Re double the value, Bock does not), each other player 40 at three and
  30 at four when the declarer loses; a Ramsch or a passed deal gives none. Under the tournament rules
  the list points of a row are the same (plus Bock doubling, if a table adds it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .deal import Deal
from .games import GameType
from .records import RecordError, deal_from_json, deal_to_json, parse_record, replay
from .rules import OFFICIAL, BockTrigger, RuleSet
from .scoring import (
    DealResult,
    declarer_score,
    game_text,
    parse_game_text,
    seeger_defender_bonus,
    seeger_fabian_points,
)

JSON_VERSION = 1


class SeriesError(ValueError):
    """A series that cannot be made, a deal that does not belong in it, or a stored list that does not add up."""


@dataclass(frozen=True, slots=True)
class SeatAssignment:
    """Who sits where for one deal (player indexes into `Series.players`)."""

    number: int  # 1-based deal number
    dealer: int
    seats: tuple[int, int, int]  # forehand, middlehand, rearhand
    sitting_out: int | None  # the dealer at a table of four
    bock: bool


@dataclass(frozen=True, slots=True)
class Row:
    """One deal in the list. Scores are per player (3 or 4), in `Series.players` order."""

    number: int
    dealer: int
    seats: tuple[int, int, int]
    declarer: int | None  # player index; None for a passed deal or a Ramsch
    game: GameType | None  # None for a passed deal
    contract: str  # the contract's text form ("grand hand"), "" for a passed deal
    bid: int
    value: int
    won: bool | None  # None for a passed deal or a Ramsch
    scores: tuple[int, ...]
    seeger: tuple[int, ...]
    bock: bool = False
    kontra: bool = False
    re: bool = False
    bock_triggers: tuple[BockTrigger, ...] = ()  # the triggers this deal fired (each queues a round)
    deal: dict[str, Any] | None = field(default=None, compare=False)  # the deal's JSON record, if kept

    @property
    def markers(self) -> str:
        """Short list markers: B (Bock round), K (Kontra), R (Re), * (queues a Bock round)."""
        return "".join(m for m, on in (("B", self.bock), ("K", self.kontra), ("R", self.re),
                                       ("*", bool(self.bock_triggers))) if on)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number, "dealer": self.dealer, "seats": list(self.seats), "declarer": self.declarer,
            "game": game_text(self.game), "contract": self.contract, "bid": self.bid, "value": self.value, "won": self.won,
            "scores": list(self.scores), "seeger": list(self.seeger), "bock": self.bock, "kontra": self.kontra,
            "re": self.re, "bock_triggers": [t.value for t in self.bock_triggers]}
        if self.deal is not None:
            out["deal"] = self.deal
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Row:
        try:
            seats = tuple(int(s) for s in data["seats"])
            if len(seats) != 3:
                raise SeriesError("a row names three seats")
            return cls(
                number=int(data["number"]), dealer=int(data["dealer"]), seats=seats,
                declarer=None if data["declarer"] is None else int(data["declarer"]), game=parse_game_text(str(data["game"])),
                contract=str(data["contract"]), bid=int(data["bid"]), value=int(data["value"]),
                won=None if data["won"] is None else bool(data["won"]),
                scores=tuple(int(s) for s in data["scores"]), seeger=tuple(int(s) for s in data["seeger"]),
                bock=bool(data["bock"]), kontra=bool(data["kontra"]), re=bool(data["re"]),
                bock_triggers=tuple(BockTrigger(t) for t in data["bock_triggers"]), deal=data.get("deal"))
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, SeriesError):
                raise
            raise SeriesError(f"a stored row is malformed: {error!r}") from None


@dataclass(frozen=True, slots=True)
class RankingLine:
    """One line of the final ranking."""

    place: int  # shared on a tie
    player: int
    name: str
    points: int
    won: int  # games won as declarer
    lost: int  # games lost as declarer


def bock_events(rules: RuleSet, result: DealResult) -> tuple[BockTrigger, ...]:
    """The table's Bock triggers that `result` fires, in the enum's order."""
    if result.passed or result.declarer is None:
        return ()
    fired = {
        BockTrigger.KONTRA_GAME: result.kontra,
        BockTrigger.RE_GAME: result.re,
        BockTrigger.LOST_AT_60: (not result.won and result.game not in (GameType.NULL, GameType.RAMSCH)
                                 and result.declarer_points == 60),
        BockTrigger.GRAND_HAND_WON: (result.won and result.game is GameType.GRAND and result.contract is not None
                                     and result.contract.hand),
        BockTrigger.SCHWARZ: result.game not in (GameType.NULL, GameType.RAMSCH) and result.schwarz,
    }
    return tuple(t for t in BockTrigger if t in rules.bock_triggers and fired[t])


class Series:
    """A score list in progress: who deals, who sits where, the rows, the Bock queue and the totals."""

    def __init__(self, players: Sequence[str], deals: int, rules: RuleSet = OFFICIAL, first_dealer: int = 0) -> None:
        names = tuple(players)
        if len(names) not in (3, 4):
            raise SeriesError("a Skat table has three or four players")
        if any(not isinstance(n, str) or not n.strip() for n in names) or len(set(names)) != len(names):
            raise SeriesError("every player needs a name of their own")
        if not isinstance(deals, int) or isinstance(deals, bool) or deals < 1:
            raise SeriesError("agree on at least one deal")
        if not isinstance(first_dealer, int) or not 0 <= first_dealer < len(names):
            raise SeriesError(f"the first dealer is one of players 0..{len(names) - 1}")
        if not isinstance(rules, RuleSet):
            raise SeriesError("rules must be a RuleSet")
        self.players = names
        self.deals = deals
        self.rules = rules
        self.first_dealer = first_dealer
        self.rows: list[Row] = []
        self.bock_left = 0  # deals left in the running Bock round (the next deal is Bock when > 0)
        self.bock_pending = 0  # Bock rounds queued behind the running one

    # --- seats ------------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def is_over(self) -> bool:
        return len(self.rows) >= self.deals

    def seats_for(self, number: int) -> tuple[int, tuple[int, int, int], int | None]:
        """Dealer, (forehand, middlehand, rearhand) and the player sitting out for deal `number` (1-based)."""
        n = self.size
        dealer = (self.first_dealer + number - 1) % n
        seats = ((dealer + 1) % n, (dealer + 2) % n, (dealer + 3) % n)
        return dealer, seats, (dealer if n == 4 else None)

    def next_deal_seats(self) -> SeatAssignment:
        """Who deals and who sits where in the next deal."""
        if self.is_over:
            raise SeriesError(f"all {self.deals} agreed deals have been played")
        number = len(self.rows) + 1
        dealer, seats, out = self.seats_for(number)
        return SeatAssignment(number, dealer, seats, out, self.bock_left > 0)

    # --- recording ----------------------------------------------------------------------------------

    def record(self, result: DealResult, deal: Deal | None = None) -> Row:
        """Write the next row for a finished deal. With `deal`, its JSON record is kept in the row (for
        export and for checking the row on import)."""
        if not isinstance(result, DealResult):
            raise SeriesError("record a DealResult")
        if deal is not None and (not deal.is_over or deal.result != result):
            raise SeriesError("the deal given is not the finished deal of this result")
        if deal is not None and deal.rules != self.rules:
            raise SeriesError("the deal was played under other rules than this series")
        assignment = self.next_deal_seats()
        row = self._row(assignment, result, None if deal is None else deal_to_json(deal))
        self._append(row)
        return row

    def record_deal(self, deal: Deal) -> Row:
        """Write the next row for a finished engine deal (its record kept)."""
        if not deal.is_over:
            raise SeriesError("the deal is not over yet")
        return self.record(deal.result, deal)

    def _row(self, at: SeatAssignment, result: DealResult, deal_json: dict[str, Any] | None) -> Row:
        n = self.size
        scores, seeger = [0] * n, [0] * n
        declarer: int | None = None
        won: bool | None = None
        if result.passed:
            contract = ""
        elif result.declarer is None:  # Ramsch
            contract = "ramsch"
            for seat, player in enumerate(at.seats):
                scores[player] = result.seat_scores[seat] * (2 if at.bock else 1)
        else:
            assert result.contract is not None
            contract = str(result.contract)
            declarer, won = at.seats[result.declarer], result.won
            scores[declarer] = declarer_score(self.rules, result.value, result.won, result.contract.hand,
                                              result.kontra, result.re, at.bock)
            seeger[declarer] = seeger_fabian_points(result.value, result.won, result.kontra, result.re)
            if not result.won:
                bonus = seeger_defender_bonus(n)
                for player in range(n):
                    if player != declarer:
                        seeger[player] = bonus
                        if self.rules.seeger_fabian:
                            scores[player] = bonus
        return Row(at.number, at.dealer, at.seats, declarer, result.game, contract, result.bid, result.value,
                   won, tuple(scores), tuple(seeger), at.bock, result.kontra, result.re,
                   bock_events(self.rules, result), deal_json)

    def _append(self, row: Row) -> None:
        """Add a row and move the Bock queue on: this deal uses up one Bock deal; its triggers queue rounds."""
        self.rows.append(row)
        if self.bock_left:
            self.bock_left -= 1
        self.bock_pending += len(row.bock_triggers)
        if not self.bock_left and self.bock_pending:
            self.bock_pending -= 1
            self.bock_left = self.size

    # --- totals and ranking ----------------------------------------------------------------------------

    @property
    def totals(self) -> tuple[int, ...]:
        """List points per player: always the sum of the rows."""
        return tuple(sum(row.scores[p] for row in self.rows) for p in range(self.size))

    @property
    def seeger_totals(self) -> tuple[int, ...]:
        return tuple(sum(row.seeger[p] for row in self.rows) for p in range(self.size))

    def ranking(self, by: str = "list") -> list[RankingLine]:
        """Players from best to worst by list points (`list`) or Seeger-Fabian points (`seeger`)."""
        if by not in ("list", "seeger"):
            raise SeriesError("rank by 'list' or 'seeger'")
        points = self.totals if by == "list" else self.seeger_totals
        won = [sum(1 for r in self.rows if r.declarer == p and r.won) for p in range(self.size)]
        lost = [sum(1 for r in self.rows if r.declarer == p and r.won is False) for p in range(self.size)]
        order = sorted(range(self.size), key=lambda p: (-points[p], p))
        standings: list[RankingLine] = []
        for index, player in enumerate(order):
            place = standings[-1].place if standings and standings[-1].points == points[player] else index + 1
            standings.append(RankingLine(place, player, self.players[player], points[player], won[player], lost[player]))
        return standings

    # --- export and import --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole list as JSON-ready data (rows keep their deal records when they have them)."""
        return {"version": JSON_VERSION, "players": list(self.players), "deals": self.deals,
                "rules": self.rules.to_dict(), "first_dealer": self.first_dealer,
                "rows": [row.to_dict() for row in self.rows], "totals": list(self.totals),
                "seeger_totals": list(self.seeger_totals), "bock_left": self.bock_left,
                "bock_pending": self.bock_pending}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Series:
        """Read `to_dict` back, checking every row: its seats and Bock flag against the rotation and the
        queue, and, where it keeps its deal, every field against a replay of that deal."""
        if not isinstance(data, dict) or data.get("version") != JSON_VERSION:
            raise SeriesError(f"a stored series is a JSON object with version {JSON_VERSION}")
        try:
            rules = RuleSet.from_dict(data["rules"])
            series = cls(data["players"], data["deals"], rules, data.get("first_dealer", 0))
            rows = data["rows"]
        except (KeyError, TypeError, ValueError) as error:
            raise SeriesError(f"a stored series is malformed: {error}") from None
        if not isinstance(rows, list):
            raise SeriesError("rows must be a list")
        for raw in rows:
            if not isinstance(raw, dict):
                raise SeriesError("each stored row is a JSON object")
            series._restore(Row.from_dict(raw))
        for name, value in (("totals", series.totals), ("seeger_totals", series.seeger_totals),
                            ("bock_left", series.bock_left), ("bock_pending", series.bock_pending)):
            stored = data.get(name)
            if stored is not None and (list(value) if isinstance(value, tuple) else value) != stored:
                raise SeriesError(f"the stored {name} do not match the rows ({stored} against {value})")
        return series

    def _restore(self, row: Row) -> None:
        if self.is_over:
            raise SeriesError(f"more rows than the {self.deals} agreed deals")
        at = self.next_deal_seats()
        if (row.number, row.dealer, row.seats, row.bock) != (at.number, at.dealer, at.seats, at.bock):
            raise SeriesError(f"row {row.number}: dealer, seats or Bock do not follow the rotation and the queue")
        if len(row.scores) != self.size or len(row.seeger) != self.size:
            raise SeriesError(f"row {row.number}: one score per player")
        if row.deal is not None:
            try:
                deal = deal_from_json(row.deal)
            except RecordError as error:
                raise SeriesError(f"row {row.number}: {error}") from None
            if deal.rules != self.rules or not deal.is_over:
                raise SeriesError(f"row {row.number}: its deal is unfinished or played under other rules")
            if self._row(at, deal.result, row.deal) != row:
                raise SeriesError(f"row {row.number} does not match a replay of its deal")
        self._append(row)

    @classmethod
    def from_iss(cls, lines: Sequence[str], players: Sequence[str], deals: int, rules: RuleSet = OFFICIAL,
                 first_dealer: int = 0) -> Series:
        """Rebuild a list from ISS records in deal order; each record's players must sit where the
        rotation puts them."""
        series = cls(players, deals, rules, first_dealer)
        for line in lines:
            try:
                record = parse_record(line)
                at = series.next_deal_seats()
                names = tuple(record.field(f"P{seat}") for seat in range(3))
                expected = tuple(series.players[p] for p in at.seats)
                if names != expected:
                    raise SeriesError(f"deal {at.number}: the record seats {names}, the rotation {expected}")
                deal = replay(record, rules)
            except RecordError as error:
                raise SeriesError(str(error)) from None
            series.record_deal(deal)
        return series

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Series:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise SeriesError(f"not JSON: {error}") from None
        return cls.from_dict(data)
