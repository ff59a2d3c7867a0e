"""What a hint suggests and why, as plain data: the bot process reads and words it (`ui/hint_text.py`)
without importing strong and the solver (numba) that `hints.hint` computes it with in the AI workers. A hint
crosses the process boundary pickled by these classes' module, so unpickling one stays this light too (as
`verdict` does for an analysis)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from skatbot.engine.actions import Action
from skatbot.engine.cards import Card
from skatbot.engine.games import Contract


class Reason(Enum):
    """Which computation a hint for a decision before card play rests on."""

    BID = "bid"  # bid or hold: the hand supports bids up to `value`, with `game`
    PASS = "pass"  # the bid asked is above the `value` the hand supports (0: none; `game`: the best try)
    HAND = "hand"  # `game` without the skat pays better than picking it up
    PICK_UP = "pick_up"  # picking up pays better than `game`, the best game without the skat (None: none)
    DISCARD = "discard"  # the discard buries `points` and leaves `game` the best game
    DECLARE = "declare"  # `game` is the best game open, worth `value`


@dataclass(frozen=True, slots=True)
class Basis:
    """What the hand evaluation computed for a decision: the game it rests on and its estimated chance to
    win, with a value (a bid limit or a game's value) and the points a discard buries."""

    reason: Reason
    game: Contract | None = None
    chance: float = 0.0
    value: int = 0
    points: int = 0


@dataclass(frozen=True, slots=True)
class Hint:
    """The suggested action and why: for cards, the share of sampled worlds each card wins in; for other
    decisions, the hand evaluation's basis."""

    action: Action
    worlds: int = 0  # sampled worlds solved (0: the hand evaluation decided)
    wins: int = 0  # of them, worlds where the suggested card wins for the player's side
    second: Card | None = None  # the next best card, and its winning worlds
    second_wins: int = 0
    basis: Basis | None = None
    ramsch: bool = False  # a Ramsch card: `wins` counts the worlds where the player does not lose
