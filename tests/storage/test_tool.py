"""`python -m skatbot.storage` as an operator meets it: the settings come from `.env` as the bot reads them,
the output names the database (password masked), options go before or after the subcommand, `copy` leaves
its source untouched, and `check` on a faulty database prints a few problems of each kind and a summary."""

from __future__ import annotations

import asyncio
import hashlib
import shutil
import socket
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from benchmarks.storage import fill
from skatbot.models import Lang
from skatbot.storage import SqliteStorage
from skatbot.storage.__main__ import main
from skatbot.ui.i18n import t
from tests.storage.test_maintenance import _fill

MIGRATIONS = Path(__file__).resolve().parents[2] / "skatbot" / "storage" / "migrations" / "sqlite"


@pytest.fixture
def played(tmp_path: Path) -> Path:
    path = tmp_path / "played.sqlite3"

    async def make() -> None:
        await (await _fill(path)).close()

    asyncio.run(make())
    return path


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An operator's folder with no database settings in the environment (only .env may give them)."""
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    for name in ("SKATBOT_DATABASE", "SKATBOT_DATABASE_URL", "SKATBOT_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    return folder


def test_the_database_in_dotenv_is_the_one_checked_and_named(workdir: Path, played: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "skatbot.sqlite3").write_bytes(b"")  # an old default file that must not be the one checked
    shutil.copyfile(played, workdir / "bot.sqlite3")
    (workdir / ".env").write_text("SKATBOT_DATABASE=bot.sqlite3\n")
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "database: SQLite bot.sqlite3 (SKATBOT_DATABASE in .env)"
    assert "checked 16 deals in 2 tables: ok" in out


def test_a_postgresql_url_in_dotenv_wins_and_its_password_is_masked(workdir: Path, played: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copyfile(played, workdir / "skatbot.sqlite3")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    (workdir / ".env").write_text(f"SKATBOT_DATABASE_URL=postgresql://skatbot:secret@127.0.0.1:{port}/skatbot\n")
    assert main(["check"]) == 2  # the server does not answer: not the SQLite file's "ok"
    captured = capsys.readouterr()
    assert f"database: PostgreSQL postgresql://skatbot:***@127.0.0.1:{port}/skatbot (SKATBOT_DATABASE_URL in .env)" \
        in captured.out
    assert "secret" not in captured.out + captured.err and "ok" not in captured.out


def test_the_environment_wins_over_dotenv(workdir: Path, played: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copyfile(played, workdir / "real.sqlite3")
    (workdir / ".env").write_text("SKATBOT_DATABASE=missing.sqlite3\n")
    monkeypatch.setenv("SKATBOT_DATABASE", "real.sqlite3")
    assert main(["check"]) == 0
    assert "database: SQLite real.sqlite3 (SKATBOT_DATABASE in the environment)" in capsys.readouterr().out


@pytest.mark.parametrize("order", ["before", "after"])
def test_options_go_before_or_after_the_subcommand(workdir: Path, played: Path, order: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    args = ["check", "--database", str(played)] if order == "after" else ["--database", str(played), "check"]
    assert main(args) == 0
    assert f"database: SQLite {played} (--database)" in capsys.readouterr().out
    target = workdir / "backup.sqlite3"
    assert main(["backup", str(target), "--database", str(played)]) == 0 and target.is_file()


@pytest.mark.parametrize(("environ", "lang"), [({}, "en"), ({"LANG": "de_DE.UTF-8"}, "de")])
def test_copy_refuses_a_database_option_it_would_not_read(played: Path, environ: dict[str, str], lang: Lang,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """`--database X copy SRC DST` copied SRC and said nothing of X: now argparse's refusal (exit 2, nothing
    read or written) says copy's source is its first argument, in the environment's language."""
    before = fingerprint(played)
    with pytest.raises(SystemExit) as stop:
        main(["--database", str(played), "copy", str(played), "postgresql://nobody@127.0.0.1:1/none"],
             environ=environ)
    assert stop.value.code == 2
    said = " ".join(capsys.readouterr().err.split())
    assert " ".join(t(lang, "storage.args.no_database").split()) in said, said
    assert fingerprint(played) == before


def old_schema_file(path: Path, version: int) -> Path:
    """A database as an older skatbot left it: only its first `version` migrations applied."""
    old = path.parent / f"migrations-{version}"
    old.mkdir()
    for migration in sorted(MIGRATIONS.glob("*.sql"))[:version]:
        shutil.copy(migration, old / migration.name)

    async def make() -> None:
        await (await SqliteStorage.open(path, migrations=old)).close()

    asyncio.run(make())
    with closing(sqlite3.connect(path)) as db, db:  # a server's settings, as that skatbot stored them (closed:
        db.execute("INSERT INTO servers (server_id, deck_style, updated_at) VALUES (5, 'german', 0)")  # no WAL)
    return path


def fingerprint(path: Path) -> tuple[str, int]:
    with closing(sqlite3.connect(path)) as db:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
    return hashlib.sha256(path.read_bytes()).hexdigest(), version


def test_copy_leaves_an_older_source_untouched(tmp_path: Path, schema_url: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    source = old_schema_file(tmp_path / "old.sqlite3", 4)
    before = fingerprint(source)
    assert before[1] == 4
    assert main(["copy", str(source), schema_url]) == 0
    assert fingerprint(source) == before, "the source was migrated in place"
    assert main(["copy", str(source), schema_url]) == 2  # refused: the target has rows now
    assert "nothing was written" in capsys.readouterr().err
    assert fingerprint(source) == before
    assert not list(tmp_path.glob("old.sqlite3-*")), "no WAL or journal left beside the source"


def test_check_leaves_an_older_file_as_it_was(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A backup or a fallback an older skatbot wrote is checked on an upgraded copy: it still opens in that version."""
    source = old_schema_file(tmp_path / "old.sqlite3", 4)
    before = fingerprint(source)
    assert main(["check", "--database", str(source)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert fingerprint(source) == before, "check upgraded the file in place"
    assert lines[1].startswith("schema version 4, older than this skatbot's ") and "left as it was" in lines[1], lines
    assert lines[-1] == "checked 0 deals in 0 tables: ok", lines
    assert not list(tmp_path.glob("old.sqlite3-*")), "no WAL or journal left beside the file"


def test_check_on_a_file_that_is_no_database_is_an_error_line(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are notes, not a database; an operator passed the wrong file\n" * 20)
    assert main(["check", "--database", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == ["error: file is not a database"]


def test_copy_lists_the_row_counts_in_aligned_columns(tmp_path: Path, schema_url: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    source = old_schema_file(tmp_path / "old.sqlite3", 4)
    assert main(["copy", str(source), schema_url]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(n for n, line in enumerate(lines) if line.startswith("table "))
    rows = lines[header:next(n for n, line in enumerate(lines) if line.startswith("copied "))]
    assert any(line.startswith("challenge_par_claims ") for line in rows)  # the longest table name
    assert {len(line) for line in rows} == {len(lines[header])}, "\n".join(rows)


def test_check_caps_each_kind_of_problem_and_sums_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "filled.sqlite3"
    fill(path, deals=300, servers=3)
    assert main(["--database", str(path), "check"]) == 0, capsys.readouterr().out  # benchmark rows pass check
    capsys.readouterr()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE deals SET game_value = game_value + 1")
    assert main(["--database", str(path), "check"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) < 30, lines
    assert "deals whose JSON record disagrees on value: 300, the first 5:" in lines, lines
    assert "deals whose ISS record disagrees on value: 300, the first 5:" in lines, lines
    assert "  ... and 295 more of this kind" in lines, lines
    assert lines[-1].startswith("checked 300 deals in ") and lines[-1].endswith(": 600 problems of 2 kinds"), lines


COMMANDS = "{backup,check,copy,ratings}"
"""How argparse names the missing or wrong subcommand: by its choices, in every language (not the English dest)."""


@pytest.mark.parametrize(("environ", "expected"), [
    ({"LANG": "C.UTF-8"}, ["usage: python -m skatbot.storage", f"error: the following arguments are required: {COMMANDS}",
                           f"error: argument {COMMANDS}: invalid choice: 'bogus'",
                           "error: the following arguments are required: --rebuild"]),
    ({"LANG": "de_DE.UTF-8"}, ["Aufruf: python -m skatbot.storage", f"Fehler: Diese Argumente fehlen: {COMMANDS}",
                               f"Fehler: Argument {COMMANDS}: ungültige Wahl: 'bogus'",
                               "Fehler: Diese Argumente fehlen: --rebuild"]),
    ({"LANGUAGE": "da", "LANG": "en_GB.UTF-8"}, ["brug: python -m skatbot.storage",
                                                 f"fejl: disse argumenter mangler: {COMMANDS}",
                                                 f"fejl: argument {COMMANDS}: ugyldigt valg: 'bogus'",
                                                 "fejl: disse argumenter mangler: --rebuild"]),
    ({"LC_ALL": "fr_FR.UTF-8"}, ["utilisation\u00a0: python -m skatbot.storage",
                                 f"erreur\u00a0: ces arguments sont obligatoires\u00a0: {COMMANDS}",
                                 f"erreur\u00a0: argument {COMMANDS}\u00a0: choix invalide\u00a0: 'bogus'",
                                 "erreur\u00a0: ces arguments sont obligatoires\u00a0: --rebuild"]),
])
def test_argparses_own_errors_speak_the_environments_language(environ: dict[str, str], expected: list[str],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """No subcommand, one that is none, `ratings` without --rebuild: argparse's usage line and errors in the
    language the environment asks for, as the terminal table's (they were English in every language)."""
    said = []
    for argv in ([], ["bogus"], ["ratings"]):
        with pytest.raises(SystemExit) as stop:
            main(argv, environ=environ)
        assert stop.value.code == 2
        said.append(capsys.readouterr().err)
    everything = "\n".join(said)
    for text in expected:
        assert text in everything, (text, everything)


HELP_KEYS = ("storage.args.description", "storage.args.database", "storage.args.backup", "storage.args.backup.target",
             "storage.args.check", "storage.args.copy", "storage.args.copy.source", "storage.args.copy.target",
             "storage.args.ratings", "storage.args.ratings.rebuild", "storage.args.no_database")


def _help(argv: list[str], environ: dict[str, str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--help"], environ=environ)
    assert stop.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # as read, not as argparse wrapped it


@pytest.mark.parametrize(("environ", "lang", "expected"), [
    ({}, "en", ["usage: python -m skatbot.storage", "skatbot's database maintenance",
                "backup copy a SQLite database consistently, even while the bot runs"]),
    ({"LANG": "de_DE.UTF-8"}, "de", ["Aufruf: python -m skatbot.storage", "Wartung der Datenbank von skatbot",
                                     "backup eine SQLite-Datenbank konsistent kopieren, auch während der Bot läuft",
                                     "--database PATH|URL die SQLite-Datei oder eine postgresql://-URL"]),
    ({"LANGUAGE": "da", "LANG": "en_GB.UTF-8"}, "da", ["brug: python -m skatbot.storage",
                                                       "vedligeholdelse af skatbots database",
                                                       "ratings spillestyrkerne: beregn dem forfra med --rebuild"]),
    ({"LC_ALL": "fr_FR.UTF-8"}, "fr", ["maintenance de la base de données de skatbot",
                                       "copy copier toutes les lignes d’une base SQLite dans une base PostgreSQL vide"]),
])
def test_the_help_speaks_the_environments_language(environ: dict[str, str], lang: Lang, expected: list[str],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """An operator with a German, Danish or French environment reads the whole help in it, as the terminal
    table's, and each subcommand's own --help too: no English text of the tool is left beside argparse's
    localized usage line (the help was English in every language)."""
    helps = [_help(argv, environ, capsys) for argv in ([], ["backup"], ["check"], ["copy"], ["ratings"])]
    everything = " ".join(helps)
    for text in expected:
        assert text in everything, (text, everything)
    for key in HELP_KEYS:
        said = " ".join(t(lang, key, url_variable="$SKATBOT_DATABASE_URL", path_variable="$SKATBOT_DATABASE").split())
        assert said in everything, (key, said)
        english = " ".join(t(Lang("en"), key, url_variable="", path_variable="").split())
        assert lang == "en" or english.split(" (")[0] not in everything, (key, english)
    assert "[--database PATH|URL] " + " ".join(t(lang, "storage.args.check").split()) in helps[2]  # described
