"""One bot process per SQLite file. A SQLite file serves one process: its table locks are in that process, so
a second bot on the same file (`./run` twice, two containers on one volume) would play the same tables twice.
The bot holds an exclusive lock (flock) on `<database>.lock` beside the file while it runs; a second one is
refused at start-up, naming the first one's pid. The kernel lets the lock go when the process ends, however it
ends, so a killed bot never blocks its restart. The storage tool does not take it (`check` and `backup` may run
beside the bot). PostgreSQL needs none: its locks are in the server.
"""

from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path

from ..errors import StorageError

log = logging.getLogger(__name__)

_held: dict[Path, int] = {}
"""The lock files this process holds, by database path, and their descriptors (a second bot object in the same
process, as a test makes, shares its hold)."""


class FileInUse(StorageError):
    """Another process runs a bot on this SQLite file."""

    def __init__(self, path: Path, holder: str) -> None:
        self.path, self.holder = path, holder
        super().__init__(f"another skatbot process{f' (pid {holder})' if holder else ''} runs on {path}")


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


def hold(database: Path) -> None:
    """Take `database`'s lock for this process, or raise FileInUse when another process has it."""
    key = database.resolve()
    if key in _held:
        return
    descriptor = os.open(lock_path(key), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(descriptor, 32).decode(errors="replace").strip()
        os.close(descriptor)
        raise FileInUse(database, holder if holder.isdecimal() else "") from None
    except OSError as error:  # a file system without flock (some network shares): run, unguarded
        os.close(descriptor)
        log.warning("cannot lock %s (%s): a second bot on this SQLite file would not be noticed", database, error)
        return
    os.ftruncate(descriptor, 0)
    os.write(descriptor, str(os.getpid()).encode())
    _held[key] = descriptor


def let_go(database: Path) -> None:
    """Give the lock back (closing its descriptor is what lets it go)."""
    descriptor = _held.pop(database.resolve(), None)
    if descriptor is not None:
        os.close(descriptor)
