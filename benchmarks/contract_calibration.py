"""Calibration of the contract evaluator (skatbot/ai/contracts.py) against play at the table.

For each generated deal and each seat whose hand is worth a look (by `normal`'s estimate before the skat), the
evaluator judges the hand as strong's bidding does at the start of the auction (its pickup candidate at 18:
the estimated chance to win, the expected Seeger-Fabian result, and each world's double-dummy verdict). Then
the deal is played with that seat as declarer at 18: it picks up, discards and declares as `normal` does (the
evaluator's model of the pickup), and every card is played by `--play` (default: strong, all three seats).
What is recorded per hand: the estimate, the worlds' verdicts, the real deal's double-dummy card points
after the discard, and the outcome (won, value, the declarer's result against the table).

    nice -n 15 .venv/bin/python -m benchmarks.contract_calibration --deals 100 --seed 5001 \
        --out benchmarks/results/issue25-calibration.jsonl
    .venv/bin/python -m benchmarks.contract_calibration --fit benchmarks/results/issue25-calibration.jsonl

`--null` measures the null games after a pickup instead (which `contracts` does not search: strong takes
`normal`'s rule-of-thumb chance, `null_probability` of the ten cards `null_discard` keeps): every seat whose
twelve cards (its hand and the real skat) keep a null of at least `--null-chance` declares it at 18 after the
pickup, and the deal is played by `--play`; the record holds that estimate, the real deal's double-dummy null
verdict and the outcome. `--fit` on such records prints the win rate by estimate, seat and verdict.

`--fit` reads the records and prints: the table win rate per real double-dummy verdict (what
`contracts.CALIBRATION` should say, as it was measured with `normal` play before), the evaluator's estimate
against what happened (a reliability table), and a monotone (isotonic) map from the estimate to the win rate.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from benchmarks import ai_variants
from skatbot.ai import contracts, make_player, play_deal
from skatbot.ai.base import ComputerPlayer, Level
from skatbot.ai.contracts import HAND, PICKUP, bidding_candidates
from skatbot.ai.evaluation import null_danger, null_discard, null_probability
from skatbot.ai.normal import bid_basis
from skatbot.ai.solver import Mode, Position, Solver
from skatbot.engine.actions import PASS, PICK_UP, Action, Bid, Declare, Discard
from skatbot.engine.cards import mask_of, points_of
from skatbot.engine.deal import Deal, Phase
from skatbot.engine.games import Contract, GameType
from skatbot.engine.rules import AllPass, RuleSet
from skatbot.engine.scoring import seeger_fabian_points
from skatbot.engine.views import SeatView, seat_view

Row = dict[str, Any]
"""One hand's record (JSON)."""

RULES = RuleSet(all_pass=AllPass.THROW_IN, kontra=False, seeger_fabian=True)
BINS = ((76, "76+"), (61, "61-75"), (46, "46-60"), (0, "0-45"))

AUCTIONS: dict[int, tuple[tuple[int, Action], ...]] = {
    0: ((1, PASS), (2, PASS), (0, Bid(18))),  # forehand's last call
    1: ((1, Bid(18)), (0, PASS), (2, PASS)),
    2: ((1, PASS), (2, Bid(18)), (0, PASS)),
}
"""Auctions that make each seat the declarer at 18."""


def world_bin(chance: float) -> int:
    """The `contracts.CALIBRATION` row a world's calibrated chance came from."""
    return min(range(len(contracts.CALIBRATION)), key=lambda i: abs(contracts.CALIBRATION[i][1] - chance))


def dd_points(deal: Deal) -> int:
    """The declarer's double-dummy card points (the skat put away included) at the start of play."""
    assert deal.contract is not None and deal.declarer is not None
    solver = Solver(deal.contract.game, deal.declarer, Mode.POINTS)
    hands = (deal.hand_mask(0), deal.hand_mask(1), deal.hand_mask(2))
    return solver.value(Position(hands, 0)) + points_of(mask_of(deal.skat))


class Passer:
    """A seat that passes at every word of the auction and otherwise plays as `player` does."""

    def __init__(self, player: ComputerPlayer) -> None:
        self.player = player

    def choose(self, view: SeatView) -> Action:
        return PASS if view.phase is Phase.AUCTION else self.player.choose(view)

    def side_action(self, view: SeatView) -> Action | None:
        return self.player.side_action(view)


