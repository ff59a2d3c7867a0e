"""A hint as the player reads it: the suggested move and the one-line reason the search gave."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skatbot.engine import Bid, Declare, Discard, Hold, Pass, PickUpSkat, PlayCard
from skatbot.models import Deck

from .cards import FRENCH, card_label, cards_text, contract_name
from .i18n import N_, t
from .languages import Lang

if TYPE_CHECKING:
    from skatbot.ai.hint_values import Basis, Hint


def move_text(action: object, lang: Lang, deck: Deck = FRENCH) -> str:
    """The suggested move, in the words of the player's buttons."""
    if isinstance(action, PlayCard):
        return t(lang, "hint.play", card=card_label(action.card, deck, lang))
    if isinstance(action, Bid):
        return t(lang, "button.bid", value=action.value)
    if isinstance(action, Hold):
        return t(lang, "hint.hold")
    if isinstance(action, Pass):
        return t(lang, "button.pass")
    if isinstance(action, PickUpSkat):
        return t(lang, "button.pickup")
    if isinstance(action, Discard):
        return t(lang, "hint.discard", cards=cards_text((action.first, action.second), deck, lang))
    if isinstance(action, Declare):
        return t(lang, "hint.declare", game=contract_name(action.contract, lang, deck))
    return str(action)


def hint_text(hint: Hint, lang: Lang, deck: Deck = FRENCH) -> str:
    move = move_text(hint.action, lang, deck)
    if hint.ramsch and hint.worlds and hint.second is not None:
        return t(lang, "hint.ramsch_card", move=move, safe=hint.wins, worlds=hint.worlds,
                 second=card_label(hint.second, deck, lang), second_safe=hint.second_wins)
    if hint.worlds and hint.second is not None:
        return t(lang, "hint.card", move=move, wins=hint.wins, worlds=hint.worlds,
                 second=card_label(hint.second, deck, lang), second_wins=hint.second_wins)
    if isinstance(hint.action, PlayCard):
        return t(lang, "hint.card_plain", move=move)
    if hint.basis is not None:
        return basis_text(hint.basis, move, lang, deck)
    return t(lang, "hint.evaluation", move=move)


REASON_KEYS = {
    "bid": N_("hint.why_bid"),
    "pass": N_("hint.why_pass"),
    "hand": N_("hint.why_hand"),
    "pick_up": N_("hint.why_pick_up"),
    "discard": N_("hint.why_discard"),
    "declare": N_("hint.why_declare"),
}
"""The reason's text per `skatbot.ai.hint_values.Reason` value (read by value: the ai is not imported
here)."""


def basis_text(basis: Basis, move: str, lang: Lang, deck: Deck = FRENCH) -> str:
    """The one-line reason for a decision before card play, from the figures the hand evaluation gave."""
    reason = basis.reason.value
    if basis.game is None or (reason == "pass" and basis.value == 0 and basis.chance < 0.005):
        if reason == "pick_up":
            return t(lang, "hint.why_pick_up_nothing", move=move)
        if reason == "pass":
            return t(lang, "hint.why_pass_nothing", move=move)
        return t(lang, "hint.evaluation", move=move)
    if reason == "pass" and basis.value == 0:
        return t(lang, "hint.why_pass_no_bid", move=move, game=contract_name(basis.game, lang, deck),
                 chance=round(basis.chance * 100))
    return t(lang, REASON_KEYS[reason], move=move, game=contract_name(basis.game, lang, deck),
             chance=round(basis.chance * 100), value=basis.value, points=basis.points)
