"""How much strong's searched opening bid loses to the noise of its sampled worlds: a cheap screen for changes of
the contract evaluation, before a duplicate match (benchmarks/ai_tournament) spends hours on them.

For each deal and seat, the seat's bid limit before anyone has spoken (`StrongPlayer.bid_limit`) is asked of
each variant with `--seeds` player seeds, and of a reference: the first variant with `--reference-worlds`
worlds and `--reference-budget` nodes, whose estimates (the best contract's expected result at 18 and passing's)
are kept. A variant's decision is wrong where it declares (a limit of 18 or more) and the reference passes, or the
other way round; its loss there is the reference's gap between the best contract and passing, in SF points
against the table, the evaluator's own units. The reference is the same model with more worlds, so the figures
measure the noise a change removes, not whether the model is right (that takes a match).

    nice -n 15 .venv/bin/python -m benchmarks.bid_noise --first 24 --last 63 \\
        --variants strong+contracts+bidding+inference+sharp strong+contracts+bidding+inference+sharp+race

Player seeds: the reference 99991 + 3 x deal + seat, a variant's k-th 31 x deal + 3 x k + seat. `--out FILE`
keeps a JSON line per hand. A variant asked here also keeps, per seed, its own best mean and best lower bound at
18 (`contracts.lower_bound`), which the report sets beside the reference's best: how far the best of a few
worlds' estimates lies above the same model's judgement on 64 (the winner's curse); the report also counts how
many of a variant's decisions declare, against the reference's.

The reference costs most of the CPU (64 worlds of 12 M nodes a hand). `--reference FILE` reads it from the kept
lines of an earlier run instead (its `ref`, `best18` and `pass` for each deal and seat), and takes every variant
whose limits that line holds from it too (`--ask-again` asks them anew), so only a new variant is computed; its
figures are paired with the kept variants' hand by hand (the first variant named is the base of the pairs):

    nice -n 10 .venv/bin/python -m benchmarks.bid_noise --first 24 --last 63 \
        --reference benchmarks/results/issue25-bid-noise.jsonl \
        --variants strong+contracts+bidding+inference+sharp+race strong+contracts+bidding+inference+sharp+race+capped
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks import ai_variants
from skatbot.ai import contracts
from skatbot.ai.contracts import bidding_candidates
from skatbot.ai.strong import StrongPlayer
from skatbot.engine.cards import mask_of
from skatbot.engine.deal import Deal
from skatbot.engine.views import SeatView, seat_view


def player(spec: str, seed: int, worlds: int = contracts.WORLDS, budget: int = contracts.NODE_BUDGET) -> StrongPlayer:
    made = ai_variants.make(spec, seed)
    assert isinstance(made, StrongPlayer)
    made.contract_worlds, made.contract_budget = worlds, budget
    return made


def reference(spec: str, view: SeatView, deal: int, worlds: int, budget: int) -> dict[str, float | int | None]:
    """The reference's limit, best expected result at 18 and passing's value for this opening hand."""
    judge = player(spec, 99991 + deal * 3 + view.seat, worlds, budget)
    limit = judge.bid_limit(view) or 0
    estimates = judge._estimates(view, mask_of(view.hand), 18, bidding_candidates(view.hand, view.seat))
    best = max((e for e in (x.expected(18) for x in estimates) if e is not None), default=None)
    return {"ref": limit, "best18": best, "pass": judge.pass_value(view)}


def best_at_18(asked: StrongPlayer, view: SeatView, bound: bool) -> float | None:
    """The variant's own best candidate at 18 after its bid limit (the same evaluation, remembered): the best
    mean, or with `bound` the best `contracts.lower_bound`; set beside the reference's `best18` it shows how much
    the best of a few worlds' estimates exceeds the same model's judgement on 64 (the winner's curse)."""
    estimates = asked._estimates(view, mask_of(view.hand), 18, bidding_candidates(view.hand, view.seat))
    values = [contracts.lower_bound(e, 18, contracts.CURSE_K) if bound else e.expected(18) for e in estimates]
    return max((v for v in values if v is not None), default=None)


def hand_row(deal: int, seat: int, variants: Sequence[str], seeds: int, worlds: int, budget: int,
             kept: dict[str, object] | None = None, ask_again: bool = False) -> dict[str, object]:
    """One hand's reference and each variant's limits and CPU (`kept`: a line of an earlier run, whose reference
    and variants' limits are taken as they are, unless `ask_again` for the variants)."""
    view = seat_view(Deal.new(deal), seat)
    contracts.solve.cache_clear()
    row: dict[str, object] = {"deal": deal, "seat": seat}
    if kept is None:
        row.update(reference(variants[0], view, deal, worlds, budget))
    else:
        row.update({key: kept[key] for key in ("ref", "best18", "pass")})
    for spec in variants:
        if kept is not None and spec in kept and not ask_again:
            row[spec] = kept[spec]
            if spec + " cpu" in kept:
                row[spec + " cpu"] = kept[spec + " cpu"]
            continue
        limits, cpu, means, bounds = [], [], [], []
        for k in range(seeds):
            contracts.solve.cache_clear()
            asked = player(spec, deal * 31 + k * 3 + seat)
            started = time.process_time()
            limits.append(asked.bid_limit(view) or 0)
            cpu.append(time.process_time() - started)
            means.append(best_at_18(asked, view, False))
            bounds.append(best_at_18(asked, view, True))
        row[spec] = limits
        row[spec + " cpu"] = cpu
        row[spec + " best18"] = means
        row[spec + " bound18"] = bounds
    return row


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    half = 1.96 * math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n) if n > 1 else math.inf
    return mean, mean - half, mean + half


