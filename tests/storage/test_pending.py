"""Markers of moves shown as pending: kept whole, private to the bot's user, gone once dropped."""

from __future__ import annotations

import stat
from pathlib import Path

from skatbot.models import Lang
from skatbot.storage.pending import PendingMove, PendingMoves


def recorded_in(marker: PendingMove, stored: list[str]) -> bool:
    """Whether log entries stored since the click say it was recorded (as `PendingReplies` reads them)."""
    return any(marker.means(line) for line in stored)


def move(interaction_id: int) -> PendingMove:
    return PendingMove(interaction_id, 42, "secret-token", 1e10, 7, 1, 12, "act 0 1 play CJ", Lang("de"))


async def test_markers_are_kept_until_dropped_and_private(tmp_path: Path) -> None:
    moves = PendingMoves.beside(tmp_path / "skat.sqlite3")
    assert await moves.all() == []
    await moves.put(move(9))
    await moves.put(move(3))
    assert await moves.all() == [move(3), move(9)]
    folder = tmp_path / "skat.sqlite3.pending"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(path.stat().st_mode) == 0o600 for path in folder.iterdir())
    await moves.drop(3)
    await moves.drop(3)  # twice is fine
    assert await moves.all() == [move(9)]
    assert "secret-token" not in "".join(p.read_text() for p in folder.iterdir() if p.name.startswith("3"))


async def test_a_marker_cut_short_by_a_crash_is_removed_not_trusted(tmp_path: Path) -> None:
    moves = PendingMoves(tmp_path / "pending")
    await moves.put(move(5))
    (tmp_path / "pending" / "6.part").write_text('{"interaction_id": 6, "tok')
    (tmp_path / "pending" / "7.json").write_text("{not json")
    assert await moves.all() == [move(5)]
    assert sorted(p.name for p in (tmp_path / "pending").iterdir()) == ["5.json"]


def test_processes_running_other_shards_keep_their_markers_apart(tmp_path: Path) -> None:
    database = tmp_path / "skat.sqlite3"
    assert PendingMoves.beside(database).folder == tmp_path / "skat.sqlite3.pending"
    assert PendingMoves.beside(database, (1, 0)).folder == tmp_path / "skat.sqlite3.pending-0-1"
    assert PendingMoves.beside(database, (2,)).folder != PendingMoves.beside(database, (0, 1)).folder


def test_a_marker_knows_its_click_in_the_log_by_the_entry_or_by_its_first_words() -> None:
    card = move(1)
    assert recorded_in(card, ["act 0 2 pass", "act 0 1 play CJ"]) and not recorded_in(card, ["act 0 1 play SJ"])
    join = PendingMove(2, 42, "t", 1e10, 7, 1, 0, "join 7", Lang("en"), prefix=True)
    assert recorded_in(join, ["join 7 Alice the Great"]) and not recorded_in(join, ["join 71 Bob", "join 8 Carol"])
    start = PendingMove(3, 42, "t", 1e10, 7, 1, 0, "start", Lang("en"), prefix=True)
    assert recorded_in(start, ["add-ai normal", "start 2"]) and recorded_in(start, ["start"])
    assert not recorded_in(start, ["add-ai normal"])
    assert not recorded_in(PendingMove(4, 42, "t", 1e10, 7, 1, 0, "", Lang("en")), ["", "start"]), "untold: not recorded"
