"""`/skat settings`: check a server admin's changes and apply them to the stored ServerSettings.

Pure: takes the current settings and the typed options, returns the new settings and what changed
(catalog keys with values, for the confirmation). Anything wrong raises `SettingsInputError` and
nothing is changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from skatbot.engine import RuleSet
from skatbot.engine.errors import InvalidRuleSet, Refusal
from skatbot.engine.rules import PRESETS, AllPass, BockTrigger, Losses
from skatbot.models import CHANNEL_POLICIES, DECK_STYLES, Deck, ServerSettings

from .languages import CODES, Lang
from .names import option_value_from_text

OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(RuleSet))
TURN_RANGE = (15, 3600)  # seconds a player has for a move
_TRUE = {"on", "true", "yes", "1", "an", "ja", "ein", "til", "oui"}
_FALSE = {"off", "false", "no", "0", "aus", "nein", "fra", "nej", "non"}
_NONE = {"none", "keine", "ingen", "aucun", "-", ""}
"""What an admin may type for on, off and none, in each language the bot speaks (the settings show the
reader's word)."""


class SettingsInputError(Refusal):
    """A change that cannot be made: a whole reply's catalog key and its values (an option and its allowed
    values are named in the admin's words when said)."""

    whole = True
    reasons: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "settings.error.bad_value": ("option", "value", "allowed"),
        "settings.error.deck": ("decks",),
        "settings.error.language": ("languages",),
        "settings.error.option_pair": (),
        "settings.error.pictures": (),
        "settings.error.preset": ("preset", "presets"),
        "settings.error.rules": ("reason",),
        "settings.error.tables": ("policies",),
        "settings.error.turn": ("low", "high"),
        "settings.error.unknown_option": ("option", "options"),
        "settings.error.warning": ("turn",),
    }


@dataclass(frozen=True, slots=True)
class SettingChange:
    """One confirmed change: a catalog key (`settings.changed.*`) and its values."""

    key: str
    values: dict[str, object]


@dataclass(frozen=True, slots=True)
class SettingsRequest:
    """What the admin typed; None means 'leave as it is'."""

    preset: str | None = None
    option: str | None = None
    value: str | None = None
    turn_seconds: int | None = None
    warning_seconds: int | None = None
    deck: str | None = None  # raw, as typed: read as a Deck when applied
    language: str | None = None  # raw, as typed: checked against the registry when applied
    tables: str | None = None  # where new tables play: "thread" (each its own) or "channel"
    pictures: str | None = None  # "on" or "off"
    organisers: int | None = None  # a role id: its members organise tournaments too; 0: Manage Server only

    @property
    def is_empty(self) -> bool:
        return all(getattr(self, f.name) is None for f in fields(self))


def active_rules(settings: ServerSettings) -> RuleSet:
    """The rules new tables get: the preset with the server's single options on top."""
    return RuleSet.preset(settings.rule_preset).with_options(**settings.rules)


def parse_option_value(name: str, text: str) -> Any:
    """An option's typed value in its stored (`to_dict`) form; SettingsInputError if it is not one."""
    if name not in OPTION_NAMES:
        raise SettingsInputError("settings.error.unknown_option", option=name, options=", ".join(OPTION_NAMES))
    raw = text.strip().lower()
    word = option_value_from_text(text)  # a value in any language's words: 'tabt med 60', 'einfach', 'til'
    default = getattr(RuleSet(), name)
    if isinstance(default, bool):
        if raw in _TRUE or word == "on":
            return True
        if raw in _FALSE or word == "off":
            return False
        raise SettingsInputError("settings.error.bad_value", option=name, value=text, allowed="on, off")
    for kind in (AllPass, Losses):
        if isinstance(default, kind):
            allowed = [member.value for member in kind]
            if word not in allowed:
                raise SettingsInputError("settings.error.bad_value", option=name, value=text,
                                         allowed=", ".join(allowed))
            return word
    if name == "bock_triggers":
        allowed = [trigger.value for trigger in BockTrigger]
        if raw in _NONE or word == "none":
            return []
        parts = [option_value_from_text(part) for part in raw.split(",") if part.strip()]
        bad = [part for part in parts if part not in allowed]
        if bad:
            raise SettingsInputError("settings.error.bad_value", option=name, value=text,
                                     allowed=", ".join(allowed + ["none"]))
        return sorted(set(parts))
    if name == "dakker_value":
        if raw not in ("59", "69"):
            raise SettingsInputError("settings.error.bad_value", option=name, value=text, allowed="59, 69")
        return int(raw)
    raise SettingsInputError("settings.error.unknown_option", option=name, options=", ".join(OPTION_NAMES))


