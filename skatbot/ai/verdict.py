"""What the analysis of a deal found, as plain data: the bot process reads and shows it, and turns a refusal
into words, without importing the solver (numba) that the analysis runs on in the AI workers. An analysis
crosses the process boundary pickled by these classes' module, so unpickling one stays this light too."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from skatbot.engine.cards import Card
from skatbot.engine.games import Contract


class WinLevel(IntEnum):
    """The declarer's outcome by card points, worst first (null: lost or won only)."""

    SCHNEIDERED = 0
    LOST = 1
    WON = 2
    SCHNEIDER = 3


@dataclass(frozen=True, slots=True)
class Turning:
    """A card that changed the outcome, and a card that would have kept it."""

    trick: int  # 1..10
    seat: int
    card: Card
    before: WinLevel
    after: WinLevel
    better: Card | None
    better_points: int | None  # the declarer's card points with `better` and best play after (not null)


@dataclass(frozen=True, slots=True)
class SkatChoice:
    """A game the declarer could have won with the twelve cards held after picking up the skat."""

    contract: Contract
    discard: tuple[Card, Card]
    declared: bool  # the game that was declared (with another discard)


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    declarer: int
    contract: Contract
    start: WinLevel  # with best play from the first card
    start_points: int | None  # the declarer's card points with best play from the first card (not null)
    could_win: bool
    won: bool  # as played (the recorded result)
    turnings: tuple[Turning, ...]
    skat_choices: tuple[SkatChoice, ...]  # only for a declarer who picked up the skat
    picked_up: bool


class NotAnalysable(ValueError):
    """Passed-in and ramsch deals, and deals not yet over, have no declared game to judge."""


def win_level(contract: Contract) -> WinLevel:
    return WinLevel.SCHNEIDER if contract.schneider or contract.schwarz else WinLevel.WON
