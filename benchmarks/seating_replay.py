"""What a change of strong's contract decisions does on deals a duplicate match already played: replays the
seatings of an `ai_tournament --out` file where it can matter, with the old and the new variant as A.

A match's deal is played in six seatings (ai_tournament.SEATINGS) with players seeded by the deal's seed, the
seating and the seat, and the contract decisions (bidding, skat, discard, declaration) are pure functions of
the view and that seed (`contracts.solve` is seeded from its arguments). So where the new variant decides
every contract question as the old one, the seating is the same game, and the match's difference on the
whole file changes only through the seatings where it decides otherwise. This replays the chosen seatings
(those A declared, and with `--where` only those whose note contains it, e.g. " hand" for A's hand games), asks both variants every contract
question of A's seats along the old variant's game, and where they first differ plays the deal on twice
from there: on with the old one and on with the new one (B: `--b`, the working tree's level, which plays as
the match's baseline did when that level is unchanged since). The change of A - B on that deal is the
difference of the two endings (A's seats minus B's, over the nine seats of each, as the match counts).

Card play's searches share a transposition table per process, so the two endings differ by some card-play
noise besides the decision; every other seating is taken as unchanged. The figures it prints: the seatings
that changed, their deltas, and the file's per-deal differences with the deltas added (the new variant's
estimate on the same deals, derived, not played as a match), with a 95% interval, beside the old one's.

    nice -n 15 .venv/bin/python -m benchmarks.seating_replay benchmarks/results/issue25-bidding-sharp.jsonl \\
        --old strong+contracts+bidding+inference+sharp --new strong+contracts+bidding+inference+sharp+steady \\
        --where " hand"
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks import ai_variants
from benchmarks.ai_tournament import SEATINGS
from skatbot.ai.base import ComputerPlayer
from skatbot.ai.runner import ask_side_actions
from skatbot.engine.actions import Action
from skatbot.engine.deal import Deal, Phase
from skatbot.engine.rules import AllPass, RuleSet
from skatbot.engine.views import seat_view

CONTRACT_PHASES = (Phase.AUCTION, Phase.SKAT, Phase.DISCARD, Phase.DECLARE)


def players(seed: int, number: int, seating: Sequence[str], a: str, b: str) -> list[ComputerPlayer]:
    """The seating's players, seeded as `ai_tournament.duplicate` seeds them."""
    return [ai_variants.make(a if who == "A" else b, seed * 31 + number * 3 + seat)
            for seat, who in enumerate(seating)]


def finish(deal: Deal, seated: Sequence[ComputerPlayer]) -> tuple[int, int, int]:
    asked: set[tuple[int, str]] = set()
    while not deal.is_over:
        ask_side_actions(deal, seated, asked)
        seat = deal.current_seat
        assert seat is not None
        deal.apply(seated[seat].choose(seat_view(deal, seat)), seat)
    return deal.result.seat_scores


def note(deal: Deal, seating: Sequence[str]) -> str:
    result = deal.result
    if result.declarer is None:
        return "passed"
    hand = " hand" if result.contract is not None and result.contract.hand else ""
    assert result.game is not None
    return (f"{seating[result.declarer]}{result.declarer} {result.game.value}{hand} bid {result.bid} value "
            f"{result.value} {'won' if result.won else 'lost'}")


def replay(seed: int, number: int, rules: RuleSet, old: str, new: str, b: str) -> tuple[float, str, str] | None:
    """The change of A - B (per deal, as the match counts it) when A plays `new` instead of `old` in one
    seating, with both endings' notes; None when both decide every contract question alike."""
    seating = SEATINGS[number]
    old_players = players(seed, number, seating, old, b)
    new_players = players(seed, number, seating, new, b)
    deal = Deal.new(seed, rules)
    actions: list[tuple[int, Action]] = []
    asked: set[tuple[int, str]] = set()
    while not deal.is_over and deal.phase in CONTRACT_PHASES:
        ask_side_actions(deal, old_players, asked)
        seat = deal.current_seat
        assert seat is not None
        view = seat_view(deal, seat)
        action = old_players[seat].choose(view)
        if seating[seat] == "A" and new_players[seat].choose(view) != action:
            break
        deal.apply(action, seat)
        actions.append((seat, action))
    else:
        return None
    endings = []
    for seated in (old_players, new_players):
        branch = Deal.new(seed, rules)
        for seat, action in actions:
            branch.apply(action, seat)
        scores = finish(branch, seated)
        a = sum(s for s, who in zip(scores, seating, strict=True) if who == "A")
        b_total = sum(s for s, who in zip(scores, seating, strict=True) if who == "B")
        endings.append((a / 9 - b_total / 9, note(branch, seating)))
    return endings[1][0] - endings[0][0], endings[0][1], endings[1][1]


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    half = 1.96 * math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    return mean, mean - half, mean + half


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", type=Path, help="ai_tournament --out files (with seatings)")
    parser.add_argument("--old", required=True, help="the variant the files' A played")
    parser.add_argument("--new", required=True, help="the variant to compare (ai_variants names)")
    parser.add_argument("--b", default="strong", help="B's level in this working tree (default strong)")
    parser.add_argument("--where", default="", help="replay only seatings A declared whose note contains this")
    parser.add_argument("--out", type=Path, help="append each replayed seating as a JSON line")
    options = parser.parse_args(argv)
    for spec in (options.old, options.new, options.b):
        problem = ai_variants.check(spec)
        if problem:
            parser.error(problem)
    rows: dict[int, dict[str, object]] = {}
    for path in options.files:
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                if row["a"] == options.old and isinstance(row.get("seatings"), list):
                    rows.setdefault(int(row["seed"]), row)
    rules = RuleSet(all_pass=AllPass.THROW_IN, kontra=False, seeger_fabian=True)
    deltas = dict.fromkeys(rows, 0.0)
    started = time.perf_counter()
    replayed = changed = 0
    for seed, row in sorted(rows.items()):
        notes = row["seatings"]
        assert isinstance(notes, list)
        for number, seating_note in enumerate(notes):
            if options.where not in str(seating_note) or not str(seating_note).split()[1].startswith("A"):
                continue
            replayed += 1
            outcome = replay(seed, number, rules, options.old, options.new, options.b)
            if outcome is None:
                continue
            changed += 1
            delta, old_note, new_note = outcome
            deltas[seed] += delta
            print(f"seed {seed} seating {''.join(SEATINGS[number])}: {old_note} -> {new_note}: {delta:+.2f} "
                  f"(match: {seating_note})", flush=True)
            if options.out is not None:
                with options.out.open("a") as out:
                    out.write(json.dumps({"seed": seed, "seating": number, "old": options.old, "new": options.new,
                                          "delta": delta, "old_note": old_note, "new_note": new_note}) + "\n")
    print(f"{len(rows)} deals, {replayed} seatings replayed, {changed} decided otherwise "
          f"({time.perf_counter() - started:.0f} s)")
    if len(rows) >= 2:
        old_values = [float(str(rows[s]["difference"])) for s in sorted(rows)]
        new_values = [v + deltas[s] for v, s in zip(old_values, sorted(rows), strict=True)]
        change = [deltas[s] for s in sorted(rows)]
        for label, values in ((options.old, old_values), (f"{options.new} (derived)", new_values),
                              ("change", change)):
            mean, low, high = interval(values)
            print(f"  {label}: {mean:+.2f} [{low:+.2f}, {high:+.2f}] per deal over {len(values)} deals")


if __name__ == "__main__":
    main()
