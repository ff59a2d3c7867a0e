"""The /skat command tree as it is published: every extension's commands attached, within Discord's
limits, and German descriptions through the translator for every command and every server option."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from skatbot.app import EXTENSIONS, SkatBot
from skatbot.config import Settings
from skatbot.ui.languages import BY_CODE
from skatbot.ui.translator import CatalogTranslator

SERVER_PARTS = ("scores", "help", "settings")


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
    for locale in (None, "de"):
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
    return localized or node["description"]


async def test_every_command_has_a_german_description(published: dict[str, Any]) -> None:
    for path, node in walk(published):
        german = (node.get("description_localizations") or {}).get("de")
        assert german and len(german) <= 100 and german != node["description"], path
        assert not node.get("name_localizations"), f"{path}: command names stay English"


async def test_every_server_option_and_choice_is_in_german(published: dict[str, Any]) -> None:
    for path, node in walk(published):
        if path.split()[1:2] and path.split()[1] not in SERVER_PARTS:
            continue
        for option in node.get("options", []):
            if option.get("type") in (1, 2):
                continue
            german = (option.get("description_localizations") or {}).get("de")
            assert german and len(german) <= 100 and len(option["description"]) <= 100, (path, option["name"])
            for choice in option.get("choices", []):
                if option["name"] == "language":  # each language under its own name, for every reader
                    assert choice["name"] == BY_CODE[choice["value"]].name and not choice.get("name_localizations")
                elif option["name"] not in ("preset", "option"):  # rule names are the engine's words
                    assert choice["name_localizations"]["de"], (path, option["name"], choice["value"])
