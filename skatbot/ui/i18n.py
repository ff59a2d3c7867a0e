"""Every text a player or admin reads, from the gettext catalogs in skatbot/locale/ (one .po per language
of the registry in languages.py).

`t(lang, key, **values)` formats an entry, `tn(lang, key, n, **values)` the plural form for a count
(the count is `{n}`). Msgids are keys; a language that lacks one falls back to English, and a test
fails for it (tests/ui/test_catalogs.py). The .po files are compiled in memory on first use, so a
fresh clone needs no build step. New texts: see README.md, section Languages.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime
from functools import cache, lru_cache

from babel.numbers import format_decimal
from babel.support import Translations

from .catalogs import mo_bytes, read_catalog
from .languages import BY_CODE, CODES, LANGUAGES, SOURCE, Lang, language_of

__all__ = ["CODES", "LANGUAGES", "MINUS", "N_", "language_of", "number", "signed", "t", "template", "timestamp", "tn",
           "translations"]


@cache
def translations(lang: Lang) -> Translations:
    """The compiled catalog of a language of the registry (English for any other code)."""
    code = lang if lang in BY_CODE else SOURCE
    return Translations(io.BytesIO(mo_bytes(read_catalog(code))), domain="skatbot")


@lru_cache(maxsize=8192)
def template(lang: Lang, key: str) -> str:
    """The unformatted text of a key in a language (English where the language lacks it). Kept once looked up:
    the catalogs do not change while the bot runs, and each hand or board drawn asks for dozens."""
    text = translations(lang).gettext(key)
    if text == key and lang != SOURCE:
        text = translations(SOURCE).gettext(key)
    if text == key:
        raise KeyError(f"no catalog entry {key!r}")
    return text


def t(lang: Lang, key: str, **values: object) -> str:
    text = template(lang, key)
    return text.format(**values) if values else text


def tn(lang: Lang, key: str, n: int, **values: object) -> str:
    """The plural form of `key` for the count `n` (`1 deal`, `2 deals`; Danish and French their own)."""
    text = translations(lang).ngettext(key, key, n)
    if text == key and lang != SOURCE:
        text = translations(SOURCE).ngettext(key, key, n)
    if text == key:
        raise KeyError(f"no plural catalog entry {key!r}")
    return text.format(n=n, **values)


def N_(key: str) -> str:
    """Marks a key written away from its t() call (in a table of keys), so pybabel extract finds it."""
    return key


MINUS = "\u2212"
"""The minus sign of scores in every language (typeset, not the hyphen), as the score lists print it."""


def number(lang: Lang, value: int) -> str:
    """A count or score in the language's digits and grouping: 1,234 · 1.234 · 1 234 (a narrow space)."""
    text = format_decimal(abs(value), locale=lang if lang in BY_CODE else SOURCE)
    return f"{MINUS}{text}" if value < 0 else text


def signed(lang: Lang, value: int) -> str:
    """A score with its sign, as score lists write them: +36, −72, 0; grouped for the language."""
    return f"+{number(lang, value)}" if value > 0 else number(lang, value)


def timestamp(moment: datetime, style: str = "f") -> str:
    """Discord's timestamp markup: each reader's client shows the moment in their own zone and language
    (`f` date and time, `R` relative: "3 hours ago"). A naive moment is taken as UTC, as stored."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return f"<t:{int(moment.timestamp())}:{style}>"
