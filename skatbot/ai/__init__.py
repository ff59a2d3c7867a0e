"""Computer players. Pure like the engine: they see one seat's view and return a legal action.

Levels are built by name with `make_player(level, seed)`; a new level registers itself with
`register_level` (the `strong` level lives in skatbot/ai/strong.py and is registered there).
"""

from .base import (
           TABLE_LEVELS,
           AIError,
           BasePlayer,
           ComputerPlayer,
           Level,
           levels,
           make_player,
           register_level,
)
from .easy import EasyPlayer
from .normal import NormalPlayer
from .random_player import RandomPlayer
from .runner import play_deal

register_level(Level.RANDOM, RandomPlayer)
register_level(Level.EASY, EasyPlayer)
register_level(Level.NORMAL, NormalPlayer)

__all__ = ["TABLE_LEVELS", "AIError", "BasePlayer", "EasyPlayer", "Level", "NormalPlayer", "ComputerPlayer", "RandomPlayer", "levels", "make_player",
           "play_deal", "register_level"]
