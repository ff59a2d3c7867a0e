"""What a tournament shows: the sign-up list, the draw with its seed, the standings with the tie rule named,
the final list with the fees booked, the CSV export; and the organiser role in /skat settings."""

from __future__ import annotations

import csv
import io

from skatbot.models import ServerSettings
from skatbot.tournaments import (
    Drawn,
    Joined,
    Standing,
    TableDraw,
    TournamentError,
    TournamentSettings,
    TournamentState,
)
from skatbot.ui.languages import CODES, Lang
from skatbot.ui.refusals import refusal_reply
from skatbot.ui.server_settings import SettingsRequest, apply_request
from skatbot.ui.server_text import changes_text, settings_text
from skatbot.ui.tournament_text import (
    draw_texts,
    export_csv,
    final_texts,
    series_done_text,
    signup_text,
    standings_text,
)


def state() -> TournamentState:
    run = TournamentState(TournamentSettings("Club evening", series=2, deals=3, entry_fee=500, lost_fee=50), 9)
    for player, name in ((11, "Anna"), (12, "Bert"), (13, "Cara")):
        run.apply(Joined(player, name))
    return run


def test_the_signup_lists_the_players_and_the_format() -> None:
    text = signup_text(1, "Club evening", state(), Lang("en"), start_at=1_800_000_000)
    assert text.splitlines()[:3] == [
        "🏆 **Tournament #1: Club evening**",
        "2 series · 3 deals at three, 4 at four · tables of four where possible · rules: tournament · "
        "entry 5.00, per lost game 0.50 (booked only)",
        "Starts <t:1800000000:F>."]
    assert "**Signed up (3):**\n1. Anna\n2. Bert\n3. Cara" in text and "/tournament join" in text
    german = signup_text(1, "Club evening", state(), Lang("de"))
    assert "**Angemeldet (3):**" in german and "Vierertische, wo möglich" in german


def test_the_draw_shows_its_seed_and_the_tables() -> None:
    drawn = Drawn(1, 4242, (TableDraw((12, 11)), TableDraw((13,), 2)))
    (text,) = draw_texts(drawn, {11: "Anna", 12: "Bert", 13: "Cara"}, {1: 700}, Lang("en"))
    assert "seed 4242" in text and "random.Random(seed)" in text
    assert "Table 1: Bert, Anna → <#700>" in text and "Table 2: Cara, a computer player, a computer player" in text


def test_standings_and_the_final_list_name_the_tie_rule_and_the_fees() -> None:
    run = state()
    run.apply(Drawn(1, 1, (TableDraw((11, 12, 13)),)))
    table = [Standing(1, 12, 136, 2, 0, (136, 0), 1, 3), Standing(2, 11, -20, 0, 1, (-20, 0), 1, 3),
             Standing(2, 13, -20, 0, 1, (-20, 0), 1, 3)]
    live = standings_text(1, "Club evening", run, table, Lang("en"), deals=3)
    assert live.splitlines()[0] == "📊 **Club evening (#1)** · series 1 of 2 · 3 deals played"
    assert "1. Bert · +136 · 2/0 · table 1" in live and "2. Anna · -20 · 0/1 · table 1" in live
    assert "more games won come first, then fewer games lost, then the lot" in live
    run.ended = "finished"
    (final,) = final_texts(1, "Club evening", run, table, Lang("en"))
    assert final.startswith("🏆 **Club evening (#1): the final list**")
    assert "Anna: 5.50 (5.00 + 1 × lost = 0.50)" in final and "Bert: 5.00 (5.00 + 0 × lost = 0.00)" in final


def test_the_csv_export_has_a_line_per_player_and_deal() -> None:
    rows = [{"series": 1, "table": 1, "table_id": 5, "deal": 1, "player_id": 11, "player": "Anna", "seeger": 86,
             "score": 36, "role": "declarer", "declarer_id": 11, "game": "clubs", "contract": "clubs", "won": True,
             "value": 36}]
    (line,) = csv.DictReader(io.StringIO(export_csv(rows)))
    assert line["player"] == "Anna" and line["seeger"] == "86" and line["won"] == "True"


def test_the_organiser_role_is_set_and_cleared_in_the_settings() -> None:
    current = ServerSettings(10)
    updated, changes = apply_request(current, SettingsRequest(organisers=777))
    assert updated.organiser_role == 777
    assert changes_text(changes, Lang("en")) == \
        "✅ Saved. New tables use:\n• tournament organisers: members with Manage Server and the role <@&777>"
    assert "Tournament organisers: members with Manage Server and the role <@&777>" in \
        settings_text(updated, updated.rule_set, Lang("en"))
    cleared, _ = apply_request(updated, SettingsRequest(organisers=0))
    assert cleared.organiser_role is None
    assert "Tournament organisers: members with Manage Server\n" in settings_text(cleared, cleared.rule_set, Lang("en"))


def test_names_in_public_messages_neither_ping_nor_format() -> None:
    run = TournamentState(TournamentSettings("**Big** @everyone"), 9)
    run.apply(Joined(11, "<@123456789012345678> _x_"))
    text = signup_text(1, "**Big** @everyone", run, Lang("en"))
    assert "@everyone" not in text and "<@123456789012345678>" not in text and "**Big**" not in text
    assert "\\*\\*Big\\*\\*" in text and "\\_x\\_" in text