def passed_result(seed: int, seat: int, play: str) -> float:
    """The seat's result against the table (its score minus the others' mean) when it passes and the others
    bid and play as `play` does (0 when they pass too)."""
    players: list[ComputerPlayer] = [ai_variants.make(play, seed * 7 + s) for s in range(3)]
    players[seat] = Passer(players[seat])
    scores = play_deal(Deal.new(seed, RULES), players).seat_scores
    return scores[seat] - sum(scores[s] for s in range(3) if s != seat) / 2


def record(seed: int, seat: int, play: str, worlds: int, budget: int,
           judged: tuple[float, float] = (0.0, 1.0), passing: bool = False) -> Row | None:
    """One hand judged and played (None: a null, or an estimate outside `judged`: not worth playing)."""
    probe = Deal.new(seed, RULES)
    hand = probe.dealt_hands[seat]
    mine = mask_of(hand)
    candidates = bidding_candidates(hand, seat)
    estimates = contracts.evaluate(seed, seat, mine, 18, candidates, (), RULES.bid_ladder, worlds, budget)
    pickup = estimates[0]
    assert pickup.candidate.kind == PICKUP
    weight = sum(w for w, _, _ in pickup.outcomes)
    if not weight:
        return None
    chance = sum(w * c for w, _, c in pickup.outcomes) / weight
    if not judged[0] <= chance <= judged[1]:
        return None
    after = contracts.passing(seed, seat, mine, candidates, (), RULES.bid_ladder, 0, worlds, budget)
    deal = Deal.new(seed, RULES)
    for who, action in AUCTIONS[seat]:
        deal.apply(action, who)
    deal.apply(PICK_UP, seat)
    normal = make_player(Level.NORMAL, seed * 3 + seat)
    players = [ai_variants.make(play, seed * 7 + s) for s in range(3)]
    while deal.phase in (Phase.DISCARD, Phase.DECLARE):
        deal.apply(normal.choose(seat_view(deal, seat)), seat)
    assert deal.contract is not None
    if deal.contract.game is GameType.NULL:
        return None
    dd = dd_points(deal)
    result = play_deal(deal, players)
    sf = seeger_fabian_points(result.value, result.won)
    return {
        "seed": seed, "seat": seat, "play": play, "game": deal.contract.game.value,
        "normal_chance": round(bid_basis(hand, seat).chance, 4), "normal_limit": bid_basis(hand, seat).limit,
        "estimate": round(chance, 4), "expected": round(pickup.expected(18) or 0.0, 2),
        "hand_expected": [None if (e := x.expected(18)) is None else round(e, 2) for x in estimates
                          if x.candidate.kind == HAND],
        "pickup_expected": [None if (e := x.expected(18)) is None else round(e, 2) for x in estimates[1:]
                            if x.candidate.kind == PICKUP],
        "worlds": [[round(w, 4), v, world_bin(c)] for w, v, c in pickup.outcomes],
        "all_pass": round(after.all_pass, 3), "defending": round(after.defending, 2),
        "dd": dd, "won": result.won, "value": result.value, "points": result.declarer_points,
        "sf_table": sf if result.won else sf - 40,
        **({"pass_table": passed_result(seed, seat, play)} if passing else {}),
    }


def null_record(seed: int, seat: int, play: str, at_least: float = 0.3) -> Row | None:
    """The null after a pickup, as strong's discard and declaration judge it (`contracts.null_options` with
    twelve cards: `null_discard`, then `null_probability` of the ten kept), declared at 18 and played by `play`
    (None: the kept ten's chance is under `at_least`)."""
    deal = Deal.new(seed, RULES)
    hand = deal.dealt_hands[seat]
    twelve = sorted((*hand, *deal.skat), key=lambda c: c.index)
    first, second = null_discard(twelve)
    kept = [c for c in twelve if c is not first and c is not second]
    estimate = null_probability(kept)
    if estimate < at_least:
        return None
    for who, action in AUCTIONS[seat]:
        deal.apply(action, who)
    deal.apply(PICK_UP, seat)
    deal.apply(Discard(first, second), seat)
    deal.apply(Declare(Contract(GameType.NULL)), seat)
    hands = (deal.hand_mask(0), deal.hand_mask(1), deal.hand_mask(2))
    dd_won = Solver(GameType.NULL, seat, Mode.NULL).null_won(Position(hands, 0))
    players = [ai_variants.make(play, seed * 7 + s) for s in range(3)]
    result = play_deal(deal, players)
    sf = seeger_fabian_points(result.value, result.won)
    return {
        "seed": seed, "seat": seat, "play": play, "game": GameType.NULL.value, "null": True,
        "kept": " ".join(c.iss for c in kept), "estimate": estimate,
        "bid_chance": null_probability(hand, discards_to_come=2), "hand_danger": null_danger(hand),
        "dd_won": dd_won, "won": result.won, "value": result.value, "sf_table": sf if result.won else sf - 40,
    }


