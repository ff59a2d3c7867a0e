"""/skat: tables and play. Thin: parse the command, call the table, reply; rendering lives in skatbot.ui."""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from skatbot.ai import TABLE_LEVELS, Level
from skatbot.engine import (
    PLAY,
    Action,
    Bid,
    Card,
    Claim,
    Contract,
    Declare,
    Discard,
    Hold,
    Kontra,
    MalformedText,
    Pass,
    Phase,
    PickUpSkat,
    PlayCard,
    Re,
    RuleSet,
)
from skatbot.engine.games import sort_key
from skatbot.engine.rules import PRESETS
from skatbot.engine.views import SeatView
from skatbot.interactions.desk import AskFirst, ai_level, conceding, pending_note, stored_then_acked
from skatbot.interactions.pending import move_entry
from skatbot.interactions.replies import named_game, say, within
from skatbot.interactions.table_place import Place, put_away, table_place
from skatbot.models import Deck, to_seconds
from skatbot.tables import Table, TableError, TableState, TableTiming
from skatbot.tables.errors import NotAtTable
from skatbot.tables.log import AddAI, Close, Join, Leave, RemoveAI, Start
from skatbot.tables.manager import ChannelBusy, NoTable
from skatbot.tables.table import Meant
from skatbot.tables.view import Step
from skatbot.ui.cards import card_from_text, card_label, contract_name
from skatbot.ui.fit import CHOICES, Limit, fit, fit_lines
from skatbot.ui.i18n import t
from skatbot.ui.languages import Lang
from skatbot.ui.pictures import list_chart
from skatbot.ui.presenter import Style
from skatbot.ui.refusals import CommandRefusal, ServerError
from skatbot.ui.render import board_text, list_text, lobby_text, move_reply, player_name

from ._common import choice, describe, en

if TYPE_CHECKING:
    from skatbot.app import SkatBot

log = logging.getLogger(__name__)
timing = logging.getLogger("skatbot.timing")

NEEDED_PERMISSIONS = ("view_channel", "send_messages", "read_message_history")
LOBBY_KINDS = {"join", "leave", "addai", "start"}
MOST_DEALS = 96
GAMES = ("clubs", "spades", "hearts", "diamonds", "grand", "null")
"""The values of /skat declare game: (the choice names are translated, the values stay these words)."""


