"""`python -m skatbot.records replay FILE`: replay ISS records, one JSON result per line.

A record that is malformed or holds an illegal move prints nothing on stdout; its error (naming the
record ID and the move) goes to stderr, the other records still print, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from skatbot.engine.records import RecordError, parse_record, replay
from skatbot.engine.rules import PRESETS, AllPass, RuleSet
from skatbot.records import summary

RULES: dict[str, RuleSet] = PRESETS
"""Rule sets the command accepts by name: the presets. `score` and `seat_scores` follow the preset."""


def iss_rules(rules: RuleSet) -> RuleSet:
    """The preset as an ISS record can have been played: a deal everyone passed was thrown in, so a
    preset with Ramsch replays it as passed (its other options stay)."""
    if not rules.ramsch:
        return rules
    return rules.with_options(all_pass=AllPass.THROW_IN, ramsch_jungfrau=False, ramsch_durchmarsch=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skatbot.records", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    replay_command = commands.add_parser("replay", help="replay every record in FILE and print its result")
    replay_command.add_argument("file", metavar="FILE", help="ISS game records, one per line")
    replay_command.add_argument("--rules", metavar="NAME", choices=sorted(RULES), default="official",
                                help="score under a rules preset: " + ", ".join(RULES) + " (default: official);"
                                     " deals everyone passed stay passed")
    args = parser.parse_args(argv)
    try:
        with open(args.file, encoding="utf-8") as source:
            lines = source.read().splitlines()
    except OSError as error:
        print(f"cannot read {args.file}: {error.strerror or error}", file=sys.stderr)
        return 2
    try:
        return replay_lines(lines, iss_rules(RULES[args.rules]))
    except BrokenPipeError:  # the reader went away (`... | head`): stop quietly
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (stays open: keeps the final flush silent)
        return 1


def replay_lines(lines: Sequence[str], rules: RuleSet) -> int:
    status = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = parse_record(line)
            deal = replay(record, rules)
        except RecordError as error:
            print(f"line {number}: {error}", file=sys.stderr)
            status = 1
            continue
        print(json.dumps(summary(record.id, deal)), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
