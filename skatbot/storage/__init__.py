"""Persistence: settings, players, tables and their logs, deal records, series lists, leaderboards.

Open with `await SqliteStorage.open(path)` and code against the `Storage` interface.
"""

from .errors import (
    DealConflict,
    LogConflict,
    MigrationError,
    NotFound,
    SchemaTooNew,
    SeriesConflict,
    StorageError,
)
from .interfaces import Storage
from .models import (
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
    Table,
    TableState,
    UnfinishedTable,
    Window,
)
from .sqlite.storage import SqliteStorage

__all__ = [
    "DealConflict", "DealRecord", "DealScore", "DealSummary", "Leaderboard", "LeaderboardRow", "LogConflict",
    "LogEntry", "MigrationError", "NotFound", "Player", "PlayerStats", "Role", "SchemaTooNew",
    "ScoreMark", "SeriesConflict", "SeriesStanding", "ServerSettings", "SqliteStorage", "Storage",
    "StorageError", "Table", "TableState", "UnfinishedTable", "Window",
]
