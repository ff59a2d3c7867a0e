"""The real bot against the fake Discord: the server features (lists, help, rules, value, settings) in
English and German, with bad input."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from skatbot.engine import RuleSet
from skatbot.engine.rules import PRESETS
from skatbot.ui.languages import Lang
from skatbot.ui.rules_text import rules_lines
from tests.controls import control_kind
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import FakeDiscord, Message, User
from tests.e2e.server_helpers import AI_ID, button_ids, run, seed_series, speak
from tests.e2e.skat_helpers import public_texts, start_skatbot
from tests.e2e.skat_players import button_move, play_out

HUMANS = [(10_000 + n, f"player{n:02d}", False) for n in range(12)]


async def seeded_bot(club: Club, start_bot: StartBot, tmp_path: Path) -> list[int]:
    """Five finished series: four among twelve humans, one of alice and bob with a computer player."""
    path = tmp_path / "skat.sqlite3"
    tables = [HUMANS[i:i + 3] for i in range(0, 12, 3)]
    tables.append([(club.alice.id, "alice", False), (club.bob.id, "bob", False), (AI_ID, "AI Robin", True)])
    table_ids = await seed_series(path, guild_id=club.guild.id, tables=tables)
    await start_skatbot(club.fake, start_bot, str(path))
    return table_ids


def ephemeral_to(message: Message, user: User) -> bool:
    return message.visibility == "ephemeral" and message.viewer_id == user.id


async def test_lists_in_english(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    table_ids = await seeded_bot(club, start_bot, tmp_path)
    carol = fake.add_user("carol")

    board = await run(fake, alice, club.channel, "leaderboard", group="scores")
    assert board.visibility == "public"
    assert "Leaderboard" in board.content and "all time" in board.content and "list points" in board.content
    assert "Page 1 of 2" in board.content and "14 ranked players" in board.content
    assert "Computer players (not ranked)" in board.content and "🤖 AI Robin" in board.content
    ranked = [line for line in board.content.splitlines() if line[:1].isdigit()]
    assert len(ranked) == 10 and not any("AI Robin" in line for line in ranked)
    assert button_ids(board) == ["lb:en:all:list:0", "lb:en:all:list:2"]
    assert board.buttons()[0].get("disabled") and not board.buttons()[1].get("disabled")

    click = await fake.click(club.bob, board, "lb:en:all:list:2")  # anyone may turn the page
    await click.wait_acked()
    await fake.wait_for(lambda: "Page 2 of 2" in board.content, 30, "the second page")
    assert len([line for line in board.content.splitlines() if line[:1].isdigit()]) == 4
    assert button_ids(board) == ["lb:en:all:list:1", "lb:en:all:list:3"]

    by_seeger = await run(fake, alice, club.channel, "leaderboard", group="scores", period="week",
                          scoring="seeger")
    assert "this week" in by_seeger.content and "Seeger-Fabian points" in by_seeger.content

    too_far = await run(fake, alice, club.channel, "leaderboard", group="scores", page=9)
    assert ephemeral_to(too_far, alice) and "There is no page 9: the ranking has 2 pages." in too_far.content

    mine = await run(fake, alice, club.channel, "stats", group="scores")
    assert "alice" in mine.content and "Deals played: 2" in mine.content and "As declarer" in mine.content
    nobody = await run(fake, alice, club.channel, "stats", group="scores", player=carol)
    assert ephemeral_to(nobody, alice) and "carol has not played Skat on this server yet." in nobody.content

    history = await run(fake, alice, club.channel, "history", group="scores")
    lines = [line for line in history.content.splitlines() if line.startswith("#")]
    assert 1 <= len(lines) <= 10 and "/skat scores record deal:" in history.content
    alice_history = await run(fake, alice, club.channel, "history", group="scores", player=alice)
    assert "The last deals of alice" in alice_history.content
    assert (await run(fake, alice, club.channel, "history", group="scores", player=carol)).content.endswith(
        "carol has not played Skat on this server yet.")

    deal_id = int(lines[0].split()[0][1:])
    record = await run(fake, alice, club.channel, "record", group="scores", deal=deal_id)
    assert f"Deal #{deal_id}" in record.content and "ISS game record" in record.content
    (attachment,) = record.attachments
    assert attachment.filename == f"skat-deal-{deal_id}.sgf" and attachment.data.startswith(b"(;GM[Skat]")
    series = await run(fake, alice, club.channel, "record", group="scores", series=table_ids[-1])
    (document,) = series.attachments
    assert document.filename == f"skat-series-{table_ids[-1]}.json" and json.loads(document.data)
    missing = await run(fake, alice, club.channel, "record", group="scores", deal=999_999)
    assert ephemeral_to(missing, alice) and "There is no deal #999999 on this server." in missing.content
    neither = await run(fake, alice, club.channel, "record", group="scores")
    assert "Give either deal:" in neither.content
    in_dm = await run(fake, alice, fake.dm_channel(alice), "leaderboard", group="scores")
    assert "This command works in a server channel, not in direct messages." in in_dm.content
    fake.assert_clean()


async def test_page_buttons_work_after_a_restart(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    await seeded_bot(club, start_bot, tmp_path)
    board = await run(fake, alice, club.channel, "leaderboard", group="scores", scoring="won")
    guide = await run(fake, alice, club.channel, "play", group="help")
    proc = start_bot.procs[-1]
    await proc.kill()
    await proc.start()
    await proc.wait_connected(commands=("skat",))
    await (await fake.click(alice, board, "lb:en:all:won:2")).wait_acked()
    await fake.wait_for(lambda: "Page 2 of 2" in board.content, 30, "the leaderboard's second page")
    await (await fake.click(alice, guide, "help:en:2")).wait_acked()
    await fake.wait_for(lambda: "(2/7)" in guide.content, 30, "the help's second page")
    fake.assert_clean()


async def test_lists_in_german(club: Club, start_bot: StartBot, tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    fake, alice = club.fake, club.alice
    speak(monkeypatch, {alice.id: "de"})
    table_ids = await seeded_bot(club, start_bot, tmp_path)
    carol = fake.add_user("carol")

    board = await run(fake, alice, club.channel, "leaderboard", group="scores", scoring="won", period="month")
    assert "Rangliste" in board.content and "diesen Monat" in board.content and "gewonnene Spiele" in board.content
    assert "Seite 1 von 2" in board.content and "Computerspieler (nicht gewertet)" in board.content
    assert button_ids(board) == ["lb:de:month:won:0", "lb:de:month:won:2"]
    assert [b["label"] for b in board.buttons()] == ["◀ Zurück", "Weiter ▶"]
    await (await fake.click(club.bob, board, "lb:de:month:won:2")).wait_acked()
    await fake.wait_for(lambda: "Seite 2 von 2" in board.content, 30, "the second page")

    too_far = await run(fake, alice, club.channel, "leaderboard", group="scores", page=3)
    assert "Eine Seite 3 gibt es nicht: Die Rangliste hat 2 Seiten." in too_far.content
    mine = await run(fake, alice, club.channel, "stats", group="scores")
    assert "auf diesem Server" in mine.content and "Als Alleinspieler" in mine.content
    nobody = await run(fake, alice, club.channel, "stats", group="scores", player=carol)
    assert "carol hat auf diesem Server noch nicht Skat gespielt." in nobody.content
    history = await run(fake, alice, club.channel, "history", group="scores")
    assert "Die letzten Spiele auf diesem Server" in history.content and "Tisch" in history.content
    series = await run(fake, alice, club.channel, "record", group="scores", series=table_ids[0])
    assert f"Die Serie von Tisch #{table_ids[0]} als JSON." in series.content and series.attachments
    both = await run(fake, alice, club.channel, "record", group="scores", deal=1, series=table_ids[0])
    assert "nicht beides" in both.content
    fake.assert_clean()


async def test_help_rules_and_value_in_both_languages(club: Club, start_bot: StartBot, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    fake, alice, bob = club.fake, club.alice, club.bob
    speak(monkeypatch, {bob.id: "de"})
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))

    skat = fake.commands()["skat"]
    assert skat["description_localizations"]["de"] == "Skat spielen auf diesem Server"
    scores = next(o for o in skat["options"] if o["name"] == "scores")
    leaderboard = next(o for o in scores["options"] if o["name"] == "leaderboard")
    period = next(o for o in leaderboard["options"] if o["name"] == "period")
    assert leaderboard["description_localizations"]["de"] == "Die Rangliste der Spieler dieses Servers"
    assert period["description_localizations"]["de"].startswith("Welche Spiele zählen")
    assert {c["name_localizations"]["de"] for c in period["choices"]} == {"diese Woche", "dieser Monat", "insgesamt"}
    assert len(skat["options"]) <= 25

    guide = await run(fake, alice, club.channel, "play", group="help")
    assert ephemeral_to(guide, alice) and "How to play here** (1/7)" in guide.content
    assert button_ids(guide) == ["help:en:0", "help:en:2"]
    await (await fake.click(alice, guide, "help:en:2")).wait_acked()
    await fake.wait_for(lambda: "(2/7)" in guide.content and "Playing a deal" in guide.content, 30, "page 2")
    fourth = await run(fake, bob, club.channel, "play", group="help", page=4)
    assert "So spielst du hier** (4/7)" in fourth.content and "Regeln, Einstellungen und Sprachen" in fourth.content
    fifth = await run(fake, bob, club.channel, "play", group="help", page=5)
    assert "So spielst du hier** (5/7)" in fifth.content and "Spielstärke" in fifth.content
    sixth = await run(fake, bob, club.channel, "play", group="help", page=6)
    assert "So spielst du hier** (6/7)" in sixth.content and "Skatabende: Turniere" in sixth.content
    last = await run(fake, bob, club.channel, "play", group="help", page=7)
    assert "So spielst du hier** (7/7)" in last.content and "Die Tagesherausforderung" in last.content
    assert last.buttons()[1].get("disabled")

    rules = await run(fake, alice, club.channel, "rules", group="help")
    assert "The server's rules for new tables** (preset: official)" in rules.content
    assert [line[2:] for line in rules.content.splitlines()[1:]] == rules_lines(RuleSet(), Lang("en"))
    regeln = await run(fake, bob, club.channel, "rules", group="help")
    assert "Die Regeln des Servers für neue Tische" in regeln.content and "Alle passen" in regeln.content

    value = await run(fake, alice, club.channel, "value", group="help", game="clubs", matadors=2, bid=33)
    assert "1. with 2 matadors → 2" in value.content and "2. game → 3" in value.content
    assert "3 ×\u00a012 (base value of ♣ Clubs) = **36**" in value.content
    assert "✅ 36 reaches the bid of 33. Won: +36; lost: −72" in value.content
    overbid = await run(fake, alice, club.channel, "value", group="help", game="clubs", matadors=1, bid=33)
    assert "Overbid: 24 is less than the bid of 33" in overbid.content and "36, twice: −72" in overbid.content
    grand = await run(fake, alice, club.channel, "value", group="help", game="grand", matadors=4, ouvert=True,
                      bid=18)
    assert "= **264**" in grand.content and "always played hand" in grand.content
    wert = await run(fake, bob, club.channel, "value", group="help", game="spades", matadors=2, hand=True,
                     schneider=True, bid=18)
    assert "4. Schneider → 5" in wert.content and "= **55**" in wert.content and "Gewonnen: +55" in wert.content
    null = await run(fake, bob, club.channel, "value", group="help", game="null", hand=True, bid=18)
    assert "Null Hand hat einen festen Wert: **35**." in null.content and "verloren: −70" in null.content

    no_matadors = await run(fake, alice, club.channel, "value", group="help", game="hearts")
    assert ephemeral_to(no_matadors, alice) and "Say how many matadors" in no_matadors.content
    bad_bid = await run(fake, alice, club.channel, "value", group="help", game="hearts", matadors=1, bid=19)
    assert "19 is not a bid" in bad_bid.content
    null_schneider = await run(fake, bob, club.channel, "value", group="help", game="null", schneider=True)
    assert "Ein Nullspiel kennt weder Schneider noch Schwarz." in null_schneider.content
    too_many = await run(fake, bob, club.channel, "value", group="help", game="grand", matadors=5)
    assert "höchstens 4" in too_many.content
    fake.assert_clean()


def admin_of(fake: FakeDiscord) -> User:
    """The guild owner (the fake gives owners every permission, Manage Server among them)."""
    return fake.world.owner


async def test_settings_for_admins_only_in_both_languages(club: Club, start_bot: StartBot, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    fake, alice, bob = club.fake, club.alice, club.bob
    admin = admin_of(fake)
    frank = fake.add_user("frank")
    speak(monkeypatch, {bob.id: "de", frank.id: "ja"})
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))

    refused = await run(fake, alice, club.channel, "settings", deck="german")
    assert ephemeral_to(refused, alice) and "Only members with the Manage Server permission" in refused.content
    verweigert = await run(fake, bob, club.channel, "settings", turn=90)
    assert "Nur Mitglieder mit der Berechtigung" in verweigert.content
    looked = await run(fake, bob, club.channel, "settings")  # only looking: any member may
    assert ephemeral_to(looked, bob) and "Nur Mitglieder" not in looked.content and "Zugzeit: 60\u202fs" in looked.content, \
        looked.content

    shown = await run(fake, admin, club.channel, "settings")
    assert ephemeral_to(shown, admin) and "This server's settings" in shown.content
    assert "Rules preset: official · changed options: none" in shown.content
    assert "Turn timer: 60\u00a0s, with a warning 15\u00a0s before the end" in shown.content

    changed = await run(fake, admin, club.channel, "settings", preset="pub", option="kontra_needs_bid",
                        value="on", turn=90, warning=20, deck="german")
    assert "✅ Saved" in changed.content
    assert "rules preset pub (single options reset)" in changed.content
    assert "option kontra_needs_bid = on" in changed.content
    assert "turn timer 90\u00a0s, warning 20\u00a0s before the end" in changed.content
    assert "card names: German suits (Eichel, Grün, Rot, Schellen)" in changed.content
    assert "a defender who bid at least 18" in changed.content

    cases: list[tuple[dict[str, str | int], str]] = [
        ({"turn": 5}, "A turn lasts between 15 and 3600 seconds. Nothing was changed."),
        ({"warning": 90}, "The warning must come before the end of the turn (less than 90\u00a0s)"),
        ({"option": "kontra"}, "Give an option and its value together"),
        ({"option": "kontra", "value": "maybe"}, "maybe is not a value for kontra. Use: on, off."),
        ({"option": "kontra", "value": "off"}, "These rules do not go together"),
    ]
    for options, expected in cases:
        answer = await run(fake, admin, club.channel, "settings", None, **options)
        assert expected in answer.content, (options, answer.content)
    unchanged = await run(fake, admin, club.channel, "settings")
    assert "Rules preset: pub · changed options: kontra_needs_bid = on" in unchanged.content
    assert "Turn timer: 90\u00a0s" in unchanged.content

    rules = await run(fake, alice, club.channel, "rules", group="help")
    assert "(preset: pub, with changes)" in rules.content  # pub with a changed option is no preset any more
    assert "All pass: Ramsch." in rules.content and "a defender who bid at least 18" in rules.content

    acorns = await run(fake, alice, club.channel, "value", group="help", game="clubs", matadors=1)
    assert "Acorns (Eichel)" in acorns.content  # the server's deck style names the suits

    german = await run(fake, admin, club.channel, "settings", language="de")
    assert "language: Deutsch" in german.content
    # frank's Discord speaks Japanese, which we do not: he gets the server's language, now German.
    fallback = await run(fake, frank, club.channel, "rules", group="help")
    assert "Die Regeln des Servers für neue Tische" in fallback.content
    # A new table takes the server's rules; /skat help rules in its channel shows the table's.
    opened = await run(fake, alice, club.channel, "new", deals=1)
    assert "is open" in opened.content
    table_rules = await run(fake, alice, club.channel, "rules", group="help")
    assert "The rules of table #1" in table_rules.content and "Kontra and Re" in table_rules.content
    fake.assert_clean()


def test_every_preset_is_offered() -> None:
    """The settings command offers exactly the engine's presets (a new preset needs no change here)."""
    from cogs.settings import PRESET_CHOICES

    assert [choice.value for choice in PRESET_CHOICES] == list(PRESETS)


