"""Texts of stats, histories, settings and help, in both languages and both deck styles."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from skatbot.engine import GameType, RuleSet
from skatbot.models import DealSummary, Deck, PlayerStats, ScoreMark, SeriesStanding, ServerSettings
from skatbot.ui.calculator import ValueQuestion, answer
from skatbot.ui.i18n import CODES
from skatbot.ui.languages import Lang
from skatbot.ui.server_settings import SettingChange
from skatbot.ui.server_text import (
    HELP_PAGES,
    changes_text,
    help_text,
    history_text,
    settings_text,
    stats_text,
    value_text,
)

WHEN = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
STATS = PlayerStats(server_id=1, player_id=5, display_name="al*ice", is_ai=False, deals=12, points=140, seeger=-30,
                    games_by_type={"suits": 3, "grand": 1, "null": 1, "hand": 2, "ouvert": 0}, declared=5,
                    declared_won=3, defended=7, defended_won=4, biggest_win=ScoreMark(72, 14),
                    biggest_loss=ScoreMark(-96, 9), best_series=SeriesStanding(5, 1, 120, 400, 6),
                    best_series_table=3)


def test_stats_in_english_and_german() -> None:
    english = stats_text(STATS, Lang("en"), "all")
    assert "📊 **alice** on this server (all time)" in english  # no markdown from names
    assert "Deals played: 12 · list points: +140 · Seeger-Fabian: −30" in english
    assert "As declarer: 5 games, 3 won (60%)" in english and "As defender: 7 games, 4 won (57%)" in english
    assert "Biggest win: +72 (deal #14)" in english and "Biggest loss: −96 (deal #9)" in english
    assert "Best series: place 1 with +120 at table #3 (6 deals)" in english
    german = stats_text(STATS, Lang("de"), "week")
    assert "diese Woche" in german and "Als Alleinspieler: 5 Spiele, 3 gewonnen (60\u202f%)" in german  # held to its number
    one = replace(STATS, declared=1, declared_won=1, best_series=SeriesStanding(5, 1, 120, 400, 1))
    assert "As declarer: 1 game, 1 won (100%)" in stats_text(one, Lang("en"), "all")
    assert "(1 deal)" in stats_text(one, Lang("en"), "all") and "(1 Spiel)" in stats_text(one, Lang("de"), "all")


def test_history_names_games_in_the_servers_deck() -> None:
    deals = [DealSummary(14, 3, 2, 5, GameType.CLUBS, "clubs hand", True, 36, 36, WHEN, player_score=36),
             DealSummary(15, 3, 3, None, None, "", False, 0, 0, WHEN, player_score=0),
             DealSummary(16, 3, 4, None, GameType.RAMSCH, "ramsch", False, 40, 0, WHEN, player_score=-40)]
    french = history_text(deals, {5: "alice"}, Lang("en"), Deck.FRENCH, "alice")
    assert "#14 · table 3, deal 2 · <t:1796040000:f> · alice: ♣ Clubs hand, won, value 36 (+36) · alice +36" in french
    assert "#15 · table 3, deal 3 · <t:1796040000:f> · everybody passed" in french
    assert "#16 · table 3, deal 4 · <t:1796040000:f> · Ramsch · alice −40" in french
    german = history_text(deals[:1], {5: "alice"}, Lang("de"), Deck.GERMAN, None)
    assert "alice: Eichel Hand, gewonnen, Wert 36 (+36)" in german and "Die letzten Spiele auf diesem" in german


def test_numbers_and_moments_read_in_each_language() -> None:
    rich = replace(STATS, points=12345, seeger=-1234)
    assert "+12,345" in stats_text(rich, Lang("en"), "all") and "−1,234" in stats_text(rich, Lang("en"), "all")
    assert "+12.345" in stats_text(rich, Lang("de"), "all") and "−1.234" in stats_text(rich, Lang("da"), "all")
    assert "+12\u202f345" in stats_text(rich, Lang("fr"), "all")  # French groups with a narrow space
    naive = DealSummary(14, 3, 2, 5, GameType.CLUBS, "clubs hand", True, 36, 36, datetime(2026, 11, 30, 12, 0),
                        player_score=36)
    assert f"<t:{int(WHEN.timestamp())}:f>" in history_text([naive], {5: "a"}, Lang("da"), Deck.FRENCH, None)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_settings_and_changes(lang: Lang) -> None:
    settings = ServerSettings(server_id=1, rule_preset="pub", rules={"kontra_needs_bid": True}, deck_style=Deck.GERMAN,
                              language=Lang("de"))
    text = settings_text(settings, RuleSet.preset("pub").with_options(kontra_needs_bid=True), lang)
    assert {"en": "kontra_needs_bid = on", "de": "Kontra nur nach Reizen = an"}[lang] in text and "Eichel" in text
    assert {"en": "preset: pub", "de": "Regelvorlage: Kneipe"}[lang] in text
    confirmed = changes_text([SettingChange("settings.changed.deck", {"deck": "german"}),
                              SettingChange("settings.changed.language", {"language": "de"})], lang)
    assert ("German suits" if lang == "en" else "deutsches Blatt") in confirmed
    assert ("language: Deutsch" if lang == "en" else "Sprache: Deutsch") in confirmed


@pytest.mark.parametrize("lang", CODES)
def test_every_help_screen_fits_a_message(lang: Lang) -> None:
    pages = [help_text(page, lang) for page in range(1, HELP_PAGES + 1)]
    assert all(len(page) <= 2000 and f"({index}/{HELP_PAGES})" in page for index, page in enumerate(pages, 1))
    assert len(set(pages)) == HELP_PAGES
    assert "English, Deutsch, Dansk, Français" in pages[3]  # the registry's languages, in every catalog


def test_danish_and_french_use_the_rules_texts_words() -> None:
    danish = stats_text(STATS, Lang("da"), "all") + value_text(answer(ValueQuestion(GameType.SPADES, matadors=2,
                                                                              hand=True, schneider=True)), Lang("da"), Deck.FRENCH)
    assert "Som spiller: 5 spil" in danish and "med 2 spidser" in danish and "skrædder" in danish
    assert "♠ Spar på hånden" in danish
    french = value_text(answer(ValueQuestion(GameType.SPADES, matadors=2, hand=True, schneider=True,
                                             announced="schneider")), Lang("fr"), Deck.GERMAN)
    assert "Feuille (Grün) de la main, schneider annoncé" in french and "avec 2 honneurs" in french


@pytest.mark.parametrize(("lang", "preset", "option", "on"), [
    ("da", "Regelsæt: værtshus", "Kontra kun efter bud = til", "tilvalg Ramsch: Jungfrau = til"),
    ("fr", "Jeu de règles\u00a0: bistrot", "Kontra seulement après une enchère = oui",
     "option Ramsch\u00a0: Jungfrau = oui"),
])
def test_presets_options_and_their_values_in_danish_and_french(lang: Lang, preset: str, option: str, on: str) -> None:
    settings = ServerSettings(server_id=1, rule_preset="pub", rules={"kontra_needs_bid": True})
    text = settings_text(settings, RuleSet.preset("pub").with_options(kontra_needs_bid=True), lang)
    assert preset in text and option in text, text
    confirmed = changes_text([SettingChange("settings.changed.option", {"option": "ramsch_jungfrau", "value": "on"}),
                              SettingChange("settings.changed.preset", {"preset": "danish"})], lang)
    assert on in confirmed and {"da": "regelsæt dansk", "fr": "danois"}[lang] in confirmed, confirmed
