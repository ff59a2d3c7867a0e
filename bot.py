#!/usr/bin/env python3
"""Entry point: read `.env` and the environment, check the settings, set up logging, run the bot.

The `.env` file is read from the current working folder (./run starts the bot in the project folder);
variables already set in the environment win over the file. A missing token or a malformed setting
ends the program with exit code 2 and a message saying what to do.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path

import discord
from dotenv import dotenv_values

from skatbot.app import SkatBot
from skatbot.config import TOKEN_VAR, ConfigError, Settings

EXIT_CONFIG = 2

NO_TOKEN_HELP = f"""\
skatbot: no Discord bot token is set ({TOKEN_VAR}), so the bot cannot log in.

To get one:
  1. Open https://discord.com/developers/applications and create a New Application.
  2. On its Bot page choose Reset Token and copy the token. Keep it secret.
  3. Put it into a file named .env in the folder you start the bot from:
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


def read_environment(env_file: Path, environ: Mapping[str, str]) -> dict[str, str]:
    """The settings' source: the .env file's values, overridden by the real environment."""
    from_file = {key: value for key, value in dotenv_values(env_file).items() if value is not None}
    return {**from_file, **environ}


def configure_logging(level: int) -> None:
    """One handler on the root logger for the bot and discord.py alike (discord.py adds none itself)."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-8s %(name)s: %(message)s")


def stop_on_sigterm() -> None:
    """docker stop, systemd and kill send SIGTERM, which would end the process at once: stop as after
    Ctrl-C instead (asyncio cancels the bot, which closes cleanly: its tables give back the due steps they
    hold, so another process takes them over at once, and the database is closed)."""
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
        print(f"skatbot: configuration error: {error}", file=sys.stderr)
        return EXIT_CONFIG
    if settings.discord_token is None:
        print(NO_TOKEN_HELP, end="", file=sys.stderr)
        return EXIT_CONFIG

    configure_logging(settings.log_level_number)
    stop_on_sigterm()
    bot = SkatBot(settings)
    try:
        bot.run(settings.discord_token, log_handler=None)
    except discord.LoginFailure:
        print(LOGIN_FAILED_HELP, end="", file=sys.stderr)
        return EXIT_CONFIG
    return 0


if __name__ == "__main__":
    sys.exit(main())
