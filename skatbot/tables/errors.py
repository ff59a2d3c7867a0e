"""Refusals at the table level, each with a message a player can act on."""

from skatbot.engine import IllegalAction


class TableError(ValueError):
    """A request the table refuses. Nothing changed."""


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


__all__ = ["AlreadySeated", "IllegalAction", "NotAllowed", "NotAtTable", "SittingOut", "TableError",
           "TableFull", "WrongTableState"]