def numbers(row: dict[str, object], key: str) -> list[float]:
    values = row[key]
    assert isinstance(values, list)
    return [float(v) for v in values]


def losses(rows: Sequence[dict[str, object]], spec: str) -> list[float]:
    """Per hand, the reference's gap on the wrong side, averaged over the seeds."""
    out = []
    for row in rows:
        limits = numbers(row, spec)
        declare = int(str(row["ref"])) >= 18
        best, passing = row["best18"], row["pass"]
        gap = abs(float(str(best)) - float(str(passing))) if best is not None else 0.0
        out.append(sum(gap for x in limits if (x >= 18) != declare) / len(limits))
    return out


def curse(rows: Sequence[dict[str, object]], spec: str) -> str:
    """How far the variant's best estimate at 18 (its best mean, and its best lower bound) lies above the
    reference's, on average over the hands and seeds where both were solved ('' when not recorded)."""
    parts = []
    for key, name in ((" best18", "best mean"), (" bound18", "best lower bound")):
        gaps: list[float] = []
        for r in rows:
            values = r.get(spec + key)
            if isinstance(values, list) and r["best18"] is not None:
                gaps.extend(float(v) - float(str(r["best18"])) for v in values if v is not None)
        if len(gaps) > 1:
            mean, low, high = interval(gaps)
            parts.append(f"{name} at 18 minus the reference's {mean:+.2f} [{low:+.2f}, {high:+.2f}]")
    return "; " + ", ".join(parts) if parts else ""


def report(rows: Sequence[dict[str, object]], variants: Sequence[str]) -> list[str]:
    lines = [f"{len(rows)} opening hands, the reference declares {sum(int(str(r['ref'])) >= 18 for r in rows)}"]
    per = {}
    for spec in variants:
        per[spec] = losses(rows, spec)
        decisions = [(x >= 18, int(str(r["ref"])) >= 18) for r in rows for x in numbers(r, spec)]
        wrong = sum(a != b for a, b in decisions)
        split = sum(len({x >= 18 for x in numbers(r, spec)}) > 1 for r in rows)
        cpu = sorted(c for r in rows if spec + " cpu" in r for c in numbers(r, spec + " cpu"))
        mean, low, high = interval(per[spec])
        declared = sum(a for a, _ in decisions)
        excess = curse(rows, spec)
        timing = (f"bid_limit CPU median {cpu[len(cpu) // 2]:.2f} s, p95 {cpu[int(len(cpu) * 0.95)]:.2f} s" if cpu
                  else "CPU not measured (kept limits)")
        lines.append(f"  {spec}: declares {declared} of {len(decisions)} (the reference "
                     f"{sum(b for _, b in decisions)}); declare/pass against the reference wrong in {wrong} of "
                     f"{len(decisions)}, the seeds split on {split} hands; loss per hand {mean:.2f} [{low:.2f}, "
                     f"{high:.2f}] SF points; {timing}{excess}")
    for spec in variants[1:]:
        mean, low, high = interval([a - b for a, b in zip(per[variants[0]], per[spec], strict=True)])
        lines.append(f"  loss of {variants[0]} minus {spec}: {mean:+.2f} [{low:+.2f}, {high:+.2f}] per hand")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first", type=int, default=24, help="first deal seed")
    parser.add_argument("--last", type=int, default=63, help="last deal seed")
    parser.add_argument("--variants", nargs="+", required=True, help="strong variants (ai_variants names); the "
                        "first, with the reference's worlds and budget, is the reference")
    parser.add_argument("--seeds", type=int, default=3, help="player seeds per variant and hand")
    parser.add_argument("--reference-worlds", type=int, default=64)
    parser.add_argument("--reference-budget", type=int, default=12_000_000)
    parser.add_argument("--reference", type=Path, help="the reference (and the variants it holds) from the lines "
                        "of an earlier run's --out")
    parser.add_argument("--ask-again", action="store_true", help="with --reference: ask every variant anew")
    parser.add_argument("--out", type=Path, help="append a JSON line per hand")
    parser.add_argument("--curse-k", type=float, help="contracts.CURSE_K for this run (the `curse` switch's "
                        f"standard errors; default {contracts.CURSE_K})")
    options = parser.parse_args(argv)
    if options.curse_k is not None:
        contracts.CURSE_K = options.curse_k
    for spec in options.variants:
        problem = ai_variants.check(spec)
        if problem or not spec.startswith("strong+"):
            parser.error(problem or "the variants are strong's, with its contract searches switched on")
    kept: dict[tuple[int, int], dict[str, object]] = {}
    if options.reference is not None:
        for line in options.reference.read_text().splitlines():
            if line.strip():
                earlier = json.loads(line)
                kept[(int(earlier["deal"]), int(earlier["seat"]))] = earlier
        missing = [(d, s) for d in range(options.first, options.last + 1) for s in range(3) if (d, s) not in kept]
        if missing:
            parser.error(f"{options.reference} holds no line for deal {missing[0][0]}, seat {missing[0][1]}")
    rows = []
    print(f"contracts.CURSE_K {contracts.CURSE_K}")
    for deal in range(options.first, options.last + 1):
        for seat in range(3):
            row = hand_row(deal, seat, options.variants, options.seeds, options.reference_worlds,
                           options.reference_budget, kept.get((deal, seat)), options.ask_again)
            rows.append(row)
            if options.out is not None:
                with options.out.open("a") as out:
                    out.write(json.dumps(row) + "\n")
    print("\n".join(report(rows, options.variants)))


if __name__ == "__main__":
    main()
