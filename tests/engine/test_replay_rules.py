"""`python -m skatbot.records replay --rules NAME`: the corpus scored under each preset."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from skatbot.engine.records import parse_record, replay
from skatbot.engine.rules import PRESETS
from skatbot.records import summary
from skatbot.records.__main__ import iss_rules

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "iss" / "games.sgf"
LINES = [line for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


def scored(preset: str) -> list[dict[str, Any]]:  # summary()'s rows
    rules = iss_rules(PRESETS[preset])
    out = []
    for line in LINES:
        record = parse_record(line)
        out.append(summary(record.id, replay(record, rules)))
    return out


OFFICIAL_ROWS = scored("official")


@pytest.mark.parametrize("preset", ["pre-1999", "tournament", "pub", "danish"])
def test_every_record_replays_under_the_preset(preset: str) -> None:
    rows = scored(preset)
    for before, after in zip(OFFICIAL_ROWS, rows, strict=True):
        assert {k: v for k, v in before.items() if k not in ("score", "seat_scores")} == {
            k: v for k, v in after.items() if k not in ("score", "seat_scores")}
        declarer, value_score = before["declarer"], before["score"]
        if declarer is None:
            assert after["score"] == 0 and after["seat_scores"] == [0, 0, 0]
            continue
        assert isinstance(declarer, int) and isinstance(value_score, int)
        won = bool(before["won"])
        value = value_score if won else -value_score // 2
        expected = [0, 0, 0]
        if preset == "pre-1999":
            expected[declarer] = value if won else -value * (2 if before["hand"] else 1)
        elif preset == "tournament":
            expected = [0 if won else 40] * 3
            expected[declarer] = value + 50 if won else -2 * value - 50
        elif preset == "danish" and before["game"] == "null" and before["hand"] and before["ouvert"]:
            expected[declarer] = 69 if won else -138  # Dækker at 69
        else:  # Kontra, Bock, Ramsch, Musik and open play change nothing in a record without them
            expected[declarer] = value_score
        assert after["seat_scores"] == expected and after["score"] == expected[declarer]


def test_pre_1999_and_tournament_differ_where_the_rules_say() -> None:
    pre = {row["id"]: row for row in scored("pre-1999")}
    lost_pickups = [row for row in OFFICIAL_ROWS if row["declarer"] is not None and not row["won"]
                    and not row["hand"]]
    assert lost_pickups, "the corpus has a lost game after a pickup"
    for row in lost_pickups:
        assert pre[row["id"]]["score"] == row["score"] // 2  # -value instead of -2 x value


def test_danish_reads_the_official_open_games_of_iss_records() -> None:
    danish = {row["id"]: row for row in scored("danish")}
    assert danish["727"] == next(row for row in OFFICIAL_ROWS if row["id"] == "727")  # grand ouvert: schwarz
    assert any(row["game"] == "null" and row["hand"] and row["ouvert"] for row in danish.values())


def test_official_score_is_unchanged() -> None:
    for row in OFFICIAL_ROWS:
        if row["declarer"] is not None:
            assert row["score"] == row["seat_scores"][row["declarer"]]


def test_ramsch_presets_keep_passed_records_passed() -> None:
    pub = iss_rules(PRESETS["pub"])
    assert not pub.ramsch and pub.kontra and pub.bock_triggers == PRESETS["pub"].bock_triggers
    assert iss_rules(PRESETS["official"]) is PRESETS["official"]


def test_cli_scores_under_a_preset() -> None:
    done = subprocess.run([sys.executable, "-m", "skatbot.records", "replay", "--rules", "tournament", str(CORPUS)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert rows == json.loads(json.dumps(scored("tournament")))
    unknown = subprocess.run([sys.executable, "-m", "skatbot.records", "replay", "--rules", "casino", str(CORPUS)],
                             cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert unknown.returncode == 2 and "tournament" in unknown.stderr
