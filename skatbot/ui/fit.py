"""Text fitted to Discord's limits: the one place that knows them, and the one way text is shortened.

Discord refuses a whole message (400, code 50035) when one string in it is too long, so every text that
can grow (names, echoed input, long auctions, many rule lines) is fitted before it is sent. Shortened text
ends in a clear "…"; multi-line text loses whole lines where it can, so no line is cut in the middle.
"""

from __future__ import annotations

from enum import IntEnum

import discord

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
FIELDS = 25
"""At most this many fields in an embed."""


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



def fit_embed(embed: discord.Embed) -> discord.Embed:
    """The embed with every text fitted to its limit and at most 25 fields; if all of it together is still
    over Discord's 6,000, the description, then the fields (last first), then footer and author are
    shortened until it fits. Title and field order stay."""
    title = fit(embed.title, Limit.EMBED_TITLE) if embed.title else None
    parts: dict[str, str] = {}
    if embed.description:
        parts["description"] = fit(embed.description, Limit.EMBED_DESCRIPTION)
    fields = embed.fields[:FIELDS]
    for index in reversed(range(len(fields))):
        parts[f"value{index}"] = fit(fields[index].value or "", Limit.FIELD_VALUE)
    for index in reversed(range(len(fields))):
        parts[f"name{index}"] = fit(fields[index].name or "", Limit.FIELD_NAME)
    if embed.footer.text:
        parts["footer"] = fit(embed.footer.text, Limit.FOOTER)
    if embed.author.name:
        parts["author"] = fit(embed.author.name, Limit.AUTHOR)
    over = len(title or "") + sum(len(text) for text in parts.values()) - Limit.EMBED_TOTAL
    for key, text in parts.items():  # in the order of what may lose most
        if over <= 0:
            break
        shorter = fit(text, max(1, len(text) - over))
        over -= len(text) - len(shorter)
        parts[key] = shorter
    embed.title = title
    embed.description = parts.get("description")
    embed.clear_fields()
    for index, original in enumerate(fields):
        embed.add_field(name=parts[f"name{index}"], value=parts[f"value{index}"], inline=bool(original.inline))
    if "footer" in parts:
        embed.set_footer(text=parts["footer"], icon_url=embed.footer.icon_url)
    if "author" in parts:
        embed.set_author(name=parts["author"], url=embed.author.url, icon_url=embed.author.icon_url)
    return embed