def apply_request(current: ServerSettings, request: SettingsRequest) -> tuple[ServerSettings, list[SettingChange]]:
    """The settings after the request, and the list of changes; raises SettingsInputError."""
    if request.is_empty:
        return current, []
    changes: list[SettingChange] = []
    preset, options = current.rule_preset, dict(current.rules)
    if request.preset is not None:
        key = request.preset.strip().lower()
        if key not in PRESETS:
            raise SettingsInputError("settings.error.preset", preset=request.preset, presets=", ".join(PRESETS))
        preset, options = key, {}
        changes.append(SettingChange("settings.changed.preset", {"preset": key}))
    if (request.option is None) != (request.value is None):
        raise SettingsInputError("settings.error.option_pair")
    if request.option is not None and request.value is not None:
        name = request.option.strip().lower()
        value = parse_option_value(name, request.value)
        options[name] = value
        changes.append(SettingChange("settings.changed.option", {"option": name, "value": _shown(value)}))
    try:
        rules = RuleSet.preset(preset).with_options(**options)
    except InvalidRuleSet as error:
        # the reason stays a refusal (key and values): cogs.settings says it in the admin's language
        raise SettingsInputError("settings.error.rules", reason=error) from None
    base = RuleSet.preset(preset).to_dict()
    options = {name: value for name, value in rules.to_dict().items() if base[name] != value}
    updated = replace(current, rule_preset=preset, rules=options)
    updated = _timers(updated, request, changes)
    if request.deck is not None:
        if request.deck not in DECK_STYLES:
            raise SettingsInputError("settings.error.deck", decks=", ".join(DECK_STYLES))
        updated = replace(updated, deck_style=Deck(request.deck))
        changes.append(SettingChange("settings.changed.deck", {"deck": request.deck}))
    if request.language is not None:
        if request.language not in CODES:
            raise SettingsInputError("settings.error.language", languages=", ".join(CODES))
        updated = replace(updated, language=Lang(request.language))
        changes.append(SettingChange("settings.changed.language", {"language": request.language}))
    if request.tables is not None:
        if request.tables not in CHANNEL_POLICIES:
            raise SettingsInputError("settings.error.tables", policies=", ".join(CHANNEL_POLICIES))
        updated = replace(updated, channel_policy=request.tables)
        changes.append(SettingChange("settings.changed.tables", {"tables": request.tables}))
    if request.pictures is not None:
        if request.pictures not in ("on", "off"):
            raise SettingsInputError("settings.error.pictures")
        updated = replace(updated, pictures=request.pictures == "on")
        changes.append(SettingChange("settings.changed.pictures", {"pictures": request.pictures}))
    if request.organisers is not None:
        updated = replace(updated, organiser_role=request.organisers or None)
        changes.append(SettingChange("settings.changed.organisers", {"organisers": request.organisers}))
    return updated, changes


def _timers(settings: ServerSettings, request: SettingsRequest, changes: list[SettingChange]) -> ServerSettings:
    if request.turn_seconds is None and request.warning_seconds is None:
        return settings
    turn = settings.turn_seconds if request.turn_seconds is None else request.turn_seconds
    warning = settings.warning_seconds if request.warning_seconds is None else request.warning_seconds
    low, high = TURN_RANGE
    if not low <= turn <= high:
        raise SettingsInputError("settings.error.turn", low=low, high=high)
    if not 0 <= warning < turn:
        raise SettingsInputError("settings.error.warning", turn=turn)
    changes.append(SettingChange("settings.changed.timers", {"turn": turn, "warning": warning}))
    return replace(settings, turn_seconds=turn, warning_seconds=warning)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return ", ".join(value) or "none"
    return str(value)
