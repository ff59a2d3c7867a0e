"""Card play judged double-dummy on real ISS records: the ISS players' cards against the AI levels' cards.

Every record the importer reads (skatbot.engine.records) is replayed; before every card a seat played, the
double-dummy solver values each legal card for that seat's side, with every hand open and best play after
it: the card points the side ends with (the declarer's side counts the skat), or in a null game whether the
side wins it. A card's loss is the best card's value minus its value; it "turns" the outcome when the
declarer's double-dummy result (won or lost: 61 card points, 90 with schneider announced, every trick with
schwarz announced; null: no trick) after it differs from that after the best card. Judged are the card the
ISS player played and, for each level, the card that level chooses at that moment from the seat's own view
(`seat_view`: its hand, the auction, the tricks so far; not the others' cards: its worlds are sampled);
the replay then goes on with the ISS player's card. Point losses are averaged over the decisions of suit
and grand games; null decisions count only in "turned".

    nice -n 15 .venv/bin/python -m benchmarks.ai_iss_quality tests/data/iss/games.sgf \
        ../shared/iss/more-games.sgf --levels strong normal --baseline d12d2ea

`--baseline REF` judges the same levels at an earlier commit too (a temporary git worktree of REF serving
its seats from its own process: benchmarks/ai_baseline.py, as `ai_tournament --baseline`). Each seat of each
record has a fixed player seed (`--seed`), so a run is reproducible up to strong's shared transposition
table (the worlds a node budget reaches depend on what the process searched before: ai_tournament's note).
`--out FILE` keeps every decision as a JSON line; `--summarize OUT...` pools such files (runs with other
seeds) into means with intervals clustered by record.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import ai_variants
from benchmarks.ai_tournament import Baseline, baseline_worktree
from skatbot.ai import Level
from skatbot.ai.base import ComputerPlayer
from skatbot.ai.solver import Mode, Position, Solver, position_from_deal
from skatbot.engine.actions import PlayCard
from skatbot.engine.cards import mask_of, points_of
from skatbot.engine.deal import Deal
from skatbot.engine.games import GameType
from skatbot.engine.records import RecordError, parse_record, replay
from skatbot.engine.scoring import Ending
from skatbot.engine.views import seat_view

TOTAL_POINTS = 120

Chooser = Callable[[Deal, int, int], int | None]
"""The engine index of the card a player picks for `seat` of a deal in play (None: not a card), given
the deal, the seat and the player's seed."""


# --- the judge ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Judge:
    """Double-dummy values of the cards of one declared game, through solvers shared by its positions."""

    game: GameType
    declarer: int
    goal: int  # declarer card points that win (61, or 90 with schneider announced); unused in null
    schwarz: bool  # schwarz announced: the declarer must take every trick
    points: Solver = field(init=False)
    tricks: Solver | None = field(init=False)

    def __post_init__(self) -> None:
        null = self.game is GameType.NULL
        object.__setattr__(self, "points", Solver(self.game, self.declarer, Mode.NULL if null else Mode.POINTS))
        object.__setattr__(self, "tricks", Solver(self.game, self.declarer, Mode.TRICKS)
                           if self.schwarz and not null else None)

    @property
    def null(self) -> bool:
        return self.game is GameType.NULL

    def values(self, position: Position, banked: int) -> dict[int, tuple[int, bool]]:
        """For each card the seat to move may play: (value for that seat's side, declarer wins), with best
        play after it. `banked` is what the declarer's side already has: card points (skat included), or in
        null the cards taken. Value: card points the side ends with; in null 1 when the side wins, else 0."""
        mover = position.to_move
        held = position.hands[mover]
        if position.trick:
            led = self.points.layout.block[self.points.layout.to_internal[position.trick[0]]]
            follow = self.points.layout.engine_mask(self.points.layout.follow[led])
            held = held & follow or held
        out: dict[int, tuple[int, bool]] = {}
        for card in _bits(held):
            after, gain = self.points.play(position, card)
            if self.null:
                declarer_wins = banked + gain == 0 and (_empty(after) or self.points.null_won(after))
                side_wins = declarer_wins == (mover == self.declarer)
                out[card] = (int(side_wins), declarer_wins)
                continue
            final = banked + gain + (0 if _empty(after) else self.points.value(after))
            declarer_wins = final >= self.goal
            if self.tricks is not None:
                declarer_wins = self._takes_all(position, card)
            out[card] = (final if mover == self.declarer else TOTAL_POINTS - final, declarer_wins)
        return out

    def _takes_all(self, position: Position, card: int) -> bool:
        assert self.tricks is not None
        after, gain = self.tricks.play(position, card)
        if len(position.trick) == 2 and gain == 0:
            return False  # the defenders took this trick
        return _empty(after) or self.tricks.schwarz(after)


