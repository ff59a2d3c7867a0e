"""Duplicate tournament between two AI configurations, scored in Seeger-Fabian points.

Every deal is played six times: A in one seat against two B's (three rotations) and two A's against
one B (three rotations). Each seat is then held three times by A and three times by B in the same
company, so the luck of the cards cancels and what is left is skill. The figure is the mean Seeger-
Fabian score of an A seat minus that of a B seat, per deal, with a 95% confidence interval over deals.

    .venv/bin/python -m benchmarks.ai_tournament --deals 300 --a normal --b easy

Regression testing, as chess engines do it (fishtest): `--baseline REF` makes B the same level (or
`--b`) at an earlier commit REF, checked out in a temporary git worktree and run in its own process
(benchmarks/ai_baseline.py), so A is the working tree against the code it changed. `--sprt MU0 MU1`
stops as soon as a sequential probability ratio test decides between "A - B = MU0" and "A - B = MU1"
SF points per deal (errors `--alpha`, `--beta`); `--deals` is then the most it plays.

    nice -n 15 .venv/bin/python -m benchmarks.ai_tournament --a strong --baseline HEAD~3 \
        --deals 1000 --sprt 0 5
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from multiprocessing import Pool
from pathlib import Path
from typing import IO

from benchmarks import ai_variants
from benchmarks.duplicate_sources import source_lines
from skatbot.ai import Level, levels, play_deal
from skatbot.ai.base import ComputerPlayer
from skatbot.engine.actions import Action, parse_action
from skatbot.engine.deal import Deal
from skatbot.engine.rules import AllPass, RuleSet
from skatbot.engine.views import SeatView

SEATINGS: tuple[tuple[str, str, str], ...] = (
    ("A", "B", "B"), ("B", "A", "B"), ("B", "B", "A"),
    ("B", "A", "A"), ("A", "B", "A"), ("A", "A", "B"),
)

PlayerMaker = Callable[[str, int, Deal], ComputerPlayer]
"""Builds the player of configuration "A" or "B" with a seed, for a deal about to be played."""


@dataclass(frozen=True)
class DealOutcome:
    """One deal played in all six seatings."""

    difference: float  # mean score of an A seat minus mean score of a B seat
    games: dict[str, list[int]]  # per configuration: [games declared, games won]
    seatings: tuple[str, ...] = ()  # per seating: who declared what at which bid, and how it ended


def duplicate(seed: int, rules: RuleSet, maker: PlayerMaker) -> DealOutcome:
    """The deal of `seed` in all six seatings, players from `maker`."""
    totals = {"A": 0, "B": 0}
    seats = {"A": 0, "B": 0}
    games = {"A": [0, 0], "B": [0, 0]}
    notes = []
    for number, seating in enumerate(SEATINGS):
        deal = Deal.new(seed, rules)
        players = [maker(who, seed * 31 + number * 3 + seat, deal) for seat, who in enumerate(seating)]
        result = play_deal(deal, players)
        for seat, who in enumerate(seating):
            totals[who] += result.seat_scores[seat]
            seats[who] += 1
        if result.declarer is not None:
            who = seating[result.declarer]
            games[who][0] += 1
            games[who][1] += int(result.won)
            assert result.game is not None
            notes.append(f"{''.join(seating)} {who}{result.declarer} {result.game.value}"
                         f"{' hand' if result.contract is not None and result.contract.hand else ''} bid {result.bid}"
                         f" value {result.value} {'won' if result.won else 'lost'}")
        else:
            notes.append(f"{''.join(seating)} passed")
    return DealOutcome(totals["A"] / seats["A"] - totals["B"] / seats["B"], games, tuple(notes))


def play_duplicate(args: tuple[int, str, str, RuleSet]) -> DealOutcome:
    """Two players of this working tree, named as in `ai_variants` (a pool worker's job)."""
    seed, spec_a, spec_b, rules = args

    def maker(who: str, player_seed: int, deal: Deal) -> ComputerPlayer:
        return ai_variants.make(spec_a if who == "A" else spec_b, player_seed)

    return duplicate(seed, rules, maker)


def summarize(outcomes: Sequence[DealOutcome]) -> tuple[float, float, float]:
    """Mean difference and the 95% confidence interval (normal approximation over deals)."""
    values = [o.difference for o in outcomes]
    n = len(values)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


# --- the sequential test -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Sprt:
    """Where a sequential probability ratio test stands: the log-likelihood ratio and its bounds."""

    llr: float
    lower: float  # at or below: accept H0 (A - B = mu0)
    upper: float  # at or above: accept H1 (A - B = mu1)

    @property
    def verdict(self) -> str | None:
        """"H1", "H0", or None while the test goes on."""
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return None


def sprt(values: Sequence[float], mu0: float, mu1: float, alpha: float = 0.05, beta: float = 0.05) -> Sprt:
    """The SPRT of "mean = mu0" against "mean = mu1" for per-deal differences taken as normal, with the
    variance estimated from the sample (the generalized SPRT fishtest uses):
    LLR = n (mu1 - mu0) (2 mean - mu0 - mu1) / (2 s^2); stop at ln(beta / (1 - alpha)) or
    ln((1 - beta) / alpha) (Wald's bounds: error rates alpha for H1 when H0 holds, beta the other way)."""
    if not mu1 > mu0:
        raise ValueError("mu1 must be above mu0")
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError("alpha and beta are probabilities")
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n = len(values)
    if n < 2:
        return Sprt(0.0, lower, upper)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    if variance <= 0:
        return Sprt(0.0, lower, upper)  # no spread yet (identical players give all zeros): no evidence
    return Sprt(n * (mu1 - mu0) * (2 * mean - mu0 - mu1) / (2 * variance), lower, upper)


# --- the baseline: the same AI at an earlier commit, in its own process --------------------------------

class Baseline:
    """A player server (benchmarks/ai_baseline.py) running a git worktree of an earlier commit."""

    def __init__(self, tree: Path) -> None:
        server = Path(__file__).with_name("ai_baseline.py")
        env = dict(os.environ, PYTHONPATH=str(tree))
        self.process = subprocess.Popen([sys.executable, str(server)], cwd=tree, env=env, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        hello = json.loads(self._stdout.readline())
        if not str(hello["ready"]).startswith(str(tree)):
            raise RuntimeError(f"the baseline server imported skatbot from {hello['ready']}, not {tree}")

    @property
    def _stdout(self) -> IO[str]:
        assert self.process.stdout is not None
        return self.process.stdout

    def ask(self, op: str, level: Level, player_seed: int, deal: Deal, seat: int) -> Action | None:
        assert self.process.stdin is not None
        rules = {f.name: getattr(deal.rules, f.name) for f in fields(deal.rules)
                 if f.name in ("all_pass", "kontra", "seeger_fabian")}
        rules["all_pass"] = deal.rules.all_pass.value
        request: dict[str, object] = {"op": op, "level": level.value, "player_seed": player_seed, "deal_seed": deal.seed,
                   "rules": rules, "seat": seat, "history": [[s, str(a)] for s, a in deal.history]}
        if deal.seed is None:  # not dealt from a seed (an ISS record): its cards, as ISS codes
            request["hands"] = [[card.iss for card in hand] for hand in deal.dealt_hands]
            request["skat"] = [card.iss for card in deal.dealt_skat]
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self._stdout.readline()
        if not line:
            raise RuntimeError("the baseline server stopped")
        text = json.loads(line)["action"]
        return None if text is None else parse_action(text)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


class RemotePlayer:
    """A seat played by the baseline server; it replays the real deal there, so it sees what its view
    shows and nothing else."""

    def __init__(self, baseline: Baseline, level: Level, seed: int, deal: Deal) -> None:
        self.baseline, self.level, self.seed, self.deal = baseline, level, seed, deal

    def choose(self, view: SeatView) -> Action:
        action = self.baseline.ask("choose", self.level, self.seed, self.deal, view.seat)
        assert action is not None
        return action

    def side_action(self, view: SeatView) -> Action | None:
        return self.baseline.ask("side", self.level, self.seed, self.deal, view.seat)


@contextmanager
def baseline_worktree(ref: str) -> Iterator[tuple[Path, str]]:
    """A detached git worktree of `ref` in a temporary folder (removed afterwards), and its commit id."""
    commit = subprocess.run(["git", "rev-parse", "--verify", f"{ref}^{{commit}}"], check=True,
                            capture_output=True, text=True).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="skatbot-baseline-")) / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(folder), commit], check=True)
    try:
        yield folder, commit
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(folder)], check=False)
        shutil.rmtree(folder.parent, ignore_errors=True)


