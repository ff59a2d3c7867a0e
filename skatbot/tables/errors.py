"""Refusals at the table level, each with a reason key a player's language can render (see engine.errors)."""

from collections.abc import Mapping
from typing import ClassVar

from skatbot.engine import IllegalAction
from skatbot.engine.errors import Refusal

TABLE_REASONS: dict[str, str] = {
    # opening a table
    "size": "a table has three or four seats",
    "deals": "a series needs at least one deal",
    "server_only": "tables are opened in a server channel, not in direct messages",
    "channel_busy": "this channel already has a table (#{table_id})",
    "table_gone": "that table no longer exists",
    "no_table_in_channel": "there is no table in this channel: open one with /skat new (a table in a thread of "
                           "its own is reached from that thread)",
    "no_table_here": "there is no table here",
    # the lobby
    "started": "the game has started: you cannot join now",
    "seated": "you are already sitting at this table",
    "table_full": "the table is full ({size} seats)",
    "ai_before_start": "AI players can only be added before the start",
    "ai_level": "unknown AI level {level!r}: choose easy, normal or strong",
    "ai_remove_before_start": "AI players can only be removed before the start",
    "no_ai": "there is no AI player at this table",
    "already_started": "the game has already started",
    "too_few": "the table needs {size} players to start; {seated} seated",
    "no_human": "at least one human player must sit at the table",
    "players_only": "only players at this table can do that",
    "stop_creator": "only the table's creator or a server manager can stop the table",
    # play
    "not_at_table": "you are not sitting at this table",
    "sitting_out": "you are the dealer and sit out this deal",
    "no_deal": "no deal is being played at this table",
    "old_deal": "that deal is over; this is an old button or command",
    "stale": "that control was for an earlier moment of the deal; nothing was recorded",
    "kontra_window": "the others may say Kontra first: you lead in a few seconds (at most {seconds})",
    "stood_in": "you left this table and an AI plays your seat: /skat join to come back",
    "series_over": "this table's series is over",
    "not_playing": "the table is not playing",
    "no_new_deal": "a new deal cannot start now",
    "ai_stand_in": "an AI seat needs no stand-in",
    "already_closed": "the table is already closed",
    "no_hints": "this table gives no hints: open one with /skat new hints:True",
    "hint_wait": "a hint is for your own decision: wait for your turn",
    "claim_refused": "your claim does not hold: with every card open, the defenders can still take a trick. "
                     "Play goes on",
    "claim_refused_null": "your claim does not hold: with every card open, the defenders can still make you "
                          "take a trick. Play goes on",
    "closed": "the table is closed",
    # storage
    "store_busy": "the table's database is busy: your move was not recorded; try again in a moment",
}
"""Every reason a table can give: key -> English sentence."""


class TableError(Refusal):
    """A request the table refuses. Nothing changed."""

    reasons: ClassVar[Mapping[str, str]] = TABLE_REASONS


class NotAtTable(TableError):
    pass


class TableFull(TableError):
    pass


class AlreadySeated(TableError):
    pass


class WrongTableState(TableError):
    pass


class NotAllowed(TableError):
    pass


class SittingOut(TableError):
    pass


class StoreBusy(TableError):
    """The store could not take the entry now (another writer held the database): nothing was stored, the
    table is as it was, and the same step may be tried again (key "store_busy")."""


__all__ = ["TABLE_REASONS", "AlreadySeated", "IllegalAction", "NotAllowed", "NotAtTable", "SittingOut",
           "StoreBusy", "TableError", "TableFull", "WrongTableState"]
