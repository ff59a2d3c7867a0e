"""Settings.from_env: defaults, parsing, and a clear ConfigError naming the variable for bad values."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest

from skatbot.config import DEFAULT_DATABASE, ConfigError, Settings

SHARED = "postgresql://skatbot@localhost/skatbot"  # the database processes that split the shards share


def test_empty_environment_gives_defaults() -> None:
    settings = Settings.from_env({})
    assert settings == Settings(
        discord_token=None, database_path=Path("skatbot.sqlite3"), dev_guild_id=None, log_level="INFO"
    )
    assert settings.database_path == DEFAULT_DATABASE


def test_blank_values_count_as_unset() -> None:
    blanks = {"DISCORD_TOKEN": " ", "SKATBOT_DATABASE": "", "SKATBOT_DEV_GUILD": "", "SKATBOT_LOG_LEVEL": " "}
    assert Settings.from_env(blanks) == Settings()


def test_every_setting_is_read(tmp_path: Path) -> None:
    environ = {
        "DISCORD_TOKEN": " abc.def-ghi \n",
        "SKATBOT_DATABASE": str(tmp_path / "db.sqlite3"),
        "SKATBOT_DEV_GUILD": "123456789012345678",
        "SKATBOT_LOG_LEVEL": "debug",
        "UNRELATED": "ignored",
    }
    settings = Settings.from_env(environ)
    assert settings.discord_token == "abc.def-ghi"
    assert settings.database_path == tmp_path / "db.sqlite3"
    assert settings.dev_guild_id == 123456789012345678
    assert settings.log_level == "DEBUG"
    assert settings.log_level_number == logging.DEBUG


def test_database_path_expands_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    settings = Settings.from_env({"SKATBOT_DATABASE": "~/skat.sqlite3"})
    assert settings.database_path == tmp_path / "skat.sqlite3"


def test_settings_are_frozen() -> None:
    settings = Settings.from_env({})
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.log_level = "DEBUG"  # type: ignore[misc]  # frozen: the assignment must fail


def test_token_is_kept_out_of_repr() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "very-secret-token"})
    assert "very-secret-token" not in repr(settings)


@pytest.mark.parametrize("value", ["abc", "12ab", "-5", "1.5", "1e9", "٣٤٥", "0", str(2**64)])
def test_malformed_dev_guild_is_rejected(value: str) -> None:
    with pytest.raises(ConfigError, match="SKATBOT_DEV_GUILD"):
        Settings.from_env({"SKATBOT_DEV_GUILD": value})


def test_largest_snowflake_is_accepted() -> None:
    assert Settings.from_env({"SKATBOT_DEV_GUILD": str(2**64 - 1)}).dev_guild_id == 2**64 - 1


@pytest.mark.parametrize("value", ["LOUD", "20", "warn", "info!"])
def test_unknown_log_level_is_rejected(value: str) -> None:
    with pytest.raises(ConfigError, match="SKATBOT_LOG_LEVEL.*DEBUG, INFO, WARNING, ERROR, CRITICAL"):
        Settings.from_env({"SKATBOT_LOG_LEVEL": value})


@pytest.mark.parametrize("level", ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"])
def test_each_log_level_maps_to_its_number(level: str) -> None:
    assert Settings.from_env({"SKATBOT_LOG_LEVEL": level.lower()}).log_level_number == getattr(logging, level)


@pytest.mark.parametrize("value", ["Bot abc.def", "abc def", "abc\tdef"])
def test_token_with_inner_whitespace_is_rejected(value: str) -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        Settings.from_env({"DISCORD_TOKEN": value})


def test_a_postgresql_url_is_read_and_kept_out_of_the_repr() -> None:
    url = "postgresql://skatbot:secret@db.example:5432/skatbot"
    settings = Settings.from_env({"SKATBOT_DATABASE_URL": f" {url} "})
    assert settings.database_url == url and "secret" not in repr(settings)
    assert Settings.from_env({"SKATBOT_DATABASE_URL": ""}).database_url is None  # blank: the SQLite file


def test_a_database_url_that_is_not_postgresql_is_refused() -> None:
    with pytest.raises(ConfigError, match="SKATBOT_DATABASE_URL must be a PostgreSQL URL.*'mysql'"):
        Settings.from_env({"SKATBOT_DATABASE_URL": "mysql://root@localhost/skat"})


def test_database_path_that_is_a_folder_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="SKATBOT_DATABASE.*folder"):
        Settings.from_env({"SKATBOT_DATABASE": str(tmp_path)})



def test_shards_unset_leave_sharding_to_discord() -> None:
    settings = Settings.from_env({"SKATBOT_SHARD_COUNT": "", "SKATBOT_SHARD_IDS": " "})
    assert settings.shard_count is None and settings.shard_ids is None


@pytest.mark.parametrize(("ids", "expected"), [
    ("0-3", (0, 1, 2, 3)), ("0,2", (0, 2)), (" 1 - 2 , 5 ", (1, 2, 5)), ("3,0-1,1", (0, 1, 3)), (None, None)])
def test_shard_ids_are_read_as_ids_and_ranges(ids: str | None, expected: tuple[int, ...] | None) -> None:
    environ = {"SKATBOT_SHARD_COUNT": "6", "SKATBOT_DATABASE_URL": SHARED} | (
        {} if ids is None else {"SKATBOT_SHARD_IDS": ids})
    settings = Settings.from_env(environ)
    assert settings.shard_count == 6 and settings.shard_ids == expected


@pytest.mark.parametrize("value", ["0", "-1", "two", "1.5", "10001", "٣"])
def test_a_malformed_shard_count_is_refused(value: str) -> None:
    with pytest.raises(ConfigError, match=f"SKATBOT_SHARD_COUNT='{value}' is not a shard count"):
        Settings.from_env({"SKATBOT_SHARD_COUNT": value})


@pytest.mark.parametrize("value", ["a", "0-", "-2", "3-1", "0;1", "1,,2", "0-1-2"])
def test_malformed_shard_ids_are_refused(value: str) -> None:
    with pytest.raises(ConfigError, match="SKATBOT_SHARD_IDS=.* is not a list of shards.*0-3 or 0,2"):
        Settings.from_env({"SKATBOT_SHARD_COUNT": "4", "SKATBOT_SHARD_IDS": value})


def test_shard_ids_beyond_the_count_are_refused() -> None:
    with pytest.raises(ConfigError, match="names shard 4, but SKATBOT_SHARD_COUNT=4 has shards 0 to 3 only"):
        Settings.from_env({"SKATBOT_SHARD_COUNT": "4", "SKATBOT_SHARD_IDS": "2-4"})


def test_shard_ids_without_a_count_are_refused() -> None:
    with pytest.raises(ConfigError, match="SKATBOT_SHARD_IDS needs SKATBOT_SHARD_COUNT"):
        Settings.from_env({"SKATBOT_SHARD_IDS": "0"})


def test_a_process_serves_the_servers_of_its_own_shards() -> None:
    on_shard = {shard: next(gid << 22 for gid in range(1, 99) if gid % 3 == shard) for shard in range(3)}
    split = Settings.from_env({"SKATBOT_SHARD_COUNT": "3", "SKATBOT_SHARD_IDS": "0,2", "SKATBOT_DATABASE_URL": SHARED})
    assert [split.serves_server(on_shard[shard]) for shard in range(3)] == [True, False, True]
    everything = Settings.from_env({"SKATBOT_SHARD_COUNT": "3"})
    assert all(everything.serves_server(server) for server in on_shard.values())
    assert Settings.from_env({}).serves_server(on_shard[1])  # Discord's count, all in this process


@pytest.mark.parametrize(("name", "field"), [("SKATBOT_AI_PAUSE", "ai_pause_seconds"),
                                             ("SKATBOT_KONTRA_WINDOW", "kontra_window_seconds")])
def test_waits_are_read_in_seconds(name: str, field: str) -> None:
    assert getattr(Settings.from_env({name: " 2.5 "}), field) == 2.5
    assert getattr(Settings.from_env({name: "0"}), field) == 0.0
    assert getattr(Settings.from_env({}), field) == getattr(Settings(), field)


@pytest.mark.parametrize("name", ["SKATBOT_AI_PAUSE", "SKATBOT_KONTRA_WINDOW"])
@pytest.mark.parametrize("value", ["soon", "-1", "61", "nan"])
def test_a_wait_off_its_range_is_refused_by_name(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        Settings.from_env({name: value})


def test_the_tournament_clock_is_read_in_seconds_from_one_to_an_hour() -> None:
    assert Settings.from_env({"SKATBOT_TOURNAMENT_CLOCK": " 600 "}).tournament_clock_seconds == 600.0
    assert Settings.from_env({}).tournament_clock_seconds == 15.0
    for value in ("0", "0.5", "3601", "soon", "nan"):
        with pytest.raises(ConfigError, match="SKATBOT_TOURNAMENT_CLOCK"):
            Settings.from_env({"SKATBOT_TOURNAMENT_CLOCK": value})


def test_a_database_in_a_folder_that_does_not_exist_is_refused_with_the_fix(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "skat.sqlite3"
    with pytest.raises(ConfigError, match=r"SKATBOT_DATABASE.*no-such-folder.*does not exist.*mkdir"):
        Settings.from_env({"SKATBOT_DATABASE": str(missing)})
    # the file is not used with PostgreSQL, so its folder does not matter there
    url = "postgresql://skatbot@localhost/skatbot"
    assert Settings.from_env({"SKATBOT_DATABASE": str(missing), "SKATBOT_DATABASE_URL": url}).database_url == url


def test_a_relative_database_lives_in_the_data_folder(tmp_path: Path) -> None:
    """The image sets SKATBOT_DATA_DIR=/data: an operator's `SKATBOT_DATABASE=skatbot.sqlite3` lands on the volume."""
    assert Settings.from_env({"SKATBOT_DATA_DIR": str(tmp_path)}).database_path == tmp_path / "skatbot.sqlite3"
    assert Settings.from_env({"SKATBOT_DATA_DIR": str(tmp_path), "SKATBOT_DATABASE": "skat.sqlite3"}
                             ).database_path == tmp_path / "skat.sqlite3"
    elsewhere = tmp_path / "elsewhere.sqlite3"
    assert Settings.from_env({"SKATBOT_DATA_DIR": str(tmp_path / ".."), "SKATBOT_DATABASE": str(elsewhere)}
                             ).database_path == elsewhere
    with pytest.raises(ConfigError, match="SKATBOT_DATA_DIR.*does not exist"):
        Settings.from_env({"SKATBOT_DATA_DIR": str(tmp_path / "missing")})


