"""/skat help rules: the English lines are RuleSet.summary(); German has a line for each."""

from __future__ import annotations

import pytest

from skatbot.engine import RuleSet
from skatbot.engine.rules import PRESETS, AllPass, BockTrigger, Losses
from skatbot.ui.rules_text import rules_lines

VARIANTS = [
    *PRESETS.values(),
    RuleSet(all_pass=AllPass.RAMSCH, ramsch_durchmarsch=False, ramsch_jungfrau=True),
    RuleSet(kontra=True, kontra_needs_bid=True, bock_triggers=frozenset(BockTrigger)),
    RuleSet(losses=Losses.SINGLE, ouvert_any_game=True, musik=True, dakker_value=69),
]


@pytest.mark.parametrize("rules", VARIANTS)
def test_english_lines_are_the_engine_summary(rules: RuleSet) -> None:
    assert rules_lines(rules, "en") == rules.summary()


@pytest.mark.parametrize("rules", VARIANTS)
def test_german_has_one_line_per_english_line(rules: RuleSet) -> None:
    german = rules_lines(rules, "de")
    assert len(german) == len(rules.summary())
    assert all(line.strip() and line not in rules.summary() for line in german)


def test_german_names_every_bock_trigger() -> None:
    (bock,) = [line for line in rules_lines(RuleSet(kontra=True, bock_triggers=frozenset(BockTrigger)), "de")
               if line.startswith("Bockrunden")]
    assert "Kontra" in bock and "Re" in bock and "60 Augen" in bock and "Grand Hand" in bock and "schwarz" in bock
