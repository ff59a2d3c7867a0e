"""Refusal reasons in the player's language.

The engine and the tables explain a refusal in English ("you must follow hearts"); this module
recognises the common reasons and renders them from the catalog, so a German player reads German.
A reason it does not know is shown as it came.
"""

from __future__ import annotations

import re

from .i18n import t

# (pattern over the English reason, catalog key); named groups become the text's values.
REASONS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(pattern), key) for pattern, key in (
    (r"you must follow (?P<suit>diamonds|hearts|spades|clubs|trumps)", "reason.must_follow"),
    (r"(?P<card>\S+) is not in your hand", "reason.not_in_hand"),
    (r"(?P<value>\d+) is not on the bid ladder.*", "reason.off_ladder"),
    (r"bid more than (?P<bid>\d+)", "reason.bid_more"),
    (r"you are listening: hold \(yes\) or pass", "reason.listening"),
    (r"you are bidding: say a number or pass", "reason.bidding"),
    (r"bid 18 or pass", "reason.bid_18"),
    (r"pick up the skat or declare a hand game", "reason.skat_first"),
    (r"discard two cards first", "reason.discard_first"),
    (r"declare your game", "reason.declare_first"),
    (r"play a card", "reason.play_a_card"),
    (r"the deal is over", "reason.deal_over"),
    (r"no deal is being played at this table", "reason.no_deal"),
    (r"that deal is over; this is an old button or command", "reason.old_deal"),
    (r"the game has started: you cannot join now", "reason.started"),
    (r"you are already sitting at this table", "reason.seated"),
    (r"you picked up the skat: this cannot be a hand game", "reason.not_hand"),
))


def reason_text(reason: str, lang: str) -> str:
    """`reason` (English, from the engine or a table) in `lang`, when it is one we know."""
    reason = reason.strip().rstrip(".")
    for pattern, key in REASONS:
        found = pattern.fullmatch(reason)
        if found:
            values = dict(found.groupdict())
            if "suit" in values:
                values["suit"] = t(lang, f"reason.suit.{values['suit']}")
            return t(lang, key, **values)
    return reason
