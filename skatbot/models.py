"""What the storage layer takes and returns, and the ui shows: small immutable domain values, no SQL.
They live outside both packages so the ui can present them without importing storage.

Rule sets travel as JSON-ready dicts (the engine's RuleSet is rebuilt from them by `replay`), actions as
their text form (`str(action)`, read back with `parse_action`), times as aware UTC datetimes.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import Enum, StrEnum
from typing import Any, ClassVar, NewType, Protocol

from skatbot.engine import Ending, GameType, RuleSet
from skatbot.engine.errors import Refusal

MAX_ID = 2**63 - 1
"""Ids are stored as signed 64-bit integers (SQLite INTEGER, PostgreSQL BIGINT)."""

Lang = NewType("Lang", str)
"""A language code the bot speaks (`en`, `de`, `da`, `fr`: the registry in `skatbot.ui.languages`), as a type of
its own: never confused with a deck. Here, below storage and the ui, so both pass it typed."""


class Deck(StrEnum):
    """The card names and faces a server's players see: the four-colour French deck or the German one."""

    FRENCH = "french"
    GERMAN = "german"


DECK_STYLES = tuple(Deck)
CHANNEL_POLICIES = ("thread", "channel")


def check_id(name: str, value: int) -> int:
    """Refuse ids that do not fit a signed 64-bit column, with the name of the argument."""
    if isinstance(value, bool) or not isinstance(value, int) or not -MAX_ID <= value <= MAX_ID:
        raise ValueError(f"{name} must be an integer id that fits 64 bits, not {value!r}")
    return value


def seen_number(index: int) -> int:
    """The number people see for the deal at the 0-based `index` (the first deal is deal 1): the one place
    where a deal's index becomes its number, in texts, file names, buttons and stored records."""
    return index + 1


def counted(count: int, noun: str, nouns: str | None = None) -> str:
    """A count with its noun in the right number, for the log and the tools' English output: `1 server`,
    `2 servers`, `1 entry` (`nouns`: a plural other than the noun and s)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def to_seconds(moment: datetime) -> int:
    """Stored form of a time: whole seconds since the epoch. Naive datetimes are refused (ambiguous)."""
    if moment.tzinfo is None:
        raise ValueError("times must be timezone-aware (use datetime.now(UTC))")
    return int(moment.timestamp())


def from_seconds(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """A server's choices: default house rules, turn timers, deck style, language, where tables go."""

    server_id: int
    rule_preset: str = "official"
    rules: dict[str, Any] = field(default_factory=dict)  # options changed from the preset, as in to_dict
    turn_seconds: int = 60
    warning_seconds: int = 15
    deck_style: Deck = Deck.FRENCH
    language: Lang = Lang("en")
    channel_policy: str = "channel"  # play in the channel itself, or (chosen) a thread per table
    allowed_channels: tuple[int, ...] = ()  # empty: every channel
    pictures: bool = True  # hands, tricks and charts as images as well as text
    organiser_role: int | None = None  # members of this role organise tournaments too (besides Manage Server)

    def __post_init__(self) -> None:
        check_id("server_id", self.server_id)
        if self.turn_seconds <= 0:
            raise ValueError("turn_seconds must be positive")
        if not 0 <= self.warning_seconds < self.turn_seconds:
            raise ValueError("warning_seconds must be at least 0 and less than turn_seconds")
        if self.deck_style not in DECK_STYLES:
            raise ValueError(f"deck_style must be one of {', '.join(DECK_STYLES)}")
        object.__setattr__(self, "deck_style", Deck(self.deck_style))  # stored as its word, read back as a Deck
        if self.channel_policy not in CHANNEL_POLICIES:
            raise ValueError(f"channel_policy must be one of {', '.join(CHANNEL_POLICIES)}")
        if not self.language or len(self.language) > 16:
            raise ValueError("language must be a short language code such as 'en' or 'de'")
        for channel in self.allowed_channels:
            check_id("allowed_channels", channel)
        if self.organiser_role is not None:
            check_id("organiser_role", self.organiser_role)
        self.rule_set.validate()  # an unknown preset or option, or a contradiction, is refused before storing

    @property
    def rule_set(self) -> RuleSet:
        """The server's default rules: the preset with the server's changed options applied."""
        return RuleSet.preset(self.rule_preset).with_options(**self.rules)


@dataclass(frozen=True, slots=True)
class Player:
    player_id: int  # the Discord user id; AI players use negative ids chosen by the tables layer
    display_name: str
    is_ai: bool = False


