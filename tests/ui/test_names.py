"""Computer players, their levels, rule presets and options in every language; the identifiers stay as stored."""

from __future__ import annotations

import pytest

from skatbot.ai import TABLE_LEVELS, Level
from skatbot.engine.rules import PRESETS
from skatbot.tables.ai_seats import AiSeat
from skatbot.tables.game import TableGame
from skatbot.tables.log import AddAI, Join
from skatbot.ui.i18n import CODES
from skatbot.ui.languages import Lang
from skatbot.ui.names import (
    OPTION_VALUES,
    ai_name,
    level_from_text,
    level_name,
    option_name,
    option_value,
    option_value_from_text,
    player_name_of,
    preset_name,
)
from skatbot.ui.render import lobby_text
from skatbot.ui.server_settings import OPTION_NAMES, parse_option_value
from tests.ui.viewed import viewed


@pytest.mark.parametrize(("lang", "shown"), [("en", "AI 2 (strong)"), ("de", "KI 2 (stark)"), ("da", "AI 2 (stærk)"),
                                             ("fr", "IA 2 (fort)")])
def test_a_computer_player_is_named_in_the_readers_language(lang: Lang, shown: str) -> None:
    seat = AiSeat(Level.STRONG, 2)
    assert ai_name(seat, lang) == shown
    # a stored player is named from the seat its id holds, never from its stored name
    assert player_name_of(seat.player_id, "AI 2 (strong)", lang) == shown
    assert player_name_of(seat.player_id, "renamed in the database", lang) == shown
    assert player_name_of(42, "alice (strong)", lang) == "alice (strong)"  # a person called so keeps their name
    assert player_name_of(-100, "strong", lang) == "strong"  # a level's rating identity is no seat


def test_an_ai_seat_is_data_that_its_player_id_holds() -> None:
    for level in TABLE_LEVELS:
        for number in (1, 2, 3):
            seat = AiSeat(level, number)
            assert AiSeat.of(seat.player_id) == seat and seat.player_id < 0
    assert AiSeat.of(7) is None and AiSeat.of(-100) is None and AiSeat.of(-901) is None


@pytest.mark.parametrize("lang", CODES)
def test_every_level_is_understood_in_every_language(lang: Lang) -> None:
    for level in TABLE_LEVELS:
        assert level_from_text(level_name(level, lang)) is level
        assert level_from_text(f"  {level_name(level, lang).upper()} ") is level
    assert level_from_text("strong") is Level.STRONG
    with pytest.raises(ValueError):
        level_from_text("random")  # not a level a table seats


def test_levels_presets_and_options_use_the_rules_texts_words() -> None:
    assert [level_name(level, Lang("da")) for level in TABLE_LEVELS] == ["let", "normal", "stærk"]
    assert [level_name(level, Lang("fr")) for level in TABLE_LEVELS] == ["facile", "normal", "fort"]
    assert preset_name("danish", Lang("da")) == "dansk" and preset_name("pre-1999", Lang("fr")) == "avant 1999"
    assert option_name("all_pass", Lang("da")) == "Alle passer" and option_name("dakker_value", Lang("da")) == "Dækkerens værdi"
    for lang in CODES:
        assert all(preset_name(name, lang).strip() for name in PRESETS)
        assert all(option_name(name, lang).strip() for name in OPTION_NAMES)
        assert len({preset_name(name, lang) for name in PRESETS}) == len(PRESETS)
        assert len({option_name(name, lang) for name in OPTION_NAMES}) == len(OPTION_NAMES)


def test_the_lobby_names_the_computer_players_and_the_preset_in_the_readers_language() -> None:
    game = TableGame(size=3, deals=1, rules=PRESETS["pub"], creator_id=1)
    for entry in (Join(1, "alice"), AddAI(Level.STRONG)):
        game.apply(entry)
    german = lobby_text(viewed(game), Lang("de"), 7)
    assert "🤖 KI 1 (stark)" in german and "Regeln: Kneipe" in german
    assert "🤖 AI 1 (strong)" in lobby_text(viewed(game), Lang("en"), 7) and "🤖 IA 1 (fort)" in lobby_text(viewed(game), Lang("fr"), 7)


@pytest.mark.parametrize("lang", CODES)
def test_every_option_value_is_shown_and_read_back_in_every_language(lang: Lang) -> None:
    for value in OPTION_VALUES:
        shown = option_value(value, lang)
        assert shown.strip() and option_value_from_text(f" {shown.upper()} ") == value, (lang, value, shown)
    assert option_value("kontra, lost at 60", Lang("da")) == "Kontra, tabt med 60"
    assert option_value("69", lang) == "69"  # a number stays a number


def test_no_word_names_two_option_values() -> None:
    seen: dict[str, str] = {}
    for lang in CODES:
        for value in OPTION_VALUES:
            word = option_value(value, lang).casefold()
            assert seen.setdefault(word, value) == value, (lang, word, seen[word], value)


@pytest.mark.parametrize(("option", "typed", "stored"), [
    ("bock_triggers", "tabt med 60, Kontra", ["kontra", "lost at 60"]),
    ("bock_triggers", "ingen", []),
    ("losses", "einfach", "single"),
    ("all_pass", "Ramsch", "ramsch"),
    ("all_pass", "redistribuer", "throw-in"),
    ("musik", "oui", True),
    ("kontra", "fra", False),
])
def test_an_admin_types_values_in_their_own_words(option: str, typed: str, stored: object) -> None:
    assert parse_option_value(option, typed) == stored