def club_of(players: int) -> tuple[TournamentState, list[Standing]]:
    """A big club evening, ended: `players` with long names, every one of them with a game lost (a fee line)."""
    run = TournamentState(TournamentSettings("Preisskat", series=2, deals=3, entry_fee=1000, lost_fee=50), 9)
    for player in range(1, players + 1):
        run.apply(Joined(player, f"Maximiliane Mustermann {player:02d}"))
    run.apply(Drawn(1, 7, tuple(TableDraw(tuple(range(p, p + 3))) for p in range(1, players + 1, 3))))
    run.ended = "finished"
    table = [Standing(at, player, 2000 - 37 * at, 3, 1, (1000, 1000 - 37 * at), (player + 2) // 3, 6)
             for at, player in enumerate(range(1, players + 1), 1)]
    return run, table


def test_a_big_final_list_is_posted_whole_in_several_messages_with_every_fee() -> None:
    run, table = club_of(42)
    parts = final_texts(1, "Preisskat", run, table, Lang("en"))
    assert len(parts) > 1 and all(len(part) <= 2000 for part in parts)
    assert parts[0].startswith("🏆 **Preisskat (#1): the final list**")
    whole = "\n".join(parts)
    for at in range(1, 43):  # every place, the winners too, and every player's fees
        assert f"\n{at}. Maximiliane Mustermann {at:02d} · " in whole, at
        assert f"\nMaximiliane Mustermann {at:02d}: 10.50 (10.00 + 1 × lost = 0.50)" in whole, at
    assert "…" not in whole and whole.rstrip().endswith("then the lot (the order series 1 was drawn in).")


def test_big_standings_keep_the_leaders_and_the_readers_own_line() -> None:
    run, table = club_of(60)
    run.ended = None
    live = standings_text(1, "Preisskat", run, table, Lang("en"), deals=90)
    assert len(live) <= 2000
    lines = live.splitlines()
    assert lines[2].startswith("1. Maximiliane Mustermann 01 · ") and "…" in lines
    assert lines[-1].startswith("Ties, as the Skatwettspielordnung rules")
    mine = standings_text(1, "Preisskat", run, table, Lang("en"), deals=90, reader=57)
    assert len(mine) <= 2000 and "\n57. Maximiliane Mustermann 57 · " in mine
    assert mine.splitlines()[2].startswith("1. Maximiliane Mustermann 01 · ")


def test_the_organisers_refusal_names_every_way_to_be_one() -> None:
    """A member refused learns that the role from /skat settings organisers would let them, in every language."""
    for code in ("en", "de", "da", "fr"):
        text = refusal_reply(TournamentError("organisers_only"), Lang(code))
        assert "/skat settings organisers" in text, (code, text)


def test_a_long_sign_up_list_keeps_its_title_format_count_and_how_to_join() -> None:
    """80 players with long names do not fit one message: the earliest names give way (marked "…"), never the
    tournament's title, its format, the count, the newest sign-ups or how to join."""
    run = TournamentState(TournamentSettings("Preisskat", series=3), 9)
    for player in range(1, 81):
        run.apply(Joined(player, f"Maximiliane Mustermann {player:02d}"))
    text = signup_text(1, "Preisskat", run, Lang("en"), start_at=1_800_000_000)
    lines = text.splitlines()
    assert len(text) <= 2000
    assert lines[:4] == ["🏆 **Tournament #1: Preisskat**",
                         "3 series · 36 deals at three, 48 at four · tables of four where possible · rules: tournament",
                         "Starts <t:1800000000:F>.", "**Signed up (80):**"]
    assert lines[4] == "…" and "80. Maximiliane Mustermann 80" in lines and "/tournament join" in lines[-1]


def test_a_draw_of_many_tables_shows_its_seed_and_every_table_with_its_thread() -> None:
    """Sixty players at fifteen tables of four do not fit one message: the draw goes out in parts, the first
    with the seed, and no table (nobody's way to their thread) is left out."""
    names = {player: f"Maximiliane Mustermann {player:02d}" for player in range(1, 61)}
    drawn = Drawn(1, 4242, tuple(TableDraw(tuple(range(p, p + 4))) for p in range(1, 61, 4)))
    parts = draw_texts(drawn, names, {index: 7000 + index for index in range(1, 16)}, Lang("en"))
    assert len(parts) > 1 and all(len(part) <= 2000 for part in parts)
    assert parts[0].startswith("🎲 **Series 1: the tables, drawn by lot** (seed 4242")
    whole = "\n".join(parts)
    for index in range(1, 16):
        assert f"Table {index}: Maximiliane Mustermann {4 * index - 3:02d}, " in whole and f"<#{7000 + index}>" in whole


WAIT_WORDS = {"en": "waits", "de": "wartet", "da": "venter", "fr": "attend"}


def test_a_series_over_whose_next_series_waits_says_why_in_every_language() -> None:
    """With the next series started automatically, "series over" says why the next one waits instead of
    sending the organiser to /tournament next: who still sits at another table (no pings, no markdown), or the
    reason /tournament next would give."""
    busy = TournamentError("player_busy", names="Cara, @everyone")
    other = TournamentError("busy")
    for lang in CODES:
        plain = series_done_text(1, "Club evening", lang)
        assert "/tournament next" in plain
        text = series_done_text(1, "Club evening", lang, busy)
        assert text.startswith("✅") and "Club evening" in text and "Cara" in text, text
        assert "@everyone" not in text and "/tournament next" not in text and WAIT_WORDS[lang] in text, text
        generic = series_done_text(1, "Club evening", lang, other)
        assert refusal_reply(other, lang) in generic and WAIT_WORDS[lang] in generic, generic
        assert "{" not in text + generic
    assert series_done_text(2, "Club evening", Lang("en"), busy) == (
        "✅ Series 2 of Club evening is over at every table. The next series waits for players still seated at "
        "another running table: Cara, @\u200beveryone. It starts by itself as soon as they are free (nobody plays "
        "at two tables at once).")
