"""Settings read once from the environment, so that configuration lives in one place.

Every setting is an environment variable (a `.env` file in the working folder is read into the
environment by bot.py before this runs). An empty value counts as unset, so a copied `.env.example`
with blanks behaves like the defaults. Malformed values raise `ConfigError` naming the variable.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

TOKEN_VAR = "DISCORD_TOKEN"
DATABASE_VAR = "SKATBOT_DATABASE"
DATABASE_URL_VAR = "SKATBOT_DATABASE_URL"
DEV_GUILD_VAR = "SKATBOT_DEV_GUILD"
LOG_LEVEL_VAR = "SKATBOT_LOG_LEVEL"
AI_PAUSE_VAR = "SKATBOT_AI_PAUSE"
KONTRA_WINDOW_VAR = "SKATBOT_KONTRA_WINDOW"
TOURNAMENT_CLOCK_VAR = "SKATBOT_TOURNAMENT_CLOCK"
SHARD_COUNT_VAR = "SKATBOT_SHARD_COUNT"
SHARD_IDS_VAR = "SKATBOT_SHARD_IDS"
DATA_DIR_VAR = "SKATBOT_DATA_DIR"
METRICS_PORT_VAR = "SKATBOT_METRICS_PORT"
METRICS_HOST_VAR = "SKATBOT_METRICS_HOST"

DEFAULT_DATABASE = Path("skatbot.sqlite3")
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_AI_PAUSE = 1.0
DEFAULT_KONTRA_WINDOW = 8.0
DEFAULT_TOURNAMENT_CLOCK = 15.0
DEFAULT_METRICS_HOST = "127.0.0.1"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

# Discord ids (snowflakes) are unsigned 64-bit integers.
_MAX_SNOWFLAKE = 2**64 - 1


def read_environment(env_file: Path, environ: Mapping[str, str]) -> dict[str, str]:
    """The settings' source, for the bot and its tools alike: the .env file's values, overridden by the real
    environment."""
    from_file = {key: value for key, value in dotenv_values(env_file).items() if value is not None}
    return {**from_file, **environ}


class ConfigError(ValueError):
    """A setting in the environment is malformed; the message names the variable and the fix."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The bot's configuration. `discord_token` is None when no token is set (the bot cannot log in)."""

    discord_token: str | None = field(default=None, repr=False)
    database_path: Path = DEFAULT_DATABASE
    database_url: str | None = field(default=None, repr=False)  # PostgreSQL; wins over database_path when set
    dev_guild_id: int | None = None
    log_level: str = DEFAULT_LOG_LEVEL
    ai_pause_seconds: float = DEFAULT_AI_PAUSE  # between computer moves, so people can follow the tricks
    # Under Kontra rules, how long the leader's first card waits while a defender may still say Kontra.
    kontra_window_seconds: float = DEFAULT_KONTRA_WINDOW
    # How often the tournaments' clock looks at every running tournament: the fallback that catches up with what
    # the deals' hook and the look at stored deals (every second) missed, and retries what Discord refused.
    tournament_clock_seconds: float = DEFAULT_TOURNAMENT_CLOCK
    # Sharding: None lets discord.py ask Discord how many shards and run them all in this process.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs (None: all of shard_count)
    # Prometheus metrics and /healthz on this port (None: not served), bound to metrics_host.
    metrics_port: int | None = None
    metrics_host: str = DEFAULT_METRICS_HOST

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Settings:
        """Read and check every setting; raise ConfigError for the first malformed one."""
        shard_count = _shard_count(_value(environ, SHARD_COUNT_VAR))
        shard_ids = _shard_ids(_value(environ, SHARD_IDS_VAR), shard_count)
        database_url = _database_url(_value(environ, DATABASE_URL_VAR))
        _shared_database(shard_count, shard_ids, database_url)
        return cls(
            discord_token=_token(_value(environ, TOKEN_VAR)),
            database_path=_database(_value(environ, DATABASE_VAR), _data_dir(_value(environ, DATA_DIR_VAR)),
                                    checked=database_url is None),
            database_url=database_url,
            dev_guild_id=_guild_id(_value(environ, DEV_GUILD_VAR)),
            log_level=_log_level(_value(environ, LOG_LEVEL_VAR)),
            ai_pause_seconds=_seconds(AI_PAUSE_VAR, _value(environ, AI_PAUSE_VAR), DEFAULT_AI_PAUSE),
            kontra_window_seconds=_seconds(KONTRA_WINDOW_VAR, _value(environ, KONTRA_WINDOW_VAR), DEFAULT_KONTRA_WINDOW),
            tournament_clock_seconds=_seconds(TOURNAMENT_CLOCK_VAR, _value(environ, TOURNAMENT_CLOCK_VAR),
                                              DEFAULT_TOURNAMENT_CLOCK, least=1, most=3600),
            shard_count=shard_count,
            shard_ids=shard_ids,
            metrics_port=_metrics_port(_value(environ, METRICS_PORT_VAR)),
            metrics_host=_value(environ, METRICS_HOST_VAR) or DEFAULT_METRICS_HOST,
        )

    def serves_server(self, server_id: int) -> bool:
        """Whether this process runs the shard Discord sends the server's events to (`(id >> 22) % count`):
        it takes up the server's tables after a restart. Every server, when this process runs all shards."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        return (server_id >> 22) % self.shard_count in self.shard_ids

    @property
    def log_level_number(self) -> int:
        """The level as the logging module's number, for logging.basicConfig and friends."""
        return logging.getLevelNamesMapping()[self.log_level]


