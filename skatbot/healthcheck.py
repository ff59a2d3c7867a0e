"""The container's health check: `python -m skatbot.healthcheck` asks the bot's /healthz and exits 0 when
healthy, 1 when not (or when it does not answer), as Docker's HEALTHCHECK and compose expect.

It reads SKATBOT_METRICS_PORT from the environment (the image and compose set it); without it there is
nothing to ask, which is said, with exit code 1. Standard library only: it runs every 30 s.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

from skatbot.config import METRICS_PORT_VAR


def main(environ: dict[str, str] | None = None) -> int:
    port = (os.environ if environ is None else environ).get(METRICS_PORT_VAR, "").strip()
    if not port.isdecimal():
        print(f"healthcheck: {METRICS_PORT_VAR} is not set, so the bot serves no /healthz", file=sys.stderr)
        return 1
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=4) as response:
            print(response.read().decode())
            return 0
    except urllib.error.HTTPError as error:  # 503: the body says what is down
        print(f"healthcheck: unhealthy: {error.read().decode()}", file=sys.stderr)
    except OSError as error:
        print(f"healthcheck: no answer on port {port}: {error}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