def _bits(mask: int) -> list[int]:
    return [i for i in range(32) if mask >> i & 1]


def _empty(position: Position) -> bool:
    return not (position.hands[0] | position.hands[1] | position.hands[2]) and not position.trick


def judge_of(deal: Deal) -> Judge:
    """The judge of a deal's declared game (the deal past its declaration)."""
    assert deal.contract is not None and deal.declarer is not None
    contract = deal.contract
    return Judge(contract.game, deal.declarer, 90 if contract.schneider else 61, contract.schwarz)


def banked(deal: Deal) -> int:
    """The declarer's side's points already certain: the skat (or discards) and its tricks; null: cards taken."""
    assert deal.declarer is not None
    taken = deal.taken_mask(deal.declarer)
    if deal.game is GameType.NULL:
        return taken.bit_count()
    return points_of(mask_of(deal.skat)) + points_of(taken)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One card judged: what it lost against the best card, and whether it turned the outcome."""

    loss: int  # card points (null: 1 when it lost the side the game)
    turned: bool


def verdict(values: dict[int, tuple[int, bool]], card: int) -> Verdict:
    """The loss of `card` among the judged `values` (from `Judge.values`)."""
    best = max(values, key=lambda c: values[c][0])
    return Verdict(values[best][0] - values[card][0], values[best][1] != values[card][1])


# --- the records -------------------------------------------------------------------------------------

@dataclass
class Tally:
    """Per player (ISS or a level): decisions, point losses (suit and grand), null decisions, turnings."""

    decisions: int = 0
    points_decisions: int = 0
    points_choices: int = 0  # points decisions with more than one legal card
    loss: int = 0
    turned: int = 0
    not_cards: int = 0  # the level answered with something other than a card

    def add(self, judged: Verdict, null: bool, forced: bool) -> None:
        self.decisions += 1
        self.turned += judged.turned
        if not null:
            self.points_decisions += 1
            self.points_choices += not forced
            self.loss += judged.loss

    def merged(self, other: Tally) -> Tally:
        return Tally(self.decisions + other.decisions, self.points_decisions + other.points_decisions,
                     self.points_choices + other.points_choices, self.loss + other.loss,
                     self.turned + other.turned, self.not_cards + other.not_cards)


@dataclass
class FileReport:
    name: str
    records: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    tallies: dict[str, Tally] = field(default_factory=dict)


def read_records(path: Path) -> Iterator[tuple[str, Deal | str]]:
    """(id, the replayed deal) per record line, or (id, why it is skipped)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = parse_record(line)
            deal = replay(record)
        except RecordError as error:
            yield f"line {number}", f"not read: {error}"
            continue
        if not any(isinstance(action, PlayCard) for _, action in deal.history):
            reason = ("penalty" if deal.ending is Ending.PENALTY else "passed" if deal.result.passed
                      else "no card played")
            yield record.id, reason
            continue
        yield record.id, deal


def judge_record(deal: Deal, seed: int, choosers: dict[str, Chooser],
                 on_decision: Callable[[dict[str, object]], None] | None = None) -> dict[str, Tally]:
    """Replays `deal` and judges every card played, the ISS player's and each chooser's."""
    tallies = {name: Tally() for name in ("ISS", *choosers)}
    step = Deal(deal.dealt_hands, deal.dealt_skat, deal.rules)
    judge: Judge | None = None
    for seat, action in deal.history:
        if not isinstance(action, PlayCard) or step.is_over:
            step.apply(action, seat)
            continue
        if judge is None:
            judge = judge_of(step)
        mover = step.current_seat
        assert mover is not None and mover == seat
        values = judge.values(position_from_deal(step), banked(step))
        row: dict[str, object] = {"trick": len(step.tricks) + 1, "seat": mover, "declarer": mover == step.declarer,
                                  "null": judge.null, "values": {str(c): v[0] for c, v in values.items()}}
        for name, card in (("ISS", action.card.index), *((n, choose(step, mover, seed + mover))
                                                         for n, choose in choosers.items())):
            if card is None:
                tallies[name].not_cards += 1
                continue
            judged = verdict(values, card)
            tallies[name].add(judged, judge.null, len(values) == 1)
            row[name] = [card, judged.loss, judged.turned]
        if on_decision is not None:
            on_decision(row)
        step.apply(action, seat)
    return tallies