def _seconds(name: str, raw: str | None, default: float, *, least: float = 0, most: float = 60) -> float:
    if raw is None:
        return default
    try:
        seconds = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not least <= seconds <= most:
        raise ConfigError(f"{name} must be between {least:g} and {most:g} seconds, not {raw!r}")
    return seconds


def _value(environ: Mapping[str, str], name: str) -> str | None:
    """The stripped value of `name`, or None when it is missing or blank."""
    raw = environ.get(name)
    if raw is None:
        return None
    stripped = raw.strip()
    return stripped or None


def _token(raw: str | None) -> str | None:
    if raw is None:
        return None
    if any(ch.isspace() for ch in raw):
        raise ConfigError(
            f"{TOKEN_VAR} contains whitespace; paste only the bot token from the Discord developer portal "
            "(no 'Bot ' prefix, no quotes around parts of it)."
        )
    return raw


def _data_dir(raw: str | None) -> Path | None:
    """The folder a relative SKATBOT_DATABASE lives in (the Docker image sets /data, its volume)."""
    if raw is None:
        return None
    folder = Path(raw).expanduser()
    if not folder.is_dir():
        raise ConfigError(f"{DATA_DIR_VAR}={raw!r}: that folder does not exist; create it, or leave it empty "
                          "for the working folder.")
    return folder


def _database(raw: str | None, data_dir: Path | None, *, checked: bool) -> Path:
    """The SQLite file: relative paths under `data_dir` when set; its folder must exist (when it is used)."""
    path = DEFAULT_DATABASE if raw is None else Path(raw).expanduser()
    if data_dir is not None and not path.is_absolute():
        path = data_dir / path
    if not checked:
        return path
    if path.is_dir():
        raise ConfigError(
            f"{DATABASE_VAR}={raw!r} is a folder; give the path of the SQLite file, "
            f"e.g. {raw}/skatbot.sqlite3."
        )
    if not path.parent.is_dir():
        raise ConfigError(
            f"{DATABASE_VAR}={raw or str(path)!r}: the folder {str(path.parent)!r} does not exist. Create it "
            f"(mkdir -p {path.parent}) or give a path in an existing folder; the bot creates only the file.")
    return path


