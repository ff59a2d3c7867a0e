"""The player interface every AI level implements, and the registry that builds a player by level name.

A player sees one seat's `SeatView` and nothing else, so it cannot read hidden cards. Each decision
is a pure function of (seed, view): the random generator for a decision is derived from the seed and
the view, so a test (or a bug report) can reproduce any single decision without replaying the others.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from skatbot.engine.actions import Action, Kontra, Re
from skatbot.engine.views import SeatView


@runtime_checkable
class Player(Protocol):
    """A computer player for one seat."""

    def choose(self, view: SeatView) -> Action:
        """The in-turn decision: one of `view.legal_actions`."""
        ...

    def side_action(self, view: SeatView) -> Action | None:
        """Kontra or Re when the rules allow it and the player wants to; None otherwise."""
        ...


class AIError(RuntimeError):
    """An AI produced an action the rules do not allow: a bug in the AI, never the player's fault."""


PlayerFactory = Callable[[int], Player]
"""Builds a player from a seed."""

_LEVELS: dict[str, PlayerFactory] = {}
LEVEL_MODULES: tuple[str, ...] = ("strong",)
"""Modules of skatbot.ai that register a level when imported; loaded on first use of the registry, so a
level lives in its own module (e.g. skatbot/ai/strong.py ends with `register_level("strong", ...)`)."""


def register_level(name: str, factory: PlayerFactory) -> None:
    """Add a level (e.g. `strong` from skatbot/ai/strong.py). Registering a name twice is refused."""
    key = name.strip().lower()
    if not key:
        raise ValueError("a level needs a name")
    if key in _LEVELS and _LEVELS[key] is not factory:
        raise ValueError(f"AI level {key!r} is already registered")
    _LEVELS[key] = factory


def _load_level_modules() -> None:
    for name in LEVEL_MODULES:
        if name not in _LEVELS:
            module = f"skatbot.ai.{name}"
            try:
                importlib.import_module(module)
            except ModuleNotFoundError as error:
                if error.name != module:  # the module exists but something it needs is missing
                    raise


def levels() -> tuple[str, ...]:
    """The registered level names, in registration order."""
    _load_level_modules()
    return tuple(_LEVELS)


def make_player(level: str, seed: int) -> Player:
    """A player of `level` ("random", "easy", "normal", and any registered later) seeded with `seed`."""
    key = level.strip().lower()
    if key not in _LEVELS:
        _load_level_modules()
    if key not in _LEVELS:
        raise ValueError(f"unknown AI level {level!r}: choose one of {', '.join(_LEVELS)}")
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

    level = "base"

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
