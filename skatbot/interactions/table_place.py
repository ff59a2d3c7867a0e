"""Where a new table plays: in the channel, or (when the server chose it) in a public thread of its own.

The thread is opened from a short notice in the channel, so the channel shows that one message with the
thread under it, and the lobby, board, tricks and results go to the thread. When no thread can be opened
(this is a thread already, the kind of channel has no threads, a permission is missing, Discord refuses)
the table plays in the channel and one public message says why.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

import discord

from skatbot.ui.fit import Limit, fit
from skatbot.ui.i18n import t
from skatbot.ui.languages import Lang

log = logging.getLogger(__name__)

THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
AUTO_ARCHIVE_MINUTES: Literal[10080] = 10080
"""Discord archives a quiet thread after this long (the longest it allows: a week). Turn timers keep a game
moving, so only a lobby nobody joins goes quiet; a message reopens an archived thread, but editing the
lobby there would fail, hence the week. Finished tables' threads are archived at once."""


@dataclass(frozen=True, slots=True)
class Place:
    """`channel_id`: where the table plays and is found; with a thread of its own, `parent_id` is the
    channel it was opened from and `notice` the message there the thread was opened from."""

    channel_id: int
    parent_id: int | None = None
    thread: discord.Thread | None = None
    notice: discord.Message | None = None


async def table_place(interaction: discord.Interaction, policy: str, lang: Lang, creator: str,
                      check_free: Callable[[int], Awaitable[None]]) -> Place:
    """The place for a table opened by this interaction under the server's `policy` ("thread" or "channel").

    `lang`: the server's language (everything here is public). `check_free(channel_id)` raises when the
    channel already has a table; it runs before a fallback notice, so a refused table posts nothing."""
    here = Place(interaction.channel_id or 0)
    channel = interaction.channel
    if policy != "thread":
        return here
    if isinstance(channel, discord.Thread):
        reason = t(lang, "notice.thread_fallback.in_thread")
    elif not isinstance(channel, discord.TextChannel):
        reason = t(lang, "notice.thread_fallback.channel_kind")
    else:
        missing = [name for name in THREAD_PERMISSIONS if not getattr(interaction.app_permissions, name)]
        if not missing:
            return await _open_thread(channel, lang, creator, here, check_free)
        reason = t(lang, "notice.thread_fallback.permission",
                   perms=", ".join(t(lang, f"perm.{name}") for name in missing))
    await check_free(here.channel_id)
    if channel is not None and hasattr(channel, "send"):
        await channel.send(reason)
    return here


async def _open_thread(channel: discord.TextChannel, lang: Lang, creator: str, here: Place,
                       check_free: Callable[[int], Awaitable[None]]) -> Place:
    shown = discord.utils.escape_mentions(discord.utils.escape_markdown(creator))
    notice = await channel.send(t(lang, "notice.thread_opened", name=shown))
    try:
        thread = await notice.create_thread(name=thread_name(lang, creator), auto_archive_duration=AUTO_ARCHIVE_MINUTES)
    except discord.HTTPException as error:
        log.warning("could not open a thread for a table in channel %s: %s %s", channel.id, error.status, error.text)
        try:
            await check_free(here.channel_id)
        except Exception:  # the channel has a table already: the refusal is the answer, the notice goes
            await notice.delete()
            raise
        detail = f"{error.status} {error.text}".strip()
        await notice.edit(content=t(lang, "notice.thread_fallback.refused", error=detail))
        return here
    return Place(thread.id, channel.id, thread, notice)


def thread_name(lang: Lang, creator: str) -> str:
    """"Skat · Alice's table", within Discord's limit for a thread name (display names are short anyway)."""
    name = " ".join(creator.split())[:64] or "?"
    return fit(t(lang, "thread.name", name=name), Limit.THREAD_NAME)


async def put_away(place: Place) -> None:
    """Put away a thread the table could not use (a failure after it was opened): archive it, and take its
    notice out of the channel, so nothing there invites players to a table that does not exist."""
    if place.thread is not None:
        try:
            await place.thread.edit(archived=True)
        except discord.HTTPException as error:
            log.info("could not archive thread %s: %s", place.thread.id, error)
    if place.notice is not None:
        try:
            await place.notice.delete()
        except discord.HTTPException as error:
            log.info("could not delete the notice %s of an unused thread: %s", place.notice.id, error)