def _shared_database(count: int | None, ids: tuple[int, ...] | None, url: str | None) -> None:
    """Some of the shards in this process means other processes run the rest: they must share PostgreSQL
    (shard 0's process receives every DM and has to see every table)."""
    if count is None or ids is None or url is not None or len(ids) == count:
        return
    raise ConfigError(
        f"{SHARD_IDS_VAR} runs only some of the {SHARD_COUNT_VAR}={count} shards, so other processes run the rest, "
        f"and they must share one PostgreSQL database: set {DATABASE_URL_VAR} (the same in every process). "
        f"A SQLite file serves one process: leave {SHARD_IDS_VAR} empty to run every shard here.")


def _metrics_port(raw: str | None) -> int | None:
    if raw is None:
        return None
    if not raw.isdecimal() or not raw.isascii() or not 1 <= int(raw) <= 65535:
        raise ConfigError(f"{METRICS_PORT_VAR}={raw!r} is not a TCP port; give a number from 1 to 65535 (e.g. 9100), "
                          "or leave it empty to serve no metrics.")
    return int(raw)


def _database_url(raw: str | None) -> str | None:
    if raw is None:
        return None
    if not raw.startswith(("postgresql://", "postgres://")):
        raise ConfigError(
            f"{DATABASE_URL_VAR} must be a PostgreSQL URL such as postgresql://skatbot:PASSWORD@localhost/skatbot "
            f"(it starts with {raw.split('://')[0]!r}); leave it empty to use the SQLite file ({DATABASE_VAR})."
        )
    return raw


def _guild_id(raw: str | None) -> int | None:
    if raw is None:
        return None
    if not raw.isdecimal() or not raw.isascii():
        raise ConfigError(
            f"{DEV_GUILD_VAR}={raw!r} is not a server id; it must be the numeric id of a Discord server "
            "(Developer Mode on, right-click the server, Copy Server ID), or left empty."
        )
    guild_id = int(raw)
    if not 0 < guild_id <= _MAX_SNOWFLAKE:
        raise ConfigError(f"{DEV_GUILD_VAR}={raw!r} is out of range for a Discord server id.")
    return guild_id


def _log_level(raw: str | None) -> str:
    if raw is None:
        return DEFAULT_LOG_LEVEL
    level = raw.upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"{LOG_LEVEL_VAR}={raw!r} is not a log level; use one of {', '.join(LOG_LEVELS)}.")
    return level


_MAX_SHARDS = 10_000  # far beyond any bot's need; a typo such as 40000 is caught


def _shard_count(raw: str | None) -> int | None:
    if raw is None:
        return None
    if not raw.isdecimal() or not raw.isascii() or not 1 <= int(raw) <= _MAX_SHARDS:
        raise ConfigError(
            f"{SHARD_COUNT_VAR}={raw!r} is not a shard count; give the total number of shards across all "
            f"bot processes (a whole number from 1 to {_MAX_SHARDS}), or leave it empty to let Discord choose.")
    return int(raw)


def _shard_ids(raw: str | None, count: int | None) -> tuple[int, ...] | None:
    """`0-3`, `0,2` or `0-1,4`: the shards this process runs, each below the shard count."""
    if raw is None:
        return None
    if count is None:
        raise ConfigError(f"{SHARD_IDS_VAR} needs {SHARD_COUNT_VAR}: set the total number of shards too.")
    ids: set[int] = set()
    for part in raw.split(","):
        low, dash, high = part.strip().partition("-")
        bounds = (low.strip(), high.strip()) if dash else (low.strip(), low.strip())
        if not all(b.isdecimal() and b.isascii() for b in bounds) or int(bounds[0]) > int(bounds[1]):
            raise ConfigError(
                f"{SHARD_IDS_VAR}={raw!r} is not a list of shards; write ids and ranges such as 0-3 or 0,2.")
        first, last = int(bounds[0]), int(bounds[1])
        if last >= count:
            raise ConfigError(
                f"{SHARD_IDS_VAR}={raw!r} names shard {last}, but {SHARD_COUNT_VAR}={count} has shards "
                f"0 to {count - 1} only.")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))
