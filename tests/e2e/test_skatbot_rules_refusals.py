"""The real bot against the fake Discord: a German admin's house rules that do not go together are refused
in German, with the engine's reason said in German, and the server's settings stay as they were."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.e2e.conftest import Club, StartBot
from tests.e2e.server_helpers import run, speak
from tests.e2e.skat_helpers import start_skatbot


def server_rows(database: Path) -> list[tuple[object, ...]]:
    """Every stored server setting (preset, options, timers, deck, language)."""
    with sqlite3.connect(database) as db:
        return db.execute("SELECT * FROM servers ORDER BY 1").fetchall()


async def test_a_german_admins_contradictory_rules_are_refused_in_german(
        club: Club, start_bot: StartBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = club.fake
    admin = fake.world.owner  # the guild owner has Manage Server
    speak(monkeypatch, {admin.id: "de"})
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))

    saved = await run(fake, admin, club.channel, "settings", preset="pub")
    assert "✅ Gespeichert" in saved.content and "Regelvorlage Kneipe" in saved.content
    before = server_rows(database)
    assert before, "the preset was not stored"

    nothing_changed = "Nichts wurde geändert."
    cases: list[tuple[dict[str, str | int], str]] = [
        ({"option": "kontra", "value": "aus"},  # the pub's Bock round after a Kontra game needs Kontra
         "eine Bockrunde nach einem Spiel mit Kontra geht nur, wenn mit Kontra und Re gespielt wird"),
        ({"preset": "tournament", "option": "losses", "value": "single"},
         "die Seeger-Fabian-Wertung hat ihre eigene Verlustregel (doppelter Wert und 50 mehr); sie lässt sich "
         "nicht mit einfachen Verlusten verbinden"),
        ({"preset": "official", "option": "ramsch_jungfrau", "value": "an", "turn": 90, "deck": "german"},
         "die Jungfrau-Verdopplung gehört zum Ramsch: Wenn alle passen, muss Ramsch gespielt werden"),
    ]
    for options, reason in cases:
        answer = await run(fake, admin, club.channel, "settings", None, **options)
        assert answer.visibility == "ephemeral" and answer.viewer_id == admin.id
        assert answer.content == f"Diese Regeln passen nicht zusammen: {reason}. {nothing_changed}", options
        assert server_rows(database) == before, options

    shown = await run(fake, admin, club.channel, "settings")
    assert "Regelvorlage: Kneipe · geänderte Optionen: keine" in shown.content
    assert "Zugzeit: 60\u202fs" in shown.content  # the narrow no-break space holds 60 to its s
    fake.assert_clean()
