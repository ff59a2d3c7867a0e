"""Running tables: seats, turns, timers, one lock per table, AI turns off the event loop.

Knows Discord only as integer ids; talks to storage and presentation through `ports`.
"""

from skatbot.models import TableState

from .errors import TableError
from .game import FinishedDeal, Occupant, TableGame
from .ports import Presenter, TableStore
from .table import Table
from .turns import TableTiming

__all__ = ["FinishedDeal", "Occupant", "Presenter", "Table", "TableError", "TableGame",
           "TableState", "TableStore", "TableTiming"]
