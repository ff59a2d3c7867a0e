"""Refusals at the table level, each with a reason key a player's language can render (see engine.errors)."""

from collections.abc import Mapping
from typing import ClassVar

from skatbot.engine import IllegalAction
from skatbot.engine.errors import Refusal

TABLE_REASONS: dict[str, tuple[str, ...]] = {
    # opening a table
    "size": (),
    "deals": (),
    "server_only": (),
    "channel_busy": ("table_id",),
    "table_gone": (),
    "no_table_here": (),
    # the lobby
    "started": (),
    "seated": (),
    "table_full": ("size",),
    "ai_before_start": (),
    "ai_level": ("level",),
    "ai_remove_before_start": (),
    "no_ai": (),
    "already_started": (),
    "too_few": ("size", "seated"),
    "no_human": (),
    "players_only": (),
    "stop_creator": (),
    # play
    "not_at_table": (),
    "sitting_out": (),
    "no_deal": (),
    "old_deal": (),
    "stale": (),
    "kontra_window": ("seconds",),
    "stood_in": (),
    "series_over": (),
    "not_playing": (),
    "no_new_deal": (),
    "ai_stand_in": (),
    "already_closed": (),
    "no_hints": (),
    "hint_wait": (),
    "claim_refused": (),
    "claim_refused_null": (),
    "closed": (),
}
"""Every reason a table can give: key -> the names of its values (the words: the catalogs' `reason.<key>`)."""


class TableError(Refusal):
    """A request the table refuses. Nothing changed."""

    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = TABLE_REASONS


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


__all__ = ["TABLE_REASONS", "AlreadySeated", "IllegalAction", "NotAllowed", "NotAtTable", "SittingOut",
           "TableError", "TableFull", "WrongTableState"]
