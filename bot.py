#!/usr/bin/env python3
"""Entry point: read `.env` and the environment, check the settings, set up logging, run the bot.

The `.env` file is read from the current working folder (./run starts the bot in the project folder);
variables already set in the environment win over the file. Anything an operator can get wrong (no token,
a rejected one, a malformed setting, Discord or the database out of reach, a database from a newer skatbot)
ends the program with exit code 2 and two or three lines saying what to do; the traceback is logged only at
SKATBOT_LOG_LEVEL=DEBUG. SIGTERM and SIGINT both stop the bot cleanly, with exit code 0; a second one while it
closes ends it at once.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path

import discord

from skatbot.app import SkatBot, StartupError
from skatbot.config import TOKEN_VAR, ConfigError, Settings, read_environment

log = logging.getLogger("skatbot")

EXIT_CONFIG = 2

NO_TOKEN_HELP = f"""\
skatbot: no Discord bot token is set ({TOKEN_VAR}), so the bot cannot log in.

To get one:
  1. Open https://discord.com/developers/applications and create a New Application.
  2. On its Bot page choose Reset Token and copy the token. Keep it secret.
  3. Put it into the file {{env_file}} (the one this start reads; ./run reads the project folder's):
         {TOKEN_VAR}=paste-the-token-here
     (.env.example lists every setting with comments: cp .env.example .env)
  4. Invite the bot: on the OAuth2 page, URL Generator, tick the scopes "bot" and
     "applications.commands" and the permissions View Channels, Send Messages, Send Messages in
     Threads, Create Public Threads, Embed Links, Attach Files, Read Message History; open the URL
     and choose your server.
Then start it again with ./run
"""

LOGIN_FAILED_HELP = f"""\
skatbot: Discord rejected the token in {TOKEN_VAR}. It may have been reset or mistyped: copy a fresh
one from the Bot page of your application at https://discord.com/developers/applications into .env.
"""


def configure_logging(level: int) -> None:
    """One handler on the root logger for the bot and discord.py alike (discord.py adds none itself)."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-8s %(name)s: %(message)s")


def stop_on_signals() -> None:
    """docker stop, systemd and kill send SIGTERM, which would end the process at once: stop as after
    Ctrl-C instead (asyncio cancels the bot, which closes cleanly: its tables give back the due steps they
    hold, so another process takes them over at once, and the database is closed). SIGINT gets Python's own
    handler back first: a script's `&` job starts with SIGINT ignored, and asyncio only takes over a SIGINT
    that has Python's handler."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda signum, frame: signal.raise_signal(signal.SIGINT))


def main(env_file: Path | None = None, environ: Mapping[str, str] | None = None) -> int:
    """Run the bot until it is stopped; return the process exit code."""
    values = read_environment(
        Path(".env") if env_file is None else env_file,
        os.environ if environ is None else environ,
    )
    try:
        settings = Settings.from_env(values)
    except ConfigError as error:
        print(f"skatbot: configuration error: {error}\nFix it in {env_path(env_file)} or in the environment "
              "(which wins), then start the bot again.", file=sys.stderr)
        return EXIT_CONFIG
    if settings.discord_token is None:
        print(NO_TOKEN_HELP.format(env_file=env_path(env_file)), end="", file=sys.stderr)
        return EXIT_CONFIG

    configure_logging(settings.log_level_number)
    stop_on_signals()
    bot = SkatBot(settings)
    try:
        bot.run(settings.discord_token, log_handler=None)
    except discord.LoginFailure:
        log.debug("Discord rejected the token", exc_info=True)
        print(LOGIN_FAILED_HELP, end="", file=sys.stderr)
        return EXIT_CONFIG
    except StartupError as error:
        log.debug("the bot could not start", exc_info=True)
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    if bot.closing and not bot.closed_cleanly:
        exit_now()
    return 0


def exit_now() -> None:
    """A second Ctrl-C cut the close short: exit at once. (The database's connection threads, still open, would
    keep Python from ever exiting; everything accepted was stored before it was shown, so nothing is lost.)"""
    log.warning("stopped before the close was done (a second Ctrl-C or SIGTERM): exiting now")
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def env_path(env_file: Path | None) -> Path:
    """The .env file this start reads, as an absolute path (./run and bot.py read different folders')."""
    return (Path(".env") if env_file is None else env_file).resolve()


if __name__ == "__main__":
    sys.exit(main())
