"""The /skat command tree as it is published: every extension's commands attached, within Discord's
limits, and descriptions through the translator in every language of the registry (Discord shows each
user the text of their client language) for every command, option and choice."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from skatbot.app import EXTENSIONS, SkatBot
from skatbot.config import Settings
from skatbot.ui.languages import BY_CODE, LANGUAGES, SOURCE
from skatbot.ui.translator import CatalogTranslator

SERVER_PARTS = ("scores", "help", "settings")
LOCALES = [locale for language in LANGUAGES if language.code != SOURCE for locale in language.discord_locales]


@pytest.fixture
async def published(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[dict[str, Any]]:
    bot = SkatBot(Settings(database_path=tmp_path / "skat.sqlite3"), EXTENSIONS)

    async def no_sync(**_: Any) -> list[Any]:
        return []

    monkeypatch.setattr(bot.tree, "sync", no_sync)
    await bot.setup_hook()
    try:
        skat = bot.tree.get_command("skat")
        assert isinstance(skat, app_commands.Group)
        yield await skat.get_translated_payload(bot.tree, CatalogTranslator())
    finally:
        await bot.close()


def walk(node: dict[str, Any], path: str = "skat") -> list[tuple[str, dict[str, Any]]]:
    out = [(path, node)]
    for option in node.get("options", []):
        if option.get("type") in (1, 2):
            out += walk(option, f"{path} {option['name']}")
    return out


async def test_the_group_stays_within_discords_limits(published: dict[str, Any]) -> None:
    assert len(published["options"]) <= 25
    names = [option["name"] for option in published["options"]]
    assert all(part in names for part in SERVER_PARTS) and len(set(names)) == len(names)
    for locale in (None, *LOCALES):
        size = 0
        for _, node in walk(published):
            size += len(node["name"]) + len(_described(node, locale))
            for option in node.get("options", []):
                if option.get("type") not in (1, 2):
                    size += len(option["name"]) + len(_described(option, locale))
                    size += sum(len(json.dumps(c["value"])) + len(c["name"]) for c in option.get("choices", []))
        assert size <= 8000, (locale, size)


def _described(node: dict[str, Any], locale: str | None) -> str:
    localized = (node.get("description_localizations") or {}).get(locale or "")
    return str(localized or node["description"])


@pytest.mark.parametrize("locale", LOCALES)
async def test_every_command_has_a_description_in_each_language(published: dict[str, Any], locale: str) -> None:
    for path, node in walk(published):
        text = (node.get("description_localizations") or {}).get(locale)
        assert text and len(text) <= 100 and text != node["description"], (locale, path)
        assert not node.get("name_localizations"), f"{path}: command names stay English"


@pytest.mark.parametrize("locale", LOCALES)
async def test_every_option_and_choice_is_in_each_language(published: dict[str, Any], locale: str) -> None:
    for path, node in walk(published):
        for option in node.get("options", []):
            if option.get("type") in (1, 2):
                continue
            text = (option.get("description_localizations") or {}).get(locale)
            assert text and len(text) <= 100 and len(option["description"]) <= 100, (locale, path, option["name"])
            assert text != option["description"], (locale, path, option["name"])
            for choice in option.get("choices", []):
                if option["name"] == "language":  # each language under its own name, for every reader
                    assert choice["name"] == BY_CODE[choice["value"]].name and not choice.get("name_localizations")
                elif option["name"] == "seats":  # numbers
                    assert not choice.get("name_localizations"), (path, option["name"], choice["value"])
                else:
                    name = choice["name_localizations"][locale]
                    assert name and len(name) <= 100, (locale, path, option["name"], choice["value"])
