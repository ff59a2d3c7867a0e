"""Every text exists in English and German, with the same placeholders."""

from __future__ import annotations

import string

import pytest

from skatbot.ui.i18n import CATALOGS, language_of, t


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_english_and_german_have_the_same_keys() -> None:
    english, german = CATALOGS["en"], CATALOGS["de"]
    assert sorted(set(english) - set(german)) == []
    assert sorted(set(german) - set(english)) == []


@pytest.mark.parametrize("key", sorted(CATALOGS["en"]))
def test_translations_use_the_same_placeholders(key: str) -> None:
    assert placeholders(CATALOGS["de"][key]) == placeholders(CATALOGS["en"][key])
    assert CATALOGS["de"][key].strip()


def test_language_follows_the_discord_locale_then_the_server() -> None:
    assert language_of("de") == "de"
    assert language_of("en-US", "de") == "en"
    assert language_of("fr", "de") == "de"
    assert language_of(None) == "en"
    assert t("de", "button.pass") == "Passe" and t("en", "button.pass") == "Pass"