class SkatCog(commands.GroupCog, group_name="skat", group_description=en("cmd.skat")):
    """Tables in channels, hands by DM, every move as a slash command or a button."""

    def __init__(self, bot: SkatBot) -> None:
        self.bot = bot
        services = bot.services  # built in the bot's setup_hook
        self.store = services.store
        self.looks = services.looks
        self.styles = services.looks.styles
        self.presenter = services.presenter
        self.manager = services.tables
        self.pending = services.pending
        self.desk = services.controls  # the table controls' service: the steps below share it
        super().__init__()

    async def cog_load(self) -> None:
        serves = self.bot.settings.serves_server  # with several processes, each announces its own servers' tables
        for table in await self.manager.restore(timing_for=self._timing, before_resume=self._before_resume,
                                                serves=serves):
            log.info("restored table %s in channel %s", table.id, table.channel_id)
        self.manager.start_scheduler(self.store)  # AI turns and timers another process left behind
        for table_id in await self.bot.storage.presentation.ended_owing():  # the outbox of tables that ended
            stored = await self.store.stored_table(table_id)
            ended = self.manager.adopt(stored) if serves(stored.guild_id) else None
            if ended is not None:
                await self._before_resume(ended)
                log.info("showed what table %s owed when it ended", ended.id)
        await self.pending.settle()  # moves shown pending when the bot stopped: recorded, or play again

    async def _before_resume(self, table: Table) -> None:
        """A table rebuilt after a restart: its players' languages and what it showed are read back, and what it
        owes is shown, in order (each player's hand in their own language)."""
        await self._load_style(table.guild_id)
        await self.looks.load_languages([occupant.user_id for occupant in table.current().places
                                        if occupant.user_id is not None])
        await self.presenter.catch_up(table.current())

    async def cog_unload(self) -> None:
        await self.manager.close()

    async def _timing(self, guild_id: int) -> TableTiming:
        """The server's turn timer and warning (from /skat settings), on top of the bot's AI pause."""
        settings = await self.looks.settings(guild_id)
        return replace(self.bot.table_timing, turn_seconds=float(settings.turn_seconds),
                       warn_after=float(settings.turn_seconds - settings.warning_seconds))

    # --- language and style ------------------------------------------------------------------------

    def style_for(self, guild_id: int) -> Style:
        return self.looks.style_for(guild_id)

    async def _load_style(self, guild_id: int | None) -> Style:
        return await self.looks.load(guild_id)

    def lang(self, interaction: discord.Interaction) -> Lang:
        return self.desk.lang(interaction)

    async def home_guild(self, user_id: int) -> int | None:
        """The server of the one table where the user is playing, as stored (refusals in a DM use its deck):
        whichever process serves it, and before the refused command looked it up (a card it could not read)."""
        mine = await self.store.playing_with(player_id=user_id)
        if len(mine) != 1:
            return None
        held = self.manager.tables.get(mine[0])
        if held is not None:
            return held.guild_id
        return (await self.bot.storage.tables.get(table_id=mine[0])).server_id

    # --- finding the table -----------------------------------------------------------------------------

    async def table_for(self, interaction: discord.Interaction, *, finished_too: bool = False) -> Table:
        """The table in this channel, or (in a DM) the one table where the user is playing, whichever process
        opened it or serves it (found in storage when this one does not hold it).

        `finished_too`: for read-only commands, a channel whose series ended still answers with its list.
        """
        here = await self.manager.find_in_channel(interaction.channel_id or 0, finished_too=finished_too)
        if here is not None:
            return here
        mine = await self.manager.playing_at(interaction.user.id)
        if mine is not None:
            return mine
        raise NoTable("no_table_here")

    # --- the lobby ----------------------------------------------------------------------------------------

    @app_commands.command(name="new", description=en("cmd.skat.new"))
    @app_commands.describe(seats=describe("cmd.skat.new.seats"), deals=describe("cmd.skat.new.deals"),
                           rules=describe("cmd.skat.new.rules"), hints=describe("cmd.skat.new.hints"))
    @app_commands.choices(rules=[choice(f"preset.{name}", name) for name in PRESETS])
    async def new(self, interaction: discord.Interaction, seats: Literal[3, 4] = 3,
                  deals: app_commands.Range[int, 1, MOST_DEALS] = 6, rules: str | None = None,
                  hints: bool = False) -> None:
        lang = self.lang(interaction)
        within(deals, 1, MOST_DEALS, "deals")
        if interaction.guild_id is None:
            raise NotAtTable("server_only")
        missing = [p for p in NEEDED_PERMISSIONS if not getattr(interaction.app_permissions, p)]
        if missing:
            raise ServerError("error.missing_permissions", perms=", ".join(missing))
        await self.manager.may_sit(interaction.user.id)  # e.g. not while at a running tournament table
        since = to_seconds(self.store.clock())
        async with self.pending.opening(interaction, since, lang, lambda: pending_note(interaction)) as watch:
            opened: list[tuple[Table, Place]] = []
            await stored_then_acked(self._open(interaction, seats, deals, rules, hints, opened), watch.shown_pending)
            table, place = opened[0]
            if place.thread is not None:
                text = t(lang, "reply.table_created_thread", id=table.id, thread=place.thread.mention)
            else:
                text = t(lang, "reply.table_created", id=table.id)
            await say(interaction, text)

    async def _open(self, interaction: discord.Interaction, seats: int, deals: int, rules: str | None, hints: bool,
                    opened: list[tuple[Table, Place]]) -> None:
        """Open the table (in a thread of its own where the server wants it) and store it, with its creator
        seated, in one write: the answer to /skat new waits for it (shown pending if it is slow)."""
        guild_id = interaction.guild_id
        assert guild_id is not None
        style = await self._load_style(guild_id)
        settings = await self.looks.settings(guild_id)
        if rules is None:
            rule_set = RuleSet.preset(settings.rule_preset).with_options(**settings.rules)
        else:
            rule_set = RuleSet.preset(rules)
        place = await table_place(interaction, settings.channel_policy, style.lang, interaction.user.display_name,
                                  check_free=self._check_free)
        try:
            table = await self.manager.create(guild_id=guild_id, channel_id=place.channel_id,
                                              parent_id=place.parent_id, creator_id=interaction.user.id,
                                              creator_name=interaction.user.display_name, size=seats, deals=deals,
                                              rules=rule_set, timing=await self._timing(guild_id), hints=hints)
        except Exception:
            await put_away(place)  # a thread opened for it stays empty: put it away
            raise
        opened.append((table, place))

    async def _check_free(self, channel_id: int) -> None:
        """A table runs in this channel already, whichever process opened it (read from the database)."""
        busy = await self.manager.find_in_channel(channel_id)
        if busy is not None:
            raise ChannelBusy(busy.id)

    @app_commands.command(name="hint", description=en("cmd.skat.hint"))
    async def hint(self, interaction: discord.Interaction) -> None:
        await self.desk.answer_hint(interaction, await self.table_for(interaction), None)

    @app_commands.command(name="join", description=en("cmd.skat.join"))
    async def join(self, interaction: discord.Interaction) -> None:
        table = await self.table_for(interaction)
        user = interaction.user
        await self.desk.lobby(interaction, table, table.join(user.id, user.display_name), Join(user.id, ""),
                          t(self.lang(interaction), "reply.joined", id=table.id))

    @app_commands.command(name="leave", description=en("cmd.skat.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        table = await self.table_for(interaction)
        await self.desk.lobby(interaction, table, table.leave(interaction.user.id), Leave(interaction.user.id),
                          t(self.lang(interaction), "reply.left", id=table.id))

    @app_commands.command(name="add-ai", description=en("cmd.skat.add-ai"))
    @app_commands.describe(level=describe("cmd.skat.add-ai.level"))
    @app_commands.choices(level=[choice(f"level.{level.value}", level.value) for level in TABLE_LEVELS])
    async def add_ai(self, interaction: discord.Interaction, level: str = Level.NORMAL.value) -> None:
        table, chosen_level = await self.table_for(interaction), ai_level(level)
        await self.desk.lobby(interaction, table, table.add_ai(interaction.user.id, chosen_level),
                          AddAI(chosen_level, interaction.user.id),
                          t(self.lang(interaction), "reply.done"))

    @app_commands.command(name="remove-ai", description=en("cmd.skat.remove-ai"))
    async def remove_ai(self, interaction: discord.Interaction) -> None:
        table = await self.table_for(interaction)
        await self.desk.lobby(interaction, table, table.remove_ai(interaction.user.id), RemoveAI(interaction.user.id),
                          t(self.lang(interaction), "reply.done"))

    @app_commands.command(name="start", description=en("cmd.skat.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        table = await self.table_for(interaction)
        await self.desk.lobby(interaction, table, table.start(interaction.user.id), Start(),
                          t(self.lang(interaction), "reply.done"))

    @app_commands.command(name="stop", description=en("cmd.skat.stop"))
    async def stop(self, interaction: discord.Interaction) -> None:
        table = await self.table_for(interaction)
        is_admin = interaction.guild_id is not None and interaction.permissions.manage_guild
        await self.desk.lobby(interaction, table, table.stop(interaction.user.id, is_admin=is_admin), Close("stopped"),
                          t(self.lang(interaction), "reply.done"))

    async def _last_table(self, interaction: discord.Interaction) -> Table:
        """For read-only commands: the channel's table, or its last one (a finished series keeps its list
        until a new table opens, across restarts too: a table no longer held is rebuilt from storage)."""
        return await self.table_for(interaction, finished_too=True)

    @app_commands.command(name="table", description=en("cmd.skat.table"))
    async def table(self, interaction: discord.Interaction) -> None:
        table = await self._last_table(interaction)
        lang = self.lang(interaction)
        view = table.current()
        text = lobby_text(view, lang, table.id)
        if view.board is not None and view.state is TableState.PLAYING:
            text += "\n\n" + board_text(view, view.board, view.deal_number, lang, self.style_for(table.guild_id).deck)
        await say(interaction, fit_lines(text.split("\n")))

    @app_commands.command(name="list", description=en("cmd.skat.list"))
    async def list_(self, interaction: discord.Interaction) -> None:
        table = await self._last_table(interaction)
        lang = self.lang(interaction)
        style = self.style_for(table.guild_id)
        extra: dict[str, Any] = {}
        view = table.current()
        if style.pictures and view.finished:
            await interaction.response.defer(ephemeral=True, thinking=True)  # the chart is drawn in a worker
            names = [player_name(view, p, lang) for p in range(len(view.places))]
            chart = await list_chart(view, names, lang)
            extra = {"file": chart.file()} if chart else {}
        await say(interaction, list_text(view, lang, style.deck), **extra)

    @app_commands.command(name="hand", description=en("cmd.skat.hand"))
    async def hand(self, interaction: discord.Interaction) -> None:
        table = await self.table_for(interaction)
        await self.desk.say_hand(interaction, table, self.lang(interaction))

    # --- the auction ----------------------------------------------------------------------------------

    @app_commands.command(name="bid", description=en("cmd.skat.bid"))
    @app_commands.describe(value=describe("cmd.skat.bid.value"))
    async def bid(self, interaction: discord.Interaction, value: int) -> None:
        await self._act(interaction, _bid_meant(value))

    @bid.autocomplete("value")
    async def bid_values(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        view = await self._view_for(interaction)
        actions = view.legal_actions if view is not None else ()
        if view is not None and Hold() in actions:  # answering a bid: hold or pass
            lang = self.lang(interaction)
            return [app_commands.Choice(name=fit(t(lang, "choice.hold", bid=view.bid), Limit.CHOICE_NAME),
                                        value=view.bid),
                    app_commands.Choice(name=fit(t(lang, "choice.pass"), Limit.CHOICE_NAME), value=PASS_VALUE)]
        return [app_commands.Choice(name=str(a.value), value=a.value) for a in actions
                if isinstance(a, Bid) and str(a.value).startswith(current.strip())][:CHOICES]

    @app_commands.command(name="hold", description=en("cmd.skat.hold"))
    async def hold(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, Hold())

    @app_commands.command(name="pass", description=en("cmd.skat.pass"))
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, Pass())

    # --- skat and declaration ------------------------------------------------------------------------

    @app_commands.command(name="pickup", description=en("cmd.skat.pickup"))
    async def pickup(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, PickUpSkat())

    @app_commands.command(name="discard", description=en("cmd.skat.discard"))
    @app_commands.describe(first=describe("cmd.skat.discard.first"), second=describe("cmd.skat.discard.second"))
    async def discard(self, interaction: discord.Interaction, first: str, second: str) -> None:
        await self._act(interaction, Discard(_card(first), _card(second)))

    @discard.autocomplete("first")
    @discard.autocomplete("second")
    async def discard_cards(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        view = await self._view_for(interaction)
        if view is None or view.phase is not Phase.DISCARD or view.current_seat != view.seat:
            return []
        deck = self.style_for(interaction.guild_id or 0).deck
        cards = sorted(view.hand, key=lambda c: sort_key(None, c))
        return _card_choices(cards, deck, self.lang(interaction), current)

    @app_commands.command(name="declare", description=en("cmd.skat.declare"))
    @app_commands.describe(game=describe("cmd.skat.declare.game"), hand=describe("cmd.skat.declare.hand"),
                           schneider=describe("cmd.skat.declare.schneider"),
                           schwarz=describe("cmd.skat.declare.schwarz"), ouvert=describe("cmd.skat.declare.ouvert"))
    @app_commands.choices(game=[choice(f"choice.game.{game}", game) for game in GAMES])
    async def declare(self, interaction: discord.Interaction, game: str, hand: bool = False,
                      schneider: bool = False, schwarz: bool = False, ouvert: bool = False) -> None:
        table = await self.table_for(interaction)
        deal = table.current().board
        if deal is not None and deal.phase is Phase.SKAT and not hand:
            raise CommandRefusal("pick_up_first")
        game_type = named_game(game)
        await self._act(interaction, Declare(Contract(game_type, hand, schneider, schwarz, ouvert)), table=table)

    # --- card play ------------------------------------------------------------------------------------

    @app_commands.command(name="play", description=en("cmd.skat.play"))
    @app_commands.describe(card=describe("cmd.skat.play.card"))
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        await self._act(interaction, PLAY[_card(card).index])

    @play.autocomplete("card")
    async def play_cards(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        deck = self.style_for(interaction.guild_id or 0).deck
        view = await self._view_for(interaction)
        if view is None:
            return []
        cards = [a.card for a in view.legal_actions if isinstance(a, PlayCard)]
        game = view.contract.game if view.contract else None
        return _card_choices(sorted(cards, key=lambda c: sort_key(game, c)), deck, self.lang(interaction), current)

    @app_commands.command(name="kontra", description=en("cmd.skat.kontra"))
    async def kontra(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, Kontra())

    @app_commands.command(name="re", description=en("cmd.skat.re"))
    async def re(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, Re())

    @app_commands.command(name="claim", description=en("cmd.skat.claim"))
    async def claim(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, Claim())

    @app_commands.command(name="concede", description=en("cmd.skat.concede"))
    @app_commands.describe(confirm=describe("cmd.skat.concede.confirm"))
    async def concede(self, interaction: discord.Interaction, confirm: bool = False) -> None:
        await self._act(interaction, conceding(confirmed=confirm))  # asks first, unless confirmed, when it costs

    # --- shared paths ------------------------------------------------------------------------------------

    async def _act(self, interaction: discord.Interaction, action: Action | Meant, table: Table | None = None) -> None:
        """Make the move (the table finds the sender's seat, once, and reads a `Meant` command there), then answer
        with what happened (the card played, the trick taken, what is next)."""
        table = table or await self.table_for(interaction)
        lang = self.lang(interaction)
        made: list[Step] = []

        async def move() -> None:
            made.append(await table.act(interaction.user.id, action, issued_at=typed_at(interaction)))

        async with self.pending.watch(interaction, table, move_entry(table, interaction.user.id, action), lang,
                                      lambda: interaction.response.defer(ephemeral=True)) as watch:
            try:
                await stored_then_acked(move(), watch.shown_pending)
            except AskFirst as ask:  # a concession that costs schneider or schwarz: nothing stored, asked first
                await self.desk.ask_concession(interaction, table, ask)
                return
            await say(interaction, move_reply(made[0], lang, self.style_for(table.guild_id).deck))

    async def _view_for(self, interaction: discord.Interaction) -> SeatView | None:
        try:
            return (await self.table_for(interaction)).current().seat_view(interaction.user.id)
        except (TableError, NoTable):
            return None


PASS_VALUE = 0
"""`/skat bid value:0` passes a player answering a bid (autocomplete offers it to them as "pass"); from the
player who must bid it is refused as off the ladder."""


def _bid_meant(value: int) -> Meant:
    """What `/skat bid value:N` means, read by the table from the sender's own view: while answering a bid, the
    choices autocomplete offers are "hold" (the bid itself) and "pass" (0). The player who must say a number is
    offered no 0: from them it is a mistyped bid, refused as off the ladder."""
    def meant(view: SeatView) -> Action:
        if Hold() in view.legal_actions:  # answering a bid
            if value == PASS_VALUE:
                return Pass()
            if value == view.bid:
                return Hold()
        return Bid(value)
    return meant

def typed_at(interaction: discord.Interaction) -> float:
    """When a typed command was issued (Discord's id says, to the millisecond: an entry stored within that
    millisecond was not seen either), and never later than now: a move is judged against the table as its
    sender saw it."""
    return min(interaction.created_at.timestamp(), time.time())


def _card(text: str) -> Card:
    try:
        return card_from_text(text)
    except MalformedText:
        raise CommandRefusal("bad_card", text=text) from None


def _card_choices(cards: list[Card], deck: Deck, lang: Lang, current: str) -> list[app_commands.Choice[str]]:
    needle = current.strip().lower()
    out = []
    for card in cards:
        label = card_label(card, deck, lang)
        if not needle or needle in label.lower() or needle in card.iss.lower():
            out.append(app_commands.Choice(name=fit(label, Limit.CHOICE_NAME), value=card.iss))
    return out[:CHOICES]


async def setup(bot: SkatBot) -> None:
    await bot.add_cog(SkatCog(bot))


__all__ = ["SkatCog", "TableTiming", "contract_name"]
