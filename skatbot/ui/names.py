"""Names the code keeps as identifiers, said in the reader's language: computer players and their levels, rule
presets, rule options and their on/off values.

The identifiers stay what tables store and commands send (`strong`, `pub`, `all_pass`); only what a reader
sees is translated. Discord shows the same words as choice names through the command translator.
"""

from __future__ import annotations

from functools import cache

from skatbot.ai import TABLE_LEVELS, Level
from skatbot.engine.errors import MalformedText
from skatbot.tables.ai_seats import AiSeat

from .i18n import CODES, t
from .languages import Lang


def level_name(level: Level | str, lang: Lang) -> str:
    """`strong` -> `stark`, `stærk`, `fort`; a level without a catalog entry stays as it is."""
    try:
        return t(lang, f"level.{level}")
    except KeyError:
        return str(level)


def ai_name(seat: AiSeat, lang: Lang) -> str:
    """A computer player's name in the reader's language (`KI 2 (stark)`), from its seat's data (kept: every
    board and hand names each player)."""
    return t(lang, "player.ai", number=seat.number, level=level_name(seat.level, lang))


def player_name_of(player_id: int, name: str, lang: Lang) -> str:
    """A stored player as the reader names them: an AI from the level and number its id holds, anyone else
    by their name."""
    seat = AiSeat.of(player_id)
    return ai_name(seat, lang) if seat is not None else name


@cache
def _levels_by_name() -> dict[str, Level]:
    return {level_name(level, lang).casefold(): level for lang in CODES for level in TABLE_LEVELS} | {
        level.value: level for level in TABLE_LEVELS}


def level_from_text(text: str) -> Level:
    """The level a player names, in any language (`strong`, `stark`, `fort`); MalformedText when none."""
    level = _levels_by_name().get(text.strip().casefold())
    if level is None:
        raise MalformedText(f"unknown AI level {text!r}")
    return level


def preset_name(preset: str, lang: Lang) -> str:
    """A rules preset as the reader says it (`pub` -> `Kneipe`); an unknown one as it is."""
    try:
        return t(lang, f"preset.{preset}")
    except KeyError:
        return preset


def option_name(option: str, lang: Lang) -> str:
    """A rule option of RuleSet (`all_pass`) as the reader says it (`Alle passen`)."""
    try:
        return t(lang, f"option.{option}")
    except KeyError:
        return option


OPTION_VALUES = ("on", "off", "none", "throw-in", "ramsch", "double", "single", "kontra", "re", "lost at 60",
                 "grand hand won", "schwarz")
"""The values rule options take (as RuleSet.to_dict writes them, with on/off/none for switches and empty lists)."""


def option_value(value: str, lang: Lang) -> str:
    """An option's value in the reader's words (`on` -> `til`, `lost at 60` -> `tabt med 60`); a list of them
    (`kontra, lost at 60`) word by word; anything else as it is."""
    if ", " in value:
        return ", ".join(option_value(part, lang) for part in value.split(", "))
    if value not in OPTION_VALUES:
        return value
    return t(lang, "option.value." + value.replace(" ", "_"))


@cache
def _values_by_word() -> dict[str, str]:
    return {option_value(value, lang).casefold(): value for lang in CODES for value in OPTION_VALUES}


def option_value_from_text(text: str) -> str:
    """What an admin typed for one value, in any language (`tabt med 60`, `einfach`), as the value it names; text
    that names none, lowercased and stripped (the caller says what is allowed)."""
    word = text.strip().casefold()
    return _values_by_word().get(word, word)


def settings_words(values: dict[str, object], lang: Lang) -> dict[str, object]:
    """A settings refusal's values as the reader says them: the option's name, and on, off, none in the
    reader's words among the allowed values (each of them is understood when typed)."""
    out = dict(values)
    option, allowed = out.get("option"), out.get("allowed")
    if isinstance(option, str):
        out["option"] = option_name(option, lang)
    if isinstance(allowed, str):
        out["allowed"] = option_value(allowed, lang)
    return out