class TableState(Enum):
    OPEN = "open"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A table and its series: seats hold player ids in table-seat order (3, or 4 with a sitting-out dealer)."""

    table_id: int
    server_id: int
    channel_id: int
    thread_id: int | None
    creator_id: int
    seats: tuple[int, ...]
    rule_preset: str
    rules: dict[str, Any]
    series_length: int
    state: TableState
    created_at: datetime
    updated_at: datetime
    size: int = 3  # seats at the table: 3, or 4 with the dealer sitting out each deal


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One accepted step of a table, stored as the tables layer wrote it (`skatbot.tables.log`: `join 5 Anna`,
    `deal 0 1234`, `act 0 1 bid 18`) under the table's own sequence number. Storage never reads the text:
    the tables layer's replayer is the only one."""

    seq: int
    entry: str
    at: datetime


@dataclass(frozen=True, slots=True)
class UnfinishedTable:
    """What restore needs: the table, its whole log, and which deals already have stored records."""

    table: TableRecord
    log: tuple[LogEntry, ...]
    stored_deals: frozenset[int]


class DueKind(Enum):
    """What a table must do by itself, without a player acting: an AI seat's move (or its Kontra/Re), a
    human's turn warning or expiry, a follow-up step (the next deal) its last entry obliges, or the end of
    the Kontra window (a human leader's first card waits while other humans may still say Kontra or Re;
    the row's time is the window's end, kept while later entries still want the window)."""

    AI = "ai"
    WARN = "warn"
    TIMEOUT = "timeout"
    FOLLOW = "follow"
    KONTRA = "kontra"


DUE_LEASE = 3.0
"""Seconds a due row stays with the process that wrote or claimed it, past its time, before another process
may claim it: how long a step waits for a process that died."""


@dataclass(frozen=True, slots=True)
class Due:
    """One thing a table's entry makes due, `delay` seconds after the entry is stored."""

    kind: DueKind
    delay: float = 0.0


@dataclass(frozen=True, slots=True)
class DueStep:
    """A due row as stored: table `table_id` must do `kind` at `at`, if it is still at sequence number `seq`
    then (firing is keyed by all three, so a step fires at most once, and a stale one is dropped)."""

    table_id: int
    seq: int
    kind: DueKind
    at: datetime


class Role(Enum):
    DECLARER = "declarer"
    DEFENDER = "defender"
    RAMSCH = "ramsch"
    PASSED = "passed"
    OUT = "out"  # the dealer sitting out at a table of four


@dataclass(frozen=True, slots=True)
class DealScore:
    """One player's line for a deal: list points under the table's rules and Seeger-Fabian points."""

    player_id: int
    seat: int | None  # 0 forehand, 1 middlehand, 2 rearhand; None when sitting out
    role: Role
    won: bool | None  # the player's side won; None when there was no game for them
    score: int
    seeger: int


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A finished deal as stored: result fields, full records, and every player's score line."""

    table_id: int
    deal_number: int
    server_id: int
    declarer_id: int | None
    game: GameType | None  # None for a passed deal (stored as "passed": engine.game_text)
    contract: str  # str(Contract), "" for a passed deal
    hand: bool
    ouvert: bool
    bid: int
    won: bool
    overbid: bool
    schneider: bool
    schwarz: bool
    matadors: int
    declarer_points: int
    declarer_tricks: int
    multiplier: int
    value: int
    score: int
    ending: Ending
    kontra: bool
    re: bool
    bock: int  # how many Bock rounds doubled this deal (0: none)
    iss: str
    record_json: str
    started_at: datetime
    finished_at: datetime
    scores: tuple[DealScore, ...]
    deal_id: int | None = None  # assigned when stored

    def result_key(self) -> tuple[object, ...]:
        """The fields that must agree when the same deal is stored twice."""
        return (self.declarer_id, self.game, self.contract, self.won, self.value, self.score, self.bock,
                tuple(sorted((s.player_id, s.score, s.seeger) for s in self.scores)))


@dataclass(frozen=True, slots=True)
class SeriesStanding:
    """A player's place on a series list (running or final)."""

    player_id: int
    place: int
    total: int
    seeger: int
    deals: int


