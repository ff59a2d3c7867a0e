"""Refusals in the player's language and deck.

The engine and the tables refuse with a reason key and its values (`Refusal.key`, `.values`); this
module renders them from the catalog (`reason.<key>`), naming cards, suits, seats, phases and contracts
as the player's language and deck do. A few reasons have a whole reply of their own ("It is not your
turn yet: ..."); the rest read "Not allowed: <reason>."
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from skatbot.engine import Card, Contract, GameType, Phase, Seat, Suit
from skatbot.engine.errors import Refusal

from .cards import FRENCH, GERMAN, card_label, contract_name, game_name, game_names
from .fit import Limit, fit
from .i18n import t

COMMAND_REASONS: dict[str, str] = {
    "bad_card": "{text!r} is not a card",
    "bad_game": "{text!r} is not a game",
    "pick_up_first": "pick up the skat first (/skat pickup), or declare with hand: True",
    "bad_control": "that button or menu choice is not one I offered",
    "bad_option": "{text!r} is not one of the choices for {option}",
    "out_of_range": "{option} must be between {low} and {high}",
}
"""Reasons the Discord layer gives itself, before a table sees the request: key -> English sentence."""

OWN_REPLIES: dict[str, str] = {
    "not_your_turn": "error.not_your_turn",
    "sitting_out": "error.sitting_out",
    "table_full": "error.table_full",
    "not_at_table": "error.not_at_table",
    "players_only": "error.players_only",
    "stale": "error.stale",
    "stood_in": "error.stood_in",
    "series_over": "error.series_over",
    "closed": "error.closed",
    "bad_card": "error.bad_card",
    "bad_game": "error.bad_game",
    "store_busy": "error.store_busy",
}
"""Reason key -> catalog key of a whole reply, for the refusals players meet most."""


class CommandRefusal(Refusal):
    """A command the Discord layer refuses itself (text that is not a card, a declaration too early)."""

    reasons: ClassVar[Mapping[str, str]] = COMMAND_REASONS


def word(value: object, lang: str, deck: str = FRENCH) -> object:
    """A refusal's value as the player names it; numbers stay as they are, a reason is said in `lang`, and
    text (often the player's own input, up to 6,000 characters) is quoted back at most `Limit.ECHO` long."""
    if isinstance(value, str):
        return fit(value, Limit.ECHO)
    if isinstance(value, Refusal):
        return refusal_text(value, lang, deck)
    if isinstance(value, Card):
        return card_label(value, deck, lang)
    if isinstance(value, Suit):
        return game_name(GameType(value.english), lang, deck)
    if isinstance(value, GameType):
        return game_name(value, lang, deck)
    if isinstance(value, Contract):
        return contract_name(value, lang, deck)
    if isinstance(value, Seat):
        return t(lang, f"seat.{value.name.lower()}")
    if isinstance(value, Phase):
        return t(lang, f"phase.{value.value}")
    return value


def refusal_text(error: Refusal, lang: str, deck: str = FRENCH) -> str:
    """The reason alone ("you must follow ♥ Hearts"), in `lang` with `deck`'s card names."""
    return t(lang, f"reason.{error.key}", **{name: word(value, lang, deck) for name, value in error.values.items()})


def refusal_reply(error: Refusal, lang: str, deck: str = FRENCH) -> str:
    """The whole answer to a refused request."""
    own = OWN_REPLIES.get(error.key)
    if own == "error.bad_card" and deck == GERMAN:  # the hint names the codes of the deck the player sees
        own = "error.bad_card_german"
    if own is not None:
        values = {name: word(value, lang, deck) for name, value in error.values.items()}
        if own == "error.bad_game":  # the games as the player's language and the table's deck name them
            *games, last = game_names(lang, deck)
            values |= {"games": ", ".join(games), "last": last}
        return t(lang, own, **values)
    return t(lang, "error.refused", reason=refusal_text(error, lang, deck))
