"""The game value calculator behind `/skat help value`: a declared game's value, step by step.

The steps are the ones the rules texts count ("with 2, game 3, hand 4, schneider 5; 5 x 11 = 55"); the
total is the engine's `game_multiplier`, so the calculator and the score list cannot disagree.
Bad input raises `ValueInputError` with a catalog key, so the reply comes in the player's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from skatbot.engine import Contract, GameType, RuleSet
from skatbot.engine.errors import Refusal
from skatbot.engine.games import is_bid_value
from skatbot.engine.rules import OFFICIAL
from skatbot.engine.scoring import game_multiplier

ANNOUNCEMENTS = ("none", "schneider", "schwarz")
MAX_MATADORS = {GameType.GRAND: 4}  # suit games: four jacks and seven trumps of the suit
SUIT_MAX_MATADORS = 11


class ValueInputError(Refusal):
    """The question cannot be answered as asked: a whole reply's catalog key and its values."""

    whole = True
    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "value.error.announce_hand": (),
        "value.error.announced": ("announced",),
        "value.error.bid": ("bid",),
        "value.error.matadors_missing": (),
        "value.error.matadors_range": ("most",),
        "value.error.null_schneider": (),
        "value.error.ramsch": (),
    }


@dataclass(frozen=True, slots=True)
class ValueQuestion:
    """What a player asks: the game and its circumstances. `schneider`/`schwarz` are what was made."""

    game: GameType
    matadors: int | None = None
    against: bool = False
    hand: bool = False
    schneider: bool = False
    schwarz: bool = False
    announced: str = "none"
    ouvert: bool = False
    bid: int = 18


@dataclass(frozen=True, slots=True)
class ValueStep:
    """One step of the count: a catalog key (`value.step.*`) and the multiplier reached with it."""

    key: str
    total: int
    count: int = 0  # the number of matadors, for the first step


@dataclass(frozen=True, slots=True)
class ValueAnswer:
    question: ValueQuestion
    contract: Contract
    steps: tuple[ValueStep, ...]  # empty for a null (a fixed value)
    multiplier: int
    base: int
    value: int  # what the game is worth as declared
    covers: bool  # value >= bid
    charged: int  # the value written when it does not cover: the lowest multiple of the base reaching the bid
    implied: tuple[str, ...]  # catalog keys of what the declaration implied (ouvert: hand, schwarz announced)

    @property
    def won_score(self) -> int:
        return self.value if self.covers else 0

    @property
    def lost_score(self) -> int:
        """The official written loss: twice the value (for an overbid, twice the charged value)."""
        return -2 * (self.value if self.covers else self.charged)


def answer(question: ValueQuestion, rules: RuleSet = OFFICIAL) -> ValueAnswer:
    """Check the question and count the value; raise ValueInputError for what cannot be."""
    game = question.game
    if game is GameType.RAMSCH:
        raise ValueInputError("value.error.ramsch")
    if not is_bid_value(question.bid) and not rules.is_bid(question.bid):
        raise ValueInputError("value.error.bid", bid=question.bid)
    if question.announced not in ANNOUNCEMENTS:
        raise ValueInputError("value.error.announced", announced=question.announced)
    if game is GameType.NULL:
        return _null(question, rules)
    return _suit_or_grand(question, rules)


def _null(question: ValueQuestion, rules: RuleSet) -> ValueAnswer:
    if question.schneider or question.schwarz or question.announced != "none":
        raise ValueInputError("value.error.null_schneider")
    contract = Contract(GameType.NULL, question.hand, ouvert=question.ouvert)
    value = rules.null_value(question.hand, question.ouvert)
    return ValueAnswer(question, contract, (), 1, value, value, value >= question.bid, value, ())


def _suit_or_grand(question: ValueQuestion, rules: RuleSet) -> ValueAnswer:
    game = question.game
    if question.matadors is None:
        raise ValueInputError("value.error.matadors_missing")
    most = MAX_MATADORS.get(game, SUIT_MAX_MATADORS)
    if not 1 <= question.matadors <= most:
        raise ValueInputError("value.error.matadors_range", most=most)
    hand, announced, implied = question.hand, question.announced, []
    if question.ouvert and not rules.ouvert_any_game:
        # officially an open suit game or grand is a hand game with schwarz announced
        if not hand:
            implied.append("value.implied.hand")
        if announced != "schwarz":
            implied.append("value.implied.schwarz")
        hand, announced = True, "schwarz"
    if announced != "none" and not hand:
        raise ValueInputError("value.error.announce_hand")
    schwarz_made = question.schwarz
    schneider_made = question.schneider or schwarz_made
    contract = Contract(game, hand, schneider=announced in ("schneider", "schwarz"),
                        schwarz=announced == "schwarz", ouvert=question.ouvert)
    matadors = -question.matadors if question.against else question.matadors
    steps = _steps(contract, question.matadors, question.against, schneider_made, schwarz_made)
    multiplier = game_multiplier(contract, matadors, schneider_made, schwarz_made)
    assert steps[-1].total == multiplier, "the explained steps must add up to the engine's multiplier"
    base = game.base_value
    value = base * multiplier
    charged = value if value >= question.bid else -(-question.bid // base) * base
    return ValueAnswer(question, contract, tuple(steps), multiplier, base, value, value >= question.bid, charged,
                       tuple(implied))


def _steps(contract: Contract, count: int, against: bool, schneider: bool, schwarz: bool) -> list[ValueStep]:
    steps = [ValueStep("value.step.against" if against else "value.step.with", count, count)]

    def add(key: str) -> None:
        steps.append(ValueStep(key, steps[-1].total + 1))

    add("value.step.game")
    if contract.hand:
        add("value.step.hand")
    if schneider or contract.schneider:
        add("value.step.schneider")
    if contract.schneider:
        add("value.step.schneider_announced")
    if schwarz or contract.schwarz:
        add("value.step.schwarz")
    if contract.schwarz:
        add("value.step.schwarz_announced")
    if contract.ouvert:
        add("value.step.ouvert")
    return steps
