"""The /skat command tree as it is published: every extension's commands attached, within Discord's
limits, and descriptions through the translator in every language of the registry (Discord shows each
user the text of their client language) for every command, option and choice."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
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


@asynccontextmanager
async def loaded_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[SkatBot]:
    """The bot with every extension loaded and its command tree built, never synced."""
    bot = SkatBot(Settings(database_path=tmp_path / "skat.sqlite3"), EXTENSIONS)

    async def no_sync(**_: Any) -> list[Any]:
        return []

    monkeypatch.setattr(bot.tree, "sync", no_sync)
    await bot.setup_hook()
    try:
        yield bot
    finally:
        await bot.close()


async def payload_of(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[dict[str, Any]]:
    """The top-level `command` as the bot publishes it, every extension loaded, through the translator."""
    async with loaded_bot(tmp_path, monkeypatch) as bot:
        group = bot.tree.get_command(command)
        assert isinstance(group, app_commands.Group)
        yield await group.get_translated_payload(bot.tree, CatalogTranslator())


@pytest.fixture
async def published(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[dict[str, Any]]:
    async for payload in payload_of("skat", tmp_path, monkeypatch):
        yield payload


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
    assert command_size(published) <= 8000, command_size(published)


async def test_every_top_level_command_stays_within_discords_size(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Each top-level command the bot publishes (/skat, /tournament, /challenge, ...), counted as Discord
    documents it: every field at its longest localization, 8,000 characters at most."""
    async with loaded_bot(tmp_path, monkeypatch) as bot:
        sizes = {command.name: command_size(await command.get_translated_payload(bot.tree, CatalogTranslator()))
                 for command in bot.tree.get_commands()}
    assert {"skat", "tournament", "challenge"} <= set(sizes), sizes
    assert all(size <= 8000 for size in sizes.values()), sizes


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


@pytest.fixture
async def tournament(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[dict[str, Any]]:
    """/tournament as published: its own top-level command (cogs.tournament)."""
    async for payload in payload_of("tournament", tmp_path, monkeypatch):
        yield payload


def _longest(node: dict[str, Any], field: str) -> int:
    """A field at its longest: the default text or any of its localizations (Discord counts the longest)."""
    return max([len(str(node.get(field) or ""))] + [len(v) for v in (node.get(f"{field}_localizations") or {}).values()])


def command_size(node: dict[str, Any]) -> int:
    """Discord's size of a top-level command, as its documentation counts it ("a combined sum of 8000
    characters for name, description, and value properties for a command, its options (including subcommands
    and groups), and choices"; "only the longest localization for each field (including the default value)"):
    every name and description, each option's, each choice's name and value (its characters: "auto" is 4,
    not the 6 of its JSON text), each at its longest localization."""
    size = _longest(node, "name") + _longest(node, "description")
    for option in node.get("options", []):
        if option.get("type") in (1, 2):
            size += command_size(option)
            continue
        size += _longest(option, "name") + _longest(option, "description")
        size += sum(len(str(c["value"])) + _longest(c, "name") for c in option.get("choices", []))
    return size


def test_the_size_is_counted_as_discord_documents_it() -> None:
    """A worked example: every field at its longest localization, the default counted too, choice values by
    their characters."""
    command = {
        "name": "club", "description": "Club nights", "description_localizations": {"de": "Skatabende im Klub"},
        "options": [{"type": 1, "name": "new", "description": "Set one up",
                     "description_localizations": {"fr": "En créer un", "da": "Opret"},
                     "options": [{"type": 3, "name": "tables", "description": "Sizes",
                                  "description_localizations": {"de": "Tischgrößen"},
                                  "choices": [{"name": "auto", "value": "auto",
                                               "name_localizations": {"de": "automatisch"}},
                                              {"name": "three", "value": "three"}]},
                                 {"type": 4, "name": "series", "description": "How many",
                                  "choices": [{"name": "six", "value": 6}]}]}]}
    # club 4 + "Skatabende im Klub" 18; new 3 + "En créer un" 11; tables 6 + "Tischgrößen" 11;
    # "auto" 4 + "automatisch" 11, "three" 5 + "three" 5; series 6 + "How many" 8; "6" 1 + "six" 3
    assert command_size(command) == 4 + 18 + 3 + 11 + 6 + 11 + 4 + 11 + 5 + 5 + 6 + 8 + 1 + 3


async def test_tournament_is_its_own_command_within_discords_limit(tournament: dict[str, Any],
                                                                   published: dict[str, Any]) -> None:
    names = [option["name"] for option in tournament["options"]]
    assert sorted(names) == ["export", "join", "leave", "new", "next", "standings", "start", "stop"]
    size = command_size(tournament)
    print(f"/tournament: {size} characters, /skat: {command_size(published)} (each field at its longest)")
    assert 1000 < size <= 8000, size
    assert command_size(published) <= 8000  # /skat too, counted the same way
    new = next(option for option in tournament["options"] if option["name"] == "new")
    assert [o["name"] for o in new["options"]][:3] == ["name", "series", "deals"]


@pytest.mark.parametrize("locale", LOCALES)
async def test_every_tournament_text_is_in_each_language(tournament: dict[str, Any], locale: str) -> None:
    for path, node in walk(tournament, "tournament"):
        text = (node.get("description_localizations") or {}).get(locale)
        assert text and len(text) <= 100 and text != node["description"], (locale, path)
        for option in node.get("options", []):
            if option.get("type") in (1, 2):
                continue
            text = (option.get("description_localizations") or {}).get(locale)
            assert text and len(text) <= 100 and text != option["description"], (locale, path, option["name"])
            for choice in option.get("choices", []):
                assert choice["name_localizations"][locale], (locale, path, option["name"], choice["value"])
