"""One way to reply: every answer to an interaction, and every refusal, goes out through here.

Commands raise; the command tree's error handler (`reply_error`, installed by `install`), the wrapper of
buttons and menus (`guarded`) and the table controls' desk (`ControlDesk.on_control`, which calls
`reply_error` itself) turn what was raised into one ephemeral reply in the reader's language and deck. Every known failure is a `Refusal` (skatbot.ui.refusals formats it); anything else is
logged once with its traceback and answered with a friendly generic sentence, never Python's own text. Every text is fitted to Discord's limits first.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, Protocol, runtime_checkable

import discord
from discord import app_commands
from discord.ext import commands

from skatbot.engine import GameType, MalformedText
from skatbot.engine.errors import Refusal
from skatbot.metrics import METRICS, refusal_kind
from skatbot.models import Deck
from skatbot.storage import NotFound
from skatbot.ui.cards import FRENCH, game_from_text
from skatbot.ui.controls import PREFIX, ControlDesk, parse_control
from skatbot.ui.fit import Limit, fit
from skatbot.ui.i18n import language_of, t
from skatbot.ui.languages import Lang
from skatbot.ui.refusals import CommandRefusal, ServerError, refusal_reply

from .looks import looks_of

log = logging.getLogger(__name__)


@runtime_checkable
class HomeGuilds(Protocol):
    """A cog that knows the server of a user's table (for refusals in a DM, in that server's deck)."""

    async def home_guild(self, user_id: int) -> int | None: ...


async def say(interaction: discord.Interaction, text: str, *, ephemeral: bool = True, **extra: Any) -> None:
    """Answer the interaction, or follow up when it was answered or deferred; text fitted to Discord's 2000."""
    text = fit(text, Limit.CONTENT)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral, **extra)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral, **extra)


async def reader_style(interaction: discord.Interaction) -> tuple[Lang, Deck]:
    """(language, deck) for a reply to this reader: their Discord language if we speak it, else the server's;
    the server's deck. In a DM the server is that of the reader's table. A failing database leaves English
    names and the French deck, so the refusal is still said."""
    guild_id = interaction.guild_id
    language, deck = "en", FRENCH
    try:
        if guild_id is None and isinstance(interaction.client, commands.bot.BotBase):  # Bot or AutoShardedBot
            for cog in interaction.client.cogs.values():
                if isinstance(cog, HomeGuilds):
                    guild_id = await cog.home_guild(interaction.user.id)
                    break
        if guild_id is not None:
            settings = await looks_of(interaction).settings(guild_id)
            language, deck = settings.language, settings.deck_style
    except Exception:  # the database itself failing: still answer, in the reader's language
        log.warning("no settings for server %s while answering a refusal", guild_id, exc_info=True)
    return language_of(str(interaction.locale), language), deck


def as_refusal(error: BaseException) -> Refusal | None:
    """What the user is told went wrong, as a refusal; None for anything unexpected. Two kinds of error come
    from outside the bot's own refusals and are said as one: an option value Discord would not have offered
    (discord.py's), and a row that storage does not hold where no command said more."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, app_commands.TransformerError):
        return CommandRefusal("bad_option", text=str(error.value), option=_option_name(error))
    if isinstance(error, NotFound):
        return ServerError("server.error.not_found")
    return error if isinstance(error, Refusal) else None


def refusal_of(error: BaseException, lang: Lang, deck: Deck = FRENCH) -> str | None:
    """The reply to a known refusal, None for anything unexpected."""
    refusal = as_refusal(error)
    return None if refusal is None else refusal_reply(refusal, lang, deck)


def _option_name(error: app_commands.TransformerError) -> str:
    words = re.sub(r"[^\w -]", "", str(getattr(error.transformer, "_error_display_name", ""))).split()
    return words[0] if words else "option"


def chosen(value: str, allowed: Iterable[str], option: str) -> str:
    """`value` if it is one of the `allowed` choices of `option`; else a refusal (Discord offers only the
    choices, so another value is a forged request, and it changes nothing)."""
    if value not in allowed:
        raise CommandRefusal("bad_option", text=value, option=option)
    return value


def named_game(text: str) -> GameType:
    """The game a `game:` option names: Discord sends the choice's value (`clubs`), and anything else a player
    might send is read as the bot's game names in any language and deck (`Kreuz`, `Eichel`, `nolo`); a refusal
    names the games in the player's language when it is none."""
    try:
        return game_from_text(text)
    except MalformedText:
        raise CommandRefusal("bad_game", text=text) from None