def fit_null(rows: list[Row]) -> None:
    """The null records' win rate by estimate, by the declarer's seat (forehand leads) and by the real deal's
    double-dummy verdict."""
    print(f"{len(rows)} nulls after a pickup played ({', '.join(sorted({str(r['play']) for r in rows}))})")
    for estimate in sorted({float(r["estimate"]) for r in rows}, reverse=True):
        sel = [r for r in rows if float(r["estimate"]) == estimate]
        won = sum(bool(r["won"]) for r in sel)
        print(f"  estimate {estimate:.2f}: won {share(won, len(sel))}, SF against the table "
              f"{sum(float(r['sf_table']) for r in sel) / len(sel):+.1f} (expected "
              f"{estimate * 73 - (1 - estimate) * 176:+.1f} as strong weighs it)")
        for seat in range(3):
            chosen = [r for r in sel if r["seat"] == seat]
            print(f"    seat {seat}: won {share(sum(bool(r['won']) for r in chosen), len(chosen))}")
        for verdict in (True, False):
            chosen = [r for r in sel if bool(r["dd_won"]) is verdict]
            print(f"    double-dummy {'won' if verdict else 'lost'}: won "
                  f"{share(sum(bool(r['won']) for r in chosen), len(chosen))}")


# --- the fit -------------------------------------------------------------------------------------

def isotonic(points: Sequence[tuple[float, float]]) -> list[tuple[float, float, int]]:
    """Pool-adjacent-violators: the non-decreasing step function of y on x that fits best (least squares);
    returned as (the highest x of a step, its y, how many points it holds)."""
    blocks: list[list[float]] = []  # [sum y, count, highest x]
    for x, y in sorted(points):
        blocks.append([y, 1, x])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            total, count, high = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
            blocks[-1][2] = high
    return [(high, total / count, int(count)) for total, count, high in blocks]


