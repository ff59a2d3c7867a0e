"""Narrow errors for refused actions.

A refusal carries a reason key and its values, so the Discord layer can say it in the player's language
and deck; `str()` is the English sentence, for logs, tests, replays and the terminal table. Values that
are game words (a `Card`, a `Suit`, a `Seat`, a `Phase`, a `Contract`) stay objects: the engine does not
decide how a player's deck names them.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import ClassVar

REASONS: dict[str, str] = {
    # turn and phase
    "deal_over": "the deal is over",
    "deal_not_over": "the deal is not over yet",
    "not_your_turn": "it is not your turn: {seat} is to act",
    "no_seat": "no seat given",
    "bad_seat": "no seat {number}",
    "play_after_declaration": "cards are played only after the declaration (now: {phase})",
    "skat_first": "pick up the skat or declare a hand game",
    "discard_first": "discard two cards first",
    "declare_first": "declare your game",
    "play_a_card": "play a card",
    "timeout_phase": "a time-out ends only a declared game in play",
    # the auction
    "auction_running": "the auction is not over",
    "forehand_18": "forehand may only play at 18 when the others passed",
    "bid_18": "bid 18 or pass",
    "off_ladder": "{value} is not on the bid ladder (18, 20, 22, 23, 24, 27, ...)",
    "bid_more": "bid more than {bid}",
    "bidding": "you are bidding: say a number or pass",
    "listening": "you are listening: hold (yes) or pass",
    # skat and declaration
    "same_card": "discard two different cards",
    "not_in_hand": "{card} is not in your hand",
    "ramsch_declared": "ramsch is not a game to declare",
    "not_hand": "you picked up the skat: this cannot be a hand game",
    "null_announcement": "a null game has no schneider or schwarz to announce",
    "null_musik": "Musik is announced only in a suit game or a grand",
    "null_below_bid": "{contract} is worth {value}, less than the bid of {bid}",
    "open_hand": "an open suit or grand game must be played hand",
    "announce_hand": "only a hand game may announce schneider or schwarz",
    "musik_off": "Musik is not played at this table",
    "musik_card": "Musik needs {card} in your hand for the last trick",
    # card play
    "must_follow": "you must follow {suit}",
    "must_follow_trumps": "you must follow trumps",
    # out of turn: Kontra, Re, claim, concede
    "kontra_off": "Kontra is not played at this table",
    "kontra_declarer": "only a defender may say Kontra",
    "kontra_said": "Kontra has already been said",
    "kontra_needs_bid": "at this table only a defender who bid may say Kontra",
    "kontra_late": "Kontra must come before the first card is played",
    "re_defender": "only the declarer may answer Re",
    "re_no_kontra": "Re answers a Kontra, and nobody said Kontra",
    "re_late": "Re must come before the first card is played",
    "re_said": "Re has already been said",
    "claim_defender": "only the declarer may claim the rest",
    "claimed": "you have already claimed",
    "conceded": "you have already conceded",
    "nothing_to_concede": "there is nothing to concede now",
    "not_now": "that is not allowed now",
}
"""Every reason the engine can give: key -> English sentence."""


def english(value: object) -> object:
    """A value as the English sentence names it: enums by their word (`hearts`, `middlehand`, `auction`),
    anything else as it is (cards and contracts format themselves)."""
    if isinstance(value, Enum):
        return value.value if isinstance(value.value, str) else value.name.lower()
    return value


class Refusal(ValueError):
    """A request refused, with a reason key (from the class's `reasons`) and its values. Nothing changed."""

    reasons: ClassVar[Mapping[str, str]] = {}

    def __init__(self, key: str, /, **values: object) -> None:
        template = self.reasons.get(key)
        if template is None:
            raise KeyError(f"{type(self).__name__} has no reason {key!r}")
        super().__init__(template.format(**{name: english(value) for name, value in values.items()}))
        self.key = key
        self.values: dict[str, object] = values

    def __reduce__(self) -> tuple[object, ...]:
        return _rebuild, (type(self), self.key, self.values)


def _rebuild(cls: type[Refusal], key: str, values: dict[str, object]) -> Refusal:
    """Unpickle a refusal (it crosses process boundaries from AI workers) without its subclass's own init."""
    error = cls.__new__(cls)
    Refusal.__init__(error, key, **values)
    return error


class IllegalAction(Refusal):
    """An action the rules do not allow now. The deal is unchanged."""

    reasons: ClassVar[Mapping[str, str]] = REASONS


class NotYourTurn(IllegalAction):
    pass


class WrongPhase(IllegalAction):
    pass


class IllegalBid(IllegalAction):
    pass


class IllegalCard(IllegalAction):
    pass


class IllegalDeclaration(IllegalAction):
    pass


class IllegalDiscard(IllegalAction):
    pass


RULE_REASONS: dict[str, str] = {
    # an option's value
    "option_choice": "{option} must be one of: {allowed}",
    "option_switch": "{option} must be true or false",
    "option_value": "bad value {value!r} for rule option {option}",
    "options_unknown": "unknown rule option: {options}",
    "preset_unknown": "unknown rules preset {preset!r}: choose one of {presets}",
    "bock_trigger_unknown": "Bock triggers must be among: {allowed}",
    "bock_triggers_list": "bock_triggers is a list of triggers",
    "stored_not_object": "a rule set is stored as a JSON object",
    "dakker_value": "a null ouvert hand (Dækker) is worth 59 or 69, not {value!r}",
    # options that contradict each other
    "bid_kontra_without_kontra": "'Kontra only from a defender who bid' needs Kontra to be played",
    "bock_kontra_without_kontra": "a Bock round after a game with Kontra needs Kontra and Re to be played",
    "bock_re_without_kontra": "a Bock round after a game with Re needs Kontra and Re to be played",
    "seeger_fabian_single": "Seeger-Fabian scoring has its own loss rule (twice the value and 50 more); "
                            "it cannot be combined with single losses",
    "jungfrau_without_ramsch": "the Jungfrau doubling is a Ramsch option: Ramsch must be played on all pass",
    "durchmarsch_without_ramsch": "the Durchmarsch is a Ramsch option: Ramsch must be played on all pass",
}
"""Every reason a rule set can be refused for: key -> English sentence. Option names and their stored
values (`kontra_needs_bid`, `lost at 60`) are the same words in every language."""


class InvalidRuleSet(Refusal):
    """A rule set that contradicts itself, or an option value it cannot take. Nothing was made."""

    reasons: ClassVar[Mapping[str, str]] = RULE_REASONS
