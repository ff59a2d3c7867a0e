"""A table's game seen as the render functions take it: a frozen `TableView` (they never read a live game)."""

from __future__ import annotations

from skatbot.tables.game import TableGame
from skatbot.tables.view import TableView, view_of


def viewed(game: TableGame, *, table_id: int = 1, seq: int = 0) -> TableView:
    """`game` as it stands, as a view of table `table_id` at moment `seq`."""
    return view_of(game, table_id=table_id, guild_id=1, channel_id=1, seq=seq)
