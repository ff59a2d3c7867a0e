"""Running tables: seats, turns, timers, one lock per table, AI turns off the event loop.

Knows Discord only as integer ids; talks to storage and presentation through `ports`.
"""

from .errors import TableError
from .game import AI_LEVELS, FinishedDeal, Occupant, TableGame, TableState
from .ports import Presenter, TableStore
from .table import Table, TableTiming

__all__ = ["AI_LEVELS", "FinishedDeal", "Occupant", "Presenter", "Table", "TableError", "TableGame",
           "TableState", "TableStore", "TableTiming"]
