"""Every text a player or admin reads, from the gettext catalogs in skatbot/locale/ (one .po per language
of the registry in languages.py).

`t(lang, key, **values)` formats an entry, `tn(lang, key, n, **values)` the plural form for a count
(the count is `{n}`). Msgids are keys; a language that lacks one falls back to English, and a test
fails for it (tests/ui/test_catalogs.py). The .po files are compiled in memory on first use, so a
fresh clone needs no build step. New texts: see README.md, section Languages.
"""

from __future__ import annotations

import io
from functools import cache

from babel.support import Translations

from .catalogs import mo_bytes, read_catalog
from .languages import BY_CODE, CODES, LANGUAGES, SOURCE, language_of

__all__ = ["CODES", "LANGUAGES", "N_", "language_of", "t", "template", "tn", "translations"]


@cache
def translations(lang: str) -> Translations:
    """The compiled catalog of a language of the registry (English for any other code)."""
    code = lang if lang in BY_CODE else SOURCE
    return Translations(io.BytesIO(mo_bytes(read_catalog(code))), domain="skatbot")


def template(lang: str, key: str) -> str:
    """The unformatted text of a key in a language (English where the language lacks it)."""
    text = translations(lang).gettext(key)
    if text == key and lang != SOURCE:
        text = translations(SOURCE).gettext(key)
    if text == key:
        raise KeyError(f"no catalog entry {key!r}")
    return text


def t(lang: str, key: str, **values: object) -> str:
    text = template(lang, key)
    return text.format(**values) if values else text


def tn(lang: str, key: str, n: int, **values: object) -> str:
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
