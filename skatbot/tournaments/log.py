"""The tournament's log: sign-ups, draws, tables opened, messages shown, the end; one line of text each,
append-only, replayed the same way a table's log is. `TournamentState` is what the log says: apply checks
an entry against it (a refusal changes nothing) before the entry is stored.

Results are not in the log: they are the stored deal records of the tables the log names (`table` lines),
so standings are always recomputed from what the tables stored.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from skatbot.engine.errors import Refusal

from .draw import TableDraw

MOST_SERIES = 6
FEWEST_DEALS = 3
RULES_DEALS = 36
"""A series under the tournament rules: 36 deals at a table of three, 48 at a table of four (each player
deals equally often: 12 times)."""


class TournamentError(Refusal):
    """A step the tournament refuses as it stands: a whole reply (`tournament.error.<key>`)."""

    whole = True
    prefix = "tournament.error."
    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "already_joined": (),
        "at_tournament_table": ("name", "series", "table"),
        "already_started": (),
        "bad_rules": ("text",),
        "bad_time": ("text",),
        "busy": (),
        "cannot_split": ("players",),
        "channel_busy": ("id", "name"),
        "channel_kind": (),
        "deals_range": ("least", "most"),
        "draw_players": (),
        "fee_negative": (),
        "late_entry": ("name",),
        "late_leave": ("name",),
        "no_more_series": (),
        "no_such_table": (),
        "no_threads": ("perms",),
        "no_tournament": (),
        "not_joined": (),
        "not_started": (),
        "not_threes": ("players",),
        "organisers_only": (),
        "past_time": ("text",),
        "player_at_tournament_table": ("player", "name", "series", "table"),
        "player_busy": ("names",),
        "series_range": ("least", "most"),
        "series_running": (),
        "table_opened": (),
        "too_few": ("players", "least"),
        "thread_refused": ("table", "error", "seconds"),
        "tournament_ended": (),
        "two_tables": (),
    }


class Stage(StrEnum):
    SIGNUP = "signup"
    PLAYING = "playing"
    ENDED = "ended"


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """What the organiser chose at /tournament new (stored with the tournament, like a table's rules)."""

    name: str
    series: int = 1
    deals: int = RULES_DEALS  # at a table of three; a table of four plays a third more
    three: bool = False  # every table a table of three
    preset: str = "tournament"
    ai_fill: bool = False
    entry_fee: int = 0  # cents, booked only
    lost_fee: int = 0  # cents per game lost as declarer, booked only
    start_at: int | None = None  # epoch seconds: the tournament starts itself then
    auto_next: bool = False  # the next series starts when every table of one has finished

    def __post_init__(self) -> None:
        if not 1 <= self.series <= MOST_SERIES:
            raise TournamentError("series_range", least=1, most=MOST_SERIES)
        if not FEWEST_DEALS <= self.deals <= RULES_DEALS or self.deals % 3:  # everyone deals equally often
            raise TournamentError("deals_range", least=FEWEST_DEALS, most=RULES_DEALS)
        if self.entry_fee < 0 or self.lost_fee < 0:
            raise TournamentError("fee_negative")

    def deals_at(self, size: int) -> int:
        """A series' deals at a table of `size`: four play a third more, so each player deals as often (and at a
        table of four, where the dealer sits out, plays as many deals as at a table of three): hence a multiple of
        three at three (36: 12 each), and of four at four (48: each deals 12 and plays 36)."""
        return self.deals if size == 3 else -(-self.deals * 4 // 3)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> TournamentSettings:
        data: dict[str, Any] = json.loads(text)
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


@dataclass(frozen=True, slots=True)
class Joined:
    player: int
    name: str

    def __str__(self) -> str:
        return f"join {self.player} {self.name}"


@dataclass(frozen=True, slots=True)
class Left:
    player: int

    def __str__(self) -> str:
        return f"leave {self.player}"


@dataclass(frozen=True, slots=True)
class Drawn:
    """A series' tables, drawn by lot (series 1, from `seed`) or set by the standings (`seed` 0)."""

    series: int
    seed: int
    tables: tuple[TableDraw, ...]

    def __str__(self) -> str:
        return f"draw {self.series} {self.seed} " + "|".join(str(t) for t in self.tables)


@dataclass(frozen=True, slots=True)
class TableOpened:
    """Table `index` (1-based) of a series plays as the ordinary table `table_id`."""

    series: int
    index: int
    table_id: int

    def __str__(self) -> str:
        return f"table {self.series} {self.index} {self.table_id}"


@dataclass(frozen=True, slots=True)
class Shown:
    """A message the tournament keeps up to date: `signup`, `standings` (`series` 0: for the whole)."""

    kind: str
    message_id: int

    def __str__(self) -> str:
        return f"shown {self.kind} {self.message_id}"


@dataclass(frozen=True, slots=True)
class Ended:
    """`finished` (every series played) or `stopped` (by the organiser, standings as they are)."""

    reason: str

    def __str__(self) -> str:
        return f"end {self.reason}"


Entry = Joined | Left | Drawn | TableOpened | Shown | Ended


def parse_entry(text: str) -> Entry:
    """Read the `str` form of an entry; ValueError names what is wrong."""
    verb, _, rest = text.strip().partition(" ")
    try:
        if verb == "join":
            player, _, name = rest.partition(" ")
            return Joined(int(player), name)
        if verb == "leave":
            return Left(int(rest))
        if verb == "draw":
            series, seed, tables = rest.split(" ", 2)
            return Drawn(int(series), int(seed), tuple(TableDraw.parse(t) for t in tables.split("|")))
        if verb == "table":
            series, index, table_id = rest.split()
            return TableOpened(int(series), int(index), int(table_id))
        if verb == "shown":
            kind, message = rest.split()
            return Shown(kind, int(message))
        if verb == "end" and rest in ("finished", "stopped"):
            return Ended(rest)
    except ValueError as error:
        raise ValueError(f"malformed tournament log entry {text!r}: {error}") from None
    raise ValueError(f"unknown tournament log entry {text!r}")


@dataclass
class TournamentState:
    """A tournament as its log tells it."""

    settings: TournamentSettings
    organiser: int
    phase: Stage = Stage.SIGNUP
    players: dict[int, str] = field(default_factory=dict)  # sign-up order
    draws: list[Drawn] = field(default_factory=list)  # one per series started
    tables: dict[tuple[int, int], int] = field(default_factory=dict)  # (series, index) -> table id
    shown: dict[str, int] = field(default_factory=dict)
    ended: str | None = None

    @property
    def series(self) -> int:
        """The series under way (0 before the start)."""
        return len(self.draws)

    def current(self) -> Drawn | None:
        return self.draws[-1] if self.draws else None

    def series_tables(self, series: int) -> dict[int, int]:
        """Table number -> table id of a series (the ones opened so far)."""
        return {index: table_id for (s, index), table_id in self.tables.items() if s == series}

    def unopened(self) -> list[tuple[int, TableDraw]]:
        """Tables of the current series drawn but not opened yet (a restart in the middle of opening)."""
        drawn = self.current()
        if drawn is None or self.phase is not Stage.PLAYING:
            return []
        return [(i, t) for i, t in enumerate(drawn.tables, 1) if (drawn.series, i) not in self.tables]

    def table_of(self, table_id: int) -> tuple[int, int] | None:
        """(series, table number) of one of the tournament's tables."""
        return next((key for key, tid in self.tables.items() if tid == table_id), None)

    def check(self, entry: Entry) -> None:
        """Raise TournamentError if `entry` cannot follow; nothing changes."""
        if isinstance(entry, Shown):
            return
        if self.phase is Stage.ENDED:
            raise TournamentError("tournament_ended")
        if isinstance(entry, Joined):
            if self.phase is not Stage.SIGNUP:  # as at a club evening: no late entries, not even for a later series
                raise TournamentError("late_entry", name=self.settings.name)
            if entry.player in self.players:
                raise TournamentError("already_joined")
        elif isinstance(entry, Left):
            if self.phase is not Stage.SIGNUP:  # a seat at a table now: left there, an AI plays on
                raise TournamentError("late_leave", name=self.settings.name)
            if entry.player not in self.players:
                raise TournamentError("not_joined")
        elif isinstance(entry, Drawn):
            if entry.series != self.series + 1 or entry.series > self.settings.series:
                raise TournamentError("no_more_series")
            seated = [p for t in entry.tables for p in t.players]
            if len(seated) != len(set(seated)):
                raise TournamentError("two_tables")
            if set(seated) != set(self.players):
                raise TournamentError("draw_players")
        elif isinstance(entry, TableOpened):
            drawn = self.current()
            if drawn is None or entry.series != drawn.series or not 1 <= entry.index <= len(drawn.tables):
                raise TournamentError("no_such_table")
            if (entry.series, entry.index) in self.tables:
                raise TournamentError("table_opened")

    def apply(self, entry: Entry) -> None:
        self.check(entry)
        if isinstance(entry, Joined):
            self.players[entry.player] = entry.name
        elif isinstance(entry, Left):
            del self.players[entry.player]
        elif isinstance(entry, Drawn):
            self.draws.append(entry)
            self.phase = Stage.PLAYING
        elif isinstance(entry, TableOpened):
            self.tables[(entry.series, entry.index)] = entry.table_id
        elif isinstance(entry, Shown):
            self.shown[entry.kind] = entry.message_id
        else:
            self.phase = Stage.ENDED
            self.ended = entry.reason

    @classmethod
    def replay(cls, settings: TournamentSettings, organiser: int, entries: Iterable[str]) -> TournamentState:
        state = cls(settings, organiser)
        for text in entries:
            state.apply(parse_entry(text))
        return state
