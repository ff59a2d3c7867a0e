"""`/skat help rules`: one plain line per option of a RuleSet, in the reader's language.

The engine holds no prose for players; these lines are the catalogs' `rules.*` entries.
"""

from __future__ import annotations

from skatbot.engine import RuleSet
from skatbot.engine.rules import BockTrigger, Losses

from .i18n import N_, t
from .languages import Lang

_TRIGGER_KEYS = {
    BockTrigger.KONTRA_GAME: N_("rules.bock.kontra"),
    BockTrigger.RE_GAME: N_("rules.bock.re"),
    BockTrigger.LOST_AT_60: N_("rules.bock.lost_at_60"),
    BockTrigger.GRAND_HAND_WON: N_("rules.bock.grand_hand_won"),
    BockTrigger.SCHWARZ: N_("rules.bock.schwarz"),
}


def rules_lines(rules: RuleSet, lang: Lang) -> list[str]:
    """The rules a table plays by, one line per option, in the order of `RuleSet.summary`."""
    lines: list[str] = []
    if rules.ramsch:
        lines.append(t(lang, "rules.all_pass.ramsch"))
        lines.append(t(lang, "rules.durchmarsch.on" if rules.ramsch_durchmarsch else "rules.durchmarsch.off"))
        if rules.ramsch_jungfrau:
            lines.append(t(lang, "rules.jungfrau"))
    else:
        lines.append(t(lang, "rules.all_pass.throw_in"))
    if rules.kontra:
        who = t(lang, "rules.kontra.who_bid" if rules.kontra_needs_bid else "rules.kontra.who_any")
        lines.append(t(lang, "rules.kontra", who=who))
    if rules.bock_triggers:
        events = ", ".join(t(lang, _TRIGGER_KEYS[trigger]) for trigger in BockTrigger
                           if trigger in rules.bock_triggers)
        lines.append(t(lang, "rules.bock", events=events))
    lines.append(t(lang, "rules.losses.single" if rules.losses is Losses.SINGLE else "rules.losses.double"))
    if rules.seeger_fabian:
        lines.append(t(lang, "rules.seeger"))
    if rules.ouvert_any_game:
        lines.append(t(lang, "rules.ouvert_any"))
    if rules.dakker_value != 59:
        lines.append(t(lang, "rules.dakker", value=rules.dakker_value))
    if rules.musik:
        lines.append(t(lang, "rules.musik"))
    return lines