def within(value: int, low: int, high: int, option: str) -> int:
    """`value` if `low <= value <= high`; else a refusal (Discord enforces an option's range, so a value
    outside it is a forged request, and it changes nothing)."""
    if not low <= value <= high:
        raise CommandRefusal("out_of_range", option=option, low=low, high=high)
    return value


async def reply_error(interaction: discord.Interaction, error: BaseException) -> None:
    """The one error path: a refusal in the reader's language and deck, or, for anything unexpected, the
    failure logged once with its traceback and a friendly generic reply. Nothing here raises."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    lang, deck = await reader_style(interaction)
    text = refusal_of(original, lang, deck)
    METRICS.refused(refusal_kind(original, said=text is not None))
    if text is None:
        log.error("command failed for user %s in channel %s (interaction %s)", interaction.user.id,
                  interaction.channel_id, getattr(interaction, "id", "?"), exc_info=original)
        text = t(lang, "error.unexpected")
    try:
        await say(interaction, text)
    except discord.HTTPException as failed:  # expired, or answered in another way: nothing more we can say
        log.warning("could not answer interaction %s: %s", getattr(interaction, "id", "?"), failed)


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """Run a button's or menu's work; whatever it raises is answered by `reply_error` (discord.py would only
    log it, and the player would see "This interaction failed")."""
    try:
        await work()
    except Exception as error:  # the component path's one error handler: every failure gets an answer
        await reply_error(interaction, error)


async def on_tree_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    await reply_error(interaction, error)


def install(tree: app_commands.CommandTree[Any]) -> None:
    """Make `reply_error` the command tree's error handler (every slash command's refusals)."""
    tree.error(on_tree_error)


def carried(interaction: discord.Interaction, custom_id: str) -> bool:
    """Whether the message the interaction came from carries a component of the interaction's kind with this
    custom_id (discord.py dispatches a dynamic item only then)."""
    message = interaction.message
    data: Mapping[str, object] = interaction.data if isinstance(interaction.data, dict) else {}
    raw_kind = data.get("component_type")
    kind = raw_kind if isinstance(raw_kind, int) else None
    if message is None:
        return False
    stack: list[Any] = list(message.components)
    while stack:
        item = stack.pop()
        if getattr(item, "custom_id", None) == custom_id:
            item_type = getattr(item, "type", None)
            return kind is None or item_type is None or int(getattr(item_type, "value", item_type)) == kind
        stack.extend(getattr(item, "children", ()))
    return False


async def answer_stray(interaction: discord.Interaction, items: Iterable[type[discord.ui.DynamicItem[Any]]],
                       desk: ControlDesk | None) -> None:
    """The bot's one listener for components: a click on one of ours (a custom_id in the shape of one of
    `items`, or a table control's) that no item will answer, because the message it came from does not carry
    it (an outdated client, a forged request) or it is in a shape we no longer draw. A table control in a
    current shape is handled like any other click; one drawn before moves carried their action is refused as
    stale; anything else as a control we never offered. Nothing changes."""
    if interaction.type is not discord.InteractionType.component or not isinstance(interaction.data, dict):
        return
    custom_id = str(interaction.data.get("custom_id", ""))
    items = tuple(items)
    prefixes = {PREFIX, *(item.__discord_ui_compiled_template__.pattern.split(":")[0] + ":" for item in items)}
    if not custom_id.startswith(tuple(prefixes)):
        return
    if custom_id.startswith(PREFIX) and desk is None:  # the bot is starting: its services are not built yet
        await reply_error(interaction, ServerError("error.starting"))
        return
    matched = any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in items)
    if matched and carried(interaction, custom_id):
        return  # its item answers
    control = None
    if custom_id.startswith(PREFIX):
        raw = interaction.data.get("values")
        control = parse_control(custom_id, tuple(str(v) for v in raw) if isinstance(raw, list) else ())
    if control is None or desk is None:
        await reply_error(interaction, CommandRefusal("bad_control"))
        return
    await desk.on_control(interaction, control)