def local_chooser(spec: str) -> Chooser:
    """A level of this working tree (named as in benchmarks/ai_variants), one player per seed."""
    players: dict[int, ComputerPlayer] = {}

    def choose(deal: Deal, seat: int, seed: int) -> int | None:
        if seed not in players:
            players[seed] = ai_variants.make(spec, seed)
        action = players[seed].choose(seat_view(deal, seat))
        return action.card.index if isinstance(action, PlayCard) else None

    return choose


def remote_chooser(server: Baseline, level: Level) -> Chooser:
    """A level at the baseline commit, asked through its server (it replays the deal with its own code)."""

    def choose(deal: Deal, seat: int, seed: int) -> int | None:
        action = server.ask("choose", level, seed, deal, seat)
        return action.card.index if isinstance(action, PlayCard) else None

    return choose


# --- the command -------------------------------------------------------------------------------------

def run(paths: Sequence[Path], seed: int, choosers: dict[str, Chooser], out: Path | None,
        progress: bool) -> list[FileReport]:
    reports = []
    number = 0
    started = time.perf_counter()
    for path in paths:
        report = FileReport(path.name)
        reports.append(report)
        for record_id, deal in read_records(path):
            if isinstance(deal, str):
                kind = deal.split(":")[0]
                report.skipped[kind] = report.skipped.get(kind, 0) + 1
                continue
            number += 1
            report.records += 1

            def keep(row: dict[str, object], record_id: str = record_id, name: str = path.name) -> None:
                if out is not None:
                    with out.open("a") as file:
                        file.write(json.dumps({"file": name, "record": record_id, **row}) + "\n")

            tallies = judge_record(deal, seed + 3 * number, choosers, keep)
            for name, tally in tallies.items():
                report.tallies[name] = report.tallies.get(name, Tally()).merged(tally)
            if progress:
                iss = tallies["ISS"]
                print(f"  {path.name} {record_id}: {iss.decisions} decisions "
                      f"({time.perf_counter() - started:.0f} s)", flush=True)
    return reports


def print_table(reports: Sequence[FileReport], names: Sequence[str]) -> None:
    total = FileReport("all")
    for report in reports:
        total.records += report.records
        for kind, count in report.skipped.items():
            total.skipped[kind] = total.skipped.get(kind, 0) + count
        for name, tally in report.tallies.items():
            total.tallies[name] = total.tallies.get(name, Tally()).merged(tally)
    print(f"{'file':<22} {'player':<24} {'decisions':>9} {'points/decision':>15} {'points/choice':>13} "
          f"{'turned':>12}")
    for report in (*reports, total) if len(reports) > 1 else reports:
        skipped = ", ".join(f"{count} {kind}" for kind, count in sorted(report.skipped.items()))
        print(f"{report.name} ({report.records} records{'; skipped ' + skipped if skipped else ''})")
        for name in names:
            if name not in report.tallies:
                continue
            tally = report.tallies[name]
            per = tally.loss / tally.points_decisions if tally.points_decisions else 0.0
            per_choice = tally.loss / tally.points_choices if tally.points_choices else 0.0
            turned = f"{tally.turned} ({100 * tally.turned / tally.decisions:.1f}%)" if tally.decisions else "-"
            extra = f"  {tally.not_cards} not a card" if tally.not_cards else ""
            print(f"{'':<22} {name:<24} {tally.decisions:>9} {per:>15.2f} {per_choice:>13.2f} {turned:>12}{extra}")


# --- pooling runs ------------------------------------------------------------------------------------

