"""The gettext catalogs: every language of the registry is complete, and texts come out in the reader's
language with the right plural forms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from skatbot.ui.catalogs import entries, fields, keys_in_code, po_path, problems, read_catalog, texts
from skatbot.ui.i18n import CODES, LANGUAGES, language_of, t, tn
from skatbot.ui.languages import SOURCE, Lang
from skatbot.ui.presenter import CLOSED_REASONS

ROOT = Path(__file__).resolve().parents[2]


def test_every_catalog_is_complete_and_agrees_with_english() -> None:
    assert problems() == []


def test_the_registry_and_the_catalog_folders_agree() -> None:
    assert CODES[0] == SOURCE
    folders = {path.parent.parent.name for path in po_path(SOURCE).parents[2].glob("*/LC_MESSAGES/skatbot.po")}
    assert folders == set(CODES)
    for language in LANGUAGES:
        assert read_catalog(language.code).locale_identifier == language.code
        for locale in language.discord_locales:
            assert language_of(locale, "xx") == language.code


def _catalogs(**changes: dict[str, object]) -> dict[str, Catalog]:
    """The real catalogs, with some entries of the German one changed the way translators break them."""
    catalogs: dict[str, Catalog] = {code: read_catalog(code) for code in CODES}
    for key, change in changes.items():
        message = catalogs["de"][key]
        for name, value in change.items():
            setattr(message, name, value)
    return catalogs


@pytest.mark.parametrize(("key", "change", "complaint"), [
    ("button.pass", {"string": ""}, "de: empty button.pass"),
    ("button.pass", {"string": "   "}, "de: empty button.pass"),
    ("button.pass", {"flags": {"fuzzy"}}, "de: fuzzy button.pass"),
    ("board.title", {"string": "Spiel {nummer} von {deals}"}, "de: board.title has fields"),
])
def test_the_check_finds_what_translators_get_wrong(key: str, change: dict[str, object], complaint: str) -> None:
    found = problems(_catalogs(**{key: change}))
    assert len(found) == 1 and found[0].startswith(complaint)


def test_the_check_finds_a_missing_and_a_stray_entry() -> None:
    catalogs = _catalogs()
    catalogs["de"].delete("button.pass")
    catalogs["de"].add("button.passe", "Passe")
    assert problems(catalogs) == ["de: missing button.pass", "de: button.passe is not in the English catalog"]


def test_language_follows_the_discord_locale_then_the_server() -> None:
    assert language_of("de") == "de"
    assert language_of("en-US", "de") == "en"
    assert language_of("pt-BR", "de") == "de"
    assert language_of(None) == "en"
    assert language_of("de", "xx") == "de" and language_of("ja", "xx") == "en"
    assert t(Lang("de"), "button.pass") == "Passe" and t(Lang("en"), "button.pass") == "Pass"


def test_an_unknown_key_fails_loudly_and_an_unknown_language_reads_english() -> None:
    with pytest.raises(KeyError):
        t(Lang("en"), "no.such.key")
    assert t(Lang("xx"), "button.pass") == "Pass"


@pytest.mark.parametrize("code", CODES)
def test_plural_entries_are_plural_in_every_language(code: Lang) -> None:
    plural = [key for key, message in entries(read_catalog(SOURCE)).items() if message.pluralizable]
    assert plural, "the catalogs have no plural entries"
    for key in plural:
        values = {name: "·" for text in texts(read_catalog(SOURCE)[key]) for name in fields(text)} | {"n": 0}
        values.pop("n")
        one, many = tn(code, key, 1, **values), tn(code, key, 5, **values)
        assert "1" in one and "5" in many and "{" not in one + many
        if code in ("en", "de", "fr"):  # Danish says "1 spil", "5 spil"
            assert one.replace("1", "5") != many, f"{code} {key}: one and five read alike"


def test_counts_read_right_in_every_language() -> None:
    assert tn(Lang("en"), "count.deals", 1) == "1 deal" and tn(Lang("en"), "count.deals", 2) == "2 deals"
    assert tn(Lang("de"), "count.deals", 1) == "1 Spiel" and tn(Lang("de"), "count.deals", 0) == "0 Spiele"
    assert tn(Lang("da"), "count.seats", 1) == "1 plads" and tn(Lang("da"), "count.seats", 4) == "4 pladser"
    # French counts 0 and 1 as singular, and says "de" before millions
    assert tn(Lang("fr"), "count.deals", 0) == "0 manche" and tn(Lang("fr"), "count.deals", 1) == "1 manche"
    assert tn(Lang("fr"), "count.deals", 2) == "2 manches"
    assert tn(Lang("en"), "value.step.with", 1) == "with 1 matador" and tn(Lang("fr"), "value.step.against", 3) == "sans 3 honneurs"


def test_every_key_the_code_names_is_in_the_english_catalog() -> None:
    """What pybabel extract finds in t()/tn()/N_() calls (babel.cfg) exists, so no typo shows a KeyError."""
    used = keys_in_code()
    assert len(used) > 100 and "board.re" in used and "board.kontra" in used  # both sides of a conditional
    source = entries(read_catalog(SOURCE))
    assert sorted(key for key in used if key not in source) == []
    plural = {key for key, message in source.items() if message.pluralizable}
    assert plural & set(used), "tn() keys are found too"


def test_every_reason_the_tables_close_for_is_said_in_every_language() -> None:
    """The tables layer closes with a word of its log ("stopped"); players read it in their language."""
    source = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "skatbot" / "tables").glob("*.py"))
    reasons = set(re.findall(r'Close\("([^"]+)"\)', source))
    assert reasons and reasons == set(CLOSED_REASONS)
    for code in CODES:
        said = {t(code, "notice.closed", reason=t(code, key)) for key in CLOSED_REASONS.values()}
        assert len(said) == len(CLOSED_REASONS) and not any("nobody left" in text for text in said if code != "en")
