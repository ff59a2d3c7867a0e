"""Persistence: settings, players, tables and their logs, deal records, series lists, leaderboards.

Open with `await open_storage(...)` (PostgreSQL for a database URL, else SQLite, the embedded default) or a
backend's own `open`, and code against the `Storage` interface.
"""

from skatbot.models import (
    DealRecord,
    DealScore,
    DealSummary,
    Leaderboard,
    LeaderboardRow,
    LogEntry,
    Player,
    PlayerStats,
    Role,
    ScoreMark,
    SeriesStanding,
    ServerSettings,
    TableRecord,
    TableState,
    UnfinishedTable,
    Window,
)

from .errors import (
    DealConflict,
    LogConflict,
    MigrationError,
    NotFound,
    SchemaTooNew,
    SeriesConflict,
    StorageError,
    StoreBusy,
)
from .interfaces import Storage
from .opening import open_storage
from .postgres.storage import PostgresStorage
from .sql.tournaments import StoredTournament
from .sqlite.storage import SqliteStorage

__all__ = [
    "DealConflict", "DealRecord", "DealScore", "DealSummary", "Leaderboard", "LeaderboardRow", "LogConflict",
    "LogEntry", "MigrationError", "NotFound", "Player", "PlayerStats", "PostgresStorage", "Role", "SchemaTooNew",
    "ScoreMark", "SeriesConflict", "SeriesStanding", "ServerSettings", "SqliteStorage", "Storage",
    "StoreBusy", "StorageError", "StoredTournament", "TableRecord", "TableState", "UnfinishedTable", "Window",
    "open_storage",
]
