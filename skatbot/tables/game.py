"""A table's game state without any I/O: seats, the series of deals, the deal in progress.

`TableGame.apply(entry)` is the only way it changes, for live play and for replaying a stored log
alike, so a restored table is exactly the table that was running.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from skatbot.ai import TABLE_LEVELS, Level
from skatbot.engine import Deal, DealResult, RuleSet
from skatbot.engine.series import Row, Series
from skatbot.models import TableState

from .ai_seats import AiSeat
from .errors import AlreadySeated, NotAllowed, NotAtTable, SittingOut, TableFull, WrongTableState
from .log import Act, AddAI, Close, Entry, Hints, Join, Leave, NewDeal, RemoveAI, StandIn, Start


@dataclass(slots=True)
class Occupant:
    """Who sits in one place: a human (Discord user id) or an AI; a human may have an AI standing in."""

    user_id: int | None
    name: str
    ai_level: Level | None = None
    stand_in: Level | None = None  # level of the AI playing for an absent human
    ai_id: int | None = None  # a stable negative id for an AI player, so its games are listed apart

    @property
    def player_id(self) -> int:
        """The id the score lists know this player by: the Discord id, or the AI's negative id."""
        if self.user_id is not None:
            return self.user_id
        assert self.ai_id is not None
        return self.ai_id

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None

    @property
    def ai_seat(self) -> AiSeat | None:
        """The AI's level and number, as data (None for a human's place)."""
        return AiSeat.of(self.ai_id) if self.ai_id is not None else None

    @property
    def plays_itself(self) -> bool:
        """True when a human is present and acting for this place."""
        return self.ai_level is None and self.stand_in is None

    @property
    def acting_level(self) -> Level | None:
        return self.ai_level or self.stand_in


@dataclass(frozen=True, slots=True)
class FinishedDeal:
    number: int
    dealer: int  # table place of the dealer
    places: tuple[int, int, int]  # table places of forehand, middlehand, rearhand
    result: DealResult
    place_scores: tuple[int, ...]  # what each table place was written (list points)
    deal: Deal = field(compare=False, repr=False)  # the finished deal itself (for records and the last board)
    row: Row = field(compare=False, repr=False)  # the Skatliste row (Seeger-Fabian points, Bock/Kontra/Re markers)
    seq: int = field(compare=False)  # the sequence number of the log entry that finished it (its result card's)


