"""benchmarks/bid_noise: a wrong declare-or-pass costs the reference's gap between the best contract and
passing, averaged over the seeds, and the variants are compared hand by hand."""

from __future__ import annotations

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