@pytest.mark.parametrize(("count", "ids"), [("2", "1"), ("2", "0"), ("4", "0-2")])
def test_a_partial_shard_set_needs_postgresql(count: str, ids: str) -> None:
    with pytest.raises(ConfigError, match=r"SKATBOT_SHARD_IDS.*SKATBOT_DATABASE_URL"):
        Settings.from_env({"SKATBOT_SHARD_COUNT": count, "SKATBOT_SHARD_IDS": ids})
    url = "postgresql://skatbot@localhost/skatbot"
    shared = Settings.from_env({"SKATBOT_SHARD_COUNT": count, "SKATBOT_SHARD_IDS": ids, "SKATBOT_DATABASE_URL": url})
    assert shared.shard_count == int(count)
    # every shard in this one process: SQLite is fine
    assert Settings.from_env({"SKATBOT_SHARD_COUNT": "2", "SKATBOT_SHARD_IDS": "0-1"}).shard_ids == (0, 1)


def test_the_metrics_port_is_opt_in_and_checked() -> None:
    assert Settings.from_env({}).metrics_port is None
    settings = Settings.from_env({"SKATBOT_METRICS_PORT": "9100"})
    assert (settings.metrics_port, settings.metrics_host) == (9100, "127.0.0.1")
    assert Settings.from_env({"SKATBOT_METRICS_PORT": "9100", "SKATBOT_METRICS_HOST": "0.0.0.0"}).metrics_host == "0.0.0.0"
    for bad in ("0", "70000", "http"):
        with pytest.raises(ConfigError, match="SKATBOT_METRICS_PORT"):
            Settings.from_env({"SKATBOT_METRICS_PORT": bad})