class Window(Enum):
    """Leaderboard time windows."""

    WEEK = 7
    MONTH = 30
    ALL = 0

    def since(self, now: datetime) -> datetime | None:
        return None if self is Window.ALL else now - timedelta(days=self.value)


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    player_id: int
    display_name: str
    is_ai: bool
    points: int
    seeger: int
    deals: int
    declared: int
    won: int
    series: int
    series_points: int

    @property
    def win_share(self) -> float:
        return self.won / self.declared if self.declared else 0.0


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """One page of the human ranking, plus the AI players listed apart."""

    server_id: int
    window: Window
    page: int
    page_size: int
    total_humans: int
    humans: tuple[LeaderboardRow, ...]
    ai: tuple[LeaderboardRow, ...]

    @property
    def pages(self) -> int:
        return max(1, -(-self.total_humans // self.page_size))


@dataclass(frozen=True, slots=True)
class ScoreMark:
    """A single deal score with the deal it came from (biggest win, biggest loss)."""

    score: int
    deal_id: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    server_id: int
    player_id: int
    display_name: str
    is_ai: bool
    deals: int
    points: int
    seeger: int
    games_by_type: dict[str, int]  # suits, grand, null, hand, ouvert (as declarer)
    declared: int
    declared_won: int
    defended: int
    defended_won: int
    biggest_win: ScoreMark | None
    biggest_loss: ScoreMark | None
    best_series: SeriesStanding | None
    best_series_table: int | None


@dataclass(frozen=True, slots=True)
class DealSummary:
    """One line of a history list."""

    deal_id: int
    table_id: int
    deal_number: int
    declarer_id: int | None
    game: GameType | None  # None for a passed deal
    contract: str
    won: bool
    value: int
    score: int  # the declarer's score as the list wrote it (Kontra, Re, Bock included)
    finished_at: datetime
    player_score: int | None = None  # in a player's history: what that player was written


@dataclass(frozen=True, slots=True)
class ShownMessage:
    """A message the bot keeps up to date for a table. `role`: lobby, board, hand, dm_notice, creator_told."""

    role: str
    user_id: int
    deal: int
    channel_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class ShownUpTo:
    """How far the bot has shown what a table's log owes its channel (result cards, the ranking or closing
    notice, the table's end), by position (`seq`, `part`; see `tables.replay.Position`): everything before it is
    shown. `draft`: the text of the item at exactly that position, written down before it is posted (so a post
    Discord took just before a crash is looked for, not repeated); None when none is being posted."""

    seq: int = 0
    part: int = 0
    draft: str | None = None

    @property
    def position(self) -> tuple[int, int]:
        return self.seq, self.part


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """An outbox row as versions before migration 0019 kept it, by name (`result:<deal>`, `ranking`, `closed`,
    `end`): read once to find a running table's position (`ShownUpTo`), then dropped."""

    item: str
    content: str
    shown: bool


class StoreBusy(Refusal):
    """The database was held by another writer past the wait (or did not answer): nothing was written, and
    the same write may be tried again later. The one class for a busy store: storage raises it, the tables
    pass it on, the ui retries its memory writes on it, and a player is told "try again in a moment" (key
    `store_busy`). Here because neither storage nor the ui may import the other. `detail`: for the log."""

    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = {"store_busy": ()}

    def __init__(self, detail: str = "") -> None:
        super().__init__("store_busy")
        self.detail = detail

    def __str__(self) -> str:
        return f"{super().__str__()} ({self.detail})" if self.detail else super().__str__()

    def __reduce__(self) -> tuple[object, ...]:
        return StoreBusy, (self.detail,)


class PresenterMemory(Protocol):
    """Where the presenter keeps its message ids and outbox marks: the ui needs it, storage implements it
    (here, because neither of the two may import the other)."""

    def presenting(self, *, table_id: int) -> AbstractAsyncContextManager[None]: ...
    async def remember(self, *, table_id: int, role: str, channel_id: int, message_id: int, user_id: int = 0,
                       deal: int = -1) -> None: ...
    async def forget(self, *, table_id: int, role: str, user_id: int = 0) -> None: ...
    async def recall(self, *, table_id: int) -> list[ShownMessage]: ...
    async def shown_up_to(self, *, table_id: int) -> ShownUpTo: ...
    async def owe(self, *, table_id: int, at: tuple[int, int], content: str) -> None: ...
    async def mark_shown(self, *, table_id: int, up_to: tuple[int, int]) -> None: ...
    async def legacy_outbox(self, *, table_id: int) -> dict[str, OutboxItem]: ...
    async def drop_legacy_outbox(self, *, table_id: int) -> None: ...