# --- the command -----------------------------------------------------------------------------------

def report(label: str, outcomes: Sequence[DealOutcome], elapsed: float, note: str) -> None:
    mean, low, high = summarize(outcomes)
    print(label)
    print(f"A - B per deal (mean seat score): {mean:+.2f}  95% CI [{low:+.2f}, {high:+.2f}]  "
          f"({len(outcomes)} deals)")
    for who in ("A", "B"):
        played = sum(o.games[who][0] for o in outcomes)
        won = sum(o.games[who][1] for o in outcomes)
        rate = f"{100 * won / played:.0f}%" if played else "-"
        print(f"  {who}: declared {played} games, won {won} ({rate})")
    print(f"  {elapsed:.1f} s {note}")


def pooled(paths: Sequence[Path]) -> list[str]:
    """Lines that pool `--out` files: per pairing (A, B, baseline), the deals (a seed counted once), A - B with
    its 95% interval, and the games each side declared and won where the seatings were kept; below it, where A - B
    comes from (`duplicate_sources`)."""
    by_pair: dict[tuple[str, str, str], dict[int, dict[str, object]]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                key = (str(row["a"]), str(row["b"]), str(row.get("baseline") or "-"))
                by_pair.setdefault(key, {}).setdefault(int(row["seed"]), row)
    lines = []
    for (a, b, baseline), rows in sorted(by_pair.items()):
        values = [float(str(r["difference"])) for r in rows.values()]
        games = {"A": [0, 0], "B": [0, 0]}
        noted = 0
        for row in rows.values():
            seatings = row.get("seatings")
            if not isinstance(seatings, list):
                continue
            noted += 1
            for note in seatings:
                who = str(note).split()[1][0]
                if who in games:
                    games[who][0] += 1
                    games[who][1] += int(str(note).endswith(" won"))
        seeds = sorted(rows)
        if len(values) < 2:
            lines.append(f"{a} vs {b} (baseline {baseline}): {len(values)} deal")
            continue
        outcomes = [DealOutcome(v, {}) for v in values]
        mean, low, high = summarize(outcomes)
        line = (f"{a} vs {b} (baseline {baseline}): {mean:+.2f} [{low:+.2f}, {high:+.2f}] over {len(values)} deals "
                f"(seeds {seeds[0]}-{seeds[-1]})")
        if noted:
            line += (f"; {noted} with seatings: A declared {games['A'][0]}, won {games['A'][1]}; "
                     f"B declared {games['B'][0]}, won {games['B'][1]}")
        lines.append(line)
        lines.extend(source_lines(list(rows.values())))
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=300, help="number of deals (each played 6 times); "
                        "with --sprt the most it plays")
    parser.add_argument("--a", default="normal", help=f"level A ({', '.join(levels())}), switches after + "
                        "(strong+contracts+bidding+inference: see benchmarks/ai_variants.py)")
    parser.add_argument("--b", default=None, help="level B (default: easy; with --baseline: A's level)")
    parser.add_argument("--baseline", metavar="REF", help="B plays at this commit (a git worktree, own process)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2; 1 with --baseline)")
    parser.add_argument("--ramsch", action="store_true", help="play Ramsch when all pass")
    parser.add_argument("--kontra", action="store_true", help="allow Kontra and Re")
    parser.add_argument("--sprt", nargs=2, type=float, metavar=("MU0", "MU1"),
                        help="stop when the SPRT decides A - B = MU0 against MU1 (SF points per deal)")
    parser.add_argument("--alpha", type=float, default=0.05, help="SPRT: chance to accept MU1 when MU0 holds")
    parser.add_argument("--beta", type=float, default=0.05, help="SPRT: chance to accept MU0 when MU1 holds")
    parser.add_argument("--min-deals", type=int, default=30,
                        help="SPRT: deals before it may stop (the variance is estimated from them; default 30)")
    parser.add_argument("--out", type=Path, help="append each deal's seed and A - B to this file (JSON lines), "
                        "so that runs over different seeds can be pooled; with each seating's game, bid and outcome")
    parser.add_argument("--progress", type=int, default=0, help="print the running figure every N deals")
    parser.add_argument("--pool", type=Path, nargs="+", metavar="FILE",
                        help="play nothing: pool these --out files (each seed once per pairing) and print the figures")
    options = parser.parse_args(argv)
    if options.pool:
        print("\n".join(pooled(options.pool)))
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # `kill` too removes the baseline's worktree
    level_b = options.b or (ai_variants.level_of(options.a).value if options.baseline else "easy")
    for spec in (options.a, level_b):
        problem = ai_variants.check(spec)
        if problem:
            parser.error(problem)
    if options.baseline and "+" in level_b:
        parser.error("the baseline plays its commit's level as it was: no switches for B")
    if options.deals < 2:
        parser.error("play at least 2 deals for a confidence interval")
    mu0, mu1 = options.sprt if options.sprt else (0.0, 1.0)
    if options.sprt:
        sprt([], mu0, mu1, options.alpha, options.beta)  # refuses bad parameters before any play
    rules = RuleSet(all_pass=AllPass.RAMSCH if options.ramsch else AllPass.THROW_IN, kontra=options.kontra,
                    seeger_fabian=True)
    seeds = [options.seed + i for i in range(options.deals)]
    a, b = options.a, level_b
    started = time.perf_counter()
    outcomes: list[DealOutcome] = []
    verdict: Sprt | None = None

    def record(outcome: DealOutcome) -> bool:
        """Keep one deal's outcome; True when the sequential test has decided."""
        nonlocal verdict
        outcomes.append(outcome)
        if options.out is not None:
            with options.out.open("a") as out:
                out.write(json.dumps({"seed": seeds[len(outcomes) - 1], "a": options.a, "b": level_b,
                                      "baseline": options.baseline, "difference": outcome.difference,
                                      "seatings": outcome.seatings}) + "\n")
        if options.progress and len(outcomes) % options.progress == 0 and len(outcomes) > 1:
            mean, low, high = summarize(outcomes)
            line = f"  after {len(outcomes)} deals: {mean:+.2f} [{low:+.2f}, {high:+.2f}]"
            if options.sprt:
                now = sprt([o.difference for o in outcomes], mu0, mu1, options.alpha, options.beta)
                line += f"  LLR {now.llr:+.2f} ({now.lower:+.2f}, {now.upper:+.2f})"
            print(line, flush=True)
        if options.sprt:
            verdict = sprt([o.difference for o in outcomes], mu0, mu1, options.alpha, options.beta)
            return verdict.verdict is not None and len(outcomes) >= options.min_deals
        return False

    if options.baseline:
        with baseline_worktree(options.baseline) as (tree, commit):
            server = Baseline(tree)

            def maker(who: str, player_seed: int, deal: Deal) -> ComputerPlayer:
                if who == "A":
                    return ai_variants.make(a, player_seed)
                return RemotePlayer(server, Level(b), player_seed, deal)

            try:
                for seed in seeds:
                    if record(duplicate(seed, rules, maker)):
                        break
            finally:
                server.close()
        label = f"{options.a} (A, working tree) vs {level_b} (B, at {commit[:10]})"
        note = "(A in this process, B in its own)"
    else:
        jobs = [(seed, a, b, rules) for seed in seeds]
        with Pool(options.workers) as pool:
            for outcome in pool.imap(play_duplicate, jobs, chunksize=1 if options.sprt else 4):
                if record(outcome):
                    pool.terminate()
                    break
        label = f"{options.a} (A) vs {level_b} (B)"
        note = f"on {options.workers} processes"
    elapsed = time.perf_counter() - started
    label += (f": deals from seed {options.seed}, x 6 seatings, rules: seeger-fabian"
              f"{', ramsch' if options.ramsch else ''}{', kontra' if options.kontra else ''}")
    report(label, outcomes, elapsed, note)
    if options.sprt and verdict is not None:
        decided = {"H1": f"A - B = {mu1:+g} accepted", "H0": f"A - B = {mu0:+g} accepted",
                   None: "undecided (ran out of deals)"}[verdict.verdict]
        print(f"SPRT {mu0:+g} vs {mu1:+g} (alpha {options.alpha}, beta {options.beta}): LLR {verdict.llr:+.2f} "
              f"in ({verdict.lower:+.2f}, {verdict.upper:+.2f}): {decided}")


if __name__ == "__main__":
    main()
