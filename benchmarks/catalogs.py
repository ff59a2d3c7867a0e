"""How long the gettext catalogs take to compile in memory at start, and a text lookup.

    .venv/bin/python -m benchmarks.catalogs
"""

from __future__ import annotations

import time

from skatbot.ui.i18n import CODES, t, tn, translations


def main() -> None:
    started = time.perf_counter()
    for code in CODES:
        translations(code)
    print(f"compile {len(CODES)} catalogs (.po -> in-memory .mo): {time.perf_counter() - started:.3f} s")
    rounds = 100_000
    started = time.perf_counter()
    for index in range(rounds):
        t(CODES[index % len(CODES)], "board.title", number=1, deals=6, dealer="alice")
    print(f"t(): {1e6 * (time.perf_counter() - started) / rounds:.2f} µs per text")
    started = time.perf_counter()
    for index in range(rounds):
        tn(CODES[index % len(CODES)], "count.deals", index % 7)
    print(f"tn(): {1e6 * (time.perf_counter() - started) / rounds:.2f} µs per counted text")


if __name__ == "__main__":
    main()
