"""Refusals in the player's language and deck: the one formatter.

Everything a user is told went wrong is a `Refusal(key, **values)` (engine, tables, storage's busy store,
this layer's own); this module renders it from the catalog, naming cards, suits, seats, phases and
contracts as the player's language and deck do. Either the key has a whole reply of its own (the ui's
refusals are whole replies; a few common reasons have one: "It is not your turn yet: ..."), or the reply
reads "Not allowed: <reason>." with the catalog's `reason.<key>`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from skatbot.engine import Card, Contract, GameType, Phase, Seat, Suit
from skatbot.engine.errors import Refusal
from skatbot.models import Deck

from .cards import FRENCH, GERMAN, card_label, contract_name, game_name, game_names
from .fit import Limit, fit
from .i18n import t, tn
from .languages import Lang
from .names import settings_words

COMMAND_REASONS: dict[str, tuple[str, ...]] = {
    "bad_card": ("text",),
    "bad_game": ("text",),
    "pick_up_first": (),
    "bad_control": (),
    "bad_option": ("text", "option"),
    "out_of_range": ("option", "low", "high"),
}
"""Reasons the Discord layer gives itself, before a table sees the request: key -> the names of its values."""

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
    "channel_busy": "error.table_exists",
    "no_table_here": "error.no_table",
}
"""Reason key -> catalog key of a whole reply, for the refusals players meet most."""

GERMAN_DECK_REPLIES = {"error.bad_card": "error.bad_card_german"}
"""Whole replies that show card codes: with the German deck, the codes of the deck the player sees."""


class CommandRefusal(Refusal):
    """A command the Discord layer refuses itself (text that is not a card, a declaration too early)."""

    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = COMMAND_REASONS


class ServerError(Refusal):
    """A refusal of a server feature (lists, records, analyses, settings) or of the bot itself: a whole
    reply's catalog key and its values."""

    whole = True
    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "analysis.error.failed": ("deal",),
        "analysis.error.not_analysable": ("deal",),
        "error.missing_permissions": ("perms",),
        "error.starting": (),
        "history.empty": (),
        "record.error.choose": (),
        "record.error.no_deal": ("deal",),
        "record.error.no_series": ("table",),
        "server.error.guild_only": (),
        "server.error.never_played": ("name",),
        "server.error.never_played_period": ("name", "period"),
        "server.error.not_found": (),
        "settings.error.not_admin": (),
    }


def word(value: object, lang: Lang, deck: Deck = FRENCH) -> object:
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


def _words(error: Refusal, lang: Lang, deck: Deck) -> dict[str, object]:
    """The refusal's values as the reader says them, with what some replies add (the games a player may
    name; an option and its allowed values in the admin's words)."""
    values = {name: word(value, lang, deck) for name, value in error.values.items()}
    if error.key == "bad_game":
        *games, last = game_names(lang, deck)
        values |= {"games": ", ".join(games), "last": last}
    if error.key.startswith("settings.error."):
        values = settings_words(values, lang)
    return values


def _said(lang: Lang, key: str, values: dict[str, object]) -> str:
    """A catalog entry with its values; an entry with a count (`n`) in its plural form."""
    count = values.pop("n", None)
    return tn(lang, key, count, **values) if isinstance(count, int) else t(lang, key, **values)


def refusal_text(error: Refusal, lang: Lang, deck: Deck = FRENCH) -> str:
    """The reason alone ("you must follow ♥ Hearts"), in `lang` with `deck`'s card names."""
    return _said(lang, error.catalog_key, _words(error, lang, deck))


def refusal_reply(error: Refusal, lang: Lang, deck: Deck = FRENCH) -> str:
    """The whole answer to a refused request: a reply of its own, or "Not allowed: <reason>."."""
    own = error.catalog_key if error.whole else OWN_REPLIES.get(error.key)
    if own is not None:
        own = GERMAN_DECK_REPLIES.get(own, own) if deck == GERMAN else own
        return _said(lang, own, _words(error, lang, deck))
    return t(lang, "error.refused", reason=refusal_text(error, lang, deck))
