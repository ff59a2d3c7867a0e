"""Tournaments as Skat clubs and the associations run them: the draw by lot, seeding of later series by
the standings, Seeger-Fabian standings across tables, fees booked, and the tournament's own log.

Pure: no Discord, database or event loop. `skatbot.organiser` stores and runs a tournament; the cog
`cogs.tournament` shows it.
"""

from .draw import DrawError, TableDraw, draw_by_lot, layout, repeats, seeded_draw
from .log import (
    Drawn,
    Ended,
    Entry,
    Joined,
    Left,
    Shown,
    TableOpened,
    TournamentError,
    TournamentSettings,
    TournamentState,
    parse_entry,
)
from .standings import DealLine, Fees, Standing, fees_of, standings

__all__ = [
    "DealLine", "DrawError", "Drawn", "Ended", "Entry", "Fees", "Joined", "Left", "Shown", "Standing",
    "TableDraw", "TableOpened", "TournamentError", "TournamentSettings", "TournamentState", "draw_by_lot",
    "fees_of", "layout", "parse_entry", "repeats", "seeded_draw", "standings",
]