def clustered_mean(rows: Sequence[dict[str, Any]], player: str, minus: str | None = None
                   ) -> tuple[int, float, float]:
    """Over the suit and grand decisions `player` was judged on: its mean loss (minus `minus`'s on the same
    decisions), the half-width of a 95% interval with the decisions clustered by record (a record's
    decisions, in one run or in runs with other seeds, are not independent), and how many decisions."""
    clusters: dict[tuple[str, str], list[float]] = {}
    for row in rows:
        if row["null"] or player not in row or (minus is not None and minus not in row):
            continue
        loss = row[player][1] - (row[minus][1] if minus is not None else 0)
        cell = clusters.setdefault((row["file"], row["record"]), [0.0, 0.0])
        cell[0] += loss
        cell[1] += 1
    total = sum(cell[1] for cell in clusters.values())
    if not total:
        return 0, 0.0, 0.0
    mean = sum(cell[0] for cell in clusters.values()) / total
    k = len(clusters)
    spread = sum((cell[0] - mean * cell[1]) ** 2 for cell in clusters.values())
    half = 1.96 * (spread * k / (k - 1)) ** 0.5 / total if k > 1 else 0.0
    return int(total), mean, half


def summarize(paths: Sequence[Path]) -> None:
    """Pool the decisions of `--out` files (runs with other seeds, or levels): per record file and in all,
    each player's loss per decision and, for each level, its difference to the ISS players on the same
    decisions, with record-clustered 95% intervals; and the decisions that turned the outcome."""
    rows = [json.loads(line) for path in paths for line in path.read_text(encoding="utf-8").splitlines() if line]
    players = list(dict.fromkeys(key for row in rows for key, value in row.items()
                                 if isinstance(value, list)))
    names = list(dict.fromkeys(row["file"] for row in rows))
    print(f"{len(rows)} decisions from {len(paths)} file(s); points per decision (suit and grand), 95% "
          "interval clustered by record; minus ISS on the same decisions")
    for name in (*names, None) if len(names) > 1 else names:
        chosen = [row for row in rows if name is None or row["file"] == name]
        once = list({(row["file"], row["record"], row["trick"], row["seat"]): row for row in chosen}.values())
        print(name or "all")
        for player in players:
            mine = once if player == "ISS" else chosen  # the ISS players' cards are the same in every run
            count, mean, half = clustered_mean(mine, player)
            turned = sum(row[player][2] for row in mine if player in row)
            judged = sum(player in row for row in mine)
            line = f"  {player:<24} {count:>6} {mean:6.2f} +-{half:.2f}  turned {turned}/{judged}"
            if player != "ISS":
                _, difference, half = clustered_mean(chosen, player, "ISS")
                line += f"  minus ISS {difference:+.2f} [{difference - half:+.2f}, {difference + half:+.2f}]"
            print(line)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="*", type=Path, default=[Path("tests/data/iss/games.sgf")],
                        help="ISS record files, one record a line (default tests/data/iss/games.sgf)")
    parser.add_argument("--levels", nargs="*", default=["strong", "normal"],
                        help="levels to judge (switches after +, see benchmarks/ai_variants.py)")
    parser.add_argument("--baseline", metavar="REF", help="judge the same levels at this commit too")
    parser.add_argument("--seed", type=int, default=1, help="player seeds: SEED + 3 * record number + seat")
    parser.add_argument("--out", type=Path, help="append every decision as a JSON line to this file")
    parser.add_argument("--progress", action="store_true", help="a line per record")
    parser.add_argument("--summarize", nargs="+", type=Path, metavar="OUT",
                        help="judge nothing: pool the decisions of these --out files (e.g. runs with other seeds)")
    options = parser.parse_args(argv)
    if options.summarize:
        summarize(options.summarize)
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # `kill` too removes the baseline's worktree
    for spec in options.levels:
        problem = ai_variants.check(spec)
        if problem:
            parser.error(problem)
    choosers = {spec: local_chooser(spec) for spec in options.levels}
    started = time.perf_counter()
    if options.baseline:
        with baseline_worktree(options.baseline) as (tree, commit):
            server = Baseline(tree)
            try:
                for level in dict.fromkeys(ai_variants.level_of(spec) for spec in options.levels):
                    choosers[f"{level.value}@{commit[:7]}"] = remote_chooser(server, level)
                reports = run(options.records, options.seed, choosers, options.out, options.progress)
            finally:
                server.close()
    else:
        reports = run(options.records, options.seed, choosers, options.out, options.progress)
    print(f"Card play judged double-dummy before every card played (seed {options.seed}): points/decision is "
          "the mean card points lost against the best card (suit and grand), points/choice the same over the "
          "decisions with more than one legal card; turned, the decisions whose card changed the double-dummy "
          "outcome (null included)")
    print_table(reports, ["ISS", *choosers])
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