async def test_a_deal_played_against_two_ais_reaches_the_lists(club: Club, start_bot: StartBot,
                                                               tmp_path: Path) -> None:
    """The whole way: a table plays one deal, and the lists, stats, history and record show it."""
    fake, alice = club.fake, club.alice
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    empty = await run(fake, alice, club.channel, "leaderboard", group="scores")
    assert "No deals have been played on this server" in empty.content
    assert "No deals have been played on this server yet" in (await run(fake, alice, club.channel, "history",
                                                                          group="scores")).content
    await run(fake, alice, club.channel, "new", deals=1)
    lobby = await fake.wait_for_message(club.channel, lambda m: "Skat table" in m.content)
    add_ai = next(c["custom_id"] for c in lobby.buttons() if control_kind(c) == "addai")
    for _ in range(2):
        await (await fake.click(alice, lobby, add_ai)).wait_acked()
    await fake.wait_for(lambda: "AI 2" in lobby.content, 30, "two AIs seated")
    start = next(c["custom_id"] for c in lobby.buttons() if control_kind(c) == "start")
    await (await fake.click(alice, lobby, start)).wait_acked()
    rng = random.Random(7)
    await play_out(fake, [alice], lambda: any("The series is over" in text for text in public_texts(fake, club.channel)),
                   lambda user, hand: button_move(fake, user, hand, rng))

    board = await run(fake, alice, club.channel, "leaderboard", group="scores")
    assert "1. **alice**" in board.content and "1 ranked players" in board.content
    assert board.content.count("🤖") == 3  # the heading and two computer players, unranked
    mine = await run(fake, alice, club.channel, "stats", group="scores")
    assert "Deals played: 1" in mine.content
    history = await run(fake, alice, club.channel, "history", group="scores", player=alice)
    (line,) = [line for line in history.content.splitlines() if line.startswith("#")]
    deal_id = int(line.split()[0][1:])
    record = await run(fake, alice, club.channel, "record", group="scores", deal=deal_id)
    assert record.attachments[0].data.startswith(b"(;GM[Skat]")
    fake.assert_clean()
