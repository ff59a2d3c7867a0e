"""/skat help rules: one plain line per active option of a RuleSet, in every language of the registry.

The engine holds no prose for players: these lines come from the catalogs only."""

from __future__ import annotations

import pytest

from skatbot.engine import OFFICIAL, RuleSet
from skatbot.engine.rules import PRESETS, AllPass, BockTrigger, Losses
from skatbot.ui.i18n import CODES
from skatbot.ui.languages import Lang
from skatbot.ui.rules_text import rules_lines

VARIANTS = [
    *PRESETS.values(),
    RuleSet(all_pass=AllPass.RAMSCH, ramsch_durchmarsch=False, ramsch_jungfrau=True),
    RuleSet(kontra=True, kontra_needs_bid=True, bock_triggers=frozenset(BockTrigger)),
    RuleSet(losses=Losses.SINGLE, ouvert_any_game=True, musik=True, dakker_value=69),
]


def test_english_has_one_plain_line_per_active_option() -> None:
    assert rules_lines(OFFICIAL, Lang("en")) == ["All pass: the cards are thrown in and the next dealer deals.",
                                           "Losses: a lost game costs twice its value (official since 1999)."]
    pub = "\n".join(rules_lines(RuleSet.preset("pub"), Lang("en")))
    assert "Ramsch" in pub and "Durchmarsch" in pub and "Kontra" in pub and "Bock" in pub
    assert "a game lost at 60 card points" in pub and "on a tie, every tied player loses" in pub
    assert "30 at a table of four" in "\n".join(rules_lines(RuleSet.preset("tournament"), Lang("en")))
    assert "before 1999" in "\n".join(rules_lines(RuleSet.preset("pre-1999"), Lang("en")))
    danish = rules_lines(RuleSet.preset("danish"), Lang("en"))
    assert any("Musik" in line for line in danish) and any("69" in line for line in danish)
    assert any("open (ouvert)" in line for line in danish)
    needs_bid = rules_lines(RuleSet(kontra=True, kontra_needs_bid=True), Lang("en"))
    assert any("a defender who bid at least 18" in line for line in needs_bid)
    assert len(rules_lines(RuleSet(all_pass=AllPass.RAMSCH, ramsch_jungfrau=True), Lang("en"))) == 4


@pytest.mark.parametrize("rules", VARIANTS)
@pytest.mark.parametrize("lang", CODES)
def test_every_language_has_one_line_per_english_line(rules: RuleSet, lang: Lang) -> None:
    english, lines = rules_lines(rules, Lang("en")), rules_lines(rules, lang)
    assert len(lines) == len(english) and len(set(lines)) == len(lines)
    assert all(line.strip() and line.endswith(".") and "\n" not in line and "{" not in line for line in lines)
    if lang != "en":
        assert not set(lines) & set(english)


def test_danish_and_french_use_the_rules_texts_words() -> None:
    danish = rules_lines(RuleSet.preset("danish"), Lang("da"))
    assert any(line.startswith("Musik: ") and "trumf 7" in line and "ruder bonde" in line for line in danish)
    assert any("Dækker (nolo åbent på hånden) er 69 værd" in line for line in danish)
    french = rules_lines(RuleSet.preset("pub"), Lang("fr"))
    assert any(line.startswith("Tout le monde passe\u00a0: Ramsch.") for line in french)


def test_german_names_every_bock_trigger() -> None:
    (bock,) = [line for line in rules_lines(RuleSet(kontra=True, bock_triggers=frozenset(BockTrigger)), Lang("de"))
               if line.startswith("Bockrunden")]
    assert "Kontra" in bock and "Re" in bock and "60 Augen" in bock and "Grand Hand" in bock and "schwarz" in bock
