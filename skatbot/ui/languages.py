"""The one registry of the languages the bot speaks: everything else (settings, command translator, card
names, tests) reads this list.

Adding a language: put its catalog at skatbot/locale/<code>/LC_MESSAGES/skatbot.po and add one line here.
"""

from __future__ import annotations

from dataclasses import dataclass

from skatbot.models import Lang

__all__ = ["BY_CODE", "CODES", "LANGUAGES", "SOURCE", "Lang", "Language", "language_name", "language_of"]


@dataclass(frozen=True)
class Language:
    code: Lang
    """The catalog's folder and the stored server setting (`en`, `de`); also Babel's locale for numbers."""
    name: str
    """The language's own name, as the settings list it to every reader."""
    discord_locales: tuple[str, ...]
    """Discord client locales (`interaction.locale`) that read this catalog."""


SOURCE = Lang("en")
"""The language the catalog keys are written for; every other catalog falls back to it."""

LANGUAGES: tuple[Language, ...] = (
    Language(Lang("en"), "English", ("en-US", "en-GB")),
    Language(Lang("de"), "Deutsch", ("de",)),
    Language(Lang("da"), "Dansk", ("da",)),
    Language(Lang("fr"), "Français", ("fr",)),
)
CODES: tuple[Lang, ...] = tuple(language.code for language in LANGUAGES)
BY_CODE: dict[str, Language] = {language.code: language for language in LANGUAGES}
_BY_LOCALE: dict[str, Lang] = {locale.lower(): language.code for language in LANGUAGES
                              for locale in language.discord_locales}


def language_of(locale: str | None, fallback: str = SOURCE) -> Lang:
    """The catalog for a Discord locale such as `de` or `en-US`, else the fallback (the server's)."""
    if locale:
        text = str(locale).lower()
        code = _BY_LOCALE.get(text) or text.split("-")[0]
        if code in BY_CODE:
            return BY_CODE[code].code
    return BY_CODE[fallback].code if fallback in BY_CODE else SOURCE


def language_name(code: Lang) -> str:
    """A language's own name (`Deutsch`), or the code itself for one we no longer speak."""
    language = BY_CODE.get(code)
    return language.name if language else code
