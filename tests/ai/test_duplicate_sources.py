"""Where a duplicate match's difference comes from (benchmarks/duplicate_sources.py): worked examples whose
parts add up to the recorded difference, since a wrong sign would point the next change at the wrong decisions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.ai_tournament import pooled
from benchmarks.duplicate_sources import UNNOTED, sources

SEATINGS = [
    "ABB A0 clubs bid 18 value 24 won",  # A declares clubs and wins: 74 for an A seat
    "BAA passed",  # with B in that seat everyone passes
    "BAB A1 grand bid 24 value 48 lost",  # A loses the grand (-146), the two B's get 40 each
    "ABA B1 grand bid 24 value 48 won",  # B wins the same grand in the same seat (98 for a B seat)
    "BBA passed",
    "AAB passed",
]
NOTED = (74 + (-146 - 80) - 98) / 9  # each side held nine seats


def row(seed: int, difference: float) -> dict[str, object]:
    return {"seed": seed, "a": "strong+x", "b": "strong", "baseline": "d12d2ea", "difference": difference,
            "seatings": SEATINGS}


def test_the_sources_of_a_deal_add_up_to_its_difference() -> None:
    deals, parts = sources([row(1, NOTED)])
    assert deals == 1 and sum(parts.values()) == pytest.approx(NOTED)
    assert parts == pytest.approx({
        "A declared where the other side in its seat left all passing: won": 74 / 9,
        "the same game, another result": (-146 - 80 - 98) / 9,
        "all passed in both": 0.0,
    })


def test_what_the_notes_cannot_show_is_its_own_part_per_deal() -> None:
    """A Ramsch or a Kontra changes the score but not the note: the rest of the difference is shown apart."""
    deals, parts = sources([row(1, NOTED), row(2, NOTED + 5.0), {"seed": 3, "difference": 1.0}])
    assert deals == 2  # the row without seatings counts in no source
    assert parts[UNNOTED] == pytest.approx(2.5)
    assert sum(parts.values()) == pytest.approx(NOTED + 2.5)


def test_a_note_that_is_not_one_is_refused_by_name() -> None:
    broken = row(1, 0.0) | {"seatings": [*SEATINGS[:5], "AAB A0 clubs bid eighteen"]}
    with pytest.raises(ValueError, match="not a seating note: 'AAB A0 clubs bid eighteen'"):
        sources([broken])


def test_pooled_files_show_the_sources_under_their_pairing(tmp_path: Path) -> None:
    out = tmp_path / "match.jsonl"
    out.write_text(json.dumps(row(1, NOTED)) + "\n" + json.dumps(row(2, NOTED)) + "\n")
    lines = pooled([out])
    assert lines[0].startswith(f"strong+x vs strong (baseline d12d2ea): {NOTED:+.2f}")
    assert lines[1:] == [f"  {(-146 - 80 - 98) / 9:+.2f} per deal: the same game, another result",
                         f"  {74 / 9:+.2f} per deal: A declared where the other side in its seat left all passing: won"]
