"""RuleSet: how a table plays. The default is the International Skat Order (ISkO).

House rules are fields; the deal and the scoring read them, nothing else decides rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class AllPass(Enum):
    """What happens when all three pass."""

    THROW_IN = "throw-in"
    RAMSCH = "ramsch"


class Losses(Enum):
    """How a lost game is written."""

    DOUBLE = "double"  # official since 1999
    SINGLE = "single"  # before 1999: only a lost hand game is doubled


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One value that says how a table plays."""

    all_pass: AllPass = AllPass.THROW_IN
    kontra: bool = False
    kontra_needs_bid: bool = False
    losses: Losses = Losses.DOUBLE
    seeger_fabian: bool = False
    ouvert_any_game: bool = False  # Danish: every game may be played open, not only hand

    @property
    def ramsch(self) -> bool:
        return self.all_pass is AllPass.RAMSCH


OFFICIAL = RuleSet()
