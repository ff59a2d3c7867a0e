"""Command descriptions in the reader's language, through discord.py's translator.

Command names stay English (people share them in chat); descriptions, option descriptions and choice
names come from the catalog. A key is taken from the `locale_str` (`key=` extra) or, for commands and
groups, from the qualified name: `cmd.skat.scores.leaderboard`. Discord shows each user the text of
their client language; every language of the registry (languages.py) is offered.
"""

from __future__ import annotations

from typing import Any

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from .i18n import template
from .languages import LANGUAGES, SOURCE

LOCALES: dict[Locale, str] = {Locale(locale): language.code for language in LANGUAGES if language.code != SOURCE
                              for locale in language.discord_locales}
"""Discord locales we translate into; English is the text in the code."""


def key_for(string: app_commands.locale_str, context: app_commands.TranslationContext[Any, Any]) -> str | None:
    """The catalog key of a string being translated, or None for what we leave alone (names)."""
    key = string.extras.get("key")
    if isinstance(key, str):
        return key
    if context.location in (Where.command_description, Where.group_description):
        qualified = getattr(context.data, "qualified_name", None)
        return f"cmd.{qualified.replace(' ', '.')}" if qualified else None
    return None


class CatalogTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContext[Any, Any]) -> str | None:
        lang = LOCALES.get(locale)
        if lang is None or context.location in (Where.command_name, Where.group_name, Where.parameter_name):
            return None
        key = key_for(string, context)
        if key is None:
            return None
        try:
            return template(lang, key)
        except KeyError:
            return None