class Seating:
    """Who sits where, read alike from the live `TableGame` and from a `TableView` snapshot of it."""

    __slots__ = ()
    places: Sequence[Occupant]
    size: int
    first_dealer: int
    deal_number: int  # the current deal's index (0-based; people see `deal_number + 1`)
    state: TableState

    @property
    def dealing(self) -> bool:
        """Whether a deal has been dealt (the current one may be over)."""
        raise NotImplementedError

    def place_of(self, user_id: int) -> int | None:
        for place, occupant in enumerate(self.places):
            if occupant.user_id == user_id:
                return place
        return None

    def dealer_of(self, number: int) -> int:
        return (self.first_dealer + number) % self.size

    def places_of(self, number: int) -> tuple[int, int, int]:
        """Table places sitting forehand, middlehand, rearhand in deal `number` (the dealer's left first)."""
        dealer = self.dealer_of(number)
        n = self.size
        if n == 3:
            return ((dealer + 1) % 3, (dealer + 2) % 3, dealer)
        return ((dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4)

    def seat_of_place(self, place: int) -> int | None:
        """Engine seat (0 forehand .. 2 rearhand) of a table place in the current deal, None if sitting out."""
        if not self.dealing:
            return None
        places = self.places_of(self.deal_number)
        return places.index(place) if place in places else None

    def place_of_seat(self, seat: int) -> int:
        return self.places_of(self.deal_number)[seat]

    def seat_of_user(self, user_id: int) -> int:
        """The engine seat a user plays in the current deal; a clear error otherwise."""
        place = self.place_of(user_id)
        if place is None:
            raise NotAtTable("not_at_table")
        if not self.dealing or self.state is not TableState.PLAYING:
            raise WrongTableState("no_deal")
        seat = self.seat_of_place(place)
        if seat is None:
            raise SittingOut("sitting_out")
        return seat

    def occupant_of_seat(self, seat: int) -> Occupant:
        return self.places[self.place_of_seat(seat)]

    @property
    def humans(self) -> list[Occupant]:
        return [o for o in self.places if not o.is_ai]

    @property
    def present_humans(self) -> list[Occupant]:
        return [o for o in self.places if o.plays_itself]

    def list_names(self) -> list[str]:
        """Player names for the list, made unique (two players may share a display name)."""
        names: list[str] = []
        for occupant in self.places:
            base = occupant.name.strip() or "?"
            name, suffix = base, 2
            while name in names:
                name, suffix = f"{base} ({suffix})", suffix + 1
            names.append(name)
        return names


@dataclass
class TableGame(Seating):
    """Seats, series and the current deal of one table."""

    size: int
    deals: int
    rules: RuleSet
    creator_id: int
    places: list[Occupant] = field(default_factory=list)
    state: TableState = TableState.OPEN
    deal: Deal | None = None
    deal_number: int = -1
    finished: list[FinishedDeal] = field(default_factory=list)
    close_reason: str | None = None
    hints: bool = False  # learners may ask for the strong level's choice (/skat hint)
    series: Series | None = None  # the Skatliste, from the start of play
    first_dealer: int = 0  # the table place that deals first (drawn at the start)
    misses: dict[int, int] = field(default_factory=dict)  # table place -> turns in a row it let time out
    seq: int = 0  # how many log entries were applied: the sequence number the next one gets

    def __post_init__(self) -> None:
        if self.size not in (3, 4):
            raise NotAllowed("size")
        if self.deals < 1:
            raise NotAllowed("deals")

    # --- who sits where (see `Seating`) ------------------------------------------------------------

    @property
    def dealing(self) -> bool:
        return self.deal is not None

    @property
    def needs_new_deal(self) -> bool:
        return self.state is TableState.PLAYING and (self.deal is None or self.deal.is_over)

    def totals(self) -> list[int]:
        """Running list points per table place."""
        return list(self.series.totals) if self.series else [0] * len(self.places)

    # --- changes -------------------------------------------------------------------------------------

    def apply(self, entry: Entry) -> FinishedDeal | None:
        """Apply one log entry; returns the finished deal when this entry ended one. A refused entry raises and
        changes nothing (its sequence number is not used up)."""
        finished = self._apply(entry)
        self.seq += 1
        return finished

    def _apply(self, entry: Entry) -> FinishedDeal | None:
        if isinstance(entry, Act):
            return self._act(entry)
        if isinstance(entry, Join):
            place = self.place_of(entry.user_id)
            if self.state is TableState.PLAYING and place is not None and self.places[place].stand_in:
                self.places[place].stand_in = None  # back at the table: the stand-in steps aside
                return None
            self._require(TableState.OPEN, "started")
            if place is not None:
                raise AlreadySeated("seated")
            if len(self.places) >= self.size:
                raise TableFull("table_full", size=self.size)
            self.places.append(Occupant(entry.user_id, entry.name))
        elif isinstance(entry, Leave):
            self._leave(entry.user_id)
        elif isinstance(entry, AddAI):
            self._require(TableState.OPEN, "ai_before_start")
            if entry.level not in TABLE_LEVELS:
                raise NotAllowed("ai_level", level=str(entry.level))
            if len(self.places) >= self.size:
                raise TableFull("table_full", size=self.size)
            taken = {seat.number for seat in (o.ai_seat for o in self.places) if seat is not None}
            seat = AiSeat(entry.level, next(n for n in range(1, 5) if n not in taken))
            self.places.append(Occupant(None, seat.stored_name, ai_level=entry.level, ai_id=seat.player_id))
        elif isinstance(entry, RemoveAI):
            self._require(TableState.OPEN, "ai_remove_before_start")
            for place in range(len(self.places) - 1, -1, -1):
                if self.places[place].is_ai:
                    del self.places[place]
                    break
            else:
                raise NotAllowed("no_ai")
        elif isinstance(entry, Start):
            self._require(TableState.OPEN, "already_started")
            if len(self.places) != self.size:
                raise NotAllowed("too_few", size=self.size, seated=len(self.places))
            if not self.humans:
                raise NotAllowed("no_human")
            if not 0 <= entry.first_dealer < self.size:
                raise ValueError(f"the first dealer must be one of places 0..{self.size - 1}")
            self.first_dealer = entry.first_dealer
            self.series = Series(self.list_names(), self.deals, self.rules, entry.first_dealer)
            self.state = TableState.PLAYING
        elif isinstance(entry, NewDeal):
            self._require(TableState.PLAYING, "not_playing")
            if not self.needs_new_deal or entry.number != self.deal_number + 1:
                raise NotAllowed("no_new_deal")
            self.deal_number = entry.number
            self.deal = Deal.new(entry.seed, self.rules)
        elif isinstance(entry, StandIn):
            occupant = self.places[entry.place]
            if occupant.is_ai:
                raise NotAllowed("ai_stand_in")
            occupant.stand_in = entry.level
            self.misses.pop(entry.place, None)  # counted afresh once they are back
        elif isinstance(entry, Hints):
            self._require(TableState.OPEN, "already_started")
            self.hints = True
        elif isinstance(entry, Close):
            if self.state in (TableState.FINISHED, TableState.ABANDONED):
                raise WrongTableState("already_closed")
            self.state = TableState.ABANDONED
            self.close_reason = entry.reason
        return None

    def _require(self, state: TableState, reason: str) -> None:
        if self.state is not state:
            raise WrongTableState(reason)

    def _leave(self, user_id: int) -> None:
        place = self.place_of(user_id)
        if place is None:
            raise NotAtTable("not_at_table")
        if self.state is TableState.OPEN:
            del self.places[place]
        elif self.state is TableState.PLAYING:
            self.places[place].stand_in = self.places[place].stand_in or Level.NORMAL
        else:
            raise WrongTableState("closed")

    def _act(self, entry: Act) -> FinishedDeal | None:
        self._require(TableState.PLAYING, "no_deal")
        deal = self.deal
        if deal is None or entry.number != self.deal_number:
            raise WrongTableState("old_deal")
        place = None if entry.seat is None else self.place_of_seat(entry.seat)
        present = place is not None and self.places[place].plays_itself
        deal.apply(entry.action, entry.seat)
        if place is not None and entry.timed_out:
            self.misses[place] = self.misses.get(place, 0) + 1
        elif present and place is not None:
            self.misses.pop(place, None)  # the player acted in time
        if not deal.is_over:
            return None
        assert self.series is not None
        list_row = self.series.record(deal.result)
        places = self.places_of(self.deal_number)
        assert list_row.seats == places, "the table and its list disagree on the seating"
        row = FinishedDeal(self.deal_number, self.dealer_of(self.deal_number), places, deal.result, list_row.scores,
                           deal, list_row, self.seq)
        self.finished.append(row)
        if len(self.finished) >= self.deals:
            self.state = TableState.FINISHED
        return row
