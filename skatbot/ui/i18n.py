"""One translation catalog for every text a player reads, complete in English and German.

`t(lang, key, **values)` formats the entry; a missing key in either language fails a test, so the two
catalogs cannot drift apart.
"""

from __future__ import annotations

from .catalog_de import DE as DE_PLAY
from .catalog_en import EN as EN_PLAY
from .catalog_server_de import DE_SERVER
from .catalog_server_en import EN_SERVER

EN = {**EN_PLAY, **EN_SERVER}
DE = {**DE_PLAY, **DE_SERVER}
CATALOGS: dict[str, dict[str, str]] = {"en": EN, "de": DE}
LANGUAGES = tuple(CATALOGS)


def language_of(locale: str | None, fallback: str = "en") -> str:
    """The catalog for a Discord locale such as `de` or `en-US`, else the fallback (the server's)."""
    if locale:
        code = str(locale).split("-")[0].lower()
        if code in CATALOGS:
            return code
    return fallback if fallback in CATALOGS else "en"


def t(lang: str, key: str, **values: object) -> str:
    catalog = CATALOGS.get(lang, EN)
    template = catalog.get(key) or EN[key]
    return template.format(**values) if values else template
