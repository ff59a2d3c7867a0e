"""Text fitted to Discord's limits: the one place that knows them, and the one way text is shortened.

Discord refuses a whole message (400, code 50035) when one string in it is too long, so every text that
can grow (names, echoed input, long auctions, many rule lines) is fitted before it is sent. Shortened text
ends in a clear "…"; multi-line text loses whole lines where it can, so no line is cut in the middle.
"""

from __future__ import annotations

from enum import IntEnum

ELLIPSIS = "…"


class Limit(IntEnum):
    """Discord's limits, in characters (counts where named so)."""

    CONTENT = 2000  # a message's content
    EMBED_TITLE = 256
    EMBED_DESCRIPTION = 4096
    FIELD_NAME = 256
    FIELD_VALUE = 1024
    FOOTER = 2048
    AUTHOR = 256
    EMBED_TOTAL = 6000  # title, description, fields, footer and author of all a message's embeds together
    BUTTON_LABEL = 80
    SELECT_PLACEHOLDER = 150
    OPTION_LABEL = 100  # a select menu option's label, value and description
    OPTION_DESCRIPTION = 100
    CHOICE_NAME = 100  # an autocomplete or slash-command choice
    CHOICE_VALUE = 100
    THREAD_NAME = 100
    ECHO = 60  # not Discord's: how much of a player's own input a reply quotes back


CHOICES = 25
"""At most this many autocomplete choices, select options, or items per menu."""


def fit(text: str, limit: int) -> str:
    """`text` if it fits `limit`, else shortened to exactly fit, ending in "…".

    Multi-line text is cut at a line break when one falls in the last quarter of what fits (the "…" then
    stands on a line of its own); otherwise it is cut inside the line, trailing spaces dropped."""
    if limit < 1:
        raise ValueError("a limit is at least one character")
    if len(text) <= limit:
        return text
    head = text[:limit - len(ELLIPSIS)]
    newline = head.rfind("\n")
    if newline >= 0 and newline >= len(head) * 3 // 4:
        return head[:newline + 1] + ELLIPSIS
    return head.rstrip() + ELLIPSIS


def fit_lines(lines: list[str], limit: int = Limit.CONTENT, *, first_droppable: int = 0) -> str:
    """Join lines into one text of at most `limit` characters, dropping whole lines (from `first_droppable`
    on, oldest first, marked by one "…") rather than cutting a line in the middle; if the kept lines alone
    are too long, whole lines go from the end (and a single line still too long is cut by `fit`)."""
    text = "\n".join(lines)
    if len(text) <= limit or len(lines) <= 1:
        return fit(text, limit)
    head, rest = lines[:first_droppable], lines[first_droppable:]
    while rest and len("\n".join([*head, ELLIPSIS, *rest])) > limit:
        rest = rest[1:]
    text = "\n".join([*head, ELLIPSIS, *rest])
    while len(text) > limit and "\n" in text:  # the kept lines alone are too long: drop from the end
        text = text.rsplit("\n", 1)[0]
    return fit(text, limit)
