"""The container's health check: `python -m skatbot.healthcheck` asks the bot's /healthz and exits 0 when
healthy, 1 when not (or when it does not answer), as Docker's HEALTHCHECK and compose expect.

It reads SKATBOT_METRICS_PORT and SKATBOT_METRICS_HOST as the bot does, from the environment (the image and
compose set them) and from `.env` in the working folder (the environment wins), and asks the address the bot
listens on (127.0.0.1 when that is every interface, 0.0.0.0 or ::). Without a port there is nothing to ask,
which is said, with exit code 1. Standard library and python-dotenv only: it runs every 30 s.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path

from skatbot.config import DEFAULT_METRICS_HOST, METRICS_HOST_VAR, METRICS_PORT_VAR, read_environment

EVERY_INTERFACE = ("0.0.0.0", "::")


def healthz_url(values: Mapping[str, str]) -> str | None:
    """Where the bot's /healthz answers, from its settings (None: it serves none)."""
    port = values.get(METRICS_PORT_VAR, "").strip()
    if not port.isdecimal():
        return None
    host = values.get(METRICS_HOST_VAR, "").strip() or DEFAULT_METRICS_HOST
    if host in EVERY_INTERFACE:
        host = DEFAULT_METRICS_HOST
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/healthz"


def main(environ: Mapping[str, str] | None = None) -> int:
    """`environ`: the settings as given (a test's); None reads the process's environment over `.env`."""
    values = read_environment(Path(".env"), os.environ) if environ is None else environ
    url = healthz_url(values)
    if url is None:
        print(f"healthcheck: {METRICS_PORT_VAR} is not set, so the bot serves no /healthz", file=sys.stderr)
        return 1
    try:
        with urllib.request.urlopen(url, timeout=4) as response:
            print(response.read().decode())
            return 0
    except urllib.error.HTTPError as error:  # 503: the body says what is down
        print(f"healthcheck: unhealthy: {error.read().decode()}", file=sys.stderr)
    except OSError as error:
        print(f"healthcheck: no answer at {url}: {error}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