def load(paths: Iterable[Path]) -> list[Row]:
    rows: list[Row] = []
    for path in paths:
        rows.extend(json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return rows


def share(won: int, count: int) -> str:
    if not count:
        return "-"
    p = won / count
    half = 1.96 * math.sqrt(p * (1 - p) / count)
    return f"{100 * p:.0f}% (+-{100 * half:.0f}, {count})"


def fit(rows: list[Row]) -> None:
    print(f"{len(rows)} hands played ({', '.join(sorted({str(r['play']) for r in rows}))})")
    print("Table win rate by the real deal's double-dummy points (after the discard):")
    for low, high in ((76, 121), (68, 76), (61, 68), (53, 61), (46, 53), (0, 46)):
        sel = [r for r in rows if low <= int(r["dd"]) < high]
        print(f"  {low:3d}-{high - 1:3d}: {share(sum(bool(r['won']) for r in sel), len(sel))}")
    print("Per CALIBRATION row (now):", ", ".join(f"{p}+ {c}" for p, c in contracts.CALIBRATION))
    fitted = []
    for index, (low, label) in enumerate(BINS):
        high = BINS[index - 1][0] if index else 121
        sel = [r for r in rows if low <= int(r["dd"]) < high]
        won = sum(bool(r["won"]) for r in sel)
        fitted.append((low, won / len(sel) if sel else None))
        print(f"  {label}: {share(won, len(sel))}")
    print("Estimate (mean calibrated chance over worlds) against the outcome:")
    for start, end in ((0.0, 0.4), (0.4, 0.5), (0.5, 0.6), (0.6, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 1.01)):
        sel = [r for r in rows if start <= float(r["estimate"]) < end]
        mean: float = sum(float(r["estimate"]) for r in sel) / len(sel) if sel else 0.0
        sf = sum(float(r["sf_table"]) for r in sel) / len(sel) if sel else 0.0
        exp = sum(float(r["expected"]) for r in sel) / len(sel) if sel else 0.0
        print(f"  {start:.1f}-{end:.1f} (mean {mean:.2f}): won {share(sum(bool(r['won']) for r in sel), len(sel))}"
              f"  expected {exp:+.1f}, got {sf:+.1f}")
    refit = [r for r in rows if r["worlds"]]
    if refit and all(c is not None for _, c in fitted):
        table = [c for _, c in fitted]
        again = []
        for r in refit:
            worlds = r["worlds"]
            assert isinstance(worlds, list)
            total = sum(w for w, _, _ in worlds)
            again.append((sum(w * table[b] for w, _, b in worlds) / total, float(bool(r["won"]))))
        print("The estimate with the rows refitted to this play:")
        for start, end in ((0.0, 0.5), (0.5, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 1.01)):
            chosen = [(e, w) for e, w in again if start <= e < end]
            if chosen:
                print(f"  {start:.1f}-{end:.1f} (mean {sum(e for e, _ in chosen) / len(chosen):.2f}): won "
                      f"{share(int(sum(w for _, w in chosen)), len(chosen))}")
    print("The bid at 18 (search: the best candidate's expected result beats passing's; normal: its limit):")
    groups: dict[tuple[bool, bool], list[Row]] = {}
    for r in rows:
        best = max([float(r["expected"])] + [float(h) for h in r["hand_expected"] if h is not None])
        groups.setdefault((best > float(r["defending"]), int(r["normal_limit"]) > 0), []).append(r)
    for (search, normal), chosen_rows in sorted(groups.items()):
        n = len(chosen_rows)
        line = (f"  search {'bids' if search else 'passes'}, normal {'bids' if normal else 'passes'}: {n} hands, "
                f"won {100 * sum(bool(r['won']) for r in chosen_rows) / n:.0f}%, playing expected "
                f"{sum(float(r['expected']) for r in chosen_rows) / n:+.1f} got "
                f"{sum(float(r['sf_table']) for r in chosen_rows) / n:+.1f}; passing expected "
                f"{sum(float(r['defending']) for r in chosen_rows) / n:+.1f}")
        passed = [float(r["pass_table"]) for r in chosen_rows if "pass_table" in r]
        if passed:
            line += f" got {sum(passed) / len(passed):+.1f} ({len(passed)})"
        print(line)
    print("Isotonic map, estimate -> win rate (highest estimate of each step, rate, hands):")
    for top, rate, count in isotonic([(float(r["estimate"]), float(bool(r["won"]))) for r in rows]):
        print(f"  <= {top:.3f}: {rate:.3f} ({count})")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=5001)
    parser.add_argument("--play", default="strong", help="who plays the cards (all three seats; ai_variants names)")
    parser.add_argument("--min-chance", type=float, default=0.3,
                        help="look only at hands whose normal estimate before the skat is at least this")
    parser.add_argument("--judged", type=float, nargs=2, default=(0.0, 1.0), metavar=("LOW", "HIGH"),
                        help="play only hands whose estimate lies here (the bid decisions are made in between)")
    parser.add_argument("--passing", action="store_true",
                        help="also play the deal with this seat passing (the others bid as --play does)")
    parser.add_argument("--null", action="store_true", help="measure the nulls after a pickup instead")
    parser.add_argument("--null-chance", type=float, default=0.3,
                        help="with --null: play the seats whose kept ten's null chance is at least this")
    parser.add_argument("--worlds", type=int, default=contracts.WORLDS)
    parser.add_argument("--budget", type=int, default=contracts.NODE_BUDGET)
    parser.add_argument("--out", type=Path, help="append the records here (JSON lines)")
    parser.add_argument("--fit", type=Path, nargs="+", help="fit from these record files instead of playing")
    options = parser.parse_args(argv)
    if options.fit:
        rows = load(options.fit)
        nulls = [r for r in rows if r.get("null")]
        if nulls:
            fit_null(nulls)
        if len(nulls) < len(rows):
            fit([r for r in rows if not r.get("null")])
        return
    problem = ai_variants.check(options.play)
    if problem:
        parser.error(problem)
    started = time.perf_counter()
    rows = []
    for seed in range(options.seed, options.seed + options.deals):
        hands = Deal.new(seed, RULES).dealt_hands
        for seat in range(3):
            if options.null:
                row = null_record(seed, seat, options.play, options.null_chance)
            elif bid_basis(hands[seat], seat).chance < options.min_chance:
                continue
            else:
                row = record(seed, seat, options.play, options.worlds, options.budget, tuple(options.judged),
                             options.passing)
            if row is None:
                continue
            rows.append(row)
            if options.out is not None:
                with options.out.open("a") as out:
                    out.write(json.dumps(row) + "\n")
        if not options.null or seed % 100 == 0:
            print(f"seed {seed}: {len(rows)} hands, {time.perf_counter() - started:.0f} s", flush=True)
    (fit_null if options.null else fit)(rows)


if __name__ == "__main__":
    main()
