"""Storage errors: narrow classes so the bot can turn each into a clear reply or log line."""

from __future__ import annotations

from skatbot.models import StoreBusy

__all__ = ["DealConflict", "LogConflict", "MigrationError", "NotFound", "SchemaTooNew", "SeriesConflict",
           "StorageError", "StoreBusy"]


class StorageError(Exception):
    """Base class of everything the storage layer raises on purpose."""


class NotFound(StorageError):
    """The row asked for does not exist (repositories never answer None for a missing row)."""


class SchemaTooNew(StorageError):
    """The database was written by a newer skatbot; opening it would risk corrupting it."""


class MigrationError(StorageError):
    """The migration files are malformed (gaps in the numbering, bad names)."""


class LogConflict(StorageError):
    """A table log entry with that sequence number exists already: someone else wrote this table."""


class DealConflict(StorageError):
    """A deal with that (table, deal number) is stored with a different result: refuse to overwrite it."""


class SeriesConflict(StorageError):
    """The series cannot be finished as asked (the table was abandoned)."""
