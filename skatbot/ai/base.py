"""The player interface every AI level implements, and the registry that builds a player by level name.

A player sees one seat's `SeatView` and nothing else, so it cannot read hidden cards. Each decision
is a pure function of (seed, view): the random generator for a decision is derived from the seed and
the view, so a test (or a bug report) can reproduce any single decision without replaying the others.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from enum import StrEnum
from typing import Protocol, runtime_checkable

from skatbot.engine.actions import Action, Kontra, Re
from skatbot.engine.views import SeatView


@runtime_checkable
class ComputerPlayer(Protocol):
    """A computer player for one seat."""

    def choose(self, view: SeatView) -> Action:
        """The in-turn decision: one of `view.legal_actions`."""
        ...

    def side_action(self, view: SeatView) -> Action | None:
        """Kontra or Re when the rules allow it and the player wants to; None otherwise."""
        ...


class AIError(RuntimeError):
    """An AI produced an action the rules do not allow: a bug in the AI, never the player's fault."""


class Level(StrEnum):
    """The computer players' levels. The value is the name people type and table logs store."""

    RANDOM = "random"
    EASY = "easy"
    NORMAL = "normal"
    STRONG = "strong"

    @classmethod
    def parse(cls, text: str) -> Level:
        """The level named `text` (any case, spaces around); a ValueError names the choices."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise ValueError(f"unknown AI level {text!r}: choose one of {', '.join(cls)}") from None


TABLE_LEVELS: tuple[Level, ...] = (Level.EASY, Level.NORMAL, Level.STRONG)
"""The levels a table seats (random is for tests and comparisons). Their order numbers the AIs' player
ids in the score lists, so it never changes."""

PlayerFactory = Callable[[int], ComputerPlayer]
"""Builds a player from a seed."""

_LEVELS: dict[Level, PlayerFactory] = {}
LEVEL_MODULES: tuple[Level, ...] = (Level.STRONG,)
"""Levels whose module (skatbot.ai.<level>) registers them when imported; loaded on first use of the
registry, so a level lives in its own module (skatbot/ai/strong.py ends with `register_level(...)`)."""


def register_level(level: Level, factory: PlayerFactory) -> None:
    """Add a level's factory (e.g. `strong` from skatbot/ai/strong.py). Registering one twice is refused."""
    if level in _LEVELS and _LEVELS[level] is not factory:
        raise ValueError(f"AI level {level.value!r} is already registered")
    _LEVELS[level] = factory


def _load_level_modules() -> None:
    for name in LEVEL_MODULES:
        if name not in _LEVELS:
            module = f"skatbot.ai.{name}"
            try:
                importlib.import_module(module)
            except ModuleNotFoundError as error:
                if error.name != module:  # the module exists but something it needs is missing
                    raise


def levels() -> tuple[Level, ...]:
    """The registered level names, in registration order."""
    _load_level_modules()
    return tuple(_LEVELS)


def make_player(level: Level, seed: int) -> ComputerPlayer:
    """A player of `level` seeded with `seed` (a level's name is read as by `Level.parse`)."""
    key = Level.parse(level)
    if key not in _LEVELS:
        _load_level_modules()
    if key not in _LEVELS:
        raise ValueError(f"AI level {key.value!r} is not available: its module registers no player")
    return _LEVELS[key](seed)


def decision_rng(seed: int, view: SeatView) -> random.Random:
    """A generator that depends only on the seed and what the seat sees now (stable across runs)."""
    return random.Random(f"{seed}|{view_key(view)}")


def view_key(view: SeatView) -> str:
    """A stable text fingerprint of a view: the seat, its hand, and the public history so far."""
    hand = ".".join(card.iss for card in view.hand)
    auction = ",".join(f"{seat}{action}" for seat, action in view.auction)
    tricks = ",".join(".".join(card.iss for card in trick.cards) for trick in view.tricks)
    current = ".".join(card.iss for _, card in view.current_trick)
    skat = ".".join(card.iss for card in view.skat)
    return f"{view.seat}|{view.phase.value}|{hand}|{auction}|{view.contract}|{skat}|{tricks}|{current}|" \
           f"{view.kontra}{view.re}"


class BasePlayer:
    """Shared plumbing: per-decision generators and a check that the chosen action is legal."""

    level: str = "base"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> Action:
        if not view.legal_actions:
            raise AIError(f"{self.level} player asked to move for seat {view.seat}, which has no move")
        action = self.decide(view, decision_rng(self.seed, view))
        if action not in view.legal_actions:
            raise AIError(f"{self.level} player chose {action}, not legal now")
        return action

    def side_action(self, view: SeatView) -> Action | None:
        offered = [a for a in view.side_actions if isinstance(a, (Kontra, Re))]
        if not offered:
            return None
        action = self.decide_side(view, offered[0], decision_rng(self.seed, view))
        if action is not None and action not in view.side_actions:
            raise AIError(f"{self.level} player chose {action}, not allowed now")
        return action

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        raise NotImplementedError

    def decide_side(self, view: SeatView, offered: Action, rng: random.Random) -> Action | None:
        """Say `offered` (Kontra or Re) or return None. The default never doubles."""
        return None
