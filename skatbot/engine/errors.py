"""Narrow errors for refused actions.

A refusal carries a reason key and its values, so the Discord layer can say it in the player's language
and deck. The registries hold only the keys and the names of their values: the words live in the catalogs
(skatbot/locale), and `str()` is the English catalog's sentence, for logs, tests, replays and the terminal
table. Values that are game words (a `Card`, a `Suit`, a `Seat`, a `Phase`, a `Contract`) stay objects:
the engine does not decide how a player's deck names them.

Text that does not parse at all (a card, a game, an action written wrongly) is `MalformedText`, not a
refusal: it says nothing about the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from functools import cache
from pathlib import Path
from typing import ClassVar

REASONS: dict[str, tuple[str, ...]] = {
    # turn and phase
    "deal_over": (),
    "deal_not_over": (),
    "not_your_turn": ("seat",),
    "no_seat": (),
    "bad_seat": ("number",),
    "play_after_declaration": ("phase",),
    "skat_first": (),
    "discard_first": (),
    "declare_first": (),
    "play_a_card": (),
    "timeout_phase": (),
    # the auction
    "auction_running": (),
    "forehand_18": (),
    "bid_18": (),
    "off_ladder": ("value",),
    "bid_more": ("bid",),
    "bidding": (),
    "listening": (),
    # skat and declaration
    "same_card": (),
    "not_in_hand": ("card",),
    "ramsch_declared": (),
    "not_hand": (),
    "null_announcement": (),
    "null_musik": (),
    "null_below_bid": ("contract", "value", "bid"),
    "open_hand": (),
    "announce_hand": (),
    "musik_off": (),
    "musik_card": ("card",),
    # card play
    "must_follow": ("suit",),
    "must_follow_trumps": (),
    # out of turn: Kontra, Re, claim, concede
    "kontra_off": (),
    "kontra_declarer": (),
    "kontra_said": (),
    "kontra_needs_bid": (),
    "kontra_late": (),
    "re_defender": (),
    "re_no_kontra": (),
    "re_late": (),
    "re_said": (),
    "claim_defender": (),
    "claimed": (),
    "conceded": (),
    "nothing_to_concede": (),
    "not_now": (),
}
"""Every reason the engine can give: key -> the names of its values (the words: the catalogs' `reason.<key>`)."""


def english(value: object) -> object:
    """A value as the English sentence names it: enums by their word (`hearts`, `middlehand`, `auction`),
    anything else as it is (cards and contracts format themselves)."""
    if isinstance(value, Enum):
        return value.value if isinstance(value.value, str) else value.name.lower()
    return value


ENGLISH_CATALOG = Path(__file__).resolve().parents[1] / "locale" / "en" / "LC_MESSAGES" / "skatbot.po"
"""The source texts: the one place where a refusal's English words are written."""


@cache
def _english() -> dict[str, str | tuple[str, ...]]:
    """The English catalog's entries, read the first time a refusal is written out (a log line, a test, the
    terminal game); a player's reply is rendered by the ui in their own language instead."""
    from babel.messages.pofile import read_po  # only here: the engine itself never needs the catalogs

    with ENGLISH_CATALOG.open("rb") as handle:
        catalog = read_po(handle, locale="en", domain="skatbot")
    found: dict[str, str | tuple[str, ...]] = {}
    for message in catalog:
        key = message.id if isinstance(message.id, str) else message.id[0]
        found[key] = message.string if isinstance(message.string, str) else tuple(message.string or ())
    return found


class MalformedText(ValueError):
    """Text that does not parse as what it should name (a card, a game, an action, a log entry)."""


class Refusal(ValueError):
    """A request refused, with a key (from the class's `reasons`) and its values. Nothing changed.

    `reasons` maps each key to the names of its values; a class whose `whole` is true names the catalog
    entry of a whole reply with its key (`settings.error.bad_value`), the others a reason said after "Not
    allowed:" (`reason.<key>`)."""

    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    whole: ClassVar[bool] = False
    prefix: ClassVar[str | None] = None  # a whole reply's catalog entry is prefix + key (default: the key itself)

    def __init__(self, key: str, /, **values: object) -> None:
        names = self.reasons.get(key)
        if names is None:
            raise KeyError(f"{type(self).__name__} has no reason {key!r}")
        if set(values) != set(names):
            raise TypeError(f"{type(self).__name__}({key!r}) takes the values {names}, not {tuple(values)}")
        super().__init__(key)
        self.key = key
        self.values: dict[str, object] = values

    @classmethod
    def entry(cls, key: str) -> str:
        """The catalog entry that says the refusal `key`: a whole reply, or a reason."""
        return f"{cls.prefix or ''}{key}" if cls.whole else f"reason.{key}"

    @property
    def catalog_key(self) -> str:
        return self.entry(self.key)

    def __str__(self) -> str:
        values = {name: english(value) for name, value in self.values.items()}
        template = _english().get(self.catalog_key)
        if isinstance(template, tuple):  # a plural entry: its count is `n`
            template = template[0 if values.get("n") == 1 else -1]
        try:
            return template.format(**values) if template else f"{self.key} {values}"
        except (KeyError, IndexError, ValueError):
            return f"{self.key} {values}"

    def __reduce__(self) -> tuple[object, ...]:
        return _rebuild, (type(self), self.key, self.values)


def _rebuild(cls: type[Refusal], key: str, values: dict[str, object]) -> Refusal:
    """Unpickle a refusal (it crosses process boundaries from AI workers) without its subclass's own init."""
    error = cls.__new__(cls)
    Refusal.__init__(error, key, **values)
    return error


class IllegalAction(Refusal):
    """An action the rules do not allow now. The deal is unchanged."""

    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = REASONS


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


RULE_REASONS: dict[str, tuple[str, ...]] = {
    # an option's value
    "option_choice": ("option", "allowed"),
    "option_switch": ("option",),
    "option_value": ("value", "option"),
    "options_unknown": ("options",),
    "preset_unknown": ("preset", "presets"),
    "bock_trigger_unknown": ("allowed",),
    "bock_triggers_list": (),
    "stored_not_object": (),
    "dakker_value": ("value",),
    # options that contradict each other
    "bid_kontra_without_kontra": (),
    "bock_kontra_without_kontra": (),
    "bock_re_without_kontra": (),
    "seeger_fabian_single": (),
    "jungfrau_without_ramsch": (),
    "durchmarsch_without_ramsch": (),
}
"""Every reason a rule set can be refused for: key -> the names of its values. Option names and their stored
values (`kontra_needs_bid`, `lost at 60`) are the same words in every language."""


class InvalidRuleSet(Refusal):
    """A rule set that contradicts itself, or an option value it cannot take. Nothing was made."""

    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = RULE_REASONS
