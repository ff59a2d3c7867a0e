"""skatbot.storage.sqlite.holder, within one process: held twice is one hold, let go it is free, and a file system
that cannot lock runs unguarded with a warning. (A second process refused: tests/e2e/test_skatbot_startup.py.)"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
from pathlib import Path

import pytest

from skatbot.storage.sqlite import holder


def test_a_hold_is_the_process_s_and_let_go_at_close(tmp_path: Path) -> None:
    database = tmp_path / "skat.sqlite3"
    holder.hold(database)
    holder.hold(database)  # a second bot object in this process (as a test makes) shares it
    assert holder.lock_path(database).read_text() == str(os.getpid())
    holder.let_go(database)
    holder.let_go(database)
    with holder.lock_path(database).open() as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free again


def test_a_file_system_without_locks_runs_unguarded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    def no_locks(descriptor: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", no_locks)
    with caplog.at_level(logging.WARNING):
        holder.hold(tmp_path / "skat.sqlite3")
    assert "would not be noticed" in caplog.text
    holder.let_go(tmp_path / "skat.sqlite3")
