"""benchmarks/bid_noise: a wrong declare-or-pass costs the reference's gap between the best contract and
passing, averaged over the seeds, and the variants are compared hand by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import bid_noise


def test_a_wrong_side_costs_the_references_gap_and_variants_are_paired() -> None:
    rows: list[dict[str, object]] = [
        # the reference declares (best 10 above passing): a pass in one seed of three costs 10 / 3
        {"ref": 24, "best18": 0.0, "pass": -10.0, "a": [24, 0, 18], "b": [24, 24, 24], "a cpu": [0.1] * 3,
         "b cpu": [0.2] * 3},
        # the reference passes (the best contract 40 below passing): a declaration costs 40
        {"ref": 0, "best18": -50.0, "pass": -10.0, "a": [0, 0, 0], "b": [18, 0, 0], "a cpu": [0.1] * 3,
         "b cpu": [0.2] * 3},
    ]
    assert bid_noise.losses(rows, "a") == pytest.approx([10 / 3, 0.0])
    assert bid_noise.losses(rows, "b") == pytest.approx([0.0, 40 / 3])
    lines = bid_noise.report(rows, ["a", "b"])
    assert "wrong in 1 of 6" in lines[1] and "split on 1 hands" in lines[1]
    assert "loss of a minus b: -5.00" in lines[3]


def test_a_kept_reference_and_the_variants_it_holds_are_not_asked_again() -> None:
    spec = "strong+contracts+bidding+sharp"
    kept: dict[str, object] = {"deal": 24, "seat": 0, "ref": 24, "best18": 12.5, "pass": -15.0, spec: [24, 0, 24]}
    row = bid_noise.hand_row(24, 0, [spec], 3, 64, 12_000_000, kept)
    assert row == {"deal": 24, "seat": 0, "ref": 24, "best18": 12.5, "pass": -15.0, spec: [24, 0, 24]}
    lines = bid_noise.report([row], [spec])
    assert "wrong in 1 of 3" in lines[1] and "CPU not measured" in lines[1]


def test_the_report_counts_declarations_and_how_far_a_variants_best_lies_above_the_references() -> None:
    rows: list[dict[str, object]] = [
        {"ref": 24, "best18": 10.0, "pass": -10.0, "a": [24, 0, 18], "a best18": [14.0, -2.0, 13.0],
         "a bound18": [4.0, -12.0, None]},
        {"ref": 0, "best18": -50.0, "pass": -10.0, "a": [18, 0, 0], "a best18": [-5.0, -49.0, None],
         "a bound18": [-15.0, -60.0, -70.0]},
    ]
    line = bid_noise.report(rows, ["a"])[1]
    assert "declares 3 of 6 (the reference 3)" in line
    # best means: +4, -12, +3, +45, +1 above the reference's; bounds: -6, -22, +35, -10, -20
    assert "best mean at 18 minus the reference's +8.20" in line
    assert "best lower bound at 18 minus the reference's -4.60" in line


def test_curse_k_sets_the_bound_for_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from skatbot.ai import contracts

    monkeypatch.setattr(contracts, "CURSE_K", contracts.CURSE_K)  # put back after the test
    spec = "strong+contracts+bidding+sharp"
    kept = tmp_path / "kept.jsonl"
    kept.write_text("".join(json.dumps({"deal": 24, "seat": s, "ref": 0, "best18": -20.0, "pass": -10.0,
                                        spec: [0, 0, 0]}) + "\n" for s in range(3)))
    bid_noise.main(["--first", "24", "--last", "24", "--reference", str(kept), "--variants", spec,
                    "--curse-k", "0.25"])
    assert contracts.CURSE_K == 0.25
    assert "contracts.CURSE_K 0.25" in capsys.readouterr().out
